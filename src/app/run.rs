//! `ninety run`: a position set up from the command line, moves typed, then bots to the end.

use crate::play::Ruleset;
use std::io::Write;

use super::commands::{FAILED, OK, USAGE, load_for_command};
use super::load::player;
use crate::base::cards::parse_cards;
use crate::base::limits::TURN_LIMIT;
use crate::base::text::{escape, escape_lines};
use crate::compile::Loader;
use crate::engine::{self, Event, Move, PlayError, Setup, Sink, State};
use crate::play::{self, Driver, Ending, Player};
use crate::present;

/// Options of `ninety run`.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    pub players: Option<usize>,
    pub seed: u64,
    pub sets: Vec<(String, String)>,
    pub moves: Vec<String>,
    pub json: bool,
    pub bots: Option<String>,
    pub deck: Option<String>,
    pub hands: Option<String>,
    pub discard: Option<String>,
    pub total: Option<i32>,
    pub chips: Option<String>,
    pub turn: Option<u8>,
    pub direction: Option<String>,
    pub dealer: Option<u8>,
    pub pot: Option<i32>,
    pub bank: Option<i32>,
    /// The top of the stock at the next deal, top first: `"9H 2C"`.
    pub next_deal: Option<String>,
    /// Counts the ruleset keeps, as `NAME=V,V,V` (every seat's value, or the table's one).
    pub counts: Vec<String>,
    /// The round being played, from 1.
    pub round: Option<u32>,
}

/// The setup a `run` describes.
pub fn setup_from(p: &Ruleset, o: &RunOptions) -> Result<Setup, String> {
    let players = o.players.unwrap_or_else(|| p.default_players());
    let hands = match &o.hands {
        None => None,
        Some(h) => Some(
            h.split('|')
                .map(parse_cards)
                .collect::<Result<Vec<_>, _>>()?,
        ),
    };
    let chips = match &o.chips {
        None => None,
        Some(c) => Some(
            c.split(',')
                .map(|x| {
                    x.trim()
                        .parse::<i32>()
                        .map_err(|_| format!("`{x}` is not a number of chips"))
                })
                .collect::<Result<Vec<_>, _>>()?,
        ),
    };
    let clockwise = match o.direction.as_deref() {
        None => None,
        Some("cw" | "clockwise") => Some(true),
        Some("ccw" | "counterclockwise") => Some(false),
        Some(d) => return Err(format!("`--direction {d}`: write `cw` or `ccw`")),
    };
    // Chips or pools given are the table as it stands, its round begun: no ante on top.
    let round_started = chips.is_some() || o.pot.is_some() || o.bank.is_some();
    Ok(Setup {
        round_started,
        players,
        seed: o.seed,
        deck: o.deck.as_deref().map(parse_cards).transpose()?,
        hands,
        discard: o.discard.as_deref().map(parse_cards).transpose()?,
        total: o.total,
        chips,
        turn: o.turn,
        clockwise,
        dealer: o.dealer,
        stock_only: false,
        pot: o.pot,
        bank: o.bank,
        next_deal: o.next_deal.as_deref().map(parse_cards).transpose()?,
        counts: o
            .counts
            .iter()
            .map(|c| count_values(p, c))
            .collect::<Result<Vec<_>, _>>()?,
        round: o.round,
    })
}

/// `--count points=0,97,0`: the count's index and its values.
fn count_values(p: &Ruleset, text: &str) -> Result<(u8, Vec<i32>), String> {
    let (name, values) = text.split_once('=').ok_or_else(|| {
        format!("`--count {text}`: write NAME=VALUES, like `--count points=0,97,0`")
    })?;
    let name = name.trim();
    let Some(i) = p
        .counts
        .iter()
        .position(|c| c.name.eq_ignore_ascii_case(name))
    else {
        let kept: Vec<&str> = p.counts.iter().map(|c| c.name.as_str()).collect();
        return Err(if kept.is_empty() {
            format!("`--count {name}`: the ruleset keeps no counts")
        } else {
            format!(
                "`--count {name}`: the ruleset keeps no count `{name}`; it keeps {}",
                kept.join(", ")
            )
        });
    };
    let values = values
        .split(',')
        .map(|x| {
            x.trim()
                .parse::<i32>()
                .map_err(|_| format!("`{}` is not a number (in `--count {text}`)", x.trim()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((i as u8, values))
}

fn seat_name(seat: u8) -> String {
    format!("Seat {seat}")
}

/// `ninety run RULESET`: plays the moves given, then (with `--bots`) bots to the end.
pub fn run_cmd(
    loader: &dyn Loader,
    path: &str,
    o: &RunOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let p = match load_for_command(loader, path, &o.sets) {
        Ok(p) => p,
        Err((code, e)) => {
            let _ = writeln!(err, "error: {}", escape_lines(&e));
            return code;
        }
    };
    let bot = match o.bots.as_deref().map(player).transpose() {
        Ok(b) => b,
        Err(e) => {
            let _ = writeln!(err, "error: {}", escape_lines(&e));
            return USAGE;
        }
    };
    let setup = match setup_from(&p, o) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(err, "error: {}", escape(&e));
            return USAGE;
        }
    };
    play_out(&p, o, &setup, bot.as_ref(), out, err)
}

/// Writes each event as it comes: a line of text, or a JSON object.
struct Printer<'a> {
    p: &'a Ruleset,
    json: bool,
    out: &'a mut dyn Write,
}

impl Sink for Printer<'_> {
    const WANTS: u32 = !0;
    fn event(&mut self, e: Event) {
        if self.json {
            let _ = writeln!(self.out, "{}", present::event_json(self.p, &e));
        } else {
            let line = present::event_text(self.p, &e, &seat_name);
            if !line.is_empty() {
                let _ = writeln!(self.out, "{}", escape(&line));
            }
        }
    }
}

