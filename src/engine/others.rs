//! Moves beside laying a card from the hand (`ir::OtherMove`: discard a chosen card, lay the
//! stock's top card, pass; a yield for a stuck player offered them), and cards that name a
//! player as they are laid ([`Move::Aim`]).

use super::events::kind;
use super::outcomes::{Acting, run_outcomes};
use super::prepared::Prepared;
use super::step::{Named, end_turn, pass_on, play, reshuffle, settle_slow};
use super::{Event, Move, Moves, PlayError, Reason, Sink, State};
use crate::base::cards::{Card, rank_of, same_face};
use crate::ir::{MAX_HAND, OtherKind, OtherMove, OtherWhen, Turn};
use std::ops::ControlFlow;

impl State {
    /// [`State::legal_moves_into`] for a ruleset with moves beside laying a card or cards
    /// that name a player: each such card once for each player it may name, then the other
    /// moves open now (and a yield for a player who cannot lay a card).
    #[inline(never)]
    pub(super) fn more_moves_into(&self, p: &Prepared, moves: &mut Moves) {
        self.each_legal(p, |mv, total| moves.push(mv, total));
    }

    /// Calls `f` with each legal move of the player to move (but a draw by hand) and the
    /// total it makes, in [`State::legal_moves`]' order: the cards (a card that names a
    /// player once for each player it may name), then the moves beside laying one open now,
    /// then, for a player who cannot lay a card and is offered another move, the yield. For
    /// a player who only needs to count or pick the moves: no list is built.
    pub fn each_legal(&self, p: &Prepared, mut f: impl FnMut(Move, i32)) {
        if self.over {
            return;
        }
        let mut plays = 0;
        self.scan::<true>(p, |play| {
            plays += 1;
            let ch = p
                .choice(play.fx, usize::from(play.choice))
                .filter(|_| p.more_moves);
            let aims = ch.is_some_and(|c| c.aims);
            let gives = ch.is_some_and(|c| c.gives);
            let mut named = false;
            if gives {
                for gift in self.giftable(play.card) {
                    named = true;
                    let mv = Move::Give {
                        card: play.card,
                        choice: play.choice,
                        gift,
                    };
                    f(mv, play.total);
                }
            }
            if aims {
                for seat in self.nameable() {
                    named = true;
                    let mv = Move::Aim {
                        card: play.card,
                        choice: play.choice,
                        seat,
                    };
                    f(mv, play.total);
                }
            }
            if !named {
                f(play.mv(), play.total);
            }
            ControlFlow::Continue(())
        });
        if !p.others.is_empty() {
            self.each_other(p, plays == 0, &mut f);
        }
    }

