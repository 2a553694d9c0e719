//! Diagnostics: every problem the checker finds, as data, rendered by miette.
//!
//! A [`Diag`] is a kind-free value: a code, a message in the designer's words, the span it
//! points at, a label and a hint. Library code returns them; only the binary prints them.

use std::fmt;
use std::sync::Arc;

use miette::{Diagnostic, LabeledSpan, NamedSource, Severity, SourceCode};
use serde::Serialize;

use super::codes::Code;
use super::span::Span;

/// A ruleset file's name and text, shared by all the diagnostics that point into it.
#[derive(Debug, Clone)]
pub struct Source {
    pub name: String,
    pub text: Arc<str>,
    named: Arc<NamedSource<String>>,
}

impl Source {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        let name = name.into();
        let text: String = text.into();
        let named = Arc::new(NamedSource::new(name.clone(), text.clone()));
        Self {
            name,
            text: text.into(),
            named,
        }
    }

    /// 1-based line and column of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let before = &self.text[..floor_char_boundary(&self.text, offset)];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// How bad a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Error,
    Warning,
}

/// A rewrite that mends a problem: replace the text at `span` (in the diagnostic's own file)
/// by `replacement`. It is data for editors' quick fixes; it is never rendered, since the hint
/// already says it in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    pub span: Span,
    pub replacement: String,
}

/// One problem, at one place.
#[derive(Debug, Clone)]
pub struct Diag {
    pub level: Level,
    /// What kind of problem it is (its stable name: `unknown-rank`).
    pub code: Code,
    pub message: String,
    pub label: String,
    pub hint: Option<String>,
    pub span: Span,
    pub source: Option<Source>,
    /// Further places that explain the problem (the other definition of a rank).
    pub related: Vec<(Span, String)>,
    /// False when the problem is about the whole file: no snippet is drawn.
    pub snippet: bool,
    /// The rewrite the hint proposes ("did you mean `X`?"), for an editor's quick fix.
    pub fix: Option<Fix>,
}

impl Diag {
    pub fn error(code: Code, span: Span, message: impl Into<String>) -> Self {
        Self {
            level: Level::Error,
            code,
            message: message.into(),
            label: String::from("here"),
            hint: None,
            span,
            source: None,
            related: Vec::new(),
            snippet: true,
            fix: None,
        }
    }

    pub fn without_snippet(mut self) -> Self {
        self.snippet = false;
        self
    }

    pub fn warning(code: Code, span: Span, message: impl Into<String>) -> Self {
        Self {
            level: Level::Warning,
            ..Self::error(code, span, message)
        }
    }

    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// The rewrite that mends the problem: `replacement` instead of the text at `span`.
    pub fn fix(mut self, span: Span, replacement: impl Into<String>) -> Self {
        self.fix = Some(Fix {
            span,
            replacement: replacement.into(),
        });
        self
    }

    pub fn also(mut self, span: Span, label: impl Into<String>) -> Self {
        self.related.push((span, label.into()));
        self
    }

    pub fn in_source(mut self, source: &Source) -> Self {
        if self.source.is_none() {
            self.source = Some(source.clone());
        }
        self
    }

    pub fn is_error(&self) -> bool {
        self.level == Level::Error
    }

    /// The diagnostic as one JSON object (`check --format json`).
    pub fn to_json(&self) -> serde_json::Value {
        let (file, (line, column), (end_line, end_column)) = match &self.source {
            Some(s) if !self.snippet => (s.name.clone(), (0, 0), (0, 0)),
            Some(s) => (
                s.name.clone(),
                s.line_col(self.span.start),
                s.line_col(self.span.end),
            ),
            None => (String::new(), (0, 0), (0, 0)),
        };
        serde_json::json!({
            "file": file,
            "line": line,
            "column": column,
            "end": { "line": end_line, "column": end_column },
            "severity": self.level,
            "code": self.code.name(),
            "message": self.message,
            "hint": self.hint,
        })
    }

    /// Renders the diagnostic as miette draws it: unicode, no colour, a fixed width. Tests
    /// snapshot this.
    pub fn render_plain(&self, width: usize) -> String {
        let handler =
            miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
                .with_width(width)
                .with_links(false);
        let mut out = String::new();
        if handler.render_report(&mut out, self).is_err() {
            out = self.to_string();
        }
        out
    }

    /// Renders with colour when `color` is true (a terminal that wants it).
    pub fn render(&self, color: bool) -> String {
        if !color {
            return self.render_plain(100);
        }
        let handler = miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode())
            .with_width(100)
            .with_links(false);
        let mut out = String::new();
        if handler.render_report(&mut out, self).is_err() {
            out = self.to_string();
        }
        out
    }
}

impl fmt::Display for Diag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Diag {}

impl Diagnostic for Diag {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(format!("ninety::{}", self.code.name())))
    }

    fn severity(&self) -> Option<Severity> {
        Some(match self.level {
            Level::Error => Severity::Error,
            Level::Warning => Severity::Warning,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.hint
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source
            .as_ref()
            .filter(|s| self.snippet && !s.text.is_empty())
            .map(|s| &*s.named as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        // A file with no text to show (binary, not UTF-8) gets no snippet.
        self.source
            .as_ref()
            .filter(|s| self.snippet && !s.text.is_empty())?;
        let main = LabeledSpan::new_primary_with_span(
            Some(self.label.clone()),
            (self.span.start, self.span.len()),
        );
        let rest = self.related.iter().map(|(span, label)| {
            LabeledSpan::new_with_span(Some(label.clone()), (span.start, span.len()))
        });
        Some(Box::new(std::iter::once(main).chain(rest)))
    }
}

/// The closest word to `word` among `candidates`, if it is close enough to suggest.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let lower = word.to_lowercase();
    candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(&lower, &c.to_lowercase()), c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 3) && *d < c.len().max(lower.len()))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// The hint for an option name nobody declared: the closest declared one, as `write` puts it
/// (`--set chips=5`, `set chips = 5`), or the list of options.
pub fn unknown_option_hint(name: &str, names: &[&str], write: impl Fn(&str) -> String) -> String {
    match did_you_mean(name, names.iter().copied()) {
        Some(n) => format!("did you mean `{}`?", write(n)),
        None if names.is_empty() => "this ruleset declares no options".to_string(),
        None => format!(
            "its options are {}",
            names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}
