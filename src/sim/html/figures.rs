//! The figures of a run, or of two side by side, after who wins: how long games last (turns
//! and rounds per game), why chips are lost, the bars of the total reached and passed, who
//! goes out first, and the key figures in a table.

use std::fmt::Write as _;

use super::RUNS;
use super::charts::{HChart, hbars};
use super::fmt::{CAUSES, badge, chips_lost, diff, fx, mean_decimals, nice_axis};
use super::hist::{HistSeries, histogram};
use super::svg::{Axis, Bar, figure, table};
use super::wins::{Pick, Run, colours_of, legend_of, tag_of, tags_of, yes_no};
use crate::sim::{Difference, Stats, Test, Verdict, differences, rates_differ};

pub(super) fn length(
    runs: &[Run],
    diffs: &[Difference],
    (id, unit): (&str, &str),
    pick: Pick,
) -> String {
    // Its mean's row among the differences: one verdict for the page, the text and the JSON.
    let sig =
        difference(diffs, &format!("{unit}_mean")).is_some_and(|d| d.verdict == Verdict::Beyond);
    let series: Vec<HistSeries> = runs
        .iter()
        .enumerate()
        .map(|(j, r)| HistSeries {
            tag: tag_of(runs, j),
            colour: RUNS[j],
            h: pick(r.st),
        })
        .collect();
    let (svg, tbl) = histogram(
        &format!(
            "{} per game",
            if unit == "turns" { "Turns" } else { "Rounds" }
        ),
        unit,
        &series,
        &legend_of(runs),
    );
    let mut how = format!(
        "Each bar is the share of games that lasted that many {unit}; the lines mark the mean \
         (solid), the median (dashed) and the 95th percentile (dotted: 1 game in 20 is longer)."
    );
    match runs {
        [r] => {
            let h = pick(r.st);
            let _ = write!(
                how,
                " Mean {}, median {}, 95th percentile {}.",
                fx(h.mean(), mean_decimals(unit)),
                h.quantile(0.5),
                h.quantile(0.95)
            );
        }
        [a, b] => {
            let (ha, hb) = (pick(a.st), pick(b.st));
            let _ = write!(
                how,
                " Mean A {}, B {} ({}, Welch’s test at 95%):{}",
                fx(ha.mean(), mean_decimals(unit)),
                fx(hb.mean(), mean_decimals(unit)),
                diff(hb.mean() - ha.mean(), mean_decimals(unit)),
                badge(sig)
            );
        }
        _ => {}
    }
    let title = format!(
        "{} per game{}",
        if unit == "turns" { "Turns" } else { "Rounds" },
        if runs.len() > 1 && sig { " *" } else { "" }
    );
    figure(id, &title, &how, &svg, &tbl)
}

/// One cause of lost chips: a bar per run, its cells in the table, and whether the two runs
/// differ beyond chance (rates per round, taken as Poisson).
fn cause_row(runs: &[Run], key: &str, label: &str) -> (Vec<Option<Bar>>, Vec<String>, bool) {
    let mut bars = Vec::new();
    let mut cells = vec![label.to_string()];
    for (j, r) in runs.iter().enumerate() {
        let v = chips_lost(r.st, key);
        bars.push(Some(Bar {
            value: v,
            ci: None,
            text: fx(v, 2),
            tip: format!(
                "{}{label}: {} chips lost per round",
                prefix(tag_of(runs, j)),
                fx(v, 3)
            ),
        }));
        cells.push(fx(v, 3));
    }
    let mut sig = false;
    if let [a, b] = runs {
        let lost = |st: &Stats| st.chips_lost.get(key).copied().unwrap_or(0) as f64;
        sig = rates_differ(
            lost(a.st),
            a.st.rounds.sum as f64,
            lost(b.st),
            b.st.rounds.sum as f64,
        );
        cells.push(diff(chips_lost(b.st, key) - chips_lost(a.st, key), 3));
        cells.push(yes_no(sig));
    }
    (bars, cells, sig)
}

/// A tag and a space (`A `), or nothing for a single run.
pub(super) fn prefix(tag: &str) -> String {
    if tag.is_empty() {
        String::new()
    } else {
        format!("{tag} ")
    }
}

/// Chips lost in all, per round and per game, as the last two rows of the table; for two runs
/// with the difference and its test, and the sentence that says so under the title.
fn chips_totals(runs: &[Run], diffs: &[Difference], how: &mut String) -> [Vec<String>; 2] {
    let lost = |st: &Stats| st.chips_lost.values().sum::<u64>() as f64;
    let per_round = |st: &Stats| lost(st) / st.rounds.sum.max(1) as f64;
    let mut total_row = vec!["all causes".to_string()];
    let mut per_game_row = vec!["chips lost per game".to_string()];
    for r in runs {
        total_row.push(fx(per_round(r.st), 3));
        per_game_row.push(fx(r.st.chips_per_game.mean(), 3));
    }
    if let [a, b] = runs {
        total_row.push(diff(per_round(b.st) - per_round(a.st), 3));
        let verdict = |key: &str| difference(diffs, key).map_or(Verdict::NoTest, |d| d.verdict);
        total_row.push(verdict_cell(verdict("chips_lost_per_round")));
        let per_game = verdict("chips_lost_per_game");
        let sig = per_game == Verdict::Beyond;
        per_game_row.push(diff(
            b.st.chips_per_game.mean() - a.st.chips_per_game.mean(),
            3,
        ));
        per_game_row.push(verdict_cell(per_game));
        let _ = write!(
            how,
            " In all, A {} and B {} per round; per game A {} and B {} ({}, Welch’s test at 95%):{} \
             * marks a cause whose rate per round differs beyond chance (the counts taken as \
             Poisson, at 95%).",
            fx(per_round(a.st), 3),
            fx(per_round(b.st), 3),
            fx(a.st.chips_per_game.mean(), 2),
            fx(b.st.chips_per_game.mean(), 2),
            diff(b.st.chips_per_game.mean() - a.st.chips_per_game.mean(), 2),
            badge(sig)
        );
    }
    [total_row, per_game_row]
}

