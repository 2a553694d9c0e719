//! `ninety lsp` as an editor drives it: the real binary over JSON-RPC (`Content-Length`
//! framing) on its standard input and output, every reply snapshotted with the test's folder
//! written `[dir]` (semantic tokens whole and as a delta, the outline, formatting, renaming
//! an option, running a scenario from its lens, the `same-as-parent` fix, hostile requests to
//! each); and the server in process: a parent's errors, scenarios on save, completion's
//! contexts, the rules sheet's items, formatting every shipped and house-rule file (the same
//! program, every comment kept, nothing more to do the second time), and the time of every
//! answer on the shipped rulesets. (`tests/properties.rs` feeds it random text and edits;
//! `tests/nvim.rs` runs it in Neovim as docs/editors.md sets it up.)

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

mod support;

/// A fresh folder for one test's files.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ninety-lsp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// The server, started as an editor starts it.
struct Client {
    child: Child,
    stdin: ChildStdin,
    replies: Receiver<Value>,
    /// Notifications that came while waiting for a response.
    pending: Vec<Value>,
    next_id: i64,
    dir: PathBuf,
}

impl Client {
    fn start(dir: &Path) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ninety"))
            .arg("lsp")
            .current_dir(dir)
            .env("XDG_CACHE_HOME", dir.join("cache"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("ninety lsp starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, replies) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut size = 0;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        size = n.parse().expect("a length");
                    }
                }
                let mut body = vec![0; size];
                if r.read_exact(&mut body).is_err() {
                    return;
                }
                let v: Value = serde_json::from_slice(&body).expect("the server writes JSON");
                if tx.send(v).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            replies,
            pending: Vec::new(),
            next_id: 0,
            dir: dir.to_path_buf(),
        }
    }

    fn send_raw(&mut self, body: &str) {
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        self.stdin.flush().expect("flush");
    }

    fn send(&mut self, v: &Value) {
        self.send_raw(&v.to_string());
    }

    fn next(&mut self) -> Value {
        self.replies
            .recv_timeout(Duration::from_secs(30))
            .expect("the server answers within 30 s")
    }

    fn notify(&mut self, method: &str, params: Value) {
        let mut msg = json!({ "jsonrpc": "2.0", "method": method });
        msg["params"] = params;
        self.send(&msg);
    }

    /// Sends a request and waits for its response (notifications meanwhile are kept).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut msg = json!({ "jsonrpc": "2.0", "id": id, "method": method });
        msg["params"] = params;
        self.send(&msg);
        self.response(&json!(id))
    }

    fn response(&mut self, id: &Value) -> Value {
        loop {
            let v = self.next();
            if v.get("id") == Some(id) && v.get("method").is_none() {
                return self.redact(v);
            }
            self.pending.push(v);
        }
    }

    /// The next diagnostics published for a file.
    fn diagnostics(&mut self, file: &Path) -> Value {
        let want = json!(uri(file));
        if let Some(i) = self.pending.iter().position(|v| {
            v["method"] == "textDocument/publishDiagnostics" && v["params"]["uri"] == want
        }) {
            let v = self.pending.remove(i);
            return self.redact(v);
        }
        loop {
            let v = self.next();
            if v["method"] == "textDocument/publishDiagnostics" && v["params"]["uri"] == want {
                return self.redact(v);
            }
            self.pending.push(v);
        }
    }

    /// The reply with the test's folder written `[dir]` and the version `[version]`, so the
    /// snapshot is the same on every machine.
    fn redact(&self, v: Value) -> Value {
        let dir = self.dir.display().to_string();
        let version = env!("CARGO_PKG_VERSION");
        let fix = |s: &str| s.replace(&dir, "[dir]").replace(version, "[version]");
        fn walk(v: Value, fix: &dyn Fn(&str) -> String) -> Value {
            match v {
                Value::String(s) => Value::String(fix(&s)),
                Value::Array(a) => Value::Array(a.into_iter().map(|x| walk(x, fix)).collect()),
                Value::Object(o) => Value::Object(
                    o.into_iter()
                        .map(|(k, x)| (fix(&k), walk(x, fix)))
                        .collect(),
                ),
                other => other,
            }
        }
        walk(v, &fix)
    }

    fn open(&mut self, file: &Path, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri(file), "languageId": "ninety", "version": 1, "text": text } }),
        );
    }

    fn change(&mut self, file: &Path, range: Value, text: &str) {
        let mut change = json!({ "text": text });
        change["range"] = range;
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": uri(file), "version": 2 },
                "contentChanges": [change],
            }),
        );
    }

    /// A file's URI as the redacted replies hold it (a key of a workspace edit).
    fn key(&self, file: &Path) -> String {
        uri(file).replace(&self.dir.display().to_string(), "[dir]")
    }

    fn at(file: &Path, line: u32, character: u32) -> Value {
        json!({ "textDocument": { "uri": uri(file) }, "position": { "line": line, "character": character } })
    }
}

fn range(l1: u32, c1: u32, l2: u32, c2: u32) -> Value {
    json!({ "start": { "line": l1, "character": c1 }, "end": { "line": l2, "character": c2 } })
}

/// A variant of the shipped Ninety-Nine with a typo in a keyword, and another after a card
/// (`🂡`: four bytes, one character, two UTF-16 units) on its line.
const VARIANT: &str = "extends \"ninety-nine\"
name \"Ring of 99, tested\"
option cap = 199, one of 199, 299
playres 2 to 6
hand 5 cards
the total may not go above {cap}
card 9: set the total to {cap} as \"🂡\" or ad 0
";

