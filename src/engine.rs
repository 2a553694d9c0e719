//! The game engine: a game's whole state as plain data, and a step function that applies one
//! move to it under a compiled [`Program`], reporting what happened to an event [`Sink`].
//!
//! The engine knows primitives (add, set, choose, skip, reverse, play again, bars, pay,
//! eliminate, end a round, reset, deal, draw, reshuffle), never a particular game. Its hot
//! path reads only the compiled tables and allocates nothing: hands are fixed arrays, the
//! stock and discard pile are vectors sized once for the whole deck, and events cost nothing
//! when the sink is `()`.
//!
//! Randomness comes from xoshiro256++ (`rand_xoshiro`), seeded with `seed_from_u64`, and the
//! shuffle is our own Fisher-Yates over it, so one seed gives one game on every machine and
//! every version.

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::script::{Game, ScriptError, ScriptOut};

use crate::ir::{
    self, Act, MAX_CHOICES, MAX_HAND, MAX_SEATS, NO_EFFECT, OutcomeKind, Program, Who,
};

/// Answers of live scripts, remembered by what each script read: a script is a function of
/// the fields of the game it reads, so the same values of those fields give the same answer.
/// Per thread, bounded, keyed by the scripts' host (unique per compiled ruleset).
#[derive(Default)]
struct Memo {
    /// Per (host, script): every field any call of it has read.
    reads: std::collections::HashMap<(u64, usize), u16>,
    answers: std::collections::HashMap<(u64, usize, u64), ScriptOut>,
}

thread_local! {
    static MEMO: std::cell::RefCell<Memo> = std::cell::RefCell::new(Memo::default());
}

/// A live script's answer: remembered, or asked (and remembered).
fn live_effect(
    host: &crate::script::Host,
    fx: &ir::ScriptFx,
    index: usize,
    game: Game,
) -> Result<ScriptOut, ScriptError> {
    let id = (host.id, index);
    let known = MEMO.with(|m| {
        let m = m.borrow();
        let mask = *m.reads.get(&id)?;
        m.answers
            .get(&(host.id, index, game.fingerprint(mask)))
            .cloned()
    });
    if let Some(out) = known {
        return Ok(out);
    }
    let (out, read) = crate::script::reading(|| host.effect(&fx.func, game));
    let out = out?;
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        let mask = *m.reads.entry(id).and_modify(|r| *r |= read).or_insert(read);
        if m.answers.len() >= 65_536 {
            m.answers.clear();
        }
        m.answers
            .insert((host.id, index, game.fingerprint(mask)), out.clone());
    });
    Ok(out)
}

/// What the scripts of a move say, asked before the move changes anything (a failing script
/// leaves the game as it was).
#[derive(Debug)]
pub struct Pre<'p> {
    /// The total after the card.
    pub total: i32,
    /// Each script step's result, by step.
    outs: [Option<Cow<'p, ScriptOut>>; ir::MAX_STEPS],
    /// The script bars that fire, as bits.
    bars: u32,
}

/// A card: `copy * 56 + rank * 4 + suit`. Ranks 0 to 12 are A to K, 13 is the joker.
pub type Card = u8;

#[inline]
pub fn rank_of(card: Card) -> u8 {
    (card % 56) / 4
}

#[inline]
pub fn suit_of(card: Card) -> u8 {
    card % 4
}

/// `AS`, `10H`, `XD`.
pub fn card_name(card: Card) -> String {
    format!(
        "{}{}",
        ir::RANK_NAMES[usize::from(rank_of(card))],
        ir::SUITS[usize::from(suit_of(card))]
    )
}

/// Reads `9H`, `10h`, `TH`, `XS` (no choice part): rank and suit, the copy left at 0.
pub fn parse_card(text: &str) -> Option<Card> {
    let text = text.trim();
    let suit_char = text.chars().last()?.to_ascii_uppercase();
    let suit = ir::SUITS.iter().position(|s| *s == suit_char)? as u8;
    let rank = crate::check::parse_rank(&text[..text.len() - 1])?;
    Some(rank * 4 + suit)
}

/// A hand: a few cards in a fixed array.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Hand {
    cards: [Card; MAX_HAND],
    len: u8,
}

impl Hand {
    #[inline]
    pub fn cards(&self) -> &[Card] {
        &self.cards[..usize::from(self.len)]
    }
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    fn push(&mut self, c: Card) {
        if usize::from(self.len) < MAX_HAND {
            self.cards[usize::from(self.len)] = c;
            self.len += 1;
        }
    }
    fn remove(&mut self, index: usize) -> Card {
        let c = self.cards[index];
        self.cards
            .copy_within(index + 1..usize::from(self.len), index);
        self.len -= 1;
        c
    }
    fn clear(&mut self) {
        self.len = 0;
    }
}

