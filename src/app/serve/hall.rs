//! The server's tables and who is at them: the part of `ninety serve` that decides, with no
//! network in it (the sockets call it, tests call it directly). Each table is a [`Seating`]
//! behind its own lock: its ruleset, the seats taken, the connections at it, and, once every
//! seat for a person is taken, the [`Table`] that plays it. Every change is kept in the
//! [`Store`] before any connection is told of it, and each connection is told only what its
//! seat may see ([`wire::table_message`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::wire;
use crate::app::store::{Kept, Opened, Store};
use crate::app::table::{Refused, Sitter, Table};
use crate::base::limits::{
    RULESET_BYTES, SAVE_SETS, SERVE_CONNECTIONS, SERVE_REPLAY_BYTES, SERVE_REPLAY_STEPS,
    SERVE_TABLES, SERVE_WATCHERS,
};
use crate::compile::{Memory, Shipped};
use crate::engine::Event;
use crate::play::{Bot, Ruleset};

pub use super::outbox::Outbox;

/// A connection at a table.
#[derive(Debug)]
struct Conn {
    id: u64,
    seat: Option<u8>,
    out: Outbox,
}

/// One table: who sits where, who is connected, and the game once it has started.
#[derive(Debug)]
pub struct Seating {
    pub(super) id: i64,
    pub(super) opened: Opened,
    /// The ruleset's name as its file gives it.
    pub(super) title: String,
    ruleset: Ruleset,
    pub(super) claimed: Vec<bool>,
    /// Connections at each seat.
    pub(super) here: Vec<u32>,
    /// Seats whose absent person a bot plays for.
    pub(super) stand_in: Vec<bool>,
    /// Each seat's count of comings and goings: an away check made before the last one is
    /// out of date.
    gone: Vec<u64>,
    pub(super) table: Option<Table>,
    conns: Vec<Conn>,
    /// The table's last word (someone left, came back, is played by a bot).
    pub(super) notice: Option<String>,
}

/// A connection's place after it sat down or began to watch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct At {
    pub table: i64,
    pub seat: Option<u8>,
}

/// The limits a server keeps on its clients: those of `base/limits.rs` unless a test lowers
/// them, so that each is seen to hold without thousands of connections.
#[derive(Debug, Clone, Copy)]
pub struct Caps {
    pub connections: usize,
    pub tables: usize,
    pub watchers: usize,
    pub replay_steps: usize,
    /// The most bytes of steps one replay sends.
    pub replay_bytes: usize,
}

impl Default for Caps {
    fn default() -> Caps {
        Caps {
            connections: SERVE_CONNECTIONS,
            tables: SERVE_TABLES,
            watchers: SERVE_WATCHERS,
            replay_steps: SERVE_REPLAY_STEPS,
            replay_bytes: SERVE_REPLAY_BYTES,
        }
    }
}

/// Every table of a server, and where they are kept.
pub struct Hall {
    tables: Mutex<HashMap<i64, Arc<Mutex<Seating>>>>,
    store: Mutex<Box<dyn Store + Send>>,
    next_conn: AtomicU64,
    pub caps: Caps,
    /// The server's seed, when it was given one (`serve --seed`): each table's deal follows
    /// from it and the count of tables opened before it. Without one, each table's seed is
    /// random.
    seed: Option<u64>,
    opened: AtomicU64,
}

impl std::fmt::Debug for Hall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hall").finish_non_exhaustive()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while a table was locked leaves it as the last finished change made it.
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// 128 random bits from the operating system, as hex: a seat's token.
fn token() -> Result<String, String> {
    let mut b = [0u8; 16];
    getrandom::fill(&mut b).map_err(|e| format!("no random numbers to be had: {e}"))?;
    Ok(b.iter().map(|x| format!("{x:02x}")).collect())
}

fn random_seed() -> Result<u64, String> {
    let mut b = [0u8; 8];
    getrandom::fill(&mut b).map_err(|e| format!("no random numbers to be had: {e}"))?;
    Ok(u64::from_le_bytes(b))
}

