//! The language composes: every effect at every place a line can be written, every quantity
//! under every test, every selector in every role. Each cell of those tables is a ruleset made
//! here (a variant of Ninety-Nine with one line), not a hand-picked example: it either checks
//! clean, plays its dry run, and reads back from its flat file and its rules sheet to the same
//! game, or `check` refuses it with a diagnostic that says why. The tables, as the cells came
//! out, are the composition section of `docs/language.md`, which must hold them word for word
//! (`NINETY_WRITE_DOCS=1 cargo test --test composition` writes them there).

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use ninety::app::load::{base_program, check_one};
use ninety::compile::{Memory, SHIPPED, check, flatten};
use ninety::present;

/// The outcomes a line can hold, by name.
const EFFECTS: [(&str, &str); 20] = [
    ("pay the bank", "the player pays 1"),
    ("pay a player", "the player pays 1 to the next player"),
    ("pay the pot", "the player pays 1 to the pot"),
    ("gain", "the player takes 1 from the bank"),
    ("change chips", "the player's chips go up by 1"),
    ("change a count", "the tally goes up by 1"),
    ("set the total", "set the total to 0"),
    ("move the total", "the total goes up by 1"),
    ("reset the total", "the total resets"),
    ("change the limit", "the limit goes down by 1"),
    ("draw", "the player draws 1"),
    (
        "give a card",
        "the player gives a card at random to the next player",
    ),
    (
        "take a card",
        "the player takes a card at random from the next player",
    ),
    ("swap hands", "the player swaps hands with the next player"),
    ("reverse", "reverse the direction"),
    ("skip", "skip the next player"),
    ("play again", "the player plays again"),
    ("end the round", "the round ends"),
    ("lose the round", "the player loses the round"),
    ("out of the round", "the player is out of the round"),
];

/// The places a line can be written, `{}` where the effect goes.
const PLACES: [(&str, &str); 10] = [
    ("card", "card 7: add 7 and {}"),
    ("bar", "on reaching 50 going up: {}"),
    (
        "cannot play",
        "when a player cannot play: {}, the player pays 1 and the player loses the round",
    ),
    (
        "a case",
        "when a player cannot play, if the total is at least 98: {}, the player pays 1 and the player loses the round",
    ),
    ("round start", "at the start of each round: {}"),
    ("round end", "at the end of each round: {}"),
    (
        "after each card",
        "after each card, if the total is at least 90: {}",
    ),
    ("player out", "when a player goes out: {}"),
    ("2 left", "when 2 players are left: {}"),
    (
        "a move",
        "a player who cannot play may discard any card instead: {}, the player pays 1 and the player loses the round",
    ),
];

/// Quantities a test reads.
const QUANTITIES: [&str; 13] = [
    "the total",
    "the limit",
    "the round",
    "the run",
    "the cards laid this round",
    "the players left",
    "the players in the round",
    "the cards in the stock",
    "the pot",
    "the player's chips",
    "the player's cards",
    "the player's streak",
    "the tally",
];

/// Tests on a quantity, `{}` where it goes.
const TESTS: [(&str, &str); 9] = [
    ("is N", "{} is 3"),
    ("at least", "{} is at least 3"),
    ("at most", "{} is at most 3"),
    ("more than", "{} is more than 3"),
    ("fewer than", "{} is fewer than 3"),
    ("a multiple of", "{} is a multiple of 3"),
    ("between", "{} is between 2 and 4"),
    ("even", "{} is even"),
    ("ends in", "{} ends in 3"),
];

/// Who a line is about.
const SELECTORS: [&str; 13] = [
    "the player",
    "the next player",
    "the previous player",
    "the player after",
    "the player before",
    "the player who plays next",
    "whoever laid the previous card",
    "each other player",
    "every player",
    "every player with the most chips",
    "a player of their choice",
    "the winner",
    "the loser",
];

