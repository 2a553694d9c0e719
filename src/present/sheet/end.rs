//! The rules sheet's last section: the counts the table keeps, the moments, what happens
//! when a player cannot play, how the game ends and who wins; and who leads each round,
//! which may go by what players hold.

use super::{Item, Section, origin_of, push};
use crate::ir::{Holding, Program, Role, Standing, TriggerKind, Winner};
use crate::present::words::{cond_words, outcomes_words, tests_words};

/// The counts the ruleset keeps, and the moments' rules.
fn count_items(p: &Program, out: &mut Vec<Item>) {
    // The limit's count is the limit line's, said there.
    for c in p.counts.iter().filter(|c| !c.holds_the_limit()) {
        let whose = if c.per_player { " for each player" } else { "" };
        push(
            out,
            Section::Table,
            &format!("count {}", c.name),
            format!("count {}{whose}, starting at {}", c.name, c.start),
            Some(if c.per_player {
                format!(
                    "each player keeps their own count of {}, from round to round; the rules say how it changes",
                    c.name
                )
            } else {
                format!(
                    "the table keeps one count of {}, from round to round; the rules say how it changes",
                    c.name
                )
            }),
            Some(c.origin),
        );
    }
    for (k, m) in p.moments.iter().enumerate() {
        let when = match m.kind {
            crate::ir::MomentKind::AfterCard => "after each card".to_string(),
            crate::ir::MomentKind::PlayerOut => "when a player goes out".to_string(),
            crate::ir::MomentKind::Left(n) => format!("when {n} players are left"),
        };
        let cond = m
            .cond
            .map(|c| format!(", {}", cond_words(p, &p.conds[usize::from(c)])))
            .unwrap_or_default();
        let o = &p.outcomes[usize::from(m.outcomes)];
        if let Some(line) = round_end_words(p, m) {
            push(
                out,
                Section::End,
                &format!("moment {k} {when}"),
                line,
                Some("checked after each card, once its own rules and the bars are done and its player has drawn".into()),
                Some(m.origin),
            );
            continue;
        }
        let note = match m.kind {
            crate::ir::MomentKind::AfterCard => {
                "once the card's own rules and the bars are done and its player has drawn, while the round goes on"
            }
            crate::ir::MomentKind::PlayerOut => "a player out of the game",
            crate::ir::MomentKind::Left(_) => "once, as the game comes down to that many",
        };
        push(
            out,
            Section::End,
            &format!("moment {k} {when}"),
            format!("{when}{cond}: {}", outcomes_words(p, o)),
            Some(note.to_string()),
            Some(m.origin),
        );
    }
}

/// A moment after each card whose only rule ends the round, as a ruleset says it: `the round
/// ends after 20 cards`, `the round ends when the run is 4`.
fn round_end_words(p: &Program, m: &crate::ir::Moment) -> Option<String> {
    use crate::ir::{Cmp, OutcomeKind, Quantity, Test};
    let o = &p.outcomes[usize::from(m.outcomes)];
    if m.kind != crate::ir::MomentKind::AfterCard
        || o.list.len() != 1
        || o.list[0].kind != OutcomeKind::EndRound
    {
        return None;
    }
    let c = &p.conds[usize::from(m.cond?)];
    if let ([all], []) = (c.any_of.as_slice(), c.unless.as_slice())
        && let [Test::Count(Quantity::RoundCards, Cmp::AtLeast, n)] = all.as_slice()
    {
        let cards = if *n == 1 { "card" } else { "cards" };
        return Some(format!("the round ends after {n} {cards}"));
    }
    if !c.unless.is_empty() || c.any_of.iter().any(Vec::is_empty) {
        // Not a plain test: said as the moment it is.
        return None;
    }
    Some(format!("the round ends when {}", tests_words(p, c)))
}

