//! The compiler: loads a ruleset and its `extends` chain (every file through a [`Loader`]),
//! resolves options, validates every statement and lowers the result to an
//! [`ir::Program`], which [`ir::verify`] then checks. It never stops at the first problem:
//! every problem becomes a [`Diag`] with a span and a hint.
//!
//! The passes, in order: [`chain`] (load and parse the files), [`options`], [`settings`]
//! (collect every statement), [`table`] (players, decks, hands, chips, limits), [`scripts`],
//! [`cards`], [`outcomes`] (bars and moments), [`lower`] (assemble), [`lints`] (analyses of
//! the program), [`stall`] (a game that could not go on).

#![warn(clippy::wildcard_enum_match_arm)]

mod ambiguity;
mod cards;
mod chain;
mod changes;
mod compiler;
mod counts;
mod effects;
mod ends;
mod flatten;
mod gifts;
mod happen;
mod lints;
mod loader;
mod lower;
mod options;
mod others;
mod outcomes;
mod playable;
mod removal;
mod roles;
mod scripts;
mod settings;
mod stall;
mod table;
mod winners;

pub use flatten::flatten;
pub use loader::{
    Disk, FileError, Loader, Memory, SHIPPED, Shipped, lexically_inside, normalize, read_capped,
    shipped,
};

use crate::base::diag::{Diag, Source, cap_per_file};
use crate::base::limits::DIAGS_PER_FILE;
use crate::base::{Code, Span};
use crate::ir;
use crate::lang::ast;
use compiler::Compiler;

/// A parsed file of the `extends` chain.
#[derive(Debug, Clone)]
pub struct Layer {
    pub path: String,
    pub source: Source,
    pub file: ast::File,
}

/// What checking a ruleset gives: the compiled program when there was no error, every
/// diagnostic, and the parsed files (the ruleset's own last) for its scenarios.
#[derive(Debug)]
pub struct Checked {
    pub program: Option<ir::Program>,
    pub diags: Vec<Diag>,
    pub layers: Vec<Layer>,
}

impl Checked {
    /// The errors found (those held back by a `more-problems` diagnostic included).
    pub fn errors(&self) -> usize {
        crate::base::diag::counts(&self.diags).0
    }
    /// The warnings found (those held back included).
    pub fn warnings(&self) -> usize {
        crate::base::diag::counts(&self.diags).1
    }
}

/// The root file could not be read at all (a usage error, not a ruleset problem).
#[derive(Debug, thiserror::Error)]
#[error("cannot read `{path}`: {reason}")]
pub struct Unreadable {
    pub path: String,
    pub reason: String,
}

/// Option values given on the command line: `chips=5`.
pub type Sets = [(String, String)];

/// The ruleset a command names: the name of a shipped ruleset (`ninety-nine`, no folder and
/// no extension), or a file read through the loader.
fn root(loader: &dyn Loader, path: &str) -> Result<(Vec<u8>, chain::Home), Unreadable> {
    let named = !path.contains(['/', '\\']) && std::path::Path::new(path).extension().is_none();
    if named && let Some(text) = loader::shipped(path) {
        return Ok((text.as_bytes().to_vec(), chain::Home::Shipped));
    }
    let bytes = loader.read(path).map_err(|reason| Unreadable {
        path: path.to_string(),
        reason,
    })?;
    let root = std::path::Path::new(path)
        .parent()
        .map_or_else(String::new, |d| d.display().to_string());
    Ok((bytes, chain::Home::Files { root }))
}

/// Loads, checks and compiles the ruleset at `path` with option values `sets`. At most
/// [`DIAGS_PER_FILE`] diagnostics a file are kept; the others are counted in one more.
pub fn check(loader: &dyn Loader, path: &str, sets: &Sets) -> Result<Checked, Unreadable> {
    let mut checked = check_uncapped(loader, path, sets)?;
    cap_per_file(&mut checked.diags, DIAGS_PER_FILE);
    Ok(checked)
}

fn check_uncapped(loader: &dyn Loader, path: &str, sets: &Sets) -> Result<Checked, Unreadable> {
    let (bytes, home) = root(loader, path)?;
    let mut diags = Vec::new();
    let layers = chain::load_chain(loader, path, &bytes, home, &mut diags);
    Ok(compile_layers(layers, diags, sets))
}

/// Compiles again, with option values `sets`, the files an earlier check read and parsed
/// (a scenario's `set`): no file is read again.
pub fn recompile(layers: &[Layer], sets: &Sets) -> Checked {
    let mut checked = compile_layers(layers.to_vec(), Vec::new(), sets);
    cap_per_file(&mut checked.diags, DIAGS_PER_FILE);
    checked
}

/// Compiles parsed files (`diags`: what reading them found) into a checked program.
fn compile_layers(layers: Vec<Layer>, mut diags: Vec<Diag>, sets: &Sets) -> Checked {
    if diags.iter().any(Diag::is_error) || layers.is_empty() {
        // A file that cannot be read fully is not compiled: half a ruleset would report
        // problems (a rank with no value) that are only echoes of the syntax error.
        return Checked {
            program: None,
            diags,
            layers,
        };
    }
    let mut c = Compiler::new(&layers);
    c.set_options(sets);
    let program = c.compile();
    // A parent's warnings are its own business: they show when it is checked itself.
    let own = layers.last().map(|l| l.path.clone()).unwrap_or_default();
    diags.extend(
        c.diags
            .into_iter()
            .filter(|d| d.is_error() || d.source.as_ref().is_none_or(|s| s.name == own)),
    );
    let program = program.filter(|_| !diags.iter().any(Diag::is_error));
    if let Some(p) = &program {
        let problems = ir::verify(p);
        if !problems.is_empty() {
            diags.push(
                Diag::error(
                    Code::Internal,
                    Span::default(),
                    format!("the compiled ruleset is not sound: {}", problems.join("; ")),
                )
                .without_snippet()
                .hint(
                    "this is a bug in ninety, not in the ruleset: please report it with the file",
                ),
            );
            return Checked {
                program: None,
                diags,
                layers,
            };
        }
    }
    Checked {
        program,
        diags,
        layers,
    }
}
