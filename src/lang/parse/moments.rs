//! Builders for the statements of the table's counts and moments: `count ...`, `after each
//! card: ...`, `when a player goes out: ...`, `the round ends after 20 cards`.

use pest::iterators::Pair;

use super::Rule;
use super::effects::build_condition;
use super::outcomes::outcomes;
use super::tokens::*;
use crate::base::Code;
use crate::base::diag::Diag;
use crate::lang::ast::*;

pub(super) fn build(pair: Pair<'_, Rule>, start: usize) -> Result<StatementKind, Diag> {
    let rule = pair.as_rule();
    let mut inner = pair.into_inner();
    Ok(match rule {
        Rule::count_stmt => {
            let n = inner.next().expect("a count has a name");
            let name = Spanned {
                node: n.as_str().to_string(),
                span: sp(&n, start),
            };
            let mut per_player = false;
            let mut first = None;
            for p in inner {
                match p.as_rule() {
                    Rule::per_player => per_player = true,
                    Rule::amount => first = Some(amount(p, start)?),
                    _ => {}
                }
            }
            StatementKind::Count {
                name,
                per_player,
                start: first,
            }
        }
        Rule::moment_stmt => {
            let m = inner.next().expect("a moment");
            let mspan = sp(&m, start);
            let moment = match m.as_rule() {
                Rule::after_card => Moment::AfterCard,
                Rule::player_goes_out => Moment::PlayerOut,
                _ => Moment::Left(amount(
                    m.into_inner()
                        .find(|p| p.as_rule() == Rule::amount)
                        .expect("how many are left"),
                    start,
                )?),
            };
            let mut condition = None;
            let mut list = Vec::new();
            for p in inner {
                match p.as_rule() {
                    Rule::condition => condition = Some(build_condition(p, start)?),
                    Rule::outcomes => list = outcomes(p, start)?,
                    _ => {}
                }
            }
            StatementKind::Moment {
                moment: Spanned {
                    node: moment,
                    span: mspan,
                },
                condition,
                outcomes: list,
            }
        }
        Rule::other_stmt => other(inner, start)?,
        _ => {
            let how = inner.next().expect("how the round ends");
            StatementKind::RoundEnds(if how.as_rule() == Rule::after_cards {
                RoundEnd::AfterCards(amount(
                    how.into_inner().next().expect("how many cards"),
                    start,
                )?)
            } else {
                let cond = inner.next().expect("a condition");
                RoundEnd::When(build_condition(cond, start)?)
            })
        }
    })
}

/// `instead of laying a card, a player may ...`, `a player who cannot play may ... instead`.
fn other(inner: pest::iterators::Pairs<'_, Rule>, start: usize) -> Result<StatementKind, Diag> {
    let mut stuck = false;
    let mut action = None;
    let mut then = Vec::new();
    let mut failed = None;
    let mut after_failed = None;
    for p in inner {
        match p.as_rule() {
            Rule::stuck_intro => stuck = true,
            Rule::discard_card | Rule::lay_top | Rule::pass_move => {
                let span = sp(&p, start);
                let node = match p.as_rule() {
                    Rule::lay_top => OtherAction::LayTop,
                    Rule::pass_move => OtherAction::Pass,
                    _ => OtherAction::Discard(
                        p.into_inner()
                            .find(|x| x.as_rule() == Rule::discard_ranks)
                            .map(|r| super::statements::rank_items(r, start)),
                    ),
                };
                action = Some(Spanned { node, span });
            }
            Rule::instead_of => instead_words(&p, start)?,
            Rule::cannot_be_laid => after_failed = Some(sp(&p, start)),
            Rule::outcomes => match after_failed {
                Some(span) => failed = Some((span, outcomes(p, start)?)),
                None => then = outcomes(p, start)?,
            },
            _ => {}
        }
    }
    Ok(StatementKind::Other {
        stuck,
        action: action.expect("a move"),
        then,
        failed,
    })
}

/// The words after `instead of` in a move for a player who cannot play: they may name what
/// the rules give such a player (`paying a chip`, `losing the round`), which the move takes
/// the place of; any other words would be read and dropped, so they are an error.
fn instead_words(p: &pest::iterators::Pair<'_, Rule>, start: usize) -> Result<(), Diag> {
    let words: Vec<String> = p
        .as_str()
        .split_whitespace()
        .skip(1)
        .map(|w| w.trim_end_matches([',', '.']).to_lowercase())
        .collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let chips = |w: &[&str]| match w {
        [] | ["chips"] => true,
        [n, "chip" | "chips"] => *n == "a" || *n == "one" || n.parse::<u32>().is_ok(),
        _ => false,
    };
    let named = match words.as_slice() {
        ["paying", rest @ ..] => chips(rest),
        ["losing", "the", "round"] | ["losing", "a", "chip" | "life"] => true,
        _ => false,
    };
    if named {
        return Ok(());
    }
    // From the end of `instead` to the end of the words: what the fix takes away.
    let span = sp(p, start);
    let before = p.as_span().get_input()[..p.as_span().start()]
        .chars()
        .rev()
        .take_while(|c| c.is_whitespace())
        .count();
    let cut = crate::base::Span::new(span.start - before, span.end);
    Err(Diag::error(
        Code::OtherMove,
        span,
        format!(
            "`{}` would be read and do nothing: the move takes the place of what the rules give a player who cannot play, whatever these words say",
            p.as_str().trim()
        ),
    )
    .label("these words change nothing")
    .hint("end the move at `instead`, or name that rule: `instead of paying a chip`, `instead of losing the round`; to change what a player who cannot play pays, write `when a player cannot play: ...`")
    .fix(cut, ""))
}
