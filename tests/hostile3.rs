//! Hostile inputs, third pass: the findings of the third hostile-input report that are the
//! command line's and the language server's (lost work, hangs, wrong results, unclear
//! messages), each as a regression test. Each runs the real binary (or the library) in a
//! fresh folder; none may panic, hang, lose output silently or leave a file behind.

mod support;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;
use support::Dir;

const SEC: Duration = Duration::from_secs(1);

fn dir(name: &str) -> Dir {
    Dir::new(name, "hostile3", &[])
}

/// A ruleset whose every game fails: a script that throws from the second round on.
const FAILS: &str = "extends \"ninety-nine\"\nname \"fails\"\nscript\n  fn f(game) { if game.round > 1 { throw \"boom\"; } game.total + 7 }\nend\ncard 7: run f\n";

// ---- B. lost work ----

/// Every command that writes a report, with standard output on a device that is always full:
/// exit 1 and the reason, never 0 with nothing written.
#[cfg(target_os = "linux")]
#[test]
fn g02_output_that_cannot_be_written_fails_the_command() {
    let d = dir("g02");
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/ninety-nine.rules");
    let file = file.display().to_string();
    for args in [
        &["sim", "ninety-nine", "--games", "50", "--json"][..],
        &["sim", "ninety-nine", "--games", "50"],
        &["judge", "ninety-nine", "--games", "20"],
        &["judge", "ninety-nine", "--games", "20", "--json"],
        &["run", "ninety-nine", "--seed", "1", "--bots", "--json"],
        &["run", "ninety-nine", "--seed", "1", "--bots"],
        &["rules", "ninety-nine"],
        &["rules", "ninety-nine", "--format", "rules"],
        &["check", &file, "--format", "json"],
        &["check", &file, "--json"],
        &["check", &file],
        &["list"],
        &["completions", "bash"],
        &["man", "sim"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let out = Command::new(env!("CARGO_BIN_EXE_ninety"))
            .args(args)
            .current_dir(&d.0)
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(full)
            .output()
            .expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("error: cannot write the output: No space left on device"),
            "{args:?}: {err}"
        );
    }
}

/// `--report` into a folder that cannot take a file fails before any game is played (a run
/// that would never end shows it: it must end at once).
#[cfg(target_os = "linux")]
#[test]
fn g03_a_report_that_cannot_be_written_fails_before_the_games() {
    let d = dir("g03");
    // Not even root may make a file in /proc.
    for (command, bots) in [("judge", "--bot"), ("sim", "--bots")] {
        let r = d.run_with(
            &[
                command,
                "ninety-nine",
                "--games",
                "1000000000000",
                bots,
                "search",
                "--report",
                "/proc/r.html",
            ],
            b"",
            30 * SEC,
        );
        r.failed_cleanly(1);
        assert!(
            r.stderr()
                .contains("cannot write the report `/proc/r.html`"),
            "{}",
            r.shown()
        );
        assert!(r.stdout().is_empty(), "{}", r.shown());
    }
}

/// A page that cannot be written at the end (here: bigger than the files the process may
/// make, `ulimit -f`) loses none of the report: `judge` and `sim` print it, then fail; and
/// no temporary file is left beside the page.
#[cfg(target_os = "linux")]
#[test]
fn g03_a_page_that_fails_at_the_end_still_leaves_the_text() {
    let d = dir("g03b");
    for command in ["judge", "sim"] {
        let out = support::output_guarded(
            Command::new("/bin/sh")
                .arg("-c")
                // SIGXFSZ ignored: a write past the limit fails with EFBIG instead.
                .arg("trap '' XFSZ; ulimit -f 4; exec \"$0\" \"$@\"")
                .arg(env!("CARGO_BIN_EXE_ninety"))
                .args([
                    command,
                    "ninety-nine",
                    "--games",
                    "20",
                    "--report",
                    "r.html",
                ])
                .current_dir(&d.0)
                .env("NO_COLOR", "1")
                .stdin(Stdio::null()),
        );
        let (text, err) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert_eq!(out.status.code(), Some(1), "{command}: {err}");
        assert!(err.contains("cannot write the report `r.html`"), "{err}");
        assert!(text.contains("Ninety-Nine"), "{command}: {text}");
        let left: Vec<_> = std::fs::read_dir(&d.0)
            .expect("listed")
            .filter_map(Result::ok)
            .map(|e| e.file_name())
            .collect();
        assert!(left.is_empty(), "{command}: {left:?}");
    }
}

