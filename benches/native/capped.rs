//! The capped games, written by hand: Ninety-Nine (`rulesets/ninety-nine.rules`), Ring of 99
//! (`rulesets/ring-of-99.rules`, cap 199) and Ninety-Eight (`rulesets/ninety-eight.rules`),
//! default options, random or cautious bots in every seat.
//!
//! One generic table, monomorphised for each game (`K`), hand size (`H`) and one or two decks
//! (`D`: with two decks, two copies of a card in a hand are one move). What is the same in all
//! three: the total may not go above the cap nor below 0, players draw automatically, an empty
//! stock takes the discard pile but its top card, the first dealer is random and the deal
//! passes left. What differs:
//!
//! * Ninety-Nine: 2 to 5 players, 3 cards, 3 chips, cap 99. The 3 adds 3 and skips, the 4
//!   reverses (with two players: plays again), the 9 sets 99, the K is a pass. Whoever cannot
//!   play pays a chip and loses the round (out at 0 chips); the player left of the loser leads.
//! * Ring of 99: Ninety-Nine with 2 to 10 players, 5 cards, cap 199 (the 9 sets 199), two
//!   jokers a deck counting 0, two decks from 7 players.
//! * Ninety-Eight: 2 to 8 players, 4 cards, 3 lives, cap 98, two decks from 6 players. Every
//!   card adds its value (A 1 or 11, 10 plus or minus 10, J and Q 10), the K sets 98; no skips
//!   or reverses. Whoever cannot play pays a life, is out of the round and the total resets;
//!   the last one in the round wins it; the player left of the dealer leads.
//!
//! What makes it fast (docs/performance.md, "The native baselines"): a table, built at compile
//! time, of each total's legal choices and new totals by rank; one pass over the hand a turn
//! that counts the moves (no moves: the player is stuck, so no separate `can_play`); the move
//! picked from per-card counts without a loop whose exit depends on the draw; the hand as one
//! word of bytes (a card taken out by a shift and a mask); the next seat read from a table kept
//! per direction; nothing re-initialised per game but what a game changes.
//!
//! The cautious bot (`play/weigh.rs`) scores each move: the rise it makes (while the total is
//! high, 80% of the cap, each point of rise costs 4; while low, a rise up to 20 is worth
//! itself), less 120 for laying an escape card (one playable at the cap) while the total is
//! low, or 30 while high if the player holds another, plus 20 times the unseen cards (not in
//! the hand nor the discard pile) that could not be laid at the new total, over all the
//! unseen cards. These games pay nothing for a card laid, so no move is worth chips. What
//! makes it fast: the cards not yet discarded kept by rank as a byte each of one number, as
//! they are laid; a table of each total's ranks that cannot be laid there, as a mask of those
//! bytes: a move's stuck cards are one `and` and two multiplications.

use super::{
    BUST, Best, Divisor, FACE, GameResult, RANK, TURN_LIMIT, base, below, bot_rng, byte_sum,
    next_in, seed_state, shuffle,
};

pub const NINETY_NINE: u8 = 0;
pub const RING: u8 = 1;
pub const NINETY_EIGHT: u8 = 2;

/// Seats and cards for the largest of the three (Ring of 99: 10 seats, two 54-card decks),
/// and room past the cards for a whole hand's word written at once.
const SEATS: usize = 10;
const CARDS: usize = 108 + 8;

/// A game's fixed facts.
struct Spec {
    cap: usize,
    jokers: u8,
    /// Two decks from this many players.
    two_decks: u8,
    chips: i32,
    /// The 3 skips, the 4 reverses (Ninety-Nine, Ring of 99).
    effects: bool,
}

