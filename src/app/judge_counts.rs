//! `ninety judge RULESET --players A..B` and `--sweep NAME=V1,V2,...`: the same judge at each
//! player count or each value of an option, on the same run's seeds, side by side: the
//! verdicts and the key measures with their intervals, and which one plays best where the
//! intervals say so.

use std::io::Write;

use super::commands::{FAILED, OK, USAGE};
use super::judge_cmd::{JudgeOptions, prepare_at};
use super::load::player;
use crate::base::text::escape_lines;
use crate::compile::Loader;
use crate::sim::judge::{self, JudgeConfig, Line, Tally};

/// `A..B` (or `N`) after `--players`: the counts to judge, inclusive.
pub fn parse_players(text: &str) -> Result<(usize, usize), String> {
    let shape = || {
        format!(
            "`--players {text}`: write a number of players, like `--players 3`, or a range, like `--players 2..5`"
        )
    };
    let (a, b) = text.split_once("..").unwrap_or((text, text));
    let a: usize = a.trim().parse().map_err(|_| shape())?;
    let b: usize = b.trim().parse().map_err(|_| shape())?;
    if a > b {
        return Err(format!(
            "`--players {text}`: the fewest ({a}) is above the most ({b})"
        ));
    }
    Ok((a, b))
}

/// The measures set side by side, by key, in this order.
const KEYS: [&str; 8] = [
    "largest_gap",
    "first_player",
    "turns_mean",
    "minutes_median",
    "real_choice",
    "downtime_1",
    "decided_at",
    "false_hope",
];

/// One column judged: a player count, or an option's value.
struct Count {
    /// The count (`3`) or the value (`5`) of the column.
    value: String,
    config: JudgeConfig,
    tally: Tally,
    lines: Vec<Line>,
    verdicts: Vec<String>,
}

/// Judges one ruleset at each count of `range`; text or JSON to `out`. Exit 2 for options that
/// do not fit (two rulesets, a count the ruleset does not play, a slow extra asked for).
pub fn judge_counts(
    loader: &dyn Loader,
    rulesets: &[String],
    (a, b): (usize, usize),
    o: &JudgeOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let values: Vec<String> = (a..=b).map(|n| n.to_string()).collect();
    let flag = format!("--players {a}..{b}");
    judge_columns(
        loader,
        rulesets,
        (&Axis::Players, &values, &flag),
        o,
        out,
        err,
    )
}

/// `--sweep NAME=V1,V2,...` (or `NAME=A..B`): the option and its values, in order.
pub fn parse_sweep(text: &str) -> Result<(String, Vec<String>), String> {
    let shape = || {
        format!(
            "`--sweep {text}`: write an option and its values, like `--sweep chips=3,5,7` or `--sweep chips=3..7`"
        )
    };
    let (name, values) = text.split_once('=').ok_or_else(shape)?;
    let name = name.trim();
    if name.is_empty() {
        return Err(shape());
    }
    let values: Vec<String> = match values.split_once("..") {
        Some((a, b)) => {
            let a: i64 = a.trim().parse().map_err(|_| shape())?;
            let b: i64 = b.trim().parse().map_err(|_| shape())?;
            if a > b || b - a >= crate::base::limits::SWEEP_VALUES as i64 {
                return Err(format!(
                    "`--sweep {text}`: give from 1 to {} values, the smallest first",
                    crate::base::limits::SWEEP_VALUES
                ));
            }
            (a..=b).map(|v| v.to_string()).collect()
        }
        None => values.split(',').map(|v| v.trim().to_string()).collect(),
    };
    if values.is_empty()
        || values.iter().any(String::is_empty)
        || values.len() > crate::base::limits::SWEEP_VALUES
    {
        return Err(format!(
            "`--sweep {text}`: give from 1 to {} values, separated by commas",
            crate::base::limits::SWEEP_VALUES
        ));
    }
    Ok((name.to_string(), values))
}

/// Judges one ruleset at each value of an option (`--sweep`), at one player count, on the
/// same deals.
pub fn judge_sweep(
    loader: &dyn Loader,
    rulesets: &[String],
    (name, values): (&str, &[String]),
    o: &JudgeOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let flag = format!("--sweep {name}={}", values.join(","));
    let axis = Axis::Option(name.to_string());
    judge_columns(loader, rulesets, (&axis, values, &flag), o, out, err)
}

