//! Builders for the statements of a ruleset line, one per grammar rule.

use pest::iterators::Pair;

use super::Rule;
use super::effects::effect;
use super::outcomes::outcomes;
use super::tokens::*;
use crate::base::Code;
use crate::base::diag::Diag;
use crate::lang::ast::*;

pub(super) fn build_statement(pair: Pair<'_, Rule>, start: usize) -> Result<StatementKind, Diag> {
    let rule = pair.as_rule();
    let span = sp(&pair, start);
    let mut inner = pair
        .into_inner()
        .filter(|p| !matches!(p.as_rule(), Rule::kw_or | Rule::kw_and));
    let mut next = || inner.next().expect("the grammar guarantees this child");
    Ok(match rule {
        Rule::name_stmt => StatementKind::Name(string(next(), start).node),
        Rule::about_stmt => StatementKind::About(string(next(), start).node),
        Rule::extends_stmt => StatementKind::Extends(string(next(), start)),
        Rule::option_stmt => option_stmt(&next(), &next(), inner.next(), start)?,
        Rule::players_stmt => {
            let min = amount(next(), start)?;
            let max = amount(next(), start)?;
            StatementKind::Players { min, max }
        }
        Rule::decks_stmt => {
            let count = amount(next(), start)?;
            let with = inner.next().map(|p| with_players(p, start)).transpose()?;
            StatementKind::Decks { count, with }
        }
        Rule::jokers_stmt => StatementKind::Jokers(amount(next(), start)?),
        Rule::hand_stmt => {
            let size = amount(next(), start)?;
            let with = inner.next().map(|p| with_players(p, start)).transpose()?;
            StatementKind::Hand { size, with }
        }
        Rule::chips_stmt => StatementKind::Chips(amount(next(), start)?),
        Rule::start_stmt => StatementKind::Start(amount(next(), start)?),
        Rule::limit_stmt => {
            let side = if next().as_rule() == Rule::above {
                Side::Above
            } else {
                Side::Below
            };
            StatementKind::Limit {
                side,
                value: super::values::value(next(), start)?,
            }
        }
        Rule::direction_stmt => StatementKind::Direction(turning(&next())),
        Rule::drawing_stmt => StatementKind::Drawing {
            by_hand: next().as_rule() == Rule::by_hand,
        },
        Rule::stock_stmt => StatementKind::EmptyStock {
            reshuffle: next().as_rule() == Rule::reshuffle,
        },
        Rule::card_stmt => {
            let ranks = ranks(next(), start);
            let mut with = None;
            let mut effect_pair = next();
            if effect_pair.as_rule() == Rule::with_players {
                with = Some(with_players(effect_pair, start)?);
                effect_pair = next();
            }
            StatementKind::Card {
                ranks,
                with,
                effect: effect(effect_pair, start)?,
            }
        }
        Rule::bar_stmt => {
            let passing = next().as_rule() == Rule::passing;
            let values = next()
                .into_inner()
                .filter(|p| p.as_rule() == Rule::amount)
                .map(|p| amount(p, start))
                .collect::<Result<_, _>>()?;
            let mut way = None;
            let mut outs = next();
            let said = match outs.as_rule() {
                Rule::either_way => Some(Way::Both),
                Rule::going_down => Some(Way::Down),
                Rule::going_up => Some(Way::Up),
                _ => None,
            };
            if let Some(w) = said {
                way = Some(Spanned {
                    node: w,
                    span: sp(&outs, start),
                });
                outs = next();
            }
            StatementKind::Bar {
                passing,
                values,
                way,
                outcomes: outcomes(outs, start)?,
            }
        }
        Rule::when_stmt => when_stmt(inner, start)?,
        Rule::out_stmt => StatementKind::Out {
            when_cannot_pay: next().as_rule() == Rule::cannot_pay,
        },
        Rule::dealer_stmt => {
            let p = next();
            if p.as_rule() == Rule::player_n {
                StatementKind::FirstDealer(Some(amount(p.into_inner().next().expect("n"), start)?))
            } else {
                StatementKind::FirstDealer(None)
            }
        }
        Rule::deal_stmt => StatementKind::DealPasses(turning(&next())),
        Rule::leader_stmt => leader_stmt(inner, start),
        Rule::game_end_stmt => StatementKind::GameEnd(endings(inner, start)?),
        Rule::winner_stmt => {
            let p = next();
            StatementKind::Winner(match p.as_rule() {
                Rule::most_chips => WinnerRule::Most(holding(p, start)),
                Rule::fewest_chips => WinnerRule::Fewest(holding(p, start)),
                _ => WinnerRule::LastLeft,
            })
        }
        Rule::teams_stmt => StatementKind::Teams(amount(next(), start)?),
        Rule::remove_stmt => StatementKind::Remove(removal(next(), start)?),
        Rule::keep_stmt => StatementKind::KeepBars(
            next()
                .into_inner()
                .filter(|a| a.as_rule() == Rule::amount)
                .map(|a| amount(a, start))
                .collect::<Result<_, _>>()?,
        ),
        Rule::script_file => StatementKind::ScriptFile(string(next(), start)),
        Rule::script_bar => {
            let name = next();
            let name = Spanned {
                node: name.as_str().to_string(),
                span: sp(&name, start),
            };
            StatementKind::ScriptBar {
                name,
                outcomes: outcomes(next(), start)?,
            }
        }
        other => {
            return Err(Diag::error(
                Code::Syntax,
                span,
                format!("this line cannot be read ({other:?})"),
            ));
        }
    })
}

