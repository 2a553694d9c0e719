//! The rhai escape hatch, sandboxed: card effects, conditions, bar tests and bots a ruleset's
//! language cannot say.
//!
//! Scripts are compiled once, when the ruleset is checked. Each function gets a `game` value
//! to read (an [`ir::View`](crate::ir::View)); one that reads only the total and the card is
//! tabulated then, so it costs nothing at play time, and only functions that read more run
//! live, through the [`Host`] the engine knows as an [`ir::ScriptHost`](crate::ir::ScriptHost).
//! The engine is limited in counted work (never in time: a seed gives one game), call depth,
//! and string, array and map sizes (map keys included), prints nothing, and has no file,
//! network or process access: a runaway script fails with a clear error and the game stays
//! as it was before the move.

mod bot;
mod host;
mod meter;
mod out;
mod sandbox;

pub use bot::ScriptBot;
pub use host::{FnSource, Host, MEMO_BYTES, Piece};
pub use meter::{Budget, GUARD_WORDS, Stop};
pub use sandbox::{
    CompileError, MAX_ARRAY, MAX_CALL_LEVELS, MAX_MAP, MAX_OPERATIONS, MAX_STRING, compile, read,
};

/// Whether a script failed because the guard of last resort stopped it (the machine far too
/// busy): the command must end with an error, never carry on to another result.
pub fn is_guard(e: &crate::ir::ScriptError) -> bool {
    e.message == GUARD_WORDS
}
