//! The weighing bots' plan: the part of each quiet play's score that the totals alone decide,
//! worked out once a program and number of players in the round, and kept with the program
//! ([`Derived`](crate::ir::Derived)). A turn then scores a play from one slot, with no total to read.
//! A play whose conditions decide which of its outcomes fire (no script) is planned apart,
//! but for what its outcomes are worth, which its turn adds from the facts at hand
//! ([`worked_slot`]).

use super::Ruleset;
use super::weigh::{WORTH_CAP, bars_worth, base, is_high, others};
use crate::base::cards::{Card, RANKS, rank_of, repeats};
use crate::engine::State;
use crate::ir::{Facts, MAX_CHOICES, MAX_HAND, MAX_SEATS, choice_total};

/// A plan's slot for a play it does not score: one that is not quiet, that the limits
/// refuse, whose score does not fit, or after which the cards that can be laid must be
/// worked out.
const UNSCORED: u32 = 1 << 31;

/// A planned play's slot, four bytes (a row of a game's plan is then a cache line or two):
/// the part of its score that the totals decide ([`base`]) in the high 18 bits, signed; and
/// the ranks that can be laid at the total it makes (bit `r` for rank `r`) in the low 14,
/// all of them set when every rank of the deck can
/// ([`Ranks::all_at`](crate::ir::Ranks::all_at)), so that no card is stuck there. The
/// lowest score, `-2^17`, is [`UNSCORED`]'s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Slot(u32);

const _: () = assert!(
    RANKS == 14,
    "the ranks that can be laid take 14 bits of a slot"
);

/// Every rank that can be laid, as a slot holds them.
const EVERY_RANK: u16 = (1 << RANKS) - 1;

impl Slot {
    /// The slot of a play worth `base` (none when it does not fit) after which the ranks
    /// `ok` can be laid, or every rank (`all`).
    fn new(base: i64, ok: u16, all: bool) -> Option<Slot> {
        const MOST: i64 = (1 << 17) - 1;
        let ok = if all { EVERY_RANK } else { ok & EVERY_RANK };
        (-MOST..=MOST)
            .contains(&base)
            .then(|| Slot((base as i32 as u32) << RANKS | u32::from(ok)))
    }

    #[inline(always)]
    pub(super) fn base(self) -> i64 {
        i64::from(self.0 as i32 >> RANKS)
    }

    /// The ranks that can be laid after the play.
    #[inline(always)]
    pub(super) fn ok(self) -> u16 {
        self.0 as u16 & EVERY_RANK
    }

    /// Whether every rank can be laid after the play: then no unseen card is stuck.
    #[inline(always)]
    pub(super) fn all(self) -> bool {
        self.ok() == EVERY_RANK
    }
}

/// How a row begins: a byte for each rank (its effect's cell of the legal-choice table: the
/// choices the limits allow in the low four bits, the live ones in the high four; none for a
/// rank without an effect), then a byte of [`HIGH`] and [`UNCOUNTED`]; then the slots.
const CELL_WORDS: usize = 4;
const FLAGS: usize = RANKS;
const _: () = assert!(
    FLAGS < CELL_WORDS * 4,
    "the cells and flags fit their words"
);

/// The total is high ([`is_high`]).
const HIGH: u8 = 1;
/// No play the table allows from this total can leave a card that cannot be laid: the
/// column is complete and every total the row allows is in the window. The unseen cards then
/// need no counting.
const UNCOUNTED: u8 = 2;

