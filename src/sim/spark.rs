//! One-line histograms for the text report: how long games run, at a glance, in a terminal
//! (Unicode blocks) or anywhere else (plain ASCII characters).

use std::fmt::Write as _;

use super::stats::HIST;
use super::{Histogram, Stats};

/// The levels of a column, lowest first: eighths of a block for a terminal.
const BLOCKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
/// The same in plain ASCII, for a file or a pipe.
const PLAIN: [char; 7] = ['.', ':', '-', '=', '+', '*', '#'];

/// A histogram in one line of text: its smallest value, about `columns` columns, its largest
/// value. A column is a bin of equal width; its height is one of [`BLOCKS`] (`unicode`) or
/// [`PLAIN`], a blank is an empty bin, and the fullest bin is always the top level. `None`
/// when there is nothing to draw.
pub fn sparkline(h: &Histogram, columns: usize, unicode: bool) -> Option<String> {
    Some(sparkline_in(h, ends(h)?, columns, unicode))
}

/// The smallest and largest values of a histogram; `None` when it is empty.
fn ends(h: &Histogram) -> Option<(u64, u64)> {
    let lo = u64::from(*h.counts.keys().next()?);
    let hi = u64::from(*h.counts.keys().next_back()?);
    Some((lo, hi))
}

/// [`sparkline`] over the range `lo..=hi` (which holds every value of `h`), so that the lines
/// of two runs drawn over the same range line up column for column.
fn sparkline_in(h: &Histogram, (lo, hi): (u64, u64), columns: usize, unicode: bool) -> String {
    let span = hi - lo + 1;
    let width = span.div_ceil(columns.max(1) as u64);
    let mut bins = vec![0u64; span.div_ceil(width) as usize];
    for (v, c) in &h.counts {
        bins[((u64::from(*v) - lo) / width) as usize] += c;
    }
    let max = bins.iter().copied().max().unwrap_or(0).max(1);
    let levels: &[char] = if unicode { &BLOCKS } else { &PLAIN };
    let line: String = bins
        .iter()
        .map(|&c| {
            if c == 0 {
                ' '
            } else {
                // 1..=levels, rounded up: a bin with any game shows.
                let level = (u128::from(c) * levels.len() as u128).div_ceil(u128::from(max));
                levels[(level as usize).clamp(1, levels.len()) - 1]
            }
        })
        .collect();
    format!("{lo} {line} {}", top_value(hi))
}

/// The largest value of a histogram: its last bucket holds every longer game, so it reads `N+`.
pub(super) fn top_value(hi: u64) -> String {
    if hi >= HIST as u64 {
        format!("{hi}+")
    } else {
        hi.to_string()
    }
}

/// The text report's histograms of turns and rounds per game, a line each (nothing for a run
/// of no games).
pub fn text_histograms(st: &Stats, unicode: bool) -> String {
    let mut out = String::new();
    for (label, h) in [("turns", &st.turns), ("rounds", &st.rounds)] {
        if let Some(line) = sparkline(h, 30, unicode) {
            let _ = writeln!(out, "  {label:<6} {line}");
        }
    }
    out
}

