//! The measures of a tally, one line each with its 95% interval and what it means; the
//! verdicts in plain words; and two tallies compared line by line.

use serde::Serialize;

use super::{JudgeConfig, MICRO, Tally};
use crate::sim::{
    Histogram, Verdict, WIN_UNIT, rate_difference, rates_differ, share_difference, two_prop, welch,
    wilson,
};

/// How a line's value is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// Percent (or percentage points, for a difference).
    Percent,
    Number,
}

/// What a line's value is made of, for its interval and for a comparison's test.
#[derive(Debug, Clone, PartialEq)]
pub enum Basis {
    /// `k` of `n`, shown in percent less `offset` points.
    Share { k: f64, n: f64, offset: f64 },
    /// The mean of a figure per game, times `scale`.
    Mean { h: Histogram, scale: f64 },
    /// `k` events over an exposure of `e` (games, rounds), the count taken as Poisson.
    Rate { k: f64, e: f64 },
    /// CardStock's Order: `k` of `n` won by a bot whose fair share is `ewp`, read as
    /// `(k/n − ewp)/(1 − ewp)`.
    Order { k: f64, n: f64, ewp: f64 },
    /// Luck, in percent: 100 less the Order of the same sample, within 0 to 100.
    Luck { k: f64, n: f64, ewp: f64 },
    /// No interval (a median, a percentile), or one worked out on its own.
    Plain,
}

/// One measure.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Line {
    pub key: String,
    pub label: String,
    pub value: f64,
    /// The 95% interval, when there is one.
    pub low: Option<f64>,
    pub high: Option<f64>,
    pub unit: Unit,
    pub meaning: String,
    #[serde(skip)]
    pub basis: Basis,
}

/// The standard normal's upper tail: the chance of a value above `z` (Abramowitz and Stegun
/// 7.1.26: erfc to 1.5e-7).
pub(super) fn upper_tail(z: f64) -> f64 {
    let x = z.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    // The upper tail is half of erfc at z/√2.
    let tail = 0.5 * poly * (-x * x).exp();
    if z >= 0.0 { tail } else { 1.0 - tail }
}

