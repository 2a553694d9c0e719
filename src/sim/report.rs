//! The report: figures derived from the sums (intervals, means, quantiles), in words, and two
//! runs compared with tests of significance.

use super::adjusted::{rate_difference, share_difference};
use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::spark::{text_histograms, text_histograms_of_two};
use super::{Config, Histogram, Stats, WIN_UNIT};
use crate::base::limits::TURN_LIMIT;

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
    // At k = 0 (or n) the bound is 0 (or 100) but for rounding: never `-0.0` or `100.0001`.
    // (`+ 0.0` turns a `-0.0` into `0.0`.)
    let bound = |x: f64| (100.0 * x / denom).clamp(0.0, 100.0) + 0.0;
    (bound(centre - margin), bound(centre + margin))
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
    /// Cards the rules moved per game, by how (`drawn`, `handed`, `swaps`); only where a rule
    /// moves cards.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub cards_moved_per_game: BTreeMap<String, f64>,
    /// Moves beside laying a card per game, by their word (`discard`, `stock`, `pass`), and
    /// players named by a card (`named`); only where the rules offer them.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub moves_per_game: BTreeMap<String, f64>,
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
        cards_moved_per_game: st
            .cards_moved
            .iter()
            .map(|(k, v)| (k.clone(), *v as f64 / n))
            .collect(),
        moves_per_game: st
            .moves
            .iter()
            .map(|(k, v)| (k.clone(), *v as f64 / n))
            .collect(),
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
        // The bot's name in brackets, the brackets padded (not the name inside them).
        let who = format!("({bot})");
        let _ = writeln!(
            out,
            "  seat {seat} {who:<11} {pct:5.1}%  [{lo:.1}, {hi:.1}]"
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
    if !f.cards_moved_per_game.is_empty() {
        let get = |k: &str| f.cards_moved_per_game.get(k).copied().unwrap_or(0.0);
        let _ = writeln!(
            out,
            "Cards the rules moved per game: {:.2} drawn, {:.2} handed from one hand to another, {:.2} hands swapped",
            get("drawn"),
            get("handed"),
            get("swaps")
        );
    }
    if !f.moves_per_game.is_empty() {
        let list: Vec<String> = f
            .moves_per_game
            .iter()
            .map(|(k, v)| match k.as_str() {
                "named" => format!("{v:.2} players named by a card"),
                "stock" => format!("{v:.2} cards laid from the stock"),
                "discard" => format!("{v:.2} discards"),
                "pass" => format!("{v:.2} passes"),
                other => format!("{v:.2} {other}"),
            })
            .collect();
        let _ = writeln!(
            out,
            "Moves beside laying a card per game: {}",
            list.join(", ")
        );
    }
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

/// What the test of a difference says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The 95% interval of the difference leaves out 0.
    Beyond,
    /// It holds 0: the difference may be chance.
    Within,
    /// No test compares these figures (a median), or too few games for one.
    NoTest,
}

impl Verdict {
    /// The verdict as the reports write it, under "beyond chance?".
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Beyond => "yes",
            Verdict::Within => "no",
            Verdict::NoTest => "no test",
        }
    }
}

/// The test behind a verdict, each a z test at 95% whose standard error also gives the
/// interval, so the verdict and the interval cannot disagree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Test {
    /// Two shares of games (wins, games stopped): the two-proportion z test.
    TwoProportions,
    /// Two means of a figure per game: Welch's test.
    Welch,
    /// Two rates of events over games or rounds, the counts taken as Poisson.
    PoissonRates,
}

impl Test {
    pub fn name(self) -> &'static str {
        match self {
            Test::TwoProportions => "two-proportion z test",
            Test::Welch => "Welch's test",
            Test::PoissonRates => "Poisson rate test",
        }
    }
}

/// A test's result: the 95% interval of the difference, and the verdict; `None` when the test
/// cannot be made.
type Tested = Option<((f64, f64), Verdict)>;

