//! The architecture, kept: every `crate::…` path in `src/` follows the arrows of
//! `ARCHITECTURE.md`, the stages form no cycle, only `app` (and the disk loader) touch files
//! or the terminal, and no file or function grows past what one reader holds.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each stage and the stages it may import (besides itself).
const ARROWS: &[(&str, &[&str])] = &[
    ("base", &[]),
    ("lang", &["base"]),
    ("ir", &["base"]),
    ("script", &["ir", "base"]),
    ("compile", &["lang", "ir", "script", "base"]),
    ("engine", &["ir", "base"]),
    ("play", &["engine", "ir", "script", "base"]),
    ("sim", &["play", "engine", "ir", "base"]),
    ("present", &["engine", "ir", "base"]),
    (
        "app",
        &[
            "base", "lang", "ir", "script", "compile", "engine", "play", "sim", "present",
        ],
    ),
];

/// The most lines a source file and a function may have.
const MAX_FILE_LINES: usize = 800;
const MAX_FN_LINES: usize = 150;

fn sources() -> Vec<(PathBuf, String)> {
    fn walk(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .expect("src is readable")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).expect("utf-8 source");
                out.push((p, text));
            }
        }
    }
    let mut out = Vec::new();
    walk(&root(), &mut out);
    out
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The stage a file belongs to: its folder under `src/` (`lib.rs` and `main.rs` are none).
fn stage(path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root()).ok()?;
    let mut parts = rel.components();
    let first = parts.next()?.as_os_str().to_string_lossy().into_owned();
    parts.next().map(|_| first)
}

/// The code of a line, without its `//` comment (doc links are not imports).
fn code(line: &str) -> &str {
    line.split("//").next().unwrap_or("")
}

/// The top-level modules a file names through `crate::`, with the line of each.
fn imports(text: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let mut in_use_group = false;
    for (i, line) in text.lines().enumerate() {
        let c = code(line);
        for (at, _) in c.match_indices("crate::") {
            let rest = &c[at + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|ch| ch.is_alphanumeric() || *ch == '_')
                .collect();
            if name.is_empty() {
                // `use crate::{a, b}`: the names follow in braces.
                in_use_group = rest.starts_with('{');
            } else {
                out.push((name, i + 1));
            }
        }
        if in_use_group {
            for word in c.split(|ch: char| !(ch.is_alphanumeric() || ch == '_')) {
                if ARROWS.iter().any(|(s, _)| *s == word) {
                    out.push((word.to_string(), i + 1));
                }
            }
            if c.contains('}') {
                in_use_group = false;
            }
        }
    }
    out
}

