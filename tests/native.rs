//! The native baseline (`benches/native/`) plays the very games `ninety sim --bots random`
//! and `ninety sim --bots cautious` play: the same statistics over a run, and the same game
//! for every seed.

#[path = "../benches/native/mod.rs"]
mod native;

use ninety::play::Ruleset;
use std::path::Path;

use native::{BOTS, Bots, CAUSES, Game, GameResult};
use ninety::app::load::load_program;
use ninety::base::Rng;
use ninety::base::limits::TURN_LIMIT;
use ninety::base::rng::game_seed;
use ninety::compile::Disk;
use ninety::engine::{self, Event, Setup};
use ninety::play::{Bot, Player};
use ninety::sim::{self, Config, Control, WIN_UNIT};

fn program(game: Game) -> Ruleset {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(game.ruleset())
        .display()
        .to_string();
    load_program(&Disk, &path, &[]).expect("the ruleset checks")
}

/// The engine's player for the native's bots, by the name both know them by.
fn player(bots: Bots) -> Player {
    Player::Bot(Bot::from_name(bots.name()).expect("a bot the engine knows"))
}

/// One game as `sim::play_one` plays it, its events recorded.
fn engine_game(p: &Ruleset, bots: Bots, players: usize, seed: u64) -> (GameResult, Vec<Event>) {
    let mut events: Vec<Event> = Vec::new();
    let setup = Setup {
        players,
        seed,
        ..Setup::default()
    };
    let mut s = engine::new_game(p, &setup, &mut events).expect("a game");
    let mut rng = Rng::for_bots(seed);
    let mut limited = false;
    while !s.over {
        if s.turns >= TURN_LIMIT {
            limited = true;
            break;
        }
        let played = player(bots)
            .turn(p, &mut s, &mut rng, &mut events)
            .expect("the bot's move is legal");
        assert!(played, "the bot has a move");
    }
    let mut chips_lost = [0u64; 4];
    for e in &events {
        if let Event::Pay { amount, reason, .. } = *e {
            let k = match reason {
                engine::Reason::CannotPlay | engine::Reason::NoCards => native::BUST,
                engine::Reason::Passed(_) => native::PASSED,
                engine::Reason::Reached(_) => native::REACHED,
                _ => native::OTHER,
            };
            chips_lost[k] += amount.max(0) as u64;
        }
    }
    let result = GameResult {
        turns: s.turns,
        rounds: s.round,
        winners: if limited { 0 } else { s.winners },
        chips_lost,
        limited,
    };
    (result, events)
}

/// Plays games `0..games` of a run seeded `master` both ways, one by one; the first game that
/// differs is reported with its index, its seed and the engine's events.
fn same_games(game: Game, bots: Bots, p: &Ruleset, players: usize, games: u64, master: u64) {
    for i in 0..games {
        let seed = native::game_seed(master, i);
        let ours = game.play(bots, players, seed);
        let (theirs, events) = engine_game(p, bots, players, seed);
        if ours != theirs {
            let log: Vec<String> = events.iter().take(400).map(|e| format!("{e:?}")).collect();
            panic!(
                "{game:?}, {bots:?} bots, {players} players: game {i} (seed {seed}) differs\n native: {ours:?}\n engine: {theirs:?}\nthe engine's events:\n{}",
                log.join("\n")
            );
        }
    }
}

/// A run of `games` games both ways, with each kind of bot: the same statistics.
fn same_stats(game: Game, players: usize, games: u64, master: u64) {
    for bots in BOTS {
        same_stats_with(game, bots, players, games, master);
    }
}

