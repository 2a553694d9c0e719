//! Where the total goes and who goes out: the bars of the total reached and passed per game,
//! and the elimination order by seat; for two runs the differences beyond chance marked.

use super::charts::{VChart, vbars};
use super::figures::{prefix, star};
use super::fmt::{bot_of, clip, esc, fx};
use super::stacked::{Grouping, StackRow, place_name, stacked};
use super::svg::{Axis, Bar, figure, table};
use super::wins::{Run, tag_of};
use super::{BLUE, ORANGE, SKY, TAGS, VERMILLION};
use crate::sim::{Stats, rates_differ, two_prop};

/// What happens at a bar: reached exactly, or passed.
pub(super) const WHAT: [&str; 2] = ["reached", "passed"];

/// How often the total reached or passed the bar `v`, a count.
pub(super) fn at_bar(st: &Stats, what: &str, v: i32) -> u64 {
    let m = if what == "reached" {
        &st.bar_reached
    } else {
        &st.bar_passed
    };
    m.get(&v).copied().unwrap_or(0)
}

/// For two runs, what differs beyond chance at the bar `v` (counts per game as Poisson).
fn bar_differs(runs: &[Run], v: i32) -> Vec<&'static str> {
    let [a, b] = runs else {
        return Vec::new();
    };
    WHAT.into_iter()
        .filter(|what| {
            rates_differ(
                at_bar(a.st, what, v) as f64,
                a.st.games as f64,
                at_bar(b.st, what, v) as f64,
                b.st.games as f64,
            )
        })
        .collect()
}

/// Bars reached and passed per game, by bar; `None` when no run saw a bar.
pub(super) fn bars_figure(runs: &[Run]) -> Option<String> {
    let mut values: Vec<i32> = runs
        .iter()
        .flat_map(|r| r.st.bar_reached.keys().chain(r.st.bar_passed.keys()))
        .copied()
        .collect();
    values.sort_unstable();
    values.dedup();
    if values.is_empty() {
        return None;
    }
    let palette: [[&str; 2]; 2] = [[BLUE, SKY], [VERMILLION, ORANGE]];
    let mut colours = Vec::new();
    let mut legend_items = Vec::new();
    for (j, r) in runs.iter().enumerate() {
        let tag = tag_of(runs, j);
        for (k, what) in WHAT.iter().enumerate() {
            colours.push(palette[j][k]);
            let name = if tag.is_empty() {
                (*what).to_string()
            } else {
                format!("{tag} {what} ({})", clip(&r.cfg.name, 24))
            };
            legend_items.push((name, palette[j][k]));
        }
    }
    let mut max: f64 = 0.0;
    let (mut cats, mut vals, mut table_rows) = (Vec::new(), Vec::new(), Vec::new());
    for v in &values {
        let differs = bar_differs(runs, *v);
        cats.push(star(&format!("bar {v}"), !differs.is_empty()));
        let mut group = Vec::new();
        let mut cells = vec![v.to_string()];
        for (j, r) in runs.iter().enumerate() {
            for what in WHAT {
                let x = at_bar(r.st, what, *v) as f64 / r.st.games.max(1) as f64;
                max = max.max(x);
                group.push(Some(Bar {
                    value: x,
                    ci: None,
                    text: fx(x, 2),
                    tip: format!(
                        "{}bar {v} {what}: {} times per game",
                        prefix(tag_of(runs, j)),
                        fx(x, 3)
                    ),
                }));
                cells.push(fx(x, 3));
            }
        }
        if runs.len() > 1 {
            cells.push(verdict(&differs));
        }
        vals.push(group);
        table_rows.push(cells);
    }
    let listed: Vec<String> = values.iter().map(i32::to_string).collect();
    let svg = vbars(&VChart {
        title: "Bars reached and passed per game".into(),
        aria: format!(
            "Grouped bars: for each bar of the total ({}), how often per game it was reached exactly and how often passed",
            listed.join(", ")
        ),
        legend: legend_items,
        colours,
        categories: cats,
        values: vals,
        axis: Axis::new(max * 1.15, "", "times per game"),
        x_label: "bar of the total".into(),
        refs: Vec::new(),
    });
    let mut head = vec!["bar".to_string()];
    for j in 0..runs.len() {
        for what in WHAT {
            head.push(format!("{}{what} per game", prefix(tag_of(runs, j))));
        }
    }
    let mut how = String::from(
        "For each bar of the total, how many times per game the total landed on it exactly \
         (reached) and how many times it went past it (passed).",
    );
    if runs.len() > 1 {
        head.push("beyond chance?".into());
        how.push_str(
            " * marks a bar where A and B differ beyond chance (the counts per game taken as \
             Poisson, at 95%).",
        );
    }
    Some(figure(
        "bars",
        "Bars reached and passed",
        &how,
        &svg,
        &table(&head, &table_rows),
    ))
}

/// `no`, or what differs beyond chance, starred.
fn verdict<S: AsRef<str>>(differs: &[S]) -> String {
    if differs.is_empty() {
        "no".into()
    } else {
        let names: Vec<&str> = differs.iter().map(AsRef::as_ref).collect();
        format!("{} *", names.join(", "))
    }
}

/// A seat's shares of games by place, padded to `places` (a run of fewer players than the
/// other: never out is the last place).
pub(super) fn shares_by_place(st: &Stats, seat: usize, places: usize) -> Option<Vec<f64>> {
    let counts = st.elimination.get(seat)?;
    let games = st.games.max(1) as f64;
    let mut padded = vec![0.0; places];
    for (p, c) in counts.iter().enumerate() {
        let at = if p + 1 == counts.len() { places - 1 } else { p };
        padded[at] += 100.0 * *c as f64 / games;
    }
    Some(padded)
}