/// A move: lay a card with one of its choices, or draw (when players draw by hand).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Move {
    Play { card: Card, choice: u8 },
    Draw,
}

/// The legal moves of a position, on the stack.
#[derive(Debug, Clone, Copy)]
pub struct Moves {
    list: [Move; MAX_HAND * MAX_CHOICES + 1],
    /// The total each move makes.
    totals: [i32; MAX_HAND * MAX_CHOICES + 1],
    len: usize,
}

impl Default for Moves {
    fn default() -> Self {
        Self::new()
    }
}

impl Moves {
    /// An empty list.
    pub fn new() -> Moves {
        Moves {
            list: [Move::Draw; MAX_HAND * MAX_CHOICES + 1],
            totals: [0; MAX_HAND * MAX_CHOICES + 1],
            len: 0,
        }
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.list[..self.len]
    }
    /// The total after each move of [`Moves::as_slice`].
    #[inline]
    pub fn totals(&self) -> &[i32] {
        &self.totals[..self.len]
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline]
    fn push(&mut self, m: Move, total: i32) {
        self.list[self.len] = m;
        self.totals[self.len] = total;
        self.len += 1;
    }
    /// Keeps the cards only (drops `draw`).
    pub fn retain_plays(&mut self) {
        if self.len > 0 && self.list[0] == Move::Draw {
            self.list.copy_within(1..self.len, 0);
            self.totals.copy_within(1..self.len, 0);
            self.len -= 1;
        }
    }
}

/// A bot's turn: its card, then (when players draw by hand) its draw, since bots never
/// forget. Returns `false` when it has no card.
pub fn bot_turn<S: Sink>(
    p: &Program,
    s: &mut State,
    bot: crate::bots::Bot,
    rng: &mut [u64; 4],
    sink: &mut S,
) -> Result<bool, PlayError> {
    let seat = s.turn;
    let Some(mv) = bot.choose(p, s, rng) else {
        return Ok(false);
    };
    step(p, s, mv, sink)?;
    if s.pending_draw == Some(seat) {
        step(p, s, Move::Draw, sink)?;
    }
    Ok(true)
}

/// Why a payment was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reason {
    Reached(i32),
    Passed(i32),
    /// A card's own effect.
    Card(u8),
    CannotPlay,
    NoCards,
    RoundStart,
    RoundEnd,
    GameEnd,
    /// A bar whose test is a script (its index in `Program::script_bars`).
    Script(u16),
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reason::Reached(v) => write!(f, "reached {v}"),
            Reason::Passed(v) => write!(f, "passed {v}"),
            Reason::Card(r) => write!(f, "played a {}", ir::RANK_WORDS[usize::from(*r)]),
            Reason::CannotPlay => f.write_str("could not play"),
            Reason::NoCards => f.write_str("had no cards"),
            Reason::RoundStart => f.write_str("start of the round"),
            Reason::RoundEnd => f.write_str("end of the round"),
            Reason::GameEnd => f.write_str("end of the game"),
            Reason::Script(_) => f.write_str("a house rule"),
        }
    }
}

/// Where chips go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PayTo {
    Bank,
    Pot,
    Seat(u8),
}

/// What happened, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    Deal {
        round: u32,
        dealer: u8,
        leader: u8,
    },
    Play {
        seat: u8,
        card: Card,
        choice: u8,
        total: i32,
        fx: u16,
    },
    Draw {
        seat: u8,
    },
    Forgot {
        seat: u8,
    },
    Reshuffle {
        cards: u16,
    },
    Skip {
        seat: u8,
    },
    Reverse {
        clockwise: bool,
    },
    PlayAgain {
        seat: u8,
    },
    CannotPlay {
        seat: u8,
    },
    NoCards {
        seat: u8,
    },
    /// `rule` is the index of the outcomes line that made them pay ([`Program::outcomes`]).
    Pay {
        seat: u8,
        amount: i32,
        to: PayTo,
        reason: Reason,
        rule: u16,
    },
    TakePot {
        seat: u8,
        amount: i32,
    },
    /// A bar with a rule was reached exactly (`passed` false) or passed by `seat`'s card.
    Bar {
        seat: u8,
        value: i32,
        passed: bool,
    },
    OutOfRound {
        seat: u8,
    },
    Eliminated {
        seat: u8,
    },
    TotalReset {
        total: i32,
    },
    RoundEnd {
        round: u32,
        winner: Option<u8>,
        loser: Option<u8>,
    },
    GameEnd {
        winners: u16,
    },
}

/// Receives events. `()` ignores them at no cost: the engine checks [`Sink::ON`] before it
/// builds one.
pub trait Sink {
    const ON: bool;
    fn event(&mut self, e: Event);
}

