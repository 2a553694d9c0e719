//! `the winner` where no round has one. A round has a winner only when a rule wins it or
//! puts players out of it (the last one left wins); a game whose rules do neither (Ninety-
//! Nine: a round has a loser) never has a round's winner, so a line about the winner of the
//! round never happens, and `the winner leads` always falls back to the dealer's left. The
//! checker says so, rather than accept the line in silence.

use super::compiler::Compiler;
use super::settings::Settings;
use crate::base::Code;
use crate::base::diag::Diag;
use crate::base::span::line_span;
use crate::ir::{self, OutcomeKind, Role, Target, Who};

impl Compiler<'_> {
    /// Warnings for the lines about the round's winner in a game whose rounds never have one.
    pub(super) fn winner_lints(&mut self, p: &ir::Program, s: &Settings) {
        self.game_ends_with_several(p, s);
        if rounds_can_have_winners(p) {
            return;
        }
        let leaf = self.leaf();
        let why = "no rule of this game wins a round or puts a player out of one, so no round has a winner";
        if p.leader.role == Role::Winner
            && p.leader.by.is_none()
            && let Some(d) = s.leader.as_ref().filter(|d| d.layer == leaf)
        {
            self.err(
                leaf,
                Diag::warning(
                    Code::NeverApplies,
                    d.span,
                    format!("{why}: the winner never leads, and every round is led by the player left of the dealer"),
                )
                .label("no round's winner")
                .hint("say who leads: `the player left of the loser leads`, or give rounds a winner: `when a player cannot play: the player loses the round and the player before wins the round`"),
            );
        }
        for (i, o) in p.outcomes.iter().enumerate() {
            let names_winner = o.list.iter().any(|x| {
                x.who == Who::Winner
                    || matches!(
                        x.kind,
                        OutcomeKind::Pay {
                            to: Target::Seat(Who::Winner),
                            ..
                        }
                    )
            });
            // At the end of the game `the winner` is the game's.
            if !names_winner
                || p.trigger_lines(crate::ir::TriggerKind::GameEnd)
                    .any(|g| usize::from(g) == i)
                || usize::from(o.origin.file) != leaf
            {
                continue;
            }
            let span = line_span(&self.layers[leaf].source.text, o.origin.line as usize);
            self.err(
                leaf,
                Diag::warning(
                    Code::NeverApplies,
                    span,
                    format!("{why}: `the winner` here is the round's winner, so what this line does to the winner never happens"),
                )
                .label("no round's winner")
                .hint("name someone every round has (`the loser`, `the player`, `the player with the most chips`), or give rounds a winner: `... wins the round`"),
            );
        }
    }
}

impl Compiler<'_> {
    /// `... and the game ends` under `the winner is the last player left`: the game then ends
    /// with every player still in it, who all share the win. The ending lines say so
    /// (`winner-rule`); an outcome that ends the game must too.
    fn game_ends_with_several(&mut self, p: &ir::Program, s: &Settings) {
        if p.winner != ir::Winner::LastLeft {
            return;
        }
        let leaf = self.leaf();
        let Some(o) = p.outcomes.iter().find(|o| {
            usize::from(o.origin.file) == leaf
                && o.list.iter().any(|x| x.kind == OutcomeKind::EndGame)
        }) else {
            return;
        };
        let text = &self.layers[leaf].source.text;
        let span = line_span(text, o.origin.line as usize);
        let parent = s
            .winner
            .as_ref()
            .filter(|w| w.layer != leaf)
            .map(|w| {
                format!(
                    " (`the winner is the last player left` is said in {})",
                    self.layers[w.layer].source.name
                )
            })
            .unwrap_or_default();
        let mut d = Diag::error(
            Code::WinnerRule,
            span,
            format!(
                "`the game ends` here ends it with every player still in it, so `the last player left` may be several{parent}: they all share the win"
            ),
        )
        .label("it can end with several players here")
        .hint("say who wins then: `the winner is the player with the most chips` (or `the fewest chips`); or give the win to one player: `the player wins the game`");
        if s.winner.as_ref().is_none_or(|w| w.layer != leaf) {
            d = d.fix(
                crate::base::Span::new(span.end, span.end),
                "\nthe winner is the player with the most chips",
            );
        }
        self.err(leaf, d);
    }
}

/// Whether a round of the game can have a winner: some rule wins a round or puts a player
/// out of one (or a script, which may, or a team game, whose last team left in a round wins).
fn rounds_can_have_winners(p: &ir::Program) -> bool {
    p.scripts.is_some()
        || p.team_size.is_some()
        || p.outcomes.iter().flat_map(|o| &o.list).any(|x| {
            matches!(
                x.kind,
                OutcomeKind::WinRound | OutcomeKind::OutOfRound | OutcomeKind::OutOfGame
            )
        })
}
