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
    /// `card`, `bar`, `moment` or `trigger`.
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
    /// Why the rule cannot happen in the games judged, when that is known for sure (then it
    /// has no bound: it is not rare, it is impossible).
    pub cannot: Option<String>,
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
        cannot: None,
        restricted: None,
    }
}

impl RuleLine {
    /// Whether it fired in the games judged (and so has a share of the rounds it decided).
    pub fn fired(&self) -> bool {
        self.never_bound.is_none() && self.cannot.is_none()
    }

    /// What it did, in words: how often it fired and what it decided (the share with its
    /// interval, `share`), or why it never did.
    pub fn what(&self, share: impl FnOnce(&RuleLine) -> String) -> String {
        match (&self.cannot, self.never_bound) {
            (Some(why), _) => format!("cannot happen here: {why}"),
            (None, Some(n)) => format!("never fired: fewer than 1 in {n} games (95%)"),
            (None, None) => share(self),
        }
    }
}

fn counts(mut r: RuleLine, t: &Tally, (fired, games, decided): (u64, u64, u64)) -> RuleLine {
    r.fired = fired;
    r.games = games;
    r.decided = decided;
    let n = t.faults as f64;
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
    /// A move beside laying a card: an index into `Program::others`.
    Other(u8),
}

/// A rule as the judge lists it: its kind, its label, where it was written, and its source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub kind: &'static str,
    pub label: String,
    /// Why it cannot happen with the players judged, when it cannot.
    pub cannot: Option<String>,
    pub origin: Origin,
    pub source: Source,
}

/// Every rule that can happen with `players` players, cards first, then bars, then triggers:
/// the order of [`rules`] and of restricted play.
pub fn targets(p: &Ruleset, players: usize) -> Vec<Target> {
    let mut out = Vec::new();
    // One entry a line as written: `card 2, 5, 6, 7, 8: add face value` is one rule, however
    // many effects it compiled to.
    let mut written: Vec<(Origin, Vec<u16>, Vec<u8>, bool)> = Vec::new();
    for l in &p.card_lines {
        if l.rank == JOKER && p.jokers == 0 {
            continue;
        }
        // A line for other player counts than these is listed, as one that cannot happen;
        // one no player count ever reaches (replaced for every count) is not a rule.
        let applies = (2..=players.max(2)).any(|n| p.effect_index(n, l.rank) == l.fx);
        let ever =
            (2..=usize::from(p.max_players).max(2)).any(|n| p.effect_index(n, l.rank) == l.fx);
        let Some(e) = p.effects.get(usize::from(l.fx)).filter(|_| ever) else {
            continue;
        };
        match written.iter_mut().find(|(o, _, _, _)| *o == e.origin) {
            Some((_, fxs, ranks, any)) => {
                if !fxs.contains(&l.fx) {
                    fxs.push(l.fx);
                }
                ranks.push(l.rank);
                *any |= applies;
            }
            None => written.push((e.origin, vec![l.fx], vec![l.rank], applies)),
        }
    }
    for (origin, fxs, ranks, applies) in written {
        let text = fxs
            .first()
            .and_then(|f| p.effects.get(usize::from(*f)))
            .map_or("", |e| e.text.as_str());
        let names: Vec<&str> = ranks
            .iter()
            .map(|r| RANK_NAMES.get(usize::from(*r)).copied().unwrap_or("?"))
            .collect();
        // The line as written, so that `card 4 with 2 players: ...` is not read as a second
        // `card 4: ...`; a line written otherwise (an `if` of an option) as its card says.
        let written = p.line_text(origin);
        let label = if written.starts_with("card ") {
            p.filled(written)
        } else {
            format!("card {}: {}", names.join(", "), p.filled(text))
        };
        out.push(Target {
            kind: "card",
            label,
            cannot: (!applies).then(|| {
                format!(
                    "with {players} players another line decides {}",
                    if ranks.len() == 1 {
                        "this card"
                    } else {
                        "these cards"
                    }
                )
            }),
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
    // Bars a script tests, and moments: their lines say when they happen.
    let written: Vec<(&'static str, u16)> = p
        .script_bars
        .iter()
        .map(|b| ("bar", b.outcomes))
        .chain(p.moments.iter().map(|m| ("moment", m.outcomes)))
        .collect();
    for (kind, i) in written {
        if let Some(o) = p.outcomes.get(usize::from(i)) {
            out.push(Target {
                kind,
                label: p.filled(p.line_text(o.origin)),
                cannot: None,
                origin: o.origin,
                source: Source::Outcome(i),
            });
        }
    }
    // Moves beside laying a card: how often a player made each.
    for (k, m) in p.others.iter().enumerate() {
        out.push(Target {
            kind: "move",
            label: p.filled(p.line_text(m.origin)),
            cannot: None,
            origin: m.origin,
            source: Source::Other(k as u8),
        });
    }
    for (kind, what, i) in lists {
        let Some(o) = p.outcomes.get(usize::from(i)) else {
            continue;
        };
        let cannot =
            (kind == "trigger" && p.triggers.no_cards == Some(i) && p.always_holds_cards())
                .then(|| crate::ir::ALWAYS_HOLDS_CARDS.to_string());
        // A trigger's text says its moment already (`when a player cannot play: ...`).
        let label = if kind == "trigger" {
            p.filled(&o.text)
        } else {
            format!("{what}: {}", p.filled(&o.text))
        };
        out.push(Target {
            kind,
            label,
            cannot,
            origin: o.origin,
            source: Source::Outcome(i),
        });
    }
    // A line as written, but not its comment (`# N33-4`): the figures follow it.
    for t in &mut out {
        t.label = crate::base::span::strip_comment(&t.label)
            .trim_end()
            .to_string();
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
                Source::Other(k) => {
                    let k = usize::from(*k);
                    (
                        get(&t.other_fired, k),
                        get(&t.other_games, k),
                        get(&t.other_decided, k),
                    )
                }
            };
            let mut r = counts(
                rule(p, t, target.kind, target.label, target.origin),
                t,
                figures,
            );
            if target.cannot.is_some() && r.fired == 0 {
                r.cannot = target.cannot;
                r.never_bound = None;
            }
            r.restricted = t.restricted.as_ref().and_then(|x| {
                x.rows
                    .get(at)
                    .map(|row| super::restrict::Change::of(&x.bot, row))
            });
            r
        })
        .collect()
}
