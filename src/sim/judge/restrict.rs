//! Restricted play (Jaffe et al., AIIDE 2012): a bot forbidden one rule of the program, in one
//! seat against the same bot unrestricted in every other seat, and the same deal played again
//! with no restriction. The change in that seat's win share, paired deal by deal, says how
//! much the rule is worth to a player who may use it. A rule the bot never uses changes no
//! move, so no deal.

use crate::play::Ruleset;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::super::WIN_UNIT;
use super::rules::{Source, Target, targets};
use crate::base::Rng;
use crate::base::rng::game_seed;
use crate::engine::{self, Event, Move, Moves, PlayError, Reason, Sink, State, kind};
use crate::play::{self, Bot, Player};

/// One rule forbidden, summed over the deals that finished both ways.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Row {
    pub label: String,
    pub deals: u64,
    /// The seat's win shares restricted and not, in units of [`WIN_UNIT`].
    pub restricted_wins: u64,
    pub free_wins: u64,
    /// The sum of the squared difference of the two, deal by deal, in units of `WIN_UNIT²`.
    pub diff_squares: u64,
    /// Turns at which the bot's own move was forbidden and another was played instead, and
    /// turns at which every legal move was forbidden (the rule was used anyway).
    pub replaced: u64,
    pub unavoidable: u64,
}

/// Restricted play over every rule, as `judge --restrict` played it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Restricted {
    pub bot: String,
    pub deals: u64,
    /// One row a rule, in the order of [`targets`].
    pub rows: Vec<Row>,
}

/// A row read: the change in win share in points, its 95% interval, beyond chance or not.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    pub bot: String,
    pub deals: u64,
    pub free_share: f64,
    pub restricted_share: f64,
    pub change: f64,
    pub low: f64,
    pub high: f64,
    pub beyond_chance: bool,
    pub replaced: u64,
    pub unavoidable: u64,
}

impl Change {
    /// The mean of the paired differences, `mean ± 1.96·s/√n` (docs/judge.md).
    pub fn of(bot: &str, r: &Row) -> Change {
        let n = r.deals as f64;
        let unit = WIN_UNIT as f64;
        let (rs, fs) = (r.restricted_wins as f64 / unit, r.free_wins as f64 / unit);
        let mean = if n > 0.0 { (rs - fs) / n } else { 0.0 };
        let half = if n >= 2.0 {
            let squares = r.diff_squares as f64 / (unit * unit);
            let var = ((squares - n * mean * mean) / (n - 1.0)).max(0.0);
            1.96 * (var / n).sqrt()
        } else {
            0.0
        };
        let (low, high) = (100.0 * (mean - half), 100.0 * (mean + half));
        Change {
            bot: bot.to_string(),
            deals: r.deals,
            free_share: if n > 0.0 { 100.0 * fs / n } else { 0.0 },
            restricted_share: if n > 0.0 { 100.0 * rs / n } else { 0.0 },
            change: 100.0 * mean,
            low,
            high,
            beyond_chance: n >= 2.0 && (low > 0.0 || high < 0.0),
            replaced: r.replaced,
            unavoidable: r.unavoidable,
        }
    }
}

/// Which rules a step used: the effects of the cards played, the outcome lists paid by or met.
#[derive(Default)]
struct Used {
    fx: Vec<u16>,
    outcomes: Vec<u16>,
    bars: Vec<(i32, bool)>,
    cannot_play: bool,
    no_cards: bool,
}

impl Sink for Used {
    const WANTS: u32 =
        kind::PLAY | kind::PAY | kind::BAR | kind::CANNOT_PLAY | kind::NO_CARDS | kind::MOMENT;
    fn event(&mut self, e: Event) {
        match e {
            Event::Moment { rule, .. } => self.outcomes.push(rule),
            Event::Play { fx, .. } => self.fx.push(fx),
            Event::Pay {
                rule,
                reason: Reason::RoundStart | Reason::RoundEnd | Reason::GameEnd,
                ..
            } => self.outcomes.push(rule),
            Event::Bar { value, passed, .. } => self.bars.push((value, passed)),
            Event::CannotPlay { .. } => self.cannot_play = true,
            Event::NoCards { .. } => self.no_cards = true,
            _ => {}
        }
    }
}

