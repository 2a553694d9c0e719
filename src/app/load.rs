//! The library's entry points: a ruleset loaded and checked (with its scenarios), a program
//! ready to play, a variant's parent, the players of the seats.

use crate::play::Ruleset;
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use super::scenario;
use crate::base::diag::{Diag, cap_per_file};
use crate::base::limits::DIAGS_PER_FILE;
use crate::base::limits::SCRIPT_FILE_BYTES;
use crate::compile::{self, Checked, Loader, read_capped};
use crate::ir::Program;
use crate::play::Player;
use crate::script::ScriptBot;

/// The `*.rules` files a list of paths names (a folder means every ruleset in it).
pub fn expand(paths: &[String]) -> Result<Vec<String>, String> {
    let mut files = Vec::new();
    for path in paths {
        let p = Path::new(path);
        if p.is_dir() {
            let mut found: Vec<String> = std::fs::read_dir(p)
                .map_err(|e| format!("cannot read the folder `{path}`: {e}"))?
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|f| f.extension().is_some_and(|x| x == "rules"))
                .map(|f| f.display().to_string())
                .collect();
            found.sort();
            if found.is_empty() {
                return Err(format!("the folder `{path}` holds no `.rules` files"));
            }
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// A compilation of a ruleset with some option values: its program, or its errors in words.
type Compiled = Result<Ruleset, String>;

/// Checks one ruleset and runs its scenarios: every diagnostic.
pub fn check_one(
    loader: &dyn Loader,
    path: &str,
    sets: &[(String, String)],
) -> Result<Checked, compile::Unreadable> {
    let mut checked = compile::check(loader, path, sets)?;
    let ruleset = checked.program.clone().map(Ruleset::new);
    if let Some(program) = &ruleset
        && let Some(own) = checked.layers.last()
    {
        // Scenarios that set the same options share one compilation, and none reads or
        // parses the files again.
        let compiled: RefCell<HashMap<Vec<(String, String)>, Compiled>> = RefCell::default();
        let layers = &checked.layers;
        let recompile = |extra: &[(String, String)]| {
            let mut all = sets.to_vec();
            all.extend_from_slice(extra);
            if let Some(done) = compiled.borrow().get(&all) {
                return done.clone();
            }
            let mut checked = compile::recompile(layers, &all);
            // The same scripts: their live calls go to the first compilation's host, so every
            // scenario spends from the one allowance `run_all` gives.
            if let Some(q) = &mut checked.program
                && q.scripts == program.scripts
            {
                q.scripts.clone_from(&program.scripts);
            }
            let result = checked.program.map(Ruleset::new).ok_or_else(|| {
                let messages: Vec<String> = checked
                    .diags
                    .iter()
                    .filter(|d| d.is_error())
                    .map(|d| d.message.clone())
                    .collect();
                messages.join("; ")
            });
            compiled.borrow_mut().insert(all, result.clone());
            result
        };
        let diags: Vec<Diag> = scenario::run_all(program, own, &recompile);
        let failed = diags.iter().any(Diag::is_error);
        checked.diags.extend(diags);
        // The games are played only for a ruleset whose scenarios hold: a failing one is the
        // thing to mend first.
        if !failed && !checked.diags.iter().any(Diag::is_error) {
            checked.diags.extend(super::dryrun::dry_run(program, own));
        }
        cap_per_file(&mut checked.diags, DIAGS_PER_FILE);
    }
    Ok(checked)
}

/// Loads and checks a ruleset for playing: the program, or the diagnostics rendered.
pub fn load_program(
    loader: &dyn Loader,
    path: &str,
    sets: &[(String, String)],
) -> Result<Ruleset, String> {
    load_checked(loader, path, sets).map_err(|e| match e {
        NotLoaded::Unreadable(why) | NotLoaded::BadSet(why) | NotLoaded::DoesNotCheck(why) => why,
    })
}

/// Why a ruleset could not be loaded for playing: a command exits 2 for the first two (as
/// for a usage error) and 1 for the last.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotLoaded {
    /// The file cannot be read (missing, a folder, too large, not text).
    Unreadable(String),
    /// A `--set` names no option of the ruleset, or gives one a value it does not allow: a
    /// slip on the command line, not a fault of the ruleset. Each one, in words.
    BadSet(String),
    /// It was read, and has errors: the diagnostics rendered.
    DoesNotCheck(String),
}

/// Whether a diagnostic is about a `--set NAME=VALUE` given on the command line (or kept in
/// a save): an option the ruleset lacks, or a value it does not allow.
pub fn is_set_error(d: &Diag) -> bool {
    use crate::base::Code;
    d.is_error()
        && matches!(
            d.code,
            Code::UnknownOption | Code::OptionValue | Code::DeadOption
        )
        && d.message.starts_with("`--set ")
}

/// The `--set` errors of a check, each in one line with its hint, or `None` when there are
/// none.
pub fn set_errors(diags: &[Diag]) -> Option<String> {
    let lines: Vec<String> = diags
        .iter()
        .filter(|d| is_set_error(d))
        .map(|d| match &d.hint {
            Some(h) => format!("{} ({h})", d.message),
            None => d.message.clone(),
        })
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// Why a ruleset cannot be read, with the shipped ruleset its name is closest to when it
/// names none (`ninty-nine`: did you mean `ninety-nine`?).
pub fn unreadable(path: &str, why: &str) -> String {
    let bare = !path.contains(['/', '\\']) && !Path::new(path).exists();
    if !bare {
        return why.to_string();
    }
    let stem = path.strip_suffix(".rules").unwrap_or(path);
    let names = compile::SHIPPED.iter().map(|(n, _)| *n);
    match crate::base::diag::did_you_mean(stem, names) {
        Some(name) => format!(
            "{why}\n  help: did you mean `{name}`? (`ninety list` lists the shipped rulesets)"
        ),
        None => format!("{why}\n  help: `ninety list` lists the shipped rulesets"),
    }
}

/// [`load_program`], saying which of the three ways it failed.
pub fn load_checked(
    loader: &dyn Loader,
    path: &str,
    sets: &[(String, String)],
) -> Result<Ruleset, NotLoaded> {
    let checked = compile::check(loader, path, sets)
        .map_err(|e| NotLoaded::Unreadable(unreadable(path, &e.to_string())))?;
    if let Some(why) = set_errors(&checked.diags) {
        return Err(NotLoaded::BadSet(why));
    }
    match checked.program {
        Some(p) => Ok(Ruleset::new(p)),
        None => {
            let text: Vec<String> = checked
                .diags
                .iter()
                .filter(|d| d.is_error())
                .map(|d| d.render_plain(100))
                .collect();
            Err(NotLoaded::DoesNotCheck(format!(
                "{path} does not check:\n{}",
                text.join("\n")
            )))
        }
    }
}

/// The compiled parent of a variant, to mark what the variant changes on its rules sheet.
pub fn base_program(
    loader: &dyn Loader,
    p: &Program,
    sets: &[(String, String)],
) -> Option<Program> {
    let parent = p.files.len().checked_sub(2).and_then(|i| p.files.get(i))?;
    let known: Vec<(String, String)> = sets
        .iter()
        .filter(|(n, _)| p.option(n).is_some())
        .cloned()
        .collect();
    load_program(loader, parent, &known)
        .or_else(|_| load_program(loader, parent, &[]))
        .ok()
        .map(Ruleset::into_program)
}

/// A seat's player by name: a built-in bot, or `script:FILE.rhai` (a regular `.rhai` file
/// of at most [`SCRIPT_FILE_BYTES`]).
/// The ruleset a file from elsewhere (a shard) names, compiled with its options, when it is a
/// shipped ruleset or a `.rules` file in the current folder's tree (never a path elsewhere,
/// which a stranger's file could name). `None` when it is neither, or does not check.
pub fn ruleset_here(name: &str, sets: &[(String, String)]) -> Option<crate::play::Ruleset> {
    let bare = !name.contains(['/', '\\']);
    let shipped = bare && crate::compile::shipped(name).is_some();
    let path = std::path::Path::new(name);
    let here = name.ends_with(".rules")
        && !path.has_root()
        && !name.contains(':')
        && crate::compile::Disk.inside("", name);
    if !(shipped || here) {
        return None;
    }
    load_program(&crate::compile::Shipped, name, sets).ok()
}

pub fn player(name: &str) -> Result<Player, String> {
    let Some(path) = name.strip_prefix("script:") else {
        return Player::builtin(name);
    };
    if !path.ends_with(".rhai") {
        return Err(format!(
            "the bot script `{path}` is not a `.rhai` file: write `script:FILE.rhai`"
        ));
    }
    let bytes = read_capped(Path::new(path), SCRIPT_FILE_BYTES)
        .map_err(|e| format!("cannot read the bot script `{path}`: {e}"))?;
    // A byte-order mark some editors write is not part of the code.
    let bytes = match bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        Some(rest) => rest.to_vec(),
        None => bytes,
    };
    let code = String::from_utf8(bytes)
        .map_err(|_| format!("the bot script `{path}` is not UTF-8 text"))?;
    ScriptBot::compile(path, &code).map(|b| Player::Script(Arc::new(b)))
}
