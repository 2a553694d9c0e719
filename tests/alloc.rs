//! The engine's hot path allocates nothing: a counting global allocator watches whole games
//! after their setup, on every shipped ruleset.
#![allow(unsafe_code)] // a global allocator is `unsafe` by nature; it only counts and forwards

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use ninety::app::load::load_program;
use ninety::compile::Disk;
use ninety::engine::{self, Setup};
use ninety::play::Bot;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded unchanged to the system allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|a| a.set(a.get() + 1));
        // SAFETY: the caller's contract is passed on as it is.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|a| a.set(a.get() + 1));
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

#[test]
fn no_allocation_per_turn() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("rulesets")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "rules"))
        .collect();
    files.sort();
    for f in files {
        let path = f.display().to_string();
        let p = load_program(&Disk, &path, &[]).expect("checks");
        for seed in 0..20 {
            let players = usize::from(p.min_players.max(3).min(p.max_players));
            let setup = Setup {
                players,
                seed,
                ..Setup::default()
            };
            let mut s = engine::new_game(&p, &setup, &mut ()).expect("a game");
            let mut rng = ninety::base::Rng::for_bots(seed);
            let before = allocations();
            let mut turns = 0;
            while !s.over && turns < 5000 {
                assert!(
                    ninety::play::bot_turn(&p, &mut s, Bot::Random, &mut rng, &mut ())
                        .expect("legal")
                );
                turns += 1;
            }
            let during = allocations() - before;
            assert_eq!(
                during, 0,
                "{path} seed {seed}: {during} allocations in {turns} turns"
            );
        }
    }
}

/// The strong bot keeps its tree and its game between moves: once it has searched a move or
/// two, a move's hundreds of iterations (deals, tree walks, play-outs) allocate nothing.
#[test]
fn no_allocation_per_iteration_of_the_strong_bot() {
    for (name, round) in [
        ("ninety-nine", true),
        ("ninety-nine", false),
        ("ninety-eight", true),
        ("33-66-99", true),
        ("ring-of-99", false),
    ] {
        let bot = Bot::Ismcts {
            iterations: 200,
            round,
        };
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("rulesets")
            .join(format!("{name}.rules"))
            .display()
            .to_string();
        let p = load_program(&Disk, &path, &[]).expect("checks");
        let setup = Setup {
            players: 3,
            seed: 3,
            ..Setup::default()
        };
        let mut rng = ninety::base::Rng::for_bots(3);
        // The cautious players' plan for each number of players left is built once a program
        // (`Program::derived`), the first time a game comes to it: a whole game first.
        let mut warm = engine::new_game(&p, &setup, &mut ()).expect("a game");
        while !warm.over {
            ninety::play::bot_turn(&p, &mut warm, Bot::Cautious, &mut rng, &mut ()).expect("legal");
        }
        let mut s = engine::new_game(&p, &setup, &mut ()).expect("a game");
        let (mut searched, mut during) = (0, 0);
        for turn in 0..60 {
            if s.over {
                break;
            }
            let before = allocations();
            assert!(ninety::play::bot_turn(&p, &mut s, bot, &mut rng, &mut ()).expect("legal"));
            if turn >= 6 {
                during += allocations() - before;
                searched += 1;
            }
        }
        assert!(searched > 10, "{name}: only {searched} moves");
        assert_eq!(
            during, 0,
            "{name}: {during} allocations in {searched} moves"
        );
    }
}