/// A comparison's histograms of turns and rounds per game: for each, a line per run over
/// the range of both, so that the two line up (`names` label the runs).
pub fn text_histograms_of_two(a: &Stats, b: &Stats, names: [&str; 2], unicode: bool) -> String {
    let mut out = String::new();
    for (label, ha, hb) in [
        ("turns per game", &a.turns, &b.turns),
        ("rounds per game", &a.rounds, &b.rounds),
    ] {
        let range = match (ends(ha), ends(hb)) {
            (Some((la, ta)), Some((lb, tb))) => (la.min(lb), ta.max(tb)),
            (Some(r), None) | (None, Some(r)) => r,
            (None, None) => continue,
        };
        let _ = writeln!(out, "{label}");
        let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
        for (name, h) in [(names[0], ha), (names[1], hb)] {
            if h.n > 0 {
                let line = sparkline_in(h, range, 30, unicode);
                let _ = writeln!(out, "  {name:<width$}  {line}");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hist(values: &[(u32, u64)]) -> Histogram {
        Histogram::of(values)
    }

    #[test]
    fn sparklines_in_blocks_and_in_plain_characters() {
        let h = hist(&[(12, 1), (13, 4), (14, 8), (16, 2)]);
        assert_eq!(sparkline(&h, 30, true).as_deref(), Some("12 ▁▄█ ▂ 16"));
        assert_eq!(sparkline(&h, 30, false).as_deref(), Some("12 .=# : 16"));
        assert!(sparkline(&h, 30, false).is_some_and(|l| l.is_ascii()));
        // One value: one full column.
        let one = hist(&[(7, 3)]);
        assert_eq!(sparkline(&one, 30, true).as_deref(), Some("7 █ 7"));
        assert_eq!(sparkline(&one, 30, false).as_deref(), Some("7 # 7"));
        assert_eq!(sparkline(&Histogram::default(), 30, true), None);
    }

    #[test]
    fn wide_ranges_share_columns() {
        let wide = hist(&[(10, 1), (500, 3), (1000, 1)]);
        let line = sparkline(&wide, 30, false).expect("a line");
        let middle = line
            .strip_prefix("10 ")
            .and_then(|l| l.strip_suffix(" 1000"))
            .expect("the range at both ends");
        assert!(middle.chars().count() <= 30, "{line}");
        assert!(!middle.starts_with(' ') && !middle.ends_with(' '), "{line}");
        assert_eq!(middle.matches('#').count(), 1, "{line}");
        // A game stopped at the turn limit shares the last bucket: `N+`.
        let long = hist(&[(3, 1), (HIST as u32, 1)]);
        let line = sparkline(&long, 30, true).expect("a line");
        assert!(line.ends_with(&format!(" {HIST}+")), "{line}");
    }

    #[test]
    fn the_text_report_has_a_line_for_turns_and_one_for_rounds() {
        let mut st = Stats::new(2);
        for v in [10, 12, 12, 30] {
            st.turns.add(v);
        }
        for v in [1, 2, 2, 3] {
            st.rounds.add(v);
        }
        let plain = text_histograms(&st, false);
        let lines: Vec<&str> = plain.lines().collect();
        assert_eq!(lines.len(), 2, "{plain}");
        assert!(lines[0].starts_with("  turns  10 ") && lines[0].ends_with(" 30"));
        assert!(lines[1].starts_with("  rounds 1 ") && lines[1].ends_with(" 3"));
        assert!(plain.is_ascii());
        let unicode = text_histograms(&st, true);
        assert!(unicode.contains('█') && !unicode.contains('#'));
        assert_eq!(text_histograms(&Stats::new(2), true), "");
    }

    #[test]
    fn two_runs_line_up_over_the_range_of_both() {
        let a = Stats {
            turns: hist(&[(10, 1), (20, 4)]),
            rounds: hist(&[(2, 3)]),
            ..Stats::new(3)
        };
        let b = Stats {
            turns: hist(&[(15, 2), (40, 1)]),
            rounds: hist(&[(2, 1), (3, 2)]),
            ..Stats::new(3)
        };
        let text = text_histograms_of_two(&a, &b, ["A", "B"], false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "turns per game");
        assert_eq!(lines[3], "rounds per game");
        // The same range for both: 10 to 40.
        for l in &lines[1..3] {
            let words: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(words[1], "10", "{l}");
            assert_eq!(*words.last().expect("a top"), "40", "{l}");
        }
        assert_eq!(lines[1].len(), lines[2].len(), "{text}");
        assert!(
            lines[4].contains("2 ") && lines[5].ends_with(" 3"),
            "{text}"
        );
    }
}
