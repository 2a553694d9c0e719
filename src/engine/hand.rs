//! A hand and the discard pile: cards, and how many of each rank they hold, kept as the
//! cards come and go (a bot counting the cards it has seen reads the count). Each is saved
//! as its cards alone; the count is made again on loading, so it cannot disagree with them.

use crate::base::cards::{Card, rank_counts, rank_one, same_face};
use crate::ir::MAX_HAND;

/// A hand: a few cards in a fixed array, and how many of each rank it holds, kept as cards
/// come and go (a bot counting the cards it has seen reads the count, not the hand). Made
/// from its cards alone ([`Hand::of`], [`Hand::from_slots`]): the count is made from them,
/// so it cannot disagree with them.
#[derive(Debug, Clone, Copy, Default)]
pub struct Hand {
    cards: [Card; MAX_HAND],
    len: u8,
    ranks: u128,
}

impl PartialEq for Hand {
    /// Two hands are equal when they hold the same cards in the same order: what the slots
    /// past a hand's cards hold is no part of it.
    fn eq(&self, other: &Hand) -> bool {
        self.len == other.len && self.cards() == other.cards()
    }
}

impl Eq for Hand {}

impl Hand {
    /// A hand of these cards, or `None` for more than a hand holds.
    pub fn of(cards: &[Card]) -> Option<Hand> {
        if cards.len() > MAX_HAND {
            return None;
        }
        let mut slots = [0; MAX_HAND];
        slots[..cards.len()].copy_from_slice(cards);
        Hand::from_slots(slots, cards.len() as u8)
    }

    /// A hand of these slots, the first `len` holding its cards; `None` for a length past
    /// the slots.
    pub fn from_slots(cards: [Card; MAX_HAND], len: u8) -> Option<Hand> {
        (usize::from(len) <= MAX_HAND).then(|| Hand {
            ranks: rank_counts(&cards[..usize::from(len)]),
            cards,
            len,
        })
    }
}

impl Hand {
    #[inline]
    pub fn cards(&self) -> &[Card] {
        &self.cards[..usize::from(self.len)]
    }
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// How many cards of each rank the hand holds ([`rank_counts`] of its cards).
    #[inline(always)]
    pub fn ranks(&self) -> u128 {
        self.ranks
    }

    /// Every slot of the hand, those past its cards included (what they hold is stale): for
    /// a loop that reads a fixed number of slots and masks the ones past [`Hand::len`].
    #[inline(always)]
    pub(super) fn slots(&self) -> &[Card; MAX_HAND] {
        &self.cards
    }

    pub(super) fn push(&mut self, c: Card) {
        if usize::from(self.len) < MAX_HAND {
            self.cards[usize::from(self.len)] = c;
            self.len += 1;
            self.ranks = self.ranks.wrapping_add(rank_one(c));
        }
    }
    /// Takes out the card at `index`; the cards after it move up (hand order is what moves
    /// follow). The hand is moved as one 128-bit number, without a branch on `index`: which
    /// card a player lays is as good as random, and a mispredicted loop costs more than this
    /// (measured: fewer mispredictions, about as many instructions).
    #[inline(always)]
    pub(super) fn remove(&mut self, index: usize) -> Card {
        let c = self.cards[index];
        let all = self.word();
        let before = (1u128 << (8 * index)) - 1;
        let moved = (all & before) | ((all >> 8) & !before);
        self.cards.copy_from_slice(&moved.to_le_bytes()[..MAX_HAND]);
        self.len -= 1;
        self.ranks = self.ranks.wrapping_sub(rank_one(c));
        c
    }

    /// [`Hand::remove`] of a card in one of the first eight slots, the same slots after it:
    /// those eight moved as one 64-bit number, the two beyond them by hand.
    #[inline(always)]
    pub(super) fn remove_early(&mut self, index: usize) -> Card {
        const _: () = assert!(MAX_HAND == 10, "two slots past the first eight");
        let index = index & 7;
        let c = self.cards[index];
        let mut low = [0u8; 8];
        low.copy_from_slice(&self.cards[..8]);
        let word = u64::from_le_bytes(low);
        let before = (1u64 << (8 * index)) - 1;
        let moved = (word & before) | ((word >> 8) & !before) | u64::from(self.cards[8]) << 56;
        self.cards[..8].copy_from_slice(&moved.to_le_bytes());
        self.cards[8] = self.cards[9];
        self.cards[9] = 0;
        self.len -= 1;
        self.ranks = self.ranks.wrapping_sub(rank_one(c));
        c
    }

