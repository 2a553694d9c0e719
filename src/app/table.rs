//! A table shared by several people, each at their own screen, with bots in the other seats:
//! the part of a served game that decides. Every move a person sends is checked by the engine
//! (out of turn, or not one of the moves the rules offer now: refused, nothing changes); bots
//! play until a person is to move; and each seat is told only what it may see
//! ([`State::seat_view`], [`Event::seen_by`]). A table is its ruleset, its seed, who sits
//! where and the people's moves in order: played again from those, it is the same game, byte
//! for byte ([`Table::replay`]), which is what a store keeps.

use serde::{Deserialize, Serialize};

use crate::engine::{self, Event, Move, SeatView, Seen, Setup, State};
use crate::play::{self, Driver, Ending, Player, Ruleset};

/// Who sits in a seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sitter {
    Person,
    /// A built-in bot, by name.
    Bot(String),
}

/// What one seat (or a spectator, `seat: None`) is told after a move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Update {
    pub seat: Option<u8>,
    pub view: SeatView,
    /// What happened since the last update, as this seat may be told it.
    pub events: Vec<Seen>,
    /// The person the table waits on (`None` once the game is over).
    pub waiting_on: Option<u8>,
    /// The moves this seat may send now, in the REPL's notation (none unless it is waited on).
    pub moves: Vec<String>,
}

/// A move found to play on a copy of the table, not made yet: the name it is kept by, the
/// table after it, and what happened.
#[derive(Debug)]
pub struct Ready {
    seat: u8,
    /// The move in the REPL's notation, as the table offered it.
    pub name: String,
    next: Option<State>,
    events: Vec<Event>,
}

/// A move that was not played, and why: the table is as it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// It is another seat's move.
    NotYourTurn { waiting_on: Option<u8> },
    /// Not one of the moves the seat may send now.
    NotAMove { moves: Vec<String> },
    /// The engine could not play it (a script failed): the game cannot go on.
    Failed(String),
}

/// A game at a shared table.
#[derive(Debug)]
pub struct Table {
    ruleset: Ruleset,
    seed: u64,
    sitters: Vec<Sitter>,
    players: Vec<Player>,
    state: State,
    bot_rng: crate::base::Rng,
    /// The people's moves, in order, as sent (`pass` for a draw by hand left undone).
    moves: Vec<String>,
    /// How the bots' last stretch of play ended, when it ended the game or could not go on.
    ending: Option<Ending>,
}

/// The word a person sends to leave a draw by hand undone.
const PASS: &str = "pass";

