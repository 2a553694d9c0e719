//! What the session shows: the table, a hand with what each card would do, scores, the end.

use std::fmt::Write as _;

use super::{Session, YELLOW, plural};
use crate::base::cards::{Card, card_name, rank_of};
use crate::engine::{self, Move};
use crate::ir::{Act, Effect, choice_total};
use crate::play;
use crate::present;

impl Session {
    pub(super) fn game_over_text(&self) -> String {
        if let Some(stall) = self.state.stuck {
            return format!(
                "{}\nThe game stopped: {}. Type `new` for another game, or `quit`.\n",
                self.scores_text(),
                present::stall_words(&self.program, stall)
            );
        }
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
                    present::direction_word(s.clockwise)
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

    pub(super) fn seats_text(&self) -> String {
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

    pub(super) fn scores_text(&self) -> String {
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
    pub(super) fn hand_text(&self, seat: u8) -> String {
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
                let total = choice_total(p, &fx.choices()[usize::from(k)], &s.facts(p));
                let name = play::move_name(p, s, mv);
                let mut w = if fx.len > 1 {
                    format!("{name} → {total}")
                } else {
                    format!("→ {total}")
                };
                // Legal or not, and at what cost, only for the player to move: the moves
                // listed are theirs.
                let theirs = seat == s.turn;
                let laid = |m: &Move| m.laid() == Some((card, k));
                if theirs && !legal.as_slice().iter().any(laid) {
                    w = self.paint("2", &format!("{w} (illegal)"));
                } else if theirs && let Some(cost) = self.cost(mv) {
                    w = self.paint(YELLOW, &format!("{w} (costs {cost})"));
                }
                ways.push(w);
            }
            // What the card does beside moving the total (`reverse`, `add 3 and skip`,
            // `set the total to 99`), so the list teaches what `why` would.
            if !plain(fx) {
                ways.push(format!("({})", present::effect_words(p, fx)));
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
        if seat == s.turn && !s.over {
            out.push_str(&self.more_moves_text(&legal));
        }
        out
    }

    /// The moves of the player to move beside laying a card, and how to name a player with
    /// a card that names one: a line each.
    fn more_moves_text(&self, legal: &engine::Moves) -> String {
        let s = &self.state;
        let p = &self.program;
        let mut out = String::new();
        let mut named: Vec<Card> = Vec::new();
        for &m in legal.as_slice() {
            match m {
                Move::Aim { card, choice, .. } => {
                    if named.contains(&card) {
                        continue;
                    }
                    named.push(card);
                    if let Some(list) = play::player_options(p, s, card, choice) {
                        let seats: Vec<String> = s
                            .nameable()
                            .map(|x| format!("{x} is {}", self.name(x)))
                            .collect();
                        let _ = writeln!(
                            out,
                            "  {} names a player: {list} ({}).",
                            card_name(card),
                            seats.join(", ")
                        );
                    }
                }
                Move::Give { card, choice, .. } => {
                    if named.contains(&card) {
                        continue;
                    }
                    named.push(card);
                    if let Some(list) = play::gift_options(p, s, card, choice) {
                        let _ = writeln!(
                            out,
                            "  {} gives a card of your choice: {list}.",
                            card_name(card)
                        );
                    }
                }
                Move::Other { index, .. } => {
                    let Some(o) = p.others.get(usize::from(index)) else {
                        continue;
                    };
                    let _ = writeln!(
                        out,
                        "  `{}`: {}.",
                        play::move_name(p, s, m),
                        present::other_rule(p, o)
                    );
                }
                Move::Yield => {
                    let what = present::cannot_play_words(p);
                    let _ = writeln!(
                        out,
                        "  `yield`: take what the rules give a player who cannot play ({what})."
                    );
                }
                Move::Play { .. } | Move::Draw => {}
            }
        }
        out
    }

    /// How many chips a legal move would cost its player at once.
    pub(super) fn cost(&self, mv: Move) -> Option<String> {
        let p = &self.program;
        let seat = self.state.turn;
        let mut copy = self.state.clone();
        let before = copy.chips_of(p, seat);
        engine::step(p, &mut copy, mv, &mut ()).ok()?;
        let lost = before - copy.chips_of(p, seat);
        (lost > 0).then(|| format!("{lost} chip{}", if lost == 1 { "" } else { "s" }))
    }
}

/// Whether every way to play a card only adds to the total (or does nothing), with no
/// condition: then its total says all it does.
fn plain(fx: &Effect) -> bool {
    fx.choices().iter().all(|c| {
        c.steps()
            .iter()
            .all(|s| s.cond.is_none() && matches!(s.then, Act::Add(_) | Act::Nothing))
    })
}
