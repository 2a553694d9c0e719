//! The spanned syntax tree of one ruleset file, as the designer wrote it.
//!
//! Every node carries the byte span it came from, so the checker can point at it. Each
//! variant's doc shows the ruleset syntax that makes it.

pub use crate::base::span::{Span, Spanned};

/// A number as written: `99`, or an option in braces: `{chips}`.
#[derive(Debug, Clone, PartialEq)]
pub enum Amount {
    /// `99`
    Number(i64),
    /// `{chips}`
    Option(String),
}

pub type SAmount = Spanned<Amount>;

/// An amount worked out from the table when it is needed: `10`, `{bonus}`, `the total`,
/// `the player's points`, `109 minus 10 times the round, but not below 59`.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `99`, `{chips}`: known when the ruleset is compiled.
    Amount(Amount),
    /// `the run`, `the player's points`
    Count(TableCount),
    /// `the total plus 5`
    Plus(Box<SValue>, Box<SValue>),
    /// `99 minus the round`
    Minus(Box<SValue>, Box<SValue>),
    /// `10 times the round`
    Times(Box<SValue>, Box<SValue>),
    /// `half the total` (rounding down)
    Half(Box<SValue>),
    /// `twice the run`
    Twice(Box<SValue>),
    /// `..., but not below 59`, `..., but never above 99`
    Bounded {
        value: Box<SValue>,
        low: Option<SAmount>,
        high: Option<SAmount>,
    },
}

pub type SValue = Spanned<Value>;

impl Value {
    /// The amount, when the value is a plain number or option.
    pub fn as_amount(&self) -> Option<&Amount> {
        match self {
            Value::Amount(a) => Some(a),
            Value::Count(_)
            | Value::Plus(..)
            | Value::Minus(..)
            | Value::Times(..)
            | Value::Half(_)
            | Value::Twice(_)
            | Value::Bounded { .. } => None,
        }
    }
}

/// A count the table keeps.
#[derive(Debug, Clone, PartialEq)]
pub enum TableCount {
    /// `the total`
    Total,
    /// `the limit`: the highest total allowed now
    Limit,
    /// `the round`: its number, from 1
    Round,
    /// `the cards laid this round`
    RoundCards,
    /// `the run`: the cards of one rank laid in a row, ending with the card on top
    Run,
    /// `the players left`: in the game
    PlayersLeft,
    /// `the players in the round`
    PlayersInRound,
    /// `the cards in the stock`
    Stock,
    /// `the pot`
    Pot,
    /// `the player's chips`, `the next player's cards`, `the player's points`
    Seat(Who, SeatCount),
    /// `the streak`: a count of the table's own
    Named(Spanned<String>),
}

/// What a player has that the table counts.
#[derive(Debug, Clone, PartialEq)]
pub enum SeatCount {
    Chips,
    /// The cards in their hand.
    Cards,
    /// A count kept for each player (`points`).
    Named(Spanned<String>),
}

/// How an outcome changes a count.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// `goes up by 5`
    Up(SValue),
    /// `goes down by 5`
    Down(SValue),
    /// `becomes 1`
    Become(SValue),
    /// `resets`: back to where it starts
    Reset,
}

/// A moment something happens at, besides the triggers of `when` lines.
#[derive(Debug, Clone, PartialEq)]
pub enum Moment {
    /// `after each card`
    AfterCard,
    /// `when a player goes out`
    PlayerOut,
    /// `when 2 players are left`
    Left(SAmount),
}

/// How a round ends besides its rules (`the round ends ...`).
#[derive(Debug, Clone)]
pub enum RoundEnd {
    /// `after 20 cards`
    AfterCards(SAmount),
    /// `when the run is 4`
    When(Condition),
}

/// A whole ruleset file.
#[derive(Debug, Clone, Default)]
pub struct File {
    pub statements: Vec<Statement>,
    pub scenarios: Vec<Scenario>,
    /// Inline `script` blocks, in order.
    pub scripts: Vec<ScriptSource>,
}

