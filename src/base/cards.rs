//! The card vocabulary: ranks, suits, their names, and how a card is encoded in a byte.
//!
//! A card is `copy * 56 + rank * 4 + suit`: ranks 0 to 12 are A to K, 13 is the joker (`X`),
//! whose four "suits" are the four jokers a deck can hold. Up to four copies of the deck fit
//! in a byte.

/// Ranks: `A 2 3 4 5 6 7 8 9 10 J Q K` are 0 to 12, the joker `X` is 13.
pub const RANKS: usize = 14;
/// The joker's rank index.
pub const JOKER: u8 = 13;
pub const RANK_NAMES: [&str; RANKS] = [
    "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "X",
];
pub const RANK_WORDS: [&str; RANKS] = [
    "Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Joker",
];
pub const SUITS: [char; 4] = ['S', 'H', 'D', 'C'];
/// The most jokers one deck holds: the encoding has four joker slots a copy.
pub const MAX_JOKERS: usize = 4;
/// Codes one copy of the deck spans.
pub const COPY: u8 = 56;

/// A card: `copy * 56 + rank * 4 + suit`.
pub type Card = u8;

/// Each code's rank and face (its code in the first copy), read from a table: the engine
/// asks for them on every card of every hand, and a division per question shows.
const FACES: [[u8; 2]; 256] = {
    let mut t = [[0u8; 2]; 256];
    let mut c = 0;
    while c < 256 {
        let face = (c % COPY as usize) as u8;
        t[c] = [face / 4, face];
        c += 1;
    }
    t
};

#[inline]
pub fn rank_of(card: Card) -> u8 {
    FACES[usize::from(card)][0]
}

#[inline]
pub fn suit_of(card: Card) -> u8 {
    card % 4
}

/// Whether two cards are the same card of different decks (or the same card).
#[inline]
pub fn same_face(a: Card, b: Card) -> bool {
    FACES[usize::from(a)][1] == FACES[usize::from(b)][1]
}

/// `AS`, `10H`, `XD`.
pub fn card_name(card: Card) -> String {
    format!(
        "{}{}",
        RANK_NAMES[usize::from(rank_of(card))],
        SUITS[usize::from(suit_of(card))]
    )
}

/// Parses a card rank as written: `A`, `10`, `T`, `k`, `Queen`, `X`.
pub fn parse_rank(word: &str) -> Option<u8> {
    let w = word.to_ascii_uppercase();
    let rank = match w.as_str() {
        "A" | "ACE" | "ACES" => 0,
        "T" | "10" => 9,
        "J" | "JACK" | "JACKS" => 10,
        "Q" | "QUEEN" | "QUEENS" => 11,
        "K" | "KING" | "KINGS" => 12,
        "X" | "JOKER" | "JOKERS" => 13,
        n => match n.parse::<u8>() {
            Ok(v @ 2..=9) => v - 1,
            _ => return None,
        },
    };
    Some(rank)
}

/// Reads `9H`, `10h`, `TH`, `XS` (no choice part): rank and suit, the copy left at 0.
pub fn parse_card(text: &str) -> Option<Card> {
    let text = text.trim();
    let suit_char = text.chars().last()?;
    if !suit_char.is_ascii() {
        return None;
    }
    let suit = SUITS
        .iter()
        .position(|s| *s == suit_char.to_ascii_uppercase())? as u8;
    let rank = parse_rank(&text[..text.len() - 1])?;
    Some(rank * 4 + suit)
}

/// Reads `9H KS 4D` into cards.
pub fn parse_cards(text: &str) -> Result<Vec<Card>, String> {
    text.split_whitespace()
        .map(|w| {
            parse_card(w).ok_or_else(|| {
                format!("`{w}` is not a card: write a rank and a suit, like `9H` or `10S`")
            })
        })
        .collect()
}

/// The number a card shows: Ace 1, 2 to 10, Jack 11, Queen 12, King 13, Joker 0.
pub fn face_value(rank: u8) -> i32 {
    if rank == JOKER {
        0
    } else {
        i32::from(rank) + 1
    }
}

/// Every card of `decks` decks with `jokers` jokers each, in a fixed order: deck by deck,
/// rank by rank, suit by suit, then the jokers.
pub fn full_deck(decks: u8, jokers: u8) -> impl Iterator<Item = Card> {
    let jokers = jokers.min(MAX_JOKERS as u8);
    (0..decks).flat_map(move |copy| {
        (0..52u8)
            .chain((0..jokers).map(|j| JOKER * 4 + j))
            .map(move |c| copy * COPY + c)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_face_table_is_the_encoding() {
        for code in 0..=u8::MAX {
            assert_eq!(rank_of(code), (code % COPY) / 4, "{code}");
            for other in 0..=u8::MAX {
                assert_eq!(same_face(code, other), code % COPY == other % COPY);
            }
        }
    }

    #[test]
    fn cards_read_and_write_back() {
        for text in ["AS", "10H", "TD", "kc", "XS", "9h"] {
            let card = parse_card(text).expect(text);
            let name = card_name(card);
            assert_eq!(parse_card(&name), Some(card), "{text} -> {name}");
        }
        assert_eq!(parse_card("TD").map(card_name).as_deref(), Some("10D"));
        assert_eq!(parse_card("1H"), None);
        assert_eq!(parse_card("9"), None);
        assert_eq!(parse_card("9é"), None);
        assert_eq!(parse_card(""), None);
    }

    #[test]
    fn ranks_and_faces() {
        assert_eq!(parse_rank("Queen"), Some(11));
        assert_eq!(parse_rank("joker"), Some(JOKER));
        assert_eq!(parse_rank("11"), None);
        assert_eq!(face_value(0), 1);
        assert_eq!(face_value(12), 13);
        assert_eq!(face_value(JOKER), 0);
    }

    #[test]
    fn a_deck_holds_each_card_once() {
        let deck: Vec<Card> = full_deck(2, 3).collect();
        assert_eq!(deck.len(), 2 * 55);
        let mut sorted = deck.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), deck.len());
        assert_eq!(deck.iter().filter(|c| rank_of(**c) == JOKER).count(), 6);
        // The encoding holds four jokers a deck, however many are asked for.
        assert_eq!(full_deck(1, 9).count(), 56);
    }
}
