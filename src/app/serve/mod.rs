//! `ninety serve`: friends at one table, each at their own screen (docs/serve.md). One
//! process: the table page, a WebSocket API, and the tables kept in a SQLite file. The
//! sockets ([`socket`]) only carry messages; what is played, and who is told what, is
//! decided by the [`hall::Hall`], the same way for every client.

pub mod hall;
pub mod join;
pub mod outbox;
mod socket;
pub mod wire;

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::header;
use axum::response::{Html, IntoResponse};
use axum::routing::get;
use serde_json::json;

use crate::app::store::{Sqlite, Store};
use hall::Hall;

/// How a server is started.
#[derive(Debug, Clone)]
pub struct Config {
    pub listen: SocketAddr,
    /// The table store's file; `None` keeps tables in memory only.
    pub db: Option<PathBuf>,
    /// How long a person may be gone, when it is their move, before a bot plays for them.
    pub away: Duration,
    /// Every table dealt from this seed (tests; tables to be played again), not at random.
    pub seed: Option<u64>,
}

/// What every connection shares.
#[derive(Debug)]
pub struct App {
    pub hall: Hall,
    pub away: Duration,
    pub connections: AtomicUsize,
    rulesets: String,
}

const INDEX: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/table.js");
const STYLE: &str = include_str!("page/table.css");

/// The shipped rulesets a table may play, with what the page's form needs of each.
fn rulesets_json() -> String {
    let list: Vec<serde_json::Value> = crate::compile::SHIPPED
        .iter()
        .filter_map(|(name, _)| {
            let p = crate::app::load::load_program(&crate::compile::Shipped, name, &[]).ok()?;
            Some(json!({
                "name": name,
                "title": p.name,
                "about": p.about,
                "min_players": p.min_players,
                "max_players": p.max_players,
                "options": p.options.iter().map(|o| json!({"name": o.name, "default": o.default.to_string()})).collect::<Vec<_>>(),
            }))
        })
        .collect();
    json!({"rulesets": list, "bots": hall::bot_names()}).to_string()
}

impl App {
    /// A server's shared part over `store`, its kept tables played again.
    pub fn new(
        store: Box<dyn Store + Send>,
        away: Duration,
    ) -> Result<(App, hall::Resumed), String> {
        App::with_caps(store, away, hall::Caps::default(), None)
    }

    /// [`App::new`] with other limits (tests).
    pub fn with_caps(
        store: Box<dyn Store + Send>,
        away: Duration,
        caps: hall::Caps,
        seed: Option<u64>,
    ) -> Result<(App, hall::Resumed), String> {
        let mut hall = Hall::with_caps(store, caps);
        if let Some(seed) = seed {
            hall = hall.seeded(seed);
        }
        let resumed = hall.resume()?;
        Ok((
            App {
                hall,
                away,
                connections: AtomicUsize::new(0),
                rulesets: rulesets_json(),
            },
            resumed,
        ))
    }
}

/// The server's routes over `app`.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/t/{id}", get(index))
        .route("/table.js", get(script))
        .route("/table.css", get(style))
        .route("/api/rulesets", get(rulesets))
        .route("/ws", get(socket::upgrade))
        .with_state(app)
}

async fn index() -> Html<&'static str> {
    Html(INDEX)
}

async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        SCRIPT,
    )
}

async fn style() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE)
}

async fn rulesets(State(app): State<Arc<App>>) -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/json")],
        app.rulesets.clone(),
    )
}

/// After a start nobody is connected: each person of a game in play is checked for absence
/// once `away` has passed, as if they had just left.
pub fn check_absent(app: &Arc<App>, absent: Vec<(i64, u8)>) {
    for (table, seat) in absent {
        if let Some(gone) = app.hall.gone(table, seat) {
            socket::away_later(Arc::clone(app), table, seat, gone);
        }
    }
}

/// Serves on `listener` until `stop` resolves.
pub async fn serve_on(
    listener: tokio::net::TcpListener,
    app: Arc<App>,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let served = axum::serve(
        listener,
        router(app.clone()).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(stop)
    .await;
    // Stopped: the store's file is let go, whatever tasks are still about.
    app.hall.close();
    served
}

/// `ninety serve`: opens the store, plays its tables again, listens, and says where to go.
pub fn run(cfg: &Config, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let fail = |err: &mut dyn Write, why: String| {
        let _ = writeln!(err, "error: {why}");
        crate::app::commands::FAILED
    };
    let store: Box<dyn Store + Send> = match &cfg.db {
        Some(path) => match Sqlite::open_file(path) {
            Ok(s) => Box::new(s),
            Err(why) => return fail(err, why),
        },
        None => match Sqlite::in_memory() {
            Ok(s) => Box::new(s),
            Err(why) => return fail(err, why),
        },
    };
    let (app, resumed) = match App::with_caps(store, cfg.away, hall::Caps::default(), cfg.seed) {
        Ok(x) => x,
        Err(why) => return fail(err, why),
    };
    for p in &resumed.problems {
        let _ = writeln!(err, "warning: {p}: it is left as it is in the store");
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => return fail(err, format!("cannot start the server: {e}")),
    };
    let app = Arc::new(app);
    runtime.block_on(async {
        let listener = match tokio::net::TcpListener::bind(cfg.listen).await {
            Ok(l) => l,
            Err(e) => {
                return fail(
                    err,
                    format!(
                        "cannot listen on {}: {e} (another port: `--port`)",
                        cfg.listen
                    ),
                );
            }
        };
        let addr = listener.local_addr().unwrap_or(cfg.listen);
        let kept = match &cfg.db {
            Some(p) => format!("tables kept in {}", p.display()),
            None => "tables kept in memory only".to_string(),
        };
        let _ = writeln!(
            out,
            "ninety serve: open http://{addr}/ ({kept}; {} table{} read back). Ctrl-C stops it.",
            resumed.tables,
            if resumed.tables == 1 { "" } else { "s" }
        );
        let _ = out.flush();
        check_absent(&app, resumed.absent);
        let stop = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        match serve_on(listener, app, stop).await {
            Ok(()) => crate::app::commands::OK,
            Err(e) => fail(err, format!("the server stopped: {e}")),
        }
    })
}
