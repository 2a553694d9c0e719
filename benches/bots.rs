//! The strong bot, measured: how fast it searches, and how strong it is.
//!
//! ```text
//! cargo bench --bench bots                  # speed: ms a move, iterations per second
//! cargo bench --bench bots -- --ladder      # strength: the ladder, and ismcts against search
//! cargo bench --bench bots -- --ladder --games 60
//! ```
//!
//! Speed is timed in process on one core: 3-player games of each game with the strong bot in
//! seat 0 and cautious players beside it, only its searched moves timed (a move with one
//! legal card is not searched). Then a tournament (`ninety sim --bots ismcts,search,cautious`)
//! as a whole process, one job against two. Strength is counted, never timed: win shares over
//! seeded games, seats rotated, with 95% Wilson intervals.

use ninety::play::Ruleset;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use ninety::app::load::load_program;
use ninety::base::Rng;
use ninety::compile::Disk;
use ninety::engine::{Moves, Setup, new_game};
use ninety::play::{Bot, Player, bot_turn};
use ninety::sim::{self, Config, Control, WIN_UNIT, wilson};

const GAMES: [&str; 4] = ["ninety-nine", "ninety-eight", "33-66-99", "ring-of-99"];

fn main() {
    let mut ladder = false;
    let mut games: u64 = 0;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--ladder" => ladder = true,
            "--games" => games = args.next().and_then(|g| g.parse().ok()).expect("a number"),
            // `cargo bench` passes `--bench`.
            _ => {}
        }
    }
    if ladder {
        strength(if games == 0 { 60 } else { games });
    } else {
        speed(if games == 0 { 8 } else { games });
    }
}

fn load(name: &str) -> Ruleset {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("rulesets")
        .join(format!("{name}.rules"))
        .display()
        .to_string();
    load_program(&Disk, &path, &[]).expect("the ruleset checks")
}

fn speed(games: u64) {
    let iterations = ninety::play::ismcts::DEFAULT_ITERATIONS;
    println!(
        "ismcts ({iterations} iterations a move, the default), seat 0 of 3 beside two cautious \
         players, {games} games each, one core:"
    );
    println!(
        "  {:<12} {:>7} {:>10} {:>14}",
        "game", "moves", "ms a move", "iterations/s"
    );
    let bot = Bot::Ismcts {
        iterations,
        round: true,
    };
    for name in GAMES {
        let p = load(name);
        let (mut moves, mut took) = (0u64, Duration::ZERO);
        for seed in 0..games {
            let setup = Setup {
                players: 3,
                seed,
                ..Setup::default()
            };
            let mut s = new_game(&p, &setup, &mut ()).expect("deals");
            let mut rng = Rng::for_bots(seed);
            while !s.over && s.turns < 5_000 {
                let ours = s.turn == 0;
                let searched = ours && {
                    let mut m = Moves::new();
                    s.legal_moves_into(&p, &mut m);
                    m.retain_plays();
                    m.len() > 1
                };
                let start = Instant::now();
                let who = if ours { bot } else { Bot::Cautious };
                if !bot_turn(&p, &mut s, who, &mut rng, &mut ()).expect("plays") {
                    break;
                }
                if searched {
                    took += start.elapsed();
                    moves += 1;
                }
            }
        }
        let per_move = took.as_secs_f64() / moves.max(1) as f64;
        println!(
            "  {:<12} {:>7} {:>10.1} {:>14.0}",
            name,
            moves,
            per_move * 1e3,
            f64::from(iterations) / per_move
        );
    }
    tournament();
}

/// `ninety sim` with the strong bot at the table, whole process: one job against two.
fn tournament() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let status = Command::new(cargo)
        .args(["build", "--release", "--locked", "--bin", "ninety"])
        .current_dir(root)
        .status()
        .expect("cargo runs");
    assert!(status.success(), "the release build failed");
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let ninety = target.join("release/ninety");
    let run = |jobs: &str| {
        let start = Instant::now();
        let out = Command::new(&ninety)
            .args([
                "sim",
                "ninety-nine",
                "--players",
                "3",
                "--games",
                "24",
                "--seed",
                "1",
            ])
            .args(["--bots", "ismcts,search,cautious", "--json", "--jobs", jobs])
            .current_dir(root)
            .output()
            .expect("runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        (out.stdout, start.elapsed())
    };
    let (a, one) = run("1");
    let (b, two) = run("2");
    assert_eq!(a, b, "the report depends on --jobs");
    println!(
        "tournament, `ninety sim ninety-nine --bots ismcts,search,cautious --games 24`: \
         --jobs 1 {:.2}s, --jobs 2 {:.2}s ({:.2}x)",
        one.as_secs_f64(),
        two.as_secs_f64(),
        one.as_secs_f64() / two.as_secs_f64()
    );
}

