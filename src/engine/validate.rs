//! A state from outside (a saved game) checked as a whole before it is used: every
//! invariant the engine keeps while it plays, so a loaded game is one the engine could have
//! reached. Pure: the words say what is wrong, the caller decides what to do.

use super::State;
use crate::base::cards::{COPY, RANKS, card_name, rank_of};
use crate::base::limits::{IDLE_ROUNDS, TURN_LIMIT, grouped};
use crate::ir::{Act, MAX_HAND, MAX_SEATS, OutcomeKind, Program};

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
        self.validate_progress(p)?;
        self.validate_end(p)?;
        self.validate_knowledge(p, n)?;
        self.validate_extras(p, n)
    }

    /// What the table knows beyond the cards: the winners a line declared (only in a game
    /// such a line has ended), and the ranks a seat is known not to hold (only seats at the
    /// table, never a rank the seat holds: it is learnt when a player is stuck, and forgotten
    /// as their hand changes).
    fn validate_knowledge(&self, p: &Program, n: usize) -> Result<(), String> {
        let table = ((1u32 << n) - 1) as u16;
        if self.declared & !table != 0 {
            return Err("the winners declared are not at the table".into());
        }
        if self.declared != 0 {
            let declares = p.scripts.is_some()
                || p.outcomes
                    .iter()
                    .flat_map(|o| &o.list)
                    .any(|o| o.kind == OutcomeKind::WinGame);
            if !self.over || !declares {
                return Err(
                    "winners are declared, but no line of the rules has declared them".into(),
                );
            }
        }
        for (seat, &known) in self.known_not.iter().enumerate() {
            if known == 0 {
                continue;
            }
            if seat >= n {
                return Err(format!(
                    "seat {seat} is not at the table, but what it holds is known"
                ));
            }
            // (A game that ended on a stuck player's payment keeps what was learnt then.)
            if !p.keeps_stuck_hand() && !self.over {
                return Err(format!(
                    "ranks seat {seat} does not hold are known, but under these rules no player who cannot play keeps their hand"
                ));
            }
            let held = self.hands[seat]
                .cards()
                .iter()
                .fold(0u16, |m, &c| m | 1 << rank_of(c));
            if known & held != 0 || known >> RANKS != 0 {
                return Err(format!(
                    "seat {seat} is known not to hold ranks it holds, or ranks there are not"
                ));
            }
        }
        Ok(())
    }

    /// A game that is over ended as the rules end one: with its winners (the players left,
    /// or the most chips once the rounds are played), or stopped as unable to go on after
    /// [`IDLE_ROUNDS`] rounds without a card.
    fn validate_end(&self, p: &Program) -> Result<(), String> {
        if !self.over {
            return Ok(());
        }
        if self.pending_draw.is_some() {
            return Err("a finished game has a draw to make".into());
        }
        if self.stuck.is_some() {
            if self.winners != 0 {
                return Err("a game that could not go on has winners".into());
            }
            if self.round <= IDLE_ROUNDS {
                return Err(format!(
                    "a game stopped as unable to go on in round {}, before {IDLE_ROUNDS} rounds without a card could pass",
                    self.round
                ));
            }
            return Ok(());
        }
        if self.winners == 0 {
            return Err("a finished game has no winner".into());
        }
        // A line that ends the game at once (`the game ends`, `the player wins the game`)
        // can end it whatever the table; without one, the end must have come.
        let ends_at_once = p
            .outcomes
            .iter()
            .flat_map(|o| &o.list)
            .any(|o| matches!(o.kind, OutcomeKind::EndGame | OutcomeKind::WinGame))
            || p.scripts.is_some();
        if !ends_at_once && !super::outcomes::game_should_end(p, self) {
            return Err("the game is over while several players are still in it".into());
        }
        if self.declared != 0 && self.winners != self.declared {
            return Err("the winners are not the ones a line declared".into());
        }
        // Without a rule run at the game's end (which may move chips), the winners are the
        // ones the rules name.
        if p.triggers.game_end.is_none() && self.winners != super::outcomes::game_winners(p, self) {
            return Err("the winners are not the ones the rules name".into());
        }
        Ok(())
    }

    /// What a state keeps besides: extra turns the rules can give, seats out of the game
    /// with no chips (only a rule putting a player out can leave them some), the next
    /// deal's cards from the deck, a random stream the generator can be in, and no more
    /// cards played this round than in the game.
    fn validate_extras(&self, p: &Program, n: usize) -> Result<(), String> {
        if self.again > 0 && most_again(p) < 2 {
            return Err(format!(
                "{} more turns for the player to move, which the rules never give",
                self.again
            ));
        }
        let put_out = p
            .outcomes
            .iter()
            .any(|o| o.list.iter().any(|x| x.kind == OutcomeKind::OutOfGame));
        if !put_out
            && let Some(seat) =
                (0..self.seats).find(|&x| !self.in_game(x) && self.chips_of(p, x) != 0)
        {
            return Err(format!("seat {seat} is out of the game but holds chips"));
        }
        let mut faces = [0usize; COPY as usize];
        for c in p.deck(n) {
            faces[usize::from(c % COPY)] += 1;
        }
        for &c in &self.next_deal {
            if !p.deck(n).any(|d| d == c) {
                return Err(format!(
                    "the next deal names {}, which the deck does not hold",
                    copy_name(c)
                ));
            }
            let face = &mut faces[usize::from(c % COPY)];
            if *face == 0 {
                return Err(format!(
                    "the next deal names {} more often than the deck holds it",
                    card_name(c)
                ));
            }
            *face -= 1;
        }
        if !self.rng.can_be() {
            return Err("its random numbers are in a state the generator never reaches".into());
        }
        if self.discard.len() as u64 > self.turns {
            return Err(format!(
                "{} cards on the discard pile after {} cards played",
                self.discard.len(),
                grouped(self.turns)
            ));
        }
        self.validate_kept(p)
    }

    /// What the table keeps: one value of each of the ruleset's counts for every seat, a
    /// round that began no later than now, and a run carried past a gathering of a rank.
    fn validate_kept(&self, p: &Program) -> Result<(), String> {
        let k = &self.kept;
        if k.counts.len() != p.counts.len() * MAX_SEATS {
            return Err(format!(
                "it keeps {} values of counts, where the ruleset keeps {} counts ({} values)",
                k.counts.len(),
                p.counts.len(),
                p.counts.len() * MAX_SEATS
            ));
        }
        if k.round_began > self.turns {
            return Err(format!(
                "the round began after card {}, but {} cards have been laid",
                grouped(k.round_began),
                grouped(self.turns)
            ));
        }
        let (rank, n) = k.run_carry;
        if usize::from(rank) >= RANKS || u64::from(n) > self.turns {
            return Err("the run carried past the last gathering is not one a game makes".into());
        }
        if k.after_card {
            return Err("it stopped in the middle of a card".into());
        }
        self.validate_seen(p)
    }

    /// Cards known in another's hand: only where a rule moves cards between hands, only
    /// cards in a hand, and only seats at the table knowing them.
    fn validate_seen(&self, p: &Program) -> Result<(), String> {
        let seen = &self.kept.seen;
        if seen.is_empty() {
            return Ok(());
        }
        if seen.len() != 256 || !p.moves_between_hands() {
            return Err("it says who knows cards in other hands, in a game where no card moves between hands".into());
        }
        let table = ((1u32 << self.seats) - 1) as u16;
        for (c, &who) in seen.iter().enumerate() {
            if who == 0 {
                continue;
            }
            let held = self.hands[..usize::from(self.seats)]
                .iter()
                .any(|h| h.cards().iter().any(|&x| usize::from(x) == c));
            if who & !table != 0 || !held {
                return Err(format!(
                    "it says who knows where card {c} is, but no hand holds it or the seats are not at the table"
                ));
            }
        }
        Ok(())
    }

    /// Hands no longer than a hand may be, and no cards for seats not at the table.
    fn validate_hands(&self, p: &Program, n: usize) -> Result<(), String> {
        // The most a hand is dealt or drawn up to, as players leave this table (or the most
        // a hand holds, where a rule can add cards to one).
        let most = if p.grows_hands() {
            MAX_HAND
        } else {
            p.widest_hand(n)
        };
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
        // Players who went out together, the last ones, share the win.
        let someone_in = (0..self.seats).any(|x| self.in_game(x));
        if someone_in && self.winners & self.out_of_game != 0 {
            return Err("a seat out of the game is among the winners".into());
        }
        if (self.declared | self.out_now) >> self.seats != 0 {
            return Err("winners or players out name a seat not at the table".into());
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

/// The most extra turns one card can give (`play again twice` is 2): a script that runs live
/// may give any number, and so may a line that is not a card's (`the player plays again`),
/// which adds to what the card gave.
fn most_again(p: &Program) -> u8 {
    if p.outcomes.iter().any(|o| {
        o.list
            .iter()
            .any(|x| matches!(x.kind, OutcomeKind::Again(_)))
    }) {
        return u8::MAX;
    }
    let of = |act: Act| -> u8 {
        match act {
            Act::Again(k) => k,
            Act::Script(i) => p
                .script_fx
                .get(usize::from(i))
                .and_then(|fx| fx.table.as_ref())
                .map_or(u8::MAX, |t| {
                    t.iter().map(|o| o.turn.again).max().unwrap_or(0)
                }),
            Act::Add(_)
            | Act::Value(_)
            | Act::Set(_)
            | Act::Mul(_)
            | Act::Div(_)
            | Act::Nothing
            | Act::Skip(_)
            | Act::Reverse
            | Act::ChooseNext
            | Act::Outcomes(_) => 0,
        }
    };
    p.effects
        .iter()
        .flat_map(|e| e.choices())
        .map(|c| {
            c.steps[..usize::from(c.len)].iter().fold(0u8, |sum, st| {
                sum.saturating_add(of(st.then).max(of(st.otherwise)))
            })
        })
        .max()
        .unwrap_or(0)
}

/// A card and, past the first deck, which copy it is: `AS`, `AS of deck 4`.
fn copy_name(c: crate::base::cards::Card) -> String {
    match c / COPY {
        0 => card_name(c),
        copy => format!("{} of deck {}", card_name(c), copy + 1),
    }
}
