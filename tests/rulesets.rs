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
/// merged in, its removals applied): for every ruleset of every corpus that checks, the flat
/// file checks and compiles to the same program, under every option value, so it plays the
/// same games. Counts, moments, `the round ends ...` and moves beside laying a card are lines
/// like any other.
#[test]
fn flat_files_of_every_corpus_compile_to_the_same_program() {
    let files = common::every_corpus();
    assert!(files.len() > 80, "{} rulesets", files.len());
    let mut flattened = 0;
    for f in files {
        let path = f.display().to_string();
        let Ok(original) = ninety::app::load::load_program(&Disk, &path, &[]) else {
            continue;
        };
        let flat = ninety::compile::flatten(&Disk, &path, &[]).expect("flattens");
        assert!(
            !flat.contains("\nextends"),
            "{path}: the flat file still extends:\n{flat}"
        );
        let mut memory = ninety::compile::Memory::new();
        memory.insert("flat.rules", flat.clone());
        let mut runs = vec![Vec::new()];
        runs.extend(
            common::option_values(&original)
                .into_iter()
                .map(|s| vec![s]),
        );
        for sets in runs {
            let Ok(want) = ninety::app::load::load_program(&Disk, &path, &sets) else {
                continue;
            };
            let checked = ninety::compile::check(&memory, "flat.rules", &sets).expect("in memory");
            let problems: Vec<String> = checked
                .diags
                .iter()
                .filter(|d| d.is_error())
                .map(|d| d.render_plain(100))
                .collect();
            let got = checked.program.unwrap_or_else(|| {
                panic!(
                    "{path} ({sets:?}): the flat file does not check:\n{}\n{flat}",
                    problems.join("\n")
                )
            });
            assert!(
                got.meaning() == want.meaning(),
                "{path} ({sets:?}): the flat file plays another game: {}\n{flat}",
                common::differences(&got.meaning(), &want.meaning())
            );
        }
        flattened += 1;
    }
    assert!(flattened > 80, "{flattened} rulesets flattened");
}
