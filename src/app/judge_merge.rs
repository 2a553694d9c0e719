//! `ninety judge --merge FILES...`: the report of a judge run, or of a comparison, from the
//! `--json` of its slices (`--shard K/N`): every slice once, each whole, of the same run, its
//! counts true of its slice, or it is refused naming the file. The sums are exact, so the
//! report is the one a single machine gives, byte for byte.

use std::io::Write;

use super::commands::{FAILED, USAGE, every_slice, fail};
use super::judge_cmd::{JudgeOptions, Judged, report};
use super::load::ruleset_here;
use crate::base::limits::{SHARD_BYTES, grouped};
use crate::compile::read_capped;
use crate::sim::judge::{JudgeConfig, Tally};

type Failure = (i32, String);

/// One slice file, read: its slice, the options its rulesets were read with, and each run's
/// configuration and tally (one, or two compared).
struct Slice {
    file: String,
    shard: (u64, u64),
    sets: Vec<(String, String)>,
    runs: Vec<(JudgeConfig, Tally)>,
}

fn read_slice(f: &str) -> Result<Slice, Failure> {
    let bytes = read_capped(std::path::Path::new(f), SHARD_BYTES)
        .map_err(|e| (USAGE, format!("cannot read `{f}`: {e}")))?;
    let not_ours = |why: &dyn std::fmt::Display| {
        (
            FAILED,
            format!("`{f}` is not the JSON of `ninety judge --shard K/N --json`: {why}"),
        )
    };
    let v: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| not_ours(&e))?;
    if v.get("interrupted").and_then(serde_json::Value::as_bool) == Some(true) {
        return Err((
            FAILED,
            format!("`{f}` is the output of an interrupted run: its games are not all there"),
        ));
    }
    let shard: (u64, u64) = serde_json::from_value(v.get("shard").cloned().unwrap_or_default())
        .map_err(|_| not_ours(&"it names no slice (`shard`)"))?;
    let sets: Vec<(String, String)> =
        serde_json::from_value(v.get("sets").cloned().unwrap_or_default())
            .map_err(|e| not_ours(&e))?;
    let one = |o: &serde_json::Value| -> Result<(JudgeConfig, Tally), Failure> {
        let c = serde_json::from_value(o.get("config").cloned().unwrap_or_default())
            .map_err(|e| not_ours(&e))?;
        let t = serde_json::from_value(o.get("tally").cloned().unwrap_or_default())
            .map_err(|e| not_ours(&e))?;
        Ok((c, t))
    };
    let runs = match (v.get("a"), v.get("b")) {
        (Some(a), Some(b)) => vec![one(a)?, one(b)?],
        _ => vec![one(&v)?],
    };
    Ok(Slice {
        file: f.to_string(),
        shard,
        sets,
        runs,
    })
}

/// Whether a slice's tally can be true of its slice of `cfg`'s run on `p`: its games those of
/// the slice, its figures of the ruleset's shape, its extras only in the first slice.
fn sane(
    s: &Slice,
    (cfg, t): (&JudgeConfig, &Tally),
    p: &crate::play::Ruleset,
) -> Result<(), String> {
    let (k, n) = s.shard;
    let expected = crate::sim::slice_games(cfg.games, Some((k, n)));
    if t.games.checked_add(t.failed) != Some(expected) {
        return Err(format!(
            "holds {} games, but its slice of a run of {} holds {}: it is incomplete or edited",
            grouped(t.games.saturating_add(t.failed)),
            grouped(cfg.games),
            grouped(expected)
        ));
    }
    let mut empty = Tally::new(p, cfg.players);
    if empty.try_merge(t).is_none() {
        return Err("is corrupt: its figures are not those of its ruleset and players".into());
    }
    let extras = !t.skill.is_empty() || !t.order.is_empty() || t.restricted.is_some();
    let asked = cfg.skill_games.is_some() || cfg.restrict.is_some();
    if extras && (k != 1 || !asked) {
        return Err(
            "is corrupt: the skill ladder and restricted play belong to the first slice".into(),
        );
    }
    Ok(())
}

/// The whole run from its slices, or why not.
fn merge(files: &[String]) -> Result<Vec<Judged>, Failure> {
    let slices = files
        .iter()
        .map(|f| read_slice(f))
        .collect::<Result<Vec<_>, _>>()?;
    let Some(first) = slices.first() else {
        return Err((USAGE, "no files to merge".into()));
    };
    let n = first.shard.1;
    if !(1..=u64::from(u16::MAX)).contains(&n) {
        return Err((FAILED, format!("`{}` names {n} slices", first.file)));
    }
    for s in &slices {
        let same = s.shard.1 == n
            && s.sets == first.sets
            && s.runs.len() == first.runs.len()
            && s.runs.iter().zip(&first.runs).all(|(a, b)| a.0 == b.0);
        if !same {
            return Err((
                FAILED,
                format!(
                    "`{}` is not a slice of the same run as `{}` (another ruleset, seed, number of games, players, bot, options or number of slices)",
                    s.file, first.file
                ),
            ));
        }
    }
    let given: Vec<(&str, u64)> = slices
        .iter()
        .map(|s| (s.file.as_str(), s.shard.0))
        .collect();
    every_slice("slice", n, &given).map_err(|why| (FAILED, why))?;
    let mut judged = Vec::new();
    for (i, (cfg, _)) in first.runs.iter().enumerate() {
        let p = ruleset_here(&cfg.ruleset, &first.sets).ok_or_else(|| {
            (
                FAILED,
                format!(
                    "`{}` is neither a shipped ruleset nor a `.rules` file in this folder: run `--merge` in the folder the slices were run in (its rules are read again for the report)",
                    cfg.ruleset
                ),
            )
        })?;
        let mut whole = Tally::new(&p, cfg.players);
        for s in &slices {
            let t = &s.runs[i].1;
            sane(s, (cfg, t), &p).map_err(|why| (FAILED, format!("`{}` {why}", s.file)))?;
            whole.try_merge(t).ok_or_else(|| {
                (
                    FAILED,
                    format!("`{}`: its counts overflow with the others'", s.file),
                )
            })?;
            if s.shard.0 == 1 {
                whole.skill.clone_from(&t.skill);
                whole.order.clone_from(&t.order);
                whole.restricted.clone_from(&t.restricted);
            }
        }
        judged.push((p, cfg.clone(), whole));
    }
    Ok(judged)
}

/// `ninety judge --merge FILES...`: the whole run's report, as text, `--json` or a page.
pub fn merge_cmd(
    files: &[String],
    o: &JudgeOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    match merge(files) {
        Ok(judged) => report(&judged, None, o, out, err),
        Err(e) => fail(err, e),
    }
}
