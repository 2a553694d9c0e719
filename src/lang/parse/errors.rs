//! Syntax errors in the designer's words: an unknown first word with a "did you mean", and
//! pest's failures turned into what was found, what would fit, and an example.

use super::{Rule, SCENARIO_STEPS, STATEMENTS};
use crate::base::Code;
use crate::base::diag::{Diag, did_you_mean};
use crate::base::span::{Span, strip_comment};

pub(super) fn first_word(line: &str) -> Option<(usize, &str)> {
    let trimmed = line.trim_start();
    let at = line.len() - trimmed.len();
    let word_len = trimmed
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(trimmed.len());
    (word_len > 0).then(|| (at, &trimmed[..word_len]))
}

/// An unknown first word gets its own message, with a "did you mean".
pub(super) fn check_first_word(
    line: &str,
    start: usize,
    table: &[(&str, &str)],
    in_scenario: bool,
) -> Option<Diag> {
    let stripped = strip_comment(line);
    let trimmed = stripped.trim_start();
    if let Some(rest) = trimmed.strip_prefix('-').filter(|r| r.starts_with(' ')) {
        let at = stripped.len() - trimmed.len();
        let bullet = 1 + rest.len() - rest.trim_start().len();
        return Some(
            Diag::error(
                Code::UnknownKeyword,
                Span::new(start + at, start + at + 1),
                "a ruleset line does not start with `-`",
            )
            .label("a list bullet?")
            .hint("write each rule on its own line, without a bullet: `card A: add 1 or add 11`")
            .fix(Span::new(start + at, start + at + bullet), ""),
        );
    }
    let Some((at, word)) = first_word(stripped) else {
        let at = stripped.len() - stripped.trim_start().len();
        let span = Span::new(start + at, start + stripped.trim_end().len());
        return Some(
            Diag::error(Code::Syntax, span, "a line must start with a word")
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
            Diag::error(Code::StrayEnd, span, "`end` closes nothing: no scenario is open here")
                .label("nothing to close")
                .hint("`end` closes a block opened by `scenario \"...\"`; remove this line or open the scenario above it"),
        );
    }
    if word == "-" || word.starts_with('-') && word.len() == 1 {
        return Some(
            Diag::error(
                Code::UnknownKeyword,
                span,
                "a ruleset line does not start with `-`",
            )
            .label("a list bullet?")
            .hint("write each rule on its own line without a bullet: `card A: add 1 or add 11`"),
        );
    }
    let suggestion = did_you_mean(word, table.iter().map(|(k, _)| *k));
    let (message, hint) = if in_scenario {
        (
            format!("`{word}` is not a scenario step"),
            match suggestion {
                Some(k) => format!("did you mean `{k}`? For example `{}`", example(table, k)),
                None => format!("{}; a scenario ends with `end`", starts_hint(table, true)),
            },
        )
    } else {
        (
            format!("unknown keyword `{word}`"),
            match suggestion {
                Some(k) => format!("did you mean `{k}`? For example `{}`", example(table, k)),
                None => starts_hint(table, false),
            },
        )
    };
    let diag = Diag::error(Code::UnknownKeyword, span, message)
        .label("not a keyword")
        .hint(hint);
    Some(match suggestion {
        Some(k) => diag.fix(span, k),
        None => diag,
    })
}

pub(super) fn example(table: &[(&str, &str)], key: &str) -> String {
    table
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, e)| (*e).to_string())
        .unwrap_or_default()
}

pub(super) fn starts_hint(table: &[(&str, &str)], in_scenario: bool) -> String {
    let words: Vec<String> = table.iter().map(|(k, _)| format!("`{k}`")).collect();
    if in_scenario {
        format!("a scenario line starts with one of {}", words.join(", "))
    } else {
        format!("a ruleset line starts with one of {}", words.join(", "))
    }
}

