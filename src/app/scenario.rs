//! Scenarios written inside a ruleset: a position, moves, and what must follow. `ninety
//! check` runs them; a failed one is a diagnostic at its line, expected against actual.

use crate::base::cards::{JOKER, card_name, parse_card, parse_cards, rank_of, same_face, suit_of};
use crate::base::diag::{Diag, did_you_mean, unknown_option_hint};
use crate::base::limits::{NUMBER, TRACE_EVENTS, grouped};
use crate::base::{Code, Span, Spanned};
use crate::compile::Layer;
use crate::engine::{self, Event, Move, PlayError, Setup, State};
use crate::ir::{MAX_HAND, MAX_SEATS};
use crate::lang::ast::{Expectation, Scenario, ScenarioStep, Turning};
use crate::play;
use crate::play::Ruleset;
use crate::present;

/// Compiles the ruleset again with option values (`set chips = 5` in a scenario).
pub type Recompile<'a> = &'a dyn Fn(&[(String, String)]) -> Result<Ruleset, String>;

/// Runs every scenario of a ruleset file; a diagnostic for each one that fails. All of them
/// share one game's allowance of script work: a file of many scenarios costs no more.
pub fn run_all(p: &Ruleset, layer: &Layer, recompile: Recompile<'_>) -> Vec<Diag> {
    let mut diags = Vec::new();
    let allowance = play::Allowance::open(p, &[]);
    for sc in &layer.file.scenarios {
        let sets: Vec<(String, String)> = sc
            .steps
            .iter()
            .filter_map(|st| match &st.node {
                ScenarioStep::Set(name, value) => {
                    Some((name.clone(), value.as_number().to_string()))
                }
                _ => None,
            })
            .collect();
        let unknown = sc.steps.iter().find_map(|st| match &st.node {
            ScenarioStep::Set(name, value) if p.option(name).is_none() => {
                Some((st.span, name.clone(), *value))
            }
            _ => None,
        });
        let result = if let Some((span, name, value)) = unknown {
            let names: Vec<&str> = p.options.iter().map(|o| o.name.as_str()).collect();
            let write = |n: &str| format!("set {n} = {}", value.as_number());
            let hint = unknown_option_hint(&name, &names, write);
            let diag = Diag::error(
                Code::ScenarioPosition,
                span,
                format!(
                    "scenario \"{}\": the ruleset has no option `{name}`",
                    sc.name.node
                ),
            )
            .label("no such option")
            .hint(hint);
            Err(match did_you_mean(&name, names.iter().copied()) {
                Some(n) => diag.fix(span, write(n)),
                None => diag,
            })
        } else if sets.is_empty() {
            run(p, sc)
        } else {
            match recompile(&sets) {
                Ok(q) => run(&q, sc),
                Err(e) => {
                    let span = sc
                        .steps
                        .iter()
                        .find(|s| matches!(s.node, ScenarioStep::Set(..)))
                        .map_or(sc.span, |s| s.span);
                    Err(Diag::error(
                        Code::ScenarioFailed,
                        span,
                        format!(
                            "scenario \"{}\": these option values do not check",
                            sc.name.node
                        ),
                    )
                    .hint(e))
                }
            }
        };
        // A scenario that passes is checked to test something its moves do.
        let idle = match &result {
            Err(_) => None,
            Ok(_) if sets.is_empty() => super::idle::tests_nothing(p, sc),
            Ok(_) => recompile(&sets)
                .ok()
                .and_then(|q| super::idle::tests_nothing(&q, sc)),
        };
        if let Some(d) = result.err().or(idle) {
            diags.push(d.in_source(&layer.source));
        }
    }
    drop(allowance);
    diags
}

/// What a scenario did, step by step, for messages and tests.
#[derive(Debug, Default)]
pub struct Trace {
    pub lines: Vec<String>,
}

