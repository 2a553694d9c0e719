//! SECURITY.md states every limit of `src/base/limits.rs` with its value, and every limit in
//! that module is in its table of limits.

use std::path::Path;

use ninety::base::limits::{ALL, grouped};

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).expect(rel)
}

#[test]
fn security_md_states_every_limit_with_its_value() {
    let doc = read("SECURITY.md");
    for (name, value) in ALL {
        let row = doc
            .lines()
            .find(|l| l.starts_with(&format!("| `{name}` |")))
            .unwrap_or_else(|| panic!("SECURITY.md has no row for `{name}`"));
        assert!(
            row.contains(&format!("| {} |", grouped(*value))),
            "SECURITY.md gives `{name}` another value than {}: {row}",
            grouped(*value)
        );
    }
    for (name, value) in [
        ("MAX_SEATS", ninety::ir::MAX_SEATS),
        ("MAX_HAND", ninety::ir::MAX_HAND),
        ("MAX_DECKS", ninety::ir::MAX_DECKS),
        ("MAX_JOKERS", ninety::base::cards::MAX_JOKERS),
        ("MAX_CHOICES", ninety::ir::MAX_CHOICES),
        ("MAX_STEPS", ninety::ir::MAX_STEPS),
    ] {
        assert!(
            [" ", "\n"]
                .iter()
                .any(|end| doc.contains(&format!("`{name}` {value}{end}"))),
            "SECURITY.md does not say `{name}` {value}"
        );
    }
}

#[test]
fn every_limit_of_the_module_is_in_its_table() {
    let source = read("src/base/limits.rs");
    for line in source.lines() {
        let Some(rest) = line.strip_prefix("pub const ") else {
            continue;
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_uppercase() || *c == '_')
            .collect();
        if name == "ALL" {
            continue;
        }
        assert!(
            ALL.iter().any(|(n, _)| *n == name),
            "limits::ALL does not list `{name}`"
        );
    }
}

#[test]
fn readme_points_to_security_md() {
    assert!(read("README.md").contains("[`SECURITY.md`](SECURITY.md)"));
}
