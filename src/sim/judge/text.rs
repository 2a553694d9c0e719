//! The judge's report as text (verdicts first, then a line a measure, then the rules) and as
//! one JSON value with every figure and verdict.

use crate::play::Ruleset;
use std::fmt::Write;

use super::{
    Decision, JudgeConfig, Line, LineDiff, RuleLine, Tally, Unit, compare, lines, rules, verdicts,
};

/// No "-0.0": a value that rounds to zero is written as zero.
fn unsigned_zero(s: String) -> String {
    match s.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.' || c == '%') => rest.to_string(),
        _ => s,
    }
}

fn number(v: f64, unit: Unit, exact: bool) -> String {
    if v.is_nan() {
        return "not measured".to_string();
    }
    unsigned_zero(match unit {
        Unit::Percent => format!("{v:.1}%"),
        Unit::Number if exact && v.fract() == 0.0 => format!("{v:.0}"),
        Unit::Number => format!("{v:.2}"),
    })
}

fn interval(low: Option<f64>, high: Option<f64>, unit: Unit) -> String {
    match (low, high) {
        (Some(lo), Some(hi)) => {
            let f = |v: f64| {
                let s = match unit {
                    Unit::Percent => format!("{v:.1}"),
                    Unit::Number => format!("{v:.2}"),
                };
                unsigned_zero(s)
            };
            format!("[{}, {}]", f(lo), f(hi))
        }
        _ => String::new(),
    }
}

fn head(out: &mut String, cfg: &JudgeConfig, t: &Tally) {
    let _ = writeln!(
        out,
        "{} ({}): {} games, {} players, {} in every seat, seed {}",
        cfg.name, cfg.ruleset, t.games, cfg.players, cfg.bot, cfg.seed
    );
    if t.failed > 0 {
        let _ = writeln!(out, "{} games failed and are not counted", t.failed);
    }
}

fn measure_lines(out: &mut String, ls: &[Line]) {
    let _ = writeln!(out, "\nmeasures (95% intervals):");
    for l in ls {
        let exact = l.low.is_none();
        let _ = writeln!(
            out,
            "  {:<44} {:>8} {:<16} {}",
            l.label,
            number(l.value, l.unit, exact),
            interval(l.low, l.high, l.unit),
            l.meaning
        );
    }
}

fn rule_lines(out: &mut String, rs: &[RuleLine], t: &Tally) {
    let _ = writeln!(
        out,
        "\nrules (fired, games with it, share of the {} faults it decided: rounds lost, players put out of a round or the game):",
        t.faults
    );
    for r in rs {
        let file = std::path::Path::new(&r.file)
            .file_name()
            .map_or_else(|| r.file.clone(), |f| f.to_string_lossy().into_owned());
        let what = r.what(|r| {
            format!(
                "{} times, in {} games, decided {:.1}% [{:.1}, {:.1}]",
                r.fired, r.games, r.decided_share, r.low, r.high
            )
        });
        let _ = writeln!(out, "  {file}:{:<4} {:<46} {what}", r.line, r.label);
    }
    restricted_lines(out, rs, t);
}

/// Restricted play: each rule forbidden to one seat's bot, the change in its win share.
fn restricted_lines(out: &mut String, rs: &[RuleLine], t: &Tally) {
    let Some(x) = &t.restricted else {
        return;
    };
    let _ = writeln!(
        out,
        "\nrestricted play: {} in one seat may not use the rule, {} deals (change in its win share, 95% interval, beyond chance?, turns it played another card):",
        x.bot, x.deals
    );
    for r in rs {
        let Some(c) = &r.restricted else { continue };
        let _ = writeln!(
            out,
            "  {:<51} {:>7} {:<16} {:<4} {} replaced, {} unavoidable",
            r.label,
            number(c.change, Unit::Percent, false),
            interval(Some(c.low), Some(c.high), Unit::Percent),
            if c.beyond_chance { "yes" } else { "no" },
            c.replaced,
            c.unavoidable
        );
    }
}

/// The report of one ruleset.
pub fn text(p: &Ruleset, cfg: &JudgeConfig, t: &Tally) -> String {
    let ls = lines(t, cfg);
    let mut out = String::new();
    for v in verdicts(t, &ls) {
        let _ = writeln!(out, "{v}");
    }
    out.push('\n');
    head(&mut out, cfg, t);
    measure_lines(&mut out, &ls);
    rule_lines(&mut out, &rules(p, t), t);
    out
}

fn diff_lines(out: &mut String, ds: &[LineDiff]) {
    let _ = writeln!(
        out,
        "\n  {:<44} {:>8} {:>8} {:>8} {:<18} beyond chance?",
        "measure", "A", "B", "B - A", "95% interval"
    );
    for d in ds {
        let exact = d.low.is_none();
        let _ = writeln!(
            out,
            "  {:<44} {:>8} {:>8} {:>8} {:<18} {}",
            d.label,
            number(d.a, d.unit, exact),
            number(d.b, d.unit, exact),
            number(d.diff, d.unit, exact),
            interval(d.low, d.high, d.unit),
            d.verdict.word()
        );
    }
}

