//! The fairness verdict: an equivalence test of the seats' win shares against a margin, so
//! that "fair" says the seats are close, not only that no gap was detected.

use super::Tally;
use super::lines::Line;

/// How far apart two seats' win shares may be, in points, and a game still be called fair: a
/// gap within it is too small for a table to feel (docs/judge.md).
pub const FAIR_MARGIN: f64 = 5.0;

/// The fairness verdict, an equivalence test against [`FAIR_MARGIN`]: **fair** when the
/// largest gap's interval and the first player's advantage's lie within the margin; **not
/// fair** when either lies beyond it, naming the seats; **not decided** when an interval
/// straddles the margin (more games decide it). A gap beyond chance but within the margin is
/// fair, and said. Each interval is 95%: a verdict is wrong at most 5% of the time.
pub fn fairness(t: &Tally, gap: &Line, first: &Line) -> String {
    let m = FAIR_MARGIN;
    let (best, worst) = extreme_seats(t);
    let interval = |l: &Line| match (l.low, l.high) {
        (Some(lo), Some(hi)) => format!("[{lo:.1}, {hi:.1}]"),
        _ => "[not measured]".to_string(),
    };
    let (g_lo, g_hi) = (gap.low.unwrap_or(0.0), gap.high.unwrap_or(f64::INFINITY));
    let (f_lo, f_hi) = (
        first.low.unwrap_or(f64::NEG_INFINITY),
        first.high.unwrap_or(f64::INFINITY),
    );
    let seats = format!(
        "seat {best} wins {:.1} points more than seat {worst} {}",
        gap.value,
        interval(gap)
    );
    if g_lo > m {
        return format!("not fair: {seats}, beyond the {m:.0}-point margin");
    }
    if f_lo > m || f_hi < -m {
        return format!(
            "not fair: the first player's advantage is {:+.1} points {}, beyond the {m:.0}-point margin",
            first.value,
            interval(first)
        );
    }
    if g_hi < m && f_lo > -m && f_hi < m {
        let seen = if g_lo > 0.0 {
            ", a gap beyond chance but within the margin"
        } else {
            ""
        };
        return format!("fair: no seat wins {m:.0} points more than another ({seats}{seen})");
    }
    format!(
        "fairness not decided: {seats}, and the first player's advantage is {:+.1} points {}; the intervals reach past the {m:.0}-point margin: more games decide it",
        first.value,
        interval(first)
    )
}

/// The seats with the most and the fewest wins (the first of each among ties).
pub fn extreme_seats(t: &Tally) -> (usize, usize) {
    let (mut hi, mut lo) = (0, 0);
    for (i, w) in t.wins.iter().enumerate() {
        if *w > t.wins[hi] {
            hi = i;
        }
        if *w < t.wins[lo] {
            lo = i;
        }
    }
    (hi, lo)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::Rng;
    use crate::sim::WIN_UNIT;

    /// `n` two-player games in which seat 0 wins with probability `p`, the first leader
    /// chosen by a coin: the fairness verdict on them.
    fn verdict(n: u64, p: f64, rng: &mut Rng) -> String {
        let mut t = Tally {
            players: 2,
            games: n,
            wins: vec![0, 0],
            ..Tally::default()
        };
        for _ in 0..n {
            let winner = usize::from(rng.below(1_000_000) as f64 >= p * 1e6);
            let leader = rng.below(2);
            t.wins[winner] += WIN_UNIT;
            if leader == winner {
                t.first_wins += WIN_UNIT;
            }
        }
        let lines = super::super::lines::balance(&t);
        let find = |k: &str| lines.iter().find(|l| l.key == k).expect("a line");
        fairness(&t, find("largest_gap"), find("first_player"))
    }

    fn count(n: u64, p: f64, seed: u64, start: &str) -> usize {
        let mut rng = Rng::from_seed(seed);
        (0..200)
            .filter(|_| verdict(n, p, &mut rng).starts_with(start))
            .count()
    }

    #[test]
    fn each_verdict_on_cases_whose_answer_is_known() {
        let mut rng = Rng::from_seed(1);
        let fair = verdict(100_000, 0.5, &mut rng);
        assert!(
            fair.starts_with("fair: no seat wins 5 points more"),
            "{fair}"
        );
        let unfair = verdict(2_000, 0.7, &mut rng);
        assert!(
            unfair.starts_with("not fair: seat 0 wins") && unfair.contains("more than seat 1"),
            "{unfair}"
        );
        let small = verdict(200, 0.5, &mut rng);
        assert!(small.starts_with("fairness not decided"), "{small}");
        // A gap beyond chance but smaller than a table could feel is fair, and said so.
        let slight = verdict(200_000, 0.505, &mut rng);
        assert!(
            slight.starts_with("fair:") && slight.contains("beyond chance but within the margin"),
            "{slight}"
        );
    }

    #[test]
    fn a_verdict_is_wrong_at_most_one_time_in_twenty() {
        // A fair game is called not fair, and a game whose seats are the margin apart is
        // called fair, each in at most 5% of 200 judgements; a game 20 points apart is
        // called not fair, and a fair one fair, once the games are enough.
        assert!(count(2_000, 0.5, 2, "not fair") <= 10);
        assert!(count(2_000, 0.525, 3, "fair:") <= 10);
        assert!(count(2_000, 0.6, 4, "not fair") >= 190);
        assert!(count(20_000, 0.5, 5, "fair:") >= 190);
    }
}
