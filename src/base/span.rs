//! Places in a ruleset file: byte spans, and the line-level helpers every stage shares.

/// A byte range in a ruleset file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Self { start, end }
    }
    pub fn len(self) -> usize {
        self.end - self.start
    }
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
}

/// A value and where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

/// The line without a trailing `# comment` (a `#` inside quotes is text).
pub fn strip_comment(line: &str) -> &str {
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '#' if !quoted => return &line[..i],
            _ => {}
        }
    }
    line
}

/// The span of a 1-based line of `text`, without its comment and trailing blanks (empty
/// past the end).
pub fn line_span(text: &str, line: usize) -> Span {
    let mut start = 0;
    for (n, l) in text.split_inclusive('\n').enumerate() {
        if n + 1 == line {
            let code = strip_comment(l).trim_end();
            return Span::new(start, start + code.len());
        }
        start += l.len();
    }
    Span::default()
}

/// The byte offset of a 1-based line and column (clamped to the line's end).
pub fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            return (offset + column.saturating_sub(1))
                .min(offset + l.trim_end_matches(['\n', '\r']).len());
        }
        offset += l.len();
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comment_ends_the_line_outside_quotes_only() {
        assert_eq!(
            strip_comment("card K: nothing # the king"),
            "card K: nothing "
        );
        assert_eq!(strip_comment("name \"No #1\" # title"), "name \"No #1\" ");
        assert_eq!(strip_comment("# all comment"), "");
    }

    #[test]
    fn offsets_of_lines_and_columns() {
        let text = "ab\ncde\nf";
        assert_eq!(offset_of(text, 1, 1), 0);
        assert_eq!(offset_of(text, 2, 2), 4);
        // A column past the end stays on its line.
        assert_eq!(offset_of(text, 2, 40), 6);
        assert_eq!(offset_of(text, 9, 1), text.len());
    }
}
