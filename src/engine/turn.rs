//! The turn passes: the draw after a card, then whose turn it is (the card's skips and
//! reverse, in the order written), and the stock refilled from the discard pile.

use super::events::kind;
use super::prepared::Prepared;
use super::{Event, Sink, State};
use crate::base::cards::rank_of;
use crate::ir::{Program, Turn};

/// After a card, in a round that goes on: the draw, then whose turn it is.
#[inline(always)]
pub(super) fn pass_turn<S: Sink>(p: &Prepared, s: &mut State, seat: u8, turn: Turn, sink: &mut S) {
    draw_for_card(p, s, seat, sink);
    pass_on(s, seat, turn, sink);
}

/// After `seat`'s card, in a round that goes on: their draw (none when their own card put
/// them out).
#[inline(always)]
pub(super) fn draw_for_card<S: Sink>(p: &Prepared, s: &mut State, seat: u8, sink: &mut S) {
    if s.in_round(seat) {
        // (Put out by their own card: nothing to draw.)
        let size = p.hand_size(s.seats_in_game());
        draw_after_card(p, s, seat, size, sink);
        // A hand a rule left more than a card short draws back up to a full hand (where
        // players draw automatically: a draw by hand is one card). Never so in a program of
        // plain cards, whose hands only ever lose the card laid.
        if !p.plain_cards && !p.by_hand && s.hands[usize::from(seat)].len() < size {
            super::moves::draw_rest(p, s, seat, size, sink);
        }
    }
}

/// Who plays after `seat`'s card with turn effects `turn` (into `s.turn`): the direction
/// reversed, the player's extra turns, the players skipped.
#[inline]
pub(super) fn pass_on<S: Sink>(s: &mut State, seat: u8, turn: Turn, sink: &mut S) {
    // The player's extra turns: those left from before, and this card's.
    let extra = s.again.saturating_add(turn.again);
    let again = extra > 0 && s.in_round(seat);
    let chosen = turn.chosen && s.kept.aim.is_some_and(|x| s.in_round(x));
    let skips = !again && !chosen;
    // The players a line said to skip are passed over with the card's, once the turn passes
    // to another player.
    let turn = if s.kept.skips > 0 && !again {
        let owed = std::mem::take(&mut s.kept.skips);
        Turn {
            skip: turn.skip.saturating_add(owed),
            ..turn
        }
    } else {
        turn
    };
    // Skips said before a reverse are told before it, in the order the card said them.
    if skips && turn.back > 0 && S::WANTS & kind::SKIP != 0 {
        s.skip_from(seat, s.clockwise ^ turn.reverse, turn, |x, back| {
            if back {
                sink.event(Event::Skip { seat: x });
            }
        });
    }
    if turn.reverse {
        s.clockwise = !s.clockwise;
        if S::WANTS & kind::REVERSE != 0 {
            sink.event(Event::Reverse {
                clockwise: s.clockwise,
            });
        }
    }
    if again {
        if S::WANTS & kind::PLAY_AGAIN != 0 {
            sink.event(Event::PlayAgain { seat });
        }
        s.again = extra - 1;
        s.turn = seat;
    } else if chosen && let Some(x) = s.kept.aim {
        // The player the card's player named plays next.
        s.again = 0;
        s.turn = x;
    } else {
        s.again = 0;
        // Skipping goes round the table: with 2 players left, a skip comes back to the
        // player who laid the card.
        let wants = S::WANTS & kind::SKIP != 0;
        s.turn = s.skip_from(seat, s.clockwise, turn, |x, back| {
            if wants && !back {
                sink.event(Event::Skip { seat: x });
            }
        });
    }
}

/// After `seat`'s card: their draw, by hand (owed, made after the next player is dealt
/// with) or from the stock up to `size` cards, the discard pile shuffled in when the stock
/// is empty.
#[inline(always)]
pub(super) fn draw_after_card<S: Sink>(
    p: &Prepared,
    s: &mut State,
    seat: u8,
    size: usize,
    sink: &mut S,
) {
    if p.by_hand {
        s.pending_draw = Some(seat);
    } else {
        draw_up_to(p, s, seat, size, sink);
    }
}

/// Draws one card for `seat`, if its hand is short, reshuffling the discard pile (all but
/// its top card) into the stock when the stock is empty and the rules say so.
#[inline(always)]
pub(super) fn draw<S: Sink>(p: &Prepared, s: &mut State, seat: u8, sink: &mut S) {
    let size = p.hand_size(s.seats_in_game());
    draw_up_to(p, s, seat, size, sink);
}

/// [`draw`] for a hand of `size` cards (the size for the players now in the game).
#[inline(always)]
pub(super) fn draw_up_to<S: Sink>(
    p: &Prepared,
    s: &mut State,
    seat: u8,
    size: usize,
    sink: &mut S,
) {
    if s.hands[usize::from(seat)].len() >= size {
        return;
    }
    if s.stock.is_empty() {
        reshuffle(p, s, sink);
    }
    if let Some(c) = s.stock.pop() {
        s.known_not[usize::from(seat)] = 0;
        s.hands[usize::from(seat)].push(c);
        if S::WANTS & kind::DRAW != 0 && p.by_hand {
            sink.event(Event::Draw { seat });
        }
    }
}

/// The discard pile but its top card becomes the stock, shuffled, when the rules say so.
#[cold]
#[inline(never)]
pub(super) fn reshuffle<S: Sink>(p: &Program, s: &mut State, sink: &mut S) {
    if p.reshuffle && s.discard.len() > 1 {
        // The run on the pile goes on past the gathering: what lay under its top card.
        let run = s.run();
        let top = s.discard.pop().expect("the discard pile has cards");
        s.kept.run_carry = (rank_of(top), run.saturating_sub(1));
        s.discard.move_into(&mut s.stock);
        s.discard.push(top);
        let n = s.stock.len();
        s.rng.shuffle(&mut s.stock);
        s.forget_stock();
        if S::WANTS & kind::RESHUFFLE != 0 {
            sink.event(Event::Reshuffle { cards: n as u16 });
        }
    }
}
