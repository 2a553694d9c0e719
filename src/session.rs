//! A game at the terminal, as pure data and functions: a [`Session`] takes one line of input
//! and returns what to print. The rustyline loop (`repl.rs`) and the scripted tests drive the
//! same functions.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::bots::Player;
use crate::check::{self, Loader};
use crate::describe;
use crate::engine::{self, Event, Move, PlayError, Setup, State, card_name, rank_of};
use crate::ir::Program;
use crate::sheet;

/// Who sits in a seat.
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
enum Waiting {
    /// A command from the player to move.
    Nothing,
    /// Hot-seat: the keyboard goes to this seat; any line shows their hand.
    Handoff(u8),
    /// Which way to play a choice card.
    Choice(engine::Card),
    /// Players draw by hand: the human who just played may draw before play goes on.
    Draw(u8),
}

/// A game in progress at the terminal.
#[derive(Debug)]
pub struct Session {
    pub ruleset: String,
    pub sets: Vec<(String, String)>,
    pub program: Program,
    pub seats: Vec<Seat>,
    pub state: State,
    pub seed: u64,
    undo: Vec<(State, usize)>,
    log: Vec<String>,
    bot_rng: [u64; 4],
    waiting: Waiting,
    /// Rules that reloaded fine but no longer fit the game: used by `new`.
    next_program: Option<Program>,
    pub color: bool,
    /// Moves since the last save.
    pub unsaved: bool,
    games: u64,
    /// The bots' players, loaded once by name.
    players: Vec<(String, Player)>,
}

/// The format version of save files.
pub const SAVE_VERSION: u32 = 1;

#[derive(Debug, Serialize, Deserialize)]
struct SaveFile {
    format: String,
    version: u32,
    ruleset: String,
    ruleset_name: String,
    ruleset_hash: String,
    sets: Vec<(String, String)>,
    seed: u64,
    seats: Vec<Seat>,
    state: State,
    log: Vec<String>,
}

const HELP: &str = "\
Commands (short forms in brackets):
  CARD            play a card from your hand: `9H`, `10S:-10`, `AS:11`, or its number `2`
  draw [d]        draw a card, where the rules say players draw by hand (or Space on an empty line)
  total [c]       the total and whose turn it is
  scores [s]      every player's chips
  hand            your hand, with what each card would do
  history         everything that happened this game
  why CARD        why a card is illegal, or what it would do, with the rule that decides
  rules           the rules sheet
  undo [u]        take back your last move and the bots' replies
  save FILE       save the game;  load FILE: load a saved game
  reload          read the ruleset file again after editing it
  new             a new game;  quit [q]: leave (Ctrl-D too)";

