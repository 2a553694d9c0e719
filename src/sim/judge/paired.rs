//! Two rulesets on the same deals, deal by deal: for each measure `--until-decided` looks at,
//! the standard error of B − A from the differences of the same deals, so that what the deal
//! decides in both cancels (two copies of one game differ by exactly nothing, and are
//! decided at the first look).
//!
//! Every measure with a test is a ratio of sums over games, `scale·Σk/Σn` (a share: `k` of
//! `n`; a mean: the sum over the count; a rate: events over exposure). Its difference is
//! linearised deal by deal (the delta method for a ratio estimator): with `R = Σk/Σn` and
//! `n̄ = Σn/N` over the `N` deals both rulesets finished,
//! `uᵢ = s_B·(k_Bᵢ − R_B·n_Bᵢ)/n̄_B − s_A·(k_Aᵢ − R_A·n_Aᵢ)/n̄_A`, and the standard error of
//! B − A is `√(Σ(uᵢ − ū)²/(N(N−1)))`. The sums are kept as the products of `(k_A, n_A, k_B,
//! n_B)`, added deal by deal in the deals' order, so the memory is the same for any number of
//! games and the figure the same for any number of threads.

use super::{Basis, JudgeConfig, Line, Tally, lines, tally};
use crate::play::{Player, Ruleset};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

/// One measure's sums over the deals both rulesets finished.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Paired {
    pub key: String,
    /// Deals paired.
    n: f64,
    /// `Σx` and `Σxxᵀ` for `x = (k_A, n_A, k_B, n_B)`.
    sum: [f64; 4],
    prod: [[f64; 4]; 4],
    /// The scales of A's and B's line (100 for a share in percent).
    scale: [f64; 2],
}

impl Paired {
    pub fn new(key: &str) -> Paired {
        Paired {
            key: key.to_string(),
            scale: [1.0, 1.0],
            ..Paired::default()
        }
    }

    fn add(&mut self, x: [f64; 4], scale: [f64; 2]) {
        self.n += 1.0;
        self.scale = scale;
        for (i, xi) in x.iter().enumerate() {
            self.sum[i] += xi;
            for (j, xj) in x.iter().enumerate() {
                self.prod[i][j] += xi * xj;
            }
        }
    }

    /// The standard error of B − A from the deals' differences; `None` with fewer than two
    /// deals, or where either ruleset's measure has no count (a share of no games).
    pub fn se(&self) -> Option<f64> {
        let n = self.n;
        let [ka, na, kb, nb] = self.sum;
        if n < 2.0 || na <= 0.0 || nb <= 0.0 {
            return None;
        }
        let (ra, rb) = (ka / na, kb / nb);
        let (ma, mb) = (na / n, nb / n);
        let [sa, sb] = self.scale;
        let c = [-sa / ma, sa * ra / ma, sb / mb, -sb * rb / mb];
        let mut squares = 0.0;
        for (i, ci) in c.iter().enumerate() {
            for (j, cj) in c.iter().enumerate() {
                squares += ci * cj * self.prod[i][j];
            }
        }
        let total: f64 = c.iter().zip(&self.sum).map(|(ci, s)| ci * s).sum();
        let var = ((squares - total * total / n) / (n - 1.0)).max(0.0);
        Some((var / n).sqrt())
    }
}

/// A measure's `(k, n, scale)`: its value is `scale·k/n` (less an offset that a difference
/// cancels); `None` for one that is not a ratio of sums (Order, luck, a median).
fn parts(b: &Basis) -> Option<(f64, f64, f64)> {
    match b {
        Basis::Share { k, n, .. } => Some((*k, *n, 100.0)),
        Basis::Mean { h, scale } => Some((h.sum as f64, h.n as f64, *scale)),
        Basis::Rate { k, e } => Some((*k, *e, 1.0)),
        Basis::Order { .. } | Basis::Luck { .. } | Basis::Plain => None,
    }
}

/// The `(k, n)` of each measure in one game's lines, and its scale; a measure the game has no
/// line for (no one was put out) counts nothing.
fn game_parts(ls: &[Line], keys: &[String]) -> Vec<Option<(f64, f64, f64)>> {
    keys.iter()
        .map(|key| match ls.iter().find(|l| &l.key == key) {
            Some(l) => parts(&l.basis),
            None => Some((0.0, 0.0, 1.0)),
        })
        .collect()
}

/// One ruleset at its table with its run.
pub(super) type Side<'a> = (&'a Ruleset, &'a JudgeConfig, &'a [Player]);

/// Plays games `range` of A and of B, each at its own table with its run's seed, into a tally
/// each (the same as playing them apart), and adds each deal both finished to `paired`.
pub(super) fn play_pairs(
    (a, b): (Side<'_>, Side<'_>),
    range: std::ops::Range<u64>,
    (stopped, played): (&(dyn Fn() -> bool + Sync), Option<&AtomicU64>),
    (ta, tb): (&mut Tally, &mut Tally),
    paired: &mut [Paired],
) -> Result<(), String> {
    let keys: Vec<String> = paired.iter().map(|p| p.key.clone()).collect();
    let one = |side: Side<'_>, i: u64| -> Result<Tally, String> {
        let mut t = Tally::new(side.0, side.2.len());
        tally::play_game(side.0, side.2, (side.1.seed, i), stopped, &mut t)?;
        if let Some(n) = played {
            n.fetch_add(1, Ordering::Relaxed);
        }
        Ok(t)
    };
    let games: Vec<(Tally, Tally)> = range
        .into_par_iter()
        .map(|i| (!stopped()).then_some(i))
        .while_some()
        .map(|i| Ok((one(a, i)?, one(b, i)?)))
        .collect::<Result<_, String>>()?;
    for (ga, gb) in &games {
        ta.merge(ga);
        tb.merge(gb);
        if ga.games != 1 || gb.games != 1 {
            continue;
        }
        let pa = game_parts(&lines(ga, a.1), &keys);
        let pb = game_parts(&lines(gb, b.1), &keys);
        for ((p, x), y) in paired.iter_mut().zip(pa).zip(pb) {
            if let (Some((ka, na, sa)), Some((kb, nb, sb))) = (x, y) {
                p.add([ka, na, kb, nb], [sa, sb]);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Paired;

    #[test]
    fn the_same_games_differ_by_nothing_with_no_spread() {
        let mut p = Paired::new("turns_mean");
        for k in [10.0, 30.0, 20.0, 50.0] {
            p.add([k, 1.0, k, 1.0], [1.0, 1.0]);
        }
        assert_eq!(p.se(), Some(0.0));
    }

    #[test]
    fn a_mean_of_differences_has_the_t_tests_standard_error() {
        // Means per game (n = 1 each): the error is that of the paired differences 2, 4, 6.
        let mut p = Paired::new("turns_mean");
        for (a, b) in [(10.0, 12.0), (20.0, 24.0), (30.0, 36.0)] {
            p.add([a, 1.0, b, 1.0], [1.0, 1.0]);
        }
        // The differences' standard deviation is 2: over √3.
        let se = p.se().expect("an error");
        assert!((se - 2.0 / 3f64.sqrt()).abs() < 1e-9, "{se}");
        // Fewer than two deals: none.
        let mut one = Paired::new("x");
        one.add([1.0, 1.0, 2.0, 1.0], [1.0, 1.0]);
        assert_eq!(one.se(), None);
    }
}
