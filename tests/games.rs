//! Game scenarios: each file in `tests/games/` names a ruleset in a header, then after `---`
//! holds scenario steps (a position, moves, expectations) in the ruleset language's scenario
//! syntax. Every expectation must hold; the transcript is snapshotted.

use std::path::Path;

use ninety::app::load::load_program;
use ninety::app::scenario;
use ninety::compile::Disk;

#[test]
fn games() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Every failing game is reported, not only the first.
    let failures: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    insta::glob!("games/*.txt", |path| {
        let text = std::fs::read_to_string(path).expect("readable");
        let name = path
            .file_stem()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let (header, body) = text
            .split_once("\n---\n")
            .unwrap_or_else(|| panic!("{name}: no `---` line"));
        let mut ruleset = None;
        let mut sets = Vec::new();
        for line in header
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let (key, value) = line
                .split_once(':')
                .unwrap_or_else(|| panic!("{name}: bad header line `{line}`"));
            match key.trim() {
                "ruleset" => ruleset = Some(value.trim().to_string()),
                "set" => {
                    let (k, v) = value
                        .split_once('=')
                        .unwrap_or_else(|| panic!("{name}: `set: name=value`"));
                    sets.push((k.trim().to_string(), v.trim().to_string()));
                }
                other => panic!("{name}: unknown header `{other}`"),
            }
        }
        let ruleset = ruleset.unwrap_or_else(|| panic!("{name}: no `ruleset:` header"));
        let file = root.join("rulesets").join(format!("{ruleset}.rules"));
        let program =
            load_program(&Disk, file.to_str().expect("utf-8"), &sets).expect("the ruleset checks");
        let wrapped = format!("scenario \"{name}\"\n{body}\nend\n");
        let (parsed, diags) = ninety::lang::parse(&wrapped);
        assert!(
            diags.is_empty(),
            "{name}: {}",
            diags
                .iter()
                .map(|d| d.message.clone())
                .collect::<Vec<_>>()
                .join("; ")
        );
        let sc = &parsed.scenarios[0];
        match scenario::run(&program, sc) {
            Ok(trace) => insta::assert_snapshot!(trace.lines.join("\n")),
            Err(d) => {
                let source =
                    ninety::base::Source::new(format!("games/{name}.txt"), wrapped.clone());
                failures
                    .lock()
                    .expect("lock")
                    .push(d.in_source(&source).render_plain(100));
            }
        }
    });
    let failures = failures.into_inner().expect("lock");
    assert!(
        failures.is_empty(),
        "{} games failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