/// Whether playing `mv` from `s` uses the rule: the move is stepped on a copy and its events
/// are attributed as the tally attributes them (a card line by its effect, a bar by its value,
/// a trigger when it is met).
fn uses(p: &Ruleset, s: &State, mv: Move, source: &Source) -> bool {
    let mut copy = s.clone();
    let mut used = Used::default();
    // A move that fails is never "the rule": the bot's own fallback handles it.
    if engine::step(p, &mut copy, mv, &mut used).is_err() {
        return false;
    }
    match source {
        Source::Effects(fxs) => used.fx.iter().any(|f| fxs.contains(f)),
        Source::Other(k) => matches!(mv, Move::Other { index, .. } if index == *k),
        Source::Outcome(i) => {
            let i = Some(*i);
            let tr = &p.triggers;
            used.outcomes.iter().any(|o| Some(*o) == i)
                || used.bars.iter().any(|&(value, passed)| {
                    p.bars
                        .iter()
                        .find(|b| b.value == value)
                        .is_some_and(|b| if passed { b.pass == i } else { b.reach == i })
                })
                || (used.cannot_play && tr.cannot_play == i)
                || (used.no_cards && tr.no_cards == i)
        }
    }
}

/// What the restricted seat did with its turns.
#[derive(Default, Clone, Copy)]
struct Turns {
    replaced: u64,
    unavoidable: u64,
}

/// The restricted seat's turn: the bot's own move when it does not use the rule; otherwise
/// the same bot's move among the allowed ones, or its own when every legal move uses the rule.
fn restricted_turn(
    p: &Ruleset,
    s: &mut State,
    (bot, source, stop): (Bot, &Source, &dyn Fn() -> bool),
    rng: &mut Rng,
    turns: &mut Turns,
) -> Result<bool, PlayError> {
    let Some(own) = bot.choose_until(p, s, rng, stop) else {
        return Ok(false);
    };
    let mv = if uses(p, s, own, source) {
        let mut moves = Moves::new();
        s.legal_moves_into(p, &mut moves);
        moves.retain_plays();
        let allowed: Vec<Move> = moves
            .as_slice()
            .iter()
            .copied()
            .filter(|m| !uses(p, s, *m, source))
            .collect();
        if allowed.is_empty() {
            turns.unavoidable += 1;
            own
        } else {
            turns.replaced += 1;
            // The same bot, as if the forbidden moves were not there: a stronger player in
            // the seat would credit the rule with the difference in skill.
            bot.choose_among(p, s, rng, stop, &allowed).unwrap_or(own)
        }
    } else {
        own
    };
    play::play_and_draw(p, s, mv, &mut ())?;
    Ok(true)
}

/// A game's restricted seat: played by [`restricted_turn`], the others by their bot.
struct Restricting<'a> {
    bot: Bot,
    seat: usize,
    source: &'a Source,
    /// The game's stop, for a searching bot's move.
    stop: &'a dyn Fn() -> bool,
    turns: Turns,
}

impl Sink for Restricting<'_> {
    const WANTS: u32 = 0;
    fn event(&mut self, _: Event) {}
}

impl play::Watch for Restricting<'_> {
    const EVERY_TURN: bool = true;

    fn turn(
        &mut self,
        p: &Ruleset,
        s: &mut State,
        rng: &mut Rng,
    ) -> Option<Result<bool, PlayError>> {
        let who = (self.bot, self.source, self.stop);
        (usize::from(s.turn) == self.seat).then(|| restricted_turn(p, s, who, rng, &mut self.turns))
    }
}

