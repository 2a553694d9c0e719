//! Text from files on its way to a terminal: control characters made visible, so a ruleset's
//! name, a label, a saved seat's name or a typed line cannot move the cursor, set the window's
//! title or clear the screen; and long text clipped. The one place this is done: the
//! diagnostics of `base` use it for their words and snippets, and `app` for everything else
//! it prints (reports, rules sheets, events, the game's replies, errors). It lives in `base`
//! so that the diagnostics, below every other stage, can use it too.

use std::borrow::Cow;

/// Whether a character would act on a terminal rather than show: C0 and C1 controls, DEL,
/// and the invisible characters that reorder or hide text (bidirectional marks, overrides
/// and isolates, the Arabic letter mark; zero-width, joining and filler characters, soft
/// hyphens, variation selectors, tag characters; line separators; noncharacters).
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{061C}'
                | '\u{115F}'..='\u{1160}'
                | '\u{17B4}'..='\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FDD0}'..='\u{FDEF}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF0}'..='\u{FFFB}'
                | '\u{FFFE}'..='\u{FFFF}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0000}'..='\u{E0FFF}'
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

/// Like [`escape_lines`], but the colour sequences ninety writes itself are kept: those it
/// wrote with `key` (see [`paint_key`]) standing for the escape that starts them. Text from
/// files cannot know the key, so every escape in it is shown, never sent, whatever it looks
/// like.
pub fn escape_painted(text: &str, key: &str) -> String {
    if key.is_empty() {
        return escape_lines(text).into_owned();
    }
    text.split(key)
        .map(escape_lines)
        .collect::<Vec<_>>()
        .join("\u{1b}[")
}

/// A key no file can know, made anew each run, for [`escape_painted`].
pub fn paint_key() -> String {
    use std::hash::BuildHasher;
    let hasher = std::collections::hash_map::RandomState::new();
    let a = hasher.hash_one(std::process::id());
    let b = hasher.hash_one(std::time::SystemTime::now());
    format!("\u{E000}{a:016x}{b:016x}\u{E001}")
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
    fn ninety_s_own_colours_are_kept_and_no_file_s() {
        let key = paint_key();
        let painted = format!("{key}31mYou pay 1.{key}0m");
        assert_eq!(
            escape_painted(&painted, &key),
            "\u{1b}[31mYou pay 1.\u{1b}[0m"
        );
        // The same sequences from a file are shown, whatever they ask for.
        let from_file = format!("{key}1mE\u{1b}[8mHIDDEN\u{1b}[0m{key}0m");
        assert_eq!(
            escape_painted(&from_file, &key),
            "\u{1b}[1mE\\u{1b}[8mHIDDEN\\u{1b}[0m\u{1b}[0m"
        );
        assert_ne!(paint_key(), key);
    }

    #[test]
    fn invisible_and_reordering_characters_are_shown() {
        for c in [
            '\u{061c}',
            '\u{e0041}',
            '\u{180e}',
            '\u{ad}',
            '\u{34f}',
            '\u{fe0f}',
        ] {
            assert!(is_unsafe(c), "{c:?}");
            assert_eq!(
                escape(&format!("a{c}b")),
                format!("a{}b", c.escape_unicode())
            );
        }
        assert_eq!(escape("Ninety-Nine ♠ é"), "Ninety-Nine ♠ é");
    }

    #[test]
    fn long_text_is_clipped() {
        assert_eq!(clip("abc", 5), "abc");
        assert_eq!(clip("abcdef", 4), "abc…");
        assert_eq!(clip("ééééé", 3), "éé…");
    }
}
