//! "Run this scenario": a code lens on each scenario's heading (and the same as a code action,
//! for editors without lenses) whose command, `ninety.runScenario`, runs that one scenario on
//! the text as the editor holds it. The result is said in place: the lens's title (`✓ passed`
//! or `✗ failed`), a diagnostic at the scenario (the failure, or an information that it
//! passed) until the next change, and a message.

use lsp_types::{CodeLens, Command, Range};
use serde_json::{Value, json};

use super::documents::Document;
use crate::app::scenario;
use crate::base::diag::Diag;
use crate::compile;
use crate::lang::ast::Scenario;
use crate::play::Ruleset;

/// The command's name, as `executeCommand` knows it.
pub const RUN: &str = "ninety.runScenario";

/// A lens on each scenario's heading.
pub fn lenses(doc: &Document) -> Vec<CodeLens> {
    let Some(file) = doc.file() else {
        return Vec::new();
    };
    file.scenarios
        .iter()
        .map(|sc| {
            let at = doc.range(sc.name.span);
            CodeLens {
                range: Range::new(at.start, at.start),
                command: Some(command(doc, sc)),
                data: None,
            }
        })
        .collect()
}

/// The command that runs a scenario, titled by its last run.
pub fn command(doc: &Document, sc: &Scenario) -> Command {
    let title = match doc.runs.iter().find(|(n, _)| *n == sc.name.node) {
        None => "▶ Run this scenario".to_string(),
        Some((_, None)) => "✓ passed · run again".to_string(),
        Some((_, Some(_))) => "✗ failed · run again".to_string(),
    };
    Command {
        title,
        command: RUN.to_string(),
        arguments: Some(vec![json!(doc.uri.as_str()), json!(sc.name.node)]),
    }
}

/// The scenario whose lines hold a byte offset.
pub fn scenario_at(doc: &Document, at: usize) -> Option<&Scenario> {
    doc.file()?
        .scenarios
        .iter()
        .find(|sc| sc.span.start <= at && at <= sc.span.end)
}

/// The command's arguments: the document's URI and the scenario's name.
pub fn arguments(args: &[Value]) -> Option<(&str, &str)> {
    match args {
        [Value::String(uri), Value::String(name), ..] => Some((uri, name)),
        _ => None,
    }
}

/// Runs one scenario of a document: `Ok(None)` when it passes, `Ok(Some(failure))` when it
/// fails, `Err` when it cannot run (the ruleset does not check, or has no such scenario).
pub fn run(doc: &Document, name: &str) -> Result<Option<Diag>, String> {
    let checked = doc.checked.as_ref().ok_or("the file is not checked yet")?;
    let program = checked.program.as_ref().ok_or(
        "the ruleset does not check: mend its errors, then run the scenario again".to_string(),
    )?;
    let own = checked
        .layers
        .last()
        .filter(|l| l.path == doc.path)
        .ok_or("the file could not be read")?;
    let Some(sc) = own.file.scenarios.iter().find(|s| s.name.node == name) else {
        return Err(format!("the file has no scenario \"{name}\""));
    };
    let mut one = own.clone();
    one.file.scenarios = vec![sc.clone()];
    let layers = &checked.layers;
    let recompile = |sets: &[(String, String)]| {
        let mut again = compile::recompile(layers, sets);
        if let Some(q) = &mut again.program
            && q.scripts == program.scripts
        {
            q.scripts.clone_from(&program.scripts);
        }
        again.program.map(Ruleset::new).ok_or_else(|| {
            let errors: Vec<String> = again
                .diags
                .iter()
                .filter(|d| d.is_error())
                .map(|d| d.message.clone())
                .collect();
            errors.join("; ")
        })
    };
    let program = Ruleset::new(program.clone());
    let diags = scenario::run_all(&program, &one, &recompile);
    Ok(diags.into_iter().find(Diag::is_error))
}