/// `option chips = 3 from 1 to 10`: its name, default and range pairs.
fn option_stmt(
    name_pair: &Pair<'_, Rule>,
    value_pair: &Pair<'_, Rule>,
    range_pair: Option<Pair<'_, Rule>>,
    start: usize,
) -> Result<StatementKind, Diag> {
    let name = Spanned {
        node: name_pair.as_str().to_string(),
        span: sp(name_pair, start),
    };
    let default = Spanned {
        node: option_value(value_pair, start)?,
        span: sp(value_pair, start),
    };
    let range = match range_pair {
        None => match default.node {
            OptValue::Yes | OptValue::No => OptRange::YesNo,
            OptValue::Number(n) => OptRange::OneOf(vec![OptValue::Number(n)]),
        },
        Some(r) => {
            let r = r.into_inner().next().expect("option_range has a child");
            match r.as_rule() {
                Rule::range_between => {
                    let mut it = r.into_inner();
                    let lo = it.next().expect("from");
                    let hi = it.next().expect("to");
                    OptRange::Between(number(&lo, start)?, number(&hi, start)?)
                }
                _ => OptRange::OneOf(
                    r.into_inner()
                        .map(|v| option_value(&v, start))
                        .collect::<Result<_, _>>()?,
                ),
            }
        }
    };
    Ok(StatementKind::Option {
        name,
        default,
        range,
    })
}

/// `A, 2 to 8`: the rank items of a card line.
fn ranks(pair: Pair<'_, Rule>, start: usize) -> Vec<RankItem> {
    rank_items(pair, start)
}

/// The rank items of a list of ranks (`K`, `2 to 8`), the words between them left out.
pub(super) fn rank_items(pair: Pair<'_, Rule>, start: usize) -> Vec<RankItem> {
    pair.into_inner()
        .filter(|item| item.as_rule() == Rule::rank_item)
        .map(|item| {
            let mut words = item.into_inner();
            let w = |p: Pair<'_, Rule>| Spanned {
                node: p.as_str().to_string(),
                span: sp(&p, start),
            };
            let from = w(words.next().expect("a rank"));
            RankItem {
                from,
                to: words.next().map(w),
            }
        })
        .collect()
}

/// `the player left of the loser leads`; `the player with the most points leads each round,
/// ties to the left of the loser`.
fn leader_stmt<'i>(mut parts: impl Iterator<Item = Pair<'i, Rule>>, start: usize) -> StatementKind {
    let first = parts.next().expect("who leads");
    let role_of = |p: Pair<'_, Rule>| match p.into_inner().next().expect("role").as_rule() {
        Rule::dealer => Role::Dealer,
        Rule::loser => Role::Loser,
        _ => Role::Winner,
    };
    match first.as_rule() {
        Rule::leads_most | Rule::leads_fewest => {
            let most = first.as_rule() == Rule::leads_most;
            let by = Some((holding(first, start), most));
            // `ties to the left of the loser`; else ties go to the left of the dealer.
            let (role, side) = match parts.find(|p| p.as_rule() == Rule::tie_rule) {
                Some(t) => {
                    let mut it = t.into_inner();
                    let side = turning(&it.next().expect("side"));
                    (role_of(it.next().expect("role")), Some(side))
                }
                None => (Role::Dealer, Some(Turning::Clockwise)),
            };
            StatementKind::Leader { role, side, by }
        }
        Rule::side_of => {
            let mut it = first.into_inner();
            let side = turning(&it.next().expect("side"));
            StatementKind::Leader {
                role: role_of(it.next().expect("role")),
                side: Some(side),
                by: None,
            }
        }
        _ => StatementKind::Leader {
            role: role_of(first),
            side: None,
            by: None,
        },
    }
}

