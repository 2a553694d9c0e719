//! A new game: the table laid out as the rules say, or at a position given card by card (a
//! stacked stock, hands, total, chips, turn, direction), then the first deal.

use super::events::kind;
use super::outcomes::{Acting, run_outcomes};
use super::prepared::Prepared;
use super::step::settle;
use super::{Event, Hand, Illegal, Pile, PlayError, Reason, Sink, State};
use crate::base::Rng;
use crate::base::cards::{Card, card_name, same_face};
use crate::base::limits::{NUMBER, grouped};
use crate::ir::{self, MAX_HAND, MAX_SEATS, Program};

/// A position to start from, as typed at the table (`ninety run --deck ... --hands ...`).
#[derive(Debug, Clone, Default)]
pub struct Setup {
    pub players: usize,
    pub seed: u64,
    /// The stock's top cards, top first.
    pub deck: Option<Vec<Card>>,
    pub hands: Option<Vec<Vec<Card>>>,
    pub discard: Option<Vec<Card>>,
    pub total: Option<i32>,
    pub chips: Option<Vec<i32>>,
    pub turn: Option<u8>,
    pub clockwise: Option<bool>,
    pub dealer: Option<u8>,
    /// The stock is only the given cards; the rest of the deck is set aside face down until
    /// the next deal.
    pub stock_only: bool,
    pub pot: Option<i32>,
    pub bank: Option<i32>,
    /// The top of the stock at the next deal, top first.
    pub next_deal: Option<Vec<Card>>,
    /// Counts the ruleset keeps, set: an index into the program's counts, and a value for
    /// every seat (one for a count of the table's).
    pub counts: Vec<(u8, Vec<i32>)>,
    /// The round's number, from 1.
    pub round: Option<u32>,
    /// The chips and pools given are the table once the round has begun: the rules of a
    /// round's start (an ante) are not run again on top of them (`ninety run --chips`).
    pub round_started: bool,
}

/// A new game at a position: a fresh first round, dealt as the rules say, with whatever the
/// setup fixes (a stacked stock, hands, total, chips, turn, direction).
pub fn new_game<S: Sink>(p: &Prepared, setup: &Setup, sink: &mut S) -> Result<State, PlayError> {
    p.check_players(setup.players).map_err(PlayError::Setup)?;
    let mut s = empty_table(p, setup.players, setup.seed);
    start(p, setup, sink, &mut s)?;
    Ok(s)
}

/// [`new_game`] on `s`, the table of a game that is done with: the same game, laid out in
/// place, its piles kept for their room (a simulation's games then allocate nothing once the
/// first has, and no table is copied). When the setup is refused, `s` is a table to lay out
/// again, not a game.
pub fn new_game_in<S: Sink>(
    p: &Prepared,
    setup: &Setup,
    sink: &mut S,
    s: &mut State,
) -> Result<(), PlayError> {
    p.check_players(setup.players).map_err(PlayError::Setup)?;
    clear_table(p, setup.players, setup.seed, s);
    start(p, setup, sink, s)
}

