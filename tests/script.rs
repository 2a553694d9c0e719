//! The rhai escape hatch: scripted house rules play, tabulated scripts cost nothing, and a
//! runaway, deeply recursive or memory-hungry script is stopped with a clear error (within a
//! second: a budget asserted with `NINETY_TIMING_TESTS=1`), leaving the game exactly as it
//! was; the REPL and `sim` carry on.

use std::path::Path;
use std::time::{Duration, Instant};

use ninety::app::load::load_program;
use ninety::base::cards::{card_name, parse_card};
use ninety::compile::Disk;
use ninety::engine::{self, Move, PlayError, Setup};

mod support;

fn path(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(rel)
        .display()
        .to_string()
}

#[test]
fn pure_scripts_are_tabulated_and_live_ones_are_not() {
    let p = load_program(&Disk, &path("rulesets/house-swap-digits.rules"), &[]).expect("checks");
    assert!(
        p.script_fx.iter().all(|fx| fx.table.is_some()),
        "swap_digits reads only the total"
    );
    let p = load_program(&Disk, &path("tests/script-inputs/runaway.rules"), &[]).expect("checks");
    assert!(
        p.script_fx.iter().all(|fx| fx.table.is_none()),
        "these read the chips: live"
    );
}

/// Seat 0 holds `card` with one chip left, so the script misbehaves on it.
fn misbehave(card: &str, expect: &str) {
    let p = load_program(&Disk, &path("tests/script-inputs/runaway.rules"), &[]).expect("checks");
    let hands = vec![
        vec![
            parse_card(card).expect("a card"),
            parse_card("KC").expect("a card"),
        ],
        vec![
            parse_card("KD").expect("a card"),
            parse_card("2D").expect("a card"),
        ],
        vec![
            parse_card("KH").expect("a card"),
            parse_card("2H").expect("a card"),
        ],
    ];
    let setup = Setup {
        players: 3,
        seed: 1,
        hands: Some(hands),
        chips: Some(vec![1, 3, 3]),
        total: Some(10),
        turn: Some(0),
        ..Setup::default()
    };
    let mut s = engine::new_game(&p, &setup, &mut ()).expect("a position");
    let before = s.clone();
    let started = Instant::now();
    let err = engine::step(
        &p,
        &mut s,
        Move::Play {
            card: parse_card(card).expect("a card"),
            choice: 0,
        },
        &mut (),
    )
    .expect_err("the script is stopped");
    // Stopped by the script's meter, which counts operations, not by a clock: how soon is a
    // budget, asserted only with NINETY_TIMING_TESTS=1.
    support::budget(
        &format!("stopping the script of {card}"),
        started.elapsed(),
        Duration::from_secs(1),
    );
    let PlayError::Script(e) = &err else {
        panic!("not a script error: {err}")
    };
    let message = e.to_string();
    assert!(message.contains(expect), "{message}");
    assert!(
        message.contains("runaway.rules line"),
        "the message names where the script is: {message}"
    );
    assert_eq!(s, before, "the game is as it was before the move");
    // The game goes on: another card is played normally.
    engine::step(
        &p,
        &mut s,
        Move::Play {
            card: parse_card("KC").expect("a card"),
            choice: 0,
        },
        &mut (),
    )
    .expect("the King");
    assert_eq!(s.turn, 1);
}

#[test]
fn a_script_that_loops_forever_is_stopped() {
    misbehave("5S", "ran too long");
}

#[test]
fn a_deeply_recursive_script_is_stopped() {
    misbehave("6S", "too deeply");
}

#[test]
fn a_script_building_a_huge_string_is_stopped() {
    misbehave("8S", "too large");
}

#[test]
fn the_repl_reports_a_failing_script_and_the_game_goes_on() {
    let o = ninety::app::session::Options {
        ruleset: path("tests/script-inputs/runaway.rules"),
        players: Some(3),
        humans: 3,
        bot: "cautious".into(),
        seed: 4,
        sets: vec![("chips".into(), "1".into())],
        color: false,
    };
    // A deal where the first player holds a card whose script runs away.
    let (mut session, trap) = (1..100)
        .find_map(|seed| {
            let o = ninety::app::session::Options { seed, ..o.clone() };
            let (mut session, _) = ninety::app::session::Session::start(&Disk, &o).expect("starts");
            let _ = session.handle(&Disk, ""); // take the keyboard
            let hand: Vec<String> = session.state.hands[usize::from(session.state.turn)]
                .cards()
                .iter()
                .map(|c| card_name(*c))
                .collect();
            let trap = hand
                .into_iter()
                .find(|c| c.starts_with('5') || c.starts_with('6') || c.starts_with('8'))?;
            Some((session, trap))
        })
        .expect("some deal has one");
    let before = session.state.clone();
    let reply = session.handle(&Disk, &trap);
    assert!(
        reply.text.contains("the move was not played"),
        "{}",
        reply.text
    );
    assert_eq!(session.state, before);
    let reply = session.handle(&Disk, "total");
    assert!(reply.text.contains("to play"), "{}", reply.text);
}

#[test]
fn sim_counts_the_games_a_script_breaks() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_ninety"))
        .args([
            "sim",
            &path("tests/script-inputs/all-trapped.rules"),
            "--games",
            "6",
            "--set",
            "chips=2",
            "--jobs",
            "2",
        ])
        .output()
        .expect("runs");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8_lossy(&o.stdout);
    let failed = out
        .lines()
        .find(|l| l.starts_with("Games that failed"))
        .expect("failures are reported");
    assert!(!failed.ends_with(": 0"), "{out}");
}

#[test]
fn a_bot_script_plays_a_whole_game() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_ninety"))
        .args([
            "run",
            &path("rulesets/ninety-nine.rules"),
            "--bots",
            &format!("script:{}", path("bots/low-and-steady.rhai")),
            "--seed",
            "3",
        ])
        .output()
        .expect("runs");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("The game ends"));
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_ninety"))
        .args(["run", "ninety-nine", "--bots", "script:no-such-bot.rhai"])
        .output()
        .expect("runs");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("cannot read the bot script"));
}
