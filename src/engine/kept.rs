//! What the table keeps and the rules read from it: the counts (`the run`, `the cards laid
//! this round`, a player's `points`), amounts worked out from them, the limits that move with
//! them, and the moments whose rules run at a point of the game. Nothing here is on the hot
//! path of a plain card: a program that reads any of it goes the general way.

use super::events::kind;
use super::outcomes::{Acting, resolve_first, run_outcomes};
use super::{Event, Illegal, Reason, Sink, State};
use crate::base::cards::rank_of;
use crate::ir::{Amount, Facts, MAX_SEATS, MomentKind, Program, Quantity};

impl State {
    /// The cards of one rank laid in a row, ending with the card on top of the discard pile
    /// (a run the pile held when it was gathered into the stock counts on).
    pub fn run(&self) -> u8 {
        let Some(&top) = self.discard.last() else {
            return 0;
        };
        let rank = rank_of(top);
        let k = self
            .discard
            .iter()
            .rev()
            .take_while(|&&c| rank_of(c) == rank)
            .count();
        let carried = if k == self.discard.len() && self.kept.run_carry.0 == rank {
            usize::from(self.kept.run_carry.1)
        } else {
            0
        };
        (k + carried).min(usize::from(u8::MAX)) as u8
    }

    /// The cards laid this round.
    pub fn round_cards(&self) -> u64 {
        // A card's own rules see the cards before it; the moments after it count it too.
        (self.turns + u64::from(self.kept.after_card)).saturating_sub(self.kept.round_began)
    }

    /// The highest total allowed now, and the lowest (`None` where there is no limit).
    pub fn limits_now(&self, p: &Program) -> [Option<i32>; 2] {
        let limit = |l: Option<crate::ir::Limit>| {
            l.map(|l| match l.expr {
                None => l.value,
                // Each quantity read as it is needed: a limit is asked of every card.
                Some(e) => p.exprs[usize::from(e)].eval(|q, w| {
                    let seat = if w == crate::ir::Who::Player || !q.of_a_seat(&p.counts) {
                        Some(self.turn)
                    } else {
                        resolve_first(p, self, w, Acting::new(self.turn, Reason::RoundStart))
                    };
                    seat.map_or(0, |x| self.quantity(p, q, x))
                }),
            })
        };
        [limit(p.ceiling), limit(p.floor)]
    }

    /// A quantity as `seat` holds it (or the table's), read from the state alone, as
    /// [`State::facts_of`] has it for a limit: the limit a limit reads is none (unbounded).
    fn quantity(&self, p: &Program, q: Quantity, seat: u8) -> i32 {
        match q {
            Quantity::Total => self.total,
            Quantity::Limit => i32::MAX,
            Quantity::Round => i32::try_from(self.round).unwrap_or(i32::MAX),
            Quantity::RoundCards => i32::try_from(self.round_cards()).unwrap_or(i32::MAX),
            Quantity::Run => i32::from(self.run()),
            Quantity::PlayersLeft => self.seats_in_game() as i32,
            Quantity::PlayersInRound => self.active() as i32,
            Quantity::Stock => i32::try_from(self.stock.len()).unwrap_or(i32::MAX),
            Quantity::Pot => self.pot,
            Quantity::Chips => self.chips_of(p, seat),
            Quantity::Cards => self.hands[usize::from(seat).min(MAX_SEATS - 1)].len() as i32,
            Quantity::Count(i) => self.kept.count(p, i, seat),
        }
    }

    /// Whether the limits allow a total now.
    #[inline]
    pub fn allows(&self, p: &Program, total: i32) -> bool {
        if !p.moving_limits() {
            return p.allows(total);
        }
        let [hi, lo] = self.limits_now(p);
        hi.is_none_or(|h| total <= h) && lo.is_none_or(|l| total >= l)
    }

    /// Why the limits refuse a total now, if they do.
    #[inline]
    pub fn beyond_limits(&self, p: &Program, total: i32) -> Option<Illegal> {
        if !p.moving_limits() {
            return Illegal::beyond_limits(p, total);
        }
        let [hi, lo] = self.limits_now(p);
        match (hi, lo) {
            (Some(h), _) if total > h => Some(Illegal::Above { total, limit: h }),
            (_, Some(l)) if total < l => Some(Illegal::Below { total, limit: l }),
            _ => None,
        }
    }

    /// What a condition may look at in the situation of `seat` (a moment's player): as
    /// [`State::facts`], for any seat, its hand counted whole.
    pub fn facts_of(&self, p: &Program, seat: u8) -> Facts {
        let mut f = Facts {
            total: self.total,
            chips: self.chips_of(p, seat),
            cards_left: self.hands[usize::from(seat).min(MAX_SEATS - 1)].len() as u8,
            players_left: self.active() as u8,
            // After a card, the card under it: `the previous card` means one card in every
            // kind of line.
            previous: if self.kept.after_card {
                self.kept.under
            } else {
                self.discard.last().map(|c| rank_of(*c))
            },
            limit: i32::MAX,
            round: self.round,
            round_cards: self.round_cards().min(u64::from(u32::MAX)) as u32,
            run: self.run(),
            players_in_game: self.seats_in_game() as u8,
            stock: self.stock.len().min(usize::from(u16::MAX)) as u16,
            pot: self.pot,
            counts: [0; crate::ir::MAX_COUNTS],
        };
        for (i, slot) in f.counts.iter_mut().enumerate().take(p.counts.len()) {
            *slot = self.kept.count(p, i as u8, seat);
        }
        if p.moving_limits() {
            // The limit a limit reads is none: a limit worked out from itself is unbounded.
            f.limit = p.ceiling.map_or(i32::MAX, |l| match l.expr {
                None => l.value,
                Some(e) => p.exprs[usize::from(e)].eval(|q, _| {
                    if q == Quantity::Limit {
                        i32::MAX
                    } else {
                        q.read(&f)
                    }
                }),
            });
        } else if let Some(l) = p.ceiling {
            f.limit = l.value;
        }
        f
    }

