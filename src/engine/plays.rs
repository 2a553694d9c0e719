//! The plays of the player to move as the legal-choice table answers them: one byte a card,
//! their count by a popcount, the `n`-th found without a list. The commonest bot in a
//! simulation (uniform over the legal moves) needs nothing more.

use super::{Move, State};
use crate::base::cards::{Card, rank_of};
use crate::ir::{MAX_HAND, MAX_SEATS, Program};

/// See the module's documentation; from [`State::table_plays`].
#[derive(Debug, Clone, Copy)]
pub struct TablePlays {
    cards: [Card; MAX_HAND],
    /// Per card of the hand, the choices the table allows (bit `k` for choice `k`).
    allowed: [u8; MAX_HAND],
    len: usize,
    count: usize,
}

impl TablePlays {
    /// How many plays there are (each choice of a card is one).
    #[inline]
    pub fn count(&self) -> usize {
        self.count
    }

    /// Play `n` (from 0, below [`TablePlays::count`]) in the order of [`State::each_move`]:
    /// hand order, then choice order.
    #[inline]
    pub fn nth(&self, mut n: usize) -> Option<Move> {
        for (&card, &bits) in self.cards[..self.len].iter().zip(&self.allowed) {
            let here = bits.count_ones() as usize;
            if n < here {
                let mut bits = bits;
                for _ in 0..n {
                    bits &= bits - 1;
                }
                let choice = bits.trailing_zeros() as u8;
                return Some(Move::Play { card, choice });
            }
            n -= here;
        }
        None
    }
}

impl State {
    /// The plays of the player to move, when the legal-choice table answers for every card:
    /// the total is in the table's window, no card has a live choice, and the game has one
    /// copy of each card. `None` otherwise: then ask [`State::each_move`]. Both give the same
    /// plays in the same order.
    #[inline]
    pub fn table_plays(&self, p: &Program) -> Option<TablePlays> {
        if self.over || p.copies(self.seats) {
            return None;
        }
        let row = p.legal.row(self.total)?;
        let rank_fx = &p.rank_fx[self.active().min(MAX_SEATS)];
        let hand = self.hands[usize::from(self.turn)].cards();
        let mut plays = TablePlays {
            cards: [0; MAX_HAND],
            allowed: [0; MAX_HAND],
            len: hand.len(),
            count: 0,
        };
        let mut live = 0;
        for (i, &card) in hand.iter().enumerate() {
            let fx = rank_fx.get(usize::from(rank_of(card))).copied();
            // A rank without an effect has no play.
            let cell = fx.map_or(0, |fx| row.cell(fx));
            live |= cell >> 4;
            plays.cards[i] = card;
            plays.allowed[i] = cell & 0x0f;
            plays.count += (cell & 0x0f).count_ones() as usize;
        }
        (live == 0).then_some(plays)
    }
}
