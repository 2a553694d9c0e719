//! A soak test in place of `cargo fuzz` (which needs a nightly toolchain): generated rulesets,
//! scripts, saved games and shards, for as long as `NINETY_SOAK_SECS` says (10 s by default,
//! shared by the three tests below). Nothing may panic; every ruleset that checks plays games
//! that keep every invariant; a loaded save always passes `State::validate`; a merge is
//! refused or true. Run with `cargo test --test soak -- --ignored` (`.ci/run` gives it 60 s).
//! Every failure it finds is kept as a regression file in `tests/hostile/`.

use std::time::{Duration, Instant};

mod common;

use ninety::compile::{self, Memory};
use ninety::engine::{self, Setup};
use ninety::play::{Bot, Player, bot_turn};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// Rulesets that checked and were played (said at the end, to see the soak bites).
static PLAYED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// This test's share of the soak's time.
fn budget() -> Duration {
    let secs: f64 = std::env::var("NINETY_SOAK_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10.0);
    Duration::from_secs_f64(secs / 3.0)
}

/// Runs `test` on inputs of `strategy` until the budget is spent.
fn soak<S: Strategy>(strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>)
where
    S::Value: std::fmt::Debug,
{
    let started = Instant::now();
    let deadline = started + budget();
    let mut runs = 0;
    while Instant::now() < deadline || runs == 0 {
        let mut runner = TestRunner::new(Config {
            cases: 16,
            failure_persistence: None,
            ..Config::default()
        });
        // Past the deadline the rest of a batch is skipped.
        let bounded = |v| {
            if runs > 0 && Instant::now() > deadline {
                return Ok(());
            }
            test(v)
        };
        if let Err(e) = runner.run(&strategy, bounded) {
            panic!("{e}");
        }
        runs += 1;
    }
}

fn number() -> impl Strategy<Value = i64> {
    prop_oneof![
        6 => -5i64..130,
        1 => any::<i32>().prop_map(i64::from),
        1 => prop::sample::select(vec![0i64, 1, 2, 12, 13, 99, 1_000_000, -1_000_000, -2_147_483_648]),
    ]
}

fn rank() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "A",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "8",
        "9",
        "10",
        "J",
        "Q",
        "K",
        "X",
        "A, 2, 3",
        "4, 5, 6, 7, 8",
        "9, 10, J, Q, K",
    ])
}

fn script_body() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "game.total + 1",
        "game.total + game.chips[0] % 3",
        "if game.total % 2 == 0 { game.total / 2 } else { game.total * 2 }",
        "#{ total: game.total + 5, pay: #{ who: \"each other\", amount: 1 } }",
        "#{ skip: true }",
        "()",
        "let a = []; for i in 0..50 { a = [a]; } a.to_string(); 0",
        "sleep(1); 0",
        "timestamp(); 0",
        "let f = Fn(\"g\"); 0",
        "throw \"no\"",
        "\"text\"",
    ])
}

