//! Hostile inputs, second pass: every finding F01–F20 of the second hostile-input report
//! (issue 29) as a regression test, but F17 (a ruleset whose games never end, which the
//! checker is to find). Each runs the real binary (or the library) on the report's file from
//! `tests/hostile2/`, or one made here, with its command, in a fresh folder; none may panic,
//! abort, hang, leak a file or take more than a moment.

mod support;

use std::time::Duration;

use serde_json::{Value, json};
use support::{Dir, hover, lsp_session, open_doc, replies, uri};

const SEC: Duration = Duration::from_secs(1);

/// An edit of a file's JSON.
type Edit = Box<dyn Fn(&mut Value)>;

fn dir(name: &str, files: &[&str]) -> Dir {
    Dir::new(name, "hostile2", files)
}

/// A save of Ninety-Nine after one card (seed 7), edited by `edit`, written as `name`.
fn tampered(d: &Dir, name: &str, edit: impl FnOnce(&mut Value)) {
    if !d.path("g.json").exists() {
        d.run_with(
            &["play", "--seed", "7"],
            b"1\nsave g.json\nquit\n",
            30 * SEC,
        )
        .no_crash();
    }
    let mut save: Value = serde_json::from_str(&d.read("g.json")).expect("a save");
    edit(&mut save);
    d.write(name, save.to_string());
}

/// What `load FILE` answers, first line.
fn load(d: &Dir, file: &str, moves: &str) -> String {
    let input = format!("load {file}\n{moves}quit\n");
    let r = d.run_with(&["play", "--seed", "7"], input.as_bytes(), 30 * SEC);
    r.no_crash();
    let out = r.stdout();
    out.lines()
        .skip_while(|l| !l.starts_with("Loaded") && !l.starts_with("Cannot load"))
        .collect::<Vec<_>>()
        .join("\n")
}

// ---- A. leak, crash, hang, loss ----

#[cfg(unix)]
#[test]
fn f01_the_language_server_follows_no_link_out_of_the_folder() {
    let d = dir("f01", &[]);
    d.write(
        "outside/secret.rules",
        "name \"x\"\nSECRETMARKER_R2 this line is private\n",
    );
    d.write("outside/secret.rhai", "fn f(game) { SECRETMARKER_S1 + }\n");
    d.write(
        "proj/b.rules",
        "extends \"ninety-nine\"\nname \"b\"\nscript file \"s.rhai\"\ncard 7: run f\n",
    );
    std::os::unix::fs::symlink("../outside/secret.rules", d.path("proj/par.rules")).expect("link");
    std::os::unix::fs::symlink("../outside/secret.rhai", d.path("proj/s.rhai")).expect("link");
    std::os::unix::fs::symlink("/proc/self/environ", d.path("proj/env.rhai")).expect("link");
    d.write(
        "proj/c.rules",
        "extends \"ninety-nine\"\nname \"c\"\nscript file \"env.rhai\"\ncard 7: run f\n",
    );
    let a = uri(&d.path("proj/a.rules"));
    let b = uri(&d.path("proj/b.rules"));
    let c = uri(&d.path("proj/c.rules"));
    let input = lsp_session(&[
        open_doc(&a, "extends \"par\"\nname \"a\"\n"),
        open_doc(&b, &d.read("proj/b.rules")),
        open_doc(&c, &d.read("proj/c.rules")),
    ]);
    let r = d.run_with(&["lsp"], &input, 30 * SEC);
    let out = String::from_utf8_lossy(&r.out.stdout);
    assert!(
        !out.contains("SECRETMARKER") && !out.contains("hunter2"),
        "{out}"
    );
    let outside = out
        .matches("names a file outside this ruleset's folder")
        .count();
    assert_eq!(outside, 3, "{out}");
    // `check` says the same of the same file.
    d.write("proj/a.rules", "extends \"par\"\nname \"a\"\n");
    let check = d.run(&["check", "proj/a.rules"]);
    assert!(
        check.stdout().contains("names a file outside"),
        "{}",
        check.shown()
    );
}

