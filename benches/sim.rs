//! What users run, timed: `ninety sim` as a whole process, built with the release profile
//! that ships, against the native baseline (`examples/native_sim`: hand-written Ninety-Nine,
//! Ninety-Eight, 33/66/99 and Ring of 99 playing the very same games with the same random
//! bots, and again with the same cautious ones), as a ratio. Beside it:
//! the whole `sim::run` in process against `native::run`, the cautious and search bots as a
//! ratio to the random one (per card played: they play different games), two jobs against
//! one, and the peak memory of a long run.
//!
//! Every pair of runs must give the same statistics (games, wins, turns, rounds, chips lost
//! by cause), or the bench stops: a speed is only compared with the same work.
//!
//! ```text
//! cargo bench --bench sim                      # the default: 100,000 games, median of 5
//! cargo bench --bench sim -- --games 20000 --runs 3 --million
//! cargo bench --bench sim -- --natives         # the two tables against the natives alone
//! cargo bench --bench sim -- --bots --runs 9   # the bots' table alone
//! cargo bench --bench sim -- --jobs --runs 9   # two jobs against one alone
//! cargo bench --bench sim -- --rulesets --callgrind  # every ruleset's cost per card alone
//! ```
//!
//! `--million` adds a 1,000,000-game run and its peak memory beside a 100,000-game one;
//! `--natives` runs the whole-process and in-process tables against the natives alone;
//! `--bots` times the bots alone (the table of ns per card), `--jobs` two jobs against one
//! alone, with more runs for a busy machine, and `--rulesets` every shipped ruleset's cost per
//! card against Ninety-Nine's alone; `--callgrind` adds instructions per card to that table
//! (valgrind's counts do not move with the machine's load).

#[path = "native/mod.rs"]
mod native;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use native::{BOTS, Bots, CAUSES, Game};
use ninety::app::load::load_program;
use ninety::base::limits::grouped;
use ninety::compile::Disk;
use ninety::play::{Bot, Player};
use ninety::sim::{self, Config, Control};
use serde_json::Value;

/// The settings of one bench run.
struct Bench {
    games: u64,
    runs: usize,
    million: bool,
    /// Instructions per card too, under `valgrind --tool=callgrind`.
    callgrind: bool,
    ninety: PathBuf,
    native: PathBuf,
}

/// The seed games and the player counts the bench runs them at (Ring of 99 is a game for
/// big groups: 4 players, and 8 with two decks).
fn counts(game: Game) -> [usize; 2] {
    match game {
        Game::Ring => [4, 8],
        _ => [3, 5],
    }
}

fn main() {
    let mut games = 100_000;
    let mut runs = 5;
    let mut million = false;
    let mut natives_only = false;
    let mut bots_only = false;
    let mut jobs_only = false;
    let mut rulesets_only = false;
    let mut callgrind = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--games" => games = number(args.next()),
            "--runs" => runs = number::<usize>(args.next()).max(1),
            "--million" => million = true,
            "--natives" => natives_only = true,
            "--bots" => bots_only = true,
            "--jobs" => jobs_only = true,
            "--rulesets" => rulesets_only = true,
            "--callgrind" => callgrind = true,
            // `cargo bench` passes `--bench`; filters are not used.
            _ => {}
        }
    }
    let (ninety, native) = build();
    let b = Bench {
        games,
        runs,
        million,
        callgrind,
        ninety,
        native,
    };
    if bots_only {
        bots(&b);
        return;
    }
    if jobs_only {
        jobs(&b);
        return;
    }
    if rulesets_only {
        rulesets(&b);
        return;
    }
    natives(&b);
    if natives_only {
        return;
    }
    println!();
    bots(&b);
    println!();
    rulesets(&b);
    println!();
    jobs(&b);
    println!();
    memory(&b);
}

