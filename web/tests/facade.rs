//! The playground's façade on the host: the same functions the page's workers call, checked
//! against the library they wrap (the language server's diagnostics and hover, the REPL's
//! session, `sim`'s report and page, `sim A B`'s comparison, `judge`).

use ninety::compile::{SHIPPED, Shipped};
use ninety::sim;
use ninety_web::editor::Editor;
use ninety_web::simulate::{Ask, Batch, judge_run, simulate};
use ninety_web::table::Table;
use ninety_web::{Playground, examples, parse_sets};

fn ask(games: u64, players: Option<usize>, bots: &[&str], seed: u64) -> Ask {
    Ask {
        games,
        players,
        bots: bots.iter().map(|b| b.to_string()).collect(),
        seed,
        sets: Vec::new(),
        file: "mine.rules".into(),
    }
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).expect("json")
}

fn shipped(name: &str) -> &'static str {
    SHIPPED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| *t)
        .expect("a shipped ruleset")
}

#[test]
fn every_shipped_ruleset_checks_clean_with_its_sheet() {
    let mut ed = Editor::new();
    for (name, text) in SHIPPED {
        let c = ed.check(text, true);
        let errors: Vec<_> = c
            .diagnostics
            .iter()
            .filter(|d| d.severity == "error")
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
        let sheet = c.sheet.expect("a sheet");
        assert!(sheet.contains(&c.name.clone().expect("a name")), "{name}");
        assert!(!c.tokens.is_empty(), "{name} has colours");
    }
}

#[test]
fn a_mistake_is_said_at_its_line_with_its_code_and_goes_when_mended() {
    let mut ed = Editor::new();
    let good = shipped("ninety-nine");
    let lines = good.lines().count() as u32;
    let bad = format!("{good}card Z: add 5\n");
    let c = ed.check(&bad, false);
    assert!(c.sheet.is_none(), "no sheet for a ruleset with an error");
    let d = c
        .diagnostics
        .iter()
        .find(|d| d.severity == "error")
        .expect("an error");
    assert_eq!(d.from.line, lines, "{d:?}");
    assert_eq!(d.code, "unknown-rank", "{d:?}");
    assert!(d.message.contains("help:"), "the hint comes with it: {d:?}");
    let c = ed.check(good, false);
    assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
}

#[test]
fn a_failing_scenario_is_found_by_the_full_check_alone() {
    let mut ed = Editor::new();
    let text = shipped("ninety-nine-quick").replace("expect chips 2, 1, 2", "expect chips 2, 1, 1");
    let fast = ed.check(&text, false);
    assert!(fast.diagnostics.is_empty(), "{:?}", fast.diagnostics);
    let full = ed.check(&text, true);
    assert!(
        full.diagnostics
            .iter()
            .any(|d| d.code == "scenario-failed" && d.severity == "error"),
        "{:?}",
        full.diagnostics
    );
}

#[test]
fn a_quick_fix_comes_with_its_range() {
    let mut ed = Editor::new();
    // A variant that repeats its parent's line: the fix removes the line.
    let text = "extends \"ninety-nine\"\nname \"Same\"\ncard K: nothing\n";
    let c = ed.check(text, true);
    let fixes: Vec<_> = c.diagnostics.iter().filter_map(|d| d.fix.clone()).collect();
    assert!(
        fixes.iter().any(|f| f.from.line == 2 && f.text.is_empty()),
        "{:?}",
        c.diagnostics
    );
}

#[test]
fn hover_and_completion_answer_as_the_language_server_does() {
    let mut ed = Editor::new();
    let text = shipped("ninety-nine");
    ed.check(text, true);
    let line = text
        .lines()
        .position(|l| l.starts_with("card "))
        .expect("a card line") as u32;
    let h = ed.hover(line, 6).expect("a hover on a card line");
    assert!(!h.markdown.is_empty());
    assert_eq!(h.from.map(|f| f.line), Some(line));
    // At the start of an empty last line: the keywords a statement may start with.
    let mut with_blank = text.to_string();
    with_blank.push('\n');
    ed.check(&with_blank, false);
    let last = with_blank.lines().count() as u32;
    let items = ed.complete(last, 0);
    assert!(items.iter().any(|i| i.label == "card"), "{items:?}");
}

