//! The limits on a ruleset's text, checked before a line is parsed: how many lines, how long
//! a line, how many values it lists, how many statements and scenarios a file holds. A line
//! past a limit is one diagnostic and is not parsed, so no file can make the parser or the
//! checker work more than its size allows.

use crate::base::diag::Diag;
use crate::base::limits::{LINE_BYTES, LINES, SCENARIOS, STATEMENTS, VALUES_PER_LINE, grouped};
use crate::base::span::strip_comment;
use crate::base::{Code, Span};

/// Too many lines: said once, at the first line past the limit.
pub(super) fn too_many_lines(text: &str, start: usize) -> Diag {
    let total = text[start..].lines().count() + LINES;
    Diag::error(
        Code::TooMany,
        Span::new(start, start),
        format!(
            "this ruleset has {} lines; a ruleset may have at most {}",
            grouped(total as u64),
            grouped(LINES as u64)
        ),
    )
    .label("the lines from here on are not read")
    .hint("a ruleset is a page of rules: split it into variants that extend each other")
}

/// A line too long, or listing too many values.
pub(super) fn long_line(line: &str, start: usize) -> Option<Diag> {
    if line.len() > LINE_BYTES {
        return Some(
            Diag::error(
                Code::LongLine,
                Span::new(start, start + line.len()),
                format!(
                    "this line is {} bytes long; a line may be at most {}",
                    grouped(line.len() as u64),
                    grouped(LINE_BYTES as u64)
                ),
            )
            .label("this line is not read")
            .hint("write the rule on several shorter lines"),
        );
    }
    let code = strip_comment(line);
    let mut values = 1;
    let mut quoted = false;
    let bytes = code.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        match b {
            b'"' => quoted = !quoted,
            b',' if !quoted => values += 1,
            b' ' if !quoted && code[i..].starts_with(" or ") => values += 1,
            _ => {}
        }
    }
    (values > VALUES_PER_LINE).then(|| {
        Diag::error(
            Code::LongLine,
            Span::new(start, start + line.len()),
            format!(
                "this line lists {} values; a line may list at most {VALUES_PER_LINE}",
                grouped(values as u64)
            ),
        )
        .label("this line is not read")
        .hint("split the list over several lines that say the same thing")
    })
}

/// One statement (or scenario) past the limit of a file: said once.
pub(super) fn too_many(what: &str, span: Span) -> Diag {
    let max = if what == "scenarios" {
        SCENARIOS
    } else {
        STATEMENTS
    };
    Diag::error(
        Code::TooMany,
        span,
        format!(
            "this file holds more than {} {what}, the most a ruleset may",
            grouped(max as u64)
        ),
    )
    .label(format!("the {what} from here on are not read"))
    .hint("split the ruleset into variants that extend each other")
}
