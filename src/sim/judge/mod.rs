//! `judge`: whether a variant is good, and why. One simulation with the same bot in every
//! seat, counted as exact sums ([`Tally`]), read as measures with their 95% intervals
//! ([`lines`]), verdicts in plain words ([`verdicts`]), what each rule does ([`rules`]) and
//! what it is worth to a player ([`restrict`]), and two rulesets compared on the same deals
//! ([`compare`]), at a fixed count or until decided ([`until_decided`]). The formulas are in
//! docs/judge.md.

pub(in crate::sim) mod charts;
mod chips;
mod decide;
mod fair;
mod family;
mod html;
mod lines;
mod pace;
mod paired;
mod restrict;
mod rules;
mod skill;
mod sums;
mod tally;
mod text;

use crate::play::Ruleset;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::play::Player;

pub use decide::{
    DEFAULT_MEASURES, Decided, Decision, FIRST_LOOK, Outcome, Plan, decide, testable, until_decided,
};
pub use fair::FAIR_MARGIN;
pub use html::{html, html_compare};
pub(in crate::sim) use lines::z_for;
pub use lines::{Basis, Line, LineDiff, Unit, compare, lines, verdicts};
pub use pace::{DEFAULT_PACE_MS, pace_words};
pub use paired::Paired;
pub use restrict::{Change, Restricted, Row, restrict};
pub use rules::{RuleLine, Source, Target, rules, targets};
pub use skill::{LADDER, Rung, Skill, ladder, rung, skill};
pub use tally::{MICRO, Tally};
pub use text::{comparison_verdict, json, text, text_compare};

/// What a judge run is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JudgeConfig {
    pub ruleset: String,
    pub name: String,
    pub players: usize,
    pub bot: String,
    pub games: u64,
    pub seed: u64,
    /// A designer's target length in turns (`--length A..B`), inclusive.
    pub length: Option<(u64, u64)>,
    /// Milliseconds a turn at the table (`--pace`), for lengths in minutes.
    pub pace_ms: u32,
    /// A designer's target time at the table in minutes (`--minutes A..B`), inclusive.
    pub minutes: Option<(u32, u32)>,
    /// Deals for each rung of the skill ladder (`--skill`), when it is played.
    pub skill_games: Option<u64>,
    /// Restricted play (`--restrict`): its bot and its deals, when it is played.
    pub restrict: Option<(String, u64)>,
}

/// How a judge run is carried out: its threads and who may stop it (Ctrl-C). Neither changes
/// a figure, only how many games are played before a stop.
#[derive(Debug, Clone, Copy)]
pub struct Control<'a> {
    pub jobs: usize,
    /// Set (by Ctrl-C): games not yet started are skipped, a game under way stops within 64
    /// turns and is not counted, and the report covers the games played.
    pub cancel: Option<&'a AtomicBool>,
    /// Counts the games played, when given (a progress bar reads it).
    pub played: Option<&'a AtomicU64>,
    /// `(k, n)`: play only the games `i` with `i mod n == k - 1`, a slice of the run (the
    /// skill ladder and restricted play with the first slice); `None` for every game.
    pub shard: Option<(u64, u64)>,
}

impl Control<'_> {
    pub fn stopped(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
    }
}

/// Plays games `from, from + step, ...` below `to` of the run seeded `seed`, the seats'
/// players given, into one tally (on the current pool; the same for any number of threads).
pub(in crate::sim) fn play_range(
    p: &Ruleset,
    seats: &[Player],
    seed: u64,
    (from, to, step): (u64, u64, u64),
    (stopped, played): (&(dyn Fn() -> bool + Sync), Option<&AtomicU64>),
) -> Result<Tally, String> {
    let players = seats.len();
    let step = step.max(1);
    let count = to.saturating_sub(from).div_ceil(step);
    (0..count)
        .into_par_iter()
        .map(|j| (!stopped()).then_some(from + j * step))
        .while_some()
        .try_fold(
            || Tally::new(p, players),
            |mut t, i| {
                tally::play_game(p, seats, (seed, i), stopped, &mut t)?;
                if let Some(n) = played {
                    n.fetch_add(1, Ordering::Relaxed);
                }
                Ok::<Tally, String>(t)
            },
        )
        .try_reduce(
            || Tally::new(p, players),
            |mut a, b| {
                a.merge(&b);
                Ok(a)
            },
        )
}

/// Plays `cfg.games` games of `p`, `bot` in every seat, on `jobs` threads; the tally is the
/// same for any number of threads (each game is seeded by its number, every sum is exact).
pub fn judge(p: &Ruleset, bot: &Player, cfg: &JudgeConfig, jobs: usize) -> Result<Tally, String> {
    let control = Control {
        jobs,
        cancel: None,
        played: None,
        shard: None,
    };
    judge_with(p, bot, cfg, &control)
}

/// [`judge`] as `control` says: a Ctrl-C stops it with the games played so far.
pub fn judge_with(
    p: &Ruleset,
    bot: &Player,
    cfg: &JudgeConfig,
    control: &Control<'_>,
) -> Result<Tally, String> {
    let seats: Vec<Player> = (0..cfg.players).map(|_| bot.clone()).collect();
    let stopped = || control.stopped();
    super::run::on_threads(control.jobs, || {
        let (k, n) = control.shard.unwrap_or((1, 1));
        let mut t = play_range(
            p,
            &seats,
            cfg.seed,
            (k.saturating_sub(1), cfg.games, n),
            (&stopped, control.played),
        )?;
        if k == 1 {
            extras(p, cfg, &stopped, &mut t)?;
        }
        Ok(t)
    })?
}

/// The parts played apart from the games (on the current pool): the skill ladder and
/// restricted play, when the configuration asks for them.
fn extras(
    p: &Ruleset,
    cfg: &JudgeConfig,
    stopped: &(dyn Fn() -> bool + Sync),
    t: &mut Tally,
) -> Result<(), String> {
    if let Some(games) = cfg.skill_games {
        let s = skill::skill(p, cfg.players, (games, cfg.seed), stopped)?;
        t.skill = s.ladder;
        t.order = s.order;
    }
    if let Some((name, deals)) = &cfg.restrict {
        t.restricted = Some(restrict(p, cfg.players, name, (*deals, cfg.seed), stopped)?);
    }
    Ok(())
}
