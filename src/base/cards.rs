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

/// Per card: one in the byte of its rank (bits `8r` to `8r + 7`). Counting a pile by rank
/// is then one addition a card, with no store to wait for: see [`rank_counts`].
const RANK_ONE: [u128; 256] = {
    let mut t = [0u128; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = 1u128 << (8 * FACES[c][0] as u32);
        c += 1;
    }
    t
};

/// [`rank_counts`] of the one card `card`: adding or taking it from a pile's counts.
#[inline(always)]
pub fn rank_one(card: Card) -> u128 {
    RANK_ONE[usize::from(card)]
}

/// How many cards of each rank `cards` holds, rank `r` in the byte at bits `8r` to
/// `8r + 7`; read one with [`rank_count`]. A game has at most 4 decks of 56 cards, so no
/// count reaches 256 (beyond that the bytes wrap, they never panic).
#[inline]
pub fn rank_counts(cards: &[Card]) -> u128 {
    cards
        .iter()
        .fold(0u128, |n, &c| n.wrapping_add(RANK_ONE[usize::from(c)]))
}

/// The count of rank `r` in [`rank_counts`]'s answer.
#[inline(always)]
pub fn rank_count(counts: u128, r: usize) -> u8 {
    (counts >> (8 * (r % RANKS))) as u8
}

/// The high bit of each rank's byte.
const HIGH: u128 = 0x8080_8080_8080_8080_8080_8080_8080;

/// `a - b`, rank by rank, a count below zero read as none: for counts below 128 (a game
/// holds at most 16 cards of a rank).
#[inline(always)]
pub fn rank_counts_less(a: u128, b: u128) -> u128 {
    // With each byte of `a` lifted by 128, no byte borrows from the next; a byte whose high
    // bit is then clear went below zero.
    let d = (a | HIGH).wrapping_sub(b);
    let kept = (d & HIGH) >> 7;
    (d & !HIGH) & kept.wrapping_mul(0xff)
}

/// Per 8 bits of a rank set: those ranks' bytes all ones.
const BYTE_MASKS: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut m = 0;
    while m < 256 {
        let mut b = 0;
        while b < 8 {
            if m >> b & 1 != 0 {
                t[m] |= 0xff << (8 * b);
            }
            b += 1;
        }
        m += 1;
    }
    t
};