/// The standard normal quantile with `alpha` above it (by bisection on the upper tail).
pub(in crate::sim) fn z_for(alpha: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 10.0);
    for _ in 0..80 {
        let mid = f64::midpoint(lo, hi);
        if upper_tail(mid) > alpha {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    f64::midpoint(lo, hi)
}

/// A measure that cannot be taken (a share of no games, a rate over no rounds, a mean of
/// nothing): not a number, written "not measured" (and `null` in JSON), never 0.
pub const NOT_MEASURED: f64 = f64::NAN;

pub(super) fn line(key: &str, label: String, basis: Basis, unit: Unit, meaning: &str) -> Line {
    let (value, interval) = match &basis {
        Basis::Share { n, .. } | Basis::Order { n, .. } | Basis::Luck { n, .. } if *n <= 0.0 => {
            (NOT_MEASURED, None)
        }
        Basis::Mean { h, .. } if h.n == 0 => (NOT_MEASURED, None),
        Basis::Rate { e, .. } if *e <= 0.0 => (NOT_MEASURED, None),
        Basis::Share { k, n, offset } => {
            let v = 100.0 * k / n;
            let (lo, hi) = wilson(*k, *n);
            (v - offset, (*n > 0.0).then_some((lo - offset, hi - offset)))
        }
        Basis::Mean { h, scale } => {
            let m = h.mean() * scale;
            let half = 1.96 * (h.variance() / (h.n.max(1) as f64)).sqrt() * scale;
            (m, (h.n >= 2).then_some((m - half, m + half)))
        }
        Basis::Rate { k, e } => {
            if *e > 0.0 {
                let half = 1.96 * k.sqrt() / e;
                (k / e, Some(((k / e - half).max(0.0), k / e + half)))
            } else {
                (0.0, None)
            }
        }
        Basis::Order { k, n, ewp } => {
            let o = |v: f64| (v - ewp) / (1.0 - ewp).max(1e-9);
            let v = if *n > 0.0 { o(k / n) } else { 0.0 };
            let (lo, hi) = wilson(*k, *n);
            (v, (*n > 0.0).then_some((o(lo / 100.0), o(hi / 100.0))))
        }
        Basis::Luck { k, n, ewp } => {
            // Order is increasing in the win share, so luck is decreasing: the interval's
            // ends swap.
            let l = |v: f64| (100.0 * (1.0 - (v - ewp) / (1.0 - ewp).max(1e-9))).clamp(0.0, 100.0);
            let (lo, hi) = wilson(*k, *n);
            (l(k / n), Some((l(hi / 100.0), l(lo / 100.0))))
        }
        Basis::Plain => (0.0, None),
    };
    Line {
        key: key.to_string(),
        label,
        value,
        low: interval.map(|i| i.0),
        high: interval.map(|i| i.1),
        unit,
        meaning: meaning.to_string(),
        basis,
    }
}

pub(super) fn plain(key: &str, label: &str, value: f64, meaning: &str) -> Line {
    Line {
        value,
        ..line(key, label.into(), Basis::Plain, Unit::Number, meaning)
    }
}

pub(super) fn share(k: u64, n: u64) -> Basis {
    Basis::Share {
        k: k as f64,
        n: n as f64,
        offset: 0.0,
    }
}

/// The seats' win shares, the largest gap between two seats with its interval (the seats'
/// shares of one multinomial, Bonferroni over the pairs), and the first player's advantage.
pub(super) fn balance(t: &Tally) -> Vec<Line> {
    let n = t.games as f64;
    let unit = WIN_UNIT as f64;
    let mut out: Vec<Line> = t
        .wins
        .iter()
        .enumerate()
        .map(|(seat, w)| {
            let b = Basis::Share {
                k: *w as f64 / unit,
                n,
                offset: 0.0,
            };
            line(
                &format!("seat_{seat}"),
                format!("seat {seat} wins"),
                b,
                Unit::Percent,
                "the share of games this seat wins, every seat played by the same bot",
            )
        })
        .collect();
    out.push(gap_line(t));
    let fair = 100.0 / t.players.max(1) as f64;
    out.push(line(
        "first_player",
        "first player's advantage".into(),
        Basis::Share {
            k: t.first_wins as f64 / unit,
            n,
            offset: fair,
        },
        Unit::Percent,
        "the first round's leader's win share less the fair share, in points",
    ));
    out
}

/// The largest gap between two seats' win shares, in points, with its interval.
fn gap_line(t: &Tally) -> Line {
    let n = t.games as f64;
    let shares: Vec<f64> = t
        .wins
        .iter()
        .map(|w| {
            if n > 0.0 {
                *w as f64 / WIN_UNIT as f64 / n
            } else {
                0.0
            }
        })
        .collect();
    let (hi, lo) = super::fair::extreme_seats(t);
    let (a, b) = (
        shares.get(hi).copied().unwrap_or(0.0),
        shares.get(lo).copied().unwrap_or(0.0),
    );
    let d = a - b;
    let pairs = (t.players * t.players.saturating_sub(1) / 2).max(1) as f64;
    let z = z_for(0.05 / pairs / 2.0);
    let se = if n > 0.0 {
        ((a + b - d * d).max(0.0) / n).sqrt()
    } else {
        0.0
    };
    let mut l = plain(
        "largest_gap",
        "largest gap between seats",
        100.0 * d,
        "the best seat's win share less the worst seat's, in points; its interval is 95% for all pairs of seats together",
    );
    l.unit = Unit::Percent;
    if n > 0.0 {
        l.low = Some(100.0 * (d - z * se));
        l.high = Some(100.0 * (d + z * se));
    }
    l
}

fn length(t: &Tally, cfg: &JudgeConfig) -> Vec<Line> {
    let mut out = Vec::new();
    for (name, h) in [("turns", &t.turns), ("rounds", &t.rounds)] {
        out.push(line(
            &format!("{name}_mean"),
            format!("{name} per game, mean"),
            Basis::Mean {
                h: h.clone(),
                scale: 1.0,
            },
            Unit::Number,
            "how long a game lasts, on average",
        ));
        for (q, tag, word) in [
            (0.5, "median", "half the games"),
            (0.95, "p95", "95% of the games"),
        ] {
            out.push(plain(
                &format!("{name}_{tag}"),
                &format!(
                    "{name} per game, {}",
                    if tag == "p95" { "95th percentile" } else { tag }
                ),
                f64::from(h.quantile(q)),
                &format!("{word} last this long or less"),
            ));
        }
    }
    if let Some((a, b)) = cfg.length {
        let fit: u64 = t
            .turns
            .counts
            .iter()
            .filter(|(v, _)| (a..=b).contains(&u64::from(**v)))
            .map(|(_, c)| c)
            .sum();
        out.push(line(
            "length_fit",
            format!("games of {a} to {b} turns"),
            share(fit, t.games),
            Unit::Percent,
            "the share of games whose length is the designer's target",
        ));
    }
    out
}

/// The share of turns with a real choice, read as a sample of its effective size: turns of
/// one game are alike, so the games, not the turns, are the independent draws
/// ([`crate::sim::Clustered::effective`]). A tally without the per-game sums reads the turns alone.
fn choice_share(t: &Tally) -> Basis {
    if t.choice_turns.b != t.decisions || t.choice_turns.a != t.choices {
        return share(t.choices, t.decisions);
    }
    let (k, n) = t.choice_turns.effective();
    Basis::Share { k, n, offset: 0.0 }
}

fn agency(t: &Tally) -> Vec<Line> {
    vec![
        line(
            "real_choice",
            "turns with a real choice".into(),
            choice_share(t),
            Unit::Percent,
            "the share of turns with two or more legal cards that make different totals (the interval allows for the turns of one game being alike)",
        ),
        line(
            "choices_per_game",
            "real choices per game".into(),
            Basis::Mean {
                h: t.choices_per_game.clone(),
                scale: 1.0,
            },
            Unit::Number,
            "how many decisions a game asks of its players, all seats together",
        ),
        line(
            "forced_busts",
            "forced busts per game".into(),
            // The mean per game where the tally has it (an older one has only the count).
            if t.forced_per_game.n == t.games && t.forced_per_game.sum == t.forced {
                Basis::Mean {
                    h: t.forced_per_game.clone(),
                    scale: 1.0,
                }
            } else {
                Basis::Rate {
                    k: t.forced as f64,
                    e: t.games as f64,
                }
            },
            Unit::Number,
            "players who could not play or had no cards, a game",
        ),
    ]
}

fn downtime(t: &Tally) -> Vec<Line> {
    t.downtime
        .iter()
        .enumerate()
        // The last two players out end the game: the one before the winner waits no turn.
        .filter(|(k, h)| h.n > 0 && k + 2 < t.players)
        .map(|(k, h)| {
            line(
                &format!("downtime_{}", k + 1),
                format!("player out {} waits", ordinal(k + 1)),
                Basis::Mean {
                    h: h.clone(),
                    scale: 100.0 / MICRO as f64,
                },
                Unit::Percent,
                "the share of the game's turns this player spends out, waiting for the end",
            )
        })
        .collect()
}

fn tension(t: &Tally) -> Vec<Line> {
    let standing = if t.standing.is_empty() {
        "in chips"
    } else {
        t.standing.as_str()
    };
    vec![
        line(
            "lead_changes",
            "lead changes per round".into(),
            Basis::Rate {
                k: t.lead_changes as f64,
                e: t.lead_rounds as f64,
            },
            Unit::Number,
            &format!("how often a new player (or team) alone leads {standing} at a round's end"),
        ),
        line(
            "comebacks",
            "games won from last place".into(),
            share(t.comebacks, t.sole_wins),
            Unit::Percent,
            &format!(
                "the share of games won by a player (or team) who was last {standing} at some round's end"
            ),
        ),
        line(
            "drama",
            "drama".into(),
            Basis::Mean {
                h: t.drama.clone(),
                scale: 1.0 / MICRO as f64,
            },
            Unit::Number,
            "how far behind the winner fell while trailing (0: never behind, 1: a whole stack)",
        ),
    ]
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, x) if x != 11 => "st",
        (2, x) if x != 12 => "nd",
        (3, x) if x != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Every measure of a tally, in the order the report gives them.
pub fn lines(t: &Tally, cfg: &JudgeConfig) -> Vec<Line> {
    let mut out = balance(t);
    out.push(line(
        "with_winner",
        "games with a winner".into(),
        share(t.with_winner, t.games),
        Unit::Percent,
        "the share of games that end with a winner",
    ));
    out.push(line(
        "turn_limited",
        "games stopped by the turn limit".into(),
        share(t.turn_limited, t.games),
        Unit::Percent,
        "the share of games that would not end and were stopped",
    ));
    out.push(line(
        "shared_wins",
        "games won by two or more".into(),
        share(t.shared, t.games),
        Unit::Percent,
        "the share of games whose win is shared",
    ));
    out.extend(length(t, cfg));
    out.extend(super::pace::minutes(t, cfg));
    out.extend(agency(t));
    out.extend(downtime(t));
    out.extend(tension(t));
    out.extend(super::pace::decided(t));
    out.extend(skill(t));
    out.extend(order(t));
    out
}

/// The ladder: each level's win share in one seat against the level below.
fn skill(t: &Tally) -> Vec<Line> {
    t.skill
        .iter()
        .map(|r| {
            line(
                &format!("skill_{}", r.strong),
                format!("{} against {}", r.strong, r.weak),
                Basis::Share {
                    k: r.strong_wins as f64 / WIN_UNIT as f64,
                    n: r.games as f64,
                    offset: 0.0,
                },
                Unit::Percent,
                "the win share of one seat of the stronger bot against the weaker in every other seat (seats rotated); above the fair share is skill",
            )
        })
        .collect()
}

/// CardStock's Order for each bot of the ladder in one seat against `random` in the others,
/// and luck: what the strongest of them leaves to the deal.
fn order(t: &Tally) -> Vec<Line> {
    let mut out: Vec<Line> = t
        .order
        .iter()
        .map(|r| {
            let (k, n, ewp) = r.order_sample(t.players);
            let shared = ewp * t.players.max(1) as f64 > 1.0 + 1e-9;
            line(
                &format!("order_{}", r.strong),
                format!("Order of {} among {}", r.strong, r.weak),
                Basis::Order { k, n, ewp },
                Unit::Number,
                if shared {
                    "CardStock's Order on not losing, as wins are shared here: (share of games among the winners − random's)/(1 − random's): 0 plays no better than random, 1 never loses"
                } else {
                    "CardStock's Order, (win share − fair share)/(1 − fair share): 0 plays no better than random, 1 always wins"
                },
            )
        })
        .collect();
    // The top of the ladder, chosen before any game is played (taking the best of several
    // noisy Orders would read luck too low).
    if let Some(r) = t.order.last() {
        let (k, n, ewp) = r.order_sample(t.players);
        out.push(line(
            "luck",
            format!("luck, against {}", r.strong),
            Basis::Luck { k, n, ewp },
            Unit::Percent,
            "100% less the strongest bot's Order among random: 100% the deal decides everything (the bot does no better than random), 0% the better player always wins; a player stronger than the bot could leave less to luck",
        ));
    }
    out
}

pub(super) fn find<'a>(lines: &'a [Line], key: &str) -> Option<&'a Line> {
    lines.iter().find(|l| l.key == key)
}

