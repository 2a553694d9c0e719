//! The messages of `ninety serve` (docs/serve.md, "The messages"): what a client sends, and
//! what each connection is told, in words a page or a terminal shows as they are. A `table`
//! message is made for one seat (or a spectator) from the table's [`Update`] for it, so it
//! holds nothing that seat may not see.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::hall::Seating;
use crate::app::table::{Sitter, Update};
use crate::base::cards::{Card, card_name};
use crate::base::limits::TURN_LIMIT;
use crate::engine::{Event, Move, PlayError, Seen};
use crate::play::{self, Ending};

/// What a client sends.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum In {
    Open {
        #[serde(default)]
        ruleset: Option<String>,
        #[serde(default)]
        source: Option<String>,
        #[serde(default)]
        sets: Vec<(String, String)>,
        seats: Vec<String>,
    },
    Join {
        table: i64,
    },
    Back {
        table: i64,
        token: String,
    },
    Watch {
        table: i64,
    },
    Move {
        text: String,
    },
    Replay,
}

/// A move offered to a seat: the text to send, the card it lays (if it lays one), and what
/// a button says.
#[derive(Debug, Serialize)]
struct Offered {
    send: String,
    card: Option<String>,
    label: String,
}

/// `{"type":"error","why":...}`.
pub fn error(why: &str) -> String {
    json!({"type": "error", "why": why}).to_string()
}

/// `{"type":"refused","why":...,"moves":[...]}`.
pub fn refused(why: &str, moves: &[String]) -> String {
    json!({"type": "refused", "why": why, "moves": moves}).to_string()
}

pub fn seated(table: i64, seat: u8, token: &str) -> String {
    json!({"type": "seated", "table": table, "seat": seat, "token": token}).to_string()
}

pub fn watching(table: i64) -> String {
    json!({"type": "watching", "table": table}).to_string()
}

/// A seat's name as the table says it: `Seat 2` (seats are counted from 1 in words, from 0
/// in the numbers of the messages).
pub fn seat_name(seat: u8) -> String {
    format!("Seat {}", u32::from(seat) + 1)
}

/// The card of the hand a move lays or names, if it names one.
fn card_of(p: &play::Ruleset, mv: Move) -> Option<Card> {
    match mv {
        Move::Play { card, .. } | Move::Aim { card, .. } | Move::Give { card, .. } => Some(card),
        Move::Other { index, card } => p
            .others
            .get(usize::from(index))
            .filter(|o| o.names_card())
            .map(|_| card),
        Move::Draw | Move::Yield => None,
    }
}

/// The `table` message for `seat` (or a spectator), telling `events`.
pub fn table_message(t: &Seating, seat: Option<u8>, events: &[Event]) -> Value {
    let mut v = table_value(t, seat, events);
    if let Some(obj) = v.as_object_mut() {
        obj.insert("type".into(), "table".into());
    }
    v
}

fn seats_value(t: &Seating) -> Vec<Value> {
    t.opened
        .sitters
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let bot = match s {
                Sitter::Bot(name) => Some(name.clone()),
                Sitter::Person => None,
            };
            json!({
                "name": seat_name(i as u8),
                "bot": bot,
                "taken": t.claimed.get(i).copied().unwrap_or(false),
                "here": t.here.get(i).is_some_and(|n| *n > 0),
                "stand_in": t.stand_in.get(i).copied().unwrap_or(false),
            })
        })
        .collect()
}

