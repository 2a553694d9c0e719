//! `ninety sim`: one ruleset, two side by side, an option swept over values, a shard of a run,
//! or shards merged.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::commands::{FAILED, OK, USAGE};
use super::load::{load_program, player};
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
    let p = load_program(loader, path, sets).map_err(|e| (FAILED, e))?;
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
    let bar = (o.progress && planned >= 2000).then(|| {
        let bar = indicatif::ProgressBar::new(planned);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} games, {per_sec}, {eta} left",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let tick = || {
        if let Some(b) = &bar {
            b.inc(1);
        }
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

/// After a run: when Ctrl-C stopped it, says so and fails (the report covers the games
/// played).
fn finish(o: &SimOptions, err: &mut dyn Write, games: u64) -> i32 {
    if o.cancel.load(Ordering::Relaxed) {
        let _ = writeln!(
            err,
            "interrupted: the report covers the {games} games played before Ctrl-C"
        );
        FAILED
    } else {
        OK
    }
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
    let fail = |err: &mut dyn Write, (code, e): Failure| {
        let _ = writeln!(err, "error: {}", escape_lines(&e));
        code
    };
    if o.games == 0 {
        return fail(
            err,
            (USAGE, "`--games 0`: a run plays at least 1 game".into()),
        );
    }
    let interrupted = || o.cancel.load(Ordering::Relaxed);
    match (paths, &o.sweep) {
        ([path], None) => match sim_one(loader, path, o, &o.sets) {
            Ok((cfg, stats)) => {
                if o.json {
                    let output = sim::Output {
                        config: cfg.clone(),
                        shard: o.shard,
                        stats: stats.clone(),
                    };
                    let figures = sim::figures(&cfg, &stats);
                    let mut v = serde_json::json!({ "run": output, "figures": figures });
                    if interrupted() {
                        v["interrupted"] = serde_json::Value::Bool(true);
                    }
                    let _ = writeln!(out, "{v}");
                } else {
                    let _ = write!(out, "{}", escape_lines(&sim::report(&cfg, &stats)));
                }
                finish(o, err, stats.games)
            }
            Err(e) => fail(err, e),
        },
        ([a, b], None) => {
            let (ra, rb) = (
                sim_one(loader, a, o, &o.sets),
                sim_one(loader, b, o, &o.sets),
            );
            match (ra, rb) {
                (Ok(x), Ok(y)) => {
                    if o.json {
                        let mut v = serde_json::json!({
                            "a": { "run": sim::Output { config: x.0.clone(), shard: o.shard, stats: x.1.clone() }, "figures": sim::figures(&x.0, &x.1) },
                            "b": { "run": sim::Output { config: y.0.clone(), shard: o.shard, stats: y.1.clone() }, "figures": sim::figures(&y.0, &y.1) },
                        });
                        if interrupted() {
                            v["interrupted"] = serde_json::Value::Bool(true);
                        }
                        let _ = writeln!(out, "{v}");
                    } else {
                        let text = sim::compare((&x.0, &x.1), (&y.0, &y.1));
                        let _ = write!(out, "{}", escape_lines(&text));
                    }
                    finish(o, err, x.1.games.min(y.1.games))
                }
                (Err(e), _) | (_, Err(e)) => fail(err, e),
            }
        }
        ([path], Some((name, values))) => {
            let mut rows = Vec::new();
            for v in values {
                let mut sets = o.sets.clone();
                sets.push((name.clone(), v.clone()));
                match sim_one(loader, path, o, &sets) {
                    Ok((cfg, stats)) => rows.push((v.clone(), sim::figures(&cfg, &stats))),
                    Err((code, e)) => {
                        let e =
                            e.replace(&format!("--set {name}={v}"), &format!("--sweep {name}={v}"));
                        return fail(err, (code, format!("with `--sweep {name}={v}`: {e}")));
                    }
                }
                if interrupted() {
                    break;
                }
            }
            let played: u64 = rows.iter().map(|(_, f)| f.games).sum();
            if o.json {
                let v: Vec<serde_json::Value> = rows
                    .iter()
                    .map(|(v, f)| serde_json::json!({ "value": v, "figures": f }))
                    .collect();
                let _ = writeln!(out, "{}", serde_json::Value::Array(v));
            } else {
                let _ = writeln!(
                    out,
                    "{:>8} {:>10} {:>8} {:>10} {:>12} {:>13} {:>11}",
                    name, "turns", "rounds", "seat 0 %", "chips/round", "forced/game", "turn limit"
                );
                for (v, f) in rows {
                    let _ = writeln!(
                        out,
                        "{v:>8} {:>10.1} {:>8.2} {:>10.1} {:>12.2} {:>13.2} {:>11}",
                        f.turns_mean,
                        f.rounds_mean,
                        f.win_pct.first().copied().unwrap_or(0.0),
                        f.chips_lost_per_round,
                        f.forced_busts_per_game,
                        f.turn_limited
                    );
                }
            }
            finish(o, err, played)
        }
        (_, Some(_)) => fail(err, (USAGE, "`--sweep` runs one ruleset".into())),
        _ => {
            let _ = writeln!(err, "error: give one ruleset, or two to compare");
            USAGE
        }
    }
}

/// `ninety sim --merge FILES...`: the report of a run from the `--json` output of its shards:
/// every shard of one run, each whole and sane, or it is refused naming the file.
pub fn merge_cmd(files: &[String], json: bool, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let mut parts = Vec::new();
    for f in files {
        match read_shard(f) {
            Ok(o) => parts.push((f.clone(), o)),
            Err((code, e)) => {
                let _ = writeln!(err, "error: {}", escape_lines(&e));
                return code;
            }
        }
    }
    match sim::merge_named(&parts) {
        Ok(whole) => {
            if json {
                let figures = sim::figures(&whole.config, &whole.stats);
                let _ = writeln!(
                    out,
                    "{}",
                    serde_json::json!({ "run": whole, "figures": figures })
                );
            } else {
                let report = sim::report(&whole.config, &whole.stats);
                let _ = write!(out, "{}", escape_lines(&report));
            }
            OK
        }
        Err(e) => {
            let _ = writeln!(err, "error: {}", escape_lines(&e));
            FAILED
        }
    }
}

/// One shard file: read with a cap, the JSON of `ninety sim --json`, not interrupted.
fn read_shard(f: &str) -> Result<sim::Output, Failure> {
    let bytes = read_capped(std::path::Path::new(f), SHARD_BYTES)
        .map_err(|e| (USAGE, format!("cannot read `{f}`: {e}")))?;
    let not_ours = |e: &dyn std::fmt::Display| {
        (
            FAILED,
            format!("`{f}` is not the JSON of `ninety sim --json`: {e}"),
        )
    };
    let v: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| not_ours(&e))?;
    if v.get("interrupted").and_then(serde_json::Value::as_bool) == Some(true) {
        return Err((
            FAILED,
            format!("`{f}` is the output of an interrupted run: its games are not all there"),
        ));
    }
    serde_json::from_value::<sim::Output>(v["run"].clone()).map_err(|e| not_ours(&e))
}
