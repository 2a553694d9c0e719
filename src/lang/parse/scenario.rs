//! Builders for the steps of a `scenario` block.

use pest::iterators::Pair;

use super::Rule;
use super::tokens::*;
use crate::lang::ast::*;

pub(super) fn cards(pair: Option<Pair<'_, Rule>>, start: usize) -> Vec<Spanned<String>> {
    pair.map(|p| {
        p.into_inner()
            .map(|c| Spanned {
                node: c.as_str().to_string(),
                span: sp(&c, start),
            })
            .collect()
    })
    .unwrap_or_default()
}

pub(super) fn numbers(pair: Pair<'_, Rule>) -> Vec<i64> {
    pair.into_inner()
        .filter_map(|p| p.as_str().parse().ok())
        .collect()
}

/// `points: 0, 290, 0`: a count's name and its values.
fn named_numbers(pair: Pair<'_, Rule>, start: usize) -> (Spanned<String>, Vec<i64>) {
    let name = pair
        .clone()
        .into_inner()
        .find(|p| p.as_rule() == Rule::ident)
        .map(|p| Spanned {
            node: p.as_str().to_string(),
            span: sp(&p, start),
        })
        .unwrap_or(Spanned {
            node: String::new(),
            span: sp(&pair, start),
        });
    (name, numbers(pair))
}

pub(super) fn build_step(pair: Pair<'_, Rule>, start: usize) -> ScenarioStep {
    let rule = pair.as_rule();
    let first_num = |p: &Pair<'_, Rule>| {
        p.clone()
            .into_inner()
            .find(|c| c.as_rule() == Rule::number)
            .and_then(|c| c.as_str().parse().ok())
            .unwrap_or(0)
    };
    match rule {
        Rule::sc_players => ScenarioStep::Players(first_num(&pair)),
        Rule::sc_set => {
            let mut it = pair.into_inner();
            let name = it
                .next()
                .map(|p| p.as_str().to_string())
                .unwrap_or_default();
            let value = it
                .next()
                .and_then(|v| option_value(&v, start).ok())
                .unwrap_or(OptValue::No);
            ScenarioStep::Set(name, value)
        }
        Rule::sc_total => ScenarioStep::Total(first_num(&pair)),
        Rule::sc_chips => ScenarioStep::Chips(numbers(pair)),
        Rule::sc_turn => ScenarioStep::Turn(first_num(&pair)),
        Rule::sc_direction => {
            ScenarioStep::Direction(turning(&pair.into_inner().next().expect("a direction")))
        }
        Rule::sc_hand => {
            let seat = first_num(&pair);
            ScenarioStep::Hand(
                seat,
                cards(
                    pair.into_inner().find(|p| p.as_rule() == Rule::cards),
                    start,
                ),
            )
        }
        Rule::sc_stock => {
            let only = pair.clone().into_inner().any(|p| p.as_rule() == Rule::only);
            ScenarioStep::Stock(
                cards(
                    pair.into_inner().find(|p| p.as_rule() == Rule::cards),
                    start,
                ),
                only,
            )
        }
        Rule::sc_dealer => ScenarioStep::Dealer(first_num(&pair)),
        Rule::sc_discard => ScenarioStep::Discard(cards(pair.into_inner().next(), start)),
        Rule::sc_pot => ScenarioStep::Pot(first_num(&pair)),
        Rule::sc_bank => ScenarioStep::Bank(first_num(&pair)),
        Rule::sc_next_deal => ScenarioStep::NextDeal(cards(
            pair.into_inner().find(|p| p.as_rule() == Rule::cards),
            start,
        )),
        Rule::sc_play => {
            let c = pair.into_inner().next().expect("a card");
            ScenarioStep::Play(Spanned {
                node: c.as_str().to_string(),
                span: sp(&c, start),
            })
        }
        Rule::sc_draw => ScenarioStep::Draw,
        Rule::sc_count => {
            let (name, values) = named_numbers(pair, start);
            ScenarioStep::Count(name, values)
        }
        Rule::sc_round => ScenarioStep::Round(first_num(&pair)),
        _ => {
            let e = pair.into_inner().next().expect("an expectation");
            let rule = e.as_rule();
            let n = first_num(&e);
            ScenarioStep::Expect(match rule {
                Rule::ex_total => Expectation::Total(n),
                Rule::ex_chips => Expectation::Chips(numbers(e)),
                Rule::ex_turn => Expectation::Turn(n),
                Rule::ex_out => Expectation::Out(numbers(e)),
                Rule::ex_round_over => Expectation::RoundOver,
                Rule::ex_game_over => Expectation::GameOver,
                Rule::ex_winner => Expectation::Winner(numbers(e)),
                Rule::ex_illegal => {
                    let c = e.into_inner().next().expect("a card");
                    Expectation::Illegal(Spanned {
                        node: c.as_str().to_string(),
                        span: sp(&c, start),
                    })
                }
                Rule::ex_legal => {
                    let c = e.into_inner().next().expect("a card");
                    Expectation::Legal(Spanned {
                        node: c.as_str().to_string(),
                        span: sp(&c, start),
                    })
                }
                Rule::ex_dealer => Expectation::Dealer(n),
                Rule::ex_round => Expectation::Round(n),
                Rule::ex_pot => Expectation::Pot(n),
                Rule::ex_bank => Expectation::Bank(n),
                Rule::ex_count => {
                    let (name, values) = named_numbers(e, start);
                    Expectation::Count(name, values)
                }
                Rule::ex_holds => {
                    let seat = first_num(&e);
                    let cards = e
                        .into_inner()
                        .filter(|p| p.as_rule() == Rule::cards)
                        .flat_map(|p| p.into_inner())
                        .map(|c| Spanned {
                            node: c.as_str().to_string(),
                            span: sp(&c, start),
                        })
                        .collect();
                    Expectation::Holds(seat, cards)
                }
                Rule::ex_direction => {
                    Expectation::Direction(turning(&e.into_inner().next().expect("a direction")))
                }
                _ => {
                    let v = numbers(e);
                    Expectation::HandSize(
                        v.first().copied().unwrap_or(0),
                        v.get(1).copied().unwrap_or(0),
                    )
                }
            })
        }
    }
}
