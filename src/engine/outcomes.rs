//! What happens to players: payments, round results, eliminations, and the end of a round
//! and of the game.

use super::events::kind;
use super::kept::trigger_rule;
use super::moves;
use super::setup::{deal, leader};
use super::{Event, PayTo, Reason, Sink, State};
use crate::base::cards::same_face;
use crate::ir::{self, MAX_SEATS, OutcomeKind, Pool, Program, TriggerKind, Turn, Who};

/// Who a line's outcomes are about and why they happen: the player acting (who laid the
/// card, who cannot play...), the reason for the events, and the card's own turn effects (so
/// `the next player` is who plays next once they are done).
#[derive(Debug, Clone, Copy)]
pub(super) struct Acting {
    pub actor: u8,
    pub reason: Reason,
    pub turn: Turn,
}

impl Acting {
    pub fn new(actor: u8, reason: Reason) -> Acting {
        Acting {
            actor,
            reason,
            turn: Turn::default(),
        }
    }
}

/// `reverse the direction` as an outcome: play turns round. Who plays after a card goes the
/// new way, since a card's bars and the moments after it come before the turn passes.
fn reverse<S: Sink>(s: &mut State, sink: &mut S) {
    s.clockwise = !s.clockwise;
    if S::WANTS & kind::REVERSE != 0 {
        sink.event(Event::Reverse {
            clockwise: s.clockwise,
        });
    }
}

/// `the player plays again`: only the player whose turn it is plays again (see `compile`).
fn play_again(s: &mut State, by: Acting, n: u8) {
    if s.turn == by.actor && s.in_round(by.actor) {
        s.again = s.again.saturating_add(n);
    }
}

/// Who plays after `actor` once `turn`'s effects are done: the same player when they play
/// again, else the next seat in the (maybe reversed) direction, past the skipped ones.
pub(super) fn who_plays_next(s: &State, actor: u8, turn: Turn) -> u8 {
    let again = turn.again > 0 || (s.turn == actor && s.again > 0);
    if again && s.in_round(actor) {
        return actor;
    }
    if let Some(x) = s.kept.aim.filter(|x| turn.chosen && s.in_round(*x)) {
        return x;
    }
    // The players a line said to skip, besides the card's.
    let turn = Turn {
        skip: turn.skip.saturating_add(s.kept.skips),
        ..turn
    };
    s.skip_from(actor, s.clockwise ^ turn.reverse, turn, |_, _| {})
}

/// The seats an outcome is about, into `out`; how many.
fn resolve(p: &Program, s: &State, who: Who, by: Acting, out: &mut [u8; MAX_SEATS]) -> usize {
    resolve_seats(p, s, who, by, out, true)
}

