//! The pest parser: ruleset text to [`File`], one builder per grammar rule (in the submodules,
//! by statement family).
//!
//! A ruleset is parsed line by line (`line`, or `scenario_line` inside a scenario), so every
//! bad line gets its own diagnostic and none hides another. Pest types stay in this module.

mod complete;
mod effects;
mod errors;
mod guards;
mod moments;
mod outcomes;
mod scenario;
mod statements;
mod tokens;
mod values;

use pest::Parser as _;
use pest_derive::Parser;

use crate::base::Code;
use crate::base::diag::Diag;
use crate::base::limits::{self, LINES, SCENARIOS};
use crate::base::span::strip_comment;
use crate::lang::ast::*;
pub use complete::{expected_at, line_doc};
use errors::{check_first_word, syntax_error};
use scenario::build_step;
use statements::build_statement;
use tokens::{shift, sp, string};

#[derive(Parser)]
#[grammar = "../grammar/ninety.pest"]
struct Grammar;

/// The largest ruleset file read, in bytes. A rules file is a page of text; anything bigger
/// is a mistake (a wrong file), not a ruleset.
pub const MAX_FILE_BYTES: usize = crate::base::limits::RULESET_BYTES;

/// The words a statement may start with, and an example of each, for hints.
pub(super) const STATEMENTS: &[(&str, &str)] = &[
    ("name", "name \"Ninety-Nine\""),
    ("about", "about \"Three cards, three chips.\""),
    ("extends", "extends \"ninety-nine\""),
    ("option", "option chips = 3 from 1 to 10"),
    ("players", "players 2 to 5"),
    ("decks", "decks 2 with 5 or more players"),
    ("jokers", "jokers 2 per deck"),
    ("hand", "hand 3 cards"),
    ("each", "each player starts with 3 chips"),
    ("the", "the total may not go above 50"),
    ("total", "total starts at 0"),
    ("play", "play goes clockwise"),
    ("card", "card A: add 1 or add 11"),
    ("on", "on passing 25 or 75: the player pays 1"),
    (
        "when",
        "when a player cannot play: the player pays 1 and loses the round",
    ),
    (
        "at",
        "at the start of each round: every player pays 1 to the pot",
    ),
    ("a", "a player is out at 0 chips"),
    ("scenario", "scenario \"N99-6: a 9 at 95\""),
    ("if", "if {by_hand}: players draw by hand"),
    ("no", "no bar at 66"),
    ("keep", "keep the bars at 33, 66, 99"),
    ("script", "script file \"house.rhai\""),
    ("count", "count points for each player, starting at 0"),
    (
        "after",
        "after each card, if the run is 3: set the total to 0",
    ),
    (
        "instead",
        "instead of laying a card, a player may lay the top card of the stock",
    ),
];

pub(super) const SCENARIO_STEPS: &[(&str, &str)] = &[
    ("players", "players 3"),
    ("set", "set chips = 5"),
    ("total", "total 29"),
    ("chips", "chips 9, 9, 1"),
    ("turn", "turn 1"),
    ("dealer", "dealer 2"),
    ("direction", "direction counterclockwise"),
    ("hand", "hand 0: 7H KS 2C"),
    ("stock", "stock: 9H 2C"),
    ("discard", "discard: 5S"),
    ("pot", "pot 3"),
    ("bank", "bank 2"),
    ("next", "next deal: 9H 2C"),
    ("count", "count points: 0, 290, 0"),
    ("round", "round 3"),
    ("play", "play 7H"),
    ("draw", "draw"),
    ("expect", "expect total 36"),
    ("end", "end"),
];