const fn spec(k: u8) -> Spec {
    match k {
        NINETY_NINE => Spec {
            cap: 99,
            jokers: 0,
            two_decks: u8::MAX,
            chips: 3,
            effects: true,
        },
        RING => Spec {
            cap: 199,
            jokers: 2,
            two_decks: 7,
            chips: 3,
            effects: true,
        },
        _ => Spec {
            cap: 98,
            jokers: 0,
            two_decks: 6,
            chips: 3,
            effects: false,
        },
    }
}

/// Ranks: A 2 3 4 5 6 7 8 9 10 J Q K X are 0 to 13.
const THREE: u8 = 2;
const FOUR: u8 = 3;
const RANKS: usize = 16;
/// The totals go up to 199: they fit a byte.
const TOTALS: usize = 200;

/// For each total and rank: the legal choices as a bit set (bit `k` for choice `k`) in the
/// low two bits and their number in the next two, and the total each choice makes; for the
/// cautious bot, the part of each choice's score its rise decides, the ranks that cannot be
/// laid at each total (as bytes of 0xff, rank `r` in byte `r`) and the escapes (bit `r`: rank
/// `r` can be laid at the cap).
struct Legal {
    mask: [[u8; RANKS]; TOTALS],
    next: [[[u8; 2]; RANKS]; TOTALS],
    base: [[[i16; 2]; RANKS]; TOTALS],
    stuck: [u128; TOTALS],
    escape: u16,
}

/// The totals a card of `rank` can make from `total`, in the order of its choices.
const fn choices(k: u8, rank: u8, t: i32) -> ([i32; 2], usize) {
    let cap = spec(k).cap as i32;
    match rank {
        0 => ([t + 1, t + 11], 2),
        9 => ([t + 10, t - 10], 2),
        10 | 11 => ([t + 10, 0], 1),
        // Ninety-Eight: the K sets the cap; the others: a pass.
        12 if k == NINETY_EIGHT => ([cap, 0], 1),
        12 | 13 => ([t, 0], 1),
        8 if k != NINETY_EIGHT => ([cap, 0], 1),
        FOUR if k != NINETY_EIGHT => ([t, 0], 1),
        r => ([t + r as i32 + 1, 0], 1),
    }
}

const fn legal(k: u8) -> Legal {
    let cap = spec(k).cap;
    let mut l = Legal {
        mask: [[0; RANKS]; TOTALS],
        next: [[[0; 2]; RANKS]; TOTALS],
        base: [[[0; 2]; RANKS]; TOTALS],
        stuck: [0; TOTALS],
        escape: 0,
    };
    let mut t = 0;
    while t <= cap {
        let mut r = 0;
        while r < 14 {
            if r == 13 && spec(k).jokers == 0 {
                break;
            }
            let (ts, n) = choices(k, r as u8, t as i32);
            let mut j = 0;
            while j < n {
                if ts[j] >= 0 && ts[j] <= cap as i32 {
                    l.mask[t][r] += (1 << j) + 4;
                    l.next[t][r][j] = ts[j] as u8;
                    let high = t * 10 >= cap * 8;
                    l.base[t][r][j] = base(ts[j] - t as i32, high) as i16;
                }
                j += 1;
            }
            if l.mask[t][r] == 0 {
                l.stuck[t] |= 0xff << (8 * r);
            }
            r += 1;
        }
        t += 1;
    }
    let mut r = 0;
    while r < RANKS {
        if l.mask[cap][r] != 0 {
            l.escape |= 1 << r;
        }
        r += 1;
    }
    l
}

static LEGAL: [Legal; 3] = [legal(NINETY_NINE), legal(RING), legal(NINETY_EIGHT)];

/// The players each game allows.
pub fn max_seats(k: u8) -> usize {
    match k {
        NINETY_NINE => 5,
        RING => 10,
        _ => 8,
    }
}

/// Plays one game of `k` with random bots in every seat, or cautious ones.
pub fn play(k: u8, cautious: bool, n: u8, seed: u64) -> GameResult {
    if cautious {
        play_with::<true>(k, n, seed)
    } else {
        play_with::<false>(k, n, seed)
    }
}

