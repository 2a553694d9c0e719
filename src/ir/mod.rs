//! The compiled form the engine runs: flat, copyable tables of small integers and plain enums,
//! inert data checked by [`verify`] after every compilation.
//!
//! Options are resolved, ranks are table indexes, every card's effect for every player count
//! is one lookup away. Names and source lines are kept beside the tables for explanations and
//! the rules sheet; the engine's hot path never reads them. Scripts are named through the
//! [`ScriptHost`] trait, which the `script` stage implements.

#![warn(clippy::wildcard_enum_match_arm)]

mod effect;
pub mod eval;
mod labels;
mod legal;
mod others;
mod program;
pub mod script;
mod value;
pub mod verify;

pub use effect::*;
pub use eval::{choice_total, possible_totals};
pub use legal::{LegalTable, Parts, Ranks, Row, TABLE_TOTALS};
pub use others::*;
pub use program::*;
pub use script::{ScriptError, ScriptFx, ScriptHost, ScriptOut, ScriptTest, Scripts, View};
pub use value::*;
pub use verify::verify;

/// Most seats at one table.
pub const MAX_SEATS: usize = 12;
/// Most cards in one hand.
pub const MAX_HAND: usize = 10;
/// Most decks shuffled together.
pub const MAX_DECKS: usize = 4;
/// Most choices on one card.
pub const MAX_CHOICES: usize = 4;
/// Most steps in one choice.
pub const MAX_STEPS: usize = 6;
/// Most counts a ruleset keeps (`count points for each player`).
pub const MAX_COUNTS: usize = 8;
/// "No effect defined" in the rank tables.
pub const NO_EFFECT: u16 = u16::MAX;

#[cfg(test)]
mod tests;