struct Run<'p> {
    p: &'p Ruleset,
    setup: Setup,
    hands: Vec<Option<Vec<u8>>>,
    state: Option<State>,
    events: Vec<Event>,
    trace: Vec<String>,
    name: String,
    /// Where each part of the position was written, to point at the one at fault.
    spans: Spans,
    /// The chips and the total as written (before they are fitted to the engine's numbers).
    chips_written: Vec<i64>,
    total_written: Option<i64>,
}

/// Where each part of the position was written, with the numbers as written (a seat or a
/// count too big to set up is named as the scenario wrote it).
#[derive(Default)]
struct Spans {
    players: Option<(i64, Span)>,
    turn: Option<(i64, Span)>,
    chips: Option<Span>,
    total: Option<Span>,
    dealer: Option<(i64, Span)>,
    /// Each `hand` step: the seat as written, where, and how many cards.
    hands: Vec<(i64, Span, usize)>,
    cards: Vec<(u8, Span)>,
}

/// Runs one scenario.
pub fn run(p: &Ruleset, sc: &Scenario) -> Result<Trace, Diag> {
    let players = p.default_players();
    let mut r = Run {
        p,
        setup: Setup {
            players,
            seed: 0,
            ..Setup::default()
        },
        hands: Vec::new(),
        state: None,
        events: Vec::new(),
        trace: Vec::new(),
        name: sc.name.node.clone(),
        spans: Spans::default(),
        chips_written: Vec::new(),
        total_written: None,
    };
    let result = sc
        .steps
        .iter()
        .try_for_each(|step| r.step(&step.node, step.span))
        .and_then(|()| r.start(sc.span));
    result.map(|()| Trace { lines: r.trace })
}

