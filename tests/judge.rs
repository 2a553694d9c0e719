//! `ninety judge`: each measure on a ruleset whose answer is known by hand, the same tally for
//! any number of threads, two rulesets compared, the command's exit codes and its JSON, and
//! the text of a shipped ruleset as a snapshot.

use std::path::{Path, PathBuf};
use std::process::Command;

use ninety::app::load::load_program;
use ninety::compile::Disk;
use ninety::ir::Program;
use ninety::play::Player;
use ninety::sim::Verdict;
use ninety::sim::judge::{self, JudgeConfig, Line, Tally};

/// Every card adds 1 and the total may not pass 9: with two players, seat 0 dealing and seat
/// 1 leading, seat 1 lays the 1st, 3rd, ... 9th card, seat 0 cannot play at 9 and is out. Every
/// game: 9 turns, 1 round, seat 1 wins, no choice ever (every card makes the same total).
const ONES: &str = r#"name "Only ones"
about "Every card adds 1; whoever cannot play without passing 9 is out."
players 2 to 3
decks 1
jokers 0 per deck
hand 3 cards
each player starts with 1 chips
the total starts at 0
the total may not go above 9
play goes clockwise
players draw automatically
card A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K: add 1
when a player has no cards: the player pays 1 to the bank and loses the round
when a player cannot play: the player pays 1 to the bank and loses the round
a player is out at 0 chips
the game ends when one player is left
the winner is the last player left
the first dealer is player 0
the player left of the dealer leads
"#;

fn write_ruleset(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ninety-judge-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{name}.rules"));
    std::fs::write(&path, text).expect("written");
    path
}

fn shipped(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("rulesets")
        .join(format!("{name}.rules"))
        .display()
        .to_string()
}

fn config(name: &str, players: usize, games: u64, seed: u64) -> JudgeConfig {
    JudgeConfig {
        ruleset: name.into(),
        name: name.into(),
        players,
        bot: "cautious".into(),
        games,
        seed,
        length: None,
        skill_games: None,
    }
}

fn run(path: &str, cfg: &JudgeConfig, jobs: usize) -> (Program, Tally) {
    let p = load_program(&Disk, path, &[]).expect("checks");
    let bot = Player::builtin(&cfg.bot).expect("a bot");
    let t = judge::judge(&p, &bot, cfg, jobs).expect("runs");
    (p, t)
}

fn get<'a>(lines: &'a [Line], key: &str) -> &'a Line {
    lines
        .iter()
        .find(|l| l.key == key)
        .unwrap_or_else(|| panic!("no line {key}"))
}

fn ninety() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ninety"))
}