/// Parses a whole ruleset. Returns the tree of every line that could be read, and a
/// diagnostic for every line that could not.
pub fn parse(text: &str) -> (File, Vec<Diag>) {
    pest::set_error_detail(true);
    let mut file = File::default();
    let mut diags = Vec::new();
    if let Some(d) = empty(text) {
        diags.push(d);
        return (file, diags);
    }
    let mut open: Option<Scenario> = None;
    let mut offset = 0;
    // An open `script` block: its first line, and where its code starts.
    let mut script: Option<(usize, Span, usize)> = None;
    let (mut statements, mut scenarios) = (0usize, 0usize);
    for (index, raw) in text.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += raw.len();
        if index >= LINES {
            // First, so it is among the diagnostics shown however many the lines before gave.
            diags.insert(0, guards::too_many_lines(text, start));
            break;
        }
        let line = raw.trim_end_matches(['\n', '\r']);
        if let Some(d) = guards::long_line(line, start) {
            diags.push(d);
            continue;
        }
        if let Some((first_line, head, code_start)) = script {
            // Inside a script block every line is rhai code, up to a line `end`.
            if line.trim() == "end" {
                file.scripts.push(ScriptSource {
                    text: text[code_start..start].to_string(),
                    span: Span::new(head.start, start + line.len()),
                    line: first_line,
                    path: None,
                });
                script = None;
            }
            continue;
        }
        let content = strip_comment(line).trim();
        if content.is_empty() {
            continue;
        }
        let lineno = index + 1;
        let (rule, table) = if open.is_some() {
            (Rule::scenario_line, SCENARIO_STEPS)
        } else {
            (Rule::line, STATEMENTS)
        };
        if let Some(diag) = check_first_word(line, start, table, open.is_some()) {
            diags.push(diag);
            continue;
        }
        match Grammar::parse(rule, line) {
            Ok(mut pairs) => {
                let Some(top) = pairs.next() else { continue };
                let mut guard = None;
                let mut inner = top.into_inner().filter(|p| p.as_rule() != Rule::EOI);
                let Some(mut pair) = inner.next() else {
                    continue;
                };
                if pair.as_rule() == Rule::guard {
                    let negate = pair
                        .clone()
                        .into_inner()
                        .any(|p| p.as_rule() == Rule::negate);
                    let name = pair
                        .clone()
                        .into_inner()
                        .find(|p| p.as_rule() == Rule::option_ref)
                        .and_then(|r| r.into_inner().next())
                        .map(|i| Spanned {
                            node: i.as_str().to_string(),
                            span: sp(&i, start),
                        });
                    guard = name.map(|n| (negate, n));
                    let Some(next) = inner.next() else { continue };
                    pair = next;
                }
                let span = shift(pair.as_span(), start);
                if let Some(scenario) = open.as_mut() {
                    if pair.as_rule() == Rule::end_stmt {
                        let mut done = open.take().expect("a scenario is open");
                        done.span.end = span.end;
                        if scenarios <= SCENARIOS {
                            file.scenarios.push(done);
                        }
                    } else {
                        let step = build_step(pair, start);
                        scenario.steps.push(Spanned { node: step, span });
                    }
                } else if pair.as_rule() == Rule::script_block {
                    script = Some((lineno + 1, span, offset));
                } else if pair.as_rule() == Rule::scenario_stmt {
                    // Past the limit a scenario is read to its `end`, and dropped.
                    scenarios += 1;
                    if scenarios == SCENARIOS + 1 {
                        diags.push(guards::too_many("scenarios", span));
                    }
                    let name = pair.into_inner().next().map(|p| string(p, start));
                    open = Some(Scenario {
                        name: name.unwrap_or(Spanned {
                            node: String::new(),
                            span,
                        }),
                        steps: Vec::new(),
                        span,
                        line: lineno,
                    });
                } else {
                    statements += 1;
                    if statements > limits::STATEMENTS {
                        if statements == limits::STATEMENTS + 1 {
                            diags.push(guards::too_many("statements", span));
                        }
                        continue;
                    }
                    let built = if matches!(
                        pair.as_rule(),
                        Rule::count_stmt
                            | Rule::moment_stmt
                            | Rule::round_end_stmt
                            | Rule::other_stmt
                    ) {
                        moments::build(pair, start)
                    } else {
                        build_statement(pair, start)
                    };
                    match built {
                        Ok(kind) => file.statements.push(Statement {
                            guard,
                            kind,
                            span,
                            line: lineno,
                        }),
                        Err(d) => diags.push(d),
                    }
                }
            }
            Err(err) => diags.push(syntax_error(&err, line, start, open.is_some())),
        }
    }
    diags.extend(unclosed(script.map(|(_, head, _)| head), open.as_ref()));
    (file, diags)
}

