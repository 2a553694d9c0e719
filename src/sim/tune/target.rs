//! A designer's targets (`--target fair`, `--target minutes=15..30`, ...) and what one look at
//! a tally says of each: the measure, its interval at the look's level, and whether the
//! interval lies inside the target (met), outside it (missed), or across its edge (undecided).

use serde::{Deserialize, Serialize};

use super::super::judge::{self, Basis, JudgeConfig, Line, Tally, Unit};
use crate::play::Ruleset;

/// What a target reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum What {
    /// One of the judge's measures, by key (`turns_mean`, `real_choice`, ...).
    Line(String),
    /// Fair with a margin in points: the largest gap between seats below it, the first
    /// player's advantage within it either way (the judge's fairness verdict).
    Fair(f64),
    /// Every card line and every move beside laying a card: the share of the lost rounds
    /// each one decided (the last card or move before the round was lost). Bars and triggers
    /// are how a round is lost, not a player's play, and are not read.
    Rules,
}

/// One target: what it reads and the range it must lie in (either end open).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Target {
    /// As the designer wrote it.
    pub written: String,
    pub what: What,
    pub low: Option<f64>,
    pub high: Option<f64>,
}

/// The names a target may use beside a measure's key, and the key each stands for.
pub const ALIASES: [(&str, &str); 5] = [
    ("length", "turns_mean"),
    ("turns", "turns_mean"),
    ("rounds", "rounds_mean"),
    ("minutes", "minutes_mean"),
    ("choice", "real_choice"),
];

/// Reads `--target TEXT`: `fair`, `fair=M`, `decides=..X`, or `NAME=A..B` (`A..` or `..B`
/// for an open end), `NAME` a measure's key or one of [`ALIASES`]. Whether the key is a
/// measure of the ruleset is checked against its lines ([`check`]).
pub fn parse(text: &str) -> Result<Target, String> {
    let written = text.trim().to_string();
    let shape = || {
        format!(
            "`--target {text}`: write `fair` (or `fair=3` for a 3-point margin), or a measure and \
             its range, like `--target minutes=15..30`, `--target choice=60..` or `--target \
             decides=..40`"
        )
    };
    let (name, range) = match written.split_once('=') {
        Some((n, r)) => (n.trim(), Some(r.trim())),
        None => (written.as_str(), None),
    };
    if name == "fair" {
        let margin = match range {
            None => judge::FAIR_MARGIN,
            Some(m) => m
                .parse::<f64>()
                .ok()
                .filter(|m| *m > 0.0 && *m <= 100.0)
                .ok_or_else(|| {
                    format!("`--target {text}`: the margin is points above 0, like `fair=3`")
                })?,
        };
        return Ok(Target {
            written,
            what: What::Fair(margin),
            low: None,
            high: Some(margin),
        });
    }
    let range = range.ok_or_else(shape)?;
    let (a, b) = range.split_once("..").ok_or_else(shape)?;
    let end = |s: &str| -> Result<Option<f64>, String> {
        let s = s.trim();
        if s.is_empty() {
            return Ok(None);
        }
        s.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .map(Some)
            .ok_or_else(shape)
    };
    let (low, high) = (end(a)?, end(b)?);
    if low.is_none() && high.is_none() {
        return Err(shape());
    }
    if let (Some(a), Some(b)) = (low, high)
        && a > b
    {
        return Err(format!(
            "`--target {text}`: the low end ({a}) is above the high end ({b})"
        ));
    }
    if name.is_empty() {
        return Err(shape());
    }
    let what = if name == "decides" {
        What::Rules
    } else {
        let key = ALIASES
            .iter()
            .find(|(alias, _)| *alias == name)
            .map_or(name, |(_, key)| *key);
        What::Line(key.to_string())
    };
    Ok(Target {
        written,
        what,
        low,
        high,
    })
}

