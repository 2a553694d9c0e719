//! The report: figures derived from the sums (intervals, means, quantiles), in words, and two
//! runs compared with tests of significance.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::spark::{text_histograms, text_histograms_of_two};
use super::{Config, Histogram, Stats, WIN_UNIT};
use crate::engine::TURN_LIMIT;

/// A 95% Wilson interval for `k` successes in `n` trials, in percent.
pub fn wilson(k: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 0.0);
    }
    let z = 1.96;
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = p + z * z / (2.0 * n);
    let margin = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    (
        100.0 * (centre - margin) / denom,
        100.0 * (centre + margin) / denom,
    )
}

/// The figures a report shows, computed from the sums.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Figures {
    pub games: u64,
    pub win_pct: Vec<f64>,
    pub win_ci: Vec<(f64, f64)>,
    pub wins_by_bot: BTreeMap<String, f64>,
    pub turns_mean: f64,
    pub turns_median: u32,
    pub turns_p95: u32,
    pub rounds_mean: f64,
    pub rounds_median: u32,
    pub rounds_p95: u32,
    pub chips_lost_per_round: f64,
    pub chips_lost_per_round_by_why: BTreeMap<String, f64>,
    pub bars_reached_per_game: BTreeMap<i32, f64>,
    pub bars_passed_per_game: BTreeMap<i32, f64>,
    pub forced_busts_per_game: f64,
    pub chosen_busts_per_game: f64,
    /// Per seat, the share of games it left in each place (the last: never out), percent.
    pub elimination_pct: Vec<Vec<f64>>,
    pub turn_limited: u64,
    pub failed: u64,
}

pub fn figures(cfg: &Config, st: &Stats) -> Figures {
    let n = st.games.max(1) as f64;
    let rounds = st.rounds.sum.max(1) as f64;
    let win_pct: Vec<f64> = st
        .wins
        .iter()
        .map(|w| 100.0 * (*w as f64) / (WIN_UNIT as f64) / n)
        .collect();
    let win_ci = st
        .wins
        .iter()
        .map(|w| wilson(*w as f64 / WIN_UNIT as f64, st.games as f64))
        .collect();
    let mut wins_by_bot: BTreeMap<String, (f64, f64)> = BTreeMap::new();
    for (seat, w) in st.wins.iter().enumerate() {
        let bot = cfg
            .bots
            .get(seat % cfg.bots.len().max(1))
            .cloned()
            .unwrap_or_default();
        let e = wins_by_bot.entry(bot).or_insert((0.0, 0.0));
        e.0 += *w as f64 / WIN_UNIT as f64;
        e.1 += n;
    }
    let total_lost: u64 = st.chips_lost.values().sum();
    Figures {
        games: st.games,
        win_pct,
        win_ci,
        wins_by_bot: wins_by_bot
            .into_iter()
            .map(|(k, (w, g))| (k, 100.0 * w / g))
            .collect(),
        turns_mean: st.turns.mean(),
        turns_median: st.turns.quantile(0.5),
        turns_p95: st.turns.quantile(0.95),
        rounds_mean: st.rounds.mean(),
        rounds_median: st.rounds.quantile(0.5),
        rounds_p95: st.rounds.quantile(0.95),
        chips_lost_per_round: total_lost as f64 / rounds,
        chips_lost_per_round_by_why: st
            .chips_lost
            .iter()
            .map(|(k, v)| (k.clone(), *v as f64 / rounds))
            .collect(),
        bars_reached_per_game: st
            .bar_reached
            .iter()
            .map(|(k, v)| (*k, *v as f64 / n))
            .collect(),
        bars_passed_per_game: st
            .bar_passed
            .iter()
            .map(|(k, v)| (*k, *v as f64 / n))
            .collect(),
        forced_busts_per_game: st.forced_busts as f64 / n,
        chosen_busts_per_game: st.chosen_busts as f64 / n,
        elimination_pct: st
            .elimination
            .iter()
            .map(|row| row.iter().map(|c| 100.0 * *c as f64 / n).collect())
            .collect(),
        turn_limited: st.turn_limited,
        failed: st.failed,
    }
}

/// The report in words, its histograms in plain characters (for a file or a pipe).
pub fn report(cfg: &Config, st: &Stats) -> String {
    report_with(cfg, st, false)
}

