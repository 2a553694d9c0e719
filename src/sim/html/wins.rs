//! The runs of a page (one, or A and B side by side) and who wins: the share of games won by
//! each seat and by each bot, with 95% intervals against a fair share, and for two runs the
//! differences beyond chance marked.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::charts::{HChart, hbars};
use super::figures::{difference, verdict_cell};
use super::fmt::{badge, bot_of, bots, esc, fx, pct, won};
use super::svg::{Axis, Bar, figure, table};
use super::{RUNS, TAGS};
use crate::sim::{Config, Difference, Histogram, Stats, Verdict, two_prop, wilson};

/// Which histogram of a run a chart shows.
pub(super) type Pick = fn(&Stats) -> &Histogram;

#[derive(Debug)]
pub(super) struct Run<'a> {
    pub(super) cfg: &'a Config,
    pub(super) st: &'a Stats,
}

pub(super) fn tag_of(runs: &[Run], j: usize) -> &'static str {
    if runs.len() > 1 { TAGS[j] } else { "" }
}

pub(super) fn legend_of(runs: &[Run]) -> Vec<(String, &'static str)> {
    if runs.len() > 1 {
        runs.iter()
            .enumerate()
            .map(|(j, r)| (format!("{}: {}", TAGS[j], r.cfg.name), RUNS[j]))
            .collect()
    } else {
        Vec::new()
    }
}

pub(super) fn colours_of(runs: &[Run]) -> Vec<&'static str> {
    RUNS[..runs.len()].to_vec()
}

pub(super) fn tags_of(runs: &[Run]) -> Vec<&'static str> {
    if runs.len() > 1 {
        TAGS.to_vec()
    } else {
        Vec::new()
    }
}

pub(super) fn fair_refs(runs: &[Run]) -> Vec<(f64, String)> {
    let mut players: Vec<usize> = runs.iter().map(|r| r.cfg.players).collect();
    players.sort_unstable();
    players.dedup();
    players
        .into_iter()
        .map(|p| {
            let f = 100.0 / p.max(1) as f64;
            (f, format!("fair share {}%", fx(f, 1)))
        })
        .collect()
}

/// What the test says of one seat's share of wins in two runs: its row of the differences.
fn seat_verdict(diffs: &[Difference], seat: usize) -> Verdict {
    difference(diffs, &format!("seat_{seat}_wins_pct")).map_or(Verdict::NoTest, |d| d.verdict)
}

pub(super) fn yes_no(b: bool) -> String {
    if b { "yes *".into() } else { "no".into() }
}

/// The top of both charts of wins, so they share one scale: the highest interval or fair share.
pub(super) fn wins_axis_max(runs: &[Run]) -> f64 {
    let mut max = fair_refs(runs).iter().map(|r| r.0).fold(0.0, f64::max);
    for r in runs {
        for seat in 0..r.st.wins.len() {
            max = max.max(wilson(won(r.st, seat), r.st.games as f64).1);
        }
        for (k, total) in bots(r.cfg, r.st).values() {
            max = max.max(wilson(*k, *total).1);
        }
    }
    max
}

pub(super) fn wins_by_seat(runs: &[Run], diffs: &[Difference]) -> String {
    let seats = runs.iter().map(|r| r.st.wins.len()).max().unwrap_or(0);
    let max = wins_axis_max(runs);
    let mut rows = Vec::new();
    let mut table_rows = Vec::new();
    let mut starred = Vec::new();
    for seat in 0..seats {
        let verdict = seat_verdict(diffs, seat);
        let star = verdict == Verdict::Beyond;
        if star {
            starred.push(format!("seat {seat}"));
        }
        let bots: Vec<&str> = runs.iter().map(|r| bot_of(r.cfg, seat)).collect();
        let label = if bots.iter().all(|b| *b == bots[0]) {
            format!("seat {seat} ({})", bots[0])
        } else {
            format!("seat {seat}")
        };
        let mut bars = Vec::new();
        let mut cells = vec![esc(&label)];
        for (j, r) in runs.iter().enumerate() {
            if seat >= r.st.wins.len() {
                bars.push(None);
                cells.extend(["–".into(), "–".into()]);
                continue;
            }
            let k = won(r.st, seat);
            let p = pct(k, r.st.games as f64);
            let (lo, hi) = wilson(k, r.st.games as f64);
            let tag = tag_of(runs, j);
            bars.push(Some(Bar {
                value: p,
                ci: Some((lo, hi)),
                text: format!("{}%", fx(p, 1)),
                tip: format!(
                    "{}seat {seat} ({}): {}% of games, 95% interval {}–{}%",
                    if tag.is_empty() {
                        String::new()
                    } else {
                        format!("{tag} ")
                    },
                    bot_of(r.cfg, seat),
                    fx(p, 1),
                    fx(lo, 1),
                    fx(hi, 1)
                ),
            }));
            cells.push(format!("{}%", fx(p, 1)));
            cells.push(format!("{}–{}%", fx(lo, 1), fx(hi, 1)));
        }
        if runs.len() > 1 {
            cells.push(verdict_cell(verdict));
        }
        rows.push((if star { format!("{label} *") } else { label }, bars));
        table_rows.push(cells);
    }
    let axis = Axis::percent(max * 1.08, "share of games won (ties split)");
    let fair = fair_refs(runs);
    let aria = format!(
        "Horizontal bars: the share of games each seat won, with 95% intervals; the dashed line is a fair share of {}",
        fair.iter()
            .map(|f| format!("{}%", fx(f.0, 1)))
            .collect::<Vec<_>>()
            .join(" or ")
    );
    let svg = hbars(&HChart {
        title: "Win share by seat".into(),
        aria,
        legend: legend_of(runs),
        tags: tags_of(runs),
        colours: colours_of(runs),
        rows,
        axis,
        refs: fair,
    });
    let head = head_for(runs, "seat", &["wins", "95% interval"]);
    let mut how = String::from(
        "Each bar is the share of games a seat won (a tie splits the win); the whisker is its 95% \
         confidence interval. The dashed line is a fair share: a whisker that misses it means the \
         seat wins more (or less) often than fair, beyond chance.",
    );
    if runs.len() > 1 {
        let _ = write!(
            how,
            " A and B on the same deals; * marks a seat whose share differs beyond chance (a two-proportion test at 95%):{}",
            if starred.is_empty() {
                " none does.".to_string()
            } else {
                format!(" {}.{}", starred.join(", "), badge(true))
            }
        );
    }
    figure(
        "wins-by-seat",
        "Win share by seat",
        &how,
        &svg,
        &table(&head, &table_rows),
    )
}

