//! The pest parser and one builder per grammar rule: ruleset text to [`ast::File`].
//!
//! A ruleset is parsed line by line (`line`, or `scenario_line` inside a scenario), so every
//! bad line gets its own diagnostic and none hides another. Pest types stay in this module.

use pest::Parser as _;
use pest::iterators::Pair;
use pest_derive::Parser;

use crate::ast::*;
use crate::diag::{Diag, did_you_mean};

#[derive(Parser)]
#[grammar = "../grammar/ninety.pest"]
struct Grammar;

/// The largest ruleset file read, in bytes. A rules file is a page of text; anything bigger
/// is a mistake (a wrong file), not a ruleset.
pub const MAX_FILE_BYTES: usize = 256 * 1024;

/// The words a statement may start with, and an example of each, for hints.
const STATEMENTS: &[(&str, &str)] = &[
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
    ("script", "script file \"house.rhai\""),
];

const SCENARIO_STEPS: &[(&str, &str)] = &[
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
    if text.trim().is_empty() {
        diags.push(
            Diag::error(
                "empty-file",
                Span::new(0, text.len()),
                "this ruleset is empty",
            )
            .label("nothing here")
            .hint(
                "a ruleset needs at least its players, hand, chips and card values, or \
                     `extends \"ninety-nine\"` to start from another ruleset",
            ),
        );
        return (file, diags);
    }
    if text.lines().all(|l| strip_comment(l).trim().is_empty()) {
        diags.push(
            Diag::error("empty-file", Span::new(0, text.trim_end().len()), "this ruleset holds only comments")
                .label("no statement in the file")
                .hint("add the rules themselves, like `players 2 to 5`, or `extends \"ninety-nine\"` to start from another ruleset"),
        );
        return (file, diags);
    }
    let mut open: Option<Scenario> = None;
    let mut offset = 0;
    // An open `script` block: its first line, and where its code starts.
    let mut script: Option<(usize, Span, usize)> = None;
    for (index, raw) in text.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
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
                        file.scenarios.push(done);
                    } else {
                        let step = build_step(pair, start);
                        scenario.steps.push(Spanned { node: step, span });
                    }
                } else if pair.as_rule() == Rule::script_block {
                    script = Some((lineno + 1, span, offset));
                } else if pair.as_rule() == Rule::scenario_stmt {
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
                    match build_statement(pair, start) {
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
    if let Some((_, head, _)) = script {
        diags.push(
            Diag::error("unclosed-script", head, "this script block is never closed")
                .label("opened here")
                .hint("end the rhai code with a line that says `end`"),
        );
    }
    if let Some(scenario) = open {
        diags.push(
            Diag::error(
                "unclosed-scenario",
                scenario.span,
                format!("the scenario \"{}\" is never closed", scenario.name.node),
            )
            .label("opened here")
            .hint("end the scenario with a line that says `end`"),
        );
    }
    (file, diags)
}

/// The line without a trailing `# comment` (a `#` inside quotes is text).
pub fn strip_comment(line: &str) -> &str {
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '#' if !quoted => return &line[..i],
            _ => {}
        }
    }
    line
}

fn first_word(line: &str) -> Option<(usize, &str)> {
    let trimmed = line.trim_start();
    let at = line.len() - trimmed.len();
    let word_len = trimmed
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(trimmed.len());
    (word_len > 0).then(|| (at, &trimmed[..word_len]))
}

