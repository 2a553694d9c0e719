//! The interface to house rules written in rhai, as the IR sees it: the IR names scripts and
//! what they give back, and holds tables of their answers; the `script` stage implements
//! [`ScriptHost`]. The engine asks a host only for scripts that could not be tabulated.

use std::sync::Arc;

use serde::Serialize;

use super::{MAX_HAND, MAX_SEATS, Origin, Outcome, Turn};

/// The game as a script sees it, as plain numbers: `game.total`, `game.previous` (the total
/// before the card, for bar tests), `game.card` and `game.face` (from `rank`), `game.player`
/// (the seat), `game.chips` and `game.hand_sizes` (by seat), `game.direction`,
/// `game.players_left`, `game.round`, `game.seats`, `game.hand` (bots only: the player's
/// cards).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct View {
    pub total: i32,
    pub previous: i32,
    pub rank: u8,
    pub player: u8,
    pub seats: u8,
    pub players_left: u8,
    pub clockwise: bool,
    pub round: u32,
    pub chips: [i32; MAX_SEATS],
    pub hand_sizes: [u8; MAX_SEATS],
    pub hand: [u8; MAX_HAND],
    pub hand_len: u8,
    /// The top cards of the discard pile (at most [`PILE_SEEN`]), top card last.
    pub pile: [u8; PILE_SEEN],
    pub pile_len: u8,
    /// How many cards the stock holds.
    pub stock: u16,
    /// The ruleset's counts, in the order declared: the player's own for a count kept for
    /// each player, the table's for a count of its own.
    pub counts: [i32; super::MAX_COUNTS],
}

/// The most cards of the discard pile a script sees: its top ones.
pub const PILE_SEEN: usize = 16;

impl View {
    /// A made-up game, for tabulating and trying a script when the ruleset is checked: three
    /// players with three chips and three cards each, seat 0 to play.
    pub fn probe(rank: u8, previous: i32, total: i32) -> View {
        let mut chips = [0; MAX_SEATS];
        chips[..3].fill(3);
        let mut hand_sizes = [0; MAX_SEATS];
        hand_sizes[..3].fill(3);
        View {
            total,
            previous,
            rank: rank.min(13),
            player: 0,
            seats: 3,
            players_left: 3,
            clockwise: true,
            round: 1,
            chips,
            hand_sizes,
            hand: [0; MAX_HAND],
            hand_len: 0,
            pile: [0; PILE_SEEN],
            pile_len: 0,
            stock: 0,
            counts: [0; super::MAX_COUNTS],
        }
    }
}

/// What a script effect does, as the engine applies it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ScriptOut {
    /// The new total, or `None` to leave it.
    pub total: Option<i32>,
    /// Players skipped, the direction reversed, more turns.
    pub turn: Turn,
    pub outcomes: Vec<Outcome>,
}

/// A script failed: which, where, and why, in words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("script `{function}` ({place}): {message}")]
pub struct ScriptError {
    pub function: String,
    pub place: String,
    pub message: String,
    /// The line in the script's file, when known.
    pub line: Option<usize>,
}

/// Runs a ruleset's scripts live: what the engine needs of the `script` stage.
pub trait ScriptHost: Send + Sync + std::fmt::Debug {
    /// A card effect: what the function `func` says for this game.
    fn effect(&self, func: &str, game: &View) -> Result<ScriptOut, ScriptError>;
    /// A test: whether the function `func` holds for this game.
    fn test(&self, func: &str, game: &View) -> Result<bool, ScriptError>;
    /// A digest of the scripts' code: two hosts of the same code are the same.
    fn digest(&self) -> u64;
    /// Starts (or ends) a game on the calling thread: while it lasts, all the script calls
    /// of this thread share one allowance of work.
    fn allow_game(&self, _on: bool) {}
    /// Starts (or ends) the games of a check on the calling thread: while it lasts, all the
    /// script calls of all its games share one allowance of work.
    fn share_dry_run(&self, _on: bool) {}
    /// Whether the allowance the calling thread spends is spent.
    fn spent(&self) -> bool {
        false
    }
    /// Whether a script effect may move cards (draw, swap hands, take or give a card): the
    /// program then keeps what a card moved between hands tells (the bots' deals keep it).
    fn may_move_cards(&self) -> bool {
        false
    }
}

/// The compiled scripts of a ruleset, shared by every copy of the program.
#[derive(Debug, Clone)]
pub struct Scripts(pub Arc<dyn ScriptHost>);

impl PartialEq for Scripts {
    fn eq(&self, other: &Self) -> bool {
        self.0.digest() == other.0.digest()
    }
}

impl Eq for Scripts {}

/// A card effect in rhai: tabulated by total when it reads only the total and the card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScriptFx {
    pub func: String,
    /// Its doc comment, for the rules sheet.
    pub doc: String,
    pub rank: u8,
    /// The total of `table[0]`.
    pub lo: i32,
    /// The effect at every total from `lo`, or `None` for a script that runs live.
    #[serde(skip)]
    pub table: Option<Vec<ScriptOut>>,
    pub origin: Origin,
}

impl ScriptFx {
    /// The tabulated effect at `total`, if there is one.
    #[inline]
    pub fn lookup(&self, total: i32) -> Option<&ScriptOut> {
        let i = usize::try_from(total.checked_sub(self.lo)?).ok()?;
        self.table.as_ref()?.get(i)
    }
}

/// A test in rhai, tabulated (totals outside the table fail the test).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScriptTest {
    pub func: String,
    /// Its doc comment, for the rules sheet.
    pub doc: String,
    pub lo: i32,
    #[serde(skip)]
    pub table: Vec<bool>,
}

impl ScriptTest {
    #[inline]
    pub fn holds(&self, total: i32) -> bool {
        total
            .checked_sub(self.lo)
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| self.table.get(i))
            .copied()
            .unwrap_or(false)
    }
}

/// A bar whose test is a rhai function of the totals before and after a card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScriptBar {
    pub func: String,
    /// What the function's `///` comment says it does (for the rules sheet).
    pub doc: String,
    /// Index into [`super::Program::outcomes`].
    pub outcomes: u16,
}
