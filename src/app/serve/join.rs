//! `ninety join URL`: a served table played at the terminal. It sits down (or comes back to
//! its seat with the token after `#`), prints what its seat is told, and sends each line
//! typed as a move; the server decides, as it does for the page.

use std::io::{BufRead, Write};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use crate::app::commands::{FAILED, OK};

/// Where a table's link points: the server's WebSocket, the table, and a seat's token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The table's page, `http://HOST:PORT/t/N`.
    pub page: String,
    pub socket: String,
    pub table: i64,
    pub token: Option<String>,
}

/// Reads a table's link: `http://HOST:PORT/t/N`, with `#TOKEN` to come back to a seat.
pub fn parse_link(url: &str) -> Result<Link, String> {
    let bad = || {
        format!(
            "`{url}` is not a table's link: it looks like http://127.0.0.1:9999/t/3 (the page of the table shows it)"
        )
    };
    let (rest, token) = match url.trim().split_once('#') {
        Some((r, t)) if !t.is_empty() => (r, Some(t.to_string())),
        Some((r, _)) => (r, None),
        None => (url.trim(), None),
    };
    let host_path = if let Some(r) = rest.strip_prefix("http://") {
        r
    } else if rest.starts_with("https://") {
        return Err(format!(
            "`{url}`: `ninety join` speaks plain http only; for a server behind https, open the link in a browser"
        ));
    } else {
        return Err(bad());
    };
    let (host, path) = host_path.split_once('/').ok_or_else(bad)?;
    let table = path
        .strip_prefix("t/")
        .map(|t| t.trim_end_matches('/'))
        .and_then(|t| t.split('?').next())
        .and_then(|t| t.parse::<i64>().ok())
        .ok_or_else(bad)?;
    if host.is_empty() || token.as_ref().is_some_and(|t| t.len() > 64) {
        return Err(bad());
    }
    Ok(Link {
        page: format!("http://{host}/t/{table}"),
        socket: format!("ws://{host}/ws"),
        table,
        token,
    })
}

/// What the terminal shows of one message from the server (`seat`: ours, once seated).
pub fn render(msg: &Value, link: &Link, seat: &mut Option<u8>) -> String {
    let s = |k: &str| msg.get(k).and_then(Value::as_str).unwrap_or("");
    let mut out = String::new();
    match s("type") {
        "seated" => {
            *seat = msg.get("seat").and_then(Value::as_u64).map(|x| x as u8);
            let n = seat.map_or(0, |x| u32::from(x) + 1);
            out.push_str(&format!(
                "You sit at seat {n} of table {}. To come back to it: ninety join {}#{}\n",
                link.table,
                link.page,
                s("token")
            ));
        }
        "watching" => out.push_str(&format!("You watch table {}.\n", link.table)),
        "refused" => {
            out.push_str(&format!("Not played: {}\n", s("why")));
            if let Some(m) = msg.get("moves").and_then(Value::as_array)
                && !m.is_empty()
            {
                let list: Vec<&str> = m.iter().filter_map(Value::as_str).collect();
                out.push_str(&format!("Your moves: {}\n", list.join(", ")));
            }
        }
        "error" => out.push_str(&format!("error: {}\n", s("why"))),
        "table" => table_text(msg, &mut out),
        _ => {}
    }
    out
}