#[test]
fn a_game_the_second_seat_always_wins_reads_not_fair_and_every_measure_is_the_hand_count() {
    let path = write_ruleset("ones", ONES);
    let mut cfg = config("ones", 2, 60, 4);
    cfg.length = Some((9, 9));
    let (p, t) = run(&path.display().to_string(), &cfg, 2);
    let ls = judge::lines(&t, &cfg);
    assert_eq!(t.games, 60);
    assert_eq!(get(&ls, "seat_0").value, 0.0);
    assert_eq!(get(&ls, "seat_1").value, 100.0);
    let gap = get(&ls, "largest_gap");
    assert_eq!(gap.value, 100.0);
    assert!(gap.low.expect("an interval") > 0.0);
    assert_eq!(get(&ls, "first_player").value, 50.0);
    let verdicts = judge::verdicts(&t, &ls);
    assert!(verdicts[0].starts_with("not fair"), "{verdicts:?}");
    assert_eq!(get(&ls, "with_winner").value, 100.0);
    assert_eq!(get(&ls, "turn_limited").value, 0.0);
    assert_eq!(get(&ls, "shared_wins").value, 0.0);
    for key in ["turns_mean", "turns_median", "turns_p95"] {
        assert_eq!(get(&ls, key).value, 9.0, "{key}");
    }
    for key in ["rounds_mean", "rounds_median", "rounds_p95"] {
        assert_eq!(get(&ls, key).value, 1.0, "{key}");
    }
    assert_eq!(get(&ls, "length_fit").value, 100.0);
    // 9 cards laid, every one with no choice: none of its legal cards makes another total.
    assert_eq!(t.decisions, 9 * 60);
    assert_eq!(get(&ls, "real_choice").value, 0.0);
    assert_eq!(get(&ls, "choices_per_game").value, 0.0);
    assert_eq!(get(&ls, "forced_busts").value, 1.0);
    assert_eq!(get(&ls, "lead_changes").value, 0.0);
    assert_eq!(get(&ls, "comebacks").value, 0.0);
    assert_eq!(get(&ls, "drama").value, 0.0);
    // Two players: nobody waits out (the first one out ends the game).
    assert!(ls.iter().all(|l| !l.key.starts_with("downtime")));
    // The rules: the card line fires 9 times a game and decides every round (the last card
    // before the bust); with 3 cards a hand and a full stock no one is ever without cards, so
    // that line never fires, and says so with the rule of three's bound: 60 games, 1 in 20.
    let rules = judge::rules(&p, &t);
    let card = rules
        .iter()
        .find(|r| r.label.starts_with("card A"))
        .expect("the card line");
    assert_eq!((card.fired, card.games, card.decided), (9 * 60, 60, 60));
    assert_eq!(card.decided_share, 100.0);
    let trigger = |what: &str| {
        rules
            .iter()
            .find(|r| r.label.starts_with(what))
            .unwrap_or_else(|| panic!("{what}"))
    };
    let stuck = trigger("when a player cannot play");
    assert_eq!((stuck.fired, stuck.decided), (60, 60));
    assert_eq!(stuck.never_bound, None);
    let empty = trigger("when a player has no cards");
    assert_eq!((empty.fired, empty.games, empty.decided), (0, 0, 0));
    assert_eq!(empty.never_bound, Some(20));
}

#[test]
fn three_players_wait_the_turns_left_after_the_first_one_is_out() {
    // With three players the first one out waits for the rest of the game: its share is the
    // turns after its elimination over the game's turns, strictly between none and all.
    let path = write_ruleset("ones3", ONES);
    let cfg = config("ones3", 3, 80, 2);
    let (_, t) = run(&path.display().to_string(), &cfg, 1);
    let ls = judge::lines(&t, &cfg);
    let wait = get(&ls, "downtime_1");
    assert!(wait.value > 0.0 && wait.value < 100.0, "{}", wait.value);
    assert_eq!(t.downtime[0].n, t.games);
    // Each first-out share is below 1 and the mean is the sums' mean, exactly.
    assert!(wait.value * 1e4 - t.downtime[0].sum as f64 / t.games as f64 <= 1e-6);
}

#[test]
fn the_tally_is_the_same_for_any_number_of_threads() {
    let cfg = config("ninety-nine", 3, 150, 9);
    let (_, one) = run(&shipped("ninety-nine"), &cfg, 1);
    let (_, two) = run(&shipped("ninety-nine"), &cfg, 2);
    assert_eq!(one.games, 150);
    assert_eq!(one, two);
}

#[test]
fn a_ruleset_against_itself_differs_in_nothing_and_a_head_start_shortens_the_game() {
    let cfg = config("ninety-nine", 3, 200, 3);
    let (_, a) = run(&shipped("ninety-nine"), &cfg, 2);
    let (_, b) = run(&shipped("ninety-nine"), &cfg, 2);
    let ds = judge::compare(&judge::lines(&a, &cfg), &judge::lines(&b, &cfg));
    assert!(!ds.is_empty());
    for d in &ds {
        assert_eq!(d.diff, 0.0, "{}", d.key);
        assert_ne!(d.verdict, Verdict::Beyond, "{}", d.key);
    }
    let (_, c) = run(&shipped("ninety-nine-head-start"), &cfg, 2);
    let ds = judge::compare(&judge::lines(&a, &cfg), &judge::lines(&c, &cfg));
    let turns = ds.iter().find(|d| d.key == "turns_mean").expect("turns");
    assert!(turns.diff < 0.0);
    assert_eq!(turns.verdict, Verdict::Beyond);
    assert!(turns.high.expect("an interval") < 0.0);
    let median = ds.iter().find(|d| d.key == "turns_median").expect("median");
    assert_eq!(median.verdict, Verdict::NoTest);
}