/// The report in words; `unicode` draws its one-line histograms with Unicode blocks (for a
/// terminal) rather than plain characters.
pub fn report_with(cfg: &Config, st: &Stats, unicode: bool) -> String {
    let f = figures(cfg, st);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {} games of {} players (seed {}), bots {}",
        cfg.name,
        st.games,
        cfg.players,
        cfg.seed,
        cfg.bots.join(", ")
    );
    if st.games < cfg.games {
        let _ = writeln!(out, "(this covers {} of the {} games)", st.games, cfg.games);
    }
    let _ = writeln!(out, "\nWins by seat (95% confidence):");
    for (seat, (pct, (lo, hi))) in f.win_pct.iter().zip(&f.win_ci).enumerate() {
        let bot = cfg
            .bots
            .get(seat % cfg.bots.len().max(1))
            .map_or("", String::as_str);
        let _ = writeln!(
            out,
            "  seat {seat} ({bot:<9}) {pct:5.1}%  [{lo:.1}, {hi:.1}]"
        );
    }
    if cfg.bots.iter().any(|b| b != &cfg.bots[0]) {
        let _ = writeln!(out, "Wins by bot (share of its seats' games):");
        for (bot, pct) in &f.wins_by_bot {
            let _ = writeln!(out, "  {bot:<9} {pct:5.1}%");
        }
    }
    let _ = writeln!(
        out,
        "\nGame length: {:.1} turns on average (median {}, 95th percentile {}); {:.2} rounds (median {}, 95th percentile {})",
        f.turns_mean, f.turns_median, f.turns_p95, f.rounds_mean, f.rounds_median, f.rounds_p95
    );
    out.push_str(&text_histograms(st, unicode));
    let why: Vec<String> = f
        .chips_lost_per_round_by_why
        .iter()
        .filter(|(_, v)| **v > 0.0)
        .map(|(k, v)| {
            let label = match k.as_str() {
                "bust" => "busts",
                "passed" => "bars passed",
                "reached" => "exact hits",
                _ => "other rules",
            };
            format!("{label} {v:.2}")
        })
        .collect();
    let _ = writeln!(
        out,
        "Chips lost per round: {:.2} ({})",
        f.chips_lost_per_round,
        why.join(", ")
    );
    if !f.bars_reached_per_game.is_empty() || !f.bars_passed_per_game.is_empty() {
        let _ = writeln!(out, "Bars per game:");
        let mut values: Vec<i32> = f
            .bars_reached_per_game
            .keys()
            .chain(f.bars_passed_per_game.keys())
            .copied()
            .collect();
        values.sort_unstable();
        values.dedup();
        for v in values {
            let _ = writeln!(
                out,
                "  {v:>4}: reached {:.2}, passed {:.2}",
                f.bars_reached_per_game.get(&v).copied().unwrap_or(0.0),
                f.bars_passed_per_game.get(&v).copied().unwrap_or(0.0)
            );
        }
    }
    let _ = writeln!(
        out,
        "Busts per game: {:.2} forced (no legal card), {:.2} chosen (a card that lost the round)",
        f.forced_busts_per_game, f.chosen_busts_per_game
    );
    let _ = writeln!(
        out,
        "Elimination order (share of games each seat went out 1st, 2nd, ...; last column: never out):"
    );
    for (seat, row) in f.elimination_pct.iter().enumerate() {
        let cells: Vec<String> = row.iter().map(|p| format!("{p:5.1}%")).collect();
        let _ = writeln!(out, "  seat {seat}: {}", cells.join(" "));
    }
    let _ = writeln!(
        out,
        "Games stopped by the turn limit ({TURN_LIMIT} turns): {}",
        f.turn_limited
    );
    if f.failed > 0 {
        let _ = writeln!(out, "Games that failed: {}", f.failed);
    }
    out
}

/// Whether two means differ beyond chance (Welch's test at 95%).
pub fn welch(a: &Histogram, b: &Histogram) -> bool {
    let (na, nb) = (a.n as f64, b.n as f64);
    if na < 2.0 || nb < 2.0 {
        return false;
    }
    let se = (a.variance() / na + b.variance() / nb).sqrt();
    se > 0.0 && ((a.mean() - b.mean()) / se).abs() > 1.96
}

/// Whether two proportions differ beyond chance (a two-proportion z test at 95%).
pub fn two_prop(ka: f64, na: f64, kb: f64, nb: f64) -> bool {
    if na <= 0.0 || nb <= 0.0 {
        return false;
    }
    let p = (ka + kb) / (na + nb);
    let se = (p * (1.0 - p) * (1.0 / na + 1.0 / nb)).sqrt();
    se > 0.0 && ((ka / na - kb / nb) / se).abs() > 1.96
}

/// Whether two rates of events differ beyond chance: `ka` events over an exposure of `ea`
/// (games, rounds) against `kb` over `eb`, the counts taken as Poisson (a Wald test at 95%).
/// Counts less spread than Poisson make it cautious, never bold.
pub fn rates_differ(ka: f64, ea: f64, kb: f64, eb: f64) -> bool {
    if ea <= 0.0 || eb <= 0.0 {
        return false;
    }
    let se = (ka / (ea * ea) + kb / (eb * eb)).sqrt();
    se > 0.0 && ((ka / ea - kb / eb) / se).abs() > 1.96
}