/// An unknown first word gets its own message, with a "did you mean".
fn check_first_word(
    line: &str,
    start: usize,
    table: &[(&str, &str)],
    in_scenario: bool,
) -> Option<Diag> {
    let stripped = strip_comment(line);
    let trimmed = stripped.trim_start();
    if let Some(rest) = trimmed.strip_prefix('-').filter(|r| r.starts_with(' ')) {
        let at = stripped.len() - trimmed.len();
        let _ = rest;
        return Some(
            Diag::error(
                "unknown-keyword",
                Span::new(start + at, start + at + 1),
                "a ruleset line does not start with `-`",
            )
            .label("a list bullet?")
            .hint("write each rule on its own line, without a bullet: `card A: add 1 or add 11`"),
        );
    }
    let Some((at, word)) = first_word(stripped) else {
        let at = stripped.len() - stripped.trim_start().len();
        let span = Span::new(start + at, start + stripped.trim_end().len());
        return Some(
            Diag::error("syntax", span, "a line must start with a word")
                .label("not a word")
                .hint(starts_hint(table, in_scenario)),
        );
    };
    let lower = word.to_lowercase();
    if table.iter().any(|(k, _)| *k == lower) {
        return None;
    }
    let span = Span::new(start + at, start + at + word.len());
    if lower == "end" && !in_scenario {
        return Some(
            Diag::error("stray-end", span, "`end` closes nothing: no scenario is open here")
                .label("nothing to close")
                .hint("`end` closes a block opened by `scenario \"...\"`; remove this line or open the scenario above it"),
        );
    }
    if word == "-" || word.starts_with('-') && word.len() == 1 {
        return Some(
            Diag::error(
                "unknown-keyword",
                span,
                "a ruleset line does not start with `-`",
            )
            .label("a list bullet?")
            .hint("write each rule on its own line without a bullet: `card A: add 1 or add 11`"),
        );
    }
    let (message, hint) = if in_scenario {
        (
            format!("`{word}` is not a scenario step"),
            match did_you_mean(word, table.iter().map(|(k, _)| *k)) {
                Some(k) => format!("did you mean `{k}`? For example `{}`", example(table, k)),
                None => format!("{}; a scenario ends with `end`", starts_hint(table, true)),
            },
        )
    } else {
        (
            format!("unknown keyword `{word}`"),
            match did_you_mean(word, table.iter().map(|(k, _)| *k)) {
                Some(k) => format!("did you mean `{k}`? For example `{}`", example(table, k)),
                None => starts_hint(table, false),
            },
        )
    };
    Some(
        Diag::error("unknown-keyword", span, message)
            .label("not a keyword")
            .hint(hint),
    )
}

fn example(table: &[(&str, &str)], key: &str) -> String {
    table
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, e)| (*e).to_string())
        .unwrap_or_default()
}

fn starts_hint(table: &[(&str, &str)], in_scenario: bool) -> String {
    let words: Vec<String> = table.iter().map(|(k, _)| format!("`{k}`")).collect();
    if in_scenario {
        format!("a scenario line starts with one of {}", words.join(", "))
    } else {
        format!("a ruleset line starts with one of {}", words.join(", "))
    }
}

