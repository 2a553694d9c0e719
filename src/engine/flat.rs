//! The loop of plain turns' table (`kernel.rs`): the legal-choice table laid out by rank for
//! one number of players in the round, so a turn reads each card's plays with one byte read
//! and no effect looked up. Derived from the program alone and kept beside it in its
//! [`Prepared`] form (built on the first turn that asks, once a number of players).
//!
//! For each total of the legal table's window, a row of sixteen cells, one a rank (the slots
//! past the ranks empty), and a row of sixty-four totals, four a rank: the total each choice
//! the cell allows makes. A cell is the legal-choice table's for the rank's effect, its live
//! choices folded into one bit: the allowed choices in bits 0 to 3, how many they are in
//! bits 4 to 6, and bit 7 set when a choice is live (the table does not answer it). A rank
//! without an effect has none. Beside the rows, by rank and choice, a code: what the loop
//! needs of the choice ([`PLAIN`], [`MANY`], [`SKIPS_ONE`], [`REVERSES`], and its turn
//! effects). Beside the rows too, when the program has bars, the nearest bars above and
//! below each total.
//!
//! Ninety-Nine's window (0 to 99) makes 100 rows, 27 KiB a number of players; 33/66/99's (no
//! upper limit: 0 to 1,024) 1,025 rows, 279 KiB. A turn reads two rows. A debug build checks
//! every cell a turn reads, and every total it lays, against the legal-choice table.

use super::prepared::Prepared;
use crate::base::cards::RANKS;
use crate::ir::{Choice, Facts, MAX_CHOICES, MAX_SEATS, NO_EFFECT, Turn, choice_total};

/// A choice's code: it is simple and asks no script (the loop lays it).
pub const PLAIN: u32 = 1;
/// A choice's code: its turn effects are more than a reverse and one player skipped (it
/// gives more turns, or skips several players). Its turn effects are in bits 8 to 15 (how
/// many players it skips), 16 (it reverses), 17 to 23 (how many it skips on the side play
/// turned away from) and 24 to 31 (how many more turns).
pub const MANY: u32 = 2;
/// A choice's code: it skips exactly one player.
pub const SKIPS_ONE: u32 = 4;
/// A choice's code: it reverses the direction of play (bit 16).
pub const REVERSES: u32 = 1 << 16;
/// A choice's code: it is not simple (a condition decides a step), has no script, and is
/// not live (the table holds its total), and a condition decides its turn effects or
/// whether its outcomes fire (`if the previous card is a Jack: add 10 and the next player
/// pays 1; otherwise add 10`): the loop works its steps out as it lays it, and lays it when
/// none of its outcomes fires. (Such a choice with no outcomes whose turn effects are the
/// same either way, `halve if the total is even, otherwise double`, is [`PLAIN`].)
pub const WORKED: u32 = 8;
/// A cell's bit for a live choice.
pub const LIVE: u8 = 0x80;

/// Slots a rank takes in a row of totals, and in the codes.
const SLOTS: usize = 4;
const _: () = assert!(MAX_CHOICES == SLOTS);

/// See the module's documentation.
#[derive(Debug, Clone)]
pub struct TurnTable {
    /// The lowest total of the window: row `i` is total `lo + i`.
    lo: i32,
    cells: Box<[[u8; 16]]>,
    totals: Box<[[i32; 16 * SLOTS]]>,
    codes: [u32; 16 * SLOTS],
    /// By row, when the program has bars: the lowest bar above the row's total and the
    /// highest below it ([`i64::MAX`] and [`i64::MIN`] for none: beyond any total). A card
    /// from that total reaches or passes a bar exactly when the total it makes is at or
    /// beyond one of them.
    bars: Box<[[i64; 2]]>,
}

impl TurnTable {
    /// The table for `active` players in the round, as the module says; without rows when
    /// the legal table has no window.
    #[inline]
    pub fn of(p: &Prepared, active: usize) -> &TurnTable {
        let active = active.min(MAX_SEATS);
        p.turns
            .get_or_build(active, || TurnTable::build(p, active))
            .unwrap_or_else(|| unreachable!("a table for {active} players"))
    }