/// What a line goes by: chips (`chips`, `lives`), or a count kept for each player, by name.
fn holding(p: Pair<'_, Rule>, start: usize) -> Holding {
    match p.into_inner().find(|x| x.as_rule() == Rule::ident) {
        Some(name) => Holding::Count(Spanned {
            node: name.as_str().to_string(),
            span: sp(&name, start),
        }),
        None => Holding::Chips,
    }
}

/// `after 10 rounds or when a player is out`: each way the game ends.
fn endings<'i>(
    parts: impl Iterator<Item = Pair<'i, Rule>>,
    start: usize,
) -> Result<Vec<Ending>, Diag> {
    let mut endings = Vec::new();
    for e in parts {
        let rule = e.as_rule();
        let n = || -> Result<SAmount, Diag> {
            let a = e.clone().into_inner().find(|x| x.as_rule() == Rule::amount);
            amount(a.expect("an amount"), start)
        };
        endings.push(match rule {
            Rule::players_left => Ending::PlayersLeft(n()?),
            Rule::first_out => Ending::FirstOut,
            Rule::chips_reach => Ending::Reach(n()?, holding(e.clone(), start)),
            Rule::chips_fall => Ending::Fall(n()?, holding(e.clone(), start)),
            Rule::after_rounds => Ending::AfterRounds(n()?),
            _ => Ending::OneLeft,
        });
    }
    Ok(endings)
}

/// `no bar at 66`, `no rule on reaching 66`, `no card rule for 4 with 2 players`, ...
fn removal(p: Pair<'_, Rule>, start: usize) -> Result<Removal, Diag> {
    let rule = p.as_rule();
    let mut inner = p.into_inner();
    let amounts = |pair: Pair<'_, Rule>| -> Result<Vec<SAmount>, Diag> {
        pair.into_inner()
            .filter(|a| a.as_rule() == Rule::amount)
            .map(|a| amount(a, start))
            .collect()
    };
    Ok(match rule {
        Rule::no_bar => Removal::Bars(amounts(inner.next().expect("values"))?),
        Rule::no_bar_rule => {
            let passing = inner.next().expect("reaching or passing").as_rule() == Rule::passing;
            Removal::Bar {
                passing,
                values: amounts(inner.next().expect("values"))?,
            }
        }
        Rule::no_card => {
            let ranks = ranks(inner.next().expect("ranks"), start);
            let with = inner.next().map(|w| with_players(w, start)).transpose()?;
            Removal::Card { ranks, with }
        }
        Rule::no_when => Removal::When(trigger(&inner.next().expect("a moment"))),
        Rule::no_limit => Removal::Limit(
            if inner.next().expect("upper or lower").as_rule() == Rule::upper {
                Side::Above
            } else {
                Side::Below
            },
        ),
        Rule::no_option => {
            let name = inner.next().expect("a name");
            Removal::Option(Spanned {
                node: name.as_str().to_string(),
                span: sp(&name, start),
            })
        }
        _ => Removal::Teams,
    })
}

/// `when a player cannot play`, `at the start of each round`, ...
fn trigger(p: &Pair<'_, Rule>) -> Trigger {
    match p.as_rule() {
        Rule::cannot_play => Trigger::CannotPlay,
        Rule::no_cards => Trigger::NoCards,
        Rule::round_start => Trigger::RoundStart,
        Rule::round_end => Trigger::RoundEnd,
        _ => Trigger::GameEnd,
    }
}

/// `when a player cannot play[, if TEST]: OUTCOMES`.
fn when_stmt<'i>(
    inner: impl Iterator<Item = Pair<'i, Rule>>,
    start: usize,
) -> Result<StatementKind, Diag> {
    let mut trigger_at = None;
    let mut condition = None;
    let mut list = Vec::new();
    for p in inner {
        match p.as_rule() {
            Rule::condition => condition = Some(super::effects::build_condition(p, start)?),
            Rule::outcomes => list = outcomes(p, start)?,
            Rule::kw_if => {}
            _ => trigger_at = trigger_at.or(Some(trigger(&p))),
        }
    }
    Ok(StatementKind::When {
        trigger: trigger_at.expect("a trigger"),
        condition,
        outcomes: list,
    })
}