/// A difference `d` with its standard error: its 95% interval, and whether it leaves out 0.
/// A sample with no spread at all has no test: nothing can be said of its difference.
fn z_test(d: f64, se: f64) -> Tested {
    if se.is_nan() || se <= 0.0 {
        return None;
    }
    let half = 1.96 * se;
    Some((
        (d - half, d + half),
        if d.abs() > half {
            Verdict::Beyond
        } else {
            Verdict::Within
        },
    ))
}

/// B's mean less A's, its interval and verdict (Welch's test at 95%); no test under 2 games.
fn welch_test(a: &Histogram, b: &Histogram) -> Tested {
    let (na, nb) = (a.n as f64, b.n as f64);
    if na < 2.0 || nb < 2.0 {
        return None;
    }
    let se = (a.variance() / na + b.variance() / nb).sqrt();
    z_test(b.mean() - a.mean(), se)
}

/// B's share less A's (`ka` of `na` against `kb` of `nb`), in percentage points.
fn share_test(ka: f64, na: f64, kb: f64, nb: f64) -> Tested {
    if na <= 0.0 || nb <= 0.0 {
        return None;
    }
    let (d, se) = share_difference(ka, na, kb, nb);
    let ((lo, hi), v) = z_test(d, se)?;
    Some(((100.0 * lo.max(-1.0), 100.0 * hi.min(1.0)), v))
}

/// B's rate less A's: `kb` events over an exposure of `eb` (games, rounds) against `ka` over
/// `ea`, the counts taken as Poisson. Counts less spread than Poisson make it cautious.
fn rate_test(ka: f64, ea: f64, kb: f64, eb: f64) -> Tested {
    if ea <= 0.0 || eb <= 0.0 {
        return None;
    }
    let (d, se) = rate_difference(ka, ea, kb, eb);
    z_test(d, se)
}

fn beyond(t: Tested) -> bool {
    matches!(t, Some((_, Verdict::Beyond)))
}

/// Whether two means differ beyond chance (Welch's test at 95%).
pub fn welch(a: &Histogram, b: &Histogram) -> bool {
    beyond(welch_test(a, b))
}

/// Whether two proportions differ beyond chance (a two-proportion z test at 95%).
pub fn two_prop(ka: f64, na: f64, kb: f64, nb: f64) -> bool {
    beyond(share_test(ka, na, kb, nb))
}

/// Whether two rates of events differ beyond chance: `ka` events over an exposure of `ea`
/// (games, rounds) against `kb` over `eb`, the counts taken as Poisson (a Wald test at 95%).
/// Counts less spread than Poisson make it cautious, never bold.
pub fn rates_differ(ka: f64, ea: f64, kb: f64, eb: f64) -> bool {
    beyond(rate_test(ka, ea, kb, eb))
}

/// One figure of two runs compared: A's, B's, B − A with its 95% interval, the test and its
/// verdict. Worked out once ([`differences`]); the text, the HTML page and the `--json`
/// all read it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Difference {
    /// A name for scripts: `seat_0_wins_pct`, `turns_mean`, ...
    pub key: String,
    /// The row's words: `seat 0 wins (%)`.
    pub label: String,
    pub a: f64,
    pub b: f64,
    /// B − A.
    pub difference: f64,
    /// The 95% interval of B − A, where there is a test.
    pub interval: Option<(f64, f64)>,
    pub test: Option<Test>,
    pub verdict: Verdict,
    /// Decimals to show the figures with.
    #[serde(skip)]
    pub decimals: usize,
}

/// A figure of a run for [`differences`]: its key, words, decimals, value, and the test
/// between two runs.
type Figure = (
    &'static str,
    &'static str,
    usize,
    fn(&Stats) -> f64,
    fn(&Stats, &Stats) -> (Option<Test>, Tested),
);

/// Chips lost in all, and the rounds played.
fn chips_and_rounds(s: &Stats) -> (f64, f64) {
    (
        s.chips_lost.values().sum::<u64>() as f64,
        s.rounds.sum as f64,
    )
}

