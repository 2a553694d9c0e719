//! One WebSocket connection: messages read and handed to the [`Hall`](super::hall::Hall),
//! what it answers queued for the connection. Each limit of `base/limits.rs` on a client is
//! kept here: the size of a message, the messages in a row that play no move, the
//! connections at once, the tables one connection opens.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};

use super::App;
use super::hall::{At, Outbox};
use super::wire::{self, In};
use crate::base::limits::{SERVE_IDLE_MESSAGES, SERVE_MESSAGE_BYTES, SERVE_TABLES_OPENED};

pub async fn upgrade(
    ws: WebSocketUpgrade,
    headers: HeaderMap,
    State(app): State<Arc<App>>,
) -> Response {
    // A browser says which page opens the socket: only the server's own page may. A page of
    // another site open in the same browser would otherwise sit at a friend's table.
    if !same_origin(&headers) {
        return (
            StatusCode::FORBIDDEN,
            "a page of another site may not open a table here: open the server's own page",
        )
            .into_response();
    }
    // Small buffers: a table's message is a few kilobytes, and a server holds thousands of
    // connections (each buffer grows for a bigger message, up to the limit).
    ws.max_message_size(SERVE_MESSAGE_BYTES)
        .max_frame_size(SERVE_MESSAGE_BYTES)
        .read_buffer_size(4 * 1024)
        .write_buffer_size(4 * 1024)
        .on_upgrade(move |socket| connection(socket, app))
}

/// Whether a socket's handshake comes from the server's own page: no `Origin` (a client that
/// is not a browser, such as `ninety join`), or one whose host and port are the `Host` the
/// request was sent to. Browsers always send `Origin` on a WebSocket handshake and a page
/// cannot forge it.
pub fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let (Ok(origin), Some(Ok(host))) = (
        origin.to_str(),
        headers.get(header::HOST).map(|h| h.to_str()),
    ) else {
        return false;
    };
    let Some(rest) = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
    else {
        return false;
    };
    rest.trim_end_matches('/').eq_ignore_ascii_case(host.trim())
}

/// In `away`, a bot plays for `seat` of `table` if its person has not come back.
pub fn away_later(app: Arc<App>, table: i64, seat: u8, gone: u64) {
    tokio::spawn(async move {
        tokio::time::sleep(app.away).await;
        let _ = tokio::task::spawn_blocking(move || app.hall.away(table, seat, gone)).await;
    });
}

/// A connection's state between its messages.
struct Conn {
    id: u64,
    out: Outbox,
    at: Option<At>,
    /// Messages in a row that played no move.
    idle: usize,
    opened: usize,
}

