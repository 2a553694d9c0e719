//! Rule impact: for each card line, bar and trigger of the program, how often it fired, the
//! share of lost rounds it decided, and for those that never fired an upper bound on how
//! often they could (the rule of three).

use crate::play::Ruleset;
use serde::Serialize;

use super::Tally;
use super::tally::line_key;
use crate::base::cards::{JOKER, RANK_NAMES};
use crate::ir::Origin;
use crate::sim::wilson;

/// One rule of the program and what it did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RuleLine {
    /// `card`, `bar` or `trigger`.
    pub kind: &'static str,
    pub label: String,
    /// Where it was written: the file and its line.
    pub file: String,
    pub line: u32,
    /// Times it fired, and games in which it fired at least once.
    pub fired: u64,
    pub games: u64,
    /// Lost rounds it decided (the last card before the round was lost, or the list the
    /// loser paid by), and their share of the lost rounds with its 95% interval.
    pub decided: u64,
    pub decided_share: f64,
    pub low: f64,
    pub high: f64,
    /// For a rule that never fired: the rule of three's bound, fewer than 1 in this many games.
    pub never_bound: Option<u64>,
    /// Restricted play (`--restrict`): the change in the restricted bot's win share when it
    /// may not use this rule.
    pub restricted: Option<super::restrict::Change>,
}

fn rule(p: &Ruleset, t: &Tally, kind: &'static str, label: String, origin: Origin) -> RuleLine {
    RuleLine {
        kind,
        label,
        file: p
            .files
            .get(usize::from(origin.file))
            .cloned()
            .unwrap_or_default(),
        line: origin.line,
        fired: 0,
        games: 0,
        decided: 0,
        decided_share: 0.0,
        low: 0.0,
        high: 0.0,
        never_bound: (t.games > 0).then_some((t.games / 3).max(1)),
        restricted: None,
    }
}

fn counts(mut r: RuleLine, t: &Tally, (fired, games, decided): (u64, u64, u64)) -> RuleLine {
    r.fired = fired;
    r.games = games;
    r.decided = decided;
    let n = t.lost_rounds as f64;
    if n > 0.0 {
        r.decided_share = 100.0 * decided as f64 / n;
        (r.low, r.high) = wilson(decided as f64, n);
    }
    if fired > 0 {
        r.never_bound = None;
    }
    r
}

/// What a rule of the program is made of: the effects of a card line (one line as written may
/// compile to several), or one outcome list (a bar's reaching or passing, a trigger).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Effects(Vec<u16>),
    Outcome(u16),
}

/// A rule as the judge lists it: its kind, its label, where it was written, and its source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub kind: &'static str,
    pub label: String,
    pub origin: Origin,
    pub source: Source,
}

/// Every rule that can happen with `players` players, cards first, then bars, then triggers:
/// the order of [`rules`] and of restricted play.
pub fn targets(p: &Ruleset, players: usize) -> Vec<Target> {
    let mut out = Vec::new();
    // One entry a line as written: `card 2, 5, 6, 7, 8: add face value` is one rule, however
    // many effects it compiled to.
    let mut written: Vec<(Origin, Vec<u16>, Vec<u8>)> = Vec::new();
    for l in &p.card_lines {
        if l.rank == JOKER && p.jokers == 0 {
            continue;
        }
        let applies = (2..=players.max(2)).any(|n| p.effect_index(n, l.rank) == l.fx);
        let Some(e) = p.effects.get(usize::from(l.fx)).filter(|_| applies) else {
            continue;
        };
        match written.iter_mut().find(|(o, _, _)| *o == e.origin) {
            Some((_, fxs, ranks)) => {
                if !fxs.contains(&l.fx) {
                    fxs.push(l.fx);
                }
                ranks.push(l.rank);
            }
            None => written.push((e.origin, vec![l.fx], vec![l.rank])),
        }
    }
    for (origin, fxs, ranks) in written {
        let text = fxs
            .first()
            .and_then(|f| p.effects.get(usize::from(*f)))
            .map_or("", |e| e.text.as_str());
        let names: Vec<&str> = ranks
            .iter()
            .map(|r| RANK_NAMES.get(usize::from(*r)).copied().unwrap_or("?"))
            .collect();
        out.push(Target {
            kind: "card",
            label: format!("card {}: {}", names.join(", "), p.filled(text)),
            origin,
            source: Source::Effects(fxs),
        });
    }
    let mut lists: Vec<(&'static str, String, u16)> = Vec::new();
    for b in &p.bars {
        for (i, verb) in [(b.reach, "reaching"), (b.pass, "passing")] {
            if let Some(i) = i {
                lists.push(("bar", format!("{verb} {}", b.value), i));
            }
        }
    }
    let tr = &p.triggers;
    for (i, what) in [
        (tr.cannot_play, "a player who cannot play"),
        (tr.no_cards, "a player with no cards"),
        (tr.round_start, "the start of a round"),
        (tr.round_end, "the end of a round"),
        (tr.game_end, "the end of the game"),
    ] {
        if let Some(i) = i {
            lists.push(("trigger", what.to_string(), i));
        }
    }
    for (kind, what, i) in lists {
        let Some(o) = p.outcomes.get(usize::from(i)) else {
            continue;
        };
        // A trigger's text says its moment already (`when a player cannot play: ...`).
        let label = if kind == "trigger" {
            p.filled(&o.text)
        } else {
            format!("{what}: {}", p.filled(&o.text))
        };
        out.push(Target {
            kind,
            label,
            origin: o.origin,
            source: Source::Outcome(i),
        });
    }
    out
}

/// Every rule that can happen with the tally's players ([`targets`]) and what it did; with
/// restricted play's row when it was played.
pub fn rules(p: &Ruleset, t: &Tally) -> Vec<RuleLine> {
    let get = |v: &[u64], i: usize| v.get(i).copied().unwrap_or(0);
    targets(p, t.players)
        .into_iter()
        .enumerate()
        .map(|(at, target)| {
            let figures = match &target.source {
                Source::Effects(fxs) => {
                    let sum = |v: &[u64]| fxs.iter().map(|f| get(v, usize::from(*f))).sum();
                    let games = t
                        .line_games
                        .get(&line_key(target.origin))
                        .copied()
                        .unwrap_or(0);
                    (sum(&t.fx_fired), games, sum(&t.fx_decided))
                }
                Source::Outcome(i) => {
                    let k = usize::from(*i);
                    (
                        get(&t.out_fired, k),
                        get(&t.out_games, k),
                        get(&t.out_decided, k),
                    )
                }
            };
            let mut r = counts(
                rule(p, t, target.kind, target.label, target.origin),
                t,
                figures,
            );
            r.restricted = t.restricted.as_ref().and_then(|x| {
                x.rows
                    .get(at)
                    .map(|row| super::restrict::Change::of(&x.bot, row))
            });
            r
        })
        .collect()
}
