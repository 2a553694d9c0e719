//! Turns of uniform random players in a row, as one loop: what a simulation of random bots
//! spends its time on. Each turn is the one [`table_turn`](super::table_turn) plays (the
//! plays counted from the legal-choice table, one picked, laid, drawn for, the turn passed),
//! with what stays the same from turn to turn read once: the players in the round, their
//! effects, the hand size, the table's layout. Whatever is not a plain turn is left to the
//! general engine, the very functions a step calls: bars the card touched, the end of a
//! round, a player who cannot play, a reshuffle; after one of them the loop reads the table
//! again. A position the table does not answer, or a play with steps of its own, goes back
//! to the caller before anything is changed or drawn for it (or, for the play, with it
//! picked), so the caller plays that turn the general way and the game is the same.
//!
//! Laying the card and passing the turn are written out here, the same steps as the step's
//! `lay` and `pass_turn` with the hand size and the seat beside read once: calling those
//! (and `bars`) instead was measured at 2% to 5% more instructions a card (Ninety-Nine 695
//! to 712 and 733, the same games), so the copy stays, held to them by the test below.
//!
//! `tests/kernel.rs` plays every shipped ruleset both ways, game by game, and compares the
//! whole state (the random streams included) after every batch of turns.

use super::events::kind;
use super::outcomes::{Acting, finish_round};
use super::plays::select;
use super::step::{bars_touched, draw_pending, reshuffle, settle, settle_slow};
use super::{Move, Reason, Sink, State};
use crate::base::cards::{rank_of, repeats};
use crate::ir::choice_total;
use crate::ir::{Facts, MAX_CHOICES, MAX_HAND, MAX_SEATS, NO_EFFECT, Parts, Program, Ranks, Turn};

/// Why [`random_turns`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    /// The game is over, or `turns` reached the bound asked for.
    Ran,
    /// The next turn is not one the loop plays (a total outside the table's window, a live
    /// choice, no card to lay, a draw owed, or a game or sink it does not serve): nothing of
    /// it was done or drawn; play it the general way.
    General,
    /// The play picked for the next turn (its random number drawn) has steps of its own:
    /// nothing else was done; lay it the general way, as the bot's choice.
    Picked(Move),
}

/// The events a turn of the loop would have to report, were they wanted: a sink that wants
/// one of them is served the general way.
const TURN_EVENTS: u32 =
    kind::PLAY | kind::DRAW | kind::FORGOT | kind::SKIP | kind::REVERSE | kind::PLAY_AGAIN;

/// Whether [`random_turns`] can serve this program and sink at all: no script bars, and a
/// sink that wants none of a plain turn's events. (Where players draw by hand, a bot draws
/// right after its card, as [`play_and_draw`](crate::play) has it: the loop does the same.)
#[inline]
pub fn kernel_fits<S: Sink>(p: &Program) -> bool {
    S::WANTS & TURN_EVENTS == 0 && p.script_bars.is_empty()
}

/// What the loop reads once and again after anything the general engine did.
struct Cache<'p> {
    rank_fx: &'p [u16],
    ranks: Ranks<'p>,
    size: usize,
}

