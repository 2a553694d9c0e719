//! `tune`: which option values (and player counts) meet a designer's targets. Each table (one
//! set of values) is raced: played in doubling batches on the same deals as every other
//! table, looked at after each batch, and stopped as soon as it is shown to meet every target
//! or to miss one, so games go where the answer is still uncertain. A table's verdict is a
//! repeated test with Bonferroni-split error rates (docs/judge.md): over all its looks and
//! targets, "meets" is said of a table that misses a target, and "misses" of one that meets
//! every target, each with probability at most `alpha`.
//!
//! Each table's race depends on its own games only, so tables can be raced on different
//! machines (`--shard`) and their results put together, exactly as one machine gives them.

mod target;
mod text;

use serde::{Deserialize, Serialize};

use super::judge::{self, Control, JudgeConfig, Tally};
use crate::play::{Player, Ruleset};

pub use target::{ALIASES, Reading, State, Target, What, check, interval_at, parse, read, tests};
pub use text::{html, text};

/// The games of a table's first batch: enough for a mean or a share far from its target to
/// be decided, few enough that a table far off costs little.
pub const FIRST_BATCH: u64 = 250;
/// The most games a table gets when `--games` is not given (the seventh look of 250 doubled).
pub const DEFAULT_GAMES: u64 = 16_000;

/// The sequential test: its error rate and the games at each look.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    /// The chance of a wrong verdict of one table, either way, over all its looks and targets.
    pub alpha: f64,
    /// The games of a table at each look, doubling from [`FIRST_BATCH`] to the most.
    pub looks: Vec<u64>,
}

impl Plan {
    /// 5% a table; looks after 250, 500, 1,000, ... games, the last after `games`.
    pub fn new(games: u64) -> Plan {
        let mut looks = Vec::new();
        let mut n = FIRST_BATCH.min(games).max(1);
        while n < games {
            looks.push(n);
            n = n.saturating_mul(2);
        }
        looks.push(games.max(1));
        Plan { alpha: 0.05, looks }
    }

    /// The most games a table gets.
    pub fn games(&self) -> u64 {
        self.looks.last().copied().unwrap_or(0)
    }
}

/// One table of the search: its place in the grid, its players and its options' values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    pub index: usize,
    pub players: usize,
    pub values: Vec<(String, String)>,
}

impl Table {
    /// `lives=3, threshold=95` (and `4 players` when counts are searched).
    pub fn words(&self, counts: bool) -> String {
        let mut parts: Vec<String> = self
            .values
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        if counts {
            parts.push(format!("{} players", self.players));
        }
        if parts.is_empty() {
            return "as written".into();
        }
        parts.join(", ")
    }
}

/// What the race found of one table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Raced {
    pub table: Table,
    /// Games played (finished), at the last look.
    pub games: u64,
    /// Games that failed (a move refused, a script error): not counted in `games`.
    pub failed: u64,
    pub looks: u32,
    pub state: State,
    /// Each target's readings at the last look, at the test's level.
    pub readings: Vec<Reading>,
}

impl Raced {
    /// How far it is from meeting every target: the sum of its readings' distances.
    pub fn distance(&self) -> f64 {
        self.readings.iter().map(Reading::distance).sum()
    }

    /// How far its intervals reach out of every target: the sum of its readings' reaches.
    pub fn reach(&self) -> f64 {
        self.readings.iter().map(Reading::reach).sum()
    }

    /// Each target's state: a target of several readings misses if one does.
    pub fn target_state(&self, target: usize) -> State {
        State::all(
            self.readings
                .iter()
                .filter(|r| r.target == target)
                .map(|r| r.state),
        )
    }
}

/// One table to race: its place, its ruleset compiled with its values, and its run.
pub struct Entry<'a> {
    pub table: Table,
    pub ruleset: &'a Ruleset,
    pub config: &'a JudgeConfig,
}

impl std::fmt::Debug for Entry<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Entry")
            .field("table", &self.table)
            .field("config", self.config)
            .finish_non_exhaustive()
    }
}

