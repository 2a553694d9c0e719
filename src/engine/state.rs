//! A game's whole state as plain data (hands in fixed arrays, seats as bit sets), the legal
//! moves list that lives on the stack, and the questions about the table every stage asks.

use serde::{Deserialize, Serialize};

use crate::base::Rng;
use crate::base::cards::{Card, card_name, rank_counts, rank_one, same_face};
use crate::ir::{self, MAX_CHOICES, MAX_HAND, MAX_SEATS, Program};

/// A hand: a few cards in a fixed array, and how many of each rank it holds, kept as cards
/// come and go (a bot counting the cards it has seen reads the count, not the hand). Saved as
/// its cards alone, as before the count was kept; the count is made again on loading, so it
/// cannot disagree with them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(from = "HandCards", into = "HandCards")]
pub struct Hand {
    cards: [Card; MAX_HAND],
    len: u8,
    ranks: u128,
}

/// A hand as saved: its slots and how many hold a card.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct HandCards {
    cards: [Card; MAX_HAND],
    len: u8,
}

impl From<HandCards> for Hand {
    fn from(h: HandCards) -> Hand {
        Hand {
            // A length past the slots is refused by the checks of a loaded game; the count
            // is of the slots there are.
            ranks: rank_counts(&h.cards[..usize::from(h.len).min(MAX_HAND)]),
            cards: h.cards,
            len: h.len,
        }
    }
}

impl From<Hand> for HandCards {
    fn from(h: Hand) -> HandCards {
        HandCards {
            cards: h.cards,
            len: h.len,
        }
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
/// come and go (a bot counting the cards seen reads the count, not the pile). Saved as the
/// list of cards alone; the count is made again on loading, so it cannot disagree with them.
#[derive(Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(from = "Vec<Card>", into = "Vec<Card>")]
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

/// A move: lay a card with one of its choices, or draw (when players draw by hand).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Move {
    Play { card: Card, choice: u8 },
    Draw,
}

/// The legal moves of a position, on the stack.
#[derive(Debug, Clone, Copy)]
pub struct Moves {
    list: [Move; MAX_HAND * MAX_CHOICES + 1],
    /// The total each move makes.
    totals: [i32; MAX_HAND * MAX_CHOICES + 1],
    pub(super) len: usize,
}

impl Default for Moves {
    fn default() -> Self {
        Self::new()
    }
}

impl Moves {
    /// An empty list.
    pub fn new() -> Moves {
        Moves {
            // All zero bytes (`Play` is the first variant): the list is cleared in a few
            // stores.
            list: [Move::Play { card: 0, choice: 0 }; MAX_HAND * MAX_CHOICES + 1],
            totals: [0; MAX_HAND * MAX_CHOICES + 1],
            len: 0,
        }
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.list[..self.len]
    }
    /// The total after each move of [`Moves::as_slice`].
    #[inline]
    pub fn totals(&self) -> &[i32] {
        &self.totals[..self.len]
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline]
    pub(super) fn push(&mut self, m: Move, total: i32) {
        self.list[self.len] = m;
        self.totals[self.len] = total;
        self.len += 1;
    }
    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// Keeps the cards only (drops `draw`).
    pub fn retain_plays(&mut self) {
        if self.len > 0 && self.list[0] == Move::Draw {
            self.list.copy_within(1..self.len, 0);
            self.totals.copy_within(1..self.len, 0);
            self.len -= 1;
        }
    }
}

/// The whole state of a game: plain data, serialisable, copied for undo.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub seats: u8,
    pub hands: [Hand; MAX_SEATS],
    /// The stock; its top card is the last.
    pub stock: Vec<Card>,
    /// The discard pile; its top card is the last.
    pub discard: Pile,
    /// Cards out of play face up until the next deal (a reset pile): every player has seen them.
    pub aside: Vec<Card>,
    /// Cards out of play face down until the next deal (the hands of players out of the round,
    /// the deck a position left out of the stock): no player may know them.
    #[serde(default)]
    pub face_down: Vec<Card>,
    pub total: i32,
    pub clockwise: bool,
    pub turn: u8,
    /// Chips by account: a seat's own, or its team's (see [`State::account`]).
    pub chips: [i32; MAX_SEATS],
    pub bank: i32,
    pub pot: i32,
    pub round: u32,
    pub dealer: u8,
    /// Bit sets of seats.
    pub out_of_game: u16,
    pub out_of_round: u16,
    pub forgot: [u8; MAX_SEATS],
    /// A seat that has just played and may still draw (players draw by hand).
    pub pending_draw: Option<u8>,
    pub round_winner: Option<u8>,
    pub round_loser: Option<u8>,
    pub(super) round_over: bool,
    pub over: bool,
    pub winners: u16,
    pub turns: u64,
    /// More turns the player to move has after this one (`play again twice`).
    #[serde(default)]
    pub again: u8,
    /// By seat, the ranks the table knows that seat does not hold: a player who could not
    /// play and kept their cards holds none of the ranks that could be laid then (public
    /// knowledge, what a determinizer may use). Forgotten as the hand changes.
    #[serde(default)]
    pub known_not: [u16; MAX_SEATS],
    /// The seats put out of the game by the outcomes that ran last: when they were the last
    /// in it, they share the win.
    #[serde(default)]
    pub out_now: u16,
    /// The winners a line declared (`the player wins the game`), when one did.
    #[serde(default)]
    pub declared: u16,
    /// Who laid the card on top of the discard pile this round, and the one under it
    /// ([`NO_SEAT`] when no one has yet).
    #[serde(default = "nobody_laid")]
    pub laid_by: [u8; 2],
    /// The top of the stock at the next deal, top first (a position can fix it).
    #[serde(default)]
    pub next_deal: Vec<Card>,
    pub(super) rng: Rng,
    /// Set when the game stopped because it could not go on (it is `over`, with no winner).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stuck: Option<super::Stall>,
}