#[test]
fn f02_map_keys_count_against_the_size_limits_everywhere() {
    let d = dir(
        "f02",
        &["mapkeys.rules", "mapkeys.rhai", "mapkeys-opt.rules"],
    );
    let words = |r: &support::Run| {
        format!("{}{}", r.stdout(), r.stderr())
            .replace('│', " ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let check = d.run(&["check", "mapkeys.rules"]);
    check.failed_cleanly(1);
    assert!(
        words(&check).contains("map keys and strings are too large"),
        "{}",
        check.shown()
    );
    check.within(10 * SEC);
    let bot = d.run(&[
        "run",
        "ninety-nine",
        "--players",
        "2",
        "--bots",
        "script:mapkeys.rhai",
    ]);
    bot.failed_cleanly(1);
    assert!(
        words(&bot).contains("map keys and strings are too large"),
        "{}",
        bot.shown()
    );
    // Shell completion compiles the ruleset too: the same limits, the same moment.
    let complete = d.run_env(
        &["--", "ninety", "sim", "mapkeys-opt.rules", "--set", ""],
        b"",
        &[
            ("NINETY_COMPLETE", "bash"),
            ("_CLAP_IFS", "\n"),
            ("_CLAP_COMPLETE_INDEX", "4"),
            ("_CLAP_COMPLETE_COMP_TYPE", "9"),
            ("_CLAP_COMPLETE_SPACE", "false"),
        ],
        30 * SEC,
    );
    complete.no_crash();
    complete.within(10 * SEC);
    insta::assert_snapshot!(format!("{}\n{}", check.stdout(), bot.stderr()));
}

#[test]
fn f03_the_scenarios_of_a_check_share_one_allowance_and_give_one_verdict() {
    let d = dir("f03", &["slow100.rules"]);
    let first = d.run_with(&["check", "slow100.rules"], b"", 120 * SEC);
    first.failed_cleanly(1);
    let second = d.run_with(&["check", "slow100.rules"], b"", 120 * SEC);
    assert_eq!(first.stdout(), second.stdout(), "one file, one verdict");
    assert!(
        first.stdout().contains("100 scenarios run, 100 errors"),
        "{}",
        first.shown()
    );
    // Once the allowance is spent, the scenarios left fail at once, saying why.
    assert!(
        first.stdout().contains("the most a game may"),
        "{}",
        first.shown()
    );
}

#[test]
fn f03_the_language_server_answers_at_once_after_opening_slow_scenarios() {
    let d = dir("f03b", &["slow12.rules"]);
    let u = uri(&d.path("slow-open.rules"));
    let input = lsp_session(&[open_doc(&u, &d.read("slow12.rules")), hover(2, &u, 1, 2)]);
    let r = d.run_with(&["lsp"], &input, 60 * SEC);
    assert_eq!(r.code(), Some(0), "{}", r.shown());
    let got = replies(&r.out.stdout);
    assert!(got.iter().any(|m| m["id"] == 2), "{got:?}");
}

#[test]
fn f04_the_language_server_caps_a_header_line() {
    let d = dir("f04", &[]);
    // Megabytes of a header without an end of line, then more than the skip allows.
    let mut input = b"X-Junk: ".to_vec();
    input.extend(std::iter::repeat_n(b'a', 20 << 20));
    let r = d.run_with(&["lsp"], &input, 60 * SEC);
    r.failed_cleanly(1);
    assert!(
        r.stderr().contains("not the language server protocol"),
        "{}",
        r.shown()
    );
    // A long header line that ends is skipped, and the session goes on.
    let mut input = b"X-Junk: ".to_vec();
    input.extend(std::iter::repeat_n(b'a', 1 << 20));
    input.extend(b"\r\n\r\n");
    input.extend(lsp_session(&[]));
    let r = d.run_with(&["lsp"], &input, 60 * SEC);
    assert_eq!(r.code(), Some(0), "{}", r.shown());
    assert!(replies(&r.out.stdout).iter().any(|m| m["id"] == 99));
}

#[test]
fn f05_two_uris_of_one_file_are_one_document() {
    let d = dir("f05", &[]);
    let long_t = format!(
        "extends \"ninety-nine\"\nname \"x\"\n# {}\ncard 7: add 7 or add 1\ncard 8: add 8 or add 1\n",
        "pad ".repeat(30)
    );
    let short_t = &long_t[..long_t.find("card 7").unwrap_or(0) + 5];
    let la = format!("{}/%61.rules", uri(&d.0));
    let lb = format!("{}/a.rules", uri(&d.0));
    let mut body = vec![open_doc(&la, &long_t), open_doc(&lb, short_t)];
    body.extend((0..12).map(|c| hover(10 + c, &lb, 3, c as u32)));
    body.extend((0..12).map(|c| hover(30 + c, &la, 3, c as u32)));
    let r = d.run_with(&["lsp"], &lsp_session(&body), 30 * SEC);
    assert_eq!(r.code(), Some(0), "{}", r.shown());
    assert!(!r.stderr().contains("panicked"), "{}", r.shown());
    let got = replies(&r.out.stdout);
    assert!(got.iter().all(|m| m.get("error").is_none()), "{got:?}");
}

#[cfg(unix)]
#[test]
fn f06_the_cache_is_written_whole_in_a_private_folder_never_through_a_link() {
    use std::os::unix::fs::PermissionsExt;
    let d = dir("f06", &[]);
    d.write("victim.txt", "precious\n");
    let tmp = d.path("sharedtmp");
    std::fs::create_dir_all(tmp.join("ninety/0.1.0")).expect("folders");
    // The old place, and the new one, each planted with a link to the victim.
    std::os::unix::fs::symlink(
        d.path("victim.txt"),
        tmp.join("ninety/0.1.0/ninety-nine.rules"),
    )
    .expect("link");
    let u = uri(&d.path("v.rules"));
    let ask = |tmpdir: &str| {
        let input = lsp_session(&[
            open_doc(&u, "extends \"ninety-nine\"\nname \"v\"\n"),
            json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/definition", "params": {
                "textDocument": {"uri": u}, "position": {"line": 0, "character": 10}}}),
        ]);
        let r = d.run_env(
            &["lsp"],
            &input,
            &[("HOME", ""), ("XDG_CACHE_HOME", ""), ("TMPDIR", tmpdir)],
            30 * SEC,
        );
        assert_eq!(r.code(), Some(0), "{}", r.shown());
        replies(&r.out.stdout)
            .into_iter()
            .find(|m| m["id"] == 2)
            .map(|m| m["result"]["uri"].as_str().unwrap_or("").to_string())
            .unwrap_or_default()
    };
    let tmpdir = tmp.display().to_string();
    let shown = ask(&tmpdir);
    assert_eq!(d.read("victim.txt"), "precious\n");
    // The copy is in the user's own folder, private, and read-only.
    let mine = std::fs::read_dir(&tmp)
        .expect("listed")
        .filter_map(Result::ok)
        .find(|e| e.file_name().to_string_lossy().starts_with("ninety-"))
        .expect("a private folder")
        .path();
    let mode =
        |p: &std::path::Path| std::fs::metadata(p).expect("there").permissions().mode() & 0o777;
    assert_eq!(mode(&mine), 0o700);
    let copy = mine
        .join(env!("CARGO_PKG_VERSION"))
        .join("ninety-nine.rules");
    assert!(
        shown.ends_with("ninety-nine.rules") && shown.contains("ninety-"),
        "{shown}"
    );
    assert_eq!(mode(&copy) & 0o222, 0, "read-only");
    // A link planted at the copy's own name is not written through: no copy is offered.
    std::fs::remove_file(&copy).expect("removed");
    std::os::unix::fs::symlink(d.path("victim.txt"), &copy).expect("link");
    assert_eq!(ask(&tmpdir), "");
    assert_eq!(d.read("victim.txt"), "precious\n");
    // A private folder that is a link to somewhere else is not used.
    std::fs::remove_dir_all(&mine).expect("removed");
    std::fs::create_dir_all(d.path("elsewhere")).expect("a folder");
    std::os::unix::fs::symlink(d.path("elsewhere"), &mine).expect("link");
    assert_eq!(ask(&tmpdir), "");
    assert_eq!(
        std::fs::read_dir(d.path("elsewhere"))
            .expect("listed")
            .count(),
        0
    );
}

