//! The judge's report as one self-contained HTML page (inline CSS and SVG, nothing fetched,
//! no script): the verdicts, then each measure with its interval drawn, then the rules. A
//! pure function of the tally: the same sums give the same bytes. Every text from a ruleset
//! or the command line is HTML-escaped.

use crate::play::Ruleset;
use std::fmt::Write;

use super::charts::{Row, histogram, interval_chart};
use super::text::{comparison_verdict, decision_words};
use super::{Decision, JudgeConfig, Line, LineDiff, Tally, Unit, compare, lines, rules, verdicts};
use crate::sim::Verdict;
use crate::sim::html::esc;

const CSS: &str = "
body { font: 15px/1.45 system-ui, sans-serif; color: #1d232a; max-width: 70rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
ul.verdicts li { font-weight: 600; margin: .2rem 0; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .25rem .5rem; border-bottom: 1px solid #dde2e7; vertical-align: middle; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.meaning { color: #56606b; font-size: .9em; }
svg.chart { display: block; max-width: 100%; height: auto; margin: .5rem 0; }
section.measure { break-inside: avoid; }
.badge { display: inline-block; padding: 0 .4rem; border: 1px solid #b3261e; color: #b3261e; border-radius: .6rem; font-size: .85em; }
footer { margin-top: 2rem; color: #56606b; font-size: .85em; }
@media print { body { margin: 0; } tr { break-inside: avoid; } }
";

fn value(v: f64, unit: Unit) -> String {
    if v.is_nan() {
        return "not measured".to_string();
    }
    let v = if v.abs() < 0.0005 { 0.0 } else { v };
    match unit {
        Unit::Percent => format!("{v:.1}%"),
        Unit::Number => format!("{v:.2}"),
    }
}

/// The measures, as the issue lists them: a section a measure, the lines that make it up.
const SECTIONS: [(&str, &[&str]); 11] = [
    ("Seat balance", &["seat_", "largest_gap", "first_player"]),
    (
        "Completion",
        &["with_winner", "turn_limited", "shared_wins"],
    ),
    ("Length", &["turns_", "rounds_", "length_fit"]),
    ("Time at the table", &["minutes_"]),
    (
        "Agency",
        &["real_choice", "choices_per_game", "forced_busts"],
    ),
    ("Downtime", &["downtime_"]),
    (
        "Lead changes, comebacks, drama",
        &["lead_changes", "comebacks", "drama"],
    ),
    ("When it is decided", &["decided_at", "false_hope"]),
    ("Skill", &["skill_"]),
    ("Order", &["order_"]),
    ("Luck", &["luck"]),
];

fn in_section(key: &str, prefixes: &[&str]) -> bool {
    prefixes
        .iter()
        .any(|p| key == *p || (p.ends_with('_') && key.starts_with(p)))
}

/// A chart's rows: the lines with an interval or a percentage, in one unit (a section's
/// first unit), so one axis holds them.
fn chart_rows(ls: &[&Line]) -> (Vec<Row>, &'static str) {
    let unit = ls.first().map_or(Unit::Percent, |l| l.unit);
    let rows = ls
        .iter()
        .filter(|l| l.unit == unit && (l.low.is_some() || !l.key.ends_with("_p95")))
        .filter(|l| !l.key.ends_with("_median") && !l.key.ends_with("_p95"))
        .filter(|l| !l.value.is_nan())
        .map(|l| Row {
            label: l.label.clone(),
            value: l.value,
            ci: l.low.zip(l.high),
        })
        .collect();
    (rows, if unit == Unit::Percent { "%" } else { "" })
}

fn number_table(out: &mut String, ls: &[&Line]) {
    out.push_str("<table>\n<tr><th>measure</th><th>value</th><th>95% interval</th><th>what it means</th></tr>\n");
    for l in ls {
        let interval = match (l.low, l.high) {
            (Some(lo), Some(hi)) => format!("{} to {}", value(lo, l.unit), value(hi, l.unit)),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"meaning\">{}</td></tr>",
            esc(&l.label),
            value(l.value, l.unit),
            interval,
            esc(&l.meaning)
        );
    }
    out.push_str("</table>\n");
}

/// One chart a measure, its numbers under it.
fn measures(out: &mut String, ls: &[Line], t: &Tally) {
    let fair = 100.0 / t.players.max(1) as f64;
    for (title, prefixes) in SECTIONS {
        let mine: Vec<&Line> = ls.iter().filter(|l| in_section(&l.key, prefixes)).collect();
        if mine.is_empty() {
            continue;
        }
        let _ = writeln!(out, "<section class=\"measure\">\n<h2>{}</h2>", esc(title));
        if title == "Length" {
            out.push_str(&histogram("games by turns", &t.turns));
        }
        let reference = match title {
            "Seat balance" | "Skill" => Some((fair, "the fair share")),
            _ => None,
        };
        let (rows, unit) = chart_rows(&mine);
        if !rows.is_empty() {
            out.push_str(&interval_chart(title, &rows, unit, reference));
        }
        number_table(out, &mine);
        out.push_str("</section>\n");
    }
}

fn rule_table(out: &mut String, p: &Ruleset, t: &Tally) {
    let rs = rules(p, t);
    let decided: Vec<Row> = rs
        .iter()
        .filter(|r| r.fired())
        .map(|r| Row {
            label: r.label.clone(),
            value: r.decided_share,
            ci: Some((r.low, r.high)),
        })
        .collect();
    if !decided.is_empty() {
        out.push_str(&interval_chart(
            "share of the faults (rounds lost, players put out of a round or the game) each rule decided",
            &decided,
            "%",
            None,
        ));
    }
    let _ = writeln!(
        out,
        "<table>\n<tr><th>line</th><th>rule</th><th>fired</th><th>games</th><th>share of the {} faults it decided</th></tr>",
        t.faults
    );
    for r in rules(p, t) {
        let decided =
            r.what(|r| format!("{:.1}% ({:.1} to {:.1})", r.decided_share, r.low, r.high));
        let _ = writeln!(
            out,
            "<tr><td>{}:{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
            esc(&r.file),
            r.line,
            esc(&r.label),
            r.fired,
            r.games,
            decided
        );
    }
    out.push_str("</table>\n");
    restricted(out, &rs, t);
}

/// Restricted play: the change in the bot's win share, each rule forbidden, with its interval.
fn restricted(out: &mut String, rs: &[super::RuleLine], t: &Tally) {
    let Some(x) = &t.restricted else {
        return;
    };
    let _ = writeln!(
        out,
        "<h3>Restricted play</h3>\n<p><code>{}</code> in one seat may not use the rule ({} deals); the change in its win share, in points.</p>",
        esc(&x.bot),
        x.deals
    );
    let rows: Vec<Row> = rs
        .iter()
        .filter_map(|r| {
            r.restricted.as_ref().map(|c| Row {
                label: r.label.clone(),
                value: c.change,
                ci: Some((c.low, c.high)),
            })
        })
        .collect();
    out.push_str(&interval_chart(
        "restricted play",
        &rows,
        "",
        Some((0.0, "no change")),
    ));
    out.push_str("<table>\n<tr><th>rule</th><th>win share free</th><th>forbidden</th><th>change</th><th>95% interval</th><th>beyond chance?</th><th>turns replaced</th><th>unavoidable</th></tr>\n");
    for r in rs {
        let Some(c) = &r.restricted else { continue };
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"num\">{:.1}%</td><td class=\"num\">{:.1}%</td><td class=\"num\">{}</td><td class=\"num\">{} to {}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            esc(&r.label),
            c.free_share,
            c.restricted_share,
            value(c.change, Unit::Percent),
            value(c.low, Unit::Percent),
            value(c.high, Unit::Percent),
            if c.beyond_chance {
                "<span class=\"badge\">yes</span>"
            } else {
                "no"
            },
            c.replaced,
            c.unavoidable
        );
    }
    out.push_str("</table>\n");
}

fn head(out: &mut String, cfg: &JudgeConfig, t: &Tally) {
    let _ = writeln!(
        out,
        "<p>{} (<code>{}</code>): {} games, {} players, <code>{}</code> in every seat, seed {}.</p>",
        esc(&cfg.name),
        esc(&cfg.ruleset),
        t.games,
        cfg.players,
        esc(&cfg.bot),
        cfg.seed
    );
}

fn verdict_list(out: &mut String, vs: &[String]) {
    out.push_str("<ul class=\"verdicts\">\n");
    for v in vs {
        let _ = writeln!(out, "<li>{}</li>", esc(v));
    }
    out.push_str("</ul>\n");
}

fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"ninety judge\">\n<title>{}</title>\n\
         <style>{CSS}</style>\n</head>\n<body>\n{body}<footer>Written by <code>ninety judge \
         --report</code>: one self-contained page (nothing is fetched); the formulas are in \
         docs/judge.md.</footer>\n</body>\n</html>\n",
        esc(title)
    )
}

/// The page of one ruleset.
pub fn html(p: &Ruleset, cfg: &JudgeConfig, t: &Tally) -> String {
    let ls = lines(t, cfg);
    let mut body = format!("<h1>Judging {}</h1>\n", esc(&cfg.name));
    verdict_list(&mut body, &verdicts(t, &ls));
    head(&mut body, cfg, t);
    measures(&mut body, &ls, t);
    body.push_str("<h2>Rules</h2>\n");
    rule_table(&mut body, p, t);
    page(&format!("ninety judge: {}", cfg.name), &body)
}

/// Each measure's differences, B − A: a chart (a dot and its interval about zero) and the
/// numbers under it.
fn differences(out: &mut String, ds: &[LineDiff]) {
    for (title, prefixes) in SECTIONS {
        let mine: Vec<&LineDiff> = ds.iter().filter(|d| in_section(&d.key, prefixes)).collect();
        if mine.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "<section class=\"measure\">\n<h2>{}: B against A</h2>",
            esc(title)
        );
        let unit = mine[0].unit;
        let rows: Vec<Row> = mine
            .iter()
            .filter(|d| d.unit == unit && d.low.is_some())
            .map(|d| Row {
                label: d.label.clone(),
                value: d.diff,
                ci: d.low.zip(d.high),
            })
            .collect();
        if !rows.is_empty() {
            let u = if unit == Unit::Percent { " pt" } else { "" };
            out.push_str(&interval_chart(
                title,
                &rows,
                u,
                Some((0.0, "no difference")),
            ));
        }
        out.push_str("<table>\n<tr><th>measure</th><th>A</th><th>B</th><th>B − A</th><th>95% interval</th><th>beyond chance?</th></tr>\n");
        for d in mine {
            let interval = match (d.low, d.high) {
                (Some(lo), Some(hi)) => format!("{} to {}", value(lo, d.unit), value(hi, d.unit)),
                _ => String::new(),
            };
            let mark = match d.verdict {
                Verdict::Beyond => "<span class=\"badge\">yes</span>".to_string(),
                v => v.word().to_string(),
            };
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
                esc(&d.label),
                value(d.a, d.unit),
                value(d.b, d.unit),
                value(d.diff, d.unit),
                interval,
                mark
            );
        }
        out.push_str("</table>\n</section>\n");
    }
}