    /// The hand's slots as one number, slot `i` in byte `i`: the slots past its cards as
    /// they are, the bytes past `MAX_HAND` zero.
    #[inline(always)]
    fn word(&self) -> u128 {
        const _: () = assert!(MAX_HAND <= 16, "a hand fits in 128 bits");
        let mut bytes = [0u8; 16];
        bytes[..MAX_HAND].copy_from_slice(&self.cards);
        u128::from_le_bytes(bytes)
    }

    /// Where a copy of `card`'s face is in the hand (the first one).
    #[inline(always)]
    pub fn find(&self, card: Card) -> Option<usize> {
        self.cards().iter().position(|c| same_face(*c, card))
    }

    /// [`Hand::find`] for a game with one card of each face: `card` itself is looked for in
    /// all the hand at once (a byte-wise compare of one 128-bit number), with no loop whose
    /// exit depends on which card was chosen; another code of its face, as `find` does.
    #[inline(always)]
    pub fn find_single(&self, card: Card) -> Option<usize> {
        const ONES: u128 = u128::MAX / 0xff;
        // Zero bytes where the hand holds `card`; the lowest zero byte is found exactly.
        let x = self.word() ^ (u128::from(card) * ONES);
        let zero = x.wrapping_sub(ONES) & !x & (ONES << 7);
        let at = (zero.trailing_zeros() / 8) as usize;
        if at < usize::from(self.len) {
            Some(at)
        } else {
            self.find(card)
        }
    }

    /// Adds `n` of `cards` to the hand, as many as it has room for: `cards[at]`, then every
    /// `step`-th card below it; its count by rank made once.
    #[inline]
    pub(super) fn deal_every(&mut self, cards: &[Card], at: usize, step: usize, n: usize) {
        let len = usize::from(self.len).min(MAX_HAND);
        let room = &mut self.cards[len..];
        let n = n.min(room.len());
        let mut ranks = self.ranks;
        let mut at = at;
        let mut dealt = 0;
        for slot in &mut room[..n] {
            let Some(&c) = cards.get(at) else {
                break;
            };
            *slot = c;
            ranks = ranks.wrapping_add(rank_one(c));
            at = at.wrapping_sub(step);
            dealt += 1;
        }
        self.len = (len + dealt) as u8;
        self.ranks = ranks;
    }

    pub(super) fn clear(&mut self) {
        self.len = 0;
        self.ranks = 0;
    }
}

/// The discard pile: its cards, top last, and how many of each rank it holds, kept as cards
/// come and go (a bot counting the cards seen reads the count, not the pile). Made from its
/// cards alone (`From<Vec<Card>>`): the count is made from them, so it cannot disagree.
#[derive(Debug, PartialEq, Eq, Default)]
pub struct Pile {
    cards: Vec<Card>,
    ranks: u128,
}

impl Clone for Pile {
    fn clone(&self) -> Pile {
        Pile {
            cards: self.cards.clone(),
            ranks: self.ranks,
        }
    }

    /// Keeps this pile's buffer: a search copies games without allocating.
    fn clone_from(&mut self, other: &Pile) {
        self.cards.clone_from(&other.cards);
        self.ranks = other.ranks;
    }
}

impl From<Vec<Card>> for Pile {
    fn from(cards: Vec<Card>) -> Pile {
        Pile {
            ranks: rank_counts(&cards),
            cards,
        }
    }
}

impl From<Pile> for Vec<Card> {
    fn from(pile: Pile) -> Vec<Card> {
        pile.cards
    }
}

impl std::ops::Deref for Pile {
    type Target = [Card];
    #[inline(always)]
    fn deref(&self) -> &[Card] {
        &self.cards
    }
}

impl Pile {
    /// An empty pile with room for `n` cards.
    pub fn with_capacity(n: usize) -> Pile {
        Pile {
            cards: Vec::with_capacity(n),
            ranks: 0,
        }
    }

    /// How many cards of each rank the pile holds ([`rank_counts`] of its cards).
    #[inline(always)]
    pub fn ranks(&self) -> u128 {
        self.ranks
    }

    #[inline(always)]
    pub(super) fn push(&mut self, card: Card) {
        self.cards.push(card);
        self.ranks = self.ranks.wrapping_add(rank_one(card));
    }

    #[inline]
    pub(super) fn pop(&mut self) -> Option<Card> {
        let card = self.cards.pop()?;
        self.ranks = self.ranks.wrapping_sub(rank_one(card));
        Some(card)
    }

    pub(super) fn extend(&mut self, cards: impl IntoIterator<Item = Card>) {
        for c in cards {
            self.push(c);
        }
    }

    /// Empties the pile, with room for `n` cards.
    pub(super) fn clear_for(&mut self, n: usize) {
        self.cards.clear();
        self.cards.reserve(n);
        self.ranks = 0;
    }

