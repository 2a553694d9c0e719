//! A simulation, as `ninety sim RULESET --report FILE.html` runs it: the same games (one seed,
//! the same bots round the table), the same text report and the same self-contained page of
//! charts; and `ninety judge RULESET --report FILE.html`: its verdicts and its page. In a
//! browser both run in a Web Worker, one game after another.

use ninety::app::load::player;
use ninety::ir::Program;
use ninety::play::Player;
use ninety::play::Ruleset;
use ninety::sim::judge::{self, JudgeConfig};
use ninety::sim::{self, Config, Control, html};
use serde::Serialize;

/// The most games one click may ask for: a million games is a few minutes in a worker.
pub const MAX_GAMES: u64 = 1_000_000;

/// What a run gives the page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Run {
    pub games: u64,
    /// `sim`'s text report.
    pub text: String,
    /// `sim --report`'s page: one self-contained HTML document (nothing fetched or run).
    pub html: String,
}

/// Plays `games` games of `program` with `players` at the table (the ruleset's default when
/// `None`) and the bots named in `bots` round it (`cautious` when empty).
pub fn simulate(
    program: &Program,
    games: u64,
    players: Option<usize>,
    bots: &[String],
    seed: u64,
) -> Result<Run, String> {
    if games == 0 || games > MAX_GAMES {
        return Err(format!("a run plays from 1 to {MAX_GAMES} games"));
    }
    let players = players.unwrap_or_else(|| program.default_players());
    program.check_players(players)?;
    let names: Vec<String> = if bots.is_empty() {
        vec!["cautious".to_string()]
    } else {
        bots.to_vec()
    };
    let seats: Vec<Player> = names.iter().map(|n| player(n)).collect::<Result<_, _>>()?;
    let cfg = Config {
        ruleset: "playground".into(),
        name: program.name.clone(),
        players,
        bots: (0..players)
            .map(|i| names[i % names.len()].clone())
            .collect(),
        seed,
        games,
        sets: Vec::new(),
    };
    let ruleset = Ruleset::new(program.clone());
    let stats = sim::run(&ruleset, &seats, &cfg, &Control::jobs(1))?;
    Ok(Run {
        games: stats.games,
        text: sim::report(&cfg, &stats),
        html: html::single(&cfg, &stats),
    })
}

/// Judges `games` games of `program` as `ninety judge` does, `bot` in every seat: its text
/// (the verdicts, the measures, what each rule does) and its page.
pub fn judge_run(
    program: &Program,
    games: u64,
    players: Option<usize>,
    bot: &str,
    seed: u64,
) -> Result<Run, String> {
    if games == 0 || games > MAX_GAMES {
        return Err(format!("a run plays from 1 to {MAX_GAMES} games"));
    }
    let players = players.unwrap_or_else(|| program.default_players());
    program.check_players(players)?;
    let seat = player(bot)?;
    let cfg = JudgeConfig {
        ruleset: "playground".into(),
        name: program.name.clone(),
        players,
        bot: bot.to_string(),
        games,
        seed,
        length: None,
        skill_games: None,
        restrict: None,
    };
    let program = &Ruleset::new(program.clone());
    let tally = judge::judge(program, &seat, &cfg, 1)?;
    Ok(Run {
        games,
        text: judge::text(program, &cfg, &tally),
        html: judge::html(program, &cfg, &tally),
    })
}
