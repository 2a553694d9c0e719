//! What happens to players: payments, round results, eliminations, and the end of a round
//! and of the game.

use super::setup::{deal, leader};
use super::{Event, PayTo, Reason, Sink, State};
use crate::ir::{self, MAX_SEATS, OutcomeKind, Program, Who};

fn resolve(p: &Program, s: &State, who: Who, actor: u8, out: &mut [u8; MAX_SEATS]) -> usize {
    let mut n = 0;
    let mut put = |seat: u8| {
        out[n] = seat;
        n += 1;
    };
    match who {
        Who::Player => put(actor),
        Who::Winner if s.winners != 0 => {
            // At the end of the game: every winner.
            for seat in 0..s.seats {
                if s.winners & (1 << seat) != 0 {
                    put(seat);
                }
            }
        }
        Who::Winner => {
            if let Some(w) = s.round_winner {
                put(w);
            }
        }
        Who::Loser => {
            if let Some(l) = s.round_loser {
                put(l);
            }
        }
        Who::Next => put(s.next_seat(actor, s.clockwise)),
        Who::EachOther | Who::Every | Who::EachOut => {
            for seat in 0..s.seats {
                let ok = s.in_game(seat)
                    && match who {
                        Who::EachOther => seat != actor,
                        Who::EachOut => !s.in_round(seat),
                        Who::Every | Who::Player | Who::Winner | Who::Loser | Who::Next => true,
                    };
                // Partners share chips: a team pays once, not once per member.
                let first_of_team = p.team_size.is_none()
                    || (0..seat).all(|o| !(s.in_game(o) && s.account(p, o) == s.account(p, seat)))
                    || who == Who::EachOut;
                if ok && first_of_team {
                    put(seat);
                }
            }
        }
    }
    n
}

pub(super) fn run_outcomes<S: Sink>(
    p: &Program,
    s: &mut State,
    list: u16,
    actor: u8,
    reason: Reason,
    sink: &mut S,
) {
    run_list(
        p,
        s,
        &p.outcomes[usize::from(list)].list,
        list,
        actor,
        reason,
        sink,
    );
}