/// FNV-1a over the ruleset's files: a save file remembers which rules it was played under.
fn hash(p: &Program) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for text in &p.sources {
        for b in text.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// The ANSI colour of a warning (bright yellow).
const YELLOW: &str = "93";

fn plural(n: i32, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

impl Session {
    /// Starts a game; the text is the welcome and the first turn.
    pub fn start(loader: &dyn Loader, o: &Options) -> Result<(Session, String), String> {
        let program = crate::commands::load_program(loader, &o.ruleset, &o.sets)?;
        let players = o.players.unwrap_or(3).clamp(
            usize::from(program.min_players),
            usize::from(program.max_players),
        );
        if let Some(n) = o.players
            && n != players
        {
            return Err(format!(
                "{} is played by {} to {} players, not {n}",
                program.name, program.min_players, program.max_players
            ));
        }
        if o.humans > players {
            return Err(format!(
                "{} humans cannot sit at a table of {players}",
                o.humans
            ));
        }
        let bot_name = Player::from_name(&o.bot)?.name();
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
        let mut events = Vec::new();
        let state = engine::new_game(&program, &setup, &mut events).map_err(|e| e.to_string())?;
        let mut session = Session {
            ruleset: o.ruleset.clone(),
            sets: o.sets.clone(),
            program,
            seats,
            state,
            seed: o.seed,
            undo: Vec::new(),
            log: Vec::new(),
            bot_rng: engine::bot_rng(o.seed),
            waiting: Waiting::Nothing,
            next_program: None,
            color: o.color,
            unsaved: false,
            games: 1,
            players: Vec::new(),
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
        text.push_str(&session.narrate(&events));
        text.push_str(&session.advance());
        Ok((session, text))
    }

    fn name(&self, seat: u8) -> String {
        self.seats
            .get(usize::from(seat))
            .map_or_else(|| format!("Seat {seat}"), |s| s.name.clone())
    }

    /// "Your hand", "Bot 1's hand".
    fn possessive(&self, seat: u8, thing: &str) -> String {
        let n = self.name(seat);
        if n == "You" {
            format!("Your {thing}")
        } else {
            format!("{n}'s {thing}")
        }
    }

    fn is_human(&self, seat: u8) -> bool {
        self.seats
            .get(usize::from(seat))
            .is_some_and(|s| s.bot.is_none())
    }

    fn humans(&self) -> usize {
        self.seats.iter().filter(|s| s.bot.is_none()).count()
    }

    fn paint(&self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// Events in words, logged for `history`.
    fn narrate(&mut self, events: &[Event]) -> String {
        let mut out = String::new();
        for e in events {
            let names = |s: u8| self.name(s);
            let mut line = describe::event_text(&self.program, e, &names);
            if line.is_empty() {
                continue;
            }
            if let Event::Pay { rule, .. } = e
                && let Some(o) = self.program.outcomes.get(usize::from(*rule))
            {
                line.push_str(&format!(" Rule: `{}`.", self.program.line_text(o.origin)));
            }
            let shown = match e {
                Event::Pay { .. } | Event::Eliminated { .. } => self.paint("31", &line),
                Event::RoundEnd { .. } | Event::GameEnd { .. } => self.paint("1", &line),
                _ => line.clone(),
            };
            let _ = writeln!(out, "{shown}");
            self.log.push(line);
        }
        out
    }

    /// Bots play until a human is to move or the game ends; then the human's turn is shown.
    fn advance(&mut self) -> String {
        let mut out = String::new();
        loop {
            if self.state.over {
                out.push_str(&self.game_over_text());
                return out;
            }
            let seat = self.state.turn;
            if self.is_human(seat) {
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
                return out;
            }
            let name = self.seats[usize::from(seat)]
                .bot
                .clone()
                .unwrap_or_default();
            let bot = match self.players.iter().find(|(n, _)| *n == name) {
                Some((_, b)) => b.clone(),
                None => match Player::from_name(&name) {
                    Ok(b) => {
                        self.players.push((name, b.clone()));
                        b
                    }
                    Err(e) => {
                        let _ = writeln!(out, "{}: {e}", self.name(seat));
                        return out;
                    }
                },
            };
            let mut events = Vec::new();
            match bot.turn(
                &self.program,
                &mut self.state,
                &mut self.bot_rng,
                &mut events,
            ) {
                Ok(true) => {}
                Ok(false) => {
                    let _ = writeln!(out, "{} has no move.", self.name(seat));
                    return out;
                }
                Err(e) => {
                    let _ = writeln!(out, "{}'s move failed: {e}", self.name(seat));
                    return out;
                }
            }
            out.push_str(&self.narrate(&events));
            if self.state.turns > engine::TURN_LIMIT {
                let _ = writeln!(out, "{}", PlayError::TurnLimit(engine::TURN_LIMIT));
                return out;
            }
        }
    }

    fn game_over_text(&self) -> String {
        let winners: Vec<String> = self
            .state
            .winner_list()
            .into_iter()
            .map(|w| self.name(w))
            .collect();
        let mut out = String::new();
        let _ = writeln!(out, "{}", self.scores_text());
        let _ = writeln!(
            out,
            "Game over: {}. Type `new` for another game, or `quit`.",
            if winners.is_empty() {
                "no winner".to_string()
            } else {
                format!("{} won", winners.join(" and "))
            }
        );
        out
    }

    /// The table and the hand of the player to move, with what each card would do.
    pub fn turn_text(&self) -> String {
        let s = &self.state;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}",
            self.paint(
                "1",
                &format!(
                    "── Round {} · total {} · play goes {} ──",
                    s.round,
                    s.total,
                    crate::describe::direction_word(s.clockwise)
                )
            )
        );
        out.push_str(&self.seats_text());
        let seat = s.turn;
        let _ = writeln!(
            out,
            "{}. {}:",
            self.possessive(seat, "turn"),
            self.possessive(seat, "hand")
        );
        out.push_str(&self.hand_text(seat));
        out
    }

    fn seats_text(&self) -> String {
        let s = &self.state;
        let mut out = String::new();
        for seat in 0..s.seats {
            let status = if !s.in_game(seat) {
                "out of the game".to_string()
            } else if !s.in_round(seat) {
                format!(
                    "{}, out of this round",
                    plural(s.chips_of(&self.program, seat), "chip")
                )
            } else {
                format!(
                    "{}, {}",
                    plural(s.chips_of(&self.program, seat), "chip"),
                    plural(s.hands[usize::from(seat)].len() as i32, "card")
                )
            };
            let arrow = if seat == s.turn && !s.over {
                "  ← to play"
            } else {
                ""
            };
            let _ = writeln!(out, "  {:<10} {status}{arrow}", self.name(seat));
        }
        out
    }

    fn scores_text(&self) -> String {
        let s = &self.state;
        let list: Vec<String> = (0..s.seats)
            .map(|x| format!("{} {}", self.name(x), s.chips_of(&self.program, x)))
            .collect();
        let mut text = format!("Chips: {}.", list.join(", "));
        if s.bank > 0 || s.pot > 0 {
            text.push_str(&format!(" Bank {}, pot {}.", s.bank, s.pot));
        }
        text
    }

    /// Each card of a hand, each way to play it, and the total it would make.
    fn hand_text(&self, seat: u8) -> String {
        let s = &self.state;
        let p = &self.program;
        let mut out = String::new();
        let legal = s.legal_moves(p);
        for (i, &card) in s.hands[usize::from(seat)].cards().iter().enumerate() {
            let Some(fx) = s.effect(p, rank_of(card)) else {
                continue;
            };
            let mut ways = Vec::new();
            for k in 0..fx.len {
                let mv = Move::Play { card, choice: k };
                let total = engine::choice_total(p, &fx.choices()[usize::from(k)], s.total);
                let name = describe::move_name(p, s, mv);
                let mut w = if fx.len > 1 {
                    format!("{name} → {total}")
                } else {
                    format!("→ {total}")
                };
                if !legal.as_slice().contains(&mv) {
                    w = self.paint("2", &format!("{w} (illegal)"));
                } else if let Some(cost) = self.cost(mv) {
                    w = self.paint(YELLOW, &format!("{w} (costs {cost})"));
                }
                ways.push(w);
            }
            let _ = writeln!(
                out,
                "  {}. {:<4} {}",
                i + 1,
                card_name(card),
                ways.join("   ")
            );
        }
        if s.hands[usize::from(seat)].is_empty() {
            let _ = writeln!(out, "  (no cards)");
        }
        out
    }

    /// How many chips a legal move would cost its player at once.
    fn cost(&self, mv: Move) -> Option<String> {
        let p = &self.program;
        let seat = self.state.turn;
        let mut copy = self.state.clone();
        let before = copy.chips_of(p, seat);
        engine::step(p, &mut copy, mv, &mut ()).ok()?;
        let lost = before - copy.chips_of(p, seat);
        (lost > 0).then(|| format!("{lost} chip{}", if lost == 1 { "" } else { "s" }))
    }

    /// One line of input.
    pub fn handle(&mut self, loader: &dyn Loader, line: &str) -> Reply {
        let line = line.trim_end_matches(['\n', '\r']);
        match self.waiting {
            Waiting::Handoff(_) => {
                self.waiting = Waiting::Nothing;
                let text = self.turn_text();
                return Reply { text, quit: false };
            }
            Waiting::Choice(card) => {
                self.waiting = Waiting::Nothing;
                let word = line.trim();
                if !word.is_empty() && !word.contains(':') && self.command_word(word).is_none() {
                    // A label (`11`), or the choice's place in the list (`2`).
                    let choice = match self.state.effect(&self.program, rank_of(card)) {
                        Some(fx)
                            if !fx.labels.iter().any(|l| l == word.trim_start_matches('+')) =>
                        {
                            word.parse::<usize>()
                                .ok()
                                .and_then(|i| fx.labels.get(i.wrapping_sub(1)))
                                .cloned()
                                .unwrap_or_else(|| word.to_string())
                        }
                        _ => word.to_string(),
                    };
                    return self.play(&format!("{}:{choice}", card_name(card)));
                }
            }
            Waiting::Draw(seat) => {
                let word = line.trim().to_ascii_lowercase();
                if word.is_empty() && line != " " {
                    self.waiting = Waiting::Nothing;
                    let mut text = format!(
                        "{} not draw.\n",
                        if self.name(seat) == "You" {
                            "You do".to_string()
                        } else {
                            format!("{} does", self.name(seat))
                        }
                    );
                    text.push_str(&self.advance());
                    return Reply { text, quit: false };
                }
            }
            Waiting::Nothing => {}
        }
        let trimmed = line.trim();
        if line == " " {
            return self.draw();
        }
        if trimmed.is_empty() {
            return Reply {
                text: self.status(),
                quit: false,
            };
        }
        let (word, rest) = trimmed
            .split_once(char::is_whitespace)
            .unwrap_or((trimmed, ""));
        let rest = rest.trim();
        match self.command_word(&word.to_ascii_lowercase()) {
            Some("help") => Reply {
                text: format!("{HELP}\n"),
                quit: false,
            },
            Some("quit") => Reply {
                text: String::new(),
                quit: true,
            },
            Some("total") => Reply {
                text: self.status(),
                quit: false,
            },
            Some("scores") => Reply {
                text: format!("{}\n", self.scores_text()),
                quit: false,
            },
            Some("hand") => {
                let seat = self.state.turn;
                Reply {
                    text: format!(
                        "{} (total {}):\n{}",
                        self.possessive(seat, "hand"),
                        self.state.total,
                        self.hand_text(seat)
                    ),
                    quit: false,
                }
            }
            Some("history") => {
                let text = if self.log.is_empty() {
                    "Nothing has happened yet.\n".to_string()
                } else {
                    format!("{}\n", self.log.join("\n"))
                };
                Reply { text, quit: false }
            }
            Some("why") if rest.is_empty() => self.error("`why` needs a card: `why 9H`"),
            Some("why") => Reply {
                text: self.why(rest),
                quit: false,
            },
            Some("rules") => Reply {
                text: {
                    let base = crate::commands::base_program(loader, &self.program, &self.sets);
                    sheet::rules_sheet(&self.program, base.as_ref(), false)
                },
                quit: false,
            },
            Some("undo") => self.undo(),
            Some("save") if rest.is_empty() => {
                self.error("`save` needs a file name: `save game.json`")
            }
            Some("save") => self.save(rest),
            Some("load") if rest.is_empty() => {
                self.error("`load` needs a file name: `load game.json`")
            }
            Some("load") => self.load(loader, rest),
            Some("reload") => self.reload(loader),
            Some("new") => self.new_game(),
            Some("draw") => self.draw(),
            Some("play") if rest.is_empty() => self.error("`play` needs a card: `play 9H`"),
            Some("play") => self.play(rest),
            Some(_) | None => self.play(trimmed),
        }
    }

    fn command_word(&self, word: &str) -> Option<&'static str> {
        Some(match word {
            "help" | "h" | "?" => "help",
            "quit" | "q" | "exit" => "quit",
            "total" | "c" | "t" => "total",
            "scores" | "s" | "score" => "scores",
            "hand" => "hand",
            "history" | "log" => "history",
            "why" | "w" => "why",
            "rules" => "rules",
            "undo" | "u" => "undo",
            "save" => "save",
            "load" => "load",
            "reload" => "reload",
            "new" => "new",
            "draw" | "d" => "draw",
            "play" | "p" => "play",
            _ => return None,
        })
    }

    /// All commands, for completion.
    pub const COMMANDS: [&'static str; 15] = [
        "help", "quit", "total", "scores", "hand", "history", "why", "rules", "undo", "save",
        "load", "reload", "new", "draw", "play",
    ];

    /// The cards of the player to move, for completion.
    pub fn completions(&self) -> Vec<String> {
        let s = &self.state;
        let mut out = Vec::new();
        for &card in s.hands[usize::from(s.turn)].cards() {
            out.push(card_name(card));
            if let Some(fx) = s.effect(&self.program, rank_of(card))
                && fx.len > 1
            {
                for l in &fx.labels {
                    out.push(format!("{}:{l}", card_name(card)));
                }
            }
        }
        out
    }

    fn error(&self, message: &str) -> Reply {
        let mut chars = message.chars();
        let message = match chars.next() {
            Some(c) => format!("{}{}", c.to_uppercase(), chars.as_str()),
            None => String::new(),
        };
        let legal = if self.state.over {
            String::new()
        } else {
            format!(
                " Legal moves: {}.",
                describe::legal_list(&self.program, &self.state)
            )
        };
        Reply {
            text: format!("{message}.{legal}\n"),
            quit: false,
        }
    }

    fn status(&self) -> String {
        let s = &self.state;
        if s.over {
            return self.game_over_text();
        }
        format!(
            "Total {}, play goes {}, round {}. {} to play.\n",
            s.total,
            crate::describe::direction_word(s.clockwise),
            s.round,
            self.name(s.turn)
        )
    }

    fn play(&mut self, text: &str) -> Reply {
        if self.state.over {
            return Reply {
                text: "The game is over: type `new` for another game.\n".into(),
                quit: false,
            };
        }
        let p = &self.program;
        let s = &self.state;
        // A number picks a card by its place in the hand.
        let text = match text.parse::<usize>() {
            Ok(i) => match s.hands[usize::from(s.turn)].cards().get(i.wrapping_sub(1)) {
                Some(&c) => card_name(c),
                None => {
                    return self.error(&format!(
                        "there is no card {i} in the hand (1 to {})",
                        s.hands[usize::from(s.turn)].len()
                    ));
                }
            },
            Err(_) => text.to_string(),
        };
        let mv = match describe::parse_move(p, s, &text) {
            Ok(mv) => mv,
            Err(describe::MoveError::NeedsChoice { card, options }) => {
                if let Ok(c) = engine::parse_card(&card).ok_or(()) {
                    let c = s.hands[usize::from(s.turn)]
                        .cards()
                        .iter()
                        .copied()
                        .find(|x| x % 56 == c)
                        .unwrap_or(c);
                    if s.hands[usize::from(s.turn)].cards().contains(&c) {
                        self.waiting = Waiting::Choice(c);
                        let list: Vec<String> = s
                            .effect(p, rank_of(c))
                            .map(|fx| {
                                fx.labels
                                    .iter()
                                    .enumerate()
                                    .map(|(i, l)| format!("{}) {}:{l}", i + 1, card_name(c)))
                                    .collect()
                            })
                            .unwrap_or_default();
                        let _ = options;
                        return Reply {
                            text: format!(
                                "Which way? {} (type the number or the choice).\n",
                                list.join("   ")
                            ),
                            quit: false,
                        };
                    }
                }
                return self.error(&format!("{card} needs a choice: {options}"));
            }
            Err(e @ describe::MoveError::NotACard(_)) => {
                return self.error(&format!("{e}; or type `help` for the commands"));
            }
            Err(e) => return self.error(&e.to_string()),
        };
        if let Move::Play { card, .. } = mv
            && !s.hands[usize::from(s.turn)]
                .cards()
                .iter()
                .any(|c| c % 56 == card % 56)
        {
            return self.error(&format!(
                "{} is not in {}",
                card_name(card),
                self.possessive(s.turn, "hand").to_lowercase()
            ));
        }
        self.apply(mv)
    }

    fn draw(&mut self) -> Reply {
        if !self.program.by_hand {
            return self.error("in this game everyone draws automatically");
        }
        if !self.state.pending_draw.is_some_and(|s| self.is_human(s)) {
            return self.error("there is nothing to draw now: draw right after playing your card");
        }
        self.waiting = Waiting::Nothing;
        self.apply(Move::Draw)
    }

    fn apply(&mut self, mv: Move) -> Reply {
        let before = self.state.clone();
        let mover = self.state.turn;
        let mut events = Vec::new();
        if let Err(e) = engine::step(&self.program, &mut self.state, mv, &mut events) {
            return self.error(&match e {
                PlayError::Illegal { card, why } => format!("{card} cannot be played: {why}"),
                other => other.to_string(),
            });
        }
        if !matches!(mv, Move::Draw) {
            self.undo.push((before, self.log.len()));
        }
        self.unsaved = true;
        let mut text = self.narrate(&events);
        if matches!(mv, Move::Play { .. })
            && self.program.by_hand
            && self.state.pending_draw == Some(mover)
            && self.is_human(mover)
            && !self.state.over
        {
            self.waiting = Waiting::Draw(mover);
            let _ = writeln!(
                text,
                "Draw a card (`draw`, or Space then Enter), or press Enter to go on without drawing."
            );
            return Reply { text, quit: false };
        }
        text.push_str(&self.advance());
        Reply { text, quit: false }
    }

    fn why(&self, text: &str) -> String {
        let p = &self.program;
        let s = &self.state;
        let (card_text, _) = text.split_once(':').unwrap_or((text, ""));
        let Some(card) = engine::parse_card(card_text) else {
            return format!("`{text}` is not a card: write a rank and a suit, like `9H`.\n");
        };
        let Some(fx) = s.effect(p, rank_of(card)) else {
            return format!("{} has no effect in these rules.\n", card_name(card));
        };
        let mut out = format!(
            "{}: {} ({}: `{}`).\n",
            card_name(card),
            sheet::effect_words(p, fx),
            p.cite(fx.origin),
            p.line_text(fx.origin)
        );
        let held = s.hands[usize::from(s.turn)]
            .cards()
            .iter()
            .any(|c| c % 56 == card % 56);
        for k in 0..fx.len {
            let total = engine::choice_total(p, &fx.choices()[usize::from(k)], s.total);
            let name = describe::move_name(p, s, Move::Play { card, choice: k });
            if !State::allowed(p, total) {
                let _ = writeln!(
                    out,
                    "  {name} is illegal now: {}.",
                    engine::illegal_reason(p, total)
                );
            } else {
                let cost = if held {
                    self.cost(Move::Play { card, choice: k })
                } else {
                    None
                };
                let _ = writeln!(
                    out,
                    "  {name} would make the total {total}{}.",
                    cost.map_or(String::new(), |c| format!(" and cost {c}"))
                );
            }
        }
        if !held && !s.over {
            let _ = writeln!(
                out,
                "  ({} is not in {}.)",
                card_name(card),
                self.possessive(s.turn, "hand").to_lowercase()
            );
        }
        out
    }

    fn undo(&mut self) -> Reply {
        let Some((state, log_len)) = self.undo.pop() else {
            return Reply {
                text: "There is nothing to undo.\n".into(),
                quit: false,
            };
        };
        self.state = state;
        self.log.truncate(log_len);
        self.waiting = Waiting::Nothing;
        let mut text = String::from("Taken back.\n");
        text.push_str(&self.advance());
        Reply { text, quit: false }
    }

    fn new_game(&mut self) -> Reply {
        if let Some(p) = self.next_program.take() {
            self.program = p;
        }
        self.games += 1;
        let seed = self.seed.wrapping_add(self.games - 1);
        let players = self.seats.len().clamp(
            usize::from(self.program.min_players),
            usize::from(self.program.max_players),
        );
        self.seats.truncate(players);
        while self.seats.len() < players {
            let n = self.seats.len();
            self.seats.push(Seat {
                name: format!("Bot {n}"),
                bot: Some("cautious".into()),
            });
        }
        let setup = Setup {
            players,
            seed,
            ..Setup::default()
        };
        let mut events = Vec::new();
        match engine::new_game(&self.program, &setup, &mut events) {
            Ok(state) => {
                self.state = state;
                self.undo.clear();
                self.log.clear();
                self.waiting = Waiting::Nothing;
                self.unsaved = false;
                let mut text = format!("A new game of {}.\n", self.program.name);
                text.push_str(&self.narrate(&events));
                text.push_str(&self.advance());
                Reply { text, quit: false }
            }
            Err(e) => self.error(&e.to_string()),
        }
    }

    fn save(&mut self, path: &str) -> Reply {
        let file = SaveFile {
            format: "ninety-save".into(),
            version: SAVE_VERSION,
            ruleset: self.ruleset.clone(),
            ruleset_name: self.program.name.clone(),
            ruleset_hash: hash(&self.program),
            sets: self.sets.clone(),
            seed: self.seed,
            seats: self.seats.clone(),
            state: self.state.clone(),
            log: self.log.clone(),
        };
        let json = match serde_json::to_string_pretty(&file) {
            Ok(j) => j,
            Err(e) => {
                return Reply {
                    text: format!("Could not save: {e}.\n"),
                    quit: false,
                };
            }
        };
        // Write beside the target, then rename: a crash never leaves half a save.
        let tmp = format!("{path}.tmp-{}", std::process::id());
        let result = std::fs::write(&tmp, json).and_then(|()| std::fs::rename(&tmp, path));
        match result {
            Ok(()) => {
                self.unsaved = false;
                Reply {
                    text: format!("Saved to {path}.\n"),
                    quit: false,
                }
            }
            Err(e) => {
                let _ = std::fs::remove_file(&tmp);
                Reply {
                    text: format!("Could not save to {path}: {e}. The game goes on.\n"),
                    quit: false,
                }
            }
        }
    }

    fn load(&mut self, loader: &dyn Loader, path: &str) -> Reply {
        let refuse = |why: String| Reply {
            text: format!("Cannot load {path}: {why}. The game goes on.\n"),
            quit: false,
        };
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => return refuse(e.to_string()),
        };
        let file: SaveFile = match serde_json::from_str(&text) {
            Ok(f) => f,
            Err(e) if e.is_eof() => return refuse("the file is truncated".into()),
            Err(e) => {
                return refuse(format!(
                    "the file is not a saved game, or it is corrupt ({e})"
                ));
            }
        };
        if file.format != "ninety-save" {
            return refuse("the file is not a ninety saved game".into());
        }
        if file.version != SAVE_VERSION {
            return refuse(format!(
                "it was saved by another version of ninety (save format {}, this one reads {SAVE_VERSION})",
                file.version
            ));
        }
        let program = match crate::commands::load_program(loader, &file.ruleset, &file.sets) {
            Ok(p) => p,
            Err(e) => return refuse(format!("its ruleset `{}` does not load: {e}", file.ruleset)),
        };
        if program.name != file.ruleset_name || hash(&program) != file.ruleset_hash {
            return refuse(format!(
                "it was played under another ruleset (or another version of `{}`); load it with the same rules",
                file.ruleset
            ));
        }
        let st = &file.state;
        let n = usize::from(st.seats);
        if n != file.seats.len()
            || n < usize::from(program.min_players)
            || n > usize::from(program.max_players)
            || usize::from(st.turn) >= n
        {
            return refuse("the file is corrupt (its seats do not match)".into());
        }
        if let Err(e) = st.check_invariants(&program) {
            return refuse(format!("the file is corrupt ({e})"));
        }
        self.program = program;
        self.ruleset = file.ruleset;
        self.sets = file.sets;
        self.seed = file.seed;
        self.seats = file.seats;
        self.state = file.state;
        self.log = file.log;
        self.undo.clear();
        self.waiting = Waiting::Nothing;
        self.unsaved = false;
        let mut text = format!("Loaded {path}.\n");
        text.push_str(&self.advance());
        Reply { text, quit: false }
    }

    fn reload(&mut self, loader: &dyn Loader) -> Reply {
        let checked = match check::check(loader, &self.ruleset, &self.sets) {
            Ok(c) => c,
            Err(e) => {
                return Reply {
                    text: format!("Cannot reload: {e}. The game goes on under the old rules.\n"),
                    quit: false,
                };
            }
        };
        let Some(program) = checked.program else {
            let diags: Vec<String> = checked
                .diags
                .iter()
                .filter(|d| d.is_error())
                .map(|d| d.render_plain(90))
                .collect();
            return Reply {
                text: format!(
                    "{}\nThe ruleset no longer checks; the game goes on under the old rules.\n",
                    diags.join("\n")
                ),
                quit: false,
            };
        };
        let fits = usize::from(self.state.seats) >= usize::from(program.min_players)
            && usize::from(self.state.seats) <= usize::from(program.max_players)
            && self.state.check_invariants(&program).is_ok()
            && self
                .state
                .hands
                .iter()
                .take(usize::from(self.state.seats))
                .all(|h| {
                    h.cards().iter().all(|c| {
                        program.rank_fx[usize::from(program.min_players)][usize::from(rank_of(*c))]
                            != crate::ir::NO_EFFECT
                    })
                });
        if fits {
            self.program = program;
            self.undo.clear();
            let mut text = String::from("Reloaded: the game goes on under the new rules.\n");
            text.push_str(&self.advance());
            Reply { text, quit: false }
        } else {
            self.next_program = Some(program);
            Reply {
                text: "Reloaded, but the new rules do not fit this game (another deck or table): type `new` to start a new game under them.\n".into(),
                quit: false,
            }
        }
    }

    /// The prompt: whose turn, and the total.
    pub fn prompt(&self) -> String {
        match self.waiting {
            Waiting::Handoff(_) => "(Enter) > ".into(),
            Waiting::Choice(c) => format!("{} which way? > ", card_name(c)),
            Waiting::Draw(_) => "draw? > ".into(),
            Waiting::Nothing if self.state.over => "game over > ".into(),
            Waiting::Nothing => format!("{} > ", self.state.total),
        }
    }
}
