//! `ninety lsp` as an editor drives it: the real binary over JSON-RPC (`Content-Length`
//! framing) on its standard input and output, every reply snapshotted with the test's folder
//! written `[dir]`; the same binary under headless Neovim's own client; and the server in
//! process: a parent's errors, scenarios on save, completion's contexts, the rules sheet's
//! items, and the time of every answer on the shipped rulesets. (`tests/properties.rs` feeds
//! it random text and edits.)

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

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
    let unknown = c.request("textDocument/rename", Client::at(file, 0, 0));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown:#}");
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

/// A real editor: headless Neovim, its built-in LSP client started on `ninety lsp`, opens a
/// broken ruleset and reads the diagnostics back (`tests/nvim/diagnostics.lua`). Not skipped
/// when Neovim is missing: it fails, saying how to install it.
#[test]
fn neovim_shows_the_diagnostics() {
    let found = Command::new("nvim")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        found,
        "this test needs Neovim (0.7 or later) on the PATH: `apt-get install -y neovim` on \
         Debian or Ubuntu (`.ci/run` installs it), `brew install neovim` on macOS"
    );
    let dir = folder("neovim");
    let file = dir.join("broken.rules");
    let typo = "card 9: set the total to 99 as \"🂡\" or ad 0";
    std::fs::write(
        &file,
        format!("name \"Broken 🂡\"\nplayres 2 to 5\n{typo}\n"),
    )
    .expect("write");
    let out = dir.join("diagnostics.txt");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/nvim/diagnostics.lua");
    let mut nvim = Command::new("nvim")
        .args(["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c"])
        .arg(format!("luafile {}", script.display()))
        .current_dir(&dir)
        .env("NINETY_BIN", env!("CARGO_BIN_EXE_ninety"))
        .env("NINETY_FILE", &file)
        .env("NINETY_OUT", &out)
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("XDG_DATA_HOME", dir.join("data"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("nvim starts");
    let started = std::time::Instant::now();
    while nvim.try_wait().expect("wait").is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            let _ = nvim.kill();
            panic!("Neovim did not finish within 60 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let text = std::fs::read_to_string(&out).expect("the script wrote the diagnostics");
    let lines: Vec<&str> = text.lines().collect();
    // Neovim counts columns in bytes: it turned the server's UTF-16 columns back into them.
    let ad = typo.find(" ad ").expect("the typo") + 1;
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("1:0-1:7 unknown-keyword unknown keyword `playres`"),
        "{text}"
    );
    assert!(
        lines[1].starts_with(&format!("2:{ad}-2:{} syntax unknown word `ad`", ad + 2)),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every answer on every shipped ruleset, timed in process: opening it (checked with its
/// scenarios), a change (checked again), a hover and a completion on every line, going to the
/// definition of every line. docs/editors.md gives the figures of a release build
/// (`cargo test --release --test lsp answers -- --nocapture`); the bound here is the 50 ms the
/// server promises, ten times over in a debug build.
#[test]
fn answers_within_50_ms_on_the_shipped_files() {
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
        assert!(ms < bound, "{what} took {ms:.1} ms (at most {bound} ms)");
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
        self.id += 1;
        let mut msg = json!({ "jsonrpc": "2.0", "id": self.id, "method": method });
        msg["params"] = params;
        let reply = self.send(msg).expect("a response");
        reply.get("result").cloned().unwrap_or(reply)
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