fn table_text(msg: &Value, out: &mut String) {
    let list = |k: &str| -> Vec<String> {
        msg.get(k)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    for e in list("events") {
        out.push_str(&format!("  {e}\n"));
    }
    if let Some(n) = msg.get("notice").and_then(Value::as_str) {
        out.push_str(&format!("* {n}\n"));
    }
    let seats = msg
        .get("seats")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if msg.get("started") != Some(&Value::Bool(true)) {
        let taken = seats
            .iter()
            .filter(|x| x.get("taken") == Some(&Value::Bool(true)))
            .count();
        out.push_str(&format!(
            "Waiting for players: {taken} of {} seats taken.\n",
            seats.len()
        ));
        return;
    }
    if msg.get("over") == Some(&Value::Bool(true)) {
        let outcome = msg.get("outcome").and_then(Value::as_str).unwrap_or("");
        out.push_str(&format!("{outcome}\n"));
        return;
    }
    let total = msg.get("total").and_then(Value::as_i64).unwrap_or(0);
    let chips: Vec<String> = msg
        .get("chips")
        .and_then(Value::as_array)
        .map(|a| a.iter().map(ToString::to_string).collect())
        .unwrap_or_default();
    let hand = list("hand");
    out.push_str(&format!("Total {total}. Chips {}.", chips.join(" ")));
    if !hand.is_empty() {
        out.push_str(&format!(" Your hand: {}.", hand.join(" ")));
    }
    out.push('\n');
    let moves: Vec<String> = msg
        .get("moves")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|m| m.get("send").and_then(Value::as_str).map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let me = msg.get("seat").and_then(Value::as_u64);
    match msg.get("waiting_on").and_then(Value::as_u64) {
        Some(w) if Some(w) == me => {
            out.push_str(&format!("Your move: {}\n", moves.join(", ")));
        }
        Some(w) => out.push_str(&format!("Waiting for Seat {}.\n", w + 1)),
        None => {}
    }
}

/// The words that leave the table.
fn is_quit(line: &str) -> bool {
    matches!(line.trim(), "quit" | "q" | "exit")
}

/// `ninety join URL`.
pub fn run(url: &str, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let link = match parse_link(url) {
        Ok(l) => l,
        Err(why) => {
            let _ = writeln!(err, "error: {why}");
            return FAILED;
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            return FAILED;
        }
    };
    runtime.block_on(play(&link, out, err))
}

async fn play(link: &Link, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let ws = match tokio_tungstenite::connect_async(link.socket.as_str()).await {
        Ok((ws, _)) => ws,
        Err(e) => {
            let _ = writeln!(err, "error: cannot reach the table at {}: {e}", link.socket);
            return FAILED;
        }
    };
    let (mut tx, mut rx) = ws.split();
    let first = match &link.token {
        Some(token) => json!({"type": "back", "table": link.table, "token": token}),
        None => json!({"type": "join", "table": link.table}),
    };
    if tx
        .send(Message::Text(first.to_string().into()))
        .await
        .is_err()
    {
        let _ = writeln!(err, "error: the server closed the connection");
        return FAILED;
    }
    let (lines_tx, mut lines) = tokio::sync::mpsc::channel::<String>(16);
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if lines_tx.blocking_send(line).is_err() {
                break;
            }
        }
    });
    let mut seat = None;
    let mut tried_watch = false;
    loop {
        tokio::select! {
            msg = rx.next() => match msg {
                Some(Ok(Message::Text(t))) => {
                    let Ok(v) = serde_json::from_str::<Value>(&t) else { continue };
                    // A table with every seat taken: watch it instead.
                    if v.get("type").and_then(Value::as_str) == Some("refused")
                        && seat.is_none()
                        && !tried_watch
                        && link.token.is_none()
                    {
                        tried_watch = true;
                        let why = v.get("why").and_then(Value::as_str).unwrap_or("");
                        let _ = writeln!(out, "{}", crate::base::text::escape(why));
                        let watch = json!({"type": "watch", "table": link.table}).to_string();
                        let _ = tx.send(Message::Text(watch.into())).await;
                        continue;
                    }
                    // Whatever the server says (names, labels, words a stranger wrote) reaches
                    // the terminal with its control characters made visible, never obeyed.
                    let said = render(&v, link, &mut seat);
                    let _ = write!(out, "{}", crate::base::text::escape_lines(&said));
                    let _ = out.flush();
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => {
                    let _ = writeln!(out, "The server closed the connection.");
                    return OK;
                }
                Some(Ok(_)) => {}
            },
            line = lines.recv() => match line {
                None => return OK,
                Some(l) if is_quit(&l) => {
                    let _ = writeln!(out, "You leave the table; your seat waits for you.");
                    let _ = tx.close().await;
                    return OK;
                }
                Some(l) if l.trim().is_empty() => {}
                Some(l) => {
                    let m = json!({"type": "move", "text": l.trim()}).to_string();
                    if tx.send(Message::Text(m.into())).await.is_err() {
                        let _ = writeln!(out, "The server closed the connection.");
                        return OK;
                    }
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_link_is_read_or_refused_with_its_shape() {
        assert_eq!(
            parse_link("http://127.0.0.1:9999/t/3"),
            Ok(Link {
                page: "http://127.0.0.1:9999/t/3".into(),
                socket: "ws://127.0.0.1:9999/ws".into(),
                table: 3,
                token: None
            })
        );
        assert_eq!(
            parse_link("http://h:1/t/12#abc").map(|l| (l.table, l.token)),
            Ok((12, Some("abc".into())))
        );
        for bad in [
            "",
            "ftp://x/t/1",
            "http://x/t/",
            "http://x/t/a",
            "http://x",
            "https://x/t/1",
        ] {
            assert!(parse_link(bad).is_err(), "{bad}");
        }
    }
}
