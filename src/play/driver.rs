//! The one way a game is played: every command that plays (`sim`, `judge`, the dry run of
//! `check`, `run`, the REPL, the playground) sets a game up and plays it here, and differs
//! only in its sink, in what it watches, and in what it does with how the game ended
//! ([`Ending`]).
//!
//! The driver owns what every game needs and no caller should decide again: the script
//! allowance (opened when the driver is made, closed when it is dropped: [`Allowance`]), the
//! turn limit ([`TURN_LIMIT`], checked here and nowhere else), a game that could not go on
//! ([`Ending::Stuck`]), looking for a stop (before and after every turn a bot plays the
//! general way, inside a searching bot's move, and every [`CHECK_EVERY`] turns of the
//! engine's loop of plain turns), a move that failed,
//! and the choice between the engine's loop of plain turns and the general step: every
//! caller whose sink and watcher allow it gets the loop, with the same games turn for turn.

use super::Ruleset;
use super::{Bot, Player};
use crate::base::Rng;
use crate::base::limits::TURN_LIMIT;
use crate::engine::{self, Event, Kernel, Pick, PlayError, Setup, Sink, State};
use crate::ir::Scripts;
use crate::script::Budget;

use std::sync::Arc;

/// The driver looks whether it was asked to stop every this many turns of the engine's loop
/// of plain turns (about a millisecond at most); it looks at every turn played the general
/// way (a search may take milliseconds a turn).
pub const CHECK_EVERY: u64 = 1024;

/// How a game the driver played ended, or why it handed the game back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// The game is over; its winners are in the state.
    Over,
    /// It could not go on: rounds ended with no card laid, again and again
    /// ([`State::stuck`]); it is over with no winner.
    Stuck,
    /// It played as many cards as the driver allows ([`TURN_LIMIT`], or the bound a caller
    /// set) without ending.
    TurnLimit,
    /// The caller's stop said so (Ctrl-C, a deadline of games).
    Stopped,
    /// A script met the guard of last resort: the command must end with an error, not
    /// count the game.
    Guard,
    /// The bot to move had no move.
    NoMove(u8),
    /// A move failed (a script that fails on every card, a bot's illegal move).
    Failed(PlayError),
    /// A person plays the seat to move: the game waits for them.
    Waiting(u8),
}

impl Ending {
    /// Whether the game failed: it could not go on, or a move could not be played. A
    /// simulation counts such a game apart and leaves it out of its figures.
    pub fn failed(&self) -> bool {
        matches!(self, Ending::Stuck | Ending::NoMove(_) | Ending::Failed(_))
    }

    /// How the game ended, from a state the step has left: over (or stuck), or not yet.
    fn of(s: &State) -> Option<Ending> {
        match (s.over, s.stuck.is_some()) {
            (true, true) => Some(Ending::Stuck),
            (true, false) => Some(Ending::Over),
            (false, _) => None,
        }
    }

    /// The ending of a move that failed with `e`.
    fn of_error(e: PlayError) -> Ending {
        if super::guard_met(&e) {
            Ending::Guard
        } else {
            Ending::Failed(e)
        }
    }
}

/// The allowance of work the scripts of one game share on this thread (the ruleset's and
/// the script bots'): opened when made, closed when dropped, so no exit of a game can
/// leave it open. Counted in operations, never timed.
#[derive(Debug)]
pub struct Allowance {
    scripts: Option<Scripts>,
    bots: Vec<Arc<crate::script::ScriptBot>>,
}

impl Allowance {
    /// Opens a game's allowance for the ruleset's scripts and the script bots among
    /// `players`. With no script anywhere it holds nothing and allocates nothing.
    pub fn open(p: &Ruleset, players: &[Player]) -> Allowance {
        let a = Allowance {
            scripts: p.scripts.clone(),
            bots: players
                .iter()
                .filter_map(|x| match x {
                    Player::Script(bot) => Some(Arc::clone(bot)),
                    Player::Bot(_) | Player::Forgetful | Player::Person => None,
                })
                .collect(),
        };
        a.set(true);
        a
    }

    /// Opens the allowance of a script bot that joins the game late (a player made when its
    /// seat is first to move), closed with the others.
    pub fn admit(&mut self, player: &Player) {
        if let Player::Script(bot) = player
            && !self.bots.iter().any(|b| Arc::ptr_eq(b, bot))
        {
            bot.host.allow(Some(Budget::Game));
            self.bots.push(Arc::clone(bot));
        }
    }

    fn set(&self, on: bool) {
        if let Some(scripts) = &self.scripts {
            scripts.0.allow_game(on);
        }
        for bot in &self.bots {
            bot.host.allow(on.then_some(Budget::Game));
        }
    }
}

