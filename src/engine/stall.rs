//! A game that cannot go on: rounds that end one after the other with no card played
//! (nobody can be dealt a card, or nobody can play and no rule ends the game). The step
//! function counts them; past [`IDLE_ROUNDS`] the game stops, marked [`Stall`], instead of
//! turning forever.

use serde::{Deserialize, Serialize};

use super::State;
use crate::base::limits::{IDLE_ROUNDS, IDLE_STEPS};

/// Why a game stopped without an end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stall {
    /// Rounds kept ending with nobody holding a card.
    NoCards,
    /// Rounds kept ending with nobody able to play a card.
    NoPlay,
}

/// The rounds that ended since the last card was played (in one call of the step function).
#[derive(Debug, Default)]
pub(super) struct Idle {
    rounds: u32,
    steps: u64,
}

impl Idle {
    /// A round ended with no card played. When too many have, the game stops, stalled.
    pub(super) fn round_ended(&mut self, s: &mut State) {
        self.rounds += 1;
        if self.rounds > IDLE_ROUNDS && !s.over {
            stop(s);
        }
    }

    /// The step function went round once more without a card: `true` when the game had to
    /// stop.
    pub(super) fn step(&mut self, s: &mut State) -> bool {
        self.steps += 1;
        self.steps > IDLE_STEPS && stop(s)
    }
}

/// Stops the game: over, with no winner, and why.
fn stop(s: &mut State) -> bool {
    let holding = (0..s.seats).any(|x| s.in_round(x) && !s.hands[usize::from(x)].is_empty());
    s.stuck = Some(if holding {
        Stall::NoPlay
    } else {
        Stall::NoCards
    });
    s.over = true;
    s.winners = 0;
    s.pending_draw = None;
    true
}
