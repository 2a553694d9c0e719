//! A run's or a shard's output (`--json`), and merging shards into the whole run: only the
//! disjoint slices of one run, all of them, each holding the games its slice must, with
//! counts that can be true; every sum checked for overflow.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::run::slice_games;
use super::{Config, Histogram, Stats, WIN_UNIT};
use crate::base::limits::grouped;
use crate::ir::MAX_SEATS;

/// A shard's or a whole run's output for `--json` and `--merge`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Output {
    pub config: Config,
    pub shard: Option<(u64, u64)>,
    pub stats: Stats,
}

/// Merges shard outputs of one run: they must share the run's configuration.
pub fn merge(parts: &[Output]) -> Result<Output, String> {
    let named: Vec<(String, Output)> = parts
        .iter()
        .enumerate()
        .map(|(i, o)| (format!("part {}", i + 1), o.clone()))
        .collect();
    merge_named(&named)
}

/// Merges the outputs of a run's shards, each with the name of its file (errors name it):
/// every shard of one run exactly once, or one whole run alone.
pub fn merge_named(parts: &[(String, Output)]) -> Result<Output, String> {
    let Some((_, first)) = parts.first() else {
        return Err("no files to merge".into());
    };
    for (name, part) in parts {
        sane(part).map_err(|e| format!("`{name}` {e}"))?;
        if part.config != first.config {
            return Err(format!(
                "`{name}` comes from another run than `{}` (the ruleset, players, bots, seed, games or options differ)",
                parts[0].0
            ));
        }
    }
    slices(parts)?;
    let mut stats = Stats::new(first.config.players);
    for (name, part) in parts {
        stats
            .checked_merge(&part.stats)
            .map_err(|e| format!("`{name}`: {e}"))?;
    }
    Ok(Output {
        config: first.config.clone(),
        shard: None,
        stats,
    })
}

/// The parts are one whole run, or every slice `k/n` of one `n`, each once.
fn slices(parts: &[(String, Output)]) -> Result<(), String> {
    if let Some((name, _)) = parts.iter().find(|(_, o)| o.shard.is_none()) {
        if parts.len() > 1 {
            return Err(format!(
                "`{name}` is a whole run, not a shard: it cannot be merged with other files"
            ));
        }
        return Ok(());
    }
    let n = parts[0].1.shard.map_or(1, |(_, n)| n);
    let mut seen: BTreeMap<u64, &str> = BTreeMap::new();
    for (name, part) in parts {
        let (k, m) = part.shard.unwrap_or((1, 1));
        if m != n {
            return Err(format!(
                "`{name}` is shard {k}/{m}, but `{}` is a shard of {n}: slices of one run share their N",
                parts[0].0
            ));
        }
        if let Some(other) = seen.insert(k, name) {
            return Err(format!(
                "shard {k}/{n} is given twice: `{other}` and `{name}`"
            ));
        }
    }
    if let Some(k) = (1..=n).find(|k| !seen.contains_key(k)) {
        return Err(format!(
            "shard {k}/{n} is missing: a merge needs every shard of the run"
        ));
    }
    Ok(())
}

