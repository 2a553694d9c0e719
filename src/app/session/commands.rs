//! One line of input: a command, a card, or the answer to a question the session asked.

use std::fmt::Write as _;

use super::{DRAW_QUESTION, HELP, Hands, Reply, Seat, Session, Waiting};
use crate::base::cards::{Card, card_name, parse_card, rank_of, same_face};
use crate::compile::Loader;
use crate::engine::{self, Event, Move, Setup, State};
use crate::ir::{OtherKind, choice_total};
use crate::play::{self, MoveError};
use crate::present;

impl Session {
    pub fn handle(&mut self, loader: &dyn Loader, line: &str) -> Reply {
        let line = line.trim_end_matches(['\n', '\r']);
        // A suit pasted from the screen (`10♦`) is read as its letter.
        let line = &*super::suits::typed(line);
        match self.waiting {
            Waiting::Handoff(_) if self.first_command(line) != Some("quit") => {
                self.waiting = Waiting::Nothing;
                let text = self.turn_text();
                Reply { text, quit: false }
            }
            Waiting::Choice(card) => self.answer_choice(loader, card, line),
            Waiting::Draw(seat) => self.answer_draw(loader, seat, line),
            Waiting::Handoff(_) | Waiting::Nothing => self.command(loader, line),
        }
    }

