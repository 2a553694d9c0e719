//! Refused moves in words, citing the ruleset line that refuses them.

use crate::base::cards::card_name;
use crate::engine::{Illegal, PlayError};
use crate::ir::Program;

/// Why a card cannot be played, with the line of the ruleset that says so.
pub fn illegal_words(p: &Program, why: Illegal) -> String {
    let limit = match why {
        Illegal::Above { .. } => p.ceiling,
        Illegal::Below { .. } => p.floor,
        Illegal::NoEffect | Illegal::NoChoice(_) => None,
    };
    match limit {
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