// ---- B. wrong results, unbounded ----

/// Shards `k/n` of a 300-game run of Ninety-Nine, seed 5, as `s1.json` ...
fn shards(d: &Dir, n: u32) {
    for k in 1..=n {
        let r = d.run(&[
            "sim",
            "ninety-nine",
            "--games",
            "300",
            "--seed",
            "5",
            "--shard",
            &format!("{k}/{n}"),
            "--json",
        ]);
        assert_eq!(r.code(), Some(0), "{}", r.shown());
        d.write(&format!("s{k}.json"), r.out.stdout);
    }
}

#[test]
fn f07_a_merge_refuses_bars_no_ruleset_has() {
    let d = dir("f07", &[]);
    shards(&d, 4);
    for k in 1..=4 {
        let mut v: Value = serde_json::from_str(&d.read(&format!("s{k}.json"))).expect("json");
        let bars: serde_json::Map<String, Value> = (0..200_000)
            .map(|i| ((i * 10 + k).to_string(), json!(1)))
            .collect();
        v["run"]["stats"]["bar_reached"] = Value::Object(bars);
        d.write(&format!("f{k}.json"), v.to_string());
    }
    let r = d.run(&[
        "sim", "--merge", "f1.json", "f2.json", "f3.json", "f4.json", "--report", "r.html",
    ]);
    r.failed_cleanly(1);
    assert!(!d.path("r.html").exists());
    assert!(
        r.stderr().contains("a ruleset has at most 256"),
        "{}",
        r.shown()
    );
    // Within the count, a bar Ninety-Nine has no rule for is refused too.
    let mut v: Value = serde_json::from_str(&d.read("s2.json")).expect("json");
    v["run"]["stats"]["bar_reached"] = json!({"33": 1});
    d.write("t.json", v.to_string());
    let r = d.run(&["sim", "--merge", "s1.json", "t.json", "s3.json", "s4.json"]);
    r.failed_cleanly(1);
    insta::assert_snapshot!(r.stderr());
}