    /// The seats the player to move may name with a card that names a player: every other
    /// player in the round.
    pub fn nameable(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.seats).filter(move |&x| x != self.turn && self.in_round(x))
    }

    /// The cards the player to move may give as they lay `card` (a card of their choice):
    /// every other card of their hand, two copies of one card once.
    pub fn giftable(&self, card: Card) -> impl Iterator<Item = Card> + '_ {
        let hand = self.hands[usize::from(self.turn)].cards();
        // The card laid leaves the hand first: one copy of it is not among the gifts.
        let laid = hand.iter().position(|&c| c == card);
        hand.iter()
            .enumerate()
            .filter(move |&(i, _)| Some(i) != laid)
            .filter(move |&(i, &c)| {
                !hand[..i]
                    .iter()
                    .enumerate()
                    .any(|(j, &x)| Some(j) != laid && same_face(x, c))
            })
            .map(|(_, &c)| c)
    }

    /// Whether move `o` can be made now by the player to move, who can (`stuck` false) or
    /// cannot lay a card of their hand.
    fn other_open(&self, p: &Prepared, o: &OtherMove, stuck: bool) -> bool {
        if o.when == OtherWhen::Stuck && !stuck {
            return false;
        }
        let hand = &self.hands[usize::from(self.turn)];
        if hand.is_empty() || !self.in_round(self.turn) {
            return false;
        }
        match o.kind {
            OtherKind::Discard(ranks) => hand.cards().iter().any(|c| ranks & 1 << rank_of(*c) != 0),
            OtherKind::LayTop => {
                hand.len() < MAX_HAND
                    && (!self.stock.is_empty() || (p.reshuffle && self.discard.len() > 1))
            }
            OtherKind::Pass => true,
        }
    }

    /// Whether the player to move, who cannot lay a card, is offered a move beside it (then
    /// they choose, a yield among the moves, before the rule for a player who cannot play
    /// runs).
    pub(super) fn offers_other(&self, p: &Prepared) -> bool {
        p.others.iter().any(|o| self.other_open(p, o, true))
    }

    /// Calls `f` with the moves beside laying a card open now, then, for a player who cannot
    /// lay one (`stuck`) and was offered any, the yield.
    fn each_other(&self, p: &Prepared, stuck: bool, f: &mut impl FnMut(Move, i32)) {
        let mut offered = false;
        let hand = self.hands[usize::from(self.turn)].cards();
        for (i, o) in p.others.iter().enumerate() {
            if !self.other_open(p, o, stuck) {
                continue;
            }
            let index = i as u8;
            match o.kind {
                OtherKind::Discard(ranks) => {
                    for (k, &card) in hand.iter().enumerate() {
                        // Two copies of one card are one move.
                        if ranks & 1 << rank_of(card) != 0
                            && !hand[..k].iter().any(|c| same_face(*c, card))
                        {
                            offered = true;
                            f(Move::Other { index, card }, self.total);
                        }
                    }
                }
                OtherKind::LayTop | OtherKind::Pass => {
                    offered = true;
                    f(Move::Other { index, card: 0 }, self.total);
                }
            }
        }
        if stuck && offered {
            f(Move::Yield, self.total);
        }
    }
}

/// Lays `card` with `choice`, naming `seat`.
pub(super) fn aimed<S: Sink>(
    p: &Prepared,
    s: &mut State,
    card: Card,
    choice: u8,
    seat: u8,
    sink: &mut S,
) -> Result<(), PlayError> {
    if !s.nameable().any(|x| x == seat) {
        return Err(PlayError::NotOffered(
            "the player named must be another player still in the round",
        ));
    }
    play(p, s, card, choice, Named::Seat(seat), sink)
}

/// Lays `card` with `choice`, giving `gift` (another card of the hand) as its line says.
pub(super) fn giving<S: Sink>(
    p: &Prepared,
    s: &mut State,
    card: Card,
    choice: u8,
    gift: Card,
    sink: &mut S,
) -> Result<(), PlayError> {
    if !s.giftable(card).any(|c| same_face(c, gift)) {
        return Err(PlayError::NotOffered(
            "the card given must be another card of the player's hand",
        ));
    }
    play(p, s, card, choice, Named::Gift(gift), sink)
}

/// Move `index` of the ruleset's moves beside laying a card, naming `card` (for a discard).
pub(super) fn other<S: Sink>(
    p: &Prepared,
    s: &mut State,
    index: u8,
    card: Card,
    sink: &mut S,
) -> Result<(), PlayError> {
    let Some(o) = p.others.get(usize::from(index)) else {
        return Err(PlayError::NotOffered("the rules have no such move"));
    };
    let stuck = !s.can_play(p);
    if !s.other_open(p, o, stuck) {
        return Err(PlayError::NotOffered(match o.when {
            OtherWhen::Stuck => "only a player who cannot play may make it",
            OtherWhen::Instead => "it cannot be made now",
        }));
    }
    let seat = s.turn;
    let by = Acting::new(seat, Reason::Other(index));
    match o.kind {
        OtherKind::Discard(ranks) => {
            let hand = &s.hands[usize::from(seat)];
            let found = hand.find(card).filter(|_| ranks & 1 << rank_of(card) != 0);
            let Some(at) = found else {
                return Err(PlayError::NotOffered(
                    "the card to discard must be one of the hand that the rule names",
                ));
            };
            let total = s.total;
            let card = super::step::lay_card!(s, seat, at, total, remove);
            s.forget_card(card);
            if S::WANTS & kind::OTHER != 0 {
                sink.event(Event::Other {
                    seat,
                    index,
                    card,
                    laid: false,
                });
            }
            if let Some(i) = o.then {
                run_outcomes(p, s, i, by, sink);
            }
            end_turn(p, s, seat, Turn::default(), sink);
        }
        OtherKind::Pass => {
            if S::WANTS & kind::OTHER != 0 {
                sink.event(Event::Other {
                    seat,
                    index,
                    card: 0,
                    laid: false,
                });
            }
            if let Some(i) = o.then {
                run_outcomes(p, s, i, by, sink);
            }
            end_without_card(p, s, seat, sink);
        }
        OtherKind::LayTop => lay_top(p, s, index, o, sink)?,
    }
    Ok(())
}

