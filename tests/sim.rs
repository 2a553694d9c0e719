//! Simulation: the same report whatever the number of threads, shards that merge into the
//! whole run, the CLI's JSON, and the bots' measured strength.

use std::path::Path;
use std::process::Command;

use ninety::app::load::load_program;
use ninety::compile::Disk;
use ninety::play::{Bot, Player};
use ninety::sim::{self, Config, Control, Output};

fn ruleset(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("rulesets")
        .join(format!("{name}.rules"))
        .display()
        .to_string()
}

fn players(bots: &[Bot]) -> Vec<Player> {
    bots.iter().map(|b| Player::Bot(*b)).collect()
}

fn config(name: &str, bots: &[Bot], games: u64, seed: u64) -> Config {
    Config {
        ruleset: name.into(),
        name: name.into(),
        players: 3,
        bots: (0..3)
            .map(|i| bots[i % bots.len()].name().to_string())
            .collect(),
        seed,
        games,
        sets: Vec::new(),
    }
}

#[test]
fn the_report_is_the_same_for_any_number_of_threads() {
    let p = load_program(&Disk, &ruleset("33-66-99"), &[]).expect("checks");
    let bots = [Bot::Cautious, Bot::Random, Bot::Aggressive];
    let cfg = config("33-66-99", &bots, 400, 11);
    let one = sim::run(&p, &players(&bots), &cfg, &Control::jobs(1)).expect("runs");
    let two = sim::run(&p, &players(&bots), &cfg, &Control::jobs(2)).expect("runs");
    let three = sim::run(&p, &players(&bots), &cfg, &Control::jobs(3)).expect("runs");
    assert_eq!(one.games, 400);
    assert_eq!(one, two);
    assert_eq!(one, three);
    assert_eq!(sim::report(&cfg, &one), sim::report(&cfg, &two));
}

#[test]
fn merged_shards_give_the_whole_run() {
    let p = load_program(&Disk, &ruleset("ninety-nine"), &[]).expect("checks");
    let bots = [Bot::Cautious];
    let cfg = config("ninety-nine", &bots, 301, 5);
    let whole = sim::run(&p, &players(&bots), &cfg, &Control::jobs(2)).expect("runs");
    let parts: Vec<Output> = (1..=3)
        .map(|k| Output {
            config: cfg.clone(),
            shard: Some((k, 3)),
            stats: sim::run(
                &p,
                &players(&bots),
                &cfg,
                &Control {
                    shard: Some((k, 3)),
                    ..Control::jobs(2)
                },
            )
            .expect("runs"),
        })
        .collect();
    assert!(
        parts
            .iter()
            .all(|o| o.stats.games > 90 && o.stats.games < 110)
    );
    let merged = sim::merge(&parts).expect("merges");
    assert_eq!(merged.stats, whole);
    assert_eq!(sim::report(&cfg, &merged.stats), sim::report(&cfg, &whole));
    // A shard given twice is refused.
    assert!(sim::merge(&[parts[0].clone(), parts[0].clone()]).is_err());
}

fn ninety(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ninety"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("runs")
}

#[test]
fn the_cli_json_of_a_small_run() {
    let o = ninety(&[
        "sim",
        "rulesets/33-66-99.rules",
        "--games",
        "40",
        "--seed",
        "3",
        "--bots",
        "cautious,random",
        "--jobs",
        "2",
        "--json",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    insta::assert_json_snapshot!("sim_json_figures", v["figures"]);
}

#[test]
fn the_cli_merges_shard_files_into_the_whole_report() {
    let dir = std::env::temp_dir().join(format!("ninety-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let mut files = Vec::new();
    for k in 1..=2 {
        let o = ninety(&[
            "sim",
            "ninety-nine",
            "--games",
            "50",
            "--shard",
            &format!("{k}/2"),
            "--json",
        ]);
        assert_eq!(o.status.code(), Some(0));
        let f = dir.join(format!("{k}.json"));
        std::fs::write(&f, &o.stdout).expect("write");
        files.push(f.display().to_string());
    }
    let whole = ninety(&["sim", "ninety-nine", "--games", "50"]);
    let mut args = vec!["sim", "--merge"];
    args.extend(files.iter().map(String::as_str));
    let merged = ninety(&args);
    assert_eq!(
        merged.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&merged.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&merged.stdout),
        String::from_utf8_lossy(&whole.stdout)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn comparing_two_rulesets_and_sweeping_an_option() {
    let o = ninety(&["sim", "ninety-nine", "ring-of-99", "--games", "200"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("Ninety-Nine against Ring of 99"), "{out}");
    // Ring of 99 plays to 199 with five cards: its games are longer, beyond chance.
    let turns = out
        .lines()
        .find(|l| l.starts_with("turns per game"))
        .expect("a turns row");
    assert!(turns.trim_end().ends_with("yes"), "{turns}");
    let o = ninety(&[
        "sim",
        "ninety-nine",
        "--games",
        "100",
        "--sweep",
        "chips=1,3",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8_lossy(&o.stdout);
    let rows: Vec<&str> = out.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{out}");
    let rounds = |row: &str| {
        row.split_whitespace()
            .nth(2)
            .and_then(|r| r.parse::<f64>().ok())
            .expect("rounds")
    };
    assert!(
        rounds(rows[0]) < rounds(rows[1]),
        "one chip makes shorter games: {out}"
    );
}

/// Seats rotated so no bot gains from where it sits: the share of games `hero` wins when it
/// plays one seat against two `villain`s.
fn share(p: &ninety::ir::Program, hero: Bot, villain: Bot, games: u64) -> f64 {
    let mut won = 0.0;
    for seat in 0..3 {
        let mut bots = [villain; 3];
        bots[seat] = hero;
        let cfg = config("ninety-nine", &bots, games, 1000 + seat as u64);
        let st = sim::run(p, &players(&bots), &cfg, &Control::jobs(2)).expect("runs");
        won += st.wins[seat] as f64 / sim::WIN_UNIT as f64;
    }
    won / (3 * games) as f64
}

#[test]
fn cautious_beats_random_and_search_beats_cautious() {
    let p = load_program(&Disk, &ruleset("ninety-nine"), &[]).expect("checks");
    let cautious = share(&p, Bot::Cautious, Bot::Random, 300);
    assert!(
        cautious > 0.5,
        "cautious won {cautious:.2} of its games against two random bots (fair: 0.33)"
    );
    let search = share(&p, Bot::Search, Bot::Cautious, 40);
    assert!(
        search > 0.4,
        "search won {search:.2} of its games against two cautious bots (fair: 0.33)"
    );
}