fn beyond(l: &Line, zero: f64) -> bool {
    matches!((l.low, l.high), (Some(lo), Some(hi)) if lo > zero || hi < zero)
}

/// The verdicts in plain words, one sentence each, from the lines.
pub fn verdicts(t: &Tally, lines: &[Line]) -> Vec<String> {
    let mut out = Vec::new();
    if t.games == 0 {
        out.push("no game finished: nothing to judge".to_string());
        return out;
    }
    if let (Some(gap), Some(first)) = (find(lines, "largest_gap"), find(lines, "first_player")) {
        out.push(super::fair::fairness(t, gap, first));
    }
    if t.turn_limited > 0 {
        out.push(format!(
            "does not always end: {:.1}% of games were stopped by the turn limit",
            100.0 * t.turn_limited as f64 / t.games as f64
        ));
    } else {
        out.push("ends: every game finished within the turn limit".to_string());
    }
    if let (Some(m), Some(r)) = (find(lines, "turns_median"), find(lines, "rounds_median")) {
        let plural = |v: f64, word: &str| {
            if v == 1.0 {
                format!("{v} {word}")
            } else {
                format!("{v} {word}s")
            }
        };
        out.push(format!(
            "length: half the games last {} or less ({})",
            plural(m.value, "turn"),
            plural(r.value, "round")
        ));
    }
    if let Some(fit) = find(lines, "length_fit") {
        out.push(format!("{:.1}% of games fit the target length", fit.value));
    }
    super::pace::verdicts(t, lines, &mut out);
    if let Some(c) = find(lines, "real_choice") {
        out.push(format!("agency: a real choice on {:.1}% of turns", c.value));
    }
    if let Some(d) = find(lines, "downtime_1") {
        out.push(format!(
            "an eliminated player sits out {:.0}% of the game (the first one out)",
            d.value
        ));
    }
    if !t.skill.is_empty() {
        let fair = 100.0 / t.players.max(1) as f64;
        let levels = t
            .skill
            .iter()
            .filter(|r| {
                find(lines, &format!("skill_{}", r.strong)).is_some_and(|l| beyond(l, fair))
            })
            .count();
        let deals = t.skill.first().map_or(0, |r| r.games);
        let mut said = match levels {
            0 => format!(
                "skill not shown: no bot of the ladder wins beyond chance against the one below ({deals} deals a step)"
            ),
            1 => format!("skill matters: 1 distinguishable level ({deals} deals a step)"),
            n => format!("skill matters: {n} distinguishable levels ({deals} deals a step)"),
        };
        if let Some(l) = find(lines, "luck").filter(|l| !l.value.is_nan())
            && let (Some(lo), Some(hi)) = (l.low, l.high)
        {
            let bot = t.order.last().map_or("", |r| r.strong.as_str());
            said.push_str(&format!(
                "; luck {:.0}% [{lo:.0}, {hi:.0}] against {bot} (100%: the deal decides everything)",
                l.value
            ));
        }
        out.push(said);
    }
    if let Some(c) = find(lines, "comebacks") {
        out.push(if c.value.is_nan() {
            "comebacks: not measured, as no game was won by one player (or one team) alone"
                .to_string()
        } else {
            format!(
                "comebacks: {:.1}% of games are won by a player once last {}",
                c.value,
                if t.standing.is_empty() {
                    "in chips"
                } else {
                    t.standing.as_str()
                }
            )
        });
    }
    if let Some(x) = &t.restricted {
        out.push(restricted_verdict(x));
    }
    out
}

