//! The compiled form the engine runs: flat, copyable tables of small integers and plain enums.
//!
//! Options are resolved, ranks are table indexes, every card's effect for every player count
//! is one lookup away. Names and source lines are kept beside the tables for explanations and
//! the rules sheet; the engine's hot path never reads them.

use serde::Serialize;

/// Ranks: `A 2 3 4 5 6 7 8 9 10 J Q K` are 0 to 12, the joker `X` is 13.
pub const RANKS: usize = 14;
/// The joker's rank index.
pub const JOKER: u8 = 13;
pub const RANK_NAMES: [&str; RANKS] = [
    "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "X",
];
pub const RANK_WORDS: [&str; RANKS] = [
    "Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Joker",
];
pub const SUITS: [char; 4] = ['S', 'H', 'D', 'C'];
/// Most seats at one table.
pub const MAX_SEATS: usize = 12;
/// Most cards in one hand.
pub const MAX_HAND: usize = 10;
/// Most decks shuffled together.
pub const MAX_DECKS: usize = 4;
/// Most choices on one card.
pub const MAX_CHOICES: usize = 4;
/// Most steps in one choice.
pub const MAX_STEPS: usize = 6;
/// "No effect defined" in the rank tables.
pub const NO_EFFECT: u16 = u16::MAX;

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

/// Where a compiled piece came from: a file of the `extends` chain and a line in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Origin {
    /// Index into [`Program::files`]; the last file is the ruleset itself, earlier ones its
    /// parents.
    pub file: u16,
    pub line: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Role {
    Dealer,
    Loser,
    Winner,
}

/// Which seat leads a round: `offset` seats from the role (1 = to its left).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Leader {
    pub role: Role,
    pub offset: i8,
}

/// A declared option and the value it has in this compilation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OptionInfo {
    pub name: String,
    pub value: i64,
    pub default: i64,
    /// Allowed values in words: `1 to 10`, `199 or 299`, `yes or no`.
    pub allowed: String,
    pub origin: Origin,
}

/// Triggered outcomes, each an index into [`Program::outcomes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Triggers {
    pub cannot_play: Option<u16>,
    pub no_cards: Option<u16>,
    pub round_start: Option<u16>,
    pub round_end: Option<u16>,
    pub game_end: Option<u16>,
}

/// A limit the total may not pass, and where it was said.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Limit {
    pub value: i32,
    pub origin: Origin,
}

/// A checked, compiled ruleset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Program {
    pub name: String,
    pub about: String,
    /// The files of the `extends` chain, base first, the ruleset itself last.
    pub files: Vec<String>,
    /// The text of each file, for quoting the line that decides a rule.
    #[serde(skip)]
    pub sources: Vec<String>,
    pub options: Vec<OptionInfo>,
    pub min_players: u8,
    pub max_players: u8,
    /// Decks by player count.
    pub decks: [u8; MAX_SEATS + 1],
    pub jokers: u8,
    /// Hand size by player count.
    pub hand: [u8; MAX_SEATS + 1],
    pub chips: i32,
    pub start: i32,
    pub ceiling: Option<Limit>,
    pub floor: Option<Limit>,
    pub clockwise: bool,
    pub by_hand: bool,
    pub reshuffle: bool,
    /// The first dealer's seat, or `None` for a random one.
    pub first_dealer: Option<u8>,
    pub deal_clockwise: bool,
    pub leader: Leader,
    pub rounds: Option<u32>,
    pub most_chips_wins: bool,
    pub out_when_cannot_pay: bool,
    pub team_size: Option<u8>,
    /// Effect index by players still in the round, then rank.
    pub rank_fx: [[u16; RANKS]; MAX_SEATS + 1],
    pub effects: Vec<Effect>,
    pub conds: Vec<Cond>,
    pub outcomes: Vec<Outcomes>,
    /// Sorted by value.
    pub bars: Vec<Bar>,
    pub triggers: Triggers,
    /// Where each top-level setting was decided, for the rules sheet: name → origin.
    pub settings: Vec<(String, Origin)>,
    /// Card effects written in rhai (`run NAME`).
    pub script_fx: Vec<ScriptFx>,
    /// Tests written in rhai (`if script NAME`), always tabulated.
    pub script_tests: Vec<ScriptTest>,
    /// Bars whose test is written in rhai (`on script NAME: ...`).
    pub script_bars: Vec<ScriptBar>,
    /// The compiled scripts, when the ruleset has any.
    #[serde(skip)]
    pub scripts: Option<Scripts>,
}

/// A card effect in rhai: tabulated by total when it reads only the total and the card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScriptFx {
    pub func: String,
    pub rank: u8,
    /// The total of `table[0]`.
    pub lo: i32,
    /// The effect at every total from `lo`, or `None` for a script that runs live.
    #[serde(skip)]
    pub table: Option<Vec<crate::script::ScriptOut>>,
    pub origin: Origin,
}

impl ScriptFx {
    /// The tabulated effect at `total`, if there is one.
    #[inline]
    pub fn lookup(&self, total: i32) -> Option<&crate::script::ScriptOut> {
        let i = usize::try_from(total.checked_sub(self.lo)?).ok()?;
        self.table.as_ref()?.get(i)
    }
}

/// A test in rhai, tabulated (totals outside the table fail the test).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScriptTest {
    pub func: String,
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
    /// Index into [`Program::outcomes`].
    pub outcomes: u16,
}

/// The compiled scripts of a ruleset, shared by every copy of the program.
#[derive(Debug, Clone)]
pub struct Scripts(pub std::sync::Arc<crate::script::Host>);

impl PartialEq for Scripts {
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Scripts {}

impl Program {
    /// The cards of the deck for `players` seats: `decks` times 52 plus the jokers.
    pub fn deck_size(&self, players: usize) -> usize {
        usize::from(self.decks[players]) * (52 + usize::from(self.jokers))
    }

    /// The line of a ruleset file that an origin points at.
    pub fn line_text(&self, origin: Origin) -> &str {
        self.sources
            .get(usize::from(origin.file))
            .and_then(|s| s.lines().nth((origin.line as usize).saturating_sub(1)))
            .map_or("", |l| crate::syntax::strip_comment(l).trim())
    }

    /// `ninety-nine.rules line 23`
    pub fn cite(&self, origin: Origin) -> String {
        let file = self
            .files
            .get(usize::from(origin.file))
            .map_or("?", |f| f.rsplit(['/', '\\']).next().unwrap_or(f));
        format!("{file} line {}", origin.line)
    }

    /// Whether a piece comes from the ruleset's own file rather than a parent.
    pub fn is_own(&self, origin: Origin) -> bool {
        usize::from(origin.file) + 1 == self.files.len()
    }

    pub fn option(&self, name: &str) -> Option<&OptionInfo> {
        self.options.iter().find(|o| o.name == name)
    }
}