/// Ctrl-C while `play` saves again and again: the save is finished (or not begun) before the
/// game ends, so no hidden temporary file is left beside it, and the save is whole. The
/// signal is sent once a first save is written, while the others follow; wherever it lands,
/// the verdict is the same.
#[cfg(unix)]
#[test]
fn g17_ctrl_c_while_saving_leaves_no_temporary_file() {
    use std::io::{BufRead, Write};
    let d = dir("g17");
    for _ in 0..8 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ninety"))
            .args(["play", "--seed", "7"])
            .current_dir(&d.0)
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("runs");
        let mut input = child.stdin.take().expect("stdin");
        let feeder = std::thread::spawn(move || {
            let _ =
                input.write_all(format!("1\n{}quit\n", "save s.json\n".repeat(2000)).as_bytes());
        });
        let mut out = std::io::BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = String::new();
        while out.read_line(&mut line).is_ok_and(|n| n > 0) {
            if line.contains("Saved to") {
                break;
            }
            line.clear();
        }
        let sent = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success());
        let drained = std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
        let _ = child.wait();
        let _ = drained.join();
        let _ = feeder.join();
        let names: Vec<String> = std::fs::read_dir(&d.0)
            .expect("listed")
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["s.json"], "left beside the save: {names:?}");
        let _: Value = serde_json::from_str(&d.read("s.json")).expect("the save is whole");
    }
}

// ---- C. stops ----

/// Ctrl-C stops `judge` inside a long move of the strong bot (and in restricted play; `sim`
/// plays through the same driver, below): it ends by itself, reports the games played, and says so. How soon is a budget,
/// asserted with NINETY_TIMING_TESTS=1; before, a move of 1,000,000 iterations ran on to
/// its end (hundreds of seconds, past the hang guard).
#[cfg(unix)]
#[test]
fn g07_ctrl_c_stops_inside_a_move() {
    let d = dir("g07");
    for args in [
        &[
            "judge",
            "ninety-nine",
            "--games",
            "2",
            "--bot",
            "ismcts:1000000",
        ][..],
        &[
            "judge",
            "ninety-nine",
            "--games",
            "2",
            "--bot",
            "random",
            "--restrict",
            "--restrict-bot",
            "ismcts:1000000",
        ],
    ] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ninety"));
        cmd.args(args).args(["--jobs", "1"]).current_dir(&d.0);
        let started = std::time::Instant::now();
        let out = support::interrupted(&mut cmd);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("interrupted: the report covers"), "{err}");
        support::budget(&format!("{args:?} stopped"), started.elapsed(), 10 * SEC);
    }
}

/// The search looks at its stop as it goes: a stop that says so at once ends the move
/// after its first look; one that never does changes nothing (the same move, the same
/// tree, the same random numbers).
#[test]
fn g07_the_strong_bot_looks_at_its_stop_and_is_the_same_without_one() {
    use ninety::base::Rng;
    use ninety::engine::{Setup, new_game};
    use ninety::play::ismcts::{self, Horizon, STOP_EVERY};
    let p = ninety::app::load::load_program(&ninety::compile::Shipped, "ninety-nine", &[])
        .expect("checks");
    let setup = Setup {
        players: 3,
        seed: 5,
        ..Setup::default()
    };
    let s = new_game(&p, &setup, &mut ()).expect("a game");
    let (mut ra, mut rb) = (Rng::from_seed(9), Rng::from_seed(9));
    let plain = ismcts::ismcts(&p, &s, &mut ra, 3000, Horizon::Round);
    let plain_tree = ismcts::last_shape();
    let looks = std::cell::Cell::new(0u32);
    let never = || {
        looks.set(looks.get() + 1);
        false
    };
    let watched = ismcts::ismcts_until(&p, &s, &mut rb, 3000, Horizon::Round, &never);
    assert_eq!(plain, watched);
    assert_eq!(plain_tree, ismcts::last_shape());
    assert_eq!(ra, rb);
    assert_eq!(looks.get(), 3000_u32.div_ceil(STOP_EVERY));
    let at_once = ismcts::ismcts_until(&p, &s, &mut rb, 1_000_000, Horizon::Round, &|| true);
    assert!(at_once.is_some(), "a move all the same");
    assert_eq!(ismcts::last_shape().0, 1, "no iteration after the stop");
}

