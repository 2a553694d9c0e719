//! Numbers and text for the page: HTML escaping, coordinates, figures for people, round axes,
//! and the few sums of a run every figure reads (a seat's wins, a bot's, chips lost by cause).

use std::collections::BTreeMap;

use crate::sim::{Config, Histogram, Stats, WIN_UNIT};

/// HTML-escapes text for an element or a quoted attribute (the judge's page uses it too).
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A coordinate: one decimal, no `.0`, no `-0`.
pub(super) fn n(x: f64) -> String {
    let s = format!("{:.1}", if x.abs() < 0.05 { 0.0 } else { x });
    match s.strip_suffix(".0") {
        Some(t) => t.to_string(),
        None => s,
    }
}

/// A number for people, with `d` decimals.
pub(super) fn fx(x: f64, d: usize) -> String {
    let x = if x.abs() < 0.5 * 10f64.powi(-(d as i32)) {
        0.0
    } else {
        x
    };
    format!("{x:.d$}")
}

/// A signed difference, with a true minus sign.
pub(super) fn diff(x: f64, d: usize) -> String {
    let s = fx(x, d);
    if let Some(t) = s.strip_prefix('-') {
        format!("−{t}")
    } else if s.chars().all(|c| c == '0' || c == '.') {
        s
    } else {
        format!("+{s}")
    }
}

/// Text cut to about `chars` characters, for a label in a chart (the table has it whole).
pub(super) fn clip(s: &str, chars: usize) -> String {
    if s.chars().count() <= chars {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(chars.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

/// A round axis from 0 to at least `max`, with about five steps.
pub(super) fn nice_axis(max: f64) -> (f64, f64) {
    let max = if max.is_finite() && max > 0.0 {
        max
    } else {
        1.0
    };
    let raw = max / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw * 0.999)
        .unwrap_or(10.0 * mag);
    let top = ((max / step) - 1e-9).ceil().max(1.0) * step;
    (top, step)
}

/// How many decimals the ticks of a step need.
pub(super) fn step_decimals(step: f64) -> usize {
    (0..4)
        .find(|d| {
            let scaled = step * 10f64.powi(*d as i32);
            (scaled - scaled.round()).abs() < 1e-6
        })
        .unwrap_or(3)
}

/// The seat's bot.
pub(super) fn bot_of(cfg: &Config, seat: usize) -> &str {
    cfg.bots
        .get(seat % cfg.bots.len().max(1))
        .map_or("", String::as_str)
}

/// Shares of wins of a seat, as a number of games.
pub(super) fn won(st: &Stats, seat: usize) -> f64 {
    st.wins.get(seat).copied().unwrap_or(0) as f64 / WIN_UNIT as f64
}

/// Every bot of a run with its win shares and the seat-games it played, by name.
pub(super) fn bots(cfg: &Config, st: &Stats) -> BTreeMap<String, (f64, f64)> {
    let mut by: BTreeMap<String, (f64, f64)> = BTreeMap::new();
    for seat in 0..st.wins.len() {
        let e = by
            .entry(bot_of(cfg, seat).to_string())
            .or_insert((0.0, 0.0));
        e.0 += won(st, seat);
        e.1 += st.games as f64;
    }
    by
}

/// Means of turns with one decimal, of rounds (fewer, smaller) with two, as in the text report.
pub(super) fn mean_decimals(unit: &str) -> usize {
    if unit == "rounds" { 2 } else { 1 }
}

pub(super) fn games(k: u64) -> String {
    if k == 1 {
        "1 game".into()
    } else {
        format!("{k} games")
    }
}

pub(super) fn pct(k: f64, total: f64) -> f64 {
    if total > 0.0 { 100.0 * k / total } else { 0.0 }
}

/// The 95% confidence interval of a histogram's mean.
pub(super) fn mean_ci(h: &Histogram) -> Option<(f64, f64)> {
    (h.n >= 2).then(|| {
        let half = 1.96 * (h.variance() / h.n as f64).sqrt();
        (h.mean() - half, h.mean() + half)
    })
}

pub(super) fn chips_lost(st: &Stats, cause: &str) -> f64 {
    st.chips_lost.get(cause).copied().unwrap_or(0) as f64 / st.rounds.sum.max(1) as f64
}

pub(super) const CAUSES: [(&str, &str); 4] = [
    ("bust", "busts"),
    ("passed", "bars passed"),
    ("reached", "exact hits"),
    ("other", "other rules"),
];

pub(super) fn ordinal(i: usize) -> String {
    let suffix = match (i % 10, i % 100) {
        (1, n) if n != 11 => "st",
        (2, n) if n != 12 => "nd",
        (3, n) if n != 13 => "rd",
        _ => "th",
    };
    format!("{i}{suffix}")
}

pub(super) fn badge(significant: bool) -> &'static str {
    if significant {
        " <span class=\"badge\">beyond chance</span>"
    } else {
        " <span class=\"within\">within chance</span>"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_are_round() {
        let close =
            |(a, b): (f64, f64), (x, y): (f64, f64)| (a - x).abs() < 1e-9 && (b - y).abs() < 1e-9;
        assert!(close(nice_axis(37.0), (40.0, 10.0)));
        assert!(close(nice_axis(0.42), (0.5, 0.1)));
        assert!(close(nice_axis(12.0), (12.5, 2.5)));
        assert!(close(nice_axis(0.0), (1.0, 0.2)));
        assert!(close(nice_axis(f64::NAN), (1.0, 0.2)));
        assert_eq!(step_decimals(2.5), 1);
        assert_eq!(step_decimals(20.0), 0);
    }

    #[test]
    fn numbers_and_text_for_people() {
        assert_eq!(
            esc("<a href='x'>&\"</a>"),
            "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;"
        );
        assert_eq!(n(12.0), "12");
        assert_eq!(n(-0.01), "0");
        assert_eq!(n(3.26), "3.3");
        assert_eq!(fx(-0.0001, 2), "0.00");
        assert_eq!(diff(-1.5, 1), "−1.5");
        assert_eq!(diff(1.5, 1), "+1.5");
        assert_eq!(diff(0.001, 1), "0.0");
        assert_eq!(clip("abcdef", 4), "abc…");
        assert_eq!(clip("abc", 4), "abc");
        assert_eq!(
            [1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(ordinal),
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"
            ]
        );
        assert_eq!(games(1), "1 game");
        assert_eq!(pct(1.0, 0.0), 0.0);
    }
}
