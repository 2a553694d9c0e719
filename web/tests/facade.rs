//! The playground's façade on the host: the same functions the page's workers call, checked
//! against the library they wrap (the language server's diagnostics and hover, the REPL's
//! session, `sim`'s report and page).

use ninety::compile::{SHIPPED, Shipped};
use ninety::sim;
use ninety_web::editor::Editor;
use ninety_web::simulate::{judge_run, simulate};
use ninety_web::table::Table;
use ninety_web::{Playground, examples};

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
    let (mut table, mut view) = Table::new(program, 3, "cautious", 7).expect("a game");
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
}

#[test]
fn the_simulation_is_sims_own_report_and_page() {
    let mut ed = Editor::new();
    ed.check(shipped("ninety-nine"), false);
    let p = ed.program().cloned().expect("it compiles");
    let bots = vec!["cautious".to_string(), "random".to_string()];
    let run = simulate(&p, 200, Some(3), &bots, 5).expect("runs");
    assert_eq!(run.games, 200);
    // The same run as `ninety sim`: the library's own, loaded from the shipped set.
    let shipped_p = ninety::app::load::load_program(&Shipped, "ninety-nine", &[]).expect("loads");
    let players: Vec<_> = (0..3)
        .map(|i| ninety::play::Player::builtin(&bots[i % 2]).expect("a bot"))
        .collect();
    let cfg = sim::Config {
        ruleset: "playground".into(),
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
    assert!(simulate(&p, 0, None, &[], 1).is_err());
}

#[test]
fn the_exported_calls_answer_json_and_refuse_without_failing() {
    let mut pg = Playground::new();
    let list: serde_json::Value = serde_json::from_str(&examples()).expect("json");
    assert_eq!(list.as_array().map(Vec::len), Some(SHIPPED.len()));
    // No game and no program yet: errors, as JSON.
    let v: serde_json::Value = serde_json::from_str(&pg.play("9H")).expect("json");
    assert!(v["error"].is_string(), "{v}");
    let v: serde_json::Value = serde_json::from_str(&pg.check("card Z: add 5\n")).expect("json");
    assert!(!v["diagnostics"].as_array().expect("a list").is_empty());
    let v: serde_json::Value = serde_json::from_str(&pg.new_game(3, "cautious", 1)).expect("json");
    assert!(v["error"].is_string(), "{v}");
    let v: serde_json::Value = serde_json::from_str(&pg.simulate(10, 0, "", 1)).expect("json");
    assert!(v["error"].is_string(), "{v}");
    pg.check(shipped("ninety-nine"));
    let v: serde_json::Value =
        serde_json::from_str(&pg.new_game(3, "no-such-bot", 1)).expect("json");
    assert!(v["error"].is_string(), "{v}");
    let v: serde_json::Value = serde_json::from_str(&pg.new_game(3, "cautious", 1)).expect("json");
    assert!(v["moves"].is_array(), "{v}");
    let v: serde_json::Value = serde_json::from_str(&pg.play("not a move")).expect("json");
    assert!(v["text"].is_string(), "{v}");
    let v: serde_json::Value =
        serde_json::from_str(&pg.simulate(20, 0, "cautious,script:x.rhai", 1)).expect("json");
    assert!(v["error"].is_string(), "{v}");
    let v: serde_json::Value = serde_json::from_str(&pg.simulate(20, 0, "", 1)).expect("json");
    assert_eq!(v["games"], 20, "{v}");
    let h: serde_json::Value = serde_json::from_str(&pg.hover(9999, 9999)).expect("json");
    assert!(h.is_null(), "{h}");
}

#[test]
fn the_judge_is_judges_own_text_and_page() {
    let mut ed = Editor::new();
    ed.check(shipped("ninety-nine"), false);
    let p = ed.program().cloned().expect("it compiles");
    let run = judge_run(&p, 100, Some(3), "cautious", 2).expect("judges");
    let cfg = ninety::sim::judge::JudgeConfig {
        ruleset: "playground".into(),
        name: p.name.clone(),
        players: 3,
        bot: "cautious".into(),
        games: 100,
        seed: 2,
        length: None,
        skill_games: None,
        restrict: None,
    };
    let bot = ninety::play::Player::builtin("cautious").expect("a bot");
    let p = ninety::play::Ruleset::new(p);
    let t = ninety::sim::judge::judge(&p, &bot, &cfg, 1).expect("judges");
    assert_eq!(run.text, ninety::sim::judge::text(&p, &cfg, &t));
    assert_eq!(run.html, ninety::sim::judge::html(&p, &cfg, &t));
    assert!(judge_run(&p, 0, None, "cautious", 1).is_err());
    let mut pg = Playground::new();
    let v: serde_json::Value = serde_json::from_str(&pg.judge(10, 0, "cautious", 1)).expect("json");
    assert!(v["error"].is_string(), "{v}");
    pg.check(shipped("ninety-nine"));
    let v: serde_json::Value = serde_json::from_str(&pg.judge(10, 0, "nobody", 1)).expect("json");
    assert!(v["error"].is_string(), "{v}");
    let v: serde_json::Value = serde_json::from_str(&pg.judge(10, 0, "cautious", 1)).expect("json");
    assert_eq!(v["games"], 10, "{v}");
}
