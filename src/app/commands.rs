//! The commands behind the binary, as functions that write to any output and return an exit
//! code, so tests can call them directly: `check`, `list` and `rules` here, `run` and `sim` in
//! their own modules.

use crate::play::Ruleset;
use std::io::Write;

use super::load::{NotLoaded, base_program, check_one, expand, load_checked};
use crate::base::diag::{Diag, Source};
use crate::base::text::{escape, escape_lines};
use crate::base::{Code, Span};
use crate::compile::{self, Checked, Loader};
use crate::ir::Program;
use crate::present;

/// Exit codes.
pub const OK: i32 = 0;
pub const FAILED: i32 = 1;
pub const USAGE: i32 = 2;

/// A ruleset loaded for a command, or its exit code and why not: [`USAGE`] when it cannot
/// be read (the same in every command: a path that names no readable file is a slip on the
/// command line), [`FAILED`] when it does not check.
/// Says why a command failed on `err`, as `error: ...` (escaped for a terminal), and gives
/// its exit code.
pub(super) fn fail(err: &mut dyn Write, (code, why): (i32, String)) -> i32 {
    let _ = writeln!(err, "error: {}", crate::base::text::escape_lines(&why));
    code
}

/// Whether the files given hold each slice of a run of `n` once (`(file, k)` for each file),
/// or why not, in the merge's own word for a slice (`slice`, `shard`).
pub(super) fn every_slice(word: &str, n: u64, given: &[(&str, u64)]) -> Result<(), String> {
    let mut seen: std::collections::BTreeMap<u64, &str> = std::collections::BTreeMap::new();
    for &(file, k) in given {
        if !(1..=n).contains(&k) {
            return Err(format!(
                "`{file}` names {word} {k} of {n}, which no run has"
            ));
        }
        if let Some(other) = seen.insert(k, file) {
            return Err(format!("`{file}` and `{other}` are both {word} {k} of {n}"));
        }
    }
    match (1..=n).find(|k| !seen.contains_key(k)) {
        Some(k) => Err(format!(
            "{word} {k} of {n} is missing: give every {word}'s file"
        )),
        None => Ok(()),
    }
}

pub fn load_for_command(
    loader: &dyn Loader,
    path: &str,
    sets: &[(String, String)],
) -> Result<Ruleset, (i32, String)> {
    load_checked(loader, path, sets).map_err(|e| match e {
        NotLoaded::Unreadable(why) | NotLoaded::BadSet(why) => (USAGE, why),
        NotLoaded::DoesNotCheck(why) => (FAILED, why),
    })
}

/// A ruleset to be measured over many games (`sim`, `judge`, `tune`): as
/// [`load_for_command`], and refused, in `check`'s words, when its games do not end (each
/// would play to the turn limit, game after game, in silence). `run` and `play` still play
/// it, to see why.
pub fn load_to_measure(
    loader: &dyn Loader,
    path: &str,
    sets: &[(String, String)],
) -> Result<Ruleset, (i32, String)> {
    let p = load_for_command(loader, path, sets)?;
    if super::dryrun::first_games_end(&p) {
        return Ok(p);
    }
    let checked = crate::compile::check(loader, path, sets).map_err(|e| (USAGE, e.to_string()))?;
    let Some(own) = checked.layers.last() else {
        return Ok(p);
    };
    let errors: Vec<String> = super::dryrun::dry_run(&p, own)
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.render_plain(100))
        .collect();
    if errors.is_empty() {
        return Ok(p);
    }
    Err((
        FAILED,
        format!(
            "{path}: its games do not end, so there is nothing to measure:\n{}",
            errors.join("\n")
        ),
    ))
}

/// Options of `ninety check`.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    pub json: bool,
    pub deny_warnings: bool,
    pub sets: Vec<(String, String)>,
    pub color: bool,
}

