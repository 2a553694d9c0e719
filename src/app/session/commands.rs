//! One line of input: a command, a card, or the answer to a question the session asked.

use std::fmt::Write as _;

use super::{HELP, Reply, Seat, Session, Waiting};
use crate::base::cards::{Card, card_name, parse_card, rank_of, same_face};
use crate::compile::Loader;
use crate::engine::{self, Event, Move, Setup, State};
use crate::ir::choice_total;
use crate::play::{self, MoveError};
use crate::present;

impl Session {
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
                // `save c.json` is a command, not a label: its first word says so.
                let first = word.split_whitespace().next().unwrap_or("");
                if !word.is_empty() && !word.contains(':') && self.command_word(first).is_none() {
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
        // Space on an empty line draws where players draw by hand (N33-14); elsewhere a
        // blank line is a blank line.
        if line == " " && self.program.by_hand {
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
                    let base = super::super::load::base_program(loader, &self.program, &self.sets);
                    present::rules_sheet(&self.program, base.as_ref(), false)
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

    pub(super) fn command_word(&self, word: &str) -> Option<&'static str> {
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

    pub(super) fn error(&self, message: &str) -> Reply {
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
                play::legal_list(&self.program, &self.state)
            )
        };
        Reply {
            text: format!("{message}.{legal}\n"),
            quit: false,
        }
    }

    pub(super) fn status(&self) -> String {
        let s = &self.state;
        if s.over {
            return self.game_over_text();
        }
        format!(
            "Total {}, play goes {}, round {}. {} to play.\n",
            s.total,
            present::direction_word(s.clockwise),
            s.round,
            self.name(s.turn)
        )
    }

    pub(super) fn play(&mut self, text: &str) -> Reply {
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
        let mv = match play::parse_move(p, s, &text) {
            Ok(mv) => mv,
            Err(MoveError::NeedsChoice { card, options }) => {
                if let Ok(c) = parse_card(&card).ok_or(()) {
                    let c = s.hands[usize::from(s.turn)]
                        .cards()
                        .iter()
                        .copied()
                        .find(|x| same_face(*x, c))
                        .unwrap_or(c);
                    if s.hands[usize::from(s.turn)].cards().contains(&c) {
                        // Only the ways the limits allow now; one left is played at once.
                        let legal: Vec<u8> = s
                            .legal_moves(p)
                            .as_slice()
                            .iter()
                            .filter_map(|m| match *m {
                                Move::Play { card, choice } if same_face(card, c) => Some(choice),
                                Move::Play { .. } | Move::Draw => None,
                            })
                            .collect();
                        if let [only] = legal[..] {
                            return self.apply(Move::Play {
                                card: c,
                                choice: only,
                            });
                        }
                        if legal.is_empty() {
                            return self.error(&format!("no way to play {card} is legal now"));
                        }
                        self.waiting = Waiting::Choice(c);
                        let list: Vec<String> = s
                            .effect(p, rank_of(c))
                            .map(|fx| {
                                fx.labels
                                    .iter()
                                    .enumerate()
                                    .filter(|(i, _)| legal.contains(&(*i as u8)))
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
            Err(e @ MoveError::NotACard(_)) => {
                return self.error(&format!("{e}; or type `help` for the commands"));
            }
            Err(e) => return self.error(&e.to_string()),
        };
        if let Move::Play { card, .. } = mv
            && !s.hands[usize::from(s.turn)]
                .cards()
                .iter()
                .any(|c| same_face(*c, card))
        {
            return self.error(&format!(
                "{} is not in {}",
                card_name(card),
                self.possessive(s.turn, "hand").to_lowercase()
            ));
        }
        self.apply(mv)
    }

    pub(super) fn draw(&mut self) -> Reply {
        if !self.program.by_hand {
            return self.error("in this game everyone draws automatically");
        }
        if !self.state.pending_draw.is_some_and(|s| self.is_human(s)) {
            return self.error("there is nothing to draw now: draw right after playing your card");
        }
        self.waiting = Waiting::Nothing;
        self.apply(Move::Draw)
    }

    pub(super) fn apply(&mut self, mv: Move) -> Reply {
        let before = self.state.clone();
        let mover = self.state.turn;
        let mut events = Vec::new();
        if let Err(e) = engine::step(&self.program, &mut self.state, mv, &mut events) {
            return self.error(&present::play_error(&self.program, &e));
        }
        // Who drew: the one whose draw was pending, for a draw by hand.
        let drawer = match mv {
            Move::Draw => before.pending_draw.unwrap_or(mover),
            Move::Play { .. } => mover,
        };
        let drawn = self.drawn(&before, drawer, &events);
        let log_len = self.log.len();
        if !matches!(mv, Move::Draw) {
            self.undo.push((before, log_len));
        }
        self.unsaved = true;
        let mut text = self.narrate_drawing(&events, drawn);
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

    /// The card `seat` drew by `events` (from the hand `before` them), to name it to the
    /// one who drew it: only for a human alone at the table (at one keyboard, the next player
    /// reads the screen) and only for one card drawn with no new deal.
    fn drawn(&self, before: &State, seat: u8, events: &[Event]) -> Option<(u8, Card)> {
        if self.humans() != 1 || !self.is_human(seat) {
            return None;
        }
        if events.iter().any(|e| matches!(e, Event::Deal { .. })) {
            return None;
        }
        let mut new: Vec<Card> = self.state.hands.get(usize::from(seat))?.cards().to_vec();
        for c in before.hands.get(usize::from(seat))?.cards() {
            if let Some(i) = new.iter().position(|x| x == c) {
                new.swap_remove(i);
            }
        }
        match new[..] {
            [card] => Some((seat, card)),
            _ => None,
        }
    }

    pub(super) fn why(&self, text: &str) -> String {
        let p = &self.program;
        let s = &self.state;
        let (card_text, _) = text.split_once(':').unwrap_or((text, ""));
        let Some(card) = parse_card(card_text) else {
            return format!("`{text}` is not a card: write a rank and a suit, like `9H`.\n");
        };
        let Some(fx) = s.effect(p, rank_of(card)) else {
            return format!("{} has no effect in these rules.\n", card_name(card));
        };
        let mut out = format!(
            "{}: {} ({}: `{}`).\n",
            card_name(card),
            present::effect_words(p, fx),
            p.cite(fx.origin),
            p.line_text(fx.origin)
        );
        let held = s.hands[usize::from(s.turn)]
            .cards()
            .iter()
            .any(|c| same_face(*c, card));
        for k in 0..fx.len {
            let total = choice_total(p, &fx.choices()[usize::from(k)], &s.facts(p));
            let name = play::move_name(p, s, Move::Play { card, choice: k });
            if !p.allows(total) {
                let _ = writeln!(
                    out,
                    "  {name} is illegal now: {}.",
                    present::illegal_total(p, total)
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

    pub(super) fn undo(&mut self) -> Reply {
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

    pub(super) fn new_game(&mut self) -> Reply {
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
        self.restart_clocks();
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
}
