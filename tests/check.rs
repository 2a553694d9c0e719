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

/// Every reading an `ambiguous` hint offers can be pasted as it is: put in place of the
/// card's effect, the line checks with no error there; and a card with `or` choices keeps
/// every one of them in each reading (the Ace of the choice file still offers two ways at
/// every total, one of them winning the game on 88).
#[test]
fn every_ambiguous_reading_pasted_checks_and_keeps_the_choices() {
    let dir = TestsDir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests"));
    let inputs = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/check-inputs");
    let mut names: Vec<String> = std::fs::read_dir(&inputs)
        .expect("inputs")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".rules"))
        .collect();
    names.sort();
    let mut pasted = 0;
    let mut files = std::collections::BTreeSet::new();
    for name in names {
        let path = format!("check-inputs/{name}");
        let checked = check_one(&dir, &path, &[]).expect("readable");
        for d in &checked.diags {
            let (Some(hint), Some(source)) = (&d.hint, &d.source) else {
                continue;
            };
            if d.code != ninety::base::Code::Ambiguous
                || source.name != path
                || !hint.starts_with("write the reading you mean")
            {
                continue;
            }
            let (line_no, _) = source.line_col(d.span.start);
            let line = source.text.lines().nth(line_no - 1).expect("the line");
            let Some(colon) = line.find(": ") else {
                continue;
            };
            // The readings: the backticked pieces of the hint each followed by what it means,
            // in brackets (`` `X` (the choice belongs to the `otherwise`) ``).
            let pieces: Vec<&str> = hint.split('`').collect();
            let readings = (1..pieces.len())
                .step_by(2)
                .filter(|&i| pieces.get(i + 1).is_some_and(|p| p.starts_with(" (")))
                .map(|i| pieces[i]);
            for reading in readings {
                let new_line = format!("{}{reading}", &line[..colon + 2]);
                let text = source.text.replacen(line, &new_line, 1);
                let edited = Edited {
                    dir: &dir,
                    path: &path,
                    text: &text,
                };
                let again = check_one(&edited, &path, &[]).expect("readable");
                let errors: Vec<String> = again
                    .diags
                    .iter()
                    .filter(|e| e.is_error())
                    .map(|e| e.render_plain(100))
                    .collect();
                assert!(
                    errors.is_empty(),
                    "{path}: the reading `{new_line}` does not check:\n{}",
                    errors.join("\n")
                );
                if name == "err_ambiguous_test_among_choices.rules" {
                    let p = again.program.expect("compiled");
                    let ace = p.effect_for(3, 0).expect("the Ace's line");
                    assert_eq!(ace.choices().len(), 2, "`{new_line}` lost a choice");
                } else if name == "err_branches_among_choices.rules" {
                    // Where both ways of the 7 add 7 on an odd total they are told apart by
                    // what they add on an even one (`7H:1`, `7H:2`): two ways, two names.
                    let p = again.program.expect("compiled");
                    let seven = p.effect_for(3, 6).expect("the 7's line");
                    assert_eq!(seven.choices().len(), 2, "`{new_line}` lost a choice");
                    assert_ne!(seven.labels[0], seven.labels[1], "`{new_line}`");
                }
                files.insert(name.clone());
                pasted += 1;
            }
        }
    }
    assert!(pasted >= 10, "{pasted} readings pasted");
    // Every kind of reading: a test that could govern one step or the card, `or` among
    // branches, `otherwise` before `or`.
    for kind in [
        "err_ambiguous_test_among_choices.rules",
        "err_branches_among_choices.rules",
        "err_designer_branch_choice_label.rules",
    ] {
        assert!(
            files.contains(kind),
            "no reading of {kind} pasted: {files:?}"
        );
    }
}