/// Whether `t` reads a measure `lines` has, with an interval to decide it by; else which
/// measures it may name.
pub fn check(t: &Target, lines: &[Line]) -> Result<(), String> {
    let What::Line(key) = &t.what else {
        return Ok(());
    };
    let decidable = |l: &&Line| l.low.is_some() || l.basis != Basis::Plain;
    match lines.iter().find(|l| &l.key == key) {
        Some(l) if decidable(&l) => Ok(()),
        Some(l) => Err(format!(
            "`--target {}`: {} has no interval to decide a target by; take the mean (`{}`)",
            t.written,
            l.label,
            key.replace("_median", "_mean").replace("_p95", "_mean")
        )),
        None => Err(format!(
            "`--target {}`: no measure is called `{key}`; write `fair`, `decides=..X`, one of \
             {}, or a measure: {}",
            t.written,
            ALIASES.map(|(a, _)| format!("`{a}`")).join(", "),
            lines
                .iter()
                .filter(decidable)
                .map(|l| l.key.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Where a value or an interval stands against a target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    Meets,
    Misses,
    Undecided,
}

impl State {
    /// Several readings together: misses if one misses, meets if all meet.
    pub fn all(states: impl IntoIterator<Item = State>) -> State {
        let mut out = State::Meets;
        for s in states {
            match s {
                State::Misses => return State::Misses,
                State::Undecided => out = State::Undecided,
                State::Meets => {}
            }
        }
        out
    }
}

/// One measure read against one target at one look.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reading {
    /// The target it reads for, by its place in the command.
    pub target: usize,
    pub key: String,
    pub label: String,
    pub percent: bool,
    /// The value, and its interval at the look's level (`None`: not measured).
    pub value: Option<f64>,
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// The range it must lie in.
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub state: State,
}

impl Target {
    /// The ranges its readings are held to: `fair` holds the largest gap below its margin and
    /// the first player's advantage within it; any other target, its own range.
    pub fn ranges(&self) -> Vec<(Option<f64>, Option<f64>)> {
        match &self.what {
            What::Fair(m) => vec![(None, Some(*m)), (Some(-m), Some(*m))],
            What::Line(_) | What::Rules => vec![(self.low, self.high)],
        }
    }
}

impl Reading {
    /// Its state, worked out again from its interval and its range (what a merged shard's
    /// word must agree with).
    pub fn state_now(&self) -> State {
        state(self.low.zip(self.high), self.min, self.max)
    }

    /// How far the value lies outside its range, as a share of the nearer end (at least 1):
    /// 0 inside it, or when not measured (then it is undecided, never met).
    pub fn distance(&self) -> f64 {
        let Some(v) = self.value else {
            return 0.0;
        };
        let below = self
            .min
            .map_or(0.0, |a| (a - v).max(0.0) / a.abs().max(1.0));
        let above = self
            .max
            .map_or(0.0, |b| (v - b).max(0.0) / b.abs().max(1.0));
        below + above
    }

    /// How far its interval reaches outside its range, as a share of the nearer end: 0 for
    /// an interval inside it; between two estimates that both lie inside, the one whose
    /// interval reaches less far out is the nearer to meeting it. Not measured: infinite.
    pub fn reach(&self) -> f64 {
        let (Some(lo), Some(hi)) = (self.low, self.high) else {
            return f64::INFINITY;
        };
        let below = self
            .min
            .map_or(0.0, |a| (a - lo).max(0.0) / a.abs().max(1.0));
        let above = self
            .max
            .map_or(0.0, |b| (hi - b).max(0.0) / b.abs().max(1.0));
        below + above
    }
}

/// How many tests a target makes of a run of `p` at `players`: one a measure, two for
/// fairness, one a rule that can happen for `decides`.
pub fn tests(t: &Target, p: &Ruleset, players: usize) -> usize {
    match t.what {
        What::Line(_) => 1,
        What::Fair(_) => 2,
        What::Rules => judge::targets(p, players)
            .iter()
            .filter(|r| r.cannot.is_none() && played(r.kind))
            .count()
            .max(1),
    }
}

/// Whether a rule of this kind is a player's play (a card line, a move), which `decides`
/// reads.
fn played(kind: &str) -> bool {
    matches!(kind, "card" | "move")
}

/// The Wilson interval of `k` of `n` at `z`, in percent.
fn wilson_at(k: f64, n: f64, z: f64) -> (f64, f64) {
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = p + z * z / (2.0 * n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let bound = |x: f64| (100.0 * x / denom).clamp(0.0, 100.0);
    (bound(centre - half), bound(centre + half))
}

/// A line's interval at `z` in place of 1.96: a share's Wilson interval and a mean's normal
/// one worked out again; any other interval widened about its value by `z / 1.96`.
pub fn interval_at(l: &Line, z: f64) -> Option<(f64, f64)> {
    if l.value.is_nan() {
        return None;
    }
    match &l.basis {
        Basis::Share { k, n, offset } if *n > 0.0 => {
            let (lo, hi) = wilson_at(*k, *n, z);
            Some((lo - offset, hi - offset))
        }
        Basis::Mean { h, scale } if h.n >= 2 => {
            let half = z * (h.variance() / h.n as f64).sqrt() * scale;
            Some((l.value - half, l.value + half))
        }
        Basis::Share { .. }
        | Basis::Mean { .. }
        | Basis::Rate { .. }
        | Basis::Order { .. }
        | Basis::Luck { .. }
        | Basis::Plain => {
            let (lo, hi) = (l.low?, l.high?);
            let f = z / 1.96;
            Some((l.value - (l.value - lo) * f, l.value + (hi - l.value) * f))
        }
    }
}

/// Where `(lo, hi)` stands against `[min, max]`.
fn state(interval: Option<(f64, f64)>, min: Option<f64>, max: Option<f64>) -> State {
    let Some((lo, hi)) = interval else {
        return State::Undecided;
    };
    let inside = min.is_none_or(|a| lo >= a) && max.is_none_or(|b| hi <= b);
    let outside = min.is_some_and(|a| hi < a) || max.is_some_and(|b| lo > b);
    if inside {
        State::Meets
    } else if outside {
        State::Misses
    } else {
        State::Undecided
    }
}

/// Every target read on the tally of a run, each interval at `z`, in the targets' order.
pub fn read(
    targets: &[Target],
    (p, cfg, t): (&Ruleset, &JudgeConfig, &Tally),
    z: f64,
) -> Vec<Reading> {
    let mut out = read_lines(targets, &judge::lines(t, cfg), z);
    let n = t.faults as f64;
    for (i, target) in targets.iter().enumerate() {
        if target.what != What::Rules {
            continue;
        }
        for r in judge::rules(p, t) {
            if r.cannot.is_some() || !played(r.kind) {
                continue;
            }
            let k = r.decided as f64;
            let interval = (n > 0.0).then(|| wilson_at(k, n, z));
            out.push(Reading {
                target: i,
                key: format!("{}:{}", r.file, r.line),
                label: r.label.clone(),
                percent: true,
                value: (n > 0.0).then(|| 100.0 * k / n),
                low: interval.map(|i| i.0),
                high: interval.map(|i| i.1),
                min: target.low,
                max: target.high,
                state: state(interval, target.low, target.high),
            });
        }
    }
    out.sort_by_key(|r| r.target);
    out
}

/// The targets that read the judge's measures (not `decides`), on `lines`, at `z`.
pub fn read_lines(targets: &[Target], lines: &[Line], z: f64) -> Vec<Reading> {
    let of_line = |target: usize, l: &Line, (min, max): (Option<f64>, Option<f64>)| {
        let interval = interval_at(l, z);
        Reading {
            target,
            key: l.key.clone(),
            label: l.label.clone(),
            percent: l.unit == Unit::Percent,
            value: (!l.value.is_nan()).then_some(l.value),
            low: interval.map(|i| i.0),
            high: interval.map(|i| i.1),
            min,
            max,
            state: state(interval, min, max),
        }
    };
    let mut out = Vec::new();
    for (i, target) in targets.iter().enumerate() {
        match &target.what {
            What::Line(key) => {
                if let Some(l) = lines.iter().find(|l| &l.key == key) {
                    out.push(of_line(i, l, (target.low, target.high)));
                }
            }
            What::Fair(m) => {
                for (key, range) in [
                    ("largest_gap", (None, Some(*m))),
                    ("first_player", (Some(-m), Some(*m))),
                ] {
                    if let Some(l) = lines.iter().find(|l| l.key == key) {
                        out.push(of_line(i, l, range));
                    }
                }
            }
            What::Rules => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_read_as_written_or_say_how_to_write_them() {
        let t = parse("minutes=15..30").expect("reads");
        assert_eq!(t.what, What::Line("minutes_mean".into()));
        assert_eq!((t.low, t.high), (Some(15.0), Some(30.0)));
        let t = parse("choice=60..").expect("reads");
        assert_eq!(
            (t.what, t.low, t.high),
            (What::Line("real_choice".into()), Some(60.0), None)
        );
        let t = parse("decides=..40").expect("reads");
        assert_eq!((t.what, t.high), (What::Rules, Some(40.0)));
        assert_eq!(parse("fair").expect("reads").what, What::Fair(5.0));
        assert_eq!(parse("fair=3").expect("reads").what, What::Fair(3.0));
        for bad in [
            "minutes",
            "minutes=..",
            "minutes=30..15",
            "=1..2",
            "fair=-1",
            "x=a..b",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        assert!(parse("minutes=30..15").is_err_and(|e| e.contains("above the high end")));
    }

    #[test]
    fn an_interval_inside_meets_outside_misses_across_is_undecided() {
        assert_eq!(
            state(Some((16.0, 20.0)), Some(15.0), Some(30.0)),
            State::Meets
        );
        assert_eq!(
            state(Some((31.0, 33.0)), Some(15.0), Some(30.0)),
            State::Misses
        );
        assert_eq!(state(Some((10.0, 14.0)), Some(15.0), None), State::Misses);
        assert_eq!(
            state(Some((14.0, 16.0)), Some(15.0), Some(30.0)),
            State::Undecided
        );
        assert_eq!(state(None, Some(15.0), None), State::Undecided);
        assert_eq!(
            State::all([State::Meets, State::Undecided, State::Meets]),
            State::Undecided
        );
        assert_eq!(State::all([State::Undecided, State::Misses]), State::Misses);
    }

    #[test]
    fn a_wider_level_widens_the_interval_and_1_96_keeps_it() {
        let (low, high) = crate::sim::wilson(30.0, 100.0);
        let l = Line {
            key: "k".into(),
            label: "k".into(),
            value: 30.0,
            low: Some(low),
            high: Some(high),
            unit: Unit::Percent,
            meaning: String::new(),
            basis: Basis::Share {
                k: 30.0,
                n: 100.0,
                offset: 0.0,
            },
        };
        let (lo, hi) = interval_at(&l, 1.96).expect("an interval");
        assert!(
            (lo - l.low.expect("low")).abs() < 1e-9 && (hi - l.high.expect("high")).abs() < 1e-9
        );
        let (wlo, whi) = interval_at(&l, 3.0).expect("an interval");
        assert!(wlo < lo && whi > hi);
    }
}