#[test]
fn f08_the_scripts_of_a_chain_have_a_total() {
    let d = dir("f08", &[]);
    d.write(
        "big.rhai",
        format!(
            "fn f(game) {{ game.total + 7 }}\n{}",
            format!("// {}\n", "x".repeat(1000)).repeat(255)
        ),
    );
    d.write(
        "sf.rules",
        format!(
            "extends \"ninety-nine\"\nname \"t\"\n{}card 7: run f\n",
            "script file \"big.rhai\"\n".repeat(2500)
        ),
    );
    let r = d.run(&["check", "sf.rules"]);
    r.failed_cleanly(1);
    r.within(10 * SEC);
    assert!(
        r.stdout().contains("1 error"),
        "one diagnostic: {}",
        r.shown()
    );
    insta::assert_snapshot!(r.stdout());
}

#[test]
fn f09_f10_f20_an_impossible_save_is_refused() {
    let d = dir("f09", &[]);
    let cases: Vec<(&str, Edit)> = vec![
        (
            "again",
            Box::new(|v: &mut Value| v["state"]["again"] = json!(255)),
        ),
        (
            "over0",
            Box::new(|v| {
                v["state"]["over"] = json!(true);
                v["state"]["winners"] = json!([]);
            }),
        ),
        (
            "overw",
            Box::new(|v| {
                v["state"]["over"] = json!(true);
                v["state"]["winners"] = json!([2]);
            }),
        ),
        (
            "stuck",
            Box::new(|v| {
                v["state"]["over"] = json!(true);
                v["state"]["stuck"] = json!("no play");
            }),
        ),
        (
            "outchips",
            Box::new(|v| {
                let s = &mut v["state"];
                s["out_of_game"] = json!([1]);
                s["out_of_round"] = json!([1]);
                let cards: Vec<Value> = s["hands"][1].as_array().cloned().unwrap_or_default();
                for c in cards {
                    s["stock"].as_array_mut().expect("a stock").push(c);
                }
                s["hands"][1] = json!([]);
            }),
        ),
        (
            "nextdeal",
            Box::new(|v| v["state"]["next_deal"] = json!(["AS/4", "2S/4"])),
        ),
        (
            "twice",
            Box::new(|v| v["state"]["next_deal"] = json!(["AS", "AS"])),
        ),
        ("rng", Box::new(|v| v["state"]["rng"] = json!([0, 0, 0, 0]))),
        ("turns", Box::new(|v| v["state"]["turns"] = json!(0))),
    ];
    let mut seen = String::new();
    for (name, edit) in &cases {
        let file = format!("{name}.json");
        tampered(&d, &file, edit);
        let said = load(&d, &file, "1\n1\n1\n");
        let first = said.lines().next().unwrap_or("").to_string();
        assert!(first.starts_with("Cannot load"), "{name}: {said}");
        assert!(!said.contains("You play again"), "{name}: {said}");
        seen.push_str(&format!("{name}: {first}\n"));
    }
    // The save they were made from loads.
    assert!(load(&d, "g.json", "").starts_with("Loaded g.json"));
    insta::assert_snapshot!(seen);
}

