//! Builders for the small pieces many statements share: numbers, amounts, names, strings.

use pest::iterators::Pair;

use super::Rule;
use crate::base::Code;
use crate::base::diag::Diag;
use crate::lang::ast::*;

pub(super) fn shift(span: pest::Span<'_>, start: usize) -> Span {
    Span::new(start + span.start(), start + span.end())
}

pub(super) fn sp(pair: &Pair<'_, Rule>, start: usize) -> Span {
    shift(pair.as_span(), start)
}

pub(super) fn string(pair: Pair<'_, Rule>, start: usize) -> Spanned<String> {
    let span = sp(&pair, start);
    let text = pair
        .into_inner()
        .next()
        .map(|p| p.as_str().to_string())
        .unwrap_or_default();
    Spanned { node: text, span }
}

pub(super) fn number(pair: &Pair<'_, Rule>, start: usize) -> Result<i64, Diag> {
    pair.as_str()
        .parse::<i64>()
        .ok()
        .filter(|n| n.abs() <= 1_000_000)
        .ok_or_else(|| {
            let size = if pair.as_str().starts_with('-') {
                "small"
            } else {
                "big"
            };
            Diag::error(
                Code::BadNumber,
                sp(pair, start),
                format!("`{}` is too {size} a number", pair.as_str()),
            )
            .label(format!("too {size}"))
            .hint("numbers in a ruleset stay between -1000000 and 1000000")
        })
}

pub(super) fn amount(pair: Pair<'_, Rule>, start: usize) -> Result<SAmount, Diag> {
    let span = sp(&pair, start);
    let inner = pair.into_inner().next().expect("amount has one child");
    let node = match inner.as_rule() {
        Rule::number => Amount::Number(number(&inner, start)?),
        _ => Amount::Option(
            inner
                .into_inner()
                .next()
                .map(|p| p.as_str().to_string())
                .unwrap_or_default(),
        ),
    };
    Ok(Spanned { node, span })
}

pub(super) fn with_players(pair: Pair<'_, Rule>, start: usize) -> Result<WithPlayers, Diag> {
    let span = sp(&pair, start);
    let mut count = None;
    let mut or_more = false;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::amount => count = Some(amount(p, start)?),
            Rule::or_more => or_more = true,
            _ => {}
        }
    }
    Ok(WithPlayers {
        count: count.expect("with_players has a count"),
        or_more,
        span,
    })
}

pub(super) fn turning(pair: &Pair<'_, Rule>) -> Turning {
    if pair.as_rule() == Rule::clockwise {
        Turning::Clockwise
    } else {
        Turning::Counterclockwise
    }
}

pub(super) fn option_value(pair: &Pair<'_, Rule>, start: usize) -> Result<OptValue, Diag> {
    let inner = pair
        .clone()
        .into_inner()
        .next()
        .expect("option_value has a child");
    Ok(match inner.as_rule() {
        Rule::yes => OptValue::Yes,
        Rule::no => OptValue::No,
        _ => OptValue::Number(number(&inner, start)?),
    })
}