/// A game the driver plays with the strong bot looks at the stop inside each move, and a
/// stop that comes ends the game as stopped, never counted, even if a move was cut short.
#[test]
fn g07_the_driver_hands_its_stop_to_the_bots_move() {
    use ninety::engine::Setup;
    use ninety::play::{Bot, Driver, Ending, Player};
    let p = ninety::app::load::load_program(&ninety::compile::Shipped, "ninety-nine", &[])
        .expect("checks");
    let seats = vec![
        Player::Bot(Bot::Ismcts {
            iterations: 640,
            round: true,
        });
        3
    ];
    let setup = Setup {
        players: 3,
        seed: 3,
        ..Setup::default()
    };
    let looks = std::cell::Cell::new(0u64);
    let stop = || {
        looks.set(looks.get() + 1);
        looks.get() > 25
    };
    let mut driver = Driver::new(&p, &seats, 3);
    let mut s = driver.start(&setup, &mut ()).expect("a game");
    assert_eq!(driver.play(&mut s, &stop, &mut ()), Ending::Stopped);
    // Ten looks a move of 640 iterations, besides the driver's own before and after it:
    // the stop came inside the third move or so, not after a game of them.
    assert!(s.turns < 5, "{} turns before the stop", s.turns);
}

// ---- D. wrong results ----

/// A comparison stopped by Ctrl-C during A's games: B played none, so the report says the run
/// was stopped, with each side's games, and gives no B - A (text, JSON and page).
#[cfg(unix)]
#[test]
fn g16_a_comparison_stopped_early_gives_no_difference() {
    let d = dir("g16");
    let run = |extra: &[&str]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ninety"));
        cmd.args([
            "sim",
            "ninety-nine",
            "ninety-nine-long",
            "--games",
            "1000000000000",
            "--jobs",
            "2",
        ])
        .args(extra)
        .current_dir(&d.0);
        let out = support::interrupted(&mut cmd);
        assert_eq!(out.status.code(), Some(1));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let text = run(&["--report", "page.html"]);
    let head = text.lines().next().unwrap_or_default();
    assert!(head.contains("stopped early"), "{text}");
    assert!(!head.contains("games each"), "{text}");
    assert!(
        text.contains("B 0, so they are not on the same deals"),
        "{text}"
    );
    assert!(text.contains("No comparison: B finished no game"), "{text}");
    assert!(!text.contains("beyond chance?"), "{text}");
    assert!(text.contains("(stopped by Ctrl-C"), "{text}");
    let page = d.read("page.html");
    assert!(!page.contains("games each on the same deals"), "the page");
    assert!(page.contains("The run was stopped early"), "the page");
    let json: Value = serde_json::from_str(&run(&["--json"])).expect("JSON");
    assert_eq!(json["interrupted"], true);
    assert_eq!(json["differences"], Value::Array(Vec::new()), "{json}");
}

// ---- E. unclear messages ----

