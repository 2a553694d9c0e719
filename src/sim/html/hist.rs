//! Histograms of games by length (turns or rounds per game): round bins, a bar per bin and
//! run as a share of games, and the mean, median and 95th percentile marked and labelled.

use std::fmt::Write as _;

use super::fmt::{esc, fx, games, mean_decimals, n, pct};
use super::svg::{Axis, Frame, legend, rect, svg_open, table};
use super::{CHAR_W, W};
use crate::sim::Histogram;
use crate::sim::spark::top_value;

/// At most this many bars in a histogram, over at least this many columns.
const MAX_BINS: u64 = 40;
const MIN_BINS: u64 = 10;

/// Integer bins for sparse histograms: a round width, at most [`MAX_BINS`] bins.
#[derive(Debug, Clone, Copy)]
struct Bins {
    start: u64,
    width: u64,
    count: u64,
}

impl Bins {
    /// Bins that hold every value of every histogram; `None` when they hold none.
    fn of(hists: &[&Histogram]) -> Option<Bins> {
        let lo = u64::from(*hists.iter().filter_map(|h| h.counts.keys().next()).min()?);
        let hi = u64::from(
            *hists
                .iter()
                .filter_map(|h| h.counts.keys().next_back())
                .max()?,
        );
        // 1, 2, 5, 10, 20, 25, 50, 100, ...
        let mut widths = Vec::new();
        let mut mag = 1u64;
        while widths.len() < 40 {
            widths.extend([mag, 2 * mag, 5 * mag]);
            if mag >= 10 {
                widths.push(25 * mag / 10);
            }
            mag *= 10;
        }
        widths.sort_unstable();
        let bins = widths.into_iter().find_map(|width| {
            let start = lo / width * width;
            let count = (hi - start) / width + 1;
            (count <= MAX_BINS).then_some(Bins {
                start,
                width,
                count,
            })
        })?;
        // A few values spread over at least ten columns, so one bar is not a wall.
        Some(if bins.count < MIN_BINS {
            let start = bins.start.saturating_sub((MIN_BINS - bins.count) / 2);
            Bins {
                start,
                count: MIN_BINS,
                ..bins
            }
        } else {
            bins
        })
    }

    /// The games of a histogram in each bin.
    fn counts(&self, h: &Histogram) -> Vec<u64> {
        let mut bins = vec![0; self.count as usize];
        for (v, c) in &h.counts {
            let i = (u64::from(*v).saturating_sub(self.start) / self.width) as usize;
            if let Some(b) = bins.get_mut(i) {
                *b += c;
            }
        }
        bins
    }

    /// The values of the `i`-th bin, for people: `12` or `10–19` (the last bucket `N+`).
    fn label(&self, i: u64) -> String {
        let a = self.start + i * self.width;
        let b = a + self.width - 1;
        if self.width == 1 {
            top_value(a)
        } else {
            format!("{a}–{}", top_value(b.min(crate::sim::stats::HIST as u64)))
        }
    }
}

/// One series of a histogram chart: a run's histogram, its tag (`A`, `B` or none) and colour.
#[derive(Debug)]
pub(super) struct HistSeries<'a> {
    pub(super) tag: &'static str,
    pub(super) colour: &'static str,
    pub(super) h: &'a Histogram,
}

impl HistSeries<'_> {
    /// The tag and a space, or nothing for a single run.
    fn prefix(&self) -> String {
        if self.tag.is_empty() {
            String::new()
        } else {
            format!("{} ", self.tag)
        }
    }
}

/// How a histogram chart is laid out: its bins, the plot area, the value axis.
#[derive(Debug)]
struct Layout {
    bins: Bins,
    f: Frame,
    axis: Axis,
}

impl Layout {
    /// Where a value of the histogram is across (the middle of its bin).
    fn pos(&self, v: f64) -> f64 {
        let span = (self.bins.count * self.bins.width) as f64;
        self.f.left + ((v - self.bins.start as f64 + 0.5) / span).clamp(0.0, 1.0) * self.f.width()
    }

    /// Where a share of games is up.
    fn y(&self, v: f64) -> f64 {
        self.f.bottom - (v / self.axis.top).clamp(0.0, 1.0) * (self.f.bottom - self.f.top)
    }
}

