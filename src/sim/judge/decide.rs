//! `--until-decided`: two rulesets played in batches on the same deals, looked at after each
//! batch, stopped when every chosen measure is decided one way or the other. A repeated test
//! with Bonferroni-split error rates (docs/judge.md): over all its looks and measures, it
//! says "differs" for a measure that does not differ with probability at most `alpha`, and
//! "no difference larger than the margin" for one that differs by the margin or more with
//! probability at most `beta`.

use crate::play::Ruleset;
use serde::Serialize;

use super::lines::z_for;
use super::paired::{Paired, play_pairs};
use super::{Basis, Control, JudgeConfig, Line, Tally, Unit, compare, extras, lines};
use crate::play::Player;

/// The measures `--until-decided` looks at unless `--decide` names others.
pub const DEFAULT_MEASURES: [&str; 3] = ["turns_mean", "first_player", "real_choice"];

/// The sequential test: its error rates, its looks and the games of each batch.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Plan {
    /// The chance of saying "differs" of a measure that does not, over every look and measure.
    pub alpha: f64,
    /// The chance of saying "no difference" of a measure that differs by its margin or more.
    pub beta: f64,
    /// Looks at most; each after one more batch.
    pub looks: u32,
    /// Games of each ruleset a batch.
    pub batch: u64,
    pub measures: Vec<String>,
}

impl Plan {
    /// The plan of `ninety judge --until-decided`: 5% and 5%, up to 20 batches.
    pub fn new(batch: u64, measures: Vec<String>) -> Plan {
        Plan {
            alpha: 0.05,
            beta: 0.05,
            looks: 20,
            batch,
            measures,
        }
    }
}

/// What a look says of one measure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Differs,
    NoDifference,
    Undecided,
}

impl Outcome {
    pub fn words(self) -> &'static str {
        match self {
            Outcome::Differs => "differs",
            Outcome::NoDifference => "no difference larger than the margin",
            Outcome::Undecided => "undecided",
        }
    }
}

/// One measure at a look: B − A, its interval at the look's level, the margin, the outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Decided {
    pub key: String,
    pub label: String,
    pub unit: Unit,
    pub a: f64,
    pub b: f64,
    pub diff: f64,
    pub low: f64,
    pub high: f64,
    pub margin: f64,
    pub outcome: Outcome,
}

/// The whole sequential test: its plan, the looks and games it used, and the last look.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Decision {
    pub plan: Plan,
    pub looks: u32,
    pub games: u64,
    pub decided: bool,
    pub interrupted: bool,
    pub measures: Vec<Decided>,
}

/// The margin a difference must stay within to count as none: 2 points for a share, 5% of
/// A's value for a number (at least 0.01).
pub fn margin(a: &Line) -> f64 {
    match a.unit {
        Unit::Percent => 2.0,
        Unit::Number => (0.05 * a.value.abs()).max(0.01),
    }
}

