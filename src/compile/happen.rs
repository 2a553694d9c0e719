//! Rules the game can never make happen, proved from the program (not from games played):
//! a warning at the line, in the ruleset's own file.

use super::compiler::Compiler;
use super::settings::Settings;
use crate::base::Code;
use crate::base::diag::Diag;
use crate::ir::{self, ALWAYS_HOLDS_CARDS};
use crate::lang::ast;

impl Compiler<'_> {
    /// `when a player has no cards: ...` where no one can ever be without cards.
    pub(super) fn cannot_happen(&mut self, p: &ir::Program, s: &Settings) {
        let Some(line) = s.triggers.get(&ast::Trigger::NoCards) else {
            return;
        };
        if line.layer != self.leaf() || !p.always_holds_cards() {
            return;
        }
        self.err(
            line.layer,
            Diag::warning(
                Code::CannotHappen,
                line.span,
                format!("this can never happen: {ALWAYS_HOLDS_CARDS}"),
            )
            .label("never happens")
            .hint("remove the line, or let a player run out: `players draw by hand`"),
        );
    }
}