/// Rhai code: an inline `script ... end` block, or a file named by `script file "x.rhai"`.
#[derive(Debug, Clone)]
pub struct ScriptSource {
    pub text: String,
    /// The block in the ruleset (or the `script file` line).
    pub span: Span,
    /// The 1-based line of the ruleset where the code starts (1 for a file).
    pub line: usize,
    /// The `.rhai` file, for code from a file.
    pub path: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Statement {
    /// `if {option}:` (false) or `if not {option}:` (true) before the statement.
    pub guard: Option<(bool, Spanned<String>)>,
    pub kind: StatementKind,
    pub span: Span,
    /// The 1-based line the statement is on, for rules sheets and explanations.
    pub line: usize,
}

/// `with 5 or more players`, `with 2 players`.
#[derive(Debug, Clone, PartialEq)]
pub struct WithPlayers {
    pub count: SAmount,
    pub or_more: bool,
    pub span: Span,
}

/// An option's value: `3`, `yes` (1) or `no` (0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptValue {
    Number(i64),
    Yes,
    No,
}

impl OptValue {
    pub fn as_number(self) -> i64 {
        match self {
            OptValue::Number(n) => n,
            OptValue::Yes => 1,
            OptValue::No => 0,
        }
    }
}

/// The values an option may take.
#[derive(Debug, Clone, PartialEq)]
pub enum OptRange {
    /// `from 1 to 10`
    Between(i64, i64),
    /// `one of 199, 299`
    OneOf(Vec<OptValue>),
    /// An option declared `= yes` or `= no` takes `yes` or `no`.
    YesNo,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Above,
    Below,
}

/// Clockwise is to the left, the next seat number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turning {
    Clockwise,
    Counterclockwise,
}

#[derive(Debug, Clone)]
pub enum StatementKind {
    /// `name "Ninety-Nine"`
    Name(String),
    /// `about "Three cards, three chips."`
    About(String),
    /// `extends "ninety-nine"`
    Extends(Spanned<String>),
    /// `option chips = 3 from 1 to 10`
    Option {
        name: Spanned<String>,
        default: Spanned<OptValue>,
        range: OptRange,
    },
    /// `players 2 to 5`
    Players { min: SAmount, max: SAmount },
    /// `decks 2 with 5 or more players`
    Decks {
        count: SAmount,
        with: Option<WithPlayers>,
    },
    /// `jokers 2 per deck`
    Jokers(SAmount),
    /// `hand 3 cards`
    Hand {
        size: SAmount,
        with: Option<WithPlayers>,
    },
    /// `each player starts with {chips} chips`
    Chips(SAmount),
    /// `the total starts at 0`
    Start(SAmount),
    /// `the total may not go above 99`, `... above 109 minus 10 times the round`
    Limit { side: Side, value: SValue },
    /// `play goes clockwise`
    Direction(Turning),
    /// `players draw by hand`
    Drawing { by_hand: bool },
    /// `when the stock is empty: shuffle the discard pile into it`
    EmptyStock { reshuffle: bool },
    /// `card A: add 1 or add 11`
    Card {
        ranks: Vec<RankItem>,
        with: Option<WithPlayers>,
        effect: Effect,
    },
    /// `on passing 33 or 66: the player pays 1`, `on reaching 50 either way: ...`
    Bar {
        passing: bool,
        values: Vec<SAmount>,
        /// `going up`, `going down`, `either way`; `None` when the line does not say.
        way: Option<Spanned<Way>>,
        outcomes: Vec<Outcome>,
    },
    /// `when a player cannot play: the player pays 1 and loses the round`
    When {
        trigger: Trigger,
        /// `, if TEST`: the line is for the cases the test holds in.
        condition: Option<Condition>,
        outcomes: Vec<Outcome>,
    },
    /// `a player is out at 0 chips`
    Out { when_cannot_pay: bool },
    /// `the first dealer is chosen at random`
    FirstDealer(Option<SAmount>),
    /// `the deal passes left`
    DealPasses(Turning),
    /// `the player left of the loser leads`; `the player with the most points leads each
    /// round, ties to the left of the dealer` (`by`: the holding and whether the most lead)
    Leader {
        role: Role,
        side: Option<Turning>,
        by: Option<(Holding, bool)>,
    },
    /// `the game ends after {rounds} rounds or when a player is out`
    GameEnd(Vec<Ending>),
    /// `the winner is the player with the most chips`
    Winner(WinnerRule),
    /// `players play in teams of 2 sharing chips`
    Teams(SAmount),
    /// `script file "house.rhai"`
    ScriptFile(Spanned<String>),
    /// `on script lucky: each other player pays 1`
    ScriptBar {
        name: Spanned<String>,
        outcomes: Vec<Outcome>,
    },
    /// `no bar at 66`: a variant removes a statement of its parent.
    Remove(Removal),
    /// `keep the bars at 33, 66`: a variant that adds bars keeps its parent's at these totals.
    KeepBars(Vec<SAmount>),
    /// `count points for each player, starting at 0`, `count streak`
    Count {
        name: Spanned<String>,
        per_player: bool,
        start: Option<SAmount>,
    },
    /// `after each card, if the run is 3: set the total to 0`
    Moment {
        moment: Spanned<Moment>,
        condition: Option<Condition>,
        outcomes: Vec<Outcome>,
    },
    /// `the round ends after 20 cards`, `the round ends when the run is 4`
    RoundEnds(RoundEnd),
    /// `instead of laying a card, a player may lay the top card of the stock`, `a player who
    /// cannot play may discard a King instead: ...`
    Other {
        /// Only for a player who cannot play.
        stuck: bool,
        action: Spanned<OtherAction>,
        /// What follows the move.
        then: Vec<Outcome>,
        /// `; if it cannot be laid: ...`, and where it is said.
        failed: Option<(Span, Vec<Outcome>)>,
    },
}

