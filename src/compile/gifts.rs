//! `the player gives a card of their choice to the next player`: the card's player names
//! the card as they lay theirs, so the line must be a card's, the giver the player laying
//! it, and the card's move carries one thing the player names (a card given, or a player
//! named: never both, never two cards).

use super::compiler::{Compiler, Lowering};
use crate::base::Code;
use crate::base::diag::Diag;
use crate::base::span::Span;
use crate::ir::{self, OutcomeKind};
use crate::lang::ast;

impl Compiler<'_> {
    /// A card of their choice given here: only on a card's line, by the card's player.
    pub(super) fn chosen_gift_here(&mut self, layer: usize, o: &ast::Outcome, from: Lowering) {
        if !matches!(from, Lowering::Card(_)) {
            self.err(
                layer,
                Diag::error(
                    Code::CardMove,
                    o.span,
                    "a card of their choice is named by a card's player as they lay it: here no card is laid",
                )
                .label("no one chooses here")
                .hint("give a card at random (`gives a card at random to ...`), or move the outcome to a card's line"),
            );
        } else if o.who.is_some_and(|w| w != ast::Who::Player) {
            self.err(
                layer,
                Diag::error(
                    Code::CardMove,
                    o.span,
                    "only the player laying the card chooses a card to give, as they lay it",
                )
                .label("another player gives")
                .hint("say `the player gives a card of their choice to ...`, or give a card at random (`gives a card at random to ...`)"),
            );
        }
    }

    /// A card choice that gives a card of the player's choice gives one, and names no
    /// player besides: the move carries the card named, and only it.
    pub(super) fn gift_alone(&mut self, layer: usize, span: Span, c: &ir::Choice) {
        let gift = |x: &ir::Outcome| matches!(x.kind, OutcomeKind::GiveChosen(_));
        // Steps that give one (a step's two branches give one at most between them).
        let gifts = c
            .steps()
            .iter()
            .filter(|s| {
                [s.then, s.otherwise].iter().any(|a| {
                    matches!(a, ir::Act::Outcomes(i) if self.outcomes.get(usize::from(*i)).is_some_and(|o| o.list.iter().any(gift)))
                })
            })
            .count();
        if gifts == 0 {
            return;
        }
        let aims = ir::choice_says(&self.outcomes, c, true, ir::names_chosen);
        let (message, hint) = if aims {
            (
                "a card gives a card of the player's choice or names a player as it is laid, not both",
                "name the player the card goes to (`to the next player`), or give the card at random",
            )
        } else if gifts > 1 {
            (
                "a card gives one card of the player's choice as it is laid, not several",
                "say it once, or give the others at random (`gives a card at random to ...`)",
            )
        } else {
            return;
        };
        self.err(
            layer,
            Diag::error(Code::CardMove, span, message)
                .label("one choice a card")
                .hint(hint),
        );
    }
}
