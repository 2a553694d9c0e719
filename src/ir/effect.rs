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
    /// `skip`, `skip 2 players`: the next players in the direction of play lose their turn.
    Skip(u8),
    /// `reverse`
    Reverse,
    /// `play again`, `play again twice`: the same player plays that many more turns.
    Again(u8),
    /// `choose who plays next`: the player laying the card names who plays next (the seat
    /// their move carries, [`crate::engine::Move::Aim`]).
    ChooseNext,
    /// Payments and round results: an index into [`Program::outcomes`].
    Outcomes(u16),
    /// A rhai function decides: an index into [`Program::script_fx`].
    Script(u16),
    /// The total becomes an amount worked out from the table (`set the total to the limit`,
    /// `add the run`): an index into [`Program::exprs`].
    Value(u16),
}

impl Act {
    /// What this step does to the total: the act itself for arithmetic, `None` for an act
    /// that leaves the total alone (a turn effect, outcomes).
    #[inline]
    pub fn arithmetic(self) -> Option<Act> {
        match self {
            Act::Add(_) | Act::Set(_) | Act::Mul(_) | Act::Div(_) => Some(self),
            // A script's act is not arithmetic the table knows; a choice with one is
            // scripted, and live whatever its branches.
            Act::Script(_) | Act::Value(_) => Some(self),
            Act::Nothing
            | Act::Skip(_)
            | Act::Reverse
            | Act::Again(_)
            | Act::ChooseNext
            | Act::Outcomes(_) => None,
        }
    }

    /// The total after this step, or `None` when the step leaves the total alone. An amount
    /// from the table is [`Act::apply_in`]'s.
    #[inline]
    pub fn apply(self, total: i32) -> i32 {
        match self {
            Act::Add(n) => total.saturating_add(n),
            Act::Set(n) => n,
            Act::Mul(n) => total.saturating_mul(n),
            Act::Div(n) => total.div_euclid(n),
            Act::Nothing
            | Act::Skip(_)
            | Act::Reverse
            | Act::Again(_)
            | Act::ChooseNext
            | Act::Outcomes(_)
            | Act::Script(_)
            | Act::Value(_) => total,
        }
    }

    /// [`Act::apply`] in situation `f`, the total before this step being `total`: an amount
    /// from the table worked out there.
    #[inline]
    pub fn apply_in(self, p: &Program, f: &Facts, total: i32) -> i32 {
        match self {
            Act::Value(e) => p.exprs[usize::from(e)].eval_facts(&Facts { total, ..*f }),
            Act::Add(_)
            | Act::Set(_)
            | Act::Mul(_)
            | Act::Div(_)
            | Act::Nothing
            | Act::Skip(_)
            | Act::Reverse
            | Act::Again(_)
            | Act::ChooseNext
            | Act::Outcomes(_)
            | Act::Script(_) => self.apply(total),
        }
    }
}

/// What a card does to whose turn it is: players skipped, a reversed direction, more turns for
/// the same player. Effects said twice add up (two skips skip two players; two reverses
/// cancel out), in the order written: a skip said before a reverse skips the neighbour on
/// the side play no longer goes to (`back`), who is passed over only if play comes round
/// to them (with two players left).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Turn {
    /// Players skipped in the direction play goes once the card is done.
    pub skip: u8,
    /// Players skipped in the other direction: skips said before a reverse.
    pub back: u8,
    pub reverse: bool,
    pub again: u8,
    /// The player laying the card chose who plays next (`choose who plays next`).
    pub chosen: bool,
}

impl Turn {
    /// This turn effect, then another: a reverse in `o` turns this one's skips to the
    /// other side.
    #[inline]
    pub fn and(self, o: Turn) -> Turn {
        let (skip, back) = if o.reverse {
            (self.back, self.skip)
        } else {
            (self.skip, self.back)
        };
        Turn {
            skip: skip.saturating_add(o.skip),
            back: back.saturating_add(o.back),
            reverse: self.reverse ^ o.reverse,
            again: self.again.saturating_add(o.again),
            chosen: self.chosen | o.chosen,
        }
    }

