//! Refused moves in words, citing the ruleset line that refuses them.

use crate::base::cards::card_name;
use crate::base::limits::IDLE_ROUNDS;
use crate::engine::{Illegal, PlayError, Stall};
use crate::ir::{Origin, Program};

/// Why a card cannot be played, with the line of the ruleset that says so.
pub fn illegal_words(p: &Program, why: Illegal) -> String {
    let limit = match why {
        Illegal::Above { .. } => p.ceiling,
        Illegal::Below { .. } => p.floor,
        Illegal::NoEffect | Illegal::NoChoice(_) => None,
    };
    match limit {
        // A limit the lines change: the line that starts it, and that it moved.
        Some(l) if p.limit_count().is_some() && matches!(why, Illegal::Above { .. }) => format!(
            "{why}, as the lines have changed the limit ({} starts it at {}: `{}`)",
            p.cite(l.origin),
            l.value,
            p.line_text(l.origin)
        ),
        Some(l) => format!("{why} ({}: `{}`)", p.cite(l.origin), p.line_text(l.origin)),
        None => why.to_string(),
    }
}

/// Why a total is not allowed, naming the ruleset line.
pub fn illegal_total(p: &Program, total: i32) -> String {
    Illegal::beyond_limits(p, total).map_or_else(
        || String::from("it is not allowed"),
        |why| illegal_words(p, why),
    )
}

/// A refused move in words.
pub fn play_error(p: &Program, e: &PlayError) -> String {
    match e {
        PlayError::Illegal { card, why } => {
            format!(
                "{} cannot be played: {}",
                card_name(*card),
                illegal_words(p, *why)
            )
        }
        other => other.to_string(),
    }
}

/// Why a game stopped without an end, naming the rule behind it.
pub fn stall_words(p: &Program, stall: Stall) -> String {
    let quote = |o: Origin| format!("`{}` ({})", p.line_text(o), p.cite(o));
    let rounds = IDLE_ROUNDS;
    match stall {
        Stall::NoCards => {
            let hand = p
                .settings
                .iter()
                .find(|(n, _)| n == "hand")
                .map_or_else(|| "the hand size".to_string(), |(_, o)| quote(*o));
            format!(
                "the game cannot go on: {rounds} rounds in a row ended with nobody holding a card; see {hand} and the deck"
            )
        }
        Stall::NoPlay => {
            let rule = p
                .triggers
                .cannot_play
                .and_then(|i| p.outcomes.get(usize::from(i)))
                .map_or_else(
                    || "and no rule says what happens when a player cannot play".to_string(),
                    |o| {
                        format!(
                            "and what happens when a player cannot play, {}, never ends the game",
                            quote(o.origin)
                        )
                    },
                );
            format!(
                "the game cannot go on: {rounds} rounds in a row ended without a card played, as nobody could play, {rule}"
            )
        }
    }
}
