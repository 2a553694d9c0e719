//! Built-in bots. They read only the compiled ruleset and the state, so they play any
//! variant.

use crate::engine::{Move, State, choice_total, rank_of, rng_below};
use crate::ir::Program;

/// A bot strategy, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bot {
    /// Uniform over the legal moves (each choice of a choice card is one move).
    Random,
    /// Keeps the total low and avoids bars it would pay for; never forgets to draw.
    Cautious,
}

impl Bot {
    pub const NAMES: [&'static str; 2] = ["random", "cautious"];

    pub fn from_name(name: &str) -> Option<Bot> {
        match name {
            "random" => Some(Bot::Random),
            "cautious" => Some(Bot::Cautious),
            _ => None,
        }
    }

    /// The bot's card, or `None` when it has none (the engine deals with such a player before
    /// asking). Drawing by hand is not a choice: bots draw right after their card (see
    /// [`crate::engine::step`] with [`Move::Draw`]), so the bot never plays one.
    pub fn choose(self, p: &Program, s: &State, rng: &mut [u64; 4]) -> Option<Move> {
        let all = s.legal_moves(p);
        let mut moves = all;
        moves.retain_plays();
        if moves.is_empty() {
            return None;
        }
        match self {
            Bot::Random => Some(moves.as_slice()[rng_below(rng, moves.len())]),
            Bot::Cautious => {
                let mut best = moves.as_slice()[0];
                let mut best_score = i64::MIN;
                for &m in moves.as_slice() {
                    let score = cautious_score(p, s, m) * 16 + rng_below(rng, 16) as i64;
                    if score > best_score {
                        best_score = score;
                        best = m;
                    }
                }
                Some(best)
            }
        }
    }
}

/// Higher is better: pay nothing, keep the total low, keep escape cards (those that do not
/// raise the total) for later.
fn cautious_score(p: &Program, s: &State, m: Move) -> i64 {
    let Move::Play { card, choice } = m else {
        return 0;
    };
    let Some(fx) = s.effect(p, rank_of(card)) else {
        return i64::MIN / 2;
    };
    let choice = &fx.choices()[usize::from(choice)];
    let old = s.total;
    let new = choice_total(p, choice, old);
    let mut score: i64 = 0;
    for b in &p.bars {
        if old < b.value && new > b.value && b.pass.is_some() {
            score -= 1000;
        }
        if old < b.value && new == b.value && b.reach.is_some() {
            score += 500;
        }
    }
    // An escape card (one that does not raise the total) is worth more later.
    let rise = i64::from(new - old);
    if rise <= 0 {
        score -= 40;
    }
    score - i64::from(new).max(0)
}
