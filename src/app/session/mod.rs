//! A game at the terminal, as pure data and functions: a [`Session`] takes one line of input
//! and returns what to print. The rustyline loop (`repl.rs`) and the scripted tests drive the
//! same functions.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::load::{load_program, player};
use crate::base::Rng;
use crate::base::cards::{Card, card_name};
use crate::base::limits::TURN_LIMIT;
use crate::base::text::{escape_lines, escape_painted, paint_key};
use crate::compile::Loader;
use crate::engine::{self, Event, PlayError, Setup, State};
use crate::play::Ruleset;
use crate::play::{self, Ending, Player};
use crate::present;

/// Who sits in a seat.
mod commands;
mod files;
mod hands;
pub mod save;
mod suits;
#[cfg(test)]
mod tests;
mod text;

use hands::Hands;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    pub name: String,
    /// `None` for a human.
    pub bot: Option<String>,
}

/// How a session starts.
#[derive(Debug, Clone)]
pub struct Options {
    pub ruleset: String,
    pub players: Option<usize>,
    pub humans: usize,
    /// The bots' strategy: a built-in name or `script:FILE.rhai`.
    pub bot: String,
    pub seed: u64,
    pub sets: Vec<(String, String)>,
    pub color: bool,
}

/// What a line of input gives back.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Reply {
    pub text: String,
    pub quit: bool,
}

/// What the session waits for besides a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Waiting {
    /// A command from the player to move.
    Nothing,
    /// Hot-seat: the keyboard goes to this seat; any line shows their hand.
    Handoff(u8),
    /// Which way to play a choice card.
    Choice(Card),
    /// Players draw by hand: the human who just played may draw before play goes on.
    Draw(u8),
}

/// A game in progress at the terminal.
#[derive(Debug)]
pub struct Session {
    pub ruleset: String,
    pub sets: Vec<(String, String)>,
    pub program: Ruleset,
    pub seats: Vec<Seat>,
    pub state: State,
    pub seed: u64,
    pub(super) undo: Vec<(State, usize)>,
    pub(super) log: Vec<String>,
    pub(super) bot_rng: Rng,
    pub(super) waiting: Waiting,
    /// Rules that reloaded fine but no longer fit the game: used by `new`.
    pub(super) next_program: Option<Ruleset>,
    pub color: bool,
    /// What [`Session::paint`] writes for an escape: a key only this run knows.
    paint_key: String,
    /// Moves since the last save.
    pub unsaved: bool,
    pub(super) games: u64,
    /// The bots' players, loaded once by name.
    pub(super) players: Vec<(String, Player)>,
    /// The game's script allowance (the ruleset's and the bots'), open while it lasts.
    pub(super) allowance: Option<play::Allowance>,
}

pub(super) const HELP: &str = "\
Commands (short forms in brackets):
  CARD            play a card from your hand: `9H`, `10S:-10`, `AS:11`, or its number `2`;
                  a card that names a player takes the seat after `>`: `KC>2`
  MOVE            where the rules allow it: `stock`, `discard KS`, `pass`, `yield`
  draw [d]        draw a card, where the rules say players draw by hand (or Space on an empty line)
  total [c]       the total and whose turn it is
  scores [s]      every player's chips
  hand            your hand, with what each card would do
  history         everything that happened this game
  why CARD        why a card is illegal, or what it would do, with the rule that decides
                  (`why stock`, `why discard`, `why yield`: the rule of that move)
  rules           the rules sheet
  undo [u]        take back your last move and the bots' replies
  save FILE       save the game;  load FILE: load a saved game
  reload          read the ruleset file again after editing it
  new             a new game;  quit [q]: leave (Ctrl-D too)";

/// Asked of a person who has just played, where players draw by hand.
pub(super) const DRAW_QUESTION: &str =
    "Draw a card (`draw`, or Space then Enter), or press Enter to go on without drawing.\n";

/// Said where cards show their suits as symbols: how to type them.
pub(super) const SUITS_TYPED: &str =
    "Suits show as ♠ ♥ ♦ ♣ and are typed as letters S H D C: `10D` for 10D.\n";

/// The ANSI colour of a warning (bright yellow).
pub(super) const YELLOW: &str = "93";