/// Two rulesets played on the same seeds, figure by figure; histograms in plain characters.
pub fn compare(a: (&Config, &Stats), b: (&Config, &Stats)) -> String {
    compare_with(a, b, false)
}

/// [`compare`]; `unicode` draws its one-line histograms with Unicode blocks (for a terminal).
pub fn compare_with(a: (&Config, &Stats), b: (&Config, &Stats), unicode: bool) -> String {
    let (ca, sa) = a;
    let (cb, sb) = b;
    let (fa, fb) = (figures(ca, sa), figures(cb, sb));
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} against {}: {} games each, seed {}, same deals",
        ca.name, cb.name, sa.games, ca.seed
    );
    let _ = writeln!(
        out,
        "{:<34} {:>12} {:>12} {:>10}  significant?",
        "",
        short(&ca.name),
        short(&cb.name),
        "difference"
    );
    let mut row = |label: String, x: f64, y: f64, sig: bool| {
        let _ = writeln!(
            out,
            "{label:<34} {x:>12.2} {y:>12.2} {:>+10.2}  {}",
            y - x,
            if sig { "yes" } else { "no" }
        );
    };
    for seat in 0..fa.win_pct.len().min(fb.win_pct.len()) {
        let ka = sa.wins[seat] as f64 / WIN_UNIT as f64;
        let kb = sb.wins[seat] as f64 / WIN_UNIT as f64;
        row(
            format!("seat {seat} wins (%)"),
            fa.win_pct[seat],
            fb.win_pct[seat],
            two_prop(ka, sa.games as f64, kb, sb.games as f64),
        );
    }
    row(
        "turns per game".into(),
        fa.turns_mean,
        fb.turns_mean,
        welch(&sa.turns, &sb.turns),
    );
    row(
        "rounds per game".into(),
        fa.rounds_mean,
        fb.rounds_mean,
        welch(&sa.rounds, &sb.rounds),
    );
    row(
        "chips lost per game".into(),
        sa.chips_per_game.mean(),
        sb.chips_per_game.mean(),
        welch(&sa.chips_per_game, &sb.chips_per_game),
    );
    row(
        "chips lost per round".into(),
        fa.chips_lost_per_round,
        fb.chips_lost_per_round,
        false,
    );
    row(
        "forced busts per game".into(),
        fa.forced_busts_per_game,
        fb.forced_busts_per_game,
        false,
    );
    row(
        "chosen busts per game".into(),
        fa.chosen_busts_per_game,
        fb.chosen_busts_per_game,
        false,
    );
    row(
        "games stopped by the turn limit".into(),
        fa.turn_limited as f64,
        fb.turn_limited as f64,
        false,
    );
    let _ = writeln!(
        out,
        "(\"significant\": the difference is beyond chance at 95%; rows without a test say no)"
    );
    out.push_str(&text_histograms_of_two(
        sa,
        sb,
        [&ca.name, &cb.name],
        unicode,
    ));
    out
}

fn short(name: &str) -> String {
    name.chars().take(12).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_intervals_hold_the_share_and_narrow_with_more_games() {
        let (lo, hi) = wilson(50.0, 100.0);
        assert!(lo < 50.0 && hi > 50.0);
        assert!(
            (lo - 40.4).abs() < 0.1 && (hi - 59.6).abs() < 0.1,
            "{lo} {hi}"
        );
        let (lo2, hi2) = wilson(500.0, 1000.0);
        assert!(hi2 - lo2 < hi - lo);
        // At the edges the interval stays within 0 to 100.
        let (lo0, hi0) = wilson(0.0, 20.0);
        assert!(lo0.abs() < 1e-9 && hi0 > 0.0 && hi0 < 100.0);
        assert_eq!(wilson(0.0, 0.0), (0.0, 0.0));
    }

    #[test]
    fn tests_of_significance() {
        assert!(two_prop(60.0, 100.0, 30.0, 100.0));
        assert!(!two_prop(50.0, 100.0, 52.0, 100.0));
        let mut a = Histogram::default();
        let mut b = Histogram::default();
        for v in 0..200u64 {
            a.add(10 + v % 5);
            b.add(20 + v % 5);
        }
        assert!(welch(&a, &b));
        assert!(!welch(&a, &a.clone()));
        // 1.2 against 1.0 events a game over 1,000 games each: beyond chance; over 50, not.
        assert!(rates_differ(1200.0, 1000.0, 1000.0, 1000.0));
        assert!(!rates_differ(60.0, 50.0, 50.0, 50.0));
        assert!(!rates_differ(0.0, 10.0, 0.0, 10.0));
        assert!(!rates_differ(5.0, 0.0, 1.0, 10.0));
    }
}