/// What a move beside laying a card does.
#[derive(Debug, Clone)]
pub enum OtherAction {
    /// `discard a King`, `discard any card` (`None`)
    Discard(Option<Vec<RankItem>>),
    /// `lay the top card of the stock`
    LayTop,
    /// `pass`
    Pass,
}

/// Which way a bar counts: the total coming up onto or across it, down, or both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Way {
    /// `going up`
    Up,
    /// `going down`
    Down,
    /// `either way`, `going down too`
    Both,
}

/// One way a game ends (`the game ends ...`).
#[derive(Debug, Clone)]
pub enum Ending {
    /// `when one player is left`
    OneLeft,
    /// `when 2 players are left`
    PlayersLeft(SAmount),
    /// `when a player is out`
    FirstOut,
    /// `when a player reaches 10 chips`, `... reaches 300 points`
    Reach(SAmount, Holding),
    /// `when a player falls to 1 chip`, `... falls to 0 points`
    Fall(SAmount, Holding),
    /// `after 10 rounds`
    AfterRounds(SAmount),
}

/// What a player holds that an ending, the winner or the leader goes by: chips, or a count
/// kept for each player (`points`).
#[derive(Debug, Clone, PartialEq)]
pub enum Holding {
    Chips,
    Count(Spanned<String>),
}

/// Who wins the game.
#[derive(Debug, Clone, PartialEq)]
pub enum WinnerRule {
    /// `the last player left`
    LastLeft,
    /// `the player with the most chips`, `... the most points`
    Most(Holding),
    /// `the player with the fewest chips`
    Fewest(Holding),
}