/// Two rulesets on the same deals: each one's verdicts, then every line side by side.
pub fn text_compare(
    a: (&Ruleset, &JudgeConfig, &Tally),
    b: (&Ruleset, &JudgeConfig, &Tally),
    decision: Option<&Decision>,
) -> String {
    let (la, lb) = (lines(a.2, a.1), lines(b.2, b.1));
    let ds = compare(&la, &lb);
    let mut out = String::new();
    let _ = writeln!(out, "{}", comparison_verdict(&ds));
    if let Some(d) = decision {
        decision_lines(&mut out, d);
    }
    for (tag, (_, cfg, t), ls) in [("A", a, &la), ("B", b, &lb)] {
        let _ = write!(out, "\n{tag}: ");
        head(&mut out, cfg, t);
        for v in verdicts(t, ls) {
            let _ = writeln!(out, "  {v}");
        }
    }
    diff_lines(&mut out, &ds);
    for (tag, (p, _, t)) in [("A", a), ("B", b)] {
        let _ = write!(out, "\n{tag}:");
        rule_lines(&mut out, &rules(p, t), t);
    }
    out
}

/// The first line of a comparison: the measures that differ beyond chance, or none. A
/// comparison reads many measures at once: the headline names those that differ with all
/// of them taken together (Holm's correction, 5% for the whole family of rows), and says
/// how many more read beyond chance one by one, as so many measures would by chance.
pub fn comparison_verdict(ds: &[LineDiff]) -> String {
    let kept = super::family::holm(ds, 0.05);
    let tested = ds.iter().filter(|d| d.se.is_some()).count();
    let names = |pick: &dyn Fn(usize) -> bool| -> Vec<&str> {
        ds.iter()
            .enumerate()
            .filter(|(i, _)| pick(*i))
            .map(|(_, d)| d.label.as_str())
            .collect()
    };
    let family = names(&|i| kept[i]);
    let alone = names(&|i| !kept[i] && ds[i].verdict == crate::sim::Verdict::Beyond);
    let more = if alone.is_empty() {
        String::new()
    } else {
        format!(
            "; {} more read beyond chance one by one ({}), as {tested} measures read at once would by chance",
            alone.len(),
            alone.join(", ")
        )
    };
    if family.is_empty() {
        format!(
            "no difference beyond chance between A and B over the {tested} measures together{more}"
        )
    } else {
        format!(
            "B differs from A beyond chance in: {} (over the {tested} measures together, at 95%){more}",
            family.join(", ")
        )
    }
}

/// The sequential test's verdict in words: how many games it used and what it decided.
pub(super) fn decision_words(d: &Decision) -> String {
    let state = if d.interrupted {
        "interrupted before it was decided"
    } else if d.decided {
        "decided"
    } else {
        "not decided"
    };
    format!(
        "until decided: {state} after {} games of each ({} of at most {} looks of {}; alpha {}, beta {})",
        d.games, d.looks, d.plan.looks, d.plan.batch, d.plan.alpha, d.plan.beta
    )
}

fn decision_lines(out: &mut String, d: &Decision) {
    let _ = writeln!(out, "{}", decision_words(d));
    for m in &d.measures {
        let _ = writeln!(
            out,
            "  {:<44} B - A {:>8} {:<18} margin {:>7}: {}",
            m.label,
            number(m.diff, m.unit, false),
            interval(Some(m.low), Some(m.high), m.unit),
            number(m.margin, m.unit, false),
            m.outcome.words()
        );
    }
}

fn one_json(p: &Ruleset, cfg: &JudgeConfig, t: &Tally) -> serde_json::Value {
    let ls = lines(t, cfg);
    serde_json::json!({
        "config": cfg,
        "games": t.games,
        "failed": t.failed,
        "verdicts": verdicts(t, &ls),
        "lines": ls,
        "rules": rules(p, t),
        "tally": t,
    })
}

/// Every figure and verdict as one JSON value: one ruleset's, or both and their differences.
pub fn json(
    a: (&Ruleset, &JudgeConfig, &Tally),
    b: Option<(&Ruleset, &JudgeConfig, &Tally)>,
    decision: Option<&Decision>,
) -> serde_json::Value {
    match b {
        None => one_json(a.0, a.1, a.2),
        Some(b) => {
            let ds = compare(&lines(a.2, a.1), &lines(b.2, b.1));
            let beyond: Vec<&str> = ds
                .iter()
                .filter(|d| d.verdict == crate::sim::Verdict::Beyond)
                .map(|d| d.key.as_str())
                .collect();
            serde_json::json!({
                "a": one_json(a.0, a.1, a.2),
                "b": one_json(b.0, b.1, b.2),
                "verdict": comparison_verdict(&ds),
                "beyond_chance": beyond,
                "differences": ds,
                "until_decided": decision.map(|d| serde_json::json!({
                    "verdict": decision_words(d),
                    "decision": d,
                })),
            })
        }
    }
}