impl Sink for () {
    const ON: bool = false;
    #[inline]
    fn event(&mut self, _: Event) {}
}

impl Sink for Vec<Event> {
    const ON: bool = true;
    fn event(&mut self, e: Event) {
        self.push(e);
    }
}

/// The whole state of a game: plain data, serialisable, copied for undo.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub seats: u8,
    pub hands: [Hand; MAX_SEATS],
    /// The stock; its top card is the last.
    pub stock: Vec<Card>,
    /// The discard pile; its top card is the last.
    pub discard: Vec<Card>,
    /// Cards out of play until the next deal (hands of players out of the round, a reset pile).
    pub aside: Vec<Card>,
    pub total: i32,
    pub clockwise: bool,
    pub turn: u8,
    /// Chips by account: a seat's own, or its team's (see [`State::account`]).
    pub chips: [i32; MAX_SEATS],
    pub bank: i32,
    pub pot: i32,
    pub round: u32,
    pub dealer: u8,
    /// Bit sets of seats.
    pub out_of_game: u16,
    pub out_of_round: u16,
    pub forgot: [u8; MAX_SEATS],
    /// A seat that has just played and may still draw (players draw by hand).
    pub pending_draw: Option<u8>,
    pub round_winner: Option<u8>,
    pub round_loser: Option<u8>,
    round_over: bool,
    pub over: bool,
    pub winners: u16,
    pub turns: u64,
    rng: [u64; 4],
}

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
    /// The stock is only the given cards; the rest of the deck is set aside until the next
    /// deal.
    pub stock_only: bool,
}

/// Why a position or move is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("{0}")]
    Setup(String),
    #[error("the game is over")]
    GameOver,
    #[error("{card} is not in seat {seat}'s hand")]
    NotInHand { seat: u8, card: String },
    #[error("{card} cannot be played: {why}")]
    Illegal { card: String, why: String },
    #[error("there is nothing to draw now: {0}")]
    NoDraw(String),
    #[error("the game went on for {0} turns without ending: the ruleset may never end")]
    TurnLimit(u64),
    #[error("{0}; the move was not played")]
    Script(String),
}

/// The most turns a game may take before it is stopped as never-ending.
pub const TURN_LIMIT: u64 = 100_000;

/// A uniform index below `n` (Lemire's multiply-shift; the tiny bias is fixed by the seed,
/// so it is deterministic, which is what matters here).
#[inline]
fn below(rng: &mut [u64; 4], n: usize) -> usize {
    // xoshiro256++ step, inlined so the state lives in the game state itself.
    let s = rng;
    let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
    let t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = s[3].rotate_left(45);
    ((u128::from(result) * n as u128) >> 64) as usize
}

fn shuffle(rng: &mut [u64; 4], cards: &mut [Card]) {
    for i in (1..cards.len()).rev() {
        let j = below(rng, i + 1);
        cards.swap(i, j);
    }
}

/// The seed expanded to xoshiro256++'s state, as `rand_xoshiro` does it.
fn seed_state(seed: u64) -> [u64; 4] {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    [
        rng.next_u64(),
        rng.next_u64(),
        rng.next_u64(),
        rng.next_u64(),
    ]
}

/// A random number below `n` drawn from a separate stream (bots use their own).
pub fn rng_below(state: &mut [u64; 4], n: usize) -> usize {
    below(state, n)
}

/// A stream for a bot, independent of the game's.
pub fn bot_rng(seed: u64) -> [u64; 4] {
    seed_state(seed ^ 0x9E37_79B9_7F4A_7C15)
}

/// The total after one choice of a card, from `total`: one folded instruction for most
/// cards, the steps for the others.
#[inline(always)]
pub fn choice_total(p: &Program, choice: &ir::Choice, total: i32) -> i32 {
    match choice.fast {
        ir::Fast::Add(n) => total.saturating_add(n),
        ir::Fast::Set(n) => n,
        ir::Fast::General => general_total(p, choice, total),
    }
}

/// The total after a choice that needs its steps run (conditions, products, scripts).
#[inline(never)]
fn general_total(p: &Program, choice: &ir::Choice, total: i32) -> i32 {
    let mut t = total;
    if choice.simple {
        for s in choice.steps() {
            t = s.then.apply(t);
        }
    } else {
        for s in choice.steps() {
            let act = match s.cond {
                Some(c) if !p.conds[usize::from(c)].holds(p, total) => s.otherwise,
                _ => s.then,
            };
            t = match act {
                // Without the game at hand, a live script leaves the total as it is; the
                // engine asks it with the game (see `State::move_total`).
                Act::Script(i) => p.script_fx[usize::from(i)]
                    .lookup(t)
                    .and_then(|o| o.total)
                    .unwrap_or(t),
                other => other.apply(t),
            };
        }
    }
    t
}