#[test]
fn a_session_over_json_rpc() {
    let dir = folder("session");
    let file = dir.join("variant.rules");
    std::fs::write(&file, VARIANT).expect("write");
    let mut c = Client::start(&dir);

    let init = c.request("initialize", json!({ "capabilities": {}, "rootUri": null }));
    insta::assert_json_snapshot!("initialize", init);
    c.notify("initialized", json!({}));

    // A broken file: the typo, at its word; the option, after the two-unit card.
    c.open(&file, VARIANT);
    let broken = c.diagnostics(&file);
    let list = broken["params"]["diagnostics"].as_array().expect("a list");
    assert_eq!(list.len(), 2, "{broken:#}");
    assert_eq!(list[0]["code"], "unknown-keyword");
    assert_eq!(list[0]["range"], range(3, 0, 3, 7));
    assert_eq!(list[1]["code"], "syntax");
    // `ad` is at byte 44, character 41, UTF-16 unit 42.
    assert_eq!(list[1]["range"], range(6, 42, 6, 44));
    insta::assert_json_snapshot!("diagnostics_broken", broken);

    // A quick fix for the typo.
    let actions = c.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": uri(&file) }, "range": range(3, 2, 3, 2), "context": { "diagnostics": [] } }),
    );
    assert_eq!(
        actions["result"][0]["title"],
        "Replace `playres` with `players`"
    );
    insta::assert_json_snapshot!("code_action_typo", actions);

    // Mend both lines: the diagnostics clear.
    c.change(&file, range(3, 0, 3, 7), "players");
    let _ = c.diagnostics(&file);
    c.change(&file, range(6, 42, 6, 44), "add");
    let clean = c.diagnostics(&file);
    assert_eq!(clean["params"]["diagnostics"], json!([]), "{clean:#}");
    insta::assert_json_snapshot!("diagnostics_clean", clean);

    // Hover: a line in the sheet's words, and what it replaces in the parent; a card; an option.
    let hover = c.request("textDocument/hover", Client::at(&file, 4, 2));
    insta::assert_json_snapshot!("hover_hand", hover);
    let card = c.request("textDocument/hover", Client::at(&file, 6, 5));
    insta::assert_json_snapshot!("hover_card", card);
    let option = c.request("textDocument/hover", Client::at(&file, 5, 29));
    insta::assert_json_snapshot!("hover_option", option);

    // Completion after `card K: `: the effects.
    c.change(&file, range(7, 0, 7, 0), "card K: ");
    let _ = c.diagnostics(&file);
    let completion = c.request("textDocument/completion", Client::at(&file, 7, 8));
    let labels: Vec<&str> = completion["result"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|i| i["label"].as_str())
        .collect();
    for effect in [
        "add",
        "subtract",
        "set",
        "skip",
        "reverse",
        "play again",
        "nothing",
    ] {
        assert!(labels.contains(&effect), "{effect} not in {labels:?}");
    }
    insta::assert_json_snapshot!("completion_card_effects", completion);
    c.change(&file, range(7, 0, 7, 8), "");
    let _ = c.diagnostics(&file);

    // Go to the parent: a read-only copy of the shipped ruleset.
    let parent = c.request("textDocument/definition", Client::at(&file, 0, 12));
    insta::assert_json_snapshot!("definition_parent", parent);
    let copy = dir
        .join("cache/ninety")
        .join(env!("CARGO_PKG_VERSION"))
        .join("ninety-nine.rules");
    let meta = std::fs::metadata(&copy).expect("the parent's copy");
    assert!(meta.permissions().readonly());
    let shipped = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/ninety-nine.rules"),
    )
    .expect("the shipped text");
    assert_eq!(std::fs::read_to_string(&copy).expect("text"), shipped);
    let declaration = c.request("textDocument/definition", Client::at(&file, 5, 29));
    assert_eq!(
        declaration["result"]["range"],
        range(2, 7, 2, 10),
        "{declaration:#}"
    );

    bad_input(&mut c, &file);

    let shutdown = c.request("shutdown", Value::Null);
    assert_eq!(shutdown["result"], Value::Null, "{shutdown:#}");
    c.notify("exit", Value::Null);
    let status = c.child.wait().expect("the server exits");
    assert_eq!(status.code(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Unknown methods, bad parameters, positions past the end and text that is not JSON: an
/// error (or an empty answer), and the server goes on.
fn bad_input(c: &mut Client, file: &Path) {
    let unknown = c.request("textDocument/typeDefinition", Client::at(file, 0, 0));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown:#}");
    // A rename without its new name.
    let invalid = c.request("textDocument/rename", Client::at(file, 0, 0));
    assert_eq!(invalid["error"]["code"], -32602, "{invalid:#}");
    let invalid = c.request("textDocument/hover", json!({ "position": "here" }));
    assert_eq!(invalid["error"]["code"], -32602, "{invalid:#}");
    let past = c.request("textDocument/hover", Client::at(file, 999, 999));
    assert!(past.get("error").is_none(), "{past:#}");
    let past = c.request("textDocument/completion", Client::at(file, 2, 999));
    assert!(past.get("error").is_none(), "{past:#}");
    let unopened = c.request(
        "textDocument/definition",
        Client::at(&c.dir.join("nowhere.rules"), 0, 0),
    );
    assert_eq!(unopened["result"], Value::Null, "{unopened:#}");
    c.send_raw("{ this is not json");
    let parse_error = c.next();
    assert_eq!(parse_error["error"]["code"], -32700, "{parse_error:#}");
    c.send_raw(r#"{"jsonrpc":"2.0","id":77,"method":5}"#);
    let not_a_request = c.next();
    assert_eq!(not_a_request["id"], 77);
    assert_eq!(not_a_request["error"]["code"], -32600, "{not_a_request:#}");
    // Still answering.
    let hover = c.request("textDocument/hover", Client::at(file, 4, 2));
    assert!(
        hover["result"]["contents"]["value"].is_string(),
        "{hover:#}"
    );
}

/// Every answer on every shipped ruleset, timed in process: opening it (checked with its
/// scenarios), a change (checked again), a hover and a completion on every line, going to the
/// definition of every line. docs/editors.md gives the figures of a release build
/// (`cargo test --release --test lsp answers -- --nocapture`). The bound, the 50 ms the server
/// promises (ten times over in a debug build), is a budget: asserted only with
/// `NINETY_TIMING_TESTS=1`, so that a busy machine fails no test; every answer is checked.
#[test]
fn answers_on_the_shipped_files_timed() {
    use ninety::app::lsp::Server;
    use std::time::Instant;

    let bound = if cfg!(debug_assertions) { 500.0 } else { 50.0 };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
    let mut times: Vec<(String, Vec<f64>)> = Vec::new();
    let mut time = |what: &str, server: &mut Server, v: Value| {
        let msg: lsp_server::Message = serde_json::from_value(v).expect("a message");
        let start = Instant::now();
        let (replies, _) = server.handle(msg);
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        for r in &replies {
            if let lsp_server::Message::Response(r) = r {
                assert!(r.response_result.is_ok(), "{what}: {r:?}");
            }
        }
        match times.iter_mut().find(|(w, _)| w == what) {
            Some((_, all)) => all.push(ms),
            None => times.push((what.to_string(), vec![ms])),
        }
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("rulesets")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rules"))
        .collect();
    files.sort();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("text");
        let mut server = Server::new();
        let init = json!({ "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": { "capabilities": {} } });
        time("initialize", &mut server, init);
        let uri = uri(file);
        let open = json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": { "uri": uri, "languageId": "ninety", "version": 1, "text": text } } });
        time("didOpen (check and scenarios)", &mut server, open);
        for (what, method) in [
            ("semantic tokens", "textDocument/semanticTokens/full"),
            ("outline", "textDocument/documentSymbol"),
            ("formatting", "textDocument/formatting"),
            ("code lenses", "textDocument/codeLens"),
        ] {
            let req = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": {
                "textDocument": { "uri": uri }, "options": { "tabSize": 2, "insertSpaces": true } } });
            time(what, &mut server, req);
        }
        for (i, line) in text.lines().enumerate() {
            let i = i as u32;
            let end = line.encode_utf16().count() as u32;
            let at = |c: u32| json!({ "textDocument": { "uri": uri }, "position": { "line": i, "character": c } });
            for (what, method, pos) in [
                ("hover", "textDocument/hover", at(end.min(6))),
                ("completion", "textDocument/completion", at(end)),
                ("definition", "textDocument/definition", at(end.min(12))),
            ] {
                let req = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": pos });
                time(what, &mut server, req);
            }
            if i.is_multiple_of(8) {
                let change = json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                    "textDocument": { "uri": uri, "version": 2 },
                    "contentChanges": [{ "range": { "start": at(end)["position"], "end": at(end)["position"] }, "text": "" }] } });
                time("didChange (check)", &mut server, change);
            }
        }
    }
    for (what, all) in &mut times {
        all.sort_by(f64::total_cmp);
        let (median, ms) = (all[all.len() / 2], all[all.len() - 1]);
        eprintln!(
            "{what}: median {median:.2} ms, slowest {ms:.2} ms ({} answers)",
            all.len()
        );
        if support::timing_tests() {
            assert!(ms < bound, "{what} took {ms:.1} ms (at most {bound} ms)");
        }
    }
}

