//! Where shared tables are kept, so that a restart (even a kill) loses nothing: each table's
//! ruleset (a shipped one's name, or the text a player gave), its option values, its seed, who
//! sits where with each seat's token, and the people's moves in order. A move is written, and
//! committed to the disk, before anyone is told of it; on a start every table is read back
//! and played again from its seed and its moves ([`super::table::Table::replay`]).
//!
//! [`Store`] is the small interface a server keeps tables through; [`Sqlite`] keeps them in
//! one SQLite file (WAL, `synchronous=FULL`), or in memory.

use serde::{Deserialize, Serialize};

use super::table::Sitter;

/// A table as it was opened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opened {
    /// A shipped ruleset's name, or a name for the text given.
    pub ruleset: String,
    /// The ruleset's text, when a player gave it (a shipped ruleset is read again by name).
    pub source: Option<String>,
    pub sets: Vec<(String, String)>,
    pub seed: u64,
    pub sitters: Vec<Sitter>,
    /// Each seat's token (empty for a bot's seat): what brings a person back to their seat.
    pub tokens: Vec<String>,
}

/// A table read back: its number, how it was opened, and the people's moves in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    pub id: i64,
    pub opened: Opened,
    /// The seats for a person someone has taken (each given its token), in order.
    pub claimed: Vec<u8>,
    pub moves: Vec<(u8, String)>,
}

/// How a server keeps its tables.
pub trait Store {
    /// Keeps a new table; its number.
    fn open(&mut self, t: &Opened) -> Result<i64, String>;
    /// Keeps that someone took seat `seat` of table `id` (its token is theirs now), on the
    /// disk before this returns.
    fn claim(&mut self, id: i64, seat: u8) -> Result<(), String>;
    /// Keeps the next move of table `id`, on the disk before this returns.
    fn add_move(&mut self, id: i64, seat: u8, text: &str) -> Result<(), String>;
    /// Every table kept, in the order they were opened, each with its moves; a table that
    /// cannot be read back (its record damaged) is its number and why, and the others are
    /// read all the same.
    fn tables(&self) -> Result<Vec<Result<Kept, String>>, String>;
}

/// The store of a server that has stopped: its file let go, nothing more kept.
#[derive(Debug)]
pub struct Closed;

impl Store for Closed {
    fn open(&mut self, _: &Opened) -> Result<i64, String> {
        Err("the server has stopped".into())
    }

    fn claim(&mut self, _: i64, _: u8) -> Result<(), String> {
        Err("the server has stopped".into())
    }

    fn add_move(&mut self, _: i64, _: u8, _: &str) -> Result<(), String> {
        Err("the server has stopped".into())
    }

    fn tables(&self) -> Result<Vec<Result<Kept, String>>, String> {
        Ok(Vec::new())
    }
}

/// Tables in one SQLite file (or in memory).
#[derive(Debug)]
pub struct Sqlite {
    db: rusqlite::Connection,
}

const SCHEMA: &str = "
PRAGMA journal_mode = WAL;
PRAGMA synchronous = FULL;
CREATE TABLE IF NOT EXISTS tables (
    id INTEGER PRIMARY KEY,
    opened TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
CREATE TABLE IF NOT EXISTS claims (
    table_id INTEGER NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
);
";

fn words(e: &rusqlite::Error) -> String {
    format!("the table store: {e}")
}

impl Sqlite {
    /// The store in the file at `path`, made when there is none.
    ///
    /// The file is held for as long as the store is open: a second server on it is refused
    /// (two servers taking moves at one table would each tell its players another game).
    /// A file another program keeps its own tables in is refused, never changed.
    pub fn open_file(path: &std::path::Path) -> Result<Sqlite, String> {
        let shown = path.display();
        let db = rusqlite::Connection::open(path)
            .map_err(|e| format!("cannot open the table store `{shown}`: {e}"))?;
        let not_a_store = |why: String| {
            format!("{why}: `{shown}` is not a table store (give another file with --db)")
        };
        // Held from the first write on, until the store is closed.
        db.execute_batch("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; COMMIT;")
            .map_err(|e| match e.sqlite_error_code() {
                Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
                    format!(
                        "`{shown}` is in use by another `ninety serve`: stop it, or give another file with --db"
                    )
                }
                _ => not_a_store(words(&e)),
            })?;
        let foreign: Vec<String> = {
            let mut q = db
                .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
                .map_err(|e| not_a_store(words(&e)))?;
            q.query_map([], |r| r.get::<_, String>(0))
                .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
                .map_err(|e| not_a_store(words(&e)))?
                .into_iter()
                .filter(|t| !["tables", "moves", "claims"].contains(&t.as_str()))
                .collect()
        };
        if !foreign.is_empty() {
            return Err(format!(
                "`{shown}` holds another program's tables ({}): it is not a table store, and is left as it is (give another file with --db)",
                foreign.join(", ")
            ));
        }
        Sqlite::with(db).map_err(not_a_store)
    }

    /// A store that lives as long as the process (for tests, and a server told to keep
    /// nothing).
    pub fn in_memory() -> Result<Sqlite, String> {
        Sqlite::with(rusqlite::Connection::open_in_memory().map_err(|e| words(&e))?)
    }

    fn with(db: rusqlite::Connection) -> Result<Sqlite, String> {
        db.execute_batch(SCHEMA).map_err(|e| words(&e))?;
        Ok(Sqlite { db })
    }
}

