//! The checker's diagnostics as LSP diagnostics: the same code (`unknown-rank`), the message
//! with its hint, related places as related information, and a parent's errors on the child's
//! `extends` line.

use std::collections::BTreeMap;
use std::str::FromStr;

use lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Range,
    Uri,
};

use super::documents::{Document, LineIndex, file_uri};
use crate::base::diag::{Diag, Level};
use crate::base::{Code, Source, Span};

/// The published diagnostics of a document, each with the quick fix of its own file.
pub type Published = Vec<(Diagnostic, Option<(Range, String)>)>;

/// Every diagnostic of the document's last check, as the editor shows them, and what the
/// scenarios run from the editor since then found (each run in place of what the check
/// found of that scenario).
pub fn to_lsp(docs: &BTreeMap<String, Document>, doc: &Document) -> Published {
    let Some(checked) = &doc.checked else {
        return Vec::new();
    };
    let ran: Vec<Span> = doc
        .runs
        .iter()
        .filter_map(|(name, _)| scenario_span(doc, name))
        .collect();
    let superseded = |d: &Diag| {
        matches!(d.code, Code::ScenarioFailed | Code::ScenarioPosition)
            && d.source.as_ref().is_none_or(|s| s.name == doc.path)
            && ran
                .iter()
                .any(|s| s.start <= d.span.start && d.span.end <= s.end)
    };
    let mut out: Published = checked
        .diags
        .iter()
        .filter(|d| !superseded(d))
        .map(|d| one(docs, doc, d))
        .collect();
    for (name, failure) in &doc.runs {
        match failure {
            Some(d) => out.push(one(docs, doc, d)),
            None => out.extend(passed(doc, name).map(|d| (d, None))),
        }
    }
    out
}

fn scenario_span(doc: &Document, name: &str) -> Option<Span> {
    doc.file()?
        .scenarios
        .iter()
        .find(|s| s.name.node == name)
        .map(|s| s.span)
}

/// A scenario run from the editor that passed: an information at its name.
fn passed(doc: &Document, name: &str) -> Option<Diagnostic> {
    let sc = doc.file()?.scenarios.iter().find(|s| s.name.node == name)?;
    Some(Diagnostic {
        range: doc.range(sc.name.span),
        severity: Some(DiagnosticSeverity::INFORMATION),
        source: Some("ninety".to_string()),
        message: format!("scenario \"{name}\" passes"),
        ..Diagnostic::default()
    })
}

/// The rewrite that removes a diagnostic's whole line, break included.
fn whole_line(doc: &Document, at: Span) -> (Range, String) {
    let line = doc.lines.line_of(at.start);
    let start = doc.lines.line_span(&doc.text, line).start;
    let next = doc.lines.line_span(&doc.text, line + 1).start;
    let end = if next > start { next } else { doc.text.len() };
    (doc.range(Span::new(start, end)), String::new())
}

fn one(
    docs: &BTreeMap<String, Document>,
    doc: &Document,
    d: &Diag,
) -> (Diagnostic, Option<(Range, String)>) {
    let own = d.source.as_ref().is_none_or(|s| s.name == doc.path);
    let mut message = d.message.clone();
    if let Some(hint) = &d.hint {
        message.push_str("\nhelp: ");
        message.push_str(hint);
    }
    let mut related = Vec::new();
    let (range, fix) = if own {
        let span = if d.snippet { d.span } else { Span::default() };
        let fix = d
            .fix
            .as_ref()
            .map(|f| (doc.range(f.span), f.replacement.clone()));
        // "Remove it": a variant's line that says what its parent says goes whole.
        let fix = fix.or_else(|| (d.code == Code::SameAsParent).then(|| whole_line(doc, d.span)));
        (doc.range(span), fix)
    } else {
        // A parent's problem: said on the line that brings the parent in, and shown where it is.
        let source = d.source.as_ref().map(|s| s.name.as_str()).unwrap_or("");
        let file = source.rsplit(['/', '\\']).next().unwrap_or(source);
        message = format!("in the parent `{file}`: {message}");
        if let Some(location) = d.source.as_ref().and_then(|s| locate(docs, s, d.span)) {
            related.push(DiagnosticRelatedInformation {
                location,
                message: d.label.clone(),
            });
        }
        let at = doc.extends_span().unwrap_or_default();
        (doc.range(at), None)
    };
    for (span, label) in &d.related {
        let location = match &d.source {
            Some(s) if !own => locate(docs, s, *span),
            _ => Some(Location::new(doc.uri.clone(), doc.range(*span))),
        };
        if let Some(location) = location {
            related.push(DiagnosticRelatedInformation {
                location,
                message: label.clone(),
            });
        }
    }
    let data = fix
        .as_ref()
        .map(|(range, text)| serde_json::json!({ "fix": { "range": range, "newText": text } }));
    let diagnostic = Diagnostic {
        range,
        severity: Some(match d.level {
            Level::Error => DiagnosticSeverity::ERROR,
            Level::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(d.code.name().to_string())),
        source: Some("ninety".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        data,
        ..Diagnostic::default()
    };
    (diagnostic, fix)
}

/// A span of another file as a location.
fn locate(docs: &BTreeMap<String, Document>, source: &Source, span: Span) -> Option<Location> {
    let uri = file_uri(docs, &source.name).or_else(|| Uri::from_str(&source.name).ok())?;
    let lines = LineIndex::new(&source.text);
    let range = Range::new(
        lines.position(&source.text, span.start),
        lines.position(&source.text, span.end),
    );
    Some(Location::new(uri, range))
}
