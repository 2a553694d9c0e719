//! Go to definition: from `extends "…"` to the parent ruleset (a shipped one opens as a
//! read-only copy), from `{option}` to the line that declares it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use lsp_types::{Location, Position, Range};

use super::documents::{Document, LineIndex, file_uri};
use crate::lang::ast::StatementKind;

/// Where the thing at a position is defined.
pub fn definition(
    docs: &BTreeMap<String, Document>,
    doc: &Document,
    pos: Position,
) -> Option<Location> {
    let (at, line) = doc.offset(pos);
    let file = doc.file()?;
    let source_line = doc.source_line(at);
    let statement = file.statements.iter().find(|s| s.line == source_line)?;
    if let StatementKind::Extends(name) = &statement.kind {
        let path = doc
            .checked
            .as_ref()
            .and_then(|c| c.layers.iter().rev().nth(1))
            .map_or_else(|| sibling(&doc.path, &name.node), |l| l.path.clone());
        let uri = file_uri(docs, &path)?;
        return Some(Location::new(uri, Range::default()));
    }
    let name = option_name(&doc.text, doc.lines.line_span(&doc.text, line - 1), at)?;
    declaration(docs, doc, &name)
}

/// The name in `{…}` around an offset of a line.
fn option_name(text: &str, line: crate::base::Span, at: usize) -> Option<String> {
    let before = &text[line.start..at.clamp(line.start, line.end)];
    let open = before.rfind('{')?;
    let after = &text[line.start + open + 1..line.end];
    let close = after.find('}')?;
    let name = &after[..close];
    let inside = line.start + open + 1 + close >= at;
    (inside && !name.is_empty() && !name.contains('{')).then(|| name.to_string())
}

/// The declaration of an option: in the file itself, or the nearest parent that declares it.
fn declaration(docs: &BTreeMap<String, Document>, doc: &Document, name: &str) -> Option<Location> {
    let checked = doc.checked.as_ref()?;
    checked.layers.iter().rev().find_map(|layer| {
        layer.file.statements.iter().find_map(|s| match &s.kind {
            StatementKind::Option { name: n, .. } if n.node == name => {
                let lines = LineIndex::new(&layer.source.text);
                let text = &layer.source.text;
                let range = Range::new(
                    lines.position(text, n.span.start),
                    lines.position(text, n.span.end),
                );
                Some(Location::new(file_uri(docs, &layer.path)?, range))
            }
            _ => None,
        })
    })
}

/// `NAME.rules` beside a file, when the chain did not load.
fn sibling(path: &str, name: &str) -> String {
    let mut file = PathBuf::from(name);
    if file.extension().is_none() {
        file.set_extension("rules");
    }
    match Path::new(path).parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.join(file).display().to_string(),
        _ => file.display().to_string(),
    }
}
