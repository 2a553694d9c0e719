//! The loop of random turns' table (`kernel.rs`): the legal-choice table laid out by rank for
//! one number of players in the round, so a turn reads each card's plays with one byte read
//! and no effect looked up. Derived from the final program alone and kept in
//! [`Program::derived`] (built on the first turn that asks, once a number of players).
//!
//! Laid out in bytes:
//!
//! * a header: the window's lowest total (`i32`), its width in rows (`u32`), the bytes a row
//!   takes (`u32`), then by rank (sixteen bytes, the slots past the ranks unused) where its
//!   effect's first total is in a row, in totals ([`NONE`]: the rank has no effect), then by
//!   rank and choice (sixty-four `u32`) what the loop needs of the choice ([`PLAIN`],
//!   [`MANY`], [`SKIPS_ONE`], and its turn effects);
//! * one row a total of the window: sixteen cells, one a rank, then one `i32` a choice of
//!   each effect the ranks have (ranks with one effect share them): the total the choice
//!   makes, where the table allows it.
//!
//! A cell is the legal-choice table's for the rank's effect, its live choices folded into one
//! bit: the allowed choices in bits 0 to 3, how many they are in bits 4 to 6, and bit 7 set
//! when a choice is live (the table does not answer it). A rank without an effect has none.
//! A debug build checks every cell a turn reads against the legal-choice table.

use crate::base::cards::RANKS;
use crate::ir::Facts;
use crate::ir::{MAX_CHOICES, MAX_SEATS, NO_EFFECT, Program, Turn, choice_total};

/// A rank without an effect: no total in a row.
pub const NONE: u8 = u8::MAX;
/// A choice's code: it is simple and asks no script (the loop lays it).
pub const PLAIN: u32 = 1;
/// A choice's code: its turn effects are more than a reverse and one player skipped (it
/// gives more turns, or skips several players). Its turn effects are in bits 8 to 15 (how
/// many players it skips), 16 (it reverses) and 24 to 31 (how many more turns).
pub const MANY: u32 = 2;
/// A choice's code: it skips exactly one player.
pub const SKIPS_ONE: u32 = 4;
/// A choice's code: it reverses the direction of play (bit 16).
pub const REVERSES: u32 = 1 << 16;
/// A cell's bit for a live choice.
pub const LIVE: u8 = 0x80;

/// Bytes before the first row.
const HEADER: usize = 12 + 16 + 4 * 16 * MAX_CHOICES;

/// The table for `active` players in the round, as the module says; without rows when the
/// legal table has no window.
pub fn table(p: &Program, active: usize) -> &[u8] {
    let active = active.min(MAX_SEATS);
    p.derived.turns.get_or_build(active, || build(p, active))
}

fn build(p: &Program, active: usize) -> Box<[u8]> {
    let (lo, hi) = p.legal.window();
    // No window: no rows, every total is left to the general engine.
    let width = (i64::from(hi) - i64::from(lo) + 1).max(0) as usize;
    let rank_fx = &p.rank_fx[active];
    // Each effect the ranks have, with its first total's place in a row.
    let mut first = [NONE; 16];
    let mut effects: Vec<(u16, usize)> = Vec::new();
    let mut slots = 0;
    for (r, &fx) in rank_fx.iter().enumerate() {
        let Some(effect) = p.effects.get(usize::from(fx)) else {
            continue;
        };
        let at = match effects.iter().find(|e| e.0 == fx) {
            Some(&(_, at)) => at,
            None => {
                effects.push((fx, slots));
                slots += effect.choices().len().min(MAX_CHOICES);
                slots - effect.choices().len().min(MAX_CHOICES)
            }
        };
        first[r] = at as u8;
    }
    let stride = 16 + 4 * slots;
    let mut t = Vec::with_capacity(HEADER + width * stride);
    t.extend_from_slice(&lo.to_le_bytes());
    t.extend_from_slice(&(width as u32).to_le_bytes());
    t.extend_from_slice(&(stride as u32).to_le_bytes());
    t.extend_from_slice(&first);
    for r in 0..16 {
        for k in 0..MAX_CHOICES {
            let code = rank_fx
                .get(r)
                .and_then(|&fx| p.choice(fx, k))
                .map_or(0, |ch| {
                    let plain = if ch.simple && !ch.scripted { PLAIN } else { 0 };
                    let t = ch.turn;
                    let many = if t.again > 0 || t.skip > 1 { MANY } else { 0 };
                    let one = if t.skip == 1 { SKIPS_ONE } else { 0 };
                    plain
                        | many
                        | one
                        | u32::from(t.skip) << 8
                        | u32::from(t.reverse) << 16
                        | u32::from(t.again) << 24
                });
            t.extend_from_slice(&code.to_le_bytes());
        }
    }
    debug_assert_eq!(t.len(), HEADER);
    for i in 0..width {
        let total = lo + i as i32;
        let row = p.legal.row(total);
        for r in 0..16 {
            let fx = rank_fx.get(r).copied().unwrap_or(NO_EFFECT);
            let cell = match row {
                Some(row) if r < RANKS && fx != NO_EFFECT => row.cell(fx),
                _ => 0,
            };
            t.push(flat_cell(cell));
        }
        let facts = Facts::total(total);
        for &(fx, _) in &effects {
            let cell = row.map_or(0, |row| row.cell(fx));
            let choices = p.effects[usize::from(fx)].choices();
            for (k, ch) in choices.iter().enumerate().take(MAX_CHOICES) {
                let made = if cell & (1 << k) != 0 {
                    row.and_then(|row| row.total(fx, k))
                        .unwrap_or_else(|| choice_total(p, ch, &facts))
                } else {
                    0
                };
                t.extend_from_slice(&made.to_le_bytes());
            }
        }
    }
    t.into_boxed_slice()
}