#[test]
fn an_unreadable_ruleset_or_a_bad_option_exits_2_and_a_judged_one_0() {
    for args in [
        vec!["judge", "no-such-ruleset"],
        vec!["judge", "ninety-nine", "--length", "9"],
        vec!["judge", "ninety-nine", "--length", "9..3"],
        vec!["judge", "ninety-nine", "--games", "0"],
        vec!["judge", "ninety-nine", "--bot", "nobody"],
        vec!["judge", "ninety-nine", "--players", "9"],
        vec!["judge", "ninety-nine", "--jobs", "0"],
    ] {
        let out = ninety().args(&args).output().expect("runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("error"),
            "{args:?}"
        );
    }
    let out = ninety()
        .args(["judge", "ninety-nine", "--games", "20"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn the_json_carries_every_line_rule_and_verdict() {
    let out = ninety()
        .args([
            "judge",
            "ninety-nine",
            "--games",
            "40",
            "--jobs",
            "1",
            "--json",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let cfg = config("ninety-nine", 3, 40, 1);
    let (p, t) = run(&shipped("ninety-nine"), &cfg, 1);
    let ls = judge::lines(&t, &cfg);
    let keys: Vec<&str> = v["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .filter_map(|l| l["key"].as_str())
        .collect();
    let want: Vec<&str> = ls.iter().map(|l| l.key.as_str()).collect();
    assert_eq!(keys, want);
    assert_eq!(v["games"], 40);
    assert_eq!(
        v["verdicts"].as_array().expect("verdicts").len(),
        judge::verdicts(&t, &ls).len()
    );
    assert_eq!(
        v["rules"].as_array().expect("rules").len(),
        judge::rules(&p, &t).len()
    );
    let two = ninety()
        .args([
            "judge",
            "ninety-nine",
            "ninety-nine-quick",
            "--games",
            "30",
            "--json",
        ])
        .output()
        .expect("runs");
    let v: serde_json::Value = serde_json::from_slice(&two.stdout).expect("JSON");
    assert!(v["a"]["lines"].is_array() && v["b"]["lines"].is_array());
    let ds = v["differences"].as_array().expect("differences");
    assert!(!ds.is_empty());
    assert!(ds.iter().all(|d| d["verdict"].is_string()));
}

#[test]
fn the_text_of_a_shipped_ruleset() {
    let out = ninety()
        .args([
            "judge",
            "ninety-nine",
            "--games",
            "60",
            "--seed",
            "5",
            "--jobs",
            "2",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    insta::assert_snapshot!(String::from_utf8_lossy(&out.stdout));
}

#[test]
fn the_text_of_a_comparison() {
    let out = ninety()
        .args([
            "judge",
            "ninety-nine",
            "ninety-nine-head-start",
            "--games",
            "60",
            "--seed",
            "5",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    insta::assert_snapshot!(String::from_utf8_lossy(&out.stdout));
}

#[test]
fn with_no_choice_no_bot_is_stronger_and_every_deal_keeps_its_winner() {
    // In Only ones the deal decides everything: seat 1 wins whoever plays. The strong seat,
    // rotated, wins exactly half the deals, and the swap never changes the winner.
    let path = write_ruleset("ones-skill", ONES);
    let mut cfg = config("ones-skill", 2, 10, 1);
    cfg.skill_games = Some(20);
    let (_, t) = run(&path.display().to_string(), &cfg, 2);
    assert_eq!(t.skill.len(), judge::LADDER.len() - 1);
    let ls = judge::lines(&t, &cfg);
    for r in &t.skill {
        assert_eq!(r.games, 20);
        assert_eq!(get(&ls, &format!("skill_{}", r.strong)).value, 50.0);
        assert_eq!(get(&ls, &format!("luck_{}", r.strong)).value, 100.0);
    }
    let verdicts = judge::verdicts(&t, &ls);
    assert!(
        verdicts.iter().any(|v| v.starts_with("skill not shown")),
        "{verdicts:?}"
    );
}

#[test]
fn the_ladder_is_the_same_for_any_number_of_threads() {
    let p = load_program(&Disk, &shipped("ninety-nine"), &[]).expect("checks");
    let one = judge::ladder(&p, 3, 6, 2, 1).expect("runs");
    let two = judge::ladder(&p, 3, 6, 2, 2).expect("runs");
    assert_eq!(one, two);
    assert!(one.iter().all(|r| r.games <= 6 && r.same_winner <= r.games));
}

#[test]
fn the_page_is_self_contained_the_same_for_any_jobs_and_renders_in_chromium() {
    let dir = std::env::temp_dir().join(format!("ninety-judge-page-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let page = |name: &str, jobs: &str, rulesets: &[&str]| {
        let file = dir.join(name);
        let mut args = vec!["judge"];
        args.extend(rulesets);
        let file_arg = file.display().to_string();
        args.extend(["--games", "40", "--jobs", jobs, "--report", &file_arg]);
        let out = ninety().args(&args).output().expect("runs");
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        std::fs::read_to_string(&file).expect("the page")
    };
    let one = page("one.html", "1", &["ninety-nine"]);
    assert_eq!(one, page("two.html", "2", &["ninety-nine"]));
    let cfg = config("ninety-nine", 3, 40, 1);
    let (_, t) = run(&shipped("ninety-nine"), &cfg, 1);
    let verdicts = judge::verdicts(&t, &judge::lines(&t, &cfg));
    for v in &verdicts {
        assert!(one.contains(&v.replace('\'', "&#39;")), "{v}");
    }
    assert!(one.contains("<svg"));
    for bad in [
        "<script", "http:", "https:", "<link", "<img", "@import", "url(",
    ] {
        assert!(!one.contains(bad), "the page contains `{bad}`");
    }
    let ab = page("ab.html", "2", &["ninety-nine", "ninety-nine-head-start"]);
    assert!(ab.contains("B against A") && ab.contains("beyond chance?"));
    // A real browser reads it: the verdicts are in the document it builds.
    let chromium = std::env::var_os("CHROMIUM").unwrap_or_else(|| "/usr/bin/chromium".into());
    let out = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--host-resolver-rules=MAP * ~NOTFOUND",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", dir.join("one.html").display()))
        .output()
        .expect("chromium runs (apt-get install chromium, or set CHROMIUM)");
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(dom.contains(&verdicts[0]), "{dom}");
    assert!(dom.contains("Measures") && dom.contains("<svg"), "{dom}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_page_that_cannot_be_written_fails_before_any_game() {
    let out = ninety()
        .args([
            "judge",
            "ninety-nine",
            "--games",
            "1000000",
            "--report",
            "/no/such/folder/page.html",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write the report"));
    assert!(out.stdout.is_empty());
}

#[test]
fn the_json_and_the_page_of_a_shipped_ruleset() {
    let dir = std::env::temp_dir().join(format!("ninety-judge-snap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("page.html");
    let out = ninety()
        .args([
            "judge",
            "ninety-nine",
            "--games",
            "20",
            "--seed",
            "7",
            "--json",
        ])
        .arg("--report")
        .arg(&file)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    insta::assert_snapshot!(
        "judge_json",
        serde_json::to_string_pretty(&v).expect("printed")
    );
    insta::assert_snapshot!(
        "judge_page",
        std::fs::read_to_string(&file).expect("the page")
    );
    let _ = std::fs::remove_dir_all(&dir);
}