/// The game laid out on the empty table `s`, as the setup says.
fn start<S: Sink>(
    p: &Prepared,
    setup: &Setup,
    sink: &mut S,
    s: &mut State,
) -> Result<(), PlayError> {
    let n = setup.players;
    place_chips(p, s, setup)?;
    place_counts(p, s, setup)?;
    s.dealer = match (setup.dealer, p.first_dealer) {
        (Some(d), _) if usize::from(d) < n => d,
        (Some(d), _) => {
            return Err(PlayError::Setup(format!(
                "there is no seat {d} to deal at a table of {n}"
            )));
        }
        (None, Some(d)) => d.min(n as u8 - 1),
        (None, None) => s.rng.below(n) as u8,
    };
    let hands_given = place_cards(p, s, setup)?;
    if let Some(seat) =
        (0..n as u8).find(|x| !s.in_game(*x) && !s.hands[usize::from(*x)].is_empty())
    {
        return Err(PlayError::Setup(format!(
            "seat {seat} is out of the game (no chips) and cannot hold cards"
        )));
    }
    if !hands_given {
        deal(p, s);
    }
    s.turn = setup.turn.unwrap_or_else(|| leader(p, s));
    if usize::from(s.turn) >= n {
        return Err(PlayError::Setup(format!(
            "there is no seat {} at a table of {n}",
            s.turn
        )));
    }
    if !s.in_round(s.turn) {
        return Err(PlayError::Setup(format!(
            "seat {} is out of the game and cannot have the turn",
            s.turn
        )));
    }
    if let Some(cw) = setup.clockwise {
        s.clockwise = cw;
    }
    place_pools(p, s, setup)?;
    if S::WANTS & kind::DEAL != 0 {
        sink.event(Event::Deal {
            round: s.round,
            dealer: s.dealer,
            leader: s.turn,
        });
    }
    let rule = if setup.round_started {
        None
    } else {
        super::kept::trigger_rule(p, s, crate::ir::TriggerKind::RoundStart, s.turn, sink)
    };
    if let Some(i) = rule {
        let lead = s.turn;
        s.out_now = 0;
        // The counts the setup gives are the round as it stands: what the round's start
        // does to them is behind it, neither told nor kept (they are placed again below).
        let mut told = GivenCounts {
            given: &setup.counts,
            sink: &mut *sink,
        };
        run_outcomes(p, s, i, Acting::new(lead, Reason::RoundStart), &mut told);
        // The first round's start may end the game (an ante that leaves one player), as
        // any later round's does: the game ends there, with its winners.
        if s.over {
            super::outcomes::end_game(p, s, sink);
        }
        place_counts(p, s, setup)?;
    }
    if let Some(t) = setup.total {
        if let Some(why) = s.beyond_limits(p, t).filter(|_| t != p.start) {
            return Err(PlayError::Setup(format!(
                "the total cannot start at {t}: {}",
                match why {
                    Illegal::Above { limit, .. } => format!("it may not go above {limit}"),
                    Illegal::Below { limit, .. } => format!("it may not go below {limit}"),
                    Illegal::NoEffect | Illegal::NoChoice(_) => why.to_string(),
                }
            )));
        }
        if i64::from(t).abs() > NUMBER {
            return Err(PlayError::Setup(format!(
                "the total cannot be {t}: totals stay between -{n} and {n}",
                n = grouped(NUMBER as u64)
            )));
        }
        s.total = t;
    }
    settle(p, s, sink);
    debug_assert!(s.check_invariants(p).is_ok());
    Ok(())
}

/// The table before anything is placed: no cards, no chips, the first round.
fn empty_table(p: &Prepared, n: usize, seed: u64) -> State {
    State {
        seats: n as u8,
        hands: [Hand::default(); MAX_SEATS],
        stock: Vec::with_capacity(p.deck_size(n)),
        discard: Pile::with_capacity(p.deck_size(n)),
        aside: Vec::with_capacity(p.deck_size(n)),
        face_down: Vec::with_capacity(p.deck_size(n)),
        total: p.start,
        clockwise: p.clockwise,
        turn: 0,
        chips: [0; MAX_SEATS],
        bank: 0,
        pot: 0,
        round: 1,
        dealer: 0,
        out_of_game: 0,
        out_of_round: 0,
        forgot: [0; MAX_SEATS],
        pending_draw: None,
        round_winner: None,
        round_loser: None,
        round_over: false,
        over: false,
        winners: 0,
        turns: 0,
        again: 0,
        laid_by: [super::state::NO_SEAT; 2],
        out_now: 0,
        known_not: [0; MAX_SEATS],
        declared: 0,
        next_deal: Vec::new(),
        rng: Rng::from_seed(seed),
        stuck: None,
        kept: {
            let mut k = super::Kept::default();
            k.start(p);
            k
        },
    }
}

