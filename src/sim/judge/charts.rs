//! The judge page's charts, as inline SVG: a row a figure, its value as a bar from zero (or
//! a dot, for a signed figure), its 95% interval as a whisker, a reference line (the fair
//! share, or zero); and the turns' histogram. Every text is escaped; the same figures give
//! the same bytes.

use std::fmt::Write;

use crate::sim::Histogram;
use crate::sim::html::esc;

/// One row of a chart: its label, value and interval, in the chart's unit.
#[derive(Debug, Clone)]
pub struct Row {
    pub label: String,
    pub value: f64,
    pub ci: Option<(f64, f64)>,
}

const W: f64 = 640.0;
const LABEL_W: f64 = 250.0;
const ROW_H: f64 = 22.0;
const PAD: f64 = 8.0;

/// A round step for an axis spanning `span`.
fn step_for(span: f64) -> f64 {
    let raw = (span / 5.0).max(1e-9);
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag)
}

fn tick_text(v: f64, step: f64, unit: &str) -> String {
    let d = if step >= 1.0 {
        0
    } else {
        (-step.log10().floor()) as usize
    };
    let v = if v.abs() < step / 1e6 { 0.0 } else { v };
    format!("{v:.d$}{unit}")
}

/// A horizontal chart of `rows` on one axis (including zero and `reference`), with `unit`
/// after each tick. `title` names it for a screen reader.
pub fn interval_chart(
    title: &str,
    rows: &[Row],
    unit: &str,
    reference: Option<(f64, &str)>,
) -> String {
    let mut lo = 0f64;
    let mut hi = 0f64;
    // A bound a rounding error below zero (a Wilson interval at 0) is zero.
    let floor = |v: f64| if v > -1e-9 { v.max(0.0) } else { v };
    for r in rows {
        let (a, b) = r.ci.unwrap_or((r.value, r.value));
        lo = lo.min(floor(a.min(r.value)));
        hi = hi.max(b.max(r.value));
    }
    if let Some((v, _)) = reference {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if unit == "%" && lo >= 0.0 {
        hi = hi.max(1.0);
    }
    if hi - lo < 1e-9 {
        hi = lo + 1.0;
    }
    let step = step_for(hi - lo);
    let (lo, hi) = ((lo / step).floor() * step, (hi / step).ceil() * step);
    // Room on the right for the last tick's label.
    let plot = W - LABEL_W - 2.0 * PAD - 20.0;
    let x = |v: f64| LABEL_W + PAD + (v.clamp(lo, hi) - lo) / (hi - lo) * plot;
    let h = rows.len() as f64 * ROW_H + 34.0;
    let signed = lo < 0.0;
    let mut s = format!(
        "<svg class=\"chart\" width=\"{W}\" height=\"{h}\" viewBox=\"0 0 {W} {h}\" role=\"img\" aria-label=\"{}\">",
        esc(title)
    );
    let axis_y = rows.len() as f64 * ROW_H + 6.0;
    let ticks = ((hi - lo) / step).round() as usize;
    for i in 0..=ticks {
        let v = lo + i as f64 * step;
        let _ = write!(
            s,
            "<line x1=\"{0:.1}\" y1=\"0\" x2=\"{0:.1}\" y2=\"{axis_y:.1}\" stroke=\"#e3e7eb\"/><text x=\"{0:.1}\" y=\"{1:.1}\" font-size=\"11\" text-anchor=\"middle\" fill=\"#56606b\">{2}</text>",
            x(v),
            axis_y + 14.0,
            esc(&tick_text(v, step, unit))
        );
    }
    let _ = write!(
        s,
        "<line x1=\"{0:.1}\" y1=\"0\" x2=\"{0:.1}\" y2=\"{axis_y:.1}\" stroke=\"#56606b\"/>",
        x(0.0)
    );
    if let Some((v, what)) = reference {
        let _ = write!(
            s,
            "<line x1=\"{0:.1}\" y1=\"0\" x2=\"{0:.1}\" y2=\"{axis_y:.1}\" stroke=\"#b3261e\" stroke-dasharray=\"4 3\"><title>{1}</title></line>",
            x(v),
            esc(what)
        );
    }
    for (i, r) in rows.iter().enumerate() {
        let y = i as f64 * ROW_H;
        let mid = y + ROW_H / 2.0;
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"end\" fill=\"#1d232a\">{}</text>",
            LABEL_W - 4.0,
            mid + 4.0,
            esc(&r.label)
        );
        if signed {
            let _ = write!(
                s,
                "<circle cx=\"{:.1}\" cy=\"{mid:.1}\" r=\"4\" fill=\"#1f5f99\"/>",
                x(r.value)
            );
        } else {
            let (a, b) = (x(0.0), x(r.value));
            let _ = write!(
                s,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#8fb8de\"/>",
                a.min(b),
                y + 5.0,
                (b - a).abs().max(0.5),
                ROW_H - 10.0
            );
        }
        if let Some((a, b)) = r.ci {
            let _ = write!(
                s,
                "<path d=\"M{0:.1} {1:.1}V{2:.1}M{0:.1} {mid:.1}H{3:.1}M{3:.1} {1:.1}V{2:.1}\" stroke=\"#1d232a\" fill=\"none\"/>",
                x(a),
                mid - 4.0,
                mid + 4.0,
                x(b)
            );
        }
    }
    s.push_str("</svg>");
    s
}