pub(super) fn end_items(p: &Program, out: &mut Vec<Item>) {
    let e = Section::End;
    count_items(p, out);
    for (moment, kind) in [
        ("when a player cannot play", TriggerKind::CannotPlay),
        ("when a player has no cards", TriggerKind::NoCards),
        ("at the start of each round", TriggerKind::RoundStart),
        ("at the end of each round", TriggerKind::RoundEnd),
        ("at the end of the game", TriggerKind::GameEnd),
    ] {
        // Its cases first, in the order tried, then what happens otherwise.
        let alone = p.trigger(kind).is_none()
            && p.trigger_cases.iter().filter(|c| c.trigger == kind).count() == 1;
        for (k, c) in p
            .trigger_cases
            .iter()
            .filter(|c| c.trigger == kind)
            .enumerate()
        {
            let o = &p.outcomes[usize::from(c.outcomes)];
            let test = cond_words(p, &p.conds[usize::from(c.cond)]);
            push(
                out,
                e,
                &format!("{moment}, case {k}"),
                format!("{moment}, {test}: {}", outcomes_words(p, o)),
                Some(if alone {
                    "only when its test holds".to_string()
                } else if k == 0 {
                    "the first line of this moment whose test holds is what happens".to_string()
                } else {
                    "when no line above holds and this test does".to_string()
                }),
                Some(o.origin),
            );
        }
        let otherwise = p.has_cases(kind);
        if let Some(i) = p.trigger(kind) {
            let o = &p.outcomes[usize::from(i)];
            push(
                out,
                e,
                moment,
                format!("{moment}: {}", outcomes_words(p, o)),
                otherwise.then(|| "when no line above with a test holds".to_string()),
                Some(o.origin),
            );
        }
    }
    push(
        out,
        e,
        "elimination",
        if p.out_when_cannot_pay {
            "a player is out when they cannot pay".to_string()
        } else {
            "a player is out at 0 chips".to_string()
        },
        Some(if p.out_when_cannot_pay {
            "out of the game the moment they must pay a chip they do not have".to_string()
        } else {
            "out of the game when they lose their last chip".to_string()
        }),
        origin_of(p, "elimination"),
    );
    let one = if p.team_size.is_some() {
        "one team is left"
    } else {
        "one player is left"
    };
    let mut ways: Vec<String> = Vec::new();
    if let Some(r) = p.rounds {
        ways.push(format!(
            "after {r} {}",
            if r == 1 { "round" } else { "rounds" }
        ));
    }
    if p.ending.left > 1 {
        ways.push(format!("when {} players are left", p.ending.left));
    }
    if p.ending.first_out {
        ways.push("when a player is out".to_string());
    }
    if let Some(m) = p.ending.reach {
        ways.push(format!(
            "when a player reaches {} {}",
            m.at,
            holding_words(p, m.by, m.at)
        ));
    }
    if let Some(m) = p.ending.fall {
        ways.push(format!(
            "when a player falls to {} {}",
            m.at,
            holding_words(p, m.by, m.at)
        ));
    }
    let (end, note) = if ways.is_empty() {
        (
            "the game ends when one player is left".to_string(),
            p.team_size
                .map(|_| "with teams: when one team is left".to_string()),
        )
    } else {
        // One player left comes after the ways that need players out.
        let longer = p.rounds.is_some() || p.ending.reach.is_some() || p.ending.fall.is_some();
        (
            format!("the game ends {}", ways.join(" or ")),
            longer.then(|| format!("or sooner, when {one}")),
        )
    };
    push(out, e, "game end", end, note, origin_of(p, "game end"));
    let (winner, note) = match (p.winner, p.team_size) {
        (Winner::Best(st), _) => (
            format!("the winner is the player with {}", standing_words(p, st)),
            Some("tied players share the win"),
        ),
        (Winner::LastLeft, Some(_)) => (
            "the winner is the last player left".to_string(),
            Some("with teams: the last team left"),
        ),
        (Winner::LastLeft, None) => ("the winner is the last player left".to_string(), None),
    };
    push(
        out,
        e,
        "winner",
        winner,
        note.map(str::to_string),
        origin_of(p, "winner"),
    );
}

/// What a line goes by, in words: `chips` (`chip` for one), or the count's name.
fn holding_words(p: &Program, by: Holding, n: i32) -> String {
    match by {
        Holding::Chips if n == 1 => "chip".to_string(),
        Holding::Chips => "chips".to_string(),
        Holding::Count(i) => p
            .counts
            .get(usize::from(i))
            .map_or_else(|| "?".to_string(), |c| c.name.clone()),
    }
}

/// `the most chips`, `the fewest points`.
fn standing_words(p: &Program, st: Standing) -> String {
    format!(
        "the {} {}",
        if st.most { "most" } else { "fewest" },
        holding_words(p, st.by, 2)
    )
}

/// Who leads each round, as a ruleset says it, and what happens when there is no such player.
pub(super) fn lead_words(p: &Program) -> (String, Option<String>) {
    let role = match p.leader.role {
        Role::Dealer => "dealer",
        Role::Loser => "loser",
        Role::Winner => "winner",
    };
    if let Some(st) = p.leader.by {
        let side = if p.leader.offset < 0 { "right" } else { "left" };
        return (
            format!(
                "the player with {} leads each round, ties to the {side} of the {role}",
                standing_words(p, st)
            ),
            Some(format!(
                "among the players in the game; of those tied, the first {side} of the {role}{}",
                if p.leader.role == Role::Dealer {
                    ""
                } else {
                    " (of the dealer when there is none)"
                }
            )),
        );
    }
    let rule = match p.leader.offset {
        0 => format!("the {role} leads"),
        o => format!(
            "the player {} of the {role} leads",
            if o > 0 { "left" } else { "right" }
        ),
    };
    let note = (p.leader.role != Role::Dealer).then(|| {
        format!("the {role} of the round before; in the first round, the player left of the dealer")
    });
    (rule, note)
}