/// Turns pest's error into a diagnostic in the designer's words: what was found, what would
/// fit there, and an example of the statement the line seems to be.
fn syntax_error(
    err: &pest::error::Error<Rule>,
    line: &str,
    start: usize,
    in_scenario: bool,
) -> Diag {
    let pos = match err.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let pos = err
        .parse_attempts()
        .map_or(pos, |a| a.max_position.max(pos))
        .min(line.len());
    let rest = strip_comment(&line[pos..]);
    let found_len = match rest.chars().next() {
        None => 0,
        Some(c) if c.is_alphanumeric() => rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(rest.len()),
        Some(c) => c.len_utf8(),
    };
    let found = &rest[..found_len];
    // An opening quote with no closing one: point at the quote.
    let code = strip_comment(line);
    if code.matches('"').count() % 2 == 1
        && let Some(q) = code.rfind('"')
    {
        return Diag::error(
            "unclosed-text",
            Span::new(start + q, start + q + 1),
            "this text in quotes is never closed",
        )
        .label("opened here")
        .hint("end the text with a straight double quote `\"` on the same line");
    }
    let (expected, suggestion) = expected_words(err, found);
    if let Some(c) = found.chars().next().filter(|c| !c.is_ascii()) {
        let (what, hint) = match c {
            '“' | '”' | '„' => ("curly quote".to_string(), "write text between straight double quotes `\"...\"` (a word processor may have curled them)".to_string()),
            '‘' | '’' => ("curly apostrophe".to_string(), "write text between straight double quotes `\"...\"`".to_string()),
            '\u{a0}' => ("non-breaking space (U+00A0)".to_string(), "replace it with an ordinary space".to_string()),
            '\u{feff}' => ("invisible byte-order mark (U+FEFF)".to_string(), "save the file as UTF-8 without a BOM".to_string()),
            c => (format!("character `{c}` (U+{:04X})", c as u32), "a ruleset is written with ordinary letters, digits and punctuation".to_string()),
        };
        let span = Span::new(start + pos, start + pos + found_len);
        let mut message = format!("unexpected {what}");
        if !expected.is_empty() {
            message.push_str(&format!(": expected {}", join_or(&expected)));
        }
        return Diag::error("syntax", span, message)
            .label("this character")
            .hint(hint);
    }
    let span = if found_len == 0 {
        // Point at the end of the line: something is missing there.
        let end = start + strip_comment(line).trim_end().len();
        Span::new(end, end)
    } else {
        Span::new(start + pos, start + pos + found_len)
    };
    let message = match (found.is_empty(), expected.is_empty()) {
        (true, false) => format!("this line stops too soon: expected {}", join_or(&expected)),
        (true, true) => "this line stops too soon".to_string(),
        (false, false) => format!("expected {}, found `{found}`", join_or(&expected)),
        (false, true) => format!("unexpected `{found}`"),
    };
    let table = if in_scenario {
        SCENARIO_STEPS
    } else {
        STATEMENTS
    };
    const NUMBER_WORDS: [&str; 13] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    if expected.iter().any(|w| w == "a number")
        && let Some(n) = NUMBER_WORDS
            .iter()
            .position(|w| w.eq_ignore_ascii_case(found))
    {
        return Diag::error(
            "bad-number",
            span,
            format!("expected a number, found `{found}`"),
        )
        .label("a number in words")
        .hint(format!("write numbers in digits: `{n}`"));
    }
    if let Some(k) = suggestion {
        let message = format!("unknown word `{found}`");
        return Diag::error("syntax", span, message)
            .label("not expected here")
            .hint(format!("did you mean `{k}`?"));
    }
    let mut hint = first_word(line)
        .and_then(|(_, w)| table.iter().find(|(k, _)| *k == w.to_lowercase()))
        .map(|(_, e)| format!("a line like this reads `{e}`"))
        .unwrap_or_else(|| starts_hint(table, in_scenario));
    if !found.is_empty() && expected.iter().any(|w| w == "`:`") {
        hint = format!("is a `:` missing before `{found}`? {hint}");
    }
    Diag::error("syntax", span, message)
        .label(if found.is_empty() {
            "something is missing here".to_string()
        } else {
            "not expected here".to_string()
        })
        .hint(hint)
}

/// What would fit where the line went wrong, in words, and the closest keyword to what was
/// found there.
fn expected_words(err: &pest::error::Error<Rule>, found: &str) -> (Vec<String>, Option<String>) {
    let mut words: Vec<String> = Vec::new();
    let push = |words: &mut Vec<String>, w: String| {
        if !words.contains(&w) {
            words.push(w);
        }
    };
    if let Some(attempts) = err.parse_attempts() {
        // pest does not export its token type; its Display is the token's text (upper-cased
        // when case-insensitive), `a..b` for a range, `BUILTIN_RULE` for a built-in.
        for token in attempts.expected_tokens() {
            let t = token.to_string().to_lowercase();
            match t.as_str() {
                "-" | "{" | "0..9" => push(&mut words, "a number".into()),
                "#" | "\t" | " " | "\r" | "builtin_rule" => {}
                _ if t.contains("..") => {}
                _ => push(&mut words, format!("`{t}`")),
            }
        }
    }
    if words.is_empty()
        && let pest::error::ErrorVariant::ParsingError { positives, .. } = &err.variant
    {
        for rule in positives {
            if let Some(w) = rule_words(*rule) {
                push(&mut words, w.to_string());
            }
        }
    }
    let keywords: Vec<&str> = words
        .iter()
        .filter_map(|w| w.strip_prefix('`').and_then(|w| w.strip_suffix('`')))
        .collect();
    let suggestion = if found.chars().all(|c| c.is_ascii_alphabetic()) && found.len() > 1 {
        did_you_mean(found, keywords.iter().copied())
            .filter(|k| !k.eq_ignore_ascii_case(found))
            .map(str::to_string)
    } else {
        None
    };
    if words.len() > 8 {
        words.truncate(7);
        words.push("…".into());
    }
    (words, suggestion)
}

fn rule_words(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::number | Rule::amount | Rule::amounts => "a number",
        Rule::option_ref => "an option in braces, like `{chips}`",
        Rule::ident => "a name",
        Rule::word | Rule::ranks | Rule::rank_item => "a card rank",
        Rule::string => "text in double quotes",
        Rule::effect | Rule::choice | Rule::step => "what the card does, like `add 10`",
        Rule::condition | Rule::test => "a test on the total, like `even` or `above 49`",
        Rule::outcomes | Rule::outcome => "what happens, like `the player pays 1`",
        Rule::card | Rule::cards => "a card, like `7H`",
        _ => return None,
    })
}