/// Win shares by seat of `games` games a seating, each seating of `bots` (the seats turned
/// round so that each bot sits everywhere), 3 players.
fn shares(p: &Ruleset, name: &str, bots: [Bot; 3], games: u64, seed: u64) -> Vec<(Bot, f64)> {
    let mut won = [0.0f64; 3];
    for turn in 0..3 {
        let seated: Vec<Bot> = (0..3).map(|i| bots[(i + turn) % 3]).collect();
        let cfg = Config {
            ruleset: name.into(),
            name: name.into(),
            players: 3,
            bots: seated.iter().map(|b| b.name().to_string()).collect(),
            seed: seed + turn as u64 * 1_000_003,
            games,
            sets: Vec::new(),
        };
        let players: Vec<Player> = seated.iter().map(|b| Player::Bot(*b)).collect();
        let st = sim::run(p, &players, &cfg, &Control::jobs(2)).expect("the run");
        for (seat, w) in st.wins.iter().enumerate() {
            won[(seat + turn) % 3] += *w as f64 / WIN_UNIT as f64;
        }
    }
    (0..3).map(|i| (bots[i], won[i])).collect()
}

fn strength(games: u64) {
    let ladder = [
        Bot::Random,
        Bot::Cautious,
        Bot::Aggressive,
        Bot::Search,
        Bot::Ismcts {
            iterations: 200,
            round: true,
        },
        Bot::Ismcts {
            iterations: 1000,
            round: true,
        },
        Bot::Ismcts {
            iterations: ninety::play::ismcts::DEFAULT_ITERATIONS,
            round: true,
        },
    ];
    for name in ["ninety-nine", "ninety-eight"] {
        let p = load(name);
        println!(
            "{name}, 3 players: each bot in one seat against two of the one below, seats \
             rotated, {} games (fair: 33.3%)",
            games * 3
        );
        for pair in ladder.windows(2) {
            let (below, bot) = (pair[0], pair[1]);
            let s = shares(&p, name, [bot, below, below], games, 7);
            let n = (games * 3) as f64;
            let (lo, hi) = wilson(s[0].1, n);
            println!(
                "  {:<18} against {:<18} {:>5.1}%  [{:.1}, {:.1}]",
                bot.name(),
                below.name(),
                100.0 * s[0].1 / n,
                lo,
                hi
            );
        }
        let horizons = [
            Bot::Ismcts {
                iterations: 500,
                round: true,
            },
            Bot::Ismcts {
                iterations: 500,
                round: false,
            },
        ];
        let s = shares(
            &p,
            name,
            [horizons[0], horizons[1], Bot::Cautious],
            games * 2,
            11,
        );
        let n = (games * 6) as f64;
        println!(
            "  horizons, one table (ismcts:500, ismcts:500:game, cautious), {} games: {:.1}% \
             against {:.1}% (cautious {:.1}%)",
            games * 6,
            100.0 * s[0].1 / n,
            100.0 * s[1].1 / n,
            100.0 * s[2].1 / n
        );
        let s = shares(
            &p,
            name,
            [ladder[6], Bot::Search, Bot::Cautious],
            games * 2,
            13,
        );
        let (i, q) = (s[0].1 / n, s[1].1 / n);
        // One table: the two shares come from the same games (a multinomial), so the
        // difference's variance is (p + q - (p - q)²) / n.
        let z = (i - q) / ((i + q - (i - q).powi(2)) / n).sqrt();
        println!(
            "  one table (ismcts, search, cautious), {} games: ismcts {:.1}%, search {:.1}%, \
             cautious {:.1}%; ismcts - search = {:+.1} points, z = {:.2}{}",
            games * 6,
            100.0 * i,
            100.0 * q,
            100.0 * s[2].1 / n,
            100.0 * (i - q),
            z,
            if z > 1.96 { " (beyond chance)" } else { "" }
        );
    }
}
