//! A game against bots, move by move: the REPL's own session (`app::session`), with one human
//! in the first seat. Each move is one of the legal moves the engine lists, written in the
//! REPL's notation and played through the session, so the page shows what the terminal shows:
//! every bot's turn and the rule behind each thing that happened. Only those moves are taken:
//! the page has buttons, not the terminal's commands (`save`, `load`, `quit`...), and what
//! the session says is put in the page's words ([`page_words`]).

use ninety::app::session::{Options, Session};
use ninety::base::cards::card_name;
use ninety::compile::Shipped;
use ninety::engine::Move;
use ninety::ir::OtherKind;
use ninety::ir::Program;
use ninety::play::Ruleset;
use ninety::play::move_name;
use ninety::present;
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
    /// What the last move made happen, in the page's words; or, when `refused`, why nothing
    /// happened.
    pub text: String,
    pub total: i32,
    /// The scores, in the REPL's words.
    pub scores: String,
    /// The moves open to the human now: none while the game is over.
    pub moves: Vec<Choice>,
    pub over: bool,
    /// Once the game is over, how it ended: `Bot 2 won`, `You won`, `no winner`, or why it
    /// stopped.
    pub outcome: Option<String>,
    /// The line sent was not one of the moves offered, and nothing was played.
    pub refused: bool,
}

/// A game in progress.
#[derive(Debug)]
pub struct Table {
    session: Session,
    /// The moves the last view offered: the only lines taken.
    offered: Vec<String>,
}

impl Table {
    /// A game of `program` (compiled with the option values `sets`) for `players` (clamped to
    /// what the ruleset allows), the human in the first seat, `bot` in the others.
    pub fn new(
        program: Program,
        players: usize,
        bot: &str,
        seed: u64,
        sets: &[(String, String)],
    ) -> Result<(Table, View), String> {
        let o = Options {
            ruleset: "playground".into(),
            players: Some(players),
            humans: 1,
            bot: bot.to_string(),
            seed,
            sets: sets.to_vec(),
            color: false,
        };
        let (session, text) = Session::start_with(Ruleset::new(program), &o)?;
        let mut table = Table {
            session,
            offered: Vec::new(),
        };
        let view = table.view(&text);
        Ok((table, view))
    }

    /// Plays one of the moves the last view offered; anything else is refused, and the game
    /// goes on as it was.
    pub fn play(&mut self, send: &str) -> View {
        if !self.offered.iter().any(|m| m == send) {
            let mut view = self.view("");
            view.refused = true;
            view.text = if self.session.state.over {
                "The game is over: start a new game.".into()
            } else {
                let words: Vec<String> = view.moves.iter().map(|m| m.label.clone()).collect();
                format!(
                    "`{}` is not a move here: the page plays one of its buttons ({}).",
                    send.chars().take(40).collect::<String>(),
                    words.join(", ")
                )
            };
            return view;
        }
        let reply = self.session.handle(&Shipped, send);
        self.view(&reply.text)
    }

    fn view(&mut self, text: &str) -> View {
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
                    let label = label(s, *mv, &name, *total);
                    moves.push(Choice { send: name, label });
                }
            }
        }
        let view = View {
            text: page_words(&s.shown(text)),
            total: state.total,
            scores,
            moves,
            over: state.over,
            outcome: state.over.then(|| outcome(s)),
            refused: false,
        };
        self.offered = view.moves.iter().map(|m| m.send.clone()).collect();
        view
    }
}

/// What a move's button says: the card and the total it makes, the player a card names, or
/// what a move beside laying a card does.
fn label(s: &Session, mv: Move, name: &str, total: i32) -> String {
    let p = &s.program;
    let seat_name = |x: u8| {
        s.seats
            .get(usize::from(x))
            .map_or_else(|| format!("Seat {x}"), |seat| seat.name.clone())
    };
    match mv {
        Move::Draw => "draw a card".to_string(),
        Move::Play { .. } => format!("{name} → {total}"),
        Move::Aim { card, seat, .. } => {
            format!("{} → {total}, naming {}", card_name(card), seat_name(seat))
        }
        Move::Give { card, gift, .. } => {
            format!("{} → {total}, giving {}", card_name(card), card_name(gift))
        }
        Move::Other { index, .. } => p.others.get(usize::from(index)).map_or_else(
            || name.to_string(),
            |o| match o.kind {
                OtherKind::Discard(_) => name.to_string(),
                OtherKind::LayTop => "lay the stock's top card".to_string(),
                OtherKind::Pass => "pass".to_string(),
            },
        ),
        Move::Yield => "yield (take what a player who cannot play gets)".to_string(),
    }
}

