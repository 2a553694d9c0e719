//! `ninety judge`: one ruleset judged, or two side by side on the same deals.

use crate::play::Ruleset;
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use super::atomic::check_target;
use super::commands::{FAILED, OK, USAGE, fail, load_to_measure};
use super::load::player;
use crate::base::text::escape_lines;
use crate::compile::Loader;
use crate::sim::judge::{self, Control, Decision, JudgeConfig, Plan, Tally};

/// Options of `ninety judge`.
#[derive(Debug, Clone, Default)]
pub struct JudgeOptions {
    pub games: u64,
    pub players: Option<usize>,
    /// `--players A..B`: judge the one ruleset at each count, side by side.
    pub players_range: Option<(usize, usize)>,
    /// `--sweep NAME=V1,V2,...`: judge the one ruleset at each value of the option, side by
    /// side.
    pub sweep: Option<(String, Vec<String>)>,
    pub bot: String,
    pub seed: u64,
    pub jobs: usize,
    pub sets: Vec<(String, String)>,
    pub json: bool,
    /// `--length A..B`, as written.
    pub length: Option<String>,
    /// `--pace SECONDS`, as written (seconds a turn at the table).
    pub pace: Option<String>,
    /// `--minutes A..B`, as written.
    pub minutes: Option<String>,
    /// Also write the report as one self-contained HTML page, to this file.
    pub report: Option<String>,
    /// Play the skill ladder too, over `side_games` deals for each rung.
    pub skill: bool,
    /// Restricted play with this bot, over `side_games` deals.
    pub restrict: Option<String>,
    /// The deals of the skill ladder's rungs and of restricted play (slow bots): a tenth of
    /// `--games` (at least 1), or [`SIDE_GAMES`] when `--games` is not given.
    pub side_games: u64,
    /// Two rulesets: play batches of `games` until the measures are decided.
    pub until_decided: bool,
    /// Two rulesets whose default player counts differ: compare each at its own (else the
    /// comparison is refused unless `players` says the count).
    pub own_players: bool,
    /// The measures `--until-decided` looks at (its defaults when empty).
    pub decide: Vec<String>,
    /// Set by Ctrl-C: the report covers the games played.
    pub cancel: Arc<AtomicBool>,
    /// Draw a progress bar on standard error (it is a terminal).
    pub progress: bool,
    /// `--shard K/N`: play the K-th of N slices of the games, for `--merge`.
    pub shard: Option<(u64, u64)>,
}

/// The games of a judge when `--games` is not given: enough that Ninety-Nine's fairness is
/// decided within its 5-point margin run after run (at 1,000 it is mostly "not decided"),
/// at about half a second on two cores.
pub const DEFAULT_GAMES: u64 = 20_000;
/// The games of each batch of `--until-decided` when `--games` is not given.
pub const BATCH_GAMES: u64 = 1_000;
/// The deals of the skill ladder's rungs and of restricted play when `--games` is not given.
pub const SIDE_GAMES: u64 = 500;

/// Two rulesets whose tables differ when no `--players` is given: which count to compare at,
/// in words, with the options that say it.
fn mixed_tables(a: (&Ruleset, &JudgeConfig), b: (&Ruleset, &JudgeConfig)) -> String {
    let both: Vec<String> = [a.1.players, b.1.players]
        .into_iter()
        .filter(|&n| a.0.check_players(n).is_ok() && b.0.check_players(n).is_ok())
        .map(|n| format!("`--players {n}`"))
        .collect();
    let which = if both.is_empty() {
        "no count both can play at: ".to_string()
    } else {
        format!("{} (both at that count), or ", both.join(" or "))
    };
    format!(
        "{} plays {} players by default and {} plays {}: a difference would mix the rules with the number of players. Say which: {which}`--own-players` to compare each at its own count",
        a.1.ruleset, a.1.players, b.1.ruleset, b.1.players
    )
}

/// `--pace SECONDS`: seconds a turn at the table, in milliseconds (`8`, `6.5`; above 0, at
/// most 10 minutes).
pub fn parse_pace(text: &str) -> Result<u32, String> {
    let seconds: f64 = text.trim().parse().map_err(|_| {
        format!("`--pace {text}`: write the seconds a turn takes, like `--pace 8` or `--pace 6.5`")
    })?;
    if !(seconds > 0.0 && seconds <= 600.0) {
        return Err(format!(
            "`--pace {text}`: a turn takes more than 0 and at most 600 seconds"
        ));
    }
    Ok((seconds * 1000.0).round().max(1.0) as u32)
}

/// `--minutes A..B`: a target time at the table in minutes, inclusive.
pub fn parse_minutes(text: &str) -> Result<(u32, u32), String> {
    target_range("--minutes", "in minutes", "15..30", text)
}