/// [`resolve`]; with `by_account` false, every seat named acts for itself (a card is drawn
/// by each partner, where chips are paid once by a team).
fn resolve_seats(
    p: &Program,
    s: &State,
    who: Who,
    by: Acting,
    out: &mut [u8; MAX_SEATS],
    by_account: bool,
) -> usize {
    let first_of_team = |p: &Program, s: &State, seat: u8| !by_account || first_of_team(p, s, seat);
    let actor = by.actor;
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
        Who::Next => put(who_plays_next(s, actor, by.turn)),
        Who::Chosen => {
            if let Some(x) = s.kept.aim {
                put(x);
            }
        }
        Who::After => put(s.next_seat(actor, s.clockwise)),
        Who::Previous => put(s.next_seat(actor, !s.clockwise)),
        Who::LaidPrevious => {
            // In a card's or a bar's line the card under this one; else the top card.
            // (The moments after a card are about that card too.)
            let by_card = matches!(
                by.reason,
                Reason::Card(_) | Reason::Reached(_) | Reason::Passed(_) | Reason::Script(_)
            ) || (by.reason == Reason::Moment && s.kept.after_card);
            let seat = s.laid_by[usize::from(by_card)];
            if seat < s.seats && s.in_game(seat) {
                put(seat);
            }
        }
        Who::Richest | Who::Poorest => {
            // Every seat tied on the most (fewest) chips, the nearest to the actor first.
            let chips = (0..s.seats)
                .filter(|x| s.in_game(*x))
                .map(|x| s.chips_of(p, x));
            let best = if who == Who::Richest {
                chips.max()
            } else {
                chips.min()
            };
            let mut seat = actor;
            for _ in 0..s.seats {
                seat = (seat + 1) % s.seats;
                if s.in_game(seat) && Some(s.chips_of(p, seat)) == best && first_of_team(p, s, seat)
                {
                    put(seat);
                }
            }
        }
        Who::EachOther | Who::Every | Who::EachOut => {
            for seat in 0..s.seats {
                let ok = s.in_game(seat)
                    && match who {
                        Who::EachOther => seat != actor,
                        Who::EachOut => !s.in_round(seat),
                        Who::Every
                        | Who::Player
                        | Who::Winner
                        | Who::Loser
                        | Who::Next
                        | Who::After
                        | Who::Previous
                        | Who::LaidPrevious
                        | Who::Richest
                        | Who::Poorest
                        | Who::Chosen => true,
                    };
                // Partners share chips: a team pays once, not once per member.
                if ok && (who == Who::EachOut || first_of_team(p, s, seat)) {
                    put(seat);
                }
            }
        }
    }
    n
}

/// The other player of a card move made by `seat` (`swap hands with the player after`).
fn partner(p: &Program, s: &State, w: Who, seat: u8, by: Acting) -> Option<u8> {
    let mut r = [0u8; MAX_SEATS];
    (resolve_seats(p, s, w, Acting { actor: seat, ..by }, &mut r, false) > 0).then_some(r[0])
}

/// The first seat an outcome's `who` names, if any.
pub(super) fn resolve_first(p: &Program, s: &State, who: Who, by: Acting) -> Option<u8> {
    let mut seats = [0u8; MAX_SEATS];
    (resolve(p, s, who, by, &mut seats) > 0).then_some(seats[0])
}

/// Whether no earlier seat in the game shares this seat's account (a team acts once).
fn first_of_team(p: &Program, s: &State, seat: u8) -> bool {
    p.team_size.is_none()
        || (0..seat).all(|o| !(s.in_game(o) && s.account(p, o) == s.account(p, seat)))
}

/// Runs the outcomes of a ruleset line (an index into [`Program::outcomes`]).
pub(super) fn run_outcomes<S: Sink>(
    p: &Program,
    s: &mut State,
    list: u16,
    by: Acting,
    sink: &mut S,
) {
    run_list(p, s, &p.outcomes[usize::from(list)].list, list, by, sink);
}

