//! House rules a designer wrote from the docs alone (`tests/designer/`, from the designer
//! report of `shared/findings/designer`): each checks clean, its scenarios pass, its flat file
//! plays the same games under every option value, and the sheets that once hid or misstated a
//! rule (B1, B6) now say it.

mod common;

use std::path::{Path, PathBuf};

use common::{option_values, rulesets};
use ninety::app::load::{base_program, check_one, load_program};
use ninety::compile::{Disk, Memory, check, flatten};
use ninety::present;

fn folders() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/designer");
    ["set1", "set1/chain", "set1/chain/bases", "set2", "repro"]
        .iter()
        .map(|f| root.join(f))
        .collect()
}

#[test]
fn every_designer_ruleset_checks_clean_and_its_scenarios_pass() {
    let mut files = 0;
    for dir in folders() {
        for f in rulesets(&dir) {
            let path = f.display().to_string();
            let checked = check_one(&Disk, &path, &[]).expect("readable");
            let problems: Vec<String> = checked.diags.iter().map(|d| d.render_plain(100)).collect();
            assert!(
                problems.is_empty(),
                "{path} does not check clean:\n{}",
                problems.join("\n")
            );
            files += 1;
        }
    }
    assert!(files >= 22, "{files} designer rulesets");
}

#[test]
fn every_designer_flat_file_plays_the_same_games_under_every_option_value() {
    for dir in folders() {
        for f in rulesets(&dir) {
            let path = f.display().to_string();
            let original = load_program(&Disk, &path, &[]).expect("checks");
            let flat = flatten(&Disk, &path, &[]).expect("flattens");
            let mut memory = Memory::new();
            memory.insert("flat.rules", flat.clone());
            let mut runs = vec![Vec::new()];
            runs.extend(option_values(&original).into_iter().map(|s| vec![s]));
            for sets in runs {
                let Ok(want) = load_program(&Disk, &path, &sets) else {
                    continue;
                };
                let checked = check(&memory, "flat.rules", &sets).expect("in memory");
                let said: Vec<String> = checked.diags.iter().map(|d| d.render_plain(100)).collect();
                assert!(
                    said.is_empty(),
                    "{path} ({sets:?}): the flat file of a clean ruleset does not check clean:\n{}\n{flat}",
                    said.join("\n")
                );
                let got = checked
                    .program
                    .unwrap_or_else(|| panic!("{path}: the flat file does not check ({sets:?})"));
                assert_eq!(
                    got.meaning(),
                    want.meaning(),
                    "{path} ({sets:?}): the flat file plays another game:\n{flat}"
                );
            }
        }
    }
}

fn sheet(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/designer/repro")
        .join(name);
    let path = path.display().to_string();
    let p = load_program(&Disk, &path, &[]).expect("checks");
    let base = base_program(&Disk, &p, &[]);
    present::rules_sheet(&p, base.as_ref(), false)
}

#[test]
fn b1_the_sheet_shows_a_bar_written_in_a_script() {
    let s = sheet("sheet-omits-script-bar.rules");
    assert!(
        s.contains("- On script lucky: each other player pays 1 to the bank — after every card, when the script says so; `lucky` (its comment: “The total ends in 7.”).  [new]"),
        "{s}"
    );
}

#[test]
fn b6_a_card_line_for_the_largest_table_is_its_own_line_marked_new() {
    let s = sheet("sheet-player-count-inverted.rules");
    assert!(
        s.contains("- Card 8: add 8.\n"),
        "the general 8 is unchanged:\n{s}"
    );
    assert!(
        s.contains("  - Card 8 with 5 players: add 8 and skip the next 2 players.  [new]"),
        "{s}"
    );
}