/// The weighing bots' plan of a game with `active` players in the round: for each total of
/// the legal-choice table's window, the cells of each rank and what is known of the total
/// ([`HIGH`], [`UNCOUNTED`]), then each effect of a rank and each of its choices, a quiet
/// play's [`Slot`]; [`UNSCORED`] for any other play. Built once a program and number of
/// players, on the first turn that asks; empty when the table has no row.
///
/// Laid out as [`TurnRow::new`] reads it: for each rank, where its effect's first choice is
/// in a row (ranks with one effect share their slots), or [`UNSCORED`] for a rank without
/// one; how many words a row has; the ranks that can be laid at the top (the upper limit, or
/// the highest total there is), or [`UNSCORED`] when the table leaves a live choice to work
/// out there; where the rows of the plays planned but for their outcomes begin, past the
/// others ([`worked_slot`]), or [`UNSCORED`] when no choice has outcomes without a script;
/// then the rows. A row is the cells and a slot per choice of each effect, not per
/// rank and possible choice: the turns of a game read a few kilobytes of the plan, and
/// nothing else of the table.
///
/// Its size is bounded by the table's: at most [`TABLE_TOTALS`](crate::ir::TABLE_TOTALS)
/// rows of four words of cells and `RANKS * MAX_CHOICES` slots, 960 KiB a number of players.
/// Ninety-Nine's window (0 to 99) makes 100 rows of 19 words, 7.5 KiB; 33/66/99's (no upper
/// limit: 0 to 1,024) 1,025 rows of 19 words, 76 KiB, about 2 million instructions to build
/// (under a millisecond) a number of players.
fn plan(p: &Ruleset, active: usize) -> &[u32] {
    let active = active.min(MAX_SEATS);
    p.plan
        .get_or_build(active, || {
            let (lo, hi) = p.legal().window();
            let others = others(active);
            let ranks = p.legal().ranks_with(active);
            let rank_fx = &p.rank_fx[active];
            // Each effect a rank has, with the slot of its first choice.
            let mut first = [UNSCORED; RANKS];
            let mut effects: Vec<(u16, usize)> = Vec::new();
            let mut width = CELL_WORDS;
            for (r, &fx) in rank_fx.iter().enumerate() {
                let Some(effect) = p.effects.get(usize::from(fx)) else {
                    continue;
                };
                let at = match effects.iter().find(|e| e.0 == fx) {
                    Some(&(_, at)) => at,
                    None => {
                        effects.push((fx, width));
                        width += effect.choices().len().min(MAX_CHOICES);
                        effects[effects.len() - 1].1
                    }
                };
                first[r] = at as u32;
            }
            let mut plan = first.to_vec();
            plan.push(width as u32);
            // The ranks that can be laid at the top, as `playable_ranks` finds them from the
            // table alone.
            let top = p.ceiling.map_or(i32::MAX, |c| c.value);
            plan.push(ranks.settled(top).map_or(UNSCORED, u32::from));
            // Whether a choice has outcomes and no script: planned but for its outcomes, in
            // rows of their own after the others (the same places), so that a turn reads
            // them only when it holds such a card.
            let worked = |fx: u16, k: usize, ch: &crate::ir::Choice| {
                p.legal().quiet(fx) >> k & 1 == 0 && !ch.scripted
            };
            let any_worked = effects.iter().any(|&(fx, _)| {
                let choices = p.effects[usize::from(fx)].choices();
                (choices.iter().enumerate().take(MAX_CHOICES)).any(|(k, ch)| worked(fx, k, ch))
            });
            let header = plan.len() + 1;
            let rows = (i64::from(hi) - i64::from(lo) + 1) as usize * width;
            plan.push(if any_worked {
                u32::try_from(rows).unwrap_or(UNSCORED)
            } else {
                UNSCORED
            });
            plan.resize(header + if any_worked { 2 * rows } else { rows }, UNSCORED);
            for total in lo..=hi {
                let Some(cells) = p.legal().row(total) else {
                    return Box::default();
                };
                let row = header + (i64::from(total) - i64::from(lo)) as usize * width;
                let mut bytes = [0u8; CELL_WORDS * 4];
                for (byte, &fx) in bytes.iter_mut().zip(rank_fx) {
                    *byte = cells.cell(fx);
                }
                bytes[FLAGS] = if is_high(p, total) { HIGH } else { 0 }
                    | if ranks.complete && p.legal().inside(total) {
                        UNCOUNTED
                    } else {
                        0
                    };
                for (word, four) in plan[row..].iter_mut().zip(bytes.chunks_exact(4)) {
                    *word = u32::from_le_bytes([four[0], four[1], four[2], four[3]]);
                }
                let high = bytes[FLAGS] & HIGH != 0;
                for &(fx, at) in &effects {
                    let (allowed, _) = cells.get(fx);
                    let quiet = p.legal().quiet(fx);
                    let choices = p.effects[usize::from(fx)].choices();
                    for (k, ch) in choices.iter().enumerate().take(MAX_CHOICES) {
                        let place = if quiet >> k & 1 != 0 {
                            row + at + k
                        } else if worked(fx, k, ch) {
                            row + rows + at + k
                        } else {
                            continue;
                        };
                        if allowed >> k & 1 == 0 {
                            continue;
                        }
                        // The total the table gives the play, as `State::play_of` does.
                        let new = cells
                            .total(fx, k)
                            .unwrap_or_else(|| choice_total(p, ch, &Facts::total(total)));
                        let value = bars_worth(p, total, new, others).clamp(-WORTH_CAP, WORTH_CAP);
                        // The ranks that can be laid at the new total, as `playable_ranks` finds
                        // them from the table alone; none needed where every rank can.
                        let all = ranks.all_at(new);
                        let ok = ranks.settled(new).or(all.then_some(0));
                        // A score that does not fit is worked out on each play.
                        let base = base(value, total, new, high);
                        if let Some(slot) = ok.and_then(|ok| Slot::new(base, ok, all)) {
                            plan[place] = slot.0;
                        }
                    }
                }
            }
            plan.into_boxed_slice()
        })
        .map_or(&[], |plan| plan)
}