/// A file with no statement: empty, or only comments.
fn empty(text: &str) -> Option<Diag> {
    if text.trim().is_empty() {
        return Some(
            Diag::error(
                Code::EmptyFile,
                Span::new(0, text.len()),
                "this ruleset is empty",
            )
            .label("nothing here")
            .hint(
                "a ruleset needs at least its players, hand, chips and card values, or \
                     `extends \"ninety-nine\"` to start from another ruleset",
            ),
        );
    }
    if text.lines().all(|l| strip_comment(l).trim().is_empty()) {
        return Some(
            Diag::error(Code::EmptyFile, Span::new(0, text.trim_end().len()), "this ruleset holds only comments")
                .label("no statement in the file")
                .hint("add the rules themselves, like `players 2 to 5`, or `extends \"ninety-nine\"` to start from another ruleset"),
        );
    }
    None
}

/// A script block or a scenario still open at the end of the file.
fn unclosed(script: Option<Span>, open: Option<&Scenario>) -> Vec<Diag> {
    let mut diags = Vec::new();
    if let Some(head) = script {
        diags.push(
            Diag::error(
                Code::UnclosedScript,
                head,
                "this script block is never closed",
            )
            .label("opened here")
            .hint("end the rhai code with a line that says `end`"),
        );
    }
    if let Some(scenario) = open {
        diags.push(
            Diag::error(
                Code::UnclosedScenario,
                scenario.span,
                format!("the scenario \"{}\" is never closed", scenario.name.node),
            )
            .label("opened here")
            .hint("end the scenario with a line that says `end`"),
        );
    }
    diags
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_card_line() {
        let (file, diags) =
            parse("card 2: halve if the total is even and above 49, otherwise double\n");
        assert!(diags.is_empty(), "{diags:?}");
        let StatementKind::Card { effect, .. } = &file.statements[0].kind else {
            panic!("not a card")
        };
        assert_eq!(effect.choices.len(), 1);
        let Body::Steps(steps) = &effect.choices[0].body else {
            panic!("not steps")
        };
        let step = &steps[0];
        assert!(matches!(step.action.node, Action::Halve));
        assert_eq!(step.condition.as_ref().map(|c| c.tests.len()), Some(2));
        assert!(matches!(
            step.otherwise.as_ref().map(|a| &a.node),
            Some(Action::Double)
        ));
    }

    #[test]
    fn reads_branches_counts_and_new_tests() {
        let (file, diags) = parse(
            "card 5: if the total ends in 5: add 5 and skip 2 players; otherwise if the player has at most 1 chip: play again twice; otherwise add 5\n",
        );
        assert!(diags.is_empty(), "{diags:?}");
        let StatementKind::Card { effect, .. } = &file.statements[0].kind else {
            panic!("not a card")
        };
        let Body::Branches(b) = &effect.choices[0].body else {
            panic!("not branches")
        };
        assert_eq!(b.len(), 3);
        assert!(b[2].condition.is_none());
        let steps = |i: usize| match &b[i].body {
            BranchBody::Steps(s) => s.clone(),
            BranchBody::Either(_) => panic!("not steps"),
        };
        assert!(matches!(steps(0)[1].action.node, Action::Skip(Some(_))));
        assert!(matches!(
            steps(1)[0].action.node,
            Action::PlayAgain(Some(_))
        ));
        let (_, diags) = parse(
            "card K: add 1 if the total is a multiple of 11 and between 10 and 90, otherwise nothing\n\
             card Q: the player takes 1 from the bank\n\
             card J: the bank pays 2 to the player with the most chips\n\
             card 9: nothing if the previous card is a King or only 2 players are left\n\
             no bar at 66\n\
             no rule on passing 33\n\
             no card rule for 4 with 2 players\n\
             no rule when a player cannot play\n\
             no upper limit\n",
        );
        assert!(diags.is_empty(), "{diags:?}");
    }

    #[test]
    fn every_bad_line_is_reported() {
        let (_, diags) = parse("playres 2 to 5\ncard A add 1\nhand three\n");
        assert_eq!(diags.len(), 3, "{diags:?}");
        assert!(diags[0].message.contains("unknown keyword `playres`"));
    }
}
