//! Text from files on its way to a terminal: control characters made visible, so a ruleset's
//! name, a label, a saved seat's name or a typed line cannot move the cursor, set the window's
//! title or clear the screen; and long text clipped. The one place this is done: the
//! diagnostics of `base` use it for their words and snippets, and `app` for everything else
//! it prints (reports, rules sheets, events, the game's replies, errors). It lives in `base`
//! so that the diagnostics, below every other stage, can use it too.

use std::borrow::Cow;

/// Whether a character would act on a terminal rather than show: C0 and C1 controls, DEL,
/// and the invisible characters that reorder or hide text (bidirectional overrides and
/// isolates, zero-width and line separators).
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{2069}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
        )
}

/// One line of text as it may reach the terminal: every unsafe character (a new line too)
/// written as a visible escape, `\u{1b}`.
pub fn escape(text: &str) -> Cow<'_, str> {
    escape_with(text, false)
}

/// Like [`escape`], but new lines (and tabs) are kept: for multi-line text (a rules sheet, a
/// transcript).
pub fn escape_lines(text: &str) -> Cow<'_, str> {
    escape_with(text, true)
}

fn escape_with(text: &str, keep_lines: bool) -> Cow<'_, str> {
    let keep = |c: char| keep_lines && matches!(c, '\n' | '\t');
    if !text.chars().any(|c| is_unsafe(c) && !keep(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe(c) && !keep(c) {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Like [`escape_lines`], but the colour sequences ninety writes itself (`ESC [ digits ; m`)
/// are kept: for text that mixes painted words with text from files.
pub fn escape_keep_colour(text: &str) -> Cow<'_, str> {
    if !text
        .chars()
        .any(|c| is_unsafe(c) && !matches!(c, '\n' | '\t'))
    {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '\u{1b}'
            && let Some(len) = colour_sequence(rest)
        {
            out.push_str(&rest[..len]);
            rest = &rest[len..];
            continue;
        }
        if is_unsafe(c) && !matches!(c, '\n' | '\t') {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    Cow::Owned(out)
}

/// The length of an SGR colour sequence at the start of `text` (`\x1b[1;31m`), if there is one.
fn colour_sequence(text: &str) -> Option<usize> {
    let body = text.strip_prefix("\u{1b}[")?;
    let end = body.find(|c: char| !(c.is_ascii_digit() || c == ';'))?;
    (body[end..].starts_with('m') && end <= 16).then_some(2 + end + 1)
}

/// At most `max` characters of `text`, with `…` when some were cut.
pub fn clip(text: &str, max: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => Cow::Borrowed(text),
        Some((at, _)) => {
            let keep = text[..at]
                .char_indices()
                .nth(max.saturating_sub(1))
                .map_or(at, |(i, _)| i);
            Cow::Owned(format!("{}…", &text[..keep]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_become_visible() {
        assert_eq!(escape("Ninety-Nine"), "Ninety-Nine");
        assert_eq!(escape("E\u{1b}]0;pwned\u{7}"), "E\\u{1b}]0;pwned\\u{7}");
        assert_eq!(escape("a\nb"), "a\\u{a}b");
        assert_eq!(escape_lines("a\nb\u{1b}"), "a\nb\\u{1b}");
        assert_eq!(escape("\u{202e}abc"), "\\u{202e}abc");
    }

    #[test]
    fn ninety_s_own_colours_are_kept() {
        let painted = "\u{1b}[31mYou pay 1.\u{1b}[0m";
        assert_eq!(escape_keep_colour(painted), painted);
        assert_eq!(
            escape_keep_colour("\u{1b}[31mX\u{1b}]0;t\u{7}"),
            "\u{1b}[31mX\\u{1b}]0;t\\u{7}"
        );
    }

    #[test]
    fn long_text_is_clipped() {
        assert_eq!(clip("abc", 5), "abc");
        assert_eq!(clip("abcdef", 4), "abc…");
        assert_eq!(clip("ééééé", 3), "éé…");
    }
}