/// The slot of choice `choice` of a card of rank `rank` at the total of `s`, if it is planned
/// but for its outcomes (a choice with outcomes and no script, the limits allow it, its score
/// fits); its worth then leaves out the outcomes, which the turn's facts decide. Read apart
/// from [`TurnRow`], whose turns most games never send here.
pub(super) fn worked_slot(p: &Ruleset, s: &State, rank: u8, choice: u8) -> Option<Slot> {
    let plan = plan(p, s.active());
    let (first, rest) = plan.split_first_chunk::<RANKS>()?;
    let (&[width, _, worked], rows) = rest.split_first_chunk::<3>()?;
    let at = (*first.get(usize::from(rank))? as usize).checked_add(usize::from(choice))?;
    if at >= width as usize || worked == UNSCORED {
        return None;
    }
    let i = s.total.wrapping_sub(p.legal().window().0) as u32 as usize;
    let place = (worked as usize)
        .checked_add(i.checked_mul(width as usize)?)?
        .checked_add(at)?;
    let slot = *rows.get(place)?;
    (slot != UNSCORED).then_some(Slot(slot))
}

/// The plan's row for one turn: its cells and slots, and where each rank's choices are.
#[derive(Debug, Clone, Copy)]
pub(super) struct TurnRow<'p> {
    first: &'p [u32; RANKS],
    escape: u32,
    row: &'p [u32],
    /// Several decks: a copy of a card before it in the hand is the same move.
    copies: bool,
}

