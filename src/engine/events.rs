//! What happens in a game, as events sent to a [`Sink`]; `()` ignores them at no cost.

use serde::{Deserialize, Serialize};

use crate::base::cards::{Card, RANK_WORDS};

/// Why a payment was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reason {
    Reached(i32),
    Passed(i32),
    /// A card's own effect.
    Card(u8),
    CannotPlay,
    NoCards,
    RoundStart,
    RoundEnd,
    GameEnd,
    /// A bar whose test is a script (its index in `Program::script_bars`).
    Script(u16),
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reason::Reached(v) => write!(f, "reached {v}"),
            Reason::Passed(v) => write!(f, "passed {v}"),
            Reason::Card(r) => write!(f, "played a {}", RANK_WORDS[usize::from(*r)]),
            Reason::CannotPlay => f.write_str("could not play"),
            Reason::NoCards => f.write_str("had no cards"),
            Reason::RoundStart => f.write_str("start of the round"),
            Reason::RoundEnd => f.write_str("end of the round"),
            Reason::GameEnd => f.write_str("end of the game"),
            Reason::Script(_) => f.write_str("a house rule"),
        }
    }
}

/// Where chips go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PayTo {
    Bank,
    Pot,
    Seat(u8),
}

/// What happened, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    Deal {
        round: u32,
        dealer: u8,
        leader: u8,
    },
    Play {
        seat: u8,
        card: Card,
        choice: u8,
        total: i32,
        fx: u16,
    },
    Draw {
        seat: u8,
    },
    Forgot {
        seat: u8,
    },
    Reshuffle {
        cards: u16,
    },
    Skip {
        seat: u8,
    },
    Reverse {
        clockwise: bool,
    },
    PlayAgain {
        seat: u8,
    },
    CannotPlay {
        seat: u8,
    },
    NoCards {
        seat: u8,
    },
    /// `rule` is the index of the outcomes line that made them pay ([`Program::outcomes`]).
    Pay {
        seat: u8,
        amount: i32,
        to: PayTo,
        reason: Reason,
        rule: u16,
    },
    TakePot {
        seat: u8,
        amount: i32,
    },
    /// A player gains chips from the bank or the pot.
    Gain {
        seat: u8,
        amount: i32,
        from: PayTo,
    },
    /// A bar with a rule was reached exactly (`passed` false) or passed by `seat`'s card.
    Bar {
        seat: u8,
        value: i32,
        passed: bool,
    },
    OutOfRound {
        seat: u8,
    },
    Eliminated {
        seat: u8,
    },
    TotalReset {
        total: i32,
    },
    RoundEnd {
        round: u32,
        winner: Option<u8>,
        loser: Option<u8>,
    },
    GameEnd {
        winners: u16,
    },
}

/// Receives events. `()` ignores them at no cost: the engine checks [`Sink::ON`] before it
/// builds one.
pub trait Sink {
    const ON: bool;
    fn event(&mut self, e: Event);
}

impl Sink for () {
    const ON: bool = false;
    #[inline]
    fn event(&mut self, _: Event) {}
}

impl Sink for Vec<Event> {
    const ON: bool = true;
    fn event(&mut self, e: Event) {
        self.push(e);
    }
}