impl State {
    /// Chips of a seat are kept in its account: its own, or its team's.
    #[inline]
    pub fn account(&self, p: &Program, seat: u8) -> usize {
        match p.team_size {
            Some(size) if size > 0 => {
                usize::from(seat) % (usize::from(self.seats) / usize::from(size)).max(1)
            }
            _ => usize::from(seat),
        }
    }

    #[inline]
    pub fn chips_of(&self, p: &Program, seat: u8) -> i32 {
        self.chips[self.account(p, seat)]
    }

    #[inline]
    pub fn in_game(&self, seat: u8) -> bool {
        self.out_of_game & (1 << seat) == 0
    }

    #[inline]
    pub fn in_round(&self, seat: u8) -> bool {
        self.out_of_round & (1 << seat) == 0
    }

    /// Seats still in the round.
    /// How many teams (or players, without teams) have a seat not in `out`.
    pub fn teams(&self, p: &Program, out: u16) -> u32 {
        let mut accounts = 0u16;
        for x in 0..self.seats {
            if out & (1 << x) == 0 {
                accounts |= 1 << self.account(p, x);
            }
        }
        accounts.count_ones()
    }

    #[inline]
    pub fn active(&self) -> usize {
        (self.seat_mask() & !self.out_of_round).count_ones() as usize
    }

    #[inline]
    pub fn seats_in_game(&self) -> usize {
        (self.seat_mask() & !self.out_of_game).count_ones() as usize
    }

    #[inline]
    fn seat_mask(&self) -> u16 {
        ((1u32 << self.seats) - 1) as u16
    }

