//! Document symbols, the editor's outline: the file's options, cards, bars, triggers,
//! scenarios and script blocks, each group a symbol holding its members in file order, each
//! member with its range (the statement, or the scenario from its heading to its `end`) and
//! the range of its name. Names are the file's own words: a card line's is what comes before
//! its `:` (`card 2 to 8`), its detail what follows.

use lsp_types::{DocumentSymbol, Range, SymbolKind};

use super::documents::Document;
use crate::base::Span;
use crate::lang::ast::{Removal, StatementKind};

/// The groups of the outline, in this order.
const GROUPS: [(&str, SymbolKind); 6] = [
    ("Options", SymbolKind::NAMESPACE),
    ("Cards", SymbolKind::NAMESPACE),
    ("Bars", SymbolKind::NAMESPACE),
    ("Triggers", SymbolKind::NAMESPACE),
    ("Scenarios", SymbolKind::NAMESPACE),
    ("Scripts", SymbolKind::NAMESPACE),
];

/// The outline of a document (nothing before its first check).
pub fn symbols(doc: &Document) -> Vec<DocumentSymbol> {
    let Some(file) = doc.file() else {
        return Vec::new();
    };
    let text = doc.text.as_str();
    let mut groups: [Vec<DocumentSymbol>; 6] = Default::default();
    for st in &file.statements {
        let Some(code) = text.get(st.span.start..st.span.end) else {
            continue;
        };
        let code = crate::base::span::strip_comment(code).trim_end();
        let (group, kind) = match &st.kind {
            StatementKind::Option { name, .. } => {
                let detail = code
                    .get(name.span.end.saturating_sub(st.span.start)..)
                    .map(|d| d.trim().to_string());
                groups[0].push(symbol(
                    doc,
                    name.node.clone(),
                    detail,
                    SymbolKind::VARIABLE,
                    st.span,
                    name.span,
                ));
                continue;
            }
            StatementKind::Remove(Removal::Option(_)) => (0, SymbolKind::VARIABLE),
            StatementKind::Card { .. } | StatementKind::Remove(Removal::Card { .. }) => {
                (1, SymbolKind::ENUM_MEMBER)
            }
            StatementKind::Bar { .. }
            | StatementKind::ScriptBar { .. }
            | StatementKind::Remove(Removal::Bars(_) | Removal::Bar { .. }) => {
                (2, SymbolKind::EVENT)
            }
            StatementKind::When { .. } | StatementKind::Remove(Removal::When(_)) => {
                (3, SymbolKind::EVENT)
            }
            StatementKind::ScriptFile(_) => (5, SymbolKind::FUNCTION),
            _ => continue,
        };
        let (head, detail) = split_head(code);
        let head_span = Span::new(st.span.start, st.span.start + head.len());
        groups[group].push(symbol(
            doc,
            head.to_string(),
            detail,
            kind,
            st.span,
            head_span,
        ));
    }
    for sc in &file.scenarios {
        groups[4].push(symbol(
            doc,
            sc.name.node.clone(),
            Some(format!("{} steps", sc.steps.len())),
            SymbolKind::FUNCTION,
            sc.span,
            sc.name.span,
        ));
    }
    for script in file.scripts.iter().filter(|s| s.path.is_none()) {
        let head = Span::new(script.span.start, script.span.start);
        groups[5].push(symbol(
            doc,
            "script".to_string(),
            Some("rhai".into()),
            SymbolKind::FUNCTION,
            script.span,
            head,
        ));
    }
    let mut out = Vec::new();
    for (members, (name, kind)) in groups.into_iter().zip(GROUPS) {
        let (Some(first), Some(last)) = (members.first(), members.last()) else {
            continue;
        };
        let range = Range::new(first.range.start, last.range.end);
        let selection = first.selection_range;
        out.push(group(name, kind, range, selection, members));
    }
    out
}

/// A line's head and detail: before and after its first `:` outside quotes.
fn split_head(code: &str) -> (&str, Option<String>) {
    let mut quoted = false;
    for (i, c) in code.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ':' if !quoted => {
                return (code[..i].trim_end(), Some(code[i + 1..].trim().to_string()));
            }
            _ => {}
        }
    }
    (code.trim_end(), None)
}

#[allow(deprecated)]
fn symbol(
    doc: &Document,
    name: String,
    detail: Option<String>,
    kind: SymbolKind,
    span: Span,
    name_span: Span,
) -> DocumentSymbol {
    let range = doc.range(span);
    let mut selection = doc.range(name_span);
    if selection.start < range.start || selection.end > range.end {
        selection = Range::new(range.start, range.start);
    }
    DocumentSymbol {
        // An empty name is refused by some editors (VS Code).
        name: if name.trim().is_empty() {
            "(unnamed)".into()
        } else {
            name
        },
        detail: detail.filter(|d| !d.is_empty()),
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range: selection,
        children: None,
    }
}

#[allow(deprecated)]
fn group(
    name: &str,
    kind: SymbolKind,
    range: Range,
    selection: Range,
    members: Vec<DocumentSymbol>,
) -> DocumentSymbol {
    DocumentSymbol {
        name: name.to_string(),
        detail: Some(members.len().to_string()),
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range: selection,
        children: Some(members),
    }
}