fn same_stats_with(game: Game, bots: Bots, players: usize, games: u64, master: u64) {
    let p = program(game);
    same_games(game, bots, &p, players, games, master);
    let cfg = Config {
        ruleset: game.ruleset().into(),
        name: p.name.clone(),
        players,
        bots: vec![bots.name().into(); players],
        seed: master,
        games,
        sets: Vec::new(),
    };
    let stats = sim::run(&p, &[player(bots)], &cfg, &Control::jobs(1)).expect("the run");
    let ours = native::run(game, bots, players, games, master);
    assert_eq!(stats.failed, 0);
    assert_eq!(ours.games, stats.games, "games");
    assert_eq!(ours.wins, stats.wins, "wins");
    assert_eq!(ours.won_games, stats.won_games, "won games");
    assert_eq!(ours.turns, stats.turns.sum, "turns");
    assert_eq!(ours.rounds, stats.rounds.sum, "rounds");
    assert_eq!(ours.turn_limited, stats.turn_limited, "turn-limited games");
    for (name, n) in CAUSES.iter().zip(ours.chips_lost) {
        assert_eq!(
            Some(&n),
            stats.chips_lost.get(*name),
            "chips lost by {name}"
        );
    }
    assert_eq!(
        stats.chips_lost.len(),
        CAUSES.len(),
        "the sim counts no other cause"
    );
    assert_eq!(
        ours.wins.iter().sum::<u64>(),
        games * WIN_UNIT,
        "every game has a winner"
    );
}

#[test]
fn ninety_nine_three_players() {
    same_stats(Game::NinetyNine, 3, 300, 1);
}

#[test]
fn ninety_nine_five_players() {
    same_stats(Game::NinetyNine, 5, 300, 1);
}

#[test]
fn ninety_eight_three_players() {
    same_stats(Game::NinetyEight, 3, 300, 1);
}

/// Two decks from 6 players: two copies of a card in a hand are one move.
#[test]
fn ninety_eight_six_players() {
    same_stats(Game::NinetyEight, 6, 200, 1);
}

#[test]
fn thirty_three_three_players() {
    same_stats(Game::ThirtyThree, 3, 300, 1);
}

#[test]
fn thirty_three_five_players() {
    same_stats(Game::ThirtyThree, 5, 300, 1);
}

/// Five cards, two jokers, one deck, the cap at 199.
#[test]
fn ring_of_99_four_players() {
    same_stats(Game::Ring, 4, 300, 1);
}

/// Two decks from 7 players.
#[test]
fn ring_of_99_eight_players() {
    same_stats(Game::Ring, 8, 150, 1);
}

/// Every player count the rulesets allow, game by game (two decks from 6 players in
/// Ninety-Eight and 33/66/99, from 7 in Ring of 99).
#[test]
fn every_player_count() {
    for game in native::GAMES {
        let p = program(game);
        assert_eq!(
            game.players(),
            usize::from(p.min_players)..=usize::from(p.max_players)
        );
        for players in game.players() {
            for bots in BOTS {
                same_games(game, bots, &p, players, 40, 7);
            }
        }
    }
}

#[test]
fn the_same_random_streams() {
    use rand_xoshiro::Xoshiro256PlusPlus;
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    for seed in [0, 1, 42, u64::MAX, game_seed(1, 0)] {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let state = [
            rng.next_u64(),
            rng.next_u64(),
            rng.next_u64(),
            rng.next_u64(),
        ];
        assert_eq!(native::seed_state(seed), state);
        let mut ours = native::bot_rng(seed);
        let mut theirs = Rng::for_bots(seed);
        for n in 1..50 {
            assert_eq!(native::below(&mut ours, n), theirs.below(n));
        }
    }
    for i in 0..100 {
        assert_eq!(native::game_seed(3, i), game_seed(3, i));
    }
}

/// Many more games, game by game, at every player count: `cargo test --test native --
/// --ignored`.
#[test]
#[ignore = "slow: 20,000 games per player count"]
fn many_games() {
    for game in native::GAMES {
        let p = program(game);
        for players in game.players() {
            for bots in BOTS {
                same_games(game, bots, &p, players, 20_000, 1);
            }
        }
    }
}