/// One line of a ruleset, from the language's statements with odd numbers, and noise.
fn line() -> impl Strategy<Value = String> {
    let n = number;
    prop_oneof![
        (n(), n()).prop_map(|(a, b)| format!("players {a} to {b}")),
        n().prop_map(|a| format!("hand {a} cards")),
        n().prop_map(|a| format!("each player starts with {a} chips")),
        n().prop_map(|a| format!("the total may not go above {a}")),
        n().prop_map(|a| format!("the total may not go below {a}")),
        n().prop_map(|a| format!("the total starts at {a}")),
        (rank(), n()).prop_map(|(r, a)| format!("card {r}: add {a}")),
        (rank(), n(), n()).prop_map(|(r, a, b)| format!("card {r}: add {a} or subtract {b}")),
        (rank(), n()).prop_map(|(r, a)| format!("card {r}: set the total to {a}")),
        rank().prop_map(|r| format!("card {r}: reverse")),
        rank().prop_map(|r| format!("card {r}: run f")),
        (n(), n()).prop_map(|(a, b)| format!("on reaching {a}: each other player pays {b}")),
        (n(), n()).prop_map(|(a, b)| format!("on passing {a}: the player pays {b}")),
        (n(), n()).prop_map(|(a, b)| format!("decks {a} with {b} or more players")),
        n().prop_map(|a| format!("jokers {a} per deck")),
        n().prop_map(|a| format!("players play in teams of {a} sharing chips")),
        n().prop_map(|a| format!("when a player cannot play: the player pays {a}")),
        Just("when a player cannot play: the player pays 1 to the next player".to_string()),
        Just("a player is out at 0 chips".to_string()),
        (rank(), n(), n()).prop_map(|(r, a, b)| format!(
            "card {r}: if the total ends in {a}: reverse; otherwise either add {b} or subtract {b}"
        )),
        (n(), n()).prop_map(|(a, b)| format!(
            "on reaching {a} either way: the player who laid the previous card pays {b}"
        )),
        (n(), n())
            .prop_map(|(a, b)| format!("on passing {a} going down: the player before pays {b}")),
        n().prop_map(|a| format!("on reaching {a} going up: the player wins the game")),
        n().prop_map(|a| format!("the game ends when {a} players are left")),
        n().prop_map(|a| format!("the game ends after {a} rounds or when a player is out")),
        n().prop_map(|a| format!("the game ends when a player reaches {a} chips")),
        Just("the winner is the player with the fewest chips".to_string()),
        n().prop_map(|a| format!(
            "instead of laying a card, a player may lay the top card of the stock; if it cannot be laid: the player pays {a}"
        )),
        rank().prop_map(|r| format!("a player who cannot play may discard a {r} instead")),
        n().prop_map(|a| format!(
            "instead of laying a card, a player may pass: the player pays {a} to the pot"
        )),
        rank().prop_map(|r| format!("card {r}: choose who plays next")),
        (rank(), n(), n()).prop_map(|(r, a, b)| format!(
            "card {r}: add {a} and a player of their choice pays {b}"
        )),
        Just("the winner is the player with the most chips".to_string()),
        Just("extends \"ninety-nine\"".to_string()),
        Just("extends \"b\"".to_string()),
        Just("extends \"../../etc/passwd\"".to_string()),
        Just("script file \"s.rhai\"".to_string()),
        script_body().prop_map(|b| format!("script\n  fn f(game) {{ {b} }}\nend")),
        (n(), n()).prop_map(|(a, b)| format!(
            "scenario \"s\"\n  players {a}\n  total {b}\n  play AS\n  expect total {b}\nend"
        )),
        "[ -~]{0,40}",
    ]
}

fn ruleset() -> impl Strategy<Value = String> {
    // Mostly variants of a shipped ruleset, so that many of them check and are played.
    let start = prop::sample::select(vec![
        "",
        "extends \"ninety-nine\"\nname \"v\"\n",
        "extends \"ninety-nine\"\nname \"v\"\n",
        "extends \"33-66-99\"\nname \"v\"\n",
        "extends \"ninety-eight\"\nname \"v\"\n",
    ]);
    (start, prop::collection::vec(line(), 1..12))
        .prop_map(|(start, lines)| format!("{start}{}", lines.join("\n")))
}