/// A histogram of games by length, as a share of games, with the mean, median and 95th
/// percentile of each series: the chart and the table of its numbers.
pub(super) fn histogram(
    title: &str,
    unit: &str,
    series: &[HistSeries],
    legend_items: &[(String, &'static str)],
) -> (String, String) {
    let hists: Vec<&Histogram> = series.iter().map(|s| s.h).collect();
    let Some(bins) = Bins::of(&hists) else {
        return (
            "<p class=\"note\">No games were played.</p>\n".into(),
            String::new(),
        );
    };
    let counts: Vec<Vec<u64>> = series.iter().map(|s| bins.counts(s.h)).collect();
    let shares: Vec<Vec<f64>> = series
        .iter()
        .zip(&counts)
        .map(|(s, c)| c.iter().map(|k| pct(*k as f64, s.h.n as f64)).collect())
        .collect();
    let max = shares.iter().flatten().copied().fold(0.0, f64::max);
    let (legend_svg, legend_h) = legend(legend_items, 70.0, 6.0);
    let marks_top = 10.0 + legend_h;
    let top = marks_top + (3 * series.len()) as f64 * 15.0 + 4.0;
    let l = Layout {
        bins,
        f: Frame {
            left: 70.0,
            top,
            right: W - 16.0,
            bottom: top + 220.0,
        },
        axis: Axis::new(max, "%", "share of games"),
    };
    let y = |v: f64| l.y(v);
    let mut s = svg_open(l.f.bottom + 48.0, title, &aria(unit, &l, series));
    s.push_str(&legend_svg);
    l.f.rows_grid(&mut s, &l.axis, &y);
    let bin_w = l.f.width() / bins.count as f64;
    let sub = (bin_w - 2.0).max(1.0) / series.len().max(1) as f64;
    for (j, (sr, sh)) in series.iter().zip(&shares).enumerate() {
        for (i, (share, count)) in sh.iter().zip(&counts[j]).enumerate() {
            if *count == 0 {
                continue;
            }
            let x = l.f.left + i as f64 * bin_w + 1.0 + j as f64 * sub;
            let tip = format!(
                "{}{} {unit}: {} ({})",
                sr.prefix(),
                bins.label(i as u64),
                games(*count),
                share_text(*count, *share)
            );
            rect(
                &mut s,
                (x, y(*share), sub.max(0.5), l.f.bottom - y(*share)),
                sr.colour,
                &tip,
            );
        }
    }
    marks(&mut s, &l, marks_top, unit, series);
    l.f.axes(&mut s);
    l.f.y_labels(&mut s, &l.axis, &y);
    bin_ticks(&mut s, &l);
    let per_bin = if bins.width > 1 {
        format!(" (bins of {})", bins.width)
    } else {
        String::new()
    };
    l.f.x_label(&mut s, &format!("{unit} per game{per_bin}"));
    s.push_str("</svg>\n");
    (s, numbers(unit, bins, series, &counts, &shares))
}

/// What the chart shows, for a screen reader.
fn aria(unit: &str, l: &Layout, series: &[HistSeries]) -> String {
    let each: Vec<String> = series
        .iter()
        .map(|s| {
            format!(
                "{}mean {}, median {}, 95th percentile {} {unit}",
                if s.tag.is_empty() {
                    String::new()
                } else {
                    format!("{}: ", s.tag)
                },
                fx(s.h.mean(), mean_decimals(unit)),
                s.h.quantile(0.5),
                s.h.quantile(0.95)
            )
        })
        .collect();
    format!(
        "Histogram of {unit} per game in bins of {}: {}",
        l.bins.width,
        each.join("; ")
    )
}

/// Mean (solid), median (dashed) and 95th percentile (dotted) of each series: a line down the
/// chart, labelled on a row of its own above it.
fn marks(s: &mut String, l: &Layout, marks_top: f64, unit: &str, series: &[HistSeries]) {
    let mut row = 0;
    for sr in series {
        let (median, p95) = (sr.h.quantile(0.5), sr.h.quantile(0.95));
        let marks = [
            (
                "mean",
                sr.h.mean(),
                fx(sr.h.mean(), mean_decimals(unit)),
                "",
            ),
            (
                "median",
                f64::from(median),
                median.to_string(),
                " stroke-dasharray=\"7 4\"",
            ),
            (
                "95th percentile",
                f64::from(p95),
                p95.to_string(),
                " stroke-dasharray=\"2 3\"",
            ),
        ];
        for (name, v, text, dash) in marks {
            let x = l.pos(v);
            let ly = marks_top + row as f64 * 15.0 + 10.0;
            let label = format!("{}{name} {text}", sr.prefix());
            // Written leftwards when it would run off the right edge.
            let room = l.f.right - x - 4.0;
            let (anchor, tx) = if room < label.chars().count() as f64 * CHAR_W {
                ("end", x - 4.0)
            } else {
                ("start", x + 4.0)
            };
            let _ = writeln!(
                s,
                "<line class=\"mark\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"{3}\"{dash}/><text class=\"mark-label\" x=\"{4}\" y=\"{5}\" text-anchor=\"{anchor}\">{6}</text>",
                n(x),
                n(ly - 10.0),
                n(l.f.bottom),
                sr.colour,
                n(tx),
                n(ly),
                esc(&label)
            );
            row += 1;
        }
    }
}

/// A labelled tick every few bins, at the first value of the bin.
fn bin_ticks(s: &mut String, l: &Layout) {
    let every = [1u64, 2, 4, 5, 10]
        .into_iter()
        .find(|k| l.bins.count.div_ceil(*k) <= 10)
        .unwrap_or(10);
    for i in (0..l.bins.count).step_by(every as usize) {
        let v = l.bins.start + i * l.bins.width;
        let _ = writeln!(
            s,
            "<line class=\"axis\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/><text class=\"tick\" x=\"{0}\" y=\"{3}\" text-anchor=\"middle\">{v}</text>",
            n(l.pos(v as f64)),
            n(l.f.bottom),
            n(l.f.bottom + 4.0),
            n(l.f.bottom + 16.0)
        );
    }
}

/// A share of games for people: `12.3%`, or `<0.1%` for a few games that would read as none.
fn share_text(count: u64, share: f64) -> String {
    if count > 0 && share < 0.05 {
        "<0.1%".into()
    } else {
        format!("{}%", fx(share, 1))
    }
}

/// The table under a histogram: every bin that holds a game, its games and share per series.
fn numbers(
    unit: &str,
    bins: Bins,
    series: &[HistSeries],
    counts: &[Vec<u64>],
    shares: &[Vec<f64>],
) -> String {
    let mut head = vec![esc(unit)];
    for sr in series {
        head.push(format!("{}games", sr.prefix()));
        head.push(format!("{}share", sr.prefix()));
    }
    let rows: Vec<Vec<String>> = (0..bins.count as usize)
        .filter(|i| counts.iter().any(|c| c[*i] > 0))
        .map(|i| {
            let mut r = vec![bins.label(i as u64)];
            for (c, sh) in counts.iter().zip(shares) {
                r.push(c[i].to_string());
                r.push(share_text(c[i], sh[i]));
            }
            r
        })
        .collect();
    table(&head, &rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hist(values: &[(u32, u64)]) -> Histogram {
        Histogram::of(values)
    }

    #[test]
    fn bins_are_round_and_few() {
        let h = hist(&[(7, 1), (330, 1)]);
        let b = Bins::of(&[&h]).expect("bins");
        assert_eq!((b.start, b.width, b.count), (0, 10, 34));
        assert_eq!(b.label(1), "10–19");
        let h = hist(&[(5, 1), (9, 1)]);
        let b = Bins::of(&[&h]).expect("bins");
        assert_eq!(
            (b.start, b.width, b.count),
            (3, 1, 10),
            "padded to ten columns"
        );
        assert_eq!(b.counts(&h), [0, 0, 1, 0, 0, 0, 1, 0, 0, 0]);
        assert!(Bins::of(&[&Histogram::default()]).is_none());
    }

    #[test]
    fn a_histogram_draws_a_bar_per_bin_with_games() {
        let h = hist(&[(5, 2), (9, 1)]);
        let series = [HistSeries {
            tag: "",
            colour: "#000",
            h: &h,
        }];
        let (svg, table) = histogram("t", "turns", &series, &[]);
        assert_eq!(svg.matches("<rect class=\"bar\"").count(), 2);
        assert_eq!(table.matches("<tr>").count(), 3, "a header and two bins");
        assert!(svg.contains(">mean 6.3<"), "{svg}");
        assert!(svg.contains(">median 5<") && svg.contains(">95th percentile 9<"));
        assert_eq!(share_text(2, 0.01), "<0.1%");
        assert_eq!(share_text(0, 0.0), "0.0%");
        assert_eq!(share_text(3, 12.34), "12.3%");
    }
}
