//! The figures of a sweep, each against the swept option's values: wins by seat, mean turns
//! and rounds with their intervals, chips lost per round by cause, forced busts, the bars of
//! the total reached and passed, and the elimination order.

use super::bars::{WHAT, at_bar, shares_by_place};
use super::charts::{VChart, vbars};
use super::fmt::{CAUSES, bot_of, chips_lost, esc, fx, mean_ci, mean_decimals, pct, won};
use super::stacked::{Grouping, StackRow, place_name, stacked};
use super::svg::{Axis, Bar, figure, table};
use super::sweep::SweepRow;
use super::wins::Pick;
use super::{BLACK, BLUE, GREEN, ORANGE, PURPLE, SEAT_COLOURS, SKY, VERMILLION};
use crate::sim::{Config, Stats, wilson};

/// A figure of a run, for a chart against the values.
pub(super) type Rate = fn(&Config, &Stats) -> f64;

/// A mean (of turns or rounds per game) against the values, with its 95% interval.
pub(super) fn sweep_mean(
    option: &str,
    rows: &[SweepRow],
    cats: &[String],
    (id, unit, label): (&str, &str, &str),
    pick: Pick,
) -> String {
    let mut max: f64 = 0.0;
    let mut vals = Vec::new();
    let mut table_rows = Vec::new();
    for (v, _, s) in rows {
        let h = pick(s);
        let ci = mean_ci(h);
        max = max.max(ci.map_or(h.mean(), |c| c.1));
        vals.push(vec![Some(Bar {
            value: h.mean(),
            ci,
            text: fx(h.mean(), mean_decimals(unit)),
            tip: format!("{option}={v}: {} {unit} on average", fx(h.mean(), 2)),
        })]);
        let (lo, hi) = ci.unwrap_or((h.mean(), h.mean()));
        table_rows.push(vec![
            esc(v),
            fx(h.mean(), 2),
            format!("{}–{}", fx(lo, 2), fx(hi, 2)),
            h.quantile(0.5).to_string(),
            h.quantile(0.95).to_string(),
        ]);
    }
    let aria: Vec<String> = rows
        .iter()
        .map(|(v, _, s)| format!("{option}={v}: {}", fx(pick(s).mean(), mean_decimals(unit))))
        .collect();
    let svg = vbars(&VChart {
        title: format!("{label} against {option}"),
        aria: format!(
            "Bars: {} for each value of {option}: {}",
            label.to_lowercase(),
            aria.join(", ")
        ),
        legend: Vec::new(),
        colours: vec![BLUE],
        categories: cats.to_vec(),
        values: vals,
        axis: Axis::new(max * 1.12, "", &format!("{unit} per game (mean)")),
        x_label: option.to_string(),
        refs: Vec::new(),
    });
    figure(
        id,
        &format!("{label}, by {}", esc(option)),
        &format!(
            "Each bar is the mean number of {unit} per game for one value; the whisker is the \
             95% confidence interval of the mean."
        ),
        &svg,
        &table(
            &[
                esc(option),
                "mean".into(),
                "95% interval".into(),
                "median".into(),
                "95th percentile".into(),
            ],
            &table_rows,
        ),
    )
}

/// A rate (forced busts per game) against the values; `how` says how to read it.
pub(super) fn sweep_rate(
    option: &str,
    rows: &[SweepRow],
    cats: &[String],
    (id, label, unit, how): (&str, &str, &str, &str),
    f: Rate,
) -> String {
    let nums: Vec<f64> = rows.iter().map(|(_, c, s)| f(c, s)).collect();
    let max = nums.iter().copied().fold(0.0, f64::max);
    let values: Vec<&str> = rows.iter().map(|(v, _, _)| *v).collect();
    let aria: Vec<String> = values
        .iter()
        .zip(&nums)
        .map(|(v, x)| format!("{option}={v}: {}", fx(*x, 2)))
        .collect();
    let bars = values
        .iter()
        .zip(&nums)
        .map(|(v, x)| {
            vec![Some(Bar {
                value: *x,
                ci: None,
                text: fx(*x, 2),
                tip: format!("{option}={v}: {} {unit}", fx(*x, 3)),
            })]
        })
        .collect();
    let svg = vbars(&VChart {
        title: format!("{label} against {option}"),
        aria: format!(
            "Bars: {unit} for each value of {option}: {}",
            aria.join(", ")
        ),
        legend: Vec::new(),
        colours: vec![BLUE],
        categories: cats.to_vec(),
        values: bars,
        axis: Axis::new(max * 1.12, "", unit),
        x_label: option.to_string(),
        refs: Vec::new(),
    });
    let table_rows: Vec<Vec<String>> = values
        .iter()
        .zip(&nums)
        .map(|(v, x)| vec![esc(v), fx(*x, 3)])
        .collect();
    figure(
        id,
        &format!("{label}, by {}", esc(option)),
        how,
        &svg,
        &table(&[esc(option), unit.to_string()], &table_rows),
    )
}