/// `ninety sim` against the natives, random and cautious bots: as whole processes, then in
/// process.
fn natives(b: &Bench) {
    println!(
        "`ninety sim` as a whole process (release profile) and the native baseline, one job, \
         the same bots in every seat, {} games, median of {} runs (the ratio: median of each \
         pair's; best: of the best runs):",
        grouped(b.games),
        b.runs
    );
    println!(
        "  {:<12} {:>7} {:>9} {:>10} {:>10} {:>9} {:>7} {:>12}",
        "game", "players", "bots", "ninety", "native", "ratio", "best", "turns/s"
    );
    for game in native::GAMES {
        for players in counts(game) {
            for bots in BOTS {
                whole_process(b, game, bots, players);
            }
        }
    }
    println!();
    println!("`sim::run` in process against `native::run`, one job, median:");
    for game in native::GAMES {
        for players in counts(game) {
            for bots in BOTS {
                in_process(b, game, bots, players);
            }
        }
    }
}

fn number<T: std::str::FromStr>(v: Option<String>) -> T {
    v.and_then(|v| v.parse().ok())
        .expect("a number after --games or --runs")
}

/// The shipped binary and the baseline, built with the release profile (as users get it).
fn build() -> (PathBuf, PathBuf) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let status = Command::new(cargo)
        .args([
            "build",
            "--release",
            "--locked",
            "--bin",
            "ninety",
            "--example",
            "native_sim",
        ])
        .current_dir(root)
        .status()
        .expect("cargo runs");
    assert!(status.success(), "the release build failed");
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    (
        target.join("release/ninety"),
        target.join("release/examples/native_sim"),
    )
}

/// Runs `cmd`, its standard output parsed as JSON, and the wall time it took.
fn timed(cmd: &mut Command) -> (Value, Duration) {
    let start = Instant::now();
    let out = cmd.output().expect("the process starts");
    let took = start.elapsed();
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    (json, took)
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn sim_cmd(b: &Bench, game: &str, players: usize, bots: &str, games: u64, jobs: u32) -> Command {
    let mut cmd = Command::new(&b.ninety);
    cmd.args(["sim", game, "--json", "--seed", "1", "--bots", bots]);
    cmd.args(["--games", &games.to_string()]);
    cmd.args(["--players", &players.to_string()]);
    cmd.args(["--jobs", &jobs.to_string()]);
    cmd
}

/// The statistics both sides give, from `ninety sim --json` (`run.stats`) or `native_sim`.
#[derive(Debug, PartialEq)]
struct Summary {
    games: u64,
    wins: Vec<u64>,
    turns: u64,
    rounds: u64,
    chips_lost: Vec<u64>,
    turn_limited: u64,
}

fn summary_of_sim(v: &Value) -> Summary {
    let st = &v["run"]["stats"];
    Summary {
        games: st["games"].as_u64().expect("games"),
        wins: numbers(&st["wins"]),
        turns: st["turns"]["sum"].as_u64().expect("turns"),
        rounds: st["rounds"]["sum"].as_u64().expect("rounds"),
        chips_lost: CAUSES
            .iter()
            .map(|c| st["chips_lost"][c].as_u64().unwrap_or(0))
            .collect(),
        turn_limited: st["turn_limited"].as_u64().expect("turn_limited"),
    }
}

fn summary_of_native(v: &Value) -> Summary {
    Summary {
        games: v["games"].as_u64().expect("games"),
        wins: numbers(&v["wins"]),
        turns: v["turns"].as_u64().expect("turns"),
        rounds: v["rounds"].as_u64().expect("rounds"),
        chips_lost: CAUSES
            .iter()
            .map(|c| v["chips_lost"][c].as_u64().unwrap_or(0))
            .collect(),
        turn_limited: v["turn_limited"].as_u64().expect("turn_limited"),
    }
}

fn numbers(v: &Value) -> Vec<u64> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|x| x.as_u64().expect("a number"))
        .collect()
}