fn per_game(count: u64, s: &Stats) -> f64 {
    count as f64 / s.games.max(1) as f64
}

/// The figures compared after the seats' wins, in the order the reports show them.
const FIGURES: [Figure; 9] = [
    (
        "turns_mean",
        "turns per game (mean)",
        1,
        |s| s.turns.mean(),
        |a, b| (Some(Test::Welch), welch_test(&a.turns, &b.turns)),
    ),
    (
        "turns_median",
        "turns per game (median)",
        0,
        |s| f64::from(s.turns.quantile(0.5)),
        |_, _| (None, None),
    ),
    (
        "rounds_mean",
        "rounds per game (mean)",
        2,
        |s| s.rounds.mean(),
        |a, b| (Some(Test::Welch), welch_test(&a.rounds, &b.rounds)),
    ),
    (
        "rounds_median",
        "rounds per game (median)",
        0,
        |s| f64::from(s.rounds.quantile(0.5)),
        |_, _| (None, None),
    ),
    (
        "chips_lost_per_round",
        "chips lost per round",
        3,
        |s| chips_and_rounds(s).0 / s.rounds.sum.max(1) as f64,
        |a, b| {
            let ((ka, ea), (kb, eb)) = (chips_and_rounds(a), chips_and_rounds(b));
            (Some(Test::PoissonRates), rate_test(ka, ea, kb, eb))
        },
    ),
    (
        "chips_lost_per_game",
        "chips lost per game",
        2,
        |s| s.chips_per_game.mean(),
        |a, b| {
            let t = welch_test(&a.chips_per_game, &b.chips_per_game);
            (Some(Test::Welch), t)
        },
    ),
    (
        "forced_busts_per_game",
        "forced busts per game",
        2,
        |s| per_game(s.forced_busts, s),
        |a, b| {
            let t = rate_test(
                a.forced_busts as f64,
                a.games as f64,
                b.forced_busts as f64,
                b.games as f64,
            );
            (Some(Test::PoissonRates), t)
        },
    ),
    (
        "chosen_busts_per_game",
        "chosen busts per game",
        2,
        |s| per_game(s.chosen_busts, s),
        |a, b| {
            let t = rate_test(
                a.chosen_busts as f64,
                a.games as f64,
                b.chosen_busts as f64,
                b.games as f64,
            );
            (Some(Test::PoissonRates), t)
        },
    ),
    (
        "turn_limited_pct",
        "games stopped by turn limit (%)",
        1,
        |s| 100.0 * per_game(s.turn_limited, s),
        |a, b| {
            let t = share_test(
                a.turn_limited as f64,
                a.games as f64,
                b.turn_limited as f64,
                b.games as f64,
            );
            (Some(Test::TwoProportions), t)
        },
    ),
];

/// Two runs on the same deals, figure by figure: each seat's wins, then [`FIGURES`].
pub fn differences(a: &Stats, b: &Stats) -> Vec<Difference> {
    // A run with no game finished (stopped before it began, or every game failed) has no
    // figure to take another's from.
    if a.games == 0 || b.games == 0 {
        return Vec::new();
    }
    let row = |key: String, label: String, decimals, (x, y): (f64, f64), tested| {
        let (test, result): (Option<Test>, Tested) = tested;
        Difference {
            key,
            label,
            a: x,
            b: y,
            difference: y - x,
            interval: result.map(|r| r.0),
            // A test that cannot be made (too few games) is no test.
            test: result.and(test),
            verdict: result.map_or(Verdict::NoTest, |r| r.1),
            decimals,
        }
    };
    let mut out = Vec::new();
    let won = |s: &Stats, seat: usize| s.wins[seat] as f64 / WIN_UNIT as f64;
    for seat in 0..a.wins.len().min(b.wins.len()) {
        let (ka, kb) = (won(a, seat), won(b, seat));
        let (na, nb) = (a.games as f64, b.games as f64);
        out.push(row(
            format!("seat_{seat}_wins_pct"),
            format!("seat {seat} wins (%)"),
            1,
            (100.0 * ka / na.max(1.0), 100.0 * kb / nb.max(1.0)),
            (Some(Test::TwoProportions), share_test(ka, na, kb, nb)),
        ));
    }
    for (key, label, decimals, value, test) in FIGURES {
        out.push(row(
            key.to_string(),
            label.to_string(),
            decimals,
            (value(a), value(b)),
            test(a, b),
        ));
    }
    out
}

