//! What the table keeps and amounts worked out from it, compiled: the counts a ruleset reads
//! (`the run`, `the cards laid this round`, a player's `points`), the amounts that read them
//! (`109 minus 10 times the round, but not below 59`), and the moments that run rules at a
//! point of the game (`after each card`, `when a player goes out`).

use serde::{Deserialize, Serialize};

use super::{Facts, Origin, Who};

/// A count the table keeps, as a condition or an amount reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Quantity {
    /// The running total.
    Total,
    /// The highest total allowed now (no limit: the largest number).
    Limit,
    /// The round's number, from 1.
    Round,
    /// The cards laid this round.
    RoundCards,
    /// The cards of one rank laid in a row, ending with the card on top of the pile.
    Run,
    /// The players still in the game.
    PlayersLeft,
    /// The players still in the round.
    PlayersInRound,
    /// The cards in the stock.
    Stock,
    /// The chips in the pot.
    Pot,
    /// A player's chips (their team's, in teams).
    Chips,
    /// The cards in a player's hand.
    Cards,
    /// A count the ruleset keeps: an index into [`super::Program::counts`].
    Count(u8),
}

impl Quantity {
    /// Whether the quantity is a player's (read for a seat), not the table's.
    pub fn of_a_seat(self, counts: &[CountInfo]) -> bool {
        match self {
            Quantity::Chips | Quantity::Cards => true,
            Quantity::Count(i) => counts.get(usize::from(i)).is_some_and(|c| c.per_player),
            Quantity::Total
            | Quantity::Limit
            | Quantity::Round
            | Quantity::RoundCards
            | Quantity::Run
            | Quantity::PlayersLeft
            | Quantity::PlayersInRound
            | Quantity::Stock
            | Quantity::Pot => false,
        }
    }

    /// What a rule may change of it: a seat's chips, or one of the ruleset's counts; `None`
    /// for what the table keeps by itself.
    pub fn changeable(self) -> Option<Changeable> {
        match self {
            Quantity::Chips => Some(Changeable::Chips),
            Quantity::Count(i) => Some(Changeable::Count(i)),
            Quantity::Total
            | Quantity::Limit
            | Quantity::Round
            | Quantity::RoundCards
            | Quantity::Run
            | Quantity::PlayersLeft
            | Quantity::PlayersInRound
            | Quantity::Stock
            | Quantity::Pot
            | Quantity::Cards => None,
        }
    }

    /// Its value in a situation: a condition's, the player's own counts.
    pub fn read(self, f: &Facts) -> i32 {
        match self {
            Quantity::Total => f.total,
            Quantity::Limit => f.limit,
            Quantity::Round => i32::try_from(f.round).unwrap_or(i32::MAX),
            Quantity::RoundCards => i32::try_from(f.round_cards).unwrap_or(i32::MAX),
            Quantity::Run => i32::from(f.run),
            Quantity::PlayersLeft => i32::from(f.players_in_game),
            Quantity::PlayersInRound => i32::from(f.players_left),
            Quantity::Stock => i32::from(f.stock),
            Quantity::Pot => f.pot,
            Quantity::Chips => f.chips,
            Quantity::Cards => i32::from(f.cards_left),
            Quantity::Count(i) => f.counts.get(usize::from(i)).copied().unwrap_or(0),
        }
    }
}

/// What a rule may change of what the table keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Changeable {
    Chips,
    Count(u8),
}

/// The name of the count that holds a limit the ruleset's lines change (`the limit goes up
/// by 5`): a name no ruleset may give a count of its own.
pub const LIMIT_COUNT: &str = "limit";

/// A count a ruleset keeps: `count points for each player, starting at 0`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CountInfo {
    pub name: String,
    /// Kept for each player (else one for the table).
    pub per_player: bool,
    /// Where it starts, at the start of the game (and where `resets` takes it back to).
    pub start: i32,
    pub origin: Origin,
}

impl CountInfo {
    /// Whether it holds the limit, which the ruleset's lines change.
    pub fn holds_the_limit(&self) -> bool {
        !self.per_player && self.name == LIMIT_COUNT
    }
}

/// An amount: known when compiled, or worked out from the table when it is needed (an index
/// into [`super::Program::exprs`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Amount {
    Fixed(i32),
    Of(u16),
}

