//! The engine against a hand-written native Ninety-Nine, in the same run.
//!
//! Both play the same seeded games with the same bot (the legal move that leaves the lowest
//! total, first in hand order on ties) and the same random numbers, and must agree on every
//! game's length; the ratio of their speeds is what the compiled ruleset costs. Also: turns
//! per second on every core, and the time `check` takes on every shipped ruleset.
//!
//! `cargo bench` (or `cargo bench -- --games 20000`).

use ninety::play::Ruleset;
use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use ninety::app::load::load_program;
use ninety::compile::Disk;
use ninety::engine::{self, Move, Moves, Setup, State};

/// The interpreted bot: the legal move with the lowest new total.
fn lowest(p: &Ruleset, s: &State, moves: &mut Moves) -> Option<Move> {
    s.legal_moves_into(p, moves);
    let mut best: Option<(i32, Move)> = None;
    for (&m, &t) in moves.as_slice().iter().zip(moves.totals()) {
        if best.is_none_or(|(b, _)| t < b) {
            best = Some((t, m));
        }
    }
    best.map(|(_, m)| m)
}

/// Plays `games` interpreted games; the total number of turns.
fn interpreted(p: &Ruleset, players: usize, games: u64, first_seed: u64) -> u64 {
    let mut turns = 0;
    for g in 0..games {
        let setup = Setup {
            players,
            seed: first_seed + g,
            ..Setup::default()
        };
        let mut s = engine::new_game(p, &setup, &mut ()).expect("a game");
        let mut moves = Moves::new();
        while !s.over {
            let m = lowest(p, &s, &mut moves).expect("a move");
            engine::step(p, &mut s, m, &mut ()).expect("legal");
        }
        turns += s.turns;
    }
    turns
}

mod native {
    //! Ninety-Nine written by hand: a `match` on the rank, the rules in code. The dealing,
    //! shuffling and turn order follow the engine's exactly, so both play the same games.

    fn seed_state(seed: u64) -> [u64; 4] {
        use rand_xoshiro::Xoshiro256PlusPlus;
        use rand_xoshiro::rand_core::{RngCore, SeedableRng};
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        [
            rng.next_u64(),
            rng.next_u64(),
            rng.next_u64(),
            rng.next_u64(),
        ]
    }

    fn below(s: &mut [u64; 4], n: usize) -> usize {
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        ((u128::from(result) * n as u128) >> 64) as usize
    }

    fn shuffle(rng: &mut [u64; 4], cards: &mut [u8]) {
        for i in (1..cards.len()).rev() {
            let j = below(rng, i + 1);
            cards.swap(i, j);
        }
    }

    pub struct Game {
        n: u8,
        hands: [[u8; 3]; 5],
        lens: [u8; 5],
        stock: Vec<u8>,
        discard: Vec<u8>,
        aside: Vec<u8>,
        total: i32,
        clockwise: bool,
        turn: u8,
        chips: [i32; 5],
        out: u8,
        dealer: u8,
        rng: [u64; 4],
        pub turns: u64,
        pub over: bool,
    }

    impl Game {
        pub fn new(n: u8, seed: u64) -> Game {
            let mut g = Game {
                n,
                hands: [[0; 3]; 5],
                lens: [0; 5],
                stock: Vec::with_capacity(52),
                discard: Vec::with_capacity(52),
                aside: Vec::with_capacity(52),
                total: 0,
                clockwise: true,
                turn: 0,
                chips: [3; 5],
                out: 0,
                dealer: 0,
                rng: seed_state(seed),
                turns: 0,
                over: false,
            };
            g.dealer = below(&mut g.rng, usize::from(n)) as u8;
            g.stock.extend(0..52u8);
            shuffle(&mut g.rng, &mut g.stock);
            g.deal();
            g.turn = g.next_in(g.dealer, true);
            g.settle();
            g
        }

        fn alive(&self, s: u8) -> bool {
            self.out & (1 << s) == 0
        }

        fn next_in(&self, from: u8, cw: bool) -> u8 {
            let mut s = from;
            for _ in 0..self.n {
                s = if cw {
                    (s + 1) % self.n
                } else {
                    (s + self.n - 1) % self.n
                };
                if self.alive(s) {
                    return s;
                }
            }
            from
        }

