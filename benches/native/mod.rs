//! Hand-written native games, played by uniformly random bots exactly as `ninety sim --bots
//! random` plays them, or by cautious ones exactly as `ninety sim --bots cautious` does: the
//! baseline for the speed of the whole simulation.
//!
//! Each game is a plain struct of fixed arrays; no allocation per game or per turn. The
//! capped games (Ninety-Nine, Ninety-Eight, Ring of 99) share one generic table
//! ([`capped`]), monomorphised per game, hand size and number of decks; 33/66/99, with its
//! bars and its draws by hand, has its own ([`thirty_three`]). The dealing, shuffling, turn
//! order and the bot's choices follow the engine's step by step and use the same random
//! numbers in the same order, so a seed gives the very game the engine plays:
//!
//! * the game's stream (xoshiro256++ from `seed`): the first dealer, the first shuffle, every
//!   reshuffle of the discard pile and every new round's shuffle;
//! * the bots' stream (`seed ^ 0x9E37_79B9_7F4A_7C15`), one for the whole table: for the
//!   random bot, one number per turn with more than one legal move, none with exactly one;
//!   for the cautious bot, one number below 16 per legal move to break ties
//!   (`play/weigh.rs`), none when there is exactly one move.
//!
//! Included by `examples/native_sim.rs` and `tests/native.rs`, each using part of it.
#![allow(dead_code)]

pub mod capped;
pub mod thirty_three;

/// Games longer than this are stopped (`engine::TURN_LIMIT`).
pub const TURN_LIMIT: u64 = 100_000;
/// Shares of a win: `WIN_UNIT / k` to each of `k` tied winners (`sim::WIN_UNIT`).
pub const WIN_UNIT: u64 = 27_720;

/// Why chips were lost, as the sim counts them.
pub const BUST: usize = 0;
pub const PASSED: usize = 1;
pub const REACHED: usize = 2;
pub const OTHER: usize = 3;
/// The names of the causes, by index, as in `sim::Stats::chips_lost`.
pub const CAUSES: [&str; 4] = ["bust", "passed", "reached", "other"];

/// What one game gives the statistics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GameResult {
    /// Cards played (`State::turns`).
    pub turns: u64,
    /// The round the game ended in (`State::round`).
    pub rounds: u32,
    /// The winners as a bit set of seats (none when stopped by the turn limit).
    pub winners: u16,
    /// Chips lost, by [`CAUSES`].
    pub chips_lost: [u64; 4],
    /// Stopped by [`TURN_LIMIT`].
    pub limited: bool,
}

/// The games written here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Game {
    /// `rulesets/ninety-nine.rules`, default options.
    NinetyNine,
    /// `rulesets/ninety-eight.rules`, default options.
    NinetyEight,
    /// `rulesets/33-66-99.rules`, default options.
    ThirtyThree,
    /// `rulesets/ring-of-99.rules`, default options (the cap at 199).
    Ring,
}

/// The bots in every seat, as `ninety sim --bots NAME` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bots {
    /// A legal move uniformly (`play::Bot::Random`).
    Random,
    /// The weighing bot (`play::Bot::Cautious`, `play/weigh.rs`): every legal move scored by
    /// the rise it makes, the escape card it spends and the share of the unseen cards it may
    /// leave the next player unable to lay, the best played, ties broken at random.
    Cautious,
}

/// Both, in the bench's order.
pub const BOTS: [Bots; 2] = [Bots::Random, Bots::Cautious];

impl Bots {
    pub fn from_name(name: &str) -> Option<Bots> {
        BOTS.into_iter().find(|b| b.name() == name)
    }

    pub fn name(self) -> &'static str {
        match self {
            Bots::Random => "random",
            Bots::Cautious => "cautious",
        }
    }
}

/// Every game written here, in the bench's order.
pub const GAMES: [Game; 4] = [
    Game::NinetyNine,
    Game::NinetyEight,
    Game::ThirtyThree,
    Game::Ring,
];

impl Game {
    pub fn from_name(name: &str) -> Option<Game> {
        GAMES.into_iter().find(|g| g.name() == name)
    }

