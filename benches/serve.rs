//! `ninety serve` under load on the loopback: the release binary serving, as a user runs it
//! (its tables in a SQLite file, every move written to the disk before it is told), and this
//! process playing many tables at once, each with two simulated people and a bot. A person
//! moves a think time after it is their turn; the figure is the time from a move sent to
//! every person of the table holding its update: the median and the 99th percentile, and the
//! server's memory a table (its resident size with the tables open, less its size before).
//! Bounded: so many moves a table, then it stops.
//!
//! ```text
//! cargo bench --bench serve                                   # 500 tables
//! NINETY_BENCH_TABLES=100 NINETY_BENCH_THINK_MS=200 cargo bench --bench serve
//! NINETY_BENCH_MEMORY=1 cargo bench --bench serve             # no disk: the store's share
//! ```

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string().into()))
        .await
        .expect("sends");
}

async fn until(ws: &mut Ws, ty: &str) -> Value {
    loop {
        match ws.next().await {
            Some(Ok(Message::Text(t))) => {
                let v: Value = serde_json::from_str(&t).expect("JSON");
                if v["type"] == ty {
                    return v;
                }
            }
            Some(Ok(_)) => {}
            other => panic!("the server closed the connection waiting for `{ty}`: {other:?}"),
        }
    }
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

/// One table: two people and a bot, `moves` moves by people (or to the game's end).
async fn table(
    url: String,
    think: Duration,
    moves: u64,
    ready: Arc<tokio::sync::Barrier>,
    times: Arc<Mutex<Vec<Duration>>>,
) {
    let (mut a, _) = tokio_tungstenite::connect_async(url.as_str())
        .await
        .expect("connects");
    send(
        &mut a,
        json!({"type": "open", "ruleset": "ninety-nine", "seats": ["person", "person", "cautious"]}),
    )
    .await;
    let t = until(&mut a, "seated").await["table"].clone();
    let (mut b, _) = tokio_tungstenite::connect_async(url.as_str())
        .await
        .expect("connects");
    send(&mut b, json!({"type": "join", "table": t})).await;
    until(&mut b, "seated").await;
    let mut ma = loop {
        let m = until(&mut a, "table").await;
        if m["started"] == true {
            break m;
        }
    };
    let mut mb = until(&mut b, "table").await;
    ready.wait().await;
    let mut jitter = t.as_u64().unwrap_or(1);
    for _ in 0..moves {
        if ma["over"] == true {
            break;
        }
        let (mover, msg) = match ma["waiting_on"].as_u64() {
            Some(0) => (&mut a, &ma),
            Some(1) => (&mut b, &mb),
            _ => break,
        };
        let text = msg["moves"][0]["send"].as_str().unwrap_or("").to_string();
        // People do not all move on the same millisecond: a think time of a half to one and a
        // half times the given one, drawn from the table's own numbers.
        jitter = jitter
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let share = 0.5 + (jitter >> 11) as f64 / (1u64 << 53) as f64;
        tokio::time::sleep(think.mul_f64(share)).await;
        let t0 = Instant::now();
        send(mover, json!({"type": "move", "text": text})).await;
        ma = until(&mut a, "table").await;
        mb = until(&mut b, "table").await;
        times.lock().expect("times").push(t0.elapsed());
    }
}

fn main() {
    let tables = env_or("NINETY_BENCH_TABLES", 500);
    let think = Duration::from_millis(env_or("NINETY_BENCH_THINK_MS", 1_000));
    let moves = env_or("NINETY_BENCH_MOVES", 20);
    let dir = std::env::temp_dir().join(format!("ninety-serve-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let memory = std::env::var_os("NINETY_BENCH_MEMORY").is_some_and(|v| v == "1");
    let mut server = Command::new(env!("CARGO_BIN_EXE_ninety"));
    server.args(["serve", "--port", "0"]);
    if memory {
        server.arg("--memory");
    } else {
        server.arg("--db").arg(dir.join("tables.db"));
    }
    let mut server = server
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let pid = server.id();
    let mut line = String::new();
    BufReader::new(server.stdout.take().expect("its output"))
        .read_line(&mut line)
        .expect("its first line");
    let at = line.find("http://").expect("an address") + "http://".len();
    let host = line[at..].split('/').next().expect("a host").to_string();
    let url = format!("ws://{host}/ws");
    let before = rss_kib(pid);

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let times = Arc::new(Mutex::new(Vec::new()));
    let ready = Arc::new(tokio::sync::Barrier::new(tables as usize + 1));
    let started = Instant::now();
    let opened_rss = runtime.block_on(async {
        let mut tasks = Vec::new();
        for _ in 0..tables {
            tasks.push(tokio::spawn(table(
                url.clone(),
                think,
                moves,
                Arc::clone(&ready),
                Arc::clone(&times),
            )));
        }
        ready.wait().await;
        let opened = rss_kib(pid);
        for t in tasks {
            t.await.expect("a table plays");
        }
        opened
    });
    let took = started.elapsed();
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);

    let mut t = times.lock().expect("times").clone();
    t.sort();
    let at = |q: f64| t[((t.len() as f64 - 1.0) * q).round() as usize];
    println!(
        "tables kept {}",
        if memory {
            "in memory (--memory)"
        } else {
            "in a SQLite file, synchronous=FULL"
        }
    );
    println!(
        "{tables} tables, two people and a bot each, a move {} ms after each turn, {} moves by people in {:.1} s",
        think.as_millis(),
        t.len(),
        took.as_secs_f64()
    );
    println!(
        "move to every person's update: median {:.1} ms, 99th percentile {:.1} ms, slowest {:.1} ms",
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        at(1.0).as_secs_f64() * 1e3
    );
    println!(
        "server memory: {} MiB at start, {} MiB with the tables open: {:.0} KiB a table",
        before / 1024,
        opened_rss / 1024,
        opened_rss.saturating_sub(before) as f64 / tables as f64
    );
}
