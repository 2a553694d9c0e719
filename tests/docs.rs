//! Every example in `docs/language.md`, `docs/guide.md` and `README.md` parses: the manual
//! cannot drift from the grammar. Every rule identifier cited anywhere (`N99-7`) is a rule of
//! the digest, `docs/rules.md`, and every rule of the digest is checked by a test or a
//! ruleset's scenario.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn blocks(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        match &mut current {
            None if line.trim_start().starts_with("```rules") => {
                current = Some((i + 1, String::new()))
            }
            None => {}
            Some(_) if line.trim_start().starts_with("```") => out.extend(current.take()),
            Some((_, body)) => {
                body.push_str(line);
                body.push('\n');
            }
        }
    }
    out
}

fn check_examples(file: &str, at_least: usize) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let text = std::fs::read_to_string(&path).expect("readable");
    let examples = blocks(&text);
    assert!(
        examples.len() >= at_least,
        "{file}: only {} ```rules examples",
        examples.len()
    );
    for (line, body) in examples {
        let (_, diags) = ninety::lang::parse(&body);
        let problems: Vec<String> = diags.iter().map(|d| d.message.clone()).collect();
        assert!(
            problems.is_empty(),
            "{file}, the example at line {line} does not parse: {problems:?}\n{body}"
        );
    }
}

#[test]
fn every_example_of_the_language_reference_parses() {
    check_examples("docs/language.md", 30);
}

#[test]
fn every_example_of_the_readme_parses() {
    check_examples("README.md", 1);
}

#[test]
fn every_example_of_the_guide_parses() {
    check_examples("docs/guide.md", 7);
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The rule identifiers a text cites: capitals, two digits, a hyphen, maybe `V` (a
/// variant), then a number, as a word of its own: `N99-7`, `N98-V2`, `N33-12`.
fn rule_ids(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let word = |i: usize| bytes.get(i).is_some_and(|b| b.is_ascii_alphanumeric());
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_uppercase() || (i > 0 && word(i - 1)) {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < bytes.len() && bytes[j].is_ascii_uppercase() {
            j += 1;
        }
        let digits = j;
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            j += 1;
        }
        let mut found = false;
        if j - digits == 2 && bytes.get(j) == Some(&b'-') {
            let mut k = j + 1;
            if bytes.get(k) == Some(&b'V') {
                k += 1;
            }
            let number = k;
            while k < bytes.len() && bytes[k].is_ascii_digit() {
                k += 1;
            }
            if k > number && !word(k) {
                out.push(text[i..k].to_string());
                i = k;
                found = true;
            }
        }
        if !found {
            i = j.max(i + 1);
        }
    }
    out
}

/// Every text file under `dir` (or `dir` itself, a file), but the snapshots a test wrote.
fn files(dir: &Path) -> Vec<PathBuf> {
    if dir.is_file() {
        return vec![dir.to_path_buf()];
    }
    let mut out = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if matches!(name, "snapshots" | "node_modules" | "target") {
            continue;
        }
        if path.is_dir() {
            out.extend(files(&path));
        } else {
            out.push(path);
        }
    }
    out
}

fn read_text(path: &Path) -> Option<String> {
    std::fs::read(path)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
}

/// The rules of the digest: each is a list item that opens with its identifier in bold.
fn digest_rules() -> BTreeSet<String> {
    let text = read_text(&root().join("docs/rules.md")).expect("docs/rules.md");
    let rules: BTreeSet<String> = text
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("- **"))
        .filter_map(|l| l.split_once("**"))
        .map(|(id, _)| id.to_string())
        .collect();
    for id in &rules {
        assert_eq!(
            rule_ids(id),
            std::slice::from_ref(id),
            "docs/rules.md defines `{id}`, which is not shaped like a rule identifier"
        );
    }
    assert!(rules.len() >= 40, "docs/rules.md defines only {rules:?}");
    rules
}

#[test]
fn every_rule_identifier_cited_is_in_the_digest() {
    let rules = digest_rules();
    let mut missing = Vec::new();
    for dir in [
        "rulesets",
        "tests",
        "docs",
        "src",
        "benches",
        "grammar",
        "README.md",
        "ARCHITECTURE.md",
        "CONTRIBUTING.md",
    ] {
        for path in files(&root().join(dir)) {
            let Some(text) = read_text(&path) else {
                continue;
            };
            for id in rule_ids(&text) {
                if !rules.contains(&id) {
                    let shown = path.strip_prefix(root()).unwrap_or(&path).display();
                    missing.push(format!("{shown}: {id}"));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "rule identifiers cited but not in docs/rules.md:\n{}",
        missing.join("\n")
    );
}

/// The text of a ruleset's scenarios, from each `scenario` line to its `end`.
fn scenarios(text: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("scenario ") {
            inside = true;
        }
        if inside {
            out.push_str(line);
            out.push('\n');
        }
        if trimmed == "end" {
            inside = false;
        }
    }
    out
}

#[test]
fn every_rule_of_the_digest_is_checked_by_a_test_or_a_scenario() {
    let mut cited = BTreeSet::new();
    for path in files(&root().join("tests")) {
        if let Some(text) = read_text(&path) {
            cited.extend(rule_ids(&text));
        }
    }
    for path in files(&root().join("rulesets")) {
        if path.extension().is_some_and(|x| x == "rules") {
            let text = read_text(&path).expect("a ruleset is text");
            cited.extend(rule_ids(&scenarios(&text)));
        }
    }
    let unchecked: Vec<String> = digest_rules().difference(&cited).cloned().collect();
    assert!(
        unchecked.is_empty(),
        "rules of docs/rules.md that no test and no ruleset scenario names: {unchecked:?}"
    );
}

#[test]
fn rule_identifiers_are_found_as_words() {
    assert_eq!(
        rule_ids("N99-7, (N98-V2) and N33-12: not UTF-8, FNV-1a, x86-64, AN99-1x nor N99-1a"),
        ["N99-7", "N98-V2", "N33-12"]
    );
}
