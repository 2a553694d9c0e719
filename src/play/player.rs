//! Whoever plays a seat without a person, and the one way a bot's turn is played: its card,
//! then its draw when players draw by hand (bots never forget).

use super::Ruleset;
use std::sync::Arc;

use super::Bot;
use super::notation::move_name;
use crate::base::Rng;
use crate::engine::{self, Move, Pick, PlayError, Sink, State, TableTurn};
use crate::script::ScriptBot;

/// Whether a move failed because a script met the guard of last resort (the machine far too
/// busy): the command must end with an error, not count the game or try another card.
pub fn guard_met(e: &PlayError) -> bool {
    matches!(e, PlayError::Script(s) if crate::script::is_guard(s))
}

/// Plays `mv` for the seat to move, then its draw when players draw by hand.
pub fn play_and_draw<S: Sink>(
    p: &Ruleset,
    s: &mut State,
    mv: Move,
    sink: &mut S,
) -> Result<(), PlayError> {
    let seat = s.turn;
    engine::step(p, s, mv, sink)?;
    if s.pending_draw == Some(seat) {
        engine::step(p, s, Move::Draw, sink)?;
    }
    Ok(())
}

/// A built-in bot's turn: its card and its draw. Returns `false` when it has no card.
pub fn bot_turn<S: Sink>(
    p: &Ruleset,
    s: &mut State,
    bot: Bot,
    rng: &mut Rng,
    sink: &mut S,
) -> Result<bool, PlayError> {
    let Some(mv) = bot.choose(p, s, rng) else {
        return Ok(false);
    };
    play_and_draw(p, s, mv, sink)?;
    Ok(true)
}

/// Whoever plays a seat: a built-in bot, a rhai script, or a person (the driver hands the
/// game back at their turn).
#[derive(Debug, Clone)]
pub enum Player {
    Bot(Bot),
    Script(Arc<ScriptBot>),
    /// The random bot who, where players draw by hand, forgets to draw a third of the time,
    /// as players do: the dry run of `check` seats it so the rules for a player with no
    /// cards get played too.
    Forgetful,
    /// A person at the keyboard.
    Person,
}

impl Player {
    /// A built-in bot by name: `cautious`, `random`, `aggressive`, `search`, `ismcts[:N[:game]]`.
    pub fn builtin(name: &str) -> Result<Player, String> {
        Bot::from_name(name).map(Player::Bot).ok_or_else(|| {
            format!(
                "no bot `{name}`; the bots are {}, or `script:FILE.rhai` (a bot written in rhai); `ismcts:N` gives ismcts N iterations a move (1 to {}), and `ismcts:N:game` plays out to the game's end, not the round's",
                Bot::choices_words(),
                crate::base::limits::grouped(u64::from(super::ismcts::MAX_ITERATIONS))
            )
        })
    }

    /// Whether the engine's loop of plain turns ([`engine::loop_turns`]) serves this player:
    /// the random bot and the weighing ones, whose turns are short.
    pub fn loops(&self) -> bool {
        matches!(
            self,
            Player::Bot(Bot::Random | Bot::Cautious | Bot::Aggressive)
        )
    }

    /// This player's pick in the engine's loop for the seat to move, the table having
    /// counted `plays` plays: the choice [`Player::turn`] makes, from the same random
    /// numbers (the random bot draws none for a single play). [`Pick::Unanswered`] for a
    /// player the loop does not serve.
    #[inline(always)]
    pub fn pick(&self, p: &Ruleset, s: &State, plays: usize, rng: &mut Rng) -> Pick {
        match self {
            Player::Bot(Bot::Random) => Pick::Nth(if plays > 1 { rng.below(plays) } else { 0 }),
            Player::Bot(bot @ (Bot::Cautious | Bot::Aggressive)) => {
                Pick::Move(bot.choose_card(p, s, rng))
            }
            Player::Bot(Bot::Search | Bot::Ismcts { .. })
            | Player::Script(_)
            | Player::Forgetful
            | Player::Person => Pick::Unanswered,
        }
    }

    /// A script bot's first choice of card, or `None` when it has none.
    #[inline(never)]
    fn script_choice(bot: &ScriptBot, p: &Ruleset, s: &State) -> Result<Option<Move>, PlayError> {
        let mut moves = s.legal_moves(p);
        moves.retain_plays();
        if moves.is_empty() {
            return Ok(None);
        }
        let names: Vec<String> = moves
            .as_slice()
            .iter()
            .map(|m| move_name(p, s, *m))
            .collect();
        let game = s.view(p, 0, s.total, s.total);
        let i = bot
            .choose(game, &names, moves.totals())
            .map_err(PlayError::Script)?;
        Ok(Some(moves.as_slice()[i]))
    }

