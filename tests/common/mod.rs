//! What several test files share: the rulesets of a folder, and the option values to try.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use ninety::ir::Program;

/// Every `*.rules` file of a folder, sorted.
pub fn rulesets(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("a folder")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "rules"))
        .collect();
    files.sort();
    files
}

/// Every value each option of a program allows (a range's ends and middle), as `--set`
/// pairs, one option at a time.
pub fn option_values(p: &Program) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for o in &p.options {
        let values: Vec<String> = if o.allowed == "yes or no" {
            vec!["yes".into(), "no".into()]
        } else if let Some(list) = o.allowed.strip_prefix("one of ") {
            list.split(", ").map(str::to_string).collect()
        } else if let Some((lo, hi)) = o
            .allowed
            .strip_prefix("from ")
            .and_then(|r| r.split_once(" to "))
        {
            let (lo, hi): (i64, i64) = (lo.parse().unwrap_or(0), hi.parse().unwrap_or(0));
            let mut v = vec![lo, (lo + hi) / 2, hi];
            v.dedup();
            v.iter().map(i64::to_string).collect()
        } else {
            Vec::new()
        };
        out.extend(values.into_iter().map(|v| (o.name.clone(), v)));
    }
    out
}

/// The rules of a sheet as ruleset lines: each item's sentence without its bullet, its mark,
/// its explanation (after the dash) and its full stop. Removed lines are not rules.
pub fn sheet_rules(sheet: &str) -> Vec<String> {
    let mut rules = Vec::new();
    let mut section = "";
    for line in sheet.lines() {
        if let Some(title) = line.strip_prefix("## ") {
            section = if title == "Removed from the parent" {
                "removed"
            } else {
                "rules"
            };
            continue;
        }
        let Some(item) = line.trim_start().strip_prefix("- ") else {
            continue;
        };
        if section != "rules" || item.contains("**(removed)**") || item.starts_with("None:") {
            continue;
        }
        let item = item.replace(" **(changed)**", "").replace(" **(new)**", "");
        let rule = item.split(" — ").next().unwrap_or(&item);
        let rule = rule.strip_suffix('.').unwrap_or(rule);
        rules.push(rule.to_string());
    }
    rules
}

/// What must be equal: the game, not the names or where each piece was written.
pub fn game(p: &Program) -> Program {
    let mut m = p.meaning();
    m.name.clear();
    m.about.clear();
    // The sheet gives numbers, not options: its own options are declared and unused.
    m.options.clear();
    m
}

/// The parts of two programs that differ, as their JSON: `bars: [...] against [...]`.
pub fn differences(a: &Program, b: &Program) -> String {
    let (a, b) = (
        serde_json::to_value(a).expect("json"),
        serde_json::to_value(b).expect("json"),
    );
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return "not objects".into();
    };
    let mut out = Vec::new();
    for (k, v) in a {
        if b.get(k) != Some(v) {
            let w = b.get(k).cloned().unwrap_or_default();
            out.push(format!("{k}: the sheet's {v} against the ruleset's {w}"));
        }
    }
    if out.is_empty() {
        out.push("the parts serialization skips".into());
    }
    out.join("; ")
}

/// Every `*.rules` file under a folder and its subfolders, sorted; nothing if the folder is
/// not there.
pub fn rulesets_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.filter_map(Result::ok) {
        let p = e.path();
        if p.is_dir() {
            out.extend(rulesets_under(&p));
        } else if p.extension().is_some_and(|x| x == "rules") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// Every ruleset the project promises things of: the shipped ones, the house rules and the
/// designers' files of the tests, and the designers' folders of `shared/findings` beside the
/// repository where they are there (CI lays them out; a plain clone has only its own).
pub fn every_corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in ["rulesets", "tests/house-rules", "tests/designer"] {
        out.extend(rulesets_under(&root.join(dir)));
    }
    let shared = root.join("../shared/findings");
    if let Ok(entries) = std::fs::read_dir(&shared) {
        let mut folders: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("designer"))
            })
            .collect();
        folders.sort();
        for f in folders {
            out.extend(rulesets_under(&f));
        }
    }
    out
}