    /// The effect a rank has now (it may depend on how many players are left).
    #[inline]
    pub fn effect<'p>(&self, p: &'p Program, rank: u8) -> Option<&'p ir::Effect> {
        let idx = p.rank_fx[self.active().min(MAX_SEATS)][usize::from(rank)];
        (idx != NO_EFFECT).then(|| &p.effects[usize::from(idx)])
    }

    /// Whether a total is allowed by the limits.
    #[inline]
    pub fn allowed(p: &Program, total: i32) -> bool {
        p.ceiling.is_none_or(|c| total <= c.value) && p.floor.is_none_or(|f| total >= f.value)
    }

    /// Asks a move's scripts, tabulated or live: the total it makes, each script's result and
    /// the script bars that fire.
    pub fn ask_scripts<'p>(
        &self,
        p: &'p Program,
        rank: u8,
        ch: &ir::Choice,
    ) -> Result<Pre<'p>, ScriptError> {
        let old = self.total;
        let mut t = old;
        let mut outs: [Option<Cow<'p, ScriptOut>>; ir::MAX_STEPS] = [const { None }; ir::MAX_STEPS];
        let host = p.scripts.as_ref().map(|h| &h.0);
        let missing = || ScriptError {
            function: String::new(),
            place: String::new(),
            message: "the ruleset's scripts are not loaded".into(),
            line: None,
        };
        if ch.simple {
            t = choice_total(p, ch, old);
        } else {
            for (k, st) in ch.steps().iter().enumerate() {
                let act = match st.cond {
                    Some(c) if !p.conds[usize::from(c)].holds(p, old) => st.otherwise,
                    _ => st.then,
                };
                match act {
                    Act::Script(i) => {
                        let fx = &p.script_fx[usize::from(i)];
                        let out = match fx.lookup(t) {
                            Some(o) => Cow::Borrowed(o),
                            None => {
                                let host = host.ok_or_else(missing)?;
                                Cow::Owned(live_effect(
                                    host,
                                    fx,
                                    usize::from(i),
                                    Game::from_state(p, self, rank, old, t),
                                )?)
                            }
                        };
                        if let Some(n) = out.total {
                            t = n;
                        }
                        outs[k] = Some(out);
                    }
                    other => t = other.apply(t),
                }
            }
        }
        let mut bars = 0u32;
        for (j, b) in p.script_bars.iter().enumerate().take(32) {
            let host = host.ok_or_else(missing)?;
            if host.test(&b.func, Game::from_state(p, self, rank, old, t))? {
                bars |= 1 << j;
            }
        }
        Ok(Pre {
            total: t,
            outs,
            bars,
        })
    }

    /// The total a choice makes here, asking live scripts when it has any. A script that
    /// fails gives `None`: the move is offered anyway, and playing it reports the failure (a
    /// broken house rule must not pass for a player who cannot play).
    #[inline(never)]
    pub fn move_total(&self, p: &Program, rank: u8, ch: &ir::Choice) -> Option<i32> {
        if ch.scripted {
            self.ask_scripts(p, rank, ch).ok().map(|pre| pre.total)
        } else {
            Some(choice_total(p, ch, self.total))
        }
    }

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
        let active = self.active().min(MAX_SEATS);
        let hand = &self.hands[usize::from(self.turn)];
        for (i, &card) in hand.cards().iter().enumerate() {
            // Two copies of one card are one move.
            if hand.cards()[..i].iter().any(|c| c % 56 == card % 56) {
                continue;
            }
            let idx = p.rank_fx[active][usize::from(rank_of(card))];
            if idx == NO_EFFECT {
                continue;
            }
            let fx = &p.effects[usize::from(idx)];
            for (k, choice) in fx.choices().iter().enumerate() {
                let total = if choice.scripted {
                    // A script that fails gives the current total: the move is offered, and
                    // playing it reports the failure.
                    self.move_total(p, rank_of(card), choice)
                        .unwrap_or(self.total)
                } else {
                    choice_total(p, choice, self.total)
                };
                if Self::allowed(p, total) {
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
        let active = self.active().min(MAX_SEATS);
        let hand = self.hands[usize::from(self.turn)].cards();
        // Cards without scripts first: a live script is asked only when no other card will do.
        let playable = |scripted: bool| {
            hand.iter().any(|&card| {
                let idx = p.rank_fx[active][usize::from(rank_of(card))];
                idx != NO_EFFECT
                    && p.effects[usize::from(idx)]
                        .choices()
                        .iter()
                        .filter(|c| c.scripted == scripted)
                        .any(|c| {
                            let total = if scripted {
                                self.move_total(p, rank_of(card), c)
                            } else {
                                Some(choice_total(p, c, self.total))
                            };
                            total.is_none_or(|t| Self::allowed(p, t))
                        })
            })
        };
        playable(false) || playable(true)
    }

    /// The next seat still in the round, `steps` seats on in the direction of play.
    #[inline]
    fn next_seat(&self, from: u8, clockwise: bool) -> u8 {
        self.next_in(self.out_of_round, from, clockwise)
    }

    fn next_in_game(&self, from: u8, clockwise: bool) -> u8 {
        self.next_in(self.out_of_game, from, clockwise)
    }

    /// The next seat not in `out`, going round the table (no division on the hot path).
    #[inline]
    fn next_in(&self, out: u16, from: u8, clockwise: bool) -> u8 {
        let last = self.seats - 1;
        let mut s = from;
        for _ in 0..self.seats {
            s = match (clockwise, s) {
                (true, s) if s >= last => 0,
                (true, s) => s + 1,
                (false, 0) => last,
                (false, s) => s - 1,
            };
            if out & (1 << s) == 0 {
                return s;
            }
        }
        from
    }
}

/// Every card of the deck for `players` seats.
pub fn full_deck(p: &Program, players: usize) -> Vec<Card> {
    let mut deck = Vec::with_capacity(p.deck_size(players));
    for copy in 0..p.decks[players] {
        for rank in 0..13u8 {
            for suit in 0..4u8 {
                deck.push(copy * 56 + rank * 4 + suit);
            }
        }
        for j in 0..p.jokers.min(4) {
            deck.push(copy * 56 + ir::JOKER * 4 + j);
        }
    }
    deck
}

/// A new game at a position: a fresh first round, dealt as the rules say, with whatever the
/// setup fixes (a stacked stock, hands, total, chips, turn, direction).
pub fn new_game<S: Sink>(p: &Program, setup: &Setup, sink: &mut S) -> Result<State, PlayError> {
    let n = setup.players;
    if n < usize::from(p.min_players) || n > usize::from(p.max_players) {
        return Err(PlayError::Setup(format!(
            "{} is played by {} to {} players, not {n}",
            p.name, p.min_players, p.max_players
        )));
    }
    let mut s = State {
        seats: n as u8,
        hands: [Hand::default(); MAX_SEATS],
        stock: Vec::with_capacity(p.deck_size(n)),
        discard: Vec::with_capacity(p.deck_size(n)),
        aside: Vec::with_capacity(p.deck_size(n)),
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
        rng: seed_state(setup.seed),
    };
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
            if c < 0 {
                return Err(PlayError::Setup(format!(
                    "seat {seat} cannot hold {c} chips"
                )));
            }
            let acc = s.account(p, seat as u8);
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
    s.dealer = match (setup.dealer, p.first_dealer) {
        (Some(d), _) if usize::from(d) < n => d,
        (Some(d), _) => {
            return Err(PlayError::Setup(format!(
                "there is no seat {d} to deal at a table of {n}"
            )));
        }
        (None, Some(d)) => d.min(n as u8 - 1),
        (None, None) => below(&mut s.rng, n) as u8,
    };
    // Place the cards: fixed ones first, every other card of the deck under the stock.
    let mut pool = full_deck(p, n);
    let mut take = |card: Card| -> Result<Card, PlayError> {
        let pos = pool
            .iter()
            .position(|c| c % 56 == card % 56)
            .ok_or_else(|| {
                PlayError::Setup(format!(
                    "there is no {} left in the deck for this position",
                    card_name(card)
                ))
            })?;
        Ok(pool.swap_remove(pos))
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
    shuffle(&mut s.rng, &mut pool);
    if setup.stock_only {
        s.aside.extend(pool);
    } else {
        s.stock.extend(pool);
    }
    s.stock.extend(top.iter().rev());
    s.discard.extend(discard);
    if !hands_given {
        deal(p, &mut s);
    }
    s.turn = setup.turn.unwrap_or_else(|| leader(p, &s));
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
    if S::ON {
        sink.event(Event::Deal {
            round: 1,
            dealer: s.dealer,
            leader: s.turn,
        });
    }
    if let Some(i) = p.triggers.round_start {
        let lead = s.turn;
        run_outcomes(p, &mut s, i, lead, Reason::RoundStart, sink);
    }
    if let Some(t) = setup.total {
        s.total = t;
    }
    settle(p, &mut s, sink);
    debug_assert!(s.check_invariants(p).is_ok());
    Ok(s)
}

/// Deals each seat in the game its hand, one card at a time from the left of the dealer.
fn deal(p: &Program, s: &mut State) {
    let size = usize::from(p.hand[s.seats_in_game().clamp(2, MAX_SEATS)]);
    let first = s.next_in_game(s.dealer, p.deal_clockwise);
    for _ in 0..size {
        let mut seat = first;
        for _ in 0..s.seats {
            if s.in_game(seat)
                && let Some(c) = s.stock.pop()
            {
                s.hands[usize::from(seat)].push(c);
            }
            seat = (seat + 1) % s.seats;
        }
    }
}

/// Who leads the round that is starting.
fn leader(p: &Program, s: &State) -> u8 {
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

/// Applies one move by whoever is to play. An illegal move changes nothing.
#[inline]
pub fn step<S: Sink>(p: &Program, s: &mut State, mv: Move, sink: &mut S) -> Result<(), PlayError> {
    if s.over {
        return Err(PlayError::GameOver);
    }
    match mv {
        Move::Draw => {
            let Some(seat) = s.pending_draw.take() else {
                return Err(PlayError::NoDraw(if p.by_hand {
                    "draw right after your own card, before the next player plays".into()
                } else {
                    "in this ruleset players draw automatically".into()
                }));
            };
            draw(p, s, seat, sink);
            settle(p, s, sink);
            Ok(())
        }
        Move::Play { card, choice } => {
            let seat = s.turn;
            let hand = &s.hands[usize::from(seat)];
            let Some(index) = hand.cards().iter().position(|c| c % 56 == card % 56) else {
                return Err(PlayError::NotInHand {
                    seat,
                    card: card_name(card),
                });
            };
            let rank = rank_of(card);
            let Some(fx) = s.effect(p, rank) else {
                return Err(PlayError::Illegal {
                    card: card_name(card),
                    why: "the card has no effect".into(),
                });
            };
            let Some(ch) = fx.choices().get(usize::from(choice)) else {
                return Err(PlayError::Illegal {
                    card: card_name(card),
                    why: format!("it has no choice {}", choice + 1),
                });
            };
            // Scripts run before anything changes: a failing one leaves the game as it was.
            let pre = if ch.scripted || !p.script_bars.is_empty() {
                Some(
                    s.ask_scripts(p, rank, ch)
                        .map_err(|e| PlayError::Script(e.to_string()))?,
                )
            } else {
                None
            };
            let new_total = pre
                .as_ref()
                .map_or_else(|| choice_total(p, ch, s.total), |pre| pre.total);
            if !State::allowed(p, new_total) {
                return Err(PlayError::Illegal {
                    card: card_name(card),
                    why: illegal_reason(p, new_total),
                });
            }
            if let Some(pending) = s.pending_draw.take() {
                s.forgot[usize::from(pending)] = s.forgot[usize::from(pending)].saturating_add(1);
                if S::ON {
                    sink.event(Event::Forgot { seat: pending });
                }
            }

            let real = s.hands[usize::from(seat)].remove(index);
            s.discard.push(real);
            play_card(
                p,
                s,
                seat,
                rank,
                (ch, new_total),
                choice,
                real,
                pre.as_ref(),
                sink,
            );
            s.turns += 1;
            settle(p, s, sink);
            debug_assert!(s.check_invariants(p).is_ok(), "{:?}", s.check_invariants(p));
            Ok(())
        }
    }
}

/// Why a total is not allowed, naming the ruleset line.
pub fn illegal_reason(p: &Program, total: i32) -> String {
    match (p.ceiling, p.floor) {
        (Some(c), _) if total > c.value => format!(
            "it would take the total to {total}, and the total may not go above {} ({}: `{}`)",
            c.value,
            p.cite(c.origin),
            p.line_text(c.origin)
        ),
        (_, Some(f)) if total < f.value => format!(
            "it would take the total to {total}, and the total may not go below {} ({}: `{}`)",
            f.value,
            p.cite(f.origin),
            p.line_text(f.origin)
        ),
        _ => String::from("it is not allowed"),
    }
}

#[allow(clippy::too_many_arguments)]
fn play_card<S: Sink>(
    p: &Program,
    s: &mut State,
    seat: u8,
    rank: u8,
    (ch, new_total): (&ir::Choice, i32),
    choice: u8,
    card: Card,
    pre: Option<&Pre<'_>>,
    sink: &mut S,
) {
    let old = s.total;
    let mut t = old;
    let mut skip = ch.turn & ir::SKIP != 0;
    let mut reverse = ch.turn & ir::REVERSE != 0;
    let mut again = ch.turn & ir::AGAIN != 0;
    // The card's own outcomes, run after the card is told: a line's, or a script's (by step).
    let mut outcome_lists = [(0u16, false); ir::MAX_STEPS];
    let mut n_out = 0;
    // A simple choice is one superinstruction; others run step by step.
    let steps = if ch.simple {
        t = new_total;
        &[][..]
    } else {
        skip = false;
        reverse = false;
        again = false;
        ch.steps()
    };
    for (k, st) in steps.iter().enumerate() {
        let act = match st.cond {
            Some(c) if !p.conds[usize::from(c)].holds(p, old) => st.otherwise,
            _ => st.then,
        };
        match act {
            Act::Skip => skip = true,
            Act::Reverse => reverse = !reverse,
            Act::Again => again = true,
            Act::Outcomes(i) => {
                outcome_lists[n_out] = (i, false);
                n_out += 1;
            }
            Act::Script(_) => {
                if let Some(out) = pre.and_then(|pre| pre.outs[k].as_deref()) {
                    if let Some(n) = out.total {
                        t = n;
                    }
                    skip |= out.turn & ir::SKIP != 0;
                    reverse ^= out.turn & ir::REVERSE != 0;
                    again |= out.turn & ir::AGAIN != 0;
                    outcome_lists[n_out] = (k as u16, true);
                    n_out += 1;
                }
            }
            Act::Add(_) | Act::Set(_) | Act::Mul(_) | Act::Div(_) | Act::Nothing => {
                t = act.apply(t)
            }
        }
    }
    s.total = t;
    if S::ON {
        let fx = p.rank_fx[s.active().min(MAX_SEATS)][usize::from(rank)];
        sink.event(Event::Play {
            seat,
            card,
            choice,
            total: t,
            fx,
        });
    }
    for &(i, scripted) in &outcome_lists[..n_out] {
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
    for b in &p.bars {
        let v = b.value;
        let (reach, pass) = if old < v {
            (t == v, t > v)
        } else if old > v {
            (t == v && b.reach_either_way, t < v && b.pass_either_way)
        } else {
            (false, false)
        };
        if reach {
            if let Some(i) = b.reach {
                if S::ON {
                    sink.event(Event::Bar {
                        seat,
                        value: v,
                        passed: false,
                    });
                }
                run_outcomes(p, s, i, seat, Reason::Reached(v), sink);
            }
        } else if pass && let Some(i) = b.pass {
            if S::ON {
                sink.event(Event::Bar {
                    seat,
                    value: v,
                    passed: true,
                });
            }
            run_outcomes(p, s, i, seat, Reason::Passed(v), sink);
        }
    }
    if let Some(pre) = pre {
        for (j, b) in p.script_bars.iter().enumerate() {
            if pre.bars & (1 << j) != 0 {
                run_outcomes(p, s, b.outcomes, seat, Reason::Script(j as u16), sink);
            }
        }
    }
    if s.round_over || s.over {
        finish_round(p, s, sink);
        return;
    }
    if !s.in_round(seat) {
        // Put out by their own card: nothing to draw.
    } else if p.by_hand {
        s.pending_draw = Some(seat);
    } else {
        draw(p, s, seat, sink);
    }
    if reverse {
        s.clockwise = !s.clockwise;
        if S::ON {
            sink.event(Event::Reverse {
                clockwise: s.clockwise,
            });
        }
    }
    if !s.in_round(seat) {
        again = false;
    }
    if again {
        if S::ON {
            sink.event(Event::PlayAgain { seat });
        }
        s.turn = seat;
    } else {
        let mut next = s.next_seat(seat, s.clockwise);
        if skip {
            if S::ON {
                sink.event(Event::Skip { seat: next });
            }
            next = s.next_seat(next, s.clockwise);
        }
        s.turn = next;
    }
    let _ = card;
}

/// Draws one card for `seat`, if its hand is short, reshuffling the discard pile (all but
/// its top card) into the stock when the stock is empty and the rules say so.
fn draw<S: Sink>(p: &Program, s: &mut State, seat: u8, sink: &mut S) {
    let size = usize::from(p.hand[s.seats_in_game().clamp(2, MAX_SEATS)]);
    if s.hands[usize::from(seat)].len() >= size {
        return;
    }
    if s.stock.is_empty() && p.reshuffle && s.discard.len() > 1 {
        let top = s.discard.pop().expect("the discard pile has cards");
        s.stock.append(&mut s.discard);
        s.discard.push(top);
        let n = s.stock.len();
        shuffle(&mut s.rng, &mut s.stock);
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
fn settle<S: Sink>(p: &Program, s: &mut State, sink: &mut S) {
    let mut passes = 0;
    while !s.over {
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
            continue;
        }
        s.turn = s.next_seat(seat, s.clockwise);
    }
}

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

fn run_outcomes<S: Sink>(
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
fn run_list<S: Sink>(
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
fn finish_round<S: Sink>(p: &Program, s: &mut State, sink: &mut S) {
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
    shuffle(&mut s.rng, &mut s.stock);
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

impl State {
    /// Every card is in exactly one place, and chips are conserved.
    pub fn check_invariants(&self, p: &Program) -> Result<(), String> {
        let n = usize::from(self.seats);
        // No allocation unless something is wrong: this runs after every step in debug builds.
        let mut count = [0u8; 256];
        for h in &self.hands[..n] {
            for &c in h.cards() {
                count[usize::from(c)] += 1;
            }
        }
        for &c in self.stock.iter().chain(&self.discard).chain(&self.aside) {
            count[usize::from(c)] += 1;
        }
        let deck = (0..p.decks[n]).flat_map(|copy| {
            (0..52u8)
                .chain((0..p.jokers.min(4)).map(|j| ir::JOKER * 4 + j))
                .map(move |c| copy * 56 + c)
        });
        for c in deck {
            if count[usize::from(c)] != 1 {
                return Err(format!(
                    "{} is in {} places",
                    card_name(c),
                    count[usize::from(c)]
                ));
            }
            count[usize::from(c)] = 0;
        }
        if let Some(c) = count.iter().position(|&k| k != 0) {
            return Err(format!("card {c} is not in the deck"));
        }
        for seat in 0..self.seats {
            if !self.in_round(seat) && !self.hands[usize::from(seat)].is_empty() {
                return Err(format!("seat {seat} is out of the round but holds cards"));
            }
        }
        Ok(())
    }

    /// Deals the cards `viewer` cannot see (the other hands and the stock) again at random,
    /// keeping every hand's size: one possible world, for a bot that searches.
    pub fn determinize(&mut self, _p: &Program, viewer: u8, rng: &mut [u64; 4]) {
        let mut pool: Vec<Card> = std::mem::take(&mut self.stock);
        let n = usize::from(self.seats);
        let mut sizes = [0usize; MAX_SEATS];
        for (seat, (size, hand)) in sizes
            .iter_mut()
            .zip(self.hands.iter_mut())
            .enumerate()
            .take(n)
        {
            if seat != usize::from(viewer) {
                *size = hand.len();
                pool.extend_from_slice(hand.cards());
                hand.clear();
            }
        }
        shuffle(rng, &mut pool);
        for (size, hand) in sizes.iter().zip(self.hands.iter_mut()).take(n) {
            for _ in 0..*size {
                if let Some(c) = pool.pop() {
                    hand.push(c);
                }
            }
        }
        self.stock = pool;
    }

    /// All chips: seats' accounts, the bank and the pot.
    pub fn chips_total(&self, p: &Program) -> i32 {
        let mut accounts = 0u16;
        let mut sum = 0;
        for seat in 0..self.seats {
            let a = self.account(p, seat);
            if accounts & (1 << a) == 0 {
                accounts |= 1 << a;
                sum += self.chips[a];
            }
        }
        sum + self.bank + self.pot
    }

    pub fn winner_list(&self) -> Vec<u8> {
        (0..self.seats)
            .filter(|x| self.winners & (1 << x) != 0)
            .collect()
    }
}
