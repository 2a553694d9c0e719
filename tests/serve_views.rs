//! No message `ninety serve` sends a seat holds a card that seat may not see: hundreds of
//! games played through the server's hall (no network: the hall is what decides and what
//! speaks), every message to every seat and to a spectator checked against the true hands
//! of a table played alongside from the same seed and moves. Shipped Ninety-Nine and house
//! rules that move cards between hands (a swap, a card given by choice) given as text, as a
//! player would upload them.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use ninety::app::serve::hall::{At, Hall};
use ninety::app::serve::outbox::{Inbox, with_room};
use ninety::app::store::{Kept, Opened, Sqlite, Store};
use ninety::app::table::Table;
use ninety::base::cards::card_name;
use serde_json::Value;

/// The store the hall keeps tables in, with a copy of what it was told: the seed and moves
/// of each table, which no message carries.
#[derive(Default)]
struct Seen {
    opened: HashMap<i64, Opened>,
}

struct Spy {
    inner: Sqlite,
    seen: Arc<Mutex<Seen>>,
}

impl Store for Spy {
    fn open(&mut self, t: &Opened) -> Result<i64, String> {
        let id = self.inner.open(t)?;
        self.seen.lock().expect("seen").opened.insert(id, t.clone());
        Ok(id)
    }
    fn claim(&mut self, id: i64, seat: u8) -> Result<(), String> {
        self.inner.claim(id, seat)
    }
    fn add_move(&mut self, id: i64, seat: u8, text: &str) -> Result<(), String> {
        self.inner.add_move(id, seat, text)
    }
    fn tables(&self) -> Result<Vec<Result<Kept, String>>, String> {
        self.inner.tables()
    }
}

fn drain(rx: &mut Inbox) -> Vec<Value> {
    let mut out = Vec::new();
    while let Ok(m) = rx.try_recv() {
        out.push(serde_json::from_str(&m).expect("JSON"));
    }
    out
}

/// Checks a `table` message to `seat` against the true table.
fn check(m: &Value, seat: Option<u8>, truth: &Table, what: &str) {
    let s = truth.state();
    let mut shown = m.clone();
    let obj = shown.as_object_mut().expect("an object");
    // Sentences name the cards laid before everyone; `known` is what a rule showed this
    // seat (tests/views.rs checks both against the engine's knowledge).
    obj.remove("events");
    let known = obj.remove("known").unwrap_or(Value::Null);
    let text = shown.to_string();
    for other in 0..s.seats {
        if Some(other) == seat {
            let hand: Vec<String> = s.hands[usize::from(other)]
                .cards()
                .iter()
                .map(|c| card_name(*c))
                .collect();
            assert_eq!(m["hand"], serde_json::json!(hand), "{what}: own hand");
            continue;
        }
        for c in s.hands[usize::from(other)].cards() {
            let name = format!("\"{}\"", card_name(*c));
            assert!(
                !text.contains(&name),
                "{what}: seat {seat:?} is shown {name}, in seat {other}'s hand: {text}"
            );
            let in_known = known.to_string().contains(&name);
            if in_known {
                assert!(seat.is_some(), "{what}: a spectator is shown {name}");
            }
        }
    }
    for c in s.stock.iter().chain(s.face_down.iter()) {
        let name = format!("\"{}\"", card_name(*c));
        assert!(
            !text.contains(&name) && !known.to_string().contains(&name),
            "{what}: seat {seat:?} is shown {name}, in the stock"
        );
    }
}

#[test]
fn no_message_to_a_seat_holds_a_card_it_may_not_see() {
    let tables: [(Option<&str>, Option<&str>); 3] = [
        (Some("ninety-nine"), None),
        (None, Some("tests/house-rules/set3/swap.rules")),
        (None, Some("tests/house-rules/chosen-gift.rules")),
    ];
    let seen = Arc::new(Mutex::new(Seen::default()));
    let hall = Hall::new(Box::new(Spy {
        inner: Sqlite::in_memory().expect("a store"),
        seen: Arc::clone(&seen),
    }));
    let mut messages = 0u64;
    let games = 1_000;
    for g in 0..games {
        let (name, path) = tables[g % tables.len()];
        let source = path.map(|p| std::fs::read_to_string(p).expect("the house rule"));
        let seats: Vec<String> = ["person", "person", "cautious"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let (ta, mut ra) = with_room(4096);
        let (tb, mut rb) = with_room(4096);
        let (tw, mut rw) = with_room(4096);
        let a = hall
            .open(name, source, Vec::new(), &seats, hall.connection(), &ta)
            .expect("opens");
        let b = hall.join(a.table, hall.connection(), &tb).expect("joins");
        hall.watch(a.table, hall.connection(), &tw)
            .expect("watches");
        let opened = seen.lock().expect("seen").opened[&a.table].clone();
        let ruleset = match &opened.source {
            None => {
                ninety::app::load::load_program(&ninety::compile::Shipped, &opened.ruleset, &[])
            }
            Some(text) => {
                let mut m = ninety::compile::Memory::new();
                m.insert("r.rules", text.as_bytes().to_vec());
                ninety::app::load::load_program(&m, "r.rules", &[])
            }
        }
        .expect("checks");
        let (mut truth, _) =
            Table::open(ruleset, opened.seed, opened.sitters.clone()).expect("a table");
        for turn in 0..3_000 {
            let what = format!("game {g} ({name:?} {path:?}), turn {turn}");
            for (rx, seat) in [(&mut ra, Some(0)), (&mut rb, Some(1)), (&mut rw, None)] {
                for m in drain(rx) {
                    if m["type"] == "table" && m["started"] == true {
                        check(&m, seat, &truth, &what);
                        messages += 1;
                    }
                }
            }
            let Some(seat) = truth.waiting_on() else {
                break;
            };
            let mv = truth.moves_for(seat)[0].clone();
            let at = if seat == 0 { a } else { b };
            assert_eq!(
                at,
                At {
                    table: a.table,
                    seat: Some(seat)
                }
            );
            hall.play(at, &mv).expect("plays");
            truth.play(seat, &mv).expect("plays alongside");
        }
        assert!(truth.waiting_on().is_none(), "game {g} ends");
    }
    assert!(messages > 10_000, "{messages} messages checked");
}