/// Hover says what the rules sheet says: the sheet's items are its lines (those of its four
/// sections), for every shipped ruleset, each about a different thing.
#[test]
fn the_sheet_items_are_the_sheet_lines() {
    use ninety::compile::{SHIPPED, Shipped};
    for (name, _) in SHIPPED {
        let p = ninety::app::load::load_program(&Shipped, name, &[]).expect("checks");
        let sheet = ninety::present::rules_sheet(&p, None, false);
        let body = sheet.split("\nOptions\n").next().unwrap_or("");
        let body = body
            .split("\nRemoved from the parent\n")
            .next()
            .unwrap_or("");
        let lines: Vec<&str> = body
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("- "))
            .filter(|l| *l != "None.")
            .map(|l| l.trim_end_matches("  [changed]"))
            .collect();
        let items = ninety::present::sheet_items(&p);
        let texts: Vec<&str> = items.iter().map(|i| i.text.as_str()).collect();
        assert_eq!(texts, lines, "{name}");
        let mut keys: Vec<&str> = items.iter().map(|i| i.key.as_str()).collect();
        keys.sort_unstable();
        let n = keys.len();
        keys.dedup();
        assert_eq!(keys.len(), n, "{name}: two items share a key");
    }
}

/// The server in process, keeping the diagnostics it publishes.
struct InProcess {
    server: ninety::app::lsp::Server,
    published: std::collections::HashMap<String, Value>,
    id: i32,
}

impl InProcess {
    fn new() -> InProcess {
        let mut s = InProcess {
            server: ninety::app::lsp::Server::new(),
            published: Default::default(),
            id: 0,
        };
        s.request("initialize", json!({ "capabilities": {} }));
        s
    }

    fn send(&mut self, v: Value) -> Option<Value> {
        let msg: lsp_server::Message = serde_json::from_value(v).expect("a message");
        let mut answer = None;
        for reply in self.server.handle(msg).0 {
            let reply = serde_json::to_value(&reply).expect("JSON");
            if reply["method"] == "textDocument/publishDiagnostics" {
                let uri = reply["params"]["uri"].as_str().unwrap_or("").to_string();
                self.published
                    .insert(uri, reply["params"]["diagnostics"].clone());
            } else {
                answer = Some(reply);
            }
        }
        answer
    }

    fn notify(&mut self, method: &str, params: Value) {
        let mut msg = json!({ "jsonrpc": "2.0", "method": method });
        msg["params"] = params;
        self.send(msg);
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let reply = self.reply(method, params);
        reply.get("result").cloned().unwrap_or(reply)
    }

    /// A request's whole response: its result or its error.
    fn reply(&mut self, method: &str, params: Value) -> Value {
        self.id += 1;
        let mut msg = json!({ "jsonrpc": "2.0", "id": self.id, "method": method });
        msg["params"] = params;
        self.send(msg).expect("a response")
    }

