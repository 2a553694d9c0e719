//! Skill and luck: a ladder of bots, each level one seat against the level below in every
//! other seat (the seat rotated game by game), and the same deal played again with the weak
//! bot in that seat too: how often a seat of no skill is among the winners.

use crate::play::Ruleset;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::super::WIN_UNIT;
use crate::base::rng::game_seed;
use crate::engine::Setup;
use crate::play::{self, Driver, Ending, Player, Watch};

/// The ladder, weakest first.
pub const LADDER: [&str; 4] = ["random", "cautious", "search", "ismcts:200"];

/// One rung: `strong` in one seat against `weak` in the others, over `games` deals.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Rung {
    pub weak: String,
    pub strong: String,
    /// Deals both games of which finished with a winner.
    pub games: u64,
    /// The strong seat's win shares, in units of [`WIN_UNIT`].
    pub strong_wins: u64,
    /// Deals at which the strong seat was among the winners (a shared win counted whole).
    #[serde(default)]
    pub strong_among: u64,
    /// The winners of the deals played with the weak bot in every seat, summed: over
    /// `games` deals of `P` seats, `winners_weak / (games·P)` is the share of games a seat
    /// is among the winners with no skill in it.
    #[serde(default)]
    pub winners_weak: u64,
}

impl Rung {
    /// CardStock's Order's sample: the strong seat's wins, its games, and the share a seat of
    /// no skill would have. Where some win is shared (one loser, teams), on not losing: the
    /// games the seat is among the winners against the share random seats are, so that a
    /// shared win does not cap it; otherwise on the win share against `1/P`.
    pub fn order_sample(&self, players: usize) -> (f64, f64, f64) {
        let n = self.games as f64;
        let seats = players.max(1) as f64;
        if self.winners_weak > self.games && self.games > 0 {
            (
                self.strong_among as f64,
                n,
                self.winners_weak as f64 / (n * seats),
            )
        } else {
            (self.strong_wins as f64 / WIN_UNIT as f64, n, 1.0 / seats)
        }
    }
}

/// The winners of one game (a bit a seat), or `None` when it failed or was stopped.
fn winners(
    p: &Ruleset,
    seats: &[Player],
    seed: u64,
    stopped: &dyn Fn() -> bool,
) -> Result<Option<u16>, String> {
    winners_with(p, seats, seed, stopped, &mut ())
}

/// One game of `seats.len()` players, watched by `w` (which may play a seat its own way):
/// its winners (a bit a seat), or `None` when it failed, met the turn limit or was stopped.
pub(super) fn winners_with<W: Watch>(
    p: &Ruleset,
    seats: &[Player],
    seed: u64,
    stopped: &dyn Fn() -> bool,
    w: &mut W,
) -> Result<Option<u16>, String> {
    let setup = Setup {
        players: seats.len(),
        seed,
        ..Setup::default()
    };
    let mut driver = Driver::new(p, seats, seed);
    let mut s = match driver.start(&setup, w) {
        Ok(s) => s,
        Err(Ending::Guard) => return Err(play::GUARD_WORDS.to_string()),
        Err(_) => return Ok(None),
    };
    match driver.play_watched(&mut s, stopped, w) {
        Ending::Over => Ok((s.winners != 0).then_some(s.winners)),
        Ending::Guard => Err(play::GUARD_WORDS.to_string()),
        _ => Ok(None),
    }
}

/// Plays one rung over deals `0..games` of the run seeded `seed` (on the current pool),
/// until `stopped` says so.
pub fn rung(
    p: &Ruleset,
    players: usize,
    (weak, strong): (&str, &str),
    (games, seed): (u64, u64),
    stopped: &(dyn Fn() -> bool + Sync),
) -> Result<Rung, String> {
    let w = Player::builtin(weak)?;
    let s = Player::builtin(strong)?;
    let sums = (0..games)
        .into_par_iter()
        .map(|i| (!stopped()).then_some(i))
        .while_some()
        .map(|i| -> Result<[u64; 4], String> {
            let seat = (i % players as u64) as usize;
            let mut seats: Vec<Player> = (0..players).map(|_| w.clone()).collect();
            let all_weak = seats.clone();
            seats[seat] = s.clone();
            let deal = game_seed(seed, i);
            let (Some(a), Some(b)) = (
                winners(p, &seats, deal, stopped)?,
                winners(p, &all_weak, deal, stopped)?,
            ) else {
                return Ok([0; 4]);
            };
            let won = if a & (1 << seat) != 0 {
                WIN_UNIT / u64::from(a.count_ones())
            } else {
                0
            };
            Ok([
                1,
                won,
                u64::from(a & (1 << seat) != 0),
                u64::from(b.count_ones()),
            ])
        })
        .try_reduce(
            || [0; 4],
            |x, y| Ok([x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] + y[3]]),
        )?;
    Ok(Rung {
        weak: weak.to_string(),
        strong: strong.to_string(),
        games: sums[0],
        strong_wins: sums[1],
        strong_among: sums[2],
        winners_weak: sums[3],
    })
}

/// The skill section: every rung of the ladder and, for each bot above `random`, that bot in
/// one seat against `random` in every other (CardStock's Order). Played on the current pool;
/// the same for any number of threads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Skill {
    pub ladder: Vec<Rung>,
    /// One rung a bot of the ladder above `random`, its weak bot `random`.
    pub order: Vec<Rung>,
}

/// Every rung of the ladder and every bot among random ones, `games` deals each, until
/// `stopped` says so.
pub fn skill(
    p: &Ruleset,
    players: usize,
    (games, seed): (u64, u64),
    stopped: &(dyn Fn() -> bool + Sync),
) -> Result<Skill, String> {
    let mut ladder = Vec::new();
    for pair in LADDER.windows(2) {
        ladder.push(rung(
            p,
            players,
            (pair[0], pair[1]),
            (games, seed),
            stopped,
        )?);
    }
    let mut order = Vec::new();
    for bot in &LADDER[1..] {
        // The first rung is already this bot among random ones: the same deals, the same games.
        match ladder
            .iter()
            .find(|r| r.weak == LADDER[0] && r.strong == *bot)
        {
            Some(r) => order.push(r.clone()),
            None => order.push(rung(p, players, (LADDER[0], bot), (games, seed), stopped)?),
        }
    }
    Ok(Skill { ladder, order })
}

/// Every rung of the ladder, `games` deals each, on `jobs` threads (the same for any number).
pub fn ladder(
    p: &Ruleset,
    players: usize,
    games: u64,
    seed: u64,
    jobs: usize,
) -> Result<Vec<Rung>, String> {
    super::super::run::on_threads(jobs, || {
        LADDER
            .windows(2)
            .map(|pair| rung(p, players, (pair[0], pair[1]), (games, seed), &|| false))
            .collect()
    })?
}
