//! Every shipped ruleset: it checks clean (scenarios included), its compiled form and rules
//! sheet are snapshotted, and one seeded game with bots is played to the end and snapshotted.

mod common;

use ninety::app::load::check_one;
use ninety::app::run::{RunOptions, run_cmd};
use ninety::compile::Disk;
use ninety::play::Bot;
use ninety::present;

#[test]
fn shipped_rulesets() {
    insta::glob!("../rulesets", "*.rules", |path| {
        let shown = format!(
            "rulesets/{}",
            path.file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
        );
        let path = path.to_str().expect("utf-8 path");
        let checked = check_one(&Disk, path, &[]).expect("readable");
        let problems: Vec<String> = checked.diags.iter().map(|d| d.render_plain(100)).collect();
        assert!(
            problems.is_empty(),
            "{shown} does not check clean:\n{}",
            problems.join("\n")
        );
        let program = checked.program.expect("compiled");
        insta::assert_snapshot!("compiled", present::dump(&program));
        let base = ninety::app::load::base_program(&Disk, &program, &[]);
        insta::assert_snapshot!("sheet", present::rules_sheet(&program, base.as_ref(), true));

        let o = RunOptions {
            seed: 7,
            bots: Some("cautious".into()),
            ..RunOptions::default()
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = run_cmd(&Disk, path, &o, &mut out, &mut err);
        let out = String::from_utf8(out).expect("utf-8");
        assert_eq!(code, 0, "{shown}: {}", String::from_utf8_lossy(&err));
        assert!(
            out.contains("The game ends"),
            "{shown} did not play to the end"
        );
        insta::assert_snapshot!("game", out);
        let _ = Bot::Random;
    });
}

/// `ninety rules NAME --format rules` flattens a ruleset into one standalone file (its parents
/// merged in, its removals applied): for every shipped ruleset, the flat file compiles to the
/// same program.
#[test]
fn flattened_rulesets_compile_to_the_same_program() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("rulesets")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "rules"))
        .collect();
    files.sort();
    assert!(files.len() > 20);
    for f in files {
        let path = f.display().to_string();
        let original = ninety::app::load::load_program(&Disk, &path, &[]).expect("checks");
        let flat = ninety::compile::flatten(&Disk, &path, &[]).expect("flattens");
        assert!(
            !flat.contains("extends"),
            "{path}: the flat file still extends:\n{flat}"
        );
        let mut memory = ninety::compile::Memory::new();
        memory.insert("flat.rules", flat.clone());
        let checked = ninety::compile::check(&memory, "flat.rules", &[]).expect("in memory");
        let problems: Vec<String> = checked.diags.iter().map(|d| d.render_plain(100)).collect();
        let again = checked.program.unwrap_or_else(|| {
            panic!(
                "{path}: the flat file does not check:\n{}\n{flat}",
                problems.join("\n")
            )
        });
        assert_eq!(
            again.meaning(),
            original.meaning(),
            "{path}: the flat file plays another game:\n{flat}"
        );
        // The flat file keeps the options and their switches: under every value, it is the
        // same game as the ruleset.
        for (name, value) in common::option_values(&original) {
            let sets = [(name.clone(), value.clone())];
            let Ok(want) = ninety::app::load::load_program(&Disk, &path, &sets) else {
                continue;
            };
            let got = ninety::compile::check(&memory, "flat.rules", &sets)
                .expect("in memory")
                .program
                .unwrap_or_else(|| {
                    panic!("{path}: the flat file does not check with {name}={value}")
                });
            assert_eq!(
                got.meaning(),
                want.meaning(),
                "{path}: with {name}={value} the flat file plays another game:\n{flat}"
            );
        }
    }
}
