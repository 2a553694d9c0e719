//! The judge's report as one self-contained HTML page (inline CSS and SVG, nothing fetched,
//! no script): the verdicts, then each measure with its interval drawn, then the rules. A
//! pure function of the tally: the same sums give the same bytes. Every text from a ruleset
//! or the command line is HTML-escaped.

use std::fmt::Write;

use super::{JudgeConfig, Line, Tally, Unit, compare, lines, rules, verdicts};
use crate::ir::Program;
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
svg.ci { display: block; }
.badge { display: inline-block; padding: 0 .4rem; border: 1px solid #b3261e; color: #b3261e; border-radius: .6rem; font-size: .85em; }
footer { margin-top: 2rem; color: #56606b; font-size: .85em; }
@media print { body { margin: 0; } tr { break-inside: avoid; } }
";

fn value(v: f64, unit: Unit) -> String {
    let v = if v.abs() < 0.0005 { 0.0 } else { v };
    match unit {
        Unit::Percent => format!("{v:.1}%"),
        Unit::Number => format!("{v:.2}"),
    }
}

/// The interval as a bar on an axis from 0 to 100 (a share) or to the line's largest value,
/// the value as a dot.
fn bar(l: &Line) -> String {
    let top = match l.unit {
        Unit::Percent => 100.0,
        Unit::Number => l.high.unwrap_or(l.value).abs().max(l.value.abs()).max(1e-9) * 1.1,
    };
    let (w, h) = (220.0, 14.0);
    let x = |v: f64| ((v.clamp(-top, top) + top) / (2.0 * top) * w).clamp(0.0, w);
    let mut s = format!(
        "<svg class=\"ci\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\"><line x1=\"{:.1}\" y1=\"0\" x2=\"{:.1}\" y2=\"{h}\" stroke=\"#aab3bd\"/>",
        x(0.0),
        x(0.0)
    );
    if let (Some(lo), Some(hi)) = (l.low, l.high) {
        let _ = write!(
            s,
            "<rect x=\"{:.1}\" y=\"4\" width=\"{:.1}\" height=\"6\" fill=\"#8fb8de\"/>",
            x(lo),
            (x(hi) - x(lo)).max(1.0)
        );
    }
    let _ = write!(
        s,
        "<circle cx=\"{:.1}\" cy=\"7\" r=\"3.5\" fill=\"#1f5f99\"/></svg>",
        x(l.value)
    );
    s
}

fn measures(out: &mut String, ls: &[Line]) {
    out.push_str("<h2>Measures</h2>\n<table>\n<tr><th>measure</th><th>value</th><th>95% interval</th><th></th><th>what it means</th></tr>\n");
    for l in ls {
        let interval = match (l.low, l.high) {
            (Some(lo), Some(hi)) => format!("{} to {}", value(lo, l.unit), value(hi, l.unit)),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td class=\"meaning\">{}</td></tr>",
            esc(&l.label),
            value(l.value, l.unit),
            interval,
            bar(l),
            esc(&l.meaning)
        );
    }
    out.push_str("</table>\n");
}

fn rule_table(out: &mut String, p: &Program, t: &Tally) {
    let _ = writeln!(
        out,
        "<table>\n<tr><th>line</th><th>rule</th><th>fired</th><th>games</th><th>share of the {} lost rounds it decided</th></tr>",
        t.lost_rounds
    );
    for r in rules(p, t) {
        let decided = match r.never_bound {
            Some(n) => format!("never fired: fewer than 1 in {n} games (95%)"),
            None => format!("{:.1}% ({:.1} to {:.1})", r.decided_share, r.low, r.high),
        };
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
pub fn html(p: &Program, cfg: &JudgeConfig, t: &Tally) -> String {
    let ls = lines(t, cfg);
    let mut body = format!("<h1>Judging {}</h1>\n", esc(&cfg.name));
    verdict_list(&mut body, &verdicts(t, &ls));
    head(&mut body, cfg, t);
    measures(&mut body, &ls);
    body.push_str("<h2>Rules</h2>\n");
    rule_table(&mut body, p, t);
    page(&format!("ninety judge: {}", cfg.name), &body)
}

/// The page of two rulesets on the same deals: both verdicts, every difference, both rules.
pub fn html_compare(
    a: (&Program, &JudgeConfig, &Tally),
    b: (&Program, &JudgeConfig, &Tally),
) -> String {
    let (la, lb) = (lines(a.2, a.1), lines(b.2, b.1));
    let mut body = format!(
        "<h1>Judging {} against {}</h1>\n",
        esc(&a.1.name),
        esc(&b.1.name)
    );
    for (tag, (_, cfg, t), ls) in [("A", a, &la), ("B", b, &lb)] {
        let _ = writeln!(body, "<h2>{tag}: {}</h2>", esc(&cfg.name));
        verdict_list(&mut body, &verdicts(t, ls));
        head(&mut body, cfg, t);
    }
    body.push_str("<h2>B against A</h2>\n<table>\n<tr><th>measure</th><th>A</th><th>B</th><th>B − A</th><th>95% interval</th><th>beyond chance?</th></tr>\n");
    for d in compare(&la, &lb) {
        let interval = match (d.low, d.high) {
            (Some(lo), Some(hi)) => format!("{} to {}", value(lo, d.unit), value(hi, d.unit)),
            _ => String::new(),
        };
        let mark = match d.verdict {
            Verdict::Beyond => "<span class=\"badge\">yes</span>".to_string(),
            v => v.word().to_string(),
        };
        let _ = writeln!(
            body,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
            esc(&d.label),
            value(d.a, d.unit),
            value(d.b, d.unit),
            value(d.diff, d.unit),
            interval,
            mark
        );
    }
    body.push_str("</table>\n");
    for (tag, (p, cfg, t)) in [("A", a), ("B", b)] {
        let _ = writeln!(body, "<h2>Rules of {tag}: {}</h2>", esc(&cfg.name));
        rule_table(&mut body, p, t);
    }
    page(
        &format!("ninety judge: {} against {}", a.1.name, b.1.name),
        &body,
    )
}