fn play_with<const C: bool>(k: u8, n: u8, seed: u64) -> GameResult {
    let two = n >= spec(k).two_decks;
    match (k, two) {
        (NINETY_NINE, _) => Table::<NINETY_NINE, 3, false, C>::play(n, seed),
        (RING, false) => Table::<RING, 5, false, C>::play(n, seed),
        (RING, true) => Table::<RING, 5, true, C>::play(n, seed),
        (_, false) => Table::<NINETY_EIGHT, 4, false, C>::play(n, seed),
        (_, true) => Table::<NINETY_EIGHT, 4, true, C>::play(n, seed),
    }
}

/// A table of game `K`, hands of `H` cards, two decks if `D`, cautious bots if `C` (else
/// random ones).
struct Table<const K: u8, const H: usize, const D: bool, const C: bool> {
    n: u8,
    /// Each hand as bytes of one word, card `i` in byte `i`, the bytes past the hand zero.
    hands: [u64; SEATS],
    lens: [u8; SEATS],
    stock: [u8; CARDS],
    stock_len: usize,
    discard: [u8; CARDS],
    discard_len: usize,
    /// Hands of players out of the round or the game, until the next deal.
    aside: [u8; CARDS],
    aside_len: usize,
    total: usize,
    /// 0 clockwise, 1 counterclockwise.
    dir: usize,
    turn: u8,
    /// The next seat in the round from each seat, by direction.
    next: [[u8; SEATS]; 2],
    chips: [i32; SEATS],
    out_game: u16,
    out_round: u16,
    dealer: u8,
    rng: [u64; 4],
    turns: u64,
    round: u32,
    over: bool,
    lost: u64,
    /// The cards not in the discard pile by rank, a byte each (rank `r` in byte `r`): kept
    /// for the cautious bot alone.
    left: u128,
}

impl<const K: u8, const H: usize, const D: bool, const C: bool> Table<K, H, D, C> {
    /// Every card of the game's decks by rank, a byte each.
    const DECK: u128 = {
        let decks: u128 = if D { 2 } else { 1 };
        let mut deck = 0;
        let mut r = 0;
        while r < 13 {
            deck |= (4 * decks) << (8 * r);
            r += 1;
        }
        deck | (spec(K).jokers as u128 * decks) << (8 * 13)
    };

    fn play(n: u8, seed: u64) -> GameResult {
        let mut t = Table::<K, H, D, C>::new(n, seed);
        let mut bot = bot_rng(seed);
        let legal = &LEGAL[usize::from(K)];
        let mut limited = false;
        loop {
            let s = usize::from(t.turn);
            let word = t.hands[s];
            let len = usize::from(t.lens[s]);
            let row = &legal.mask[t.total];
            // One pass: each card's number of moves (two copies of a card count once). The
            // whole width of the hand, unrolled: the slots past its cards count nothing.
            let mut counts = [0u32; H];
            let mut moves = 0;
            let mut seen = 0u64;
            for (i, c) in counts.iter_mut().enumerate() {
                let card = (word >> (8 * i)) as u8;
                let m = u32::from(row[usize::from(RANK[usize::from(card)])]);
                let mut k = (m >> 2) & u32::from(i < len).wrapping_neg();
                if D {
                    let face = FACE[usize::from(card)];
                    k &= (((seen >> face) & 1) as u32).wrapping_sub(1);
                    seen |= 1 << face;
                }
                *c = k;
                moves += k;
            }
            if moves == 0 {
                t.stuck();
                if t.over {
                    break;
                }
                continue;
            }
            if t.turns >= TURN_LIMIT {
                limited = true;
                break;
            }
            let (at, card, rank, choice) = if C {
                let (at, choice) = t.weigh(&mut bot, word, len, &counts);
                let card = (word >> (8 * at)) as u8;
                (at, card, RANK[usize::from(card)], choice)
            } else {
                let pick = if moves == 1 {
                    0
                } else {
                    below(&mut bot, moves as usize) as u32
                };
                // The card holding move `pick`: the cards whose moves all come before it.
                let (mut at, mut before, mut upto) = (0usize, 0u32, 0u32);
                for &c in &counts {
                    upto += c;
                    let past = upto <= pick;
                    at += usize::from(past);
                    before += if past { c } else { 0 };
                }
                let card = (word >> (8 * at)) as u8;
                let rank = RANK[usize::from(card)];
                let m = row[usize::from(rank)];
                // Its `pick - before`th legal choice: with one legal choice, that one.
                let choice = if m & 3 == 3 {
                    (pick - before) as usize
                } else {
                    usize::from((m >> 1) & 1)
                };
                (at, card, rank, choice)
            };
            let total = legal.next[t.total][usize::from(rank)][choice];
            t.play_card(at, card, rank, usize::from(total));
        }
        GameResult {
            turns: t.turns,
            rounds: t.round,
            winners: if limited { 0 } else { t.winners() },
            chips_lost: {
                let mut lost = [0; 4];
                lost[BUST] = t.lost;
                lost
            },
            limited,
        }
    }

