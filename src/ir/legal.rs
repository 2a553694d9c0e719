//! The legal-choice table: for each effect and each total in a window, which of its choices
//! the limits allow. Built once after compilation, it turns the engine's busiest questions
//! (what may this player lay? may they lay anything?) into a few byte reads.
//!
//! A choice whose total depends on more than the total before it (a condition on the
//! player's chips, cards or the previous card; a script asked live, not tabulated at that
//! total) is *live*: the table leaves it to the engine, which works it out with the game at
//! hand. Outside the window every choice
//! is worked out the same way, so the table only ever makes things faster, never different.

use super::{Facts, MAX_CHOICES, MAX_SEATS, NO_EFFECT, Program, choice_total};
use crate::base::cards::JOKER;

/// The most totals the table covers: a window as wide as the limits, when there are limits.
pub const TABLE_TOTALS: usize = 4096;

/// See the module's documentation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LegalTable {
    /// The lowest total in the window.
    lo: i32,
    /// How many totals the window holds (0: no table, everything is worked out).
    width: u32,
    /// How many effects a row holds.
    effects: usize,
    /// One row per total of the window, one byte per effect: bit `k` set when choice `k`,
    /// laid at that total, makes a total the limits allow; bit `4 + k` set when choice `k` is
    /// live (its low bit is then clear).
    cells: Vec<u8>,
    /// By players in the round, then total: the ranks with a choice the table allows, and
    /// the ranks with a live choice, as bit sets (bit `r` for rank `r`). "May this player lay
    /// anything?" is then one read and a test per card.
    ranks: Vec<[u16; 2]>,
    /// One row per total of the window, [`MAX_CHOICES`] slots per effect: the total each
    /// choice the table allows makes (a slot of a live or refused choice is unused). Empty
    /// when it would take more than [`TOTALS_BUDGET`] slots: the totals are then worked out.
    totals: Vec<i32>,
    /// By players in the round: [`LegalTable::ranks`] at the highest total there is
    /// (`i32::MAX`), where a bot looks for the cards it can lay whatever the total, in a
    /// game without an upper limit.
    at_max: Vec<[u16; 2]>,
    /// By effect: bit `k` set when choice `k` is *quiet*, [`Choice::is_quiet`](super::Choice::is_quiet) (what laying it
    /// gains or costs its player is the bars' alone). The bots read it for each move they
    /// weigh instead of the choice itself.
    quiet: Vec<u8>,
    /// By players in the round: whether any of their ranks, at any total of the window or
    /// the highest, is live ([`Ranks::live`]).
    live: Vec<bool>,
    /// By players in the round: whether every rank of the deck can be laid at every total of
    /// the window ([`Ranks::complete`]).
    complete: Vec<bool>,
    /// By total of the window: whether every total its row allows (the choices the table
    /// answers) is in the window too. With a complete column, no move from there can leave
    /// a card that cannot be laid: a bot need not count them.
    inside: Vec<bool>,
}

/// The most slots the table of totals may take (4 MiB).
pub const TOTALS_BUDGET: usize = 1 << 20;

/// [`LegalTable::parts`]: row `i` (total `lo + i`, below `width`) is `cells[i * effects..]`
/// (`effects` bytes, as [`Row::cell`] reads them) and, when `totals` is not empty,
/// `totals[i * effects * MAX_CHOICES..]` ([`Row::total`]).
#[derive(Debug, Clone, Copy)]
pub struct Parts<'t> {
    pub lo: i32,
    pub width: u32,
    pub effects: usize,
    pub cells: &'t [u8],
    pub totals: &'t [i32],
}

/// The row of one total: for each effect, which choices are allowed and which are live.
#[derive(Debug, Clone, Copy)]
pub struct Row<'t> {
    cells: &'t [u8],
    /// [`MAX_CHOICES`] slots per effect, or empty.
    totals: &'t [i32],
}

