//! A run's or a shard's output (`--json`), and merging shards into the whole run: only the
//! disjoint slices of one run, all of them, each holding the games its slice must, with
//! counts that can be true; every sum checked for overflow.

use crate::play::Ruleset;
use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::run::slice_games;
use super::stats::HIST;
use super::{Config, Histogram, Stats, WIN_UNIT};
use crate::base::limits::{BARS, grouped};
use crate::ir::MAX_SEATS;

/// Why chips are lost, as a run counts them.
const CAUSES: [&str; 4] = ["bust", "passed", "reached", "other"];

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
        sums_of(h).map_err(|e| format!("is corrupt: its {what} {e}"))?;
    }
    // A game stops at the turn limit, and its turns are counted one by one up to it.
    if st.turns.counts.get(&(HIST as u32)).copied().unwrap_or(0) < st.turn_limited {
        return Err("is corrupt: more games stopped at the turn limit than ran to it".into());
    }
    sane_wins(st, p)?;
    sane_events(st)
}

/// A histogram's sums are those of its counts: exactly, when no value reached the last
/// bucket (which holds every value from [`HIST`] up, with their exact sum).
fn sums_of(h: &Histogram) -> Result<(), String> {
    let mut sum: u128 = 0;
    let mut sq: u128 = 0;
    let mut last = 0u64;
    for (&v, &c) in &h.counts {
        if v as usize > HIST {
            return Err(format!(
                "count a value of {}, past the last bucket",
                grouped(u64::from(v))
            ));
        }
        if v as usize == HIST {
            last = c;
        }
        sum += u128::from(v) * u128::from(c);
        sq += u128::from(v) * u128::from(v) * u128::from(c);
    }
    let exact = last == 0;
    if (exact && (u128::from(h.sum) != sum || h.sum_sq != sq))
        || (!exact && (u128::from(h.sum) < sum || h.sum_sq < sq))
    {
        return Err("do not add up to their sum".into());
    }
    Ok(())
}

/// Win shares are whole shares of won games: a game won by `k` tied players gives each
/// `WIN_UNIT / k`, so every seat's wins lie between its won games' smallest and largest
/// shares, in steps no tie can go below, and all the shares add up to whole games.
fn sane_wins(st: &Stats, p: usize) -> Result<(), String> {
    let lcm = (1..=p as u64).fold(1u64, |a, k| a / gcd(a, k) * k);
    let step = WIN_UNIT / lcm;
    let decided = st.games - st.turn_limited.min(st.games);
    let total: u64 = st.wins.iter().sum();
    if !total.is_multiple_of(WIN_UNIT) || total / WIN_UNIT > decided {
        return Err("is corrupt: its win shares are not whole games".into());
    }
    for (w, g) in st.wins.iter().zip(&st.won_games) {
        let most = g.checked_mul(WIN_UNIT);
        let least = g.checked_mul(WIN_UNIT / p as u64);
        if !w.is_multiple_of(step) || most.is_none_or(|m| *w > m) || least.is_none_or(|l| *w < l) {
            return Err("is corrupt: its wins do not match its games won".into());
        }
    }
    if st.won_games.iter().sum::<u64>() < total / WIN_UNIT {
        return Err("is corrupt: fewer games won than its win shares".into());
    }
    Ok(())
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Chips lost by a cause a run counts, adding up to the chips lost game by game; bars
/// fewer than a ruleset may have, each met at most once a card; busts no more than the
/// rounds and cards give room for.
fn sane_events(st: &Stats) -> Result<(), String> {
    if let Some(cause) = st.chips_lost.keys().find(|k| !CAUSES.contains(&k.as_str())) {
        return Err(format!(
            "is corrupt: it counts chips lost to `{}`, which no run counts",
            crate::base::text::clip(cause, 40)
        ));
    }
    let lost = st
        .chips_lost
        .values()
        .try_fold(0u64, |a, x| a.checked_add(*x));
    if lost != Some(st.chips_per_game.sum) {
        return Err(
            "is corrupt: its chips lost do not add up to the chips lost in its games".into(),
        );
    }
    let turns = st.turns.sum;
    for (what, bars) in [("reached", &st.bar_reached), ("passed", &st.bar_passed)] {
        if bars.len() > BARS {
            return Err(format!(
                "is corrupt: it counts {} bars {what}; a ruleset has at most {BARS}",
                grouped(bars.len() as u64)
            ));
        }
        if bars.values().any(|c| *c > turns) {
            return Err(format!(
                "is corrupt: a bar is {what} more often than cards were played"
            ));
        }
    }
    let room = st
        .turns
        .sum
        .saturating_add(st.rounds.sum)
        .saturating_mul(MAX_SEATS as u64 + 1);
    if st.chosen_busts > st.rounds.sum || st.forced_busts > room {
        return Err("is corrupt: more busts than its rounds can hold".into());
    }
    Ok(())
}

/// The bars a shard counts are bars of its ruleset (`p`, compiled with the run's options):
/// each one reached or passed has a rule for it.
pub fn bars_of(o: &Output, p: &Ruleset) -> Result<(), String> {
    let reach: BTreeSet<i32> = p
        .bars
        .iter()
        .filter(|b| b.reach.is_some())
        .map(|b| b.value)
        .collect();
    let pass: BTreeSet<i32> = p
        .bars
        .iter()
        .filter(|b| b.pass.is_some())
        .map(|b| b.value)
        .collect();
    for (what, counted, known) in [
        ("reached", &o.stats.bar_reached, &reach),
        ("passed", &o.stats.bar_passed, &pass),
    ] {
        if let Some(v) = counted.keys().find(|v| !known.contains(v)) {
            return Err(format!(
                "counts the bar {v} {what}, which its ruleset has no rule for: it is edited, or from another version of the ruleset"
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
        for (k, v) in &o.cards_moved {
            add(self.cards_moved.entry(k.clone()).or_insert(0), *v)?;
        }
        for (k, v) in &o.moves {
            add(self.moves.entry(k.clone()).or_insert(0), *v)?;
        }
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