/// Applies outcomes in order. `list` names the ruleset line they come from, for events
/// (`u16::MAX` for a script's own outcomes).
pub(super) fn run_list<S: Sink>(
    p: &Program,
    s: &mut State,
    outcomes: &[ir::Outcome],
    list: u16,
    by: Acting,
    sink: &mut S,
) {
    let mut seats = [0u8; MAX_SEATS];
    for o in outcomes {
        let by_account = !matches!(
            o.kind,
            OutcomeKind::Draw(_)
                | OutcomeKind::SwapHands(_)
                | OutcomeKind::TakeCard(_)
                | OutcomeKind::GiveCard(_)
                | OutcomeKind::GiveChosen(_)
        );
        let n = resolve_seats(p, s, o.who, by, &mut seats, by_account);
        let seats = &seats[..n];
        match o.kind {
            OutcomeKind::Draw(amount) => {
                for &seat in seats {
                    let n = s.amount_of(p, amount, Acting { actor: seat, ..by });
                    moves::draw_cards(p, s, seat, n, sink);
                }
            }
            OutcomeKind::SwapHands(w) => {
                for &seat in seats {
                    if let Some(other) = partner(p, s, w, seat, by) {
                        moves::swap_hands(s, seat, other, sink);
                    }
                }
            }
            OutcomeKind::TakeCard(w) => {
                for &seat in seats {
                    if let Some(other) = partner(p, s, w, seat, by) {
                        moves::hand_over(s, other, seat, sink);
                    }
                }
            }
            OutcomeKind::GiveCard(w) => {
                for &seat in seats {
                    if let Some(other) = partner(p, s, w, seat, by) {
                        moves::hand_over(s, seat, other, sink);
                    }
                }
            }
            OutcomeKind::GiveChosen(w) => {
                // The card the player named as they laid theirs (a card's line only).
                if let Some(card) = s.kept.gift {
                    for &seat in seats {
                        if let Some(other) = partner(p, s, w, seat, by) {
                            moves::hand_over_chosen(s, seat, other, card, sink);
                        }
                    }
                }
            }
            OutcomeKind::Pay { amount, to } => {
                let to = match to {
                    ir::Target::Bank => PayTo::Bank,
                    ir::Target::Pot => PayTo::Pot,
                    ir::Target::Seat(w) => {
                        let mut r = [0u8; MAX_SEATS];
                        if resolve(p, s, w, by, &mut r) == 0 {
                            PayTo::Bank
                        } else {
                            PayTo::Seat(r[0])
                        }
                    }
                };
                for &payer in seats {
                    let n = s.amount_of(p, amount, Acting { actor: payer, ..by });
                    pay(p, s, payer, n, to, by.reason, list, sink);
                }
            }
            OutcomeKind::WinRound => {
                if let Some(&w) = seats.first() {
                    s.round_winner = Some(w);
                    s.round_over = true;
                }
            }
            OutcomeKind::LoseRound => {
                if let Some(&l) = seats.first() {
                    s.round_loser = Some(l);
                    s.round_over = true;
                }
            }
            OutcomeKind::EndRound => s.round_over = true,
            OutcomeKind::WinGame => {
                // A player this very moment put out of the game has lost it: the win is
                // theirs only while they are in it (the game goes on without them).
                let winners = seats
                    .iter()
                    .filter(|&&x| s.in_game(x))
                    .fold(0u16, |m, &x| m | 1 << x);
                if !s.over && winners != 0 {
                    s.declared |= winners;
                    s.round_over = true;
                    s.over = true;
                }
            }
            OutcomeKind::EndGame => {
                s.round_over = true;
                s.over = true;
            }
            OutcomeKind::Reverse => reverse(s, sink),
            OutcomeKind::Skip(n) => s.kept.skips = s.kept.skips.saturating_add(n),
            OutcomeKind::Again(n) => play_again(s, by, n),
            OutcomeKind::OutOfRound => {
                for &seat in seats {
                    out_of_round(p, s, seat, sink);
                }
            }
            OutcomeKind::OutOfGame => {
                for &seat in seats {
                    eliminate(p, s, seat, sink);
                }
            }
            OutcomeKind::ResetTotal(pile) => reset(p, s, pile, sink),
            OutcomeKind::TakePot => take_pot(p, s, seats, sink),
            OutcomeKind::Gain { amount, from } => {
                for &seat in seats {
                    let n = s.amount_of(p, amount, Acting { actor: seat, ..by });
                    gain(p, s, seat, n, from, sink);
                }
            }
            OutcomeKind::SetTotal(amount) => {
                let to = s.amount_of(p, amount, by);
                changed(s, by.actor, ir::Quantity::Total, s.total, to, sink);
                s.total = to;
            }
            OutcomeKind::Change { what, how } => {
                // A count of the table's own changes once, whoever the line is about.
                let seats = if what.of_a_seat(&p.counts) {
                    seats
                } else {
                    &seats[..seats.len().min(1)]
                };
                for &seat in seats {
                    change(p, s, seat, what, how, Acting { actor: seat, ..by }, sink);
                }
            }
        }
    }
    if !s.over && chips_end(p, s) {
        s.round_over = true;
        s.over = true;
    }
}