fn join_or(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

fn shift(span: pest::Span<'_>, start: usize) -> Span {
    Span::new(start + span.start(), start + span.end())
}

fn sp(pair: &Pair<'_, Rule>, start: usize) -> Span {
    shift(pair.as_span(), start)
}

fn string(pair: Pair<'_, Rule>, start: usize) -> Spanned<String> {
    let span = sp(&pair, start);
    let text = pair
        .into_inner()
        .next()
        .map(|p| p.as_str().to_string())
        .unwrap_or_default();
    Spanned { node: text, span }
}

fn number(pair: &Pair<'_, Rule>, start: usize) -> Result<i64, Diag> {
    pair.as_str()
        .parse::<i64>()
        .ok()
        .filter(|n| n.abs() <= 1_000_000)
        .ok_or_else(|| {
            Diag::error(
                "bad-number",
                sp(pair, start),
                format!("`{}` is too big a number", pair.as_str()),
            )
            .label("too big")
            .hint("numbers in a ruleset stay between -1000000 and 1000000")
        })
}

fn amount(pair: Pair<'_, Rule>, start: usize) -> Result<SAmount, Diag> {
    let span = sp(&pair, start);
    let inner = pair.into_inner().next().expect("amount has one child");
    let node = match inner.as_rule() {
        Rule::number => Amount::Number(number(&inner, start)?),
        _ => Amount::Option(
            inner
                .into_inner()
                .next()
                .map(|p| p.as_str().to_string())
                .unwrap_or_default(),
        ),
    };
    Ok(Spanned { node, span })
}

fn with_players(pair: Pair<'_, Rule>, start: usize) -> Result<WithPlayers, Diag> {
    let span = sp(&pair, start);
    let mut count = None;
    let mut or_more = false;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::amount => count = Some(amount(p, start)?),
            Rule::or_more => or_more = true,
            _ => {}
        }
    }
    Ok(WithPlayers {
        count: count.expect("with_players has a count"),
        or_more,
        span,
    })
}

fn turning(pair: &Pair<'_, Rule>) -> Turning {
    if pair.as_rule() == Rule::clockwise {
        Turning::Clockwise
    } else {
        Turning::Counterclockwise
    }
}

fn option_value(pair: &Pair<'_, Rule>, start: usize) -> Result<OptValue, Diag> {
    let inner = pair
        .clone()
        .into_inner()
        .next()
        .expect("option_value has a child");
    Ok(match inner.as_rule() {
        Rule::yes => OptValue::Yes,
        Rule::no => OptValue::No,
        _ => OptValue::Number(number(&inner, start)?),
    })
}