#[test]
fn an_oversized_text_is_one_diagnostic_not_a_failure() {
    let mut ed = Editor::new();
    let huge = "# x\n".repeat(200_000);
    let c = ed.check(&huge, false);
    assert_eq!(c.diagnostics.len(), 1, "{:?}", c.diagnostics);
    assert!(c.diagnostics[0].message.contains("KB"));
}

#[test]
fn a_game_is_played_to_its_end_one_legal_move_at_a_time() {
    let mut ed = Editor::new();
    ed.check(shipped("ninety-nine-quick"), false);
    let program = ed.program().cloned().expect("it compiles");
    let (mut table, mut view) = Table::new(program, 3, "cautious", 7, &[]).expect("a game");
    assert!(view.text.contains("Seed 7"), "{}", view.text);
    let mut moves = 0;
    while !view.over {
        assert!(
            !view.moves.is_empty(),
            "a move to make while the game goes on"
        );
        let m = view.moves[moves % view.moves.len()].send.clone();
        view = table.play(&m);
        // Every move offered is taken: the REPL says what the human did.
        assert!(
            view.text.contains("You play")
                || view.text.contains("You draw")
                || view.text.contains("You do not draw"),
            "{m}: {}",
            view.text
        );
        moves += 1;
        assert!(moves < 5000, "the game ends");
    }
    assert!(view.moves.is_empty());
    assert!(moves > 0);
    let outcome = view.outcome.expect("how the game ended");
    assert!(
        outcome.ends_with(" won")
            || outcome == "no winner"
            || outcome.starts_with("the game stopped"),
        "{outcome}"
    );
}

/// The moves beside laying a card and the cards that name a player are buttons of the table
/// like any card, each saying what it does, and each button plays: three house rules played
/// to their end by pressing every kind of button offered.
#[test]
fn moves_beside_a_card_and_players_named_are_buttons_that_play() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/house-rules/set3");
    let mut seen = std::collections::BTreeSet::new();
    for file in [
        "kings-choice.rules",
        "blind-draw.rules",
        "bust-shield.rules",
    ] {
        let text = std::fs::read_to_string(root.join(file)).expect("readable");
        let mut ed = Editor::new();
        ed.check(&text, false);
        let program = ed.program().cloned().expect("it compiles");
        for seed in 1..=6 {
            let (mut table, mut view) =
                Table::new(program.clone(), 3, "cautious", seed, &[]).expect("a game");
            let mut moves = 0;
            while !view.over {
                assert!(!view.moves.is_empty(), "{file}: a move to make");
                // The move beside a card when there is one, else a card naming a player,
                // else the first.
                let pick = view
                    .moves
                    .iter()
                    .find(|m| m.label.contains("stock") || m.send.starts_with("discard"))
                    .or_else(|| view.moves.iter().find(|m| m.send.contains('>')))
                    .or_else(|| view.moves.iter().find(|m| m.send == "yield"))
                    .unwrap_or(&view.moves[0])
                    .clone();
                for m in &view.moves {
                    if m.send.contains('>') {
                        assert!(m.label.contains("naming Bot"), "{file}: {m:?}");
                        seen.insert("named");
                    } else if m.send == "stock" {
                        assert_eq!(m.label, "lay the stock's top card", "{file}");
                        seen.insert("stock");
                    } else if m.send.starts_with("discard ") {
                        seen.insert("discard");
                    } else if m.send == "yield" {
                        seen.insert("yield");
                    }
                }
                view = table.play(&pick.send);
                assert!(
                    !view.refused,
                    "{file}: {} refused: {}",
                    pick.send, view.text
                );
                moves += 1;
                assert!(moves < 5000, "{file}: the game ends");
            }
        }
    }
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        ["discard", "named", "stock", "yield"],
        "every kind of move was offered"
    );
}