impl Row<'_> {
    /// The choices of effect `fx` the table allows, and the live ones it leaves to the
    /// caller, as bit sets. An effect the row does not hold is all live.
    #[inline(always)]
    pub fn get(self, fx: u16) -> (u8, u8) {
        match self.cells.get(usize::from(fx)) {
            Some(&cell) => (cell & 0x0f, cell >> 4),
            None => (0, 0x0f),
        }
    }

    /// The cell of effect `fx`: its allowed choices in the low four bits, its live ones in
    /// the high four. An effect the row does not hold (a rank without one) has no choice.
    #[inline(always)]
    pub fn cell(self, fx: u16) -> u8 {
        self.cells.get(usize::from(fx)).copied().unwrap_or(0)
    }

    /// The total choice `k` of effect `fx` makes, if the table holds it: only ever asked of
    /// a choice the row allows.
    #[inline(always)]
    pub fn total(self, fx: u16, k: usize) -> Option<i32> {
        self.totals.get(usize::from(fx) * MAX_CHOICES + k).copied()
    }
}

/// The ranks of [`LegalTable::ranks`] for one number of players, from
/// [`LegalTable::ranks_with`].
#[derive(Debug, Clone, Copy)]
pub struct Ranks<'t> {
    lo: i32,
    column: &'t [[u16; 2]],
    at_max: Option<[u16; 2]>,
    /// Whether any answer of the column has a live rank: when none has, the allowed ranks
    /// are the whole answer.
    pub live: bool,
    /// Whether every answer of the column (the highest total aside) allows every rank of the
    /// deck: then no card of the deck is ever stuck at a total of the window.
    pub complete: bool,
}

impl Ranks<'_> {
    /// The same answer as [`LegalTable::ranks`] for these players at `total`.
    #[inline(always)]
    pub fn at(self, total: i32) -> Option<[u16; 2]> {
        match self.column.get(total.wrapping_sub(self.lo) as u32 as usize) {
            Some(&r) => Some(r),
            None if total == i32::MAX => self.at_max,
            None => None,
        }
    }

    /// The ranks with a choice the limits allow at `total`, when the table's answer is the
    /// whole answer: no rank it leaves live is still to be worked out. `None` otherwise.
    #[inline(always)]
    pub fn settled(self, total: i32) -> Option<u16> {
        match self.at(total)? {
            [ok, live] if !self.live || live & !ok == 0 => Some(ok),
            _ => None,
        }
    }

    /// Whether every rank of the deck can be laid at `total`, known from the column alone:
    /// it is complete and holds `total`. `false` says nothing.
    #[inline(always)]
    pub fn all_at(self, total: i32) -> bool {
        self.complete && (total.wrapping_sub(self.lo) as u32 as usize) < self.column.len()
    }
}