pub(super) fn chips_by_cause(runs: &[Run], diffs: &[Difference]) -> String {
    let mut rows = Vec::new();
    let mut table_rows = Vec::new();
    for (key, label) in CAUSES {
        let (bars, cells, sig) = cause_row(runs, key, label);
        rows.push((star(label, sig), bars));
        table_rows.push(cells);
    }
    let mut how = String::from(
        "Chips lost per round, by why: busts (a player who could not play), bars passed, exact \
         hits of a bar (others pay), and every other rule (card effects, antes, round ends).",
    );
    table_rows.extend(chips_totals(runs, diffs, &mut how));
    let mut head = vec!["cause".to_string()];
    for j in 0..runs.len() {
        head.push(format!("{}chips per round", prefix(tag_of(runs, j))));
    }
    if runs.len() > 1 {
        head.extend(["B − A".into(), "beyond chance?".into()]);
    }
    let max = runs
        .iter()
        .flat_map(|r| CAUSES.iter().map(|(k, _)| chips_lost(r.st, k)))
        .fold(0.0, f64::max);
    let (top, step) = nice_axis(max * 1.12);
    let aria: Vec<String> = runs
        .iter()
        .enumerate()
        .map(|(j, r)| {
            let parts: Vec<String> = CAUSES
                .iter()
                .map(|(k, l)| format!("{l} {}", fx(chips_lost(r.st, k), 2)))
                .collect();
            let tag = tag_of(runs, j);
            let tag = if tag.is_empty() {
                String::new()
            } else {
                format!("{tag}: ")
            };
            format!("{tag}{}", parts.join(", "))
        })
        .collect();
    let svg = hbars(&HChart {
        title: "Chips lost per round, by cause".into(),
        aria: format!(
            "Horizontal bars: chips lost per round by cause; {}",
            aria.join("; ")
        ),
        legend: legend_of(runs),
        tags: tags_of(runs),
        colours: colours_of(runs),
        rows,
        axis: Axis {
            top,
            step,
            unit: "",
            label: "chips lost per round".into(),
        },
        refs: Vec::new(),
    });
    figure(
        "chips-by-cause",
        "Chips lost per round, by cause",
        &how,
        &svg,
        &table(&head, &table_rows),
    )
}

/// A label with ` *` when its difference is beyond chance.
pub(super) fn star(label: &str, sig: bool) -> String {
    if sig {
        format!("{label} *")
    } else {
        label.to_string()
    }
}

/// The row of `key` among the differences of two runs (none for one run).
pub(super) fn difference<'d>(diffs: &'d [Difference], key: &str) -> Option<&'d Difference> {
    diffs.iter().find(|d| d.key == key)
}

/// A number with a minus sign for its hyphen, as the page writes differences.
fn minus(x: String) -> String {
    match x.strip_prefix('-') {
        Some(rest) => format!("−{rest}"),
        None => x,
    }
}

/// A verdict in a table's last column: `yes *`, `no`, or `no test`.
pub(super) fn verdict_cell(v: Verdict) -> String {
    match v {
        Verdict::Beyond => "yes *".into(),
        Verdict::Within | Verdict::NoTest => v.word().into(),
    }
}

/// Key figures in a table: for one run its value, for two both, the difference with its 95%
/// interval, the test and its verdict: the rows of [`crate::sim::differences`], as the text
/// report and the `--json` give them.
pub(super) fn key_figures(runs: &[Run], diffs: &[Difference]) -> String {
    let mut head = vec![String::new()];
    let body: Vec<Vec<String>> = match runs {
        [r] => {
            head.push("value".into());
            differences(r.st, r.st)
                .iter()
                .filter(|d| !d.key.starts_with("seat_"))
                .map(|d| vec![d.label.clone(), fx(d.a, d.decimals)])
                .collect()
        }
        _ => {
            head.extend([
                "A".into(),
                "B".into(),
                "B − A".into(),
                "95% interval of B − A".into(),
                "test".into(),
                "beyond chance?".into(),
            ]);
            diffs
                .iter()
                .filter(|d| !d.key.starts_with("seat_"))
                .map(|d| {
                    let n = d.decimals;
                    vec![
                        d.label.clone(),
                        fx(d.a, n),
                        fx(d.b, n),
                        diff(d.difference, n),
                        d.interval.map_or_else(
                            || "–".to_string(),
                            |(lo, hi)| format!("{} to {}", minus(fx(lo, n)), minus(fx(hi, n))),
                        ),
                        d.test.map_or("–", Test::name).to_string(),
                        verdict_cell(d.verdict),
                    ]
                })
                .collect()
        }
    };
    table(&head, &body)
}