    /// Plays the seat to move: a card, then a draw when players draw by hand. When a card's
    /// script fails, the next legal card is tried, so a broken house rule costs a bot its
    /// choice, never the game; `Ok(false)` when there is no move.
    #[inline]
    pub fn turn<S: Sink>(
        &self,
        p: &Ruleset,
        s: &mut State,
        rng: &mut Rng,
        sink: &mut S,
    ) -> Result<bool, PlayError> {
        self.turn_until(p, s, rng, sink, &|| false)
    }

    /// [`Player::turn`], a searching bot looking at `stop` as it searches
    /// ([`Bot::choose_until`]): the same turn while `stop` says nothing.
    #[inline]
    pub fn turn_until<S: Sink>(
        &self,
        p: &Ruleset,
        s: &mut State,
        rng: &mut Rng,
        sink: &mut S,
        stop: &dyn Fn() -> bool,
    ) -> Result<bool, PlayError> {
        let first = match self {
            Player::Bot(Bot::Random) => {
                // The commonest seat in a simulation: a turn the table answers is one fused
                // step, the same move and the same game as choosing, then playing.
                match engine::table_turn(p, s, |n| rng.below(n), sink) {
                    TableTurn::Played => return Ok(true),
                    TableTurn::NoPlay => return Ok(false),
                    TableTurn::Picked(mv) => Some(mv),
                    TableTurn::Unanswered => Bot::Random.choose(p, s, rng),
                }
            }
            Player::Bot(b) => b.choose_until(p, s, rng, stop),
            Player::Script(bot) => Self::script_choice(bot, p, s)?,
            Player::Forgetful => return forgetful_turn(p, s, rng, sink),
            // A person's move is theirs to make: the driver never asks this seat.
            Player::Person => return Ok(false),
        };
        let Some(first) = first else {
            return Ok(false);
        };
        Self::play_chosen(p, s, first, sink)
    }

    /// Plays `first`, the card a player chose for the seat to move, and the draw after it,
    /// as [`Player::turn`] does: when its script fails, the next legal card is tried.
    #[inline]
    pub fn play_chosen<S: Sink>(
        p: &Ruleset,
        s: &mut State,
        first: Move,
        sink: &mut S,
    ) -> Result<bool, PlayError> {
        match play_and_draw(p, s, first, sink) {
            Ok(()) => Ok(true),
            Err(e) if guard_met(&e) => Err(e),
            Err(e @ PlayError::Script(_)) => Self::other_cards(p, s, first, e, sink),
            Err(e) => Err(e),
        }
    }

    /// After the card `first` failed with `last_err` (its script did): the other legal
    /// cards, in order, until one plays.
    #[inline(never)]
    fn other_cards<S: Sink>(
        p: &Ruleset,
        s: &mut State,
        first: Move,
        mut last_err: PlayError,
        sink: &mut S,
    ) -> Result<bool, PlayError> {
        let mut moves = s.legal_moves(p);
        moves.retain_plays();
        for &m in moves.as_slice().iter().filter(|m| **m != first) {
            match play_and_draw(p, s, m, sink) {
                Ok(()) => return Ok(true),
                Err(e) if guard_met(&e) => return Err(e),
                Err(e @ PlayError::Script(_)) => last_err = e,
                Err(e) => return Err(e),
            }
        }
        Err(last_err)
    }

    pub fn name(&self) -> String {
        match self {
            Player::Bot(b) => b.name().to_string(),
            Player::Script(s) => format!("script:{}", s.file),
            Player::Forgetful => "forgetful".to_string(),
            Player::Person => "person".to_string(),
        }
    }
}

/// The forgetful random player's turn: a random card, then, where players draw by hand, the
/// draw two times in three.
fn forgetful_turn<S: Sink>(
    p: &Ruleset,
    s: &mut State,
    rng: &mut Rng,
    sink: &mut S,
) -> Result<bool, PlayError> {
    if !p.by_hand {
        return Player::Bot(Bot::Random).turn(p, s, rng, sink);
    }
    let Some(mv) = Bot::Random.choose(p, s, rng) else {
        return Ok(false);
    };
    let seat = s.turn;
    engine::step(p, s, mv, sink)?;
    if s.pending_draw == Some(seat) && rng.below(3) != 0 {
        engine::step(p, s, Move::Draw, sink)?;
    }
    Ok(true)
}