impl<'p> TurnRow<'p> {
    /// The row of the total of `s` with its players in the round; `None` when the plan does
    /// not answer: the game is over, or the total is outside the table's window.
    #[inline(always)]
    pub(super) fn new(p: &'p Ruleset, s: &State) -> Option<TurnRow<'p>> {
        if s.over {
            return None;
        }
        let plan = plan(p, s.active());
        let (first, rest) = plan.split_first_chunk::<RANKS>()?;
        let (&[width, escape, worked], rows) = rest.split_first_chunk::<3>()?;
        // The rows of the plays planned but for their outcomes, after the others, are not a
        // turn's.
        let rows = rows.get(..worked as usize).unwrap_or(rows);
        let width = width as usize;
        let i = s.total.wrapping_sub(p.legal().window().0) as u32 as usize;
        let row = rows.get(i * width..)?.get(..width)?;
        let copies = p.copies(s.seats);
        Some(TurnRow {
            first,
            escape,
            row,
            copies,
        })
    }

    /// The cell of a card of rank `rank`: its allowed choices in the low four bits, its live
    /// ones in the high four.
    #[inline(always)]
    fn cell(self, rank: u8) -> u8 {
        self.byte(usize::from(rank))
    }

    #[inline(always)]
    fn byte(self, i: usize) -> u8 {
        self.row.get(i / 4).map_or(0, |w| (w >> (i % 4 * 8)) as u8)
    }

    /// The total is high ([`is_high`]).
    #[inline(always)]
    pub(super) fn high(self) -> bool {
        self.byte(FLAGS) & HIGH != 0
    }

    /// No play from this total can leave a card that cannot be laid ([`UNCOUNTED`]).
    #[inline(always)]
    pub(super) fn uncounted(self) -> bool {
        self.byte(FLAGS) & UNCOUNTED != 0
    }

    /// The ranks that can be laid at the top, if the table says so without a live choice.
    #[inline(always)]
    pub(super) fn escape(self) -> Option<u16> {
        (self.escape != UNSCORED).then_some(self.escape as u16)
    }

    /// Calls `f` with each play of `hand` (card, choice and the card's rank) in the order of
    /// [`State::each_move`], as the table allows them; returns `false`, having called `f` for
    /// none, when a card has a live choice: then ask [`State::each_play_read`].
    ///
    /// One loop over the plays, four bits a card as in [`State::table_plays`]: a loop a card
    /// would end on each card's number of plays, as good as random.
    #[inline(always)]
    pub(super) fn each_play(self, hand: &[Card], mut f: impl FnMut(Card, u8, u8)) -> bool {
        let mut allowed = 0u64;
        let mut live = 0;
        for (i, &card) in hand.iter().enumerate().take(MAX_HAND) {
            let cell = self.cell(rank_of(card));
            live |= cell >> 4;
            allowed |= u64::from(cell & 0x0f) << (4 * i);
        }
        if live != 0 {
            return false;
        }
        if self.copies {
            allowed &= !repeats(hand);
        }
        while allowed != 0 {
            let at = allowed.trailing_zeros() as usize;
            allowed &= allowed - 1;
            let Some(&card) = hand.get(at / 4) else {
                break;
            };
            f(card, (at % 4) as u8, rank_of(card));
        }
        true
    }

    /// The slot of choice `choice` of a card of rank `rank`, if the plan scores it.
    #[inline(always)]
    pub(super) fn slot(self, rank: u8, choice: u8) -> Option<Slot> {
        // A rank without an effect (none of its plays is asked for) is past every row.
        let first = self
            .first
            .get(usize::from(rank))
            .map_or(usize::MAX, |&f| f as usize);
        let slot = self.row.get(first.wrapping_add(usize::from(choice)))?;
        (*slot != UNSCORED).then_some(Slot(*slot))
    }
}

#[cfg(test)]
mod tests {
    use super::{EVERY_RANK, Slot, UNSCORED};

    #[test]
    fn a_slot_holds_its_score_and_ranks_and_refuses_a_score_that_does_not_fit() {
        let most = (1 << 17) - 1;
        for base in [-most, -most + 1, -4_000, -1, 0, 1, 33_020, most - 1, most] {
            for ok in [0, 1, 0b1010_1010_1010, 0x1fff, 1 << 13] {
                let slot = Slot::new(base, ok, false).expect("fits");
                assert_eq!((slot.base(), slot.ok(), slot.all()), (base, ok, false));
                assert_ne!(slot.0, UNSCORED, "{base} {ok:#x}");
                // Every rank, whatever the table's answer was.
                let all = Slot::new(base, ok, true).expect("fits");
                assert_eq!((all.base(), all.ok(), all.all()), (base, EVERY_RANK, true));
            }
        }
        for base in [-most - 1, most + 1, i64::from(i32::MIN), i64::MAX] {
            assert_eq!(Slot::new(base, 0, false), None, "{base}");
        }
    }
}