    /// The command a line starts with, if it starts with one.
    fn first_command(&self, line: &str) -> Option<&'static str> {
        let first = line.split_whitespace().next()?;
        self.command_word(&first.to_ascii_lowercase())
    }

    /// The question the session waits on an answer to, asked again after a command that
    /// only told something: which way to play a card, whether to draw.
    pub(super) fn question(&self) -> String {
        match self.waiting {
            Waiting::Choice(card) => self.choice_question(card),
            Waiting::Draw(_) => DRAW_QUESTION.to_string(),
            Waiting::Handoff(_) | Waiting::Nothing => String::new(),
        }
    }

    /// A command typed while a question waits. One that only tells something (`help`,
    /// `hand`, `why`, `save`...) is answered and the question asked again; one that changes
    /// the game (`undo`, `new`, `load`, `reload`, `quit`) leaves the question, unless it
    /// changed nothing (`undo` with nothing to undo), when the question is asked again.
    /// `None` when the line is no such command: `play` and `draw` are answers, not commands,
    /// here.
    fn command_during_question(&mut self, loader: &dyn Loader, line: &str) -> Option<Reply> {
        let waiting = self.waiting;
        match self.first_command(line)? {
            "play" | "draw" => None,
            "quit" => Some(self.command(loader, line)),
            "undo" | "new" | "load" | "reload" => {
                let before = self.state.clone();
                self.waiting = Waiting::Nothing;
                let mut reply = self.command(loader, line);
                if self.state == before && self.waiting == Waiting::Nothing {
                    self.waiting = waiting;
                    reply.text.push_str(&self.question());
                }
                Some(reply)
            }
            _ => {
                let mut reply = self.command(loader, line);
                reply.text.push_str(&self.question());
                Some(reply)
            }
        }
    }

    /// The legal ways to play `card` now: each as its number in the list of the card's ways
    /// (from 1), its choice, and its name (`AH:11`).
    fn ways(&self, card: Card) -> Vec<(usize, u8, String)> {
        let p = &self.program;
        let s = &self.state;
        s.legal_moves(p)
            .as_slice()
            .iter()
            .filter_map(|m| match m.laid() {
                Some((c, choice)) if same_face(c, card) => Some((
                    usize::from(choice) + 1,
                    choice,
                    play::move_name(p, s, Move::Play { card, choice }),
                )),
                _ => None,
            })
            .fold(Vec::new(), |mut out: Vec<(usize, u8, String)>, w| {
                // A card that names a player is one way for each player: listed once.
                if !out.iter().any(|o| o.1 == w.1) {
                    out.push(w);
                }
                out
            })
    }

    /// "Which way? 1) AH:1   2) AH:11 (...)."
    fn choice_question(&self, card: Card) -> String {
        let list: Vec<String> = self
            .ways(card)
            .iter()
            .map(|(n, _, name)| format!("{n}) {name}"))
            .collect();
        format!(
            "Which way? {} (type the number or the choice, or `back` to play another card).\n",
            list.join("   ")
        )
    }

    /// What a player may answer to "which way?", in words: "type 1 for AH:1 or 2 for
    /// AH:11, or `back` to play another card".
    fn choice_answers(&self, card: Card) -> String {
        let list: Vec<String> = self
            .ways(card)
            .iter()
            .map(|(n, _, name)| format!("{n} for {name}"))
            .collect();
        let list = match list.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        };
        format!("type {list}, or `back` to play another card")
    }

    /// The way of playing `card` that `answer` names: a label (`11`, `+11`), the card with
    /// one (`AH:11`), or a way's number in the list (`2`).
    fn choice_named(&self, card: Card, answer: &str) -> Option<u8> {
        let p = &self.program;
        let s = &self.state;
        let answer = answer.trim();
        let full = if answer.contains(':') {
            answer.to_string()
        } else {
            format!("{}:{answer}", card_name(card))
        };
        if let Ok(Move::Play { card: c, choice }) = play::parse_move(p, s, &full)
            && same_face(c, card)
        {
            return Some(choice);
        }
        let n = answer.parse::<usize>().ok()?;
        let fx = s.effect(p, rank_of(card))?;
        (1..=usize::from(fx.len))
            .contains(&n)
            .then(|| (n - 1) as u8)
    }

    /// An answer to "which way?" for `card`: a way to play it, `back`, or a command; anything
    /// else asks again, saying what is accepted (a number here is never a card of the hand).
    fn answer_choice(&mut self, loader: &dyn Loader, card: Card, line: &str) -> Reply {
        let word = line.trim();
        let reply = |text: String| Reply { text, quit: false };
        if word.is_empty() {
            return reply(self.choice_question(card));
        }
        if matches!(word.to_ascii_lowercase().as_str(), "back" | "b" | "cancel") {
            self.waiting = Waiting::Nothing;
            return reply(format!(
                "{} stays in your hand: type a card to play it.\n",
                card_name(card)
            ));
        }
        // `play 2`, `p AH:11`: the answer after the word.
        let answer = match self.first_command(word) {
            Some("play") => word.split_once(char::is_whitespace).map_or("", |(_, r)| r),
            _ => word,
        };
        if let Some(choice) = self.choice_named(card, answer) {
            let mv = Move::Play { card, choice };
            if self.ways(card).iter().any(|(_, c, _)| *c == choice) {
                self.waiting = Waiting::Nothing;
                return self.apply(mv);
            }
            let mut copy = self.state.clone();
            let why = match engine::step(&self.program, &mut copy, mv, &mut ()) {
                Err(e) => present::play_error(&self.program, &e),
                Ok(()) => format!(
                    "{} cannot be played now",
                    play::move_name(&self.program, &self.state, mv)
                ),
            };
            return reply(format!("{why}: {}.\n", self.choice_answers(card)));
        }
        if let Some(r) = self.command_during_question(loader, word) {
            return r;
        }
        reply(format!(
            "`{word}` is not a way to play {}: {}.\n",
            card_name(card),
            self.choice_answers(card)
        ))
    }

    /// An answer to "draw a card?": `draw` (or Space), Enter to go on without drawing, or a
    /// command; anything else asks again (a card typed now is never played for the next
    /// player).
    fn answer_draw(&mut self, loader: &dyn Loader, seat: u8, line: &str) -> Reply {
        let word = line.trim().to_ascii_lowercase();
        if line == " " || matches!(word.as_str(), "draw" | "d" | "yes" | "y") {
            return self.draw();
        }
        if word.is_empty() || matches!(word.as_str(), "no" | "n") {
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
        if let Some(r) = self.command_during_question(loader, line) {
            return r;
        }
        Reply {
            text: format!(
                "`{}` is not an answer here: type `draw` (or Space, then Enter) to draw a card, or press Enter to go on without drawing.\n",
                line.trim()
            ),
            quit: false,
        }
    }

    /// A command, a card or a move, at the main prompt.
    fn command(&mut self, loader: &dyn Loader, line: &str) -> Reply {
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
            Some("hand") => Reply {
                text: match self.viewer() {
                    Some(seat) => format!(
                        "{} (total {}):\n{}",
                        self.possessive(seat, "hand"),
                        self.state.total,
                        self.hand_text(seat)
                    ),
                    None => "No hand to show now.\n".to_string(),
                },
                quit: false,
            },
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
        match self.waiting {
            Waiting::Choice(card) => {
                return self.ways(card).into_iter().map(|(_, _, n)| n).collect();
            }
            Waiting::Draw(_) => return vec!["draw".to_string()],
            Waiting::Handoff(_) => return out,
            Waiting::Nothing if !self.is_human(s.turn) => return out,
            Waiting::Nothing => {}
        }
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
        // The moves of the person to play: never another's (the next player's, while the
        // one who played is asked to draw).
        let theirs = matches!(self.waiting, Waiting::Nothing | Waiting::Choice(_))
            && self.is_human(self.state.turn);
        let legal = if self.state.over || !theirs {
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
        if !self.is_human(self.state.turn) {
            return Reply {
                text: format!("It is {}'s turn, not yours.\n", self.name(self.state.turn)),
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
                        let legal = self.ways(c);
                        if let [(_, only, _)] = legal[..] {
                            return self.apply(Move::Play {
                                card: c,
                                choice: only,
                            });
                        }
                        if legal.is_empty() {
                            return self.error(&format!("no way to play {card} is legal now"));
                        }
                        self.waiting = Waiting::Choice(c);
                        return Reply {
                            text: self.choice_question(c),
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
        let mut hands = Hands::new(&self.program, self.person(), Some(&before));
        if let Err(e) = engine::step(&self.program, &mut self.state, mv, &mut hands) {
            return self.error(&present::play_error(&self.program, &e));
        }
        let (events, stuck) = hands.finish(&self.state);
        // Who drew: the one whose draw was pending, for a draw by hand.
        let drawer = match mv {
            Move::Draw => before.pending_draw.unwrap_or(mover),
            Move::Play { .. }
            | Move::Aim { .. }
            | Move::Give { .. }
            | Move::Other { .. }
            | Move::Yield => mover,
        };
        let drawn = self.drawn(&before, drawer, &events);
        let log_len = self.log.len();
        if !matches!(mv, Move::Draw) {
            self.undo.push((before, log_len));
        }
        self.unsaved = true;
        let mut text = self.narrate_drawing(&events, drawn, &stuck);
        if matches!(
            mv,
            Move::Play { .. } | Move::Aim { .. } | Move::Give { .. } | Move::Other { .. }
        ) && self.program.by_hand
            && self.state.pending_draw == Some(mover)
            && self.is_human(mover)
            && !self.state.over
        {
            self.waiting = Waiting::Draw(mover);
            text.push_str(DRAW_QUESTION);
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

    /// `why stock`, `why discard`, `why pass`, `why yield`: the rule of a move beside laying
    /// a card, and whether the player to move may make it now; `None` for other words.
    fn why_move(&self, text: &str) -> Option<String> {
        let p = &self.program;
        let s = &self.state;
        let word = text.split_whitespace().next()?.to_ascii_lowercase();
        if word == "yield" {
            let rule = present::cannot_play_words(p);
            return Some(format!(
                "yield: a player who cannot lay a card, and is offered another move, may take what the rules give a player who cannot play instead ({rule}).\n"
            ));
        }
        let kind = match word.as_str() {
            "stock" => |k: OtherKind| k == OtherKind::LayTop,
            "pass" => |k: OtherKind| k == OtherKind::Pass,
            "discard" => |k: OtherKind| matches!(k, OtherKind::Discard(_)),
            _ => return None,
        };
        let mut out = String::new();
        for (i, o) in p.others.iter().enumerate().filter(|(_, o)| kind(o.kind)) {
            let _ = writeln!(
                out,
                "{word}: {} ({}: `{}`).",
                present::other_rule(p, o),
                p.cite(o.origin),
                p.line_text(o.origin)
            );
            let open = s
                .legal_moves(p)
                .as_slice()
                .iter()
                .any(|m| matches!(m, Move::Other { index, .. } if usize::from(*index) == i));
            let viewer_moves = self.viewer() == Some(s.turn) && !s.over;
            if viewer_moves {
                let _ = writeln!(
                    out,
                    "  {}",
                    if open {
                        "You may make this move now."
                    } else {
                        "You may not make this move now."
                    }
                );
            }
        }
        if out.is_empty() {
            out = format!("`{word}` is not a move of these rules.\n");
        }
        Some(out)
    }

    pub(super) fn why(&self, text: &str) -> String {
        let p = &self.program;
        let s = &self.state;
        if let Some(words) = self.why_move(text) {
            return words;
        }
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
        // Only the hand of the person asking is looked in: never another player's.
        let viewer = self.viewer();
        let held = viewer.is_some_and(|v| {
            s.hands[usize::from(v)]
                .cards()
                .iter()
                .any(|c| same_face(*c, card))
        });
        // What a move would cost is asked of the player to move.
        let to_play = held && viewer == Some(s.turn) && !s.over;
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
                let cost = if to_play {
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
        if let Some(v) = viewer
            && !held
            && !s.over
        {
            let _ = writeln!(
                out,
                "  ({} is not in {}.)",
                card_name(card),
                self.possessive(v, "hand").to_lowercase()
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
        let mut hands = Hands::new(&self.program, self.person(), None);
        self.restart_clocks();
        match engine::new_game(&self.program, &setup, &mut hands) {
            Ok(state) => {
                let (events, stuck) = hands.finish(&state);
                self.state = state;
                self.undo.clear();
                self.log.clear();
                self.waiting = Waiting::Nothing;
                self.unsaved = false;
                let mut text = format!("A new game of {}.\n", self.program.name);
                text.push_str(&self.narrate(&events, &stuck));
                text.push_str(&self.advance());
                Reply { text, quit: false }
            }
            Err(e) => self.error(&e.to_string()),
        }
    }
}