/// A legal-choice cell (allowed choices in the low four bits, live ones in the high four)
/// as the table keeps it.
#[inline]
pub fn flat_cell(cell: u8) -> u8 {
    let allowed = cell & 0x0f;
    let live = if cell >> 4 != 0 { LIVE } else { 0 };
    allowed | (allowed.count_ones() as u8) << 4 | live
}

/// The table, read: what [`table`] built for the players in the round.
#[derive(Debug, Clone, Copy)]
pub struct Flat<'t> {
    pub lo: i32,
    pub width: u32,
    stride: usize,
    first: [u8; 16],
    codes: &'t [u8],
    rows: &'t [u8],
}

impl<'t> Flat<'t> {
    /// The table of `active` players in the round.
    #[inline]
    pub fn of(p: &'t Program, active: usize) -> Flat<'t> {
        let t = table(p, active);
        let Some(header) = t.get(..HEADER) else {
            // Not a table `build` makes: no rows, so nothing is read from it.
            return Flat {
                lo: 0,
                width: 0,
                stride: 0,
                first: [NONE; 16],
                codes: &[],
                rows: &[],
            };
        };
        let word = |at: usize| {
            let b = [header[at], header[at + 1], header[at + 2], header[at + 3]];
            u32::from_le_bytes(b)
        };
        let mut first = [NONE; 16];
        first.copy_from_slice(&header[12..28]);
        Flat {
            lo: word(0) as i32,
            width: word(4),
            stride: word(8) as usize,
            first,
            codes: &header[28..],
            rows: &t[HEADER..],
        }
    }

    /// Row `i` (below [`Flat::width`]): its sixteen cells and its totals.
    #[inline(always)]
    pub fn row(&self, i: usize) -> Option<&'t [u8]> {
        self.rows.get(i * self.stride..(i + 1) * self.stride)
    }

    /// The cells of a row, by rank.
    #[inline(always)]
    pub fn cells(row: &[u8]) -> Option<&[u8; 16]> {
        row.get(..16).and_then(|c| c.try_into().ok())
    }

    /// The total choice `k` of `rank` makes at a row, where the row allows it.
    #[inline(always)]
    pub fn total(&self, row: &[u8], rank: u8, k: usize) -> Option<i32> {
        let at = 16 + 4 * (usize::from(self.first[usize::from(rank) & 15]) + k);
        let b = row.get(at..at + 4)?;
        Some(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// The code of choice `k` of `rank` ([`PLAIN`], [`MANY`], [`SKIPS_ONE`]); 0 for none.
    #[inline(always)]
    pub fn code(&self, rank: u8, k: usize) -> u32 {
        let at = 4 * ((usize::from(rank) & 15) * MAX_CHOICES + (k & (MAX_CHOICES - 1)));
        self.codes
            .get(at..at + 4)
            .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

/// The turn effects a code holds.
#[inline]
pub fn turn_of(code: u32) -> Turn {
    Turn {
        skip: (code >> 8) as u8,
        reverse: code >> 16 & 1 != 0,
        again: (code >> 24) as u8,
    }
}