    /// The turn effect of one step.
    #[inline]
    pub fn of(act: Act) -> Turn {
        match act {
            Act::Skip(n) => Turn {
                skip: n,
                ..Turn::default()
            },
            Act::Reverse => Turn {
                reverse: true,
                ..Turn::default()
            },
            Act::Again(n) => Turn {
                again: n,
                ..Turn::default()
            },
            Act::ChooseNext => Turn {
                chosen: true,
                ..Turn::default()
            },
            Act::Add(_)
            | Act::Set(_)
            | Act::Mul(_)
            | Act::Div(_)
            | Act::Nothing
            | Act::Outcomes(_)
            | Act::Script(_)
            | Act::Value(_) => Turn::default(),
        }
    }
}

/// How a count compares: `2`, `at least 2`, `at most 2`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Cmp {
    Exactly,
    AtLeast,
    AtMost,
    /// `a multiple of 5`: 0 is one; a multiple of 0 is 0 alone.
    MultipleOf,
    /// Odd (the number is unused).
    Odd,
    /// `ends in 5`: the last digits, without the sign.
    EndsIn,
}

impl Cmp {
    #[inline]
    pub fn holds(self, value: i32, n: i32) -> bool {
        match self {
            Cmp::Exactly => value == n,
            Cmp::AtLeast => value >= n,
            Cmp::AtMost => value <= n,
            Cmp::MultipleOf => {
                if n == 0 {
                    value == 0
                } else {
                    value % n == 0
                }
            }
            Cmp::Odd => value % 2 != 0,
            Cmp::EndsIn => ends_in(value, n),
        }
    }
}

/// What a condition may look at when a card is played: the total before the card and the
/// situation of the player laying it (or, at a moment, of the player it is about).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Facts {
    pub total: i32,
    /// The player's chips (their team's, in teams).
    pub chips: i32,
    /// The cards the player holds besides the one being laid.
    pub cards_left: u8,
    /// Players still in the round.
    pub players_left: u8,
    /// The rank of the card on top of the discard pile, if any.
    pub previous: Option<u8>,
    /// The highest total allowed now.
    pub limit: i32,
    /// The round's number, from 1.
    pub round: u32,
    /// The cards laid this round.
    pub round_cards: u32,
    /// The cards of one rank laid in a row, ending with the card on top of the pile.
    pub run: u8,
    /// Players still in the game.
    pub players_in_game: u8,
    /// Cards in the stock.
    pub stock: u16,
    /// Chips in the pot.
    pub pot: i32,
    /// The counts the ruleset keeps, by index: the player's own, and the table's.
    pub counts: [i32; super::MAX_COUNTS],
}

impl Facts {
    /// Only a total: for tests that read nothing else.
    pub fn total(total: i32) -> Facts {
        Facts {
            total,
            ..Facts::default()
        }
    }
}

/// A test, on the total or on the player's situation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Test {
    Even,
    Odd,
    AtLeast(i32),
    AtMost(i32),
    Above(i32),
    Below(i32),
    Exactly(i32),
    /// `ends in 5`: the last digits of the total (without its sign) are these.
    EndsIn(i32),
    /// `is a multiple of 11` (0 is a multiple of everything).
    MultipleOf(i32),
    /// `is between 50 and 60`, both included.
    Between(i32, i32),
    /// A rhai function of the total: an index into [`Program::script_tests`].
    Script(u16),
    /// `the player has at most 1 chip`.
    Chips(Cmp, i32),
    /// `the player has no cards left` (besides the one being laid).
    CardsLeft(Cmp, i32),
    /// `only 2 players are left` (in the round).
    PlayersLeft(Cmp, i32),
    /// `the previous card is a King`: the rank on top of the discard pile.
    Previous(u8),
    /// `the run is 3`, `the player's points are at least 100`: a count the table keeps.
    Count(super::Quantity, Cmp, i32),
    /// `the pot is between 2 and 5`: a count the table keeps, both ends included.
    CountBetween(super::Quantity, i32, i32),
}