/// What a `no ...` line removes.
#[derive(Debug, Clone)]
pub enum Removal {
    /// `no bar at 33, 66`: what happens on reaching and on passing them.
    Bars(Vec<SAmount>),
    /// `no rule on reaching 66` (false), `no rule on passing 66` (true).
    Bar { passing: bool, values: Vec<SAmount> },
    /// `no card rule for 4 with 2 players`
    Card {
        ranks: Vec<RankItem>,
        with: Option<WithPlayers>,
    },
    /// `no rule when a player cannot play`
    When(Trigger),
    /// `no upper limit`, `no lower limit`
    Limit(Side),
    /// `no teams`
    Teams,
    /// `no option chips`
    Option(Spanned<String>),
}

/// When a `when` line applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Trigger {
    /// `when a player cannot play`
    CannotPlay,
    /// `when a player has no cards`
    NoCards,
    /// `at the start of each round`
    RoundStart,
    /// `at the end of each round`
    RoundEnd,
    /// `at the end of the game`
    GameEnd,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Dealer,
    Loser,
    Winner,
}

/// `A`, `2 to 8`.
#[derive(Debug, Clone)]
pub struct RankItem {
    pub from: Spanned<String>,
    pub to: Option<Spanned<String>>,
}

/// Choices separated by `or`.
#[derive(Debug, Clone)]
pub struct Effect {
    pub choices: Vec<Choice>,
    pub span: Span,
}

/// `add 11 as "high"`: steps joined by `and`, and an optional label; or branches decided by
/// tests.
#[derive(Debug, Clone)]
pub struct Choice {
    pub body: Body,
    pub label: Option<Spanned<String>>,
    pub span: Span,
}

/// What a choice does.
#[derive(Debug, Clone)]
pub enum Body {
    /// `add 3 and skip`
    Steps(Vec<Step>),
    /// `if the total ends in 5: add 5 and skip; otherwise add 5`
    Branches(Vec<Branch>),
}

/// One branch: `if TEST: STEPS`, `otherwise if TEST: STEPS`, or (no test) `otherwise STEPS`.
#[derive(Debug, Clone)]
pub struct Branch {
    pub condition: Option<Condition>,
    /// What the branch does: its steps, or the player's choices there
    /// (`otherwise either add 10 or subtract 10`).
    pub body: BranchBody,
    pub span: Span,
}

/// A branch's steps, or its choices.
#[derive(Debug, Clone)]
pub enum BranchBody {
    /// `add 5 and skip`
    Steps(Vec<Step>),
    /// `either add 10 or subtract 10`
    Either(Vec<Choice>),
}

/// `halve if the total is even and above 49, otherwise double`
#[derive(Debug, Clone)]
pub struct Step {
    pub action: Spanned<Action>,
    pub condition: Option<Condition>,
    pub otherwise: Option<Spanned<Action>>,
}

#[derive(Debug, Clone)]
pub enum Action {
    /// `add 10`, `add face value`
    Add(Quantity),
    /// `subtract 10`
    Subtract(Quantity),
    /// `set the total to 99`, `set the total to the limit`
    Set(SValue),
    /// `multiply by 3`
    Multiply(SAmount),
    /// `divide by 3`
    Divide(SAmount),
    /// `double`
    Double,
    /// `halve`
    Halve,
    /// `nothing`
    Nothing,
    /// `skip`, `skip 2 players` (`None`: one player)
    Skip(Option<SAmount>),
    /// `reverse`
    Reverse,
    /// `play again`
    /// `play again`, `play again twice`, `play again 3 times` (`None`: once)
    PlayAgain(Option<SAmount>),
    /// `choose who plays next`
    ChooseNext,
    /// `run swap_digits`
    Run(Spanned<String>),
    /// `each other player pays 1`
    Outcome(Outcome),
}

#[derive(Debug, Clone)]
pub enum Quantity {
    /// `face value`: the card's number (Ace 1, Jack 11, Queen 12, King 13, Joker 0).
    Face,
    /// `10`, `{bonus}`, `the run`
    Amount(SValue),
}