fn build_statement(pair: Pair<'_, Rule>, start: usize) -> Result<StatementKind, Diag> {
    let rule = pair.as_rule();
    let span = sp(&pair, start);
    let mut inner = pair
        .into_inner()
        .filter(|p| !matches!(p.as_rule(), Rule::kw_or | Rule::kw_and));
    let mut next = || inner.next().expect("the grammar guarantees this child");
    Ok(match rule {
        Rule::name_stmt => StatementKind::Name(string(next(), start).node),
        Rule::about_stmt => StatementKind::About(string(next(), start).node),
        Rule::extends_stmt => StatementKind::Extends(string(next(), start)),
        Rule::option_stmt => {
            let name_pair = next();
            let name = Spanned {
                node: name_pair.as_str().to_string(),
                span: sp(&name_pair, start),
            };
            let value_pair = next();
            let default = Spanned {
                node: option_value(&value_pair, start)?,
                span: sp(&value_pair, start),
            };
            let range = match inner.next() {
                None => match default.node {
                    OptValue::Yes | OptValue::No => OptRange::YesNo,
                    OptValue::Number(n) => OptRange::OneOf(vec![OptValue::Number(n)]),
                },
                Some(r) => {
                    let r = r.into_inner().next().expect("option_range has a child");
                    match r.as_rule() {
                        Rule::range_between => {
                            let mut it = r.into_inner();
                            let lo = it.next().expect("from");
                            let hi = it.next().expect("to");
                            OptRange::Between(number(&lo, start)?, number(&hi, start)?)
                        }
                        _ => OptRange::OneOf(
                            r.into_inner()
                                .map(|v| option_value(&v, start))
                                .collect::<Result<_, _>>()?,
                        ),
                    }
                }
            };
            StatementKind::Option {
                name,
                default,
                range,
            }
        }
        Rule::players_stmt => {
            let min = amount(next(), start)?;
            let max = amount(next(), start)?;
            StatementKind::Players { min, max }
        }
        Rule::decks_stmt => {
            let count = amount(next(), start)?;
            let with = inner.next().map(|p| with_players(p, start)).transpose()?;
            StatementKind::Decks { count, with }
        }
        Rule::jokers_stmt => StatementKind::Jokers(amount(next(), start)?),
        Rule::hand_stmt => {
            let size = amount(next(), start)?;
            let with = inner.next().map(|p| with_players(p, start)).transpose()?;
            StatementKind::Hand { size, with }
        }
        Rule::chips_stmt => StatementKind::Chips(amount(next(), start)?),
        Rule::start_stmt => StatementKind::Start(amount(next(), start)?),
        Rule::limit_stmt => {
            let side = if next().as_rule() == Rule::above {
                Side::Above
            } else {
                Side::Below
            };
            StatementKind::Limit {
                side,
                value: amount(next(), start)?,
            }
        }
        Rule::direction_stmt => StatementKind::Direction(turning(&next())),
        Rule::drawing_stmt => StatementKind::Drawing {
            by_hand: next().as_rule() == Rule::by_hand,
        },
        Rule::stock_stmt => StatementKind::EmptyStock {
            reshuffle: next().as_rule() == Rule::reshuffle,
        },
        Rule::card_stmt => {
            let ranks = next()
                .into_inner()
                .map(|item| {
                    let mut words = item.into_inner();
                    let w = |p: Pair<'_, Rule>| Spanned {
                        node: p.as_str().to_string(),
                        span: sp(&p, start),
                    };
                    let from = w(words.next().expect("a rank"));
                    RankItem {
                        from,
                        to: words.next().map(w),
                    }
                })
                .collect();
            let mut with = None;
            let mut effect_pair = next();
            if effect_pair.as_rule() == Rule::with_players {
                with = Some(with_players(effect_pair, start)?);
                effect_pair = next();
            }
            StatementKind::Card {
                ranks,
                with,
                effect: effect(effect_pair, start)?,
            }
        }
        Rule::bar_stmt => {
            let passing = next().as_rule() == Rule::passing;
            let values = next()
                .into_inner()
                .filter(|p| p.as_rule() == Rule::amount)
                .map(|p| amount(p, start))
                .collect::<Result<_, _>>()?;
            let mut either_way = false;
            let mut outs = next();
            if outs.as_rule() == Rule::either_way {
                either_way = true;
                outs = next();
            }
            StatementKind::Bar {
                passing,
                values,
                either_way,
                outcomes: outcomes(outs, start)?,
            }
        }
        Rule::when_stmt => {
            let trigger = match next().as_rule() {
                Rule::cannot_play => Trigger::CannotPlay,
                Rule::no_cards => Trigger::NoCards,
                Rule::round_start => Trigger::RoundStart,
                Rule::round_end => Trigger::RoundEnd,
                _ => Trigger::GameEnd,
            };
            StatementKind::When {
                trigger,
                outcomes: outcomes(next(), start)?,
            }
        }
        Rule::out_stmt => StatementKind::Out {
            when_cannot_pay: next().as_rule() == Rule::cannot_pay,
        },
        Rule::dealer_stmt => {
            let p = next();
            if p.as_rule() == Rule::player_n {
                StatementKind::FirstDealer(Some(amount(p.into_inner().next().expect("n"), start)?))
            } else {
                StatementKind::FirstDealer(None)
            }
        }
        Rule::deal_stmt => StatementKind::DealPasses(turning(&next())),
        Rule::leader_stmt => {
            let p = next();
            let (side, role_pair) = if p.as_rule() == Rule::side_of {
                let mut it = p.into_inner();
                let side = turning(&it.next().expect("side"));
                (Some(side), it.next().expect("role"))
            } else {
                (None, p)
            };
            let role = match role_pair.into_inner().next().expect("role").as_rule() {
                Rule::dealer => Role::Dealer,
                Rule::loser => Role::Loser,
                _ => Role::Winner,
            };
            StatementKind::Leader { role, side }
        }
        Rule::game_end_stmt => {
            let p = next();
            if p.as_rule() == Rule::after_rounds {
                StatementKind::GameEnd(Some(amount(p.into_inner().next().expect("n"), start)?))
            } else {
                StatementKind::GameEnd(None)
            }
        }
        Rule::winner_stmt => StatementKind::Winner {
            most_chips: next().as_rule() == Rule::most_chips,
        },
        Rule::teams_stmt => StatementKind::Teams(amount(next(), start)?),
        Rule::script_file => StatementKind::ScriptFile(string(next(), start)),
        Rule::script_bar => {
            let name = next();
            let name = Spanned {
                node: name.as_str().to_string(),
                span: sp(&name, start),
            };
            StatementKind::ScriptBar {
                name,
                outcomes: outcomes(next(), start)?,
            }
        }
        other => {
            return Err(Diag::error(
                "syntax",
                span,
                format!("this line cannot be read ({other:?})"),
            ));
        }
    })
}

