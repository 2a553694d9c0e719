//! Completion: what the grammar allows next at the cursor (`lang::expected_at`, the parser's
//! own "expected …"), card ranks where a rank goes, the declared options inside `{…}` and where
//! a number goes, and the rulesets a file may extend after `extends "`.

use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionTextEdit, Position, Range, TextEdit,
};

use super::documents::{Document, Workspace};
use crate::base::Code;
use crate::base::cards::{RANK_NAMES, RANK_WORDS, parse_rank};
use crate::compile::{Loader, SHIPPED};
use crate::lang::{self, ast};
use crate::present;

/// The completions at a position.
pub fn complete(ws: &Workspace<'_>, doc: &Document, pos: Position) -> Vec<CompletionItem> {
    let (at, line) = doc.offset(pos);
    let start = doc.lines.line_span(&doc.text, line - 1).start;
    let before = &doc.text[start..at];
    // The word being typed, replaced by the item chosen.
    let word_start = before
        .trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        .len();
    let typed = Range::new(doc.lines.position(&doc.text, start + word_start), pos);
    if let Some(open) = before.rfind('{').filter(|i| !before[*i..].contains('}')) {
        let range = Range::new(doc.lines.position(&doc.text, start + open + 1), pos);
        let closed = doc.text[at..].starts_with('}');
        return options(doc)
            .into_iter()
            .map(|(name, detail)| {
                let text = if closed {
                    name.clone()
                } else {
                    format!("{name}}}")
                };
                item(&name, CompletionItemKind::VARIABLE, detail, range, text)
            })
            .collect();
    }
    if let Some(quote) = extends_quote(before) {
        let range = Range::new(doc.lines.position(&doc.text, start + quote + 1), pos);
        return parents(ws, doc)
            .into_iter()
            .map(|n| item(&n, CompletionItemKind::FILE, None, range, n.clone()))
            .collect();
    }
    let (_, above) = lang::parse(&doc.text[..start]);
    if above.iter().any(|d| d.code == Code::UnclosedScript) {
        return Vec::new();
    }
    let in_scenario = above.iter().any(|d| d.code == Code::UnclosedScenario);
    let mut items = Vec::new();
    for expected in lang::expected_at(before, in_scenario) {
        if let Some(k) = expected.strip_prefix('`').and_then(|w| w.strip_suffix('`')) {
            if k.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) {
                items.push(item(
                    k,
                    CompletionItemKind::KEYWORD,
                    None,
                    typed,
                    k.to_string(),
                ));
            }
        } else if expected == "a number" {
            for (name, detail) in options(doc) {
                let label = format!("{{{name}}}");
                items.push(item(
                    &label,
                    CompletionItemKind::VARIABLE,
                    detail,
                    typed,
                    label.clone(),
                ));
            }
        } else if expected == "a card rank" {
            items.extend(ranks(doc, typed));
        }
    }
    items.dedup_by(|a, b| a.label == b.label);
    items
}

fn item(
    label: &str,
    kind: CompletionItemKind,
    detail: Option<String>,
    range: Range,
    text: String,
) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail,
        text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(range, text))),
        ..CompletionItem::default()
    }
}

/// `extends "nin`: where the name starts.
fn extends_quote(before: &str) -> Option<usize> {
    let trimmed = before.trim_start();
    let rest = trimmed
        .get(..7)
        .filter(|w| w.eq_ignore_ascii_case("extends"))
        .map(|_| &trimmed[7..])?;
    let quote = rest.trim_start().strip_prefix('"')?;
    (!quote.contains('"')).then(|| before.len() - quote.len() - 1)
}

/// The options a `{…}` may name: the compiled program's, or those declared in the files.
fn options(doc: &Document) -> Vec<(String, Option<String>)> {
    if let Some(p) = doc.program() {
        return p
            .options
            .iter()
            .map(|o| {
                let detail = format!("= {} ({}; default {})", o.value, o.allowed, o.default);
                (o.name.clone(), Some(detail))
            })
            .collect();
    }
    let mut names: Vec<(String, Option<String>)> = Vec::new();
    for layer in doc.checked.iter().flat_map(|c| &c.layers) {
        for st in &layer.file.statements {
            if let ast::StatementKind::Option { name, .. } = &st.kind
                && !names.iter().any(|(n, _)| *n == name.node)
            {
                names.push((name.node.clone(), None));
            }
        }
    }
    names
}

/// The rulesets a file may extend: those in its folder and the shipped ones.
fn parents(ws: &Workspace<'_>, doc: &Document) -> Vec<String> {
    let own = std::path::Path::new(&doc.path)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned());
    let mut names = ws.siblings(&doc.path);
    names.extend(SHIPPED.iter().map(|(n, _)| n.to_string()));
    names.sort();
    names.dedup();
    names.retain(|n| Some(n) != own.as_ref());
    names
}

/// The card ranks, each with what it does under this ruleset.
fn ranks(doc: &Document, range: Range) -> Vec<CompletionItem> {
    let p = doc.program();
    RANK_NAMES
        .iter()
        .map(|name| {
            let detail = p.and_then(|p| {
                let rank = parse_rank(name)?;
                let fx = p.effect_for(usize::from(p.max_players), rank)?;
                Some(format!(
                    "{}: {}",
                    RANK_WORDS[usize::from(rank)],
                    present::effect_words(p, fx)
                ))
            });
            item(
                name,
                CompletionItemKind::CONSTANT,
                detail,
                range,
                name.to_string(),
            )
        })
        .collect()
}