/// Tests on the total joined by `and` / `or` (`and` binds first).
#[derive(Debug, Clone)]
pub struct Condition {
    /// The first test, then each further test with whether it is joined by `and`.
    pub tests: Vec<(bool, Spanned<Test>)>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum Test {
    /// `even`
    Even,
    /// `odd`
    Odd,
    /// `at least 50`
    AtLeast(SAmount),
    /// `at most 50`
    AtMost(SAmount),
    /// `above 49`
    Above(SAmount),
    /// `below 10`
    Below(SAmount),
    /// `exactly 98`, `98`
    Exactly(SAmount),
    /// `ends in 5`
    EndsIn(SAmount),
    /// `a multiple of 11`
    MultipleOf(SAmount),
    /// `between 50 and 60`
    Between(SAmount, SAmount),
    /// `the player has at most 1 chip`
    Chips(Cmp, SAmount),
    /// `the player has no cards left`
    CardsLeft(Cmp, SAmount),
    /// `only 2 players are left`
    PlayersLeft(Cmp, SAmount),
    /// `the previous card is a King`
    Previous(Spanned<String>),
    /// `script lucky`
    Script(Spanned<String>),
    /// `the run is 3`, `the player's points are at least 100`, `the player has 3 points`
    Count(TableCount, Cmp, SAmount),
    /// `the pot is between 2 and 5`, both included
    CountBetween(TableCount, SAmount, SAmount),
}

/// Who an outcome is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Who {
    /// `the player`: who laid the card, or who cannot play.
    Player,
    /// `each other player`
    EachOther,
    /// `every player`
    Every,
    /// `the winner` (of the round)
    Winner,
    /// `the loser` (of the round)
    Loser,
    /// `the next player`: who plays next once the card's effects are done (which the
    /// checker asks to say plainly where a card's skips or extra turns make it matter)
    Next,
    /// `the player who plays next`: the same, said plainly
    PlaysNext,
    /// `the player after`: the neighbour in the direction of play
    After,
    /// `the previous player`: the neighbour against the direction of play (which the checker
    /// asks to say plainly where it is not who laid the previous card)
    Previous,
    /// `the player before`: the same, said plainly
    Before,
    /// `the player who laid the previous card` (which the checker asks to say plainly where
    /// it can be the player themselves)
    LaidPrevious,
    /// `whoever laid the previous card`: the same, said plainly
    WhoeverLaid,
    /// `the player with the most chips` (every player tied on the most, which the checker
    /// asks to say plainly)
    Richest,
    /// `the player with the fewest chips` (the same)
    Poorest,
    /// `every player with the most chips`: the same, said plainly
    TiedRichest,
    /// `every player with the fewest chips`: the same, said plainly
    TiedPoorest,
    /// `each player out of the round`
    EachOut,
    /// `a player of their choice`: named by the card's player as they lay it
    Chosen,
}

/// Where a payment goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Bank,
    Pot,
    Seat(Who),
}