/// Restricted play in a sentence: how many rules are worth something beyond chance, and the
/// one worth most.
fn restricted_verdict(x: &super::Restricted) -> String {
    let changes: Vec<(String, super::Change)> = x
        .rows
        .iter()
        .map(|r| (r.label.clone(), super::Change::of(&x.bot, r)))
        .collect();
    let beyond = changes.iter().filter(|(_, c)| c.beyond_chance).count();
    let most = changes
        .iter()
        .filter(|(_, c)| c.beyond_chance)
        .max_by(|a, b| a.1.change.abs().total_cmp(&b.1.change.abs()));
    match most {
        None => format!(
            "rule impact: forbidding any one rule changes {}'s win share by nothing beyond chance ({} rules, {} deals each)",
            x.bot,
            changes.len(),
            x.deals
        ),
        Some((label, c)) => {
            let mut said = format!(
                "rule impact: {beyond} of {} rules change {}'s win share beyond chance when forbidden; the most, `{label}`: {:+.1} points",
                changes.len(),
                x.bot,
                c.change
            );
            // A rule whose loss helps the bot is one it uses where another move does better.
            let helps: Vec<&(String, super::Change)> = changes
                .iter()
                .filter(|(_, c)| c.beyond_chance && c.change > 0.0)
                .collect();
            if let Some((label, c)) = helps
                .iter()
                .max_by(|a, b| a.1.change.total_cmp(&b.1.change))
            {
                said.push_str(&format!(
                    "; forbidding {} helps {}, which uses {} where another move does better (the most, `{label}`: {:+.1} points)",
                    plural(helps.len(), "rule"),
                    x.bot,
                    if helps.len() == 1 { "it" } else { "them" },
                    c.change
                ));
            }
            said
        }
    }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// One measure of two rulesets: A's, B's, B − A with its 95% interval and the verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LineDiff {
    pub key: String,
    pub label: String,
    pub unit: Unit,
    pub a: f64,
    pub b: f64,
    pub diff: f64,
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// The standard error of `diff`, when it has a test.
    pub se: Option<f64>,
    /// The difference a test reads (for a share, Agresti and Caffo's center; else `diff`).
    #[serde(skip)]
    pub center: f64,
    pub verdict: Verdict,
}

