//! The primitives every chart is drawn with: the frame of an SVG chart, its legend, an axis
//! and its ticks, gridlines, whiskers; and the HTML around a chart (a figure with its caption
//! and the table of the numbers behind it).

use std::fmt::Write as _;

use super::fmt::{esc, fx, n, nice_axis, step_decimals};
use super::{CHAR_W, W};

/// A bar, with its 95% interval, the text by its end and a tooltip (plain text, escaped when
/// drawn).
#[derive(Debug)]
pub(super) struct Bar {
    pub(super) value: f64,
    pub(super) ci: Option<(f64, f64)>,
    pub(super) text: String,
    pub(super) tip: String,
}

/// A value axis from 0 to `top` in steps of `step`, each tick with `unit` after it.
#[derive(Debug)]
pub(super) struct Axis {
    pub(super) top: f64,
    pub(super) step: f64,
    pub(super) unit: &'static str,
    pub(super) label: String,
}

impl Axis {
    /// A round axis from 0 to at least `max`.
    pub(super) fn new(max: f64, unit: &'static str, label: &str) -> Self {
        let (top, step) = nice_axis(max);
        Self {
            top,
            step,
            unit,
            label: label.into(),
        }
    }

    /// A round axis of percentages, never past 100%.
    pub(super) fn percent(max: f64, label: &str) -> Self {
        let mut a = Self::new(max, "%", label);
        if a.top > 100.0 {
            a.top = 100.0;
            a.step = 20.0;
        }
        a
    }

    /// Each tick's value and its label.
    pub(super) fn ticks(&self) -> Vec<(f64, String)> {
        let d = step_decimals(self.step);
        let count = (self.top / self.step + 1e-6).floor() as usize;
        (0..=count)
            .map(|i| {
                let v = i as f64 * self.step;
                (v, format!("{}{}", fx(v, d), self.unit))
            })
            .collect()
    }
}

/// The opening of a chart: its size, its title (a tooltip) and its text for screen readers.
pub(super) fn svg_open(h: f64, title: &str, aria: &str) -> String {
    format!(
        "<svg class=\"chart\" viewBox=\"0 0 {W} {}\" width=\"{W}\" height=\"{}\" role=\"img\" aria-label=\"{}\">\n<title>{}</title>\n",
        n(h),
        n(h),
        esc(aria),
        esc(title)
    )
}

/// A legend laid out in rows from `y`: swatches and names. Returns the SVG and its height.
pub(super) fn legend(items: &[(String, &str)], x0: f64, y: f64) -> (String, f64) {
    if items.is_empty() {
        return (String::new(), 0.0);
    }
    let mut s = String::from("<g class=\"legend\">\n");
    let (mut x, mut row) = (x0, 0.0);
    for (text, colour) in items {
        let w = 18.0 + text.chars().count() as f64 * CHAR_W + 18.0;
        if x + w > W - 8.0 && x > x0 {
            x = x0;
            row += 20.0;
        }
        swatch(&mut s, x, y + row, colour, text);
        x += w;
    }
    s.push_str("</g>\n");
    (s, row + 22.0)
}

/// A square of colour and its name.
pub(super) fn swatch(s: &mut String, x: f64, y: f64, colour: &str, text: &str) {
    let _ = writeln!(
        s,
        "<rect class=\"swatch\" x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{colour}\"/><text x=\"{}\" y=\"{}\">{}</text>",
        n(x),
        n(y),
        n(x + 17.0),
        n(y + 10.5),
        esc(text)
    );
}

/// The plot area of a chart, in SVG units.
#[derive(Debug, Clone, Copy)]
pub(super) struct Frame {
    pub(super) left: f64,
    pub(super) top: f64,
    pub(super) right: f64,
    pub(super) bottom: f64,
}

impl Frame {
    pub(super) fn width(&self) -> f64 {
        self.right - self.left
    }

    /// The axes: up the left side and along the bottom.
    pub(super) fn axes(&self, s: &mut String) {
        let _ = writeln!(
            s,
            "<line class=\"axis\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/><line class=\"axis\" x1=\"{0}\" y1=\"{2}\" x2=\"{3}\" y2=\"{2}\"/>",
            n(self.left),
            n(self.top),
            n(self.bottom),
            n(self.right)
        );
    }