    fn open(&mut self, file: &Path, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri(file), "languageId": "ninety", "version": 1, "text": text } }),
        );
    }

    fn replace(&mut self, file: &Path, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri(file), "version": 2 }, "contentChanges": [{ "text": text }] }),
        );
    }

    fn codes(&self, file: &Path) -> Vec<String> {
        self.published
            .get(&uri(file))
            .and_then(Value::as_array)
            .map(|l| {
                l.iter()
                    .filter_map(|d| d["code"].as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    }

    fn labels(&mut self, file: &Path, line: u32, character: u32) -> Vec<String> {
        let items = self.request("textDocument/completion", Client::at(file, line, character));
        items
            .as_array()
            .map(|l| {
                l.iter()
                    .filter_map(|i| i["label"].as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// A parent open in the editor, broken: its error shows on the child's `extends` line, with a
/// link to the parent's line; mending the parent clears the child.
#[test]
fn a_parents_error_shows_on_the_childs_extends_line() {
    let dir = folder("parent");
    let parent = dir.join("base.rules");
    let child = dir.join("child.rules");
    let base = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/ninety-nine.rules"),
    )
    .expect("text");
    let mut s = InProcess::new();
    s.open(&parent, &format!("{base}\nhand three cards\n"));
    s.open(&child, "name \"Child\"\nextends \"base\"\nhand 4 cards\n");
    let d = &s.published[&uri(&child)][0];
    assert_eq!(d["range"], range(1, 8, 1, 14), "{d:#}");
    assert!(
        d["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("in the parent `base.rules`: expected a number")),
        "{d:#}"
    );
    let related = &d["relatedInformation"][0]["location"];
    assert_eq!(related["uri"], json!(uri(&parent)), "{d:#}");
    let last = base.lines().count() as u32 + 1;
    assert_eq!(related["range"]["start"]["line"], last, "{d:#}");
    s.replace(&parent, &base);
    assert_eq!(s.codes(&child), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Scenarios run on opening and saving, not while typing.
#[test]
fn scenario_failures_show_on_open_and_save() {
    let dir = folder("scenarios");
    let file = dir.join("variant.rules");
    let text = "extends \"ninety-nine\"\nname \"Sevens\"\ncard 7: add 8\nscenario \"a 7 adds 7\"\n  players 2\n  total 10\n  hand 0: 7H 2C 3C\n  hand 1: 4D 5D 6D\n  play 7H\n  expect total 17\nend\n";
    let mut s = InProcess::new();
    s.open(&file, text);
    assert_eq!(s.codes(&file), ["scenario-failed"]);
    s.replace(&file, &text.replace("expect total 17", "expect total 18"));
    assert_eq!(s.codes(&file), Vec::<String>::new());
    s.replace(&file, text);
    assert_eq!(s.codes(&file), Vec::<String>::new(), "not while typing");
    s.notify(
        "textDocument/didSave",
        json!({ "textDocument": { "uri": uri(&file) } }),
    );
    assert_eq!(s.codes(&file), ["scenario-failed"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Completion inside `{…}` offers the declared options, after `extends "` the rulesets, where
/// a rank goes the ranks, in a scenario its steps.
#[test]
fn completion_knows_options_parents_ranks_and_steps() {
    let dir = folder("completion");
    let file = dir.join("mine.rules");
    std::fs::write(dir.join("sibling.rules"), "extends \"ninety-nine\"\n").expect("write");
    let text = "extends \"ninety-eight\"\noption lives = 2 from 1 to 5\neach player starts with {l}\ncard \nscenario \"s\"\n  \nend\nextends \"\n";
    let mut s = InProcess::new();
    s.open(&file, text);
    let mut options = s.labels(&file, 2, 26);
    options.sort();
    assert_eq!(options, ["lives", "threshold"]);
    let parents = s.labels(&file, 7, 9);
    for name in ["ninety-nine", "33-66-99", "sibling"] {
        assert!(
            parents.iter().any(|p| p == name),
            "{name} not in {parents:?}"
        );
    }
    assert!(!parents.iter().any(|p| p == "mine"), "{parents:?}");
    let ranks = s.labels(&file, 3, 5);
    for rank in ["A", "10", "K", "X"] {
        assert!(ranks.iter().any(|r| r == rank), "{rank} not in {ranks:?}");
    }
    let steps = s.labels(&file, 5, 2);
    for step in ["play", "expect", "hand", "stock", "end"] {
        assert!(steps.iter().any(|r| r == step), "{step} not in {steps:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Completion offers the newer constructs where it offers the older ones, from the grammar
/// itself: a count, a moment and a round's end where a line starts; drawing, swapping and
/// passing cards where an outcome goes; the table's counts where a test or an amount goes; a
/// scenario's `round`, `count` and `holds`. Each line is asked at its end.
#[test]
fn completion_offers_counts_moments_round_ends_and_card_moves() {
    let rules: &[(&str, &[&str])] = &[
        ("", &["count", "after", "when", "the", "each"]),
        ("count points ", &["for each player", "starting at"]),
        ("count points for each player, ", &["starting at"]),
        ("after ", &["each card", "every card"]),
        ("after each card, ", &["if"]),
        (
            "after each card, if the ",
            &["run", "limit", "round", "total", "cards"],
        ),
        ("when ", &["a player", "only"]),
        ("when a player ", &["goes out", "is out", "cannot play"]),
        ("when 2 players ", &["are left"]),
        ("the ", &["round ends", "game ends"]),
        ("the round ends ", &["after", "when"]),
        ("the round ends after 20 ", &["cards"]),
        (
            "card J: add 10 and ",
            &["draws", "swap hands with", "takes", "gives", "pays"],
        ),
        (
            "after each card: each other player ",
            &["draws", "swaps hands with", "takes", "gives"],
        ),
        (
            "card Q: the player takes a ",
            &["card", "random card", "at random card"],
        ),
        (
            "card Q: the player takes a card ",
            &["at random from", "from"],
        ),
        ("card K: the player gives a card at random ", &["to"]),
        (
            "the total may not go above 109 minus 10 times the ",
            &["round", "limit", "run"],
        ),
        (
            "the player with the fewest chips leads each round, ",
            &["ties"],
        ),
        ("no ", &["option", "bar"]),
    ];
    let steps: &[(&str, &[&str])] = &[
        ("  ", &["round", "count", "expect"]),
        ("  expect ", &["count", "hand"]),
        ("  expect hand 1 ", &["holds"]),
    ];
    let mut text = String::from("extends \"ninety-nine\"\n");
    for (line, _) in rules {
        text.push_str(&format!("{line}\n"));
    }
    text.push_str("scenario \"s\"\n");
    for (line, _) in steps {
        text.push_str(&format!("{line}\n"));
    }
    text.push_str("end\n");
    let dir = folder("completion-new");
    let file = dir.join("mine.rules");
    let mut s = InProcess::new();
    s.open(&file, &text);
    let first_step = rules.len() as u32 + 2;
    let probes = rules.iter().zip(1..).chain(steps.iter().zip(first_step..));
    for ((line, want), at) in probes {
        let labels = s.labels(&file, at, line.len() as u32);
        for w in *want {
            assert!(
                labels.iter().any(|l| l == w),
                "{w:?} not offered after {line:?}: {labels:?}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The colours of the newer constructs: a count's name where it is declared (a variable,
/// marked so), and where a line or a scenario reads it; the cards of `expect hand 1 holds:`.
#[test]
fn semantic_tokens_colour_counts_and_the_cards_a_hand_holds() {
    let text = "extends \"ninety-nine\"
count points for each player, starting at 0
count streak
when a player cannot play: the player's points go up by the streak and the player loses the round
after each card, if the streak is at least 3: the streak resets
the game ends when a player reaches 300 points
the winner is the player with the fewest points
card J: add 10 and swap hands with the next player
scenario \"points\"
  players 3
  count points: 0, 90, 0
  hand 0: JC 2C 3C
  hand 1: 5D 6D 7D
  hand 2: 8H 6H 7H
  play JC
  expect count points: 0, 90, 0
  expect hand 0 holds: 5D 6D 7D
end
";
    let dir = folder("tokens-counts");
    let file = dir.join("points.rules");
    let mut s = InProcess::new();
    s.open(&file, text);
    let full = s.request(
        "textDocument/semanticTokens/full",
        json!({ "textDocument": { "uri": uri(&file) } }),
    );
    let legend = json!({ "tokenTypes": [
        "keyword", "number", "enumMember", "variable", "function", "string", "comment", "namespace"
    ] });
    let tokens = decode(text, &full["data"], &legend);
    for want in [
        "1:0 count keyword",
        "1:6 points variable.declaration",
        "2:6 streak variable.declaration",
        "3:40 points variable",
        "3:60 streak variable",
        "4:24 streak variable",
        "4:50 streak variable",
        "5:40 points variable",
        "6:41 points variable",
        "7:19 swap keyword",
        "10:8 points variable",
        "15:15 points variable",
        "16:23 5D enumMember",
        "16:29 7D enumMember",
    ] {
        assert!(
            tokens.iter().any(|t| t == want),
            "{want} not in {tokens:#?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A variant with an option, a card that names it, a comment, a scenario that sets it, and
/// (at line 5) a line that does not parse.
const KINGS: &str = "extends \"ninety-nine\"
name \"Kings pay a bonus\"
option bonus = 5 from 1 to 9
card K: add {bonus}   # kings
on reaching 50 going up: the player pays {bonus}
playres 2
scenario \"K adds the bonus\"
  players 2
  set bonus = 6
  total 10
  hand 0: KH 2C 3C
  hand 1: 4D 5D 6D
  play KH
  expect total 16
end
";

/// Semantic tokens as `LINE:COL TEXT TYPE[.MODIFIER]`, decoded with the legend.
fn decode(text: &str, data: &Value, legend: &Value) -> Vec<String> {
    let lines: Vec<Vec<u16>> = text.lines().map(|l| l.encode_utf16().collect()).collect();
    let nums: Vec<u64> = data
        .as_array()
        .expect("token data")
        .iter()
        .map(|n| n.as_u64().expect("a number"))
        .collect();
    let (mut line, mut col) = (0u64, 0u64);
    nums.chunks(5)
        .map(|t| {
            col = if t[0] == 0 { col + t[1] } else { t[1] };
            line += t[0];
            let units = &lines[line as usize][col as usize..(col + t[2]) as usize];
            let ty = legend["tokenTypes"][t[3] as usize].as_str().unwrap_or("?");
            let modifier = if t[4] == 1 { ".declaration" } else { "" };
            format!(
                "{line}:{col} {} {ty}{modifier}",
                String::from_utf16_lossy(units)
            )
        })
        .collect()
}

/// Applies a delta's edits (offsets in the flat list of numbers) to a previous token list.
fn apply_delta(before: &Value, edits: &Value) -> Value {
    let mut data: Vec<Value> = before.as_array().expect("data").clone();
    let mut edits: Vec<&Value> = edits.as_array().expect("edits").iter().collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e["start"].as_u64()));
    for e in edits {
        let start = e["start"].as_u64().expect("start") as usize;
        let count = e["deleteCount"].as_u64().expect("count") as usize;
        let new = e["data"].as_array().cloned().unwrap_or_default();
        data.splice(start..start + count, new);
    }
    Value::Array(data)
}

/// The byte offset of an LSP position (UTF-16 columns) in a text.
fn offset(text: &str, pos: &Value) -> usize {
    let line = pos["line"].as_u64().expect("line") as usize;
    let character = pos["character"].as_u64().expect("character") as usize;
    let mut at = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i == line {
            let mut units = 0;
            for (b, c) in l.char_indices() {
                if units >= character || c == '\n' {
                    return at + b;
                }
                units += c.len_utf16();
            }
            return at + l.trim_end_matches('\n').len();
        }
        at += l.len();
    }
    text.len()
}

/// A text with LSP text edits applied (last first).
fn apply_edits(text: &str, edits: &Value) -> String {
    let mut spans: Vec<(usize, usize, String)> = edits
        .as_array()
        .expect("edits")
        .iter()
        .map(|e| {
            (
                offset(text, &e["range"]["start"]),
                offset(text, &e["range"]["end"]),
                e["newText"].as_str().expect("text").to_string(),
            )
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (start, end, new) in spans {
        out.replace_range(start..end, &new);
    }
    out
}

fn started(dir: &Path, capabilities: &Value) -> (Client, Value) {
    let mut c = Client::start(dir);
    let init = c.request("initialize", json!({ "capabilities": capabilities }));
    c.notify("initialized", json!({}));
    let legend = init["result"]["capabilities"]["semanticTokensProvider"]["legend"].clone();
    (c, legend)
}

/// The colours: keywords of the lines that parse, ranks and cards, numbers, options (the
/// declaration marked), the scenario's name, comments, quoted text and the parent; nothing
/// but its comment on a line that does not parse. A delta after an edit, applied to the first
/// answer, is the second; an unknown previous answer gets a whole one.
#[test]
fn semantic_tokens_whole_and_as_deltas() {
    let dir = folder("tokens");
    let file = dir.join("kings.rules");
    let (mut c, legend) = started(&dir, &json!({}));
    assert_eq!(legend["tokenModifiers"], json!(["declaration"]));
    c.open(&file, KINGS);
    let _ = c.diagnostics(&file);
    let full = c.request(
        "textDocument/semanticTokens/full",
        json!({ "textDocument": { "uri": uri(&file) } }),
    );
    let tokens = decode(KINGS, &full["result"]["data"], &legend);
    for want in [
        "0:0 extends keyword",
        "0:8 \"ninety-nine\" namespace",
        "2:7 bonus variable.declaration",
        "3:5 K enumMember",
        "3:12 {bonus} variable",
        "3:22 # kings comment",
        "4:12 50 number",
        "6:9 \"K adds the bonus\" function.declaration",
        "8:6 bonus variable",
        "10:10 KH enumMember",
    ] {
        assert!(
            tokens.iter().any(|t| t == want),
            "{want} not in {tokens:#?}"
        );
    }
    assert!(!tokens.iter().any(|t| t.starts_with("5:")), "{tokens:#?}");
    insta::assert_snapshot!("semantic_tokens", tokens.join("\n"));

    // A line added before the card: the delta, applied, gives the new whole answer.
    let previous = full["result"]["resultId"]
        .as_str()
        .expect("an id")
        .to_string();
    c.change(&file, range(3, 0, 3, 0), "card J: skip\n");
    let _ = c.diagnostics(&file);
    let delta = c.request(
        "textDocument/semanticTokens/full/delta",
        json!({ "textDocument": { "uri": uri(&file) }, "previousResultId": previous }),
    );
    let edits = &delta["result"]["edits"];
    assert_eq!(edits.as_array().map(Vec::len), Some(1), "{delta:#}");
    let patched = apply_delta(&full["result"]["data"], edits);
    let again = c.request(
        "textDocument/semanticTokens/full",
        json!({ "textDocument": { "uri": uri(&file) } }),
    );
    assert_eq!(patched, again["result"]["data"], "{delta:#}");
    assert_ne!(again["result"]["resultId"], delta["result"]["resultId"]);
    let unknown = c.request(
        "textDocument/semanticTokens/full/delta",
        json!({ "textDocument": { "uri": uri(&file) }, "previousResultId": "nope" }),
    );
    assert_eq!(
        unknown["result"]["data"], again["result"]["data"],
        "{unknown:#}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The outline of 33/66/99: its options, cards, bars, triggers and scenarios, each group
/// holding its members, a scenario's range from its heading to its `end`.
#[test]
fn the_outline_holds_options_cards_bars_triggers_and_scenarios() {
    let dir = folder("outline");
    let file = dir.join("33-66-99.rules");
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/33-66-99.rules"),
    )
    .expect("text");
    let (mut c, _) = started(&dir, &json!({}));
    c.open(&file, &text);
    let _ = c.diagnostics(&file);
    let outline = c.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": uri(&file) } }),
    );
    let groups = outline["result"].as_array().expect("symbols");
    let names: Vec<&str> = groups.iter().filter_map(|g| g["name"].as_str()).collect();
    assert_eq!(names, ["Options", "Cards", "Bars", "Triggers", "Scenarios"]);
    let lines: Vec<&str> = text.lines().collect();
    let mut listed = Vec::new();
    for g in groups {
        for m in g["children"].as_array().expect("members") {
            let (start, end) = (&m["range"]["start"], &m["range"]["end"]);
            let first = start["line"].as_u64().expect("line") as usize;
            let last = end["line"].as_u64().expect("line") as usize;
            // Every member's range is in its group's, and its name's in its own.
            assert!(g["range"]["start"]["line"].as_u64() <= Some(first as u64));
            assert!(g["range"]["end"]["line"].as_u64() >= Some(last as u64));
            assert_eq!(m["selectionRange"]["start"]["line"], start["line"]);
            if m["kind"] == 12 {
                assert!(lines[first].starts_with("scenario \""), "{m:#}");
                assert_eq!(lines[last], "end", "{m:#}");
            } else {
                assert_eq!(first, last, "{m:#}");
            }
            listed.push(format!(
                "{} / {} (line {}) {}",
                g["name"].as_str().unwrap_or(""),
                m["name"].as_str().unwrap_or(""),
                first,
                m["detail"].as_str().unwrap_or("")
            ));
        }
    }
    insta::assert_snapshot!("outline_33_66_99", listed.join("\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Formatting gives the canonical spacing, keeps comments and rhai code, and a second time
/// has nothing to do; a file that does not parse is left alone.
#[test]
fn formatting_is_canonical_and_idempotent() {
    let dir = folder("format");
    let file = dir.join("messy.rules");
    let messy = "extends   \"ninety-nine\"  \n\tname \"Two  spaces\"\n\ncard K :\tadd 5 # kings\nscenario \"K adds 5\"\nplayers 2\n      total 10\n # the king\n  hand 0: KH 2C 3C\n  hand 1: 4D 5D 6D\n  play KH\n    expect total 15\n  end\nscript\n  fn  lucky(total) {  total == 7 }\nend\n\n\n";
    let tidy = "extends \"ninety-nine\"\nname \"Two  spaces\"\n\ncard K : add 5                                 # kings\nscenario \"K adds 5\"\n  players 2\n  total 10\n  # the king\n  hand 0: KH 2C 3C\n  hand 1: 4D 5D 6D\n  play KH\n  expect total 15\nend\nscript\n  fn  lucky(total) {  total == 7 }\nend\n";
    let (mut c, _) = started(&dir, &json!({}));
    c.open(&file, messy);
    let _ = c.diagnostics(&file);
    let options = json!({ "tabSize": 2, "insertSpaces": true });
    let format = |c: &mut Client| {
        c.request(
            "textDocument/formatting",
            json!({ "textDocument": { "uri": uri(&file) }, "options": options }),
        )
    };
    let edits = format(&mut c);
    let formatted = apply_edits(messy, &edits["result"]);
    assert_eq!(formatted, tidy, "{edits:#}");
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri(&file), "version": 3 }, "contentChanges": [{ "text": formatted }] }),
    );
    let clean = c.diagnostics(&file);
    assert_eq!(clean["params"]["diagnostics"], json!([]), "{clean:#}");
    assert_eq!(format(&mut c)["result"], json!([]));
    c.change(&file, range(0, 0, 0, 0), "playres 2\n");
    let _ = c.diagnostics(&file);
    assert_eq!(format(&mut c)["result"], Value::Null);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A loader that reads one file's text from memory and every other through the disk and the
/// shipped rulesets.
struct OneSwapped<'a> {
    path: &'a str,
    text: &'a str,
}

impl ninety::compile::Loader for OneSwapped<'_> {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        if path == self.path {
            return Ok(self.text.as_bytes().to_vec());
        }
        ninety::compile::Shipped.read(path)
    }
    fn exists(&self, path: &str) -> bool {
        path == self.path || ninety::compile::Shipped.exists(path)
    }
    fn siblings(&self, path: &str) -> Vec<String> {
        ninety::compile::Shipped.siblings(path)
    }
}

/// A compiled form with every run of spaces in its texts made one space (a program keeps the
/// text of some lines, for explanations: formatting changes only their spacing).
fn one_spaced(v: Value) -> Value {
    match v {
        Value::String(s) => Value::String(s.split_whitespace().collect::<Vec<_>>().join(" ")),
        Value::Array(a) => Value::Array(a.into_iter().map(one_spaced).collect()),
        Value::Object(o) => Value::Object(o.into_iter().map(|(k, x)| (k, one_spaced(x))).collect()),
        other => other,
    }
}

/// The program a file checks to, as JSON (line numbers and all, its texts one-spaced), with
/// its diagnostics.
fn compiled(path: &str, text: &str) -> (Value, Vec<(String, usize)>) {
    let loader = OneSwapped { path, text };
    let checked = ninety::compile::check(&loader, path, &[]).expect("readable");
    let diags = checked
        .diags
        .iter()
        .map(|d| {
            let line = d.source.as_ref().map_or(0, |s| s.line_col(d.span.start).0);
            (d.code.name().to_string(), line)
        })
        .collect();
    let program = checked.program.expect("the file checks");
    (
        one_spaced(serde_json::to_value(&program).expect("JSON")),
        diags,
    )
}

/// The comments of a text, in order.
fn comments(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let code = ninety::base::span::strip_comment(l);
            let rest = l[code.len()..].trim_end();
            (!rest.is_empty()).then(|| rest.to_string())
        })
        .collect()
}

/// Every shipped ruleset and house rule, formatted through the server: the same program (its
/// lines where they were), the same diagnostics, every comment, and nothing more to do.
#[test]
fn formatting_every_ruleset_keeps_its_program_and_comments() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = ["rulesets", "tests/house-rules", "tests/house-rules/set3"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root.join(d)).expect("a folder"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rules"))
        .collect();
    files.sort();
    assert!(files.len() > 30, "{files:?}");
    let mut changed = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).expect("text");
        let mut s = InProcess::new();
        s.open(file, &text);
        let format = |s: &mut InProcess| {
            s.request(
                "textDocument/formatting",
                json!({ "textDocument": { "uri": uri(file) }, "options": { "tabSize": 2, "insertSpaces": true } }),
            )
        };
        let edits = format(&mut s);
        let formatted = apply_edits(&text, &edits);
        changed += usize::from(formatted != text);
        let path = file.display().to_string();
        assert_eq!(
            compiled(&path, &formatted),
            compiled(&path, &text),
            "{path}: formatting changed the program"
        );
        assert_eq!(comments(&formatted), comments(&text), "{path}");
        s.replace(file, &formatted);
        assert_eq!(format(&mut s), json!([]), "{path}: formatting twice");
        assert_eq!(s.server.failures(), 0, "{path}");
    }
    eprintln!("{changed} of {} files had spacing to mend", files.len());
}

/// Renaming an option: from `{bonus}`, every place the file names it (its declaration, the
/// cards and bars that use it, the scenario's `set`), and none in a comment; an option of the
/// parent, a bad name and a name taken are refused, with why.
#[test]
fn renaming_an_option_across_the_file() {
    let dir = folder("rename");
    let file = dir.join("kings.rules");
    let text = KINGS.replace("playres 2\n", "# {bonus} stays in comments\n");
    let (mut c, _) = started(&dir, &json!({}));
    c.open(&file, &text);
    let _ = c.diagnostics(&file);
    let prepared = c.request("textDocument/prepareRename", Client::at(&file, 3, 14));
    assert_eq!(
        prepared["result"],
        json!({ "range": range(3, 13, 3, 18), "placeholder": "bonus" })
    );
    let rename = |c: &mut Client, line, character, name: &str| {
        let mut p = Client::at(&file, line, character);
        p["newName"] = json!(name);
        c.request("textDocument/rename", p)
    };
    let renamed = rename(&mut c, 2, 9, "extra");
    let edits = &renamed["result"]["changes"][c.key(&file)];
    let places: Vec<&Value> = edits
        .as_array()
        .expect("edits")
        .iter()
        .map(|e| &e["range"]["start"])
        .collect();
    assert_eq!(places.len(), 4, "{renamed:#}");
    let after = apply_edits(&text, edits);
    assert_eq!(
        after,
        text.replace("bonus =", "extra =")
            .replace("add {bonus}", "add {extra}")
            .replace("pays {bonus}", "pays {extra}")
    );
    assert!(after.contains("# {bonus} stays in comments"));
    insta::assert_json_snapshot!("rename_option", renamed);
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri(&file), "version": 3 }, "contentChanges": [{ "text": after }] }),
    );
    let clean = c.diagnostics(&file);
    assert_eq!(clean["params"]["diagnostics"], json!([]), "{clean:#}");

    c.change(
        &file,
        range(1, 0, 1, 0),
        "each player starts with {chips} chips\n",
    );
    let _ = c.diagnostics(&file);
    let parents = c.request("textDocument/prepareRename", Client::at(&file, 1, 26));
    assert_eq!(parents["error"]["code"], -32803, "{parents:#}");
    assert_eq!(
        parents["error"]["message"],
        "the option `chips` is declared in `ninety-nine`: rename it there"
    );
    let bad = rename(&mut c, 3, 9, "2 words");
    assert_eq!(bad["error"]["code"], -32803, "{bad:#}");
    let taken = rename(&mut c, 3, 9, "chips");
    assert_eq!(
        taken["error"]["message"], "an option `chips` is already declared",
        "{taken:#}"
    );
    let nothing = c.request("textDocument/prepareRename", Client::at(&file, 0, 2));
    assert_eq!(nothing["result"], Value::Null, "{nothing:#}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The lens over a scenario runs it on the unsaved text: a pass says so at the scenario's
/// name, in a message and in the lens; then, the text changed to fail, the failure shows at
/// its line and the lens says `failed`. The editor is asked to draw its lenses again.
#[test]
fn a_code_lens_runs_a_scenario_and_says_how_it_went() {
    let dir = folder("lens");
    let file = dir.join("kings.rules");
    let text = KINGS.replace("playres 2\n", "");
    let capabilities = json!({ "workspace": { "codeLens": { "refreshSupport": true } } });
    let (mut c, _) = started(&dir, &capabilities);
    c.open(&file, &text);
    let opened = c.diagnostics(&file);
    assert_eq!(opened["params"]["diagnostics"], json!([]), "{opened:#}");
    let at = json!({ "textDocument": { "uri": uri(&file) } });
    let lenses = c.request("textDocument/codeLens", at.clone());
    insta::assert_json_snapshot!("code_lens", lenses);
    let command = lenses["result"][0]["command"].clone();
    assert_eq!(command["title"], "▶ Run this scenario");
    assert_eq!(
        command["arguments"],
        json!([c.key(&file), "K adds the bonus"])
    );
    let run = |c: &mut Client| {
        c.request(
            "workspace/executeCommand",
            json!({ "command": command["command"], "arguments": [uri(&file), command["arguments"][1]] }),
        )
    };
    let passed = run(&mut c);
    assert_eq!(passed["result"]["passed"], true, "{passed:#}");
    let said = c.diagnostics(&file);
    let list = &said["params"]["diagnostics"];
    assert_eq!(list[0]["severity"], 3, "{said:#}");
    assert_eq!(list[0]["message"], "scenario \"K adds the bonus\" passes");
    assert_eq!(list[0]["range"], range(5, 9, 5, 27));
    let shown = c
        .pending
        .iter()
        .find(|v| v["method"] == "window/showMessage");
    assert_eq!(
        shown.map(|v| &v["params"]),
        Some(&json!({ "type": 3, "message": "Scenario \"K adds the bonus\" passes." }))
    );
    assert!(
        c.pending
            .iter()
            .any(|v| v["method"] == "workspace/codeLens/refresh" && v.get("id").is_some())
    );
    c.pending.clear();
    let lenses = c.request("textDocument/codeLens", at.clone());
    assert_eq!(
        lenses["result"][0]["command"]["title"],
        "✓ passed · run again"
    );

    c.change(&file, range(12, 15, 12, 17), "17");
    let changed = c.diagnostics(&file);
    assert_eq!(
        changed["params"]["diagnostics"],
        json!([]),
        "not while typing"
    );
    let failed = run(&mut c);
    assert_eq!(failed["result"]["passed"], false, "{failed:#}");
    let said = c.diagnostics(&file);
    let list = said["params"]["diagnostics"].as_array().expect("a list");
    assert_eq!(list.len(), 1, "{said:#}");
    assert_eq!(list[0]["code"], "scenario-failed");
    assert_eq!(list[0]["range"]["start"]["line"], 12);
    let lenses = c.request("textDocument/codeLens", at.clone());
    assert_eq!(
        lenses["result"][0]["command"]["title"],
        "✗ failed · run again"
    );
    // The same command as a code action on the scenario's lines, for editors without lenses.
    let actions = c.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": uri(&file) }, "range": range(8, 2, 8, 2), "context": { "diagnostics": [] } }),
    );
    let titles: Vec<&str> = actions["result"]
        .as_array()
        .expect("actions")
        .iter()
        .filter_map(|a| a["title"].as_str())
        .collect();
    assert_eq!(titles, ["Run scenario \"K adds the bonus\""]);

    let unknown = c.request(
        "workspace/executeCommand",
        json!({ "command": "ninety.nothing", "arguments": [] }),
    );
    assert_eq!(unknown["error"]["code"], -32602, "{unknown:#}");
    let no_args = c.request(
        "workspace/executeCommand",
        json!({ "command": "ninety.runScenario", "arguments": [1, 2] }),
    );
    assert_eq!(no_args["error"]["code"], -32602, "{no_args:#}");
    let no_such = c.request(
        "workspace/executeCommand",
        json!({ "command": "ninety.runScenario", "arguments": [uri(&file), "nope"] }),
    );
    assert_eq!(no_such["error"]["code"], -32803, "{no_such:#}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A variant's line that says what its parent says: the warning names the parent as the
/// variant does (`ninety-nine`, not a file beside it that does not exist), and its quick fix
/// removes the whole line.
#[test]
fn a_line_the_parent_already_says_is_removed_by_its_fix() {
    let dir = folder("same");
    let file = dir.join("same.rules");
    let text =
        "extends \"ninety-nine\"\nname \"Same\"\nhand 3 cards   # as before\ncard K: add 5\n";
    let (mut c, _) = started(&dir, &json!({}));
    c.open(&file, text);
    let said = c.diagnostics(&file);
    let d = &said["params"]["diagnostics"][0];
    assert_eq!(d["code"], "same-as-parent", "{said:#}");
    assert!(
        d["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("this line says what `ninety-nine` already says")),
        "{said:#}"
    );
    assert!(!dir.join("ninety-nine.rules").exists());
    let actions = c.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": uri(&file) }, "range": range(2, 3, 2, 3), "context": { "diagnostics": [] } }),
    );
    assert_eq!(
        actions["result"][0]["title"], "Remove this line",
        "{actions:#}"
    );
    let edits = &actions["result"][0]["edit"]["changes"][c.key(&file)];
    assert_eq!(edits[0]["range"], range(2, 0, 3, 0));
    let mended = apply_edits(text, edits);
    assert_eq!(mended, text.replace("hand 3 cards   # as before\n", ""));
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri(&file), "version": 3 }, "contentChanges": [{ "text": mended }] }),
    );
    let clean = c.diagnostics(&file);
    assert_eq!(clean["params"]["diagnostics"], json!([]), "{clean:#}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every new request, sent what an editor should not send: a file not open, positions far
/// past the end, parameters of the wrong shape, a file over the size of a ruleset. Each gets
/// an answer (nothing, or an error that says why), none an internal error, and the server
/// goes on.
#[test]
fn the_new_requests_survive_hostile_input() {
    let dir = folder("hostile");
    let file = dir.join("kings.rules");
    let huge = dir.join("huge.rules");
    let nowhere = dir.join("nowhere.rules");
    let (mut c, _) = started(&dir, &json!({}));
    c.open(&file, KINGS);
    let _ = c.diagnostics(&file);
    c.open(&huge, &"card K: add 1\n".repeat(30_000));
    let lost = c.diagnostics(&huge);
    assert!(
        lost["params"]["diagnostics"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("more than a ruleset may")),
        "{lost:#}"
    );
    let methods = [
        "textDocument/semanticTokens/full",
        "textDocument/semanticTokens/full/delta",
        "textDocument/documentSymbol",
        "textDocument/formatting",
        "textDocument/prepareRename",
        "textDocument/rename",
        "textDocument/codeLens",
    ];
    for method in methods {
        for (target, line, character) in [
            (&nowhere, 0, 0),
            (&huge, 5, 5),
            (&file, 9_999, 9_999),
            (&file, 3, u32::MAX),
        ] {
            let mut p = Client::at(target, line, character);
            p["newName"] = json!("fresh");
            p["previousResultId"] = json!("0");
            p["options"] = json!({ "tabSize": 2, "insertSpaces": true });
            let answer = c.request(method, p);
            let code = answer["error"]["code"].as_i64();
            assert!(
                code.is_none() || code == Some(-32803),
                "{method} at {}:{line}:{character}: {answer:#}",
                target.display()
            );
        }
        let bad = c.request(method, json!({ "textDocument": 7 }));
        assert_eq!(bad["error"]["code"], -32602, "{method}: {bad:#}");
    }
    for args in [
        json!([uri(&huge), "K adds the bonus"]),
        json!([uri(&nowhere), "x"]),
        json!(["not a uri at all", "x"]),
    ] {
        let answer = c.request(
            "workspace/executeCommand",
            json!({ "command": "ninety.runScenario", "arguments": args }),
        );
        let code = answer["error"]["code"].as_i64();
        assert!(matches!(code, Some(-32803 | -32602)), "{answer:#}");
    }
    let still = c.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": uri(&file) } }),
    );
    assert_eq!(still["result"][0]["name"], "Options", "{still:#}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every shipped ruleset, mangled a little at a time (braces, quotes, `#`, a two-unit card,
/// carriage returns, a byte-order mark, half a scenario or script block), with each new
/// request sent at random places after each change: no handler fails (no internal error, no
/// panic caught), whatever the text.
#[test]
fn the_new_requests_survive_mangled_rulesets() {
    const BITS: &[&str] = &[
        "{",
        "}",
        "\"",
        "#",
        "🂡",
        "\r\n",
        "\n",
        " ",
        "\t",
        "scenario \"x\"\n",
        "end\n",
        "script\n",
        "{chips}",
        "option x = 1 from 0 to 9\n",
        "  set chips = 2\n",
        "\u{feff}",
        ":",
        "é",
        "card K: add {x}\n",
        "no option chips\n",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("rulesets")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rules"))
        .collect();
    files.sort();
    for file in &files {
        let mut text = std::fs::read_to_string(file).expect("text");
        let scenario = text
            .split("scenario \"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap_or("x")
            .to_string();
        let mut s = InProcess::new();
        s.open(file, &text);
        let doc = json!({ "uri": uri(file) });
        let mut last_id = json!("0");
        for _ in 0..8 {
            let mut at = next(text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            if next(3) == 0 {
                let mut end = (at + next(40)).min(text.len());
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                text.replace_range(at..end, "");
            } else {
                text.insert_str(at, BITS[next(BITS.len())]);
            }
            s.replace(file, &text);
            let lines = text.lines().count() as u32 + 2;
            let mut pos = || json!({ "line": next(lines as usize), "character": next(120) });
            let (p1, p2, p3, p4) = (pos(), pos(), pos(), pos());
            let requests = [
                (
                    "textDocument/semanticTokens/full",
                    json!({ "textDocument": doc }),
                ),
                (
                    "textDocument/semanticTokens/full/delta",
                    json!({ "textDocument": doc, "previousResultId": last_id }),
                ),
                (
                    "textDocument/documentSymbol",
                    json!({ "textDocument": doc }),
                ),
                (
                    "textDocument/formatting",
                    json!({ "textDocument": doc, "options": { "tabSize": 2, "insertSpaces": true } }),
                ),
                (
                    "textDocument/prepareRename",
                    json!({ "textDocument": doc, "position": p1 }),
                ),
                (
                    "textDocument/rename",
                    json!({ "textDocument": doc, "position": p2, "newName": "renamed" }),
                ),
                ("textDocument/codeLens", json!({ "textDocument": doc })),
                (
                    "textDocument/codeAction",
                    json!({ "textDocument": doc, "range": { "start": p3, "end": p4 }, "context": { "diagnostics": [] } }),
                ),
                (
                    "workspace/executeCommand",
                    json!({ "command": "ninety.runScenario", "arguments": [uri(file), scenario] }),
                ),
            ];
            for (method, params) in requests {
                let reply = s.reply(method, params);
                assert_ne!(
                    reply["error"]["code"],
                    -32603,
                    "{method} on {}:\n{text}\n{reply:#}",
                    file.display()
                );
                if let Some(id) = reply["result"]["resultId"].as_str() {
                    last_id = json!(id);
                }
            }
            assert_eq!(s.server.failures(), 0, "{}:\n{text}", file.display());
        }
    }
}

/// A scenario's result from its lens lasts until something changes: a change to an open
/// parent checks the variant again, and the result, older than that check, goes.
#[test]
fn a_scenario_run_from_its_lens_lasts_until_a_parent_changes() {
    let dir = folder("lens-parent");
    let parent = dir.join("base.rules");
    let child = dir.join("child.rules");
    let base = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/ninety-nine.rules"),
    )
    .expect("text");
    let text = KINGS
        .replace("playres 2\n", "")
        .replace("extends \"ninety-nine\"", "extends \"base\"");
    let mut s = InProcess::new();
    s.open(&parent, &base);
    s.open(&child, &text);
    assert_eq!(s.codes(&child), Vec::<String>::new());
    let ran = s.request(
        "workspace/executeCommand",
        json!({ "command": "ninety.runScenario", "arguments": [uri(&child), "K adds the bonus"] }),
    );
    assert_eq!(ran["passed"], true, "{ran:#}");
    let said = &s.published[&uri(&child)];
    assert_eq!(
        said[0]["message"], "scenario \"K adds the bonus\" passes",
        "{said:#}"
    );
    s.replace(&parent, &format!("{base}\n# changed\n"));
    assert_eq!(s.published[&uri(&child)], json!([]));
    let _ = std::fs::remove_dir_all(&dir);
}
