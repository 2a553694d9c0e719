//! The step function: one move by whoever is to play, then whatever follows until someone can
//! play (or the game is over). Its hot path reads only the compiled tables and allocates
//! nothing; events cost nothing when the sink is `()`.

use super::prepared::Prepared;
use std::ops::ControlFlow;

use super::events::kind;
use super::outcomes::{Acting, finish_round, run_list, run_outcomes};
use super::scripts::Pre;
pub(super) use super::settle::{settle, settle_slow};
use super::turn::pass_turn;
pub(super) use super::turn::{draw, draw_after_card, draw_for_card, pass_on, reshuffle};
use super::{Event, Illegal, Move, Moves, PlayError, Reason, Sink, State};
use crate::base::cards::{Card, rank_of, same_face};
use crate::ir::{self, Act, Choice, MAX_SEATS, Program, choice_total};
use crate::ir::{Facts, Turn};

impl State {
    /// What a condition may look at when the player to move lays a card now.
    #[inline]
    pub fn facts(&self, p: &Program) -> Facts {
        let hand = self.hands[usize::from(self.turn)].len();
        if !p.reads_table {
            // What the ruleset can read: the player's situation alone.
            return Facts {
                total: self.total,
                chips: self.chips_of(p, self.turn),
                cards_left: hand.saturating_sub(1) as u8,
                players_left: self.active() as u8,
                previous: self.discard.last().map(|c| rank_of(*c)),
                ..Facts::default()
            };
        }
        Facts {
            cards_left: hand.saturating_sub(1) as u8,
            ..self.facts_of(p, self.turn)
        }
    }

    /// The legal moves of whoever is to play.
    #[inline]
    pub fn legal_moves(&self, p: &Prepared) -> Moves {
        let mut moves = Moves::new();
        self.legal_moves_into(p, &mut moves);
        moves
    }

    /// The legal moves of whoever is to play, into a list the caller keeps (no copy of it
    /// per turn).
    #[inline]
    pub fn legal_moves_into(&self, p: &Prepared, moves: &mut Moves) {
        moves.len = 0;
        if self.over {
            return;
        }
        if self.pending_draw.is_some() {
            moves.push(Move::Draw, self.total);
        }
        if p.more_moves {
            return self.more_moves_into(p, moves);
        }
        self.each_play(p, |mv, total| {
            moves.push(mv, total);
            ControlFlow::Continue(())
        });
    }

    /// Calls `f` with each card the player to move may lay (each choice of a card is one
    /// move) and the total it makes, in hand order, until `f` breaks. Draws are not plays.
    /// Most answers are read from the program's legal-choice table; live choices (conditions
    /// on the player, scripts) and totals outside the table are worked out.
    #[inline]
    pub fn each_play(&self, p: &Prepared, mut f: impl FnMut(Move, i32) -> ControlFlow<()>) {
        self.scan::<true>(p, |play| f(play.mv(), play.total));
    }

    /// [`State::each_play`] with what the scan has read about each play on the way: its
    /// card's rank and effect, for a player who weighs the moves (no look-up made twice).
    #[inline]
    pub fn each_play_read(&self, p: &Prepared, f: impl FnMut(Play) -> ControlFlow<()>) {
        self.scan::<true>(p, f);
    }

    /// [`State::each_play`] without the totals (`f` gets the current total instead): for a
    /// player who only needs the moves, most of them are then a table read and nothing more.
    #[inline]
    pub fn each_move(&self, p: &Prepared, mut f: impl FnMut(Move) -> ControlFlow<()>) {
        self.scan::<false>(p, |play| f(play.mv()));
    }