/// Two rulesets played on the same seeds, figure by figure; histograms in plain characters.
pub fn compare(a: (&Config, &Stats), b: (&Config, &Stats)) -> String {
    compare_with(a, b, false)
}

/// [`compare`]; `unicode` draws its one-line histograms with Unicode blocks (for a terminal).
pub fn compare_with(a: (&Config, &Stats), b: (&Config, &Stats), unicode: bool) -> String {
    let (ca, sa) = a;
    let (cb, sb) = b;
    let mut out = String::new();
    let (played_a, played_b) = (sa.games + sa.failed, sb.games + sb.failed);
    if played_a == played_b {
        let _ = writeln!(
            out,
            "{} against {}: {} games each, seed {}, same deals",
            ca.name, cb.name, sa.games, ca.seed
        );
    } else {
        // Stopped early (Ctrl-C): the two played different deals, B perhaps none.
        let _ = writeln!(
            out,
            "{} against {}: seed {}, stopped early: A played {played_a} of the {} games and B \
             {played_b}, so they are not on the same deals",
            ca.name,
            cb.name,
            ca.seed,
            ca.games.max(cb.games)
        );
    }
    let _ = writeln!(out, "  A is {} ({})", ca.name, ca.ruleset);
    let _ = writeln!(out, "  B is {} ({})", cb.name, cb.ruleset);
    if sa.games == 0 || sb.games == 0 {
        let (none, other) = if sb.games == 0 {
            ("B", (ca, sa))
        } else {
            ("A", (cb, sb))
        };
        let _ = writeln!(
            out,
            "No comparison: {none} finished no game, so there is no B - A to give."
        );
        if other.1.games > 0 {
            let _ = writeln!(
                out,
                "\n{}",
                if none == "B" { "A alone:" } else { "B alone:" }
            );
            out.push_str(&report_with(other.0, other.1, unicode));
        }
        return out;
    }
    let _ = writeln!(
        out,
        "{:<32} {:>9} {:>9} {:>9}  {:<22} beyond chance?",
        "", "A", "B", "B - A", "95% interval of B - A"
    );
    for d in differences(sa, sb) {
        let n = d.decimals;
        let interval = d.interval.map_or_else(
            || "-".to_string(),
            |(lo, hi)| format!("[{lo:.n$}, {hi:.n$}]"),
        );
        let _ = writeln!(
            out,
            "{:<32} {:>9.n$} {:>9.n$} {:>+9.n$}  {interval:<22} {}",
            d.label,
            d.a,
            d.b,
            d.difference,
            d.verdict.word()
        );
    }
    let _ = writeln!(
        out,
        "(beyond chance: the 95% interval of B - A leaves out 0. The tests: a two-proportion z\n \
         test for wins and the turn limit, Welch's test for means, a Poisson rate test for chips\n \
         per round and busts per game; a median has none.)"
    );
    out.push_str(&text_histograms_of_two(
        sa,
        sb,
        [&ca.name, &cb.name],
        unicode,
    ));
    out
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
        // Never printed as `-0.0`, never past 100.
        for n in [1.0, 7.0, 2034.0, 20_000.0, 1e9] {
            let (lo, _) = wilson(0.0, n);
            assert!(lo.is_sign_positive() && lo == 0.0, "{lo} of {n}");
            assert_eq!(format!("{lo:.1}"), "0.0");
            let (_, hi) = wilson(n, n);
            assert!(hi <= 100.0, "{hi} of {n}");
        }
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

    #[test]
    fn a_verdict_is_what_its_interval_says() {
        for (ka, kb) in [
            (40.0, 60.0),
            (50.0, 52.0),
            (0.0, 0.0),
            (0.0, 3.0),
            (100.0, 100.0),
        ] {
            for t in [
                share_test(ka, 100.0, kb, 100.0),
                rate_test(ka, 100.0, kb, 100.0),
            ] {
                let ((lo, hi), v) = t.expect("a test");
                let leaves_out_0 = lo > 0.0 || hi < 0.0 || (lo == hi && lo != 0.0);
                assert_eq!(v == Verdict::Beyond, leaves_out_0, "{ka} {kb}: {lo} {hi}");
            }
        }
        // No spread: every game the same length in both, and the lengths differ. A sample
        // with no spread proves nothing, either way: no test.
        let (mut a, mut b) = (Histogram::default(), Histogram::default());
        for _ in 0..10 {
            a.add(30);
            b.add(31);
        }
        assert_eq!(welch_test(&a, &b), None);
        assert_eq!(welch_test(&a, &a.clone()), None);
        // Too few games for a test: no test, not "no".
        let mut one = Histogram::default();
        one.add(30);
        assert_eq!(welch_test(&one, &b), None);
        assert_eq!(share_test(1.0, 0.0, 1.0, 10.0), None);
    }

    /// One game each is all or nothing: 0% against 100% is no proof of a difference, and two
    /// samples of none, or of all, are no proof of sameness: their interval is not [0, 0].
    #[test]
    fn a_sample_of_all_or_nothing_proves_nothing_alone() {
        for (ka, kb) in [(0.0, 1.0), (1.0, 0.0), (0.0, 0.0), (1.0, 1.0)] {
            let ((lo, hi), v) = share_test(ka, 1.0, kb, 1.0).expect("a test");
            assert_eq!(v, Verdict::Within, "{ka} of 1 against {kb} of 1");
            assert!(lo < 0.0 && hi > 0.0, "{lo} {hi}");
        }
        for k in [0.0, 100.0] {
            let ((lo, hi), v) = share_test(k, 100.0, k, 100.0).expect("a test");
            assert_eq!(v, Verdict::Within);
            assert!(hi - lo > 1.0, "{k}: [{lo}, {hi}] is an interval");
        }
        let ((lo, hi), _) = rate_test(0.0, 100.0, 0.0, 100.0).expect("a test");
        assert!(hi - lo > 0.0, "no events on both sides: [{lo}, {hi}]");
        // Large samples: the adjusted test reads what the plain one does.
        assert!(two_prop(60.0, 1000.0, 100.0, 1000.0));
        assert!(!two_prop(60.0, 1000.0, 70.0, 1000.0));
    }

    #[test]
    fn differences_name_their_test_or_say_there_is_none() {
        let mut a = Stats {
            games: 2,
            wins: vec![WIN_UNIT, WIN_UNIT],
            ..Stats::default()
        };
        a.turns.add(10);
        a.turns.add(12);
        let mut b = a.clone();
        b.turns = Histogram::default();
        b.turns.add(10);
        let d = differences(&a, &b);
        let turns = d.iter().find(|d| d.key == "turns_mean").expect("turns");
        // B played one game of turns: no test can be made, and none is named.
        assert_eq!((turns.test, turns.verdict), (None, Verdict::NoTest));
        let median = d.iter().find(|d| d.key == "turns_median").expect("median");
        assert_eq!((median.test, median.interval), (None, None));
        let seat = d
            .iter()
            .find(|d| d.key == "seat_0_wins_pct")
            .expect("seat 0");
        assert_eq!(seat.test, Some(Test::TwoProportions));
        assert_eq!(seat.verdict, Verdict::Within);
    }
}
