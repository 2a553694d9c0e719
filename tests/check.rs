//! `ninety check` on faulty rulesets: every file in `tests/check-inputs/` fails, and its
//! diagnostics, rendered plain at a fixed width, are snapshotted.

use std::path::{Path, PathBuf};

use ninety::app::load::check_one;
use ninety::compile::Loader;

/// Reads paths relative to `tests/`, so diagnostics name `check-inputs/x.rules` on every
/// machine; a parent that is not there is a shipped ruleset (`extends "ninety-nine"`).
struct TestsDir(PathBuf);

impl Loader for TestsDir {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        std::fs::read(self.0.join(path)).or_else(|e| {
            let stem = Path::new(path)
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("");
            ninety::compile::SHIPPED
                .iter()
                .find(|(name, _)| *name == stem)
                .map(|(_, text)| text.as_bytes().to_vec())
                .ok_or_else(|| e.to_string())
        })
    }
}

#[test]
fn check_inputs() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    insta::glob!("check-inputs/*.rules", |path| {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let shown = format!("check-inputs/{name}");
        let checked =
            check_one(&TestsDir(tests.clone()), &shown, &[]).expect("the file is readable");
        assert!(
            checked.errors() + checked.warnings() > 0,
            "{shown} should not check clean"
        );
        if !name.starts_with("warn_") {
            assert!(checked.errors() > 0, "{shown} should fail with an error");
        }
        let rendered: Vec<String> = checked.diags.iter().map(|d| d.render_plain(90)).collect();
        insta::assert_snapshot!(rendered.join("\n"));
    });
}

#[test]
fn a_huge_file_is_refused_without_reading_it_all() {
    let dir = std::env::temp_dir().join(format!("ninety-huge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("huge.rules");
    let line = "# a comment line that goes on and on and on and on and on and on and on\n";
    std::fs::write(&path, line.repeat(5 * 1024 * 1024 / line.len())).expect("write");
    let checked =
        check_one(&ninety::compile::Disk, path.to_str().expect("utf-8"), &[]).expect("readable");
    assert_eq!(checked.errors(), 1);
    assert!(
        checked.diags[0].message.contains("too big"),
        "{}",
        checked.diags[0].message
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_binary_file_is_refused() {
    let dir = std::env::temp_dir().join(format!("ninety-bin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("bin.rules");
    std::fs::write(&path, [0x7f, b'E', b'L', b'F', 0, 1, 2, 0xff, 0xfe]).expect("write");
    let checked =
        check_one(&ninety::compile::Disk, path.to_str().expect("utf-8"), &[]).expect("readable");
    assert_eq!(checked.errors(), 1);
    assert!(
        checked.diags[0].message.contains("binary"),
        "{}",
        checked.diags[0].message
    );
    let _ = std::fs::remove_dir_all(&dir);
}
