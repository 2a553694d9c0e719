//! `ninety tune`, timed in process on the release profile: two options of ten values each
//! (100 tables) for Ninety-Eight and its stakes variant, and Ninety-Nine's chips with its
//! player counts, each against `fair` and 15 to 30 minutes at 8 seconds a turn. For each: the
//! tables meeting every target, the games raced against the whole grid played out at the
//! most games a table gets, and the time on two jobs (the aim: under a minute each).
//!
//! ```text
//! cargo bench --bench tune
//! ```

use std::sync::Arc;
use std::time::Instant;

use ninety::app::tune_cmd::{TuneOptions, tune_cmd};
use ninety::base::limits::grouped;
use ninety::compile::Shipped;

fn values(name: &str, a: i64, b: i64) -> (String, Vec<String>) {
    (name.into(), (a..=b).map(|v| v.to_string()).collect())
}

/// A search: the ruleset, its options and their values, and the player counts.
type Search = (
    &'static str,
    Vec<(String, Vec<String>)>,
    Option<(usize, usize)>,
);

fn main() {
    let searches: [Search; 3] = [
        (
            "ninety-eight",
            vec![values("threshold", 90, 99), values("lives", 1, 10)],
            None,
        ),
        (
            "ninety-eight-stakes",
            vec![values("lives", 2, 11), values("rounds", 1, 10)],
            None,
        ),
        ("ninety-nine", vec![values("chips", 1, 10)], Some((2, 5))),
    ];
    for (ruleset, vary, players) in searches {
        let o = TuneOptions {
            games: ninety::sim::tune::DEFAULT_GAMES,
            players,
            vary,
            targets: vec!["fair".into(), "minutes=15..30".into()],
            bot: "cautious".into(),
            seed: 1,
            jobs: 2,
            json: true,
            cancel: Arc::new(std::sync::atomic::AtomicBool::new(false)),
            ..TuneOptions::default()
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let started = Instant::now();
        let code = tune_cmd(&Shipped, ruleset, &o, &mut out, &mut err);
        let took = started.elapsed();
        if code != 0 {
            eprintln!("{ruleset}: {}", String::from_utf8_lossy(&err));
            std::process::exit(1);
        }
        let Ok(v) = serde_json::from_slice::<serde_json::Value>(&out) else {
            eprintln!("{ruleset}: the JSON does not read");
            std::process::exit(1)
        };
        let raced = v["raced"].as_array().cloned().unwrap_or_default();
        let games: u64 = raced
            .iter()
            .map(|r| r["games"].as_u64().unwrap_or(0) + r["failed"].as_u64().unwrap_or(0))
            .sum();
        let meets = raced.iter().filter(|r| r["state"] == "meets").count();
        let undecided = raced.iter().filter(|r| r["state"] == "undecided").count();
        let full = raced.len() as u64 * o.games;
        println!(
            "{ruleset:<22} {:>3} tables: {meets} meet, {undecided} undecided; {} games raced against {} for the whole grid ({:.1}%), {:.1} s on 2 jobs",
            raced.len(),
            grouped(games),
            grouped(full),
            100.0 * games as f64 / full as f64,
            took.as_secs_f64()
        );
    }
}