/// No seat: who laid a card that no one has laid yet.
pub const NO_SEAT: u8 = u8::MAX;

fn nobody_laid() -> [u8; 2] {
    [NO_SEAT; 2]
}

impl State {
    /// Chips of a seat are kept in its account: its own, or its team's.
    #[inline]
    pub fn account(&self, p: &Program, seat: u8) -> usize {
        match p.team_size {
            Some(size) if size > 0 => {
                usize::from(seat) % (usize::from(self.seats) / usize::from(size)).max(1)
            }
            _ => usize::from(seat),
        }
    }

    #[inline]
    pub fn chips_of(&self, p: &Program, seat: u8) -> i32 {
        self.chips[self.account(p, seat)]
    }

    #[inline]
    pub fn in_game(&self, seat: u8) -> bool {
        self.out_of_game & (1 << seat) == 0
    }

    #[inline]
    pub fn in_round(&self, seat: u8) -> bool {
        self.out_of_round & (1 << seat) == 0
    }

    /// How many teams (or players, without teams) have a seat not in `out`.
    #[inline]
    pub fn teams(&self, p: &Program, out: u16) -> u32 {
        if p.team_size.is_none_or(|size| size == 0) {
            // A seat's own account: the seats themselves.
            return seats_in(self.seat_mask() & !out) as u32;
        }
        let mut accounts = 0u16;
        for x in 0..self.seats {
            if out & (1 << x) == 0 {
                accounts |= 1 << self.account(p, x);
            }
        }
        accounts.count_ones()
    }

    #[inline]
    pub fn active(&self) -> usize {
        seats_in(self.seat_mask() & !self.out_of_round)
    }

    #[inline]
    pub fn seats_in_game(&self) -> usize {
        seats_in(self.seat_mask() & !self.out_of_game)
    }

    #[inline]
    fn seat_mask(&self) -> u16 {
        ((1u32 << self.seats) - 1) as u16
    }

