//! `ninety lsp`: a language server for ruleset files, over standard input and output.
//!
//! **Why this design.** Checking a ruleset from scratch takes 1 to 3 ms (a few ms with its
//! scenarios; `docs/editors.md` gives the measured answer times), so every change is simply
//! checked again in full, in memory: there is no incremental analysis to keep right. But a
//! ruleset's scripts may take half a second to try over every total, so `ninety lsp` checks
//! on a thread of its own ([`background`]): edits already read are applied before one check,
//! a check made outdated by a newer edit is dropped, and the variants of a changed file are
//! checked when nothing else waits; messages are answered in order, a request about a file
//! after its last text is checked, so an answer is never about an older text. In process
//! ([`Server::handle`]: the tests) every change is checked at once. It uses rust-analyzer's
//! `lsp-server` crate for the protocol's messages (JSON-RPC requests, responses and
//! notifications as Rust values) and `lsp-types` for the protocol's types. It frames messages
//! itself rather than through `lsp_server::Connection::stdio`, which stops at the first
//! malformed message: here a malformed message, an unknown method or bad parameters get an
//! error response, and the server goes on.
//!
//! One module per feature: [`server`] (the protocol's life cycle and dispatch, what each
//! document wants checked), `background` (the loop and its threads),
//! [`frame`] (reading messages, each line capped), [`documents`] (open documents, the
//! in-memory loader, positions and URIs), [`diagnostics`],
//! [`hover`], [`completion`], [`definition`] and [`actions`] (quick fixes); and, dispatched
//! by [`features`], [`tokens`] (semantic tokens), [`symbols`] (the outline), [`format`],
//! [`rename`] and [`lens`] (running a scenario). [`lexer`] and [`layout`] read a file's lines
//! for them: the pieces of a line, and what each line is, from the parsed file (no keyword
//! list: the words of a line the grammar read are its keywords).

pub mod actions;
#[cfg(feature = "cli")]
mod background;
pub mod completion;
pub mod definition;
pub mod diagnostics;
pub mod documents;
#[cfg(feature = "cli")]
mod features;
pub mod format;
#[cfg(feature = "cli")]
mod frame;
pub mod hover;
pub mod layout;
pub mod lens;
pub mod lexer;
pub mod rename;
#[cfg(feature = "cli")]
pub mod server;
pub mod symbols;
pub mod tokens;

#[cfg(feature = "cli")]
pub use background::run;
#[cfg(feature = "cli")]
pub use server::{Flow, Server};