#[test]
#[ignore = "a soak: cargo xtask test runs it apart, or cargo test --test soak -- --ignored"]
fn soak_rulesets_check_and_play_without_panic_keeping_every_invariant() {
    soak((ruleset(), ruleset(), script_body()), |(a, b, script)| {
        let mut files = Memory::new();
        files.insert("r/a.rules", a.into_bytes());
        files.insert("r/b.rules", b.into_bytes());
        files.insert(
            "r/s.rhai",
            format!("fn f(game) {{ {script} }}").into_bytes(),
        );
        let checked = compile::check(&files, "r/a.rules", &[]).expect("in memory");
        for d in &checked.diags {
            let _ = d.render_plain(80);
            let _ = d.to_json();
        }
        let Some(p) = checked.program else {
            return Ok(());
        };
        PLAYED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        // The rules sheet is the ruleset: read back, it is the same game.
        if p.scripts.is_none() {
            let base = ninety::app::load::base_program(&files, &p, &[]);
            let sheet = ninety::present::rules_sheet(&p, base.as_ref(), true);
            let mut text = String::from("name \"sheet\"\n");
            for r in common::sheet_rules(&sheet) {
                text.push_str(&r);
                text.push('\n');
            }
            let mut back = Memory::new();
            back.insert("s.rules", text.clone().into_bytes());
            let again = compile::check(&back, "s.rules", &[]).expect("in memory");
            let errors: Vec<String> = again
                .diags
                .iter()
                .filter(|d| d.is_error())
                .map(|d| d.render_plain(100))
                .collect();
            let Some(q) = again.program else {
                return Err(TestCaseError::fail(format!(
                    "the sheet is not a ruleset:\n{}\n{text}",
                    errors.join("\n")
                )));
            };
            prop_assert!(
                common::game(&q) == common::game(&p),
                "the sheet says another game ({}):\n{}",
                common::differences(&common::game(&q), &common::game(&p)),
                text
            );
        }
        let bots = [Player::Bot(Bot::Random)];
        let p = ninety::play::Ruleset::new(p);
        for players in [p.min_players, p.max_players] {
            for seed in 0..2 {
                let setup = Setup {
                    players: usize::from(players),
                    seed,
                    ..Setup::default()
                };
                let _allowance = ninety::play::Allowance::open(&p, &bots);
                let Ok(mut s) = engine::new_game(&p, &setup, &mut ()) else {
                    continue;
                };
                let mut rng = ninety::base::Rng::for_bots(seed);
                let mut turns = 0;
                while !s.over && turns < 400 {
                    turns += 1;
                    match bot_turn(&p, &mut s, Bot::Random, &mut rng, &mut ()) {
                        Ok(true) => {}
                        Ok(false) | Err(_) => break,
                    }
                    prop_assert_eq!(s.validate(&p), Ok(()), "after {} turns", turns);
                }
            }
        }
        Ok(())
    });
    eprintln!(
        "{} generated rulesets checked and were played",
        PLAYED.load(std::sync::atomic::Ordering::Relaxed)
    );
}

/// Puts `value` at the dotted `path` of `v` (`state.chips.1`), when that place exists.
fn put(v: &mut serde_json::Value, path: &str, value: serde_json::Value) {
    let keys: Vec<&str> = path.split('.').collect();
    let mut at = v;
    for key in &keys[..keys.len() - 1] {
        let next = match key.parse::<usize>() {
            Ok(i) => at.get_mut(i),
            Err(_) => at.get_mut(*key),
        };
        let Some(next) = next else { return };
        at = next;
    }
    let last = keys[keys.len() - 1];
    let slot = match last.parse::<usize>() {
        Ok(i) => at.get_mut(i),
        Err(_) => at.get_mut(last),
    };
    if let Some(slot) = slot {
        *slot = value;
    }
}

/// Paths into a saved game and values to put there.
fn tamper() -> impl Strategy<Value = (Vec<String>, serde_json::Value)> {
    let field = prop::sample::select(vec![
        "state.total",
        "state.turn",
        "state.dealer",
        "state.round",
        "state.turns",
        "state.bank",
        "state.pot",
        "state.over",
        "state.winners",
        "state.out_of_game",
        "state.out_of_round",
        "state.pending_draw",
        "state.round_winner",
        "state.seats",
        "state.chips.0",
        "state.chips.1",
        "state.chips.5",
        "state.forgot.0",
        "state.hands.0.len",
        "state.hands.1.len",
        "state.hands.0.cards.0",
        "state.hands.4.len",
        "state.stock.0",
        "state.discard",
        "state.aside",
        "state.rng",
        "seats.1.bot",
        "seats.0.name",
        "seats",
        "ruleset",
        "sets",
        "log",
        "version",
    ]);
    let value = prop_oneof![
        any::<i64>().prop_map(serde_json::Value::from),
        (0u64..300).prop_map(serde_json::Value::from),
        any::<bool>().prop_map(serde_json::Value::from),
        Just(serde_json::Value::Null),
        "[ -~]{0,12}".prop_map(serde_json::Value::from),
        prop::collection::vec(0u64..260, 0..70).prop_map(serde_json::Value::from),
    ];
    (
        prop::collection::vec(field, 1..4),
        prop::collection::vec(value, 1..4),
    )
        .prop_map(|(fields, values)| {
            let pairs: Vec<(String, serde_json::Value)> = fields
                .into_iter()
                .map(String::from)
                .zip(values.into_iter().cycle())
                .collect();
            let (paths, values): (Vec<String>, Vec<serde_json::Value>) = pairs.into_iter().unzip();
            (paths, serde_json::Value::Array(values))
        })
}