/// The same judge for each column (a player count, an option's value), side by side.
fn judge_columns(
    loader: &dyn Loader,
    rulesets: &[String],
    (axis, values, flag): (&Axis, &[String], &str),
    o: &JudgeOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let fail = |err: &mut dyn Write, why: String| {
        let _ = writeln!(err, "error: {}", escape_lines(&why));
        USAGE
    };
    let [path] = rulesets else {
        return fail(
            err,
            format!("`{flag}` judges one ruleset at each of its columns: give one"),
        );
    };
    if o.until_decided || o.skill || o.restrict.is_some() || o.report.is_some() {
        return fail(
            err,
            format!(
                "`{flag}` sets the verdicts side by side: `--until-decided`, `--skill`, `--restrict` and `--report` take one table (`--players N`, `--set NAME=VALUE`)"
            ),
        );
    }
    let bot = match player(&o.bot) {
        Ok(b) => b,
        Err(e) => return fail(err, e),
    };
    // Every column is checked before the first game: a value the ruleset refuses is told at
    // once, not after the games of the columns before it.
    let mut ready = Vec::new();
    for value in values {
        let prepared = match axis {
            Axis::Players => value
                .parse()
                .map_err(|_| (USAGE, format!("`{flag}`: `{value}` is not a number")))
                .and_then(|n| prepare_at(loader, path, o, Some(n))),
            Axis::Option(name) => {
                let mut one = o.clone();
                one.sets.retain(|(n, _)| n != name);
                one.sets.push((name.clone(), value.clone()));
                prepare_at(loader, path, &one, o.players)
            }
        };
        match prepared {
            Ok(j) => ready.push((value, j)),
            Err((code, why)) => {
                let _ = writeln!(err, "error: {}", escape_lines(&why));
                return code;
            }
        }
    }
    let mut counts = Vec::new();
    for (value, (p, config)) in ready {
        let tally = match judge::judge(&p, &bot, &config, o.jobs) {
            Ok(t) => t,
            Err(e) => {
                let _ = writeln!(err, "error: {}", escape_lines(&e));
                return FAILED;
            }
        };
        let lines = judge::lines(&tally, &config);
        let verdicts = judge::verdicts(&tally, &lines);
        counts.push(Count {
            value: value.clone(),
            config,
            tally,
            lines,
            verdicts,
        });
    }
    let best = best_count(axis, &counts);
    if o.json {
        let column = |c: &Count| {
            let mut v = serde_json::json!({
                "players": c.config.players,
                "games": c.tally.games,
                "verdicts": c.verdicts,
                "lines": c.lines,
            });
            if let (Axis::Option(_), Some(m)) = (axis, v.as_object_mut()) {
                m.insert("value".into(), c.value.clone().into());
            }
            v
        };
        let mut v = serde_json::json!({ "ruleset": path, "best": best });
        if let Some(m) = v.as_object_mut() {
            let columns: Vec<serde_json::Value> = counts.iter().map(column).collect();
            match axis {
                Axis::Players => m.insert("by_players".into(), columns.into()),
                Axis::Option(name) => {
                    m.insert("option".into(), name.clone().into());
                    m.insert("by_value".into(), columns.into())
                }
            };
        }
        let _ = writeln!(out, "{v}");
    } else {
        let _ = write!(out, "{}", text(path, axis, &counts, &best));
    }
    OK
}

/// How many points more turns with a real choice make one count play better than another:
/// the margin `--until-decided` takes for a share.
const CHOICE_MARGIN: f64 = 2.0;

/// What the columns are: player counts, or the values of one option (`--sweep chips=3..7`).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Axis {
    Players,
    Option(String),
}

impl Axis {
    /// One column in words: `3 players`, `chips=5`.
    fn one(&self, value: &str) -> String {
        match self {
            Axis::Players => format!("{value} players"),
            Axis::Option(name) => format!("{name}={value}"),
        }
    }

    /// Several columns in words: `2, 3 players`, `chips=3, 5`.
    fn some(&self, values: &[&str]) -> String {
        let list = values.join(", ");
        match self {
            Axis::Players => format!("{list} players"),
            Axis::Option(name) => format!("{name}={list}"),
        }
    }
}

/// Which column plays best, said only where the intervals allow it: among the columns judged
/// fair, the one whose real-choice interval lies above every other fair one's by
/// [`CHOICE_MARGIN`] points; else why none is named.
fn best_count(axis: &Axis, counts: &[Count]) -> String {
    let fair: Vec<&Count> = counts
        .iter()
        .filter(|c| c.verdicts.first().is_some_and(|v| v.starts_with("fair:")))
        .collect();
    let choice = |c: &Count| {
        c.lines
            .iter()
            .find(|l| l.key == "real_choice")
            .and_then(|l| Some((l.low?, l.high?)))
    };
    let what = match axis {
        Axis::Players => "count",
        Axis::Option(_) => "value",
    };
    match fair.as_slice() {
        [] => format!("no {what} is shown fair (every seat within 5 points): none plays best"),
        [one] => format!(
            "plays best at {}: the only {what} shown fair",
            axis.one(&one.value)
        ),
        many => {
            let above = many.iter().find(|c| {
                choice(c).is_some_and(|(lo, _)| {
                    many.iter().all(|o| {
                        o.value == c.value
                            || choice(o).is_some_and(|(_, hi)| lo > hi + CHOICE_MARGIN)
                    })
                })
            });
            match above {
                Some(c) => format!(
                    "plays best at {}: fair, and more turns with a real choice than at any other fair {what}, by {CHOICE_MARGIN} points or more beyond chance",
                    axis.one(&c.value)
                ),
                None => format!(
                    "fair at {}; none of them gives {CHOICE_MARGIN} points more turns with a real choice than the others beyond chance",
                    axis.some(&many.iter().map(|c| c.value.as_str()).collect::<Vec<_>>())
                ),
            }
        }
    }
}