#[test]
fn every_import_follows_the_arrows() {
    let allowed: BTreeMap<&str, &[&str]> = ARROWS.iter().copied().collect();
    let mut wrong = Vec::new();
    for (path, text) in sources() {
        let Some(stage) = stage(&path) else { continue };
        let Some(may) = allowed.get(stage.as_str()) else {
            wrong.push(format!(
                "{}: `{stage}` is not a stage of ARCHITECTURE.md",
                path.display()
            ));
            continue;
        };
        for (target, line) in imports(&text) {
            if target != stage && !may.contains(&target.as_str()) {
                wrong.push(format!(
                    "{}:{line}: `{stage}` imports `{target}`, against the arrows",
                    path.display()
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_stages_form_no_cycle() {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, text) in sources() {
        let Some(stage) = stage(&path) else { continue };
        for (target, _) in imports(&text) {
            if target != stage {
                edges.entry(stage.clone()).or_default().insert(target);
            }
        }
    }
    // Depth-first search for a back edge.
    fn visit(
        n: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match state.get(n) {
            Some(1) => {
                let from = path.iter().position(|p| p == n).unwrap_or(0);
                let mut cycle = path[from..].to_vec();
                cycle.push(n.to_string());
                return Some(cycle);
            }
            Some(_) => return None,
            None => {}
        }
        state.insert(n.to_string(), 1);
        path.push(n.to_string());
        for m in edges.get(n).into_iter().flatten() {
            if let Some(c) = visit(m, edges, state, path) {
                return Some(c);
            }
        }
        path.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in edges.keys() {
        let cycle = visit(n, &edges, &mut state, &mut Vec::new());
        assert!(
            cycle.is_none(),
            "import cycle: {}",
            cycle.unwrap_or_default().join(" → ")
        );
    }
}

#[test]
fn only_app_and_the_loader_touch_files_and_the_terminal() {
    const IO: &[&str] = &[
        "std::fs",
        "std::io::stdin",
        "std::io::stdout",
        "std::io::stderr",
        "println!",
        "eprintln!",
        "std::process::exit",
        "std::env::",
    ];
    let mut wrong = Vec::new();
    for (path, text) in sources() {
        let rel = path.strip_prefix(root()).expect("under src").to_path_buf();
        let allowed = rel.starts_with("app") || rel == Path::new("compile/loader.rs");
        if allowed || stage(&path).is_none() {
            continue;
        }
        for (i, line) in text.lines().enumerate() {
            if let Some(io) = IO.iter().find(|io| code(line).contains(*io)) {
                wrong.push(format!("{}:{}: `{io}`", rel.display(), i + 1));
            }
        }
    }
    assert!(wrong.is_empty(), "I/O outside app:\n{}", wrong.join("\n"));
}

/// The functions of a file and their lengths: from a line starting a `fn` to the line that
/// closes it at the same indentation.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let is_fn = [
            "fn ",
            "pub fn ",
            "pub(super) fn ",
            "pub(crate) fn ",
            "const fn ",
        ]
        .iter()
        .any(|p| trimmed.starts_with(p));
        if !is_fn || trimmed.ends_with(';') {
            continue;
        }
        let indent = line.len() - trimmed.len();
        let close = format!("{}}}", " ".repeat(indent));
        if let Some(len) = lines[i..].iter().position(|l| *l == close) {
            let name: String = trimmed
                .split("fn ")
                .nth(1)
                .unwrap_or("")
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            out.push((name, i + 1, len + 1));
        }
    }
    out
}

#[test]
fn no_file_or_function_is_too_long() {
    let mut wrong = Vec::new();
    for (path, text) in sources() {
        let rel = path
            .strip_prefix(root())
            .expect("under src")
            .display()
            .to_string();
        let n = text.lines().count();
        if n > MAX_FILE_LINES {
            wrong.push(format!("{rel}: {n} lines (at most {MAX_FILE_LINES})"));
        }
        for (name, line, len) in functions(&text) {
            if len > MAX_FN_LINES {
                wrong.push(format!(
                    "{rel}:{line}: `fn {name}` is {len} lines (at most {MAX_FN_LINES})"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_architecture_document_names_every_stage() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md"))
            .expect("ARCHITECTURE.md");
    for (stage, may) in ARROWS {
        assert!(
            doc.contains(&format!("`{stage}/`")),
            "ARCHITECTURE.md does not describe `{stage}/`"
        );
        let arrow = if may.is_empty() {
            format!("{stage}: nothing")
        } else {
            format!("{stage}: {}", may.join(", "))
        };
        assert!(
            doc.contains(&arrow),
            "ARCHITECTURE.md lacks the arrow line `{arrow}`"
        );
    }
}

#[test]
fn the_checker_sees_a_forbidden_import() {
    // The checker itself can fail: a file naming a stage above it is caught.
    let found =
        imports("use crate::engine::State;\nuse crate::{ir, sim};\n// crate::app in a comment\n");
    let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["engine", "ir", "sim"]);
    let fns = functions("fn a() {\n    x();\n}\n    pub fn b() {\n    }\n");
    assert_eq!(fns, [("a".to_string(), 1, 3), ("b".to_string(), 4, 2)]);
}
