//! Syntax errors in the designer's words: an unknown first word with a "did you mean", and
//! pest's failures turned into what was found, what would fit, and an example.

use super::{Rule, SCENARIO_STEPS, STATEMENTS};
use crate::base::Code;
use crate::base::diag::{Diag, did_you_mean};
use crate::base::span::{Span, strip_comment};

/// Words designers write for a keyword of the language, where that keyword fits: `all other
/// players` is `every other player`.
const SYNONYMS: &[(&str, &str)] = &[
    ("all", "every"),
    ("everyone", "every"),
    ("plus", "add"),
    ("minus", "subtract"),
    ("adds", "add"),
    ("subtracts", "subtract"),
    ("skips", "skip"),
    ("reverses", "reverse"),
    ("doubles", "double"),
    ("halves", "halve"),
    ("sets", "set"),
    ("pay", "pays"),
    ("loses", "pays"),
    ("under", "below"),
    ("over", "above"),
];

/// Words no statement starts with, that designers start one with, and the statement they
/// mean.
const FIRST_WORDS: &[(&str, &str)] = &[
    ("bar", "on reaching 25 or 50: each other player pays 1"),
    ("bars", "on reaching 25 or 50: each other player pays 1"),
    ("reaching", "on reaching 25 or 50: each other player pays 1"),
    (
        "passing",
        "on passing 99: the player pays 2 and loses the round",
    ),
    ("landing", "on reaching 25 or 50: each other player pays 1"),
    ("teams", "players play in teams of 2 sharing chips"),
    ("limit", "the total may not go above 99"),
    ("cap", "the total may not go above 99"),
    ("winner", "the winner is the last player left"),
    ("game", "the game ends when one player is left"),
    ("deck", "decks 1"),
    ("chips", "each player starts with 3 chips"),
    ("chip", "each player starts with 3 chips"),
    ("lives", "each player starts with 3 lives"),
    ("dealer", "the first dealer is chosen at random"),
    ("direction", "play goes clockwise"),
    ("start", "the total starts at 0"),
];

/// Statements by the words they start with, and an example of each: the hint for a line
/// that does not read is the example of the statement it most looks like (the one whose
/// first words it shares the most of).
const EXAMPLES: &[(&str, &str)] = &[
    (
        "instead of",
        "instead of laying a card, a player may lay the top card of the stock",
    ),
    (
        "a player who cannot play",
        "a player who cannot play may discard a King instead",
    ),
    ("a player may", "a player may pass instead of laying a card"),
    ("the game ends", "the game ends when one player is left"),
    ("the round ends", "the round ends after 20 cards"),
    ("the game", "the game ends when one player is left"),
    ("the winner", "the winner is the last player left"),
    ("the first dealer", "the first dealer is chosen at random"),
    ("the deal", "the deal passes left"),
    ("the dealer", "the dealer leads"),
    ("the player", "the player left of the loser leads"),
    ("the loser", "the loser leads"),
    ("the total starts", "the total starts at 0"),
    ("the total may", "the total may not go above 99"),
    ("the total", "the total may not go above 99"),
    ("each player starts", "each player starts with 3 chips"),
    ("each player holds", "each player holds 3 cards"),
    ("each player", "each player starts with 3 chips"),
    ("players play", "players play in teams of 2 sharing chips"),
    ("players draw", "players draw by hand"),
    ("players", "players 2 to 5"),
    ("play goes", "play goes clockwise"),
    (
        "when the stock",
        "when the stock is empty: shuffle the discard pile into it",
    ),
    (
        "when a player has",
        "when a player has no cards: the player pays 3 and loses the round",
    ),
    (
        "when a player",
        "when a player cannot play: the player pays 1 and loses the round",
    ),
    (
        "at the start",
        "at the start of each round: every player pays 1 to the pot",
    ),
    (
        "at the end of the game",
        "at the end of the game: the winner takes the pot",
    ),
    (
        "at the end",
        "at the end of each round: the loser pays 1 to the winner",
    ),
    ("on script", "on script lucky: each other player pays 1"),
    (
        "on reaching",
        "on reaching 33 or 66: each other player pays 1",
    ),
    (
        "on passing",
        "on passing 99: the player pays 2 and loses the round",
    ),
    ("a player is out", "a player is out at 0 chips"),
    ("no rule", "no rule on reaching 66"),
    ("no card", "no card rule for 4 with 2 players"),
    ("no", "no bar at 66"),
];

