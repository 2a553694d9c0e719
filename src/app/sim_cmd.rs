//! `ninety sim`: one ruleset, two side by side, an option swept over values, a shard of a run,
//! or shards merged.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::atomic::check_target;
use super::commands::{FAILED, OK, USAGE, fail, load_to_measure};
use super::load::player;
use crate::base::limits::SHARD_BYTES;
use crate::base::text::escape_lines;
use crate::compile::{Loader, read_capped};
use crate::play::Player;
use crate::sim;

/// A failed command: its exit code (`FAILED` or `USAGE`) and why.
type Failure = (i32, String);

/// Options of `ninety sim`.
#[derive(Debug, Clone, Default)]
pub struct SimOptions {
    pub games: u64,
    pub players: Option<usize>,
    pub bots: Vec<String>,
    pub seed: u64,
    pub jobs: usize,
    pub sets: Vec<(String, String)>,
    pub json: bool,
    pub sweep: Option<(String, Vec<String>)>,
    pub shard: Option<(u64, u64)>,
    pub progress: bool,
    /// Draw the text report's histograms with Unicode blocks (standard output is a terminal).
    pub unicode: bool,
    /// Also write the report as one self-contained HTML page, to this file.
    pub report: Option<String>,
    /// Set by Ctrl-C: the report covers the games played so far.
    pub cancel: Arc<AtomicBool>,
}

fn sim_bots(names: &[String]) -> Result<Vec<Player>, String> {
    names.iter().map(|n| player(n)).collect()
}

fn sim_one(
    loader: &dyn Loader,
    path: &str,
    o: &SimOptions,
    sets: &[(String, String)],
) -> Result<(sim::Config, sim::Stats), Failure> {
    let p = load_to_measure(loader, path, sets)?;
    let players = o.players.unwrap_or_else(|| p.default_players());
    p.check_players(players).map_err(|e| (USAGE, e))?;
    let names = if o.bots.is_empty() {
        vec!["cautious".to_string()]
    } else {
        o.bots.clone()
    };
    let bots = sim_bots(&names).map_err(|e| (USAGE, e))?;
    let cfg = sim::Config {
        ruleset: path.to_string(),
        name: p.name.clone(),
        players,
        bots: (0..players)
            .map(|i| names[i % names.len()].clone())
            .collect(),
        seed: o.seed,
        games: o.games,
        sets: sets.to_vec(),
    };
    let planned = sim::slice_games(o.games, o.shard);
    let bar = (o.progress && planned >= 2000).then(|| progress_bar(Some(planned)));
    let tick = || {
        if let Some(b) = &bar {
            b.inc(1);
        }
        // Ctrl-C is handled (`cli::sim`) and a game was played.
        super::cli::say_ready();
    };
    let control = sim::Control {
        jobs: o.jobs,
        shard: o.shard,
        cancel: Some(&o.cancel),
        tick: Some(&tick),
    };
    let stats = sim::run(&p, &bots, &cfg, &control).map_err(|e| (FAILED, e))?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    Ok((cfg, stats))
}

/// The progress bar of `sim` and `judge`, on standard error: of `len` games, or of a count
/// with no known end.
pub(crate) fn progress_bar(len: Option<u64>) -> indicatif::ProgressBar {
    let (bar, template) = match len {
        Some(n) => (
            indicatif::ProgressBar::new(n),
            "{bar:40} {pos}/{len} games, {rate}, {eta} left",
        ),
        None => (
            indicatif::ProgressBar::new_spinner(),
            "{spinner} {pos} games, {rate}",
        ),
    };
    let rate = |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
        let r = s.per_sec();
        let _ = if r >= 10.0 {
            write!(w, "{r:.0}/s")
        } else {
            write!(w, "{r:.1}/s")
        };
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(template)
            .map(|s| s.with_key("rate", rate))
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    // Drawn at once, before the first game ends.
    bar.tick();
    bar
}

/// After a run: when Ctrl-C stopped it, says so and fails (the report covers the games
/// played, `games` in words).
fn finish(o: &SimOptions, err: &mut dyn Write, games: &str) -> i32 {
    if o.cancel.load(Ordering::Relaxed) {
        let _ = writeln!(
            err,
            "interrupted: the report covers {games} played before Ctrl-C"
        );
        FAILED
    } else {
        OK
    }
}

/// What one `ninety sim` command plays: one run, two side by side on the same deals, or one
/// option swept over values. Its `--json` holds every run whole, so the slices of any of the
/// three merge into what the whole command would have said.
#[derive(Debug, Clone)]
enum Runs {
    One(Box<sim::Output>),
    Two(Box<sim::Output>, Box<sim::Output>),
    Sweep {
        option: String,
        rows: Vec<(String, sim::Output)>,
    },
}

