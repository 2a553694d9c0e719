//! The command line of the designer's tools that judge a variant: `judge` and `tune`, their
//! clap arguments turned into the library's options.

use std::io::{IsTerminal, Write};

use clap::Args;

use super::cli::{ctrl_c, jobs, sets};
use super::{judge_cmd, shard, tune_cmd};
use crate::compile::Shipped;

#[derive(Args)]
pub(super) struct JudgeArgs {
    /// One ruleset, or two to compare on the same seeded deals.
    #[arg(required_unless_present = "merge", num_args = 1..=2, value_name = "RULESETS")]
    rulesets: Vec<String>,
    /// Games to play (each ruleset plays them all, on the same deals); 20,000 when not
    /// given (enough for fairness within its 5-point margin), 1,000 a batch with
    /// --until-decided.
    #[arg(long, allow_negative_numbers = true, value_parser = super::cli::games_count)]
    games: Option<u64>,
    /// Players at each table (the ruleset's default when not given); a range, `2..5`, judges
    /// one ruleset at each count and sets the verdicts side by side.
    #[arg(long, value_name = "N or A..B")]
    players: Option<String>,
    /// Two rulesets whose default player counts differ: compare each at its own count
    /// (without it, or --players, such a comparison is refused).
    #[arg(long, conflicts_with = "players")]
    own_players: bool,
    /// The bot in every seat: `cautious`, `random`, `aggressive`, `search`, `ismcts[:N]` or
    /// `script:FILE.rhai`.
    #[arg(long, default_value = "cautious")]
    bot: String,
    /// The seed of the run: one seed, one report.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (the report is the same for any number; every core when not given).
    #[arg(long)]
    jobs: Option<usize>,
    /// Give an option of the rulesets a value: `--set chips=5` (repeat for more).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    sets: Vec<String>,
    /// Judge one ruleset at each value of an option, side by side on the same deals:
    /// `--sweep chips=3,5,7` or `--sweep chips=3..7`.
    #[arg(long, value_name = "NAME=VALUES")]
    sweep: Option<String>,
    /// A target length in turns, `A..B`: the report says the share of games that fit it.
    #[arg(long, value_name = "A..B")]
    length: Option<String>,
    /// Seconds a turn takes at the table (8 when not given): lengths are also said in
    /// minutes.
    #[arg(long, value_name = "SECONDS")]
    pace: Option<String>,
    /// A target time at the table in minutes, `A..B` (at --pace): the report says the share
    /// of games that take it.
    #[arg(long, value_name = "A..B")]
    minutes: Option<String>,
    /// Write every figure and verdict as one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Also write the report as one self-contained HTML page (inline SVG and CSS, nothing
    /// fetched); the text or JSON output stays as it is.
    #[arg(long, value_name = "FILE.html")]
    report: Option<String>,
    /// Also play the skill ladder (random, cautious, search, ismcts:200), each level in one
    /// seat against the level below, and each bot among random ones (CardStock's Order), on
    /// a tenth of --games (500 deals when --games is not given): skill levels and luck.
    #[arg(long)]
    skill: bool,
    /// Also play restricted play on a tenth of --games (500 deals when --games is not
    /// given): for each rule, the bot in one seat may not use it when it has another move;
    /// the change in its win share.
    #[arg(long)]
    restrict: bool,
    /// The bot of restricted play: a built-in one (`cautious`, `search`, `ismcts:200`, ...).
    #[arg(
        long,
        value_name = "BOT",
        default_value = "cautious",
        requires = "restrict"
    )]
    restrict_bot: String,
    /// Two rulesets: play them in batches of --games on the same deals until the measures
    /// are decided (a sequential test, 5% error each way, at most 20 batches).
    #[arg(long)]
    until_decided: bool,
    /// The measures --until-decided decides, by key (repeat or separate by commas; by
    /// default turns_mean, first_player and real_choice).
    #[arg(
        long,
        value_name = "KEY",
        value_delimiter = ',',
        requires = "until_decided"
    )]
    decide: Vec<String>,
    /// Play only the K-th of N slices of the games (`2/8`), or take the slice from a Slurm
    /// job array (`auto`) or a Kubernetes Indexed Job (`auto/N`); with --json, for --merge.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Put the slices' --json together: the report of the whole run (in the folder the
    /// slices ran in, whose rulesets it reads again).
    #[arg(long, value_name = "FILES", num_args = 1.., conflicts_with_all = ["rulesets", "shard"])]
    merge: Vec<String>,
}