/// A table header for one or two runs: the first column, then `cols` per run (tagged), then
/// the test's verdict for two runs.
pub(super) fn head_for(runs: &[Run], first: &str, cols: &[&str]) -> Vec<String> {
    let mut head = vec![first.to_string()];
    for j in 0..runs.len() {
        let tag = tag_of(runs, j);
        for c in cols {
            head.push(if tag.is_empty() {
                (*c).to_string()
            } else {
                format!("{tag} {c}")
            });
        }
    }
    if runs.len() > 1 {
        head.push("beyond chance?".into());
    }
    head
}

pub(super) fn wins_by_bot(runs: &[Run]) -> String {
    let per: Vec<BTreeMap<String, (f64, f64)>> = runs.iter().map(|r| bots(r.cfg, r.st)).collect();
    let mut names: Vec<String> = per.iter().flat_map(|m| m.keys().cloned()).collect();
    names.sort();
    names.dedup();
    let max = wins_axis_max(runs);
    let mut rows = Vec::new();
    let mut table_rows = Vec::new();
    let mut starred = Vec::new();
    for name in &names {
        let star = match per.as_slice() {
            [a, b] => match (a.get(name), b.get(name)) {
                (Some(x), Some(y)) => two_prop(x.0, x.1, y.0, y.1),
                _ => false,
            },
            _ => false,
        };
        if star {
            starred.push(name.clone());
        }
        let mut bars = Vec::new();
        let mut cells = vec![esc(name)];
        for (j, m) in per.iter().enumerate() {
            let Some((k, total)) = m.get(name) else {
                bars.push(None);
                cells.extend(["–".into(), "–".into()]);
                continue;
            };
            let p = pct(*k, *total);
            let (lo, hi) = wilson(*k, *total);
            let tag = tag_of(runs, j);
            bars.push(Some(Bar {
                value: p,
                ci: Some((lo, hi)),
                text: format!("{}%", fx(p, 1)),
                tip: format!(
                    "{}{name}: {}% of its seats’ games, 95% interval {}–{}%",
                    if tag.is_empty() {
                        String::new()
                    } else {
                        format!("{tag} ")
                    },
                    fx(p, 1),
                    fx(lo, 1),
                    fx(hi, 1)
                ),
            }));
            cells.push(format!("{}%", fx(p, 1)));
            cells.push(format!("{}–{}%", fx(lo, 1), fx(hi, 1)));
        }
        if runs.len() > 1 {
            cells.push(yes_no(star));
        }
        rows.push((
            if star {
                format!("{name} *")
            } else {
                name.clone()
            },
            bars,
        ));
        table_rows.push(cells);
    }
    let svg = hbars(&HChart {
        title: "Win share by bot".into(),
        aria: "Horizontal bars: the share of its seats' games each bot won, with 95% intervals; the dashed line is a fair share".into(),
        legend: legend_of(runs),
        tags: tags_of(runs),
        colours: colours_of(runs),
        rows,
        axis: Axis::percent(max * 1.08, "share of its seats’ games won"),
        refs: fair_refs(runs),
    });
    let mut how = String::from(
        "Each bar is the share of the games of its seats that a bot won, with its 95% interval; \
         the dashed line is a fair share.",
    );
    if names.len() == 1 {
        how.push_str(" With one bot at every seat, it wins a fair share by construction.");
    }
    if runs.len() > 1 {
        let _ = write!(
            how,
            " * marks a bot whose share differs beyond chance (the same two-proportion test, over its seat-games):{}",
            if starred.is_empty() {
                " none does.".to_string()
            } else {
                format!(" {}.{}", esc(&starred.join(", ")), badge(true))
            }
        );
    }
    figure(
        "wins-by-bot",
        "Win share by bot",
        &how,
        &svg,
        &table(
            &head_for(runs, "bot", &["wins", "95% interval"]),
            &table_rows,
        ),
    )
}