/// The sum of the counts of the ranks in `ranks` (bit `r` for rank `r`): a few operations,
/// no loop. For counts that add up to less than 256, as those of any pile of a game do (at
/// most 4 decks of 56 cards); beyond that the sum wraps, it never panics.
#[inline(always)]
pub fn rank_sum(counts: u128, ranks: u16) -> u32 {
    let lo = counts as u64 & BYTE_MASKS[usize::from(ranks & 0xff)];
    let hi = (counts >> 64) as u64 & BYTE_MASKS[usize::from(ranks >> 8)];
    // Below 256 in all, no byte carries into the next: the two halves add byte by byte, and
    // the top byte of the product is the sum of all eight.
    (lo.wrapping_add(hi).wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

/// A card's face: its code in the first copy of the deck (below [`COPY`]).
#[inline(always)]
pub fn face_of(card: Card) -> u8 {
    FACES[usize::from(card)][1]
}

/// Whether two cards are the same card of different decks (or the same card).
#[inline]
pub fn same_face(a: Card, b: Card) -> bool {
    FACES[usize::from(a)][1] == FACES[usize::from(b)][1]
}

/// The cards of `hand` that repeat the face of a card before them (a copy from another
/// deck), four bits a card in hand order (`0xf << 4 * i` for card `i`, of the first sixteen):
/// with several decks two copies are one move, and this masks the second out of a set of
/// plays kept four bits a card. One pass with the faces seen as bits (a face is below 56):
/// no branch depends on the cards.
#[inline]
pub fn repeats(hand: &[Card]) -> u64 {
    const _: () = assert!(COPY <= 64);
    let mut seen = 0u64;
    let mut mask = 0u64;
    for (i, &card) in hand.iter().enumerate().take(16) {
        let face = FACES[usize::from(card)][1];
        mask |= ((seen >> face) & 1) * (0xf << (4 * i));
        seen |= 1 << face;
    }
    mask
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
/// rank by rank, suit by suit, then the jokers. An iterator, for callers that must not
/// allocate (the invariant check after every step of a debug build).
pub fn full_deck(decks: u8, jokers: u8) -> impl Iterator<Item = Card> {
    let jokers = jokers.min(MAX_JOKERS as u8);
    (0..decks).flat_map(move |copy| {
        (0..52u8)
            .chain((0..jokers).map(|j| JOKER * 4 + j))
            .map(move |c| copy * COPY + c)
    })
}

/// [`full_deck`], in order, onto the end of `out`: the deck of every game, by plain loops
/// (collecting the iterator cost 36 instructions a card). The test
/// `a_deck_put_into_a_list_is_the_deck_in_order` holds the two to one order.
pub fn full_deck_into(decks: u8, jokers: u8, out: &mut Vec<Card>) {
    let jokers = jokers.min(MAX_JOKERS as u8);
    out.reserve(usize::from(decks) * (52 + usize::from(jokers)));
    for copy in 0..decks {
        let base = copy * COPY;
        out.extend((0..52u8).map(|c| base + c));
        out.extend((0..jokers).map(|j| base + JOKER * 4 + j));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeats_marks_each_card_whose_face_came_before() {
        // Hands drawn from four decks with jokers, by a fixed sequence (xorshift).
        let deck: Vec<Card> = full_deck(4, 4).collect();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..5000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x % 11) as usize;
            // Few faces, so that copies are common.
            let hand: Vec<Card> = (0..len)
                .map(|i| {
                    deck[((x >> (5 * i)) % 8) as usize * 56 / 8 % deck.len()
                        + (x >> (3 * i) & 1) as usize * 56]
                })
                .collect();
            let plain: u64 = (0..len)
                .filter(|&i| hand[..i].iter().any(|&c| same_face(c, hand[i])))
                .map(|i| 0xf << (4 * i))
                .sum();
            assert_eq!(repeats(&hand), plain, "{hand:?}");
        }
        assert_eq!(repeats(&[]), 0);
        let single: Vec<Card> = full_deck(1, 4).collect();
        assert_eq!(repeats(&single[..10]), 0, "one deck has no copies");
    }

    #[test]
    fn a_deck_put_into_a_list_is_the_deck_in_order() {
        for decks in 0..=4 {
            for jokers in 0..=9 {
                let mut out = vec![7];
                full_deck_into(decks, jokers, &mut out);
                let mut expected = vec![7];
                expected.extend(full_deck(decks, jokers));
                assert_eq!(out, expected, "{decks} decks, {jokers} jokers");
            }
        }
    }

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
    fn rank_counts_are_counts() {
        let deck: Vec<Card> = full_deck(4, 4).collect();
        for cards in [
            &deck[..],
            &deck[..7],
            &deck[100..131],
            &[][..],
            &[255, 0, 255][..],
        ] {
            let counts = rank_counts(cards);
            for r in 0..RANKS {
                let n = cards
                    .iter()
                    .filter(|c| usize::from(rank_of(**c)) == r)
                    .count();
                assert_eq!(usize::from(rank_count(counts, r)), n, "rank {r}");
            }
        }
    }

    #[test]
    fn rank_counts_subtract_and_sum() {
        let deck: Vec<Card> = full_deck(4, 4).collect();
        let full = rank_counts(&deck);
        for (i, j) in [(0, 0), (0, 7), (10, 60), (0, 224), (3, 131)] {
            let seen = rank_counts(&deck[i..j]);
            let rest = rank_counts_less(full, seen);
            for r in 0..RANKS {
                let left = rank_count(full, r) - rank_count(seen, r);
                assert_eq!(rank_count(rest, r), left, "rank {r}");
            }
            for ranks in [
                0u16,
                1,
                0b1010,
                0x3fff,
                0x2001,
                0xffff,
                1 << 13,
                0x00ff,
                0x3f00,
            ] {
                let sum: u32 = (0..RANKS)
                    .filter(|r| ranks >> r & 1 != 0)
                    .map(|r| u32::from(rank_count(rest, r)))
                    .sum();
                assert_eq!(rank_sum(rest, ranks), sum, "ranks {ranks:#x}");
            }
        }
        // Below zero is none.
        // One ace, one two, two threes; less four aces and a two.
        let few = rank_counts(&[0, 4, 8, 9]);
        let many = rank_counts(&[0, 1, 2, 3, 5]);
        let rest = rank_counts_less(few, many);
        assert_eq!(rank_count(rest, 0), 0);
        assert_eq!(rank_count(rest, 1), 0);
        assert_eq!(rank_count(rest, 2), 2);
        assert_eq!(rank_sum(rest, 0xffff), 2);
        assert_eq!(rank_sum(rank_counts(&deck), 0xffff), 224);
        // Every set of ranks, from the biggest deck there is.
        for ranks in 0..=u16::MAX {
            let sum: u32 = (0..RANKS)
                .filter(|r| ranks >> r & 1 != 0)
                .map(|r| u32::from(rank_count(full, r)))
                .sum();
            assert_eq!(rank_sum(full, ranks), sum, "ranks {ranks:#x}");
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