    /// An amount, in the situation of a line acting as `by` says.
    #[inline(always)]
    pub(super) fn amount_of(&self, p: &Program, a: Amount, by: Acting) -> i32 {
        match a {
            Amount::Fixed(n) => n,
            Amount::Of(e) => self.amount_worked_out(p, e, by),
        }
    }

    /// [`State::amount_of`] an amount worked out from the table (expression `e`).
    #[inline(never)]
    fn amount_worked_out(&self, p: &Program, e: u16, by: Acting) -> i32 {
        let facts = self.facts_of(p, by.actor);
        p.exprs[usize::from(e)].eval(|q, w| {
            if w == crate::ir::Who::Player || !q.of_a_seat(&p.counts) {
                q.read(&facts)
            } else {
                resolve_first(p, self, w, by).map_or(0, |x| q.read(&self.facts_of(p, x)))
            }
        })
    }
}

/// What the live choices of one position are worked out against: the situation of the
/// player to move and the limits as they stand (asked once for the whole hand: a limit that
/// moves with the game is an expression over the table).
pub(super) struct Now {
    pub(super) facts: Facts,
    limits: Option<[Option<i32>; 2]>,
}

impl Now {
    pub(super) fn of(p: &Program, s: &State) -> Now {
        Now {
            facts: s.facts(p),
            limits: p.moving_limits().then(|| s.limits_now(p)),
        }
    }

    pub(super) fn allows(&self, p: &Program, t: i32) -> bool {
        match self.limits {
            None => p.allows(t),
            Some([hi, lo]) => hi.is_none_or(|h| t <= h) && lo.is_none_or(|l| t >= l),
        }
    }
}

/// The line of a trigger that applies now, about `actor`: the first of its cases whose test
/// holds, else its line without a test. Where the trigger has cases, the line that runs is
/// told as a moment's (so a tally counts the line that ran).
pub(super) fn trigger_rule<S: Sink>(
    p: &Program,
    s: &State,
    trigger: crate::ir::TriggerKind,
    actor: u8,
    sink: &mut S,
) -> Option<u16> {
    if p.trigger_cases.is_empty() {
        return p.trigger(trigger);
    }
    let mut cases = p
        .trigger_cases
        .iter()
        .filter(|c| c.trigger == trigger)
        .peekable();
    if cases.peek().is_none() {
        return p.trigger(trigger);
    }
    let f = s.facts_of(p, actor);
    let rule = cases
        .find(|c| p.conds[usize::from(c.cond)].holds(p, &f))
        .map(|c| c.outcomes)
        .or(p.trigger(trigger));
    if let Some(rule) = rule
        && S::WANTS & kind::MOMENT != 0
    {
        sink.event(Event::Moment { seat: actor, rule });
    }
    rule
}

/// The rules of the moments of `kind` whose condition holds for the player `by` names,
/// run in the order written.
pub(super) fn run_moments<S: Sink>(
    p: &Program,
    s: &mut State,
    kind: MomentKind,
    by: Acting,
    sink: &mut S,
) {
    for m in p.moments.iter().filter(|m| m.kind == kind) {
        if s.over {
            return;
        }
        let holds = m.cond.is_none_or(|c| {
            let f = s.facts_of(p, by.actor);
            p.conds[usize::from(c)].holds(p, &f)
        });
        if holds {
            if S::WANTS & kind::MOMENT != 0 {
                sink.event(Event::Moment {
                    seat: by.actor,
                    rule: m.outcomes,
                });
            }
            run_outcomes(p, s, m.outcomes, by, sink);
        }
    }
}

/// After a card, once its own rules and the bars are done, its player has drawn, and while its round goes on: the
/// moments after each card.
pub(super) fn after_card<S: Sink>(
    p: &Program,
    s: &mut State,
    by: Acting,
    under: Option<u8>,
    sink: &mut S,
) {
    if s.round_over || s.over || p.moments.is_empty() {
        return;
    }
    s.kept.after_card = true;
    s.kept.under = under;
    run_moments(
        p,
        s,
        MomentKind::AfterCard,
        Acting {
            reason: Reason::Moment,
            ..by
        },
        sink,
    );
    s.kept.after_card = false;
}

/// A player has just gone out of the game: the moments of a player going out, then, once,
/// those of as few players left as there are now.
pub(super) fn player_out<S: Sink>(p: &Program, s: &mut State, seat: u8, sink: &mut S) {
    if p.moments.is_empty() {
        return;
    }
    let by = Acting::new(seat, Reason::Moment);
    run_moments(p, s, MomentKind::PlayerOut, by, sink);
    let left = s.seats_in_game();
    let bit = 1u16 << left.min(15);
    if s.kept.left_fired & bit == 0
        && p.moments
            .iter()
            .any(|m| m.kind == MomentKind::Left(left as u8))
    {
        s.kept.left_fired |= bit;
        // About the players left: the first of them, going round from the one who went out.
        let first = (1..=s.seats)
            .map(|k| (seat + k) % s.seats)
            .find(|&x| s.in_game(x))
            .unwrap_or(seat);
        run_moments(
            p,
            s,
            MomentKind::Left(left as u8),
            Acting::new(first, Reason::Moment),
            sink,
        );
    }
}