#[test]
#[ignore = "a soak: cargo xtask test runs it apart, or cargo test --test soak -- --ignored"]
fn soak_tampered_saves_are_refused_or_sound() {
    let dir = std::env::temp_dir().join(format!("ninety-soak-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp folder");
    let shipped = &ninety::compile::Shipped;
    let options = ninety::app::session::Options {
        ruleset: "ninety-nine".into(),
        players: None,
        humans: 1,
        bot: "cautious".into(),
        seed: 7,
        sets: Vec::new(),
        color: false,
    };
    let (mut first, _) = ninety::app::session::Session::start(shipped, &options).expect("a game");
    let save = dir.join("g.json").display().to_string();
    first.handle(shipped, "1");
    first.handle(shipped, &format!("save {save}"));
    let saved: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&save).expect("saved")).expect("json");
    soak(tamper(), |(paths, values)| {
        let mut v = saved.clone();
        for (path, value) in paths.iter().zip(values.as_array().into_iter().flatten()) {
            put(&mut v, path, value.clone());
        }
        let file = dir.join("t.json");
        std::fs::write(&file, v.to_string()).expect("write");
        let (mut s, _) = ninety::app::session::Session::start(shipped, &options).expect("a game");
        let reply = s.handle(shipped, &format!("load {}", file.display()));
        if reply.text.starts_with("Loaded") {
            prop_assert_eq!(s.state.validate(&s.program), Ok(()));
            for line in ["1", "total", "hand", "undo", "2", "scores"] {
                s.handle(shipped, line);
                prop_assert_eq!(s.state.validate(&s.program), Ok(()));
            }
        }
        Ok(())
    });
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
#[ignore = "a soak: cargo xtask test runs it apart, or cargo test --test soak -- --ignored"]
fn soak_edited_shards_merge_true_or_not_at_all() {
    let p = ninety::app::load::load_program(&ninety::compile::Shipped, "ninety-nine", &[])
        .expect("checks");
    let bots = [Player::Bot(Bot::Random)];
    let cfg = ninety::sim::Config {
        ruleset: "ninety-nine".into(),
        name: p.name.clone(),
        players: 3,
        bots: vec!["random".into(); 3],
        seed: 1,
        games: 9,
        sets: Vec::new(),
    };
    let parts: Vec<serde_json::Value> = (1..=2)
        .map(|k| {
            let control = ninety::sim::Control {
                shard: Some((k, 2)),
                ..ninety::sim::Control::jobs(1)
            };
            let stats = ninety::sim::run(&p, &bots, &cfg, &control).expect("runs");
            serde_json::to_value(ninety::sim::Output {
                config: cfg.clone(),
                shard: Some((k, 2)),
                stats,
            })
            .expect("json")
        })
        .collect();
    let field = prop::sample::select(vec![
        "stats.games",
        "stats.failed",
        "stats.wins.0",
        "stats.won_games.1",
        "stats.turns.n",
        "stats.turns.sum",
        "stats.rounds.sum_sq",
        "stats.turn_limited",
        "stats.forced_busts",
        "stats.elimination.0.0",
        "config.games",
        "config.players",
        "shard",
    ]);
    let value = prop_oneof![
        any::<u64>().prop_map(serde_json::Value::from),
        (0u64..20).prop_map(serde_json::Value::from),
        Just(serde_json::json!([3, 2])),
    ];
    soak((0usize..2, field, value), |(which, path, value)| {
        let mut edited = parts.clone();
        put(&mut edited[which], path, value);
        let outputs: Result<Vec<(String, ninety::sim::Output)>, _> = edited
            .iter()
            .enumerate()
            .map(|(i, v)| serde_json::from_value(v.clone()).map(|o| (format!("{i}.json"), o)))
            .collect();
        let Ok(outputs) = outputs else {
            return Ok(());
        };
        if let Ok(whole) = ninety::sim::merge_named(&outputs) {
            let st = &whole.stats;
            prop_assert!(st.won_games.iter().all(|w| *w <= st.games));
            let f = ninety::sim::figures(&whole.config, st);
            prop_assert!(
                f.win_pct
                    .iter()
                    .all(|w| w.is_finite() && *w <= 100.0 + 1e-9)
            );
            let _ = ninety::sim::report(&whole.config, st);
        }
        Ok(())
    });
}
