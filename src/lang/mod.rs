//! The ruleset language: the spanned syntax tree ([`ast`]) and the pest parser that builds it.
//! Pest types never leave [`parse`]; everything after this stage sees the tree.

pub mod ast;
mod parse;

pub use parse::{MAX_FILE_BYTES, expected_at, line_doc, parse};
