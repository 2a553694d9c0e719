//! Renaming an option across its file: from `{chips}`, from `option chips = …`, from `no
//! option chips` or from a scenario's `set chips = 5`, every one of those places is renamed
//! (quoted text, comments and rhai code are not). Only an option the file itself declares,
//! and no parent declares too, can be renamed: one of a parent is renamed in the parent
//! (a variant that declares it again gives the parent's option a new default, and the
//! parent's lines use it by that name). A new name the checker would then complain about (a
//! keyword, a line grown past the limit) is refused, with what the checker would say.

use std::collections::{BTreeMap, HashMap};

use lsp_types::{Position, PrepareRenameResponse, TextEdit, WorkspaceEdit};

use super::documents::{Document, Workspace};
use super::layout::{self, Role};
use super::lexer::{self, Kind, is_name};
use super::tokens::set_name;
use crate::base::Span;
use crate::compile::{self, Loader};
use crate::lang::ast::{File, Removal, ScenarioStep, StatementKind};

/// The option at a position and the range of its name, ready to be renamed; or why not.
pub fn prepare(doc: &Document, pos: Position) -> Result<Option<PrepareRenameResponse>, String> {
    let Some((name, span)) = name_at(doc, pos) else {
        return Ok(None);
    };
    declared_here(doc, &name)?;
    Ok(Some(PrepareRenameResponse::RangeWithPlaceholder {
        range: doc.range(span),
        placeholder: name,
    }))
}

/// The edits that rename the option at a position to `new`; `docs` are the open documents,
/// which the file's parents may be.
pub fn rename(
    docs: &BTreeMap<String, Document>,
    doc: &Document,
    pos: Position,
    new: &str,
) -> Result<Option<WorkspaceEdit>, String> {
    let Some((name, _)) = name_at(doc, pos) else {
        return Ok(None);
    };
    declared_here(doc, &name)?;
    let new = new.trim();
    if !is_name(new) {
        return Err(format!(
            "`{new}` cannot name an option: a name is a letter, then letters, digits, `_` or `-`"
        ));
    }
    if new != name && declared(doc, new) {
        return Err(format!("an option `{new}` is already declared"));
    }
    let spans = places(doc, &name);
    if new != name {
        no_new_complaint(docs, doc, &spans, new)?;
    }
    let edits: Vec<TextEdit> = spans
        .into_iter()
        .map(|s| TextEdit::new(doc.range(s), new.to_string()))
        .collect();
    Ok(Some(WorkspaceEdit {
        changes: Some(HashMap::from([(doc.uri.clone(), edits)])),
        ..WorkspaceEdit::default()
    }))
}

/// The option named at a position: in `{…}`, or a name the tree holds.
fn name_at(doc: &Document, pos: Position) -> Option<(String, Span)> {
    let (at, line) = doc.offset(pos);
    let around = |s: Span| s.start <= at && at <= s.end;
    let span = doc.lines.line_span(&doc.text, line - 1);
    let text = doc.text.get(span.start..span.end)?;
    let from_ref = lexer::pieces(text, span.start)
        .into_iter()
        .find(|p| p.kind == Kind::OptionRef && around(p.span))
        .map(|p| Span::new(p.span.start + 1, p.span.end - 1));
    let span = from_ref.or_else(|| {
        doc.file()
            .map(|f| named(f, &doc.text))
            .and_then(|all| all.into_iter().find(|s| around(*s)))
    })?;
    Some((doc.text.get(span.start..span.end)?.to_string(), span))
}

/// The names of options the tree holds: declarations, removals, scenario `set` steps.
fn named(file: &File, text: &str) -> Vec<Span> {
    let mut out = Vec::new();
    for st in &file.statements {
        match &st.kind {
            StatementKind::Option { name, .. } | StatementKind::Remove(Removal::Option(name)) => {
                out.push(name.span);
            }
            _ => {}
        }
    }
    for step in file.scenarios.iter().flat_map(|s| &s.steps) {
        if let ScenarioStep::Set(name, _) = &step.node {
            out.extend(set_name(text, step.span, name));
        }
    }
    out
}