#[test]
fn the_simulation_is_sims_own_report_and_page() {
    let mut ed = Editor::new();
    ed.check(shipped("ninety-nine"), false);
    let p = ed.program().cloned().expect("it compiles");
    let bots = ["cautious".to_string(), "random".to_string()];
    let run = simulate(&p, &ask(200, Some(3), &["cautious", "random"], 5)).expect("runs");
    assert_eq!(run.games, 200);
    // The same run as `ninety sim`: the library's own, loaded from the shipped set.
    let shipped_p = ninety::app::load::load_program(&Shipped, "ninety-nine", &[]).expect("loads");
    let players: Vec<_> = (0..3)
        .map(|i| ninety::play::Player::builtin(&bots[i % 2]).expect("a bot"))
        .collect();
    let cfg = sim::Config {
        ruleset: "mine.rules".into(),
        name: shipped_p.name.clone(),
        players: 3,
        bots: (0..3).map(|i| bots[i % 2].clone()).collect(),
        seed: 5,
        games: 200,
        sets: Vec::new(),
    };
    let st = sim::run(&shipped_p, &players, &cfg, &sim::Control::jobs(1)).expect("runs");
    assert_eq!(run.text, sim::report(&cfg, &st));
    assert_eq!(run.html, sim::html::single(&cfg, &st));
    assert!(run.html.contains("<svg"));
    // The report's command names the file the page downloads, not a ruleset that is not there.
    assert!(
        run.html.contains("ninety sim mine.rules --games 200"),
        "the command names the file"
    );
    assert!(simulate(&p, &ask(0, None, &[], 1)).is_err());
}

#[test]
fn the_exported_calls_answer_json_and_refuse_without_failing() {
    let mut pg = Playground::new();
    let list = json(&examples());
    assert_eq!(list.as_array().map(Vec::len), Some(SHIPPED.len()));
    // No game and no program yet: errors, as JSON.
    assert!(json(&pg.play("9H"))["error"].is_string());
    let v = json(&pg.check("card Z: add 5\n"));
    assert!(!v["diagnostics"].as_array().expect("a list").is_empty());
    assert!(json(&pg.new_game(3, "cautious", 1, ""))["error"].is_string());
    assert!(json(&pg.run_start(10, 0, "", 1, "", "", "x.rules"))["error"].is_string());
    pg.check(shipped("ninety-nine"));
    assert!(json(&pg.new_game(3, "no-such-bot", 1, ""))["error"].is_string());
    assert!(json(&pg.new_game(3, "cautious", 1, "{\"chips\": 99}"))["error"].is_string());
    assert!(json(&pg.new_game(3, "cautious", 1, "not json"))["error"].is_string());
    let v = json(&pg.new_game(3, "cautious", 1, ""));
    assert!(v["moves"].is_array(), "{v}");
    let v = json(&pg.play("not a move"));
    assert!(v["text"].is_string() && v["refused"] == true, "{v}");
    let v = json(&pg.run_start(20, 0, "cautious,script:x.rhai", 1, "", "", "x.rules"));
    assert!(v["error"].is_string(), "{v}");
    let v = json(&pg.run_start(20, 0, "", 1, "", "no-such-ruleset", "x.rules"));
    assert!(v["error"].is_string(), "{v}");
    let v = json(&pg.run_start(20, 0, "", 1, "", "", "x.rules"));
    assert_eq!(v["games"], 20, "{v}");
    while !json(&pg.run_step())["done"].as_bool().expect("done or not") {}
    let v = json(&pg.run_report());
    assert_eq!(v["games"], 20, "{v}");
    assert!(json(&pg.run_step())["error"].is_string(), "the run is over");
    let h = json(&pg.hover(9999, 9999));
    assert!(h.is_null(), "{h}");
}

