//! Cards and branches that can never be played: a card no reachable total lets anyone lay
//! (in the first round, or from a round on under a limit that moves), and a card's test that
//! never holds where the card may be laid.

use std::collections::BTreeSet;

use super::compiler::Compiler;
use super::lints::Reach;
use super::settings::Settings;
use crate::base::cards::{JOKER, RANK_WORDS};
use crate::base::diag::Diag;
use crate::base::{Code, Span};
use crate::ir::{self, possible_totals};

impl Compiler<'_> {
    /// A card no reachable total lets anyone play (a parent's `set the total to 99` under a
    /// variant's limit of 77). Said in the ruleset's own file: at the card line when it is
    /// there, else at the limit that blocks it.
    pub(super) fn never_playable(&mut self, p: &ir::Program, s: &Settings, reach: &Reach) {
        let leaf = self.leaf();
        // One warning a line: the ranks of `card A, 2, 3: ...` that can never be played.
        let mut found: Vec<NeverPlayable> = Vec::new();
        for (((rank, count), d), fx) in s.cards.iter().zip(&p.effects) {
            if *rank == JOKER && p.jokers == 0 {
                continue;
            }
            let totals: Vec<i32> = reach
                .seen
                .iter()
                .flat_map(|&t| {
                    fx.choices()
                        .iter()
                        .flat_map(move |c| possible_totals(p, c, t))
                })
                .collect();
            // Which limit shuts it out, in words: in the first round, or from a round on
            // under a limit that moves round by round (a falling ceiling under a parent's
            // `set the total to 99`).
            let (upper, limit) = if totals.iter().any(|&n| p.allows(n)) {
                let Some((from, hi, lo)) = dead_from_round(p, &reach.seen, |t| {
                    fx.choices()
                        .iter()
                        .flat_map(|c| possible_totals(p, c, t))
                        .collect()
                }) else {
                    continue;
                };
                match (hi, lo) {
                    (Some(h), _) => (
                        true,
                        format!("from round {from} the total may not go above {h}"),
                    ),
                    (_, Some(l)) => (
                        false,
                        format!("from round {from} the total may not go below {l}"),
                    ),
                    _ => continue,
                }
            } else {
                let above = totals
                    .iter()
                    .any(|&n| p.ceiling.is_some_and(|c| n > c.value));
                let words = match (above, p.ceiling, p.floor) {
                    (true, Some(c), _) => format!("the total may not go above {}", c.value),
                    (false, _, Some(f)) => format!("the total may not go below {}", f.value),
                    _ => "of the limits".to_string(),
                };
                (above, words)
            };
            let line = if upper { &s.ceiling } else { &s.floor };
            let (layer, span, why) = match line {
                _ if d.layer == leaf => (d.layer, d.span, String::new()),
                Some(l) if l.layer == leaf => (
                    l.layer,
                    l.span,
                    format!(", and its line is in {}", self.layers[d.layer].source.name),
                ),
                _ => continue,
            };
            let name = format!("{}{}", RANK_WORDS[usize::from(*rank)], count.words());
            found_one(
                &mut found,
                NeverPlayable {
                    layer,
                    span,
                    why,
                    limit,
                    effect: d.value.text.clone(),
                    ranks: vec![name],
                },
            );
        }
        for n in found {
            let (names, them) = match n.ranks.as_slice() {
                [one] => (format!("the {one}"), format!("the {one}")),
                [init @ .., last] => (format!("the {} and {last}", init.join(", ")), "them".into()),
                [] => continue,
            };
            self.err(
                n.layer,
                Diag::warning(
                    Code::NeverPlayable,
                    n.span,
                    format!(
                        "{names} ({}) can never be played: {}{}",
                        n.effect, n.limit, n.why
                    ),
                )
                .hint(format!(
                    "give {them} a new line in this file, or change the limit"
                )),
            );
        }
    }

    /// A card's test that never holds at a total where the card may be laid: what it decides
    /// never happens (`card A: if the total is 99: ... and the player wins the game`, where a
    /// card's test reads the total before the card, and at 99 no Ace may be laid). Only tests
    /// of the total alone, only where every reachable total was explored.
    pub(super) fn dead_branches(&mut self, p: &ir::Program, s: &Settings, reach: &Reach) {
        if !reach.complete || p.moving_limits() {
            return;
        }
        let leaf = self.leaf();
        for (((rank, _), d), fx) in s.cards.iter().zip(&p.effects) {
            if d.layer != leaf || (*rank == JOKER && p.jokers == 0) {
                continue;
            }
            let dead = fx.choices().iter().any(|c| {
                c.steps().iter().any(|st| {
                    let Some(ci) = st.cond else { return false };
                    let cond = &p.conds[usize::from(ci)];
                    st.then != st.otherwise
                        && !cond.reads_player(p)
                        && !reach.seen.iter().any(|&t| {
                            let f = ir::Facts::total(t);
                            cond.holds(p, &f) && p.allows(ir::choice_total(p, c, &f))
                        })
                        // Never laid at all is `never-playable`'s to say.
                        && reach.seen.iter().any(|&t| {
                            p.allows(ir::choice_total(p, c, &ir::Facts::total(t)))
                        })
                })
            });
            if dead {
                self.err(
                    d.layer,
                    Diag::warning(
                        Code::CannotHappen,
                        d.span,
                        format!(
                            "a test of this card never holds when the card can be laid: what it decides never happens (`{}`)",
                            d.value.text
                        ),
                    )
                    .label("never at a total the card can be laid at")
                    .hint("a card's test reads the total before the card is laid: to act on the total it makes, test that total (`if the total is 88` for an Ace of 11 that makes 99), or use a bar (`on reaching 99: the player wins the game`)"),
                );
            }
        }
    }
}

