//! The step function: one move by whoever is to play, then whatever follows until someone can
//! play (or the game is over). Its hot path reads only the compiled tables and allocates
//! nothing; events cost nothing when the sink is `()`.

use super::outcomes::{finish_round, run_list, run_outcomes};
use super::scripts::Pre;
use super::{Event, Illegal, Move, Moves, PlayError, Reason, Sink, State};
use crate::base::cards::{Card, rank_of, same_face};
use crate::ir::{self, AGAIN, Act, Choice, MAX_SEATS, Program, REVERSE, SKIP, choice_total};

impl State {
    /// The legal moves of whoever is to play.
    #[inline]
    pub fn legal_moves(&self, p: &Program) -> Moves {
        let mut moves = Moves::new();
        self.legal_moves_into(p, &mut moves);
        moves
    }

    /// The legal moves of whoever is to play, into a list the caller keeps (no copy of it
    /// per turn).
    #[inline]
    pub fn legal_moves_into(&self, p: &Program, moves: &mut Moves) {
        moves.len = 0;
        if self.over {
            return;
        }
        if self.pending_draw.is_some() {
            moves.push(Move::Draw, self.total);
        }
        let active = self.active();
        let hand = &self.hands[usize::from(self.turn)];
        for (i, &card) in hand.cards().iter().enumerate() {
            // Two copies of one card are one move.
            if hand.cards()[..i].iter().any(|c| same_face(*c, card)) {
                continue;
            }
            let Some(fx) = p.effect_for(active, rank_of(card)) else {
                continue;
            };
            for (k, choice) in fx.choices().iter().enumerate() {
                let total = if choice.scripted {
                    // A script that fails gives the current total: the move is offered, and
                    // playing it reports the failure.
                    self.move_total(p, rank_of(card), choice)
                        .unwrap_or(self.total)
                } else {
                    choice_total(p, choice, self.total)
                };
                if p.allows(total) {
                    moves.push(
                        Move::Play {
                            card,
                            choice: k as u8,
                        },
                        total,
                    );
                }
            }
        }
    }

    #[inline]
    fn can_play(&self, p: &Program) -> bool {
        let active = self.active();
        let hand = self.hands[usize::from(self.turn)].cards();
        // Cards without scripts first: a live script is asked only when no other card will do.
        let playable = |scripted: bool| {
            hand.iter().any(|&card| {
                p.effect_for(active, rank_of(card)).is_some_and(|fx| {
                    fx.choices()
                        .iter()
                        .filter(|c| c.scripted == scripted)
                        .any(|c| {
                            let total = if scripted {
                                self.move_total(p, rank_of(card), c)
                            } else {
                                Some(choice_total(p, c, self.total))
                            };
                            total.is_none_or(|t| p.allows(t))
                        })
                })
            })
        };
        playable(false) || playable(true)
    }
}

/// Applies one move by whoever is to play. An illegal move changes nothing.
#[inline]
pub fn step<S: Sink>(p: &Program, s: &mut State, mv: Move, sink: &mut S) -> Result<(), PlayError> {
    if s.over {
        return Err(PlayError::GameOver);
    }
    match mv {
        Move::Draw => {
            let Some(seat) = s.pending_draw.take() else {
                return Err(PlayError::NoDraw { by_hand: p.by_hand });
            };
            draw(p, s, seat, sink);
            settle(p, s, sink);
            Ok(())
        }
        Move::Play { card, choice } => play(p, s, card, choice, sink),
    }
}

