//! Builders for a card's effect: choices, branches, steps, actions and conditions.

use pest::iterators::Pair;

use super::Rule;
use super::outcomes::outcome;
use super::tokens::*;
use super::values::value;
use crate::base::Spanned;
use crate::base::diag::Diag;
use crate::lang::ast::*;

pub(super) fn effect(pair: Pair<'_, Rule>, start: usize) -> Result<Effect, Diag> {
    let span = sp(&pair, start);
    let choices = pair
        .into_inner()
        .filter(|p| matches!(p.as_rule(), Rule::choice | Rule::branches))
        .map(|c| match c.as_rule() {
            Rule::branches => branches(c, start),
            _ => choice(c, start),
        })
        .collect::<Result<_, Diag>>()?;
    Ok(Effect { choices, span })
}

fn choice(c: Pair<'_, Rule>, start: usize) -> Result<Choice, Diag> {
    let span = sp(&c, start);
    let mut steps = Vec::new();
    let mut label = None;
    for p in c.into_inner() {
        match p.as_rule() {
            Rule::step => steps.push(step(p, start)?),
            Rule::label => label = p.into_inner().next().map(|s| string(s, start)),
            _ => {}
        }
    }
    // A label is shown to every player, at the terminal and in the browser: a control
    // character in it (an escape sequence) would be obeyed there, not shown.
    if let Some(l) = label
        .as_ref()
        .filter(|l| l.node.chars().any(char::is_control))
    {
        return Err(Diag::error(
            crate::base::Code::Syntax,
            l.span,
            "a label holds a control character, which a terminal would obey rather than show",
        )
        .label("not a word to show")
        .hint("name the choice with letters, digits and punctuation: `as \"high\"`"));
    }
    Ok(Choice {
        body: Body::Steps(steps),
        label,
        span,
    })
}

/// `if TEST: STEPS; otherwise if TEST: STEPS; otherwise STEPS`
fn branches(c: Pair<'_, Rule>, start: usize) -> Result<Choice, Diag> {
    let span = sp(&c, start);
    let mut list = Vec::new();
    for b in c.into_inner() {
        let bspan = sp(&b, start);
        let mut condition = None;
        let mut body = BranchBody::Steps(Vec::new());
        for p in b.into_inner() {
            match p.as_rule() {
                Rule::condition => condition = Some(build_condition(p, start)?),
                Rule::steps => {
                    let steps = p
                        .into_inner()
                        .filter(|s| s.as_rule() == Rule::step)
                        .map(|s| step(s, start))
                        .collect::<Result<_, Diag>>()?;
                    body = BranchBody::Steps(steps);
                }
                Rule::either => {
                    let choices = p
                        .into_inner()
                        .filter(|c| c.as_rule() == Rule::choice)
                        .map(|c| choice(c, start))
                        .collect::<Result<_, Diag>>()?;
                    body = BranchBody::Either(choices);
                }
                _ => {}
            }
        }
        list.push(Branch {
            condition,
            body,
            span: bspan,
        });
    }
    Ok(Choice {
        body: Body::Branches(list),
        label: None,
        span,
    })
}

pub(super) fn step(pair: Pair<'_, Rule>, start: usize) -> Result<Step, Diag> {
    let mut it = pair.into_inner().filter(|p| p.as_rule() != Rule::kw_if);
    let first = action(it.next().expect("a step has an action"), start)?;
    let mut condition = None;
    let mut otherwise = None;
    for p in it {
        match p.as_rule() {
            Rule::condition => condition = Some(build_condition(p, start)?),
            Rule::otherwise => {
                otherwise = Some(action(p.into_inner().next().expect("an action"), start)?);
            }
            _ => {}
        }
    }
    Ok(Step {
        action: first,
        condition,
        otherwise,
    })
}

/// The count after `skip` or `play again`: `2 players`, `twice`, `3 times`.
pub(super) fn count(pair: Pair<'_, Rule>, start: usize) -> Result<Option<SAmount>, Diag> {
    let Some(c) = pair.into_inner().find(|p| {
        matches!(
            p.as_rule(),
            Rule::skip_count | Rule::again_count | Rule::twice
        )
    }) else {
        return Ok(None);
    };
    if c.as_rule() == Rule::twice {
        return Ok(Some(Spanned {
            node: Amount::Number(2),
            span: sp(&c, start),
        }));
    }
    amount(c.into_inner().next().expect("a count has an amount"), start).map(Some)
}

pub(super) fn action(pair: Pair<'_, Rule>, start: usize) -> Result<Spanned<Action>, Diag> {
    let span = sp(&pair, start);
    let rule = pair.as_rule();
    let node = match rule {
        Rule::add | Rule::subtract => {
            let q = pair
                .into_inner()
                .next()
                .expect("quantity")
                .into_inner()
                .next()
                .expect("q");
            let quantity = if q.as_rule() == Rule::face {
                Quantity::Face
            } else {
                Quantity::Amount(value(q, start)?)
            };
            if rule == Rule::add {
                Action::Add(quantity)
            } else {
                Action::Subtract(quantity)
            }
        }
        Rule::set_total => Action::Set(value(pair.into_inner().next().expect("a value"), start)?),
        Rule::multiply => {
            Action::Multiply(amount(pair.into_inner().next().expect("amount"), start)?)
        }
        Rule::divide => Action::Divide(amount(pair.into_inner().next().expect("amount"), start)?),
        Rule::double => Action::Double,
        Rule::halve => Action::Halve,
        Rule::nothing => Action::Nothing,
        Rule::skip => Action::Skip(count(pair, start)?),
        Rule::reverse => Action::Reverse,
        Rule::play_again => Action::PlayAgain(count(pair, start)?),
        Rule::choose_next => Action::ChooseNext,
        Rule::run_script => {
            let name = pair.into_inner().next().expect("a name");
            Action::Run(Spanned {
                node: name.as_str().to_string(),
                span: sp(&name, start),
            })
        }
        _ => match outcome(pair, start)? {
            // `the player plays again` on a card's line is the card's own `play again`.
            Outcome {
                who: None | Some(Who::Player),
                kind: OutcomeKind::PlaysAgain(n),
                ..
            } => Action::PlayAgain(n),
            o => Action::Outcome(o),
        },
    };
    Ok(Spanned { node, span })
}