fn effect(pair: Pair<'_, Rule>, start: usize) -> Result<Effect, Diag> {
    let span = sp(&pair, start);
    let choices = pair
        .into_inner()
        .filter(|p| p.as_rule() == Rule::choice)
        .map(|c| {
            let span = sp(&c, start);
            let mut steps = Vec::new();
            let mut label = None;
            for p in c.into_inner() {
                match p.as_rule() {
                    Rule::step => steps.push(step(p, start)?),
                    Rule::label => label = p.into_inner().next().map(|s| string(s, start)),
                    _ => {}
                }
            }
            Ok(Choice { steps, label, span })
        })
        .collect::<Result<_, Diag>>()?;
    Ok(Effect { choices, span })
}

fn step(pair: Pair<'_, Rule>, start: usize) -> Result<Step, Diag> {
    let mut it = pair.into_inner().filter(|p| p.as_rule() != Rule::kw_if);
    let action = action(it.next().expect("a step has an action"), start)?;
    let mut condition = None;
    let mut otherwise = None;
    for p in it {
        match p.as_rule() {
            Rule::condition => condition = Some(build_condition(p, start)?),
            Rule::otherwise => {
                otherwise = Some(action_of(p.into_inner().next().expect("an action"), start)?);
            }
            _ => {}
        }
    }
    Ok(Step {
        action,
        condition,
        otherwise,
    })
}

fn action_of(pair: Pair<'_, Rule>, start: usize) -> Result<Spanned<Action>, Diag> {
    action(pair, start)
}

fn action(pair: Pair<'_, Rule>, start: usize) -> Result<Spanned<Action>, Diag> {
    let span = sp(&pair, start);
    let rule = pair.as_rule();
    let node = match rule {
        Rule::add | Rule::subtract => {
            let q = pair
                .into_inner()
                .next()
                .expect("quantity")
                .into_inner()
                .next()
                .expect("q");
            let quantity = if q.as_rule() == Rule::face {
                Quantity::Face
            } else {
                Quantity::Amount(amount(q, start)?)
            };
            if rule == Rule::add {
                Action::Add(quantity)
            } else {
                Action::Subtract(quantity)
            }
        }
        Rule::set_total => Action::Set(amount(pair.into_inner().next().expect("amount"), start)?),
        Rule::multiply => {
            Action::Multiply(amount(pair.into_inner().next().expect("amount"), start)?)
        }
        Rule::divide => Action::Divide(amount(pair.into_inner().next().expect("amount"), start)?),
        Rule::double => Action::Double,
        Rule::halve => Action::Halve,
        Rule::nothing => Action::Nothing,
        Rule::skip => Action::Skip,
        Rule::reverse => Action::Reverse,
        Rule::play_again => Action::PlayAgain,
        Rule::run_script => {
            let name = pair.into_inner().next().expect("a name");
            Action::Run(Spanned {
                node: name.as_str().to_string(),
                span: sp(&name, start),
            })
        }
        _ => Action::Outcome(outcome(pair, start)?),
    };
    Ok(Spanned { node, span })
}

