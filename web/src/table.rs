//! A game against bots, move by move: the REPL's own session (`app::session`), with one human
//! in the first seat. Each move is one of the legal moves the engine lists, written in the
//! REPL's notation and played through the session, so the page shows what the terminal shows:
//! every bot's turn and the rule behind each thing that happened.

use ninety::app::session::{Options, Session};
use ninety::compile::Shipped;
use ninety::ir::Program;
use ninety::play::Ruleset;
use ninety::play::move_name;
use serde::Serialize;

/// A button of the table: the text to send (`9H`, `AS:11`, `draw`, or empty for "do not
/// draw") and what it says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Choice {
    pub send: String,
    pub label: String,
}

/// What the page shows of the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct View {
    /// What the last move made happen, in the REPL's words.
    pub text: String,
    pub total: i32,
    /// The scores, in the REPL's words.
    pub scores: String,
    /// The moves open to the human now: none while the game is over.
    pub moves: Vec<Choice>,
    pub over: bool,
}

/// A game in progress.
#[derive(Debug)]
pub struct Table {
    session: Session,
}

impl Table {
    /// A game of `program` for `players` (clamped to what the ruleset allows), the human in
    /// the first seat, `bot` in the others.
    pub fn new(
        program: Program,
        players: usize,
        bot: &str,
        seed: u64,
    ) -> Result<(Table, View), String> {
        let o = Options {
            ruleset: "playground".into(),
            players: Some(players),
            humans: 1,
            bot: bot.to_string(),
            seed,
            sets: Vec::new(),
            color: false,
        };
        let (session, text) = Session::start_with(Ruleset::new(program), &o)?;
        let table = Table { session };
        let view = table.view(&text);
        Ok((table, view))
    }

    /// Plays one of the moves the last view offered (or any line the REPL reads).
    pub fn play(&mut self, send: &str) -> View {
        let reply = self.session.handle(&Shipped, send);
        self.view(&reply.text)
    }

    fn view(&self, text: &str) -> View {
        let s = &self.session;
        let state = &s.state;
        let scores = scores(s);
        let mut moves = Vec::new();
        if !state.over {
            if s.prompt().starts_with("draw?") {
                moves.push(Choice {
                    send: "draw".into(),
                    label: "draw a card".into(),
                });
                moves.push(Choice {
                    send: String::new(),
                    label: "do not draw".into(),
                });
            } else if state.turn == 0 {
                let legal = state.legal_moves(&s.program);
                for (mv, total) in legal.as_slice().iter().zip(legal.totals()) {
                    let name = move_name(&s.program, state, *mv);
                    let label = if name == "draw" {
                        "draw a card".to_string()
                    } else {
                        format!("{name} → {total}")
                    };
                    moves.push(Choice { send: name, label });
                }
            }
        }
        View {
            text: s.shown(text),
            total: state.total,
            scores,
            moves,
            over: state.over,
        }
    }
}

/// Every player's chips, a seat out of the game marked so.
fn scores(s: &Session) -> String {
    let seats: Vec<String> = s
        .seats
        .iter()
        .enumerate()
        .map(|(i, seat)| {
            let at = u8::try_from(i).unwrap_or(u8::MAX);
            let chips = s.state.chips_of(&s.program, at);
            let out = if s.state.in_game(at) { "" } else { " (out)" };
            format!("{}: {chips}{out}", seat.name)
        })
        .collect();
    seats.join(", ")
}