        fn deal(&mut self) {
            let first = self.next_in(self.dealer, true);
            for _ in 0..3 {
                let mut seat = first;
                for _ in 0..self.n {
                    if self.alive(seat) {
                        let c = self.stock.pop().expect("cards");
                        let s = usize::from(seat);
                        self.hands[s][usize::from(self.lens[s])] = c;
                        self.lens[s] += 1;
                    }
                    seat = (seat + 1) % self.n;
                }
            }
        }

        fn active(&self) -> u32 {
            u32::from(self.n) - self.out.count_ones()
        }

        /// The totals a rank can make: up to two choices.
        fn totals(rank: u8, total: i32) -> ([i32; 2], usize) {
            match rank {
                0 => ([total + 1, total + 11], 2),
                8 => ([99, 0], 1),
                9 => ([total + 10, total - 10], 2),
                10 | 11 => ([total + 10, 0], 1),
                3 | 12 => ([total, 0], 1),
                r => ([total + i32::from(r) + 1, 0], 1),
            }
        }

        /// The bot: the legal move with the lowest total, first in hand order on ties.
        fn choose(&self) -> Option<(usize, i32)> {
            let s = usize::from(self.turn);
            let mut best: Option<(usize, i32)> = None;
            for i in 0..usize::from(self.lens[s]) {
                let (ts, k) = Self::totals(self.hands[s][i] / 4, self.total);
                for &t in &ts[..k] {
                    if (0..=99).contains(&t) && best.is_none_or(|(_, b)| t < b) {
                        best = Some((i, t));
                    }
                }
            }
            best
        }

        pub fn step(&mut self) {
            let s = usize::from(self.turn);
            let (i, t) = self.choose().expect("settled");
            let card = self.hands[s][i];
            self.hands[s].copy_within(i + 1..usize::from(self.lens[s]), i);
            self.lens[s] -= 1;
            self.discard.push(card);
            self.total = t;
            self.turns += 1;
            // Draw.
            if self.stock.is_empty() && self.discard.len() > 1 {
                let top = self.discard.pop().expect("top");
                self.stock.append(&mut self.discard);
                self.discard.push(top);
                shuffle(&mut self.rng, &mut self.stock);
            }
            if let Some(c) = self.stock.pop() {
                self.hands[s][usize::from(self.lens[s])] = c;
                self.lens[s] += 1;
            }
            let rank = card / 4;
            let two = self.active() == 2;
            match rank {
                3 if two => {}
                3 => {
                    self.clockwise = !self.clockwise;
                    self.turn = self.next_in(self.turn, self.clockwise);
                }
                2 => {
                    let next = self.next_in(self.turn, self.clockwise);
                    self.turn = self.next_in(next, self.clockwise);
                }
                _ => self.turn = self.next_in(self.turn, self.clockwise),
            }
            self.settle();
        }

        fn settle(&mut self) {
            while !self.over && self.choose().is_none() {
                let loser = self.turn;
                let l = usize::from(loser);
                self.chips[l] -= 1;
                if self.chips[l] == 0 {
                    self.out |= 1 << loser;
                    self.aside
                        .extend_from_slice(&self.hands[l][..usize::from(self.lens[l])]);
                    self.lens[l] = 0;
                }
                if self.active() <= 1 {
                    self.over = true;
                    return;
                }
                // A new round: the stock, then every hand, the discard pile and the cards set
                // aside, shuffled together (the engine's order: it matters to the shuffle).
                for seat in 0..usize::from(self.n) {
                    self.stock
                        .extend_from_slice(&self.hands[seat][..usize::from(self.lens[seat])]);
                    self.lens[seat] = 0;
                }
                self.stock.append(&mut self.discard);
                self.stock.append(&mut self.aside);
                shuffle(&mut self.rng, &mut self.stock);
                self.dealer = self.next_in(self.dealer, true);
                self.total = 0;
                self.clockwise = true;
                self.deal();
                self.turn = self.next_in(loser, true);
            }
        }
    }
}

/// Plays `games` native games; the total number of turns.
fn native_games(players: u8, games: u64, first_seed: u64) -> u64 {
    let mut turns = 0;
    for g in 0..games {
        let mut game = native::Game::new(players, first_seed + g);
        while !game.over {
            game.step();
        }
        turns += game.turns;
    }
    turns
}

/// Runs `f` a few times and keeps the best time, in seconds.
fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::MAX;
    let mut out = None;
    for _ in 0..runs {
        let t = Instant::now();
        let r = black_box(f());
        best = best.min(t.elapsed().as_secs_f64());
        out = Some(r);
    }
    (best, out.expect("ran"))
}

