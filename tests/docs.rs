//! Every example in `docs/language.md` and `README.md` parses: the manual cannot drift from
//! the grammar.

use std::path::Path;

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