/// The game of a `run`: set up, the moves given, then the bot's to the end; the events
/// written as they come, the state last.
fn play_out(
    p: &Ruleset,
    o: &RunOptions,
    setup: &Setup,
    bot: Option<&Player>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let seats = vec![bot.cloned().unwrap_or(Player::Person); setup.players];
    let mut driver = Driver::new(p, &seats, o.seed);
    let mut printer = Printer {
        p,
        json: o.json,
        out,
    };
    let mut s = match driver.start(setup, &mut printer) {
        Ok(s) => s,
        Err(Ending::Failed(e)) => {
            let _ = writeln!(err, "error: {}", escape(&e.to_string()));
            return USAGE;
        }
        Err(_) => {
            let _ = writeln!(err, "error: {}", play::GUARD_WORDS);
            return FAILED;
        }
    };
    let mut code = OK;
    for text in &o.moves {
        if s.over {
            let text = escape(text);
            let _ = writeln!(err, "error: move `{text}`: the game is already over");
            code = FAILED;
            break;
        }
        if let Err(e) = apply_typed(p, &mut s, text, &mut printer) {
            let _ = writeln!(err, "error: {}", escape(&e));
            code = FAILED;
            break;
        }
    }
    if code == OK && bot.is_some() {
        let problem = match driver.play(&mut s, &|| false, &mut printer) {
            Ending::Over | Ending::Stuck | Ending::NoMove(_) | Ending::Waiting(_) => None,
            Ending::TurnLimit => Some(PlayError::TurnLimit(TURN_LIMIT).to_string()),
            Ending::Failed(e) => Some(format!(
                "the bot's move failed: {}",
                escape(&present::play_error(p, &e))
            )),
            Ending::Guard | Ending::Stopped => Some(play::GUARD_WORDS.to_string()),
        };
        if let Some(problem) = problem {
            let _ = writeln!(err, "error: {problem}");
            code = FAILED;
        }
    }
    let out = printer.out;
    if let Some(stall) = s.stuck {
        let _ = writeln!(err, "error: {}", escape(&present::stall_words(p, stall)));
        code = FAILED;
    }
    if o.json {
        let _ = writeln!(out, "{}", present::state_json(p, &s));
    } else {
        let _ = writeln!(out, "{}", escape(&state_text(p, &s)));
    }
    code
}

/// Applies a typed move, or says why it cannot be played (with the legal moves).
pub fn apply_typed<S: Sink>(
    p: &Ruleset,
    s: &mut State,
    text: &str,
    events: &mut S,
) -> Result<(), String> {
    let legal = play::legal_list(p, s);
    let seat = s.turn;
    let mv = play::parse_move(p, s, text)
        .map_err(|e| format!("move `{text}`: {e}; legal moves: {legal}"))?;
    if let Move::Play { .. } = mv
        && s.pending_draw.is_some()
        && s.hands[usize::from(s.turn)].is_empty()
    {
        return Err(format!("move `{text}`: seat {} holds no cards", s.turn));
    }
    engine::step(p, s, mv, events).map_err(|e| {
        format!(
            "move `{text}` by seat {seat}: {}; legal moves: {legal}",
            present::play_error(p, &e)
        )
    })
}

/// A short summary of the state, for the end of a transcript.
pub fn state_text(p: &Ruleset, s: &State) -> String {
    let chips: Vec<String> = (0..s.seats).map(|x| s.chips_of(p, x).to_string()).collect();
    let mut text = format!(
        "Total {}, {}, round {}, chips {} (bank {}, pot {}).",
        s.total,
        present::direction_word(s.clockwise),
        s.round,
        chips.join(" "),
        s.bank,
        s.pot
    );
    if s.over {
        text.push_str(" The game is over.");
    } else {
        text.push_str(&format!(
            " Seat {} to play: {}.",
            s.turn,
            play::legal_list(p, s)
        ));
    }
    text
}
