//! What a diagnostic quotes of its file: the lines it points at and one line around each,
//! nothing more. A long line is shown as a window of [`QUOTE_CHARS`] characters around the
//! place, control characters are made visible, and lines far apart are separate pieces: a
//! diagnostic never carries or draws a whole 200 KB line, and drawing it never rescans the
//! file.
//!
//! An [`Excerpt`] is a small text of its own with its own offsets; [`Excerpt::map`] turns a
//! span of the file into a span of the excerpt, and [`miette::SourceCode`] reads it giving
//! back the file's line and column numbers.

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

use super::limits::QUOTE_CHARS;
use super::span::Span;
use super::text::is_unsafe;

/// Lines of context miette draws around a place (its default).
const CONTEXT: usize = 1;
/// The most lines of one span drawn.
const SPAN_LINES: usize = super::limits::QUOTE_LINES;
/// The most lines between two places drawn as one piece.
const MERGE_GAP: usize = 12;

/// A piece of the excerpt: consecutive lines of the file.
#[derive(Debug)]
struct Piece {
    /// Where the piece starts and ends in the excerpt's text.
    start: usize,
    end: usize,
    /// The file's line numbers (0-based) of its first and last lines.
    first_line: usize,
    last_line: usize,
}

/// One line of the file, as shown.
#[derive(Debug)]
struct Shown {
    /// Where it starts in the excerpt's text, and in the file.
    at: usize,
    file_at: usize,
    /// The file's bytes of the line it shows (a window of it when it is long).
    from: usize,
    to: usize,
    /// Whether `…` stands before the window.
    cut_before: bool,
}

/// The lines of a file a diagnostic quotes, as a small text of their own.
#[derive(Debug)]
pub struct Excerpt {
    name: String,
    text: String,
    pieces: Vec<Piece>,
    lines: Vec<Shown>,
    file: std::sync::Arc<str>,
}

impl Excerpt {
    /// The lines of `file` around `spans` (the file's byte offsets), each line cut to a
    /// window around the places on it. `starts` are the offsets where the file's lines start.
    pub fn new(
        name: &str,
        file: &std::sync::Arc<str>,
        starts: &[usize],
        spans: &[Span],
    ) -> Excerpt {
        let line_of = |offset: usize| starts.partition_point(|s| *s <= offset).saturating_sub(1);
        let last = starts.len().saturating_sub(1);
        // The lines each place spans, in order.
        let mut ranges: Vec<(usize, usize)> = spans
            .iter()
            .map(|s| {
                let (a, b) = (line_of(s.start), line_of(s.end.max(s.start)));
                (a, b.min(a + SPAN_LINES - 1))
            })
            .collect();
        ranges.sort_unstable();
        // Places are drawn together when miette would draw them together (its test counts
        // the lines from the top of the file), as long as few lines lie between them.
        let newlines = last;
        let mut merged: Vec<(usize, usize)> = Vec::new();
        for (a, b) in ranges {
            match merged.last_mut() {
                Some(m)
                    if a.saturating_sub(CONTEXT) <= m.1 + CONTEXT + 1
                        || (m.0.saturating_sub(CONTEXT) + (m.1 + CONTEXT + 1).min(newlines)
                            >= a.saturating_sub(CONTEXT)
                            && a - m.1 <= MERGE_GAP) =>
                {
                    m.1 = m.1.max(b);
                }
                _ => merged.push((a, b)),
            }
        }
        let merged: Vec<(usize, usize)> = merged
            .into_iter()
            .map(|(a, b)| (a.saturating_sub(CONTEXT), (b + CONTEXT).min(last)))
            .collect();
        let mut x = Excerpt {
            name: name.to_string(),
            text: String::new(),
            pieces: Vec::new(),
            lines: Vec::new(),
            file: file.clone(),
        };
        for (a, b) in merged {
            let start = x.text.len();
            for line in a..=b {
                let from = starts[line];
                let to = starts.get(line + 1).copied().unwrap_or(file.len());
                let on_line: Vec<&Span> = spans
                    .iter()
                    .filter(|s| s.start >= from && s.start < to.max(from + 1))
                    .collect();
                x.push_line(from, to, &on_line);
            }
            x.pieces.push(Piece {
                start,
                end: x.text.len(),
                first_line: a,
                last_line: b,
            });
        }
        x
    }