/// `--decide` takes every measure the comparison tests, the downtime of a player out first
/// included.
#[test]
fn g18a_decide_takes_the_downtime_the_comparison_shows() {
    let d = dir("g18a");
    let r = d.run_with(
        &[
            "judge",
            "ninety-nine",
            "ninety-nine-quick",
            "--until-decided",
            "--games",
            "50",
            "--decide",
            "downtime_1",
        ],
        b"",
        60 * SEC,
    );
    r.failed_cleanly(0);
    assert!(r.stdout().contains("player out 1st waits"), "{}", r.shown());
    let bad = d.run(&[
        "judge",
        "ninety-nine",
        "ninety-nine-quick",
        "--until-decided",
        "--decide",
        "downtime_9",
    ]);
    bad.failed_cleanly(2);
    assert!(bad.stderr().contains("downtime_1"), "{}", bad.shown());
}

/// A ruleset none of whose games finish is not judged: exit 1, and no figure made of no
/// game (a first player's advantage of -33.3 points) in the JSON.
#[test]
fn g18d_judging_only_failed_games_fails() {
    let d = dir("g18d");
    d.write("fail.rules", FAILS);
    let r = d.run_with(
        &["judge", "fail.rules", "--games", "10", "--json"],
        b"",
        60 * SEC,
    );
    r.failed_cleanly(1);
    assert!(
        r.stderr().contains("no game of fails finished"),
        "{}",
        r.shown()
    );
    let v: Value = serde_json::from_str(&r.stdout()).expect("JSON all the same");
    let first = v["lines"]
        .as_array()
        .and_then(|l| l.iter().find(|l| l["key"] == "first_player"))
        .expect("the line");
    assert_eq!(first["value"], Value::Null, "{first}");
    let text = d.run_with(&["judge", "fail.rules", "--games", "10"], b"", 60 * SEC);
    text.failed_cleanly(1);
}

/// A save whose option value its ruleset does not allow is refused for that value, not for
/// its ruleset (which checks).
#[test]
fn g18e_a_save_with_a_bad_option_value_blames_the_value() {
    let d = dir("g18e");
    d.run_with(
        &["play", "--seed", "7"],
        b"1\nsave g.json\nquit\n",
        30 * SEC,
    )
    .no_crash();
    let mut save: Value = serde_json::from_str(&d.read("g.json")).expect("a save");
    save["sets"] = serde_json::json!([["chips", "99"]]);
    d.write("bad.json", save.to_string());
    let r = d.run_with(&["play", "--seed", "7"], b"load bad.json\nquit\n", 30 * SEC);
    r.no_crash();
    let said = r.stdout();
    let line = said
        .lines()
        .find(|l| l.starts_with("Cannot load"))
        .unwrap_or_default();
    assert!(line.contains("`chips` must be from 1 to 10"), "{said}");
    assert!(!line.contains("does not check"), "{said}");
}

/// `--restrict-bot ismcts:0` is refused for its iteration count, with the range, not as if
/// `ismcts` were not a built-in bot; a script bot is refused for what it is.
#[test]
fn g18f_a_restricted_bot_is_refused_for_what_is_wrong() {
    let d = dir("g18f");
    let r = d.run(&[
        "judge",
        "ninety-nine",
        "--restrict",
        "--restrict-bot",
        "ismcts:0",
    ]);
    r.failed_cleanly(2);
    let err = r.stderr();
    assert!(err.contains("1 to 1,000,000"), "{err}");
    assert!(!err.contains("needs a built-in bot"), "{err}");
    let r = d.run(&[
        "judge",
        "ninety-nine",
        "--restrict",
        "--restrict-bot",
        "script:x.rhai",
    ]);
    r.failed_cleanly(2);
    assert!(r.stderr().contains("needs a built-in bot"), "{}", r.shown());
}

/// `no bar at 33` and `keep the bars at 33` in one variant say two things of one bar: an
/// error at the `keep` line, in either order.
#[test]
fn g18c_keeping_and_removing_one_bar_is_an_error() {
    let d = dir("g18c");
    for lines in [
        "no bar at 33\nkeep the bars at 33\n",
        "keep the bars at 33\nno bar at 33\n",
    ] {
        d.write(
            "k.rules",
            format!("extends \"33-66-99\"\nname \"k\"\n{lines}"),
        );
        let r = d.run(&["check", "k.rules"]);
        r.failed_cleanly(1);
        assert!(
            r.stdout()
                .contains("the bar at 33 is kept here and removed by `no bar at 33`"),
            "{}",
            r.shown()
        );
    }
}