/// `s` made [`empty_table`]'s table in place, its piles emptied and kept for their room.
/// Every field is named: a field added to the state is one more to lay out here.
fn clear_table(p: &Prepared, n: usize, seed: u64, s: &mut State) {
    let deck = p.deck_size(n);
    let State {
        seats,
        hands,
        stock,
        discard,
        aside,
        face_down,
        total,
        clockwise,
        turn,
        chips,
        bank,
        pot,
        round,
        dealer,
        out_of_game,
        out_of_round,
        forgot,
        pending_draw,
        round_winner,
        round_loser,
        round_over,
        over,
        winners,
        turns,
        again,
        known_not,
        out_now,
        declared,
        laid_by,
        next_deal,
        rng,
        stuck,
        kept,
    } = s;
    *seats = n as u8;
    *hands = [Hand::default(); MAX_SEATS];
    for pile in [&mut *stock, &mut *aside, &mut *face_down] {
        pile.clear();
        pile.reserve(deck);
    }
    discard.clear_for(deck);
    *total = p.start;
    *clockwise = p.clockwise;
    *turn = 0;
    *chips = [0; MAX_SEATS];
    *bank = 0;
    *pot = 0;
    *round = 1;
    *dealer = 0;
    *out_of_game = 0;
    *out_of_round = 0;
    *forgot = [0; MAX_SEATS];
    *pending_draw = None;
    *round_winner = None;
    *round_loser = None;
    *round_over = false;
    *over = false;
    *winners = 0;
    *turns = 0;
    *again = 0;
    *known_not = [0; MAX_SEATS];
    *out_now = 0;
    *declared = 0;
    *laid_by = [super::state::NO_SEAT; 2];
    next_deal.clear();
    *rng = Rng::from_seed(seed);
    *stuck = None;
    kept.start(p);
}

/// Every account's chips: the rules' number, or the setup's.
fn place_chips(p: &Prepared, s: &mut State, setup: &Setup) -> Result<(), PlayError> {
    let n = usize::from(s.seats);
    for seat in 0..n as u8 {
        let acc = s.account(p, seat);
        s.chips[acc] = p.chips;
    }
    if let Some(chips) = &setup.chips {
        if chips.len() != n {
            return Err(PlayError::Setup(format!(
                "{} chip counts given for {n} players",
                chips.len()
            )));
        }
        for (seat, &c) in chips.iter().enumerate() {
            if c < 0 || i64::from(c) > NUMBER {
                return Err(PlayError::Setup(format!(
                    "seat {seat} cannot hold {c} chips (from 0 to {})",
                    grouped(NUMBER as u64)
                )));
            }
            let acc = s.account(p, seat as u8);
            // Partners share one pile: two counts for one pile would leave one of them
            // silently unused, so they must agree.
            if let Some(partner) = (0..seat).find(|&o| s.account(p, o as u8) == acc)
                && chips[partner] != c
            {
                return Err(PlayError::Setup(format!(
                    "seats {partner} and {seat} are partners and share one pile of chips, \
                     but are given {} and {c}: give them the same number",
                    chips[partner]
                )));
            }
            s.chips[acc] = c;
        }
        if !p.out_when_cannot_pay {
            for seat in 0..n as u8 {
                if s.chips_of(p, seat) == 0 {
                    s.out_of_game |= 1 << seat;
                }
            }
        }
    }
    s.out_of_round = s.out_of_game;
    let left = s.teams(p, s.out_of_game);
    if left < 2 {
        return Err(PlayError::Setup(format!(
            "{} in the game with these chips: a game needs at least 2",
            match left {
                0 => "nobody would be".to_string(),
                1 if p.team_size.is_some() => "only 1 team would be".to_string(),
                _ => "only 1 player would be".to_string(),
            }
        )));
    }
    Ok(())
}

/// The counts and the round's number, as the setup gives them (before the leader is found:
/// a leader may go by a count).
fn place_counts(p: &Prepared, s: &mut State, setup: &Setup) -> Result<(), PlayError> {
    for (i, values) in &setup.counts {
        let Some(info) = p.counts.get(usize::from(*i)) else {
            return Err(PlayError::Setup(format!("the ruleset keeps no count {i}")));
        };
        let want = if info.per_player {
            usize::from(s.seats)
        } else {
            1
        };
        if values.len() != want {
            return Err(PlayError::Setup(if info.per_player {
                format!(
                    "{} values of {} given for {want} players",
                    values.len(),
                    info.name
                )
            } else {
                format!(
                    "{} values of {} given: the table keeps one",
                    values.len(),
                    info.name
                )
            }));
        }
        for (seat, &v) in values.iter().enumerate() {
            if i64::from(v).abs() > NUMBER {
                return Err(PlayError::Setup(format!(
                    "{} cannot be {v} (from -{n} to {n})",
                    info.name,
                    n = grouped(NUMBER as u64)
                )));
            }
            if let Some(slot) = s.kept.count_mut(p, *i, seat as u8) {
                *slot = v;
            }
        }
    }
    if let Some(r) = setup.round {
        if r < 1 || i64::from(r) > NUMBER {
            return Err(PlayError::Setup(format!(
                "there is no round {r}: rounds count from 1"
            )));
        }
        if let Some(last) = p.rounds.filter(|&last| r > last) {
            return Err(PlayError::Setup(format!(
                "there is no round {r}: the game ends after {last} rounds"
            )));
        }
        s.round = r;
    }
    Ok(())
}