impl Run<'_> {
    fn fail(&self, span: Span, message: impl std::fmt::Display) -> Diag {
        let mut hint = String::new();
        if !self.trace.is_empty() {
            // The last events only: a long game would make a hint of pages.
            let from = self.trace.len().saturating_sub(TRACE_EVENTS);
            let cut = if from > 0 { "… " } else { "" };
            hint = format!("what happened: {cut}{}", self.trace[from..].join(" "));
        }
        let d = Diag::error(
            Code::ScenarioFailed,
            span,
            format!("scenario \"{}\": {message}", self.name),
        )
        .label("this does not hold");
        if hint.is_empty() { d } else { d.hint(hint) }
    }

    fn position(&mut self, span: Span) -> Result<(), Diag> {
        if self.state.is_some() {
            return Err(self.fail(span, "the position is set after the first move")
                .hint("put `players`, `hand`, `stock`, `total`, `chips`, `turn` before the first `play`"));
        }
        Ok(())
    }

    fn cards(&mut self, list: &[Spanned<String>]) -> Result<Vec<u8>, Diag> {
        for c in list {
            if let Some(card) = parse_card(&c.node) {
                self.spans.cards.push((card, c.span));
            }
        }
        let text: Vec<&str> = list.iter().map(|c| c.node.as_str()).collect();
        parse_cards(&text.join(" ")).map_err(|e| {
            let span = list
                .iter()
                .find(|c| parse_card(&c.node).is_none())
                .map_or(Span::default(), |c| c.span);
            Diag::error(Code::BadCard, span, e)
                .label("not a card")
                .hint("cards are written rank then suit: `9H`, `10S`, `AD`, `XS` for a joker")
        })
    }

    /// Checks the position step by step, so a fault points at the line that made it.
    fn validate(&self, span: Span) -> Result<(), Diag> {
        let p = self.p;
        let n = self.setup.players;
        let bad = |at: Option<Span>, message: String, hint: String| {
            Err(Diag::error(
                Code::ScenarioPosition,
                at.unwrap_or(span),
                format!("scenario \"{}\": {message}", self.name),
            )
            .label("this position cannot be set up")
            .hint(hint))
        };
        if let Some((asked, at)) = self.spans.players
            && (asked < i64::from(p.min_players) || asked > i64::from(p.max_players))
        {
            return bad(
                Some(at),
                format!(
                    "{} is played by {} to {} players, not {asked}",
                    p.name, p.min_players, p.max_players
                ),
                format!("choose from {} to {} players", p.min_players, p.max_players),
            );
        }
        if let Err(message) = p.check_players(n) {
            return bad(
                self.spans.players.map(|(_, at)| at),
                message,
                format!("choose from {} to {} players", p.min_players, p.max_players),
            );
        }
        let no_seat = |seat: i64| format!("there is no seat {seat}: seats are 0 to {}", n - 1);
        if let Some((t, at)) = self.spans.turn.filter(|(t, _)| !(0..n as i64).contains(t)) {
            return bad(Some(at), no_seat(t), "seats are numbered from 0".into());
        }
        if let Some((d, at)) = self
            .spans
            .dealer
            .filter(|(d, _)| !(0..n as i64).contains(d))
        {
            return bad(Some(at), no_seat(d), "seats are numbered from 0".into());
        }
        if let Some(c) = self.setup.chips.as_ref().filter(|c| c.len() != n) {
            return bad(
                self.spans.chips,
                format!("{} chip counts for {n} players", c.len()),
                format!("give one count for each of the {n} seats"),
            );
        }
        if let Some((seat, c)) = self
            .chips_written
            .iter()
            .enumerate()
            .find(|(_, c)| **c < 0 || **c > NUMBER)
        {
            return bad(
                self.spans.chips,
                format!("seat {seat} cannot hold {c} chips"),
                format!("chips go from 0 to {}", grouped(NUMBER as u64)),
            );
        }
        // A limit that moves is read with the position's counts and round, as the game
        // sets it up (below): here only a limit that stays put.
        if let Some(t) = self.total_written
            && (t.abs() > NUMBER || (!p.moving_limits() && !p.allows(t as i32)))
        {
            return bad(
                self.spans.total,
                format!(
                    "the total cannot be {t}: {}",
                    present::illegal_total(p, t.clamp(-NUMBER, NUMBER) as i32)
                ),
                "set a total the ruleset's limits allow".into(),
            );
        }
        for (seat, at, cards) in &self.spans.hands {
            if !(0..n as i64).contains(seat) {
                return bad(
                    Some(*at),
                    format!("there is no seat {seat} at a table of {n}"),
                    "seats are numbered from 0".into(),
                );
            }
            if *cards > MAX_HAND {
                return bad(
                    Some(*at),
                    format!("seat {seat} holds {cards} cards: a hand holds at most {MAX_HAND}"),
                    "give each seat at most its hand of cards".into(),
                );
            }
        }
        let copies = usize::from(p.decks[n]);
        for (i, (card, at)) in self.spans.cards.iter().enumerate() {
            let before = self.spans.cards[..i]
                .iter()
                .filter(|(c, _)| same_face(*c, *card))
                .count();
            let exists =
                rank_of(*card) != JOKER || usize::from(suit_of(*card)) < usize::from(p.jokers);
            if !exists {
                return bad(
                    Some(*at),
                    format!("there is no {} in this deck", card_name(*card)),
                    "this deck has no jokers".into(),
                );
            }
            if before >= copies {
                let times = if copies == 1 {
                    "once".to_string()
                } else {
                    format!("{copies} times")
                };
                return bad(
                    Some(*at),
                    format!(
                        "{} is placed more than once, but the deck holds it {times}",
                        card_name(*card)
                    ),
                    "each card can be in one place only: a hand, the stock or the discard pile"
                        .into(),
                );
            }
        }
        Ok(())
    }

    fn start(&mut self, span: Span) -> Result<(), Diag> {
        if self.state.is_some() {
            return Ok(());
        }
        self.validate(span)?;
        if !self.hands.is_empty() {
            let n = self.setup.players;
            self.hands.resize(n.max(self.hands.len()), None);
            self.setup.hands = Some(
                self.hands
                    .iter()
                    .map(|h| h.clone().unwrap_or_default())
                    .collect(),
            );
            if self.hands.iter().any(Option::is_none) {
                // Seats without a given hand are dealt from the top of the stock.
                let size = usize::from(self.p.hand[n]);
                let mut deck = self.setup.deck.clone().unwrap_or_default();
                let mut hands = self.setup.hands.clone().unwrap_or_default();
                for (seat, h) in self.hands.iter().enumerate() {
                    if h.is_none() {
                        let take = size.min(deck.len());
                        hands[seat] = deck.drain(..take).collect();
                    }
                }
                self.setup.hands = Some(hands);
                self.setup.deck = Some(deck);
            }
        }
        match engine::new_game(self.p, &self.setup, &mut self.events) {
            Ok(s) => {
                self.state = Some(s);
                self.flush();
                self.stuck(span)
            }
            Err(e) => {
                // Pinned on the step that set what the engine refused.
                let text = e.to_string();
                let at = if text.contains("chips") || text.contains("in the game") {
                    self.spans.chips
                } else if text.contains("the turn") {
                    self.spans.turn.map(|(_, at)| at)
                } else if text.contains("deal") {
                    self.spans.dealer.map(|(_, at)| at)
                } else if text.contains("total") {
                    self.spans.total
                } else {
                    None
                };
                Err(Diag::error(
                    Code::ScenarioPosition,
                    at.unwrap_or(span),
                    format!(
                        "scenario \"{}\": the position cannot be set up: {e}",
                        self.name
                    ),
                )
                .label("this position cannot be set up"))
            }
        }
    }

    /// A game that stopped because it could not go on fails the scenario where it stopped.
    fn stuck(&self, span: Span) -> Result<(), Diag> {
        match self.state.as_ref().and_then(|s| s.stuck) {
            Some(stall) => Err(self.fail(span, present::stall_words(self.p, stall))),
            None => Ok(()),
        }
    }

    fn flush(&mut self) {
        for e in self.events.drain(..) {
            if !matches!(e, Event::Deal { round: 1, .. } | Event::Bar { .. }) {
                self.trace
                    .push(present::event_text(self.p, &e, &|s| format!("Seat {s}")));
            }
        }
    }

    /// The moves a written card stands for: its choice, or every choice when none is given.
    fn moves_of(&self, card: &Spanned<String>) -> Result<Vec<Move>, Diag> {
        let p = self.p;
        let s = self.state();
        match play::parse_move(p, s, &card.node) {
            Ok(mv) => Ok(vec![mv]),
            Err(play::MoveError::NeedsChoice { .. }) => {
                let c = parse_card(&card.node).ok_or_else(|| {
                    self.fail(card.span, format!("`{}` is not a card", card.node))
                })?;
                let c = s.hands[usize::from(s.turn)]
                    .cards()
                    .iter()
                    .copied()
                    .find(|x| same_face(*x, c))
                    .unwrap_or(c);
                let n = s.effect(p, rank_of(c)).map_or(1, |fx| fx.len);
                Ok((0..n).map(|k| Move::Play { card: c, choice: k }).collect())
            }
            // A card that names a player, written without one: each player it could name.
            Err(play::MoveError::NeedsPlayer { .. }) => {
                let text = card.node.trim();
                let mv = |seat: u8| play::parse_move(p, s, &format!("{text}>{seat}")).ok();
                Ok((0..s.seats)
                    .filter(|x| *x != s.turn)
                    .filter_map(mv)
                    .collect())
            }
            // A card that gives a card of the player's choice, written without one: each card
            // it could give.
            Err(play::MoveError::NeedsGift { .. }) => {
                let text = card.node.trim();
                let laid = parse_card(text.split(':').next().unwrap_or(text));
                let gifts: Vec<Move> = laid
                    .and_then(|c| {
                        s.hands[usize::from(s.turn)]
                            .cards()
                            .iter()
                            .find(|x| same_face(**x, c))
                            .copied()
                    })
                    .map(|c| s.giftable(c).collect::<Vec<_>>())
                    .unwrap_or_default()
                    .into_iter()
                    .filter_map(|g| {
                        play::parse_move(p, s, &format!("{text} give {}", card_name(g))).ok()
                    })
                    .collect();
                Ok(gifts)
            }
            Err(e) => Err(self.fail(card.span, e.to_string())),
        }
    }

    fn state(&self) -> &State {
        self.state.as_ref().expect("started")
    }

    fn step(&mut self, step: &ScenarioStep, span: Span) -> Result<(), Diag> {
        match step {
            ScenarioStep::Players(n) => {
                self.position(span)?;
                self.setup.players = (*n).clamp(0, MAX_SEATS as i64 + 1) as usize;
                self.spans.players = Some((*n, span));
            }
            ScenarioStep::Set(..) => {
                // Applied before the scenario runs (see `run_all`); only the position may
                // follow.
                self.position(span)?;
            }
            ScenarioStep::Total(t) => {
                self.position(span)?;
                self.setup.total = Some((*t).clamp(-NUMBER, NUMBER) as i32);
                self.total_written = Some(*t);
                self.spans.total = Some(span);
            }
            ScenarioStep::Chips(c) => {
                self.position(span)?;
                self.setup.chips = Some(c.iter().map(|x| (*x).clamp(-1, NUMBER) as i32).collect());
                self.chips_written = c.clone();
                self.spans.chips = Some(span);
            }
            ScenarioStep::Turn(t) => {
                self.position(span)?;
                self.setup.turn = Some((*t).clamp(0, 255) as u8);
                self.spans.turn = Some((*t, span));
            }
            ScenarioStep::Direction(d) => {
                self.position(span)?;
                self.setup.clockwise = Some(*d == Turning::Clockwise);
            }
            ScenarioStep::Hand(written, cards) => {
                self.position(span)?;
                let seat = (*written).clamp(0, MAX_SEATS as i64) as usize;
                self.spans.hands.push((*written, span, cards.len()));
                let cards = self.cards(cards)?;
                if self.hands.len() <= seat {
                    self.hands.resize(seat + 1, None);
                }
                self.hands[seat] = Some(cards);
            }
            ScenarioStep::Stock(cards, only) => {
                self.position(span)?;
                self.setup.deck = Some(self.cards(cards)?);
                self.setup.stock_only = *only;
            }
            ScenarioStep::Dealer(d) => {
                self.position(span)?;
                self.setup.dealer = Some((*d).clamp(0, 255) as u8);
                self.spans.dealer = Some((*d, span));
            }
            ScenarioStep::Discard(cards) => {
                self.position(span)?;
                self.setup.discard = Some(self.cards(cards)?);
            }
            ScenarioStep::Pot(n) => {
                self.position(span)?;
                self.setup.pot = Some((*n).clamp(0, i64::from(i32::MAX)) as i32);
            }
            ScenarioStep::Bank(n) => {
                self.position(span)?;
                self.setup.bank = Some((*n).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32);
            }
            ScenarioStep::NextDeal(cards) => {
                self.position(span)?;
                // The next deal's cards are not placed now: they are only named.
                let text: Vec<&str> = cards.iter().map(|c| c.node.as_str()).collect();
                let parsed = parse_cards(&text.join(" ")).map_err(|e| {
                    let at = cards
                        .iter()
                        .find(|c| parse_card(&c.node).is_none())
                        .map_or(span, |c| c.span);
                    Diag::error(Code::BadCard, at, e).label("not a card").hint(
                        "cards are written rank then suit: `9H`, `10S`, `AD`, `XS` for a joker",
                    )
                })?;
                self.setup.next_deal = Some(parsed);
            }
            ScenarioStep::Play(card) => {
                self.start(span)?;
                let p = self.p;
                let s = self.state.as_mut().expect("started");
                let mv = play::parse_move(p, s, &card.node)
                    .map_err(|e| self.fail(card.span, e.to_string()))?;
                let s = self.state.as_mut().expect("started");
                if let Err(e) = engine::step(p, s, mv, &mut self.events) {
                    let legal = play::legal_list(p, self.state());
                    return Err(self
                        .fail(
                            card.span,
                            format!("`play {}` fails: {}", card.node, present::play_error(p, &e)),
                        )
                        .hint(format!("legal moves here: {legal}")));
                }
                self.flush();
                self.stuck(card.span)?;
            }
            ScenarioStep::Draw => {
                self.start(span)?;
                let p = self.p;
                let s = self.state.as_mut().expect("started");
                if let Err(e) = engine::step(p, s, Move::Draw, &mut self.events) {
                    let e = present::play_error(p, &e);
                    return Err(self.fail(span, format!("`draw` fails: {e}")));
                }
                self.flush();
                self.stuck(span)?;
            }
            ScenarioStep::Count(name, values) => {
                self.position(span)?;
                let i = self.count_index(name)?;
                let values = values
                    .iter()
                    .map(|v| (*v).clamp(-NUMBER - 1, NUMBER + 1) as i32)
                    .collect();
                self.setup.counts.retain(|(j, _)| *j != i);
                self.setup.counts.push((i, values));
            }
            ScenarioStep::Round(r) => {
                self.position(span)?;
                self.setup.round = Some((*r).clamp(0, NUMBER + 1) as u32);
            }
            ScenarioStep::Expect(e) => {
                self.start(span)?;
                self.expect(e, span)?;
            }
        }
        Ok(())
    }

    /// `expect hand N holds: ...`: what is wrong with the seat's cards, if anything.
    fn holds(&mut self, seat: i64, list: &[Spanned<String>]) -> Result<Option<String>, Diag> {
        let want = self.cards(list)?;
        let s = self.state.as_ref().expect("started");
        let mut want: Vec<String> = want.iter().map(|&c| card_name(c)).collect();
        let mut got: Vec<String> = s
            .hands
            .get(seat.clamp(0, 63) as usize)
            .map(|h| h.cards().iter().map(|&c| card_name(c)).collect())
            .unwrap_or_default();
        want.sort();
        got.sort();
        Ok((want != got).then(|| {
            format!(
                "expected seat {seat} to hold {}, but it holds {}",
                want.join(" "),
                if got.is_empty() {
                    "no cards".into()
                } else {
                    got.join(" ")
                }
            )
        }))
    }

    /// The count a scenario names: its index in the program's counts.
    fn count_index(&self, name: &Spanned<String>) -> Result<u8, Diag> {
        let counts = &self.p.counts;
        match counts
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(&name.node))
        {
            Some(i) => Ok(i as u8),
            None => {
                let suggestion = did_you_mean(&name.node, counts.iter().map(|c| c.name.as_str()));
                let mut d = Diag::error(
                    Code::UnknownCount,
                    name.span,
                    format!("the ruleset keeps no count `{}`", name.node),
                )
                .label("not a count of this ruleset");
                d = match suggestion {
                    Some(n) => d.hint(format!("did you mean `{n}`?")).fix(name.span, n),
                    None if counts.is_empty() => d.hint(
                        "a count is declared in the ruleset: `count points for each player, starting at 0`",
                    ),
                    None => d.hint(format!(
                        "its counts are {}",
                        counts
                            .iter()
                            .map(|c| format!("`{}`", c.name))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                };
                Err(d)
            }
        }
    }

    fn expect(&mut self, e: &Expectation, span: Span) -> Result<(), Diag> {
        let p = self.p;
        let s = self.state();
        let list = |v: &[i64]| {
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let seats = |mask: &dyn Fn(u8) -> bool| {
            (0..s.seats)
                .filter(|x| mask(*x))
                .map(i64::from)
                .collect::<Vec<_>>()
        };
        let mismatch: Option<String> = match e {
            Expectation::Total(t) => (i64::from(s.total) != *t)
                .then(|| format!("expected total {t}, but it is {}", s.total)),
            Expectation::Chips(c) => {
                let actual: Vec<i64> = (0..s.seats).map(|x| i64::from(s.chips_of(p, x))).collect();
                (actual != *c)
                    .then(|| format!("expected chips {}, but they are {}", list(c), list(&actual)))
            }
            Expectation::Turn(t) => (i64::from(s.turn) != *t)
                .then(|| format!("expected seat {t} to play, but it is seat {}", s.turn)),
            Expectation::Out(v) => {
                let actual = seats(&|x| !s.in_game(x));
                let missing: Vec<i64> = v.iter().copied().filter(|x| !actual.contains(x)).collect();
                (!missing.is_empty()).then(|| {
                    format!(
                        "expected seat {} out of the game, but the seats out are [{}]",
                        list(&missing),
                        list(&actual)
                    )
                })
            }
            Expectation::RoundOver => (s.round < 2 && !s.over)
                .then(|| "expected the round to be over, but it goes on".to_string()),
            Expectation::GameOver => {
                (!s.over).then(|| "expected the game to be over, but it goes on".to_string())
            }
            Expectation::Winner(w) => {
                let actual: Vec<i64> = s.winner_list().into_iter().map(i64::from).collect();
                (actual != *w).then(|| {
                    format!(
                        "expected winner {}, but the winners are [{}]",
                        list(w),
                        list(&actual)
                    )
                })
            }
            Expectation::Illegal(card) | Expectation::Legal(card) => {
                let want_legal = matches!(e, Expectation::Legal(_));
                let moves = self.moves_of(card)?;
                let mut legal = Vec::new();
                let mut other = None;
                for mv in moves {
                    let mut copy = s.clone();
                    match engine::step(p, &mut copy, mv, &mut ()) {
                        Ok(()) => legal.push(play::move_name(p, s, mv)),
                        // A move the rules do not offer now is an illegal one.
                        Err(PlayError::Illegal { .. } | PlayError::NotOffered(_)) => {}
                        Err(e) => other = Some(e),
                    }
                }
                match (want_legal, other) {
                    (_, Some(e)) => Some(format!("`{}` cannot be tried: {e}", card.node)),
                    (false, None) if !legal.is_empty() => Some(format!(
                        "expected {} to be illegal, but {} can be played",
                        card.node,
                        legal.join(" and ")
                    )),
                    (true, None) if legal.is_empty() => Some(format!(
                        "expected {} to be legal, but it cannot be played",
                        card.node
                    )),
                    _ => None,
                }
            }
            Expectation::Dealer(d) => (i64::from(s.dealer) != *d)
                .then(|| format!("expected seat {d} to deal, but seat {} deals", s.dealer)),
            Expectation::Round(r) => (i64::from(s.round) != *r)
                .then(|| format!("expected round {r}, but it is round {}", s.round)),
            Expectation::Pot(n) => (i64::from(s.pot) != *n)
                .then(|| format!("expected {n} chips in the pot, but it holds {}", s.pot)),
            Expectation::Bank(n) => (i64::from(s.bank) != *n)
                .then(|| format!("expected {n} chips in the bank, but it holds {}", s.bank)),
            Expectation::Direction(d) => {
                let cw = *d == Turning::Clockwise;
                (s.clockwise != cw).then(|| {
                    format!(
                        "expected play to go {}, but it goes the other way",
                        present::direction_word(cw)
                    )
                })
            }
            Expectation::Count(name, want) => {
                let i = self.count_index(name)?;
                let per_player = p.counts.get(usize::from(i)).is_some_and(|c| c.per_player);
                let seats = if per_player { s.seats } else { 1 };
                let actual: Vec<i64> = (0..seats)
                    .map(|x| i64::from(s.kept.count(p, i, x)))
                    .collect();
                (actual != *want).then(|| {
                    format!(
                        "expected {} {}, but {} {}",
                        name.node,
                        list(want),
                        if actual.len() == 1 {
                            "it is"
                        } else {
                            "they are"
                        },
                        list(&actual)
                    )
                })
            }
            Expectation::Holds(seat, list) => self.holds(*seat, list)?,
            Expectation::HandSize(seat, n) => {
                let actual = s
                    .hands
                    .get((*seat).clamp(0, 63) as usize)
                    .map_or(0, |h| h.len() as i64);
                (actual != *n).then(|| {
                    format!("expected seat {seat} to hold {n} cards, but it holds {actual}")
                })
            }
        };
        match mismatch {
            None => {
                self.trace.push(String::from("✓"));
                self.trace.pop();
                Ok(())
            }
            Some(m) => Err(self.fail(span, m)),
        }
    }
}