impl Table {
    /// Deals a game of `ruleset` for `sitters` (one a seat) from `seed`, and lets the bots
    /// play until a person is to move. The events of the deal and of the bots' moves.
    pub fn open(
        ruleset: Ruleset,
        seed: u64,
        sitters: Vec<Sitter>,
    ) -> Result<(Table, Vec<Event>), String> {
        ruleset.check_players(sitters.len())?;
        let players = sitters
            .iter()
            .map(|s| match s {
                Sitter::Person => Ok(Player::Person),
                Sitter::Bot(name) => Player::builtin(name),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let setup = Setup {
            players: sitters.len(),
            seed,
            ..Setup::default()
        };
        let mut events = Vec::new();
        let state = engine::new_game(&ruleset, &setup, &mut events)
            .map_err(|e| crate::present::play_error(&ruleset, &e))?;
        let mut t = Table {
            bot_rng: crate::base::Rng::for_bots(seed),
            ruleset,
            seed,
            sitters,
            players,
            state,
            moves: Vec::new(),
            ending: None,
        };
        t.bots(&mut events);
        Ok((t, events))
    }

    /// The same table played again from its seed and its people's moves: the same game.
    pub fn replay(
        ruleset: Ruleset,
        seed: u64,
        sitters: Vec<Sitter>,
        moves: &[String],
    ) -> Result<Table, String> {
        let (mut t, _) = Table::open(ruleset, seed, sitters)?;
        for (i, m) in moves.iter().enumerate() {
            let seat = t
                .waiting_on()
                .ok_or_else(|| format!("move {} (`{m}`) comes after the game's end", i + 1))?;
            t.play(seat, m)
                .map_err(|e| format!("move {} (`{m}`) does not replay: {e:?}", i + 1))?;
        }
        Ok(t)
    }

    /// The people's moves so far: with the seed and the seats, the whole game.
    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn sitters(&self) -> &[Sitter] {
        &self.sitters
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    /// The person the table waits on: one who has just laid a card and may draw by hand,
    /// else the one to move; `None` when the game is over or cannot go on.
    pub fn waiting_on(&self) -> Option<u8> {
        if self.state.over || self.ending.is_some() {
            return None;
        }
        let seat = self.drawer().unwrap_or(self.state.turn);
        self.is_person(seat).then_some(seat)
    }

    fn is_person(&self, seat: u8) -> bool {
        matches!(self.sitters.get(usize::from(seat)), Some(Sitter::Person))
    }

    /// A person whose draw by hand is pending.
    fn drawer(&self) -> Option<u8> {
        self.state.pending_draw.filter(|&s| self.is_person(s))
    }

    /// The moves `seat` may send now, in the REPL's notation.
    pub fn moves_for(&self, seat: u8) -> Vec<String> {
        if self.waiting_on() != Some(seat) {
            return Vec::new();
        }
        if self.drawer() == Some(seat) {
            return vec!["draw".into(), PASS.into()];
        }
        self.state
            .legal_moves(&self.ruleset)
            .as_slice()
            .iter()
            .filter(|m| !matches!(m, Move::Draw))
            .map(|&m| play::move_name(&self.ruleset, &self.state, m))
            .collect()
    }

    /// The move a bot would make for `seat`, a person who is away, when the table waits on
    /// them: played through [`Table::play`] like theirs, so it is kept and replayed like
    /// theirs. Its random numbers are its own (from the seed and the moves so far), never the
    /// seated bots', so a game replayed from its moves is the same game.
    pub fn stand_in(&self, seat: u8) -> Option<String> {
        if self.waiting_on() != Some(seat) {
            return None;
        }
        if self.drawer() == Some(seat) {
            return Some("draw".into());
        }
        let mut rng = crate::base::Rng::for_bots(
            self.seed ^ (self.moves.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        );
        let offered = self.moves_for(seat);
        let chosen = play::Bot::Cautious
            .choose(&self.ruleset, &self.state, &mut rng)
            .map(|m| play::move_name(&self.ruleset, &self.state, m))
            .filter(|m| offered.contains(m));
        chosen.or_else(|| offered.into_iter().next())
    }

    /// The ruleset played.
    pub fn ruleset(&self) -> &Ruleset {
        &self.ruleset
    }

    /// How the game ended when the bots' play could not go on (a failed script, a game too
    /// long); `None` while it goes on or when it ended by its rules.
    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref().filter(|e| !matches!(e, Ending::Over))
    }

    /// `seat`'s move `text`, played on a copy of the table: refused with why, or ready to be
    /// kept and then made ([`Table::commit`]). Nothing changes here, so a move is stored only
    /// once it is known to play.
    pub fn ready(&self, seat: u8, text: &str) -> Result<Ready, Refused> {
        let waiting_on = self.waiting_on();
        if waiting_on != Some(seat) {
            return Err(Refused::NotYourTurn { waiting_on });
        }
        let offered = self.moves_for(seat);
        let text = text.trim();
        let Some(name) = offered.iter().find(|m| m.eq_ignore_ascii_case(text)) else {
            return Err(Refused::NotAMove { moves: offered });
        };
        let name = name.clone();
        let mut events = Vec::new();
        let mut next = None;
        if name != PASS {
            let mv = play::parse_move(&self.ruleset, &self.state, &name).map_err(|_| {
                Refused::NotAMove {
                    moves: offered.clone(),
                }
            })?;
            let mut after = self.state.clone();
            engine::step(&self.ruleset, &mut after, mv, &mut events)
                .map_err(|e| Refused::Failed(crate::present::play_error(&self.ruleset, &e)))?;
            next = Some(after);
        }
        Ok(Ready {
            seat,
            name,
            next,
            events,
        })
    }

    /// Makes a move [`Table::ready`] found to play; then the bots play.
    pub fn commit(&mut self, ready: Ready) -> Vec<Event> {
        let Ready {
            seat,
            name,
            next,
            mut events,
        } = ready;
        if let Some(next) = next {
            self.state = next;
        }
        self.moves.push(name);
        // A person who has just laid a card, where players draw by hand, is asked first.
        if self.drawer() != Some(seat) {
            self.bots(&mut events);
        }
        events
    }

    /// `seat` sends `text`: played when it is a move the seat may make now, then the bots
    /// play until a person is to move. The events, or why nothing happened.
    pub fn play(&mut self, seat: u8, text: &str) -> Result<Vec<Event>, Refused> {
        let ready = self.ready(seat, text)?;
        Ok(self.commit(ready))
    }

    /// The bots play until a person is to move, the game ends, or it cannot go on.
    fn bots(&mut self, events: &mut Vec<Event>) {
        let mut driver = Driver::within(&self.ruleset, &self.players, self.bot_rng);
        let ending = driver.play(&mut self.state, &|| false, events);
        self.bot_rng = driver.into_rng();
        self.ending = match ending {
            Ending::Waiting(_) => None,
            Ending::Over
            | Ending::Stuck
            | Ending::TurnLimit
            | Ending::Stopped
            | Ending::Guard
            | Ending::NoMove(_)
            | Ending::Failed(_) => Some(ending),
        };
    }

    /// What `seat` (or a spectator, `None`) is told of `events` and of the table now.
    pub fn update_for(&self, seat: Option<u8>, events: &[Event]) -> Update {
        Update {
            seat,
            view: self.state.seat_view(seat),
            events: events.iter().map(|e| e.seen_by(seat)).collect(),
            waiting_on: self.waiting_on(),
            moves: seat.map(|s| self.moves_for(s)).unwrap_or_default(),
        }
    }
}