#[test]
fn f11_a_merge_refuses_counts_no_run_gives() {
    let d = dir("f11", &[]);
    shards(&d, 3);
    let edits: Vec<(&str, Edit)> = vec![
        (
            "turns sum x1000",
            Box::new(|h: &mut Value| {
                let s = h["turns"]["sum"].as_u64().unwrap_or(0);
                h["turns"]["sum"] = json!(s * 1000);
            }),
        ),
        (
            "turns past the limit",
            Box::new(|h| {
                let n = h["games"].clone();
                h["turns"]["counts"] = json!({"4000000000": n});
            }),
        ),
        (
            "chips lost",
            Box::new(|h| h["chips_lost"]["bust"] = json!(1_000_000_000_000_000u64)),
        ),
        (
            "forced busts",
            Box::new(|h| h["forced_busts"] = json!(1u64 << 63)),
        ),
        (
            "no won games",
            Box::new(|h| h["won_games"] = json!([0, 0, 0])),
        ),
        ("wins 1 1 1", Box::new(|h| h["wins"] = json!([1, 1, 1]))),
        (
            "a bar 12345",
            Box::new(|h| h["bar_passed"] = json!({"12345": 7})),
        ),
        (
            "an unknown cause",
            Box::new(|h| h["chips_lost"]["fire"] = json!(0)),
        ),
    ];
    let mut seen = String::new();
    for (name, edit) in &edits {
        let mut v: Value = serde_json::from_str(&d.read("s2.json")).expect("json");
        edit(&mut v["run"]["stats"]);
        d.write("t.json", v.to_string());
        let r = d.run(&["sim", "--merge", "s1.json", "t.json", "s3.json"]);
        r.failed_cleanly(1);
        seen.push_str(&format!("{name}: {}", r.stderr()));
    }
    let whole = d.run(&["sim", "--merge", "s1.json", "s2.json", "s3.json"]);
    assert_eq!(whole.code(), Some(0), "{}", whole.shown());
    insta::assert_snapshot!(seen);
}

#[test]
fn f13_one_bad_frame_loses_no_later_message() {
    let d = dir("f13", &[]);
    for bad in [
        &b"Content-Length: -1\r\n\r\n{}"[..],
        b"Content-Length: 99999999999999999999999\r\n\r\n{}",
        b"Content-Length: 1\r\n\r\n{\"jsonrpc\": \"2.0\"}",
    ] {
        let mut input = support::frame(&json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"capabilities": {}}}));
        input.extend(bad);
        input.extend(support::frame(&hover(5, "file:///nowhere.rules", 0, 0)));
        input.extend(support::frame(
            &json!({"jsonrpc": "2.0", "id": 99, "method": "shutdown"}),
        ));
        input.extend(support::frame(&json!({"jsonrpc": "2.0", "method": "exit"})));
        let r = d.run_with(&["lsp"], &input, 30 * SEC);
        assert_eq!(r.code(), Some(0), "{}", r.shown());
        let ids: Vec<Value> = replies(&r.out.stdout)
            .iter()
            .map(|m| m["id"].clone())
            .collect();
        assert!(
            ids.contains(&json!(5)) && ids.contains(&json!(99)),
            "{ids:?}\n{}",
            r.shown()
        );
    }
}