/// What a line makes them do, `{}` where they go.
const ROLES: [(&str, &str); 7] = [
    ("pays", "{} pays 1"),
    ("is paid", "the bank pays 1 to {}"),
    ("draws", "{} draws 1"),
    ("gives", "{} gives a card at random to the player after"),
    ("out of the round", "{} is out of the round"),
    ("loses the round", "{} loses the round"),
    ("changes a count", "{}'s streak goes up by 1"),
];

/// A cell's ruleset: Ninety-Nine, the counts a cell may name, rounds and a game that end
/// whatever the line does (a cell is about what can be said, not whether a game with it is
/// a good one), and its line.
fn ruleset(line: &str) -> String {
    [
        "extends \"ninety-nine\"",
        "name \"cell\"",
        "count streak for each player, starting at 0",
        "count tally, starting at 0",
        "the round ends after 40 cards",
        "the game ends after 6 rounds",
        "the winner is the player with the most chips",
        line,
        "",
    ]
    .join("\n")
}

/// What became of a cell: it works, it works with a warning, or `check` refused it (the
/// diagnostic's code and words).
enum Verdict {
    Works,
    Warns { code: String, message: String },
    Refused { code: String, message: String },
}

/// Warnings every cell may get for what it is rather than what it says: a count the line
/// does not use, a line the dry run's games did not happen to fire.
const NOT_THE_CELLS: [&str; 2] = ["unused-count", "never-fired"];

/// A cell's ruleset, checked, played (scenarios and dry run), flattened and read back.
fn verdict(line: &str) -> Verdict {
    let text = ruleset(line);
    let mut memory = Memory::new();
    for (name, parent) in SHIPPED {
        memory.insert(format!("{name}.rules"), parent.as_bytes().to_vec());
    }
    memory.insert("cell.rules", text.clone());
    let checked = check_one(&memory, "cell.rules", &[]).expect("in memory");
    if let Some(d) = checked.diags.iter().find(|d| d.is_error()) {
        return Verdict::Refused {
            code: d.code.name().to_string(),
            message: d.message.clone(),
        };
    }
    let program = checked
        .program
        .unwrap_or_else(|| panic!("{line}: no error, and no program"));
    // The flat file plays the same game.
    let flat = flatten(&memory, "cell.rules", &[]).expect("flattens");
    let mut alone = Memory::new();
    alone.insert("flat.rules", flat.clone());
    let again = check(&alone, "flat.rules", &[]).expect("in memory");
    let got = again
        .program
        .unwrap_or_else(|| panic!("{line}: the flat file does not check:\n{flat}"));
    assert!(
        got.meaning() == program.meaning(),
        "{line}: the flat file plays another game: {}\n{flat}",
        common::differences(&got.meaning(), &program.meaning())
    );
    // The rules sheet is the ruleset.
    let base = base_program(&memory, &program, &[]);
    let sheet = present::rules_sheet(&program, base.as_ref(), true);
    let mut read = String::from("name \"sheet\"\n");
    for r in common::sheet_rules(&sheet) {
        read.push_str(&r);
        read.push('\n');
    }
    let mut back = Memory::new();
    back.insert("sheet.rules", read.clone());
    let from_sheet = check(&back, "sheet.rules", &[]).expect("in memory");
    let from_sheet = from_sheet
        .program
        .unwrap_or_else(|| panic!("{line}: its sheet is not a ruleset:\n{read}"));
    assert!(
        common::game(&from_sheet) == common::game(&program),
        "{line}: its sheet says another game ({}):\n{read}",
        common::differences(&common::game(&from_sheet), &common::game(&program))
    );
    match checked
        .diags
        .iter()
        .find(|d| !NOT_THE_CELLS.contains(&d.code.name()))
    {
        Some(d) => Verdict::Warns {
            code: d.code.name().to_string(),
            message: d.message.clone(),
        },
        None => Verdict::Works,
    }
}

