//! Moves beside laying a card (`instead of laying a card, a player may ...`): collected,
//! checked and lowered to `ir::OtherMove`; and which card choices name a player.

use super::compiler::{Compiler, Decided, Lowering};
use super::settings::{Collect, Settings};
use crate::base::Code;
use crate::base::diag::Diag;
use crate::base::{Span, Spanned};
use crate::ir::{self, MAX_OTHERS};
use crate::lang::ast;

/// A move beside laying a card, as a file says it.
#[derive(Debug, Clone)]
pub(super) struct OtherLine {
    pub stuck: bool,
    pub action: Spanned<ast::OtherAction>,
    pub then: Vec<ast::Outcome>,
    pub failed: Option<(Span, Vec<ast::Outcome>)>,
}

impl Collect<'_, '_> {
    /// `instead of laying a card, a player may ...`, `a player who cannot play may ...`.
    pub(super) fn other_stmt(
        &mut self,
        stuck: bool,
        action: &Spanned<ast::OtherAction>,
        then: &[ast::Outcome],
        failed: Option<&(Span, Vec<ast::Outcome>)>,
    ) {
        self.s.others.push(Decided {
            value: OtherLine {
                stuck,
                action: action.clone(),
                then: then.to_vec(),
                failed: failed.cloned(),
            },
            layer: self.layer,
            span: self.st.span,
            line: self.st.line,
        });
    }
}

impl Compiler<'_> {
    /// The moves beside laying a card, lowered and checked: at most [`MAX_OTHERS`], each
    /// said once, a card to discard named by rank, `if it cannot be laid` only for a card
    /// laid from the stock.
    pub(super) fn others(&mut self, s: &Settings) -> Vec<ir::OtherMove> {
        self.lowering = Lowering::Other;
        let mut out: Vec<ir::OtherMove> = Vec::new();
        let mut said: Vec<(bool, &'static str, u16, usize, usize)> = Vec::new();
        for d in &s.others {
            let line = &d.value;
            if out.len() == MAX_OTHERS {
                self.err(
                    d.layer,
                    Diag::error(
                        Code::TooMany,
                        d.span,
                        format!(
                            "a ruleset may offer at most {MAX_OTHERS} moves beside laying a card"
                        ),
                    )
                    .hint("keep the moves a player really chooses between"),
                );
                break;
            }
            let kind = match &line.action.node {
                ast::OtherAction::Discard(None) => ir::OtherKind::Discard(ANY_RANK),
                ast::OtherAction::Discard(Some(items)) => {
                    let ranks = self.ranks(d.layer, items);
                    if ranks.is_empty() {
                        continue;
                    }
                    ir::OtherKind::Discard(ranks.iter().fold(0u16, |m, r| m | 1 << r))
                }
                ast::OtherAction::LayTop => ir::OtherKind::LayTop,
                ast::OtherAction::Pass => ir::OtherKind::Pass,
            };
            let (word, ranks) = match kind {
                ir::OtherKind::Discard(r) => ("discard", r),
                ir::OtherKind::LayTop => ("stock", 0),
                ir::OtherKind::Pass => ("pass", 0),
            };
            // The same move twice (for a discard, of a rank in common) is one move with two
            // meanings.
            if let Some(&(_, _, _, layer, line_no)) = said
                .iter()
                .find(|(_, w, r, _, _)| *w == word && (ranks == 0 || r & ranks != 0))
            {
                let at = if layer == d.layer {
                    format!("line {line_no}")
                } else {
                    "a parent's line".to_string()
                };
                self.err(
                    d.layer,
                    Diag::error(
                        Code::OtherMove,
                        line.action.span,
                        format!(
                            "this move is offered already ({at}): a player choosing it could not say which line they meant"
                        ),
                    )
                    .label("said twice")
                    .hint("say each move once, with everything that follows it after `:`"),
                );
                continue;
            }
            said.push((line.stuck, word, ranks, d.layer, d.line));
            if let (Some((span, _)), false) = (&line.failed, kind == ir::OtherKind::LayTop) {
                self.err(
                    d.layer,
                    Diag::error(
                        Code::OtherMove,
                        *span,
                        "only a card laid from the stock can turn out not to be layable",
                    )
                    .label("this move lays no card")
                    .hint("what follows the move goes after `:`, as in `a player may pass: the player pays 1 to the pot`"),
                );
                continue;
            }
            let origin = self.origin(d.layer, d.line);
            let text = self.text(d.layer, d.span);
            let then = if line.then.is_empty() {
                None
            } else {
                match self.outcomes(d.layer, &line.then, origin, text.clone()) {
                    Some(i) => Some(i),
                    None => continue,
                }
            };
            let failed = match &line.failed {
                Some((_, list)) => match self.outcomes(d.layer, list, origin, text) {
                    Some(i) => Some(i),
                    None => continue,
                },
                None => None,
            };
            out.push(ir::OtherMove {
                when: if line.stuck {
                    ir::OtherWhen::Stuck
                } else {
                    ir::OtherWhen::Instead
                },
                kind,
                then,
                failed,
                origin,
            });
        }
        self.lowering = Lowering::Moment;
        out
    }

    /// Marks each card choice that names a player ([`ir::Choice::aims`]).
    pub(super) fn mark_aims(program: &mut ir::Program) {
        let aims: Vec<Vec<bool>> = program
            .effects
            .iter()
            .map(|fx| {
                fx.choices()
                    .iter()
                    .map(|c| program.choice_aims(c))
                    .collect()
            })
            .collect();
        let gives: Vec<Vec<bool>> = program
            .effects
            .iter()
            .map(|fx| {
                fx.choices()
                    .iter()
                    .map(|c| program.choice_gives(c))
                    .collect()
            })
            .collect();
        for ((fx, marks), gifts) in program.effects.iter_mut().zip(aims).zip(gives) {
            for ((c, aims), gives) in fx.choices.iter_mut().zip(marks).zip(gifts) {
                c.aims = aims;
                c.gives = gives;
            }
        }
    }
}

/// Every rank, the jokers' included.
const ANY_RANK: u16 = (1 << crate::base::cards::RANKS) - 1;
