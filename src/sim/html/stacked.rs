//! Stacked bars of shares: for each seat, the share of games it went out first, second, …
//! or never, in one bar from 0 to 100%.

use std::fmt::Write as _;

use super::fmt::{clip, esc, fx, n, ordinal};
use super::svg::{legend, rect, svg_open};
use super::{BLUE, CHAR_W, W};

/// A row of a stacked chart: its label, its shares (percent) by place.
pub(super) type StackRow = (String, Vec<f64>);

/// How the rows of a stacked chart are laid out: a line of text over them (which run is
/// which, for two), and how many rows make a group (a seat's rows, drawn close together).
#[derive(Debug, Default)]
pub(super) struct Grouping {
    pub(super) note: Option<String>,
    pub(super) rows_per_group: usize,
}

/// Per row, a stacked bar of shares (percent) by place, coloured from the earliest out
/// (darkest) to never out (blue).
pub(super) fn stacked(
    (title, aria): (&str, &str),
    places: usize,
    grouping: &Grouping,
    rows: &[StackRow],
) -> String {
    // Room for the longest label, within reason (a longer one is clipped; the table has it).
    let longest = rows
        .iter()
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(0);
    let left = (longest as f64 * CHAR_W + 16.0).clamp(150.0, 260.0);
    let pw = W - left - 24.0;
    let colours = place_colours(places);
    let items: Vec<(String, &str)> = colours
        .iter()
        .enumerate()
        .map(|(p, (fill, _))| (place_name(p, places), *fill))
        .collect();
    let (mut head, legend_h) = legend(&items, left, 6.0);
    let mut top = 12.0 + legend_h;
    // Which run is which (colours here are places, so the names are written out).
    if let Some(note) = &grouping.note {
        let _ = writeln!(
            head,
            "<text class=\"names\" x=\"{}\" y=\"{}\">{}</text>",
            n(left),
            n(top + 2.0),
            esc(note)
        );
        top += 22.0;
    }
    let per_seat = grouping.rows_per_group.max(1);
    let pitch = if per_seat > 1 { 24.0 } else { 28.0 };
    let gap = if per_seat > 1 { 10.0 } else { 0.0 };
    let row_y = |i: usize| top + 4.0 + i as f64 * pitch + (i / per_seat) as f64 * gap;
    let bottom = row_y(rows.len()) + 4.0 - gap;
    let xs = |v: f64| left + (v / 100.0).clamp(0.0, 1.0) * pw;
    let mut s = svg_open(bottom + 46.0, title, aria);
    s.push_str(&head);
    for (i, row) in rows.iter().enumerate() {
        stack(&mut s, row_y(i), row, &colours, &xs);
    }
    let _ = writeln!(
        s,
        "<line class=\"axis\" x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\"/>",
        n(left),
        n(bottom),
        n(left + pw)
    );
    for v in [0.0, 20.0, 40.0, 60.0, 80.0, 100.0] {
        let _ = writeln!(
            s,
            "<line class=\"axis\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/><text class=\"tick\" x=\"{0}\" y=\"{3}\" text-anchor=\"middle\">{4}%</text>",
            n(xs(v)),
            n(bottom),
            n(bottom + 4.0),
            n(bottom + 16.0),
            fx(v, 0)
        );
    }
    let _ = writeln!(
        s,
        "<text class=\"axis-label\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">share of games</text>",
        n(left + pw / 2.0),
        n(bottom + 36.0)
    );
    s.push_str("</svg>\n");
    s
}

/// One row at height `by`: its label, then a segment per place with its share written in it
/// when it fits.
fn stack(
    s: &mut String,
    by: f64,
    (text, shares): &StackRow,
    colours: &[(&str, &str)],
    xs: &dyn Fn(f64) -> f64,
) {
    const BH: f64 = 20.0;
    let _ = writeln!(
        s,
        "<text class=\"label\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
        n(xs(0.0) - 8.0),
        n(by + BH / 2.0 + 4.0),
        esc(&clip(text, ((xs(0.0) - 12.0) / CHAR_W) as usize))
    );
    let places = shares.len();
    let mut acc = 0.0;
    for (p, share) in shares.iter().enumerate() {
        let (fill, ink) = colours.get(p).copied().unwrap_or((BLUE, "#fff"));
        let (x0, x1) = (xs(acc), xs(acc + share));
        let tip = format!("{text}: {} {}%", place_name(p, places), fx(*share, 1));
        rect(s, (x0, by, x1 - x0, BH), fill, &tip);
        // One decimal as in the table when it fits, else a whole number, else nothing.
        let fits = |l: &String| x1 - x0 >= l.len() as f64 * 6.2 + 4.0;
        let label = Some(format!("{}%", fx(*share, 1)))
            .filter(fits)
            .or_else(|| Some(format!("{}%", fx(*share, 0))).filter(fits));
        if let Some(label) = label {
            let _ = writeln!(
                s,
                "<text class=\"in-bar\" x=\"{}\" y=\"{}\" text-anchor=\"middle\" style=\"fill:{ink}\">{label}</text>",
                n((x0 + x1) / 2.0),
                n(by + BH / 2.0 + 4.0)
            );
        }
        acc += share;
    }
}

/// `1st out`, `2nd out`, …, and the last place: `never out`.
pub(super) fn place_name(p: usize, places: usize) -> String {
    if p + 1 >= places {
        "never out".into()
    } else {
        format!("{} out", ordinal(p + 1))
    }
}

/// Colours for places, with the ink for text on them: out places from dark to light orange
/// (earlier is darker, so it reads in grey too), never out in blue.
fn place_colours(places: usize) -> Vec<(&'static str, &'static str)> {
    const RAMP: [&str; 11] = [
        "#7F2704", "#8C2D04", "#A63603", "#C04A03", "#D94801", "#E8600A", "#F16913", "#F7852F",
        "#FD8D3C", "#FDAE6B", "#FDD0A2",
    ];
    let outs = places.saturating_sub(1);
    let mut v: Vec<(&str, &str)> = (0..outs)
        .map(|i| {
            let k = if outs <= 1 {
                4
            } else {
                (i * (RAMP.len() - 1)) / (outs - 1)
            };
            (RAMP[k], if k < 7 { "#fff" } else { "#1a1a1a" })
        })
        .collect();
    v.push((BLUE, "#fff"));
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_named_and_coloured_from_dark_to_blue() {
        assert_eq!(place_name(0, 3), "1st out");
        assert_eq!(place_name(1, 3), "2nd out");
        assert_eq!(place_name(2, 3), "never out");
        let c = place_colours(4);
        assert_eq!(c.len(), 4);
        assert_eq!(c[0].0, "#7F2704");
        assert_eq!(c[3].0, BLUE);
    }

    #[test]
    fn a_segment_per_place_and_row() {
        let rows = vec![
            ("seat 0".to_string(), vec![50.0, 30.0, 20.0]),
            ("seat 1".to_string(), vec![20.0, 30.0, 50.0]),
        ];
        let svg = stacked(("t", "a"), 3, &Grouping::default(), &rows);
        assert_eq!(svg.matches("<rect class=\"bar\"").count(), 6);
        assert!(svg.contains(">50.0%<"));
    }
}
