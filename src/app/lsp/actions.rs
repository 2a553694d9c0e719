//! Quick fixes: every published diagnostic that carries a rewrite (`Diag::fix`: a "did you
//! mean", `1-5` → `1 to 5`, straight quotes, …) offers it as a code action.

use std::collections::HashMap;

use lsp_types::{CodeAction, CodeActionKind, CodeActionOrCommand, Range, TextEdit, WorkspaceEdit};

use super::documents::Document;

/// The quick fixes of the diagnostics that touch a range.
pub fn code_actions(doc: &Document, range: Range) -> Vec<CodeActionOrCommand> {
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
