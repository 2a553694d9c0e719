//! The plays of the player to move as the legal-choice table answers them: four bits a card
//! in one word, their count by one popcount, the `n`-th found without a list. The commonest
//! bot in a simulation (uniform over the legal moves) needs nothing more.

use super::prepared::Prepared;
use super::{Move, Play, Sink, State};
use crate::base::cards::{Card, rank_of, repeats};
use crate::ir::{Facts, MAX_CHOICES, MAX_HAND, MAX_SEATS, NO_EFFECT, Row, choice_total};

/// See the module's documentation; from [`State::table_plays`].
#[derive(Debug, Clone, Copy)]
pub struct TablePlays<'s> {
    hand: &'s [Card],
    /// The table's row of the total: the totals the plays make.
    row: Row<'s>,
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
    /// hand order, then choice order. Found without a loop: which play a random bot takes is
    /// as good as random, and a loop's exit on it is a mispredicted branch.
    #[inline]
    pub fn nth(&self, n: usize) -> Option<Move> {
        let (at, choice) = self.nth_at(n)?;
        Some(Move::Play {
            card: *self.hand.get(at)?,
            choice,
        })
    }

    /// Play `n` as [`TablePlays::nth`] finds it: where its card is in the hand, and its
    /// choice.
    #[inline(always)]
    fn nth_at(&self, n: usize) -> Option<(usize, u8)> {
        if n >= self.count() {
            return None;
        }
        let at = select(self.allowed, n as u64) as usize;
        Some((at / 4, (at % 4) as u8))
    }
}

/// What [`table_turn`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableTurn {
    /// The table does not answer this position (a total outside its window, a live choice,
    /// a script bar): nothing was asked or changed; choose the general way.
    Unanswered,
    /// The player to move has no card to lay; nothing changed.
    NoPlay,
    /// The play was laid (and drawn for, when players draw by hand).
    Played,
    /// The play picked has steps of its own (outcomes, conditions): nothing changed yet;
    /// play it the general way (`step`), as if the bot had chosen it.
    Picked(Move),
}

/// One turn from the legal-choice table, fused: the plays counted as
/// [`State::table_plays`] counts them, one picked (`pick(n)`, asked only when there are
/// `n > 1`; it answers below `n`), laid from where it is in the hand with the total the
/// table holds, then drawn for. The same move and the same game as choosing with
/// [`TablePlays::nth`] and playing it with [`step`](super::step) (then the draw by hand),
/// without building the move, finding its card again, looking its effect up again or
/// checking limits the table has already checked.
#[inline]
pub fn table_turn<S: Sink>(
    p: &Prepared,
    s: &mut State,
    pick: impl FnOnce(usize) -> usize,
    sink: &mut S,
) -> TableTurn {
    if !p.plain_cards {
        return TableTurn::Unanswered;
    }
    let Some(plays) = s.table_plays(p) else {
        return TableTurn::Unanswered;
    };
    let n = match plays.count() {
        0 => return TableTurn::NoPlay,
        1 => 0,
        n => pick(n),
    };
    let row = plays.row;
    let Some((index, choice)) = plays.nth_at(n) else {
        return TableTurn::NoPlay;
    };
    let seat = s.turn;
    let card = s.hands[usize::from(seat)].cards()[index];
    let rank = rank_of(card);
    let fx = p.rank_fx[s.active().min(MAX_SEATS)]
        .get(usize::from(rank))
        .copied()
        .unwrap_or(NO_EFFECT);
    let k = usize::from(choice);
    let Some(ch) = p.choice(fx, k).filter(|ch| ch.simple && !ch.scripted) else {
        return TableTurn::Picked(Move::Play { card, choice });
    };
    let total = row
        .total(fx, k)
        .unwrap_or_else(|| choice_total(p, ch, &Facts::total(s.total)));
    debug_assert!(super::Illegal::beyond_limits(p, total).is_none());
    super::step::lay_simple(p, s, index, choice, ch, total, sink);
    if s.pending_draw == Some(seat) {
        // A game that ends clears the draw owed (`finish_round`).
        debug_assert!(!s.over);
        super::step::draw_pending(p, s, sink);
    }
    TableTurn::Played
}

