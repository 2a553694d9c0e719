//! ninety: a rules-scripting engine for the running-total card games.
//!
//! The pipeline, one module per stage:
//!
//! 1. [`syntax`] parses each line of a ruleset (`grammar/ninety.pest`) into an [`ast::File`];
//! 2. [`check`] loads the `extends` chain, resolves options and validates everything, reporting
//!    every problem as a [`diag::Diag`], and compiles the result to an [`ir::Program`];
//! 3. [`engine`] plays a [`ir::Program`]: a seeded, replayable game state and a step function.

pub mod ast;
pub mod bots;
pub mod check;
pub mod commands;
pub mod describe;
pub mod diag;
pub mod engine;
pub mod ir;
pub mod repl;
pub mod scenario;
pub mod script;
pub mod session;
pub mod sheet;
pub mod sim;
pub mod syntax;
