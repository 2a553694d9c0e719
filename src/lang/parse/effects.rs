//! Builders for a card's effect: choices, steps, actions and conditions.

use pest::iterators::Pair;

use super::Rule;
use super::outcomes::outcome;
use super::tokens::*;
use crate::base::diag::Diag;
use crate::lang::ast::*;

pub(super) fn effect(pair: Pair<'_, Rule>, start: usize) -> Result<Effect, Diag> {
    let span = sp(&pair, start);
    let choices = pair
        .into_inner()
        .filter(|p| p.as_rule() == Rule::choice)
        .map(|c| {
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
            Ok(Choice { steps, label, span })
        })
        .collect::<Result<_, Diag>>()?;
    Ok(Effect { choices, span })
}

pub(super) fn step(pair: Pair<'_, Rule>, start: usize) -> Result<Step, Diag> {
    let mut it = pair.into_inner().filter(|p| p.as_rule() != Rule::kw_if);
    let action = action(it.next().expect("a step has an action"), start)?;
    let mut condition = None;
    let mut otherwise = None;
    for p in it {
        match p.as_rule() {
            Rule::condition => condition = Some(build_condition(p, start)?),
            Rule::otherwise => {
                otherwise = Some(action_of(p.into_inner().next().expect("an action"), start)?);
            }
            _ => {}
        }
    }
    Ok(Step {
        action,
        condition,
        otherwise,
    })
}

pub(super) fn action_of(pair: Pair<'_, Rule>, start: usize) -> Result<Spanned<Action>, Diag> {
    action(pair, start)
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
                Quantity::Amount(amount(q, start)?)
            };
            if rule == Rule::add {
                Action::Add(quantity)
            } else {
                Action::Subtract(quantity)
            }
        }
        Rule::set_total => Action::Set(amount(pair.into_inner().next().expect("amount"), start)?),
        Rule::multiply => {
            Action::Multiply(amount(pair.into_inner().next().expect("amount"), start)?)
        }
        Rule::divide => Action::Divide(amount(pair.into_inner().next().expect("amount"), start)?),
        Rule::double => Action::Double,
        Rule::halve => Action::Halve,
        Rule::nothing => Action::Nothing,
        Rule::skip => Action::Skip,
        Rule::reverse => Action::Reverse,
        Rule::play_again => Action::PlayAgain,
        Rule::run_script => {
            let name = pair.into_inner().next().expect("a name");
            Action::Run(Spanned {
                node: name.as_str().to_string(),
                span: sp(&name, start),
            })
        }
        _ => Action::Outcome(outcome(pair, start)?),
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
                let pred = p.into_inner().next().expect("a test has a predicate");
                let tspan = sp(&pred, start);
                let rule = pred.as_rule();
                let num = |p: Pair<'_, Rule>| amount(p.into_inner().next().expect("amount"), start);
                let test = match rule {
                    Rule::even => Test::Even,
                    Rule::odd => Test::Odd,
                    Rule::at_least => Test::AtLeast(num(pred)?),
                    Rule::at_most => Test::AtMost(num(pred)?),
                    Rule::above_n => Test::Above(num(pred)?),
                    Rule::below_n => Test::Below(num(pred)?),
                    Rule::script_test => {
                        let name = pred.into_inner().next().expect("a name");
                        Test::Script(Spanned {
                            node: name.as_str().to_string(),
                            span: sp(&name, start),
                        })
                    }
                    _ => Test::Exactly(num(pred)?),
                };
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