    /// The name `ninety sim` and `native_sim --game` know it by.
    pub fn name(self) -> &'static str {
        match self {
            Game::NinetyNine => "ninety-nine",
            Game::NinetyEight => "ninety-eight",
            Game::ThirtyThree => "33-66-99",
            Game::Ring => "ring-of-99",
        }
    }

    /// The ruleset file this game mirrors, relative to the crate.
    pub fn ruleset(self) -> &'static str {
        match self {
            Game::NinetyNine => "rulesets/ninety-nine.rules",
            Game::NinetyEight => "rulesets/ninety-eight.rules",
            Game::ThirtyThree => "rulesets/33-66-99.rules",
            Game::Ring => "rulesets/ring-of-99.rules",
        }
    }

    /// The player counts the ruleset allows.
    pub fn players(self) -> std::ops::RangeInclusive<usize> {
        match self {
            Game::NinetyNine => 2..=capped::max_seats(capped::NINETY_NINE),
            Game::NinetyEight => 2..=capped::max_seats(capped::NINETY_EIGHT),
            Game::ThirtyThree => 2..=thirty_three::MAX_SEATS,
            Game::Ring => 2..=capped::max_seats(capped::RING),
        }
    }

    /// Plays one game from its seed with `bots` in every seat.
    pub fn play(self, bots: Bots, players: usize, seed: u64) -> GameResult {
        assert!(
            self.players().contains(&players),
            "{self:?} is not played by {players} players"
        );
        let (n, cautious) = (players as u8, bots == Bots::Cautious);
        match self {
            Game::NinetyNine => capped::play(capped::NINETY_NINE, cautious, n, seed),
            Game::NinetyEight => capped::play(capped::NINETY_EIGHT, cautious, n, seed),
            Game::ThirtyThree => thirty_three::play(cautious, n, seed),
            Game::Ring => capped::play(capped::RING, cautious, n, seed),
        }
    }
}

/// A card's rank from its code (`copy * 56 + rank * 4 + suit`, the engine's).
pub const RANK: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = ((c % 56) / 4) as u8;
        c += 1;
    }
    t
};

/// A card's face (its code in the first copy of the deck), read as the rank is: a `% 56` a
/// card costs more than the rest of the count.
pub const FACE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = (c % 56) as u8;
        c += 1;
    }
    t
};