pub(super) fn judge(a: JudgeArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, String> {
    if !a.merge.is_empty() {
        let o = judge_cmd::JudgeOptions {
            json: a.json,
            report: a.report,
            ..judge_cmd::JudgeOptions::default()
        };
        return Ok(super::judge_merge::merge_cmd(&a.merge, &o, out, err));
    }
    let env = |name: &str| std::env::var(name).ok();
    let counts = a
        .players
        .as_deref()
        .map(super::judge_counts::parse_players)
        .transpose()?;
    let (players, players_range) = match counts {
        Some((n, m)) if n == m => (Some(n), None),
        Some(range) => (None, Some(range)),
        None => (None, None),
    };
    let o = judge_cmd::JudgeOptions {
        games: a.games.unwrap_or(if a.until_decided {
            judge_cmd::BATCH_GAMES
        } else {
            judge_cmd::DEFAULT_GAMES
        }),
        side_games: a.games.map_or(judge_cmd::SIDE_GAMES, |g| (g / 10).max(1)),
        players,
        players_range,
        sweep: a
            .sweep
            .as_deref()
            .map(super::judge_counts::parse_sweep)
            .transpose()?,
        bot: a.bot,
        seed: a.seed,
        jobs: jobs(a.jobs, err)?,
        sets: sets(&a.sets)?,
        json: a.json,
        length: a.length,
        pace: a.pace,
        minutes: a.minutes,
        skill: a.skill,
        report: a.report,
        restrict: a.restrict.then_some(a.restrict_bot),
        until_decided: a.until_decided,
        own_players: a.own_players,
        decide: a.decide,
        cancel: ctrl_c(),
        progress: std::io::stderr().is_terminal(),
        shard: a
            .shard
            .as_deref()
            .map(|t| shard::parse(t, &env))
            .transpose()?,
    };
    Ok(judge_cmd::judge_cmd(&Shipped, &a.rulesets, &o, out, err))
}

#[derive(Args)]
pub(super) struct TuneArgs {
    /// The ruleset: a file, or the name of a shipped one (`ninety-nine`).
    #[arg(required_unless_present = "merge")]
    ruleset: Option<String>,
    /// An option and the values to search: `--vary chips=1..6` or `--vary chips=2,3,5`
    /// (repeat for more options: every combination is a table).
    #[arg(long, value_name = "NAME=VALUES")]
    vary: Vec<String>,
    /// Players at each table (the ruleset's default when not given); a range, `2..5`, searches
    /// the counts too.
    #[arg(long, value_name = "N or A..B")]
    players: Option<String>,
    /// A target every table is read against (repeat for more): `fair` (or `fair=3` for a
    /// 3-point margin), `minutes=15..30`, `length=40..120` (turns), `choice=60..` (turns with
    /// a real choice, in percent), `decides=..40` (no card line or move decides more than 40% of the lost
    /// rounds), or any measure of `ninety judge --json` with its range.
    #[arg(long = "target", value_name = "TARGET")]
    targets: Vec<String>,
    /// The most games a table gets (16,000 when not given); a table is stopped as soon as it
    /// is decided.
    #[arg(long, allow_negative_numbers = true, value_parser = super::cli::games_count)]
    games: Option<u64>,
    /// Seconds a turn takes at the table (8 when not given), for `minutes=`.
    #[arg(long, value_name = "SECONDS")]
    pace: Option<String>,
    /// The bot in every seat: `cautious`, `random`, `aggressive`, `search`, `ismcts[:N]` or
    /// `script:FILE.rhai`.
    #[arg(long, default_value = "cautious")]
    bot: String,
    /// The seed of the run: one seed, one report.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (the report is the same for any number; every core when not given).
    #[arg(long)]
    jobs: Option<usize>,
    /// Give an option a value at every table: `--set lives=3` (repeat for more).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    sets: Vec<String>,
    /// Write every table, its verdict and its readings as one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Also write the report as one self-contained HTML page.
    #[arg(long, value_name = "FILE.html")]
    report: Option<String>,
    /// Race only the K-th of N slices of the tables (`2/8`), or take the slice from a Slurm
    /// job array (`auto`) or a Kubernetes Indexed Job (`auto/N`); with --json, for --merge.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Put the shards' --json together: the report of the whole run.
    #[arg(long, value_name = "FILES", num_args = 1.., conflicts_with_all = ["ruleset", "shard", "vary", "targets"])]
    merge: Vec<String>,
}

pub(super) fn tune(a: TuneArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, String> {
    if !a.merge.is_empty() {
        let o = tune_cmd::TuneOptions {
            json: a.json,
            report: a.report,
            ..tune_cmd::TuneOptions::default()
        };
        return Ok(tune_cmd::merge_cmd(&a.merge, &o, out, err));
    }
    let env = |name: &str| std::env::var(name).ok();
    let o = tune_cmd::TuneOptions {
        games: a.games.unwrap_or(crate::sim::tune::DEFAULT_GAMES),
        players: a
            .players
            .as_deref()
            .map(super::judge_counts::parse_players)
            .transpose()?,
        vary: a
            .vary
            .iter()
            .map(|v| {
                super::judge_counts::parse_sweep(v).map_err(|e| e.replace("--sweep", "--vary"))
            })
            .collect::<Result<_, _>>()?,
        targets: a.targets,
        bot: a.bot,
        seed: a.seed,
        jobs: jobs(a.jobs, err)?,
        sets: sets(&a.sets)?,
        pace: a.pace,
        json: a.json,
        report: a.report,
        shard: a
            .shard
            .as_deref()
            .map(|t| shard::parse(t, &env))
            .transpose()?,
        cancel: ctrl_c(),
        progress: std::io::stderr().is_terminal(),
    };
    let ruleset = a.ruleset.unwrap_or_default();
    Ok(tune_cmd::tune_cmd(&Shipped, &ruleset, &o, out, err))
}
