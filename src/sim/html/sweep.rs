//! The page of a sweep: one option played at several values on the same deals, and each figure
//! drawn against the values (wins by seat, mean turns and rounds with their intervals, chips
//! lost per round, forced busts per game).

use std::fmt::Write as _;

use super::against::{
    sweep_bars, sweep_chips, sweep_elimination, sweep_mean, sweep_rate, sweep_wins,
};
use super::fmt::{esc, fx};
use super::page::{command, page, seats_text, sets_text};
use super::svg::table;
use super::wins::Pick;
use crate::sim::{Config, Stats, figures};

/// A value of the swept option, and its run.
pub type SweepRow<'a> = (&'a str, &'a Config, &'a Stats);

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
    body.push_str(&sweep_chips(option, rows, &cats));
    body.push_str(&sweep_rate(
        option,
        rows,
        &cats,
        (
            "sweep-forced-busts",
            "Forced busts per game",
            "forced busts per game",
            "Each bar is the number of forced busts per game (a player with no legal card) for \
             one value.",
        ),
        |c, s| figures(c, s).forced_busts_per_game,
    ));
    if let Some(f) = sweep_bars(option, rows, &cats) {
        body.push_str(&f);
    }
    body.push_str(&sweep_elimination(option, rows));
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
