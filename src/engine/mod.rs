//! The game engine: a game's whole state as plain data, and a step function that applies one
//! move to it under a compiled [`Program`](crate::ir::Program), reporting what happened to an
//! event [`Sink`].
//!
//! The engine knows primitives (add, set, choose, skip, reverse, play again, bars, pay,
//! eliminate, end a round, reset, deal, draw, reshuffle), never a particular game; it knows
//! the IR, not bots, not text, not rhai (scripts are asked through the IR's `ScriptHost`).
//! Its hot path reads only the compiled tables and allocates nothing: hands are fixed arrays,
//! the stock and discard pile are vectors sized once for the whole deck, and events cost
//! nothing when the sink is `()`. Randomness is the game's own [`Rng`](crate::base::Rng)
//! stream, so one seed gives one game on every machine and every version.

#![warn(clippy::wildcard_enum_match_arm)]

mod deal;
mod error;
mod events;
mod flat;
mod hand;
mod kept;
mod kernel;
mod moves;
mod others;
mod outcomes;
mod plays;
mod prepared;
mod scripts;
mod settle;
mod setup;
mod stall;
mod state;
mod step;
mod turn;
mod validate;
mod view;

pub use deal::{REDEALS, deal_hidden};
pub use error::{Illegal, PlayError};
pub use events::{Event, PayTo, Reason, Sink, kind};
pub use hand::{Hand, Pile};
pub use kernel::{Kernel, Pick, kernel_fits, loop_turns};
pub use plays::{TablePlays, TableTurn, table_turn};
pub use prepared::{Prepared, Tables};
pub use scripts::Pre;
pub use setup::{Setup, new_game, new_game_in};
pub use stall::Stall;
pub use state::{Kept, MAX_MOVES, Move, Moves, State};
pub use step::{Play, step};
pub use view::{SeatView, Seen};