/// `A..B`: a target length in turns, inclusive.
pub fn parse_length(text: &str) -> Result<(u64, u64), String> {
    target_range("--length", "in turns", "40..120", text)
}

/// `flag A..B`: a target from `A` to `B` inclusive, or how to write one.
fn target_range<T: std::str::FromStr + PartialOrd + std::fmt::Display>(
    flag: &str,
    unit: &str,
    example: &str,
    text: &str,
) -> Result<(T, T), String> {
    let shape =
        || format!("`{flag} {text}`: write the target {unit} as A..B, like `{flag} {example}`");
    let (a, b) = text.split_once("..").ok_or_else(shape)?;
    let a: T = a.trim().parse().map_err(|_| shape())?;
    let b: T = b.trim().parse().map_err(|_| shape())?;
    if a > b {
        return Err(format!(
            "`{flag} {text}`: the shortest ({a}) is above the longest ({b})"
        ));
    }
    Ok((a, b))
}

pub(super) type Judged = (Ruleset, JudgeConfig, Tally);

/// A ruleset read and its run described at `players` (its default when `None`), the target
/// length read from the options.
pub(super) fn prepare_at(
    loader: &dyn Loader,
    path: &str,
    o: &JudgeOptions,
    players: Option<usize>,
) -> Result<(Ruleset, JudgeConfig), (i32, String)> {
    let length = o
        .length
        .as_deref()
        .map(parse_length)
        .transpose()
        .map_err(|e| (USAGE, e))?;
    let one = JudgeOptions {
        players,
        ..o.clone()
    };
    prepare(loader, path, &one, length)
}

/// A ruleset read and its run described, before any game.
fn prepare(
    loader: &dyn Loader,
    path: &str,
    o: &JudgeOptions,
    length: Option<(u64, u64)>,
) -> Result<(Ruleset, JudgeConfig), (i32, String)> {
    let p = load_to_measure(loader, path, &o.sets)?;
    let players = o.players.unwrap_or_else(|| p.default_players());
    p.check_players(players).map_err(|e| (USAGE, e))?;
    if let Some(name) = &o.restrict
        && crate::play::Bot::from_name(name).is_none()
    {
        // A script bot cannot play restricted; a built-in one may be misspelt, or given an
        // iteration count out of its range: its own words say which.
        let why = if name.starts_with("script:") {
            format!(
                "restricted play needs a built-in bot: {}",
                crate::play::Bot::choices_words()
            )
        } else {
            crate::play::Player::builtin(name).err().unwrap_or_default()
        };
        return Err((USAGE, format!("`--restrict-bot {name}`: {why}")));
    }
    let cfg = JudgeConfig {
        ruleset: path.to_string(),
        name: p.name.clone(),
        players,
        bot: o.bot.clone(),
        games: o.games,
        seed: o.seed,
        length,
        pace_ms: match &o.pace {
            Some(p) => parse_pace(p).map_err(|e| (USAGE, e))?,
            None => judge::DEFAULT_PACE_MS,
        },
        minutes: o
            .minutes
            .as_deref()
            .map(parse_minutes)
            .transpose()
            .map_err(|e| (USAGE, e))?,
        skill_games: o.skill.then_some(o.side_games),
        restrict: o.restrict.clone().map(|b| (b, o.side_games)),
    };
    Ok((p, cfg))
}

fn control<'a>(o: &'a JudgeOptions, played: &'a AtomicU64) -> Control<'a> {
    Control {
        jobs: o.jobs,
        cancel: Some(&o.cancel),
        played: Some(played),
        shard: o.shard,
    }
}

/// The measures a run of `p` at `players` seats can have, as `--decide` names them: those
/// of a tally of no game, and one for each player out before the last two (their downtime),
/// which a tally has once a game put them out.
pub(super) fn possible_measures(p: &Ruleset, c: &JudgeConfig) -> Vec<judge::Line> {
    let mut t = Tally::new(p, c.players);
    for h in &mut t.downtime {
        h.add(0);
    }
    judge::lines(&t, c)
}

