//! ninety: a rules-scripting engine for the running-total card games.
//!
//! The crate is its pipeline, one folder per stage, each importing only the stages below it
//! (`ARCHITECTURE.md` draws the arrows; `tests/layers.rs` keeps them):
//!
//! 1. [`base`]: spans, the card vocabulary, the seeded RNG, diagnostics and their codes;
//! 2. [`lang`]: the pest parser, ruleset text to a spanned [`lang::ast::File`];
//! 3. [`ir`]: the compiled form, inert data, its pure evaluation and its verifier;
//! 4. [`script`]: the sandboxed rhai host behind the IR's `ScriptHost` trait;
//! 5. [`compile`]: loading, `extends`, options, lowering to an [`ir::Program`], lints;
//! 6. [`engine`]: a game's state and the step function;
//! 7. [`play`]: bots and move notation; [`sim`]: many games and their statistics;
//!    [`present`]: events, refusals and the rules sheet in words;
//! 8. [`app`]: entry points, scenarios, commands, the REPL, the command line.

pub mod app;
pub mod base;
pub mod compile;
pub mod engine;
pub mod ir;
pub mod lang;
pub mod play;
pub mod present;
pub mod script;
pub mod sim;