/// Applies outcomes in order. `list` names the ruleset line they come from, for events
/// (`u16::MAX` for a script's own outcomes).
#[allow(clippy::too_many_arguments)]
pub(super) fn run_list<S: Sink>(
    p: &Program,
    s: &mut State,
    outcomes: &[ir::Outcome],
    list: u16,
    actor: u8,
    reason: Reason,
    sink: &mut S,
) {
    let mut seats = [0u8; MAX_SEATS];
    for o in outcomes {
        let n = resolve(p, s, o.who, actor, &mut seats);
        match o.kind {
            OutcomeKind::Pay { amount, to } => {
                let to = match to {
                    ir::Target::Bank => PayTo::Bank,
                    ir::Target::Pot => PayTo::Pot,
                    ir::Target::Seat(w) => {
                        let mut r = [0u8; MAX_SEATS];
                        if resolve(p, s, w, actor, &mut r) == 0 {
                            PayTo::Bank
                        } else {
                            PayTo::Seat(r[0])
                        }
                    }
                };
                for &payer in &seats[..n] {
                    pay(p, s, payer, amount, to, reason, list, sink);
                }
            }
            OutcomeKind::WinRound => {
                if n > 0 {
                    s.round_winner = Some(seats[0]);
                    s.round_over = true;
                }
            }
            OutcomeKind::LoseRound => {
                if n > 0 {
                    s.round_loser = Some(seats[0]);
                    s.round_over = true;
                }
            }
            OutcomeKind::EndRound => s.round_over = true,
            OutcomeKind::OutOfRound => {
                for &seat in &seats[..n] {
                    out_of_round(p, s, seat, sink);
                }
            }
            OutcomeKind::OutOfGame => {
                for &seat in &seats[..n] {
                    eliminate(p, s, seat, sink);
                }
            }
            OutcomeKind::ResetTotal(pile) => {
                // The count starts again. The cards stay in the discard pile, to be reshuffled
                // when the stock runs out, unless the pile is reset too: then it is set aside
                // until the next deal.
                s.total = p.start;
                if pile {
                    s.aside.append(&mut s.discard);
                }
                if S::ON {
                    sink.event(Event::TotalReset { total: s.total });
                }
            }
            OutcomeKind::TakePot => {
                // Several takers (tied winners) share the pot; what does not divide stays.
                if n > 0 {
                    let share = s.pot / n as i32;
                    for &seat in &seats[..n] {
                        let acc = s.account(p, seat);
                        s.chips[acc] += share;
                        s.pot -= share;
                        if S::ON {
                            sink.event(Event::TakePot {
                                seat,
                                amount: share,
                            });
                        }
                    }
                }
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn pay<S: Sink>(
    p: &Program,
    s: &mut State,
    seat: u8,
    amount: i32,
    to: PayTo,
    reason: Reason,
    rule: u16,
    sink: &mut S,
) {
    if s.over || !s.in_game(seat) || amount <= 0 {
        return;
    }
    let acc = s.account(p, seat);
    let short = s.chips[acc] < amount;
    let paid = amount.min(s.chips[acc]);
    s.chips[acc] -= paid;
    match to {
        PayTo::Bank => s.bank += paid,
        PayTo::Pot => s.pot += paid,
        PayTo::Seat(r) => {
            let racc = s.account(p, r);
            s.chips[racc] += paid;
        }
    }
    if S::ON {
        sink.event(Event::Pay {
            seat,
            amount: paid,
            to,
            reason,
            rule,
        });
    }
    let out = if p.out_when_cannot_pay {
        short
    } else {
        s.chips[acc] == 0
    };
    if out {
        eliminate(p, s, seat, sink);
    }
}

fn out_of_round<S: Sink>(p: &Program, s: &mut State, seat: u8, sink: &mut S) {
    if !s.in_round(seat) {
        return;
    }
    s.out_of_round |= 1 << seat;
    let hand = &mut s.hands[usize::from(seat)];
    s.aside.extend_from_slice(hand.cards());
    hand.clear();
    if S::ON {
        sink.event(Event::OutOfRound { seat });
    }
    check_round_left(p, s);
}

/// When one player (or one team) is left in the round, the round ends and they win it.
fn check_round_left(p: &Program, s: &mut State) {
    // Partners play for one team: the round is over when one team is left in it.
    if s.teams(p, s.out_of_round) <= 1 && !s.round_over {
        s.round_over = true;
        if s.round_winner.is_none() {
            s.round_winner = (0..s.seats).find(|x| s.in_round(*x));
        }
    }
}

fn eliminate<S: Sink>(p: &Program, s: &mut State, seat: u8, sink: &mut S) {
    // Partners share their chips, so they leave together.
    let acc = s.account(p, seat);
    for other in 0..s.seats {
        if s.in_game(other) && s.account(p, other) == acc {
            s.out_of_game |= 1 << other;
            if s.in_round(other) {
                s.out_of_round |= 1 << other;
                let hand = &mut s.hands[usize::from(other)];
                s.aside.extend_from_slice(hand.cards());
                hand.clear();
            }
            if S::ON {
                sink.event(Event::Eliminated { seat: other });
            }
        }
    }
    let teams_left = s.teams(p, s.out_of_game);
    if teams_left <= 1 {
        s.round_over = true;
        s.over = true;
    } else {
        check_round_left(p, s);
    }
}

/// Ends the round that is over: its events and triggers, then the game's end or the next deal.
pub(super) fn finish_round<S: Sink>(p: &Program, s: &mut State, sink: &mut S) {
    s.pending_draw = None;
    if S::ON {
        sink.event(Event::RoundEnd {
            round: s.round,
            winner: s.round_winner,
            loser: s.round_loser,
        });
    }
    if let Some(i) = p.triggers.round_end {
        let actor = s.round_winner.or(s.round_loser).unwrap_or(s.turn);
        run_outcomes(p, s, i, actor, Reason::RoundEnd, sink);
    }
    let teams_left = s.teams(p, s.out_of_game);
    if s.over || teams_left <= 1 || p.rounds.is_some_and(|r| s.round >= r) {
        end_game(p, s, sink);
        return;
    }
    s.round += 1;
    s.round_over = false;
    // Gather every card, shuffle and deal again.
    for seat in 0..usize::from(s.seats) {
        s.stock.extend_from_slice(s.hands[seat].cards());
        s.hands[seat].clear();
    }
    s.stock.append(&mut s.discard);
    s.stock.append(&mut s.aside);
    s.rng.shuffle(&mut s.stock);
    s.dealer = s.next_in_game(s.dealer, p.deal_clockwise);
    s.out_of_round = s.out_of_game;
    s.forgot = [0; MAX_SEATS];
    s.total = p.start;
    s.clockwise = p.clockwise;
    deal(p, s);
    s.turn = leader(p, s);
    s.round_winner = None;
    s.round_loser = None;
    if S::ON {
        sink.event(Event::Deal {
            round: s.round,
            dealer: s.dealer,
            leader: s.turn,
        });
    }
    if let Some(i) = p.triggers.round_start {
        let lead = s.turn;
        run_outcomes(p, s, i, lead, Reason::RoundStart, sink);
        if s.over {
            end_game(p, s, sink);
        }
    }
}

fn end_game<S: Sink>(p: &Program, s: &mut State, sink: &mut S) {
    s.over = true;
    let in_game = (0..s.seats).filter(|x| s.in_game(*x));
    let best = in_game.clone().map(|x| s.chips_of(p, x)).max();
    let mut winners = 0u16;
    for x in in_game {
        // The last player left wins; when several are left (a fixed number of rounds, or a
        // team), the most chips win, tied players sharing.
        if Some(s.chips_of(p, x)) == best {
            winners |= 1 << x;
        }
    }
    s.winners = winners;
    if let Some(i) = p.triggers.game_end {
        let actor = (0..s.seats).find(|x| winners & (1 << x) != 0).unwrap_or(0);
        s.round_winner = Some(actor);
        s.over = false;
        run_outcomes(p, s, i, actor, Reason::GameEnd, sink);
        s.over = true;
    }
    if S::ON {
        sink.event(Event::GameEnd { winners });
    }
}