/// Turns pest's error into a diagnostic in the designer's words: what was found, what would
/// fit there, and an example of the statement the line seems to be.
pub(super) fn syntax_error(
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
        let end = start + line.trim_end().len();
        return Diag::error(
            Code::UnclosedText,
            Span::new(start + q, start + q + 1),
            "this text in quotes is never closed",
        )
        .label("opened here")
        .hint("end the text with a straight double quote `\"` on the same line")
        .fix(Span::new(end, end), "\"");
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
        let diag = Diag::error(Code::Syntax, span, message)
            .label("this character")
            .hint(hint);
        return match straighten(line, pos) {
            Some((from, to, text)) => diag.fix(Span::new(start + from, start + to), text),
            None => diag,
        };
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
            Code::BadNumber,
            span,
            format!("expected a number, found `{found}`"),
        )
        .label("a number in words")
        .hint(format!("write numbers in digits: `{n}`"))
        .fix(span, n.to_string());
    }
    if let Some(k) = suggestion {
        let message = format!("unknown word `{found}`");
        return Diag::error(Code::Syntax, span, message)
            .label("not expected here")
            .hint(format!("did you mean `{k}`?"))
            .fix(span, k);
    }
    let mut hint = first_word(line)
        .and_then(|(_, w)| table.iter().find(|(k, _)| *k == w.to_lowercase()))
        .map(|(_, e)| format!("a line like this reads `{e}`"))
        .unwrap_or_else(|| starts_hint(table, in_scenario));
    let mut colon = None;
    if !found.is_empty() && expected.iter().any(|w| w == "`:`") {
        hint = format!("is a `:` missing before `{found}`? {hint}");
        let at = start + line[..pos].trim_end().len();
        colon = Some(Span::new(at, at));
    }
    let diag = Diag::error(Code::Syntax, span, message)
        .label(if found.is_empty() {
            "something is missing here".to_string()
        } else {
            "not expected here".to_string()
        })
        .hint(hint);
    match colon {
        Some(at) => diag.fix(at, ":"),
        None => diag,
    }
}

/// The rewrite of an odd character at `pos`: curly quotes (every one on the line, so the text
/// is quoted straight), a non-breaking space, a byte-order mark. `(from, to, replacement)` in
/// the line's bytes.
fn straighten(line: &str, pos: usize) -> Option<(usize, usize, String)> {
    let c = line[pos..].chars().next()?;
    let single = |r: &str| Some((pos, pos + c.len_utf8(), r.to_string()));
    match c {
        '“' | '”' | '„' | '‘' | '’' => {
            let double = matches!(c, '“' | '”' | '„');
            let curly = |c: char| {
                if double {
                    matches!(c, '“' | '”' | '„')
                } else {
                    matches!(c, '‘' | '’')
                }
            };
            let from = line.find(curly)?;
            let (last, lc) = line.char_indices().rfind(|(_, c)| curly(*c))?;
            let to = last + lc.len_utf8();
            let text: String = line[from..to]
                .chars()
                .map(|c| if curly(c) { '"' } else { c })
                .collect();
            Some((from, to, text))
        }
        '\u{a0}' => single(" "),
        '\u{feff}' => single(""),
        _ => None,
    }
}

/// What would fit where the line went wrong, in words, and the closest keyword to what was
/// found there.
pub(super) fn expected_words(
    err: &pest::error::Error<Rule>,
    found: &str,
) -> (Vec<String>, Option<String>) {
    let mut words: Vec<String> = err
        .parse_attempts()
        .map(|a| token_words(a.expected_tokens().iter().map(ToString::to_string)))
        .unwrap_or_default();
    let push = |words: &mut Vec<String>, w: String| {
        if !words.contains(&w) {
            words.push(w);
        }
    };
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

/// The tokens pest tried at the furthest place it reached, in words: `` `add` `` for a
/// keyword, `a number` for a number or an option in braces.
/// pest does not export its token type: each token comes as its Display, the token's text
/// (upper-cased when case-insensitive), `a..b` for a range, `BUILTIN_RULE` for a built-in.
pub(super) fn token_words(tokens: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for token in tokens {
        let t = token.to_lowercase();
        let w = match t.as_str() {
            "-" | "{" | "0..9" => "a number".to_string(),
            "#" | "\t" | " " | "\r" | "builtin_rule" => continue,
            _ if t.contains("..") => continue,
            _ => format!("`{t}`"),
        };
        if !words.contains(&w) {
            words.push(w);
        }
    }
    words
}

pub(super) fn rule_words(rule: Rule) -> Option<&'static str> {
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

pub(super) fn join_or(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}