/// Every place the file names an option: its name in `{…}` outside rhai code, quotes and
/// comments, and the names the tree holds.
fn places(doc: &Document, name: &str) -> Vec<Span> {
    let Some(file) = doc.file() else {
        return Vec::new();
    };
    let text = doc.text.as_str();
    let mut out: Vec<Span> = named(file, text)
        .into_iter()
        .filter(|s| text.get(s.start..s.end) == Some(name))
        .collect();
    for (i, role) in layout::roles(file, text, &doc.lines).iter().enumerate() {
        if *role == Role::Script {
            continue;
        }
        let span = doc.lines.line_span(text, i);
        let Some(line) = text.get(span.start..span.end) else {
            continue;
        };
        out.extend(
            lexer::pieces(line, span.start)
                .into_iter()
                .filter(|p| p.kind == Kind::OptionRef)
                .map(|p| Span::new(p.span.start + 1, p.span.end - 1))
                .filter(|s| text.get(s.start..s.end) == Some(name)),
        );
    }
    out.sort_by_key(|s| s.start);
    out.dedup();
    out
}

/// Whether the file declares the option and no parent does; if not, why it cannot be
/// renamed here.
fn declared_here(doc: &Document, name: &str) -> Result<(), String> {
    let Some(checked) = &doc.checked else {
        return Err("the file is not checked yet".into());
    };
    let here = doc.file().is_some_and(|f| declares(f, name));
    let parent = checked
        .layers
        .iter()
        .rev()
        .skip(1)
        .find(|l| declares(&l.file, name));
    let file_name = |path: &str| path.rsplit(['/', '\\']).next().unwrap_or(path).to_string();
    match (here, parent) {
        (true, None) => Ok(()),
        (true, Some(l)) => Err(format!(
            "the option `{name}` is declared in `{0}` too: this file gives `{0}`'s option a new \
             default, and `{0}`'s lines use it by this name; rename it in `{0}` first",
            file_name(&l.path)
        )),
        (false, Some(l)) => Err(format!(
            "the option `{name}` is declared in `{}`: rename it there",
            file_name(&l.path)
        )),
        (false, None) => Err(format!(
            "no option `{name}` is declared: there is nothing to rename"
        )),
    }
}

/// The file's text with the option's places renamed to `new`, checked: refused, with what
/// the checker would say, when it says something it does not say now (`card` is also a
/// keyword; a line longer than a line may be).
fn no_new_complaint(
    docs: &BTreeMap<String, Document>,
    doc: &Document,
    spans: &[Span],
    new: &str,
) -> Result<(), String> {
    let mut text = doc.text.clone();
    for s in spans.iter().rev() {
        text.replace_range(s.start..s.end, new);
    }
    let loader = Renamed {
        docs: Workspace { docs },
        path: &doc.path,
        text: &text,
    };
    let Ok(after) = compile::check(&loader, &doc.path, &[]) else {
        return Ok(());
    };
    let before = doc.checked.as_ref().map_or(&[][..], |c| &c.diags[..]);
    let count = |list: &[crate::base::diag::Diag], d: &crate::base::diag::Diag| {
        list.iter()
            .filter(|x| x.code == d.code && x.level == d.level)
            .count()
    };
    match after
        .diags
        .iter()
        .find(|d| count(&after.diags, d) > count(before, d))
    {
        Some(d) => Err(format!(
            "renamed to `{}`, the file would not read as well: {}",
            crate::base::text::clip(new, 40),
            d.message
        )),
        None => Ok(()),
    }
}

/// The open documents, the renamed file's text in place of its own.
struct Renamed<'a> {
    docs: Workspace<'a>,
    path: &'a str,
    text: &'a str,
}

impl Loader for Renamed<'_> {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        if path == self.path {
            return Ok(self.text.as_bytes().to_vec());
        }
        self.docs.read(path)
    }

    fn exists(&self, path: &str) -> bool {
        path == self.path || self.docs.exists(path)
    }

    fn siblings(&self, path: &str) -> Vec<String> {
        self.docs.siblings(path)
    }

    fn canonical(&self, path: &str) -> String {
        self.docs.canonical(path)
    }

    fn inside(&self, root: &str, path: &str) -> bool {
        self.docs.inside(root, path)
    }
}

/// Whether an option of that name is declared in the file or a parent.
fn declared(doc: &Document, name: &str) -> bool {
    doc.checked
        .iter()
        .flat_map(|c| &c.layers)
        .any(|l| declares(&l.file, name))
}

fn declares(file: &File, name: &str) -> bool {
    file.statements
        .iter()
        .any(|s| matches!(&s.kind, StatementKind::Option { name: n, .. } if n.node == name))
}