/// The text: the best column, each column's verdicts, then the key measures side by side.
fn text(path: &str, axis: &Axis, counts: &[Count], best: &str) -> String {
    let mut s = String::new();
    let Some(first) = counts.first() else {
        return s;
    };
    let by = match axis {
        Axis::Players => "by player count".to_string(),
        Axis::Option(name) => format!("by the value of {name}, {} players", first.config.players),
    };
    s.push_str(&format!(
        "{} ({path}) {by}: {} games each, {} in every seat, seed {}\n{best}\n",
        first.config.name, first.config.games, first.config.bot, first.config.seed
    ));
    for c in counts {
        s.push_str(&format!("\n{}:\n", axis.one(&c.value)));
        for v in &c.verdicts {
            s.push_str(&format!("  {v}\n"));
        }
    }
    s.push_str(&format!("\nmeasures {by} (95% intervals):\n"));
    s.push_str(&format!("  {:<36}", ""));
    for c in counts {
        s.push_str(&format!("{:>24}", axis.one(&c.value)));
    }
    s.push('\n');
    for key in KEYS {
        let Some(label) = counts
            .iter()
            .find_map(|c| c.lines.iter().find(|l| l.key == key))
            .map(|l| l.label.clone())
        else {
            continue;
        };
        s.push_str(&format!("  {label:<36}"));
        for c in counts {
            let cell = c
                .lines
                .iter()
                .find(|l| l.key == key)
                .map_or_else(|| "-".to_string(), cell);
            s.push_str(&format!("{cell:>24}"));
        }
        s.push('\n');
    }
    s
}

/// One measure in a cell: its value and interval, in its unit.
fn cell(l: &Line) -> String {
    if l.value.is_nan() {
        return "not measured".into();
    }
    let unit = if l.unit == judge::Unit::Percent {
        "%"
    } else {
        ""
    };
    match (l.low, l.high) {
        (Some(lo), Some(hi)) => format!("{:.1}{unit} [{lo:.1}, {hi:.1}]", l.value),
        _ => format!("{:.1}{unit}", l.value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::judge::{Basis, Unit};

    /// A count whose first verdict is `fair` or not, its real choice `lo..hi`.
    fn count(players: usize, fair: bool, (lo, hi): (f64, f64)) -> Count {
        let line = Line {
            key: "real_choice".into(),
            label: "turns with a real choice".into(),
            value: f64::midpoint(lo, hi),
            low: Some(lo),
            high: Some(hi),
            unit: Unit::Percent,
            meaning: String::new(),
            basis: Basis::Plain,
        };
        Count {
            value: players.to_string(),
            config: JudgeConfig {
                ruleset: "r".into(),
                name: "R".into(),
                players,
                bot: "cautious".into(),
                games: 1,
                seed: 1,
                length: None,
                pace_ms: judge::DEFAULT_PACE_MS,
                minutes: None,
                skill_games: None,
                restrict: None,
            },
            tally: Tally::default(),
            lines: vec![line],
            verdicts: vec![if fair { "fair: ..." } else { "not fair: ..." }.into()],
        }
    }

    #[test]
    fn the_best_count_is_named_only_where_the_intervals_allow_it() {
        // Fair at both, and 3 players clearly gives more choices: named.
        let clear = [count(2, true, (80.0, 81.0)), count(3, true, (90.0, 91.0))];
        assert!(best_count(&Axis::Players, &clear).starts_with("plays best at 3 players: fair"));
        // Apart, but by less than the margin: none named.
        let close = [count(2, true, (84.0, 85.0)), count(3, true, (86.5, 87.5))];
        assert!(
            best_count(&Axis::Players, &close).starts_with("fair at 2, 3 players; none of them")
        );
        // Overlapping: none named.
        let same = [count(2, true, (84.0, 86.0)), count(3, true, (85.0, 87.0))];
        assert!(best_count(&Axis::Players, &same).starts_with("fair at 2, 3 players"));
        // Only one fair, however much choice the other gives.
        let one = [count(2, false, (90.0, 91.0)), count(3, true, (50.0, 51.0))];
        assert_eq!(
            best_count(&Axis::Players, &one),
            "plays best at 3 players: the only count shown fair"
        );
        let none = [count(2, false, (90.0, 91.0)), count(3, false, (50.0, 51.0))];
        assert!(best_count(&Axis::Players, &none).starts_with("no count is shown fair"));
    }

    #[test]
    fn a_range_of_players_reads_as_written_or_says_how_to_write_it() {
        assert_eq!(parse_players("2..5"), Ok((2, 5)));
        assert_eq!(parse_players("3"), Ok((3, 3)));
        assert!(parse_players("5..2").is_err_and(|e| e.contains("the fewest (5)")));
        assert!(parse_players("two").is_err_and(|e| e.contains("like `--players 2..5`")));
    }
}