/// How a finished game ended, in a few words.
fn outcome(s: &Session) -> String {
    if let Some(stall) = s.state.stuck {
        return format!(
            "the game stopped: {}",
            present::stall_words(&s.program, stall)
        );
    }
    let winners: Vec<String> = s
        .state
        .winner_list()
        .into_iter()
        .map(|w| {
            s.seats
                .get(usize::from(w))
                .map_or_else(|| format!("Seat {w}"), |x| x.name.clone())
        })
        .collect();
    if winners.is_empty() {
        "no winner".into()
    } else {
        format!("{} won", winners.join(" and "))
    }
}

/// What the terminal's session says, in the page's words: the page has buttons and a seed
/// field, not commands to type, nor `--seed`.
pub fn page_words(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let (body, end) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        let said = page_line(body);
        if said.is_empty() && !body.is_empty() {
            continue;
        }
        out.push_str(&said);
        out.push_str(end);
    }
    out
}

/// One line of the session in the page's words: the sentences that tell what to type are
/// said as the page does it, or left out.
fn page_line(line: &str) -> String {
    if let Some(seed) = line
        .strip_prefix("Seed ")
        .and_then(|r| r.split_once(':'))
        .map(|(n, _)| n)
        .filter(|n| n.chars().all(|c| c.is_ascii_digit()))
    {
        return format!("Seed {seed}: the same seed (the seed field) deals this game again.");
    }
    if line.starts_with("Draw a card (") {
        return "Draw a card, or go on without drawing.".into();
    }
    let mut kept: Vec<&str> = Vec::new();
    for sentence in sentences(line) {
        let s = sentence.trim();
        if s.starts_with("Type a card to play it") {
            kept.push("Play a card with the buttons below; the rules sheet is beside the editor.");
        } else if !terminal_words(s) {
            kept.push(s);
        }
    }
    let indent = &line[..line.len() - line.trim_start().len()];
    if kept.is_empty() {
        String::new()
    } else {
        format!("{indent}{}", kept.join(" "))
    }
}

/// A line cut after each `. ` (a sentence's end).
fn sentences(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find(". ") {
        out.push(&rest[..=i]);
        rest = &rest[i + 2..];
    }
    if !rest.is_empty() {
        out.push(rest);
    }
    out
}

/// Whether a sentence tells the player to type something at the terminal.
fn terminal_words(s: &str) -> bool {
    const WORDS: [&str; 8] = [
        "Type `",
        "type `",
        "`help`",
        "`quit`",
        "`new`",
        "--seed",
        "Ctrl-",
        "press Enter",
    ];
    WORDS.iter().any(|w| s.contains(w))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_terminals_instructions_are_said_as_the_page_does() {
        let said = page_words(
            "Ninety-Nine — a game\nLay one card a turn; the total moves with it. Type a card to play it, `help` for commands, `rules` for the rules.\nSeed 42: `--seed 42` deals this game again.\nBot 1 plays 2D: total 2.\n",
        );
        assert_eq!(
            said,
            "Ninety-Nine — a game\nLay one card a turn; the total moves with it. Play a card with the buttons below; the rules sheet is beside the editor.\nSeed 42: the same seed (the seed field) deals this game again.\nBot 1 plays 2D: total 2.\n"
        );
        assert_eq!(
            page_words(
                "Chips: You 0.\nGame over: Bot 2 won. Type `new` for another game, or `quit`.\n"
            ),
            "Chips: You 0.\nGame over: Bot 2 won.\n"
        );
        assert_eq!(page_words("  KS   → 13\n"), "  KS   → 13\n");
    }
}
