//! What may come next on a line, for an editor's completion, and what a line is, in the
//! grammar's own words, for its hover. Both ask the grammar itself (pest's parse attempts and
//! the `///` comments of `grammar/ninety.pest`), so a new construct needs no change here.

use pest::Parser as _;

use super::errors::{rule_words, token_words};
use super::{Grammar, Rule};
use crate::base::span::strip_comment;

/// The grammar's text, for the doc comments of its rules.
const GRAMMAR: &str = include_str!("../../../grammar/ninety.pest");

/// The longest phrase offered as one completion: `each player starts with`.
const MAX_PHRASE: usize = 6;

/// What may come next after `before` (the line up to the cursor), in the words the parser
/// uses when it reports "expected …": `` `add` `` for a keyword (or a phrase that can only go
/// on one way: `` `play again` ``), `a number`, `a card rank`, `a name`, …. A word being typed
/// at the end of `before` is left out: the answer is what may stand in its place. Nothing
/// when the line is broken before the cursor, or the cursor is in a comment or in quotes.
pub fn expected_at(before: &str, in_scenario: bool) -> Vec<String> {
    let before = before.rsplit('\n').next().unwrap_or(before);
    if strip_comment(before).len() != before.len() {
        return Vec::new();
    }
    let rule = if in_scenario {
        Rule::scenario_line
    } else {
        Rule::line
    };
    let prefix = before.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
    let Some(words) = attempts_at(prefix, rule) else {
        return Vec::new();
    };
    words
        .into_iter()
        .map(|w| match keyword(&w) {
            Some(k) if k.chars().all(|c| c.is_ascii_alphabetic()) => {
                format!("`{}`", phrase(prefix, k, rule))
            }
            _ => w,
        })
        .collect()
}

/// `` `add` `` → `add`.
fn keyword(word: &str) -> Option<&str> {
    word.strip_prefix('`').and_then(|w| w.strip_suffix('`'))
}

/// A keyword and the words that must follow it, as long as only one word can.
fn phrase(prefix: &str, first: &str, rule: Rule) -> String {
    let mut words = vec![first.to_string()];
    while words.len() < MAX_PHRASE {
        let sep = if prefix.is_empty() || prefix.ends_with(char::is_whitespace) {
            ""
        } else {
            " "
        };
        let text = format!("{prefix}{sep}{} ", words.join(" "));
        let next = attempts_at(&text, rule).unwrap_or_default();
        match next.as_slice() {
            [only] => match keyword(only) {
                Some(k) if k.chars().all(|c| c.is_ascii_alphabetic()) => words.push(k.into()),
                _ => break,
            },
            _ => break,
        }
    }
    words.join(" ")
}

/// What the grammar tried right at the end of `prefix`: its tokens in words, then what the
/// rules it was in stand for (`a card rank`). `None` when it stopped before the end.
fn attempts_at(prefix: &str, rule: Rule) -> Option<Vec<String>> {
    pest::set_error_detail(true);
    // A character no rule matches marks the cursor.
    let text = format!("{prefix}\u{1}");
    let err = Grammar::parse(rule, &text).err()?;
    let attempts = err.parse_attempts()?;
    if attempts.max_position != prefix.len() {
        return None;
    }
    let mut words = token_words(attempts.expected_tokens().iter().map(ToString::to_string));
    for stack in attempts.call_stacks() {
        let rules = [stack.deepest.get_rule().copied(), stack.parent];
        for w in rules.into_iter().flatten().filter_map(rule_words) {
            if !words.iter().any(|x| x == w) {
                words.push(w.to_string());
            }
        }
    }
    Some(words)
}

/// What a line is, in the words of the grammar's doc comment on its statement's rule (or its
/// scenario step's): `` `players 2 to 5`: how many may sit at the table. `` `None` for a
/// line that does not parse, or a rule without a comment.
pub fn line_doc(line: &str, in_scenario: bool) -> Option<String> {
    let rule = if in_scenario {
        Rule::scenario_line
    } else {
        Rule::line
    };
    let top = Grammar::parse(rule, line).ok()?.next()?;
    let statement = top
        .into_inner()
        .find(|p| !matches!(p.as_rule(), Rule::guard | Rule::EOI))?;
    rule_doc(&format!("{:?}", statement.as_rule()))
}

/// The `///` comment above a rule of the grammar, joined into one paragraph.
fn rule_doc(name: &str) -> Option<String> {
    let lines: Vec<&str> = GRAMMAR.lines().collect();
    let at = lines.iter().position(|l| {
        l.strip_prefix(name)
            .is_some_and(|rest| rest.trim_start().starts_with('='))
    })?;
    let doc: Vec<&str> = lines[..at]
        .iter()
        .rev()
        .map_while(|l| l.strip_prefix("///"))
        .map(str::trim)
        .collect();
    (!doc.is_empty()).then(|| doc.into_iter().rev().collect::<Vec<_>>().join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn after_a_card_come_its_effects() {
        let words = expected_at("card K: ", false);
        for w in [
            "`add`",
            "`subtract`",
            "`set`",
            "`skip`",
            "`reverse`",
            "`play again`",
        ] {
            assert!(words.iter().any(|x| x == w), "{w} not in {words:?}");
        }
        // A word being typed is replaced: the same answer.
        assert_eq!(expected_at("card K: pl", false), words);
    }

    #[test]
    fn a_phrase_goes_on_while_only_one_word_can() {
        let words = expected_at("", false);
        assert!(words.iter().any(|w| w == "`play goes`"), "{words:?}");
        assert!(words.iter().any(|w| w == "`card`"), "{words:?}");
        let steps = expected_at("  ", true);
        assert!(steps.iter().any(|w| w == "`expect`"), "{steps:?}");
    }

    #[test]
    fn ranks_numbers_and_nothing() {
        assert!(
            expected_at("card ", false)
                .iter()
                .any(|w| w == "a card rank")
        );
        assert!(expected_at("hand ", false).iter().any(|w| w == "a number"));
        assert!(expected_at("card K: add 1 # a", false).is_empty());
        assert!(expected_at("card K: flurb ", false).is_empty());
        assert!(expected_at("name \"Nin", false).is_empty());
    }

    #[test]
    fn lines_are_told_by_the_grammar() {
        let doc = line_doc("players 2 to 5", false).unwrap_or_default();
        assert!(doc.contains("how many may sit at the table"), "{doc}");
        let guarded = line_doc("if {x}: players draw by hand", false).unwrap_or_default();
        assert!(guarded.contains("players draw by hand"), "{guarded}");
        assert!(line_doc("expect total 36", true).is_some());
        assert!(line_doc("flurb", false).is_none());
    }
}
