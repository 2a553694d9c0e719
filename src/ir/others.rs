//! Moves beside laying a card from the hand: `instead of laying a card, a player may lay the
//! top card of the stock`, `a player who cannot play may discard a King instead`.

use serde::Serialize;

use super::{Origin, Program};

/// Most moves beside laying a card a ruleset offers.
pub const MAX_OTHERS: usize = 8;

/// When a move beside laying a card is offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum OtherWhen {
    /// `instead of laying a card, a player may ...`: on every turn of a player holding cards.
    Instead,
    /// `a player who cannot play may ... instead`: to a player holding cards, none of which
    /// they may lay; they may also take what the rules give a player who cannot play.
    Stuck,
}

/// What a move beside laying a card does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum OtherKind {
    /// `discard a King`: a card of these ranks (bit `rank`), the player's choice, goes from
    /// the hand onto the discard pile; the total stays; the hand draws back up as after a card.
    Discard(u16),
    /// `lay the top card of the stock`: the stock's top card is turned up and laid, the
    /// first way the rules allow it; one that cannot be laid goes onto the discard pile
    /// without changing the total, and the line's `if it cannot be laid` outcomes run (or,
    /// without them, what the rules give a player who cannot play).
    LayTop,
    /// `pass`: nothing moves; the turn passes.
    Pass,
}

/// A move beside laying a card, as compiled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OtherMove {
    pub when: OtherWhen,
    pub kind: OtherKind,
    /// What follows the move (`: the player pays 1 to the pot`): an index into
    /// [`Program::outcomes`].
    pub then: Option<u16>,
    /// For [`OtherKind::LayTop`]: what follows when the card cannot be laid.
    pub failed: Option<u16>,
    pub origin: Origin,
}

impl OtherMove {
    /// The word a player types for this move, before the card it names (`discard KS`).
    pub fn word(&self) -> &'static str {
        match self.kind {
            OtherKind::Discard(_) => "discard",
            OtherKind::LayTop => "stock",
            OtherKind::Pass => "pass",
        }
    }

    /// Whether the move names a card of the hand.
    pub fn names_card(&self) -> bool {
        matches!(self.kind, OtherKind::Discard(_))
    }
}

impl Program {
    /// Whether a card line names a player as it is laid (`choose who plays next`, `a player
    /// of their choice pays 1`).
    pub fn aims(&self) -> bool {
        self.effects
            .iter()
            .any(|fx| fx.choices().iter().any(|c| c.aims))
    }

    /// Whether a card line gives a card of the player's choice as it is laid.
    pub fn gives(&self) -> bool {
        self.effects
            .iter()
            .any(|fx| fx.choices().iter().any(|c| c.gives))
    }

    /// Whether a turn may be more than laying a card from the hand: a move beside it, or a
    /// card that names a player or gives a chosen card.
    pub fn more_moves(&self) -> bool {
        !self.others.is_empty() || self.aims() || self.gives()
    }

    /// Whether a choice's steps give a card of the player's choice (the derivation of
    /// [`super::Choice::gives`]).
    pub fn choice_gives(&self, c: &super::Choice) -> bool {
        choice_says(&self.outcomes, c, false, |x| {
            matches!(x.kind, super::OutcomeKind::GiveChosen(_))
        })
    }

    /// Whether a choice's steps name a player: the chosen player plays next, or an outcome
    /// is about them (the derivation of [`super::Choice::aims`]).
    pub fn choice_aims(&self, c: &super::Choice) -> bool {
        choice_says(&self.outcomes, c, true, names_chosen)
    }
}

/// Whether an outcome is about the player a card's player names (`a player of their choice`).
pub fn names_chosen(x: &super::Outcome) -> bool {
    let names = |w: super::Who| w == super::Who::Chosen;
    names(x.who) || x.kind.other().is_some_and(names)
}

/// Whether any step of a choice does what `says` looks for in an outcome of `outcomes` (the
/// lists its steps index), or, with `next`, chooses who plays next: what a card's move must
/// carry, read from the choice alone (the compiler asks it before the program is whole).
pub fn choice_says(
    outcomes: &[super::Outcomes],
    c: &super::Choice,
    next: bool,
    says: impl Fn(&super::Outcome) -> bool,
) -> bool {
    use super::Act;
    c.acts().any(|a| match a {
        Act::ChooseNext => next,
        Act::Outcomes(i) => outcomes
            .get(usize::from(i))
            .is_some_and(|o| o.list.iter().any(&says)),
        Act::Add(_)
        | Act::Set(_)
        | Act::Mul(_)
        | Act::Div(_)
        | Act::Nothing
        | Act::Skip(_)
        | Act::Reverse
        | Act::Again(_)
        | Act::Script(_)
        | Act::Value(_) => false,
    })
}