impl Store for Sqlite {
    fn open(&mut self, t: &Opened) -> Result<i64, String> {
        let opened = serde_json::to_string(t).map_err(|e| e.to_string())?;
        self.db
            .execute("INSERT INTO tables (opened) VALUES (?1)", [opened])
            .map_err(|e| words(&e))?;
        Ok(self.db.last_insert_rowid())
    }

    fn claim(&mut self, id: i64, seat: u8) -> Result<(), String> {
        self.db
            .execute(
                "INSERT OR IGNORE INTO claims (table_id, seat) VALUES (?1, ?2)",
                rusqlite::params![id, i64::from(seat)],
            )
            .map(|_| ())
            .map_err(|e| words(&e))
    }

    fn add_move(&mut self, id: i64, seat: u8, text: &str) -> Result<(), String> {
        let tx = self.db.transaction().map_err(|e| words(&e))?;
        let n: i64 = tx
            .query_row(
                "SELECT COUNT(*) FROM moves WHERE table_id = ?1",
                [id],
                |r| r.get(0),
            )
            .map_err(|e| words(&e))?;
        tx.execute(
            "INSERT INTO moves (table_id, n, seat, text) VALUES (?1, ?2, ?3, ?4)",
            rusqlite::params![id, n, i64::from(seat), text],
        )
        .map_err(|e| words(&e))?;
        tx.commit().map_err(|e| words(&e))
    }