/// The level of one table's tests: `alpha` split over its looks and its tests, one-sided.
fn z_of(plan: &Plan, tests: usize) -> f64 {
    let k = (plan.looks.len() * tests.max(1)) as f64;
    judge::z_for(plan.alpha / k)
}

/// Races every table, `bot` in every seat, as `plan` says; the same for any number of
/// threads. A Ctrl-C stops it at the next batch; the tables then say what their games showed.
pub fn race(
    entries: &[Entry<'_>],
    targets: &[Target],
    bot: &Player,
    plan: &Plan,
    control: &Control<'_>,
) -> Result<Vec<Raced>, String> {
    let stopped = || control.stopped();
    let zs: Vec<f64> = entries
        .iter()
        .map(|e| {
            let n: usize = targets
                .iter()
                .map(|t| tests(t, e.ruleset, e.config.players))
                .sum();
            z_of(plan, n)
        })
        .collect();
    super::run::on_threads(control.jobs, || {
        let mut tallies: Vec<Tally> = entries
            .iter()
            .map(|e| Tally::new(e.ruleset, e.config.players))
            .collect();
        let mut out: Vec<Raced> = entries
            .iter()
            .map(|e| Raced {
                table: e.table.clone(),
                games: 0,
                failed: 0,
                looks: 0,
                state: State::Undecided,
                readings: Vec::new(),
            })
            .collect();
        let mut from = 0;
        for &upto in &plan.looks {
            for (i, e) in entries.iter().enumerate() {
                if out[i].state != State::Undecided || stopped() {
                    continue;
                }
                let seats: Vec<Player> = (0..e.config.players).map(|_| bot.clone()).collect();
                let t = judge::play_range(
                    e.ruleset,
                    &seats,
                    e.config.seed,
                    (from, upto, 1),
                    (&stopped, control.played),
                )?;
                if stopped() {
                    break;
                }
                tallies[i].merge(&t);
                let r = &mut out[i];
                r.looks += 1;
                r.games = tallies[i].games;
                r.failed = tallies[i].failed;
                r.readings = read(targets, (e.ruleset, e.config, &tallies[i]), zs[i]);
                r.state = if tallies[i].games == 0 {
                    State::Undecided
                } else {
                    State::all(r.readings.iter().map(|x| x.state))
                };
            }
            from = upto;
        }
        Ok(out)
    })?
}

/// Tables in the order a designer reads them: those that meet every target, then the
/// undecided, then those that miss one; within each, the nearest to every target first (by
/// their estimates, then by how far their intervals reach out of the targets), then in the
/// grid's order.
pub fn ranked(raced: &[Raced]) -> Vec<&Raced> {
    let order = |s: State| match s {
        State::Meets => 0,
        State::Undecided => 1,
        State::Misses => 2,
    };
    let mut v: Vec<&Raced> = raced.iter().collect();
    v.sort_by(|a, b| {
        order(a.state)
            .cmp(&order(b.state))
            .then(a.distance().total_cmp(&b.distance()))
            .then(a.reach().total_cmp(&b.reach()))
            .then(a.table.index.cmp(&b.table.index))
    });
    v
}

/// What a whole tune run is, for its report and to tell its shards apart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TuneConfig {
    pub ruleset: String,
    pub name: String,
    pub bot: String,
    pub seed: u64,
    pub pace_ms: u32,
    /// The options searched and their values, in the grid's order (the last varies fastest).
    pub vary: Vec<(String, Vec<String>)>,
    /// The player counts searched (one when not searched).
    pub players: Vec<usize>,
    pub targets: Vec<Target>,
    pub plan: Plan,
    /// The tables of the whole grid.
    pub tables: usize,
}

/// A tune run's result: its configuration, the slice of the grid raced, and each table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tuned {
    pub config: TuneConfig,
    /// `(k, n)`: the tables `i` with `i mod n == k - 1`; `None` for the whole grid.
    pub shard: Option<(u64, u64)>,
    pub interrupted: bool,
    pub raced: Vec<Raced>,
}

