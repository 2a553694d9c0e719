//! The pieces of a ruleset line as the grammar sees them, without knowing a single keyword:
//! words (`ident_char`s: letters, digits, `_`, `-`), numbers, strings in quotes, `{option}`
//! references, a `#` comment, and any other character. Semantic tokens, formatting and
//! rename read lines through it; what a word *is* (a keyword, a rank, a name) comes from the
//! parsed file, never from a list here.

use crate::base::Span;

/// What a piece of a line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A run of letters, digits, `_` and `-` that is not a number.
    Word,
    /// `99`, `-10`: digits (after an optional `-`) and no other word character.
    Number,
    /// `"Ninety-Nine"`, quotes included (an unclosed one runs to the end of the line).
    Str,
    /// `{chips}`, braces included.
    OptionRef,
    /// `# …` to the end of the line.
    Comment,
    /// Any other character: `:`, `,`, `=`, a lone `{`.
    Other,
}

/// One piece, by its bytes in the whole text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    pub kind: Kind,
    pub span: Span,
}

/// A character of a word, as the grammar's `ident_char`.
pub fn word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// Whether a text is a name the grammar reads as an option's (`ident`: a letter, then word
/// characters).
pub fn is_name(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic()) && chars.all(word_char)
}

/// The pieces of one line (`line`, without its line break, starting at byte `start` of the
/// text), in order. Whitespace is no piece.
pub fn pieces(line: &str, start: usize) -> Vec<Piece> {
    let mut out = Vec::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let (kind, end) = match b {
            b' ' | b'\t' | b'\r' => {
                i += 1;
                continue;
            }
            b'#' => (Kind::Comment, bytes.len()),
            b'"' => {
                let close = line[i + 1..].find('"').map_or(bytes.len(), |n| i + n + 2);
                (Kind::Str, close)
            }
            b'{' => match option_ref(&line[i..]) {
                Some(len) => (Kind::OptionRef, i + len),
                None => (Kind::Other, i + 1),
            },
            _ if b.is_ascii() && word_char(char::from(b)) => {
                let len = line[i..]
                    .find(|c: char| !word_char(c))
                    .unwrap_or(line.len() - i);
                let text = &line[i..i + len];
                let digits = text.strip_prefix('-').unwrap_or(text);
                let number = !digits.is_empty() && digits.bytes().all(|d| d.is_ascii_digit());
                (if number { Kind::Number } else { Kind::Word }, i + len)
            }
            _ => {
                let len = line[i..].chars().next().map_or(1, char::len_utf8);
                (Kind::Other, i + len)
            }
        };
        out.push(Piece {
            kind,
            span: Span::new(start + i, start + end),
        });
        i = end;
    }
    out
}

/// The length of `{name}` at the start of `text`, when it is one.
fn option_ref(text: &str) -> Option<usize> {
    let close = text.find('}')?;
    is_name(&text[1..close]).then_some(close + 1)
}

/// The line's code and its comment: the text before an unquoted `#`, and the `#` on.
pub fn split_comment(line: &str) -> (&str, &str) {
    let code = crate::base::span::strip_comment(line);
    (code, &line[code.len()..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(line: &str) -> Vec<(Kind, &str)> {
        pieces(line, 0)
            .into_iter()
            .map(|p| (p.kind, &line[p.span.start..p.span.end]))
            .collect()
    }

    #[test]
    fn a_line_in_pieces() {
        use Kind::*;
        assert_eq!(
            kinds("card 10: add {cap} or subtract -10 as \"a # b\"  # N99-8"),
            [
                (Word, "card"),
                (Number, "10"),
                (Other, ":"),
                (Word, "add"),
                (OptionRef, "{cap}"),
                (Word, "or"),
                (Word, "subtract"),
                (Number, "-10"),
                (Word, "as"),
                (Str, "\"a # b\""),
                (Comment, "# N99-8"),
            ]
        );
        assert_eq!(
            kinds("play AS:11 { x} \"open 🂡"),
            [
                (Word, "play"),
                (Word, "AS"),
                (Other, ":"),
                (Number, "11"),
                (Other, "{"),
                (Word, "x"),
                (Other, "}"),
                (Str, "\"open 🂡"),
            ]
        );
        assert_eq!(
            kinds("ninety-nine 7H"),
            [(Word, "ninety-nine"), (Word, "7H")]
        );
        assert!(is_name("by_hand") && !is_name("9lives") && !is_name(""));
    }
}