/// B's line less A's: shares by the two-proportion test, means by Welch's, rates as Poisson
/// (the helpers of `sim::report` give each verdict); a line with no test says so.
fn differ(a: &Line, b: &Line) -> LineDiff {
    let diff = b.value - a.value;
    // The center and standard error each test reads: for a share, Agresti and Caffo's (a
    // sample of all or nothing has a spread); for a rate, half an event more on each side.
    let tested = match (&a.basis, &b.basis) {
        (Basis::Share { k: ka, n: na, .. }, Basis::Share { k: kb, n: nb, .. })
            if *na > 0.0 && *nb > 0.0 =>
        {
            let (center, se) = share_difference(*ka, *na, *kb, *nb);
            Some((100.0 * center, 100.0 * se, two_prop(*ka, *na, *kb, *nb)))
        }
        (Basis::Mean { h: ha, scale }, Basis::Mean { h: hb, .. }) if ha.n >= 2 && hb.n >= 2 => {
            let se = (ha.variance() / ha.n as f64 + hb.variance() / hb.n as f64).sqrt();
            Some((diff, se * scale, welch(ha, hb)))
        }
        (Basis::Rate { k: ka, e: ea }, Basis::Rate { k: kb, e: eb }) if *ea > 0.0 && *eb > 0.0 => {
            let (_, se) = rate_difference(*ka, *ea, *kb, *eb);
            Some((diff, se, rates_differ(*ka, *ea, *kb, *eb)))
        }
        (
            Basis::Order {
                k: ka, n: na, ewp, ..
            },
            Basis::Order { k: kb, n: nb, .. },
        ) if *na > 0.0 && *nb > 0.0 => {
            let (center, se) = share_difference(*ka, *na, *kb, *nb);
            let scale = 1.0 / (1.0 - ewp).max(1e-9);
            Some((center * scale, se * scale, two_prop(*ka, *na, *kb, *nb)))
        }
        (
            Basis::Luck {
                k: ka, n: na, ewp, ..
            },
            Basis::Luck { k: kb, n: nb, .. },
        ) if *na > 0.0 && *nb > 0.0 => {
            // More wins for the bot is less luck: the difference turns over.
            let (center, se) = share_difference(*ka, *na, *kb, *nb);
            let scale = -100.0 / (1.0 - ewp).max(1e-9);
            Some((
                center * scale,
                se * scale.abs(),
                two_prop(*ka, *na, *kb, *nb),
            ))
        }
        _ => None,
    }
    // A sample with no spread at all has no test.
    .filter(|t| t.1 > 0.0);
    let se = tested.map(|t| t.1);
    let center = tested.map_or(diff, |t| t.0);
    let (low, high, verdict) = match tested {
        Some((center, se, yes)) => (
            Some(center - 1.96 * se),
            Some(center + 1.96 * se),
            if yes {
                Verdict::Beyond
            } else {
                Verdict::Within
            },
        ),
        None => (None, None, Verdict::NoTest),
    };
    LineDiff {
        key: a.key.clone(),
        label: a.label.clone(),
        unit: a.unit,
        a: a.value,
        b: b.value,
        diff,
        low,
        high,
        se,
        center,
        verdict,
    }
}

/// Every line the two rulesets both have, B against A; not the minutes, which are the turns
/// times the pace (their difference is the turns', counted once).
pub fn compare(a: &[Line], b: &[Line]) -> Vec<LineDiff> {
    a.iter()
        .filter(|la| !la.key.starts_with("minutes_") || la.key == "minutes_fit")
        .filter_map(|la| find(b, &la.key).map(|lb| differ(la, lb)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_normal_quantile_is_the_one_in_the_tables() {
        assert!((z_for(0.025) - 1.959_96).abs() < 1e-3);
        assert!((z_for(0.005) - 2.575_83).abs() < 1e-3);
        assert!((upper_tail(1.959_96) - 0.025).abs() < 1e-6);
        assert!((upper_tail(-1.959_96) - 0.975).abs() < 1e-6);
        assert!((upper_tail(0.0) - 0.5).abs() < 1e-6);
    }

    #[test]
    fn ordinals_read_as_words() {
        let words: Vec<String> = [1, 2, 3, 4, 11, 12, 21]
            .iter()
            .map(|n| ordinal(*n))
            .collect();
        assert_eq!(words, ["1st", "2nd", "3rd", "4th", "11th", "12th", "21st"]);
    }
}
