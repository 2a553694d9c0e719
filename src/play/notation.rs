//! Move notation both ways: `AS:11`, `9H`, `draw` as a player types them.

use super::Ruleset;
use crate::base::cards::{Card, card_name, parse_card, rank_of, same_face};
use crate::engine::{Move, State};

/// `AS:11`, `9H`, `draw`: a move as a player types it. A card with one choice has no colon.
pub fn move_name(p: &Ruleset, s: &State, mv: Move) -> String {
    match mv {
        Move::Draw => "draw".to_string(),
        Move::Play { card, choice } => match s.effect(p, rank_of(card)) {
            Some(fx) if fx.len > 1 => {
                format!("{}:{}", card_name(card), fx.labels[usize::from(choice)])
            }
            _ => card_name(card),
        },
    }
}

/// Why a typed move cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("`{0}` is not a card: write a rank and a suit, like `9H`, `10S` or `AS:11`")]
    NotACard(String),
    #[error("{card} needs a choice: {options}")]
    NeedsChoice { card: String, options: String },
    #[error("{card} has no choice `{choice}`: {options}")]
    NoSuchChoice {
        card: String,
        choice: String,
        options: String,
    },
    /// A choice named on a card that has none (`AS:1` where the Ace only adds 11): played
    /// as written it would mean nothing, so it is refused rather than ignored.
    #[error("{card} has no choice to make: write `{card}`, without `:{choice}`")]
    NoChoices { card: String, choice: String },
}

/// Reads a move: `9H`, `AS:11`, `10H:-10`, `AS:+11`, `AS:high`, `draw`.
pub fn parse_move(p: &Ruleset, s: &State, text: &str) -> Result<Move, MoveError> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("draw") {
        return Ok(Move::Draw);
    }
    let (card_text, choice_text) = match text.split_once(':') {
        Some((c, k)) => (c, Some(k.trim())),
        None => (text, None),
    };
    let card = parse_card(card_text).ok_or_else(|| MoveError::NotACard(text.to_string()))?;
    // Use the copy the player holds, if any.
    let card: Card = s.hands[usize::from(s.turn)]
        .cards()
        .iter()
        .copied()
        .find(|c| same_face(*c, card))
        .unwrap_or(card);
    let Some(fx) = s.effect(p, rank_of(card)) else {
        return Ok(Move::Play { card, choice: 0 });
    };
    let options = || {
        fx.labels
            .iter()
            .map(|l| format!("`{}:{l}`", card_name(card)))
            .collect::<Vec<_>>()
            .join(" or ")
    };
    let choice = match choice_text {
        None if fx.len > 1 => {
            return Err(MoveError::NeedsChoice {
                card: card_name(card),
                options: options(),
            });
        }
        None => 0,
        Some(k) if fx.len == 1 => {
            return Err(MoveError::NoChoices {
                card: card_name(card),
                choice: k.to_string(),
            });
        }
        Some(k) => {
            let k_plain = k.strip_prefix('+').unwrap_or(k);
            match fx
                .labels
                .iter()
                .position(|l| l.eq_ignore_ascii_case(k_plain) || l.eq_ignore_ascii_case(k))
            {
                Some(i) => i as u8,
                None => {
                    return Err(MoveError::NoSuchChoice {
                        card: card_name(card),
                        choice: k.to_string(),
                        options: options(),
                    });
                }
            }
        }
    };
    Ok(Move::Play { card, choice })
}

/// Every legal move, named, separated by spaces.
pub fn legal_list(p: &Ruleset, s: &State) -> String {
    let moves = s.legal_moves(p);
    if moves.is_empty() {
        return "none".to_string();
    }
    moves
        .as_slice()
        .iter()
        .map(|m| move_name(p, s, *m))
        .collect::<Vec<_>>()
        .join(" ")
}