#[test]
fn f14_play_in_colour_sends_no_escape_from_a_file() {
    let loader = ninety::compile::Shipped;
    let d = dir("f14", &["sgr.rules"]);
    let o = ninety::app::session::Options {
        ruleset: d.path("sgr.rules").display().to_string(),
        players: None,
        humans: 1,
        bot: "cautious".into(),
        seed: 1,
        sets: Vec::new(),
        color: true,
    };
    let (session, welcome) = ninety::app::session::Session::start(&loader, &o).expect("a game");
    let shown = session.shown(&welcome);
    assert!(!shown.contains("\u{1b}[8m"), "{shown:?}");
    assert!(shown.contains("E\\u{1b}[8mHIDDEN"), "{shown:?}");
    // Its own colours still reach the terminal.
    assert!(shown.contains("\u{1b}[1m── Round 1"), "{shown:?}");
}

#[test]
fn f15_a_save_reads_its_ruleset_only_from_its_own_folder() {
    let d = dir("f15", &[]);
    d.write("outside/x.rules", "name \"x\"\nbogus line\n");
    let there = d.path("outside/x.rules").display().to_string();
    let nowhere = d.path("outside/none.rules").display().to_string();
    tampered(&d, "abs1.json", |v| v["ruleset"] = json!(there));
    tampered(&d, "abs2.json", |v| v["ruleset"] = json!(nowhere));
    tampered(&d, "up.json", |v| v["ruleset"] = json!("../x.rules"));
    let a = load(&d, "abs1.json", "");
    let b = load(&d, "abs2.json", "");
    assert_eq!(
        a.replace("x.rules", "?").replace("abs1", "abs"),
        b.replace("none.rules", "?").replace("abs2", "abs"),
        "no oracle"
    );
    assert!(!a.contains("does not check"), "{a}");
    // Saved beside its ruleset, a game loads from another folder.
    d.write(
        "games/mine.rules",
        "extends \"ninety-nine\"\nname \"Mine\"\n",
    );
    d.run_with(
        &["play", "games/mine.rules", "--seed", "3"],
        b"1\nsave games/m.json\nquit\n",
        30 * SEC,
    )
    .no_crash();
    let saved: Value = serde_json::from_str(&d.read("games/m.json")).expect("a save");
    assert_eq!(saved["ruleset"], "mine.rules");
    assert!(
        load(&d, "games/m.json", "").starts_with("Loaded"),
        "{}",
        load(&d, "games/m.json", "")
    );
    insta::assert_snapshot!(
        format!("{}\n{}", a, load(&d, "up.json", "")).replace(&d.0.display().to_string(), "$TMP")
    );
}

#[test]
fn f16_the_language_server_caps_documents_and_edits() {
    let mut server = ninety::app::lsp::Server::new();
    let mut send = |v: Value| {
        let msg: lsp_server::Message = serde_json::from_value(v).expect("a message");
        server.handle(msg).0
    };
    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
    );
    let diags = |out: Vec<lsp_server::Message>| -> Vec<String> {
        out.iter()
            .filter_map(|m| serde_json::to_value(m).ok())
            .flat_map(|m| {
                m["params"]["diagnostics"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
            })
            .map(|d| d["message"].as_str().unwrap_or("").to_string())
            .collect()
    };
    // A text past a ruleset's size is not kept.
    let big = diags(send(open_doc(
        "file:///nowhere/big.rules",
        &"\n".repeat(300_000),
    )));
    assert!(
        big.iter().any(|m| m.contains("more than 256 KB")),
        "{big:?}"
    );
    // Documents past the cap are not held.
    for k in 1..64 {
        send(open_doc(
            &format!("file:///nowhere/d{k}.rules"),
            "name \"x\"\n",
        ));
    }
    let over = diags(send(open_doc(
        "file:///nowhere/one-more.rules",
        "name \"x\"\n",
    )));
    assert!(
        over.iter().any(|m| m.contains("at most 64 open files")),
        "{over:?}"
    );
    // A change of more edits than the cap loses the text, saying so.
    let one = json!({"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "x"});
    let change = json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
        "textDocument": {"uri": "file:///nowhere/d1.rules", "version": 2},
        "contentChanges": vec![one; 1001]}});
    let lost = diags(send(change));
    assert!(
        lost.iter()
            .any(|m| m.contains("close the file and open it again")),
        "{lost:?}"
    );
    assert_eq!(server.failures(), 0);
}

