//! What one seat may know of the table, and of each event: the only form in which a game is
//! shown to a player who shares it with others (a table served over the network, a seat's
//! screen). Made from the same knowledge the searching bots' deals keep ([`State::seen_by`],
//! `deal.rs`): a seat sees its own hand, the cards a rule moved into another hand before its
//! eyes, and what lies face up; of every other hand, the stock and the cards face down, only
//! how many there are. The random numbers and the next deal's fixed cards are never shown.

use serde::Serialize;

use super::{Event, State};
use crate::base::cards::Card;

/// A seat's view of the table (or a spectator's: `seat` is `None`, and no hand is shown).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeatView {
    pub seat: Option<u8>,
    /// The seat's own hand (empty for a spectator).
    pub hand: Vec<Card>,
    /// How many cards each seat holds.
    pub hand_sizes: Vec<usize>,
    /// Cards of other hands this seat knows, `(holder, card)`: a rule moved them there before
    /// its eyes (handed over, or its own hand swapped away).
    pub known: Vec<(u8, Card)>,
    /// The discard pile, its top card last: every player saw each card laid.
    pub discard: Vec<Card>,
    /// Cards out of play face up.
    pub aside: Vec<Card>,
    pub stock: usize,
    pub face_down: usize,
    pub total: i32,
    pub turn: u8,
    pub clockwise: bool,
    pub chips: Vec<i32>,
    pub bank: i32,
    pub pot: i32,
    pub round: u32,
    pub dealer: u8,
    /// Seats out of the game, and out of this round, as bits.
    pub out_of_game: u16,
    pub out_of_round: u16,
    /// The ruleset's counts, as the table keeps them (public tallies).
    pub counts: Vec<i32>,
    pub over: bool,
    pub winners: u16,
}

impl State {
    /// What `seat` may know of the table now (`None`: a spectator, who sees no hand).
    pub fn seat_view(&self, seat: Option<u8>) -> SeatView {
        let n = usize::from(self.seats);
        let hand = seat
            .and_then(|s| self.hands.get(usize::from(s)))
            .map(|h| h.cards().to_vec())
            .unwrap_or_default();
        let mut known = Vec::new();
        if let Some(me) = seat {
            for (holder, h) in self.hands.iter().enumerate().take(n) {
                if holder == usize::from(me) {
                    continue;
                }
                for &c in h.cards() {
                    if self.seen_by(c) & (1 << me) != 0 {
                        known.push((holder as u8, c));
                    }
                }
            }
        }
        SeatView {
            seat,
            hand,
            hand_sizes: self.hands.iter().take(n).map(super::Hand::len).collect(),
            known,
            discard: self.discard.to_vec(),
            aside: self.aside.clone(),
            stock: self.stock.len(),
            face_down: self.face_down.len(),
            total: self.total,
            turn: self.turn,
            clockwise: self.clockwise,
            chips: self.chips.iter().take(n).copied().collect(),
            bank: self.bank,
            pot: self.pot,
            round: self.round,
            dealer: self.dealer,
            out_of_game: self.out_of_game,
            out_of_round: self.out_of_round,
            counts: self.kept.counts.clone(),
            over: self.over,
            winners: self.winners,
        }
    }
}

/// An event as one seat is told it ([`Event::seen_by`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Seen {
    /// The whole event: it holds no card, or one laid or turned up before the whole table,
    /// or one handed to or from this seat.
    Event(Event),
    /// A card went from `from`'s hand to `to`'s: which card, this seat is not told.
    Handed { from: u8, to: u8 },
}

impl Event {
    /// This event as `seat` may be told it (`None`: a spectator): a card handed from one hand
    /// to another is named to those two alone; everyone else is told that a card went.
    pub fn seen_by(&self, seat: Option<u8>) -> Seen {
        match *self {
            Event::Handed { from, to, .. } if !seat.is_some_and(|s| s == from || s == to) => {
                Seen::Handed { from, to }
            }
            Event::Handed { .. }
            | Event::Deal { .. }
            | Event::Play { .. }
            | Event::Draw { .. }
            | Event::Forgot { .. }
            | Event::Reshuffle { .. }
            | Event::Skip { .. }
            | Event::Reverse { .. }
            | Event::PlayAgain { .. }
            | Event::CannotPlay { .. }
            | Event::NoCards { .. }
            | Event::Pay { .. }
            | Event::TakePot { .. }
            | Event::Gain { .. }
            | Event::Bar { .. }
            | Event::OutOfRound { .. }
            | Event::Eliminated { .. }
            | Event::TotalReset { .. }
            | Event::RoundEnd { .. }
            | Event::GameEnd { .. }
            | Event::Moment { .. }
            | Event::Changed { .. }
            | Event::Drew { .. }
            | Event::Swapped { .. }
            | Event::Other { .. }
            | Event::Chose { .. } => Seen::Event(*self),
        }
    }
}