pub(super) fn build_condition(pair: Pair<'_, Rule>, start: usize) -> Result<Condition, Diag> {
    let span = sp(&pair, start);
    let mut tests = Vec::new();
    let mut and = true;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::cond_join => {
                and = p
                    .into_inner()
                    .next()
                    .is_some_and(|j| j.as_rule() == Rule::kw_and);
            }
            _ => {
                let tspan = sp(&p, start);
                let test = test(p, start)?;
                tests.push((
                    and,
                    Spanned {
                        node: test,
                        span: tspan,
                    },
                ));
            }
        }
    }
    Ok(Condition { tests, span })
}

/// One test of a condition.
fn test(p: Pair<'_, Rule>, start: usize) -> Result<Test, Diag> {
    let pred = p.into_inner().next().expect("a test has a predicate");
    let rule = pred.as_rule();
    let num = |p: Pair<'_, Rule>| amount(p.into_inner().next().expect("amount"), start);
    Ok(match rule {
        Rule::even => Test::Even,
        Rule::odd => Test::Odd,
        Rule::at_least => Test::AtLeast(num(pred)?),
        Rule::at_most => Test::AtMost(num(pred)?),
        Rule::above_n => Test::Above(num(pred)?),
        Rule::below_n => Test::Below(num(pred)?),
        Rule::ends_in => Test::EndsIn(num(pred)?),
        Rule::multiple_of => Test::MultipleOf(num(pred)?),
        Rule::between => {
            let mut it = pred.into_inner().filter(|p| p.as_rule() == Rule::amount);
            let lo = amount(it.next().expect("from"), start)?;
            let hi = amount(it.next().expect("to"), start)?;
            Test::Between(lo, hi)
        }
        Rule::script_test => {
            let name = pred.into_inner().next().expect("a name");
            Test::Script(Spanned {
                node: name.as_str().to_string(),
                span: sp(&name, start),
            })
        }
        Rule::player_test => {
            let mut it = pred.into_inner();
            let (cmp, n) = count_cmp(it.next().expect("a count"), start)?;
            match it.next() {
                Some(w) if w.as_rule() == Rule::chips_word => Test::Chips(cmp, n),
                Some(w) if w.as_rule() == Rule::ident => Test::Count(
                    TableCount::Seat(
                        Who::Player,
                        SeatCount::Named(Spanned {
                            node: w.as_str().to_string(),
                            span: sp(&w, start),
                        }),
                    ),
                    cmp,
                    n,
                ),
                _ => Test::CardsLeft(cmp, n),
            }
        }
        Rule::count_test => {
            let mut it = pred.into_inner();
            let count = super::values::table_count(it.next().expect("a count"), start).node;
            let how = it.next().expect("a comparison");
            let span = sp(&how, start);
            let number = |n| Spanned {
                node: Amount::Number(n),
                span,
            };
            let mut amounts = how
                .clone()
                .into_inner()
                .filter(|p| p.as_rule() == Rule::amount);
            let mut next_amount = || amount(amounts.next().expect("an amount"), start);
            match how.as_rule() {
                Rule::count_between => {
                    let lo = next_amount()?;
                    Test::CountBetween(count, lo, next_amount()?)
                }
                Rule::count_even => Test::Count(count, Cmp::MultipleOf, number(2)),
                Rule::count_odd => Test::Count(count, Cmp::Odd, number(2)),
                Rule::count_ends_in => Test::Count(count, Cmp::EndsIn, next_amount()?),
                _ => {
                    let (cmp, n) = count_cmp(how, start)?;
                    Test::Count(count, cmp, n)
                }
            }
        }
        Rule::left_test => {
            let (cmp, n) = count_cmp(pred.into_inner().next().expect("a count"), start)?;
            Test::PlayersLeft(cmp, n)
        }
        Rule::previous_test => {
            let w = pred.into_inner().next().expect("a rank");
            Test::Previous(Spanned {
                node: w.as_str().to_string(),
                span: sp(&w, start),
            })
        }
        _ => Test::Exactly(num(pred)?),
    })
}

/// `2`, `no`, `at least 2`, `at most 2`, `more than 2`, `fewer than 2`, `only 2`.
fn count_cmp(pair: Pair<'_, Rule>, start: usize) -> Result<(Cmp, SAmount), Diag> {
    let span = sp(&pair, start);
    let inner = pair.into_inner().next().expect("a count");
    let rule = inner.as_rule();
    let first = |p: Pair<'_, Rule>| -> Result<SAmount, Diag> {
        amount(p.into_inner().next().expect("amount"), start)
    };
    Ok(match rule {
        Rule::no_count => (
            Cmp::Exactly,
            Spanned {
                node: Amount::Number(0),
                span,
            },
        ),
        Rule::cmp_at_least => (Cmp::AtLeast, first(inner)?),
        Rule::cmp_at_most => (Cmp::AtMost, first(inner)?),
        Rule::cmp_more => (Cmp::MoreThan, first(inner)?),
        Rule::cmp_fewer => (Cmp::FewerThan, first(inner)?),
        Rule::cmp_multiple => (Cmp::MultipleOf, first(inner)?),
        _ => (Cmp::Exactly, amount(inner, start)?),
    })
}
