//! 33/66/99 (`rulesets/33-66-99.rules`, default options: 9 chips, drawing by hand), written
//! by hand.
//!
//! 2 to 8 players, one 52-card deck (two from 6 players), three cards each. The total may not
//! go below 0 and has no ceiling. Landing exactly on 33 or 66 (from below) makes each other
//! player pay 1, on 99 pay 2 and wins the round; passing 33 or 66 costs the player 1, passing
//! 99 costs 2 and the round. A player with no cards pays 3 and loses the round. Whoever must
//! pay more than they hold pays what they have and is out at once; the last player left wins.
//! The first dealer is random, the deal passes right, the player left of the dealer leads.
//!
//! Players draw by hand: the engine moves the turn on and settles the next player before the
//! bot's draw (a round that ends there drops the draw), and the bot draws right after its card.
//!
//! The bots are random or cautious (`play/weigh.rs`). Every rank can be laid at every total
//! here (there is no ceiling, and the 10 can always add), so the cautious bot's worry about
//! leaving the next player stuck never counts, and every rank is an escape card (the same
//! cost for every move of a turn, which changes no choice, so it is left out): a move's score
//! is 1000 times what the bars it reaches or passes are worth to its player, and its rise
//! (while the total is 80 or more every point of rise costs 4; while lower, a rise up to 20
//! is worth itself).

use super::{
    BUST, Best, FACE, GameResult, PASSED, Pile, RANK, REACHED, TURN_LIMIT, base, below, bot_rng,
    next_in, seed_state,
};

/// The most players.
pub const MAX_SEATS: usize = 8;
const HAND: usize = 3;
const CHIPS: i32 = 9;
/// Two decks at most.
const CARDS: usize = 104;

/// Ranks (`card % 56 / 4`): A 2 3 4 5 6 7 8 9 10 J Q K are 0 to 12.
const ACE: u8 = 0;
const TWO: u8 = 1;
const FOUR: u8 = 3;
const NINE: u8 = 8;
const TEN: u8 = 9;
const JACK: u8 = 10;
const QUEEN: u8 = 11;
const KING: u8 = 12;

/// The bars, in the engine's order (by value).
const BARS: [i32; 3] = [33, 66, 99];

#[derive(Debug)]
struct Table {
    n: u8,
    hands: [[u8; HAND]; MAX_SEATS],
    lens: [u8; MAX_SEATS],
    stock: Pile<CARDS>,
    discard: Pile<CARDS>,
    aside: Pile<CARDS>,
    total: i32,
    clockwise: bool,
    turn: u8,
    chips: [i32; MAX_SEATS],
    /// Seats out of the game (out of the round is the same set in this game).
    out: u16,
    dealer: u8,
    /// Two decks: two copies of a card in a hand are one move.
    copies: bool,
    round_over: bool,
    /// The seat that played and has still to draw.
    pending_draw: Option<u8>,
    rng: [u64; 4],
    turns: u64,
    round: u32,
    over: bool,
    winners: u16,
    lost: [u64; 4],
}

#[inline(always)]
fn rank(card: u8) -> u8 {
    RANK[usize::from(card)]
}

/// The totals a card of `rank` can make from `total`, in the order of its choices: up to two.
const fn totals(rank: u8, total: i32) -> ([i32; 2], usize) {
    match rank {
        ACE => ([total + 1, total + 11], 2),
        // Halve an even total above 49, otherwise double.
        TWO if total % 2 == 0 && total > 49 => ([total / 2, 0], 1),
        TWO => ([total.saturating_mul(2), 0], 1),
        NINE => ([total, 0], 1),
        TEN => ([total + 10, total - 10], 2),
        JACK | QUEEN | KING => ([total + 10, 0], 1),
        // 3 to 8: their face value (the 4 reverses as well).
        r => ([total + r as i32 + 1, 0], 1),
    }
}

/// For each total a turn can start at (0 to 98: landing on 99 or passing it ends the round),
/// rank and choice: the total the move makes (`next`), read once the move is drawn, with no
/// `match` on the rank (an indirect jump mispredicted most turns); and for the cautious bot,
/// its score (`play/weigh.rs`) in two parts: what the bars it passes cost its player and its
/// rise are worth (`fixed`), and how many times the other players in the round the bars it
/// reaches are worth (`reach`; each other player pays 1 at 33 or 66, 2 at 99): the score is
/// `fixed + 1000 reach others`. Passing 33 or 66 costs the player 1, which counts -3 (their
/// own chips count three times), passing 99 costs 2 and the round, -8 (losing it counts two
/// more).
struct Moves {
    next: [[[u8; 2]; 13]; 99],
    fixed: [[[i32; 2]; 13]; 99],
    reach: [[[u8; 2]; 13]; 99],
}

