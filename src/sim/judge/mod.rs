//! `judge`: whether a variant is good, and why. One simulation with the same bot in every
//! seat, counted as exact sums ([`Tally`]), read as measures with their 95% intervals
//! ([`lines`]), verdicts in plain words ([`verdicts`]), what each rule does ([`rules`]), and
//! two rulesets compared on the same deals ([`compare`]). The formulas are in docs/judge.md.

mod html;
mod lines;
mod rules;
mod skill;
mod tally;
mod text;

use rayon::prelude::*;
use serde::Serialize;

use crate::ir::Program;
use crate::play::Player;

pub use html::{html, html_compare};
pub use lines::{Basis, Line, LineDiff, Unit, compare, lines, verdicts};
pub use rules::{RuleLine, rules};
pub use skill::{LADDER, Rung, ladder};
pub use tally::{MICRO, Tally};
pub use text::{json, text, text_compare};

/// What a judge run is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct JudgeConfig {
    pub ruleset: String,
    pub name: String,
    pub players: usize,
    pub bot: String,
    pub games: u64,
    pub seed: u64,
    /// A designer's target length in turns (`--length A..B`), inclusive.
    pub length: Option<(u64, u64)>,
    /// Deals for each rung of the skill ladder (`--skill`), when it is played.
    pub skill_games: Option<u64>,
}

/// Plays `cfg.games` games of `p`, `bot` in every seat, on `jobs` threads; the tally is the
/// same for any number of threads (each game is seeded by its number, every sum is exact).
pub fn judge(p: &Program, bot: &Player, cfg: &JudgeConfig, jobs: usize) -> Result<Tally, String> {
    let seats: Vec<Player> = (0..cfg.players).map(|_| bot.clone()).collect();
    let mut t = super::run::on_threads(jobs, || {
        (0..cfg.games)
            .into_par_iter()
            .try_fold(
                || Tally::new(p, cfg.players),
                |mut t, i| {
                    tally::play_game(p, &seats, (cfg.seed, i), &mut t)?;
                    Ok::<Tally, String>(t)
                },
            )
            .try_reduce(
                || Tally::new(p, cfg.players),
                |mut a, b| {
                    a.merge(&b);
                    Ok(a)
                },
            )
    })??;
    if let Some(games) = cfg.skill_games {
        t.skill = ladder(p, cfg.players, games, cfg.seed, jobs)?;
    }
    Ok(t)
}