impl Tuned {
    /// Games played over every table.
    pub fn games(&self) -> u64 {
        self.raced.iter().map(|r| r.games + r.failed).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::Rng;
    use crate::sim::WIN_UNIT;

    /// The fairness target raced as `race` does, on two-player games in which seat 0 wins
    /// with probability `p` and the first leader is chosen by a coin: its verdict.
    fn race_fair(p: f64, seed: u64, plan: &Plan) -> State {
        let mut rng = Rng::from_seed(seed);
        let mut t = Tally {
            players: 2,
            wins: vec![0, 0],
            ..Tally::default()
        };
        let cfg = JudgeConfig {
            ruleset: "r".into(),
            name: "R".into(),
            players: 2,
            bot: "cautious".into(),
            games: plan.games(),
            seed,
            length: None,
            pace_ms: judge::DEFAULT_PACE_MS,
            minutes: None,
            skill_games: None,
            restrict: None,
        };
        let targets = [parse("fair").expect("a target")];
        let z = z_of(plan, 2);
        for &n in &plan.looks {
            while t.games < n {
                let winner = usize::from(rng.below(1_000_000) as f64 >= p * 1e6);
                t.wins[winner] += WIN_UNIT;
                if rng.below(2) == winner {
                    t.first_wins += WIN_UNIT;
                }
                t.games += 1;
                t.with_winner += 1;
            }
            let readings = target::read_lines(&targets, &judge::lines(&t, &cfg), z);
            let s = State::all(readings.iter().map(|r| r.state));
            if s != State::Undecided {
                return s;
            }
        }
        State::Undecided
    }

    fn count(p: f64, seed: u64, state: State) -> usize {
        let plan = Plan::new(DEFAULT_GAMES);
        (0..200)
            .filter(|i| race_fair(p, seed * 1000 + i, &plan) == state)
            .count()
    }

    #[test]
    fn a_tables_verdict_is_wrong_at_most_one_time_in_twenty_over_all_its_looks() {
        // Seats exactly the margin apart (a 5-point gap): never shown fair more than 5% of
        // the time, however many looks; a fair game: shown unfair at most 5%, and shown fair
        // within the most games nearly always; 20 points apart: shown unfair.
        assert!(count(0.525, 1, State::Meets) <= 10);
        assert!(count(0.5, 2, State::Misses) <= 10);
        assert!(count(0.5, 3, State::Meets) >= 190);
        assert!(count(0.6, 4, State::Misses) >= 190);
    }

    #[test]
    fn the_looks_double_from_the_first_batch_to_the_most_games() {
        assert_eq!(
            Plan::new(16_000).looks,
            [250, 500, 1_000, 2_000, 4_000, 8_000, 16_000]
        );
        assert_eq!(Plan::new(3_000).looks, [250, 500, 1_000, 2_000, 3_000]);
        assert_eq!(Plan::new(100).looks, [100]);
        assert_eq!(Plan::new(1).looks, [1]);
    }

    #[test]
    fn among_undecided_tables_inside_their_targets_the_one_whose_interval_reaches_least_out_is_closest()
     {
        // The audit's case: the estimates of chips=5 (4.9) and chips=9 (3.1) both lie inside a
        // gap of at most 5; chips=5's interval reaches 2 points past it, chips=9's 0.2.
        let table = |index: usize, value: f64, low: f64, high: f64| Raced {
            table: Table {
                index,
                players: 3,
                values: vec![("chips".into(), index.to_string())],
            },
            games: 16_000,
            failed: 0,
            looks: 7,
            state: State::Undecided,
            readings: vec![Reading {
                target: 0,
                key: "seat_gap".into(),
                label: "largest gap between seats".into(),
                percent: true,
                value: Some(value),
                low: Some(low),
                high: Some(high),
                min: None,
                max: Some(5.0),
                state: State::Undecided,
            }],
        };
        let raced = [table(5, 4.9, 2.8, 7.0), table(9, 3.1, 1.0, 5.2)];
        let order: Vec<usize> = ranked(&raced).iter().map(|r| r.table.index).collect();
        assert_eq!(order, [9, 5]);
    }
}
