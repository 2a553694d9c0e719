//! Every figure of a run as exact sums and sparse histograms, added up in any order: a run
//! gives the same statistics for any number of threads, and shards merge exactly.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Shares of a win: a game won by `k` tied players gives each `WIN_UNIT / k`, exactly.
pub const WIN_UNIT: u64 = 27_720; // lcm(1..=12)

/// Turns and rounds up to this are counted one by one (a game is stopped at this many
/// turns); longer ones share the last bucket. The histogram is sparse: only values seen cost.
pub(super) const HIST: usize = crate::base::limits::TURN_LIMIT as usize;

/// A histogram of small counts with exact sums, for mean, median and percentiles.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Histogram {
    /// `(value, count)` for every value seen, sorted (sparse, so JSON stays small).
    pub counts: BTreeMap<u32, u64>,
    pub n: u64,
    pub sum: u64,
    pub sum_sq: u128,
}

impl Histogram {
    /// A histogram of `(value, how many times)`, for tests.
    #[cfg(test)]
    pub(crate) fn of(values: &[(u32, u64)]) -> Histogram {
        let mut h = Histogram::default();
        for &(v, c) in values {
            for _ in 0..c {
                h.add(u64::from(v));
            }
        }
        h
    }

    pub fn add(&mut self, v: u64) {
        *self.counts.entry(v.min(HIST as u64) as u32).or_insert(0) += 1;
        self.n += 1;
        self.sum += v;
        self.sum_sq += u128::from(v) * u128::from(v);
    }

    pub fn merge(&mut self, o: &Histogram) {
        for (k, c) in &o.counts {
            *self.counts.entry(*k).or_insert(0) += c;
        }
        self.n += o.n;
        self.sum += o.sum;
        self.sum_sq += o.sum_sq;
    }

    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum as f64 / self.n as f64
        }
    }

    pub fn variance(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as f64;
        let mean = self.mean();
        ((self.sum_sq as f64) - n * mean * mean).max(0.0) / (n - 1.0)
    }

    /// The smallest value with at least `q` of the counts at or below it.
    pub fn quantile(&self, q: f64) -> u32 {
        let target = ((self.n as f64) * q).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (v, c) in &self.counts {
            seen += c;
            if seen >= target {
                return *v;
            }
        }
        0
    }
}

/// A share counted over events that come in clusters (turns in games): per cluster `a` of
/// `b` events, summed with their squares and products, exactly, so that the share's interval
/// can allow for events of one game being alike (a ratio estimator's variance, as a design
/// effect on the binomial one).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Clustered {
    pub n: u64,
    pub a: u64,
    pub b: u64,
    pub aa: u128,
    pub bb: u128,
    pub ab: u128,
}

impl Clustered {
    /// One cluster: `a` of its `b` events counted.
    pub fn add(&mut self, a: u64, b: u64) {
        self.n += 1;
        self.a += a;
        self.b += b;
        self.aa += u128::from(a) * u128::from(a);
        self.bb += u128::from(b) * u128::from(b);
        self.ab += u128::from(a) * u128::from(b);
    }

    pub fn merge(&mut self, o: &Clustered) {
        self.n += o.n;
        self.a += o.a;
        self.b += o.b;
        self.aa += o.aa;
        self.bb += o.bb;
        self.ab += o.ab;
    }

    /// Kish's design effect: the variance of the share `a/b` between clusters (the ratio
    /// estimator's, `Σ(aᵢ − R·bᵢ)² / (n(n−1)·b̄²)`) over the binomial variance of as many
    /// independent events; at least 1 (never narrower than independent events), 1 with fewer
    /// than two clusters or a share of 0 or 1.
    pub fn design_effect(&self) -> f64 {
        if self.n < 2 || self.b == 0 || self.a == 0 || self.a == self.b {
            return 1.0;
        }
        let (n, a, b) = (self.n as f64, self.a as f64, self.b as f64);
        let r = a / b;
        let spread = (self.aa as f64 - 2.0 * r * self.ab as f64 + r * r * self.bb as f64).max(0.0);
        let mean_b = b / n;
        let clustered = spread / (n * (n - 1.0) * mean_b * mean_b);
        let binomial = r * (1.0 - r) / b;
        (clustered / binomial).max(1.0)
    }

    /// The counts a binomial interval or test should read: `a` and `b` divided by the design
    /// effect (the effective sample), so the share is the same and the spread is the
    /// clusters'.
    pub fn effective(&self) -> (f64, f64) {
        let d = self.design_effect();
        (self.a as f64 / d, self.b as f64 / d)
    }
}

/// Every figure of a run, as sums.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Stats {
    pub games: u64,
    /// Win shares by seat, in units of [`WIN_UNIT`].
    pub wins: Vec<u64>,
    /// Games each seat won (alone or shared), for confidence intervals.
    pub won_games: Vec<u64>,
    pub turns: Histogram,
    pub rounds: Histogram,
    /// Chips lost by why: `bust` (could not play, no cards), `passed` (a bar passed),
    /// `reached` (others paid for an exact hit), `other` (card effects, antes...).
    pub chips_lost: BTreeMap<String, u64>,
    /// Chips lost in each game, for the comparison's test.
    pub chips_per_game: Histogram,
    pub bar_reached: BTreeMap<i32, u64>,
    pub bar_passed: BTreeMap<i32, u64>,
    pub forced_busts: u64,
    pub chosen_busts: u64,
    /// Cards the rules moved, by how: `drawn` (a rule made a player draw), `handed` (from
    /// one hand to another), `swaps` (hands swapped). Empty where no rule moves a card.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub cards_moved: BTreeMap<String, u64>,
    /// Moves beside laying a card, by their word (`discard`, `stock`, `pass`, `yield`), and
    /// players named by a card (`named`). Empty where the rules offer none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub moves: BTreeMap<String, u64>,
    /// Per seat, how many games it left in each place: 0 = first out, the last place = never out.
    pub elimination: Vec<Vec<u64>>,
    pub turn_limited: u64,
    /// Games that failed (a bot's move refused, a script error).
    pub failed: u64,
}