fn build_condition(pair: Pair<'_, Rule>, start: usize) -> Result<Condition, Diag> {
    let span = sp(&pair, start);
    let mut tests = Vec::new();
    let mut and = true;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::cond_join => {
                and = p
                    .into_inner()
                    .next()
                    .is_some_and(|j| j.as_rule() == Rule::kw_and);
            }
            _ => {
                let pred = p.into_inner().next().expect("a test has a predicate");
                let tspan = sp(&pred, start);
                let rule = pred.as_rule();
                let num = |p: Pair<'_, Rule>| amount(p.into_inner().next().expect("amount"), start);
                let test = match rule {
                    Rule::even => Test::Even,
                    Rule::odd => Test::Odd,
                    Rule::at_least => Test::AtLeast(num(pred)?),
                    Rule::at_most => Test::AtMost(num(pred)?),
                    Rule::above_n => Test::Above(num(pred)?),
                    Rule::below_n => Test::Below(num(pred)?),
                    Rule::script_test => {
                        let name = pred.into_inner().next().expect("a name");
                        Test::Script(Spanned {
                            node: name.as_str().to_string(),
                            span: sp(&name, start),
                        })
                    }
                    _ => Test::Exactly(num(pred)?),
                };
                tests.push((
                    and,
                    Spanned {
                        node: test,
                        span: tspan,
                    },
                ));
            }
        }
    }
    Ok(Condition { tests, span })
}

fn who(pair: &Pair<'_, Rule>) -> Who {
    match pair.clone().into_inner().next().map(|p| p.as_rule()) {
        Some(Rule::each_other) => Who::EachOther,
        Some(Rule::every_player) => Who::Every,
        Some(Rule::the_winner) => Who::Winner,
        Some(Rule::the_loser) => Who::Loser,
        Some(Rule::the_next) => Who::Next,
        Some(Rule::each_out) => Who::EachOut,
        _ => Who::Player,
    }
}

fn outcomes(pair: Pair<'_, Rule>, start: usize) -> Result<Vec<Outcome>, Diag> {
    pair.into_inner()
        .filter(|p| p.as_rule() == Rule::outcome)
        .map(|p| outcome(p, start))
        .collect()
}

fn outcome(pair: Pair<'_, Rule>, start: usize) -> Result<Outcome, Diag> {
    let pair = if pair.as_rule() == Rule::outcome {
        pair.into_inner().next().expect("an outcome has a kind")
    } else {
        pair
    };
    let span = sp(&pair, start);
    let rule = pair.as_rule();
    let pile = pair
        .clone()
        .into_inner()
        .any(|p| p.as_rule() == Rule::pile_too);
    let mut subject = None;
    let mut amount_v = None;
    let mut to = Target::Bank;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::who => subject = Some(who(&p)),
            Rule::amount => amount_v = Some(amount(p, start)?),
            Rule::target => {
                let t = p.into_inner().next().expect("a target");
                to = match t.as_rule() {
                    Rule::bank => Target::Bank,
                    Rule::pot => Target::Pot,
                    _ => Target::Seat(who(&t)),
                };
            }
            _ => {}
        }
    }
    let kind = match rule {
        Rule::pays => OutcomeKind::Pays {
            amount: amount_v.expect("pays has an amount"),
            to,
        },
        Rule::wins_round => OutcomeKind::WinsRound,
        Rule::loses_round => OutcomeKind::LosesRound,
        Rule::out_of_round => OutcomeKind::OutOfRound,
        Rule::out_of_game => OutcomeKind::OutOfGame,
        Rule::resets => OutcomeKind::Resets { pile },
        Rule::round_ends => OutcomeKind::RoundEnds,
        _ => OutcomeKind::TakesPot,
    };
    Ok(Outcome {
        who: subject,
        kind,
        span,
    })
}

fn cards(pair: Option<Pair<'_, Rule>>, start: usize) -> Vec<Spanned<String>> {
    pair.map(|p| {
        p.into_inner()
            .map(|c| Spanned {
                node: c.as_str().to_string(),
                span: sp(&c, start),
            })
            .collect()
    })
    .unwrap_or_default()
}

fn numbers(pair: Pair<'_, Rule>) -> Vec<i64> {
    pair.into_inner()
        .filter_map(|p| p.as_str().parse().ok())
        .collect()
}