/// `ninety check PATH...`
pub fn check_cmd(
    paths: &[String],
    opts: &CheckOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let files = match expand(paths) {
        Ok(f) => f,
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            return USAGE;
        }
    };
    let (mut errors, mut warnings, mut unreadable, mut scenarios) = (0, 0, 0, 0);
    let mut bad_sets = false;
    for file in &files {
        match check_one(&compile::Disk, file, &opts.sets) {
            Err(e) => {
                unreadable += 1;
                let why = super::load::unreadable(file, &e.to_string());
                let _ = writeln!(err, "error: {}", escape_lines(&why));
                if opts.json {
                    // A record for the file all the same: it was not checked, and why.
                    let d = Diag::error(Code::Unreadable, Span::default(), e.to_string())
                        .without_snippet()
                        .in_source(&Source::new(file.clone(), String::new()));
                    let _ = writeln!(out, "{}", d.to_json());
                }
            }
            Ok(checked) => {
                bad_sets |= checked.diags.iter().any(super::load::is_set_error);
                errors += checked.errors();
                warnings += checked.warnings();
                // Scenarios run when the ruleset compiles.
                if checked.program.is_some() {
                    scenarios += checked.layers.last().map_or(0, |l| l.file.scenarios.len());
                }
                for d in &checked.diags {
                    if opts.json {
                        let _ = writeln!(out, "{}", d.to_json());
                    } else {
                        let _ = writeln!(out, "{}", d.render(opts.color));
                    }
                }
                if opts.json && checked.diags.is_empty() {
                    // A file with nothing to say still says it was checked.
                    let record = serde_json::json!({
                        "file": file,
                        "checked": true,
                        "errors": 0,
                        "warnings": 0,
                    });
                    let _ = writeln!(out, "{record}");
                }
            }
        }
    }
    if !opts.json {
        let plural = |n: usize, w: &str| {
            let s = if n == 1 { "" } else { "s" };
            format!("{} {w}{s}", crate::base::limits::grouped(n as u64))
        };
        // A file that could not be read is said in the summary, which never reads as a
        // clean check when the command failed.
        let unread = if unreadable > 0 {
            format!(", {} could not be read", grouped_n(unreadable))
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "{} checked{unread}, {} run, {}, {}",
            plural(files.len() - unreadable, "ruleset"),
            plural(scenarios, "scenario"),
            plural(errors, "error"),
            plural(warnings, "warning")
        );
    }
    // A ruleset that cannot be read, or a `--set` it has no room for, is a slip on the
    // command line.
    if unreadable > 0 || bad_sets {
        USAGE
    } else if errors > 0 || (opts.deny_warnings && warnings > 0) {
        FAILED
    } else {
        OK
    }
}

/// `ninety list`: the shipped rulesets, a line each.
pub fn list_cmd(out: &mut dyn Write) -> i32 {
    for (name, _) in compile::SHIPPED {
        match compile::check(&compile::Shipped, name, &[]) {
            Ok(Checked {
                program: Some(p), ..
            }) => {
                let _ = writeln!(out, "{name:<29} {} — {}", escape(&p.name), escape(&p.about));
            }
            _ => {
                let _ = writeln!(out, "{name:<29} (does not check)");
            }
        }
    }
    OK
}

/// A program whose free text from its files (its name, its description, its scripts' doc
/// comments) reads as plain text in Markdown: no markup, no link, no HTML of a stranger's
/// reaches the page a Markdown viewer makes of the sheet.
fn markdown_safe(p: &Program) -> Program {
    let mut p = p.clone();
    p.name = markdown_text(&p.name);
    p.about = markdown_text(&p.about);
    for fx in &mut p.script_fx {
        fx.doc = markdown_text(&fx.doc);
    }
    p
}

/// Text as Markdown shows it literally: HTML's characters as entities, and the marks of
/// emphasis, code, links and tables behind a backslash.
fn markdown_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '~' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// How `ninety rules` writes a ruleset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SheetFormat {
    /// The rules sheet, plain text.
    Text,
    /// The rules sheet, Markdown.
    Markdown,
    /// The ruleset flattened into one standalone ruleset file.
    Rules,
}

/// `ninety rules RULESET`: the rules sheet, or the flattened ruleset.
pub fn rules_cmd(
    loader: &dyn Loader,
    path: &str,
    format: SheetFormat,
    sets: &[(String, String)],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    if format == SheetFormat::Rules {
        return match compile::flatten(loader, path, sets) {
            Ok(text) => {
                let _ = write!(out, "{}", escape_lines(&text));
                OK
            }
            Err(e) => {
                // A file that cannot be read, or a `--set` that does not fit it, is the usage
                // error it is for every command.
                let (code, why) = match compile::check(loader, path, sets) {
                    Err(_) => (USAGE, super::load::unreadable(path, &e)),
                    Ok(c) => match super::load::set_errors(&c.diags) {
                        Some(why) => (USAGE, why),
                        None => (FAILED, e),
                    },
                };
                let _ = writeln!(err, "error: {}", escape_lines(&why));
                code
            }
        };
    }
    match load_for_command(loader, path, sets) {
        Ok(p) => {
            let base = base_program(loader, &p, sets);
            let md = format == SheetFormat::Markdown;
            let sheet = if md {
                let base = base.as_ref().map(markdown_safe);
                present::rules_sheet(&markdown_safe(&p), base.as_ref(), true)
            } else {
                present::rules_sheet(&p, base.as_ref(), false)
            };
            let _ = write!(out, "{}", escape_lines(&sheet));
            OK
        }
        Err((code, e)) => {
            let _ = writeln!(err, "error: {}", escape_lines(&e));
            code
        }
    }
}

/// A number of files, grouped by thousands.
fn grouped_n(n: usize) -> String {
    crate::base::limits::grouped(n as u64)
}
