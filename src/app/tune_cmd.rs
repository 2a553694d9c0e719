//! `ninety tune RULESET --vary NAME=A..B [--players A..B] --target ...`: which option values
//! (and player counts) meet every target, raced on the same deals; `--shard` races a slice of
//! the tables and `--merge` puts the slices' `--json` together into the whole run's report.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64};

use super::atomic::check_target;
use super::commands::{FAILED, OK, USAGE, every_slice, fail};
use super::judge_cmd::{JudgeOptions, possible_measures, prepare_at, progress_while};
use super::load::player;
use crate::base::limits::{SHARD_BYTES, TUNE_TABLES, TUNE_TARGETS, grouped};
use crate::base::text::escape_lines;
use crate::compile::{Loader, read_capped};
use crate::sim::judge::Control;
use crate::sim::tune::{self, Entry, Plan, Table, TuneConfig, Tuned};

/// Options of `ninety tune`.
#[derive(Debug, Clone, Default)]
pub struct TuneOptions {
    /// The most games a table gets.
    pub games: u64,
    /// `--players N` or `A..B`: the counts searched (the ruleset's default when not given).
    pub players: Option<(usize, usize)>,
    /// `--vary NAME=VALUES`, in order.
    pub vary: Vec<(String, Vec<String>)>,
    /// `--target`, as written.
    pub targets: Vec<String>,
    pub bot: String,
    pub seed: u64,
    pub jobs: usize,
    pub sets: Vec<(String, String)>,
    pub pace: Option<String>,
    pub json: bool,
    pub report: Option<String>,
    pub shard: Option<(u64, u64)>,
    pub cancel: Arc<AtomicBool>,
    pub progress: bool,
}

/// Every table of the grid: the player counts outermost, then each `--vary` in order, the
/// last varying fastest.
fn grid(players: &[usize], vary: &[(String, Vec<String>)]) -> Vec<Table> {
    let mut rows: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for (name, values) in vary {
        rows = rows
            .iter()
            .flat_map(|row| {
                values.iter().map(move |v| {
                    let mut r = row.clone();
                    r.push((name.clone(), v.clone()));
                    r
                })
            })
            .collect();
    }
    players
        .iter()
        .flat_map(|&n| rows.iter().map(move |r| (n, r.clone())))
        .enumerate()
        .map(|(index, (players, values))| Table {
            index,
            players,
            values,
        })
        .collect()
}

type Failure = (i32, String);
/// A table with its ruleset compiled at its values, and its run.
type Compiled = (Table, crate::play::Ruleset, crate::sim::judge::JudgeConfig);

/// The run read from the options: its configuration and each table compiled, before any game.
fn prepare(
    loader: &dyn Loader,
    path: &str,
    o: &TuneOptions,
) -> Result<(TuneConfig, Vec<Compiled>), Failure> {
    let usage = |e: String| (USAGE, e);
    if o.vary.is_empty() && o.players.is_none_or(|(a, b)| a == b) {
        return Err(usage(
            "`tune` searches values: give `--vary NAME=A..B` (an option and its values) or `--players A..B`".into(),
        ));
    }
    if o.targets.is_empty() {
        return Err(usage(
            "`tune` looks for the values that meet targets: give at least one, like `--target fair` or `--target minutes=15..30`".into(),
        ));
    }
    if o.targets.len() > TUNE_TARGETS {
        return Err(usage(format!(
            "{} targets: `tune` reads at most {TUNE_TARGETS}",
            o.targets.len()
        )));
    }
    for (i, (name, _)) in o.vary.iter().enumerate() {
        if o.vary[..i].iter().any(|(n, _)| n == name) {
            return Err(usage(format!(
                "`--vary {name}=...` is given twice: give each option once, with all its values"
            )));
        }
    }
    let targets = o
        .targets
        .iter()
        .map(|t| tune::parse(t))
        .collect::<Result<Vec<_>, _>>()
        .map_err(usage)?;
    let judge = JudgeOptions {
        games: o.games,
        bot: o.bot.clone(),
        seed: o.seed,
        jobs: o.jobs,
        sets: o.sets.clone(),
        pace: o.pace.clone(),
        side_games: 1,
        ..JudgeOptions::default()
    };
    // The counts searched: the ruleset's default when not given.
    let counts: Vec<usize> = match o.players {
        Some((a, b)) => (a..=b).collect(),
        None => {
            let (p, _) = prepare_at(loader, path, &judge, None)?;
            vec![p.default_players()]
        }
    };
    let tables = grid(&counts, &o.vary);
    if tables.len() > TUNE_TABLES {
        return Err(usage(format!(
            "{} tables to search ({}): `tune` searches at most {TUNE_TABLES}; give fewer values",
            grouped(tables.len() as u64),
            o.vary
                .iter()
                .map(|(n, v)| format!("{} values of {n}", v.len()))
                .chain((counts.len() > 1).then(|| format!("{} player counts", counts.len())))
                .collect::<Vec<_>>()
                .join(" times ")
        )));
    }
    // Every table is compiled, on every shard, so that a value out of its option's range is
    // refused before any game, and every shard refuses alike.
    let mut compiled = Vec::new();
    for t in tables {
        let mut one = judge.clone();
        one.sets
            .retain(|(n, _)| !t.values.iter().any(|(v, _)| v == n));
        one.sets.extend(t.values.iter().cloned());
        // A value its option does not take is said as the designer wrote it.
        let (p, cfg) = prepare_at(loader, path, &one, Some(t.players)).map_err(|(code, why)| {
            let why = t.values.iter().fold(why, |why, (n, v)| {
                why.replace(
                    &format!("`--set {n}={v}`"),
                    &format!("`--vary {n}=...` (its value {v})"),
                )
            });
            (code, why)
        })?;
        compiled.push((t, p, cfg));
    }
    if let Some((_, p, cfg)) = compiled.first() {
        let lines = possible_measures(p, cfg);
        for t in &targets {
            tune::check(t, &lines).map_err(usage)?;
        }
    }
    let name = compiled
        .first()
        .map(|(_, p, _)| p.name.clone())
        .unwrap_or_default();
    let pace_ms = compiled
        .first()
        .map_or(crate::sim::judge::DEFAULT_PACE_MS, |(_, _, c)| c.pace_ms);
    let config = TuneConfig {
        ruleset: path.to_string(),
        name,
        bot: o.bot.clone(),
        seed: o.seed,
        pace_ms,
        vary: o.vary.clone(),
        players: counts,
        targets,
        plan: Plan::new(o.games),
        tables: compiled.len(),
    };
    Ok((config, compiled))
}