/// The winners of one game (a bit a seat), `seat` restricted from `source` when given; `None`
/// when it failed or was stopped.
fn game(
    p: &Ruleset,
    players: usize,
    (bot, restricted): (Bot, Option<(usize, &Source)>),
    (seed, stopped): (u64, &dyn Fn() -> bool),
    turns: &mut Turns,
) -> Result<Option<u16>, String> {
    let seats: Vec<Player> = vec![Player::Bot(bot); players];
    match restricted {
        None => super::skill::winners_with(p, &seats, seed, stopped, &mut ()),
        Some((seat, source)) => {
            let mut w = Restricting {
                bot,
                seat,
                source,
                stop: stopped,
                turns: Turns::default(),
            };
            let won = super::skill::winners_with(p, &seats, seed, stopped, &mut w);
            *turns = w.turns;
            won
        }
    }
}

/// The win share of seat `seat` in a game's winners, in units of [`WIN_UNIT`].
fn share(winners: u16, seat: usize) -> u64 {
    if winners & (1 << seat) != 0 {
        WIN_UNIT / u64::from(winners.count_ones())
    } else {
        0
    }
}

/// Plays every rule forbidden over deals `0..deals` of the run seeded `seed` (the restricted
/// seat rotated deal by deal), on the current pool; stops early when `stopped` says so.
pub fn restrict(
    p: &Ruleset,
    players: usize,
    bot_name: &str,
    (deals, seed): (u64, u64),
    stopped: &(dyn Fn() -> bool + Sync),
) -> Result<Restricted, String> {
    let Some(bot) = Bot::from_name(bot_name) else {
        return Err(format!(
            "`--restrict-bot {bot_name}`: restricted play needs a built-in bot ({})",
            Bot::NAMES.join(", ")
        ));
    };
    let ts: Vec<Target> = targets(p, players);
    let mut rows: Vec<Row> = ts
        .iter()
        .map(|t| Row {
            label: t.label.clone(),
            ..Row::default()
        })
        .collect();
    let per_deal = (0..deals)
        .into_par_iter()
        .map(|i| (!stopped()).then_some(i))
        .while_some()
        .map(|i| -> Result<Vec<Row>, String> {
            let seat = (i % players as u64) as usize;
            let deal = game_seed(seed, i);
            let mut none = Turns::default();
            let Some(free) = game(p, players, (bot, None), (deal, stopped), &mut none)? else {
                return Ok(Vec::new());
            };
            let free = share(free, seat);
            ts.iter()
                .map(|t| {
                    let mut turns = Turns::default();
                    let won = game(
                        p,
                        players,
                        (bot, Some((seat, &t.source))),
                        (deal, stopped),
                        &mut turns,
                    )?;
                    let mut row = Row {
                        replaced: turns.replaced,
                        unavoidable: turns.unavoidable,
                        ..Row::default()
                    };
                    if let Some(w) = won {
                        let r = share(w, seat);
                        let d = r.abs_diff(free);
                        row.deals = 1;
                        row.restricted_wins = r;
                        row.free_wins = free;
                        row.diff_squares = d * d;
                    }
                    Ok(row)
                })
                .collect()
        })
        .try_fold(Vec::new, |mut acc: Vec<Vec<Row>>, one| {
            acc.push(one?);
            Ok::<_, String>(acc)
        })
        .try_reduce(Vec::new, |mut a, mut b| {
            a.append(&mut b);
            Ok(a)
        })?;
    for deal in per_deal {
        for (sum, one) in rows.iter_mut().zip(deal) {
            sum.deals += one.deals;
            sum.restricted_wins += one.restricted_wins;
            sum.free_wins += one.free_wins;
            sum.diff_squares = sum.diff_squares.saturating_add(one.diff_squares);
            sum.replaced += one.replaced;
            sum.unavoidable += one.unavoidable;
        }
    }
    Ok(Restricted {
        bot: bot.name().into_owned(),
        deals,
        rows,
    })
}