    /// The effect a rank has now (it may depend on how many players are left).
    #[inline]
    pub fn effect<'p>(&self, p: &'p Program, rank: u8) -> Option<&'p ir::Effect> {
        p.effect_for(self.active(), rank)
    }
}

impl State {
    /// The next seat still in the round, `steps` seats on in the direction of play.
    #[inline]
    pub(super) fn next_seat(&self, from: u8, clockwise: bool) -> u8 {
        self.next_in(self.out_of_round, from, clockwise)
    }

    pub(super) fn next_in_game(&self, from: u8, clockwise: bool) -> u8 {
        self.next_in(self.out_of_game, from, clockwise)
    }

    /// The next seat not in `out`, going round the table (no division on the hot path).
    /// A walk, not bit arithmetic: the next seat is nearly always the first one looked at,
    /// so the loop is predicted and short, where a bit search lengthens every turn's chain
    /// (measured: about 5% slower).
    #[inline]
    fn next_in(&self, out: u16, from: u8, clockwise: bool) -> u8 {
        let last = self.seats - 1;
        let mut s = from;
        for _ in 0..self.seats {
            s = match (clockwise, s) {
                (true, s) if s >= last => 0,
                (true, s) => s + 1,
                (false, 0) => last,
                (false, s) => s - 1,
            };
            if out & (1 << s) == 0 {
                return s;
            }
        }
        from
    }
}

impl State {
    /// Every card is in exactly one place, and chips are conserved.
    pub fn check_invariants(&self, p: &Program) -> Result<(), String> {
        let n = usize::from(self.seats);
        if let Some(h) = self.hands.iter().find(|h| h.len() > MAX_HAND) {
            return Err(format!("a hand holds {} cards", h.len()));
        }
        // The counts by rank kept beside the cards, which the bots read.
        if let Some(seat) =
            (0..n).find(|&i| self.hands[i].ranks() != rank_counts(self.hands[i].cards()))
        {
            return Err(format!(
                "seat {seat}'s count by rank disagrees with its hand"
            ));
        }
        if self.discard.ranks() != rank_counts(&self.discard) {
            return Err("the discard pile's count by rank disagrees with its cards".into());
        }
        if let Some(seat) = self
            .laid_by
            .iter()
            .find(|&&x| x != NO_SEAT && usize::from(x) >= n)
        {
            return Err(format!(
                "the last cards were laid by seat {seat}, not at the table"
            ));
        }
        // As many cards as the deck holds: then no card can be counted so often that its
        // counter wraps.
        let held = self.hands[..n].iter().map(Hand::len).sum::<usize>()
            + self.stock.len()
            + self.discard.len()
            + self.aside.len()
            + self.face_down.len();
        if held != p.deck_size(n) {
            return Err(format!(
                "{held} cards are on the table, but the deck holds {}",
                p.deck_size(n)
            ));
        }
        // No allocation unless something is wrong: this runs after every step in debug builds.
        let mut count = [0u32; 256];
        for h in &self.hands[..n] {
            for &c in h.cards() {
                count[usize::from(c)] += 1;
            }
        }
        for &c in self
            .stock
            .iter()
            .chain(self.discard.iter())
            .chain(&self.aside)
            .chain(&self.face_down)
        {
            count[usize::from(c)] += 1;
        }
        for c in p.deck(n) {
            if count[usize::from(c)] != 1 {
                return Err(format!(
                    "{} is in {} places",
                    card_name(c),
                    count[usize::from(c)]
                ));
            }
            count[usize::from(c)] = 0;
        }
        if let Some(c) = count.iter().position(|&k| k != 0) {
            return Err(format!("card {c} is not in the deck"));
        }
        for seat in 0..self.seats {
            if !self.in_round(seat) && !self.hands[usize::from(seat)].is_empty() {
                return Err(format!("seat {seat} is out of the round but holds cards"));
            }
        }
        Ok(())
    }