/// For two runs of as many players, the places in which a seat differs beyond chance.
fn places_differ(runs: &[Run], seat: usize) -> Vec<String> {
    let [a, b] = runs else {
        return Vec::new();
    };
    let (Some(x), Some(y)) = (a.st.elimination.get(seat), b.st.elimination.get(seat)) else {
        return Vec::new();
    };
    if x.len() != y.len() {
        return Vec::new();
    }
    (0..x.len())
        .filter(|p| {
            two_prop(
                x[*p] as f64,
                a.st.games as f64,
                y[*p] as f64,
                b.st.games as f64,
            )
        })
        .map(|p| place_name(p, x.len()))
        .collect()
}

pub(super) fn elimination(runs: &[Run]) -> String {
    let places = runs.iter().map(|r| r.cfg.players).max().unwrap_or(0);
    let seats = runs
        .iter()
        .map(|r| r.st.elimination.len())
        .max()
        .unwrap_or(0);
    let mut rows: Vec<StackRow> = Vec::new();
    let mut table_rows = Vec::new();
    let mut starred = Vec::new();
    for seat in 0..seats {
        let differs = places_differ(runs, seat);
        for (j, r) in runs.iter().enumerate() {
            let Some(padded) = shares_by_place(r.st, seat, places) else {
                continue;
            };
            let label = format!(
                "seat {seat} ({}){}",
                bot_of(r.cfg, seat),
                suffix(tag_of(runs, j))
            );
            let mut cells = vec![esc(&label)];
            cells.extend(padded.iter().map(|v| format!("{}%", fx(*v, 1))));
            if runs.len() > 1 {
                let last = j + 1 == runs.len();
                cells.push(if last {
                    verdict(&differs)
                } else {
                    String::new()
                });
                if last && !differs.is_empty() {
                    starred.push(format!("seat {seat}"));
                }
            }
            let last = j + 1 == runs.len();
            table_rows.push(cells);
            rows.push((star(&label, last && !differs.is_empty()), padded));
        }
    }
    let names: Vec<String> = runs
        .iter()
        .enumerate()
        .map(|(j, r)| format!("{}: {}", TAGS[j], r.cfg.name))
        .collect();
    let grouping = Grouping {
        note: (runs.len() > 1).then(|| names.join(" · ")),
        rows_per_group: runs.len(),
    };
    let svg = stacked(
        (
            "Elimination order by seat",
            "Stacked bars: for each seat, the share of games it went out first, second, and so on, or never",
        ),
        places,
        &grouping,
        &rows,
    );
    let mut head = vec!["seat".to_string()];
    head.extend((0..places).map(|p| place_name(p, places)));
    let mut how = String::from(
        "For each seat, the share of games in which it went out 1st, 2nd, … or never (the \
         winner’s place); the darker the orange, the earlier out.",
    );
    if runs.len() > 1 {
        head.push("beyond chance?".into());
        how.push_str(&format!(
            " Each seat has a bar for A and one for B; * marks a seat that goes out in some place \
             more or less often in B, beyond chance (a two-proportion test at 95%): {}.",
            if starred.is_empty() {
                "none does".to_string()
            } else {
                starred.join(", ")
            }
        ));
    }
    figure(
        "elimination",
        "Elimination order by seat",
        &how,
        &svg,
        &table(&head, &table_rows),
    )
}

/// ` A` or nothing.
fn suffix(tag: &str) -> String {
    if tag.is_empty() {
        String::new()
    } else {
        format!(" {tag}")
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::sim::Config;

    fn config() -> Config {
        Config {
            ruleset: "r".into(),
            name: "R".into(),
            players: 2,
            bots: vec!["cautious".into(), "random".into()],
            seed: 1,
            games: 1000,
            sets: Vec::new(),
        }
    }

    fn stats(first_out: [u64; 2], reached: u64) -> Stats {
        let mut st = Stats::new(2);
        st.games = 1000;
        st.elimination = vec![
            vec![first_out[0], 1000 - first_out[0]],
            vec![first_out[1], 1000 - first_out[1]],
        ];
        st.bar_reached = BTreeMap::from([(33, reached)]);
        st.bar_passed = BTreeMap::from([(33, 500)]);
        st
    }

    #[test]
    fn differences_beyond_chance_are_starred() {
        let cfg = config();
        let (a, b) = (stats([500, 500], 1000), stats([600, 400], 1010));
        let runs = [Run { cfg: &cfg, st: &a }, Run { cfg: &cfg, st: &b }];
        let html = elimination(&runs);
        assert!(html.contains(">seat 0 (cautious) B *<"), "{html}");
        assert!(html.contains("<td>1st out, never out *</td>"), "{html}");
        assert!(html.contains(": seat 0, seat 1."), "{html}");
        let bars = bars_figure(&runs).expect("a bar");
        assert!(
            !bars.contains("bar 33 *"),
            "1.00 against 1.01 a game is chance"
        );
        assert_eq!(bars.matches("<rect class=\"bar\"").count(), 4);
        let c = stats([600, 400], 1300);
        let runs = [Run { cfg: &cfg, st: &a }, Run { cfg: &cfg, st: &c }];
        let bars = bars_figure(&runs).expect("a bar");
        assert!(bars.contains(">bar 33 *<"), "{bars}");
        assert!(bars.contains("<td>reached *</td>"), "{bars}");
        // One run: nothing to compare, no column for it.
        let one = [Run { cfg: &cfg, st: &a }];
        assert!(!elimination(&one).contains("beyond chance"));
        assert!(
            bars_figure(&[Run {
                cfg: &cfg,
                st: &Stats::new(2)
            }])
            .is_none()
        );
    }
}
