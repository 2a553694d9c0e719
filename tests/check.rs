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

/// `TestsDir` with one file's text replaced.
struct Edited<'a> {
    dir: &'a TestsDir,
    path: &'a str,
    text: &'a str,
}

impl Loader for Edited<'_> {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        if path == self.path {
            return Ok(self.text.as_bytes().to_vec());
        }
        self.dir.read(path)
    }
}

/// Every rewrite a diagnostic proposes (the quick fix an editor offers) mends the problem:
/// with it applied, that problem is gone from its line.
#[test]
fn every_fix_mends_its_problem() {
    let dir = TestsDir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests"));
    let mut tried = Vec::new();
    let inputs = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/check-inputs");
    let mut names: Vec<String> = std::fs::read_dir(&inputs)
        .expect("inputs")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".rules"))
        .collect();
    names.sort();
    for name in names {
        let path = format!("check-inputs/{name}");
        let checked = check_one(&dir, &path, &[]).expect("readable");
        for d in &checked.diags {
            let (Some(fix), Some(source)) = (&d.fix, &d.source) else {
                continue;
            };
            if source.name != path {
                continue;
            }
            let mut text = source.text.to_string();
            text.replace_range(fix.span.start..fix.span.end, &fix.replacement);
            let line = |s: &ninety::base::Source, at: usize| s.line_col(at).0;
            let at = line(source, d.span.start);
            let edited = Edited {
                dir: &dir,
                path: &path,
                text: &text,
            };
            let again = check_one(&edited, &path, &[]).expect("readable");
            let left = again.diags.iter().any(|e| {
                e.code == d.code
                    && e.source
                        .as_ref()
                        .is_some_and(|s| s.name == path && line(s, e.span.start) == at)
            });
            assert!(
                !left,
                "{path}: `{}` → `{}` leaves `{}`",
                &source.text[fix.span.start..fix.span.end],
                fix.replacement,
                d.message
            );
            tried.push(format!("{name}: {}", d.code.name()));
        }
    }
    assert!(
        tried.len() >= 12,
        "only {} fixes tried: {tried:?}",
        tried.len()
    );
}