    fn build(p: &Prepared, active: usize) -> TurnTable {
        let (lo, hi) = p.legal.window();
        // No window: no rows, every total is left to the general engine.
        let width = (i64::from(hi) - i64::from(lo) + 1).max(0) as usize;
        let rank_fx = &p.rank_fx[active];
        let fx_of = |r: usize| rank_fx.get(r).copied().unwrap_or(NO_EFFECT);
        let mut codes = [0u32; 16 * SLOTS];
        for (r, code) in codes.chunks_exact_mut(SLOTS).enumerate() {
            for (k, code) in code.iter_mut().enumerate() {
                *code = p.choice(fx_of(r), k).map_or(0, |ch| {
                    if ch.simple && !ch.scripted {
                        PLAIN | code_of(ch.turn)
                    } else if !ch.scripted && !ch.is_live(p) {
                        // Turn effects no condition decides, with no outcomes, are the
                        // code's; the others are worked out as it is laid.
                        match fixed_turn(ch) {
                            Some(t) if ch.is_quiet() => PLAIN | code_of(t),
                            _ => WORKED,
                        }
                    } else {
                        0
                    }
                });
            }
        }
        let mut cells = vec![[0u8; 16]; width];
        let mut totals = vec![[0i32; 16 * SLOTS]; width];
        for (i, (cells, totals)) in cells.iter_mut().zip(&mut totals).enumerate() {
            let total = lo + i as i32;
            let Some(row) = p.legal.row(total) else {
                continue;
            };
            let facts = Facts::total(total);
            for r in 0..RANKS {
                let fx = fx_of(r);
                if fx == NO_EFFECT {
                    continue;
                }
                let cell = row.cell(fx);
                cells[r] = flat_cell(cell);
                for (k, ch) in p.effects[usize::from(fx)].choices().iter().enumerate() {
                    if k < SLOTS && cell & (1 << k) != 0 {
                        totals[r * SLOTS + k] = row
                            .total(fx, k)
                            .unwrap_or_else(|| choice_total(p, ch, &facts));
                    }
                }
            }
        }
        let bars = if p.bars.is_empty() {
            Vec::new()
        } else {
            (0..width)
                .map(|i| {
                    let total = lo + i as i32;
                    let above = p.bars.iter().map(|b| b.value).filter(|&v| v > total).min();
                    let below = p.bars.iter().map(|b| b.value).filter(|&v| v < total).max();
                    // None is beyond every total an `i32` holds (a total saturated at
                    // `i32::MAX` touches no bar that is not there).
                    [
                        above.map_or(i64::MAX, i64::from),
                        below.map_or(i64::MIN, i64::from),
                    ]
                })
                .collect()
        };
        TurnTable {
            lo,
            cells: cells.into_boxed_slice(),
            totals: totals.into_boxed_slice(),
            codes,
            bars: bars.into_boxed_slice(),
        }
    }

    /// Whether a card that makes `total` from row `i` reaches or passes a bar; `None` in a
    /// game without bars.
    #[inline(always)]
    pub fn touches_bar(&self, i: usize, total: i32) -> Option<bool> {
        let &[above, below] = self.bars.get(i)?;
        let total = i64::from(total);
        Some(total >= above || total <= below)
    }

    /// The row of `total`: `None` outside the window.
    #[inline(always)]
    pub fn row(&self, total: i32) -> Option<usize> {
        let i = total.wrapping_sub(self.lo) as u32 as usize;
        (i < self.cells.len()).then_some(i)
    }

    /// The cells of row `i`, by rank.
    #[inline(always)]
    pub fn cells(&self, i: usize) -> Option<&[u8; 16]> {
        self.cells.get(i)
    }

    /// The total choice `k` of `rank` makes at row `i`, where the row allows it.
    #[inline(always)]
    pub fn total(&self, i: usize, rank: u8, k: usize) -> Option<i32> {
        let row = self.totals.get(i)?;
        Some(row[(usize::from(rank) & 15) * SLOTS + (k & (SLOTS - 1))])
    }

    /// The codes, by rank and choice (`rank * 4 + k`).
    #[inline(always)]
    pub fn codes(&self) -> &[u32; 16 * SLOTS] {
        &self.codes
    }
}

/// The turn effects of a choice whichever way its conditions go (each conditional step's
/// two branches have the same), or `None`.
fn fixed_turn(ch: &Choice) -> Option<Turn> {
    ch.steps().iter().try_fold(Turn::default(), |turn, st| {
        let then = Turn::of(st.then);
        (st.cond.is_none() || Turn::of(st.otherwise) == then).then(|| turn.and(then))
    })
}

/// A legal-choice cell (allowed choices in the low four bits, live ones in the high four)
/// as the table keeps it.
#[inline]
pub fn flat_cell(cell: u8) -> u8 {
    let allowed = cell & 0x0f;
    let live = if cell >> 4 != 0 { LIVE } else { 0 };
    allowed | (allowed.count_ones() as u8) << 4 | live
}

/// A plain choice's code for turn effects `t` ([`MANY`], [`SKIPS_ONE`], [`REVERSES`], and
/// the effects themselves).
#[inline]
pub fn code_of(t: Turn) -> u32 {
    let back = t.back.min(BACK_MAX);
    let many = if t.again > 0 || t.skip > 1 || back > 0 {
        MANY
    } else {
        0
    };
    let one = if t.skip == 1 && back == 0 {
        SKIPS_ONE
    } else {
        0
    };
    many | one
        | u32::from(t.skip) << 8
        | u32::from(t.reverse) << 16
        | u32::from(back) << 17
        | u32::from(t.again) << 24
}

/// The most skips to the other side a code holds (bits 17 to 23); more cannot matter at a
/// table of [`crate::ir::MAX_SEATS`] players, each passed over once.
const BACK_MAX: u8 = 0x7f;

/// The turn effects a code holds.
#[inline]
pub fn turn_of(code: u32) -> Turn {
    Turn {
        skip: (code >> 8) as u8,
        back: (code >> 17) as u8 & BACK_MAX,
        reverse: code >> 16 & 1 != 0,
        again: (code >> 24) as u8,
        chosen: false,
    }
}

/// A code's place among the codes: `rank * 4 + k`.
#[inline(always)]
pub fn code_at(rank: u8, k: usize) -> usize {
    (usize::from(rank) & 15) * SLOTS + (k & (SLOTS - 1))
}