#[test]
fn f18_an_endless_line_ends_the_game_saying_it_was_not_saved() {
    let d = dir("f18", &[]);
    let mut input = b"1\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', 20 << 20));
    let r = d.run_with(&["play", "--seed", "1"], &input, 60 * SEC);
    r.failed_cleanly(1);
    assert!(
        r.stdout().contains("The game was not saved"),
        "{}",
        r.shown()
    );
}

// ---- C. unclear messages, minor ----

#[test]
fn f19_the_minor_items() {
    let d = dir("f19", &[]);
    let mut seen = String::new();
    // a. A save's long ruleset name is clipped in every refusal.
    tampered(&d, "long.json", |v| {
        v["ruleset"] = json!(format!("{}.rules", "\u{1b}]0;X\u{7}".repeat(1500)))
    });
    let a = load(&d, "long.json", "");
    assert!(a.len() < 2000, "{} bytes", a.len());
    seen.push_str(&format!("a: {a}\n"));
    // b. A command at the prompt of a card with a choice is a command.
    let b = d.run_with(
        &["play", "--seed", "11"],
        b"AS\nsave c.json\nquit\n",
        30 * SEC,
    );
    b.no_crash();
    assert!(d.path("c.json").exists(), "{}", b.shown());
    // c. `.rhai` alone names no script.
    d.write(".rhai", "fn f(game) { game.total + 7 }\n");
    d.write(
        "dot.rules",
        "extends \"ninety-nine\"\nname \"t\"\nscript file \".rhai\"\ncard 7: run f\n",
    );
    let c = d.run(&["check", "dot.rules"]);
    c.failed_cleanly(1);
    assert!(!c.stdout().contains("neither"), "{}", c.shown());
    seen.push_str(&format!("c: {}\n", first_error(&c.stdout())));
    // d. A byte-order mark is skipped in a script file and in a bot, as in a ruleset.
    d.write("bom.rhai", b"\xef\xbb\xbffn f(game) { game.total + 7 }\n");
    d.write("bom.rules", b"\xef\xbb\xbfextends \"ninety-nine\"\nname \"t\"\nscript file \"bom.rhai\"\ncard 7: run f\n");
    let dd = d.run(&["check", "bom.rules"]);
    assert_eq!(dd.code(), Some(0), "{}", dd.shown());
    d.write("bombot.rhai", b"\xef\xbb\xbffn choose(game, moves) { 0 }\n");
    let bot = d.run(&[
        "run",
        "ninety-nine",
        "--seed",
        "1",
        "--bots",
        "script:bombot.rhai",
    ]);
    assert_eq!(bot.code(), Some(0), "{}", bot.shown());
    // e. Lines ended by a lone CR are said to be so.
    d.write("cr.rules", "extends \"ninety-nine\"\rname \"t\"\r");
    let e = d.run(&["check", "cr.rules"]);
    e.failed_cleanly(1);
    assert!(e.stdout().contains("carriage return"), "{}", e.shown());
    seen.push_str(&format!("e: {}\n", first_error(&e.stdout())));
    // g. `--sweep` with an empty value, `--set` with two `=`.
    let g = d.run(&[
        "sim",
        "ninety-nine",
        "--games",
        "10",
        "--sweep",
        "chips=1,,3",
    ]);
    g.failed_cleanly(2);
    let g2 = d.run(&["sim", "ninety-nine", "--games", "10", "--set", "chips=5=6"]);
    g2.failed_cleanly(2);
    seen.push_str(&format!("g: {}g: {}", g.stderr(), g2.stderr()));
    // h. Markdown carries a ruleset's text as text.
    d.write(
        "md.rules",
        "extends \"ninety-nine\"\nname \"<img src=x onerror=alert(1)> [x](javascript:alert(1))\"\n",
    );
    let h = d.run(&["rules", "md.rules", "--format", "md"]);
    assert_eq!(h.code(), Some(0), "{}", h.shown());
    assert!(
        !h.stdout().contains("<img") && !h.stdout().contains("[x](javascript"),
        "{}",
        h.stdout()
    );
    seen.push_str(&format!("h: {}\n", h.stdout().lines().next().unwrap_or("")));
    // i. Invisible and reordering characters are shown, not sent.
    d.write("inv.rules", "extends \"ninety-nine\"\nname \"A\u{61c}B\u{e0041}\u{e0042}C\u{180e}D\u{ad}E\u{34f}F\u{fe0f}\"\n");
    let i = d.run(&["rules", "inv.rules"]);
    i.no_crash();
    seen.push_str(&format!("i: {}\n", i.stdout().lines().next().unwrap_or("")));
    insta::assert_snapshot!(seen.replace(&d.0.display().to_string(), "$TMP"));
}