/// `ninety tune RULESET ...`: text, `--json` or a page. Exit 2 for options that do not fit.
pub fn tune_cmd(
    loader: &dyn Loader,
    path: &str,
    o: &TuneOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    if o.games == 0 {
        return fail(
            err,
            (USAGE, "`--games 0`: a table needs at least 1 game".into()),
        );
    }
    if let Some(path) = &o.report
        && let Err(e) = check_target(std::path::Path::new(path), "a report")
    {
        return fail(
            err,
            (FAILED, format!("cannot write the report `{path}`: {e}")),
        );
    }
    if o.shard.is_some() && o.report.is_some() {
        return fail(
            err,
            (
                USAGE,
                "`--report` with `--shard`: a shard races a slice of the tables; merge the shards' `--json` with `ninety tune --merge FILES... --report FILE.html`".into(),
            ),
        );
    }
    let (config, compiled) = match prepare(loader, path, o) {
        Ok(c) => c,
        Err(e) => return fail(err, e),
    };
    let bot = match player(&o.bot) {
        Ok(b) => b,
        Err(e) => return fail(err, (USAGE, e)),
    };
    let mine = |t: &Table| o.shard.is_none_or(|(k, n)| t.index as u64 % n == k - 1);
    let entries: Vec<Entry<'_>> = compiled
        .iter()
        .filter(|(t, _, _)| mine(t))
        .map(|(t, p, c)| Entry {
            table: t.clone(),
            ruleset: p,
            config: c,
        })
        .collect();
    let played = AtomicU64::new(0);
    let control = Control {
        jobs: o.jobs,
        cancel: Some(&o.cancel),
        played: Some(&played),
        shard: None,
    };
    let raced = match progress_while(o.progress, None, &played, || {
        tune::race(&entries, &config.targets, &bot, &config.plan, &control)
    }) {
        Ok(r) => r,
        Err(e) => return fail(err, (FAILED, e)),
    };
    let tuned = Tuned {
        config,
        shard: o.shard,
        interrupted: control.stopped(),
        raced,
    };
    report(&tuned, o, out, err)
}

/// Writes a run's report: text or JSON to `out`, the page to `--report`.
fn report(t: &Tuned, o: &TuneOptions, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    if o.json {
        match serde_json::to_string(t) {
            Ok(s) => {
                let _ = writeln!(out, "{s}");
            }
            Err(e) => {
                let _ = writeln!(err, "error: {e}");
                return FAILED;
            }
        }
    } else {
        let _ = write!(out, "{}", escape_lines(&tune::text(t)));
    }
    if let Some(path) = &o.report
        && let Err(e) = super::atomic::write_report(path, tune::html(t).as_bytes(), err)
    {
        let _ = writeln!(err, "error: {e}");
        return FAILED;
    }
    if t.interrupted {
        let _ = writeln!(
            err,
            "interrupted: each table says what the games played before Ctrl-C showed"
        );
        return FAILED;
    }
    OK
}

/// `ninety tune --merge FILES...`: the whole run's report from its shards' `--json`, every
/// shard once, each whole and of the same run, or it is refused naming the file.
pub fn merge_cmd(
    files: &[String],
    o: &TuneOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    match merge(files) {
        Ok(t) => report(&t, o, out, err),
        Err(e) => fail(err, e),
    }
}

