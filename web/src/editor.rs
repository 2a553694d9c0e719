//! The editor's side of the playground: one ruleset held as the language server holds an open
//! document, checked on every change by the same functions (`app::lsp`: the check with its
//! scenarios, the published diagnostics with their quick fixes, hover, completion, semantic
//! tokens), and its rules sheet. Positions are the protocol's: 0-based lines, UTF-16 columns,
//! which is how the page's editor counts too.

use std::collections::BTreeMap;
use std::str::FromStr;

use lsp_types::{CompletionTextEdit, DiagnosticSeverity, HoverContents, Position, Uri};
use ninety::app::load::base_program;
use ninety::app::lsp::documents::{self, Document, Workspace};
use ninety::app::lsp::{completion, diagnostics, hover, tokens};
use ninety::compile::{self, SHIPPED, Shipped};
use ninety::ir::{OptionInfo, Program};
use ninety::present;
use serde::Serialize;

/// The name the playground's ruleset goes by: not a file, so `extends` finds only the
/// shipped rulesets.
pub const URI: &str = "untitled:playground.rules";

/// A place in the text: 0-based line, UTF-16 column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct At {
    pub line: u32,
    pub character: u32,
}

impl From<Position> for At {
    fn from(p: Position) -> At {
        At {
            line: p.line,
            character: p.character,
        }
    }
}

/// One diagnostic as the page shows it under its line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub from: At,
    pub to: At,
    /// `error` or `warning`.
    pub severity: &'static str,
    /// The stable code (`unknown-rank`).
    pub code: String,
    /// The message, its `help:` hint on the next line.
    pub message: String,
    /// The quick fix: replace `from..to` with `text`.
    pub fix: Option<Fix>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fix {
    pub from: At,
    pub to: At,
    pub text: String,
}

/// What a check gives the page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Checked {
    pub diagnostics: Vec<Diagnostic>,
    /// The rules sheet, when the ruleset compiles.
    pub sheet: Option<String>,
    /// The ruleset's name, when it compiles.
    pub name: Option<String>,
    /// Colours: line, column, length (UTF-16), and the type's name (`keyword`, `number`...).
    pub tokens: Vec<(u32, u32, u32, &'static str)>,
    /// The ruleset's options, as the page's controls, when it compiles.
    pub options: Vec<Control>,
    /// The shipped ruleset it `extends`, when it compiles and extends one.
    pub parent: Option<String>,
}

/// An option of the ruleset as a control of the page: a number from `min` to `max`, one of
/// `choices`, or yes or no. Values are written as `--set` takes them (`5`, `yes`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Control {
    pub name: String,
    /// `number`, `choice` or `yesno`.
    pub kind: &'static str,
    /// Its value in the text (the default its declaration gives).
    pub value: String,
    /// The allowed values in words: `from 1 to 10`, `one of 199, 299`, `yes or no`.
    pub allowed: String,
    pub min: Option<i64>,
    pub max: Option<i64>,
    pub choices: Vec<String>,
}

impl Control {
    /// The control of an option, read from its allowed values in words (`from 1 to 10`,
    /// `one of 199, 299`, `yes or no`): a number field where a word is not understood.
    pub fn of(o: &OptionInfo) -> Control {
        let words = o.allowed.trim();
        let mut c = Control {
            name: o.name.clone(),
            kind: "number",
            value: o.value.to_string(),
            allowed: o.allowed.clone(),
            min: None,
            max: None,
            choices: Vec::new(),
        };
        if words == "yes or no" {
            c.kind = "yesno";
            c.value = if o.value == 0 { "no" } else { "yes" }.into();
        } else if let Some(list) = words.strip_prefix("one of ") {
            c.kind = "choice";
            c.choices = list.split(',').map(|w| w.trim().to_string()).collect();
            if let Some(v) = c.choices.iter().find(|w| yes_no(w) == Some(o.value)) {
                c.value = v.clone();
            }
        } else if let Some((lo, hi)) = words
            .strip_prefix("from ")
            .and_then(|r| r.split_once(" to "))
        {
            c.min = lo.trim().parse().ok();
            c.max = hi.trim().parse().ok();
        }
        c
    }
}

/// A value in words as the number the engine holds (`yes` is 1, `no` 0).
fn yes_no(word: &str) -> Option<i64> {
    match word {
        "yes" => Some(1),
        "no" => Some(0),
        w => w.parse().ok(),
    }
}

/// A hover: its Markdown and the range it is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hover {
    pub markdown: String,
    pub from: Option<At>,
    pub to: Option<At>,
}