#[test]
fn a_simulation_in_slices_is_the_whole_run_and_a_stop_reports_what_was_played() {
    let mut ed = Editor::new();
    ed.check(shipped("ninety-nine"), false);
    let p = ed.program().cloned().expect("it compiles");
    // 2,500 games are three slices of the run: merged, exactly the whole run.
    let a = ask(2500, Some(3), &["random"], 9);
    let mut batch = Batch::new(&p, None, &a).expect("starts");
    let mut steps = 0;
    while !batch.step().expect("plays").done {
        steps += 1;
    }
    assert!(steps >= 2, "played in slices ({steps})");
    let run = batch.report();
    let cfg = sim::Config {
        ruleset: "mine.rules".into(),
        name: p.name.clone(),
        players: 3,
        bots: vec!["random".into(); 3],
        seed: 9,
        games: 2500,
        sets: Vec::new(),
    };
    let rp = ninety::play::Ruleset::new(p.clone());
    let bot = ninety::play::Player::builtin("random").expect("a bot");
    let whole = sim::run(&rp, &[bot], &cfg, &sim::Control::jobs(1)).expect("runs");
    assert_eq!(run.text, sim::report(&cfg, &whole));
    assert_eq!((run.games, run.asked), (2500, 2500));
    // Stopped after its first slice: the report covers the games played, and says so.
    let mut batch = Batch::new(&p, None, &a).expect("starts");
    let first = batch.step().expect("plays");
    assert!(
        !first.done && first.played > 0 && first.played < 2500,
        "{first:?}"
    );
    let part = batch.report();
    assert_eq!(part.games, first.played);
    assert_eq!(part.asked, 2500);
    assert!(
        part.text
            .contains(&format!("covers {} of the 2500 games", first.played)),
        "{}",
        part.text
    );
}

#[test]
fn a_variant_against_its_parent_is_sims_comparison_on_the_same_deals() {
    let mut ed = Editor::new();
    let text = "extends \"ninety-nine\"\nname \"Sevens\"\ncard 7: add 7 and play again\n";
    let c = ed.check(text, true);
    assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
    assert_eq!(c.parent.as_deref(), Some("ninety-nine"));
    let p = ed.program().cloned().expect("it compiles");
    let entry = ninety_web::simulate::shipped("ninety-nine", &[]).expect("the parent");
    let parent = entry.program.clone();
    let a = ask(300, Some(3), &["cautious"], 4);
    let run = Batch::new(&p, Some(entry), &a)
        .expect("starts")
        .run_all()
        .expect("runs");
    let bot = ninety::play::Player::builtin("cautious").expect("a bot");
    let side = |ruleset: &str, program: &ninety::ir::Program| {
        let cfg = sim::Config {
            ruleset: ruleset.into(),
            name: program.name.clone(),
            players: 3,
            bots: vec!["cautious".into(); 3],
            seed: 4,
            games: 300,
            sets: Vec::new(),
        };
        let rp = ninety::play::Ruleset::new(program.clone());
        let st = sim::run(
            &rp,
            std::slice::from_ref(&bot),
            &cfg,
            &sim::Control::jobs(1),
        )
        .expect("runs");
        (cfg, st)
    };
    let (ca, sa) = side("ninety-nine", &parent);
    let (cb, sb) = side("mine.rules", &p);
    assert_eq!(run.text, sim::compare((&ca, &sa), (&cb, &sb)));
    assert_eq!(run.html, sim::html::comparison((&ca, &sa), (&cb, &sb)));
    assert!(
        run.html.contains("ninety sim ninety-nine mine.rules"),
        "the command names both"
    );
}

#[test]
fn every_new_variant_checks_clean_and_names_its_parent() {
    let list = json(&examples());
    let mut ed = Editor::new();
    for e in list.as_array().expect("a list") {
        let name = e["name"].as_str().expect("a name");
        let variant = e["variant"].as_str().expect("a variant");
        assert!(
            variant.starts_with(&format!("extends \"{name}\"\nname \"My ")),
            "{variant}"
        );
        let c = ed.check(variant, true);
        assert!(c.diagnostics.is_empty(), "{name}: {:?}", c.diagnostics);
        assert_eq!(c.parent.as_deref(), Some(name));
        let title = e["title"].as_str().expect("a title");
        assert_eq!(c.name, Some(format!("My {title}")), "{name}");
        // A house rule added to it checks clean, where in a copy of the game it conflicts.
        let house = format!("{variant}card 7: add 7 and play again\n");
        let c = ed.check(&house, false);
        let errors: Vec<_> = c
            .diagnostics
            .iter()
            .filter(|d| d.severity == "error")
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
    }
}