impl Drop for Allowance {
    fn drop(&mut self) {
        self.set(false);
    }
}

/// What a caller watches around each turn, besides the events its sink gets. A watcher that
/// needs every turn ([`Watch::EVERY_TURN`]) is served the general way, turn by turn.
pub trait Watch: Sink {
    /// Whether [`Watch::before`] and [`Watch::after`] must see every turn.
    const EVERY_TURN: bool = false;
    /// Before the turn of the player to move.
    fn before(&mut self, _p: &Ruleset, _s: &State) {}
    /// After it.
    fn after(&mut self, _p: &Ruleset, _s: &State) {}
    /// The turn of the player to move, played the watcher's own way (the judge's restricted
    /// seat: the bot's move unless it uses the rule forbidden), or `None` to let the seat's
    /// player play it. Asked only of a watcher that sees every turn.
    fn turn(
        &mut self,
        _p: &Ruleset,
        _s: &mut State,
        _rng: &mut Rng,
    ) -> Option<Result<bool, PlayError>> {
        None
    }
}

impl Watch for () {}

/// A sink watched at no turn: what [`Driver::play`] gives [`Driver::play_watched`].
struct Plain<'s, S>(&'s mut S);

impl<S: Sink> Sink for Plain<'_, S> {
    const WANTS: u32 = S::WANTS;
    #[inline(always)]
    fn event(&mut self, e: Event) {
        self.0.event(e);
    }
}

impl<S: Sink> Watch for Plain<'_, S> {}

/// One game, played by the players of its seats (a person's seat hands the game back).
#[derive(Debug)]
pub struct Driver<'a> {
    p: &'a Ruleset,
    seats: &'a [Player],
    /// The bots' own random numbers: the game's seed's, so one seed gives one game.
    rng: Rng,
    /// The most cards the game may take.
    limit: u64,
    /// The game's script allowance, when the driver opened it (not when a caller that
    /// outlives it holds one: [`Driver::within`]).
    _allowance: Option<Allowance>,
}