static MOVES: Moves = {
    let mut m = Moves {
        next: [[[0; 2]; 13]; 99],
        fixed: [[[0; 2]; 13]; 99],
        reach: [[[0; 2]; 13]; 99],
    };
    let mut old = 0;
    while old < 99 {
        let mut r = 0;
        while r < 13 {
            let (ts, n) = totals(r as u8, old as i32);
            let mut j = 0;
            while j < n {
                let new = ts[j];
                if new >= 0 {
                    m.next[old][r][j] = new as u8;
                }
                let (mut reach, mut pass) = (0, 0);
                let mut b = 0;
                while b < BARS.len() {
                    let bar = BARS[b];
                    b += 1;
                    if old as i32 >= bar {
                        continue;
                    }
                    if new == bar {
                        reach += if bar == 99 { 2 } else { 1 };
                    } else if new > bar {
                        pass += if bar == 99 { -8 } else { -3 };
                    } else {
                        break;
                    }
                }
                m.fixed[old][r][j] = pass * 1000 + base(new - old as i32, old * 10 >= 99 * 8);
                m.reach[old][r][j] = reach;
                j += 1;
            }
            r += 1;
        }
        old += 1;
    }
    m
};

/// Plays one game with random bots in every seat, or cautious ones.
pub fn play(cautious: bool, n: u8, seed: u64) -> GameResult {
    if cautious {
        play_with::<true>(n, seed)
    } else {
        play_with::<false>(n, seed)
    }
}

/// [`play`] with cautious bots if `C`, random ones if not.
fn play_with<const C: bool>(n: u8, seed: u64) -> GameResult {
    let mut t = Table::new(n, seed);
    let mut bot = bot_rng(seed);
    let mut limited = false;
    while !t.over {
        if t.turns >= TURN_LIMIT {
            limited = true;
            break;
        }
        if C {
            t.cautious_turn(&mut bot);
        } else {
            t.random_turn(&mut bot);
        }
    }
    GameResult {
        turns: t.turns,
        rounds: t.round,
        winners: if limited { 0 } else { t.winners },
        chips_lost: t.lost,
        limited,
    }
}

impl Table {
    fn new(n: u8, seed: u64) -> Table {
        let mut t = Table {
            n,
            hands: [[0; HAND]; MAX_SEATS],
            lens: [0; MAX_SEATS],
            stock: Pile::new(),
            discard: Pile::new(),
            aside: Pile::new(),
            total: 0,
            clockwise: true,
            turn: 0,
            chips: [CHIPS; MAX_SEATS],
            out: 0,
            dealer: 0,
            copies: n >= 6,
            round_over: false,
            pending_draw: None,
            rng: seed_state(seed),
            turns: 0,
            round: 1,
            over: false,
            winners: 0,
            lost: [0; 4],
        };
        t.dealer = below(&mut t.rng, usize::from(n)) as u8;
        let decks = if n >= 6 { 2 } else { 1 };
        for copy in 0..decks {
            for c in 0..52u8 {
                t.stock.push(copy * 56 + c);
            }
        }
        t.stock.shuffle(&mut t.rng);
        t.deal();
        t.turn = t.next(t.dealer, true);
        t.settle();
        t
    }

    #[inline(always)]
    fn next(&self, from: u8, clockwise: bool) -> u8 {
        next_in(self.n, self.out, from, clockwise)
    }

    #[inline(always)]
    fn active(&self) -> u32 {
        u32::from(self.n) - self.out.count_ones()
    }

    /// Three cards to each seat in the game, one at a time, from the seat the deal passes to
    /// (right of the dealer) and then round the table clockwise, as the engine deals.
    fn deal(&mut self) {
        let first = self.next(self.dealer, false);
        for _ in 0..HAND {
            let mut seat = first;
            for _ in 0..self.n {
                if self.out & (1 << seat) == 0
                    && let Some(c) = self.stock.pop()
                {
                    let s = usize::from(seat);
                    self.hands[s][usize::from(self.lens[s])] = c;
                    self.lens[s] += 1;
                }
                seat = (seat + 1) % self.n;
            }
        }
    }