#[test]
fn options_are_controls_and_their_values_reach_the_game() {
    let mut ed = Editor::new();
    let c = ed.check(shipped("ninety-nine"), false);
    let chips = c.options.iter().find(|o| o.name == "chips").expect("chips");
    assert_eq!(
        (chips.kind, chips.min, chips.max),
        ("number", Some(1), Some(10))
    );
    assert_eq!(chips.value, "3");
    let p = ed
        .program_with(&[("chips".into(), "5".into())])
        .expect("chips=5 fits");
    let (_, view) = Table::new(p, 3, "cautious", 1, &[]).expect("a game");
    assert!(view.scores.contains("You: 5"), "{}", view.scores);
    assert!(ed.program_with(&[("chips".into(), "11".into())]).is_err());
    assert!(ed.program_with(&[("nope".into(), "1".into())]).is_err());
    let c = ed.check(shipped("ring-of-99"), false);
    let cap = c.options.iter().find(|o| o.name == "cap").expect("cap");
    assert_eq!(cap.kind, "choice");
    assert_eq!(cap.choices, vec!["199".to_string(), "299".to_string()]);
    let c = ed.check(shipped("33-66-99"), false);
    let by_hand = c
        .options
        .iter()
        .find(|o| o.name == "by_hand")
        .expect("by_hand");
    assert_eq!((by_hand.kind, by_hand.value.as_str()), ("yesno", "yes"));
    assert!(ed.program_with(&[("by_hand".into(), "no".into())]).is_ok());
    // Every shipped ruleset's options are controls the page draws.
    for (name, text) in SHIPPED {
        for o in ed.check(text, false).options {
            assert!(
                matches!(o.kind, "number" | "choice" | "yesno"),
                "{name}: {o:?}"
            );
            if o.kind == "number" {
                assert!(o.min.is_some() == o.max.is_some(), "{name}: {o:?}");
            }
        }
    }
    assert_eq!(
        parse_sets("{\"chips\": 5, \"by_hand\": true, \"cap\": \"299\"}").expect("parses"),
        vec![
            ("by_hand".to_string(), "yes".to_string()),
            ("cap".to_string(), "299".to_string()),
            ("chips".to_string(), "5".to_string())
        ]
    );
    assert_eq!(parse_sets("").expect("nothing"), Vec::new());
}

#[test]
fn the_table_takes_only_the_moves_it_offers() {
    let mut ed = Editor::new();
    ed.check(shipped("ninety-nine"), false);
    let p = ed.program().cloned().expect("it compiles");
    let (mut table, view) = Table::new(p, 3, "cautious", 3, &[]).expect("a game");
    for line in [
        "save x.json",
        "load x.json",
        "quit",
        "help",
        "undo",
        "new",
        "rules",
        "reload",
        "why 9H",
        "",
    ] {
        let v = table.play(line);
        assert!(v.refused, "{line:?} is refused: {v:?}");
        assert_eq!(v.moves, view.moves, "{line:?}: the game is as it was");
    }
    let m = view.moves[0].send.clone();
    let v = table.play(&m);
    assert!(!v.refused && v.text.contains("You play"), "{v:?}");
}

