//! The compiled form, compactly, for snapshots: every table the engine reads.

use std::fmt::Write as _;

use crate::ir::{NO_EFFECT, Program};

/// The compiled form, compactly, for snapshots: every table the engine reads.
pub fn dump(p: &Program) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "name: {}", p.name);
    let _ = writeln!(out, "players: {}..={}", p.min_players, p.max_players);
    let range = usize::from(p.min_players)..=usize::from(p.max_players);
    let _ = writeln!(
        out,
        "decks: {:?}  jokers: {}",
        &p.decks[range.clone()],
        p.jokers
    );
    let _ = writeln!(out, "hand: {:?}", &p.hand[range.clone()]);
    let _ = writeln!(out, "chips: {}  start: {}", p.chips, p.start);
    let _ = writeln!(
        out,
        "ceiling: {:?}  floor: {:?}",
        p.ceiling.map(|c| c.value),
        p.floor.map(|f| f.value)
    );
    let _ = writeln!(
        out,
        "clockwise: {}  by_hand: {}  reshuffle: {}  first_dealer: {:?}  deal_clockwise: {}",
        p.clockwise, p.by_hand, p.reshuffle, p.first_dealer, p.deal_clockwise
    );
    let _ = writeln!(
        out,
        "leader: {:?}  rounds: {:?}  ending: {:?}  winner: {:?}  out_when_cannot_pay: {}  teams: {:?}",
        p.leader, p.rounds, p.ending, p.winner, p.out_when_cannot_pay, p.team_size
    );
    for o in &p.options {
        let _ = writeln!(
            out,
            "option {} = {} ({}, default {})",
            o.name, o.value, o.allowed, o.default
        );
    }
    let _ = writeln!(out, "rank effects by players left:");
    for n in range {
        let row: Vec<String> = p.rank_fx[n]
            .iter()
            .map(|e| {
                if *e == NO_EFFECT {
                    "-".into()
                } else {
                    e.to_string()
                }
            })
            .collect();
        let _ = writeln!(out, "  {n}: {}", row.join(" "));
    }
    for (i, fx) in p.effects.iter().enumerate() {
        let choices: Vec<String> = fx
            .choices()
            .iter()
            .zip(&fx.labels)
            .map(|(c, l)| {
                format!(
                    "{l}: {:?}",
                    c.steps()
                        .iter()
                        .map(|s| (s.cond, s.then, s.otherwise))
                        .collect::<Vec<_>>()
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "effect {i} (line {}): {}",
            fx.origin.line,
            choices.join(" | ")
        );
    }
    for (i, c) in p.conds.iter().enumerate() {
        let _ = writeln!(out, "cond {i}: {:?}", c.any_of);
    }
    for (i, o) in p.outcomes.iter().enumerate() {
        let _ = writeln!(out, "outcomes {i} (line {}): {:?}", o.origin.line, o.list);
    }
    for b in &p.bars {
        let _ = writeln!(out, "bar {:?}", b);
    }
    let _ = writeln!(out, "triggers: {:?}", p.triggers);
    out
}