// ---- D. the language server ----

/// The server in process: a request's answer, and the diagnostics it publishes.
struct Lsp {
    server: ninety::app::lsp::Server,
    id: i32,
}

impl Lsp {
    fn new() -> Lsp {
        let mut s = Lsp {
            server: ninety::app::lsp::Server::new(),
            id: 0,
        };
        s.reply("initialize", serde_json::json!({ "capabilities": {} }));
        s
    }

    fn send(&mut self, v: Value) -> Option<Value> {
        let msg: lsp_server::Message = serde_json::from_value(v).expect("a message");
        let replies = self.server.handle(msg).0;
        replies
            .iter()
            .map(|r| serde_json::to_value(r).expect("JSON"))
            .find(|r| r.get("id").is_some())
    }

    fn notify(&mut self, method: &str, params: Value) {
        let mut msg = serde_json::json!({ "jsonrpc": "2.0", "method": method });
        msg["params"] = params;
        self.send(msg);
    }

    /// A request's whole response: its result or its error.
    fn reply(&mut self, method: &str, params: Value) -> Value {
        self.id += 1;
        let mut msg = serde_json::json!({ "jsonrpc": "2.0", "id": self.id, "method": method });
        msg["params"] = params;
        self.send(msg).expect("a response")
    }

    fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            serde_json::json!({ "textDocument": { "uri": uri, "languageId": "ninety", "version": 1, "text": text } }),
        );
    }

    fn at(uri: &str, line: u32, character: u32) -> Value {
        serde_json::json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } })
    }

    fn rename(&mut self, uri: &str, line: u32, character: u32, new: &str) -> Value {
        let mut p = Lsp::at(uri, line, character);
        p["newName"] = new.into();
        self.reply("textDocument/rename", p)
    }
}

/// A text edited as an editor edits it: `\n`, `\r\n` and a lone `\r` end a line, columns
/// count UTF-16 units (ASCII here).
fn apply(text: &str, edits: &[Value]) -> String {
    let mut starts = vec![0];
    let bytes = text.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'\n' || (*b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
            starts.push(i + 1);
        }
    }
    let offset = |p: &Value| {
        let line = p["line"].as_u64().expect("line") as usize;
        let col = p["character"].as_u64().expect("character") as usize;
        let Some(&start) = starts.get(line) else {
            return text.len();
        };
        let mut end = starts.get(line + 1).copied().unwrap_or(text.len());
        while end > start && matches!(bytes[end - 1], b'\n' | b'\r') {
            end -= 1;
        }
        (start + col).min(end)
    };
    let mut spans: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| {
            let r = &e["range"];
            let text = e["newText"].as_str().or(e["text"].as_str()).unwrap_or("");
            (offset(&r["start"]), offset(&r["end"]), text.to_string())
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (a, b, t) in spans {
        out.replace_range(a..b, &t);
    }
    out
}

/// A lone `\r` ends a line for the editor, so for the server too: an edit lands on the line
/// the editor meant, hover answers about what is there, and formatting keeps the `\r`.
#[test]
fn g04_a_lone_cr_ends_a_line_for_the_server_as_for_the_editor() {
    let uri = "file:///nowhere/g04.rules";
    let text = "extends \"ninety-nine\"\nname \"a\"\r# note\ncard  K:  add 5\ncard Q: add 10\n";
    let mut s = Lsp::new();
    s.open(uri, text);
    let change = serde_json::json!({
        "range": { "start": { "line": 3, "character": 14 }, "end": { "line": 3, "character": 15 } },
        "text": "6"
    });
    let editor = apply(text, std::slice::from_ref(&change));
    assert!(
        editor.contains("card  K:  add 6\ncard Q: add 10"),
        "{editor:?}"
    );
    s.notify(
        "textDocument/didChange",
        serde_json::json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [change] }),
    );
    assert_eq!(s.server.text(uri), Some(editor.as_str()));
    let hover = s
        .reply("textDocument/hover", Lsp::at(uri, 3, 6))
        .to_string();
    assert!(
        hover.contains("(King)") && hover.contains("add 6"),
        "{hover}"
    );
    let edits = s.reply(
        "textDocument/formatting",
        serde_json::json!({ "textDocument": { "uri": uri }, "options": { "tabSize": 2, "insertSpaces": true } }),
    );
    let formatted = apply(&editor, edits["result"].as_array().expect("edits"));
    assert_eq!(
        formatted,
        "extends \"ninety-nine\"\nname \"a\"\r# note\ncard K: add 6\ncard Q: add 10\n"
    );
}

