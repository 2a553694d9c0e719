//! The native baseline of `ninety sim RULESET --bots random --jobs 1` (or `--bots cautious`):
//! the same games (same per-game seeds, same bots, same random numbers) played by
//! hand-written code, and the same statistics, as one JSON line.
//!
//! ```text
//! native_sim --game ninety-nine|ninety-eight|33-66-99|ring-of-99 [--bots random|cautious] [--players P] [--games N] [--seed S]
//! ```
//!
//! The defaults are `ninety sim`'s: 3 players, 1000 games, seed 1; random bots.

#[path = "../benches/native/mod.rs"]
mod native;

use native::{Bots, CAUSES, Game};

const USAGE: &str = "usage: native_sim --game ninety-nine|ninety-eight|33-66-99|ring-of-99 [--bots random|cautious] [--players P] [--games N] [--seed S]";

fn fail(msg: &str) -> ! {
    eprintln!("native_sim: {msg}\n{USAGE}");
    std::process::exit(2);
}

fn number<T: std::str::FromStr>(flag: &str, value: Option<String>) -> T {
    let Some(v) = value else {
        fail(&format!("{flag} needs a value"))
    };
    v.parse()
        .unwrap_or_else(|_| fail(&format!("{flag}: `{v}` is not a number")))
}

fn main() {
    let mut game = None;
    let mut bots = Bots::Random;
    let mut players: usize = 3;
    let mut games: u64 = 1000;
    let mut seed: u64 = 1;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--game" => {
                let name = args.next().unwrap_or_default();
                game = Some(
                    Game::from_name(&name).unwrap_or_else(|| fail(&format!("no game `{name}`"))),
                );
            }
            "--bots" => {
                let name = args.next().unwrap_or_default();
                bots = Bots::from_name(&name).unwrap_or_else(|| fail(&format!("no bots `{name}`")));
            }
            "--players" => players = number("--players", args.next()),
            "--games" => games = number("--games", args.next()),
            "--seed" => seed = number("--seed", args.next()),
            "-h" | "--help" => {
                println!("{USAGE}");
                return;
            }
            other => fail(&format!("unknown argument `{other}`")),
        }
    }
    let Some(game) = game else {
        fail("--game is required")
    };
    if !game.players().contains(&players) {
        fail(&format!(
            "{} is played by {} to {} players, not {players}",
            game.ruleset(),
            game.players().start(),
            game.players().end()
        ));
    }
    let t = native::run(game, bots, players, games, seed);
    let chips: serde_json::Map<String, serde_json::Value> = CAUSES
        .iter()
        .zip(t.chips_lost)
        .map(|(name, n)| ((*name).to_string(), n.into()))
        .collect();
    let out = serde_json::json!({
        "game": game.ruleset(),
        "bots": bots.name(),
        "players": players,
        "seed": seed,
        "games": t.games,
        "wins": t.wins,
        "won_games": t.won_games,
        "turns": t.turns,
        "rounds": t.rounds,
        "chips_lost": chips,
        "turn_limited": t.turn_limited,
    });
    println!("{out}");
}