    #[inline(always)]
    pub(super) fn scan<const TOTALS: bool>(
        &self,
        p: &Prepared,
        mut f: impl FnMut(Play) -> ControlFlow<()>,
    ) {
        if self.over {
            return;
        }
        let rank_fx = &p.rank_fx[self.active().min(MAX_SEATS)];
        let row = p.legal.row(self.total);
        // The situation and the limits, worked out once for every live choice of the hand.
        let mut now: Option<super::kept::Now> = None;
        let hand = self.hands[usize::from(self.turn)].cards();
        let copies = p.copies(self.seats);
        for (i, &card) in hand.iter().enumerate() {
            // Two copies of one card are one move.
            if copies && hand[..i].iter().any(|c| same_face(*c, card)) {
                continue;
            }
            let rank = rank_of(card);
            let Some(&fx_index) = rank_fx.get(usize::from(rank)) else {
                continue;
            };
            let (allowed, live) = match row {
                Some(row) => row.get(fx_index),
                None => (0, 0x0f),
            };
            if allowed | live == 0 {
                continue;
            }
            let Some(fx) = p.effects.get(usize::from(fx_index)) else {
                continue;
            };
            let mut bits = (allowed | live) & ((1u8 << fx.len) - 1);
            while bits != 0 {
                let k = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let choice = &fx.choices[k];
                let total = if allowed & (1 << k) == 0 {
                    let now = now.get_or_insert_with(|| super::kept::Now::of(p, self));
                    match self.live_total(p, rank, choice, now) {
                        Some(t) => t,
                        None => continue,
                    }
                } else if TOTALS {
                    // What a choice the table answers may read: the total alone; the table
                    // holds it, unless it would be too big.
                    match row.and_then(|row| row.total(fx_index, k)) {
                        Some(t) => t,
                        None => choice_total(p, choice, &Facts::total(self.total)),
                    }
                } else {
                    self.total
                };
                let play = Play {
                    card,
                    choice: k as u8,
                    rank,
                    fx: fx_index,
                    total,
                };
                if f(play).is_break() {
                    return;
                }
            }
        }
    }

    /// The total a live choice makes now, if the limits allow it. A script that fails gives
    /// the current total: the move is offered, and playing it reports the failure.
    #[inline(never)]
    fn live_total(
        &self,
        p: &Prepared,
        rank: u8,
        choice: &Choice,
        now: &super::kept::Now,
    ) -> Option<i32> {
        let t = if choice.scripted {
            self.move_total(p, rank, choice).unwrap_or(self.total)
        } else {
            choice_total(p, choice, &now.facts)
        };
        now.allows(p, t).then_some(t)
    }

    /// Whether the player to move holds a card they may lay. A live script is asked only when
    /// no other card will do.
    #[inline(always)]
    pub(super) fn can_play(&self, p: &Prepared) -> bool {
        let Some([ok, live]) = p.legal.ranks(self.active(), self.total) else {
            return self.can_play_live(p);
        };
        let held = self.hands[usize::from(self.turn)]
            .cards()
            .iter()
            .fold(0u16, |m, &c| m | 1 << rank_of(c));
        held & ok != 0 || (held & live != 0 && self.can_play_live(p))
    }

    /// [`State::can_play`] for the choices the table leaves to the engine: cards without
    /// scripts first.
    #[inline(never)]
    fn can_play_live(&self, p: &Prepared) -> bool {
        let active = self.active();
        let now = super::kept::Now::of(p, self);
        let facts = now.facts;
        let hand = self.hands[usize::from(self.turn)].cards();
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
                                Some(choice_total(p, c, &facts))
                            };
                            total.is_none_or(|t| now.allows(p, t))
                        })
                })
            })
        };
        playable(false) || playable(true)
    }
}

/// A card the player to move may lay, as [`State::each_play_read`] finds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Play {
    pub card: Card,
    pub choice: u8,
    /// The card's rank, and the index of its effect in [`Program::effects`].
    pub rank: u8,
    pub fx: u16,
    /// The total the play makes (with [`State::each_move`], the total before it).
    pub total: i32,
}

impl Play {
    #[inline(always)]
    pub fn mv(self) -> Move {
        Move::Play {
            card: self.card,
            choice: self.choice,
        }
    }
}

/// Applies one move by whoever is to play. An illegal move changes nothing.
#[inline]
pub fn step<S: Sink>(p: &Prepared, s: &mut State, mv: Move, sink: &mut S) -> Result<(), PlayError> {
    if s.over {
        return Err(PlayError::GameOver);
    }
    match mv {
        Move::Draw => {
            if s.pending_draw.is_none() {
                return Err(PlayError::NoDraw { by_hand: p.by_hand });
            }
            // The card before was settled: the player to move can play. A draw changes only
            // the drawer's hand, so only a drawer who is also to move is asked again.
            draw_pending(p, s, sink);
            Ok(())
        }
        Move::Play { card, choice } => play(p, s, card, choice, Named::No, sink),
        Move::Aim { card, choice, seat } => super::others::aimed(p, s, card, choice, seat, sink),
        Move::Give { card, choice, gift } => super::others::giving(p, s, card, choice, gift, sink),
        Move::Other { index, card } => super::others::other(p, s, index, card, sink),
        Move::Yield => super::others::yield_turn(p, s, sink),
    }
}