impl LegalTable {
    /// The table of a program whose effects, conditions and script tables are final.
    pub fn build(p: &Program) -> LegalTable {
        const _: () = assert!(MAX_CHOICES <= 4, "a cell holds four choices");
        let (lo, hi) = window(p);
        let width = (i64::from(hi) - i64::from(lo) + 1).clamp(0, TABLE_TOTALS as i64) as u32;
        let effects = p.effects.len();
        let live: Vec<u8> = p
            .effects
            .iter()
            .map(|fx| {
                fx.choices()
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.is_live(p))
                    .fold(0u8, |m, (k, _)| m | 1 << k)
            })
            .collect();
        let mut cells = vec![0u8; effects * width as usize];
        let slots = effects * MAX_CHOICES;
        let with_totals = slots * width as usize <= TOTALS_BUDGET;
        let mut totals = vec![
            0i32;
            if with_totals {
                slots * width as usize
            } else {
                0
            }
        ];
        for i in 0..width as usize {
            let total = lo + i as i32;
            let facts = Facts::total(total);
            for (e, fx) in p.effects.iter().enumerate() {
                // A scripted choice is live where its scripts are not tabulated.
                let live = fx.choices().iter().enumerate().fold(0u8, |m, (k, c)| {
                    let is_live = if c.scripted {
                        c.live_at(p, total)
                    } else {
                        live[e] & (1 << k) != 0
                    };
                    m | u8::from(is_live) << k
                });
                let mut bits = live << 4;
                for (k, c) in fx.choices().iter().enumerate() {
                    let t = choice_total(p, c, &facts);
                    if live & (1 << k) == 0 && p.allows(t) {
                        bits |= 1 << k;
                        if with_totals {
                            totals[i * slots + e * MAX_CHOICES + k] = t;
                        }
                    }
                }
                cells[i * effects + e] = bits;
            }
        }
        let mut ranks = vec![[0u16; 2]; (MAX_SEATS + 1) * width as usize];
        for (active, rank_fx) in p.rank_fx.iter().enumerate() {
            for i in 0..width as usize {
                let slot = &mut ranks[active * width as usize + i];
                for (r, &fx) in rank_fx.iter().enumerate() {
                    if fx == NO_EFFECT || usize::from(fx) >= effects {
                        continue;
                    }
                    let cell = cells[i * effects + usize::from(fx)];
                    if cell & 0x0f != 0 {
                        slot[0] |= 1 << r;
                    }
                    if cell >> 4 != 0 {
                        slot[1] |= 1 << r;
                    }
                }
            }
        }
        let at_max = ranks_at(p, i32::MAX);
        let live = live_columns(&ranks, width as usize, &at_max);
        let complete = complete_columns(p, &ranks, width as usize);
        let inside = inside_rows(p, lo, width);
        LegalTable {
            lo,
            width,
            effects,
            cells,
            ranks,
            totals,
            at_max,
            quiet: quiet_bits(p),
            live,
            complete,
            inside,
        }
    }

    /// The quiet choices of effect `fx` ([`Choice::is_quiet`](super::Choice::is_quiet)), as a bit set; none for an
    /// effect the table does not hold, which the caller then works out.
    #[inline(always)]
    pub fn quiet(&self, fx: u16) -> u8 {
        self.quiet.get(usize::from(fx)).copied().unwrap_or(0)
    }

    /// Whether every total the row of `total` allows is in the window ([`LegalTable::inside`]);
    /// `false` outside the window.
    #[inline(always)]
    pub fn inside(&self, total: i32) -> bool {
        let i = total.wrapping_sub(self.lo) as u32 as usize;
        self.inside.get(i).copied().unwrap_or(false)
    }

    /// With `active` players in the round and the total at `total`: the ranks with a choice
    /// the limits allow, and the ranks with a live choice; `None` outside the window.
    #[inline(always)]
    pub fn ranks(&self, active: usize, total: i32) -> Option<[u16; 2]> {
        let i = total.wrapping_sub(self.lo) as u32;
        if i >= self.width {
            return match total {
                i32::MAX => self.at_max.get(active.min(MAX_SEATS)).copied(),
                _ => None,
            };
        }
        self.ranks
            .get(active.min(MAX_SEATS) * self.width as usize + i as usize)
            .copied()
    }

    /// [`LegalTable::ranks`] for one number of players in the round: its column of the
    /// table, taken once for many questions (a bot's, one per move it weighs).
    #[inline]
    pub fn ranks_with(&self, active: usize) -> Ranks<'_> {
        let a = active.min(MAX_SEATS);
        let width = self.width as usize;
        Ranks {
            lo: self.lo,
            column: self.ranks.get(a * width..(a + 1) * width).unwrap_or(&[]),
            at_max: self.at_max.get(a).copied(),
            // A table without the flags (none built) leaves every answer to be checked.
            live: self.live.get(a).copied().unwrap_or(true),
            complete: self.complete.get(a).copied().unwrap_or(false),
        }
    }

    /// The table's window and cells as they are laid out, for a loop that reads a row each
    /// turn without making a [`Row`] each time (the engine's run of random turns).
    #[inline(always)]
    pub fn parts(&self) -> Parts<'_> {
        Parts {
            lo: self.lo,
            width: self.width,
            effects: self.effects,
            cells: &self.cells,
            totals: &self.totals,
        }
    }

    /// The row of `total`; `None` when it is outside the window (or there is no table).
    #[inline(always)]
    pub fn row(&self, total: i32) -> Option<Row<'_>> {
        let i = total.wrapping_sub(self.lo) as u32;
        if i >= self.width {
            return None;
        }
        let start = i as usize * self.effects;
        let cells = self.cells.get(start..start + self.effects)?;
        let slots = self.effects * MAX_CHOICES;
        let totals = self
            .totals
            .get(i as usize * slots..(i as usize + 1) * slots)
            .unwrap_or(&[]);
        Some(Row { cells, totals })
    }

    /// The choices of effect `fx` allowed at `total`, and the live ones; `None` outside the
    /// window.
    #[inline(always)]
    pub fn get(&self, fx: u16, total: i32) -> Option<(u8, u8)> {
        self.row(total).map(|r| r.get(fx))
    }

    /// The totals the table covers, lowest and highest (empty when `lo > hi`).
    pub fn window(&self) -> (i32, i32) {
        (self.lo, self.lo + self.width as i32 - 1)
    }

    /// Where the table disagrees with working the choices out, in words (for the verifier).
    pub fn disagreements(&self, p: &Program) -> Vec<String> {
        // An empty list (no table) answers nothing, and so is never wrong.
        if !self.at_max.is_empty() && self.at_max != ranks_at(p, i32::MAX) {
            return vec!["the legal-choice table's ranks at the highest total are wrong".into()];
        }
        if !self.live.is_empty()
            && self.live != live_columns(&self.ranks, self.width as usize, &self.at_max)
        {
            return vec!["the legal-choice table's live columns are wrong".into()];
        }
        if !self.complete.is_empty()
            && self.complete != complete_columns(p, &self.ranks, self.width as usize)
        {
            return vec!["the legal-choice table's complete columns are wrong".into()];
        }
        if !self.inside.is_empty() && self.inside != inside_rows(p, self.lo, self.width) {
            return vec!["the legal-choice table's rows inside the window are wrong".into()];
        }
        if !self.quiet.is_empty() && self.quiet != quiet_bits(p) {
            return vec!["the legal-choice table's quiet choices are wrong".into()];
        }
        if self.width > 0 && self.effects != p.effects.len() {
            return vec!["the legal-choice table is stale".into()];
        }
        for i in 0..self.width {
            let t = self.lo + i as i32;
            let Some(row) = self.row(t) else {
                return vec![format!("the legal-choice table has no row for {t}")];
            };
            for (active, rank_fx) in p.rank_fx.iter().enumerate() {
                let Some([ok, live]) = self.ranks(active, t) else {
                    return vec![format!("the legal-choice table has no ranks for {t}")];
                };
                for (r, &fx) in rank_fx.iter().enumerate() {
                    let (allowed, live_fx) = if fx == NO_EFFECT { (0, 0) } else { row.get(fx) };
                    if (ok >> r & 1 != 0) != (allowed != 0)
                        || (live >> r & 1 != 0) != (live_fx != 0)
                    {
                        return vec![format!(
                            "the legal-choice table's ranks are wrong for rank {r}, total {t}"
                        )];
                    }
                }
            }
            for (e, fx) in p.effects.iter().enumerate() {
                let (allowed, live) = row.get(e as u16);
                for (k, c) in fx.choices().iter().enumerate() {
                    let bit = 1u8 << k;
                    let is_live = c.live_at(p, t);
                    let made = choice_total(p, c, &Facts::total(t));
                    let ok = p.allows(made);
                    if (live & bit != 0) != is_live || (!is_live && (allowed & bit != 0) != ok) {
                        return vec![format!(
                            "the legal-choice table is wrong for effect {e}, choice {k}, total {t}"
                        )];
                    }
                    if allowed & bit != 0 && row.total(e as u16, k).is_some_and(|x| x != made) {
                        return vec![format!(
                            "the legal-choice table's total is wrong for effect {e}, choice {k}, total {t}"
                        )];
                    }
                }
            }
        }
        Vec::new()
    }
}