fn whole_process(b: &Bench, game: Game, bots: Bots, players: usize) {
    let name = game.name();
    let (mut ours, mut theirs, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    let mut turns = 0;
    // Interleaved, so a busy moment of the machine falls on both; the ratio is the median of
    // each pair's.
    for _ in 0..b.runs {
        let (a, ta) = timed(&mut sim_cmd(b, name, players, bots.name(), b.games, 1));
        let mut native = Command::new(&b.native);
        native.args(["--game", name, "--bots", bots.name(), "--seed", "1"]);
        native.args(["--games", &b.games.to_string()]);
        native.args(["--players", &players.to_string()]);
        let (n, tn) = timed(&mut native);
        let (sa, sn) = (summary_of_sim(&a), summary_of_native(&n));
        assert_eq!(
            sa,
            sn,
            "{name}, {players} players, {} bots: the statistics differ",
            bots.name()
        );
        turns = sa.turns;
        ours.push(ta);
        theirs.push(tn);
        ratios.push(tn.as_secs_f64() / ta.as_secs_f64());
    }
    // Beside it, the ratio of the two best runs: the ones no burst of the neighbours fell on.
    let best = |ts: &[Duration]| ts.iter().min().copied().unwrap_or_default().as_secs_f64();
    let best_ratio = best(&theirs) / best(&ours);
    let (ta, tn) = (median(ours), median(theirs));
    println!(
        "  {:<12} {:>7} {:>9} {:>9.3}s {:>9.3}s {:>8.2}x {:>6.2}x {:>11.1}M",
        name,
        players,
        bots.name(),
        ta.as_secs_f64(),
        tn.as_secs_f64(),
        median_f64(ratios),
        best_ratio,
        turns as f64 / ta.as_secs_f64() / 1e6
    );
}

fn in_process(b: &Bench, game: Game, bots: Bots, players: usize) {
    let name = game.name();
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(game.ruleset())
        .display()
        .to_string();
    let p = load_program(&Disk, &path, &[]).expect("the ruleset checks");
    let seats = [Player::Bot(
        Bot::from_name(bots.name()).expect("a bot the engine knows"),
    )];
    let cfg = Config {
        ruleset: game.ruleset().into(),
        name: p.name.clone(),
        players,
        bots: vec![bots.name().into(); players],
        seed: 1,
        games: b.games,
        sets: Vec::new(),
    };
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..b.runs {
        let start = Instant::now();
        let st = sim::run(&p, &seats, &cfg, &Control::jobs(1)).expect("the run");
        ours.push(start.elapsed());
        let start = Instant::now();
        let t = native::run(game, bots, players, b.games, 1);
        theirs.push(start.elapsed());
        assert_eq!(
            (st.games, st.turns.sum, st.rounds.sum, &st.wins),
            (t.games, t.turns, t.rounds, &t.wins),
            "{name}, {players} players: the statistics differ"
        );
    }
    let (ta, tn) = (median(ours), median(theirs));
    println!(
        "  {:<12} {} players, {:<8}: {:.3}s, native {:.3}s, ratio {:.2}x",
        name,
        players,
        bots.name(),
        ta.as_secs_f64(),
        tn.as_secs_f64(),
        tn.as_secs_f64() / ta.as_secs_f64()
    );
}

/// Nanoseconds per card played in one whole-process run.
fn ns_per_card(b: &Bench, game: &str, players: usize, bots: &str, games: u64) -> f64 {
    let (v, t) = timed(&mut sim_cmd(b, game, players, bots, games, 1));
    t.as_secs_f64() * 1e9 / summary_of_sim(&v).turns.max(1) as f64
}

fn median_f64(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// The random and cautious bots run in turn, and each run's cautious figure is divided by the
/// random one next to it: on a shared machine whose speed drifts, a slow minute then falls
/// on both sides of a ratio, not on one bot's runs alone. Which bot runs first alternates
/// from pair to pair, so a drift within pairs does not favour one bot. The ratio printed is
/// the median of those, and beside it the ratio of each bot's best run: on a machine whose
/// neighbours come and go in bursts, the best run is the one no burst fell on.
fn bots(b: &Bench) {
    println!(
        "the bots, whole process, one job: ns per card played (median), and the ratio to the \
         random bot (median of the runs' ratios, the two bots run in turn; then the ratio of \
         their best runs)"
    );
    println!(
        "  {:<12} {:>7} {:>9} {:>24} {:>17}",
        "game", "players", "random", "cautious", "search"
    );
    for game in native::GAMES {
        let name = game.name();
        for players in counts(game) {
            let (mut random, mut cautious, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
            for run in 0..b.runs {
                // As many games for both bots: a process's start (reading and checking the
                // ruleset, some milliseconds) then weighs the same on both.
                let time = |bots| ns_per_card(b, name, players, bots, b.games);
                let (r, c) = if run % 2 == 0 {
                    let r = time("random");
                    (r, time("cautious"))
                } else {
                    let c = time("cautious");
                    (time("random"), c)
                };
                random.push(r);
                cautious.push(c);
                ratios.push(c / r);
            }
            let best = |xs: &[f64]| xs.iter().copied().fold(f64::INFINITY, f64::min);
            let best_ratio = best(&cautious) / best(&random);
            let (random, cautious, ratio) =
                (median_f64(random), median_f64(cautious), median_f64(ratios));
            let search = median_f64(
                (0..b.runs)
                    .map(|_| ns_per_card(b, name, players, "search", (b.games / 2000).max(10)))
                    .collect(),
            );
            println!(
                "  {:<12} {:>7} {:>8.0}n {:>8.0}n ({:>4.2}x, {:>4.2}x) {:>8.0}n ({:>4.0}x)",
                name,
                players,
                random,
                cautious,
                ratio,
                best_ratio,
                search,
                search / random
            );
        }
    }
}

/// Every shipped ruleset's cost per card played, random and cautious bots, whole process, one
/// job, at its default player count, as a ratio to Ninety-Nine's at the same count (issue 33:
/// none above 1.5x). Each run of a ruleset is paired with a run of Ninety-Nine next to it, so
/// a busy minute falls on both; the ratio is the median of the pairs'. With `--callgrind`,
/// also the instructions per card under callgrind (two runs of different lengths, their
/// difference: the start of the process cancels), which a busy machine does not move.
fn rulesets(b: &Bench) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("rulesets"))
        .expect("rulesets/ is readable")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "rules"))
        .collect();
    files.sort();
    // Beside them, house rules that use the language's newer constructs (counts read each
    // card, moments, cards moved between hands, moves beside laying a card, players named),
    // which go the general way: their cost a card.
    let set3 = root.join("tests/house-rules/set3");
    files.extend(
        [
            "points",
            "falling-ceiling",
            "third-of-a-kind",
            "swap",
            "fives-call",
            "kings-choice",
            "blind-draw",
            "bust-shield",
        ]
        .iter()
        .map(|n| set3.join(format!("{n}.rules"))),
    );
    let games = (b.games / 5).max(100);
    println!(
        "every shipped ruleset's cost per card played (and a few house rules' of the newer \
         constructs, tests/house-rules/set3/), whole process, one job, {} games, \
         median of {} runs, as a ratio to Ninety-Nine's at the same player count (median of \
         pairs run in turn){}; `!` marks a ratio above 1.5x:",
        grouped(games),
        b.runs,
        if b.callgrind {
            "; then callgrind's instructions per card and their ratio"
        } else {
            ""
        }
    );
    println!(
        "  {:<30} {:>7} {:>9} {:>7} {:>9} {:>7}",
        "ruleset", "players", "random", "ratio", "cautious", "ratio"
    );
    let (mut flagged, mut flagged_ir) = (0, 0);
    // Ninety-Nine's instructions per card, by player count and bot: counted once.
    let mut nn_ir: std::collections::HashMap<(usize, &str), Option<f64>> =
        std::collections::HashMap::new();
    for file in files {
        let path = file.display().to_string();
        let p = load_program(&Disk, &path, &[]).expect("a shipped ruleset checks");
        let players = p.default_players();
        let base = players.clamp(2, 5);
        let name = file.file_stem().and_then(|s| s.to_str()).unwrap_or("?");
        let mut line = format!("  {name:<30} {players:>7}");
        let mut ir_line = String::new();
        for bots in ["random", "cautious"] {
            let (mut ns, mut ratios) = (Vec::new(), Vec::new());
            for _ in 0..b.runs {
                let ours = ns_per_card(b, &path, players, bots, games);
                let nn = ns_per_card(b, "ninety-nine", base, bots, games);
                ns.push(ours);
                ratios.push(ours / nn);
            }
            let ratio = median_f64(ratios);
            let mark = if ratio > 1.5 { "!" } else { " " };
            flagged += usize::from(ratio > 1.5);
            line += &format!(" {:>8.0}n {:>5.2}x{mark}", median_f64(ns), ratio);
            if b.callgrind {
                let ours = ir_per_card(b, &path, players, bots);
                let nn = *nn_ir
                    .entry((base, bots))
                    .or_insert_with(|| ir_per_card(b, "ninety-nine", base, bots));
                match (ours, nn) {
                    (Some(o), Some(n)) => {
                        let mark = if o / n > 1.5 { "!" } else { " " };
                        flagged_ir += usize::from(o / n > 1.5);
                        ir_line += &format!(" {o:>8.0}i {:>5.2}x{mark}", o / n);
                    }
                    _ => ir_line += "  (no valgrind)",
                }
            }
        }
        println!("{line}");
        if b.callgrind {
            println!("  {:<30} {:>7}{ir_line}", "", "");
        }
    }
    if b.callgrind {
        println!("  above 1.5x: {flagged} timed figures, {flagged_ir} counted ones");
    } else {
        println!("  above 1.5x: {flagged} figures");
    }
}

