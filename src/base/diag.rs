//! Diagnostics: every problem the checker finds, as data, rendered by miette.
//!
//! A [`Diag`] is a kind-free value: a code, a message in the designer's words, the span it
//! points at, a label and a hint. Library code returns them; only the binary prints them.

use std::fmt;
use std::sync::Arc;

use miette::{Diagnostic, LabeledSpan, Severity, SourceCode};
use serde::Serialize;

use super::codes::Code;
use super::excerpt::Excerpt;
use super::span::Span;
use super::text::escape;

/// A ruleset file's name and text, shared by all the diagnostics that point into it, with
/// where its lines start (so a diagnostic finds its line in a look-up, not a scan).
#[derive(Debug, Clone)]
pub struct Source {
    pub name: String,
    pub text: Arc<str>,
    starts: Arc<[usize]>,
}

impl Source {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        let text: String = text.into();
        let starts: Vec<usize> = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Self {
            name: name.into(),
            text: text.into(),
            starts: starts.into(),
        }
    }

    /// 1-based line and column of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(&self.text, offset.min(self.text.len()));
        let line = self.starts.partition_point(|s| *s <= offset).max(1);
        let start = self.starts[line - 1].min(offset);
        let col = self.text[start..offset].chars().count() + 1;
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
        self.draw(&handler)
    }

    /// Renders with colour when `color` is true (a terminal that wants it).
    pub fn render(&self, color: bool) -> String {
        if !color {
            return self.render_plain(100);
        }
        let handler = miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode())
            .with_width(100)
            .with_links(false);
        self.draw(&handler)
    }

    /// Draws the diagnostic with what it quotes of its file: an [`Excerpt`], its text from
    /// files escaped.
    fn draw(&self, handler: &miette::GraphicalReportHandler) -> String {
        let drawn = Drawn::new(self);
        let mut out = String::new();
        if handler.render_report(&mut out, &drawn).is_err() {
            out = drawn.message.clone();
        }
        out
    }
}

/// A diagnostic as it is drawn: its words escaped, its snippet an excerpt of the file.
#[derive(Debug)]
struct Drawn<'d> {
    diag: &'d Diag,
    message: String,
    help: Option<String>,
    excerpt: Option<Excerpt>,
    labels: Vec<LabeledSpan>,
}

impl<'d> Drawn<'d> {
    fn new(diag: &'d Diag) -> Drawn<'d> {
        let mut drawn = Drawn {
            diag,
            message: escape(&diag.message).into_owned(),
            help: diag.hint.as_ref().map(|h| escape(h).into_owned()),
            excerpt: None,
            labels: Vec::new(),
        };
        let Some(source) = diag
            .source
            .as_ref()
            .filter(|s| diag.snippet && !s.text.is_empty())
        else {
            return drawn;
        };
        let len = source.text.len();
        let fits = |span: &Span| span.start <= span.end && span.end <= len;
        let main = Span::new(
            diag.span.start.min(len),
            diag.span.end.min(len).max(diag.span.start.min(len)),
        );
        // A place in another file (a parent's line) cannot be drawn in this one.
        let related: Vec<&(Span, String)> = diag.related.iter().filter(|(s, _)| fits(s)).collect();
        let spans: Vec<Span> = std::iter::once(main)
            .chain(related.iter().map(|(s, _)| *s))
            .collect();
        let excerpt = Excerpt::new(&source.name, &source.text, &source.starts, &spans);
        drawn.labels = std::iter::once(LabeledSpan::new_primary_with_span(
            Some(escape(&diag.label).into_owned()),
            excerpt.map(main),
        ))
        .chain(related.iter().map(|(span, label)| {
            LabeledSpan::new_with_span(Some(escape(label).into_owned()), excerpt.map(*span))
        }))
        .collect();
        drawn.excerpt = Some(excerpt);
        drawn
    }
}

impl fmt::Display for Drawn<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Drawn<'_> {}

impl Diagnostic for Drawn<'_> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.diag.code()
    }

    fn severity(&self) -> Option<Severity> {
        self.diag.severity()
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.excerpt.as_ref().map(|x| x as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.excerpt.as_ref()?;
        Some(Box::new(self.labels.iter().cloned()))
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
}

/// The closest word to `word` among `candidates`, if it is close enough to suggest.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let lower = word.to_lowercase();
    // A short word is one slip away from many others: `all` is two from `add`, `swap` two
    // from `skip`. Two slips are suggested only in words long enough to carry them.
    let close = |d: usize, len: usize| match len {
        0..=4 => d <= 1,
        5..=8 => d <= 2,
        _ => d <= len / 3,
    };
    candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(&lower, &c.to_lowercase()), c))
        .filter(|(d, c)| close(*d, c.len().max(lower.len())) && *d < c.len().max(lower.len()))
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

/// How many errors and warnings `diags` stand for: a `more-problems` diagnostic counts the
/// ones it holds back.
pub fn counts(diags: &[Diag]) -> (usize, usize) {
    let (mut errors, mut warnings) = (0, 0);
    for d in diags {
        match hidden(d) {
            Some((e, w)) => {
                errors += e;
                warnings += w;
            }
            None if d.is_error() => errors += 1,
            None => warnings += 1,
        }
    }
    (errors, warnings)
}

/// The errors and warnings a `more-problems` diagnostic holds back (kept in its label, which
/// is never drawn: it has no snippet).
fn hidden(d: &Diag) -> Option<(usize, usize)> {
    if d.code != Code::MoreProblems {
        return None;
    }
    let (e, w) = d.label.split_once(',')?;
    Some((e.parse().ok()?, w.parse().ok()?))
}

/// Keeps at most `max` diagnostics a file, in order; the rest of each file's are counted in
/// one last `more-problems` diagnostic (an error when any of them is). Capping again adds to
/// that count.
pub fn cap_per_file(diags: &mut Vec<Diag>, max: usize) {
    use std::collections::HashMap;
    let file = |d: &Diag| d.source.as_ref().map_or(String::new(), |s| s.name.clone());
    // Per file: the errors and warnings held back, and the file.
    type Held = (usize, usize, Option<Source>);
    let mut more: HashMap<String, Held> = HashMap::new();
    let mut kept: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::with_capacity(diags.len().min(max + 1));
    for d in diags.drain(..) {
        let name = file(&d);
        let (e, w) = match hidden(&d) {
            Some(held) => held,
            None => {
                let n = kept.entry(name.clone()).or_insert(0);
                if *n < max {
                    *n += 1;
                    out.push(d);
                    continue;
                }
                if d.is_error() { (1, 0) } else { (0, 1) }
            }
        };
        let entry = more.entry(name).or_insert((0, 0, d.source.clone()));
        entry.0 += e;
        entry.1 += w;
    }
    let mut extra: Vec<(String, Held)> = more.into_iter().collect();
    extra.sort_by(|a, b| a.0.cmp(&b.0));
    for (name, (errors, warnings, source)) in extra {
        let shown = kept.get(&name).copied().unwrap_or(0);
        let count = errors + warnings;
        let message = format!(
            "and {} more problem{} in this file (the first {shown} are shown)",
            super::limits::grouped(count as u64),
            if count == 1 { "" } else { "s" }
        );
        let d = if errors > 0 {
            Diag::error(Code::MoreProblems, Span::default(), message)
        } else {
            Diag::warning(Code::MoreProblems, Span::default(), message)
        };
        let mut d = d
            .without_snippet()
            .label(format!("{errors},{warnings}"))
            .hint("fix these first: many problems often share one cause");
        d.source = source;
        out.push(d);
    }
    *diags = out;
}