impl Runs {
    fn outputs(&self) -> Vec<&sim::Output> {
        match self {
            Runs::One(o) => vec![&**o],
            Runs::Two(a, b) => vec![&**a, &**b],
            Runs::Sweep { rows, .. } => rows.iter().map(|(_, o)| o).collect(),
        }
    }

    /// The games played, in words: `the 500 games`, or each run's when they differ (a
    /// Ctrl-C stops a comparison in A's games, before B has played any).
    fn played(&self) -> String {
        let outputs = self.outputs();
        let counts: Vec<u64> = outputs.iter().map(|o| o.stats.games).collect();
        match (&counts[..], self) {
            ([a, b], Runs::Two(..)) if a != b => format!("the games of A ({a}) and of B ({b})"),
            _ if counts.windows(2).any(|w| w[0] != w[1]) => format!(
                "the games of each run ({})",
                counts
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            _ => format!("the {} games", counts.first().copied().unwrap_or(0)),
        }
    }

    fn json(&self) -> serde_json::Value {
        let run = |o: &sim::Output| serde_json::json!({ "run": o, "figures": sim::figures(&o.config, &o.stats) });
        match self {
            Runs::One(o) => run(o),
            // Each difference with its interval, test and verdict, as the text and the page
            // give them (read back by a merge, they are worked out again from the sums).
            Runs::Two(a, b) => serde_json::json!({
                "a": run(a),
                "b": run(b),
                "differences": sim::differences(&a.stats, &b.stats),
            }),
            Runs::Sweep { option, rows } => serde_json::Value::Array(
                rows.iter()
                    .map(|(v, o)| {
                        let mut row = run(o);
                        row["option"] = option.clone().into();
                        row["value"] = v.clone().into();
                        row
                    })
                    .collect(),
            ),
        }
    }

    /// Reads the `--json` of a command back, or says why it is not one.
    fn from_json(v: &serde_json::Value) -> Result<Runs, String> {
        let run = |v: &serde_json::Value| {
            serde_json::from_value::<sim::Output>(v["run"].clone()).map_err(|e| e.to_string())
        };
        if let Some(rows) = v.as_array() {
            let mut option = None;
            let mut out = Vec::new();
            for row in rows {
                let name = row["option"]
                    .as_str()
                    .ok_or("a sweep's row names no option")?;
                if option.get_or_insert(name) != &name {
                    return Err("a sweep's rows name different options".into());
                }
                let value = row["value"].as_str().ok_or("a sweep's row has no value")?;
                out.push((value.to_string(), run(row)?));
            }
            let option = option.ok_or("a sweep with no rows")?.to_string();
            return Ok(Runs::Sweep { option, rows: out });
        }
        if v.get("a").is_some() {
            return Ok(Runs::Two(Box::new(run(&v["a"])?), Box::new(run(&v["b"])?)));
        }
        Ok(Runs::One(Box::new(run(v)?)))
    }

    /// The report, as text (its histograms in Unicode blocks when `unicode`) or as `--json`.
    fn write(&self, json: bool, unicode: bool, out: &mut dyn Write) {
        if json {
            let _ = writeln!(out, "{}", self.json());
            return;
        }
        let text = match self {
            Runs::One(o) => sim::report_with(&o.config, &o.stats, unicode),
            Runs::Two(a, b) => {
                sim::compare_with((&a.config, &a.stats), (&b.config, &b.stats), unicode)
            }
            Runs::Sweep { option, rows } => sweep_table(option, rows),
        };
        let _ = write!(out, "{}", escape_lines(&text));
    }
}

impl Runs {
    /// The report as one self-contained HTML page.
    fn html(&self) -> String {
        match self {
            Runs::One(o) => sim::html::single(&o.config, &o.stats),
            Runs::Two(a, b) => sim::html::comparison((&a.config, &a.stats), (&b.config, &b.stats)),
            Runs::Sweep { option, rows } => {
                let rows: Vec<sim::html::SweepRow> = rows
                    .iter()
                    .map(|(v, o)| (v.as_str(), &o.config, &o.stats))
                    .collect();
                sim::html::sweep(option, &rows)
            }
        }
    }
}

/// Whether `--report FILE` can be written, before any game is played.
fn check_report(o: &SimOptions) -> Result<(), Failure> {
    let Some(path) = &o.report else {
        return Ok(());
    };
    if o.shard.is_some() {
        return Err((
            USAGE,
            "`--report` with `--shard`: a shard is a slice of the run; merge the shards' \
             `--json` with `ninety sim --merge FILES... --report FILE.html` for the whole \
             run's page"
                .into(),
        ));
    }
    check_target(Path::new(path), "a report")
        .map_err(|e| (FAILED, format!("cannot write the report `{path}`: {e}")))
}

/// Writes the HTML page of `runs` to `--report FILE`, whole or not at all.
fn write_report(o: &SimOptions, runs: &Runs, err: &mut dyn Write) -> Result<(), Failure> {
    let Some(path) = &o.report else {
        return Ok(());
    };
    super::atomic::write_report(path, runs.html().as_bytes(), err).map_err(|e| (FAILED, e))
}

/// A sweep's report: a row a value.
fn sweep_table(option: &str, rows: &[(String, sim::Output)]) -> String {
    use std::fmt::Write as _;
    let mut t = String::new();
    let _ = writeln!(
        t,
        "{:>8} {:>10} {:>8} {:>10} {:>12} {:>13} {:>11}",
        option, "turns", "rounds", "seat 0 %", "chips/round", "forced/game", "turn limit"
    );
    for (v, o) in rows {
        let f = sim::figures(&o.config, &o.stats);
        let _ = writeln!(
            t,
            "{v:>8} {:>10.1} {:>8.2} {:>10.1} {:>12.2} {:>13.2} {:>11}",
            f.turns_mean,
            f.rounds_mean,
            f.win_pct.first().copied().unwrap_or(0.0),
            f.chips_lost_per_round,
            f.forced_busts_per_game,
            f.turn_limited
        );
    }
    t
}

/// `ninety sim RULESET [RULESET_B]`: statistics of many bot games, or two rulesets side by
/// side on the same deals, or one option swept over values.
pub fn sim_cmd(
    loader: &dyn Loader,
    paths: &[String],
    o: &SimOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    if o.games == 0 {
        return fail(
            err,
            (USAGE, "`--games 0`: a run plays at least 1 game".into()),
        );
    }
    if let Err(e) = check_report(o) {
        return fail(err, e);
    }
    match play_runs(loader, paths, o) {
        Ok(runs) => {
            if o.json {
                let mut v = runs.json();
                if o.cancel.load(Ordering::Relaxed) {
                    match &mut v {
                        serde_json::Value::Object(m) => {
                            m.insert("interrupted".into(), true.into());
                        }
                        serde_json::Value::Array(rows) => {
                            for row in rows {
                                row["interrupted"] = true.into();
                            }
                        }
                        _ => {}
                    }
                }
                let _ = writeln!(out, "{v}");
            } else {
                runs.write(false, o.unicode, out);
                if o.cancel.load(Ordering::Relaxed) {
                    let _ = writeln!(
                        out,
                        "\n(stopped by Ctrl-C: this covers {} played before it)",
                        runs.played()
                    );
                }
            }
            if let Err(e) = write_report(o, &runs, err) {
                return fail(err, e);
            }
            finish(o, err, &runs.played())
        }
        Err(e) => fail(err, e),
    }
}

/// Plays what the command asks for.
fn play_runs(loader: &dyn Loader, paths: &[String], o: &SimOptions) -> Result<Runs, Failure> {
    let output = |(config, stats): (sim::Config, sim::Stats)| sim::Output {
        config,
        shard: o.shard,
        stats,
    };
    match (paths, &o.sweep) {
        ([path], None) => Ok(Runs::One(Box::new(output(sim_one(
            loader, path, o, &o.sets,
        )?)))),
        ([a, b], None) => {
            let x = output(sim_one(loader, a, o, &o.sets)?);
            let y = output(sim_one(loader, b, o, &o.sets)?);
            Ok(Runs::Two(Box::new(x), Box::new(y)))
        }
        ([path], Some((name, values))) => {
            let mut rows = Vec::new();
            for v in values {
                let mut sets = o.sets.clone();
                sets.push((name.clone(), v.clone()));
                let run = sim_one(loader, path, o, &sets).map_err(|(code, e)| {
                    let given = format!("--sweep {name}={v}");
                    let e = e.replace(&format!("--set {name}={v}"), &given);
                    if e.starts_with(&format!("`{given}`")) {
                        (code, e)
                    } else {
                        (code, format!("with `{given}`: {e}"))
                    }
                })?;
                rows.push((v.clone(), output(run)));
                if o.cancel.load(Ordering::Relaxed) {
                    break;
                }
            }
            Ok(Runs::Sweep {
                option: name.clone(),
                rows,
            })
        }
        (_, Some(_)) => Err((USAGE, "`--sweep` runs one ruleset".into())),
        _ => Err((USAGE, "give one ruleset, or two to compare".into())),
    }
}

/// `ninety sim --merge FILES...`: the report of a command from the `--json` output of its
/// shards (a run, a comparison or a sweep): every shard of it, each whole and sane, or it is
/// refused naming the file. The report is the one the whole command gives (`o.json`,
/// `o.unicode` say how).
pub fn merge_cmd(
    files: &[String],
    o: &SimOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    if let Err(e) = check_report(o) {
        return fail(err, e);
    }
    let mut parts = Vec::new();
    for f in files {
        match read_shard(f) {
            Ok(runs) => parts.push((f.clone(), runs)),
            Err(e) => return fail(err, e),
        }
    }
    match merge_runs(&parts) {
        Ok(whole) => {
            whole.write(o.json, o.unicode, out);
            match write_report(o, &whole, err) {
                Ok(()) => OK,
                Err(e) => fail(err, e),
            }
        }
        Err(e) => fail(err, (FAILED, e)),
    }
}

/// Merges the shards of one command, run by run.
fn merge_runs(parts: &[(String, Runs)]) -> Result<Runs, String> {
    let Some((first_name, first)) = parts.first() else {
        return Err("no files to merge".into());
    };
    // The k-th run of every file, merged, its bars those of its ruleset when it can be
    // read as `sim` would read it.
    let merge_nth = |k: usize| -> Result<sim::Output, String> {
        let named: Vec<(String, sim::Output)> = parts
            .iter()
            .map(|(name, runs)| (name.clone(), runs.outputs()[k].clone()))
            .collect();
        let whole = sim::merge_named(&named)?;
        if let Some(p) = shard_ruleset(&whole.config) {
            for (name, part) in &named {
                sim::bars_of(part, &p).map_err(|e| format!("`{name}` {e}"))?;
            }
        }
        Ok(whole)
    };
    for (name, runs) in parts {
        let same_kind = match (first, runs) {
            (Runs::One(_), Runs::One(_)) | (Runs::Two(..), Runs::Two(..)) => true,
            (Runs::Sweep { option: a, rows: x }, Runs::Sweep { option: b, rows: y }) => {
                a == b && x.iter().map(|r| &r.0).eq(y.iter().map(|r| &r.0))
            }
            _ => false,
        };
        if !same_kind {
            return Err(format!(
                "`{name}` is not a shard of the same command as `{first_name}` (a run, a \
                 comparison and a sweep, or sweeps of other values, do not merge)"
            ));
        }
    }
    Ok(match first {
        Runs::One(_) => Runs::One(Box::new(merge_nth(0)?)),
        Runs::Two(..) => Runs::Two(Box::new(merge_nth(0)?), Box::new(merge_nth(1)?)),
        Runs::Sweep { option, rows } => Runs::Sweep {
            option: option.clone(),
            rows: rows
                .iter()
                .enumerate()
                .map(|(k, (v, _))| Ok((v.clone(), merge_nth(k)?)))
                .collect::<Result<_, String>>()?,
        },
    })
}

/// The ruleset a run names, compiled with its options, when it is a shipped ruleset or a
/// `.rules` file in the current folder's tree (never a path elsewhere, which a shard from a
/// stranger could name): its bars bound the shards'. `None` when it is neither, or does not
/// check; then the shards' numbers are checked on their own.
fn shard_ruleset(c: &sim::Config) -> Option<crate::play::Ruleset> {
    super::load::ruleset_here(&c.ruleset, &c.sets)
}

/// One shard file: read with a cap, the JSON of `ninety sim --json`, not interrupted.
fn read_shard(f: &str) -> Result<Runs, Failure> {
    let bytes = read_capped(std::path::Path::new(f), SHARD_BYTES)
        .map_err(|e| (USAGE, format!("cannot read `{f}`: {e}")))?;
    let not_ours = |e: &dyn std::fmt::Display| {
        (
            FAILED,
            format!("`{f}` is not the JSON of `ninety sim --json`: {e}"),
        )
    };
    let v: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| not_ours(&e))?;
    let interrupted = |v: &serde_json::Value| {
        v.get("interrupted").and_then(serde_json::Value::as_bool) == Some(true)
    };
    if interrupted(&v)
        || v.as_array()
            .is_some_and(|rows| rows.iter().any(interrupted))
    {
        return Err((
            FAILED,
            format!("`{f}` is the output of an interrupted run: its games are not all there"),
        ));
    }
    Runs::from_json(&v).map_err(|e| not_ours(&e))
}