fn merge(files: &[String]) -> Result<Tuned, Failure> {
    let mut parts: Vec<(String, Tuned)> = Vec::new();
    for f in files {
        let bytes = read_capped(std::path::Path::new(f), SHARD_BYTES)
            .map_err(|e| (USAGE, format!("cannot read `{f}`: {e}")))?;
        let t: Tuned = serde_json::from_slice(&bytes).map_err(|e| {
            (
                FAILED,
                format!("`{f}` is not the JSON of `ninety tune --shard K/N --json`: {e}"),
            )
        })?;
        parts.push((f.clone(), t));
    }
    let Some((first_name, first)) = parts.first() else {
        return Err((USAGE, "no files to merge".into()));
    };
    let Some((_, n)) = first.shard else {
        return Err((
            FAILED,
            format!("`{first_name}` is a whole run, not a shard: it is its own report"),
        ));
    };
    let mut raced = Vec::new();
    for (name, t) in &parts {
        if t.config != first.config || t.shard.map(|s| s.1) != Some(n) {
            return Err((
                FAILED,
                format!(
                    "`{name}` is not a shard of the same run as `{first_name}` (another ruleset, seed, bot, targets, values or number of shards)"
                ),
            ));
        }
        if t.interrupted {
            return Err((
                FAILED,
                format!(
                    "`{name}` is the output of an interrupted run: its tables are not all decided as the whole run's would be"
                ),
            ));
        }
    }
    let given: Vec<(&str, u64)> = parts
        .iter()
        .map(|(name, t)| (name.as_str(), t.shard.map_or(0, |s| s.0)))
        .collect();
    every_slice("shard", n, &given).map_err(|why| (FAILED, why))?;
    for (name, t) in &parts {
        let k = t.shard.map_or(0, |s| s.0);
        sane(t).map_err(|why| (FAILED, format!("`{name}`: {why}")))?;
        // Each table of the slice, once, and only those.
        let expected = (0..t.config.tables)
            .filter(|i| *i as u64 % n == k - 1)
            .count();
        let ok = t.raced.len() == expected
            && t.raced
                .iter()
                .enumerate()
                .all(|(j, r)| r.table.index == (k - 1) as usize + j * n as usize);
        if !ok {
            return Err((
                FAILED,
                format!("`{name}`: its tables are not those of shard {k} of {n}"),
            ));
        }
        // Each table is the one of its place in the run's grid (its values are not taken on
        // the shard's word).
        let tables = grid(&t.config.players, &t.config.vary);
        if let Some(r) = t
            .raced
            .iter()
            .find(|r| tables.get(r.table.index) != Some(&r.table))
        {
            return Err((
                FAILED,
                format!(
                    "`{name}`: table {} is not the table of that place in the run's grid",
                    r.table.index
                ),
            ));
        }
        raced.extend(t.raced.iter().cloned());
    }
    raced.sort_by_key(|r| r.table.index);
    Ok(Tuned {
        config: first.config.clone(),
        shard: None,
        interrupted: false,
        raced,
    })
}

/// Whether a shard's figures can be true of a run of its own configuration.
fn sane(t: &Tuned) -> Result<(), String> {
    let c = &t.config;
    let looks = &c.plan.looks;
    let size: usize = c.vary.iter().map(|(_, v)| v.len()).product::<usize>() * c.players.len();
    let plan_ok = !looks.is_empty()
        && looks.len() <= 64
        && looks.windows(2).all(|w| w[0] < w[1])
        && (0.0..1.0).contains(&c.plan.alpha);
    if !plan_ok || c.tables > TUNE_TABLES || c.tables != size || c.targets.len() > TUNE_TARGETS {
        return Err("its run's configuration cannot be true".into());
    }
    for r in &t.raced {
        // The verdict is worked out again from the readings and the run's targets: a shard's
        // word for it is not taken.
        let said_right = r.readings.iter().all(|x| {
            c.targets
                .get(x.target)
                .is_some_and(|g| g.ranges().contains(&(x.min, x.max)))
                && x.state_now() == x.state
        }) && r.state
            == if r.games == 0 {
                tune::State::Undecided
            } else {
                tune::State::all(r.readings.iter().map(|x| x.state))
            };
        if !said_right {
            return Err(format!(
                "the verdict of table {} is not what its readings say against the run's targets",
                r.table.index
            ));
        }
        let true_counts = r
            .games
            .checked_add(r.failed)
            .is_some_and(|n| n <= c.plan.games())
            && r.looks as usize <= looks.len()
            && r.table.players >= 2
            && r.readings.iter().all(|x| x.target < c.targets.len());
        if !true_counts {
            return Err(format!(
                "the counts of table {} cannot be true of its run",
                r.table.index
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::grid;

    #[test]
    fn the_grid_takes_every_value_of_every_option_at_every_count() {
        let vary = vec![
            ("a".to_string(), vec!["1".to_string(), "2".to_string()]),
            (
                "b".to_string(),
                vec!["x".to_string(), "y".to_string(), "z".to_string()],
            ),
        ];
        let g = grid(&[2, 3], &vary);
        assert_eq!(g.len(), 12);
        assert_eq!(g[0].players, 2);
        assert_eq!(
            g[1].values,
            vec![("a".into(), "1".into()), ("b".into(), "y".into())]
        );
        assert_eq!(g[11].players, 3);
        assert!(g.iter().enumerate().all(|(i, t)| t.index == i));
        assert_eq!(grid(&[4], &[]).len(), 1);
    }
}
