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
    /// A moment's rule (`after each card: ...`).
    Moment,
    /// A move beside laying a card (its index in `Program::others`).
    Other(u8),
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
            Reason::Moment => f.write_str("a rule of the moment"),
            Reason::Other(_) => f.write_str("their move instead of a card"),
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
        /// The round ended because of the card just played (not a player who could not play).
        by_card: bool,
    },
    GameEnd {
        winners: u16,
    },
    /// A moment's rule runs (`rule`: its outcomes line), about `seat`.
    Moment {
        seat: u8,
        rule: u16,
    },
    /// A rule changed what the table keeps: the total (`seat` is who acted), a seat's chips
    /// or one of the ruleset's counts (a count of the table's: `seat` is who acted).
    Changed {
        seat: u8,
        what: crate::ir::Quantity,
        from: i32,
        to: i32,
    },
    /// A rule made `seat` draw `cards` cards from the stock (fewer than it said when the
    /// stock ran out or the hand was full).
    Drew {
        seat: u8,
        cards: u8,
    },
    /// A rule made `seat` swap hands with `with`.
    Swapped {
        seat: u8,
        with: u8,
    },
    /// A rule moved `card` from `from`'s hand to `to`'s: only those two may be told which
    /// card it was.
    Handed {
        from: u8,
        to: u8,
        card: Card,
    },
    /// `seat` made move `index` of `Program::others` (`discard a King`, `lay the top card of
    /// the stock`): the card it discarded or turned up, face up for everyone (0 for none);
    /// `laid` when that card is then laid (a `Play` event follows).
    Other {
        seat: u8,
        index: u8,
        card: Card,
        laid: bool,
    },
    /// `seat`, laying a card that names a player, named `chosen` (`next`: to play next).
    Chose {
        seat: u8,
        chosen: u8,
        next: bool,
    },
}

/// The kinds of events, as bits, for a sink to say which it wants.
pub mod kind {
    pub const DEAL: u32 = 1;
    pub const PLAY: u32 = 1 << 1;
    pub const DRAW: u32 = 1 << 2;
    pub const FORGOT: u32 = 1 << 3;
    pub const RESHUFFLE: u32 = 1 << 4;
    pub const SKIP: u32 = 1 << 5;
    pub const REVERSE: u32 = 1 << 6;
    pub const PLAY_AGAIN: u32 = 1 << 7;
    pub const CANNOT_PLAY: u32 = 1 << 8;
    pub const NO_CARDS: u32 = 1 << 9;
    pub const PAY: u32 = 1 << 10;
    pub const TAKE_POT: u32 = 1 << 11;
    pub const GAIN: u32 = 1 << 12;
    pub const BAR: u32 = 1 << 13;
    pub const OUT_OF_ROUND: u32 = 1 << 14;
    pub const ELIMINATED: u32 = 1 << 15;
    pub const TOTAL_RESET: u32 = 1 << 16;
    pub const ROUND_END: u32 = 1 << 17;
    pub const GAME_END: u32 = 1 << 18;
    pub const MOMENT: u32 = 1 << 19;
    pub const CHANGED: u32 = 1 << 20;
    /// A rule moved cards: [`super::Event::Drew`], [`super::Event::Swapped`],
    /// [`super::Event::Handed`].
    pub const CARDS: u32 = 1 << 21;
    /// A move beside laying a card, or a player named: [`super::Event::Other`],
    /// [`super::Event::Chose`].
    pub const OTHER: u32 = 1 << 22;
    /// Every kind.
    pub const ALL: u32 = u32::MAX;
}

/// Receives events. The engine builds an event only when its sink wants its kind
/// ([`Sink::WANTS`], a constant, so the test folds away): `()` wants none and costs nothing.
pub trait Sink {
    /// The kinds of events wanted, as [`kind`] bits.
    const WANTS: u32;
    fn event(&mut self, e: Event);
}

impl Sink for () {
    const WANTS: u32 = 0;
    #[inline]
    fn event(&mut self, _: Event) {}
}

impl Sink for Vec<Event> {
    const WANTS: u32 = kind::ALL;
    fn event(&mut self, e: Event) {
        self.push(e);
    }
}