/// A completion: what is shown, what replaces `from..to`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Completion {
    pub label: String,
    pub detail: Option<String>,
    pub from: At,
    pub to: At,
    pub text: String,
}

/// The ruleset being written, as the language server would hold it.
#[derive(Debug)]
pub struct Editor {
    docs: BTreeMap<String, Document>,
    /// The last text checked, whether in full, and what its check gave: the same text asked
    /// again (completion makes sure the engine holds the text typed) is answered at once.
    last: Option<(String, bool, Checked)>,
}

impl Default for Editor {
    fn default() -> Editor {
        Editor::new()
    }
}

impl Editor {
    pub fn new() -> Editor {
        Editor {
            docs: BTreeMap::new(),
            last: None,
        }
    }

    fn key() -> String {
        documents::identity(URI)
    }

    fn doc(&self) -> Option<&Document> {
        self.docs.get(&Editor::key())
    }

    /// Takes a new text and checks it as the language server does on each change (every
    /// diagnostic of the checker), or in `full` as on opening or saving a file (its scenarios
    /// run, and then its games played to see them end: `ninety check`'s dry run): its
    /// diagnostics, sheet and colours.
    pub fn check(&mut self, text: &str, full: bool) -> Checked {
        if let Some((t, f, c)) = &self.last
            && t == text
            && (*f || !full)
        {
            return c.clone();
        }
        let checked = self.check_anew(text, full);
        self.last = Some((text.to_string(), full, checked.clone()));
        checked
    }

    /// Whether `text` is the one the engine holds (its hover and completion are about it).
    pub fn holds(&self, text: &str) -> bool {
        self.last.as_ref().is_some_and(|(t, _, _)| t == text)
    }

    fn check_anew(&mut self, text: &str, full: bool) -> Checked {
        let Ok(uri) = Uri::from_str(URI) else {
            return Checked::default_empty();
        };
        let key = Editor::key();
        self.docs
            .insert(key.clone(), Document::new(uri, text.to_string()));
        let path = self
            .docs
            .get(&key)
            .map(|d| d.path.clone())
            .unwrap_or_default();
        let checked = documents::check(&self.docs, &path, full);
        let problem = self.docs.get(&key).and_then(|d| d.problem.clone());
        let Some(doc) = self.docs.get_mut(&key) else {
            return Checked::default_empty();
        };
        doc.checked = checked;
        if let Some(why) = problem {
            return Checked {
                diagnostics: vec![Diagnostic {
                    from: At::default_start(),
                    to: At::default_start(),
                    severity: "error",
                    code: String::new(),
                    message: why,
                    fix: None,
                }],
                ..Checked::default_empty()
            };
        }
        let Some(doc) = self.doc() else {
            return Checked::default_empty();
        };
        let published = diagnostics::to_lsp(&self.docs, doc);
        let list = published
            .iter()
            .map(|(d, fix)| one(d, fix.as_ref()))
            .collect();
        // A variant's parent, compiled once: its sheet marks what changed, and hover says
        // what each line replaces.
        let parent = doc.program().and_then(|p| base_program(&Shipped, p, &[]));
        let sheet = doc
            .program()
            .map(|p| present::rules_sheet(p, parent.as_ref(), false));
        let name = doc.program().map(|p| p.name.clone());
        let colours = decode(&tokens::tokens(doc));
        let options = doc
            .program()
            .map(|p| p.options.iter().map(Control::of).collect())
            .unwrap_or_default();
        let extends = doc.program().and_then(parent_name);
        if let Some(doc) = self.docs.get_mut(&key) {
            doc.parent = Some(parent);
        }
        Checked {
            diagnostics: list,
            sheet,
            name,
            tokens: colours,
            options,
            parent: extends,
        }
    }

    /// The compiled program of the last check, if it compiled.
    pub fn program(&self) -> Option<&Program> {
        self.doc()?.program()
    }

    /// The program of the last check compiled with option values (`--set`'s `name`,
    /// `value`), or why it cannot be: the text has errors, or a value is not allowed.
    pub fn program_with(&self, sets: &[(String, String)]) -> Result<Program, String> {
        let Some(program) = self.program() else {
            return Err("the ruleset has errors: mend them first".into());
        };
        if sets.is_empty() {
            return Ok(program.clone());
        }
        let path = self.doc().map(|d| d.path.clone()).unwrap_or_default();
        let ws = Workspace { docs: &self.docs };
        let checked = compile::check(&ws, &path, sets).map_err(|e| e.to_string())?;
        checked.program.ok_or_else(|| {
            let why: Vec<String> = checked
                .diags
                .iter()
                .filter(|d| d.is_error())
                .map(|d| d.message.clone())
                .collect();
            format!("these option values do not fit: {}", why.join("; "))
        })
    }