/// Lays a card: checked first (the card in hand, its choice, its scripts, the limits), so a
/// refused move changes nothing.
fn play<S: Sink>(
    p: &Program,
    s: &mut State,
    card: Card,
    choice: u8,
    sink: &mut S,
) -> Result<(), PlayError> {
    let seat = s.turn;
    let hand = &s.hands[usize::from(seat)];
    let Some(index) = hand.cards().iter().position(|c| same_face(*c, card)) else {
        return Err(PlayError::NotInHand { seat, card });
    };
    let rank = rank_of(card);
    let Some(fx) = s.effect(p, rank) else {
        return Err(PlayError::Illegal {
            card,
            why: Illegal::NoEffect,
        });
    };
    let Some(ch) = fx.choices().get(usize::from(choice)) else {
        return Err(PlayError::Illegal {
            card,
            why: Illegal::NoChoice(choice),
        });
    };
    // Scripts run before anything changes: a failing one leaves the game as it was.
    let pre = if ch.scripted || !p.script_bars.is_empty() {
        Some(s.ask_scripts(p, rank, ch).map_err(PlayError::Script)?)
    } else {
        None
    };
    let new_total = pre
        .as_ref()
        .map_or_else(|| choice_total(p, ch, s.total), |pre| pre.total);
    if let Some(why) = Illegal::beyond_limits(p, new_total) {
        return Err(PlayError::Illegal { card, why });
    }
    if let Some(pending) = s.pending_draw.take() {
        s.forgot[usize::from(pending)] = s.forgot[usize::from(pending)].saturating_add(1);
        if S::ON {
            sink.event(Event::Forgot { seat: pending });
        }
    }
    let real = s.hands[usize::from(seat)].remove(index);
    s.discard.push(real);
    let played = run_steps(p, ch, s.total, new_total, pre.as_ref());
    let old = s.total;
    s.total = played.total;
    if S::ON {
        sink.event(Event::Play {
            seat,
            card: real,
            choice,
            total: played.total,
            fx: p.effect_index(s.active(), rank),
        });
    }
    card_outcomes(p, s, seat, rank, &played, pre.as_ref(), sink);
    bars(p, s, seat, old, played.total, pre.as_ref(), sink);
    if s.round_over || s.over {
        finish_round(p, s, sink);
    } else {
        pass_turn(p, s, seat, played.turn, sink);
    }
    s.turns += 1;
    settle(p, s, sink);
    debug_assert!(s.check_invariants(p).is_ok(), "{:?}", s.check_invariants(p));
    Ok(())
}

/// A card's steps, run: the new total, its turn effects, and the outcomes it triggers.
struct Played {
    total: i32,
    /// [`SKIP`], [`REVERSE`], [`AGAIN`] bits.
    turn: u8,
    /// The card's own outcomes, in order: a line's index, or (`true`) a script step's.
    outcomes: [(u16, bool); ir::MAX_STEPS],
    n_out: usize,
}

/// Runs a choice's steps from `old`. A simple choice is one superinstruction (`new_total`,
/// its turn bits); the others run step by step.
fn run_steps(p: &Program, ch: &Choice, old: i32, new_total: i32, pre: Option<&Pre<'_>>) -> Played {
    let mut played = Played {
        total: new_total,
        turn: ch.turn,
        outcomes: [(0, false); ir::MAX_STEPS],
        n_out: 0,
    };
    if ch.simple {
        return played;
    }
    played.total = old;
    played.turn = 0;
    for (k, st) in ch.steps().iter().enumerate() {
        let act = st.act(p, old);
        match act {
            Act::Skip => played.turn |= SKIP,
            Act::Reverse => played.turn ^= REVERSE,
            Act::Again => played.turn |= AGAIN,
            Act::Outcomes(i) => {
                played.outcomes[played.n_out] = (i, false);
                played.n_out += 1;
            }
            Act::Script(_) => {
                if let Some(out) = pre.and_then(|pre| pre.outs[k].as_deref()) {
                    if let Some(n) = out.total {
                        played.total = n;
                    }
                    played.turn |= out.turn & (SKIP | AGAIN);
                    played.turn ^= out.turn & REVERSE;
                    played.outcomes[played.n_out] = (k as u16, true);
                    played.n_out += 1;
                }
            }
            Act::Add(_) | Act::Set(_) | Act::Mul(_) | Act::Div(_) | Act::Nothing => {
                played.total = act.apply(played.total);
            }
        }
    }
    played
}

/// The card's own outcomes: a line's, or a script's.
fn card_outcomes<S: Sink>(
    p: &Program,
    s: &mut State,
    seat: u8,
    rank: u8,
    played: &Played,
    pre: Option<&Pre<'_>>,
    sink: &mut S,
) {
    for &(i, scripted) in &played.outcomes[..played.n_out] {
        match (scripted, pre) {
            (true, Some(pre)) => {
                if let Some(out) = pre.outs[usize::from(i)].as_deref() {
                    run_list(
                        p,
                        s,
                        &out.outcomes,
                        u16::MAX,
                        seat,
                        Reason::Card(rank),
                        sink,
                    );
                }
            }
            _ => run_outcomes(p, s, i, seat, Reason::Card(rank), sink),
        }
    }
}