/// By players in the round, at one total: the ranks with a choice the limits allow, and the
/// ranks with a live choice (as in [`LegalTable::ranks`]), worked out.
fn ranks_at(p: &Program, total: i32) -> Vec<[u16; 2]> {
    let facts = Facts::total(total);
    p.rank_fx
        .iter()
        .map(|rank_fx| {
            let mut slot = [0u16; 2];
            for (r, &fx) in rank_fx.iter().enumerate() {
                let Some(fx) = p.effects.get(usize::from(fx)) else {
                    continue;
                };
                for c in fx.choices() {
                    if c.live_at(p, total) {
                        slot[1] |= 1 << r;
                    } else if p.allows(choice_total(p, c, &facts)) {
                        slot[0] |= 1 << r;
                    }
                }
            }
            slot
        })
        .collect()
}

/// By players in the round: whether their column of ranks, or their ranks at the highest
/// total, has a live rank.
fn live_columns(ranks: &[[u16; 2]], width: usize, at_max: &[[u16; 2]]) -> Vec<bool> {
    (0..=MAX_SEATS)
        .map(|a| {
            let column = ranks.get(a * width..(a + 1) * width).unwrap_or(&[]);
            column
                .iter()
                .chain(at_max.get(a))
                .any(|[_, live]| *live != 0)
        })
        .collect()
}

