//! Roles whose meaning depends on the cards: `the next player` is whoever plays next once a
//! card's skips, reverse and extra turns are done, and `the previous player` is the neighbour
//! the other way round. Where a card of the ruleset skips, reverses or plays again, those are
//! not the player beside the one who laid the card, nor the one who laid the card before: the
//! line could mean either, so the checker asks which, with the words for each.

use super::compiler::{Compiler, Lowering, RoleUse};
use crate::base::cards::RANK_WORDS;
use crate::base::diag::Diag;
use crate::base::{Code, Span};
use crate::ir::{self, Act};
use crate::lang::ast;

/// A card of the ruleset that changes whose turn it is: its rank and its line's words.
struct Turning {
    rank: u8,
    text: String,
}

impl Compiler<'_> {
    /// A warning for each line naming a role the cards' turn effects make unclear.
    pub fn role_lints(&mut self, p: &ir::Program) {
        let turning = turning_cards(p);
        let again = again_cards(p);
        let Some(example) = turning.first() else {
            return;
        };
        let mut uses: Vec<RoleUse> = std::mem::take(&mut self.roles);
        // A bar line with several numbers is lowered once a number: one warning a line.
        uses.dedup_by_key(|u| (u.layer, u.span.start, u.who == ast::Who::Next));
        for u in uses {
            let of_card = match u.from {
                Lowering::Card(rank) => turning.iter().find(|t| t.rank == rank),
                Lowering::Bar | Lowering::Moment | Lowering::Other => Some(example),
            };
            let diag = match (u.who, u.from, of_card) {
                (ast::Who::Next, Lowering::Moment, _) | (ast::Who::Next, _, None) => continue,
                (ast::Who::Next, _, Some(t)) => self.next_player(u, t),
                (ast::Who::Previous, _, _) => self.previous_player(u, example),
                (ast::Who::LaidPrevious, _, _) => match again.first() {
                    Some(t) => self.laid_previous(u, t),
                    None => continue,
                },
                _ => continue,
            };
            self.err(u.layer, diag);
        }
    }

    fn next_player(&self, u: RoleUse, t: &Turning) -> Diag {
        let card = RANK_WORDS[usize::from(t.rank)];
        let when = match u.from {
            Lowering::Card(_) => format!("after this card (`{}`)", t.text),
            Lowering::Bar | Lowering::Moment | Lowering::Other => {
                format!("when a {card} (`{}`) gets the total here", t.text)
            }
        };
        let span = self.phrase(u, &["the next player"]);
        Diag::warning(
            Code::Role,
            span,
            format!(
                "`the next player` is whoever plays next once the card's skips, reverse and extra turns are done: {when}, that is not the player beside the one who laid it"
            ),
        )
        .label("which player?")
        .hint("say which: `the player who plays next` (as now: past the players skipped, the player themselves after `play again`), or `the player after` (the one beside them, in the direction of play)")
        .fix(span, "the player who plays next")
    }

    fn previous_player(&self, u: RoleUse, t: &Turning) -> Diag {
        let card = RANK_WORDS[usize::from(t.rank)];
        let span = self.phrase(u, &["the previous player"]);
        Diag::warning(
            Code::Role,
            span,
            format!(
                "`the previous player` is the player's neighbour the other way round: after a {card} (`{}`), that is not who laid the previous card",
                t.text
            ),
        )
        .label("which player?")
        .hint("say which: `the player before` (as now: the neighbour against the direction of play), or `the player who laid the previous card`")
        .fix(span, "the player before")
    }

    /// `the player who laid the previous card` beside `the player`, where a card gives the
    /// player the next turn too: then they laid the previous card themselves.
    fn laid_previous(&self, u: RoleUse, t: &Again) -> Diag {
        let card = RANK_WORDS[usize::from(t.rank)];
        let span = self.phrase(u, &["the player who laid the previous card"]);
        Diag::warning(
            Code::Role,
            span,
            format!(
                "after a {card} (`{}`){}, the player who laid the previous card is the player themselves: this line is then about them alone, and a payment between them changes nothing",
                t.text, t.when
            ),
        )
        .label("can be the player")
        .hint("say which: `the player before` (the neighbour against the direction of play), or `whoever laid the previous card` (as now: the player themselves after that card)")
        .fix(span, "the player before")
    }

    /// Where in an outcome one of the phrases is written (or the whole outcome).
    fn phrase(&self, u: RoleUse, phrases: &[&str]) -> Span {
        let text = self.text(u.layer, u.span).to_lowercase();
        phrases
            .iter()
            .find_map(|ph| text.find(ph).map(|at| (at, ph.len())))
            .map_or(u.span, |(at, len)| {
                Span::new(u.span.start + at, u.span.start + at + len)
            })
    }
}

/// The cards that skip, reverse or play again, at some player count, by rank.
fn turning_cards(p: &ir::Program) -> Vec<Turning> {
    let mut out: Vec<Turning> = Vec::new();
    for n in 2..=usize::from(p.max_players) {
        for rank in 0..crate::base::cards::RANKS as u8 {
            let Some(fx) = p.effect_for(n, rank) else {
                continue;
            };
            let turns = fx.choices().iter().any(|c| {
                c.steps().iter().any(|s| {
                    [s.then, s.otherwise]
                        .iter()
                        .any(|a| matches!(a, Act::Skip(_) | Act::Reverse | Act::Again(_)))
                })
            });
            if turns && !out.iter().any(|t| t.rank == rank) {
                out.push(Turning {
                    rank,
                    text: fx.text.clone(),
                });
            }
        }
    }
    out
}

/// A card after which the same player plays again: `play again`, or a skip that comes back
/// round to them (a skip of 1 with 2 players).
struct Again {
    rank: u8,
    text: String,
    /// `` with 2 players``, when only some player counts.
    when: String,
}

/// The cards that can give the player who laid them the next turn too, by rank.
fn again_cards(p: &ir::Program) -> Vec<Again> {
    let mut out: Vec<Again> = Vec::new();
    let least = usize::from(p.min_players).max(2);
    for n in least..=usize::from(p.max_players) {
        for rank in 0..crate::base::cards::RANKS as u8 {
            let Some(fx) = p.effect_for(n, rank) else {
                continue;
            };
            let mut again = false;
            let mut round = false;
            for c in fx.choices() {
                for st in c.steps() {
                    for a in [st.then, st.otherwise] {
                        if matches!(a, Act::Again(_)) {
                            again = true;
                        }
                        if let Act::Skip(k) = a {
                            round |= (usize::from(k) + 1) % n == 0;
                        }
                    }
                }
            }
            if (again || round) && !out.iter().any(|t| t.rank == rank) {
                out.push(Again {
                    rank,
                    text: fx.text.clone(),
                    when: if again {
                        String::new()
                    } else {
                        format!(" with {n} players")
                    },
                });
            }
        }
    }
    out
}