/// The bots a table may seat: the built-in ones by name (and level), each at its own
/// strength (`ismcts:N`, whose N a stranger would choose, is not taken).
pub fn bot_names() -> Vec<&'static str> {
    Bot::LEVELS
        .iter()
        .map(|(level, _)| *level)
        .chain(Bot::NAMES)
        .collect()
}

/// The ruleset a table plays: a shipped one by name, or a text given (read from memory
/// alone: its parents are shipped rulesets, it reads no file), checked as `ninety check`
/// checks it.
fn compile(opened: &Opened) -> Result<Ruleset, String> {
    use crate::app::load::{NotLoaded, load_checked};
    let words = |e: NotLoaded| match e {
        NotLoaded::Unreadable(w) | NotLoaded::BadSet(w) | NotLoaded::DoesNotCheck(w) => w,
    };
    match &opened.source {
        None => {
            if crate::compile::shipped(&opened.ruleset).is_none() {
                return Err(format!(
                    "no shipped ruleset `{}`; the shipped rulesets are {}",
                    opened.ruleset,
                    crate::compile::SHIPPED
                        .iter()
                        .map(|(n, _)| *n)
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            load_checked(&Shipped, &opened.ruleset, &opened.sets).map_err(words)
        }
        Some(text) => {
            if text.len() > RULESET_BYTES {
                return Err(format!(
                    "the ruleset is {} bytes; a ruleset may be at most {} bytes",
                    text.len(),
                    crate::base::limits::grouped(RULESET_BYTES as u64)
                ));
            }
            let mut files = Memory::new();
            files.insert(UPLOAD, text.as_bytes().to_vec());
            load_checked(&files, UPLOAD, &opened.sets).map_err(|e| {
                format!(
                    "{}\n(a ruleset opened at a server is read alone: it may extend a shipped ruleset, and reads no other file)",
                    words(e)
                )
            })
        }
    }
}

/// The name a ruleset given as text is checked under.
const UPLOAD: &str = "your-ruleset.rules";

impl Seating {
    fn new(id: i64, opened: Opened, ruleset: Ruleset) -> Seating {
        let n = opened.sitters.len();
        Seating {
            id,
            title: ruleset.name.clone(),
            claimed: opened
                .sitters
                .iter()
                .map(|s| matches!(s, Sitter::Bot(_)))
                .collect(),
            here: vec![0; n],
            stand_in: vec![false; n],
            gone: vec![0; n],
            table: None,
            conns: Vec::new(),
            notice: None,
            opened,
            ruleset,
        }
    }

    /// Every seat for a person taken: the game begins (it is dealt from the table's seed).
    fn start_if_full(&mut self) -> Result<Vec<Event>, String> {
        if self.table.is_some() || !self.claimed.iter().all(|c| *c) {
            return Ok(Vec::new());
        }
        let (table, events) = Table::open(
            self.ruleset.clone(),
            self.opened.seed,
            self.opened.sitters.clone(),
        )?;
        self.table = Some(table);
        Ok(events)
    }

    fn over(&self) -> bool {
        self.table
            .as_ref()
            .is_some_and(|t| t.waiting_on().is_none())
    }

    /// Sends each connection its `table` message; one whose queue is full (it reads nothing)
    /// or gone is dropped from the table.
    fn tell(&mut self, events: &[Event]) {
        let mut dropped = Vec::new();
        for c in &self.conns {
            let msg = wire::table_message(self, c.seat, events).to_string();
            if c.out.try_send(msg).is_err() {
                dropped.push(c.id);
            }
        }
        for id in dropped {
            self.remove(id);
        }
    }

    fn remove(&mut self, conn: u64) -> Option<Option<u8>> {
        let i = self.conns.iter().position(|c| c.id == conn)?;
        let c = self.conns.swap_remove(i);
        if let Some(seat) = c.seat
            && let Some(n) = self.here.get_mut(usize::from(seat))
        {
            *n = n.saturating_sub(1);
        }
        Some(c.seat)
    }

    fn attach(
        &mut self,
        conn: u64,
        seat: Option<u8>,
        out: Outbox,
        caps: Caps,
    ) -> Result<(), String> {
        if self.conns.len() >= caps.watchers {
            return Err(format!(
                "table {} has {} connections already, the most one table takes",
                self.id, caps.watchers
            ));
        }
        if let Some(seat) = seat {
            let i = usize::from(seat);
            let was_gone = self.here[i] == 0 && self.gone[i] > 0;
            self.here[i] += 1;
            self.gone[i] += 1;
            if std::mem::take(&mut self.stand_in[i]) || was_gone {
                self.notice = Some(format!("{} is back.", wire::seat_name(seat)));
            }
        }
        self.conns.push(Conn {
            id: conn,
            seat,
            out,
        });
        Ok(())
    }

    /// The bots standing in for absent people play until a person who is here is to move.
    fn stand_ins(&mut self, store: &Mutex<Box<dyn Store + Send>>, events: &mut Vec<Event>) {
        let Some(table) = &mut self.table else { return };
        while let Some(seat) = table.waiting_on()
            && self
                .stand_in
                .get(usize::from(seat))
                .copied()
                .unwrap_or(false)
        {
            let Some(mv) = table.stand_in(seat) else {
                return;
            };
            // Kept once it is known to play, before it is made or told.
            let Ok(ready) = table.ready(seat, &mv) else {
                return;
            };
            if lock(store).add_move(self.id, seat, &ready.name).is_err() {
                return;
            }
            events.extend(table.commit(ready));
        }
    }
}

/// The tables a start read back.
#[derive(Debug, Default)]
pub struct Resumed {
    /// How many play again.
    pub tables: usize,
    /// Those that could not be read back, and why.
    pub problems: Vec<String>,
    /// The seats of people in games in play, to be checked for absence.
    pub absent: Vec<(i64, u8)>,
}

/// A seat refused a move, in words, with the moves it may send.
#[derive(Debug)]
pub struct NotPlayed {
    pub why: String,
    pub moves: Vec<String>,
}

impl Hall {
    pub fn new(store: Box<dyn Store + Send>) -> Hall {
        Hall::with_caps(store, Caps::default())
    }

    pub fn with_caps(store: Box<dyn Store + Send>, caps: Caps) -> Hall {
        Hall {
            tables: Mutex::new(HashMap::new()),
            store: Mutex::new(store),
            next_conn: AtomicU64::new(1),
            caps,
            seed: None,
            opened: AtomicU64::new(0),
        }
    }

    /// Deals every table from `seed` (and the count of tables opened before it): the same
    /// moves give the same games, for tests and for tables to be played again.
    /// Lets the store go (its file free for the next server): what is played after this is
    /// not kept.
    pub fn close(&self) {
        *lock(&self.store) = Box::new(crate::app::store::Closed);
    }

    pub fn seeded(mut self, seed: u64) -> Hall {
        self.seed = Some(seed);
        self
    }

    fn next_seed(&self) -> Result<u64, String> {
        let n = self.opened.fetch_add(1, Ordering::Relaxed);
        match self.seed {
            Some(seed) => Ok(seed ^ n.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15)),
            None => random_seed(),
        }
    }

    /// A number for a new connection.
    pub fn connection(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    fn seating(&self, table: i64) -> Result<Arc<Mutex<Seating>>, String> {
        lock(&self.tables)
            .get(&table)
            .cloned()
            .ok_or_else(|| format!("there is no table {table}"))
    }

    /// Every kept table, played again from its seed and its moves. Tables that cannot be
    /// read back are told in the list of problems, and the others go on. The seats of
    /// people to check for absence once the server listens (nobody is connected yet).
    pub fn resume(&self) -> Result<Resumed, String> {
        let kept = lock(&self.store).tables()?;
        let mut problems = Vec::new();
        let mut away = Vec::new();
        let mut n = 0;
        for k in kept {
            let k = match k {
                Ok(k) => k,
                Err(why) => {
                    problems.push(why);
                    continue;
                }
            };
            match resume_one(&k) {
                Ok(seating) => {
                    if seating.table.is_some() && !seating.over() {
                        for (i, s) in seating.opened.sitters.iter().enumerate() {
                            if matches!(s, Sitter::Person) {
                                away.push((k.id, i as u8));
                            }
                        }
                    }
                    lock(&self.tables).insert(k.id, Arc::new(Mutex::new(seating)));
                    n += 1;
                }
                Err(why) => problems.push(format!("table {}: {why}", k.id)),
            }
        }
        Ok(Resumed {
            tables: n,
            problems,
            absent: away,
        })
    }

    /// Opens a table; the connection takes its first seat for a person.
    pub fn open(
        &self,
        ruleset: Option<&str>,
        source: Option<String>,
        sets: Vec<(String, String)>,
        seats: &[String],
        conn: u64,
        out: &Outbox,
    ) -> Result<At, String> {
        let playing = lock(&self.tables)
            .values()
            .filter(|s| !lock(s).over())
            .count();
        if playing >= self.caps.tables {
            return Err(format!(
                "the server plays {} tables already, the most it takes: try again later",
                self.caps.tables
            ));
        }
        if sets.len() > SAVE_SETS {
            return Err(format!(
                "{} option values; a table takes at most {SAVE_SETS}",
                sets.len()
            ));
        }
        if seats.len() > crate::ir::MAX_SEATS {
            return Err(format!(
                "{} seats; a table has at most {}",
                seats.len(),
                crate::ir::MAX_SEATS
            ));
        }
        let sitters = seats
            .iter()
            .map(|s| match s.trim() {
                "person" => Ok(Sitter::Person),
                name if bot_names().contains(&name) => Ok(Sitter::Bot(name.to_string())),
                other => Err(format!(
                    "a seat is `person` or a bot: {}; not `{other}`",
                    bot_names().join(", ")
                )),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let Some(first) = sitters.iter().position(|s| matches!(s, Sitter::Person)) else {
            return Err("a table needs a seat for a person (`person`): yours".into());
        };
        let name = match (&ruleset, &source) {
            (Some(name), None) => name.to_string(),
            (None, Some(_)) => UPLOAD.to_string(),
            _ => return Err("give a shipped ruleset's name (`ruleset`) or a ruleset's text (`source`), one of the two".into()),
        };
        let tokens = sitters
            .iter()
            .map(|s| match s {
                Sitter::Person => token(),
                Sitter::Bot(_) => Ok(String::new()),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let opened = Opened {
            ruleset: name,
            source,
            sets,
            seed: self.next_seed()?,
            sitters,
            tokens,
        };
        let program = compile(&opened)?;
        program.check_players(opened.sitters.len())?;
        let id = {
            let mut store = lock(&self.store);
            let id = store.open(&opened)?;
            store.claim(id, first as u8)?;
            id
        };
        let mut seating = Seating::new(id, opened, program);
        seating.claimed[first] = true;
        let events = seating.start_if_full()?;
        let token = seating.opened.tokens[first].clone();
        let seating = Arc::new(Mutex::new(seating));
        lock(&self.tables).insert(id, Arc::clone(&seating));
        let mut s = lock(&seating);
        s.attach(conn, Some(first as u8), out.clone(), self.caps)?;
        let _ = out.try_send(wire::seated(id, first as u8, &token));
        let mut events = events;
        s.stand_ins(&self.store, &mut events);
        s.tell(&events);
        Ok(At {
            table: id,
            seat: Some(first as u8),
        })
    }

    /// Takes a free seat for a person at `table`.
    pub fn join(&self, table: i64, conn: u64, out: &Outbox) -> Result<At, String> {
        let seating = self.seating(table)?;
        let mut s = lock(&seating);
        let Some(free) = s.claimed.iter().position(|c| !c) else {
            return Err(format!(
                "table {table} has no free seat: watch it (`watch`), or come back to your seat with its token"
            ));
        };
        lock(&self.store).claim(table, free as u8)?;
        s.claimed[free] = true;
        s.notice = Some(format!("{} sits down.", wire::seat_name(free as u8)));
        s.attach(conn, Some(free as u8), out.clone(), self.caps)?;
        let token = s.opened.tokens[free].clone();
        let _ = out.try_send(wire::seated(table, free as u8, &token));
        let mut events = s.start_if_full()?;
        s.stand_ins(&self.store, &mut events);
        s.tell(&events);
        Ok(At {
            table,
            seat: Some(free as u8),
        })
    }

    /// Comes back to the seat whose token is `token`.
    pub fn back(&self, table: i64, token: &str, conn: u64, out: &Outbox) -> Result<At, String> {
        let unknown = || format!("no seat at table {table} has that token");
        let seating = self.seating(table).map_err(|_| unknown())?;
        let mut s = lock(&seating);
        let seat = s
            .opened
            .tokens
            .iter()
            .position(|t| !t.is_empty() && t == token)
            .filter(|&i| s.claimed[i])
            .ok_or_else(unknown)?;
        s.attach(conn, Some(seat as u8), out.clone(), self.caps)?;
        let _ = out.try_send(wire::seated(table, seat as u8, token));
        let mut events = Vec::new();
        s.stand_ins(&self.store, &mut events);
        s.tell(&events);
        Ok(At {
            table,
            seat: Some(seat as u8),
        })
    }

    /// Watches `table` as a spectator.
    pub fn watch(&self, table: i64, conn: u64, out: &Outbox) -> Result<At, String> {
        let seating = self.seating(table)?;
        let mut s = lock(&seating);
        s.attach(conn, None, out.clone(), self.caps)?;
        let _ = out.try_send(wire::watching(table));
        let msg = wire::table_message(&s, None, &[]).to_string();
        let _ = out.try_send(msg);
        Ok(At { table, seat: None })
    }

    /// `seat` of `table` sends `text`: kept, then played, then every connection told.
    pub fn play(&self, at: At, text: &str) -> Result<(), NotPlayed> {
        let plain = |why: String| NotPlayed {
            why,
            moves: Vec::new(),
        };
        let Some(seat) = at.seat else {
            return Err(plain("a spectator has no moves".into()));
        };
        let seating = self.seating(at.table).map_err(plain)?;
        let mut s = lock(&seating);
        let Some(table) = &mut s.table else {
            return Err(plain(
                "the game has not begun: it begins when every seat is taken".into(),
            ));
        };
        let offered = table.moves_for(seat);
        let Some(name) = offered
            .iter()
            .find(|m| m.eq_ignore_ascii_case(text.trim()))
            .cloned()
        else {
            return Err(match table.waiting_on() {
                Some(w) if w == seat => NotPlayed {
                    why: format!("`{}` is not one of your moves now", text.trim()),
                    moves: offered,
                },
                Some(w) => plain(format!("it is {}'s move", wire::seat_name(w))),
                None => plain("the game is over".into()),
            });
        };
        // Played on a copy first: a move that does not play is never kept.
        let ready = match table.ready(seat, &name) {
            Ok(ready) => ready,
            Err(Refused::Failed(why)) => return Err(plain(why)),
            Err(Refused::NotYourTurn { .. } | Refused::NotAMove { .. }) => {
                return Err(plain("that move was not played".into()));
            }
        };
        // Kept on the disk before it is made or told.
        lock(&self.store)
            .add_move(at.table, seat, &ready.name)
            .map_err(|e| {
                plain(format!(
                    "the server could not keep your move ({e}): try again"
                ))
            })?;
        let mut events = table.commit(ready);
        s.notice = None;
        s.stand_ins(&self.store, &mut events);
        s.tell(&events);
        Ok(())
    }

    /// The connection `conn` left `table`. The seat it sat in, with its count of comings and
    /// goings, when nobody is left at that seat (to be checked for absence later).
    pub fn leave(&self, at: At, conn: u64) -> Option<(u8, u64)> {
        let seating = self.seating(at.table).ok()?;
        let mut s = lock(&seating);
        let seat = s.remove(conn)??;
        let i = usize::from(seat);
        if s.here[i] > 0 {
            return None;
        }
        s.gone[i] += 1;
        if !s.over() {
            s.notice = Some(format!("{} left the table.", wire::seat_name(seat)));
            s.tell(&[]);
        }
        Some((seat, s.gone[i]))
    }

    /// `seat` of `table` has been away since its count was `gone`: if nobody came back, a
    /// bot plays for them from now on (the table says so).
    pub fn away(&self, table: i64, seat: u8, gone: u64) {
        let Ok(seating) = self.seating(table) else {
            return;
        };
        let mut s = lock(&seating);
        let i = usize::from(seat);
        if s.gone.get(i) != Some(&gone) || s.here[i] > 0 || s.table.is_none() || s.over() {
            return;
        }
        s.stand_in[i] = true;
        s.notice = Some(format!(
            "{} is away: a bot plays for them until they come back.",
            wire::seat_name(seat)
        ));
        let mut events = Vec::new();
        s.stand_ins(&self.store, &mut events);
        s.tell(&events);
    }

    /// The seat's count of comings and goings now (the first away check after a start).
    pub fn gone(&self, table: i64, seat: u8) -> Option<u64> {
        let seating = self.seating(table).ok()?;
        let s = lock(&seating);
        s.gone.get(usize::from(seat)).copied()
    }

    /// The game at `table` so far, as a spectator saw it: the deal, then a step for each
    /// move a person (or a bot standing in) made, at most [`Caps::replay_steps`] (the first).
    pub fn replay(&self, table: i64) -> Result<String, String> {
        let seating = self.seating(table)?;
        let (ruleset, opened, moves, title) = {
            let s = lock(&seating);
            let Some(t) = &s.table else {
                return Err("the game has not begun".into());
            };
            (
                s.ruleset.clone(),
                s.opened.clone(),
                t.moves().to_vec(),
                s.title.clone(),
            )
        };
        let mut view = Seating::new(table, opened.clone(), ruleset.clone());
        view.title = title;
        view.claimed.fill(true);
        // A replay is of the game, not of who is connected now: nobody is shown away.
        view.here.fill(1);
        let (t, events) = Table::open(ruleset, opened.seed, opened.sitters)?;
        view.table = Some(t);
        let first = wire::table_message(&view, None, &events);
        let mut bytes = first.to_string().len();
        let mut steps = vec![first];
        // The first steps, as many as the caps allow by count and by bytes.
        for m in moves.iter().take(self.caps.replay_steps.saturating_sub(1)) {
            let Some(t) = view.table.as_mut() else { break };
            let Some(seat) = t.waiting_on() else { break };
            let Ok(events) = t.play(seat, m) else { break };
            let step = wire::table_message(&view, None, &events);
            bytes = bytes.saturating_add(step.to_string().len());
            if bytes > self.caps.replay_bytes {
                break;
            }
            steps.push(step);
        }
        let cut = steps.len() < moves.len() + 1;
        Ok(
            serde_json::json!({"type": "replay", "table": table, "steps": steps, "cut": cut})
                .to_string(),
        )
    }
}

/// A kept table as it was: compiled again, its seats taken again, its moves played again
/// (up to the first that does not play, should the ruleset have changed under it).
fn resume_one(k: &Kept) -> Result<Seating, String> {
    let program = compile(&k.opened)?;
    let mut s = Seating::new(k.id, k.opened.clone(), program);
    for &c in &k.claimed {
        if let Some(x) = s.claimed.get_mut(usize::from(c)) {
            *x = true;
        }
    }
    s.start_if_full()?;
    if let Some(t) = &mut s.table {
        for (seat, text) in &k.moves {
            if t.play(*seat, text).is_err() {
                break;
            }
        }
    }
    Ok(s)
}
