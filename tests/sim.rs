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
fn share(p: &ninety::play::Ruleset, hero: Bot, villain: Bot, games: u64) -> f64 {
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

/// Starts one `ninety sim ... --shard auto[/N] --json` process with the scheduler's variables
/// set as a job array or an Indexed Job would set them (and the other's cleared).
fn shard_process(auto: &str, vars: &[(&str, String)], games: &str) -> std::process::Child {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ninety"));
    c.args([
        "sim",
        "33-66-99",
        "--games",
        games,
        "--players",
        "4",
        "--bots",
        "cautious,random",
        "--shard",
        auto,
        "--json",
    ])
    .current_dir(env!("CARGO_MANIFEST_DIR"))
    .stdout(std::process::Stdio::piped())
    .stderr(std::process::Stdio::piped());
    for v in [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_MIN",
        "SLURM_ARRAY_TASK_STEP",
        "SLURM_ARRAY_TASK_COUNT",
        "JOB_COMPLETION_INDEX",
    ] {
        c.env_remove(v);
    }
    for (k, v) in vars {
        c.env(k, v);
    }
    c.spawn().expect("starts")
}

#[test]
fn four_shard_processes_at_once_merge_into_the_whole_run_and_bad_shards_are_refused_by_name() {
    let dir = std::env::temp_dir().join(format!("ninety-auto-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let games = "120";
    // A Slurm array `--array=1-4` and a Kubernetes Indexed Job of 4 completions: four
    // processes each, all running at once.
    let slurm: Vec<_> = (1..=4)
        .map(|id| {
            let vars = [
                ("SLURM_ARRAY_TASK_ID", id.to_string()),
                ("SLURM_ARRAY_TASK_MIN", "1".to_string()),
                ("SLURM_ARRAY_TASK_STEP", "1".to_string()),
                ("SLURM_ARRAY_TASK_COUNT", "4".to_string()),
            ];
            shard_process("auto", &vars, games)
        })
        .collect();
    let k8s: Vec<_> = (0..4)
        .map(|i| shard_process("auto/4", &[("JOB_COMPLETION_INDEX", i.to_string())], games))
        .collect();
    let mut files = Vec::new();
    for (name, children) in [("slurm", slurm), ("k8s", k8s)] {
        let mut list = Vec::new();
        for (i, child) in children.into_iter().enumerate() {
            let o = child.wait_with_output().expect("ends");
            assert_eq!(
                o.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&o.stderr)
            );
            let f = dir.join(format!("{name}-{i}.json"));
            std::fs::write(&f, &o.stdout).expect("write");
            list.push(f.display().to_string());
        }
        files.push(list);
    }
    let whole_args = [
        "sim",
        "33-66-99",
        "--games",
        games,
        "--players",
        "4",
        "--bots",
        "cautious,random",
    ];
    let whole = ninety(&whole_args);
    let mut whole_json_args = whole_args.to_vec();
    whole_json_args.push("--json");
    let whole_json: serde_json::Value =
        serde_json::from_slice(&ninety(&whole_json_args).stdout).expect("json");
    let merge = |list: &[String], json: bool| {
        let mut args = vec!["sim", "--merge"];
        args.extend(list.iter().map(String::as_str));
        if json {
            args.push("--json");
        }
        ninety(&args)
    };
    for list in &files {
        let merged = merge(list, false);
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
        let merged: serde_json::Value =
            serde_json::from_slice(&merge(list, true).stdout).expect("json");
        assert_eq!(merged["run"]["stats"], whole_json["run"]["stats"]);
    }
    // A missing shard, a corrupt one and one from another run are refused, by name.
    let refused = |list: &[String], name: &str| {
        let o = merge(list, false);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert_ne!(o.status.code(), Some(0), "{err}");
        assert!(o.stdout.is_empty());
        assert!(err.contains(name), "{name}: {err}");
    };
    let slurm = &files[0];
    refused(&slurm[..3], "shard 4/4 is missing");
    let corrupt = dir.join("corrupt.json");
    std::fs::write(&corrupt, b"{\"config\": ").expect("write");
    let mut list = slurm[..3].to_vec();
    list.push(corrupt.display().to_string());
    refused(&list, "corrupt.json");
    let other = dir.join("other-run.json");
    let o = ninety(&[
        "sim",
        "33-66-99",
        "--games",
        games,
        "--players",
        "4",
        "--bots",
        "cautious,random",
        "--seed",
        "9",
        "--shard",
        "4/4",
        "--json",
    ]);
    std::fs::write(&other, &o.stdout).expect("write");
    let mut list = slurm[..3].to_vec();
    list.push(other.display().to_string());
    refused(&list, "other-run.json");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_of_a_sweep_and_of_a_comparison_merge_into_the_whole_command() {
    let dir = std::env::temp_dir().join(format!("ninety-sweep-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let commands: [&[&str]; 2] = [
        &[
            "sim",
            "ninety-nine",
            "--games",
            "90",
            "--sweep",
            "chips=1,3",
        ],
        &["sim", "ninety-nine", "ring-of-99", "--games", "90"],
    ];
    for (c, command) in commands.iter().enumerate() {
        let mut files = Vec::new();
        for k in 1..=3 {
            let slice = format!("{k}/3");
            let mut args = command.to_vec();
            args.extend(["--shard", &slice, "--json"]);
            let o = ninety(&args);
            assert_eq!(
                o.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&o.stderr)
            );
            let f = dir.join(format!("{c}-{k}.json"));
            std::fs::write(&f, &o.stdout).expect("write");
            files.push(f.display().to_string());
        }
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
            String::from_utf8_lossy(&ninety(command).stdout)
        );
    }
    // A shard of the sweep does not merge with shards of the comparison.
    let mixed = ninety(&[
        "sim",
        "--merge",
        &dir.join("0-1.json").display().to_string(),
        &dir.join("1-2.json").display().to_string(),
        &dir.join("1-3.json").display().to_string(),
    ]);
    assert_ne!(mixed.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&mixed.stderr).contains("1-2.json"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every bar is counted, however many the ruleset has: nine bars (more than a fixed table of
/// eight held) give `sim` the counts of the games' own events, game by game.
#[test]
fn every_bar_is_counted_whatever_their_number() {
    use ninety::engine::{Event, Setup};
    use ninety::play::{Driver, Ending};
    use std::collections::BTreeMap;
    let mut memory = ninety::compile::Memory::new();
    memory.insert(
        "nine-bars.rules",
        "extends \"ninety-nine\"\nname \"Nine bars\"\n\
         on reaching 10, 20, 30, 40, 50, 60, 70, 80, 90: the round goes on\n\
         on passing 15, 25, 35, 45, 55, 65, 75, 85, 95: the round goes on\n",
    );
    let p = load_program(&memory, "nine-bars.rules", &[]).expect("checks");
    assert!(p.bars.len() >= 18, "{} bars", p.bars.len());
    let (games, seed) = (60, 9);
    let stats = sim::run(
        &p,
        &players(&[Bot::Random]),
        &config("nine-bars", &[Bot::Random], games, seed),
        &Control::jobs(2),
    )
    .expect("runs");
    // The same games, one by one, their bar events counted by hand.
    let (mut reached, mut passed) = (BTreeMap::new(), BTreeMap::new());
    let seats = vec![Player::Bot(Bot::Random); 3];
    for i in 0..games {
        let game = ninety::base::rng::game_seed(seed, i);
        let mut events: Vec<Event> = Vec::new();
        let mut driver = Driver::new(&p, &seats, game);
        let setup = Setup {
            players: 3,
            seed: game,
            ..Setup::default()
        };
        let mut s = driver.start(&setup, &mut events).expect("starts");
        assert_eq!(driver.play(&mut s, &|| false, &mut events), Ending::Over);
        for e in events {
            if let Event::Bar {
                value, passed: p, ..
            } = e
            {
                *if p { &mut passed } else { &mut reached }
                    .entry(value)
                    .or_insert(0u64) += 1;
            }
        }
    }
    assert_eq!(reached.len(), 9, "{reached:?}");
    assert_eq!(passed.len(), 9, "{passed:?}");
    assert_eq!(stats.bar_reached, reached);
    assert_eq!(stats.bar_passed, passed);
}

/// Cards the rules move are counted: a Jack that swaps hands makes swaps and nothing else, a
/// call that makes every other player draw makes draws; a ruleset whose rules move no card
/// says nothing of them.
#[test]
fn cards_the_rules_move_are_counted() {
    let moved = |file: &str| -> Option<serde_json::Value> {
        let o = ninety(&["sim", file, "--games", "300", "--json"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
        v["figures"].get("cards_moved_per_game").cloned()
    };
    let swap = moved("tests/house-rules/set3/swap.rules").expect("counted");
    assert!(swap["swaps"].as_f64().expect("a figure") > 1.0, "{swap}");
    assert_eq!(swap["drawn"].as_f64(), Some(0.0), "{swap}");
    assert_eq!(swap["handed"].as_f64(), Some(0.0), "{swap}");
    let fives = moved("tests/house-rules/set3/fives-call.rules").expect("counted");
    assert!(fives["drawn"].as_f64().expect("a figure") > 0.5, "{fives}");
    assert_eq!(fives["swaps"].as_f64(), Some(0.0), "{fives}");
    assert_eq!(moved("ninety-nine"), None);
}

/// A payment to the player themselves moves nothing and is no chip lost: blaming the layer
/// with two players, a player stuck after their own 4 (play again) laid the previous card
/// themselves, so some busts cost nothing, and `sim` does not count them as chips lost.
#[test]
fn a_payment_to_oneself_is_not_a_chip_lost() {
    let o = ninety(&[
        "sim",
        "tests/house-rules/set3/blame-the-layer.rules",
        "--players",
        "2",
        "--games",
        "400",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let lost = v["figures"]["chips_lost_per_round"]
        .as_f64()
        .expect("a figure");
    assert!(lost < 0.97, "every round lost a chip: {lost}");
    assert!(lost > 0.5, "{lost}");
}