/// Whether one output's numbers can be true: a shard of its run holding the games of its
/// slice, each count within what that many games can give.
fn sane(o: &Output) -> Result<(), String> {
    let c = &o.config;
    let st = &o.stats;
    if !(2..=MAX_SEATS).contains(&c.players) || c.bots.len() != c.players {
        return Err(format!(
            "is corrupt: {} players with {} bots",
            c.players,
            c.bots.len()
        ));
    }
    if let Some((k, n)) = o.shard
        && !(n >= 1 && (1..=n).contains(&k))
    {
        return Err(format!(
            "names shard {k}/{n}, which no run has (1 <= K <= N)"
        ));
    }
    let expected = slice_games(c.games, o.shard);
    let held = st.games.checked_add(st.failed);
    if held != Some(expected) {
        return Err(format!(
            "holds {} games, but its slice of a run of {} games holds {}: it is incomplete (interrupted?) or edited",
            grouped(st.games.saturating_add(st.failed)),
            grouped(c.games),
            grouped(expected)
        ));
    }
    let p = c.players;
    if st.wins.len() != p || st.won_games.len() != p || st.elimination.len() != p {
        return Err(format!("is corrupt: its figures are not for {p} seats"));
    }
    let most_wins = st
        .games
        .checked_mul(WIN_UNIT)
        .ok_or("is corrupt: too many games")?;
    let total_wins = st
        .wins
        .iter()
        .try_fold(0u64, |a, w| a.checked_add(*w))
        .ok_or("is corrupt: its wins overflow")?;
    if total_wins > most_wins || st.won_games.iter().any(|w| *w > st.games) {
        return Err(format!(
            "is corrupt: more wins than its {} games",
            grouped(st.games)
        ));
    }
    for row in &st.elimination {
        let sum = row.iter().try_fold(0u64, |a, x| a.checked_add(*x));
        if row.len() != p || sum != Some(st.games) {
            return Err("is corrupt: its places do not add up to its games".into());
        }
    }
    if st.turn_limited > st.games {
        return Err("is corrupt: more games stopped than played".into());
    }
    for (what, h) in [
        ("turns", &st.turns),
        ("rounds", &st.rounds),
        ("chips", &st.chips_per_game),
    ] {
        let counted = h.counts.values().try_fold(0u64, |a, x| a.checked_add(*x));
        if h.n != st.games || counted != Some(h.n) {
            return Err(format!(
                "is corrupt: its {what} are counted for {} games, not {}",
                h.n, st.games
            ));
        }
    }
    Ok(())
}

impl Histogram {
    /// Adds another part's counts, or says what would overflow.
    pub fn checked_merge(&mut self, o: &Histogram) -> Result<(), String> {
        for (k, c) in &o.counts {
            let e = self.counts.entry(*k).or_insert(0);
            *e = e.checked_add(*c).ok_or("a count overflows")?;
        }
        self.n = self.n.checked_add(o.n).ok_or("a count overflows")?;
        self.sum = self.sum.checked_add(o.sum).ok_or("a sum overflows")?;
        self.sum_sq = self.sum_sq.checked_add(o.sum_sq).ok_or("a sum overflows")?;
        Ok(())
    }
}

impl Stats {
    /// Adds another part of the same run, or says what would overflow.
    pub fn checked_merge(&mut self, o: &Stats) -> Result<(), String> {
        let add = |a: &mut u64, b: u64| -> Result<(), String> {
            *a = a.checked_add(b).ok_or("a count overflows")?;
            Ok(())
        };
        add(&mut self.games, o.games)?;
        for (a, b) in [
            (&mut self.wins, &o.wins),
            (&mut self.won_games, &o.won_games),
        ] {
            a.resize(a.len().max(b.len()), 0);
            for (x, y) in a.iter_mut().zip(b) {
                add(x, *y)?;
            }
        }
        self.turns.checked_merge(&o.turns)?;
        self.rounds.checked_merge(&o.rounds)?;
        self.chips_per_game.checked_merge(&o.chips_per_game)?;
        for (k, v) in &o.chips_lost {
            add(self.chips_lost.entry(k.clone()).or_insert(0), *v)?;
        }
        for (k, v) in &o.bar_reached {
            add(self.bar_reached.entry(*k).or_insert(0), *v)?;
        }
        for (k, v) in &o.bar_passed {
            add(self.bar_passed.entry(*k).or_insert(0), *v)?;
        }
        add(&mut self.forced_busts, o.forced_busts)?;
        add(&mut self.chosen_busts, o.chosen_busts)?;
        if self.elimination.len() < o.elimination.len() {
            self.elimination.resize(o.elimination.len(), Vec::new());
        }
        for (a, b) in self.elimination.iter_mut().zip(&o.elimination) {
            a.resize(a.len().max(b.len()), 0);
            for (x, y) in a.iter_mut().zip(b) {
                add(x, *y)?;
            }
        }
        add(&mut self.turn_limited, o.turn_limited)?;
        add(&mut self.failed, o.failed)?;
        Ok(())
    }
}