impl Test {
    #[inline]
    pub fn holds(self, p: &Program, f: &Facts) -> bool {
        let total = f.total;
        match self {
            Test::Even => total % 2 == 0,
            Test::Odd => total % 2 != 0,
            Test::AtLeast(n) => total >= n,
            Test::AtMost(n) => total <= n,
            Test::Above(n) => total > n,
            Test::Below(n) => total < n,
            Test::Exactly(n) => total == n,
            Test::EndsIn(d) => ends_in(total, d),
            Test::MultipleOf(n) => n != 0 && total % n == 0,
            Test::Between(a, b) => (a..=b).contains(&total),
            Test::Script(i) => p.script_tests[usize::from(i)].holds(total),
            Test::Chips(c, n) => c.holds(f.chips, n),
            Test::CardsLeft(c, n) => c.holds(i32::from(f.cards_left), n),
            Test::PlayersLeft(c, n) => c.holds(i32::from(f.players_left), n),
            Test::Previous(r) => f.previous == Some(r),
            Test::Count(q, c, n) => c.holds(q.read(f), n),
            Test::CountBetween(q, lo, hi) => (lo..=hi).contains(&q.read(f)),
        }
    }

    /// Whether the test reads more than the total (the player's situation).
    pub fn reads_player(self) -> bool {
        match self {
            Test::Chips(..) | Test::CardsLeft(..) | Test::PlayersLeft(..) | Test::Previous(_) => {
                true
            }
            Test::Count(q, ..) | Test::CountBetween(q, ..) => q != super::Quantity::Total,
            Test::Even
            | Test::Odd
            | Test::AtLeast(_)
            | Test::AtMost(_)
            | Test::Above(_)
            | Test::Below(_)
            | Test::Exactly(_)
            | Test::EndsIn(_)
            | Test::MultipleOf(_)
            | Test::Between(..)
            | Test::Script(_) => false,
        }
    }
}

/// Whether the total, without its sign, ends in the digits of `d`.
fn ends_in(total: i32, d: i32) -> bool {
    let mut m: i64 = 10;
    while m <= i64::from(d) {
        m *= 10;
    }
    i64::from(total).abs() % m == i64::from(d)
}

/// A condition: any of its groups holds when all the tests of the group hold, and none of the
/// conditions of the branches before it (`otherwise if ...`) holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Cond {
    pub any_of: Vec<Vec<Test>>,
    /// Indexes into [`Program::conds`] of earlier conditions that must not hold.
    pub unless: Vec<u16>,
}

impl Cond {
    pub fn holds(&self, p: &Program, f: &Facts) -> bool {
        self.any_of
            .iter()
            .any(|all| all.iter().all(|t| t.holds(p, f)))
            && self
                .unless
                .iter()
                .all(|u| !p.conds[usize::from(*u)].holds(p, f))
    }

