//! The sheet's lines for the moves beside laying a card (`instead of laying a card, a player
//! may ...`) and for the cards that name a player.

use super::super::words::outcomes_words;
use super::{Item, Section};
use crate::base::cards::{RANK_WORDS, RANKS};
use crate::ir::{OtherKind, OtherMove, OtherWhen, OutcomeKind, Program};

/// What a move does, as a ruleset line says it: `discard a King`, `lay the top card of the
/// stock`, `pass`.
pub fn other_action_words(o: &OtherMove) -> String {
    match o.kind {
        OtherKind::Discard(ranks) if ranks.count_ones() as usize >= RANKS => {
            "discard any card".to_string()
        }
        OtherKind::Discard(ranks) => {
            let names: Vec<&str> = (0..RANKS)
                .filter(|r| ranks & 1 << r != 0)
                .map(|r| RANK_WORDS[r])
                .collect();
            let a = |w: &str| if w == "Ace" || w == "8" { "an" } else { "a" };
            let list: Vec<String> = names.iter().map(|w| format!("{} {w}", a(w))).collect();
            format!("discard {}", list.join(" or "))
        }
        OtherKind::LayTop => "lay the top card of the stock".to_string(),
        OtherKind::Pass => "pass".to_string(),
    }
}

/// The line of a move beside laying a card, as a ruleset writes it.
pub fn other_rule(p: &Program, o: &OtherMove) -> String {
    let action = other_action_words(o);
    let mut rule = match o.when {
        OtherWhen::Instead => format!("instead of laying a card, a player may {action}"),
        OtherWhen::Stuck => format!("a player who cannot play may {action} instead"),
    };
    if let Some(o) = o.then.and_then(|i| p.outcomes.get(usize::from(i))) {
        rule.push_str(": ");
        rule.push_str(&outcomes_words(p, o));
    }
    if let Some(o) = o.failed.and_then(|i| p.outcomes.get(usize::from(i))) {
        rule.push_str("; if it cannot be laid: ");
        rule.push_str(&outcomes_words(p, o));
    }
    rule
}

/// What a move means at the table, beyond its words.
fn other_note(p: &Program, o: &OtherMove) -> String {
    let who = match o.when {
        OtherWhen::Instead => "on their turn, a player holding cards may make this move",
        OtherWhen::Stuck => {
            "a player holding cards, none of which they may lay, may make this move or take what the rules give a player who cannot play"
        }
    };
    let what = match o.kind {
        OtherKind::Discard(_) => {
            "the card goes onto the discard pile and the total stays; the player draws back up to a full hand and the turn passes".to_string()
        }
        OtherKind::LayTop => {
            let failed = if o.failed.is_some() {
                "what follows `if it cannot be laid` happens"
            } else if p.triggers.cannot_play.is_some() {
                "the player is dealt with as a player who cannot play"
            } else {
                "nothing more happens"
            };
            format!(
                "the stock's top card is turned up and laid the first way the rules allow it; one that cannot be laid goes onto the discard pile without changing the total, and {failed}; the turn then passes"
            )
        }
        OtherKind::Pass => "nothing moves, and the turn passes".to_string(),
    };
    // What follows the move may end the round: then no turn passes.
    let ends = o
        .then
        .and_then(|i| p.outcomes.get(usize::from(i)))
        .is_some_and(|list| {
            list.list.iter().any(|x| {
                matches!(
                    x.kind,
                    OutcomeKind::WinRound
                        | OutcomeKind::LoseRound
                        | OutcomeKind::EndRound
                        | OutcomeKind::WinGame
                        | OutcomeKind::EndGame
                )
            })
        });
    let what = if ends {
        what.replace("the turn passes", "what follows the move ends the round")
            .replace(
                "the turn then passes",
                "what follows the move ends the round",
            )
    } else {
        what
    };
    format!("{who}: {what}")
}

/// The sheet's lines for the moves beside laying a card.
pub(super) fn other_items(p: &Program, out: &mut Vec<Item>) {
    for o in &p.others {
        out.push(Item {
            section: Section::Cards,
            key: format!("move {}", other_action_words(o)),
            text: String::new(),
            rule: other_rule(p, o),
            note: Some(other_note(p, o)),
            origin: Some(o.origin),
            nested: false,
        });
    }
}
