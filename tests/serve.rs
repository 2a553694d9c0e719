//! `ninety serve` with real clients on the loopback: the server in this process, clients
//! speaking its WebSocket as docs/serve.md says. People and a bot play to the end, each told
//! only their own; a reload, a lost connection and a restart lose nothing; an absent player
//! is played by a bot and takes the seat back; bad input gets words and leaves every other
//! table alone. A hang guard bounds each wait; no verdict depends on the clock.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use ninety::app::serve::hall::{Caps, Hall};
use ninety::app::serve::{App, check_absent, serve_on};
use ninety::app::store::Sqlite;
use ninety::base::limits::{SERVE_IDLE_MESSAGES, SERVE_MESSAGE_BYTES, SERVE_TABLES_OPENED};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A wait far beyond any here: a guard against hanging, not a measure.
const HANG: Duration = Duration::from_secs(120);

struct Server {
    addr: std::net::SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    done: tokio::task::JoinHandle<()>,
}

impl Server {
    async fn start(db: Option<&PathBuf>, away: Duration) -> Server {
        Server::start_with(db, away, Caps::default()).await
    }

    async fn start_with(db: Option<&PathBuf>, away: Duration, caps: Caps) -> Server {
        let store = match db {
            Some(p) => Sqlite::open_file(p).expect("a store"),
            None => Sqlite::in_memory().expect("a store"),
        };
        let (app, resumed) =
            tokio::task::spawn_blocking(move || App::with_caps(Box::new(store), away, caps, None))
                .await
                .expect("joins")
                .expect("the server starts");
        assert!(resumed.problems.is_empty(), "{:?}", resumed.problems);
        let app = Arc::new(app);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("binds");
        let addr = listener.local_addr().expect("an address");
        check_absent(&app, resumed.absent);
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let done = tokio::spawn(async move {
            serve_on(listener, app, async {
                let _ = stopped.await;
            })
            .await
            .expect("serves");
        });
        Server {
            addr,
            stop: Some(stop),
            done,
        }
    }

    async fn client(&self) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/ws", self.addr))
            .await
            .expect("connects");
        Client { ws }
    }

    /// A client back at `table` with the seat's `token`: seated again, and the table as it
    /// is then.
    async fn back(&self, table: i64, token: &str) -> (Client, Value) {
        let mut a = self.client().await;
        a.send(json!({"type": "back", "table": table, "token": token}))
            .await;
        a.until("seated").await;
        let table = a.until("table").await;
        (a, table)
    }

    async fn stop(mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        let _ = tokio::time::timeout(HANG, self.done).await;
    }
}

struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Client {
    async fn send(&mut self, v: Value) {
        self.ws
            .send(Message::Text(v.to_string().into()))
            .await
            .expect("sends");
    }

    /// The next message, or `None` once the server closed the connection.
    async fn next(&mut self) -> Option<Value> {
        loop {
            let m = tokio::time::timeout(HANG, self.ws.next())
                .await
                .expect("the server answers (hang guard)");
            match m {
                Some(Ok(Message::Text(t))) => {
                    return Some(serde_json::from_str(&t).expect("JSON"));
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
                Some(Ok(_)) => {}
            }
        }
    }

    /// Messages until one of type `ty`.
    async fn until(&mut self, ty: &str) -> Value {
        loop {
            let m = self
                .next()
                .await
                .unwrap_or_else(|| panic!("closed before a `{ty}`"));
            if m["type"] == ty {
                return m;
            }
        }
    }

    /// Messages until a `table` one that holds `pred`.
    async fn table_where(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let m = self.until("table").await;
            if pred(&m) {
                return m;
            }
        }
    }
}