fn table_value(t: &Seating, seat: Option<u8>, events: &[Event]) -> Value {
    let base = json!({
        "table": t.id,
        "ruleset": t.title,
        "seat": seat,
        "seats": seats_value(t),
        "notice": t.notice,
    });
    let Some(table) = &t.table else {
        let mut v = base;
        if let Some(obj) = v.as_object_mut() {
            obj.insert("started".into(), false.into());
        }
        return v;
    };
    let u: Update = table.update_for(seat, events);
    let p = table.ruleset();
    let s = table.state();
    let names = |x: u8| {
        if Some(x) == seat {
            "You".to_string()
        } else {
            seat_name(x)
        }
    };
    let told: Vec<String> = u
        .events
        .iter()
        .map(|e| match e {
            Seen::Event(e) => crate::present::event_text(p, e, &names),
            Seen::Handed { from, to } => {
                format!("{} hands a card to {}.", names(*from), names(*to))
            }
        })
        .filter(|line| !line.is_empty())
        .collect();
    let moves: Vec<Offered> = u
        .moves
        .iter()
        .map(|m| {
            let card = play::parse_move(p, s, m).ok().and_then(|mv| card_of(p, mv));
            let label = match m.as_str() {
                "draw" => "Draw a card".to_string(),
                "pass" => "Don't draw".to_string(),
                _ => m.clone(),
            };
            Offered {
                send: m.clone(),
                card: card.map(card_name),
                label,
            }
        })
        .collect();
    let n = s.seats;
    let counts: Vec<Value> = crate::present::count_values(p, s)
        .into_iter()
        .map(|(name, values)| json!({"name": name, "values": values}))
        .collect();
    let cards = |cs: &[Card]| cs.iter().map(|c| card_name(*c)).collect::<Vec<_>>();
    let winners = s.winner_list();
    let over = u.view.over || table.ending().is_some();
    let outcome = over.then(|| outcome(p, table.ending(), &winners, &names));
    let mut v = base;
    if let Some(obj) = v.as_object_mut() {
        let more = json!({
            "started": true,
            "hand": cards(&u.view.hand),
            "hand_sizes": u.view.hand_sizes,
            "known": u.view.known.iter().map(|(h, c)| json!([h, card_name(*c)])).collect::<Vec<_>>(),
            "discard": cards(&u.view.discard),
            "stock": u.view.stock,
            "total": u.view.total,
            "turn": u.view.turn,
            "clockwise": u.view.clockwise,
            "chips": (0..n).map(|x| s.chips_of(p, x)).collect::<Vec<_>>(),
            "bank": u.view.bank,
            "pot": u.view.pot,
            "round": u.view.round,
            "counts": counts,
            "out": (0..n).filter(|x| !s.in_game(*x)).collect::<Vec<_>>(),
            "over": over,
            "winners": winners,
            "outcome": outcome,
            "events": told,
            "waiting_on": u.waiting_on,
            "moves": moves,
        });
        if let Some(more) = more.as_object() {
            for (k, x) in more {
                obj.insert(k.clone(), x.clone());
            }
        }
    }
    v
}

/// How a game ended, in words: the rules' end, or why it could not go on, in the words
/// `ninety run` and the REPL use.
fn outcome(
    p: &play::Ruleset,
    ending: Option<&Ending>,
    winners: &[u8],
    names: &dyn Fn(u8) -> String,
) -> String {
    if let Some(e) = ending {
        let why = match e {
            Ending::Stuck => "rounds kept ending with no card laid".to_string(),
            Ending::TurnLimit => PlayError::TurnLimit(TURN_LIMIT).to_string(),
            Ending::NoMove(seat) => format!("{} had no move", names(*seat)),
            Ending::Failed(err) => crate::present::play_error(p, err),
            Ending::Guard | Ending::Stopped => play::GUARD_WORDS.to_string(),
            Ending::Over | Ending::Waiting(_) => "it stopped".to_string(),
        };
        return format!("The game could not go on ({why}): no winner.");
    }
    match winners {
        [] => "The game is over: no winner.".to_string(),
        [one] if names(*one) == "You" => "You win!".to_string(),
        [one] => format!("{} wins.", names(*one)),
        many => {
            let list: Vec<String> = many.iter().map(|x| names(*x)).collect();
            format!("{} share the win.", list.join(" and "))
        }
    }
}