impl<'a> Driver<'a> {
    /// A driver for a game of `p` with one player a seat; the bots' random numbers come from
    /// `seed`. The game's script allowance is open while the driver lives.
    pub fn new(p: &'a Ruleset, seats: &'a [Player], seed: u64) -> Driver<'a> {
        Driver {
            p,
            seats,
            rng: Rng::for_bots(seed),
            limit: TURN_LIMIT,
            _allowance: Some(Allowance::open(p, seats)),
        }
    }

    /// A driver for a game whose allowance the caller holds (a game at the terminal, which
    /// outlives each stretch of bots' turns), going on with the bots' random numbers `rng`
    /// ([`Driver::into_rng`] gives them back).
    pub fn within(p: &'a Ruleset, seats: &'a [Player], rng: Rng) -> Driver<'a> {
        Driver {
            p,
            seats,
            rng,
            limit: TURN_LIMIT,
            _allowance: None,
        }
    }

    /// The bots' random numbers, where the game left them.
    pub fn into_rng(self) -> Rng {
        self.rng
    }

    /// The same driver, stopping a game at `turns` cards ([`Ending::TurnLimit`]) rather
    /// than at [`TURN_LIMIT`]; never more than that.
    pub fn with_limit(mut self, turns: u64) -> Driver<'a> {
        self.limit = turns.min(TURN_LIMIT);
        self
    }

    /// The players of the seats.
    pub fn seats(&self) -> &'a [Player] {
        self.seats
    }

    /// The bots' random numbers.
    pub fn rng(&mut self) -> &mut Rng {
        &mut self.rng
    }

    /// A new game, as `setup` lays it out. A refused setup is [`Ending::Failed`] (or
    /// [`Ending::Guard`], when a script met the guard).
    pub fn start<S: Sink>(&self, setup: &Setup, sink: &mut S) -> Result<State, Ending> {
        engine::new_game(self.p, setup, sink).map_err(Ending::of_error)
    }

    /// [`Driver::start`] on `spare`, the table of a game that is done with (no allocation
    /// once the first game has made one); with no spare, a new one is made there.
    pub fn start_in<'s, S: Sink>(
        &self,
        setup: &Setup,
        sink: &mut S,
        spare: &'s mut Option<Box<State>>,
    ) -> Result<&'s mut State, Ending> {
        match spare {
            Some(s) => engine::new_game_in(self.p, setup, sink, s).map_err(Ending::of_error)?,
            None => {
                let s = engine::new_game(self.p, setup, sink).map_err(Ending::of_error)?;
                *spare = Some(Box::new(s));
            }
        }
        spare
            .as_deref_mut()
            .ok_or_else(|| Ending::Failed(PlayError::Setup("no table".into())))
    }

    /// Plays `s` until it ends, a person is to move, or `stop` says so.
    pub fn play<S: Sink>(
        &mut self,
        s: &mut State,
        stop: &dyn Fn() -> bool,
        sink: &mut S,
    ) -> Ending {
        self.play_watched(s, stop, &mut Plain(sink))
    }

    /// [`Driver::play`], with a watcher around each turn.
    pub fn play_watched<W: Watch>(
        &mut self,
        s: &mut State,
        stop: &dyn Fn() -> bool,
        w: &mut W,
    ) -> Ending {
        let p = self.p;
        let seats = self.seats;
        // Random or weighing bots in every seat: their plain turns run in the engine's loop,
        // up to the next look at `stop` (the same games, turn for turn); random bots alone
        // by a pick that need not ask whose turn it is.
        let kernel = !W::EVERY_TURN
            && engine::kernel_fits::<W>(p)
            && seats.len() == usize::from(s.seats)
            && seats.iter().all(Player::loops);
        let random = seats.iter().all(|x| matches!(x, Player::Bot(Bot::Random)));
        loop {
            if let Some(end) = Ending::of(s) {
                return end;
            }
            if s.turns >= self.limit {
                return Ending::TurnLimit;
            }
            if (!kernel || s.turns.is_multiple_of(CHECK_EVERY)) && stop() {
                return Ending::Stopped;
            }
            let mut picked = None;
            let mut general = false;
            if kernel {
                let until = ((s.turns / CHECK_EVERY + 1) * CHECK_EVERY).min(self.limit);
                // The bots' numbers in a local for the loop's picks (one pointer away from
                // the pick, not two), put back after it.
                let mut rng = self.rng;
                let ran = if random {
                    // The random bot's own pick, its `match` folded away.
                    const RANDOM: Player = Player::Bot(Bot::Random);
                    let mut choose = |s: &State, n: usize| RANDOM.pick(p, s, n, &mut rng);
                    engine::loop_turns(p, s, &mut choose, until, w)
                } else {
                    let mut choose = |s: &State, n: usize| {
                        seats
                            .get(usize::from(s.turn))
                            .map_or(Pick::Unanswered, |x| x.pick(p, s, n, &mut rng))
                    };
                    engine::loop_turns(p, s, &mut choose, until, w)
                };
                self.rng = rng;
                match ran {
                    Kernel::Ran => continue,
                    Kernel::Picked(mv) => picked = Some(mv),
                    // Not the table's turn: chosen the general way at once, without trying
                    // the fused turn again.
                    Kernel::General => general = true,
                }
            }
            let seat = s.turn;
            let Some(player) = seats.get(usize::from(seat)) else {
                return Ending::NoMove(seat);
            };
            if matches!(player, Player::Person) {
                return Ending::Waiting(seat);
            }
            if W::EVERY_TURN {
                w.before(p, s);
            }
            let rng = &mut self.rng;
            let own = if W::EVERY_TURN {
                w.turn(p, s, rng)
            } else {
                None
            };
            let turn = match (own, picked) {
                (Some(turn), _) => turn,
                (None, Some(mv)) => Player::play_chosen(p, s, mv, w),
                (None, None) if general && matches!(player, Player::Bot(Bot::Random)) => {
                    match Bot::Random.choose(p, s, rng) {
                        Some(mv) => Player::play_chosen(p, s, mv, w),
                        None => Ok(false),
                    }
                }
                (None, None) => player.turn_until(p, s, rng, w, stop),
            };
            match turn {
                Ok(true) => {}
                Ok(false) => return Ending::NoMove(seat),
                Err(e) => return Ending::of_error(e),
            }
            // A search the stop cut short played a move it would not have: the game is
            // stopped there, never counted, even when that move ended it.
            if stop() {
                return Ending::Stopped;
            }
            if W::EVERY_TURN {
                w.after(p, s);
            }
        }
    }
}

/// Plays out a game from `s` with cautious players in every seat, as the searching bots
/// imagine the rest of it: until `round` ends (or the game, with `None`) or `cards` more
/// cards are laid, whichever comes first; a turn that cannot be played ends it early.
pub fn playout(p: &Ruleset, s: &mut State, rng: &mut Rng, round: Option<u32>, cards: u64) {
    let until = s.turns.saturating_add(cards);
    while !s.over && s.turns < until && round.is_none_or(|r| s.round == r) {
        match super::bot_turn(p, s, Bot::Cautious, rng, &mut ()) {
            Ok(true) => {}
            Ok(false) | Err(_) => break,
        }
    }
}