    /// Adds one line of the file (`from..to`, its end of line included), cut to a window
    /// around the first place on it when it is long.
    fn push_line(&mut self, from: usize, to: usize, places: &[&Span]) {
        let file = self.file.clone();
        let raw = &file[from..to];
        let body = raw.trim_end_matches(['\n', '\r']);
        let ending = &raw[body.len()..];
        let chars = body.chars().count();
        let (mut w0, mut w1) = (0, body.len());
        if chars > QUOTE_CHARS {
            let anchor = places.first().map_or(0, |s| s.start - from).min(body.len());
            let before = body[..floor(body, anchor)].chars().count();
            let first = before.saturating_sub(QUOTE_CHARS / 3);
            w0 = byte_of(body, first);
            w1 = byte_of(body, first + QUOTE_CHARS);
        }
        let at = self.text.len();
        if w0 > 0 {
            self.text.push('…');
        }
        for c in body[w0..w1].chars() {
            if is_unsafe(c) && c != '\t' {
                self.text.push_str(&c.escape_unicode().to_string());
            } else {
                self.text.push(c);
            }
        }
        if w1 < body.len() {
            self.text.push('…');
        }
        self.text.push_str(ending);
        self.lines.push(Shown {
            at,
            file_at: from,
            from: from + w0,
            to: from + w1,
            cut_before: w0 > 0,
        });
    }

    /// The excerpt's offset of the file's offset `offset` (clamped to the window of its line).
    fn offset(&self, offset: usize) -> usize {
        let i = self
            .lines
            .partition_point(|l| l.file_at <= offset)
            .saturating_sub(1);
        let Some(line) = self.lines.get(i) else {
            return 0;
        };
        let mut at = line.at + if line.cut_before { '…'.len_utf8() } else { 0 };
        let target = offset.clamp(line.from, line.to.max(line.from));
        for c in self.file[line.from..floor(&self.file, target)].chars() {
            at += if is_unsafe(c) && c != '\t' {
                c.escape_unicode().to_string().len()
            } else {
                c.len_utf8()
            };
        }
        if offset > line.to {
            // Past the window: its end, and the `…` after it.
            let next = self.lines.get(i + 1).map_or(self.text.len(), |l| l.at);
            let body_end = self.text[at..next]
                .find(['\n', '\r'])
                .map_or(next, |k| at + k);
            at = body_end;
        }
        at
    }

    /// A span of the file as a span of the excerpt.
    pub fn map(&self, span: Span) -> SourceSpan {
        let start = self.offset(span.start);
        let end = self.offset(span.end.max(span.start)).max(start);
        // A span spread over more lines than are shown ends where its piece does.
        let piece_end = self
            .pieces
            .iter()
            .find(|p| start >= p.start && start <= p.end)
            .map_or(self.text.len(), |p| p.end);
        (start, end.min(piece_end) - start).into()
    }

    /// The file's byte column of the excerpt's offset `at`.
    fn file_column(&self, at: usize) -> usize {
        let i = self.lines.partition_point(|l| l.at <= at).saturating_sub(1);
        let Some(line) = self.lines.get(i) else {
            return 0;
        };
        let mut excerpt = line.at + if line.cut_before { '…'.len_utf8() } else { 0 };
        let mut file = line.from;
        for c in self.file[line.from..line.to].chars() {
            if excerpt >= at {
                break;
            }
            excerpt += if is_unsafe(c) && c != '\t' {
                c.escape_unicode().to_string().len()
            } else {
                c.len_utf8()
            };
            file += c.len_utf8();
        }
        file - line.file_at
    }
}

/// The largest char boundary of `s` at or before `i`.
fn floor(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The byte offset of the `n`-th character of `s` (its length past the end).
fn byte_of(s: &str, n: usize) -> usize {
    s.char_indices().nth(n).map_or(s.len(), |(i, _)| i)
}

impl SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let piece = self
            .pieces
            .iter()
            .find(|p| span.offset() >= p.start && span.offset() <= p.end)
            .ok_or(MietteError::OutOfBounds)?;
        let text = &self.text[piece.start..piece.end];
        let len = span.len().min(piece.end - span.offset());
        let inner_span: SourceSpan = (span.offset() - piece.start, len).into();
        let inner = text.read_span(&inner_span, before, after)?;
        let start = inner.span().offset() + piece.start;
        let column = if before == 0 {
            self.file_column(span.offset())
        } else {
            inner.column()
        };
        let data: &'a [u8] = &self.text.as_bytes()[start..start + inner.span().len()];
        let line = inner.line() + piece.first_line;
        // miette draws two places as one when the first one's line plus this count reaches
        // the second one's: the places of one piece are drawn together, pieces apart.
        let count = (piece.last_line + 1).saturating_sub(line);
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            data,
            (start, inner.span().len()).into(),
            line,
            column,
            count,
        )))
    }
}