/// Whether `key` is a measure `--decide` can look at: one of `lines` with a test (not a
/// median, a percentile or the largest gap).
pub fn testable(lines: &[Line], key: &str) -> Result<(), String> {
    match lines.iter().find(|l| l.key == key) {
        None => Err(format!(
            "`--decide {key}`: no measure is called `{key}`; the measures are {}",
            lines
                .iter()
                .filter(|l| l.basis != Basis::Plain)
                .map(|l| l.key.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
        Some(l) if l.basis == Basis::Plain => Err(format!(
            "`--decide {key}`: {} has no test to decide it by",
            l.label
        )),
        Some(_) => Ok(()),
    }
}

/// The games of each ruleset before a look may decide anything: fewer are undecided, however
/// far apart they look (a share from a handful of games is all or nothing).
pub const FIRST_LOOK: u64 = 30;

/// One look at the chosen measures of A's and B's lines, after `games` games of each. `Err`
/// names a measure that one of them lacks.
/// `paired` gives, where it has a measure, the standard error of B − A from the same deals'
/// differences ([`Paired`]), which the test then reads in place of the two samples' apart.
pub fn decide(
    la: &[Line],
    lb: &[Line],
    plan: &Plan,
    games: u64,
    paired: &[Paired],
) -> Result<Vec<Decided>, String> {
    let ds = compare(la, lb);
    let m = plan.measures.len().max(1) as f64;
    let k = f64::from(plan.looks.max(1));
    // Two-sided for a difference, one-sided on each side for none (two one-sided tests).
    let z_diff = z_for(plan.alpha / (2.0 * k * m));
    let z_none = z_for(plan.beta / (k * m));
    plan.measures
        .iter()
        .map(|key| {
            let d = ds.iter().find(|d| &d.key == key).ok_or_else(|| {
                format!("`--decide {key}`: no measure of both rulesets is called `{key}`")
            })?;
            let a = la.iter().find(|l| &l.key == key).map_or(0.1, margin);
            // The same deals' differences where they were kept: the difference itself and
            // its paired error; else the two samples' test.
            let (center, se) = match paired.iter().find(|p| &p.key == key).and_then(Paired::se) {
                Some(se) => (d.diff, Some(se)),
                None => (d.center, d.se),
            };
            // Too few games for a standard error yet: undecided.
            let outcome = if se.is_none() || games < FIRST_LOOK || d.diff.is_nan() {
                Outcome::Undecided
            } else if center.abs() > z_diff * se.unwrap_or(f64::INFINITY) {
                Outcome::Differs
            } else if center.abs() + z_none * se.unwrap_or(f64::INFINITY) < a {
                Outcome::NoDifference
            } else {
                Outcome::Undecided
            };
            Ok(Decided {
                key: d.key.clone(),
                label: d.label.clone(),
                unit: d.unit,
                a: d.a,
                b: d.b,
                diff: d.diff,
                low: center - z_diff * se.unwrap_or(f64::INFINITY),
                high: center + z_diff * se.unwrap_or(f64::INFINITY),
                margin: a,
                outcome,
            })
        })
        .collect()
}

/// Plays A and B (`bot` in every seat) batch by batch, each batch the next `plan.batch` games
/// of each run's seed, until every chosen measure is decided, `plan.looks` batches are
/// played, or Ctrl-C; then the skill ladder and restricted play if asked. The tallies are
/// those of the games played, the same for any number of threads.
pub fn until_decided(
    a: (&Ruleset, &JudgeConfig),
    b: (&Ruleset, &JudgeConfig),
    bot: &Player,
    plan: &Plan,
    control: &Control<'_>,
) -> Result<(Tally, Tally, Decision), String> {
    let stopped = || control.stopped();
    // Each ruleset at its own table, as the plain comparison plays them.
    let seats_a: Vec<Player> = (0..a.1.players).map(|_| bot.clone()).collect();
    let seats_b: Vec<Player> = (0..b.1.players).map(|_| bot.clone()).collect();
    crate::sim::run::on_threads(control.jobs, || {
        let mut ta = Tally::new(a.0, a.1.players);
        let mut tb = Tally::new(b.0, b.1.players);
        let mut last = Vec::new();
        let mut looks = 0;
        let mut decided = false;
        let mut paired: Vec<Paired> = plan.measures.iter().map(|k| Paired::new(k)).collect();
        while looks < plan.looks && !decided && !stopped() {
            let at = |k: u32| u64::from(k).saturating_mul(plan.batch);
            let range = at(looks)..at(looks + 1);
            let both = (&stopped as &(dyn Fn() -> bool + Sync), control.played);
            play_pairs(
                ((a.0, a.1, &seats_a), (b.0, b.1, &seats_b)),
                range,
                both,
                (&mut ta, &mut tb),
                &mut paired,
            )?;
            if stopped() {
                break;
            }
            looks += 1;
            last = decide(
                &lines(&ta, a.1),
                &lines(&tb, b.1),
                plan,
                ta.games.min(tb.games),
                &paired,
            )?;
            decided = last.iter().all(|d| d.outcome != Outcome::Undecided);
        }
        extras(a.0, a.1, &stopped, &mut ta)?;
        extras(b.0, b.1, &stopped, &mut tb)?;
        let decision = Decision {
            plan: plan.clone(),
            looks,
            games: ta.games.min(tb.games),
            decided,
            interrupted: stopped(),
            measures: last,
        };
        Ok((ta, tb, decision))
    })?
}