/// Instructions per card played under callgrind: runs of 200 and 1,000 games, the difference
/// of their instruction counts over the difference of their cards.
fn ir_per_card(b: &Bench, game: &str, players: usize, bots: &str) -> Option<f64> {
    let run = |games: u64| -> Option<(f64, f64)> {
        let cmd = sim_cmd(b, game, players, bots, games, 1);
        let out = Command::new("valgrind")
            .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
            .arg(cmd.get_program())
            .args(cmd.get_args())
            .output()
            .ok()?;
        if !out.status.success() {
            return None;
        }
        let err = String::from_utf8_lossy(&out.stderr);
        let ir: f64 = err
            .lines()
            .find_map(|l| l.split("Collected : ").nth(1))?
            .trim()
            .parse()
            .ok()?;
        let v: Value = serde_json::from_slice(&out.stdout).ok()?;
        Some((ir, summary_of_sim(&v).turns as f64))
    };
    let (i1, t1) = run(200)?;
    let (i2, t2) = run(1000)?;
    Some((i2 - i1) / (t2 - t1))
}

fn jobs(b: &Bench) {
    let (mut one, mut two) = (Vec::new(), Vec::new());
    for _ in 0..b.runs {
        let (a, t1) = timed(&mut sim_cmd(b, "ninety-nine", 3, "random", b.games * 2, 1));
        let (c, t2) = timed(&mut sim_cmd(b, "ninety-nine", 3, "random", b.games * 2, 2));
        assert_eq!(a, c, "the report depends on --jobs");
        one.push(t1);
        two.push(t2);
    }
    // Beside the medians, the ratio of the best runs: a neighbour on the second core slows
    // the two jobs alone.
    let best = |ts: &[Duration]| ts.iter().min().copied().unwrap_or_default().as_secs_f64();
    let best_ratio = best(&one) / best(&two);
    let (t1, t2) = (median(one), median(two));
    println!(
        "--jobs 2 against --jobs 1 (Ninety-Nine, 3 players, {} games): {:.3}s and {:.3}s, \
         {:.2}x (best runs: {:.2}x)",
        grouped(b.games * 2),
        t1.as_secs_f64(),
        t2.as_secs_f64(),
        t1.as_secs_f64() / t2.as_secs_f64(),
        best_ratio
    );
}

/// Peak resident memory of whole runs (`/usr/bin/time`'s maximum resident set size).
fn memory(b: &Bench) {
    let mut sizes = vec![b.games / 10, b.games];
    if b.million {
        sizes.push(1_000_000);
    }
    print!("peak memory (Ninety-Nine, 3 players, random, one job):");
    for games in sizes {
        let out = Command::new("/usr/bin/time")
            .arg("-f")
            .arg("%M")
            .arg(&b.ninety)
            .args(["sim", "ninety-nine", "--json", "--bots", "random", "--jobs"])
            .args(["1", "--games", &games.to_string()])
            .output();
        match out {
            Ok(o) if o.status.success() => {
                let err = String::from_utf8_lossy(&o.stderr);
                let kb: u64 = err
                    .lines()
                    .last()
                    .and_then(|l| l.trim().parse().ok())
                    .unwrap_or(0);
                print!("  {} games {:.1} MB", grouped(games), kb as f64 / 1024.0);
            }
            _ => {
                print!("  (no /usr/bin/time: not measured)");
                break;
            }
        }
    }
    println!();
}
