//! Quick fixes: every published diagnostic that carries a rewrite (`Diag::fix`: a "did you
//! mean", `1-5` → `1 to 5`, straight quotes, …, and "remove this line" for a variant's line
//! that says what its parent says) offers it as a code action. On a scenario's lines, "Run
//! scenario" too (the code lens's command, for editors that show no lenses).

use std::collections::HashMap;

use lsp_types::{CodeAction, CodeActionKind, CodeActionOrCommand, Range, TextEdit, WorkspaceEdit};

use super::documents::Document;

/// The quick fixes of the diagnostics that touch a range, and running the scenario there.
pub fn code_actions(doc: &Document, range: Range) -> Vec<CodeActionOrCommand> {
    let mut out = fixes(doc, range);
    let (at, _) = doc.offset(range.start);
    if let Some(sc) = super::lens::scenario_at(doc, at) {
        let mut command = super::lens::command(doc, sc);
        command.title = format!("Run scenario \"{}\"", sc.name.node);
        out.push(CodeActionOrCommand::CodeAction(CodeAction {
            title: command.title.clone(),
            command: Some(command),
            ..CodeAction::default()
        }));
    }
    out
}

fn fixes(doc: &Document, range: Range) -> Vec<CodeActionOrCommand> {
    doc.published
        .iter()
        .filter(|(d, _)| touches(d.range, range))
        .filter_map(|(d, fix)| {
            let (at, text) = fix.as_ref()?;
            let edit = TextEdit::new(*at, text.clone());
            let start = doc.lines.offset(&doc.text, at.start);
            let end = doc.lines.offset(&doc.text, at.end).max(start);
            let old = &doc.text[start..end];
            let title = match (old.is_empty(), text.is_empty()) {
                (false, true) if old.ends_with('\n') => "Remove this line".to_string(),
                (true, _) => format!("Insert `{text}`"),
                (false, true) => format!("Remove `{}`", old.trim_end()),
                (false, false) => format!("Replace `{old}` with `{text}`"),
            };
            Some(CodeActionOrCommand::CodeAction(CodeAction {
                title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![d.clone()]),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(doc.uri.clone(), vec![edit])])),
                    ..WorkspaceEdit::default()
                }),
                is_preferred: Some(true),
                ..CodeAction::default()
            }))
        })
        .collect()
}

/// Whether two ranges meet (an empty range at a diagnostic's edge counts).
fn touches(a: Range, b: Range) -> bool {
    a.start <= b.end && b.start <= a.end
}