#[test]
fn the_game_log_speaks_the_pages_words_to_the_end_of_every_shipped_game() {
    let mut ed = Editor::new();
    for (name, text) in SHIPPED {
        ed.check(text, false);
        let p = ed.program().cloned().expect("it compiles");
        let players = p.default_players();
        let (mut table, mut view) = Table::new(p, players, "cautious", 11, &[]).expect("a game");
        let mut log = view.text.clone();
        let mut moves = 0;
        while !view.over && moves < 3000 {
            let m = view.moves[moves % view.moves.len()].send.clone();
            view = table.play(&m);
            log.push_str(&view.text);
            moves += 1;
        }
        assert!(view.over, "{name}: the game ends");
        for word in [
            "Type ", "type `", "`help`", "`quit`", "`new`", "--seed", "Enter", "Space",
        ] {
            assert!(!log.contains(word), "{name}: the log says {word:?}:\n{log}");
        }
        assert!(log.contains("Seed 11: the same seed"), "{name}");
        assert!(view.outcome.is_some(), "{name}");
    }
}

#[test]
fn the_judge_is_judges_own_text_and_page() {
    let mut ed = Editor::new();
    ed.check(shipped("ninety-nine"), false);
    let p = ed.program().cloned().expect("it compiles");
    let run = judge_run(&p, "cautious", &ask(100, Some(3), &[], 2)).expect("judges");
    let cfg = ninety::sim::judge::JudgeConfig {
        ruleset: "mine.rules".into(),
        name: p.name.clone(),
        players: 3,
        bot: "cautious".into(),
        games: 100,
        seed: 2,
        length: None,
        pace_ms: ninety::sim::judge::DEFAULT_PACE_MS,
        minutes: None,
        skill_games: None,
        restrict: None,
    };
    let bot = ninety::play::Player::builtin("cautious").expect("a bot");
    let p = ninety::play::Ruleset::new(p);
    let t = ninety::sim::judge::judge(&p, &bot, &cfg, 1).expect("judges");
    assert_eq!(run.text, ninety::sim::judge::text(&p, &cfg, &t));
    assert_eq!(run.html, ninety::sim::judge::html(&p, &cfg, &t));
    // The judge's report gives no command: the page shows this one, naming the file.
    assert_eq!(
        run.command.as_deref(),
        Some("ninety judge mine.rules --games 100 --players 3 --bot cautious --seed 2")
    );
    assert!(judge_run(&p, "cautious", &ask(0, None, &[], 1)).is_err());
    let mut pg = Playground::new();
    assert!(json(&pg.judge(10, 0, "cautious", 1, "", "x.rules", ""))["error"].is_string());
    pg.check(shipped("ninety-nine"));
    assert!(json(&pg.judge(10, 0, "nobody", 1, "", "x.rules", ""))["error"].is_string());
    let v = json(&pg.judge(10, 0, "cautious", 1, "", "x.rules", ""));
    assert_eq!(v["games"], 10, "{v}");
}

#[test]
fn the_judge_sets_player_counts_and_option_values_side_by_side() {
    let mut pg = Playground::new();
    pg.check(shipped("ninety-nine"));
    let v = json(&pg.judge(200, 0, "cautious", 1, "", "x.rules", "players=2..3"));
    let text = v["text"].as_str().unwrap_or_default();
    assert!(text.contains("by player count: 200 games each"), "{v}");
    assert!(
        text.contains("\n2 players:\n") && text.contains("\n3 players:\n"),
        "{text}"
    );
    assert_eq!(
        v["command"],
        "ninety judge x.rules --games 200 --players 2..3 --bot cautious --seed 1"
    );
    assert!(v["html"].as_str().unwrap_or_default().contains("<pre>"));
    let v = json(&pg.judge(200, 3, "cautious", 1, "", "x.rules", "chips=2,4"));
    let text = v["text"].as_str().unwrap_or_default();
    assert!(text.contains("by the value of chips, 3 players"), "{v}");
    assert!(
        text.contains("\nchips=2:\n") && text.contains("\nchips=4:\n"),
        "{text}"
    );
    // What cannot be judged says why: a value the option does not take, a count the game
    // does not play, words that are neither.
    for bad in ["chips=0,2", "players=1..3", "players=two", "nonsense"] {
        let v = json(&pg.judge(50, 0, "cautious", 1, "", "x.rules", bad));
        assert!(v["error"].is_string(), "{bad}: {v}");
    }
}