/// Whether a player in the game holds what ends it (`the game ends when a player reaches 10
/// chips`, `... falls to 1 chip`, `... reaches 300 points`).
#[inline(always)]
pub(super) fn chips_end(p: &Program, s: &State) -> bool {
    if p.ending.reach.is_none() && p.ending.fall.is_none() {
        return false;
    }
    holding_ends(p, s)
}

/// [`chips_end`] for a game that ends at a holding: whether a player in it holds it.
#[inline(never)]
fn holding_ends(p: &Program, s: &State) -> bool {
    let (reach, fall) = (p.ending.reach, p.ending.fall);
    (0..s.seats).filter(|&x| s.in_game(x)).any(|x| {
        reach.is_some_and(|m| s.holding_of(p, x, m.by) >= m.at)
            || fall.is_some_and(|m| s.holding_of(p, x, m.by) <= m.at)
    })
}

/// Whether the game's end has come, as the state stands: one player (or team) left, or as
/// few as the rules end it with, a player out where that ends it, the chips that end it, or
/// the last round played.
pub(crate) fn game_should_end(p: &Program, s: &State) -> bool {
    let left = s.teams(p, s.out_of_game);
    left <= u32::from(p.ending.left.max(1))
        || (p.ending.first_out && s.out_of_game != 0)
        || chips_end(p, s)
        || p.rounds.is_some_and(|r| s.round >= r)
}

/// The game's winners: those a line declared; else, among the players left (or, when the
/// last ones went out at once, among those), the most chips (or the fewest, or the most or
/// fewest of a count, where the rules say so). Tied players share the win.
pub(crate) fn game_winners(p: &Program, s: &State) -> u16 {
    if s.declared != 0 {
        return s.declared;
    }
    let in_game = (0..s.seats)
        .filter(|&x| s.in_game(x))
        .fold(0u16, |m, x| m | 1 << x);
    let pool = if in_game != 0 { in_game } else { s.out_now };
    let seats = (0..s.seats).filter(|x| pool & (1 << x) != 0);
    let standing = match p.winner {
        ir::Winner::Best(st) => st,
        ir::Winner::LastLeft => ir::Winner::MOST_CHIPS_STANDING,
    };
    let held = |x: u8| s.holding_of(p, x, standing.by);
    let best = if standing.most {
        seats.clone().map(held).max()
    } else {
        seats.clone().map(held).min()
    };
    seats
        .filter(|&x| Some(held(x)) == best)
        .fold(0u16, |w, x| w | 1 << x)
}

/// Tells the sink that a rule changed what the table keeps.
fn changed<S: Sink>(s: &State, seat: u8, what: ir::Quantity, from: i32, to: i32, sink: &mut S) {
    let _ = s;
    if S::WANTS & kind::CHANGED != 0 && from != to {
        sink.event(Event::Changed {
            seat,
            what,
            from,
            to,
        });
    }
}

/// A seat's chips or one of the ruleset's counts changed by a rule. Chips that fall to
/// nothing put the player out, as a payment does.
fn change<S: Sink>(
    p: &Program,
    s: &mut State,
    seat: u8,
    what: ir::Quantity,
    how: ir::Change,
    by: Acting,
    sink: &mut S,
) {
    // A player's own count changes while they are in the game; the table's, whoever acts
    // (`when a player goes out: the limit goes down by 10`).
    if s.over || (what.of_a_seat(&p.counts) && !s.in_game(seat)) {
        return;
    }
    let Some(target) = what.changeable() else {
        return;
    };
    let (from, start) = match target {
        ir::Changeable::Chips => (s.chips_of(p, seat), p.chips),
        ir::Changeable::Count(i) => (
            s.kept.count(p, i, seat),
            p.counts.get(usize::from(i)).map_or(0, |c| c.start),
        ),
    };
    let to = match how {
        ir::Change::Up(a) => from.saturating_add(s.amount_of(p, a, by)),
        ir::Change::Down(a) => from.saturating_sub(s.amount_of(p, a, by)),
        ir::Change::Become(a) => s.amount_of(p, a, by),
        ir::Change::Reset => start,
    };
    match target {
        ir::Changeable::Chips => {
            // Chips are never fewer than none.
            let to = to.max(0);
            let acc = s.account(p, seat);
            s.chips[acc] = to;
            changed(s, seat, what, from, to, sink);
            if to == 0 && !p.out_when_cannot_pay {
                eliminate(p, s, seat, sink);
            }
        }
        ir::Changeable::Count(i) => {
            if let Some(c) = s.kept.count_mut(p, i, seat) {
                *c = to;
            }
            changed(s, seat, what, from, to, sink);
        }
    }
}