/// The bars the card reached or passed going from `old` to `t`, and the script bars that
/// fired.
fn bars<S: Sink>(
    p: &Program,
    s: &mut State,
    seat: u8,
    old: i32,
    t: i32,
    pre: Option<&Pre<'_>>,
    sink: &mut S,
) {
    for b in &p.bars {
        let v = b.value;
        let (reach, pass) = if old < v {
            (t == v, t > v)
        } else if old > v {
            (t == v && b.reach_either_way, t < v && b.pass_either_way)
        } else {
            (false, false)
        };
        let (rule, passed, reason) = if reach {
            (b.reach, false, Reason::Reached(v))
        } else if pass {
            (b.pass, true, Reason::Passed(v))
        } else {
            continue;
        };
        if let Some(i) = rule {
            if S::ON {
                sink.event(Event::Bar {
                    seat,
                    value: v,
                    passed,
                });
            }
            run_outcomes(p, s, i, seat, reason, sink);
        }
    }
    if let Some(pre) = pre {
        for (j, b) in p.script_bars.iter().enumerate() {
            if pre.bars & (1 << j) != 0 {
                run_outcomes(p, s, b.outcomes, seat, Reason::Script(j as u16), sink);
            }
        }
    }
}

/// After a card, in a round that goes on: the draw, then whose turn it is.
fn pass_turn<S: Sink>(p: &Program, s: &mut State, seat: u8, turn: u8, sink: &mut S) {
    if !s.in_round(seat) {
        // Put out by their own card: nothing to draw.
    } else if p.by_hand {
        s.pending_draw = Some(seat);
    } else {
        draw(p, s, seat, sink);
    }
    if turn & REVERSE != 0 {
        s.clockwise = !s.clockwise;
        if S::ON {
            sink.event(Event::Reverse {
                clockwise: s.clockwise,
            });
        }
    }
    if turn & AGAIN != 0 && s.in_round(seat) {
        if S::ON {
            sink.event(Event::PlayAgain { seat });
        }
        s.turn = seat;
    } else {
        let mut next = s.next_seat(seat, s.clockwise);
        if turn & SKIP != 0 {
            if S::ON {
                sink.event(Event::Skip { seat: next });
            }
            next = s.next_seat(next, s.clockwise);
        }
        s.turn = next;
    }
}

/// Draws one card for `seat`, if its hand is short, reshuffling the discard pile (all but
/// its top card) into the stock when the stock is empty and the rules say so.
pub(super) fn draw<S: Sink>(p: &Program, s: &mut State, seat: u8, sink: &mut S) {
    let size = usize::from(p.hand[s.seats_in_game().clamp(2, MAX_SEATS)]);
    if s.hands[usize::from(seat)].len() >= size {
        return;
    }
    if s.stock.is_empty() && p.reshuffle && s.discard.len() > 1 {
        let top = s.discard.pop().expect("the discard pile has cards");
        s.stock.append(&mut s.discard);
        s.discard.push(top);
        let n = s.stock.len();
        s.rng.shuffle(&mut s.stock);
        if S::ON {
            sink.event(Event::Reshuffle { cards: n as u16 });
        }
    }
    if let Some(c) = s.stock.pop() {
        s.hands[usize::from(seat)].push(c);
        if S::ON && p.by_hand {
            sink.event(Event::Draw { seat });
        }
    }
}

/// Deals with whoever is to play when they cannot: no cards, or no legal card. Repeats until
/// someone can play or the game is over.
pub(super) fn settle<S: Sink>(p: &Program, s: &mut State, sink: &mut S) {
    let mut passes = 0;
    let mut idle = super::stall::Idle::default();
    while !s.over && !idle.step(s) {
        if !s.in_round(s.turn) {
            s.turn = s.next_seat(s.turn, s.clockwise);
        }
        let seat = s.turn;
        let empty = s.hands[usize::from(seat)].is_empty();
        if !empty && s.can_play(p) {
            return;
        }
        let round = s.round;
        let (trigger, reason) = match (empty, p.triggers.no_cards) {
            (true, Some(i)) => (Some(i), Reason::NoCards),
            _ => (p.triggers.cannot_play, Reason::CannotPlay),
        };
        if S::ON {
            sink.event(if empty {
                Event::NoCards { seat }
            } else {
                Event::CannotPlay { seat }
            });
        }
        if let Some(i) = trigger {
            run_outcomes(p, s, i, seat, reason, sink);
        }
        if s.round_over || s.over {
            finish_round(p, s, sink);
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
            finish_round(p, s, sink);
            passes = 0;
            idle.round_ended(s);
            continue;
        }
        s.turn = s.next_seat(seat, s.clockwise);
    }
}