fn decision_table(out: &mut String, d: &Decision) {
    let _ = writeln!(
        out,
        "<h2>Until decided</h2>\n<p>{}</p>\n<table>\n<tr><th>measure</th><th>B − A</th><th>interval at the look's level</th><th>margin</th><th>outcome</th></tr>",
        esc(&decision_words(d))
    );
    for m in &d.measures {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{} to {}</td><td class=\"num\">{}</td><td>{}</td></tr>",
            esc(&m.label),
            value(m.diff, m.unit),
            value(m.low, m.unit),
            value(m.high, m.unit),
            value(m.margin, m.unit),
            esc(m.outcome.words())
        );
    }
    out.push_str("</table>\n");
}

/// The page of two rulesets on the same deals: the comparison's verdict, both verdicts,
/// one chart of B − A a measure with its numbers, the sequential test when it was run, and
/// both rules.
pub fn html_compare(
    a: (&Ruleset, &JudgeConfig, &Tally),
    b: (&Ruleset, &JudgeConfig, &Tally),
    decision: Option<&Decision>,
) -> String {
    let (la, lb) = (lines(a.2, a.1), lines(b.2, b.1));
    let ds = compare(&la, &lb);
    let mut body = format!(
        "<h1>Judging {} against {}</h1>\n",
        esc(&a.1.name),
        esc(&b.1.name)
    );
    verdict_list(&mut body, &[comparison_verdict(&ds)]);
    if let Some(d) = decision {
        decision_table(&mut body, d);
    }
    for (tag, (_, cfg, t), ls) in [("A", a, &la), ("B", b, &lb)] {
        let _ = writeln!(body, "<h2>{tag}: {}</h2>", esc(&cfg.name));
        verdict_list(&mut body, &verdicts(t, ls));
        head(&mut body, cfg, t);
    }
    differences(&mut body, &ds);
    for (tag, (p, cfg, t)) in [("A", a), ("B", b)] {
        let _ = writeln!(body, "<h2>Rules of {tag}: {}</h2>", esc(&cfg.name));
        rule_table(&mut body, p, t);
    }
    page(
        &format!("ninety judge: {} against {}", a.1.name, b.1.name),
        &body,
    )
}