/// The ranks of the deck (bit `r` for rank `r`): the thirteen, and the jokers' when it has
/// some.
fn deck_ranks(p: &Program) -> u16 {
    !(u16::MAX << JOKER) | u16::from(p.jokers > 0) << JOKER
}

/// By players in the round: whether every answer of their column (in the window) allows
/// every rank of the deck. An empty window is not complete: it answers nothing.
fn complete_columns(p: &Program, ranks: &[[u16; 2]], width: usize) -> Vec<bool> {
    let deck = deck_ranks(p);
    (0..=MAX_SEATS)
        .map(|a| {
            let column = ranks.get(a * width..(a + 1) * width).unwrap_or(&[]);
            !column.is_empty() && column.iter().all(|[ok, _]| ok & deck == deck)
        })
        .collect()
}

/// By total of the window (`width` totals from `lo`): whether every total its row allows is
/// in the window too (a live choice, left out of the row, makes none).
fn inside_rows(p: &Program, lo: i32, width: u32) -> Vec<bool> {
    let hi = i64::from(lo) + i64::from(width) - 1;
    (0..width)
        .map(|i| {
            let facts = Facts::total(lo + i as i32);
            p.effects.iter().all(|fx| {
                fx.choices().iter().all(|c| {
                    let t = choice_total(p, c, &facts);
                    c.live_at(p, lo + i as i32)
                        || !p.allows(t)
                        || (i64::from(lo)..=hi).contains(&i64::from(t))
                })
            })
        })
        .collect()
}

/// By effect: its quiet choices as a bit set.
fn quiet_bits(p: &Program) -> Vec<u8> {
    p.effects
        .iter()
        .map(|fx| {
            fx.choices()
                .iter()
                .enumerate()
                .filter(|(_, c)| c.is_quiet())
                .fold(0u8, |m, (k, _)| m | 1 << k)
        })
        .collect()
}

/// The window: the limits, or around the start when a side has none.
fn window(p: &Program) -> (i32, i32) {
    // Limits that move with the table: no total's answer holds for long, none is kept (an
    // empty window: every total worked out as the game stands).
    if p.moving_limits() {
        return (0, -1);
    }
    let lo = p
        .floor
        .map_or(p.start.min(0).saturating_sub(256), |f| f.value);
    let hi = p
        .ceiling
        .map_or(p.start.max(0).saturating_add(1024), |c| c.value);
    (lo, hi.min(lo.saturating_add(TABLE_TOTALS as i32 - 1)))
}
