//! Why a position or a move is refused, as data. The words that cite the ruleset's lines are
//! the `present` stage's (see `present::play_error`).

use crate::base::cards::{Card, card_name};
use crate::ir::{Program, ScriptError};

/// Why a card cannot be played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Illegal {
    /// The rank has no effect with this many players.
    NoEffect,
    /// The card has no choice with this index.
    NoChoice(u8),
    /// It would take the total above the ceiling.
    Above { total: i32, limit: i32 },
    /// It would take the total below the floor.
    Below { total: i32, limit: i32 },
}

impl Illegal {
    /// Why a total is beyond the limits, or `None` when it is allowed.
    pub fn beyond_limits(p: &Program, total: i32) -> Option<Illegal> {
        match (p.ceiling, p.floor) {
            (Some(c), _) if total > c.value => Some(Illegal::Above {
                total,
                limit: c.value,
            }),
            (_, Some(f)) if total < f.value => Some(Illegal::Below {
                total,
                limit: f.value,
            }),
            _ => None,
        }
    }
}

impl std::fmt::Display for Illegal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Illegal::NoEffect => f.write_str("the card has no effect"),
            Illegal::NoChoice(c) => write!(f, "it has no choice {}", u16::from(c) + 1),
            Illegal::Above { total, limit } => write!(
                f,
                "it would take the total to {total}, and the total may not go above {limit}"
            ),
            Illegal::Below { total, limit } => write!(
                f,
                "it would take the total to {total}, and the total may not go below {limit}"
            ),
        }
    }
}

/// Why a position or move is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("{0}")]
    Setup(String),
    #[error("the game is over")]
    GameOver,
    #[error("{} is not in seat {seat}'s hand", card_name(*card))]
    NotInHand { seat: u8, card: Card },
    #[error("{} cannot be played: {why}", card_name(*card))]
    Illegal { card: Card, why: Illegal },
    #[error("there is nothing to draw now: {}", if *by_hand {
        "draw right after your own card, before the next player plays"
    } else {
        "in this ruleset players draw automatically"
    })]
    NoDraw { by_hand: bool },
    #[error("the game went on for {0} turns without ending: the ruleset may never end")]
    TurnLimit(u64),
    #[error("{0}; the move was not played")]
    Script(ScriptError),
    #[error("that move is not offered now: {0}")]
    NotOffered(&'static str),
}