fn cards(v: &Value, key: &str) -> Vec<String> {
    v[key]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|c| c.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn move_cards(v: &Value) -> BTreeSet<String> {
    v["moves"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|m| m["card"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The fields a `table` message of a game in play has (docs/serve.md): nothing else.
const FIELDS: [&str; 30] = [
    "type",
    "table",
    "ruleset",
    "seat",
    "started",
    "seats",
    "hand",
    "hand_sizes",
    "known",
    "discard",
    "stock",
    "total",
    "turn",
    "clockwise",
    "chips",
    "bank",
    "pot",
    "round",
    "counts",
    "out",
    "over",
    "winners",
    "outcome",
    "events",
    "waiting_on",
    "moves",
    "notice",
    "",
    "",
    "",
];

fn open_msg(seats: &[&str], sets: &[(&str, &str)]) -> Value {
    json!({"type": "open", "ruleset": "ninety-nine", "seats": seats, "sets": sets})
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
}

#[test]
fn two_people_and_a_bot_play_to_the_end_each_told_only_their_own() {
    runtime().block_on(async {
        let server = Server::start(None, Duration::from_secs(3600)).await;
        let mut a = server.client().await;
        a.send(open_msg(
            &["person", "person", "cautious"],
            &[("chips", "1")],
        ))
        .await;
        let sa = a.until("seated").await;
        assert_eq!(sa["seat"], 0);
        let table = sa["table"].as_i64().expect("a table");
        let token_a = sa["token"].as_str().expect("a token").to_string();
        assert_eq!(token_a.len(), 32, "128 random bits");
        let lobby = a.until("table").await;
        assert_eq!(lobby["started"], false, "{lobby}");
        let mut b = server.client().await;
        b.send(json!({"type": "join", "table": table})).await;
        let sb = b.until("seated").await;
        assert_eq!(sb["seat"], 1);
        assert_ne!(sb["token"], sa["token"]);
        // A spectator, once the seats are taken: the join is refused, the watch shows no hand.
        let mut w = server.client().await;
        w.send(json!({"type": "join", "table": table})).await;
        let full = w.until("refused").await;
        assert!(
            full["why"]
                .as_str()
                .is_some_and(|x| x.contains("no free seat")),
            "{full}"
        );
        w.send(json!({"type": "watch", "table": table})).await;
        w.until("watching").await;

        let mut ma = a.table_where(|m| m["started"] == true).await;
        let mut mb = b.table_where(|m| m["started"] == true).await;
        let mut mw = w.table_where(|m| m["started"] == true).await;
        let mut moves = 0;
        loop {
            for (m, me) in [(&ma, 0), (&mb, 1)] {
                let keys: BTreeSet<&str> = m
                    .as_object()
                    .expect("an object")
                    .keys()
                    .map(String::as_str)
                    .collect();
                let allowed: BTreeSet<&str> =
                    FIELDS.iter().copied().filter(|f| !f.is_empty()).collect();
                assert!(keys.is_subset(&allowed), "unknown fields: {keys:?}");
                assert_eq!(m["seat"], me);
                assert_eq!(m["table"], table);
            }
            // Neither is shown a card of the other's hand, as a card held or a move.
            let (ha, hb) = (cards(&ma, "hand"), cards(&mb, "hand"));
            for c in &hb {
                assert!(
                    !ha.contains(c) && !move_cards(&ma).contains(c),
                    "A sees B's {c}"
                );
            }
            for c in &ha {
                assert!(
                    !hb.contains(c) && !move_cards(&mb).contains(c),
                    "B sees A's {c}"
                );
            }
            assert!(
                cards(&mw, "hand").is_empty() && mw["moves"].as_array().is_some_and(Vec::is_empty)
            );
            assert_eq!(ma["total"], mb["total"]);
            assert_eq!(ma["total"], mw["total"]);
            if ma["over"] == true {
                assert_eq!(mb["over"], true);
                break;
            }
            let (msg, first) = match ma["waiting_on"].as_u64() {
                Some(0) => (&ma, true),
                Some(1) => (&mb, false),
                other => panic!("waiting on {other:?}: {ma}"),
            };
            assert!(msg["moves"].as_array().is_some_and(|m| !m.is_empty()));
            let send = msg["moves"][0]["send"]
                .as_str()
                .expect("a move")
                .to_string();
            let (mover, other) = if first {
                (&mut a, &mut b)
            } else {
                (&mut b, &mut a)
            };
            // The other one may not move now.
            other.send(json!({"type": "move", "text": send})).await;
            let r = other.until("refused").await;
            assert!(r["why"].as_str().is_some_and(|x| x.contains("move")), "{r}");
            mover.send(json!({"type": "move", "text": send})).await;
            moves += 1;
            assert!(moves < 2_000, "the game ends");
            ma = a.until("table").await;
            mb = b.until("table").await;
            mw = w.until("table").await;
        }
        assert!(
            ma["outcome"].as_str().is_some_and(|o| !o.is_empty()),
            "{ma}"
        );
        assert_eq!(ma["winners"], mb["winners"]);
        // The replay: the deal, then a step a move, the last as the game ended.
        w.send(json!({"type": "replay"})).await;
        let r = w.until("replay").await;
        let steps = r["steps"].as_array().expect("steps");
        assert_eq!(steps.len(), moves + 1);
        let last = steps.last().expect("a step");
        assert_eq!(last["total"], ma["total"]);
        assert_eq!(last["over"], true);
        assert!(steps.iter().all(|s| cards(s, "hand").is_empty()));
        server.stop().await;
    });
}

fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ninety-serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    dir.join("tables.db")
}

/// Plays `n` moves for the one person at the table (the first offered each time).
async fn play_moves(c: &mut Client, mut m: Value, n: usize) -> Value {
    for _ in 0..n {
        if m["over"] == true {
            break;
        }
        let send = m["moves"][0]["send"].as_str().expect("a move").to_string();
        c.send(json!({"type": "move", "text": send})).await;
        m = c.until("table").await;
    }
    m
}

#[test]
fn a_reload_and_a_restart_of_the_server_lose_nothing() {
    runtime().block_on(async {
        let db = temp_db("restart");
        let server = Server::start(Some(&db), Duration::from_secs(3600)).await;
        let mut a = server.client().await;
        a.send(open_msg(&["person", "cautious", "random"], &[]))
            .await;
        let seated = a.until("seated").await;
        let (table, token) = (
            seated["table"].as_i64().expect("table"),
            seated["token"].as_str().expect("token").to_string(),
        );
        let m = a.until("table").await;
        let before = play_moves(&mut a, m, 5).await;
        // A reload: the connection goes, a new one comes back with the token.
        drop(a);
        let mut a = server.client().await;
        a.send(json!({"type": "back", "table": table, "token": token}))
            .await;
        assert_eq!(a.until("seated").await["seat"], 0);
        let again = a.until("table").await;
        for k in ["hand", "total", "chips", "discard", "moves", "round"] {
            assert_eq!(again[k], before[k], "{k} after a reload");
        }
        // A forged token is refused like an unknown table.
        let mut f = server.client().await;
        f.send(json!({"type": "back", "table": table, "token": "0".repeat(32)}))
            .await;
        assert!(
            f.until("refused").await["why"]
                .as_str()
                .is_some_and(|w| w.contains("token"))
        );
        drop(a);
        drop(f);
        server.stop().await;
        // The server again, on the same file: the game goes on where it was.
        let server = Server::start(Some(&db), Duration::from_secs(3600)).await;
        let (mut a, resumed) = server.back(table, &token).await;
        for k in [
            "hand",
            "total",
            "chips",
            "discard",
            "moves",
            "round",
            "hand_sizes",
        ] {
            assert_eq!(resumed[k], before[k], "{k} after a restart");
        }
        let end = play_moves(&mut a, resumed, 5_000).await;
        assert_eq!(end["over"], true, "the game goes on to its end");
        server.stop().await;
        let _ = std::fs::remove_dir_all(db.parent().expect("a folder"));
    });
}

#[test]
fn an_absent_player_is_played_by_a_bot_and_takes_the_seat_back() {
    runtime().block_on(async {
        // Away at once: the absence is checked as soon as the seat is empty.
        let server = Server::start(None, Duration::ZERO).await;
        let mut a = server.client().await;
        a.send(open_msg(&["person", "person"], &[])).await;
        let table = a.until("seated").await["table"].as_i64().expect("a table");
        let mut b = server.client().await;
        b.send(json!({"type": "join", "table": table})).await;
        let token_b = b.until("seated").await["token"]
            .as_str()
            .expect("token")
            .to_string();
        drop(b);
        // A is told B is away and a bot plays for them, and is waited on (or the game ends).
        let m = a.table_where(|m| m["seats"][1]["stand_in"] == true).await;
        assert!(
            m["notice"].as_str().is_some_and(|n| n.contains("away")),
            "{m}"
        );
        let mut m = m;
        for _ in 0..6 {
            if m["over"] == true {
                break;
            }
            assert_eq!(m["waiting_on"], 0, "the bot has played seat 2's move: {m}");
            m = play_moves(&mut a, m, 1).await;
        }
        // B comes back: the seat is theirs again, and the table says so.
        let mut b = server.client().await;
        b.send(json!({"type": "back", "table": table, "token": token_b}))
            .await;
        assert_eq!(b.until("seated").await["seat"], 1);
        let back = b.until("table").await;
        assert_eq!(back["seats"][1]["stand_in"], false);
        assert!(
            back["notice"].as_str().is_some_and(|n| n.contains("back")),
            "{back}"
        );
        server.stop().await;
    });
}

#[test]
fn bad_input_gets_words_and_leaves_every_other_table_alone() {
    runtime().block_on(async {
        let server = Server::start(None, Duration::from_secs(3600)).await;
        // A table in play beside it all.
        let mut good = server.client().await;
        good.send(open_msg(&["person", "cautious"], &[])).await;
        good.until("seated").await;
        let first = good.until("table").await;

        let mut c = server.client().await;
        let refused = |m: &Value, words: &str| {
            assert!(
                m["why"].as_str().is_some_and(|w| w.contains(words)),
                "`{words}` not in {m}"
            );
        };
        for (msg, words) in [
            (json!({"type": "move", "text": "9H"}), "sit at a table first"),
            (json!({"type": "join", "table": 999}), "no table 999"),
            (json!({"type": "back", "table": 1, "token": "forged"}), "token"),
            (json!({"type": "open", "ruleset": "../../etc/passwd", "seats": ["person"]}), "no shipped ruleset"),
            (json!({"type": "open", "ruleset": "ninety-nine", "seats": ["person", "ismcts:1000000"]}), "a seat is `person` or a bot"),
            (json!({"type": "open", "ruleset": "ninety-nine", "seats": ["cautious", "random"]}), "a seat for a person"),
            (json!({"type": "open", "ruleset": "ninety-nine", "seats": ["person"]}), "player"),
            (json!({"type": "open", "ruleset": "ninety-nine", "seats": vec!["person"; 500]}), "at most 12"),
            (json!({"type": "open", "ruleset": "ninety-nine", "seats": ["person", "random"], "sets": vec![["chips", "3"]; 65]}), "at most 64"),
            (json!({"type": "open", "source": "this is not a rule\n", "seats": ["person", "random"]}), "does not check"),
            (json!({"type": "open", "source": "extends \"ninety-nine\"\nscript file \"/etc/passwd\"\n", "seats": ["person", "random"]}), "does not check"),
            (json!({"type": "open", "ruleset": "ninety-nine", "sets": [["chips", "9999"]], "seats": ["person", "random"]}), "chips"),
        ] {
            c.send(msg).await;
            let m = c.until("refused").await;
            refused(&m, words);
        }
        for junk in ["{", "[]", "{\"type\":\"dance\"}", "{\"type\":\"move\"}"] {
            c.ws.send(Message::Text(junk.into())).await.expect("sends");
            let m = c.until("error").await;
            refused(&m, "not understood");
        }
        // The other table goes on.
        let after = play_moves(&mut good, first, 1).await;
        assert_ne!(after["events"], json!([]));

        // A flood of messages that play nothing: counted, told, closed.
        let mut flood = server.client().await;
        for _ in 0..SERVE_IDLE_MESSAGES {
            flood
                .send(json!({"type": "join", "table": 999}))
                .await;
        }
        let mut last = None;
        while let Some(m) = flood.next().await {
            last = Some(m);
        }
        let last = last.expect("told why");
        assert_eq!(last["type"], "error");
        refused(&last, "in a row played no move");

        // A message bigger than the limit closes that connection, and nothing else.
        let mut big = server.client().await;
        let huge = "x".repeat(SERVE_MESSAGE_BYTES + 1);
        let _ = big.ws.send(Message::Text(huge.into())).await;
        while big.next().await.is_some() {}

        // One connection opens at most so many tables.
        let mut opener = server.client().await;
        for _ in 0..SERVE_TABLES_OPENED {
            opener.send(open_msg(&["person", "random"], &[])).await;
            opener.until("seated").await;
        }
        opener.send(open_msg(&["person", "random"], &[])).await;
        let m = opener.until("error").await;
        refused(&m, "at most");

        let again = play_moves(&mut good, after, 1).await;
        assert_eq!(again["seat"], 0);
        server.stop().await;
    });
}

#[test]
fn ninety_join_plays_a_table_at_the_terminal() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    runtime().block_on(async {
        let server = Server::start(None, Duration::from_secs(3600)).await;
        let mut a = server.client().await;
        a.send(open_msg(&["person", "person"], &[])).await;
        let table = a.until("seated").await["table"].as_i64().expect("a table");
        let mut join = Command::new(env!("CARGO_BIN_EXE_ninety"))
            .args(["join", &format!("http://{}/t/{table}", server.addr)])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("ninety join starts");
        let mut stdin = join.stdin.take().expect("its input");
        let stdout = join.stdout.take().expect("its output");
        let (lines_tx, mut lines) = tokio::sync::mpsc::unbounded_channel::<String>();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if lines_tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut said = Vec::new();
        let mut next_line = async || {
            tokio::time::timeout(HANG, lines.recv())
                .await
                .expect("the terminal says something (hang guard)")
                .expect("the terminal is still there")
        };
        loop {
            let l = next_line().await;
            said.push(l.clone());
            if l.starts_with("You sit at seat 2 of table") {
                assert!(l.contains(&format!("/t/{table}#")), "{l}");
                break;
            }
        }
        let mut ma = a.table_where(|m| m["started"] == true).await;
        for _ in 0..8 {
            if ma["over"] == true {
                break;
            }
            if ma["waiting_on"] == 0 {
                let send = ma["moves"][0]["send"].as_str().expect("a move").to_string();
                a.send(json!({"type": "move", "text": send})).await;
            } else {
                let moves = loop {
                    let l = next_line().await;
                    said.push(l.clone());
                    if let Some(m) = l.strip_prefix("Your move: ") {
                        break m.to_string();
                    }
                };
                let first = moves.split(", ").next().expect("a move").to_string();
                writeln!(stdin, "{first}").expect("types");
            }
            ma = a.until("table").await;
        }
        writeln!(stdin, "quit").expect("types");
        loop {
            let l = next_line().await;
            said.push(l.clone());
            if l.contains("You leave the table") {
                break;
            }
        }
        let status = join.wait().expect("ends");
        assert!(status.success());
        let text = said.join("\n");
        assert!(text.contains("Total "), "{text}");
        assert!(text.contains("Your hand: "), "{text}");
        server.stop().await;
    });
}

#[test]
fn every_limit_on_clients_holds() {
    runtime().block_on(async {
        let caps = Caps {
            connections: 4,
            tables: 2,
            watchers: 3,
            replay_steps: 3,
            replay_bytes: usize::MAX,
        };
        let server = Server::start_with(None, Duration::from_secs(3600), caps).await;
        let mut c1 = server.client().await;
        c1.send(open_msg(&["person", "random"], &[])).await;
        let t1 = c1.until("seated").await["table"].as_i64().expect("a table");
        let m = c1.until("table").await;
        let mut c2 = server.client().await;
        c2.send(open_msg(&["person", "random"], &[])).await;
        c2.until("seated").await;
        // The server plays two tables: a third is refused.
        let mut c3 = server.client().await;
        c3.send(open_msg(&["person", "random"], &[])).await;
        let r = c3.until("refused").await;
        assert!(
            r["why"]
                .as_str()
                .is_some_and(|w| w.contains("plays 2 tables already")),
            "{r}"
        );
        // Four connections: a fifth is told why and closed.
        let mut c4 = server.client().await;
        let mut c5 = server.client().await;
        let r = c5.until("error").await;
        assert!(
            r["why"]
                .as_str()
                .is_some_and(|w| w.contains("holds 4 connections")),
            "{r}"
        );
        assert!(c5.next().await.is_none(), "closed");
        // Three connections at one table: a fourth is refused.
        c3.send(json!({"type": "watch", "table": t1})).await;
        c3.until("watching").await;
        c4.send(json!({"type": "watch", "table": t1})).await;
        c4.until("watching").await;
        c2.send(json!({"type": "watch", "table": t1})).await;
        let r = c2.until("refused").await;
        assert!(
            r["why"]
                .as_str()
                .is_some_and(|w| w.contains("has 3 connections")),
            "{r}"
        );
        // A replay sends its first steps only.
        let m = play_moves(&mut c1, m, 5).await;
        assert_ne!(m["over"], true);
        c1.send(json!({"type": "replay"})).await;
        let r = c1.until("replay").await;
        assert_eq!(r["steps"].as_array().map(Vec::len), Some(3));
        assert_eq!(r["cut"], true);
        server.stop().await;
    });
}

#[test]
fn a_replay_sends_no_more_bytes_than_its_cap_and_says_it_was_cut() {
    // The same seeded table at two halls: one with the default caps, one with room for the
    // bytes of the replay's first two steps.
    let game = |caps: Caps| {
        let hall = Hall::with_caps(Box::new(Sqlite::in_memory().expect("a store")), caps).seeded(7);
        let seats = vec!["person".to_string(), "cautious".to_string()];
        let (out, mut inbox) = ninety::app::serve::outbox::with_room(1024);
        let at = hall
            .open(
                Some("ninety-nine"),
                None,
                Vec::new(),
                &seats,
                hall.connection(),
                &out,
            )
            .expect("opens");
        for _ in 0..6 {
            let mut last = None;
            while let Ok(m) = inbox.try_recv() {
                last = Some(m);
            }
            let Some(m) = last else { break };
            let m: Value = serde_json::from_str(&m).expect("JSON");
            if m["over"] == true || m["waiting_on"] != 0 {
                break;
            }
            let send = m["moves"][0]["send"].as_str().expect("a move").to_string();
            hall.play(at, &send).expect("plays");
        }
        let r: Value =
            serde_json::from_str(&hall.replay(at.table).expect("a replay")).expect("JSON");
        r
    };
    let all = game(Caps::default());
    assert_eq!(all["cut"], false, "{all}");
    let steps = all["steps"].as_array().expect("steps");
    assert!(steps.len() > 3, "{all}");
    let first_two: usize = steps[..2].iter().map(|s| s.to_string().len()).sum();
    let cut = game(Caps {
        replay_bytes: first_two,
        ..Caps::default()
    });
    assert_eq!(cut["steps"].as_array().map(Vec::len), Some(2), "{cut}");
    assert_eq!(cut["cut"], true, "{cut}");
    assert_eq!(cut["steps"][1], steps[1]);
}

#[test]
fn a_client_that_reads_nothing_is_dropped_from_its_table() {
    let hall = Hall::new(Box::new(Sqlite::in_memory().expect("a store")));
    let seats = vec!["person".to_string(), "cautious".to_string()];
    let (ta, mut ra) = ninety::app::serve::outbox::with_room(1024);
    let at = hall
        .open(
            Some("ninety-nine"),
            None,
            Vec::new(),
            &seats,
            hall.connection(),
            &ta,
        )
        .expect("opens");
    // A spectator whose queue holds one message, and who never reads it.
    let (tw, mut rw) = ninety::app::serve::outbox::with_room(1);
    hall.watch(at.table, hall.connection(), &tw)
        .expect("watches");
    drop(tw);
    let mut played = 0;
    while played < 3 {
        let mut last = None;
        while let Ok(m) = ra.try_recv() {
            last = Some(m);
        }
        let Some(m) = last else { break };
        let m: Value = serde_json::from_str(&m).expect("JSON");
        if m["over"] == true || m["waiting_on"] != 0 {
            break;
        }
        let send = m["moves"][0]["send"].as_str().expect("a move").to_string();
        hall.play(at, &send).expect("plays");
        played += 1;
    }
    assert!(played > 1);
    // What fitted in its queue, then nothing: the table let it go.
    assert!(rw.try_recv().is_ok());
    assert_eq!(
        rw.try_recv(),
        Err(tokio::sync::mpsc::error::TryRecvError::Disconnected)
    );
}

#[test]
fn the_server_refuses_a_file_that_is_no_store_and_a_port_taken_in_words() {
    use std::process::Command;
    let db = temp_db("junk");
    std::fs::write(&db, b"these are not the tables you are looking for").expect("writes");
    let out = Command::new(env!("CARGO_BIN_EXE_ninety"))
        .args(["serve", "--port", "0", "--db"])
        .arg(&db)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("table store") && err.contains("tables.db"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(&db).expect("still there"),
        b"these are not the tables you are looking for",
        "the file is left as it was"
    );
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("binds");
    let port = taken.local_addr().expect("an address").port().to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_ninety"))
        .args(["serve", "--memory", "--port", &port])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot listen") && err.contains("--port"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(db.parent().expect("a folder"));
}

#[test]
fn a_seeded_server_deals_the_same_tables_again() {
    let first_hand = |hall: &Hall| {
        let seats = vec!["person".to_string(), "cautious".to_string()];
        let (tx, mut rx) = ninety::app::serve::outbox::with_room(64);
        hall.open(
            Some("ninety-nine"),
            None,
            Vec::new(),
            &seats,
            hall.connection(),
            &tx,
        )
        .expect("opens");
        let mut hand = None;
        while let Ok(m) = rx.try_recv() {
            let m: Value = serde_json::from_str(&m).expect("JSON");
            if m["type"] == "table" {
                hand = Some(m["hand"].clone());
            }
        }
        hand.expect("a table")
    };
    let hall = |seed: u64| Hall::new(Box::new(Sqlite::in_memory().expect("a store"))).seeded(seed);
    let (a, b) = (hall(5), hall(5));
    let a_hands: Vec<Value> = (0..4).map(|_| first_hand(&a)).collect();
    let b_hands: Vec<Value> = (0..4).map(|_| first_hand(&b)).collect();
    assert_eq!(a_hands, b_hands, "the same seed, the same deals");
    assert_ne!(a_hands[0], a_hands[1], "each table its own deal");
    let c = hall(6);
    let c_hands: Vec<Value> = (0..4).map(|_| first_hand(&c)).collect();
    assert_ne!(a_hands, c_hands);
}

/// A page of another site open in the host's browser cannot open the socket (its browser
/// says where it comes from, and the server takes only its own page); the server's own page,
/// and a client that is not a browser (`ninety join`), can.
#[test]
fn only_the_servers_own_page_opens_a_socket() {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    runtime().block_on(async {
        let server = Server::start(None, Duration::from_secs(3600)).await;
        let with_origin = |origin: &str| {
            let mut req = format!("ws://{}/ws", server.addr)
                .into_client_request()
                .expect("a request");
            req.headers_mut()
                .insert("Origin", origin.parse().expect("a header"));
            req
        };
        for stranger in [
            "http://evil.example".to_string(),
            format!("http://{}.evil.example", server.addr.ip()),
            "null".to_string(),
        ] {
            match tokio_tungstenite::connect_async(with_origin(&stranger)).await {
                Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => {
                    assert_eq!(resp.status(), 403, "{stranger}");
                }
                other => panic!("{stranger}: the socket opened: {:?}", other.map(|_| ())),
            }
        }
        let own = format!("http://{}", server.addr);
        let (mut ws, _) = tokio_tungstenite::connect_async(with_origin(&own))
            .await
            .expect("the server's own page connects");
        let _ = ws.close(None).await;
        // No Origin: not a browser.
        let mut c = server.client().await;
        c.send(open_msg(&["person", "cautious"], &[])).await;
        let seated = c.until("seated").await;
        assert_eq!(seated["seat"], 0);
        server.stop().await;
    });
}

/// A move the table offers plays, whatever its label holds (`KC:<x>`, where `>` also names a
/// seat), and a move is kept only once it has played: after a restart the game is where
/// everyone was told it was.
#[test]
fn every_offered_move_plays_and_only_played_moves_are_kept() {
    runtime().block_on(async {
        let db = temp_db("labels");
        let source = "extends \"ninety-nine\"\nname \"Labels\"\ncard K: add 1 as \"<x>\" or add 2 as \"b\"\n";
        let server = Server::start(Some(&db), Duration::from_secs(3600)).await;
        let mut a = server.client().await;
        a.send(json!({"type": "open", "source": source, "seats": ["person", "cautious"], "sets": []}))
            .await;
        let seated = a.until("seated").await;
        let (table, token) = (
            seated["table"].as_i64().expect("table"),
            seated["token"].as_str().expect("token").to_string(),
        );
        let mut m = a.until("table").await;
        let mut angled = 0;
        for _ in 0..400 {
            if m["over"] == true || angled >= 2 {
                break;
            }
            let moves: Vec<String> = m["moves"]
                .as_array()
                .expect("moves")
                .iter()
                .filter_map(|x| x["send"].as_str().map(str::to_string))
                .collect();
            let send = moves
                .iter()
                .find(|x| x.contains("<x>"))
                .unwrap_or(&moves[0])
                .clone();
            angled += usize::from(send.contains("<x>"));
            a.send(json!({"type": "move", "text": send})).await;
            let answer = loop {
                let v = a.next().await.expect("an answer");
                if v["type"] == "table" || v["type"] == "refused" {
                    break v;
                }
            };
            assert_ne!(answer["type"], "refused", "{send}: {answer}");
            m = answer;
        }
        assert!(angled > 0, "no King was offered to play as <x>");
        let before = m.clone();
        drop(a);
        server.stop().await;
        let server = Server::start(Some(&db), Duration::from_secs(3600)).await;
        let (_a, resumed) = server.back(table, &token).await;
        for k in ["hand", "total", "chips", "discard", "round"] {
            assert_eq!(resumed[k], before[k], "{k} after a restart");
        }
        server.stop().await;
        let _ = std::fs::remove_dir_all(db.parent().expect("a folder"));
    });
}
