//! Builders for amounts worked out from the table (`value`) and the counts the table keeps
//! (`table_count`).

use pest::iterators::Pair;

use super::Rule;
use super::outcomes::who;
use super::tokens::*;
use crate::base::diag::Diag;
use crate::lang::ast::*;

/// `109 minus 10 times the round, but not below 59`.
pub(super) fn value(pair: Pair<'_, Rule>, start: usize) -> Result<SValue, Diag> {
    let span = sp(&pair, start);
    let mut inner = pair.into_inner();
    let mut v = sum(inner.next().expect("a value has a sum"), start)?;
    for b in inner {
        let side = b.into_inner().next().expect("a bound has a side");
        let low = side.as_rule() == Rule::bound_below;
        let a = amount(side.into_inner().next().expect("a bound"), start)?;
        let (lo, hi) = if low {
            (Some(a), None)
        } else {
            (None, Some(a))
        };
        v = Spanned {
            node: match v.node {
                Value::Bounded { value, low, high } => Value::Bounded {
                    value,
                    low: lo.or(low),
                    high: hi.or(high),
                },
                other => Value::Bounded {
                    value: Box::new(Spanned {
                        node: other,
                        span: v.span,
                    }),
                    low: lo,
                    high: hi,
                },
            },
            span,
        };
    }
    Ok(v)
}

fn sum(pair: Pair<'_, Rule>, start: usize) -> Result<SValue, Diag> {
    let mut inner = pair.into_inner();
    let mut v = product(inner.next().expect("a sum has a product"), start)?;
    while let Some(op) = inner.next() {
        let plus = op.into_inner().next().map(|p| p.as_rule()) == Some(Rule::kw_plus);
        let rhs = product(inner.next().expect("an operand"), start)?;
        let span = Span::new(v.span.start, rhs.span.end);
        let (a, b) = (Box::new(v), Box::new(rhs));
        v = Spanned {
            node: if plus {
                Value::Plus(a, b)
            } else {
                Value::Minus(a, b)
            },
            span,
        };
    }
    Ok(v)
}

fn product(pair: Pair<'_, Rule>, start: usize) -> Result<SValue, Diag> {
    let mut v = None;
    for p in pair.into_inner() {
        if p.as_rule() == Rule::kw_times {
            continue;
        }
        let f = factor(p, start)?;
        v = Some(match v {
            None => f,
            Some(a) => {
                let a: SValue = a;
                let span = Span::new(a.span.start, f.span.end);
                Spanned {
                    node: Value::Times(Box::new(a), Box::new(f)),
                    span,
                }
            }
        });
    }
    Ok(v.expect("a product has a factor"))
}

fn factor(pair: Pair<'_, Rule>, start: usize) -> Result<SValue, Diag> {
    let span = sp(&pair, start);
    let inner = pair.into_inner().next().expect("a factor has a child");
    let node = match inner.as_rule() {
        Rule::half_of => Value::Half(Box::new(factor(
            inner.into_inner().next().expect("half of what"),
            start,
        )?)),
        Rule::twice_of => Value::Twice(Box::new(factor(
            inner.into_inner().next().expect("twice what"),
            start,
        )?)),
        Rule::amount => Value::Amount(amount(inner, start)?.node),
        Rule::table_count => Value::Count(table_count(inner, start).node),
        // `( ... )`
        _ => return sum(inner, start),
    };
    Ok(Spanned { node, span })
}

/// `the run`, `the player's points`, `the streak`.
pub(super) fn table_count(pair: Pair<'_, Rule>, start: usize) -> Spanned<TableCount> {
    let span = sp(&pair, start);
    let inner = if pair.as_rule() == Rule::table_count {
        pair.into_inner().next().expect("a count")
    } else {
        pair
    };
    let name = |p: Pair<'_, Rule>| Spanned {
        node: p.as_str().to_string(),
        span: sp(&p, start),
    };
    let node = match inner.as_rule() {
        Rule::round_cards => TableCount::RoundCards,
        Rule::stock_cards => TableCount::Stock,
        Rule::players_in_round => TableCount::PlayersInRound,
        Rule::players_left_count => TableCount::PlayersLeft,
        Rule::the_run => TableCount::Run,
        Rule::the_limit => TableCount::Limit,
        Rule::round_number => TableCount::Round,
        Rule::total_now => TableCount::Total,
        Rule::pot_now => TableCount::Pot,
        Rule::seat_count => {
            let mut it = inner.into_inner();
            let whose = it.next().expect("whose");
            let w = whose
                .into_inner()
                .next()
                .and_then(|p| p.into_inner().next())
                .map_or(Who::Player, |p| who(&p));
            let what = it.next().expect("what they have");
            let count = match what.as_rule() {
                Rule::chips_word => SeatCount::Chips,
                Rule::cards_word => SeatCount::Cards,
                _ => SeatCount::Named(name(what)),
            };
            TableCount::Seat(w, count)
        }
        _ => TableCount::Named(name(inner.into_inner().next().expect("a name"))),
    };
    Spanned { node, span }
}
