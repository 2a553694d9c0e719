//! Rules and moves the game can never make happen, proved from the program (not from games
//! played): a warning at the line.

use super::compiler::Compiler;
use super::settings::Settings;
use crate::base::Code;
use crate::base::cards::JOKER;
use crate::base::diag::Diag;
use crate::ir::{self, ALWAYS_HOLDS_CARDS};
use crate::lang::ast;

impl Compiler<'_> {
    /// `when a player has no cards: ...` where no one can ever be without cards.
    pub(super) fn cannot_happen(&mut self, p: &ir::Program, s: &Settings) {
        let Some(line) = s.triggers.get(&ast::Trigger::NoCards) else {
            return;
        };
        if line.layer != self.leaf() || !p.always_holds_cards() || self.options_may_deal(s) {
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

    /// Whether another value of an option could change what the proof reads: a line switched
    /// by an option (`if {by_hand}: players draw by hand`), or an option in the hand, the
    /// decks or the jokers (`hand {cards} cards`). The proof holds at these values only, and
    /// a line that can happen at another is not one that can never happen.
    fn options_may_deal(&self, s: &Settings) -> bool {
        let guarded = self
            .layers
            .iter()
            .any(|l| l.file.statements.iter().any(|st| st.guard.is_some()));
        guarded
            || s.live_lines().into_iter().any(|(layer, line)| {
                let text = self.line_text(layer, line);
                ["hand", "each player holds", "decks", "jokers"]
                    .iter()
                    .any(|w| text.starts_with(w))
                    && text.contains('{')
            })
    }

    /// A move beside laying a card that is never offered: one for a player who cannot play
    /// where no one ever is, or a discard of jokers from a deck without them.
    pub(super) fn never_offered(&mut self, p: &ir::Program, s: &Settings, stuck: bool) {
        for (o, d) in p.others.iter().zip(&s.others) {
            let no_jokers =
                matches!(o.kind, ir::OtherKind::Discard(r) if p.jokers == 0 && r == 1 << JOKER);
            let (why, hint) = if o.when == ir::OtherWhen::Stuck && !stuck {
                (
                    "no limit on the total ever leaves a player holding cards unable to lay one, so no one is ever offered this move",
                    "remove the line, or give the total a limit a player can be stuck at: `the total may not go above 99`",
                )
            } else if no_jokers {
                (
                    "the deck has no jokers, so no one ever holds one to discard",
                    "remove the line, or put jokers in the deck: `jokers 2 per deck`",
                )
            } else {
                continue;
            };
            self.err(
                d.layer,
                Diag::warning(
                    Code::OtherMove,
                    d.value.action.span,
                    format!("this move can never be made: {why}"),
                )
                .label("never offered")
                .hint(hint),
            );
        }
    }
}
