//! A tune run in words: what was searched and for what, the tables that meet every target
//! with their intervals, those still undecided, the closest when none meets, and the games
//! it took against the whole grid played out. And the same as one self-contained HTML page.

use std::fmt::Write;

use super::{Raced, Reading, State, Tuned, ranked};
use crate::base::limits::grouped;
use crate::sim::html::esc;

/// Tables listed by name in each part of the text at most (the JSON and the page hold all).
const LISTED: usize = 12;

fn number(v: f64, percent: bool) -> String {
    let v = if v.abs() < 0.0005 { 0.0 } else { v };
    if percent {
        format!("{v:.1}%")
    } else if v.abs() >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// `minutes per game, mean 18.2 [17.9, 18.5]`.
fn reading(r: &Reading) -> String {
    let Some(v) = r.value else {
        return format!("{} not measured", r.label);
    };
    match (r.low, r.high) {
        (Some(lo), Some(hi)) => format!(
            "{} {} [{}, {}]",
            r.label,
            number(v, r.percent),
            number(lo, r.percent),
            number(hi, r.percent)
        ),
        _ => format!("{} {}", r.label, number(v, r.percent)),
    }
}

/// A target's range in words: `from 15 to 30`, `at least 60`, `at most 40`.
fn range(min: Option<f64>, max: Option<f64>) -> String {
    let n = |v: f64| {
        if v.fract() == 0.0 {
            format!("{v:.0}")
        } else {
            format!("{v}")
        }
    };
    match (min, max) {
        (Some(a), Some(b)) => format!("from {} to {}", n(a), n(b)),
        (Some(a), None) => format!("at least {}", n(a)),
        (None, Some(b)) => format!("at most {}", n(b)),
        (None, None) => "any".into(),
    }
}

/// Each target in words.
pub(super) fn target_words(t: &Tuned) -> Vec<String> {
    t.config
        .targets
        .iter()
        .map(|target| match &target.what {
            super::What::Fair(m) => format!(
                "fair: no seat wins {m} points more than another, the first player's advantage within {m} points"
            ),
            super::What::Rules => format!(
                "each card line and move decides a share of the lost rounds {}",
                range(target.low, target.high).replace(" to ", "% to ") + "%"
            ),
            super::What::Line(key) => {
                let first = t
                    .raced
                    .iter()
                    .flat_map(|r| &r.readings)
                    .find(|r| &r.key == key);
                let label = first.map_or(key.as_str(), |r| r.label.as_str());
                let words = range(target.low, target.high);
                if first.is_some_and(|r| r.percent) {
                    format!("{label} {}%", words.replace(" to ", "% to "))
                } else {
                    format!("{label} {words}")
                }
            }
        })
        .collect()
}

/// What a table's readings show: every reading that decided it (or all, when undecided),
/// the worst rule only for `decides`.
fn shown(r: &Raced) -> Vec<String> {
    let mut out = Vec::new();
    let targets = r
        .readings
        .iter()
        .map(|x| x.target)
        .max()
        .map_or(0, |m| m + 1);
    for target in 0..targets {
        let mine: Vec<&Reading> = r.readings.iter().filter(|x| x.target == target).collect();
        // Of several readings (every rule), the one furthest up its range.
        let worst = mine
            .iter()
            .filter(|x| x.key.contains(':'))
            .max_by(|a, b| a.value.unwrap_or(0.0).total_cmp(&b.value.unwrap_or(0.0)));
        match worst {
            Some(w) => out.push(format!("worst rule: {}", reading(w))),
            None => out.extend(mine.iter().map(|x| reading(x))),
        }
    }
    out
}

fn table_line(out: &mut String, r: &Raced, counts: bool) {
    let _ = writeln!(
        out,
        "  {} ({} games): {}",
        r.table.words(counts),
        grouped(r.games),
        shown(r).join("; ")
    );
}

/// Which target a table missed first, in words.
fn missed(t: &Tuned, r: &Raced) -> Option<String> {
    (0..t.config.targets.len())
        .find(|&i| r.target_state(i) == State::Misses)
        .and_then(|i| t.config.targets.get(i))
        .map(|target| target.written.clone())
}

/// The text report of a tune run (or of its shard).
pub fn text(t: &Tuned) -> String {
    let c = &t.config;
    let counts = c.players.len() > 1;
    let mut s = String::new();
    let searched: Vec<String> = c
        .vary
        .iter()
        .map(|(n, vs)| format!("{n} over {}", vs.join(", ")))
        .chain(counts.then(|| {
            let ps: Vec<String> = c.players.iter().map(ToString::to_string).collect();
            format!("players over {}", ps.join(", "))
        }))
        .collect();
    let table_word = if c.tables == 1 { "table" } else { "tables" };
    let _ = writeln!(
        s,
        "tuning {} ({}): {} ({} {table_word}), {} in every seat, seed {}",
        c.name,
        c.ruleset,
        searched.join("; "),
        c.tables,
        c.bot,
        c.seed
    );
    if !counts && let Some(p) = c.players.first() {
        let _ = writeln!(s, "{p} players at every table");
    }
    let _ = writeln!(s, "targets:");
    for w in target_words(t) {
        let _ = writeln!(s, "  {w}");
    }
    let looks = &c.plan.looks;
    let _ = writeln!(
        s,
        "each table's verdict is wrong at most {:.0}% of the time: played on the same deals as the others in batches, looked at after {} games, stopped once decided (intervals below at the test's level)",
        100.0 * c.plan.alpha,
        looks
            .iter()
            .map(|n| grouped(*n))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if let Some((k, n)) = t.shard {
        let _ = writeln!(
            s,
            "shard {k} of {n}: {} of the {} tables (merge the shards' --json with `ninety tune --merge`)",
            t.raced.len(),
            c.tables
        );
    }
    let order = ranked(&t.raced);
    let meets: Vec<&&Raced> = order.iter().filter(|r| r.state == State::Meets).collect();
    let open: Vec<&&Raced> = order
        .iter()
        .filter(|r| r.state == State::Undecided)
        .collect();
    let misses = order.len() - meets.len() - open.len();
    s.push('\n');
    if meets.is_empty() && !open.is_empty() {
        let _ = writeln!(
            s,
            "no table is known yet to meet every target: {} not decided (below), {misses} miss one.",
            open.len()
        );
    } else if meets.is_empty() {
        let _ = writeln!(s, "no table meets every target.");
    } else {
        let _ = writeln!(s, "meets every target ({}):", meets.len());
        for r in meets.iter().take(LISTED) {
            table_line(&mut s, r, counts);
        }
        if meets.len() > LISTED {
            let _ = writeln!(s, "  ... and {} more (see --json)", meets.len() - LISTED);
        }
    }
    if !open.is_empty() {
        let _ = writeln!(
            s,
            "\nnot decided after the most games ({}): more games (`--games`) decide them:",
            open.len()
        );
        for r in open.iter().take(LISTED) {
            table_line(&mut s, r, counts);
        }
        if open.len() > LISTED {
            let _ = writeln!(s, "  ... and {} more (see --json)", open.len() - LISTED);
        }
    }
    if misses > 0 {
        let mut by: Vec<(String, usize)> = Vec::new();
        for r in order.iter().filter(|r| r.state == State::Misses) {
            let w = missed(t, r).unwrap_or_default();
            match by.iter_mut().find(|(x, _)| *x == w) {
                Some((_, n)) => *n += 1,
                None => by.push((w, 1)),
            }
        }
        let why: Vec<String> = by.iter().map(|(w, n)| format!("{n} miss `{w}`")).collect();
        let _ = writeln!(
            s,
            "\nmisses a target ({misses}; by the first one missed: {})",
            why.join(", ")
        );
    }
    if meets.is_empty() && !order.is_empty() {
        let _ = writeln!(s, "\nclosest to every target:");
        for r in order.iter().take(3) {
            table_line(&mut s, r, counts);
        }
    }
    let full = (c.tables as u64).saturating_mul(c.plan.games());
    let _ = writeln!(
        s,
        "\n{} games played, against {} for every table at {} games",
        grouped(t.games()),
        grouped(full),
        grouped(c.plan.games())
    );
    if t.interrupted {
        let _ = writeln!(
            s,
            "(stopped by Ctrl-C: each table says what its games showed)"
        );
    }
    s
}

/// One chart a measure a target reads: each table's value with its interval at the test's
/// level, ranked as the table above, the target's nearer bound drawn as a dashed line (for
/// `decides`, each table's worst card line or move).
fn charts(out: &mut String, t: &Tuned, counts: bool) {
    use crate::sim::judge::charts::{Row, interval_chart};
    let order = ranked(&t.raced);
    for (i, target) in t.config.targets.iter().enumerate() {
        // The first reading of each measure the target reads (every rule counts as one).
        let key_of = |r: &Reading| {
            if r.key.contains(':') {
                "rules".to_string()
            } else {
                r.key.clone()
            }
        };
        let mut firsts: Vec<&Reading> = Vec::new();
        for r in order
            .iter()
            .flat_map(|r| &r.readings)
            .filter(|x| x.target == i)
        {
            if !firsts.iter().any(|f| key_of(f) == key_of(r)) {
                firsts.push(r);
            }
        }
        for first in firsts {
            let key = key_of(first);
            let label = if key == "rules" {
                "the card line or move deciding the most lost rounds".to_string()
            } else {
                first.label.clone()
            };
            let (percent, min, max) = (first.percent, first.min, first.max);
            let rows: Vec<Row> = order
                .iter()
                .filter_map(|r| {
                    let x = r
                        .readings
                        .iter()
                        .filter(|x| x.target == i)
                        .filter(|x| x.key == key || (key == "rules" && x.key.contains(':')))
                        .max_by(|a, b| a.value.unwrap_or(0.0).total_cmp(&b.value.unwrap_or(0.0)))?;
                    Some(Row {
                        label: r.table.words(counts),
                        value: x.value?,
                        ci: x.low.zip(x.high),
                    })
                })
                .collect();
            if rows.is_empty() {
                continue;
            }
            let title = format!("{label}: `{}`", target.written);
            let _ = writeln!(out, "<h2>{}</h2>", esc(&title));
            let bound = max.or(min);
            let words = format!("target {}", range(min, max));
            out.push_str(&interval_chart(
                &title,
                &rows,
                if percent { "%" } else { "" },
                bound.map(|b| (b, words.as_str())),
            ));
        }
    }
}

const CSS: &str = "
body { font: 15px/1.45 system-ui, sans-serif; color: #1d232a; max-width: 70rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
table { border-collapse: collapse; width: 100%; }
svg.chart { display: block; max-width: 100%; height: auto; margin: .5rem 0; }
th, td { text-align: left; padding: .25rem .5rem; border-bottom: 1px solid #dde2e7; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.meets { color: #1b6e34; font-weight: 600; } .misses { color: #b3261e; } .undecided { color: #8a5a00; }
footer { margin-top: 2rem; color: #56606b; font-size: .85em; }
";

/// The tune run as one self-contained page (inline CSS, nothing fetched, no script): the
/// targets, then every table ranked, its verdict and its readings.
pub fn html(t: &Tuned) -> String {
    let c = &t.config;
    let counts = c.players.len() > 1;
    let mut b = format!("<h1>Tuning {}</h1>\n<ul>\n", esc(&c.name));
    for w in target_words(t) {
        let _ = writeln!(b, "<li>{}</li>", esc(&w));
    }
    let _ = writeln!(
        b,
        "</ul>\n<p><code>{}</code>, <code>{}</code> in every seat, seed {}: {} tables, {} games played. Each verdict is wrong at most {:.0}% of the time.</p>",
        esc(&c.ruleset),
        esc(&c.bot),
        c.seed,
        c.tables,
        grouped(t.games()),
        100.0 * c.plan.alpha
    );
    b.push_str(
        "<table>\n<tr><th>table</th><th>verdict</th><th class=\"num\">games</th><th>readings (value [interval])</th></tr>\n",
    );
    for r in ranked(&t.raced) {
        let (class, word) = match r.state {
            State::Meets => ("meets", "meets every target"),
            State::Misses => ("misses", "misses a target"),
            State::Undecided => ("undecided", "not decided"),
        };
        let _ = writeln!(
            b,
            "<tr><td>{}</td><td class=\"{class}\">{word}</td><td class=\"num\">{}</td><td>{}</td></tr>",
            esc(&r.table.words(counts)),
            grouped(r.games),
            shown(r)
                .iter()
                .map(|x| esc(x))
                .collect::<Vec<_>>()
                .join("<br>")
        );
    }
    b.push_str("</table>\n");
    charts(&mut b, t, counts);
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"ninety tune\">\n<title>ninety tune: {}</title>\n\
         <style>{CSS}</style>\n</head>\n<body>\n{b}<footer>Written by <code>ninety tune \
         --report</code>: one self-contained page (nothing is fetched); the test is in \
         docs/judge.md.</footer>\n</body>\n</html>\n",
        esc(&c.name)
    )
}