/// The stock's top card turned up and laid the first way the rules allow, or, when none
/// does, put on the discard pile for nothing and the line's outcomes (or the rule for a
/// player who cannot play) run.
fn lay_top<S: Sink>(
    p: &Prepared,
    s: &mut State,
    index: u8,
    o: &OtherMove,
    sink: &mut S,
) -> Result<(), PlayError> {
    let seat = s.turn;
    if s.stock.is_empty() {
        reshuffle(p, s, sink);
    }
    let Some(card) = s.stock.pop() else {
        return Err(PlayError::NotOffered("the stock is empty"));
    };
    s.hands[usize::from(seat)].push(card);
    let at = s.hands[usize::from(seat)].len() - 1;
    // The first way the card may be laid (the one just turned up: the last of the hand).
    let mut first = None;
    s.each_play_read(p, |play| {
        if play.card == card {
            first = Some(play.choice);
            return std::ops::ControlFlow::Break(());
        }
        std::ops::ControlFlow::Continue(())
    });
    if S::WANTS & kind::OTHER != 0 {
        sink.event(Event::Other {
            seat,
            index,
            card,
            laid: first.is_some(),
        });
    }
    if let Some(choice) = first {
        match play(p, s, card, choice, Named::Blind, sink) {
            Ok(()) => return Ok(()),
            // A script of the card failed: it goes down for nothing, as one that cannot be
            // laid (the game goes on; the failure is not the player's).
            Err(PlayError::Script(_)) => {}
            Err(e) => return Err(e),
        }
    }
    let at = s.hands[usize::from(seat)]
        .cards()
        .iter()
        .rposition(|c| *c == card)
        .unwrap_or(at);
    let total = s.total;
    let card = super::step::lay_card!(s, seat, at, total, remove);
    s.forget_card(card);
    let (rule, reason) = match o.failed {
        Some(i) => (Some(i), Reason::Other(index)),
        None => (
            super::kept::trigger_rule(p, s, crate::ir::TriggerKind::CannotPlay, seat, sink),
            Reason::CannotPlay,
        ),
    };
    if let Some(i) = rule {
        s.out_now = 0;
        run_outcomes(p, s, i, Acting::new(seat, reason), sink);
    }
    end_without_card(p, s, seat, sink);
    Ok(())
}

/// The turn of a move that took no card from the hand: the round ends, or the turn passes
/// (nothing to draw); then whoever cannot play is dealt with.
fn end_without_card<S: Sink>(p: &Prepared, s: &mut State, seat: u8, sink: &mut S) {
    if s.round_over || s.over {
        super::outcomes::finish_round(p, s, true, sink);
    } else {
        pass_on(s, seat, Turn::default(), sink);
    }
    s.turns += 1;
    super::step::settle(p, s, sink);
}

/// A player who cannot play, offered other moves, takes the rule for a player who cannot
/// play instead.
pub(super) fn yield_turn<S: Sink>(
    p: &Prepared,
    s: &mut State,
    sink: &mut S,
) -> Result<(), PlayError> {
    if !p.more_moves
        || s.hands[usize::from(s.turn)].is_empty()
        || s.can_play(p)
        || !s.offers_other(p)
    {
        return Err(PlayError::NotOffered(
            "only a player who cannot play, and is offered another move, may yield",
        ));
    }
    s.turns += 1;
    settle_slow(p, s, sink, true);
    Ok(())
}