    /// The cautious bot's move, as the card's place in the hand and the choice: every legal
    /// move (`counts`: each card's number of them, none for a second copy) scored, in the
    /// engine's order.
    #[inline(always)]
    fn weigh(
        &self,
        bot: &mut [u64; 4],
        word: u64,
        len: usize,
        counts: &[u32; H],
    ) -> (usize, usize) {
        let legal = &LEGAL[usize::from(K)];
        let row = &legal.mask[self.total];
        let next = &legal.next[self.total];
        let bases = &legal.base[self.total];
        // The cards the player has not seen (not discarded, not in their hand), and the
        // escape cards they hold; the moves, two bits a card (bit `2 i + j`: card `i`'s
        // choice `j`).
        let mut unseen = self.left;
        let mut escapes = 0;
        let mut moves = 0u32;
        for (i, &k) in counts.iter().enumerate() {
            let r = RANK[usize::from((word >> (8 * i)) as u8)];
            let held = u128::from(i < len);
            unseen -= held << (8 * r);
            escapes += (legal.escape >> r) as u32 & held as u32;
            let choices = u32::from(row[usize::from(r)] & 3) * u32::from(k != 0);
            moves |= choices << (2 * i);
        }
        let per = Divisor::new(byte_sum(unseen));
        let high = self.total * 10 >= spec(K).cap * 8;
        let escape_cost: i64 = match (high, escapes > 1) {
            (true, true) => 30,
            (true, false) => 0,
            (false, _) => 120,
        };
        let mut best = Best::new(bot);
        while moves != 0 {
            let at = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let (i, j) = (at / 2, at % 2);
            let r = usize::from(RANK[usize::from((word >> (8 * i)) as u8)]);
            let new = usize::from(next[r][j]);
            let stuck = byte_sum(unseen & legal.stuck[new]);
            let score = i64::from(bases[r][j]) - escape_cost * i64::from((legal.escape >> r) & 1)
                + i64::from(per.div(stuck * 20));
            best.offer(at as u32, score);
        }
        let mv = best.choose(bot) as usize;
        (mv / 2, mv % 2)
    }

    fn new(n: u8, seed: u64) -> Self {
        let sp = spec(K);
        let mut t = Table {
            n,
            hands: [0; SEATS],
            lens: [0; SEATS],
            stock: [0; CARDS],
            stock_len: 0,
            discard: [0; CARDS],
            discard_len: 0,
            aside: [0; CARDS],
            aside_len: 0,
            total: 0,
            dir: 0,
            turn: 0,
            next: [[0; SEATS]; 2],
            chips: [sp.chips; SEATS],
            out_game: 0,
            out_round: 0,
            dealer: 0,
            rng: seed_state(seed),
            turns: 0,
            round: 1,
            over: false,
            lost: 0,
            left: Self::DECK,
        };
        t.dealer = below(&mut t.rng, usize::from(n)) as u8;
        let decks = if D { 2 } else { 1 };
        for copy in 0..decks {
            for c in 0..52 + sp.jokers {
                t.stock[t.stock_len] = copy * 56 + c;
                t.stock_len += 1;
            }
        }
        shuffle(&mut t.rng, &mut t.stock[..t.stock_len]);
        t.seats_changed();
        t.deal();
        t.turn = next_in(n, t.out_game, t.dealer, true);
        t
    }