/// Places the cards: fixed ones first, every other card of the deck under the stock. Whether
/// the hands were given (else they are dealt).
fn place_cards(p: &Prepared, s: &mut State, setup: &Setup) -> Result<bool, PlayError> {
    let n = usize::from(s.seats);
    // The deck goes where its unplaced cards will lie; the cards the setup fixes are taken
    // out of it, and what is left is shuffled in place (for a fresh deal, the whole deck).
    let rest = if setup.stock_only {
        &mut s.face_down
    } else {
        &mut s.stock
    };
    let from = rest.len();
    p.deck_into(n, rest);
    let mut take = |card: Card| -> Result<Card, PlayError> {
        let pos = rest[from..]
            .iter()
            .position(|c| same_face(*c, card))
            .ok_or_else(|| {
                let why = if p.deck(n).any(|c| same_face(c, card)) {
                    "left in the deck for this position"
                } else {
                    "in this deck"
                };
                PlayError::Setup(format!("there is no {} {why}", card_name(card)))
            })?;
        Ok(rest.swap_remove(from + pos))
    };
    let mut hands_given = false;
    if let Some(hands) = &setup.hands {
        if hands.len() != n {
            return Err(PlayError::Setup(format!(
                "{} hands given for {n} players",
                hands.len()
            )));
        }
        for (seat, cards) in hands.iter().enumerate() {
            if cards.len() > MAX_HAND {
                return Err(PlayError::Setup(format!(
                    "seat {seat} holds more than {MAX_HAND} cards"
                )));
            }
            for &c in cards {
                let c = take(c)?;
                s.hands[seat].push(c);
            }
        }
        hands_given = true;
    }
    let mut top: Vec<Card> = Vec::new();
    if let Some(deck) = &setup.deck {
        for &c in deck {
            top.push(take(c)?);
        }
    }
    let mut discard: Vec<Card> = Vec::new();
    if let Some(d) = &setup.discard {
        for &c in d {
            discard.push(take(c)?);
        }
    }
    s.rng.shuffle(&mut rest[from..]);
    s.stock.extend(top.iter().rev());
    s.discard.extend(discard);
    Ok(hands_given)
}

/// Deals each seat in the game its hand, one card at a time from the left of the dealer.
/// The seats are listed once in the deal's order; when the stock holds every hand (every
/// deal of a game that gathers the cards), each card's place is known from its position in
/// the stock.
pub(super) fn deal(p: &Program, s: &mut State) {
    // A new deal: no one knows any card of another's hand.
    s.kept.seen.clear();
    let size = p.hand_size(s.seats_in_game());
    if size == 0 {
        // Not a hand the verifier passes; nothing to deal.
        return;
    }
    let first = s.next_in_game(s.dealer, p.deal_clockwise);
    // The seats in the game from `first` up, then from 0: the deal's order.
    let in_game = !u32::from(s.out_of_game) & ((1 << s.seats) - 1);
    let from_first = in_game & !((1 << first) - 1);
    let mut order = [0u8; MAX_SEATS];
    let mut k = 0;
    for part in [from_first, in_game & !from_first] {
        let mut seats = part;
        while seats != 0 && k < MAX_SEATS {
            order[k] = seats.trailing_zeros() as u8;
            k += 1;
            seats &= seats - 1;
        }
    }
    let order = &order[..k];
    let len = s.stock.len();
    if len < size * k {
        // Not enough for every hand: one card at a time while there are some.
        for _ in 0..size {
            for &seat in order {
                if let Some(c) = s.stock.pop() {
                    s.hands[usize::from(seat)].push(c);
                }
            }
        }
        return;
    }
    // The top card (the last) goes to the first seat, the next to the second, ...: seat
    // `q` of the order gets the cards `q`, `q + k`, `q + 2k`, ... from the top, a hand at a
    // time.
    let start = len - size * k;
    let dealt = &s.stock[start..];
    for (q, &seat) in order.iter().enumerate() {
        if let Some(hand) = s.hands.get_mut(usize::from(seat)) {
            hand.deal_every(dealt, dealt.len() - 1 - q, k, size);
        }
    }
    s.stock.truncate(start);
}

