//! A ruleset whose games could not go on, found before any is played: at the total every
//! round starts from, no card of the deck can be played, so every round would pass with
//! nobody playing. (The engine stops such a game at run time too; this says it at the line.)

use super::compiler::Compiler;
use super::settings::Settings;
use crate::base::cards::{JOKER, RANKS};
use crate::base::diag::Diag;
use crate::base::{Code, Span};
use crate::ir::{self, possible_totals};

impl Compiler<'_> {
    /// An error when, at the starting total, no card has a choice the limits allow (cards
    /// with scripts are not judged: they are asked in play).
    pub fn stuck_at_start(&mut self, p: &ir::Program, s: &Settings) {
        let ranks = if p.jokers > 0 {
            RANKS
        } else {
            usize::from(JOKER)
        };
        for n in 2..=usize::from(p.max_players) {
            let mut totals = Vec::new();
            let playable = (0..ranks).any(|r| {
                p.effect_for(n, r as u8).is_some_and(|fx| {
                    fx.choices().iter().any(|c| {
                        // A condition on the player may go either way: every total counts.
                        let ts = possible_totals(p, c, p.start);
                        let ok = c.scripted || ts.iter().any(|t| p.allows(*t));
                        totals.extend(ts);
                        ok
                    })
                })
            });
            if playable || totals.is_empty() {
                continue;
            }
            let above = totals
                .iter()
                .any(|t| p.ceiling.is_some_and(|c| *t > c.value));
            let line = if above { &s.ceiling } else { &s.floor };
            let (layer, span) = line
                .as_ref()
                .or(s.start.as_ref())
                .map_or((self.leaf(), Span::default()), |d| (d.layer, d.span));
            self.err(
                layer,
                Diag::error(
                    Code::Stuck,
                    span,
                    format!(
                        "no card can be played when the total is at its start, {}: every round would pass with nobody playing",
                        p.start
                    ),
                )
                .label("no card is allowed past this")
                .hint("start the total where some card can be played, or move this limit"),
            );
            return;
        }
    }
}