/// The example of the statement a line most looks like.
fn example_for(line: &str) -> Option<&'static str> {
    let words: Vec<String> = strip_comment(line)
        .split_whitespace()
        .map(str::to_lowercase)
        .collect();
    EXAMPLES
        .iter()
        .filter(|(prefix, _)| {
            let p: Vec<&str> = prefix.split(' ').collect();
            words.len() >= p.len() && words.iter().zip(&p).all(|(w, p)| w == p)
        })
        .max_by_key(|(prefix, _)| prefix.split(' ').count())
        .map(|(_, e)| *e)
}

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
    if !in_scenario
        && suggestion.is_none()
        && let Some((_, example)) = FIRST_WORDS.iter().find(|(w, _)| *w == lower)
    {
        return Some(
            Diag::error(
                Code::UnknownKeyword,
                span,
                format!("unknown keyword `{word}`"),
            )
            .label("not a keyword")
            .hint(format!("a line like this reads `{example}`")),
        );
    }
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
    if let Some(d) = inside_word(line, start, pos, found_len) {
        return d;
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
    if !in_scenario && let Some(d) = limit_said_again(line, start) {
        return d;
    }
    if let Some(d) = word_diag(line, span, pos, found, &expected, suggestion, in_scenario) {
        return d;
    }
    let mut hint = (!in_scenario)
        .then(|| example_for(line))
        .flatten()
        .or_else(|| {
            first_word(line)
                .and_then(|(_, w)| table.iter().find(|(k, _)| *k == w.to_lowercase()))
                .map(|(_, e)| *e)
        })
        .map(|e| format!("a line like this reads `{e}`"))
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

/// `when 2 players are left: the total may not go above 50`: the limit line said again as
/// an outcome. The limit is said once; a line changes it (`the limit becomes 50`).
fn limit_said_again(line: &str, start: usize) -> Option<Diag> {
    let code = strip_comment(line).trim_end();
    let lower = code.to_ascii_lowercase();
    // After the colon of a moment, a trigger or a card.
    let colon = lower.find(':')?;
    let pos = colon + lower[colon..].find("the total may not go ")?;
    let rest = &code[pos..];
    let words: Vec<&str> = lower[pos..].split_whitespace().collect();
    if words.len() < 7 || !matches!(words[5], "above" | "below") {
        return None;
    }
    let span = Span::new(start + pos, start + code.len());
    let diag = Diag::error(
        Code::Syntax,
        span,
        "the limit is said once, by its own line: here a line changes it",
    )
    .label("the limit said again");
    if words[5] == "below" {
        return Some(diag.hint("a line changes only the upper limit (`the limit goes down by 10`, `the limit becomes 50`); the lower limit stays as its line says"));
    }
    // Everything after `above`, as written.
    let at = rest.to_lowercase().find("above")? + "above".len();
    let amount = rest[at..].trim();
    Some(
        diag.hint(format!(
            "say how the limit changes: `the limit becomes {amount}` (it stays so until a line changes it again; `the limit resets` takes it back to the limit line's number)"
        ))
        .fix(span, format!("the limit becomes {amount}")),
    )
}

/// A word where another belongs: the keyword it stands for (`all` for `every`), or an action
/// the language has no word for (it may be a script's).
fn word_diag(
    line: &str,
    span: Span,
    pos: usize,
    found: &str,
    expected: &[String],
    suggestion: Option<String>,
    in_scenario: bool,
) -> Option<Diag> {
    let found_len = found.len();
    if let Some(k) = suggestion {
        let message = format!("unknown word `{found}`");
        // `all other players` is `every other player`: the plural goes with the word.
        let after = line[pos + found_len..].to_lowercase();
        let (span, k) = match ["other players", "players"]
            .iter()
            .find(|tail| k == "every" && after.trim_start().starts_with(**tail))
        {
            Some(tail) => {
                let gap = after.len() - after.trim_start().len();
                let end = span.end + gap + tail.len();
                (
                    Span::new(span.start, end),
                    format!("every {}", &tail[..tail.len() - 1]),
                )
            }
            None => (span, k),
        };
        return Some(
            Diag::error(Code::Syntax, span, message)
                .label("not expected here")
                .hint(format!("did you mean `{k}`?"))
                .fix(span, k),
        );
    }
    // `swap` the language knows only for hands: anything else swapped is a script's.
    if !in_scenario && !expected.is_empty() && expected.iter().all(|w| w == "`hands`") {
        return Some(
            Diag::error(
                Code::Syntax,
                span,
                "a card can swap only hands: `swap hands with the next player`",
            )
            .label(format!("`{found}` is not hands"))
            .hint("to swap something else (the total's digits), write it as a script and name it with `run`: `card 7: run swap`, with `fn swap(game) { ... }` in a `script` block (docs/language.md, Scripts)"),
        );
    }
    // An action the language has no word for: it may be a script's.
    if !in_scenario
        && expected.iter().any(|w| w == "`add`")
        && found.len() > 1
        && found.chars().all(|c| c.is_ascii_alphabetic())
        && !MEANT_WORDS.contains(&found.to_lowercase().as_str())
    {
        let name = found.to_lowercase();
        if name.starts_with("discard") {
            return Some(Diag::error(Code::Syntax, span, format!("unknown word `{found}`: a card's line cannot make a player discard"))
                .label("not an action of a card")
                .hint("a player discards as a move, in place of laying a card: `instead of laying a card, a player may discard any card`, or `a player who cannot play may discard a King instead`; a script cannot discard either (it changes the total, the counts and the chips)"));
        }
        return Some(Diag::error(Code::Syntax, span, format!("unknown word `{found}`: a card cannot `{name}` in this language"))
            .label("not an action")
            .hint(format!(
                "a card adds, subtracts, sets, multiplies, divides, doubles, halves, skips, reverses, plays again, makes players pay or draw, or moves cards between hands; a rule the language cannot say is written as a script and named with `run`: `card 7: run {name}`, with `fn {name}(game) {{ ... }}` in a `script` block (docs/language.md, Scripts)"
            )));
    }
    None
}

/// Inside a word: the grammar read a keyword that begins it (`pot` in `pott`, `add` in
/// `adds`) and stopped at the rest. The word is the mistake, and the keyword the guess.
fn inside_word(line: &str, start: usize, pos: usize, found_len: usize) -> Option<Diag> {
    let found = &line[pos..pos + found_len];
    let ws = line[..pos]
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_ascii_alphabetic())
        .last()
        .map(|(i, _)| i)?;
    if !found
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric())
        || pos - ws < 2
        || line[..ws].ends_with(['{', '"', ':'])
    {
        return None;
    }
    let prefix = line[ws..pos].to_lowercase();
    let whole = &line[ws..pos + found_len];
    let span = Span::new(start + ws, start + pos + found_len);
    Some(
        Diag::error(Code::Syntax, span, format!("unknown word `{whole}`"))
            .label("not expected here")
            .hint(format!("did you mean `{prefix}`?"))
            .fix(span, prefix),
    )
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
    let lower = found.to_lowercase();
    let synonym = SYNONYMS
        .iter()
        .find(|(w, k)| *w == lower && keywords.contains(k))
        .map(|(_, k)| (*k).to_string());
    let suggestion = if synonym.is_some() {
        synonym
    } else if found.chars().all(|c| c.is_ascii_alphabetic())
        && found.len() > 1
        && !MEANT_WORDS.contains(&lower.as_str())
    {
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

/// Words a designer writes on purpose, never a slip of the keyboard: a guess one letter away
/// (`add` for `and`, `pays` for `plays`, `laid` for `lands`) would change what the line
/// means, so none is made and the words expected there are listed instead.
const MEANT_WORDS: [&str; 16] = [
    "and", "or", "then", "when", "if", "plays", "played", "lays", "lands", "landed", "hits",
    "gets", "goes", "makes", "takes", "gives",
];

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
            // A bracket opens an amount worked out from the table: not a word to suggest.
            "#" | "\t" | " " | "\r" | "builtin_rule" | "(" => continue,
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
