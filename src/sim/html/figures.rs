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
use crate::sim::{Histogram, Stats, rates_differ, two_prop, welch};

pub(super) fn length(runs: &[Run], id: &str, unit: &str, pick: Pick) -> String {
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
                badge(welch(ha, hb))
            );
        }
        _ => {}
    }
    let title = format!(
        "{} per game{}",
        if unit == "turns" { "Turns" } else { "Rounds" },
        if runs.len() > 1 && welch(pick(runs[0].st), pick(runs[1].st)) {
            " *"
        } else {
            ""
        }
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
fn chips_totals(runs: &[Run], how: &mut String) -> [Vec<String>; 2] {
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
        total_row.push(yes_no(rates_differ(
            lost(a.st),
            a.st.rounds.sum as f64,
            lost(b.st),
            b.st.rounds.sum as f64,
        )));
        let sig = welch(&a.st.chips_per_game, &b.st.chips_per_game);
        per_game_row.push(diff(
            b.st.chips_per_game.mean() - a.st.chips_per_game.mean(),
            3,
        ));
        per_game_row.push(yes_no(sig));
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

pub(super) fn chips_by_cause(runs: &[Run]) -> String {
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
    table_rows.extend(chips_totals(runs, &mut how));
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

/// How two runs' values of a key figure are compared.
#[derive(Clone, Copy)]
enum Test {
    /// Means of a histogram: Welch's test.
    Welch(fn(&Stats) -> &Histogram),
    /// Events over an exposure (rounds, games): two Poisson rates.
    Rate(fn(&Stats) -> (f64, f64)),
    /// Games with some property among all games: two proportions.
    Share(fn(&Stats) -> f64),
    /// A median: no test.
    None,
}

impl Test {
    fn verdict(self, a: &Stats, b: &Stats) -> String {
        let sig = match self {
            Test::Welch(h) => welch(h(a), h(b)),
            Test::Rate(r) => {
                let ((ka, ea), (kb, eb)) = (r(a), r(b));
                rates_differ(ka, ea, kb, eb)
            }
            Test::Share(k) => two_prop(k(a), a.games as f64, k(b), b.games as f64),
            Test::None => return "(no test)".into(),
        };
        yes_no(sig)
    }
}

/// Chips lost in all, and the rounds played.
fn chips_and_rounds(s: &Stats) -> (f64, f64) {
    (
        s.chips_lost.values().sum::<u64>() as f64,
        s.rounds.sum as f64,
    )
}

/// Key figures in a table: for one run its value, for two both, the difference and the test.
pub(super) fn key_figures(runs: &[Run]) -> String {
    type Row<'a> = (&'a str, usize, fn(&Stats) -> f64, Test);
    let rows: [Row; 9] = [
        (
            "turns per game (mean)",
            1,
            |s| s.turns.mean(),
            Test::Welch(|s| &s.turns),
        ),
        (
            "turns per game (median)",
            0,
            |s| f64::from(s.turns.quantile(0.5)),
            Test::None,
        ),
        (
            "rounds per game (mean)",
            2,
            |s| s.rounds.mean(),
            Test::Welch(|s| &s.rounds),
        ),
        (
            "rounds per game (median)",
            0,
            |s| f64::from(s.rounds.quantile(0.5)),
            Test::None,
        ),
        (
            "chips lost per round",
            3,
            |s| chips_and_rounds(s).0 / s.rounds.sum.max(1) as f64,
            Test::Rate(chips_and_rounds),
        ),
        (
            "chips lost per game",
            2,
            |s| s.chips_per_game.mean(),
            Test::Welch(|s| &s.chips_per_game),
        ),
        (
            "forced busts per game (no legal card)",
            2,
            |s| s.forced_busts as f64 / s.games.max(1) as f64,
            Test::Rate(|s| (s.forced_busts as f64, s.games as f64)),
        ),
        (
            "chosen busts per game (a card that lost the round)",
            2,
            |s| s.chosen_busts as f64 / s.games.max(1) as f64,
            Test::Rate(|s| (s.chosen_busts as f64, s.games as f64)),
        ),
        (
            "games stopped by the turn limit",
            0,
            |s| s.turn_limited as f64,
            Test::Share(|s| s.turn_limited as f64),
        ),
    ];
    let mut head = vec![String::new()];
    match runs {
        [_] => head.push("value".into()),
        _ => {
            head.extend(["A".into(), "B".into(), "B − A".into()]);
            head.push("beyond chance?".into());
        }
    }
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|(label, d, f, test)| {
            let mut r = vec![(*label).to_string()];
            for run in runs {
                r.push(fx(f(run.st), *d));
            }
            if let [a, b] = runs {
                r.push(diff(f(b.st) - f(a.st), *d));
                r.push(test.verdict(a.st, b.st));
            }
            r
        })
        .collect();
    table(&head, &body)
}