fn first_error(out: &str) -> String {
    out.lines()
        .find(|l| l.contains('×'))
        .unwrap_or("")
        .trim()
        .to_string()
}

/// A bot that does real work each call (a sort of 1,000 items, over and over), well within
/// its limits: once timed, it stopped wherever the machine's load cut it.
const STEADY: &str = "fn choose(game, moves) { let a = []; a.pad(1000, 0); for i in 0..1000 { a[i] = (i * 7919 + game.total) % 10007; } for k in 0..8 { let b = a; b.sort(); } 0 }\n";

#[test]
fn f12_one_seed_gives_one_game_while_the_machine_is_busy() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let d = dir("f12", &["clockbot.rhai"]);
    d.write("steady.rhai", STEADY);
    let commands: [&[&str]; 3] = [
        &[
            "run",
            "ninety-nine",
            "--players",
            "2",
            "--seed",
            "1",
            "--bots",
            "script:steady.rhai",
        ],
        // The report's bot: a tight budget it passes, at the same point every time.
        &[
            "run",
            "ninety-nine",
            "--players",
            "2",
            "--seed",
            "1",
            "--bots",
            "script:clockbot.rhai",
        ],
        &[
            "sim",
            "ninety-nine",
            "--games",
            "12",
            "--seed",
            "3",
            "--jobs",
            "2",
            "--json",
            "--bots",
            "script:steady.rhai,cautious",
        ],
    ];
    let transcript = |args: &[&str]| {
        let r = d.run_with(args, b"", 300 * SEC);
        r.no_crash();
        format!("{}\n{}", r.stdout(), r.stderr())
    };
    let quiet: Vec<String> = commands.iter().map(|c| transcript(c)).collect();
    assert!(quiet[0].contains("wins."), "{}", quiet[0]);
    assert!(quiet[1].contains("it ran too long"), "{}", quiet[1]);
    // Busy: more spinning threads than the machine has cores, for as long as the runs last.
    let stop = Arc::new(AtomicBool::new(false));
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    let spinners: Vec<_> = (0..cores * 2)
        .map(|_| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut x = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    x = std::hint::black_box(
                        x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1),
                    );
                }
            })
        })
        .collect();
    let busy: Vec<Vec<String>> = (0..2)
        .map(|_| commands.iter().map(|c| transcript(c)).collect())
        .collect();
    stop.store(true, Ordering::Relaxed);
    for s in spinners {
        let _ = s.join();
    }
    for run in &busy {
        for (a, b) in quiet.iter().zip(run) {
            assert_eq!(a, b, "the same seed, another game under load");
        }
    }
}