/// Formatting never makes a line longer than the checker takes: a statement with a comment
/// one space after it, a scenario step, each just within the limit, keep their spacing.
#[test]
fn g13_formatting_makes_no_line_the_checker_refuses() {
    let limit = ninety::base::limits::LINE_BYTES;
    let code = format!("name \"{}\"", "a".repeat(limit - 4 - 7));
    let cases = [
        format!("extends \"ninety-nine\"\n{code} #x\n"),
        format!(
            "extends \"ninety-nine\"\nname \"n\"\nscenario \"s\"\ntotal 5#{}\nend\n",
            "c".repeat(limit - 8)
        ),
    ];
    let mut s = Lsp::new();
    for (i, text) in cases.iter().enumerate() {
        let uri = format!("file:///nowhere/g13-{i}.rules");
        s.open(&uri, text);
        let edits = s.reply(
            "textDocument/formatting",
            serde_json::json!({ "textDocument": { "uri": uri }, "options": { "tabSize": 2, "insertSpaces": true } }),
        );
        let formatted = apply(text, edits["result"].as_array().expect("edits"));
        let widest = formatted.lines().map(str::len).max().unwrap_or(0);
        assert!(widest <= limit, "case {i}: a line of {widest} bytes");
        let mut files = ninety::compile::Memory::new();
        files.insert("f.rules", formatted.as_str());
        let checked = ninety::compile::check(&files, "f.rules", &[]).expect("read");
        assert_eq!(checked.errors(), 0, "case {i}: {:?}", checked.diags);
    }
}

/// An option a variant declares again over its parent's cannot be renamed in the variant
/// alone: the parent's lines use it by its name, and the game would change.
#[test]
fn g12_rename_refuses_an_option_a_parent_declares_too() {
    let uri = "file:///nowhere/v.rules";
    let text = "extends \"ninety-nine\"\nname \"v\"\noption chips = 5 from 1 to 10\n";
    let mut s = Lsp::new();
    s.open(uri, text);
    let prepare = s.reply("textDocument/prepareRename", Lsp::at(uri, 2, 8));
    let why = prepare["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(why.contains("declared in `ninety-nine` too"), "{prepare}");
    let r = s.rename(uri, 2, 8, "lives");
    assert!(r.get("result").is_none(), "{r}");
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("too"),
        "{r}"
    );
}

/// Rename refuses a new name the checker would then complain about (a keyword, a line past
/// the limit), saying what it would say; a plain new name is renamed.
#[test]
fn g18b_rename_refuses_names_the_checker_complains_about() {
    let uri = "file:///nowhere/r.rules";
    let text =
        "extends \"ninety-nine\"\nname \"r\"\noption stake = 1 from 1 to 3\ncard K: add {stake}\n";
    let mut s = Lsp::new();
    s.open(uri, text);
    let keyword = s.rename(uri, 2, 8, "card");
    let why = keyword["error"]["message"].as_str().unwrap_or_default();
    assert!(why.contains("`card` is also a keyword"), "{keyword}");
    let long = s.rename(uri, 2, 8, &"x".repeat(5000));
    let why = long["error"]["message"].as_str().unwrap_or_default();
    assert!(why.contains("bytes long"), "{long}");
    let fine = s.rename(uri, 2, 8, "bet");
    let edits = fine["result"]["changes"][uri].as_array().expect("edits");
    assert_eq!(
        apply(text, edits),
        "extends \"ninety-nine\"\nname \"r\"\noption bet = 1 from 1 to 3\ncard K: add {bet}\n"
    );
}

