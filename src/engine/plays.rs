//! The plays of the player to move as the legal-choice table answers them: four bits a card
//! in one word, their count by one popcount, the `n`-th found without a list. The commonest
//! bot in a simulation (uniform over the legal moves) needs nothing more.

use super::{Move, Play, State};
use crate::base::cards::{Card, rank_of};
use crate::ir::{Facts, MAX_CHOICES, MAX_HAND, MAX_SEATS, Program, choice_total};

/// See the module's documentation; from [`State::table_plays`].
#[derive(Debug, Clone, Copy)]
pub struct TablePlays<'s> {
    hand: &'s [Card],
    /// The choices the table allows, four bits a card in hand order (bit `4 * i + k` for
    /// choice `k` of card `i`): the plays in [`State::each_move`]'s order are its set bits.
    allowed: u64,
}

/// [`TablePlays::allowed`] has room for every card of a hand.
const _: () = assert!(MAX_HAND * 4 <= 64 && MAX_CHOICES <= 4);

impl TablePlays<'_> {
    /// How many plays there are (each choice of a card is one).
    #[inline]
    pub fn count(&self) -> usize {
        self.allowed.count_ones() as usize
    }

    /// Play `n` (from 0, below [`TablePlays::count`]) in the order of [`State::each_move`]:
    /// hand order, then choice order.
    #[inline]
    pub fn nth(&self, n: usize) -> Option<Move> {
        let mut bits = self.allowed;
        for _ in 0..n {
            bits &= bits.wrapping_sub(1);
        }
        if bits == 0 {
            return None;
        }
        let at = bits.trailing_zeros() as usize;
        Some(Move::Play {
            card: *self.hand.get(at / 4)?,
            choice: (at % 4) as u8,
        })
    }
}

impl State {
    /// The plays of the player to move, when the legal-choice table answers for every card:
    /// the total is in the table's window, no card has a live choice, and the game has one
    /// copy of each card. `None` otherwise: then ask [`State::each_move`]. Both give the same
    /// plays in the same order.
    #[inline]
    pub fn table_plays(&self, p: &Program) -> Option<TablePlays<'_>> {
        if self.over || p.copies(self.seats) {
            return None;
        }
        let row = p.legal.row(self.total)?;
        let rank_fx = &p.rank_fx[self.active().min(MAX_SEATS)];
        let hand = self.hands[usize::from(self.turn)].cards();
        let mut allowed = 0u64;
        let mut live = 0;
        for (i, &card) in hand.iter().enumerate().take(MAX_HAND) {
            let fx = rank_fx.get(usize::from(rank_of(card))).copied();
            // A rank without an effect has no play.
            let cell = fx.map_or(0, |fx| row.cell(fx));
            live |= cell >> 4;
            allowed |= u64::from(cell & 0x0f) << (4 * i);
        }
        (live == 0).then_some(TablePlays { hand, allowed })
    }

    /// [`State::each_play_read`] when the legal-choice table answers for every card (as for
    /// [`State::table_plays`]): the same plays in the same order, found with no branch on
    /// live choices. Returns `false`, having called `f` for none, when the table does not
    /// answer: then ask [`State::each_play_read`].
    ///
    /// Its first loop reads the hand as [`State::table_plays`] does. Shared through a helper,
    /// the random bot's path (the commonest in a simulation) took 1.4 to 3.6% more
    /// instructions, measured: the two stay apart, and the property test
    /// `the_tables_plays_are_each_moves_plays` holds both to `each_move`'s plays.
    #[inline(always)]
    pub fn table_each_play(&self, p: &Program, mut f: impl FnMut(Play)) -> bool {
        if self.over || p.copies(self.seats) {
            return false;
        }
        let Some(row) = p.legal.row(self.total) else {
            return false;
        };
        let rank_fx = &p.rank_fx[self.active().min(MAX_SEATS)];
        let hand = self.hands[usize::from(self.turn)].cards();
        let mut fxs = [0u16; MAX_HAND];
        let mut cells = [0u8; MAX_HAND];
        let mut live = 0;
        for ((&card, fx), cell) in hand.iter().zip(&mut fxs).zip(&mut cells) {
            *fx = rank_fx
                .get(usize::from(rank_of(card)))
                .copied()
                .unwrap_or(u16::MAX);
            // A rank without an effect has no play.
            *cell = row.cell(*fx);
            live |= *cell >> 4;
        }
        if live != 0 {
            return false;
        }
        for ((&card, &fx), &cell) in hand.iter().zip(&fxs).zip(&cells) {
            let mut bits = cell & 0x0f;
            while bits != 0 {
                let k = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let total = match row.total(fx, k) {
                    Some(t) => t,
                    None => self.choice_total_now(p, fx, k),
                };
                f(Play {
                    card,
                    choice: k as u8,
                    rank: rank_of(card),
                    fx,
                    total,
                });
            }
        }
        true
    }

    /// The total choice `k` of effect `fx` makes, laid now: for a total the table does not
    /// hold.
    #[inline(never)]
    fn choice_total_now(&self, p: &Program, fx: u16, k: usize) -> i32 {
        p.effects
            .get(usize::from(fx))
            .and_then(|e| e.choices().get(k))
            .map_or(self.total, |c| {
                choice_total(p, c, &Facts::total(self.total))
            })
    }
}
