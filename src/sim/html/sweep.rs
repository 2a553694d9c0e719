//! The page of a sweep: one option played at several values on the same deals, and each figure
//! drawn against the values (wins by seat, mean turns and rounds with their intervals, chips
//! lost per round, forced busts per game).

use std::fmt::Write as _;

use super::charts::{VChart, vbars};
use super::fmt::{bot_of, esc, fx, mean_ci, mean_decimals, pct, won};
use super::page::{command, page, seats_text, sets_text};
use super::svg::{Axis, Bar, figure, table};
use super::wins::Pick;
use super::{BLUE, SEAT_COLOURS};
use crate::sim::{Config, Stats, figures, wilson};

/// A value of the swept option, and its run.
pub type SweepRow<'a> = (&'a str, &'a Config, &'a Stats);

/// A figure of a run, for a chart against the values.
type Rate = fn(&Config, &Stats) -> f64;

/// One option swept over values (`rows`: the value and its run, in the order swept): each
/// figure against the values.
pub fn sweep(option: &str, rows: &[SweepRow]) -> String {
    let Some((_, first, _)) = rows.first() else {
        return page(
            "ninety sim: an empty sweep",
            "<h1>An empty sweep</h1>\n<p>No value was swept.</p>\n",
        );
    };
    let values: Vec<&str> = rows.iter().map(|(v, _, _)| *v).collect();
    let cats: Vec<String> = values.iter().map(|v| format!("{option}={v}")).collect();
    let title = format!("{}: {option} swept over {}", first.name, values.join(", "));
    let mut body = format!(
        "<header>\n<h1>{}</h1>\n<p class=\"lede\">{}</p>\n<p class=\"note\">Each chart shows one figure for every value of <code>{}</code>; whiskers are 95% confidence intervals. The numbers are in a table under each chart.</p>\n</header>\n",
        esc(&title),
        esc(&format!(
            "{} games of {} players for each value, bots {}, seed {}: the same deals for every value.",
            first.games,
            first.players,
            first.bots.join(", "),
            first.seed
        )),
        esc(option)
    );
    body.push_str(&run_section(option, rows));
    body.push_str("<section id=\"sweep\">\n<h2>Against the values</h2>\n");
    body.push_str(&sweep_wins(option, rows, &cats));
    let means: [(&str, &str, &str, Pick); 2] = [
        ("sweep-turns", "turns", "Mean turns per game", |s| &s.turns),
        ("sweep-rounds", "rounds", "Mean rounds per game", |s| {
            &s.rounds
        }),
    ];
    for (id, unit, label, pick) in means {
        body.push_str(&sweep_mean(option, rows, &cats, (id, unit, label), pick));
    }
    let rates: [(&str, &str, &str, Rate); 2] = [
        (
            "sweep-chips",
            "Chips lost per round",
            "chips lost per round",
            |c, s| figures(c, s).chips_lost_per_round,
        ),
        (
            "sweep-forced-busts",
            "Forced busts per game",
            "forced busts per game",
            |c, s| figures(c, s).forced_busts_per_game,
        ),
    ];
    for (id, label, unit, f) in rates {
        body.push_str(&sweep_rate(option, rows, &cats, (id, label, unit), f));
    }
    body.push_str("</section>\n");
    page(&esc(&title), &body)
}

/// The run: its ruleset, the values, the seats, the games, the seed, the other options, the
/// command that plays it again, and every figure at a glance.
fn run_section(option: &str, rows: &[SweepRow]) -> String {
    let first = rows[0].1;
    let values: Vec<&str> = rows.iter().map(|(v, _, _)| *v).collect();
    // The options every run shares: the swept one is set last.
    let base: Vec<(String, String)> = first
        .sets
        .iter()
        .filter(|(k, _)| k != option)
        .cloned()
        .collect();
    let mut body = String::from("<section id=\"run\">\n<h2>The run</h2>\n<dl class=\"run\">\n");
    let _ = writeln!(
        body,
        "<dt>Ruleset</dt><dd>{} (<code>{}</code>)</dd>",
        esc(&first.name),
        esc(&first.ruleset)
    );
    let _ = writeln!(
        body,
        "<dt>Swept option</dt><dd><code>{}</code> = {}</dd>",
        esc(option),
        values
            .iter()
            .map(|v| format!("<code>{}</code>", esc(v)))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(body, "<dt>Players</dt><dd>{}</dd>", first.players);
    let _ = writeln!(body, "<dt>Bots</dt><dd>{}</dd>", seats_text(first));
    let games: Vec<String> = rows
        .iter()
        .map(|(_, c, s)| {
            if s.games < c.games {
                format!("{} (of {})", s.games, c.games)
            } else {
                s.games.to_string()
            }
        })
        .collect();
    let _ = writeln!(
        body,
        "<dt>Games</dt><dd>{} for each value</dd>",
        if games.iter().all(|g| *g == games[0]) {
            games[0].clone()
        } else {
            games.join(", ")
        }
    );
    let _ = writeln!(body, "<dt>Seed</dt><dd>{}</dd>", first.seed);
    let _ = writeln!(
        body,
        "<dt>Other options set</dt><dd>{}</dd>",
        sets_text(&base)
    );
    body.push_str("</dl>\n");
    let players = rows.iter().all(|(_, c, _)| c.players == first.players);
    let cmd = command(
        &[first.ruleset.as_str()],
        first,
        players.then_some(first.players),
        &base,
        Some((option, values)),
    );
    let _ = write!(
        body,
        "<p>The same command gives the same games, for any <code>--jobs</code>; add <code>--report FILE.html</code> for this page:</p>\n<pre><code>{}</code></pre>\n",
        esc(&cmd)
    );
    body.push_str("<h3>At a glance</h3>\n");
    body.push_str(&summary(option, rows));
    body.push_str("</section>\n");
    body
}

/// The text sweep's table, with every figure.
fn summary(option: &str, rows: &[SweepRow]) -> String {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|(v, c, s)| {
            let f = figures(c, s);
            vec![
                esc(v),
                fx(f.turns_mean, 1),
                fx(f.rounds_mean, 2),
                fx(f.chips_lost_per_round, 3),
                fx(f.forced_busts_per_game, 2),
                fx(f.chosen_busts_per_game, 2),
                f.turn_limited.to_string(),
                s.failed.to_string(),
            ]
        })
        .collect();
    table(
        &[
            esc(option),
            "turns (mean)".into(),
            "rounds (mean)".into(),
            "chips lost per round".into(),
            "forced busts per game".into(),
            "chosen busts per game".into(),
            "stopped by the turn limit".into(),
            "failed".into(),
        ],
        &cells,
    )
}

/// A mean (of turns or rounds per game) against the values, with its 95% interval.
fn sweep_mean(
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

/// A rate (chips lost per round, forced busts per game) against the values.
fn sweep_rate(
    option: &str,
    rows: &[SweepRow],
    cats: &[String],
    (id, label, unit): (&str, &str, &str),
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
    let how = if id == "sweep-chips" {
        "Each bar is the number of chips lost per round, whatever the cause, for one value."
    } else {
        "Each bar is the number of forced busts per game (a player with no legal card) for one value."
    };
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
fn sweep_wins(option: &str, rows: &[SweepRow], cats: &[String]) -> String {
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