    /// The random bot's turn: a legal move uniformly (in hand order, two copies of a card one
    /// card, each choice a move), its card played, then its draw. One pass counts each card's
    /// moves (every card has one, the Ace two, the 10 two from a total of 10: there is no
    /// ceiling); the move drawn is found from the counts, and only its total is worked out.
    fn random_turn(&mut self, bot: &mut [u64; 4]) {
        let seat = self.turn;
        let s = usize::from(seat);
        let len = usize::from(self.lens[s]);
        let hand = self.hands[s];
        let ten = u32::from(self.total >= 10);
        let mut counts = [0u32; HAND];
        let mut moves = 0;
        let mut seen = 0u64;
        for (c, &card) in counts.iter_mut().zip(&hand).take(len) {
            let r = rank(card);
            let mut k = 1 + u32::from(r == ACE) + (u32::from(r == TEN) & ten);
            if self.copies {
                let face = FACE[usize::from(card)];
                k &= (((seen >> face) & 1) as u32).wrapping_sub(1);
                seen |= 1 << face;
            }
            *c = k;
            moves += k;
        }
        let pick = match moves {
            0 => unreachable!("settle leaves a player who can play"),
            1 => 0,
            _ => below(bot, moves as usize) as u32,
        };
        let (mut at, mut before, mut upto) = (0usize, 0u32, 0u32);
        for &c in counts.iter().take(len) {
            upto += c;
            let past = upto <= pick;
            at += usize::from(past);
            before += if past { c } else { 0 };
        }
        let next = MOVES.next[self.total as usize][usize::from(rank(hand[at]))];
        self.play_card(at, i32::from(next[(pick - before) as usize]));
        if self.pending_draw == Some(seat) {
            // The next player was settled before the draw (a round that ended there dropped
            // it); a draw changes only the drawer's hand, who could already play if to move.
            self.pending_draw = None;
            self.draw(seat);
        }
    }

    /// The cautious bot's turn: every legal move scored, in the engine's order (hand order,
    /// two copies of a card one card, each choice a move), the best card played, then its
    /// draw. The moves as bits, two a card (bit `2 i + j`: card `i`'s choice `j`): the Ace
    /// has two, the 10 two from a total of 10.
    fn cautious_turn(&mut self, bot: &mut [u64; 4]) {
        let seat = self.turn;
        let s = usize::from(seat);
        let hand = self.hands[s];
        let len = usize::from(self.lens[s]);
        let old = self.total as usize;
        let ten = u32::from(old >= 10);
        let mut moves = 0u32;
        let mut seen = 0u64;
        for (i, &card) in hand.iter().enumerate() {
            let r = rank(card);
            let mut k = (1 | (u32::from(r == ACE) | (u32::from(r == TEN) & ten)) << 1)
                & u32::from(i < len).wrapping_neg();
            if self.copies {
                let face = FACE[usize::from(card)];
                k &= (((seen >> face) & 1) as u32).wrapping_sub(1);
                seen |= 1 << face;
            }
            moves |= k << (2 * i);
        }
        let reach = (i64::from(self.active()) - 1) * 1000;
        let (fixed, reaches) = (&MOVES.fixed[old], &MOVES.reach[old]);
        let mut best = Best::new(bot);
        while moves != 0 {
            let at = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let (r, j) = (usize::from(rank(hand[at / 2])), at % 2);
            let score = i64::from(fixed[r][j]) + i64::from(reaches[r][j]) * reach;
            best.offer(at as u32, score);
        }
        let mv = best.choose(bot) as usize;
        let (at, j) = (mv / 2, mv % 2);
        self.play_card(
            at,
            i32::from(MOVES.next[old][usize::from(rank(hand[at]))][j]),
        );
        if self.pending_draw == Some(seat) {
            self.pending_draw = None;
            self.draw(seat);
        }
    }

    #[inline(always)]
    fn play_card(&mut self, i: usize, new: i32) {
        let seat = self.turn;
        let s = usize::from(seat);
        let card = super::take(&mut self.hands[s], i);
        self.lens[s] -= 1;
        self.discard.push(card);
        // The card's turn effect, by the players in the round before it is played.
        let two = self.active() == 2;
        let (jack, four) = (rank(card) == JACK, rank(card) == FOUR);
        let (skip, reverse, again) = (jack & !two, four & !two, jack & two);
        let old = self.total;
        self.total = new;
        // Most cards reach no bar: the first bar above the old total is beyond the new one.
        let first = BARS.iter().copied().find(|&v| v > old).unwrap_or(i32::MAX);
        if new >= first {
            self.bars(seat, old, new);
        }
        if self.round_over || self.over {
            self.finish_round();
        } else {
            let in_game = self.out & (1 << seat) == 0;
            if in_game {
                self.pending_draw = Some(seat);
            }
            self.clockwise ^= reverse;
            // The seats after, worked out either way and chosen without a branch.
            let next = self.next(seat, self.clockwise);
            let after = self.next(next, self.clockwise);
            let on = if skip { after } else { next };
            self.turn = if again && in_game { seat } else { on };
        }
        self.turns += 1;
        self.settle();
    }