    /// Moves every card to the end of `to`, in order, leaving the pile empty.
    pub(super) fn move_into(&mut self, to: &mut Vec<Card>) {
        to.append(&mut self.cards);
        self.ranks = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_deck_hand_finds_a_card_where_find_does() {
        // Hands from one deck made from a fixed sequence, a card removed on the way
        // (so stale codes lie past its end), and every code asked for.
        let mut x: u32 = 12345;
        for _ in 0..3000 {
            let mut hand = Hand::default();
            let len = 1 + (x % MAX_HAND as u32) as usize;
            for _ in 0..len + 2 {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                let c = ((x >> 16) % u32::from(crate::base::cards::COPY)) as u8;
                if !hand.cards().contains(&c) {
                    hand.push(c);
                }
            }
            if hand.len() > 1 {
                hand.remove((x as usize >> 8) % hand.len());
            }
            for card in 0..=u8::MAX {
                assert_eq!(
                    hand.find_single(card),
                    hand.find(card),
                    "{card} in {hand:?}"
                );
            }
        }
    }

    #[test]
    fn a_card_taken_from_the_first_eight_slots_leaves_the_slots_remove_leaves() {
        let mut x: u32 = 99;
        for _ in 0..5000 {
            let mut hand = Hand::default();
            for _ in 0..=(x % MAX_HAND as u32) {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                hand.push((x >> 16) as u8);
            }
            // Stale slots past the cards, as a game leaves them.
            if hand.len() > 2 && x & 1 == 0 {
                hand.remove(0);
            }
            for index in 0..hand.len().min(8) {
                let (mut a, mut b) = (hand, hand);
                assert_eq!(a.remove(index), b.remove_early(index));
                assert_eq!(a, b, "{hand:?}, slot {index}");
            }
        }
    }

    #[test]
    fn a_card_taken_from_a_hand_leaves_the_others_in_order() {
        for len in 1..=MAX_HAND {
            for index in 0..len {
                let mut hand = Hand::default();
                for c in 0..len as u8 {
                    hand.push(c + 1);
                }
                assert_eq!(hand.remove(index), index as u8 + 1);
                let expected: Vec<Card> =
                    (1..=len as u8).filter(|&c| c != index as u8 + 1).collect();
                assert_eq!(
                    hand.cards(),
                    expected.as_slice(),
                    "{len} cards, taking {index}"
                );
                assert_eq!(
                    hand.find(expected.last().copied().unwrap_or(0)).is_some(),
                    len > 1
                );
            }
        }
    }

    #[test]
    fn the_discard_piles_count_follows_its_cards_and_is_made_again_on_loading() {
        let mut pile = Pile::with_capacity(8);
        let mut stock = Vec::new();
        let mut x = 7u32;
        for step in 0..2000 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let card = (x >> 16) as u8 % 56;
            match step % 7 {
                0 => {
                    pile.pop();
                }
                6 => pile.move_into(&mut stock),
                3 => pile.extend([card, card / 2]),
                _ => pile.push(card),
            }
            assert_eq!(pile.ranks(), rank_counts(&pile), "after step {step}");
        }
        pile.extend([1, 2, 3, 52]);
        // A pile is made from its cards alone: the count cannot be told apart from them.
        let loaded = Pile::from(pile.to_vec());
        assert_eq!(loaded, pile);
        assert_eq!(loaded.ranks(), rank_counts(&loaded));
    }

    #[test]
    fn a_hands_count_follows_its_cards_and_is_made_again_on_loading() {
        let mut hand = Hand::default();
        let mut x = 11u32;
        for step in 0..3000 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let card = (x >> 16) as u8 % 224;
            match (x >> 8) % 9 {
                0 => hand.clear(),
                1..=3 if !hand.is_empty() => {
                    hand.remove(usize::from(card) % hand.len());
                }
                // A full hand takes no more: nor does its count.
                _ => hand.push(card),
            }
            assert_eq!(hand.ranks(), rank_counts(hand.cards()), "after step {step}");
        }
        for c in [0, 4, 52, 55, 57] {
            hand.push(c);
        }
        // Made from its cards alone, its count follows.
        let loaded = Hand::of(hand.cards()).expect("a hand");
        assert_eq!(loaded, hand);
        assert_eq!(loaded.ranks(), rank_counts(loaded.cards()));
        assert_eq!(Hand::of(&[1; MAX_HAND + 1]), None);
        // A length past the slots makes no hand.
        assert_eq!(Hand::from_slots([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 200), None);
        let full = Hand::from_slots([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 10).expect("a hand");
        assert_eq!(full.ranks(), rank_counts(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
    }
}