fn main() {
    let mut games: u64 = 20_000;
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--games") {
        games = args
            .get(i + 1)
            .and_then(|g| g.parse().ok())
            .unwrap_or(games);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root
        .join("rulesets/ninety-nine.rules")
        .display()
        .to_string();
    let p = load_program(&Disk, &path, &[]).expect("checks");
    let players = 4;

    // The same games: every game's length must agree.
    for seed in 0..200 {
        assert_eq!(
            interpreted(&p, players, 1, seed),
            native_games(players as u8, 1, seed),
            "game {seed} differs"
        );
    }

    let (ti, turns_i) = best_of(5, || interpreted(&p, players, games, 1));
    let (tn, turns_n) = best_of(5, || native_games(players as u8, games, 1));
    assert_eq!(turns_i, turns_n);
    println!("Ninety-Nine, {players} players, {games} games, one core, the same bot and seeds:");
    println!(
        "  interpreted ruleset: {:>10.0} games/s  {:>6.1} M turns/s  {:>5.1} ns/turn",
        games as f64 / ti,
        turns_i as f64 / ti / 1e6,
        ti * 1e9 / turns_i as f64
    );
    println!(
        "  native baseline:     {:>10.0} games/s  {:>6.1} M turns/s  {:>5.1} ns/turn",
        games as f64 / tn,
        turns_n as f64 / tn / 1e6,
        tn * 1e9 / turns_n as f64
    );
    println!("  ratio (interpreted speed / native speed): {:.2}", tn / ti);

    // Every core: games split over threads, each seeded from its number.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let per = games / cores as u64;
    let (tp, turns_p) = best_of(3, || {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..cores)
                .map(|c| {
                    let p = &p;
                    scope.spawn(move || interpreted(p, players, per, 1 + c as u64 * per))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a thread"))
                .sum::<u64>()
        })
    });
    println!(
        "  on {cores} cores: {:.1} M turns/s",
        turns_p as f64 / tp / 1e6
    );

    // The 33/66/99 game's 2 (halve an even total above 49, else double), three ways.
    println!(
        "33/66/99, {players} players, {} games: its 2 written natively, as a tabulated script, as a live script:",
        games / 10
    );
    let n33 = |file: &str| {
        load_program(&Disk, &root.join(file).display().to_string(), &[]).expect("checks")
    };
    let native_two = n33("rulesets/33-66-99-auto.rules");
    let tabulated = n33("benches/rulesets/33-two-tabulated.rules");
    let live = n33("benches/rulesets/33-two-live.rules");
    assert!(
        tabulated.script_fx.iter().all(|f| f.table.is_some())
            && live.script_fx.iter().all(|f| f.table.is_none())
    );
    let (t0, turns0) = best_of(3, || interpreted(&native_two, players, games / 10, 1));
    let (t1, turns1) = best_of(3, || interpreted(&tabulated, players, games / 10, 1));
    let (t2, turns2) = best_of(3, || interpreted(&live, players, games / 10, 1));
    assert_eq!(turns0, turns1, "the tabulated script plays the same games");
    assert_eq!(turns0, turns2, "the live script plays the same games");
    println!(
        "  native 2:           {:>6.1} ns/turn",
        t0 * 1e9 / turns0 as f64
    );
    println!(
        "  tabulated script:   {:>6.1} ns/turn  ({:.2}x native)",
        t1 * 1e9 / turns1 as f64,
        t1 / t0
    );
    println!(
        "  live script:        {:>6.1} ns/turn  ({:.2}x native)",
        t2 * 1e9 / turns2 as f64,
        t2 / t0
    );

    // `check` on every shipped ruleset.
    let mut files: Vec<_> = std::fs::read_dir(root.join("rulesets"))
        .expect("rulesets")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|f| f.extension().is_some_and(|x| x == "rules"))
        .collect();
    files.sort();
    println!("check (parse, check, compile, run the scenarios), best of 5:");
    for f in files {
        let path = f.display().to_string();
        let (t, checked) = best_of(5, || {
            ninety::app::load::check_one(&Disk, &path, &[]).expect("readable")
        });
        println!(
            "  {:<36} {:>8.2} ms  ({} scenarios)",
            f.file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned()),
            t * 1e3,
            checked.layers.last().map_or(0, |l| l.file.scenarios.len())
        );
    }
}