    /// Horizontal gridlines at the ticks of a vertical axis, `y` placing a value.
    pub(super) fn rows_grid(&self, s: &mut String, axis: &Axis, y: &dyn Fn(f64) -> f64) {
        s.push_str("<g class=\"gridlines\">\n");
        for (v, _) in axis.ticks() {
            let _ = writeln!(
                s,
                "<line class=\"grid\" x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\"/>",
                n(self.left),
                n(y(v)),
                n(self.right)
            );
        }
        s.push_str("</g>\n");
    }

    /// The tick labels of a vertical axis and its name, written upwards at the left.
    pub(super) fn y_labels(&self, s: &mut String, axis: &Axis, y: &dyn Fn(f64) -> f64) {
        for (v, label) in axis.ticks() {
            let _ = writeln!(
                s,
                "<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{label}</text>",
                n(self.left - 6.0),
                n(y(v) + 4.0)
            );
        }
        let mid = (self.top + self.bottom) / 2.0;
        let _ = writeln!(
            s,
            "<text class=\"axis-label\" x=\"16\" y=\"{0}\" text-anchor=\"middle\" transform=\"rotate(-90 16 {0})\">{1}</text>",
            n(mid),
            esc(&axis.label)
        );
    }

    /// The name of the horizontal axis, under its ticks.
    pub(super) fn x_label(&self, s: &mut String, label: &str) {
        let _ = writeln!(
            s,
            "<text class=\"axis-label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            n((self.left + self.right) / 2.0),
            n(self.bottom + 38.0),
            esc(label)
        );
    }
}

/// A bar: a rectangle with its tooltip.
pub(super) fn rect(s: &mut String, (x, y, w, h): (f64, f64, f64, f64), fill: &str, tip: &str) {
    let _ = writeln!(
        s,
        "<rect class=\"bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\"><title>{}</title></rect>",
        n(x),
        n(y),
        n(w.max(0.0)),
        n(h.max(0.0)),
        esc(tip)
    );
}

/// An interval's whisker across `from`..`to` at `at`, with caps: along x when `horizontal`.
pub(super) fn whisker(s: &mut String, horizontal: bool, at: f64, from: f64, to: f64) {
    let (a, f, t) = (n(at), n(from), n(to));
    let (lo, hi) = (n(at - 5.0), n(at + 5.0));
    let _ = if horizontal {
        writeln!(
            s,
            "<path class=\"whisker\" d=\"M{f} {a}H{t}M{f} {lo}V{hi}M{t} {lo}V{hi}\"/>"
        )
    } else {
        writeln!(
            s,
            "<path class=\"whisker\" d=\"M{a} {f}V{t}M{lo} {f}H{hi}M{lo} {t}H{hi}\"/>"
        )
    };
}

/// A figure: its title and a line on how to read it (both HTML), the chart, the table under it.
pub(super) fn figure(id: &str, title: &str, how: &str, svg: &str, table: &str) -> String {
    format!(
        "<figure id=\"{id}\">\n<figcaption><strong>{title}</strong><span class=\"how\">{how}</span></figcaption>\n{svg}{table}</figure>\n"
    )
}

/// A table of numbers: the header and the cells are HTML; the first cell of a row heads it.
pub(super) fn table(head: &[String], rows: &[Vec<String>]) -> String {
    let mut t = String::from("<table class=\"data\">\n<thead><tr>");
    for h in head {
        let _ = write!(t, "<th scope=\"col\">{h}</th>");
    }
    t.push_str("</tr></thead>\n<tbody>\n");
    for row in rows {
        t.push_str("<tr>");
        for (i, c) in row.iter().enumerate() {
            if i == 0 {
                let _ = write!(t, "<th scope=\"row\">{c}</th>");
            } else {
                let _ = write!(t, "<td>{c}</td>");
            }
        }
        t.push_str("</tr>\n");
    }
    t.push_str("</tbody>\n</table>\n");
    t
}