/// Typing in a ruleset that takes long to check (its script test is tried on 2,001 totals)
/// with variants of it open: the edits already read are applied before one check, a check a
/// newer edit makes outdated is dropped, the variants are checked when nothing else waits,
/// and a hover after thirty keystrokes is answered after a check or two, not thirty (the
/// time is a budget, asserted with NINETY_TIMING_TESTS=1).
#[test]
fn g06_typing_costs_a_check_or_two_not_one_a_keystroke() {
    let d = Dir::new("g06", "hostile3", &["heavy.rules"]);
    let heavy = support::uri(&d.path("heavy.rules"));
    let text = d.read("heavy.rules");
    let mut body = vec![support::open_doc(&heavy, &text)];
    let variants: Vec<String> = (0..3)
        .map(|i| {
            let name = format!("variant{i}.rules");
            let t = format!("extends \"heavy\"\nname \"variant {i}\"\n");
            d.write(&name, &t);
            let u = support::uri(&d.path(&name));
            body.push(support::open_doc(&u, &t));
            u
        })
        .collect();
    let last = text.lines().count() as u32;
    for k in 0..30u32 {
        body.push(serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": heavy, "version": 2 + k},
            "contentChanges": [{"range": {"start": {"line": last, "character": k}, "end": {"line": last, "character": k}}, "text": "#"}]}}));
    }
    body.push(support::hover(7, &heavy, 1, 2));
    let r = d.run_with(&["lsp"], &support::lsp_session(&body), support::HANG);
    assert_eq!(r.code(), Some(0), "{}", r.stderr());
    r.within(20 * SEC);
    let replies = support::replies(&r.out.stdout);
    let published = |uri: &str| {
        replies
            .iter()
            .filter(|m| {
                m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
            })
            .count()
    };
    let hover = replies
        .iter()
        .find(|m| m["id"] == 7)
        .expect("the hover is answered");
    assert!(hover["result"].is_object(), "{hover}");
    let checks = published(&heavy);
    assert!(
        (1..10).contains(&checks),
        "{checks} checks of the file typed in"
    );
    for v in &variants {
        assert!(published(v) >= 1, "{v} is checked in the end");
    }
}

/// A small ruleset whose script does much work on every card from the second round on: the
/// games `check` plays share one counted allowance of script work (not one each), so the
/// check stops after the games that spent it and says so, in the terminal and in the editor
/// alike; no line is called "never happened" on the strength of those few games.
#[test]
fn g05_the_games_a_check_plays_share_one_allowance_of_script_work() {
    let d = Dir::new("g05", "hostile3", &["dry.rules"]);
    let r = d.run_with(
        &["check", "dry.rules", "--format", "json"],
        b"",
        support::HANG,
    );
    assert_eq!(r.code(), Some(0), "{}", r.shown());
    r.within(10 * SEC);
    let v: Value = serde_json::from_str(&r.stdout()).expect("JSON");
    let text = v.to_string();
    assert!(
        text.contains(
            "the most the games played while checking may share in all, so the check stopped after"
        ),
        "{text}"
    );
    assert!(!text.contains("never happened"), "{text}");
    // The language server checks through the same door.
    let uri = support::uri(&d.path("dry.rules"));
    let body = [
        support::open_doc(&uri, &d.read("dry.rules")),
        support::hover(7, &uri, 11, 2),
    ];
    let r = d.run_with(&["lsp"], &support::lsp_session(&body), support::HANG);
    assert_eq!(r.code(), Some(0), "{}", r.stderr());
    r.within(10 * SEC);
    let replies = support::replies(&r.out.stdout);
    assert!(
        replies.iter().any(|m| m["id"] == 7),
        "the hover is answered"
    );
    assert!(
        replies
            .iter()
            .any(|m| m["method"] == "textDocument/publishDiagnostics"
                && m.to_string().contains("so the check stopped after")),
        "{replies:?}"
    );
}