impl<'p> Cache<'p> {
    #[inline(always)]
    fn new(p: &'p Program, s: &State) -> Cache<'p> {
        let active = s.active();
        Cache {
            rank_fx: &p.rank_fx[active.min(MAX_SEATS)],
            ranks: p.legal.ranks_with(active),
            size: usize::from(p.hand[s.seats_in_game().clamp(2, MAX_SEATS)]),
        }
    }
}

/// Plays the turns of players who each pick uniformly among their legal plays (`pick(n)`,
/// asked only when there are `n > 1`, answers below `n`), until the game is over or
/// `s.turns` reaches `until`, or a turn comes that the loop leaves to the caller (see
/// [`Kernel`]). The same game, move for move and number for number, as playing each turn
/// with [`table_turn`](super::table_turn) and the general step. Only for a program and sink
/// that [`kernel_fits`]; otherwise it returns [`Kernel::General`] at once.
pub fn random_turns<S: Sink>(
    p: &Program,
    s: &mut State,
    pick: &mut impl FnMut(usize) -> usize,
    until: u64,
    sink: &mut S,
) -> Kernel {
    if !kernel_fits::<S>(p) {
        return Kernel::General;
    }
    let Parts {
        lo,
        width,
        effects,
        cells,
        totals,
    } = p.legal.parts();
    let slots = effects * MAX_CHOICES;
    let copies = p.copies(s.seats);
    let mut c = Cache::new(p, s);
    loop {
        if s.over || s.turns >= until {
            return Kernel::Ran;
        }
        if s.pending_draw.is_some() {
            return Kernel::General;
        }
        let i = s.total.wrapping_sub(lo) as u32;
        if i >= width {
            return Kernel::General;
        }
        let i = i as usize;
        let row = &cells[i * effects..(i + 1) * effects];
        let seat = s.turn;
        let hand = s.hands[usize::from(seat)].cards();
        // The plays, four bits a card, as `State::table_plays` counts them.
        let (mut allowed, mut live) = (0u64, 0u8);
        for (j, &card) in hand.iter().enumerate().take(MAX_HAND) {
            let fx = c.rank_fx.get(usize::from(rank_of(card))).copied();
            let cell = fx.map_or(0, |fx| row.get(usize::from(fx)).copied().unwrap_or(0));
            live |= cell >> 4;
            allowed |= u64::from(cell & 0x0f) << (4 * j);
        }
        if copies {
            allowed &= !repeats(hand);
        }
        let count = allowed.count_ones() as usize;
        if live != 0 || count == 0 {
            return Kernel::General;
        }
        let n = if count == 1 { 0 } else { pick(count) };
        if n >= count {
            // Not an answer `pick` may give; the general way refuses it as the bot's choice.
            return Kernel::General;
        }
        let at = select(allowed, n as u64) as usize;
        let (index, k) = (at / 4, at % 4);
        let card = hand[index];
        let rank = rank_of(card);
        let fx = c
            .rank_fx
            .get(usize::from(rank))
            .copied()
            .unwrap_or(NO_EFFECT);
        let choice = k as u8;
        let Some(ch) = p.choice(fx, k).filter(|ch| ch.simple && !ch.scripted) else {
            return Kernel::Picked(Move::Play { card, choice });
        };
        let total = match totals.get(i * slots..(i + 1) * slots) {
            Some(row) => row[usize::from(fx) * MAX_CHOICES + k],
            None => choice_total(p, ch, &Facts::total(s.total)),
        };
        debug_assert!(super::Illegal::beyond_limits(p, total).is_none());

        // Laid: the card from its place in the hand to the discard pile.
        let old = s.total;
        let card = s.hands[usize::from(seat)].remove(index);
        s.known_not[usize::from(seat)] = 0;
        s.discard.push(card);
        s.laid_by = [seat, s.laid_by[0]];
        s.out_now = 0;
        s.total = total;
        let turn = ch.turn;
        if !p.bars.is_empty() {
            let (a, b) = if old <= total {
                (old, total)
            } else {
                (total, old)
            };
            if p.bars
                .iter()
                .any(|bar| bar.value >= a && bar.value <= b && bar.value != old)
            {
                let by = Acting {
                    actor: seat,
                    reason: Reason::Card(rank),
                    turn,
                };
                bars_touched(p, s, by, old, total, None, sink);
                c = Cache::new(p, s);
            }
        }

        // The turn ends: the round, or the draw and the next player.
        if end_turn(p, s, seat, turn, &c, sink) {
            c = Cache::new(p, s);
        }
    }
}

/// After a plain card of `seat`'s with turn effects `turn`: the round's end, or the draw and
/// the next player; then whoever is to play is dealt with, and the draw by hand is made.
/// `true` when the general engine ran (what the loop read may have changed).
#[inline(always)]
fn end_turn<S: Sink>(
    p: &Program,
    s: &mut State,
    seat: u8,
    turn: Turn,
    c: &Cache<'_>,
    sink: &mut S,
) -> bool {
    let mut stale = false;
    if s.round_over || s.over {
        finish_round(p, s, true, sink);
        s.turns += 1;
        settle(p, s, sink);
        return true;
    }
    if !s.in_round(seat) {
        // Put out by their own card: nothing to draw.
    } else if p.by_hand {
        s.pending_draw = Some(seat);
    } else if s.hands[usize::from(seat)].len() < c.size {
        if s.stock.is_empty() {
            reshuffle(p, s, sink);
        }
        if let Some(card) = s.stock.pop() {
            s.known_not[usize::from(seat)] = 0;
            s.hands[usize::from(seat)].push(card);
        }
    }
    if turn.reverse {
        s.clockwise = !s.clockwise;
    }
    let extra = s.again.saturating_add(turn.again);
    if extra > 0 && s.in_round(seat) {
        s.again = extra - 1;
        s.turn = seat;
    } else {
        s.again = 0;
        let mut next = next_seat(s, seat);
        for _ in 0..turn.skip {
            next = next_seat(s, next);
        }
        s.turn = next;
    }
    s.turns += 1;

    // Whoever is to play can play, most turns: a card of a rank the table allows now.
    let to = s.turn;
    let hand = s.hands[usize::from(to)].cards();
    let held = hand.iter().fold(0u16, |m, &card| m | 1 << rank_of(card));
    let plays = s.in_round(to)
        && !hand.is_empty()
        && c.ranks.at(s.total).is_some_and(|[ok, _]| held & ok != 0);
    let settled = plays || s.over || (s.in_round(to) && !hand.is_empty() && s.can_play(p));
    if !settled {
        settle_slow(p, s, sink);
        stale = true;
    }
    // The draw by hand, right after the card (a game that ends clears the draw owed).
    if s.pending_draw == Some(seat) {
        debug_assert!(!s.over);
        draw_pending(p, s, sink);
        if s.turn == seat {
            // The drawer is to play again, and was asked before the draw.
            stale = true;
        }
    }
    stale
}

/// The next seat in the round from `from` in the direction of play, as
/// [`State::next_seat`] finds it: most turns the seat beside, read here without a call.
#[inline(always)]
fn next_seat(s: &State, from: u8) -> u8 {
    let beside = match (s.clockwise, from) {
        (true, f) if f + 1 >= s.seats => 0,
        (true, f) => f + 1,
        (false, 0) => s.seats - 1,
        (false, f) => f - 1,
    };
    if s.out_of_round & (1 << beside) == 0 {
        beside
    } else {
        s.next_seat(from, s.clockwise)
    }
}