/// The most rounds a limit that moves by the round is followed through by the checker; past
/// them it is taken to stay put.
const LIMIT_ROUNDS: u32 = 100;

/// The first round from which a card can no longer be played, under limits that move with
/// the round alone (`109 minus 10 times the round, but not below 59`), and those limits then
/// (the one that shuts it out): the card's totals from each total seen (`totals`) all fall
/// outside them in that round and every later one followed. `None` when the limits do not
/// move by the round, or the card stays playable.
fn dead_from_round(
    p: &ir::Program,
    seen: &BTreeSet<i32>,
    totals: impl Fn(i32) -> Vec<i32>,
) -> Option<(u32, Option<i32>, Option<i32>)> {
    // A limit in round `r`: `None` for one that reads anything but the round.
    let at = |l: Option<ir::Limit>, r: u32| -> Option<Option<i32>> {
        let Some(l) = l else { return Some(None) };
        let Some(e) = l.expr else {
            return Some(Some(l.value));
        };
        let other = std::cell::Cell::new(false);
        let v = p.exprs.get(usize::from(e))?.eval(|q, _| {
            if q == ir::Quantity::Round {
                r as i32
            } else {
                other.set(true);
                0
            }
        });
        (!other.get()).then_some(Some(v))
    };
    if p.ceiling.is_none_or(|l| l.expr.is_none()) && p.floor.is_none_or(|l| l.expr.is_none()) {
        return None;
    }
    let last = p.rounds.unwrap_or(LIMIT_ROUNDS).min(LIMIT_ROUNDS);
    let mut from: Option<(u32, Option<i32>, Option<i32>)> = None;
    for r in 2..=last {
        let (hi, lo) = (at(p.ceiling, r)?, at(p.floor, r)?);
        let inside = |n: i32| hi.is_none_or(|h| n <= h) && lo.is_none_or(|l| n >= l);
        let playable = seen
            .iter()
            .filter(|&&t| inside(t))
            .any(|&t| totals(t).into_iter().any(inside));
        match (playable, from) {
            (true, _) => from = None,
            (false, None) => {
                let above = seen
                    .iter()
                    .filter(|&&t| inside(t))
                    .any(|&t| totals(t).into_iter().any(|n| hi.is_some_and(|h| n > h)));
                from = Some(if above { (r, hi, None) } else { (r, None, lo) });
            }
            (false, Some(_)) => {}
        }
    }
    from
}

/// Cards of one line that can never be played, for one warning.
struct NeverPlayable {
    layer: usize,
    span: Span,
    why: String,
    limit: String,
    effect: String,
    ranks: Vec<String>,
}

/// A card that can never be played, among those found: with the others of its line that the
/// same limit shuts out (one warning a line), or on its own.
fn found_one(found: &mut Vec<NeverPlayable>, one: NeverPlayable) {
    match found.iter_mut().find(|n| {
        (n.layer, n.span, &n.effect, &n.limit) == (one.layer, one.span, &one.effect, &one.limit)
    }) {
        Some(n) => n.ranks.extend(one.ranks),
        None => found.push(one),
    }
}