/// The histogram of `h` (games by turns), in at most 40 bins of whole turns.
pub fn histogram(title: &str, h: &Histogram) -> String {
    let (Some((&first, _)), Some((&last, _))) = (h.counts.iter().next(), h.counts.iter().last())
    else {
        return String::new();
    };
    let width = (u64::from(last - first) / 40 + 1).max(1);
    let bins = (u64::from(last - first) / width + 1) as usize;
    let mut counts = vec![0u64; bins];
    for (v, c) in &h.counts {
        if let Some(b) = counts.get_mut((u64::from(v - first) / width) as usize) {
            *b += c;
        }
    }
    let top = counts.iter().copied().max().unwrap_or(1).max(1) as f64;
    let (plot_h, bar_w) = (120.0, (W - 2.0 * PAD) / bins as f64);
    let mut s = format!(
        "<svg class=\"chart\" width=\"{W}\" height=\"{}\" viewBox=\"0 0 {W} {}\" role=\"img\" aria-label=\"{}\">",
        plot_h + 30.0,
        plot_h + 30.0,
        esc(title)
    );
    for (i, c) in counts.iter().enumerate() {
        let bh = *c as f64 / top * plot_h;
        let lo = u64::from(first) + i as u64 * width;
        let _ = write!(
            s,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{bh:.1}\" fill=\"#8fb8de\"><title>{} to {} turns: {c} games</title></rect>",
            PAD + i as f64 * bar_w,
            plot_h - bh,
            (bar_w - 1.0).max(0.5),
            lo,
            lo + width - 1
        );
    }
    let _ = write!(
        s,
        "<text x=\"{PAD}\" y=\"{0:.1}\" font-size=\"11\" fill=\"#56606b\">{first} turns</text><text x=\"{1:.1}\" y=\"{0:.1}\" font-size=\"11\" text-anchor=\"end\" fill=\"#56606b\">{last} turns</text></svg>",
        plot_h + 16.0,
        W - PAD
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_steps_are_round() {
        assert_eq!(step_for(100.0), 20.0);
        assert_eq!(step_for(3.0), 1.0);
        assert_eq!(step_for(0.12), 0.025);
    }

    #[test]
    fn a_chart_draws_a_bar_and_a_whisker_a_row_and_escapes_its_labels() {
        let rows = [
            Row {
                label: "seat <0>".into(),
                value: 40.0,
                ci: Some((35.0, 45.0)),
            },
            Row {
                label: "seat 1".into(),
                value: 60.0,
                ci: None,
            },
        ];
        let svg = interval_chart("seats", &rows, "%", Some((50.0, "fair share")));
        assert_eq!(svg.matches("<rect").count(), 2);
        assert_eq!(svg.matches("<path").count(), 1);
        assert!(svg.contains("seat &lt;0&gt;") && !svg.contains("<0>"));
        assert!(svg.contains("stroke-dasharray"));
    }
}
