//! Dealing with a player to move who cannot play (no cards, or no legal card): the rule
//! for it, passes, the end of a round no one can play in, until someone can play or the
//! game is over.

use super::events::kind;
use super::kept::trigger_rule;
use super::outcomes::{Acting, finish_round, run_outcomes};
use super::prepared::Prepared;
use super::{Event, Reason, Sink, State};
use crate::ir::TriggerKind;

/// Deals with whoever is to play when they cannot: no cards, or no legal card. Repeats until
/// someone can play or the game is over.
#[inline(always)]
pub(super) fn settle<S: Sink>(p: &Prepared, s: &mut State, sink: &mut S) {
    // Most turns: the next player is in the round and has a card to lay.
    let seat = s.turn;
    if s.over || (s.in_round(seat) && !s.hands[usize::from(seat)].is_empty() && s.can_play(p)) {
        return;
    }
    settle_slow(p, s, sink, false);
}

/// [`settle`] once it has found that the player to move cannot play as things stand (out of
/// the round, no cards, or no card they may lay).
///
/// A player who cannot lay a card but is offered another move is left to choose (their
/// moves are those and a yield); `yielded` says the player to move has just yielded, and
/// the rule for a player who cannot play is theirs.
#[inline(never)]
pub(super) fn settle_slow<S: Sink>(p: &Prepared, s: &mut State, sink: &mut S, yielded: bool) {
    let mut passes = 0;
    let mut idle = super::stall::Idle::default();
    // Whether the player to move is known not to be able to play: `settle` has just asked.
    let mut asked = true;
    let mut offer = !yielded;
    while !s.over && !idle.step(s) {
        if !s.in_round(s.turn) {
            s.turn = s.next_seat(s.turn, s.clockwise);
            s.again = 0;
            asked = false;
        }
        let seat = s.turn;
        let empty = s.hands[usize::from(seat)].is_empty();
        if !empty && !asked && s.can_play(p) {
            return;
        }
        asked = false;
        if !empty && offer && p.more_moves && s.offers_other(p) {
            return;
        }
        offer = true;
        let round = s.round;

        if !empty {
            // Everyone sees it: this player holds none of the ranks that could be laid now.
            let ok = p.legal.ranks(s.active(), s.total).map_or(0, |[ok, _]| ok);
            s.known_not[usize::from(seat)] |= ok;
        }
        if S::WANTS & (kind::NO_CARDS | kind::CANNOT_PLAY) != 0 {
            sink.event(if empty {
                Event::NoCards { seat }
            } else {
                Event::CannotPlay { seat }
            });
        }
        // A player with no cards: the line for them, else the one for a player who cannot
        // play.
        let no_cards = empty
            .then(|| trigger_rule(p, s, TriggerKind::NoCards, seat, sink))
            .flatten()
            .map(|i| (i, Reason::NoCards));
        let rule = no_cards.or_else(|| {
            trigger_rule(p, s, TriggerKind::CannotPlay, seat, sink).map(|i| (i, Reason::CannotPlay))
        });
        if let Some((i, reason)) = rule {
            s.out_now = 0;
            run_outcomes(p, s, i, Acting::new(seat, reason), sink);
        }
        if s.round_over || s.over {
            finish_round(p, s, false, sink);
            passes = 0;
            idle.round_ended(s);
            continue;
        }
        if s.round != round || s.turn != seat || !s.in_round(seat) {
            passes = 0;
            continue;
        }
        // The rule did not take them out of the turn: they pass. A whole table of passes
        // ends the round with no loser, so a game never hangs.
        passes += 1;
        if passes > usize::from(s.seats) {
            s.round_over = true;
            finish_round(p, s, false, sink);
            passes = 0;
            idle.round_ended(s);
            continue;
        }
        s.turn = s.next_seat(seat, s.clockwise);
        s.again = 0;
    }
}
