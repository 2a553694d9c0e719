//! Ninety-Nine (`rulesets/ninety-nine.rules`, default options), written by hand.
//!
//! 2 to 5 players, one 52-card deck, three cards each, three chips each. The total may not
//! go above 99 nor below 0; whoever cannot play pays a chip to the bank and loses the round,
//! out at 0 chips; the last player left wins. The first dealer is random, the deal passes
//! left, the player left of the loser leads. Players draw automatically; an empty stock takes
//! the discard pile but its top card.

use super::{BUST, GameResult, Pile, TURN_LIMIT, below, bot_rng, next_in, seed_state};

/// The most players.
pub const MAX_SEATS: usize = 5;
const HAND: usize = 3;
const CHIPS: i32 = 3;
const DECK: usize = 52;

/// Ranks (`card / 4`): A 2 3 4 5 6 7 8 9 10 J Q K are 0 to 12.
const ACE: u8 = 0;
const THREE: u8 = 2;
const FOUR: u8 = 3;
const NINE: u8 = 8;
const TEN: u8 = 9;
const JACK: u8 = 10;
const QUEEN: u8 = 11;
const KING: u8 = 12;

#[derive(Debug)]
struct Table {
    n: u8,
    hands: [[u8; HAND]; MAX_SEATS],
    lens: [u8; MAX_SEATS],
    stock: Pile<DECK>,
    discard: Pile<DECK>,
    aside: Pile<DECK>,
    total: i32,
    clockwise: bool,
    turn: u8,
    chips: [i32; MAX_SEATS],
    /// Seats out of the game (out of the round is the same set in this game).
    out: u16,
    dealer: u8,
    rng: [u64; 4],
    turns: u64,
    round: u32,
    over: bool,
    winners: u16,
    lost: [u64; 4],
}

/// The totals a card of `rank` can make from `total`, in the order of its choices: up to two.
#[inline(always)]
fn totals(rank: u8, total: i32) -> ([i32; 2], usize) {
    match rank {
        ACE => ([total + 1, total + 11], 2),
        NINE => ([99, 0], 1),
        TEN => ([total + 10, total - 10], 2),
        JACK | QUEEN => ([total + 10, 0], 1),
        FOUR | KING => ([total, 0], 1),
        // 2, 3, 5, 6, 7, 8: their face value.
        r => ([total + i32::from(r) + 1, 0], 1),
    }
}

#[inline(always)]
fn allowed(total: i32) -> bool {
    (0..=99).contains(&total)
}

/// Plays one game with random bots in every seat.
pub fn play(n: u8, seed: u64) -> GameResult {
    let mut t = Table::new(n, seed);
    let mut bot = bot_rng(seed);
    let mut limited = false;
    while !t.over {
        if t.turns >= TURN_LIMIT {
            limited = true;
            break;
        }
        t.random_turn(&mut bot);
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
            rng: seed_state(seed),
            turns: 0,
            round: 1,
            over: false,
            winners: 0,
            lost: [0; 4],
        };
        t.dealer = below(&mut t.rng, usize::from(n)) as u8;
        for c in 0..DECK as u8 {
            t.stock.push(c);
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

    /// Three cards to each seat in the game, one at a time from the left of the dealer.
    fn deal(&mut self) {
        let first = self.next(self.dealer, true);
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

    /// Whether the seat to move holds a card it may play.
    #[inline]
    fn can_play(&self) -> bool {
        let s = usize::from(self.turn);
        self.hands[s][..usize::from(self.lens[s])].iter().any(|&c| {
            let (ts, k) = totals(c / 4, self.total);
            ts[..k].iter().any(|&t| allowed(t))
        })
    }

    /// The random bot's turn: a legal move uniformly (in hand order, each choice a move), its
    /// card played, the draw, the next player.
    fn random_turn(&mut self, bot: &mut [u64; 4]) {
        let s = usize::from(self.turn);
        let mut moves = [(0u8, 0i32); HAND * 2];
        let mut len = 0;
        for i in 0..usize::from(self.lens[s]) {
            let (ts, k) = totals(self.hands[s][i] / 4, self.total);
            for &t in &ts[..k] {
                if allowed(t) {
                    moves[len] = (i as u8, t);
                    len += 1;
                }
            }
        }
        let (i, t) = match len {
            0 => unreachable!("settle leaves a player who can play"),
            1 => moves[0],
            _ => moves[below(bot, len)],
        };
        self.play_card(usize::from(i), t);
    }

    fn play_card(&mut self, i: usize, t: i32) {
        let seat = self.turn;
        let s = usize::from(seat);
        let card = super::take(&mut self.hands[s], i);
        self.lens[s] -= 1;
        self.discard.push(card);
        self.total = t;
        // Drawing: the hand is short by the card just played.
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
        match card / 4 {
            // Two players: the 4 plays again.
            FOUR if self.active() == 2 => {}
            FOUR => {
                self.clockwise = !self.clockwise;
                self.turn = self.next(seat, self.clockwise);
            }
            THREE => {
                let next = self.next(seat, self.clockwise);
                self.turn = self.next(next, self.clockwise);
            }
            _ => self.turn = self.next(seat, self.clockwise),
        }
        self.turns += 1;
        self.settle();
    }

    /// Whoever is to play and cannot pays a chip and loses the round, until someone can play.
    fn settle(&mut self) {
        while !self.over {
            let seat = self.turn;
            let s = usize::from(seat);
            if self.lens[s] > 0 && self.can_play() {
                return;
            }
            // The player pays 1 to the bank (out at 0 chips) and loses the round.
            let paid = self.chips[s].min(1);
            self.chips[s] -= paid;
            self.lost[BUST] += paid as u64;
            if self.chips[s] == 0 {
                self.eliminate(seat);
            }
            self.finish_round(seat);
        }
    }

    fn eliminate(&mut self, seat: u8) {
        let s = usize::from(seat);
        self.out |= 1 << seat;
        self.aside
            .extend(&self.hands[s][..usize::from(self.lens[s])]);
        self.lens[s] = 0;
        if self.active() <= 1 {
            self.over = true;
        }
    }

    fn finish_round(&mut self, loser: u8) {
        if self.over || self.active() <= 1 {
            self.end_game();
            return;
        }
        self.round += 1;
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
        self.dealer = self.next(self.dealer, true);
        self.total = 0;
        self.clockwise = true;
        self.deal();
        self.turn = self.next(loser, true);
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
