//! A card's effect and what happens to players, compiled: small `Copy` enums and fixed
//! arrays the engine reads on its hot path.

use serde::Serialize;

use super::{MAX_CHOICES, MAX_STEPS, Origin, Program};

/// What a card's step does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Act {
    /// `add 10` (and `subtract 10` as `Add(-10)`)
    Add(i32),
    /// `set the total to 99`
    Set(i32),
    /// `multiply by 2`, `double`
    Mul(i32),
    /// `divide by 2`, `halve` (rounding towards minus infinity)
    Div(i32),
    /// `nothing`
    Nothing,
    /// `skip`
    Skip,
    /// `reverse`
    Reverse,
    /// `play again`
    Again,
    /// Payments and round results: an index into [`Program::outcomes`].
    Outcomes(u16),
    /// A rhai function decides: an index into [`Program::script_fx`].
    Script(u16),
}

impl Act {
    /// The total after this step, or `None` when the step leaves the total alone.
    #[inline]
    pub fn apply(self, total: i32) -> i32 {
        match self {
            Act::Add(n) => total.saturating_add(n),
            Act::Set(n) => n,
            Act::Mul(n) => total.saturating_mul(n),
            Act::Div(n) => total.div_euclid(n),
            Act::Nothing
            | Act::Skip
            | Act::Reverse
            | Act::Again
            | Act::Outcomes(_)
            | Act::Script(_) => total,
        }
    }
}

/// A test on the total.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Test {
    Even,
    Odd,
    AtLeast(i32),
    AtMost(i32),
    Above(i32),
    Below(i32),
    Exactly(i32),
    /// A rhai function of the total: an index into [`Program::script_tests`].
    Script(u16),
}

impl Test {
    #[inline]
    pub fn holds(self, p: &Program, total: i32) -> bool {
        match self {
            Test::Even => total % 2 == 0,
            Test::Odd => total % 2 != 0,
            Test::AtLeast(n) => total >= n,
            Test::AtMost(n) => total <= n,
            Test::Above(n) => total > n,
            Test::Below(n) => total < n,
            Test::Exactly(n) => total == n,
            Test::Script(i) => p.script_tests[usize::from(i)].holds(total),
        }
    }
}

/// A condition: any of its groups holds when all the tests of the group hold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cond {
    pub any_of: Vec<Vec<Test>>,
}

impl Cond {
    pub fn holds(&self, p: &Program, total: i32) -> bool {
        self.any_of
            .iter()
            .any(|all| all.iter().all(|t| t.holds(p, total)))
    }
}

/// One step of a choice: `then`, or under a condition `then` / `otherwise`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Step {
    /// An index into [`Program::conds`], or `None` for an unconditional step.
    pub cond: Option<u16>,
    pub then: Act,
    pub otherwise: Act,
}

/// One way to play a card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Choice {
    pub steps: [Step; MAX_STEPS],
    pub len: u8,
    /// True when every step is unconditional arithmetic or a turn effect: the common case,
    /// whose new total needs no condition look-up.
    pub simple: bool,
    /// The whole arithmetic of a simple choice in one instruction, when it has one.
    pub fast: Fast,
    /// The turn effects of a simple choice: [`SKIP`], [`REVERSE`], [`AGAIN`] bits.
    pub turn: u8,
    /// A step runs a script: the engine asks it before the move changes anything.
    pub scripted: bool,
}

/// A simple choice's arithmetic folded into one "superinstruction".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Fast {
    /// Add this to the total (`add 3`, `nothing`, `add 3 and skip`).
    Add(i32),
    /// Set the total (`set the total to 99`, `set 0 and add 5`).
    Set(i32),
    /// Anything else: run the steps.
    General,
}

pub const SKIP: u8 = 1;
pub const REVERSE: u8 = 2;
pub const AGAIN: u8 = 4;

impl Choice {
    pub fn steps(&self) -> &[Step] {
        &self.steps[..self.len as usize]
    }

    /// Derives [`Choice::simple`], [`Choice::fast`] and [`Choice::turn`] from the steps.
    pub fn finish(&mut self) {
        let steps = self.steps;
        let steps = &steps[..usize::from(self.len)];
        self.simple = steps
            .iter()
            .all(|s| s.cond.is_none() && !matches!(s.then, Act::Outcomes(_) | Act::Script(_)));
        self.scripted = steps
            .iter()
            .any(|s| matches!(s.then, Act::Script(_)) || matches!(s.otherwise, Act::Script(_)));
        self.turn = 0;
        let mut fast = Fast::Add(0);
        for s in steps {
            fast = match (fast, s.then) {
                (Fast::Add(a), Act::Add(b)) => Fast::Add(a.saturating_add(b)),
                (Fast::Set(a), Act::Add(b)) => Fast::Set(a.saturating_add(b)),
                (_, Act::Set(n)) => Fast::Set(n),
                (
                    f,
                    Act::Nothing
                    | Act::Skip
                    | Act::Reverse
                    | Act::Again
                    | Act::Outcomes(_)
                    | Act::Script(_),
                ) => f,
                (_, Act::Mul(_) | Act::Div(_)) | (Fast::General, Act::Add(_)) => Fast::General,
            };
            match s.then {
                Act::Skip => self.turn |= SKIP,
                Act::Reverse => self.turn ^= REVERSE,
                Act::Again => self.turn |= AGAIN,
                Act::Add(_)
                | Act::Set(_)
                | Act::Mul(_)
                | Act::Div(_)
                | Act::Nothing
                | Act::Outcomes(_)
                | Act::Script(_) => {}
            }
        }
        self.fast = if self.simple { fast } else { Fast::General };
    }
}

/// A card's effect: one or more choices.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Effect {
    pub choices: [Choice; MAX_CHOICES],
    pub len: u8,
    /// How each choice is named in a move (`11`, `-10`, `high`).
    pub labels: Vec<String>,
    /// Where the effect was written.
    pub origin: Origin,
    /// The effect as written (`add 1 or add 11`).
    pub text: String,
}

impl Effect {
    pub fn choices(&self) -> &[Choice] {
        &self.choices[..self.len as usize]
    }
}

/// Who an outcome is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Who {
    Player,
    EachOther,
    Every,
    Winner,
    Loser,
    Next,
    EachOut,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Target {
    Bank,
    Pot,
    Seat(Who),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum OutcomeKind {
    Pay {
        amount: i32,
        to: Target,
    },
    WinRound,
    LoseRound,
    OutOfRound,
    OutOfGame,
    /// The total back to the start; with `true`, the discard pile set aside too.
    ResetTotal(bool),
    EndRound,
    TakePot,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Outcome {
    pub who: Who,
    pub kind: OutcomeKind,
}

/// The outcomes of one line, in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Outcomes {
    pub list: Vec<Outcome>,
    pub origin: Origin,
    pub text: String,
}

/// A bar: a total that costs or pays when reached exactly or passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Bar {
    pub value: i32,
    pub reach: Option<u16>,
    pub pass: Option<u16>,
    /// Counts going down as well as up.
    pub reach_either_way: bool,
    pub pass_either_way: bool,
}