impl Stats {
    pub fn new(players: usize) -> Self {
        Self {
            wins: vec![0; players],
            won_games: vec![0; players],
            elimination: vec![vec![0; players]; players],
            ..Self::default()
        }
    }

    /// Adds another part of the same run.
    pub fn merge(&mut self, o: &Stats) {
        self.games += o.games;
        add_vec(&mut self.wins, &o.wins);
        add_vec(&mut self.won_games, &o.won_games);
        self.turns.merge(&o.turns);
        self.rounds.merge(&o.rounds);
        for (k, v) in &o.chips_lost {
            *self.chips_lost.entry(k.clone()).or_insert(0) += v;
        }
        self.chips_per_game.merge(&o.chips_per_game);
        for (k, v) in &o.bar_reached {
            *self.bar_reached.entry(*k).or_insert(0) += v;
        }
        for (k, v) in &o.bar_passed {
            *self.bar_passed.entry(*k).or_insert(0) += v;
        }
        self.forced_busts += o.forced_busts;
        self.chosen_busts += o.chosen_busts;
        for (k, v) in &o.cards_moved {
            *self.cards_moved.entry(k.clone()).or_insert(0) += v;
        }
        for (k, v) in &o.moves {
            *self.moves.entry(k.clone()).or_insert(0) += v;
        }
        if self.elimination.len() < o.elimination.len() {
            self.elimination.resize(o.elimination.len(), Vec::new());
        }
        for (a, b) in self.elimination.iter_mut().zip(&o.elimination) {
            add_vec(a, b);
        }
        self.turn_limited += o.turn_limited;
        self.failed += o.failed;
    }
}

fn add_vec(a: &mut Vec<u64>, b: &[u64]) {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

#[cfg(test)]
mod tests {
    use super::Clustered;

    /// Clusters of `m` events with `k` of them counted, in every combination given.
    fn clusters(of: &[(u64, u64)]) -> Clustered {
        let mut c = Clustered::default();
        for &(a, b) in of {
            c.add(a, b);
        }
        c
    }

    #[test]
    fn clusters_all_alike_count_as_one_event_each() {
        // Ten events a cluster, all counted or none: a cluster is one draw, the design
        // effect the cluster's size (times n/(n − 1), the sample variance's correction).
        let c = clusters(&[(10, 10), (0, 10), (10, 10), (0, 10), (10, 10), (0, 10)]);
        assert!((c.design_effect() - 10.0 * 6.0 / 5.0).abs() < 1e-9);
        let (k, n) = c.effective();
        assert!((k - 2.5).abs() < 1e-9 && (n - 5.0).abs() < 1e-9);
    }

    #[test]
    fn clusters_that_differ_no_more_than_chance_are_independent_events() {
        // Every cluster exactly at the share: no spread between clusters, never narrower
        // than independent events.
        let c = clusters(&[(5, 10), (5, 10), (5, 10), (5, 10)]);
        assert_eq!(c.design_effect(), 1.0);
        assert_eq!(c.effective(), (20.0, 40.0));
        // A share of 0 or 1, or one cluster, has no design effect either.
        assert_eq!(clusters(&[(0, 4), (0, 7)]).design_effect(), 1.0);
        assert_eq!(clusters(&[(3, 7)]).design_effect(), 1.0);
    }

    use super::*;

    #[test]
    fn quantiles_means_and_merges_of_a_histogram() {
        let mut h = Histogram::default();
        for v in [1, 2, 2, 3, 10] {
            h.add(v);
        }
        assert_eq!(h.quantile(0.5), 2);
        assert_eq!(h.quantile(0.95), 10);
        assert_eq!(h.quantile(0.0), 1);
        assert!((h.mean() - 3.6).abs() < 1e-9);
        let mut other = Histogram::default();
        other.add(2);
        h.merge(&other);
        assert_eq!((h.n, h.sum), (6, 20));
        assert_eq!(h.counts.get(&2), Some(&3));
        // Long games share the last bucket but keep their exact sum.
        let mut long = Histogram::default();
        long.add(1_000_000);
        assert_eq!(long.quantile(0.5), HIST as u32);
        assert_eq!(long.sum, 1_000_000);
    }

    #[test]
    fn stats_merge_in_any_order() {
        let mut a = Stats::new(3);
        a.games = 2;
        a.wins = vec![WIN_UNIT, WIN_UNIT / 2, WIN_UNIT / 2];
        let mut b = Stats::new(3);
        b.games = 1;
        b.wins = vec![0, WIN_UNIT, 0];
        let mut ab = a.clone();
        ab.merge(&b);
        let mut ba = b.clone();
        ba.merge(&a);
        assert_eq!(ab, ba);
        assert_eq!(ab.games, 3);
        assert_eq!(ab.wins, vec![WIN_UNIT, WIN_UNIT * 3 / 2, WIN_UNIT / 2]);
    }
}