#[derive(Debug, Clone)]
pub struct Outcome {
    pub who: Option<Who>,
    pub kind: OutcomeKind,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum OutcomeKind {
    /// `pays 2 to the pot`, `pays the run`
    Pays { amount: SValue, to: Target },
    /// `wins the round`
    WinsRound,
    /// `loses the round`
    LosesRound,
    /// `is out of the round`
    OutOfRound,
    /// `is out of the game`
    OutOfGame,
    /// `the total resets`, `the total and the discard pile reset` (true)
    Resets { pile: bool },
    /// `the round ends`
    RoundEnds,
    /// `the round goes on`: nothing, said plainly
    GoesOn,
    /// `the player wins the game`
    WinsGame,
    /// `the game ends`
    GameEnds,
    /// `reverse the direction`, `the direction reverses`: play turns round
    Reverses,
    /// `takes the pot`
    TakesPot,
    /// `takes 1 from the bank`, `gains 2 from the pot`, `the bank pays 1 to the player`
    Gains { amount: SValue, from: Pool },
    /// `set the total to 0`, `the total becomes the limit`
    SetTotal(SValue),
    /// `the player's points go up by the total`, `each player's chips become 1`
    Count {
        count: Spanned<TableCount>,
        change: Change,
    },
    /// `each other player draws 1`: cards from the stock into the hand
    Draws(SValue),
    /// `swap hands with the next player`
    SwapsHands(Who),
    /// `takes a card at random from the next player`; `random` false when the line does not
    /// say how the card is picked
    TakesCard { from: Who, pick: Pick },
    /// `gives a card at random to the player before`, `gives a card of their choice to ...`
    GivesCard { to: Who, pick: Pick },
    /// `skip the next player`, `skip 2 players` outside a card's line: who plays next is
    /// that many further on (`None`: one)
    Skips(Option<SAmount>),
    /// `the player plays again` (`None`: once)
    PlaysAgain(Option<SAmount>),
}

/// How a card moved from one hand to another is picked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    /// The line does not say (`check` asks).
    Unsaid,
    /// `at random`.
    Random,
    /// `of their choice`: the player laying the card names it.
    Chosen,
    /// Both said: `a random card of their choice`.
    Both,
}

/// Where gained chips come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pool {
    Bank,
    Pot,
}

/// How a count compares: `2`, `at least 2`, `at most 2`, `more than 2`, `fewer than 2`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    Exactly,
    AtLeast,
    AtMost,
    MoreThan,
    FewerThan,
    /// `a multiple of 5` (0 is one)
    MultipleOf,
    /// `odd` (said of a count: `the round is odd`)
    Odd,
    /// `ends in 5` (said of a count: its last digits, without its sign)
    EndsIn,
}

/// `scenario "N33-6: 29 plus 7 passes 33"` ... `end`
#[derive(Debug, Clone)]
pub struct Scenario {
    pub name: Spanned<String>,
    pub steps: Vec<Spanned<ScenarioStep>>,
    pub span: Span,
    pub line: usize,
}

#[derive(Debug, Clone)]
pub enum ScenarioStep {
    /// `players 3`
    Players(i64),
    /// `set chips = 5`
    Set(String, OptValue),
    /// `total 29`
    Total(i64),
    /// `chips 9, 9, 1`
    Chips(Vec<i64>),
    /// `turn 1`
    Turn(i64),
    /// `direction counterclockwise`
    Direction(Turning),
    /// `hand 0: 7H KS`
    Hand(i64, Vec<Spanned<String>>),
    /// `stock: 9H 2C`, `stock only: 9H 2C` (true)
    Stock(Vec<Spanned<String>>, bool),
    /// `dealer 2`
    Dealer(i64),
    /// `discard: 5S`
    Discard(Vec<Spanned<String>>),
    /// `pot 3`
    Pot(i64),
    /// `bank 2`
    Bank(i64),
    /// `next deal: 9H 2C`
    NextDeal(Vec<Spanned<String>>),
    /// `play 7H`
    Play(Spanned<String>),
    /// `draw`
    Draw,
    /// `count points: 0, 290, 0` (a count of the table's: one value)
    Count(Spanned<String>, Vec<i64>),
    /// `round 3`
    Round(i64),
    /// `expect ...`
    Expect(Expectation),
}

#[derive(Debug, Clone)]
pub enum Expectation {
    Total(i64),
    Chips(Vec<i64>),
    Turn(i64),
    Out(Vec<i64>),
    RoundOver,
    GameOver,
    Winner(Vec<i64>),
    Illegal(Spanned<String>),
    Legal(Spanned<String>),
    Dealer(i64),
    Round(i64),
    Pot(i64),
    Bank(i64),
    Direction(Turning),
    HandSize(i64, i64),
    /// `expect hand 1 holds: 5D 6D 7D`: the seat's cards, in any order.
    Holds(i64, Vec<Spanned<String>>),
    /// `expect count points: 0, 95, 0`
    Count(Spanned<String>, Vec<i64>),
}