    fn tables(&self) -> Result<Vec<Result<Kept, String>>, String> {
        let mut out = Vec::new();
        let mut tables = self
            .db
            .prepare("SELECT id, opened FROM tables ORDER BY id")
            .map_err(|e| words(&e))?;
        let rows = tables
            .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
            .map_err(|e| words(&e))?;
        let mut moves = self
            .db
            .prepare("SELECT seat, text FROM moves WHERE table_id = ?1 ORDER BY n")
            .map_err(|e| words(&e))?;
        let mut claims = self
            .db
            .prepare("SELECT seat FROM claims WHERE table_id = ?1 ORDER BY seat")
            .map_err(|e| words(&e))?;
        for row in rows {
            let (id, opened) = row.map_err(|e| words(&e))?;
            let opened: Opened = match serde_json::from_str(&opened) {
                Ok(o) => o,
                Err(e) => {
                    out.push(Err(format!("table {id} cannot be read back: {e}")));
                    continue;
                }
            };
            let kept = moves
                .query_map([id], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
                .map_err(|e| words(&e))?
                .map(|m| {
                    let (seat, text) = m.map_err(|e| words(&e))?;
                    let seat = u8::try_from(seat)
                        .map_err(|_| format!("the table store: table {id} names seat {seat}"))?;
                    Ok((seat, text))
                })
                .collect::<Result<Vec<_>, String>>()?;
            let claimed = claims
                .query_map([id], |r| r.get::<_, i64>(0))
                .map_err(|e| words(&e))?
                .map(|c| {
                    let c = c.map_err(|e| words(&e))?;
                    u8::try_from(c)
                        .map_err(|_| format!("the table store: table {id} names seat {c}"))
                })
                .collect::<Result<Vec<_>, String>>()?;
            out.push(Ok(Kept {
                id,
                opened,
                claimed,
                moves: kept,
            }));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opened(seed: u64) -> Opened {
        Opened {
            ruleset: "ninety-nine".into(),
            source: None,
            sets: vec![("chips".into(), "4".into())],
            seed,
            sitters: vec![
                Sitter::Person,
                Sitter::Bot("cautious".into()),
                Sitter::Person,
            ],
            tokens: vec!["a".into(), String::new(), "c".into()],
        }
    }

    #[test]
    fn tables_and_their_moves_come_back_after_the_process_is_gone() {
        let dir = std::env::temp_dir().join(format!("ninety-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a folder");
        let path = dir.join("tables.db");
        {
            let mut s = Sqlite::open_file(&path).expect("opens");
            let a = s.open(&opened(7)).expect("kept");
            let b = s.open(&opened(u64::MAX)).expect("kept");
            s.add_move(a, 0, "9H").expect("kept");
            s.add_move(b, 2, "KS").expect("kept");
            s.add_move(a, 2, "pass").expect("kept");
            s.claim(a, 2).expect("kept");
            s.claim(a, 0).expect("kept");
            s.claim(a, 2).expect("kept once");
            // Dropped without a word, as a killed process leaves it.
        }
        let s = Sqlite::open_file(&path).expect("opens again");
        // A damaged record is told, and the other tables are read all the same.
        s.db.execute("INSERT INTO tables (opened) VALUES ('{not json')", [])
            .expect("a damaged record");
        let mut tables = s.tables().expect("read back");
        let damaged = tables.pop().expect("three records");
        assert!(damaged.is_err_and(|why| why.contains("table 3 cannot be read back")));
        let tables: Vec<Kept> = tables.into_iter().map(|t| t.expect("readable")).collect();
        assert_eq!(tables.len(), 2);
        assert_eq!(tables[0].opened, opened(7));
        assert_eq!(tables[1].opened.seed, u64::MAX);
        assert_eq!(
            tables[0].moves,
            vec![(0, "9H".to_string()), (2, "pass".to_string())]
        );
        assert_eq!(tables[1].moves, vec![(2, "KS".to_string())]);
        assert_eq!(tables[0].claimed, vec![0, 2]);
        assert!(tables[1].claimed.is_empty());
        // A file that is not a store is refused with the reason, not a panic.
        std::fs::write(dir.join("junk.db"), b"not a database at all, just words").expect("w");
        assert!(Sqlite::open_file(&dir.join("junk.db")).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_second_server_on_one_file_is_refused_and_another_programs_file_is_left_alone() {
        let dir = std::env::temp_dir().join(format!("ninety-store-lock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a folder");
        let path = dir.join("tables.db");
        let first = Sqlite::open_file(&path).expect("opens");
        let second = Sqlite::open_file(&path).expect_err("the file is held");
        assert!(
            second.contains("in use by another `ninety serve`"),
            "{second}"
        );
        drop(first);
        let again = Sqlite::open_file(&path).expect("free once the first is closed");
        drop(again);
        // Another program's SQLite file: refused, and its tables are all it holds.
        let other = dir.join("notes.db");
        {
            let db = rusqlite::Connection::open(&other).expect("a file of another program");
            db.execute_batch("CREATE TABLE notes (body TEXT);")
                .expect("its table");
        }
        let why = Sqlite::open_file(&other).expect_err("not a store");
        assert!(why.contains("another program's tables (notes)"), "{why}");
        let db = rusqlite::Connection::open(&other).expect("still there");
        let names: Vec<String> = db
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
            .expect("a query")
            .query_map([], |r| r.get(0))
            .expect("rows")
            .collect::<Result<_, _>>()
            .expect("names");
        assert_eq!(names, ["notes"]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_table_stopped_mid_game_resumes_where_it_was() {
        use crate::app::table::Table;
        let p = crate::app::load::load_program(&crate::compile::Shipped, "ninety-nine", &[])
            .expect("checks");
        let sitters = vec![
            Sitter::Person,
            Sitter::Bot("cautious".into()),
            Sitter::Person,
        ];
        let mut store = Sqlite::in_memory().expect("a store");
        let o = Opened {
            ruleset: "ninety-nine".into(),
            source: None,
            sets: Vec::new(),
            seed: 11,
            sitters: sitters.clone(),
            tokens: vec!["t0".into(), String::new(), "t2".into()],
        };
        let id = store.open(&o).expect("kept");
        let (mut live, _) = Table::open(p.clone(), 11, sitters.clone()).expect("a table");
        for _ in 0..25 {
            let Some(seat) = live.waiting_on() else { break };
            let mv = live.moves_for(seat)[0].clone();
            // Written before it is played and announced.
            store.add_move(id, seat, &mv).expect("kept");
            live.play(seat, &mv).expect("plays");
        }
        let kept: Vec<Kept> = store
            .tables()
            .expect("read back")
            .into_iter()
            .map(|t| t.expect("readable"))
            .collect();
        let moves: Vec<String> = kept[0].moves.iter().map(|(_, m)| m.clone()).collect();
        let again = Table::replay(
            p,
            kept[0].opened.seed,
            kept[0].opened.sitters.clone(),
            &moves,
        )
        .expect("replays");
        assert_eq!(again.state(), live.state());
        assert_eq!(again.moves(), live.moves());
    }
}
