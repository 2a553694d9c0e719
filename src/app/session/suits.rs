//! Cards as a terminal with colour shows them: `10♦` in red, `K♠` in the terminal's own
//! colour. Everything in backticks is left as it is, since backticks mark what a player types
//! (`10D`, `AS:11`) and the rules' own words; without colour every card stays in letters.

use std::borrow::Cow;

/// A suit's symbol and whether it is red, by its letter.
fn symbol(letter: u8) -> Option<(char, bool)> {
    Some(match letter {
        b'S' => ('♠', false),
        b'H' => ('♥', true),
        b'D' => ('♦', true),
        b'C' => ('♣', false),
        _ => return None,
    })
}

/// Whether a byte joins the characters around it into one word, or a file's name: a card's
/// name is a word of its own (`KD`, `10D:-10`, `KD.`), never part of a longer one (`KDS`,
/// `AS.json`, `saves/KD/`).
fn joins(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'/' | b'\\' | b'-' | b'.' | b'$' | b'~')
}

/// The length of a card's name at the start of `s` (`10D`, `KS`; a joker has no suit to
/// show), when a word ends there.
fn card_at(s: &[u8]) -> Option<usize> {
    let rank = match s {
        [b'1', b'0', ..] => 2,
        [b'2'..=b'9' | b'A' | b'J' | b'Q' | b'K', ..] => 1,
        _ => return None,
    };
    symbol(*s.get(rank)?)?;
    match s.get(rank + 1..) {
        // A full stop ends a sentence, unless a word goes on after it (`KD.json`).
        Some([b'.', next, ..]) if joins(*next) && *next != b'.' => None,
        Some([b'.', ..]) => Some(rank + 1),
        Some([next, ..]) if joins(*next) => None,
        _ => Some(rank + 1),
    }
}

/// Typed suits as letters: `10♦` is read as `10D` (a symbol pasted from the screen).
pub(super) fn typed(line: &str) -> Cow<'_, str> {
    if !line.contains(['♠', '♥', '♦', '♣']) {
        return Cow::Borrowed(line);
    }
    Cow::Owned(
        line.chars()
            // The emoji form of a symbol: the letter is all that counts.
            .filter(|c| *c != '\u{FE0F}')
            .map(|c| match c {
                '♠' => 'S',
                '♥' => 'H',
                '♦' => 'D',
                '♣' => 'C',
                c => c,
            })
            .collect(),
    )
}

/// `text` with each card's suit as its symbol, outside backticks. With `key` (the session's
/// paint key: see [`crate::base::text::paint_key`]) red suits are painted red, and a colour
/// the card sat in goes on after it; with no key, only the symbols change.
pub(super) fn shown(text: &str, key: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    // The colour painted where the text is now, to go back to after a red card.
    let mut outer: Option<&str> = None;
    let mut quoted = false;
    let pieces: Vec<&str> = if key.is_empty() {
        vec![text]
    } else {
        text.split(key).collect()
    };
    for (i, piece) in pieces.iter().enumerate() {
        let mut rest = *piece;
        if i > 0 {
            // A piece after a key starts with the colour's code, up to its `m`.
            let end = rest.find('m').map_or(rest.len(), |m| m + 1);
            let code = &rest[..end];
            out.push_str(key);
            out.push_str(code);
            let number = code.trim_end_matches('m');
            outer = (number != "0").then_some(number);
            rest = &rest[end..];
        }
        let bytes = rest.as_bytes();
        let mut at = 0;
        let mut word_start = true;
        while at < bytes.len() {
            let b = bytes[at];
            if b == b'\n' {
                quoted = false;
            } else if b == b'`' {
                quoted = !quoted;
            }
            if word_start
                && !quoted
                && let Some(len) = card_at(&bytes[at..])
            {
                let rank = &rest[at..at + len - 1];
                if let Some((suit, red)) = symbol(bytes[at + len - 1]) {
                    if red && !key.is_empty() {
                        out.push_str(&format!("{key}31m{rank}{suit}{key}0m"));
                        if let Some(code) = outer {
                            out.push_str(&format!("{key}{code}m"));
                        }
                    } else {
                        out.push_str(rank);
                        out.push(suit);
                    }
                    at += len;
                    word_start = false;
                    continue;
                }
            }
            // Copy one character whole (the text is UTF-8).
            let len = rest[at..].chars().next().map_or(1, char::len_utf8);
            out.push_str(&rest[at..at + len]);
            word_start = !(joins(b) && b != b'.' || len > 1);
            at += len;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards_get_their_suits_and_words_stay_words() {
        let plain = |t: &str| shown(t, "");
        assert_eq!(plain("You play 10D: total 35."), "You play 10♦: total 35.");
        assert_eq!(
            plain("Legal moves: KS JD AH:1 AH:11 8C."),
            "Legal moves: K♠ J♦ A♥:1 A♥:11 8♣."
        );
        assert_eq!(plain("  1. KS   → 13"), "  1. K♠   → 13");
        // What is typed, and the rules' words, in backticks: as they are.
        assert_eq!(
            plain("JD: add 10 (line 33: `card JD: add 10`). Type `10D:-10`."),
            "J♦: add 10 (line 33: `card JD: add 10`). Type `10D:-10`."
        );
        // Not cards: part of a longer word, a joker, a lower-case word, a number.
        for t in [
            "ASK", "10DS", "X10D", "110D", "XS", "as", "jd", "Round 10", "3Dx", "é3D",
        ] {
            assert_eq!(plain(t), t);
        }
        // A file's name: as it is.
        for t in [
            "Saved to /tmp/AS.json.",
            "KD.json",
            "saves/KD/x",
            "~/QH",
            "$QH",
            "a-KD",
            "KD-b",
        ] {
            assert_eq!(plain(t), t);
        }
        assert_eq!(plain("Played: KD. Then 9H..."), "Played: K♦. Then 9♥...");
        // A backtick left open ends with its line.
        assert_eq!(plain("`odd\n9H"), "`odd\n9♥");
    }

    #[test]
    fn red_suits_are_painted_and_the_colour_around_them_goes_on() {
        let k = "<k>";
        assert_eq!(shown("9H and KS", k), "<k>31m9♥<k>0m and K♠");
        assert_eq!(
            shown("<k>2mAH:1 → 106 (illegal)<k>0m then QD", k),
            "<k>2m<k>31mA♥<k>0m<k>2m:1 → 106 (illegal)<k>0m then <k>31mQ♦<k>0m"
        );
        // A card right after a colour's code is a word of its own.
        assert_eq!(shown("<k>1m10C<k>0m", k), "<k>1m10♣<k>0m");
    }

    #[test]
    fn symbols_typed_are_read_as_letters() {
        assert_eq!(typed("10♦"), "10D");
        assert_eq!(typed("a♥:11"), "aH:11");
        assert_eq!(typed("K♠\u{FE0F}"), "KS");
        assert!(matches!(typed("KS"), Cow::Borrowed("KS")));
    }
}
