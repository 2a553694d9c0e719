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