    /// The bars a card from `old` to `new` reached or passed, in the engine's order.
    #[cold]
    #[inline(never)]
    fn bars(&mut self, seat: u8, old: i32, new: i32) {
        for v in BARS {
            if old >= v {
                continue;
            }
            if new == v {
                // Each other player pays; at 99 the player wins the round.
                let amount = if v == 99 { 2 } else { 1 };
                for o in 0..self.n {
                    if o != seat {
                        self.pay(o, amount, REACHED);
                    }
                }
                if v == 99 {
                    self.round_over = true;
                }
            } else if new > v {
                // The player pays; past 99 they lose the round.
                if v == 99 {
                    self.pay(seat, 2, PASSED);
                    self.round_over = true;
                } else {
                    self.pay(seat, 1, PASSED);
                }
            }
        }
    }

    /// Draws a card for `seat` if its hand is short, the discard pile but its top card
    /// reshuffled into an empty stock.
    #[inline(always)]
    fn draw(&mut self, seat: u8) {
        let s = usize::from(seat);
        if usize::from(self.lens[s]) >= HAND {
            return;
        }
        if self.stock.is_empty() && self.discard.len() > 1 {
            let top = self.discard.pop().expect("the discard pile has cards");
            self.stock.append(&mut self.discard);
            self.discard.push(top);
            self.stock.shuffle(&mut self.rng);
        }
        if let Some(c) = self.stock.pop() {
            self.hands[s][usize::from(self.lens[s])] = c;
            self.lens[s] += 1;
        }
    }

    /// `seat` pays `amount` to the bank, or all it has and is out.
    fn pay(&mut self, seat: u8, amount: i32, cause: usize) {
        let s = usize::from(seat);
        if self.over || self.out & (1 << seat) != 0 {
            return;
        }
        let short = self.chips[s] < amount;
        let paid = amount.min(self.chips[s]);
        self.chips[s] -= paid;
        self.lost[cause] += paid as u64;
        if short {
            self.out |= 1 << seat;
            self.aside
                .extend(&self.hands[s][..usize::from(self.lens[s])]);
            self.lens[s] = 0;
            if self.active() <= 1 {
                self.round_over = true;
                self.over = true;
            }
        }
    }

    /// Every card can be played (there is no ceiling): only a player with no cards is stuck,
    /// and pays 3 and loses the round.
    #[inline(always)]
    fn settle(&mut self) {
        // Most turns: the player to move is in the game and holds a card.
        let seat = self.turn;
        if self.over || (self.out & (1 << seat) == 0 && self.lens[usize::from(seat)] > 0) {
            return;
        }
        self.settle_slow();
    }

    #[cold]
    #[inline(never)]
    fn settle_slow(&mut self) {
        while !self.over {
            if self.out & (1 << self.turn) != 0 {
                self.turn = self.next(self.turn, self.clockwise);
            }
            let seat = self.turn;
            if self.lens[usize::from(seat)] > 0 {
                return;
            }
            self.pay(seat, 3, BUST);
            self.round_over = true;
            self.finish_round();
        }
    }

    fn finish_round(&mut self) {
        self.pending_draw = None;
        if self.over || self.active() <= 1 {
            self.end_game();
            return;
        }
        self.round += 1;
        self.round_over = false;
        // Every card back: the stock, the hands in seat order, the discard pile, the cards
        // set aside (the engine's order, which the shuffle sees).
        for s in 0..usize::from(self.n) {
            self.stock
                .extend(&self.hands[s][..usize::from(self.lens[s])]);
            self.lens[s] = 0;
        }
        self.stock.append(&mut self.discard);
        self.stock.append(&mut self.aside);
        self.stock.shuffle(&mut self.rng);
        self.dealer = self.next(self.dealer, false);
        self.total = 0;
        self.clockwise = true;
        self.deal();
        self.turn = self.next(self.dealer, true);
    }

    fn end_game(&mut self) {
        self.over = true;
        let mut best = i32::MIN;
        for s in 0..self.n {
            if self.out & (1 << s) == 0 {
                best = best.max(self.chips[usize::from(s)]);
            }
        }
        self.winners = 0;
        for s in 0..self.n {
            if self.out & (1 << s) == 0 && self.chips[usize::from(s)] == best {
                self.winners |= 1 << s;
            }
        }
    }
}