/// One operation of an [`Expr`], on a stack of numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Op {
    /// Push a number.
    Num(i32),
    /// Push a count the table keeps, of a seat for a player's count.
    Get(Quantity, Who),
    Add,
    Sub,
    Mul,
    /// Half, rounding down.
    Half,
    /// At least this.
    AtLeast(i32),
    /// At most this.
    AtMost(i32),
}

/// An amount worked out from the table: operations on a stack, in order (postfix). Sums
/// saturate; a value past `i32` is held at its end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Expr {
    pub ops: Vec<Op>,
}

impl Expr {
    /// Its value, each count read by `read` (the quantity, and whose).
    pub fn eval(&self, read: impl Fn(Quantity, Who) -> i32) -> i32 {
        let mut stack = [0i64; 16];
        let mut n = 0usize;
        for op in &self.ops {
            match *op {
                Op::Num(v) => {
                    stack[n.min(15)] = i64::from(v);
                    n += 1;
                }
                Op::Get(q, w) => {
                    stack[n.min(15)] = i64::from(read(q, w));
                    n += 1;
                }
                Op::Add | Op::Sub | Op::Mul if n >= 2 => {
                    let (a, b) = (stack[n - 2], stack[n - 1]);
                    stack[n - 2] = match *op {
                        Op::Add => a.saturating_add(b),
                        Op::Sub => a.saturating_sub(b),
                        Op::Mul
                        | Op::Num(_)
                        | Op::Get(..)
                        | Op::Half
                        | Op::AtLeast(_)
                        | Op::AtMost(_) => a.saturating_mul(b),
                    }
                    .clamp(i64::from(i32::MIN), i64::from(i32::MAX));
                    n -= 1;
                }
                Op::Half if n >= 1 => stack[n - 1] = stack[n - 1].div_euclid(2),
                Op::AtLeast(v) if n >= 1 => stack[n - 1] = stack[n - 1].max(i64::from(v)),
                Op::AtMost(v) if n >= 1 => stack[n - 1] = stack[n - 1].min(i64::from(v)),
                Op::Add | Op::Sub | Op::Mul | Op::Half | Op::AtLeast(_) | Op::AtMost(_) => {}
            }
        }
        let v = if n == 0 { 0 } else { stack[(n - 1).min(15)] };
        v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }

    /// Its value in a situation where only the player's own counts are known.
    pub fn eval_facts(&self, f: &Facts) -> i32 {
        self.eval(|q, _| q.read(f))
    }

    /// Whether it reads anything of the table but the total (then a card whose total it
    /// makes is worked out as it is laid, never read from a table).
    pub fn reads_table(&self) -> bool {
        self.ops
            .iter()
            .any(|op| matches!(op, Op::Get(q, _) if *q != Quantity::Total))
    }

    /// The counts it reads.
    pub fn quantities(&self) -> impl Iterator<Item = Quantity> + '_ {
        self.ops.iter().filter_map(|op| match op {
            Op::Get(q, _) => Some(*q),
            Op::Num(_)
            | Op::Add
            | Op::Sub
            | Op::Mul
            | Op::Half
            | Op::AtLeast(_)
            | Op::AtMost(_) => None,
        })
    }
}

/// How an outcome changes a count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Change {
    Up(Amount),
    Down(Amount),
    Become(Amount),
    /// Back to where it starts.
    Reset,
}

/// A point of the game at which a moment's rules run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum MomentKind {
    /// After each card, once its own rules and the bars are done and its player has drawn,
    /// while its round goes on.
    AfterCard,
    /// When a player goes out of the game.
    PlayerOut,
    /// Once, when the players left in the game come down to this many.
    Left(u8),
}

/// A moment's rules: when, under what condition (an index into
/// [`super::Program::conds`], read in the situation of the player the moment is about), and
/// what happens (an index into [`super::Program::outcomes`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Moment {
    pub kind: MomentKind,
    pub cond: Option<u16>,
    pub outcomes: u16,
    pub origin: Origin,
}

/// A moment of the game a trigger line is for (see [`super::Triggers`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum TriggerKind {
    CannotPlay,
    NoCards,
    RoundStart,
    RoundEnd,
    GameEnd,
}

/// `when a player cannot play, if the player's busts are 1: ...`: a trigger's line for the
/// cases its test (`cond`, an index into [`super::Program::conds`]) holds in. A trigger's
/// cases are tried in order; the first that holds is what happens, in place of the
/// trigger's line without a test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TriggerCase {
    pub trigger: TriggerKind,
    pub cond: u16,
    pub outcomes: u16,
}