/// The count starts again. The cards stay in the discard pile, to be reshuffled when the stock
/// runs out, unless the pile is reset too: then it is set aside until the next deal.
fn reset<S: Sink>(p: &Program, s: &mut State, pile: bool, sink: &mut S) {
    s.total = p.start;
    if pile {
        s.discard.move_into(&mut s.aside);
        s.laid_by = [super::state::NO_SEAT; 2];
        s.kept.run_carry = (0, 0);
    }
    if S::WANTS & kind::TOTAL_RESET != 0 {
        sink.event(Event::TotalReset { total: s.total });
    }
}

/// Several takers (tied winners) share the pot; what does not divide stays.
fn take_pot<S: Sink>(p: &Program, s: &mut State, seats: &[u8], sink: &mut S) {
    if seats.is_empty() {
        return;
    }
    let share = s.pot / seats.len() as i32;
    for &seat in seats {
        let acc = s.account(p, seat);
        s.chips[acc] += share;
        s.pot -= share;
        if S::WANTS & kind::TAKE_POT != 0 {
            sink.event(Event::TakePot {
                seat,
                amount: share,
            });
        }
    }
}

/// A player gains chips: from the bank, an unlimited supply, or from the pot, at most what it
/// holds.
fn gain<S: Sink>(p: &Program, s: &mut State, seat: u8, amount: i32, from: Pool, sink: &mut S) {
    if s.over || !s.in_game(seat) || amount <= 0 {
        return;
    }
    let got = match from {
        Pool::Bank => {
            s.bank -= amount;
            amount
        }
        Pool::Pot => {
            let got = amount.min(s.pot.max(0));
            s.pot -= got;
            got
        }
    };
    let acc = s.account(p, seat);
    s.chips[acc] = s.chips[acc].saturating_add(got);
    if S::WANTS & kind::GAIN != 0 && got > 0 {
        sink.event(Event::Gain {
            seat,
            amount: got,
            from: match from {
                Pool::Bank => PayTo::Bank,
                Pool::Pot => PayTo::Pot,
            },
        });
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
    if matches!(to, PayTo::Seat(r) if s.account(p, r) == acc) {
        // A payment to themselves (or to a partner, from the same pile): nothing moves, and
        // no chip is lost.
        return;
    }
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
    if S::WANTS & kind::PAY != 0 {
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
    s.known_not[usize::from(seat)] = 0;
    s.forget_hand(seat);
    let hand = &mut s.hands[usize::from(seat)];
    s.face_down.extend_from_slice(hand.cards());
    hand.clear();
    if S::WANTS & kind::OUT_OF_ROUND != 0 {
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
            s.out_now |= 1 << other;
            s.known_not[usize::from(other)] = 0;
            if s.in_round(other) {
                s.out_of_round |= 1 << other;
                s.forget_hand(other);
                let hand = &mut s.hands[usize::from(other)];
                s.face_down.extend_from_slice(hand.cards());
                hand.clear();
            }
            if S::WANTS & kind::ELIMINATED != 0 {
                sink.event(Event::Eliminated { seat: other });
            }
        }
    }
    let teams_left = s.teams(p, s.out_of_game);
    if teams_left <= u32::from(p.ending.left.max(1)) || p.ending.first_out {
        s.round_over = true;
        s.over = true;
    } else {
        check_round_left(p, s);
        super::kept::player_out(p, s, seat, sink);
    }
}

/// Ends the round that is over: its events and triggers, then the game's end or the next deal.
pub(super) fn finish_round<S: Sink>(p: &Program, s: &mut State, by_card: bool, sink: &mut S) {
    s.pending_draw = None;
    if S::WANTS & kind::ROUND_END != 0 {
        sink.event(Event::RoundEnd {
            round: s.round,
            winner: s.round_winner,
            loser: s.round_loser,
            by_card,
        });
    }
    let actor = s.round_winner.or(s.round_loser).unwrap_or(s.turn);
    if let Some(i) = trigger_rule(p, s, TriggerKind::RoundEnd, actor, sink) {
        run_outcomes(p, s, i, Acting::new(actor, Reason::RoundEnd), sink);
    }
    if s.over || game_should_end(p, s) {
        end_game(p, s, sink);
        return;
    }
    s.round += 1;
    s.round_over = false;
    // Gather every card, shuffle and deal again.
    for hand in &mut s.hands[..usize::from(s.seats)] {
        if !hand.is_empty() {
            s.stock.extend_from_slice(hand.cards());
            hand.clear();
        }
    }
    s.discard.move_into(&mut s.stock);
    if !s.aside.is_empty() {
        s.stock.append(&mut s.aside);
    }
    if !s.face_down.is_empty() {
        s.stock.append(&mut s.face_down);
    }
    s.rng.shuffle(&mut s.stock);
    if !s.next_deal.is_empty() {
        stack_next_deal(s);
    }
    s.dealer = s.next_in_game(s.dealer, p.deal_clockwise);
    s.out_of_round = s.out_of_game;
    s.laid_by = [super::state::NO_SEAT; 2];
    s.known_not = [0; MAX_SEATS];
    s.forgot = [0; MAX_SEATS];
    // A card that ended the round is counted once the round is over (`s.turns` is raised
    // after its rules): the new round begins after it.
    s.kept.round_began = s.turns + u64::from(by_card);
    s.kept.run_carry = (0, 0);
    s.kept.skips = 0;
    s.again = 0;
    s.total = p.start;
    s.clockwise = p.clockwise;
    deal(p, s);
    s.turn = leader(p, s);
    s.round_winner = None;
    s.round_loser = None;
    if S::WANTS & kind::DEAL != 0 {
        sink.event(Event::Deal {
            round: s.round,
            dealer: s.dealer,
            leader: s.turn,
        });
    }
    if let Some(i) = trigger_rule(p, s, TriggerKind::RoundStart, s.turn, sink) {
        let lead = s.turn;
        s.out_now = 0;
        run_outcomes(p, s, i, Acting::new(lead, Reason::RoundStart), sink);
        if s.over {
            end_game(p, s, sink);
        }
    }
}

pub(super) fn end_game<S: Sink>(p: &Program, s: &mut State, sink: &mut S) {
    s.over = true;
    let winners = game_winners(p, s);
    s.winners = winners;
    let actor = (0..s.seats).find(|x| winners & (1 << x) != 0).unwrap_or(0);
    if let Some(i) = trigger_rule(p, s, TriggerKind::GameEnd, actor, sink) {
        s.round_winner = Some(actor);
        s.over = false;
        run_outcomes(p, s, i, Acting::new(actor, Reason::GameEnd), sink);
        s.over = true;
    }
    if S::WANTS & kind::GAME_END != 0 {
        sink.event(Event::GameEnd { winners });
    }
}

/// A position may fix the top of the stock for the next deal (`next deal: 9H 2C`): those
/// cards, top first, are moved to the top of the shuffled stock.
fn stack_next_deal(s: &mut State) {
    let wanted = std::mem::take(&mut s.next_deal);
    for &card in wanted.iter().rev() {
        if let Some(i) = s.stock.iter().position(|c| same_face(*c, card)) {
            let c = s.stock.remove(i);
            s.stock.push(c);
        }
    }
}
