//! The page of a run, or of two rulesets compared on the same deals: its style (a print
//! stylesheet too), the run's configuration and the command that plays it again, the key
//! figures, then every figure in turn.

use std::fmt::Write as _;

use super::bars::{bars_figure, elimination};
use super::figures::{chips_by_cause, key_figures, length};
use super::fmt::{bot_of, esc};
use super::wins::{Run, tag_of, wins_by_bot, wins_by_seat};
use crate::sim::{Config, Difference, Stats, differences};

const CSS: &str = "
:root { color-scheme: light; }
body { font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
  color: #1a1a1a; background: #fff; max-width: 800px; margin: 0 auto; padding: 24px 20px 48px; }
h1 { font-size: 1.65em; line-height: 1.2; margin: 0 0 .25em; }
h2 { font-size: 1.25em; margin: 2em 0 .5em; padding-bottom: .2em; border-bottom: 2px solid #1a1a1a; }
p { margin: .4em 0; }
.lede { font-size: 1.05em; color: #333; }
.note { color: #555; font-size: .92em; }
code, pre { font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace; font-size: .9em; }
pre { background: #f3f3f3; border: 1px solid #d0d0d0; border-radius: 4px; padding: .6em .8em;
  white-space: pre-wrap; overflow-wrap: anywhere; }
dl.run { display: grid; grid-template-columns: max-content 1fr; gap: .2em 1.2em; margin: .6em 0; }
dl.run dt { font-weight: 600; }
dl.run dd { margin: 0; }
figure { margin: 1.6em 0 2.4em; }
figcaption { margin-bottom: .5em; }
figcaption strong { font-size: 1.05em; }
figcaption .how { display: block; color: #444; font-size: .92em; margin-top: .15em; }
.badge { display: inline-block; font-size: .78em; font-weight: 700; padding: 0 .4em; border: 1.5px solid #1a1a1a;
  border-radius: 3px; background: #fff; color: #1a1a1a; white-space: nowrap; }
.within { font-size: .85em; color: #555; white-space: nowrap; }
svg.chart { display: block; width: 100%; max-width: 760px; height: auto; margin: .3em 0;
  break-inside: avoid; page-break-inside: avoid; }
svg.chart text { font-family: inherit; font-size: 12px; fill: #1a1a1a; }
svg.chart text.tick, svg.chart text.axis-label { fill: #444; }
svg.chart text.value { font-size: 11px; }
svg.chart text.tag { font-weight: 700; font-size: 11px; }
svg.chart text.in-bar { font-size: 11px; }
svg.chart text.value, svg.chart text.mark-label, svg.chart text.ref-label {
  paint-order: stroke; stroke: #fff; stroke-width: 3px; stroke-linejoin: round; }
svg.chart .grid { stroke: #e2e2e2; stroke-width: 1; }
svg.chart .axis { stroke: #555; stroke-width: 1; }
svg.chart .whisker { stroke: #1a1a1a; stroke-width: 1.5; fill: none; }
svg.chart .ref { stroke: #1a1a1a; stroke-width: 1.2; stroke-dasharray: 5 4; }
svg.chart .mark { stroke-width: 2; fill: none; }
svg.chart .bar { stroke: #fff; stroke-width: .5; }
table.data { border-collapse: collapse; font-size: .86em; margin: .6em 0 0; font-variant-numeric: tabular-nums; }
table.data th, table.data td { padding: .12em .7em; border-bottom: 1px solid #ddd; text-align: right; }
table.data td { white-space: nowrap; }
table.data thead th { border-bottom: 1.5px solid #1a1a1a; font-weight: 600; vertical-align: bottom; }
table.data tbody th { font-weight: 500; }
table.data th:first-child, table.data td:first-child { text-align: left; }
footer { margin-top: 3em; color: #555; font-size: .88em; }
@page { margin: 14mm; }
@media print {
  body { max-width: none; margin: 0; padding: 0; font-size: 10pt; }
  pre { background: none; }
  h2 { break-after: avoid; page-break-after: avoid; }
  figcaption { break-after: avoid; page-break-after: avoid; }
  figure svg.chart, tr { break-inside: avoid; page-break-inside: avoid; }
  .badge { border-color: #000; }
}
";

pub(super) fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"ninety sim\">\n<title>{title}</title>\n\
         <style>{CSS}</style>\n</head>\n<body>\n{body}<footer>Written by <code>ninety sim \
         --report</code>: one self-contained page (nothing is fetched), the same bytes for the \
         same run.</footer>\n</body>\n</html>\n"
    )
}

fn shell(arg: &str) -> String {
    if !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./=,:+@%".contains(c))
    {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', "'\\''"))
    }
}

/// The shortest list of bots that, repeated round the table, seats them as `bots`.
fn bot_cycle(bots: &[String]) -> String {
    let k = (1..=bots.len())
        .find(|&k| bots.iter().enumerate().all(|(i, b)| *b == bots[i % k]))
        .unwrap_or(bots.len());
    bots[..k].join(",")
}

pub(super) fn command(
    rulesets: &[&str],
    cfg: &Config,
    players: Option<usize>,
    sets: &[(String, String)],
    sweep: Option<(&str, Vec<&str>)>,
) -> String {
    let mut args: Vec<String> = vec!["ninety".into(), "sim".into()];
    args.extend(rulesets.iter().map(|r| shell(r)));
    args.push(format!("--games {}", cfg.games));
    if let Some(p) = players {
        args.push(format!("--players {p}"));
    }
    args.push(format!("--bots {}", shell(&bot_cycle(&cfg.bots))));
    args.push(format!("--seed {}", cfg.seed));
    for (k, v) in sets {
        args.push(format!("--set {}", shell(&format!("{k}={v}"))));
    }
    if let Some((name, values)) = sweep {
        args.push(format!(
            "--sweep {}",
            shell(&format!("{name}={}", values.join(",")))
        ));
    }
    args.join(" ")
}

pub(super) fn sets_text(sets: &[(String, String)]) -> String {
    if sets.is_empty() {
        "none (the ruleset’s defaults)".into()
    } else {
        sets.iter()
            .map(|(k, v)| format!("<code>{}={}</code>", esc(k), esc(v)))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

pub(super) fn seats_text(cfg: &Config) -> String {
    (0..cfg.players)
        .map(|s| format!("seat {s} {}", esc(bot_of(cfg, s))))
        .collect::<Vec<_>>()
        .join(", ")
}

fn run_section(runs: &[Run], diffs: &[Difference]) -> String {
    let mut s = String::from("<section id=\"run\">\n<h2>The run</h2>\n<dl class=\"run\">\n");
    let first = runs[0].cfg;
    let dd = |s: &mut String, k: &str, v: String| {
        let _ = writeln!(s, "<dt>{k}</dt><dd>{v}</dd>");
    };
    if let [a, b] = runs {
        dd(
            &mut s,
            "Rulesets",
            format!(
                "A: {} (<code>{}</code>)<br>B: {} (<code>{}</code>)",
                esc(&a.cfg.name),
                esc(&a.cfg.ruleset),
                esc(&b.cfg.name),
                esc(&b.cfg.ruleset)
            ),
        );
    } else {
        dd(
            &mut s,
            "Ruleset",
            format!(
                "{} (<code>{}</code>)",
                esc(&first.name),
                esc(&first.ruleset)
            ),
        );
    }
    let players: Vec<String> = runs.iter().map(|r| r.cfg.players.to_string()).collect();
    dd(
        &mut s,
        "Players",
        if players.iter().all(|p| *p == players[0]) {
            players[0].clone()
        } else {
            format!("A {}, B {}", players[0], players[1])
        },
    );
    dd(&mut s, "Bots", seats_text(first));
    let games: Vec<String> = runs
        .iter()
        .map(|r| {
            if r.st.games < r.cfg.games {
                format!(
                    "{} (of the {} asked: the run was stopped early)",
                    r.st.games, r.cfg.games
                )
            } else {
                r.st.games.to_string()
            }
        })
        .collect();
    dd(
        &mut s,
        "Games",
        if runs.len() > 1 && games.iter().all(|g| *g == games[0]) {
            format!("{} each, on the same deals", games[0])
        } else if runs.len() > 1 {
            let played = |r: &Run| r.st.games + r.st.failed;
            let same = runs.iter().all(|r| played(r) == played(&runs[0]));
            format!(
                "A {}, B {}{}",
                games[0],
                games[1],
                if same { ", on the same deals" } else { "" }
            )
        } else {
            games[0].clone()
        },
    );
    dd(&mut s, "Seed", first.seed.to_string());
    dd(&mut s, "Options set", sets_text(&first.sets));
    let failed: Vec<String> = runs
        .iter()
        .enumerate()
        .map(|(j, r)| {
            let tag = tag_of(runs, j);
            if tag.is_empty() {
                r.st.failed.to_string()
            } else {
                format!("{tag} {}", r.st.failed)
            }
        })
        .collect();
    dd(&mut s, "Games that failed", failed.join(", "));
    s.push_str("</dl>\n");
    let rulesets: Vec<&str> = runs.iter().map(|r| r.cfg.ruleset.as_str()).collect();
    let same_players = runs.iter().all(|r| r.cfg.players == first.players);
    let cmd = command(
        &rulesets,
        first,
        same_players.then_some(first.players),
        &first.sets,
        None,
    );
    let _ = write!(
        s,
        "<p>The same command gives the same games (each game’s deal comes from the seed and its \
         number), for any <code>--jobs</code>; add <code>--report FILE.html</code> for this page:</p>\n\
         <pre><code>{}</code></pre>\n<h3>At a glance</h3>\n{}</section>\n",
        esc(&cmd),
        key_figures(runs, diffs)
    );
    s
}

fn runs_page(runs: &[Run]) -> String {
    let (title, lede) = match runs {
        [r] => (
            format!("{}: simulation report", r.cfg.name),
            format!(
                "{} games of {} players, bots {}, seed {}.",
                r.st.games,
                r.cfg.players,
                r.cfg.bots.join(", "),
                r.cfg.seed
            ),
        ),
        [a, b, ..] if a.st.games + a.st.failed == b.st.games + b.st.failed => (
            format!("{} against {}: simulation report", a.cfg.name, b.cfg.name),
            format!(
                "A is {}, B is {}: {} games each on the same deals, seed {}. A difference beyond \
                 chance (a test at 95%) is marked * and with a badge.",
                a.cfg.name, b.cfg.name, a.st.games, a.cfg.seed
            ),
        ),
        [a, b, ..] => (
            format!("{} against {}: simulation report", a.cfg.name, b.cfg.name),
            format!(
                "A is {}, B is {}, seed {}. The run was stopped early: A played {} games and B {}, \
                 so they are not on the same deals{}.",
                a.cfg.name,
                b.cfg.name,
                a.cfg.seed,
                a.st.games + a.st.failed,
                b.st.games + b.st.failed,
                if a.st.games == 0 || b.st.games == 0 {
                    ", and there is no B - A to give"
                } else {
                    ""
                }
            ),
        ),
        [] => (String::new(), String::new()),
    };
    let mut body = format!(
        "<header>\n<h1>{}</h1>\n<p class=\"lede\">{}</p>\n<p class=\"note\">Bars with whiskers show a 95% confidence interval: the range the true value lies in, 19 times in 20. Every chart has the numbers behind it in a table below.</p>\n</header>\n",
        esc(&title),
        esc(&lede)
    );
    // The tests of two runs, made once: every chart and table of the page reads them.
    let diffs = match runs {
        [a, b] => differences(a.st, b.st),
        _ => Vec::new(),
    };
    body.push_str(&run_section(runs, &diffs));
    body.push_str("<section id=\"who-wins\">\n<h2>Who wins</h2>\n");
    body.push_str(&wins_by_seat(runs, &diffs));
    body.push_str(&wins_by_bot(runs));
    body.push_str("</section>\n<section id=\"length\">\n<h2>How long games last</h2>\n");
    body.push_str(&length(runs, &diffs, ("turns", "turns"), |s| &s.turns));
    body.push_str(&length(runs, &diffs, ("rounds", "rounds"), |s| &s.rounds));
    body.push_str("</section>\n<section id=\"chips\">\n<h2>Why chips are lost</h2>\n");
    body.push_str(&chips_by_cause(runs, &diffs));
    match bars_figure(runs) {
        Some(f) => body.push_str(&f),
        None => body.push_str(
            "<p class=\"note\">No bar of the total was reached or passed in these games, so there is no chart of bars.</p>\n",
        ),
    }
    body.push_str("</section>\n<section id=\"out\">\n<h2>Who goes out first</h2>\n");
    body.push_str(&elimination(runs));
    body.push_str("</section>\n");
    page(&esc(&title), &body)
}

/// The report of one run, as a self-contained HTML page.
pub fn single(cfg: &Config, st: &Stats) -> String {
    runs_page(&[Run { cfg, st }])
}

/// Two rulesets played on the same deals, every chart with both (A blue, B vermillion), and
/// the differences the tests of `sim::compare` find beyond chance marked.
pub fn comparison(a: (&Config, &Stats), b: (&Config, &Stats)) -> String {
    runs_page(&[Run { cfg: a.0, st: a.1 }, Run { cfg: b.0, st: b.1 }])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shortest_bot_cycle_and_shell_words() {
        let b = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            bot_cycle(&b(&["cautious", "cautious", "cautious"])),
            "cautious"
        );
        assert_eq!(bot_cycle(&b(&["a", "b", "a", "b"])), "a,b");
        assert_eq!(bot_cycle(&b(&["a", "b", "c"])), "a,b,c");
        assert_eq!(shell("chips=2"), "chips=2");
        assert_eq!(shell("it's"), "'it'\\''s'");
        assert_eq!(shell(""), "''");
        assert_eq!(shell("a b"), "'a b'");
    }
}
