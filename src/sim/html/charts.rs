//! Bar charts: horizontal bars (a row per seat, bot or cause, a bar per run in each) and
//! vertical bars (a column per category), each bar with its 95% whisker when it has one, and
//! dashed reference lines (a fair share).

use std::fmt::Write as _;

use super::fmt::{clip, esc, n};
use super::svg::{Axis, Bar, Frame, legend, rect, svg_open, whisker};
use super::{BLUE, CHAR_W, W};

/// Horizontal bars, a group of one bar per series in each row.
#[derive(Debug)]
pub(super) struct HChart {
    pub(super) title: String,
    pub(super) aria: String,
    pub(super) legend: Vec<(String, &'static str)>,
    /// A short tag by each bar of a group (`A`, `B`), so the series read without colour.
    pub(super) tags: Vec<&'static str>,
    pub(super) colours: Vec<&'static str>,
    pub(super) rows: Vec<(String, Vec<Option<Bar>>)>,
    pub(super) axis: Axis,
    /// Dashed lines across the chart, with a label.
    pub(super) refs: Vec<(f64, String)>,
}

/// The height of a bar, and the gap between the bars of a group.
const BAR_H: f64 = 16.0;
const BAR_GAP: f64 = 3.0;

pub(super) fn hbars(c: &HChart) -> String {
    let left = if c.tags.is_empty() { 160.0 } else { 180.0 };
    let ns = c.colours.len().max(1) as f64;
    let group = ns * BAR_H + (ns - 1.0) * BAR_GAP;
    let pitch = group + 14.0;
    let (legend_svg, legend_h) = legend(&c.legend, left, 6.0);
    let mut top = 8.0 + legend_h;
    if !c.refs.is_empty() {
        top += 16.0;
    }
    let f = Frame {
        left,
        top,
        right: W - 64.0,
        bottom: top + 8.0 + c.rows.len() as f64 * pitch,
    };
    let x = |v: f64| f.left + (v / c.axis.top).clamp(0.0, 1.0) * f.width();
    let mut s = svg_open(f.bottom + 46.0, &c.title, &c.aria);
    s.push_str(&legend_svg);
    s.push_str("<g class=\"gridlines\">\n");
    for (v, _) in c.axis.ticks() {
        let _ = writeln!(
            s,
            "<line class=\"grid\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>",
            n(x(v)),
            n(f.top),
            n(f.bottom)
        );
    }
    s.push_str("</g>\n");
    for (i, (label, bars)) in c.rows.iter().enumerate() {
        let gy = f.top + 8.0 + i as f64 * pitch;
        let label_x = if c.tags.is_empty() {
            left - 8.0
        } else {
            left - 24.0
        };
        let _ = writeln!(
            s,
            "<text class=\"label\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            n(label_x),
            n(gy + group / 2.0 + 4.0),
            esc(&clip(label, 22))
        );
        for (j, bar) in bars.iter().enumerate() {
            hbar(
                &mut s,
                c,
                &x,
                (j, gy + j as f64 * (BAR_H + BAR_GAP)),
                bar.as_ref(),
            );
        }
    }
    for (v, label) in &c.refs {
        let rx = x(*v);
        let anchor = if rx > f.left + f.width() * 0.7 {
            "end"
        } else {
            "middle"
        };
        let _ = writeln!(
            s,
            "<line class=\"ref\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/><text class=\"ref-label\" x=\"{0}\" y=\"{3}\" text-anchor=\"{anchor}\">{4}</text>",
            n(rx),
            n(f.top - 2.0),
            n(f.bottom),
            n(f.top - 6.0),
            esc(label)
        );
    }
    f.axes(&mut s);
    x_ticks(&mut s, &f, &c.axis, &x);
    s.push_str("</svg>\n");
    s
}

/// The `j`-th bar of a group at height `by`: its tag, the bar, its whisker, its value.
fn hbar(
    s: &mut String,
    c: &HChart,
    x: &dyn Fn(f64) -> f64,
    (j, by): (usize, f64),
    bar: Option<&Bar>,
) {
    let left = x(0.0);
    let cy = by + BAR_H / 2.0;
    if let Some(tag) = c.tags.get(j) {
        let _ = writeln!(
            s,
            "<text class=\"tag\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{tag}</text>",
            n(left - 6.0),
            n(cy + 4.0)
        );
    }
    let Some(b) = bar else { return };
    let colour = c.colours.get(j).copied().unwrap_or(BLUE);
    rect(s, (left, by, x(b.value) - left, BAR_H), colour, &b.tip);
    let mut end = x(b.value);
    if let Some((lo, hi)) = b.ci {
        whisker(s, true, cy, x(lo), x(hi));
        end = end.max(x(hi));
    }
    let _ = writeln!(
        s,
        "<text class=\"value\" x=\"{}\" y=\"{}\">{}</text>",
        n(end + 5.0),
        n(cy + 4.0),
        esc(&b.text)
    );
}

/// The ticks of a horizontal value axis, and its name.
fn x_ticks(s: &mut String, f: &Frame, axis: &Axis, x: &dyn Fn(f64) -> f64) {
    for (v, label) in axis.ticks() {
        let _ = writeln!(
            s,
            "<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{label}</text>",
            n(x(v)),
            n(f.bottom + 16.0)
        );
    }
    let _ = writeln!(
        s,
        "<text class=\"axis-label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
        n((f.left + f.right) / 2.0),
        n(f.bottom + 36.0),
        esc(&axis.label)
    );
}

/// Vertical bars, a group of one bar per series for each category.
#[derive(Debug)]
pub(super) struct VChart {
    pub(super) title: String,
    pub(super) aria: String,
    pub(super) legend: Vec<(String, &'static str)>,
    pub(super) colours: Vec<&'static str>,
    pub(super) categories: Vec<String>,
    /// Per category, per series.
    pub(super) values: Vec<Vec<Option<Bar>>>,
    pub(super) axis: Axis,
    pub(super) x_label: String,
    pub(super) refs: Vec<(f64, String)>,
}

pub(super) fn vbars(c: &VChart) -> String {
    let left = 70.0;
    let (mut head, legend_h) = legend(&c.legend, left, 6.0);
    let mut top = 14.0 + legend_h;
    // The dashed lines are named above the chart, where no bar can hide the name.
    let mut x = left;
    for (_, label) in &c.refs {
        let ly = top - 4.0;
        let _ = writeln!(
            head,
            "<line class=\"ref\" x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\"/><text class=\"ref-label\" x=\"{3}\" y=\"{4}\">{5}</text>",
            n(x),
            n(ly),
            n(x + 24.0),
            n(x + 30.0),
            n(ly + 4.0),
            esc(label)
        );
        x += 40.0 + label.chars().count() as f64 * CHAR_W;
    }
    if !c.refs.is_empty() {
        top += 14.0;
    }
    let f = Frame {
        left,
        top,
        right: W - 16.0,
        bottom: top + 230.0,
    };
    let ph = f.bottom - f.top;
    let y = |v: f64| f.bottom - (v / c.axis.top).clamp(0.0, 1.0) * ph;
    let mut s = svg_open(f.bottom + 48.0, &c.title, &c.aria);
    s.push_str(&head);
    f.rows_grid(&mut s, &c.axis, &y);
    let gw = f.width() / c.categories.len().max(1) as f64;
    let ns = c.colours.len().max(1) as f64;
    let bw = (gw * 0.8 / ns).min(48.0);
    for (i, cat) in c.categories.iter().enumerate() {
        let gx = left + gw * i as f64 + (gw - bw * ns) / 2.0;
        for (j, bar) in c.values.get(i).into_iter().flatten().enumerate() {
            if let Some(b) = bar {
                let colour = c.colours.get(j).copied().unwrap_or(BLUE);
                vbar(&mut s, (gx + j as f64 * bw, bw), f.bottom, &y, colour, b);
            }
        }
        let _ = writeln!(
            s,
            "<text class=\"label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            n(left + gw * (i as f64 + 0.5)),
            n(f.bottom + 16.0),
            esc(&clip(cat, (gw / CHAR_W) as usize))
        );
    }
    for (v, _) in &c.refs {
        let _ = writeln!(
            s,
            "<line class=\"ref\" x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\"/>",
            n(f.left),
            n(y(*v)),
            n(f.right)
        );
    }
    f.axes(&mut s);
    f.y_labels(&mut s, &c.axis, &y);
    f.x_label(&mut s, &c.x_label);
    s.push_str("</svg>\n");
    s
}

/// One vertical bar at `bx`, `bw` wide: the bar, its whisker, its value above when it fits.
fn vbar(
    s: &mut String,
    (bx, bw): (f64, f64),
    bottom: f64,
    y: &dyn Fn(f64) -> f64,
    colour: &str,
    b: &Bar,
) {
    let cx = bx + bw / 2.0;
    let top = y(b.value);
    rect(
        s,
        (bx + 1.0, top, (bw - 2.0).max(1.0), bottom - top),
        colour,
        &b.tip,
    );
    let mut end = top;
    if let Some((lo, hi)) = b.ci {
        whisker(s, false, cx, y(lo), y(hi));
        end = end.min(y(hi));
    }
    if bw >= b.text.chars().count() as f64 * 6.2 {
        let _ = writeln!(
            s,
            "<text class=\"value\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            n(cx),
            n(end - 4.0),
            esc(&b.text)
        );
    }
}
