//! The application: the library's entry points (load a program, set up a position), scenarios,
//! the commands, the REPL session and loop, and the command line. Only this stage does
//! terminal or file I/O besides loading rulesets.
//!
//! Without the `cli` feature (the library in a browser, `web/`), the command line, the REPL's
//! rustyline loop, shell completion, `sim`'s command with its progress bar and the language
//! server's loop are left out; loading, checking, the dry run, scenarios, the session and the
//! language server's features (documents, diagnostics, hover, completion, tokens) stay.

mod atomic;
#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "cli")]
mod cli_tools;
pub mod commands;
#[cfg(feature = "cli")]
mod completion;
pub mod dryrun;
mod idle;
pub mod judge_cmd;
pub mod judge_counts;
#[cfg(feature = "cli")]
mod judge_merge;
pub mod load;
pub mod lsp;
#[cfg(feature = "cli")]
pub mod repl;
pub mod run;
pub mod scenario;
#[cfg(feature = "cli")]
pub mod serve;
pub mod session;
#[cfg(feature = "cli")]
mod shard;
#[cfg(feature = "cli")]
pub mod sim_cmd;
#[cfg(feature = "cli")]
pub mod store;
pub mod table;
pub mod tune_cmd;
