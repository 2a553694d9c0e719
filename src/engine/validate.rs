//! A state from outside (a saved game) checked as a whole before it is used: every
//! invariant the engine keeps while it plays, so a loaded game is one the engine could have
//! reached. Pure: the words say what is wrong, the caller decides what to do.

use super::State;
use crate::base::limits::{IDLE_ROUNDS, TURN_LIMIT, grouped};
use crate::ir::{MAX_HAND, MAX_SEATS, Program};

impl State {
    /// Whether this state is one a game of `p` can be in, or what is wrong with it.
    pub fn validate(&self, p: &Program) -> Result<(), String> {
        let n = usize::from(self.seats);
        if !(2..=MAX_SEATS).contains(&n) {
            return Err(format!("{n} seats at a table"));
        }
        p.check_players(n)?;
        self.validate_hands(p, n)?;
        self.check_invariants(p)?;
        self.validate_chips(p, n)?;
        self.validate_seats(p, n)?;
        self.validate_progress(p)
    }

    /// Hands no longer than a hand may be, and no cards for seats not at the table.
    fn validate_hands(&self, p: &Program, n: usize) -> Result<(), String> {
        // The most a hand is dealt or drawn up to, as players leave this table.
        let most = (2..=n).map(|k| usize::from(p.hand[k])).max().unwrap_or(0);
        for (seat, h) in self.hands.iter().enumerate() {
            if h.len() > MAX_HAND {
                return Err(format!("seat {seat} holds {} cards", h.len()));
            }
            if seat >= n && !h.is_empty() {
                return Err(format!("seat {seat} holds cards at a table of {n}"));
            }
            if h.len() > most {
                return Err(format!(
                    "seat {seat} holds {} cards, in a game of hands of {most}",
                    h.len()
                ));
            }
        }
        Ok(())
    }

    /// Chips of every account from 0 up, none for accounts not at the table, and as many in
    /// all as the game started with (rules move chips; none makes or destroys them).
    fn validate_chips(&self, p: &Program, n: usize) -> Result<(), String> {
        let accounts = (0..n as u8)
            .map(|seat| self.account(p, seat))
            .max()
            .map_or(0, |a| a + 1);
        for (acc, &c) in self.chips.iter().enumerate() {
            if acc >= accounts && c != 0 {
                return Err(format!("chips for a seat not at the table ({c})"));
            }
            // An account may gather more than anyone started with, but never more than all
            // the chips dealt (checked below) and never less than none.
            if c < 0 {
                return Err(format!("{c} chips in one account"));
            }
        }
        if self.bank < 0 || self.pot < 0 {
            return Err(format!("a bank of {} and a pot of {}", self.bank, self.pot));
        }
        let held: i64 = self.chips[..accounts]
            .iter()
            .map(|c| i64::from(*c))
            .sum::<i64>()
            + i64::from(self.bank)
            + i64::from(self.pot);
        let dealt = i64::from(p.chips) * accounts as i64;
        if held != dealt {
            return Err(format!(
                "{held} chips in all, but the game was dealt {dealt}"
            ));
        }
        for seat in 0..n as u8 {
            if self.in_game(seat) && !p.out_when_cannot_pay && self.chips_of(p, seat) == 0 {
                return Err(format!(
                    "seat {seat} has no chips left but is still in the game"
                ));
            }
        }
        Ok(())
    }

    /// Seats named by the state are at the table; who is out is a set of seats.
    fn validate_seats(&self, p: &Program, n: usize) -> Result<(), String> {
        let mask = ((1u32 << n) - 1) as u16;
        let seat = |what: &str, s: u8| {
            if usize::from(s) < n {
                Ok(())
            } else {
                Err(format!("{what} is seat {s}, at a table of {n}"))
            }
        };
        seat("the player to move", self.turn)?;
        seat("the dealer", self.dealer)?;
        if let Some(w) = self.round_winner {
            seat("the round's winner", w)?;
        }
        if let Some(l) = self.round_loser {
            seat("the round's loser", l)?;
        }
        for (what, set) in [
            ("out of the game", self.out_of_game),
            ("out of the round", self.out_of_round),
            ("winning", self.winners),
        ] {
            if set & !mask != 0 {
                return Err(format!("seats not at the table are {what}"));
            }
        }
        if self.out_of_game & !self.out_of_round != 0 {
            return Err("a seat is out of the game but not of the round".into());
        }
        if let Some(s) = self.pending_draw {
            seat("the seat to draw", s)?;
            if !p.by_hand || !self.in_round(s) {
                return Err(format!("seat {s} is to draw, but may not"));
            }
        }
        if self.forgot[n..].iter().any(|f| *f != 0)
            || self.forgot.iter().any(|f| u64::from(*f) > self.turns)
        {
            return Err("forgotten draws that were never played".into());
        }
        Ok(())
    }

    /// The total within its limits, the counts of turns and rounds ones a game reaches, and
    /// a game that goes on has someone to play.
    fn validate_progress(&self, p: &Program) -> Result<(), String> {
        // Without limits a total may grow past the numbers a ruleset writes: only the
        // limits bound it.
        if !p.allows(self.total) {
            return Err(format!("a total of {}, outside the limits", self.total));
        }
        if self.turns > TURN_LIMIT + 1 {
            return Err(format!("{} turns played", grouped(self.turns)));
        }
        // Rounds end after a card, a draw or the deal, at most IDLE_ROUNDS at a time
        // without a card.
        let most_rounds = (2 * self.turns + 2).saturating_mul(u64::from(IDLE_ROUNDS) + 1);
        if self.round == 0
            || u64::from(self.round) > most_rounds
            || p.rounds.is_some_and(|r| self.round > r)
        {
            return Err(format!(
                "round {} after {} turns",
                grouped(u64::from(self.round)),
                grouped(self.turns)
            ));
        }
        if self.stuck.is_some() && !self.over {
            return Err("a stopped game goes on".into());
        }
        if self.winners & self.out_of_game != 0 {
            return Err("a seat out of the game is among the winners".into());
        }
        if self.over {
            return Ok(());
        }
        if self.round_over || self.winners != 0 {
            return Err("a finished round or game goes on".into());
        }
        if self.teams(p, self.out_of_game) < 2 {
            return Err("fewer than 2 players are in the game, yet it goes on".into());
        }
        if !self.in_round(self.turn) {
            return Err(format!("seat {} is out but has the turn", self.turn));
        }
        Ok(())
    }
}