    /// `self` made equal to `other`, keeping the buffers `self` already has (a search copies
    /// a game many times a move without allocating).
    pub fn copy_from(&mut self, other: &State) {
        let State {
            seats,
            hands,
            stock,
            discard,
            aside,
            face_down,
            total,
            clockwise,
            turn,
            chips,
            bank,
            pot,
            round,
            dealer,
            out_of_game,
            out_of_round,
            forgot,
            pending_draw,
            round_winner,
            round_loser,
            round_over,
            over,
            winners,
            turns,
            again,
            known_not,
            out_now,
            declared,
            laid_by,
            next_deal,
            rng,
            stuck,
        } = other;
        self.seats = *seats;
        self.hands = *hands;
        self.stock.clone_from(stock);
        self.discard.clone_from(discard);
        self.aside.clone_from(aside);
        self.face_down.clone_from(face_down);
        self.total = *total;
        self.clockwise = *clockwise;
        self.turn = *turn;
        self.chips = *chips;
        self.bank = *bank;
        self.pot = *pot;
        self.round = *round;
        self.dealer = *dealer;
        self.out_of_game = *out_of_game;
        self.out_of_round = *out_of_round;
        self.forgot = *forgot;
        self.pending_draw = *pending_draw;
        self.round_winner = *round_winner;
        self.round_loser = *round_loser;
        self.round_over = *round_over;
        self.over = *over;
        self.winners = *winners;
        self.turns = *turns;
        self.again = *again;
        self.known_not = *known_not;
        self.out_now = *out_now;
        self.declared = *declared;
        self.laid_by = *laid_by;
        self.next_deal.clone_from(next_deal);
        self.rng = *rng;
        self.stuck = *stuck;
    }

    /// All chips: seats' accounts, the bank and the pot.
    pub fn chips_total(&self, p: &Program) -> i32 {
        let mut accounts = 0u16;
        let mut sum = 0;
        for seat in 0..self.seats {
            let a = self.account(p, seat);
            if accounts & (1 << a) == 0 {
                accounts |= 1 << a;
                sum += self.chips[a];
            }
        }
        sum + self.bank + self.pot
    }

    pub fn winner_list(&self) -> Vec<u8> {
        (0..self.seats)
            .filter(|x| self.winners & (1 << x) != 0)
            .collect()
    }
}

/// How many seats a set holds. `count_ones` compiles to a dozen instructions on the baseline
/// x86-64 the release is built for; a byte table is two loads, and the engine asks on every
/// turn.
#[inline(always)]
fn seats_in(set: u16) -> usize {
    const ONES: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut i = 0;
        while i < 256 {
            t[i] = (i as u32).count_ones() as u8;
            i += 1;
        }
        t
    };
    let [lo, hi] = set.to_le_bytes();
    usize::from(ONES[usize::from(lo)] + ONES[usize::from(hi)])
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
        let saved = serde_json::to_string(&pile).expect("saves");
        assert_eq!(saved, serde_json::to_string(&pile.to_vec()).expect("saves"));
        // A pile is saved as its cards alone: the count cannot be tampered with.
        let loaded: Pile = serde_json::from_str(&saved).expect("loads");
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
        let saved = serde_json::to_string(&hand).expect("saves");
        // Saved as its cards alone, as before the count was kept: old saves load.
        assert!(
            saved.starts_with(r#"{"cards":["#) && !saved.contains("ranks"),
            "{saved}"
        );
        let loaded: Hand = serde_json::from_str(&saved).expect("loads");
        assert_eq!(loaded, hand);
        assert_eq!(loaded.ranks(), rank_counts(loaded.cards()));
        // A length past the slots loads without a panic, for the game's checks to refuse.
        let long = serde_json::json!({ "cards": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], "len": 200 });
        let loaded: Hand = serde_json::from_value(long).expect("loads");
        assert_eq!(
            loaded.ranks(),
            rank_counts(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        );
    }

    #[test]
    fn seats_in_counts_every_set() {
        for set in 0..=u16::MAX {
            assert_eq!(super::seats_in(set), set.count_ones() as usize);
        }
    }
}