/// The position of set bit `k` (from 0) of `x`, which has more than `k` set bits, by
/// broadword selection (Vigna, "Broadword implementation of rank/select queries"): the set
/// bits of each byte counted at once, the byte holding bit `k` found from their running
/// sums, then a table for the bit within that byte. No loop, no branch.
#[inline(always)]
pub(super) fn select(x: u64, k: u64) -> u32 {
    const L8: u64 = 0x0101_0101_0101_0101;
    const H8: u64 = 0x8080_8080_8080_8080;
    let mut b = x - ((x >> 1) & 0x5555_5555_5555_5555);
    b = (b & 0x3333_3333_3333_3333) + ((b >> 2) & 0x3333_3333_3333_3333);
    b = (b + (b >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    // Byte `i`: the set bits of bytes 0 to `i` (at most 64, so no byte overflows).
    let sums = b.wrapping_mul(L8);
    // The high bit of each byte whose running sum is at most `k`: the bytes before bit `k`'s.
    let before = ((k.wrapping_mul(L8) | H8) - sums) & H8;
    let place = (((before >> 7).wrapping_mul(L8) >> 56) * 8) as u32;
    let rank = k - (((sums << 8) >> place) & 0xff);
    place + u32::from(SELECT_IN_BYTE[((x >> place) & 0xff) as usize][(rank & 7) as usize])
}

/// `SELECT_IN_BYTE[b][r]`: the position of set bit `r` of byte `b`.
const SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let (mut bit, mut r) = (0, 0);
        while bit < 8 {
            if b & (1 << bit) != 0 {
                t[b][r] = bit as u8;
                r += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

impl State {
    /// The plays of the player to move, when the legal-choice table answers for every card:
    /// the total is in the table's window and no card has a live choice. `None` otherwise:
    /// then ask [`State::each_move`]. Both give the same plays in the same order (with
    /// several decks, a copy of a card before it in the hand has none: they are one move).
    #[inline]
    pub fn table_plays<'a>(&'a self, p: &'a Prepared) -> Option<TablePlays<'a>> {
        if self.over {
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
        if p.copies(self.seats) {
            allowed &= !repeats(hand);
        }
        (live == 0).then_some(TablePlays { hand, row, allowed })
    }

    /// The play of `card` with choice `choice`, one the legal-choice table allows (not a
    /// live one): its rank, effect and the total it makes, from the table or worked out
    /// where the table holds no totals. For a bot that reads the table its own way and needs
    /// a play's total only now and then.
    #[inline(never)]
    pub fn play_of(&self, p: &Prepared, card: Card, choice: u8) -> Play {
        let rank = rank_of(card);
        let fx = p.rank_fx[self.active().min(MAX_SEATS)]
            .get(usize::from(rank))
            .copied()
            .unwrap_or(NO_EFFECT);
        let k = usize::from(choice);
        let total = match p.legal.row(self.total).and_then(|row| row.total(fx, k)) {
            Some(t) => t,
            None => p.choice(fx, k).map_or(self.total, |c| {
                choice_total(p, c, &Facts::total(self.total))
            }),
        };
        Play {
            card,
            choice,
            rank,
            fx,
            total,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::select;

    #[test]
    fn select_finds_each_set_bit_in_order() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..2000 {
            // Words of every density, from a fixed sequence (xorshift).
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            for w in [
                x,
                x & (x >> 1),
                x & (x >> 1) & (x >> 2),
                x | (x >> 3),
                u64::MAX,
            ] {
                let positions: Vec<u32> = (0..64).filter(|i| w & (1 << i) != 0).collect();
                for (k, &pos) in positions.iter().enumerate() {
                    assert_eq!(select(w, k as u64), pos, "bit {k} of {w:#x}");
                }
            }
        }
    }
}
