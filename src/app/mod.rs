//! The application: the library's entry points (load a program, set up a position), scenarios,
//! the commands, the REPL session and loop, and the command line. Only this stage does
//! terminal or file I/O besides loading rulesets.

mod atomic;
pub mod cli;
pub mod commands;
mod completion;
pub mod dryrun;
pub mod judge_cmd;
pub mod load;
pub mod lsp;
pub mod repl;
pub mod run;
pub mod scenario;
pub mod session;
mod shard;
pub mod sim_cmd;
