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
    pub(super) fn never_offered(
        &mut self,
        p: &ir::Program,
        s: &Settings,
        stuck: bool,
        reach: &super::lints::Reach,
    ) {
        for (o, d) in p.others.iter().zip(&s.others) {
            let no_jokers =
                matches!(o.kind, ir::OtherKind::Discard(r) if p.jokers == 0 && r == 1 << JOKER);
            // A player who cannot play holds no card that can always be laid.
            let always = match o.kind {
                ir::OtherKind::Discard(ranks) if o.when == ir::OtherWhen::Stuck => {
                    always_playable(p, ranks, reach)
                }
                ir::OtherKind::Discard(_) | ir::OtherKind::LayTop | ir::OtherKind::Pass => None,
            };
            let held;
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
            } else if let Some(names) = always {
                held = format!(
                    "{names} can be laid at every total the game reaches, so a player who cannot play never holds one"
                );
                (
                    held.as_str(),
                    "offer the move to every player (`instead of laying a card, a player may ...`), or name a card that can leave a player stuck",
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

/// The cards of `ranks` in the deck, in words (`a King`, `a King or a Queen`), when each can
/// be laid at every total the game reaches with any number of players: no player who cannot
/// play ever holds one. `None` when one of them may not be (or it cannot be proved: a card
/// whose choices read the player or a script, a limit that moves, totals not all explored).
fn always_playable(p: &ir::Program, ranks: u16, reach: &super::lints::Reach) -> Option<String> {
    if !reach.complete || p.moving_limits() || !p.script_bars.is_empty() {
        return None;
    }
    let mut names = Vec::new();
    for rank in 0..crate::base::cards::RANKS as u8 {
        if ranks & 1 << rank == 0 || (rank == JOKER && p.jokers == 0) {
            continue;
        }
        for n in usize::from(p.min_players)..=usize::from(p.max_players) {
            let fx = p.effect_for(n, rank)?;
            let provable = fx.choices().iter().all(|c| {
                !c.scripted
                    && c.steps().iter().all(|st| {
                        st.cond
                            .is_none_or(|i| !p.conds[usize::from(i)].reads_player(p))
                    })
            });
            if !provable
                || !reach.seen.iter().all(|&t| {
                    let f = ir::Facts::total(t);
                    fx.choices()
                        .iter()
                        .any(|c| p.allows(ir::choice_total(p, c, &f)))
                })
            {
                return None;
            }
        }
        let word = crate::base::cards::RANK_WORDS[usize::from(rank)];
        names.push(format!(
            "{} {word}",
            if word == "Ace" || word == "8" {
                "an"
            } else {
                "a"
            }
        ));
    }
    (!names.is_empty()).then(|| names.join(" or "))
}