fn build_step(pair: Pair<'_, Rule>, start: usize) -> ScenarioStep {
    let rule = pair.as_rule();
    let first_num = |p: &Pair<'_, Rule>| {
        p.clone()
            .into_inner()
            .find(|c| c.as_rule() == Rule::number)
            .and_then(|c| c.as_str().parse().ok())
            .unwrap_or(0)
    };
    match rule {
        Rule::sc_players => ScenarioStep::Players(first_num(&pair)),
        Rule::sc_set => {
            let mut it = pair.into_inner();
            let name = it
                .next()
                .map(|p| p.as_str().to_string())
                .unwrap_or_default();
            let value = it
                .next()
                .and_then(|v| option_value(&v, start).ok())
                .unwrap_or(OptValue::No);
            ScenarioStep::Set(name, value)
        }
        Rule::sc_total => ScenarioStep::Total(first_num(&pair)),
        Rule::sc_chips => ScenarioStep::Chips(numbers(pair)),
        Rule::sc_turn => ScenarioStep::Turn(first_num(&pair)),
        Rule::sc_direction => {
            ScenarioStep::Direction(turning(&pair.into_inner().next().expect("a direction")))
        }
        Rule::sc_hand => {
            let seat = first_num(&pair);
            ScenarioStep::Hand(
                seat,
                cards(
                    pair.into_inner().find(|p| p.as_rule() == Rule::cards),
                    start,
                ),
            )
        }
        Rule::sc_stock => {
            let only = pair.clone().into_inner().any(|p| p.as_rule() == Rule::only);
            ScenarioStep::Stock(
                cards(
                    pair.into_inner().find(|p| p.as_rule() == Rule::cards),
                    start,
                ),
                only,
            )
        }
        Rule::sc_dealer => ScenarioStep::Dealer(first_num(&pair)),
        Rule::sc_discard => ScenarioStep::Discard(cards(pair.into_inner().next(), start)),
        Rule::sc_play => {
            let c = pair.into_inner().next().expect("a card");
            ScenarioStep::Play(Spanned {
                node: c.as_str().to_string(),
                span: sp(&c, start),
            })
        }
        Rule::sc_draw => ScenarioStep::Draw,
        _ => {
            let e = pair.into_inner().next().expect("an expectation");
            let rule = e.as_rule();
            let n = first_num(&e);
            ScenarioStep::Expect(match rule {
                Rule::ex_total => Expectation::Total(n),
                Rule::ex_chips => Expectation::Chips(numbers(e)),
                Rule::ex_turn => Expectation::Turn(n),
                Rule::ex_out => Expectation::Out(numbers(e)),
                Rule::ex_round_over => Expectation::RoundOver,
                Rule::ex_game_over => Expectation::GameOver,
                Rule::ex_winner => Expectation::Winner(numbers(e)),
                Rule::ex_illegal => {
                    let c = e.into_inner().next().expect("a card");
                    Expectation::Illegal(Spanned {
                        node: c.as_str().to_string(),
                        span: sp(&c, start),
                    })
                }
                Rule::ex_legal => {
                    let c = e.into_inner().next().expect("a card");
                    Expectation::Legal(Spanned {
                        node: c.as_str().to_string(),
                        span: sp(&c, start),
                    })
                }
                Rule::ex_dealer => Expectation::Dealer(n),
                Rule::ex_round => Expectation::Round(n),
                Rule::ex_pot => Expectation::Pot(n),
                Rule::ex_bank => Expectation::Bank(n),
                Rule::ex_direction => {
                    Expectation::Direction(turning(&e.into_inner().next().expect("a direction")))
                }
                _ => {
                    let v = numbers(e);
                    Expectation::HandSize(
                        v.first().copied().unwrap_or(0),
                        v.get(1).copied().unwrap_or(0),
                    )
                }
            })
        }
    }
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
        let step = &effect.choices[0].steps[0];
        assert!(matches!(step.action.node, Action::Halve));
        assert_eq!(step.condition.as_ref().map(|c| c.tests.len()), Some(2));
        assert!(matches!(
            step.otherwise.as_ref().map(|a| &a.node),
            Some(Action::Double)
        ));
    }

    #[test]
    fn every_bad_line_is_reported() {
        let (_, diags) = parse("playres 2 to 5\ncard A add 1\nhand three\n");
        assert_eq!(diags.len(), 3, "{diags:?}");
        assert!(diags[0].message.contains("unknown keyword `playres`"));
    }
}
