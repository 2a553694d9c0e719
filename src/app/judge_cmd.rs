//! `ninety judge`: one ruleset judged, or two side by side on the same deals.

use std::io::Write;

use super::atomic::{check_target, write_atomically};
use super::commands::{FAILED, OK, USAGE, load_for_command};
use super::load::player;
use crate::base::text::escape_lines;
use crate::compile::Loader;
use crate::ir::Program;
use crate::sim::judge::{self, JudgeConfig, Tally};

/// Options of `ninety judge`.
#[derive(Debug, Clone, Default)]
pub struct JudgeOptions {
    pub games: u64,
    pub players: Option<usize>,
    pub bot: String,
    pub seed: u64,
    pub jobs: usize,
    pub sets: Vec<(String, String)>,
    pub json: bool,
    /// `--length A..B`, as written.
    pub length: Option<String>,
    /// Also write the report as one self-contained HTML page, to this file.
    pub report: Option<String>,
    /// Play the skill ladder too, over a tenth of the games (at least 1) for each rung.
    pub skill: bool,
}

/// `A..B`: a target length in turns, inclusive.
pub fn parse_length(text: &str) -> Result<(u64, u64), String> {
    let shape =
        || format!("`--length {text}`: write the target in turns as A..B, like `--length 40..120`");
    let (a, b) = text.split_once("..").ok_or_else(shape)?;
    let a: u64 = a.trim().parse().map_err(|_| shape())?;
    let b: u64 = b.trim().parse().map_err(|_| shape())?;
    if a > b {
        return Err(format!(
            "`--length {text}`: the shortest ({a}) is above the longest ({b})"
        ));
    }
    Ok((a, b))
}

type Judged = (Program, JudgeConfig, Tally);

fn judge_one(
    loader: &dyn Loader,
    path: &str,
    o: &JudgeOptions,
    length: Option<(u64, u64)>,
) -> Result<Judged, (i32, String)> {
    let p = load_for_command(loader, path, &o.sets)?;
    let players = o.players.unwrap_or_else(|| p.default_players());
    p.check_players(players).map_err(|e| (USAGE, e))?;
    let bot = player(&o.bot).map_err(|e| (USAGE, e))?;
    let cfg = JudgeConfig {
        ruleset: path.to_string(),
        name: p.name.clone(),
        players,
        bot: o.bot.clone(),
        games: o.games,
        seed: o.seed,
        length,
        skill_games: o.skill.then(|| (o.games / 10).max(1)),
    };
    let t = judge::judge(&p, &bot, &cfg, o.jobs).map_err(|e| (FAILED, e))?;
    Ok((p, cfg, t))
}

/// `ninety judge RULESET [RULESET_B]`: the verdicts, the measures and the rules, as text or
/// `--json`. Exit 2 for a ruleset that cannot be read or options that do not fit it.
pub fn judge_cmd(
    loader: &dyn Loader,
    rulesets: &[String],
    o: &JudgeOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let fail = |err: &mut dyn Write, (code, why): (i32, String)| {
        let _ = writeln!(err, "error: {}", escape_lines(&why));
        code
    };
    if rulesets.is_empty() || rulesets.len() > 2 {
        return fail(err, (USAGE, "judge one ruleset, or two to compare".into()));
    }
    if o.games == 0 {
        return fail(err, (USAGE, "`--games 0`: judge at least 1 game".into()));
    }
    let length = match o.length.as_deref().map(parse_length).transpose() {
        Ok(l) => l,
        Err(e) => return fail(err, (USAGE, e)),
    };
    // A page that cannot be written fails before any game is played.
    if let Some(path) = &o.report
        && let Err(e) = check_target(std::path::Path::new(path), "a report")
    {
        return fail(
            err,
            (FAILED, format!("cannot write the report `{path}`: {e}")),
        );
    }
    let mut judged = Vec::new();
    for path in rulesets {
        match judge_one(loader, path, o, length) {
            Ok(j) => judged.push(j),
            Err(e) => return fail(err, e),
        }
    }
    fn view(j: &Judged) -> (&Program, &JudgeConfig, &Tally) {
        (&j.0, &j.1, &j.2)
    }
    let (a, b) = (judged.first().map(view), judged.get(1).map(view));
    let Some(a) = a else {
        return FAILED;
    };
    if let Some(path) = &o.report {
        let page = match b {
            None => judge::html(a.0, a.1, a.2),
            Some(b) => judge::html_compare(a, b),
        };
        if let Err(e) = write_atomically(std::path::Path::new(path), page.as_bytes(), "a report") {
            return fail(
                err,
                (FAILED, format!("cannot write the report `{path}`: {e}")),
            );
        }
    }
    if o.json {
        let _ = writeln!(out, "{}", judge::json(a, b));
    } else {
        let text = match b {
            None => judge::text(a.0, a.1, a.2),
            Some(b) => judge::text_compare(a, b),
        };
        let _ = write!(out, "{}", escape_lines(&text));
    }
    OK
}