async fn connection(socket: WebSocket, app: Arc<App>) {
    let (mut sink, mut stream) = socket.split();
    let most = app.hall.caps.connections;
    if app.connections.fetch_add(1, Ordering::SeqCst) >= most {
        app.connections.fetch_sub(1, Ordering::SeqCst);
        let why = format!(
            "the server holds {most} connections already, the most it takes: try again later"
        );
        let _ = sink.send(Message::Text(wire::error(&why).into())).await;
        let _ = sink.close().await;
        return;
    }
    let (out, mut rx) = super::outbox::outbox();
    let writer = tokio::spawn(async move {
        while let Some(m) = rx.recv().await {
            if sink.send(Message::Text(m.into())).await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let mut c = Conn {
        id: app.hall.connection(),
        out,
        at: None,
        idle: 0,
        opened: 0,
    };
    while let Some(msg) = stream.next().await {
        let text = match msg {
            Ok(Message::Text(t)) => t.to_string(),
            Ok(Message::Binary(_)) => {
                let _ = c
                    .out
                    .send(wire::error("messages are JSON text, not binary"))
                    .await;
                c.idle += 1;
                if too_many(&c).await {
                    break;
                }
                continue;
            }
            Ok(Message::Ping(_) | Message::Pong(_)) => continue,
            Ok(Message::Close(_)) => break,
            Err(e) => {
                let _ = c.out.send(wire::error(&closed_words(e))).await;
                break;
            }
        };
        c.idle += 1;
        handle(&app, &mut c, &text).await;
        if too_many(&c).await {
            break;
        }
    }
    leave(&app, &c).await;
    drop(c);
    let _ = writer.await;
    app.connections.fetch_sub(1, Ordering::SeqCst);
}

/// Whether the connection sent [`SERVE_IDLE_MESSAGES`] in a row that played nothing: it is
/// told why, and closed.
async fn too_many(c: &Conn) -> bool {
    if c.idle < SERVE_IDLE_MESSAGES {
        return false;
    }
    let why = format!(
        "{SERVE_IDLE_MESSAGES} messages in a row played no move: the connection is closed (open the page again to come back)"
    );
    let _ = c.out.send(wire::error(&why)).await;
    true
}

async fn leave(app: &Arc<App>, c: &Conn) {
    let Some(at) = c.at else { return };
    let (hall_app, id) = (Arc::clone(app), c.id);
    let left = tokio::task::spawn_blocking(move || hall_app.hall.leave(at, id))
        .await
        .ok()
        .flatten();
    if let Some((seat, gone)) = left {
        away_later(Arc::clone(app), at.table, seat, gone);
    }
}

async fn handle(app: &Arc<App>, c: &mut Conn, text: &str) {
    let msg: In = match serde_json::from_str(text) {
        Ok(m) => m,
        Err(e) => {
            let _ = c
                .out
                .send(wire::error(&format!(
                    "a message not understood ({e}); docs/serve.md lists the messages"
                )))
                .await;
            return;
        }
    };
    // A connection is at one table at a time: sitting or watching elsewhere leaves it.
    if matches!(
        msg,
        In::Open { .. } | In::Join { .. } | In::Back { .. } | In::Watch { .. }
    ) && c.at.is_some()
    {
        leave(app, c).await;
        c.at = None;
    }
    if matches!(msg, In::Open { .. }) {
        if c.opened >= SERVE_TABLES_OPENED {
            let why = format!("one connection may open at most {SERVE_TABLES_OPENED} tables");
            let _ = c.out.send(wire::error(&why)).await;
            return;
        }
        c.opened += 1;
    }
    let hall_app = Arc::clone(app);
    let (id, out, at) = (c.id, c.out.clone(), c.at);
    let done = tokio::task::spawn_blocking(move || {
        let hall = &hall_app.hall;
        match msg {
            In::Open {
                ruleset,
                source,
                sets,
                seats,
            } => Reply::At(hall.open(ruleset.as_deref(), source, sets, &seats, id, &out)),
            In::Join { table } => Reply::At(hall.join(table, id, &out)),
            In::Back { table, token } => Reply::At(hall.back(table, &token, id, &out)),
            In::Watch { table } => Reply::At(hall.watch(table, id, &out)),
            In::Move { text } => match at {
                None => Reply::Refused(wire::refused(
                    "sit at a table first (`join`, `back` or `open`)",
                    &[],
                )),
                Some(at) => match hall.play(at, &text) {
                    Ok(()) => Reply::Played,
                    Err(n) => Reply::Refused(wire::refused(&n.why, &n.moves)),
                },
            },
            In::Replay => match at {
                None => Reply::Refused(wire::refused("watch or join a table first", &[])),
                Some(at) => match hall.replay(at.table) {
                    Ok(m) => Reply::Send(m),
                    Err(why) => Reply::Refused(wire::refused(&why, &[])),
                },
            },
        }
    })
    .await;
    match done {
        Ok(Reply::At(Ok(at))) => c.at = Some(at),
        Ok(Reply::At(Err(why))) => {
            let _ = c.out.send(wire::refused(&why, &[])).await;
        }
        Ok(Reply::Played) => c.idle = 0,
        Ok(Reply::Refused(m) | Reply::Send(m)) => {
            let _ = c.out.send(m).await;
        }
        Err(_) => {
            let _ = c
                .out
                .send(wire::error("the server failed on that message"))
                .await;
        }
    }
}

enum Reply {
    At(Result<At, String>),
    Played,
    Refused(String),
    Send(String),
}

/// Why a connection is closed: the protocol error, and the size allowed where the size is
/// what went wrong.
fn closed_words(e: axum::Error) -> String {
    let said = e.to_string();
    let inner = e.into_inner();
    let too_big = match inner.downcast_ref::<tokio_tungstenite::tungstenite::Error>() {
        Some(tokio_tungstenite::tungstenite::Error::Capacity(_)) => true,
        Some(_) => false,
        // Told some other way: by its words.
        None => said.contains("Space limit exceeded"),
    };
    if too_big {
        format!(
            "the connection is closed: {said} (a message may be at most {} bytes)",
            crate::base::limits::grouped(SERVE_MESSAGE_BYTES as u64)
        )
    } else {
        format!("the connection is closed: {said}")
    }
}