    /// The current text judged side by side (`by`: `players=2..5` or `NAME=VALUES`), read
    /// through the page's documents as the command line reads a file.
    pub fn judge_by(
        &self,
        by: &str,
        bot: &str,
        ask: &crate::simulate::Ask,
    ) -> Result<crate::simulate::Run, String> {
        let path = self.doc().map(|d| d.path.clone()).unwrap_or_default();
        let ws = Workspace { docs: &self.docs };
        crate::simulate::judge_by(&ws, &path, by, bot, ask)
    }

    /// What the language server's hover says at a place.
    pub fn hover(&self, line: u32, character: u32) -> Option<Hover> {
        let h = hover::hover(self.doc()?, Position::new(line, character))?;
        let markdown = match h.contents {
            HoverContents::Markup(m) => m.value,
            HoverContents::Scalar(s) => marked(s),
            HoverContents::Array(a) => a.into_iter().map(marked).collect::<Vec<_>>().join("\n\n"),
        };
        Some(Hover {
            markdown,
            from: h.range.map(|r| r.start.into()),
            to: h.range.map(|r| r.end.into()),
        })
    }

    /// What the language server's completion offers at a place.
    pub fn complete(&self, line: u32, character: u32) -> Vec<Completion> {
        let Some(doc) = self.doc() else {
            return Vec::new();
        };
        let ws = Workspace { docs: &self.docs };
        let pos = Position::new(line, character);
        completion::complete(&ws, doc, pos)
            .into_iter()
            .map(|c| {
                let (from, to, text) = match c.text_edit {
                    Some(CompletionTextEdit::Edit(e)) => (e.range.start, e.range.end, e.new_text),
                    Some(CompletionTextEdit::InsertAndReplace(e)) => {
                        (e.replace.start, e.replace.end, e.new_text)
                    }
                    None => (pos, pos, c.insert_text.unwrap_or_else(|| c.label.clone())),
                };
                Completion {
                    label: c.label,
                    detail: c.detail,
                    from: from.into(),
                    to: to.into(),
                    text,
                }
            })
            .collect()
    }
}

impl At {
    fn default_start() -> At {
        At {
            line: 0,
            character: 0,
        }
    }
}

impl Checked {
    fn default_empty() -> Checked {
        Checked {
            diagnostics: Vec::new(),
            sheet: None,
            name: None,
            tokens: Vec::new(),
            options: Vec::new(),
            parent: None,
        }
    }
}

/// The shipped ruleset a program extends directly, by name.
pub fn parent_name(p: &Program) -> Option<String> {
    let parent = p.files.len().checked_sub(2).and_then(|i| p.files.get(i))?;
    let stem = std::path::Path::new(parent).file_stem()?.to_str()?;
    SHIPPED
        .iter()
        .any(|(n, _)| *n == stem)
        .then(|| stem.to_string())
}

fn marked(s: lsp_types::MarkedString) -> String {
    match s {
        lsp_types::MarkedString::String(s) => s,
        lsp_types::MarkedString::LanguageString(l) => l.value,
    }
}

fn one(d: &lsp_types::Diagnostic, fix: Option<&(lsp_types::Range, String)>) -> Diagnostic {
    let code = match &d.code {
        Some(lsp_types::NumberOrString::String(s)) => s.clone(),
        Some(lsp_types::NumberOrString::Number(n)) => n.to_string(),
        None => String::new(),
    };
    Diagnostic {
        from: d.range.start.into(),
        to: d.range.end.into(),
        severity: match d.severity {
            Some(DiagnosticSeverity::WARNING) => "warning",
            Some(DiagnosticSeverity::INFORMATION) | Some(DiagnosticSeverity::HINT) => "info",
            _ => "error",
        },
        code,
        message: d.message.clone(),
        fix: fix.map(|(r, text)| Fix {
            from: r.start.into(),
            to: r.end.into(),
            text: text.clone(),
        }),
    }
}

/// The protocol's relative encoding of tokens, made absolute.
fn decode(list: &[lsp_types::SemanticToken]) -> Vec<(u32, u32, u32, &'static str)> {
    let mut out = Vec::with_capacity(list.len());
    let (mut line, mut start) = (0u32, 0u32);
    for t in list {
        if t.delta_line > 0 {
            line = line.saturating_add(t.delta_line);
            start = t.delta_start;
        } else {
            start = start.saturating_add(t.delta_start);
        }
        let kind = tokens::TYPES
            .get(t.token_type as usize)
            .copied()
            .unwrap_or("keyword");
        out.push((line, start, t.length, kind));
    }
    out
}