/// Wins by seat against the values: a group of bars per value, a bar per seat.
pub(super) fn sweep_wins(option: &str, rows: &[SweepRow], cats: &[String]) -> String {
    let seats = rows.iter().map(|(_, _, s)| s.wins.len()).max().unwrap_or(0);
    let first = rows[0].1;
    let colours: Vec<&'static str> = (0..seats)
        .map(|s| SEAT_COLOURS[s % SEAT_COLOURS.len()])
        .collect();
    let legend_items: Vec<(String, &'static str)> = (0..seats)
        .map(|s| (format!("seat {s} ({})", bot_of(first, s)), colours[s]))
        .collect();
    let fair = 100.0 / first.players.max(1) as f64;
    let mut max = fair;
    let mut vals = Vec::new();
    let mut table_rows = Vec::new();
    for (v, c, st) in rows {
        let mut group = Vec::new();
        let mut cells = vec![esc(v)];
        for seat in 0..seats {
            if seat >= st.wins.len() {
                group.push(None);
                cells.push("–".into());
                continue;
            }
            let k = won(st, seat);
            let p = pct(k, st.games as f64);
            let (lo, hi) = wilson(k, st.games as f64);
            max = max.max(hi);
            group.push(Some(Bar {
                value: p,
                ci: Some((lo, hi)),
                text: format!("{}%", fx(p, 1)),
                tip: format!(
                    "{option}={v}, seat {seat} ({}): {}%, 95% interval {}–{}%",
                    bot_of(c, seat),
                    fx(p, 1),
                    fx(lo, 1),
                    fx(hi, 1)
                ),
            }));
            cells.push(format!("{}% ({}–{}%)", fx(p, 1), fx(lo, 1), fx(hi, 1)));
        }
        vals.push(group);
        table_rows.push(cells);
    }
    let svg = vbars(&VChart {
        title: format!("Win share by seat against {option}"),
        aria: format!(
            "Grouped bars: the share of games each seat won for each value of {option}, with 95% intervals; the dashed line is a fair share of {}%",
            fx(fair, 1)
        ),
        legend: legend_items,
        colours,
        categories: cats.to_vec(),
        values: vals,
        axis: Axis::percent(max * 1.1, "share of games won"),
        x_label: option.to_string(),
        refs: vec![(fair, format!("fair share {}%", fx(fair, 1)))],
    });
    let mut head = vec![esc(option)];
    head.extend((0..seats).map(|s| format!("seat {s} wins (95% interval)")));
    figure(
        "sweep-wins",
        &format!("Win share by seat, by {}", esc(option)),
        "For each value, a bar per seat: the share of games it won, with its 95% interval; the \
         dashed line is a fair share.",
        &svg,
        &table(&head, &table_rows),
    )
}

/// The colours of the causes of lost chips, in the order of `CAUSES`.
const CAUSE_COLOURS: [&str; 4] = [VERMILLION, ORANGE, SKY, PURPLE];

/// Chips lost per round by cause against the values: a group per value, a bar per cause that
/// cost a chip in some run (busts at least).
pub(super) fn sweep_chips(option: &str, rows: &[SweepRow], cats: &[String]) -> String {
    let causes: Vec<usize> = (0..CAUSES.len())
        .filter(|&k| {
            k == 0
                || rows
                    .iter()
                    .any(|(_, _, s)| chips_lost(s, CAUSES[k].0) > 0.0)
        })
        .collect();
    let mut max: f64 = 0.0;
    let mut vals = Vec::new();
    let mut table_rows = Vec::new();
    for (v, _, st) in rows {
        let mut group = Vec::new();
        let mut cells = vec![esc(v)];
        for &k in &causes {
            let (key, label) = CAUSES[k];
            let x = chips_lost(st, key);
            max = max.max(x);
            group.push(Some(Bar {
                value: x,
                ci: None,
                text: fx(x, 2),
                tip: format!("{option}={v}: {} chips lost per round by {label}", fx(x, 3)),
            }));
            cells.push(fx(x, 3));
        }
        let all: u64 = st.chips_lost.values().sum();
        cells.push(fx(all as f64 / st.rounds.sum.max(1) as f64, 3));
        vals.push(group);
        table_rows.push(cells);
    }
    let legend: Vec<(String, &'static str)> = causes
        .iter()
        .map(|&k| (CAUSES[k].1.to_string(), CAUSE_COLOURS[k]))
        .collect();
    let mut head = vec![esc(option)];
    head.extend(causes.iter().map(|&k| CAUSES[k].1.to_string()));
    head.push("all causes".into());
    let svg = vbars(&VChart {
        title: format!("Chips lost per round by cause against {option}"),
        aria: format!("Grouped bars: chips lost per round by cause for each value of {option}"),
        legend,
        colours: causes.iter().map(|&k| CAUSE_COLOURS[k]).collect(),
        categories: cats.to_vec(),
        values: vals,
        axis: Axis::new(max * 1.12, "", "chips lost per round"),
        x_label: option.to_string(),
        refs: Vec::new(),
    });
    figure(
        "sweep-chips",
        &format!("Chips lost per round by cause, by {}", esc(option)),
        "For each value, a bar per cause: chips lost per round to busts (a player who could \
         not play), bars passed, exact hits of a bar (others pay) and every other rule; a \
         cause that cost no chip at any value is left out.",
        &svg,
        &table(&head, &table_rows),
    )
}

/// Pairs of colours, dark for a bar reached and light for it passed, one pair a bar.
const BAR_PAIRS: [(&str, &str); 4] = [
    (BLUE, SKY),
    (VERMILLION, ORANGE),
    (GREEN, "#7FCDB5"),
    (BLACK, "#9A9A9A"),
];

/// The bars of the total reached and passed per game against the values; `None` when no run
/// saw a bar.
pub(super) fn sweep_bars(option: &str, rows: &[SweepRow], cats: &[String]) -> Option<String> {
    let mut bars: Vec<i32> = rows
        .iter()
        .flat_map(|(_, _, s)| s.bar_reached.keys().chain(s.bar_passed.keys()))
        .copied()
        .collect();
    bars.sort_unstable();
    bars.dedup();
    if bars.is_empty() {
        return None;
    }
    let mut colours = Vec::new();
    let mut legend = Vec::new();
    let mut head = vec![esc(option)];
    for (i, b) in bars.iter().enumerate() {
        let (dark, light) = BAR_PAIRS[i % BAR_PAIRS.len()];
        for (what, colour) in WHAT.iter().zip([dark, light]) {
            colours.push(colour);
            legend.push((format!("{b} {what}"), colour));
            head.push(format!("{b} {what} per game"));
        }
    }
    let mut max: f64 = 0.0;
    let mut vals = Vec::new();
    let mut table_rows = Vec::new();
    for (v, _, st) in rows {
        let mut group = Vec::new();
        let mut cells = vec![esc(v)];
        for b in &bars {
            for what in WHAT {
                let x = at_bar(st, what, *b) as f64 / st.games.max(1) as f64;
                max = max.max(x);
                group.push(Some(Bar {
                    value: x,
                    ci: None,
                    text: fx(x, 2),
                    tip: format!("{option}={v}: bar {b} {what} {} times per game", fx(x, 3)),
                }));
                cells.push(fx(x, 3));
            }
        }
        vals.push(group);
        table_rows.push(cells);
    }
    let svg = vbars(&VChart {
        title: format!("Bars reached and passed per game against {option}"),
        aria: format!(
            "Grouped bars: for each value of {option}, how often per game each bar of the total was reached exactly and how often passed"
        ),
        legend,
        colours,
        categories: cats.to_vec(),
        values: vals,
        axis: Axis::new(max * 1.15, "", "times per game"),
        x_label: option.to_string(),
        refs: Vec::new(),
    });
    Some(figure(
        "sweep-bars",
        &format!("Bars reached and passed, by {}", esc(option)),
        "For each value, how many times per game the total landed exactly on each bar \
         (reached, dark) and went past it (passed, light).",
        &svg,
        &table(&head, &table_rows),
    ))
}

/// The elimination order by seat against the values: for each seat, a stacked bar a value.
pub(super) fn sweep_elimination(option: &str, rows: &[SweepRow]) -> String {
    let places = rows.iter().map(|(_, c, _)| c.players).max().unwrap_or(0);
    let seats = rows
        .iter()
        .map(|(_, _, s)| s.elimination.len())
        .max()
        .unwrap_or(0);
    let mut bars: Vec<StackRow> = Vec::new();
    let mut table_rows = Vec::new();
    for seat in 0..seats {
        for (v, c, st) in rows {
            let Some(shares) = shares_by_place(st, seat, places) else {
                continue;
            };
            let label = format!("seat {seat} ({}) {option}={v}", bot_of(c, seat));
            let mut cells = vec![esc(&label)];
            cells.extend(shares.iter().map(|x| format!("{}%", fx(*x, 1))));
            table_rows.push(cells);
            bars.push((label, shares));
        }
    }
    let svg = stacked(
        (
            &format!("Elimination order by seat against {option}"),
            &format!(
                "Stacked bars: for each seat and each value of {option}, the share of games it went out first, second, and so on, or never"
            ),
        ),
        places,
        &Grouping {
            note: None,
            rows_per_group: rows.len(),
        },
        &bars,
    );
    let mut head = vec!["seat".to_string()];
    head.extend((0..places).map(|p| place_name(p, places)));
    figure(
        "sweep-elimination",
        &format!("Elimination order by seat, by {}", esc(option)),
        "For each seat, a bar for each value: the share of games in which it went out 1st, \
         2nd, … or never; the darker the orange, the earlier out.",
        &svg,
        &table(&head, &table_rows),
    )
}