    /// Whether the condition reads more than the total.
    pub fn reads_player(&self, p: &Program) -> bool {
        self.any_of.iter().flatten().any(|t| t.reads_player())
            || self
                .unless
                .iter()
                .any(|u| p.conds[usize::from(*u)].reads_player(p))
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
    /// The turn effects of a simple choice.
    pub turn: Turn,
    /// A step runs a script: the engine asks it before the move changes anything.
    pub scripted: bool,
    /// The player laying this choice names a player (`choose who plays next`, `a player of
    /// their choice pays 1`): each of its moves carries a seat ([`Program::aims`]).
    pub aims: bool,
    /// The player laying this choice gives a card of their choice (`the player gives a card
    /// of their choice to the next player`): each of its moves carries the card given
    /// ([`Program::gives`]).
    pub gives: bool,
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

impl Choice {
    pub fn steps(&self) -> &[Step] {
        &self.steps[..self.len as usize]
    }

    /// Whether the total this choice makes depends on more than the total before it: a
    /// condition on the player's situation whose two branches do different arithmetic, or a
    /// script asked with the game at hand. A condition whose branches change the total alike
    /// (`if the previous card is a Jack: add 10 and the next player pays 1; otherwise add
    /// 10`) decides only what else happens: the total is the table's.
    pub fn is_live(&self, p: &Program) -> bool {
        self.scripted || self.reads_player(p)
    }

    /// [`Choice::is_live`] at one total: the same, but for its scripts, which are live at
    /// `total` only when one of them is not tabulated at the total it is asked at (a script
    /// that reads only the total is worked out for every total when the ruleset is checked,
    /// and the engine looks its answer up). The legal-choice table answers the choices that
    /// are not live at a total, scripted or not.
    pub fn live_at(&self, p: &Program, total: i32) -> bool {
        if !self.scripted {
            return self.is_live(p);
        }
        self.reads_player(p)
            || super::eval::tabulated_total(p, self, &super::Facts::total(total)).is_none()
    }

    /// Whether a condition on the player's situation decides between two branches that do
    /// different arithmetic.
    fn reads_player(&self, p: &Program) -> bool {
        let reads_table =
            |a: Act| matches!(a, Act::Value(e) if p.exprs[usize::from(e)].reads_table());
        self.steps().iter().any(|s| {
            (s.then.arithmetic() != s.otherwise.arithmetic()
                && s.cond
                    .is_some_and(|c| p.conds[usize::from(c)].reads_player(p)))
                || reads_table(s.then)
                || reads_table(s.otherwise)
        })
    }

    /// Whether no step has outcomes, whichever way its conditions go (`halve if the total is
    /// even, otherwise double`), and none runs a script: what laying it gains or costs its
    /// player is then the bars' alone.
    pub fn is_quiet(&self) -> bool {
        let outcomes = |a: Act| matches!(a, Act::Outcomes(_));
        !self.scripted
            && (self.simple
                || self
                    .steps()
                    .iter()
                    .all(|st| !outcomes(st.then) && !outcomes(st.otherwise)))
    }

    /// Derives [`Choice::simple`], [`Choice::fast`] and [`Choice::turn`] from the steps.
    pub fn finish(&mut self) {
        let steps = self.steps;
        let steps = &steps[..usize::from(self.len)];
        self.simple = steps.iter().all(|s| {
            s.cond.is_none() && !matches!(s.then, Act::Outcomes(_) | Act::Script(_) | Act::Value(_))
        });
        self.scripted = steps
            .iter()
            .any(|s| matches!(s.then, Act::Script(_)) || matches!(s.otherwise, Act::Script(_)));
        self.turn = Turn::default();
        let mut fast = Fast::Add(0);
        for s in steps {
            fast = match (fast, s.then) {
                (Fast::Add(a), Act::Add(b)) => Fast::Add(a.saturating_add(b)),
                (Fast::Set(a), Act::Add(b)) => Fast::Set(a.saturating_add(b)),
                (_, Act::Set(n)) => Fast::Set(n),
                (
                    f,
                    Act::Nothing
                    | Act::Skip(_)
                    | Act::Reverse
                    | Act::Again(_)
                    | Act::ChooseNext
                    | Act::Outcomes(_)
                    | Act::Script(_),
                ) => f,
                (_, Act::Mul(_) | Act::Div(_) | Act::Value(_)) | (Fast::General, Act::Add(_)) => {
                    Fast::General
                }
            };
            self.turn = self.turn.and(Turn::of(s.then));
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
    /// `the player`: who laid the card, or who cannot play.
    Player,
    EachOther,
    Every,
    Winner,
    Loser,
    /// `the next player`: who plays next once the card's own effects (skip, reverse, play
    /// again) are done.
    Next,
    /// `the player after`: the neighbour in the direction of play, before the card's effects.
    After,
    /// `the previous player`, `the player before`: the neighbour against the direction of
    /// play, before the card's effects.
    Previous,
    /// `the player who laid the previous card`: in a card's or a bar's line, who laid the
    /// card under this one; in a `when ...` line, who laid the card on top of the pile.
    LaidPrevious,
    /// `the player with the most chips` (each of them, when tied).
    Richest,
    /// `the player with the fewest chips` (each of them, when tied).
    Poorest,
    EachOut,
    /// `a player of their choice`: the player the card's player names as they lay it (the
    /// seat [`crate::engine::Move::Aim`] carries); a card line's role only.
    Chosen,
}

/// Where chips come from when a player gains them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Pool {
    /// The bank: an unlimited supply (what it holds may go below 0).
    Bank,
    /// The pot: at most what it holds.
    Pot,
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
        amount: super::Amount,
        to: Target,
    },
    WinRound,
    LoseRound,
    OutOfRound,
    OutOfGame,
    /// The total back to the start; with `true`, the discard pile set aside too.
    ResetTotal(bool),
    EndRound,
    /// `the player wins the game`: it ends at once, with them (all of them, when several)
    /// as its winners.
    WinGame,
    /// `the game ends`: at once, its winners as the winner line says.
    EndGame,
    /// `reverse the direction` in a line of outcomes: play turns round (who plays next after
    /// a card goes the new way).
    Reverse,
    TakePot,
    /// `the player takes 1 from the bank`, `the bank pays 1 to the player`.
    Gain {
        amount: super::Amount,
        from: Pool,
    },
    /// `set the total to 0`: the total becomes an amount.
    SetTotal(super::Amount),
    /// `the player's points go up by 5`, `each player's chips become 1`, `the streak resets`:
    /// a count the table keeps (`Quantity::Chips` or `Quantity::Count`) changed, for each
    /// seat the outcome is about (once, for a count of the table's).
    Change {
        what: super::Quantity,
        how: super::Change,
    },
    /// `each other player draws 1`: cards from the stock into each hand the outcome is about,
    /// past its size if need be (at most [`super::MAX_HAND`]).
    Draw(super::Amount),
    /// `swap hands with the next player`: the two hands change places.
    SwapHands(Who),
    /// `takes a card at random from the next player`: a card of that player's hand, picked
    /// at random, goes into the hand of the player the outcome is about.
    TakeCard(Who),
    /// `gives a card at random to the player before`.
    GiveCard(Who),
    /// `the player gives a card of their choice to the next player`: named as the card is laid.
    GiveChosen(Who),
    /// `skip the next player` said outside a card's line: passed over as the turn passes.
    Skip(u8),
    /// `the player plays again`: more turns for the player whose turn it is.
    Again(u8),
}

impl OutcomeKind {
    /// Whether this outcome moves cards from one hand to another: the two players know the
    /// card, no one else (what a searching bot's deals must keep).
    pub fn moves_between_hands(&self) -> bool {
        matches!(
            self,
            OutcomeKind::SwapHands(_)
                | OutcomeKind::TakeCard(_)
                | OutcomeKind::GiveCard(_)
                | OutcomeKind::GiveChosen(_)
        )
    }

    /// The second player the outcome names, besides the one it is about: who is paid, or the
    /// other hand of a card move.
    pub fn other(&self) -> Option<Who> {
        match *self {
            OutcomeKind::Pay {
                to: Target::Seat(w),
                ..
            }
            | OutcomeKind::SwapHands(w)
            | OutcomeKind::TakeCard(w)
            | OutcomeKind::GiveCard(w)
            | OutcomeKind::GiveChosen(w) => Some(w),
            OutcomeKind::Pay { .. }
            | OutcomeKind::WinRound
            | OutcomeKind::LoseRound
            | OutcomeKind::OutOfRound
            | OutcomeKind::OutOfGame
            | OutcomeKind::ResetTotal(_)
            | OutcomeKind::EndRound
            | OutcomeKind::WinGame
            | OutcomeKind::Reverse
            | OutcomeKind::EndGame
            | OutcomeKind::TakePot
            | OutcomeKind::Gain { .. }
            | OutcomeKind::SetTotal(_)
            | OutcomeKind::Change { .. }
            | OutcomeKind::Draw(_)
            | OutcomeKind::Skip(_)
            | OutcomeKind::Again(_) => None,
        }
    }
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
    /// The list's chips at a glance, for estimates that would otherwise walk it (the bots'):
    /// derived from `list` (see [`Tally::of`]), checked by [`crate::ir::verify`], and not
    /// part of the compiled form's text.
    #[serde(skip)]
    pub tally: Tally,
}

impl Outcomes {
    pub fn new(list: Vec<Outcome>, origin: Origin, text: String) -> Outcomes {
        Outcomes {
            tally: Tally::of(&list),
            list,
            origin,
            text,
        }
    }
}

/// What a list of outcomes names in chips for the player, for each other player and for
/// everyone: amounts gained count up, amounts paid count down, each on the side of its subject
/// alone (a payment to someone is not counted as their gain); and how many times it makes the
/// player lose the round. Outcomes for anyone else (the next player, the richest…) are left
/// out.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub player: i64,
    pub each_other: i64,
    pub every: i64,
    pub player_loses: i64,
    /// How many times it makes the player win the game (`the player wins the game`), less
    /// the times it puts them out of it.
    pub player_wins: i64,
    /// How many times it makes each other player win the game.
    pub others_win: i64,
}

impl Tally {
    pub fn of(list: &[Outcome]) -> Tally {
        let mut t = Tally::default();
        // An amount worked out from the table is estimated at 1 chip.
        let estimate = |a: super::Amount| match a {
            super::Amount::Fixed(n) => i64::from(n),
            super::Amount::Of(_) => 1,
        };
        for o in list {
            let chips = match o.kind {
                OutcomeKind::Pay { amount, .. } => -estimate(amount),
                OutcomeKind::Gain { amount, .. } => estimate(amount),
                OutcomeKind::SetTotal(_) | OutcomeKind::Change { .. } => 0,
                OutcomeKind::WinRound
                | OutcomeKind::LoseRound
                | OutcomeKind::OutOfRound
                | OutcomeKind::OutOfGame
                | OutcomeKind::ResetTotal(_)
                | OutcomeKind::EndRound
                | OutcomeKind::WinGame
                | OutcomeKind::EndGame
                | OutcomeKind::Reverse
                | OutcomeKind::TakePot
                | OutcomeKind::Draw(_)
                | OutcomeKind::SwapHands(_)
                | OutcomeKind::TakeCard(_)
                | OutcomeKind::GiveCard(_)
                | OutcomeKind::GiveChosen(_)
                | OutcomeKind::Skip(_)
                | OutcomeKind::Again(_) => 0,
            };
            match o.who {
                Who::Player => {
                    t.player += chips;
                    t.player_loses += i64::from(o.kind == OutcomeKind::LoseRound);
                    t.player_wins += i64::from(o.kind == OutcomeKind::WinGame)
                        - i64::from(o.kind == OutcomeKind::OutOfGame);
                }
                Who::EachOther => {
                    t.each_other += chips;
                    t.others_win += i64::from(o.kind == OutcomeKind::WinGame);
                }
                Who::Every => t.every += chips,
                Who::Next
                | Who::After
                | Who::Previous
                | Who::LaidPrevious
                | Who::Richest
                | Who::Poorest
                | Who::Winner
                | Who::Loser
                | Who::EachOut
                | Who::Chosen => {}
            }
        }
        t
    }
}

/// Which way a bar counts: a card bringing the total up onto or across it, down, or both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Way {
    /// `going up` (the default)
    Up,
    /// `going down`
    Down,
    /// `either way`
    Both,
}

impl Way {
    /// Whether a card coming up onto or across the bar counts.
    #[inline]
    pub fn up(self) -> bool {
        matches!(self, Way::Up | Way::Both)
    }

    /// Whether a card coming down onto or across the bar counts.
    #[inline]
    pub fn down(self) -> bool {
        matches!(self, Way::Down | Way::Both)
    }
}

/// A bar: a total that costs or pays when reached exactly or passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Bar {
    pub value: i32,
    pub reach: Option<u16>,
    pub pass: Option<u16>,
    /// Which way reaching it counts, and passing it.
    pub reach_way: Way,
    pub pass_way: Way,
}
