//! The rules sheet is the ruleset: every rule on it is a line of the language, so the sheet
//! read back as a ruleset (its rules, the options it lists, the scripts the ruleset holds)
//! compiles to the same program. A rule the program can fire that the sheet leaves out, or
//! words that say another rule, make the programs differ.
//!
//! Run over every shipped ruleset, every ruleset of `tests/designer/` (house rules written
//! from the docs by a designer), and every option value of each.

mod common;

use std::path::Path;

use common::{differences, game, option_values, rulesets, sheet_rules};

use ninety::app::load::base_program;
use ninety::compile::{Disk, Memory, check, flatten};
use ninety::present;

/// The `script ... end` blocks of a flattened ruleset, as they are.
fn script_blocks(flat: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for line in flat.lines() {
        let t = line.trim();
        if !inside && t.eq_ignore_ascii_case("script") {
            inside = true;
        }
        if inside {
            out.push_str(line);
            out.push('\n');
            if t.eq_ignore_ascii_case("end") {
                inside = false;
            }
        }
    }
    out
}

fn round_trip(path: &Path, sets: &[(String, String)]) {
    let shown = path.display().to_string();
    // The program is what matters here; the scenarios and the dry run are check's tests.
    let checked = check(&Disk, &shown, sets).expect("readable");
    let Some(program) = checked.program else {
        panic!("{shown} does not compile");
    };
    let base = base_program(&Disk, &program, sets);
    let sheet = present::rules_sheet(&program, base.as_ref(), true);
    let flat = flatten(&Disk, &shown, sets).expect("flattens");
    let mut text = String::from("name \"sheet\"\n");
    for r in sheet_rules(&sheet) {
        text.push_str(&r);
        text.push('\n');
    }
    text.push_str(&script_blocks(&flat));
    let mut memory = Memory::new();
    memory.insert("sheet.rules", text.clone());
    // The sheet says the values the options have: it is compiled as it is.
    let again = check(&memory, "sheet.rules", &[]).expect("in memory");
    let errors: Vec<String> = again
        .diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.render_plain(100))
        .collect();
    let Some(again) = again.program else {
        panic!(
            "{shown} (sets {sets:?}): its sheet is not a ruleset:\n{}\n--- the sheet's rules:\n{text}",
            errors.join("\n")
        );
    };
    let (a, b) = (game(&again), game(&program));
    if a != b {
        panic!(
            "{shown} (sets {sets:?}): its sheet says another game ({}):\n{text}",
            differences(&a, &b)
        );
    }
}

fn every_ruleset_of(dir: &Path) {
    let files = rulesets(dir);
    assert!(!files.is_empty(), "no rulesets in {}", dir.display());
    for f in files {
        round_trip(&f, &[]);
        let p =
            ninety::app::load::load_program(&Disk, &f.display().to_string(), &[]).expect("checks");
        for (name, value) in option_values(&p) {
            let sets = [(name.clone(), value.clone())];
            // A value some other line of the ruleset refuses (a cap below a bar) is the
            // checker's business, not the sheet's.
            if check(&Disk, &f.display().to_string(), &sets).is_ok_and(|c| c.program.is_some()) {
                round_trip(&f, &sets);
            }
        }
    }
}

#[test]
fn every_shipped_sheet_is_its_ruleset() {
    every_ruleset_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets"));
}

#[test]
fn every_designer_sheet_is_its_ruleset() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/designer");
    for dir in ["set1", "set1/chain", "set1/chain/bases", "set2", "repro"] {
        every_ruleset_of(&root.join(dir));
    }
}

#[test]
fn every_house_rule_sheet_is_its_ruleset() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/house-rules");
    every_ruleset_of(&root);
    every_ruleset_of(&root.join("set3"));
}

#[test]
fn the_sheet_leaves_nothing_out_and_says_nothing_else() {
    // A sheet without one of its lines, or with one changed, is another game.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/33-66-99.rules");
    let p =
        ninety::app::load::load_program(&Disk, &path.display().to_string(), &[]).expect("checks");
    let rules = sheet_rules(&present::rules_sheet(&p, None, true));
    let compile = |rules: &[String]| {
        let mut memory = Memory::new();
        memory.insert("s.rules", format!("name \"s\"\n{}\n", rules.join("\n")));
        check(&memory, "s.rules", &[]).expect("in memory").program
    };
    let whole = compile(&rules).expect("the sheet compiles");
    assert_eq!(game(&whole), game(&p));
    let bar = rules
        .iter()
        .position(|r| r.starts_with("On reaching 66"))
        .expect("a bar line");
    let mut without = rules.clone();
    without.remove(bar);
    assert_ne!(compile(&without).map(|q| game(&q)), Some(game(&p)));
    let mut changed = rules.clone();
    changed[bar] = changed[bar].replace("going up", "either way");
    assert_ne!(compile(&changed).map(|q| game(&q)), Some(game(&p)));
}