/// Who leads the round that is starting.
#[inline]
pub(super) fn leader(p: &Program, s: &State) -> u8 {
    if let Some(st) = p.leader.by {
        return leader_by(p, s, st);
    }
    let base = match p.leader.role {
        ir::Role::Dealer => Some(s.dealer),
        ir::Role::Loser => s.round_loser,
        ir::Role::Winner => s.round_winner,
    };
    let (base, offset) = match base {
        Some(b) => (b, p.leader.offset),
        None => (s.dealer, 1),
    };
    match offset {
        0 if s.in_game(base) => base,
        o if o < 0 => s.next_in_game(base, !p.clockwise),
        _ => s.next_in_game(base, p.clockwise),
    }
}

/// `the player with the most points leads`: among the players in the game, the most (or
/// fewest) of what the line goes by; among those tied, the first from the tie rule's role
/// in its direction (from the dealer when there is no such player).
fn leader_by(p: &Program, s: &State, st: ir::Standing) -> u8 {
    let held = |x: u8| s.holding_of(p, x, st.by);
    let seats = (0..s.seats).filter(|&x| s.in_game(x));
    let best = if st.most {
        seats.map(held).max()
    } else {
        seats.map(held).min()
    };
    let base = match p.leader.role {
        ir::Role::Dealer => Some(s.dealer),
        ir::Role::Loser => s.round_loser,
        ir::Role::Winner => s.round_winner,
    }
    .unwrap_or(s.dealer);
    // `left` is the way play goes, as in `the player left of the dealer leads`.
    let way = if p.leader.offset < 0 {
        !p.clockwise
    } else {
        p.clockwise
    };
    let mut x = base;
    for _ in 0..s.seats {
        x = s.next_in_game(x, way);
        if Some(held(x)) == best {
            return x;
        }
    }
    s.next_in_game(s.dealer, p.clockwise)
}

/// The pot, the bank and the top of the next deal, as the setup gives them.
fn place_pools(p: &Prepared, s: &mut State, setup: &Setup) -> Result<(), PlayError> {
    if let Some(pot) = setup.pot {
        if pot < 0 {
            return Err(PlayError::Setup(format!("the pot cannot hold {pot} chips")));
        }
        s.pot = pot;
    }
    if let Some(bank) = setup.bank {
        s.bank = bank;
    }
    if let Some(cards) = &setup.next_deal {
        let deck: Vec<Card> = p.deck(usize::from(s.seats)).collect();
        for (i, &c) in cards.iter().enumerate() {
            let copies = deck.iter().filter(|d| same_face(**d, c)).count();
            let before = cards[..i].iter().filter(|d| same_face(**d, c)).count();
            if copies == 0 {
                return Err(PlayError::Setup(format!(
                    "there is no {} in this deck",
                    card_name(c)
                )));
            }
            if before >= copies {
                return Err(PlayError::Setup(format!(
                    "{} is in the next deal more times than the deck holds it",
                    card_name(c)
                )));
            }
        }
        s.next_deal.clone_from(cards);
    }
    Ok(())
}

/// A sink that passes on every event but a change of a count the setup gives.
struct GivenCounts<'a, S: Sink> {
    given: &'a [(u8, Vec<i32>)],
    sink: &'a mut S,
}

impl<S: Sink> Sink for GivenCounts<'_, S> {
    const WANTS: u32 = S::WANTS;
    fn event(&mut self, e: Event) {
        if let Event::Changed {
            what: crate::ir::Quantity::Count(i),
            ..
        } = e
            && self.given.iter().any(|(j, _)| *j == i)
        {
            return;
        }
        self.sink.event(e);
    }
}