/// Whom a card laid names, for a choice that names a player (`choose who plays next`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Named {
    /// No one: the move is a plain [`Move::Play`].
    No,
    /// The seat a [`Move::Aim`] carries.
    Seat(u8),
    /// The card of the hand a [`Move::Give`] gives away.
    Gift(Card),
    /// The card was turned up from the stock and laid blind: it names no one.
    Blind,
}

/// Lays a card: checked first (the card in hand, its choice, its scripts, the limits), so a
/// refused move changes nothing.
pub(super) fn play<S: Sink>(
    p: &Prepared,
    s: &mut State,
    card: Card,
    choice: u8,
    named: Named,
    sink: &mut S,
) -> Result<(), PlayError> {
    let seat = s.turn;
    let hand = &s.hands[usize::from(seat)];
    let found = if p.copies(s.seats) {
        hand.find(card)
    } else {
        hand.find_single(card)
    };
    let Some(index) = found else {
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
    if ch.simple && !ch.scripted && p.plain_cards {
        // The common case: one folded instruction on the total, turn effects, no outcomes
        // of the card's own, no script to ask.
        let new_total = choice_total(p, ch, &Facts::total(s.total));
        if let Some(why) = s.beyond_limits(p, new_total) {
            return Err(PlayError::Illegal { card, why });
        }
        lay_simple(p, s, index, choice, ch, new_total, sink);
        return Ok(());
    }
    if p.more_moves {
        match (ch.aims, ch.gives, named) {
            (true, _, Named::No) if s.nameable().next().is_some() => {
                return Err(PlayError::NotOffered(
                    "this card names a player as it is laid: say which",
                ));
            }
            (false, _, Named::Seat(_)) => {
                return Err(PlayError::NotOffered("this card names no player"));
            }
            (_, true, Named::No) if s.hands[usize::from(seat)].len() > 1 => {
                return Err(PlayError::NotOffered(
                    "this card gives a card of the player's choice as it is laid: say which",
                ));
            }
            (_, false, Named::Gift(_)) => {
                return Err(PlayError::NotOffered(
                    "this card gives no card of the player's choice",
                ));
            }
            _ => {}
        }
    }
    // Scripts run before anything changes: a failing one leaves the game as it was.
    let pre = if ch.scripted || !p.script_bars.is_empty() {
        Some(s.ask_scripts(p, rank, ch).map_err(PlayError::Script)?)
    } else {
        None
    };
    let facts = s.facts(p);
    let new_total = pre
        .as_ref()
        .map_or_else(|| choice_total(p, ch, &facts), |pre| pre.total);
    if let Some(why) = s.beyond_limits(p, new_total) {
        return Err(PlayError::Illegal { card, why });
    }
    let played = run_steps(p, ch, &facts, new_total, pre.as_ref());
    let old = s.total;
    lay(p, s, index, choice, played.total, sink);
    if let Named::Gift(c) = named {
        s.kept.gift = Some(c);
    }
    if let Named::Seat(x) = named {
        s.kept.aim = Some(x);
        if S::WANTS & kind::OTHER != 0 {
            sink.event(Event::Chose {
                seat,
                chosen: x,
                next: played.turn.chosen,
            });
        }
    }
    let by = Acting {
        actor: seat,
        reason: Reason::Card(rank),
        turn: played.turn,
    };
    card_outcomes(p, s, by, &played, pre.as_ref(), sink);
    bars(p, s, by, old, played.total, pre.as_ref(), sink);
    if p.after_card_moments && !(s.round_over || s.over) {
        // The order of a turn: the card, its bars, the player's draw, then the moments
        // after each card (which see the stock and the hand as the next player will), then
        // whose turn it is. `the previous card` there is the card under this one, as in
        // the card's own line.
        let under = s.discard.iter().rev().nth(1).map(|c| rank_of(*c));
        draw_for_card(p, s, seat, sink);
        super::kept::after_card(p, s, by, under, sink);
        if s.round_over || s.over {
            finish_round(p, s, true, sink);
        } else {
            pass_on(s, seat, played.turn, sink);
        }
        s.turns += 1;
        settle(p, s, sink);
    } else {
        end_turn(p, s, seat, played.turn, sink);
    }
    s.kept.aim = None;
    s.kept.gift = None;
    Ok(())
}

/// Lays the card at `index` of the mover's hand with `choice`, a simple one (`ch`: a new
/// total, turn effects, nothing of its own to run) that makes `total`, which the limits
/// allow; then the bars it touched, and the turn ends. No script bar may be in the game.
#[inline(always)]
pub(super) fn lay_simple<S: Sink>(
    p: &Prepared,
    s: &mut State,
    index: usize,
    choice: u8,
    ch: &Choice,
    total: i32,
    sink: &mut S,
) {
    let seat = s.turn;
    let old = s.total;
    let rank = rank_of(s.hands[usize::from(seat)].cards()[index]);
    lay(p, s, index, choice, total, sink);
    let by = Acting {
        actor: seat,
        reason: Reason::Card(rank),
        turn: ch.turn,
    };
    if !p.bars.is_empty() {
        bars(p, s, by, old, total, None, sink);
    }
    end_turn(p, s, seat, ch.turn, sink);
}

/// The draw by hand of the player who has just laid a card, as [`step`] makes it.
#[inline(always)]
pub(super) fn draw_pending<S: Sink>(p: &Prepared, s: &mut State, sink: &mut S) {
    if let Some(seat) = s.pending_draw.take() {
        draw(p, s, seat, sink);
        if seat == s.turn {
            settle(p, s, sink);
        }
    }
}

/// The card at `index` of the mover's hand goes onto the discard pile and the total becomes
/// `total` (a draw the mover's predecessor still owed is forgotten).
#[inline(always)]
fn lay<S: Sink>(p: &Prepared, s: &mut State, index: usize, choice: u8, total: i32, sink: &mut S) {
    let seat = s.turn;
    if let Some(pending) = s.pending_draw.take() {
        s.forgot[usize::from(pending)] = s.forgot[usize::from(pending)].saturating_add(1);
        if S::WANTS & kind::FORGOT != 0 {
            sink.event(Event::Forgot { seat: pending });
        }
    }
    let card = lay_card!(s, seat, index, total, remove);
    s.forget_card(card);
    if S::WANTS & kind::PLAY != 0 {
        sink.event(Event::Play {
            seat,
            card,
            choice,
            total,
            fx: p.effect_index(s.active(), rank_of(card)),
        });
    }
}

/// What laying a card changes on the table, for the step and the loop of plain turns alike:
/// the card at `$index` of `$seat`'s hand goes onto the discard pile, and the total becomes
/// `$total`; the card laid is the macro's value. `$remove` is how the hand gives it up
/// (`remove`, or `remove_early` for a card known to be in its first eight slots). A macro,
/// not a function: the loop's hot turn keeps its registers as if it were written there (an
/// inlined function measured 3.6% more instructions a card there, its values spilled).
macro_rules! lay_card {
    ($s:expr, $seat:expr, $index:expr, $total:expr, $remove:ident) => {{
        let s: &mut State = $s;
        let seat: u8 = $seat;
        let card = s.hands[usize::from(seat)].$remove($index);
        s.known_not[usize::from(seat)] = 0;
        s.discard.push(card);
        s.laid_by = [seat, s.laid_by[0]];
        // Who goes out because of this card goes out together.
        s.out_now = 0;
        s.total = $total;
        card
    }};
}
pub(super) use lay_card;

/// After a card and its outcomes: the round ends, or the turn passes; then whoever cannot
/// play is dealt with.
#[inline(always)]
pub(super) fn end_turn<S: Sink>(p: &Prepared, s: &mut State, seat: u8, turn: Turn, sink: &mut S) {
    if s.round_over || s.over {
        finish_round(p, s, true, sink);
    } else {
        pass_turn(p, s, seat, turn, sink);
    }
    s.turns += 1;
    settle(p, s, sink);
    debug_assert!(s.check_invariants(p).is_ok(), "{:?}", s.check_invariants(p));
}

/// The turn effects of `ch`, a choice with no script, laid now by the player to move, when
/// none of its outcomes fires: its steps run with the game as it stands, as laying it with
/// [`step`] runs them. `None` when one fires (always for a script's step).
#[inline(never)]
pub(super) fn calm_turn(p: &Prepared, s: &State, ch: &Choice) -> Option<Turn> {
    let facts = s.facts(p);
    let played = run_steps(p, ch, &facts, choice_total(p, ch, &facts), None);
    // Without the script's answer, `run_steps` passes over a script's step: never laid so.
    (played.n_out == 0 && !ch.scripted).then_some(played.turn)
}

/// A card's steps, run: the new total, its turn effects, and the outcomes it triggers.
struct Played {
    total: i32,
    turn: Turn,
    /// The card's own outcomes, in order: a line's index, or (`true`) a script step's.
    outcomes: [(u16, bool); ir::MAX_STEPS],
    n_out: usize,
}

/// Runs a choice's steps in situation `f`. A simple choice is one superinstruction
/// (`new_total`, its turn effects); the others run step by step.
fn run_steps(
    p: &Prepared,
    ch: &Choice,
    f: &Facts,
    new_total: i32,
    pre: Option<&Pre<'_>>,
) -> Played {
    let mut played = Played {
        total: new_total,
        turn: ch.turn,
        outcomes: [(0, false); ir::MAX_STEPS],
        n_out: 0,
    };
    if ch.simple {
        return played;
    }
    played.total = f.total;
    played.turn = Turn::default();
    for (k, st) in ch.steps().iter().enumerate() {
        let act = st.act(p, f);
        match act {
            Act::Skip(_) | Act::Reverse | Act::Again(_) | Act::ChooseNext => {
                played.turn = played.turn.and(Turn::of(act));
            }
            Act::Outcomes(i) => {
                played.outcomes[played.n_out] = (i, false);
                played.n_out += 1;
            }
            Act::Script(_) => {
                if let Some(out) = pre.and_then(|pre| pre.outs[k].as_deref()) {
                    if let Some(n) = out.total {
                        played.total = n;
                    }
                    played.turn = played.turn.and(out.turn);
                    played.outcomes[played.n_out] = (k as u16, true);
                    played.n_out += 1;
                }
            }
            Act::Add(_)
            | Act::Set(_)
            | Act::Mul(_)
            | Act::Div(_)
            | Act::Nothing
            | Act::Value(_) => {
                played.total = act.apply_in(p, f, played.total);
            }
        }
    }
    played
}

/// The card's own outcomes: a line's, or a script's.
fn card_outcomes<S: Sink>(
    p: &Prepared,
    s: &mut State,
    by: Acting,
    played: &Played,
    pre: Option<&Pre<'_>>,
    sink: &mut S,
) {
    for &(i, scripted) in &played.outcomes[..played.n_out] {
        match (scripted, pre) {
            (true, Some(pre)) => {
                if let Some(out) = pre.outs[usize::from(i)].as_deref() {
                    run_list(p, s, &out.outcomes, u16::MAX, by, sink);
                }
            }
            _ => run_outcomes(p, s, i, by, sink),
        }
    }
}

/// The bars the card reached or passed going from `old` to `t`, and the script bars that
/// fired. Most moves touch no bar: that is checked first, in a tight loop.
#[inline(always)]
fn bars<S: Sink>(
    p: &Prepared,
    s: &mut State,
    by: Acting,
    old: i32,
    t: i32,
    pre: Option<&Pre<'_>>,
    sink: &mut S,
) {
    if pre.is_some() || touches_bar(p, old, t) {
        bars_touched(p, s, by, old, t, pre, sink);
    }
}

/// Whether a card that took the total from `old` to `t` reached or passed a bar.
#[inline(always)]
pub(super) fn touches_bar(p: &Prepared, old: i32, t: i32) -> bool {
    let (lo, hi) = if old <= t { (old, t) } else { (t, old) };
    p.bars
        .iter()
        .any(|b| b.value >= lo && b.value <= hi && b.value != old)
}

#[inline(never)]
pub(super) fn bars_touched<S: Sink>(
    p: &Prepared,
    s: &mut State,
    by: Acting,
    old: i32,
    t: i32,
    pre: Option<&Pre<'_>>,
    sink: &mut S,
) {
    let (lo, hi) = if old <= t { (old, t) } else { (t, old) };
    for b in &p.bars {
        let v = b.value;
        // A bar the move did not touch (most of them, most turns).
        if v < lo || v > hi || v == old {
            continue;
        }
        let (reach, pass) = if old < v {
            (t == v && b.reach_way.up(), t > v && b.pass_way.up())
        } else if old > v {
            (t == v && b.reach_way.down(), t < v && b.pass_way.down())
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
            if S::WANTS & kind::BAR != 0 {
                sink.event(Event::Bar {
                    seat: by.actor,
                    value: v,
                    passed,
                });
            }
            run_outcomes(p, s, i, Acting { reason, ..by }, sink);
        }
    }
    if let Some(pre) = pre {
        for (j, b) in p.script_bars.iter().enumerate() {
            if pre.bars & (1 << j) != 0 {
                if S::WANTS & kind::MOMENT != 0 {
                    sink.event(Event::Moment {
                        seat: by.actor,
                        rule: b.outcomes,
                    });
                }
                let reason = Reason::Script(j as u16);
                run_outcomes(p, s, b.outcomes, Acting { reason, ..by }, sink);
            }
        }
    }
}