/// Plays every ruleset: each one its games, or two batch by batch until decided.
fn play_all(
    prepared: Vec<(Ruleset, JudgeConfig)>,
    o: &JudgeOptions,
    played: &AtomicU64,
) -> Result<(Vec<Judged>, Option<Decision>), (i32, String)> {
    let bot = player(&o.bot).map_err(|e| (USAGE, e))?;
    if o.until_decided {
        let [(pa, ca), (pb, cb)] = <[_; 2]>::try_from(prepared).map_err(|_| {
            (
                USAGE,
                "`--until-decided` compares two rulesets: give two".to_string(),
            )
        })?;
        let measures = if o.decide.is_empty() {
            judge::DEFAULT_MEASURES.map(String::from).to_vec()
        } else {
            o.decide.clone()
        };
        for key in &measures {
            for (p, c) in [(&pa, &ca), (&pb, &cb)] {
                judge::testable(&possible_measures(p, c), key).map_err(|e| (USAGE, e))?;
            }
        }
        let plan = Plan::new(o.games, measures);
        let (ta, tb, d) =
            judge::until_decided((&pa, &ca), (&pb, &cb), &bot, &plan, &control(o, played))
                .map_err(|e| (FAILED, e))?;
        let used = |mut c: JudgeConfig| {
            c.games = d.games;
            c
        };
        let judged = vec![(pa, used(ca), ta), (pb, used(cb), tb)];
        return Ok((judged, Some(d)));
    }
    let mut judged = Vec::new();
    for (p, cfg) in prepared {
        if o.cancel.load(Ordering::Relaxed) {
            // Stopped before this ruleset began: it is reported with no game.
            let t = Tally::new(&p, cfg.players);
            judged.push((p, cfg, t));
            continue;
        }
        let t = judge::judge_with(&p, &bot, &cfg, &control(o, played)).map_err(|e| (FAILED, e))?;
        judged.push((p, cfg, t));
    }
    Ok((judged, None))
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
    if rulesets.is_empty() || rulesets.len() > 2 {
        return fail(err, (USAGE, "judge one ruleset, or two to compare".into()));
    }
    if o.games == 0 {
        return fail(err, (USAGE, "`--games 0`: judge at least 1 game".into()));
    }
    if o.players_range.is_some() && o.sweep.is_some() {
        return fail(
            err,
            (
                USAGE,
                "`--players A..B` and `--sweep` each set judges side by side: give one (and `--players N` with `--sweep`)".into(),
            ),
        );
    }
    if o.shard.is_some()
        && (o.until_decided || o.players_range.is_some() || o.sweep.is_some() || o.report.is_some())
    {
        return fail(
            err,
            (
                USAGE,
                "`--shard` plays a slice of one run or of a comparison: `--until-decided`, `--players A..B` and `--sweep` decide from every game at once, and a page (`--report`) is written by `ninety judge --merge FILES... --report FILE.html`".into(),
            ),
        );
    }
    if let Some(range) = o.players_range {
        return super::judge_counts::judge_counts(loader, rulesets, range, o, out, err);
    }
    if let Some((name, values)) = &o.sweep {
        return super::judge_counts::judge_sweep(loader, rulesets, (name, values), o, out, err);
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
    if o.until_decided && rulesets.len() != 2 {
        return fail(
            err,
            (
                USAGE,
                "`--until-decided` compares two rulesets: give two".into(),
            ),
        );
    }
    let mut prepared = Vec::new();
    for path in rulesets {
        match prepare(loader, path, o, length) {
            Ok(j) => prepared.push(j),
            Err(e) => return fail(err, e),
        }
    }
    if let [(pa, ca), (pb, cb)] = prepared.as_slice()
        && ca.players != cb.players
        && !o.own_players
    {
        return fail(err, (USAGE, mixed_tables((pa, ca), (pb, cb))));
    }
    let played = AtomicU64::new(0);
    let (judged, decision) = match with_progress(o, rulesets.len() as u64, &played, || {
        play_all(prepared, o, &played)
    }) {
        Ok(j) => j,
        Err(e) => return fail(err, e),
    };
    report(&judged, decision.as_ref(), o, out, err)
}

/// Writes the report of the rulesets judged (one, or two compared): text or JSON to `out`,
/// the page to `--report`; fails for a run stopped by Ctrl-C or with no game finished.
pub(super) fn report(
    judged: &[Judged],
    decision: Option<&Decision>,
    o: &JudgeOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    fn view(j: &Judged) -> (&Ruleset, &JudgeConfig, &Tally) {
        (&j.0, &j.1, &j.2)
    }
    let (a, b) = (judged.first().map(view), judged.get(1).map(view));
    let Some(a) = a else {
        return FAILED;
    };
    let interrupted = o.cancel.load(Ordering::Relaxed);
    let games = b.map_or(a.2.games, |b| a.2.games.min(b.2.games));
    // The report first: a page that cannot be written at the end loses no figure.
    if o.json {
        let mut v = judge::json(a, b, decision);
        no_figures_of_no_games(&mut v, a, b);
        if let Some(m) = v.as_object_mut() {
            if interrupted {
                m.insert("interrupted".into(), true.into());
            }
            // A slice names itself and the options its ruleset was read with, for `--merge`.
            if let Some((k, n)) = o.shard {
                m.insert("shard".into(), serde_json::json!([k, n]));
                m.insert("sets".into(), serde_json::json!(o.sets));
            }
        }
        let _ = writeln!(out, "{v}");
    } else {
        let mut text = match b {
            None => judge::text(a.0, a.1, a.2),
            Some(b) => judge::text_compare(a, b, decision),
        };
        if interrupted {
            text.push_str(&format!(
                "\n(stopped by Ctrl-C: this covers the {games} games played before it)\n"
            ));
        }
        if let Some((k, n)) = o.shard {
            text.push_str(&format!(
                "\n(shard {k} of {n}: the games of this slice only; merge the slices' --json with `ninety judge --merge`)\n"
            ));
        }
        let _ = write!(out, "{}", escape_lines(&text));
    }
    if let Some(path) = &o.report {
        let page = match b {
            None => judge::html(a.0, a.1, a.2),
            Some(b) => judge::html_compare(a, b, decision),
        };
        if let Err(e) = super::atomic::write_report(path, page.as_bytes(), err) {
            return fail(err, (FAILED, e));
        }
    }
    // Like `sim`: a run stopped by Ctrl-C reports what it played, says so and fails.
    if interrupted {
        let _ = writeln!(
            err,
            "interrupted: the report covers the {games} games played before Ctrl-C"
        );
        return FAILED;
    }
    // A ruleset none of whose games finished (each failed) has nothing to judge.
    if let Some((p, _, t)) = [Some(a), b].into_iter().flatten().find(|j| j.2.games == 0) {
        let why = format!(
            "no game of {} finished ({} failed): there is nothing to judge",
            p.name,
            crate::base::limits::grouped(t.failed)
        );
        return fail(err, (FAILED, why));
    }
    OK
}

/// A ruleset with no game finished has no figure: its measures' values and intervals are
/// `null` in the JSON (never a number worked out of nothing).
fn no_figures_of_no_games(
    v: &mut serde_json::Value,
    a: (&Ruleset, &JudgeConfig, &Tally),
    b: Option<(&Ruleset, &JudgeConfig, &Tally)>,
) {
    let empty = |o: &mut serde_json::Value| {
        if let Some(lines) = o.get_mut("lines").and_then(serde_json::Value::as_array_mut) {
            for l in lines {
                for key in ["value", "low", "high"] {
                    if let Some(x) = l.get_mut(key) {
                        *x = serde_json::Value::Null;
                    }
                }
            }
        }
    };
    match b {
        None if a.2.games == 0 => empty(v),
        None => {}
        Some(b) => {
            for (key, t) in [("a", a.2), ("b", b.2)] {
                if t.games == 0
                    && let Some(o) = v.get_mut(key)
                {
                    empty(o);
                }
            }
        }
    }
}

/// Without a terminal (the library in a browser), `play` alone.
#[cfg(not(feature = "cli"))]
fn with_progress<T: Send>(
    _: &JudgeOptions,
    _: u64,
    _: &AtomicU64,
    play: impl FnOnce() -> T + Send,
) -> T {
    play()
}

/// Without a terminal (the library in a browser), `play` alone.
#[cfg(not(feature = "cli"))]
pub(super) fn progress_while<T: Send>(
    _: bool,
    _: Option<u64>,
    _: &AtomicU64,
    play: impl FnOnce() -> T + Send,
) -> T {
    play()
}

/// Plays `play` with a progress bar on standard error when it is a terminal and the run is
/// long (many games, or a bot that searches), reading the games played from `played`.
#[cfg(feature = "cli")]
fn with_progress<T: Send>(
    o: &JudgeOptions,
    rulesets: u64,
    played: &AtomicU64,
    play: impl FnOnce() -> T + Send,
) -> T {
    let quick = crate::play::Player::builtin(&o.bot).is_ok_and(|p| p.loops());
    let games = o.games.saturating_mul(rulesets);
    if quick && games < 2000 {
        return play();
    }
    // `--until-decided` plays batches until it is decided: no end is known.
    let len = (!o.until_decided).then_some(games);
    progress_while(o.progress, len, played, play)
}

/// Plays `play` with a progress bar of `len` games (a count alone when `None`) on standard
/// error when `progress`, reading the games played from `played`.
#[cfg(feature = "cli")]
pub(super) fn progress_while<T: Send>(
    progress: bool,
    len: Option<u64>,
    played: &AtomicU64,
    play: impl FnOnce() -> T + Send,
) -> T {
    if !progress {
        return play();
    }
    std::thread::scope(|scope| {
        let (done, finished) = std::sync::mpsc::channel::<()>();
        scope.spawn(move || {
            let bar = super::sim_cmd::progress_bar(len);
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                finished.recv_timeout(std::time::Duration::from_millis(100))
            {
                bar.set_position(played.load(Ordering::Relaxed));
            }
            bar.finish_and_clear();
        });
        let result = play();
        let _ = done.send(());
        result
    })
}
