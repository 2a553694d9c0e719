//! Builders for what happens to players: payments, round results, resets.

use pest::iterators::Pair;

use super::Rule;
use super::tokens::*;
use super::values::{table_count, value};
use crate::base::diag::Diag;
use crate::lang::ast::*;

pub(super) fn who(pair: &Pair<'_, Rule>) -> Who {
    match pair.clone().into_inner().next().map(|p| p.as_rule()) {
        Some(Rule::each_other) => Who::EachOther,
        Some(Rule::every_player) => Who::Every,
        Some(Rule::the_winner) => Who::Winner,
        Some(Rule::the_loser) => Who::Loser,
        Some(Rule::the_next) => Who::Next,
        Some(Rule::the_plays_next) => Who::PlaysNext,
        Some(Rule::the_before) => Who::Before,
        Some(Rule::the_laid_previous) => Who::LaidPrevious,
        Some(Rule::the_whoever_laid) => Who::WhoeverLaid,
        Some(Rule::the_after) => Who::After,
        Some(Rule::the_previous) => Who::Previous,
        Some(Rule::the_richest) => Who::Richest,
        Some(Rule::the_poorest) => Who::Poorest,
        Some(Rule::tied_richest) => Who::TiedRichest,
        Some(Rule::tied_poorest) => Who::TiedPoorest,
        Some(Rule::each_out) => Who::EachOut,
        Some(Rule::the_chosen) => Who::Chosen,
        _ => Who::Player,
    }
}

pub(super) fn outcomes(pair: Pair<'_, Rule>, start: usize) -> Result<Vec<Outcome>, Diag> {
    pair.into_inner()
        .filter(|p| p.as_rule() == Rule::outcome)
        .map(|p| outcome(p, start))
        .collect()
}

pub(super) fn outcome(pair: Pair<'_, Rule>, start: usize) -> Result<Outcome, Diag> {
    let pair = if pair.as_rule() == Rule::outcome {
        pair.into_inner().next().expect("an outcome has a kind")
    } else {
        pair
    };
    let span = sp(&pair, start);
    let rule = pair.as_rule();
    let pile = pair
        .clone()
        .into_inner()
        .any(|p| p.as_rule() == Rule::pile_too);
    // How many players skipped, or more turns (`skip 2 players`, `plays again twice`).
    let times = if matches!(rule, Rule::skip | Rule::plays_again) {
        super::effects::count(pair.clone(), start)?
    } else {
        None
    };
    let mut subject = None;
    let mut amount_v = None;
    let mut count = None;
    let mut change = None;
    let mut to = Target::Bank;
    let mut from = Pool::Bank;
    // The second player a card move names (`swap hands with the next player`).
    let mut other = None;
    let (mut random, mut chosen) = (false, false);
    for p in pair.into_inner() {
        match p.as_rule() {
            // A card move's last `who` is the other player; one before it, the subject.
            Rule::who
                if matches!(
                    rule,
                    Rule::swaps_hands | Rule::takes_card | Rule::gives_card
                ) =>
            {
                subject = other.take();
                other = Some(who(&p));
            }
            Rule::who => subject = Some(who(&p)),
            Rule::card_random => random = true,
            Rule::card_chosen => chosen = true,
            Rule::pot => from = Pool::Pot,
            Rule::bank => from = Pool::Bank,
            Rule::value => amount_v = Some(value(p, start)?),
            Rule::seat_count | Rule::named_count | Rule::table_count => {
                count = Some(table_count(p, start))
            }
            Rule::goes_up | Rule::goes_down | Rule::becomes => {
                let r = p.as_rule();
                let v = value(p.into_inner().next().expect("by how much"), start)?;
                change = Some(match r {
                    Rule::goes_up => Change::Up(v),
                    Rule::goes_down => Change::Down(v),
                    _ => Change::Become(v),
                });
            }
            Rule::count_resets => change = Some(Change::Reset),
            Rule::target => {
                let t = p.into_inner().next().expect("a target");
                to = match t.as_rule() {
                    Rule::bank => Target::Bank,
                    Rule::pot => Target::Pot,
                    _ => Target::Seat(who(&t)),
                };
            }
            _ => {}
        }
    }
    let kind = match rule {
        Rule::skip => OutcomeKind::Skips(times),
        Rule::plays_again => OutcomeKind::PlaysAgain(times),
        Rule::pays => OutcomeKind::Pays {
            amount: amount_v.expect("pays has an amount"),
            to,
        },
        Rule::wins_round => OutcomeKind::WinsRound,
        Rule::loses_round => OutcomeKind::LosesRound,
        Rule::out_of_round => OutcomeKind::OutOfRound,
        Rule::out_of_game => OutcomeKind::OutOfGame,
        Rule::resets => OutcomeKind::Resets { pile },
        Rule::round_ends => OutcomeKind::RoundEnds,
        Rule::goes_on => OutcomeKind::GoesOn,
        Rule::wins_game => OutcomeKind::WinsGame,
        Rule::game_ends => OutcomeKind::GameEnds,
        Rule::play_reverses => OutcomeKind::Reverses,
        // `the bank pays 1 to the player`: the player gains 1 from the bank.
        Rule::gains | Rule::bank_pays => OutcomeKind::Gains {
            amount: amount_v.expect("a gain has an amount"),
            from,
        },
        Rule::total_becomes => OutcomeKind::SetTotal(amount_v.expect("the total becomes a value")),
        Rule::count_change => OutcomeKind::Count {
            count: count.expect("a count to change"),
            change: change.expect("how it changes"),
        },
        Rule::draws => OutcomeKind::Draws(amount_v.expect("draws has an amount")),
        Rule::swaps_hands => OutcomeKind::SwapsHands(other.expect("swaps with someone")),
        Rule::takes_card => OutcomeKind::TakesCard {
            from: other.expect("takes from someone"),
            pick: pick(random, chosen),
        },
        Rule::gives_card => OutcomeKind::GivesCard {
            to: other.expect("gives to someone"),
            pick: pick(random, chosen),
        },
        _ => OutcomeKind::TakesPot,
    };
    Ok(Outcome {
        who: subject,
        kind,
        span,
    })
}

/// How a card move says its card is picked.
fn pick(random: bool, chosen: bool) -> Pick {
    match (random, chosen) {
        (false, false) => Pick::Unsaid,
        (true, false) => Pick::Random,
        (false, true) => Pick::Chosen,
        (true, true) => Pick::Both,
    }
}