/// A game's seed from the run's seed and the game's number (`sim::game_seed`).
pub fn game_seed(master: u64, index: u64) -> u64 {
    let mut z = master ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The statistics of a run, as sums (the part of `sim::Stats` the baseline reproduces).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Totals {
    pub games: u64,
    /// Win shares by seat, in units of [`WIN_UNIT`].
    pub wins: Vec<u64>,
    /// Games each seat won, alone or shared.
    pub won_games: Vec<u64>,
    pub turns: u64,
    pub rounds: u64,
    /// By [`CAUSES`].
    pub chips_lost: [u64; 4],
    pub turn_limited: u64,
}

impl Totals {
    pub fn new(players: usize) -> Totals {
        Totals {
            wins: vec![0; players],
            won_games: vec![0; players],
            ..Totals::default()
        }
    }

    /// Adds one game as `sim::play_one` does.
    pub fn add(&mut self, r: &GameResult) {
        self.games += 1;
        if r.limited {
            self.turn_limited += 1;
        }
        let k = u64::from(r.winners.count_ones());
        if k > 0 && !r.limited {
            for (seat, (w, g)) in self.wins.iter_mut().zip(&mut self.won_games).enumerate() {
                if r.winners & (1 << seat) != 0 {
                    *w += WIN_UNIT / k;
                    *g += 1;
                }
            }
        }
        self.turns += r.turns;
        self.rounds += u64::from(r.rounds);
        for (a, b) in self.chips_lost.iter_mut().zip(r.chips_lost) {
            *a += b;
        }
    }
}

/// Plays games `0..games` of a run seeded `master`, one after the other.
pub fn run(game: Game, bots: Bots, players: usize, games: u64, master: u64) -> Totals {
    let mut t = Totals::new(players);
    for i in 0..games {
        t.add(&game.play(bots, players, game_seed(master, i)));
    }
    t
}

/// A game's xoshiro256++ state from its seed, as the engine makes it: `rand_xoshiro`'s
/// `seed_from_u64` (SplitMix64 fills a state), then that generator's first four outputs.
pub fn seed_state(seed: u64) -> [u64; 4] {
    let mut x = seed;
    let mut splitmix = || {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut s = [splitmix(), splitmix(), splitmix(), splitmix()];
    [
        next_u64(&mut s),
        next_u64(&mut s),
        next_u64(&mut s),
        next_u64(&mut s),
    ]
}

/// The bots' stream of a game (`engine::bot_rng`).
pub fn bot_rng(seed: u64) -> [u64; 4] {
    seed_state(seed ^ 0x9E37_79B9_7F4A_7C15)
}

/// One xoshiro256++ step.
#[inline(always)]
pub fn next_u64(s: &mut [u64; 4]) -> u64 {
    let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
    let t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = s[3].rotate_left(45);
    result
}

/// A number below `n`: one xoshiro256++ step, then Lemire's multiply-shift.
#[inline(always)]
pub fn below(s: &mut [u64; 4], n: usize) -> usize {
    ((u128::from(next_u64(s)) * n as u128) >> 64) as usize
}

/// Fisher–Yates from the top, as the engine shuffles.
#[inline]
pub fn shuffle(rng: &mut [u64; 4], cards: &mut [u8]) {
    for i in (1..cards.len()).rev() {
        let j = below(rng, i + 1);
        cards.swap(i, j);
    }
}

/// The cautious bot's choice among the moves offered in the engine's order (`weigh::Best`):
/// each move's score times 16 plus a number below 16 drawn from a copy of the bots' stream,
/// the highest kept (the first of equals); the copy becomes the stream unless there was
/// exactly one move (the bot had nothing to choose).
pub struct Best {
    rng: [u64; 4],
    n: u32,
    score: i64,
    mv: u32,
}

impl Best {
    #[inline(always)]
    pub fn new(rng: &[u64; 4]) -> Best {
        Best {
            rng: *rng,
            n: 0,
            score: i64::MIN,
            mv: 0,
        }
    }

    /// Move `mv` (the caller's number for it), scored `score`. Which move is best is as good
    /// as random to a branch predictor: chosen by a conditional move.
    #[inline(always)]
    pub fn offer(&mut self, mv: u32, score: i64) {
        let sc = score * 16 + below(&mut self.rng, 16) as i64;
        self.mv = std::hint::select_unpredictable(sc > self.score, mv, self.mv);
        self.score = self.score.max(sc);
        self.n += 1;
    }

    /// The best move offered, `rng` moved past the numbers drawn.
    #[inline(always)]
    pub fn choose(self, rng: &mut [u64; 4]) -> u32 {
        if self.n != 1 {
            *rng = self.rng;
        }
        self.mv
    }
}

/// The part of a cautious move's score the totals decide (`weigh::base`, a move worth no
/// chips): while the total is high every point of rise costs 4, while it is low a rise is
/// worth itself, up to 20 either way. Worked out into the natives' tables at compile time.
pub const fn base(rise: i32, high: bool) -> i32 {
    if high {
        -4 * if rise > 0 { rise } else { 0 }
    } else if rise > 20 {
        20
    } else if rise < -20 {
        -20
    } else {
        rise
    }
}

/// Division by a number fixed for a turn, as a multiplication by its reciprocal rounded up
/// (`weigh::Divisor`): exact while the dividend times the divisor is below 2³²; dividing by
/// zero gives zero.
#[derive(Clone, Copy)]
pub struct Divisor(u64);

impl Divisor {
    #[inline(always)]
    pub fn new(d: u32) -> Divisor {
        Divisor(if d == 0 {
            0
        } else {
            (1u64 << 32).div_ceil(u64::from(d))
        })
    }

    #[inline(always)]
    pub fn div(self, n: u32) -> u32 {
        ((u64::from(n) * self.0) >> 32) as u32
    }
}

/// The sum of the bytes of `x` (each a count of cards of a rank, the sum below 256).
#[inline(always)]
pub fn byte_sum(x: u128) -> u32 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let (lo, hi) = (x as u64, (x >> 64) as u64);
    ((lo.wrapping_mul(ONES) >> 56) + (hi.wrapping_mul(ONES) >> 56)) as u32
}

/// Takes the card at `i` out of a three-card hand, the cards after it moving up (hand order
/// is what the bot's moves follow): the hand as one word, the bytes above `i` shifted down
/// under a mask, with no branch on `i`.
#[inline(always)]
pub fn take(hand: &mut [u8; 3], i: usize) -> u8 {
    let c = hand[i];
    let w = u32::from_le_bytes([hand[0], hand[1], hand[2], 0]);
    let below = (1u32 << (8 * i)) - 1;
    let w = (w & below) | ((w >> 8) & !below);
    let b = w.to_le_bytes();
    *hand = [b[0], b[1], b[2]];
    c
}

/// A pile of at most `N` cards; its top card is the last.
#[derive(Debug, Clone, Copy)]
pub struct Pile<const N: usize> {
    cards: [u8; N],
    len: usize,
}

impl<const N: usize> Pile<N> {
    pub const fn new() -> Self {
        Pile {
            cards: [0; N],
            len: 0,
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn push(&mut self, c: u8) {
        self.cards[self.len] = c;
        self.len += 1;
    }

    #[inline]
    pub fn pop(&mut self) -> Option<u8> {
        if self.len == 0 {
            None
        } else {
            self.len -= 1;
            Some(self.cards[self.len])
        }
    }

    #[inline]
    pub fn extend(&mut self, cards: &[u8]) {
        self.cards[self.len..self.len + cards.len()].copy_from_slice(cards);
        self.len += cards.len();
    }

    /// Moves every card of `other` on top of this pile, in order.
    #[inline]
    pub fn append(&mut self, other: &mut Pile<N>) {
        self.extend(&other.cards[..other.len]);
        other.len = 0;
    }

    #[inline]
    pub fn cards_mut(&mut self) -> &mut [u8] {
        &mut self.cards[..self.len]
    }

    /// Empties the pile into a fresh shuffle: the pile's cards shuffled with `rng`.
    #[inline]
    pub fn shuffle(&mut self, rng: &mut [u64; 4]) {
        shuffle(rng, &mut self.cards[..self.len]);
    }
}

impl<const N: usize> Default for Pile<N> {
    fn default() -> Self {
        Self::new()
    }
}

/// The next seat not in `out` from `from`, going round `seats` seats (`State::next_in`).
#[inline]
pub fn next_in(seats: u8, out: u16, from: u8, clockwise: bool) -> u8 {
    let last = seats - 1;
    let mut s = from;
    for _ in 0..seats {
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