    /// The next-seat table, after a player left the round or a new round began.
    fn seats_changed(&mut self) {
        for s in 0..self.n {
            self.next[0][usize::from(s)] = next_in(self.n, self.out_round, s, true);
            self.next[1][usize::from(s)] = next_in(self.n, self.out_round, s, false);
        }
    }

    fn active(&self) -> u32 {
        u32::from(self.n) - self.out_round.count_ones()
    }

    /// `H` cards to each seat in the game, one at a time from the left of the dealer. Every
    /// card is in the stock at a deal: the seats in the game, in the deal's order, are listed
    /// once, and each hand is built as a word.
    fn deal(&mut self) {
        let n = self.n;
        let mut order = [0u8; SEATS];
        let mut k = 0;
        let mut seat = next_in(n, self.out_game, self.dealer, true);
        for _ in 0..n {
            if self.out_game & (1 << seat) == 0 {
                order[k] = seat;
                k += 1;
            }
            seat = if seat + 1 == n { 0 } else { seat + 1 };
        }
        let order = &order[..k];
        if self.stock_len < H * k {
            // Not reached by these games (every hand is dealt in full); as the engine deals.
            for _ in 0..H {
                for &seat in order {
                    if self.stock_len > 0 {
                        self.stock_len -= 1;
                        self.give(seat, self.stock[self.stock_len]);
                    }
                }
            }
            return;
        }
        for p in 0..H {
            for &seat in order {
                self.stock_len -= 1;
                let card = u64::from(self.stock[self.stock_len]);
                self.hands[usize::from(seat)] |= card << (8 * p);
            }
        }
        for &seat in order {
            self.lens[usize::from(seat)] = H as u8;
        }
    }

    #[inline(always)]
    fn give(&mut self, seat: u8, card: u8) {
        let s = usize::from(seat);
        self.hands[s] |= u64::from(card) << (8 * self.lens[s]);
        self.lens[s] += 1;
    }

    /// Lays the card at `at` (of rank `rank`) for the new total, draws, passes the turn.
    #[inline(always)]
    fn play_card(&mut self, at: usize, card: u8, rank: u8, total: usize) {
        let seat = self.turn;
        let s = usize::from(seat);
        // Out of the hand, the cards after it moving up (the bot's moves follow hand order).
        let w = self.hands[s];
        let below = (1u64 << (8 * at)) - 1;
        self.hands[s] = (w & below) | ((w >> 8) & !below);
        self.lens[s] -= 1;
        self.discard[self.discard_len] = card;
        self.discard_len += 1;
        if C {
            self.left -= 1 << (8 * rank);
        }
        self.total = total;
        if self.stock_len == 0 && self.discard_len > 1 {
            self.reshuffle();
        }
        if self.stock_len > 0 {
            self.stock_len -= 1;
            self.give(seat, self.stock[self.stock_len]);
        }
        let one = self.next[self.dir][s];
        self.turn = if spec(K).effects {
            match rank {
                FOUR if self.active() == 2 => seat,
                FOUR => {
                    self.dir ^= 1;
                    self.next[self.dir][s]
                }
                THREE => self.next[self.dir][usize::from(one)],
                _ => one,
            }
        } else {
            one
        };
        self.turns += 1;
    }

