//! Formatting: the canonical spacing of a ruleset, as the shipped rulesets are written.
//!
//! - Statements, scenario headings and `end`s start at the line's start; a scenario's steps
//!   and the comments inside it are indented by two spaces.
//! - Between the words of a line, one space; no space at its end. Quoted text is kept as it
//!   is (spaces and all), and so is every line of rhai code in a `script` block.
//! - A comment after a statement starts at column 48 ([`COMMENT_COLUMN`]), or three spaces
//!   after a statement that reaches past column 45; a comment on its own line is kept as it
//!   is, only indented.
//! - Blank lines stay (a file keeps every line where it was, so a line cited by number is the
//!   same line); those at the end of the file go, and the file ends with one line break.
//! - A line whose canonical form would be longer than the checker takes (`LINE_BYTES`) keeps
//!   its own spacing, and so do lines an editor shows apart that the checker reads as one (a
//!   lone `\r` between them).
//!
//! Only spaces and tabs between pieces change, never their order, so the formatted file reads
//! as the same ruleset (`tests/lsp.rs` compiles every shipped and house-rule file both ways).
//! A file that does not parse is not formatted: which lines are rhai code is not known then.

use super::documents::LineIndex;
use super::layout::{self, Role};
use super::lexer::split_comment;
use crate::base::limits::LINE_BYTES;

/// The 0-based column a trailing comment starts at.
pub const COMMENT_COLUMN: usize = 47;

/// The least spaces between a statement and its trailing comment when the statement is long.
const COMMENT_GAP: usize = 3;

/// The text in canonical form, or `None` when it does not parse.
pub fn format(text: &str) -> Option<String> {
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let index = LineIndex::new(text);
    let mut formatted = String::with_capacity(text.len());
    for (i, line) in lines(text)?.iter().enumerate() {
        if i > 0 {
            // A lone `\r` stays where it was: a space to the checker, a break to an editor.
            let lone = index.ends_at_lone_cr(text, i - 1);
            formatted.push_str(if lone { "\r" } else { newline });
        }
        formatted.push_str(line);
    }
    formatted.push_str(newline);
    Some(formatted)
}

/// The lines of the canonical form (without their line breaks), or `None` when the text does
/// not parse. Line `i` is line `i` of the text, in its canonical spacing; the blank lines at
/// the end are gone.
pub fn lines(text: &str) -> Option<Vec<String>> {
    let (file, diags) = crate::lang::parse(text);
    if !diags.is_empty() {
        return None;
    }
    let lines = LineIndex::new(text);
    let roles = layout::roles(&file, text, &lines);
    let mut out: Vec<String> = Vec::with_capacity(roles.len());
    for (i, role) in roles.iter().enumerate() {
        let span = lines.line_span(text, i);
        let line = text.get(span.start..span.end)?;
        // Lines an editor shows apart that the checker reads as one (a lone `\r` between
        // them) are kept as they are: spacing them one by one could change what they say.
        let joined =
            lines.ends_at_lone_cr(text, i) || (i > 0 && lines.ends_at_lone_cr(text, i - 1));
        let canonical = match role {
            _ if joined => line.to_string(),
            Role::Script => line.to_string(),
            Role::Step | Role::InScenario => one_line(line, "  "),
            _ => one_line(line, ""),
        };
        // Never a line longer than the checker takes: such a line keeps its own spacing.
        out.push(if canonical.len() > LINE_BYTES {
            line.to_string()
        } else {
            canonical
        });
    }
    while out.last().is_some_and(String::is_empty) {
        out.pop();
    }
    Some(out)
}

/// One line: indented, its words one space apart, its comment placed.
fn one_line(line: &str, indent: &str) -> String {
    let (code, comment) = split_comment(line);
    let words = spaced(code);
    let comment = comment.trim_end();
    match (words.is_empty(), comment.is_empty()) {
        (true, true) => String::new(),
        (true, false) => format!("{indent}{comment}"),
        (false, true) => format!("{indent}{words}"),
        (false, false) => {
            let used = indent.chars().count() + words.chars().count();
            let gap = COMMENT_COLUMN.saturating_sub(used).max(COMMENT_GAP);
            format!("{indent}{words}{}{comment}", " ".repeat(gap))
        }
    }
}

/// Code with each run of spaces and tabs (outside quotes) made one space, and none at its
/// ends. The grammar's whitespace is spaces, tabs and `\r`; any other character is kept.
fn spaced(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut quoted = false;
    let mut gap = false;
    for c in code.chars() {
        if !quoted && matches!(c, ' ' | '\t' | '\r') {
            gap = true;
            continue;
        }
        if gap && !out.is_empty() {
            out.push(' ');
        }
        gap = false;
        if c == '"' {
            quoted = !quoted;
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spacing_comments_and_blocks() {
        let text = "name  \"Two  spaces\"   \n\n\tcard A :  add 1 or add 11 # N99-8\nscenario \"s\"\n total 3\n\t# why\n    play AS:1\n  end\nscript\n  let  x = 1;   \nend\n\n\n";
        let want = format!(
            "name \"Two  spaces\"\n\ncard A : add 1 or add 11{}# N99-8\nscenario \"s\"\n  total 3\n  # why\n  play AS:1\nend\nscript\n  let  x = 1;   \nend\n",
            " ".repeat(COMMENT_COLUMN - 24)
        );
        assert_eq!(format(text).as_deref(), Some(want.as_str()));
        assert_eq!(format(&want).as_deref(), Some(want.as_str()));
        assert_eq!(format("playres 2 to 5\n"), None);
        let long = "when a player cannot play: the player pays 1 to the bank and loses the round";
        assert_eq!(
            format(&format!("{long}\t# x\n")),
            Some(format!("{long}   # x\n"))
        );
        assert_eq!(
            format("name \"x\"\r\nhand  3 cards\r\n").as_deref(),
            Some("name \"x\"\r\nhand 3 cards\r\n")
        );
        // A lone `\r` and the lines on each side of it stay as they are.
        assert_eq!(
            format("name  \"x\"\r#  note\nhand  3 cards\n").as_deref(),
            Some("name  \"x\"\r#  note\nhand 3 cards\n")
        );
    }

    #[test]
    fn no_line_grows_past_the_limit() {
        let code = format!("name \"{}\"", "a".repeat(LINE_BYTES - 11));
        let text = format!("{code} #x\n");
        assert_eq!(text.len() - 1, LINE_BYTES - 1);
        assert_eq!(format(&text), Some(text.clone()));
        let step = format!(
            "name \"n\"\nscenario \"s\"\ntotal 5#{}\nend\n",
            "c".repeat(LINE_BYTES - 8)
        );
        assert_eq!(format(&step), Some(step.clone()));
    }
}