pub(super) fn plural(n: i32, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

impl Session {
    /// Starts a game; the text is the welcome and the first turn.
    pub fn start(loader: &dyn Loader, o: &Options) -> Result<(Session, String), String> {
        let program = load_program(loader, &o.ruleset, &o.sets)?;
        Session::start_with(program, o)
    }

    /// [`Session::start`] with the ruleset already loaded (`o.ruleset` names it).
    pub fn start_with(program: Ruleset, o: &Options) -> Result<(Session, String), String> {
        let players = o.players.unwrap_or(3).clamp(
            usize::from(program.min_players),
            usize::from(program.max_players),
        );
        if let Some(n) = o.players
            && n != players
        {
            program.check_players(n)?;
        }
        if o.humans > players {
            return Err(format!(
                "{} humans cannot sit at a table of {players}",
                o.humans
            ));
        }
        let bot_name = player(&o.bot)?.name();
        let seats: Vec<Seat> = (0..players)
            .map(|i| {
                if i < o.humans {
                    let name = if o.humans == 1 {
                        "You".to_string()
                    } else {
                        format!("Player {}", i + 1)
                    };
                    Seat { name, bot: None }
                } else {
                    Seat {
                        name: format!("Bot {}", i + 1 - o.humans),
                        bot: Some(bot_name.to_string()),
                    }
                }
            })
            .collect();
        let setup = Setup {
            players,
            seed: o.seed,
            ..Setup::default()
        };
        let person = match seats.iter().filter(|s| s.bot.is_none()).count() {
            1 => seats
                .iter()
                .position(|s| s.bot.is_none())
                .and_then(|i| u8::try_from(i).ok()),
            _ => None,
        };
        let mut hands = Hands::new(&program, person, None);
        let allowance = play::Allowance::open(&program, &[]);
        let state = engine::new_game(&program, &setup, &mut hands).map_err(|e| e.to_string())?;
        let (events, stuck) = hands.finish(&state);
        let mut session = Session {
            ruleset: o.ruleset.clone(),
            sets: o.sets.clone(),
            program,
            seats,
            state,
            seed: o.seed,
            undo: Vec::new(),
            log: Vec::new(),
            bot_rng: Rng::for_bots(o.seed),
            waiting: Waiting::Nothing,
            next_program: None,
            color: o.color,
            paint_key: if o.color { paint_key() } else { String::new() },
            unsaved: false,
            games: 1,
            players: Vec::new(),
            allowance: Some(allowance),
        };
        let mut text = String::new();
        let p = &session.program;
        let _ = writeln!(
            text,
            "{} — {}",
            p.name,
            if p.about.is_empty() {
                "a running-total card game"
            } else {
                &p.about
            }
        );
        let _ = writeln!(
            text,
            "Lay one card a turn; the total moves with it. Type a card to play it, `help` for commands, `rules` for the rules."
        );
        if o.color {
            text.push_str(SUITS_TYPED);
        }
        let _ = writeln!(
            text,
            "Seed {}: `--seed {}` deals this game again.",
            o.seed, o.seed
        );
        text.push_str(&session.narrate(&events, &stuck));
        text.push_str(&session.advance());
        Ok((session, text))
    }

    pub(super) fn name(&self, seat: u8) -> String {
        self.seats
            .get(usize::from(seat))
            .map_or_else(|| format!("Seat {seat}"), |s| s.name.clone())
    }

    /// "Your hand", "Bot 1's hand".
    pub(super) fn possessive(&self, seat: u8, thing: &str) -> String {
        let n = self.name(seat);
        if n == "You" {
            format!("Your {thing}")
        } else {
            format!("{n}'s {thing}")
        }
    }

    pub(super) fn is_human(&self, seat: u8) -> bool {
        self.seats
            .get(usize::from(seat))
            .is_some_and(|s| s.bot.is_none())
    }

    pub(super) fn humans(&self) -> usize {
        self.seats.iter().filter(|s| s.bot.is_none()).count()
    }

    /// The seat whose hand the screen may show: the person asked to draw, or the person to
    /// play; with one person at the table, theirs at any time. `None` when it would be
    /// another's hand (hot-seat, the keyboard being passed).
    pub(super) fn viewer(&self) -> Option<u8> {
        match self.waiting {
            Waiting::Draw(seat) => return Some(seat),
            Waiting::Handoff(_) => return None,
            Waiting::Choice(_) | Waiting::Nothing => {}
        }
        let turn = self.state.turn;
        if self.is_human(turn) {
            return Some(turn);
        }
        self.person()
    }

    /// `text` in the colour `code`, when the session paints: written with its key, which
    /// [`Session::shown`] turns into the terminal's escape (text from files cannot).
    pub(super) fn paint(&self, code: &str, text: &str) -> String {
        if self.color {
            let key = &self.paint_key;
            format!("{key}{code}m{text}{key}0m")
        } else {
            text.to_string()
        }
    }

    /// A reply as the terminal may show it: every control character from files escaped, the
    /// session's own colours kept.
    pub fn shown(&self, text: &str) -> String {
        if self.color {
            // Where there is colour, cards show their suits: `10♦` in red.
            let cards = suits::shown(text, &self.paint_key);
            escape_painted(&cards, &self.paint_key)
        } else {
            escape_lines(text).into_owned()
        }
    }

    /// A new game begins for the allowance of the scripts: the ruleset's and the bots'.
    pub(super) fn restart_clocks(&mut self) {
        let players: Vec<Player> = self.players.iter().map(|(_, p)| p.clone()).collect();
        // The old game's allowance closes before the new one opens.
        self.allowance = None;
        self.allowance = Some(play::Allowance::open(&self.program, &players));
    }

    /// The players of the seats: a person, or the seat's bot (made the first time it is
    /// asked for, its allowance opened then); the first bot that cannot be made, by seat,
    /// with why.
    fn seat_players(&mut self) -> (Vec<Player>, Option<(u8, String)>) {
        let mut seats = Vec::with_capacity(self.seats.len());
        let mut problem = None;
        for (i, seat) in self.seats.iter().enumerate() {
            let Some(name) = &seat.bot else {
                seats.push(Player::Person);
                continue;
            };
            if let Some((_, b)) = self.players.iter().find(|(n, _)| n == name) {
                seats.push(b.clone());
                continue;
            }
            match player(name) {
                Ok(b) => {
                    if let Some(a) = &mut self.allowance {
                        a.admit(&b);
                    }
                    self.players.push((name.clone(), b.clone()));
                    seats.push(b);
                }
                Err(e) => {
                    problem.get_or_insert((i as u8, e));
                    // Never asked: the driver stops at this seat's turn.
                    seats.push(Player::Person);
                }
            }
        }
        (seats, problem)
    }

    /// Events in words, logged for `history`; where the person at the table could not play,
    /// the hand they held (`stuck`, by the event's index: see [`Hands`]).
    pub(super) fn narrate(&mut self, events: &[Event], stuck: &[(usize, Vec<Card>)]) -> String {
        self.narrate_drawing(events, None, stuck)
    }

    /// [`Session::narrate`], naming the card a seat drew (`drawn`): at its draw where players
    /// draw by hand, right after its card where the game draws for them; never after the
    /// game's end.
    pub(super) fn narrate_drawing(
        &mut self,
        events: &[Event],
        drawn: Option<(u8, Card)>,
        stuck: &[(usize, Vec<Card>)],
    ) -> String {
        let mut out = String::new();
        let draw_line = |session: &Session, seat: u8, card: Card| {
            let who = session.name(seat);
            let verb = if who == "You" { "draw" } else { "draws" };
            format!("{who} {verb} {}.", card_name(card))
        };
        // Where the draw is told: in place of its own event, or before the event at an index.
        let (replace, before) = match drawn {
            None => (None, None),
            Some((s, _)) => {
                let own = events
                    .iter()
                    .position(|e| matches!(e, Event::Draw { seat } if *seat == s));
                let after_card = events
                    .iter()
                    .position(|e| matches!(e, Event::Play { seat, .. } if *seat == s))
                    .map(|i| i + 1);
                let end = events
                    .iter()
                    .position(|e| matches!(e, Event::GameEnd { .. }))
                    .unwrap_or(events.len());
                match own {
                    Some(i) => (Some(i), None),
                    None => (None, Some(after_card.unwrap_or(end).min(end))),
                }
            }
        };
        for (i, e) in events.iter().enumerate() {
            if before == Some(i)
                && let Some((seat, card)) = drawn
            {
                let line = draw_line(self, seat, card);
                let _ = writeln!(out, "{line}");
                self.log.push(line);
            }
            let names = |s: u8| self.name(s);
            let mut line = match (e, drawn) {
                (Event::Draw { .. }, Some((s, card))) if replace == Some(i) => {
                    draw_line(self, s, card)
                }
                // A card moved between hands: the two players see which; no one else does.
                (Event::Handed { from, to, card }, _) if self.name(*from) == "You" => {
                    format!("You hand {} to {}.", card_name(*card), self.name(*to))
                }
                (Event::Handed { from, to, card }, _) if self.name(*to) == "You" => {
                    format!("{} hands you {}.", self.name(*from), card_name(*card))
                }
                _ => present::event_text(&self.program, e, &names),
            };
            if line.is_empty() {
                continue;
            }
            if let Event::Pay { rule, .. } = e
                && let Some(o) = self.program.outcomes.get(usize::from(*rule))
            {
                line.push_str(&format!(" Rule: `{}`.", self.program.line_text(o.origin)));
            }
            if let Event::CannotPlay { seat } = e
                && let Some((_, hand)) = stuck.iter().find(|(at, _)| *at == i)
            {
                let cards: Vec<String> = hand.iter().map(|c| card_name(*c)).collect();
                line.push_str(&format!(
                    " {}: {}.",
                    self.possessive(*seat, "hand"),
                    cards.join(" ")
                ));
            }
            let shown = match e {
                Event::Pay { .. } | Event::Eliminated { .. } => self.paint("31", &line),
                Event::RoundEnd { .. } | Event::GameEnd { .. } => self.paint("1", &line),
                _ => line.clone(),
            };
            let _ = writeln!(out, "{shown}");
            self.log.push(line);
        }
        if before == Some(events.len())
            && let Some((seat, card)) = drawn
        {
            let line = draw_line(self, seat, card);
            let _ = writeln!(out, "{line}");
            self.log.push(line);
        }
        out
    }

    /// The one person at the table, whose hand the table may show when they cannot play;
    /// `None` at a table of several.
    pub(super) fn person(&self) -> Option<u8> {
        if self.humans() != 1 {
            return None;
        }
        self.seats
            .iter()
            .position(|s| s.bot.is_none())
            .and_then(|i| u8::try_from(i).ok())
    }

    /// Bots play until a human is to move or the game ends; then the human's turn is shown.
    pub(super) fn advance(&mut self) -> String {
        let mut out = String::new();
        let (seats, problem) = self.seat_players();
        let mut hands = Hands::new(&self.program, self.person(), Some(&self.state));
        let mut driver = play::Driver::within(&self.program, &seats, self.bot_rng);
        let ending = driver.play_watched(&mut self.state, &|| false, &mut hands);
        self.bot_rng = driver.into_rng();
        let (events, stuck) = hands.finish(&self.state);
        out.push_str(&self.narrate(&events, &stuck));
        let seat = self.state.turn;
        match ending {
            Ending::Over | Ending::Stuck => out.push_str(&self.game_over_text()),
            Ending::Waiting(seat) if self.is_human(seat) => {
                if self.humans() > 1 {
                    self.waiting = Waiting::Handoff(seat);
                    let _ = writeln!(
                        out,
                        "Pass the keyboard to {}, then press Enter.",
                        self.name(seat)
                    );
                } else {
                    self.waiting = Waiting::Nothing;
                    out.push_str(&self.turn_text());
                }
            }
            // A bot that could not be made (a script file gone since the game was saved).
            Ending::Waiting(_) => {
                if let Some((at, e)) = problem.filter(|(at, _)| *at == seat) {
                    let _ = writeln!(out, "{}: {e}", self.name(at));
                }
            }
            Ending::NoMove(seat) => {
                let _ = writeln!(out, "{} has no move.", self.name(seat));
            }
            Ending::Failed(e) => {
                let _ = writeln!(out, "{}'s move failed: {e}", self.name(seat));
            }
            Ending::Guard | Ending::Stopped => {
                let _ = writeln!(
                    out,
                    "{}'s move failed: {}",
                    self.name(seat),
                    play::GUARD_WORDS
                );
            }
            Ending::TurnLimit => {
                let _ = writeln!(out, "{}", PlayError::TurnLimit(TURN_LIMIT));
            }
        }
        out
    }

    /// Whether the keyboard is being passed to the next player (hot-seat): what is on the
    /// screen belongs to the one who just played, so the terminal clears it first.
    pub fn handing_off(&self) -> bool {
        matches!(self.waiting, Waiting::Handoff(_))
    }

    /// Whether the rules have players draw by hand: then the interactive game's keys
    /// (N33-14) are on, Space on an empty line drawing at once.
    pub fn draws_by_hand(&self) -> bool {
        self.program.by_hand
    }

    /// The prompt: whose turn, and the total (a card in it with its suit, where there is
    /// colour; a prompt is not painted).
    pub fn prompt(&self) -> String {
        let prompt = self.plain_prompt();
        if self.color {
            suits::shown(&prompt, "")
        } else {
            prompt
        }
    }

    fn plain_prompt(&self) -> String {
        match self.waiting {
            Waiting::Handoff(_) => "(Enter) > ".into(),
            Waiting::Choice(c) => format!("{} which way? > ", card_name(c)),
            Waiting::Draw(_) => "draw? > ".into(),
            Waiting::Nothing if self.state.over => "game over > ".into(),
            Waiting::Nothing => format!("{} > ", self.state.total),
        }
    }
}