/// One table: a row for each of `rows`, a column for each of `columns`, each cell the
/// verdict on `make(row, column)`; the refusals listed under it, each reason once.
fn table(
    title: &str,
    corner: &str,
    rows: &[(&str, &str)],
    columns: &[(&str, &str)],
    make: impl Fn(&str, &str) -> String,
) -> String {
    let mut out = format!("#### {title}\n\n| {corner} |");
    for (name, _) in columns {
        out.push_str(&format!(" {name} |"));
    }
    out.push_str("\n|---|");
    out.push_str(&"---|".repeat(columns.len()));
    out.push('\n');
    // Each reason, numbered in the order first met, with a line that shows it.
    let mut reasons: BTreeMap<String, (usize, String)> = BTreeMap::new();
    for (row, r) in rows {
        out.push_str(&format!("| {row} |"));
        for (_, c) in columns {
            let line = make(r, c);
            let (word, code, message) = match verdict(&line) {
                Verdict::Works => {
                    out.push_str(" yes |");
                    continue;
                }
                Verdict::Warns { code, message } => ("warns", code, message),
                Verdict::Refused { code, message } => ("no", code, message),
            };
            let key = format!("`{code}`: {message}");
            let n = reasons.len() + 1;
            let (k, _) = reasons.entry(key).or_insert((n, line.clone()));
            out.push_str(&format!(" {word} ({k}) |"));
        }
        out.push('\n');
    }
    let mut listed: Vec<(usize, String, String)> = reasons
        .into_iter()
        .map(|(why, (k, line))| (k, why, line))
        .collect();
    listed.sort();
    if !listed.is_empty() {
        out.push('\n');
    }
    for (k, why, line) in listed {
        out.push_str(&format!("{k}. {why} (`{line}`)\n"));
    }
    out
}

fn effects_table() -> String {
    table(
        "Effects at every place",
        "effect",
        &EFFECTS,
        &PLACES,
        |effect, place| place.replace("{}", effect),
    )
}

fn tests_table() -> String {
    let rows: Vec<(&str, &str)> = QUANTITIES.iter().map(|q| (*q, *q)).collect();
    table(
        "Quantities under every test",
        "quantity",
        &rows,
        &TESTS,
        |q, test| {
            format!(
                "after each card, if {}: the tally goes up by 1",
                test.replace("{}", q)
            )
        },
    )
}

fn roles_table() -> String {
    let rows: Vec<(&str, &str)> = SELECTORS.iter().map(|w| (*w, *w)).collect();
    table(
        "Selectors in every role (on a card's line)",
        "who",
        &rows,
        &ROLES,
        |who, role| {
            let said = role.replace("{}", who);
            // `the player's streak`, not `the player's's`.
            let said = said.replace("'s's", "'s");
            format!("card 7: add 7 and {said}")
        },
    )
}

const START: &str = "<!-- composition tables: written by tests/composition.rs -->";
const END: &str = "<!-- end of composition tables -->";

#[test]
fn the_composition_tables_are_the_docs() {
    let tables = [effects_table(), tests_table(), roles_table()].join("\n");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/language.md");
    let docs = std::fs::read_to_string(&path).expect("docs/language.md");
    let (Some(a), Some(b)) = (docs.find(START), docs.find(END)) else {
        panic!("docs/language.md has no composition section between `{START}` and `{END}`");
    };
    let want = format!("{START}\n\n{tables}\n{END}");
    let have = &docs[a..b + END.len()];
    if have != want {
        if std::env::var_os("NINETY_WRITE_DOCS").is_some() {
            let written = format!("{}{want}{}", &docs[..a], &docs[b + END.len()..]);
            std::fs::write(&path, written).expect("write docs/language.md");
        } else {
            panic!(
                "docs/language.md's composition tables are not what the cells do; they are:\n\n{tables}\n(NINETY_WRITE_DOCS=1 writes them)"
            );
        }
    }
}