    /// The discard pile but its top card becomes the stock, shuffled.
    #[cold]
    #[inline(never)]
    fn reshuffle(&mut self) {
        let top = self.discard[self.discard_len - 1];
        let n = self.discard_len - 1;
        self.stock[..n].copy_from_slice(&self.discard[..n]);
        self.stock_len = n;
        self.discard[0] = top;
        self.discard_len = 1;
        self.left = Self::DECK - (1 << (8 * RANK[usize::from(top)]));
        shuffle(&mut self.rng, &mut self.stock[..n]);
    }

    /// The player to move holds no card they may play.
    #[cold]
    #[inline(never)]
    fn stuck(&mut self) {
        let seat = self.turn;
        let s = usize::from(seat);
        // Pays 1 (players in the game hold at least one chip), out at 0.
        self.chips[s] -= 1;
        self.lost += 1;
        if self.chips[s] == 0 {
            self.out_game |= 1 << seat;
            self.leave_round(seat);
            if self.n - (self.out_game.count_ones() as u8) <= 1 {
                self.over = true;
                return;
            }
        }
        if K != NINETY_EIGHT {
            // Loses the round: the player left of them leads the next one.
            self.new_round();
            self.turn = next_in(self.n, self.out_game, seat, true);
            return;
        }
        // Out of the round, and the count starts again; the last one in wins the round.
        self.leave_round(seat);
        self.total = 0;
        if self.active() <= 1 {
            self.new_round();
            self.turn = next_in(self.n, self.out_game, self.dealer, true);
        } else {
            self.seats_changed();
            self.turn = self.next[self.dir][s];
        }
    }

    /// `seat` leaves the round: its hand is set aside.
    fn leave_round(&mut self, seat: u8) {
        let s = usize::from(seat);
        if self.out_round & (1 << seat) != 0 {
            return;
        }
        self.out_round |= 1 << seat;
        self.set_aside(s);
    }

    fn set_aside(&mut self, s: usize) {
        let at = self.aside_len;
        self.aside[at..at + 8].copy_from_slice(&self.hands[s].to_le_bytes());
        self.aside_len += usize::from(self.lens[s]);
        self.hands[s] = 0;
        self.lens[s] = 0;
    }

    /// Every card back (the stock, the hands in seat order, the discard pile, the cards set
    /// aside: the engine's order, which the shuffle sees), shuffled, dealt by the next dealer.
    fn new_round(&mut self) {
        self.round += 1;
        for s in 0..usize::from(self.n) {
            // The hand's word at once: the bytes past its cards are overwritten next.
            let at = self.stock_len;
            self.stock[at..at + 8].copy_from_slice(&self.hands[s].to_le_bytes());
            self.stock_len += usize::from(self.lens[s]);
            self.hands[s] = 0;
            self.lens[s] = 0;
        }
        let (d, a) = (self.discard_len, self.aside_len);
        let at = self.stock_len;
        self.stock[at..at + d].copy_from_slice(&self.discard[..d]);
        self.stock[at + d..at + d + a].copy_from_slice(&self.aside[..a]);
        self.stock_len += d + a;
        self.discard_len = 0;
        self.aside_len = 0;
        self.left = Self::DECK;
        shuffle(&mut self.rng, &mut self.stock[..self.stock_len]);
        self.dealer = next_in(self.n, self.out_game, self.dealer, true);
        self.out_round = self.out_game;
        self.seats_changed();
        self.total = 0;
        self.dir = 0;
        self.deal();
    }

    /// The players left with the most chips.
    fn winners(&self) -> u16 {
        let left = |s: u8| self.out_game & (1 << s) == 0;
        let best = (0..self.n)
            .filter(|&s| left(s))
            .map(|s| self.chips[usize::from(s)])
            .max();
        (0..self.n)
            .filter(|&s| left(s) && Some(self.chips[usize::from(s)]) == best)
            .fold(0, |w, s| w | 1 << s)
    }
}
