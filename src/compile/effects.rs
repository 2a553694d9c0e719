//! A card's effect lowered: choices, branches decided by tests, steps, actions and conditions.
//! A line that could be read two ways is refused with the readings spelt out; an effect said
//! twice means what it says, with a warning.

use super::compiler::Compiler;
use crate::base::cards::{face_value, parse_rank};
use crate::base::diag::Diag;
use crate::base::{Code, Span, Spanned};
use crate::ir::{self, MAX_CHOICES, MAX_STEPS, Origin};
use crate::lang::ast::{self, SAmount};

/// A step before lowering: its condition (an index into the program's conditions), what it
/// does then and otherwise.
type Lowered = ir::Step;

const NOTHING: Lowered = ir::Step {
    cond: None,
    then: ir::Act::Nothing,
    otherwise: ir::Act::Nothing,
};

impl Compiler<'_> {
    /// One card line's effect, compiled.
    pub fn effect(
        &mut self,
        layer: usize,
        rank: u8,
        effect: &ast::Effect,
        origin: Origin,
        text: String,
    ) -> Option<ir::Effect> {
        if effect.choices.len() > 1 {
            if let Some(k) = effect
                .choices
                .iter()
                .position(|c| matches!(c.body, ast::Body::Branches(_)))
            {
                let diag = self.branches_among_choices(layer, effect, k);
                self.err(layer, diag);
                return None;
            }
            let last = effect.choices.len() - 1;
            if let Some(k) = effect.choices[..last].iter().position(has_otherwise) {
                let diag = self.otherwise_before_or(layer, effect, k);
                self.err(layer, diag);
                return None;
            }
            self.or_binds_last(layer, effect);
        }
        let empty_choice = ir::Choice {
            steps: [NOTHING; MAX_STEPS],
            len: 0,
            simple: true,
            fast: ir::Fast::Add(0),
            turn: ir::Turn::default(),
            scripted: false,
            aims: false,
            gives: false,
        };
        let mut out = ir::Effect {
            choices: [empty_choice; MAX_CHOICES],
            len: 0,
            labels: Vec::new(),
            origin,
            text,
        };
        let mut subject = ast::Who::Player;
        let mut expanded: Vec<Expanded> = Vec::new();
        for (ci, choice) in effect.choices.iter().enumerate() {
            match &choice.body {
                ast::Body::Steps(steps) => expanded.push(Expanded {
                    steps: self.plain(layer, rank, (effect, ci), steps, &mut subject, origin)?,
                    label: choice.label.clone(),
                    span: choice.span,
                }),
                ast::Body::Branches(b) => {
                    expanded.extend(self.branches(
                        layer,
                        rank,
                        choice.span,
                        b,
                        &mut subject,
                        origin,
                    )?);
                }
            }
        }
        if expanded.len() > MAX_CHOICES {
            self.err(
                layer,
                Diag::error(
                    Code::ManyChoices,
                    effect.span,
                    format!("a card offers at most {MAX_CHOICES} choices"),
                )
                .hint("split the card's choices, or use fewer `or`s"),
            );
            return None;
        }
        let defaults = default_labels(&expanded, empty_choice);
        for (ci, x) in expanded.iter().enumerate() {
            if x.steps.len() > MAX_STEPS {
                self.err(
                    layer,
                    Diag::error(
                        Code::ManySteps,
                        x.span,
                        format!("one choice does at most {MAX_STEPS} things"),
                    )
                    .hint("simplify the card"),
                );
                return None;
            }
            let mut c = empty_choice;
            c.steps[..x.steps.len()].copy_from_slice(&x.steps);
            c.len = x.steps.len() as u8;
            c.finish();
            self.repeated(layer, x.span, &c);
            self.gift_alone(layer, x.span, &c);
            let label = match &x.label {
                Some(l) => l.node.clone(),
                None => defaults
                    .get(ci)
                    .cloned()
                    .unwrap_or_else(|| c.default_label(ci)),
            };
            if let Some(prev) = out.choices().iter().position(|p| p.steps() == c.steps()) {
                self.err(
                    layer,
                    Diag::error(
                        Code::OneOptionChoice,
                        x.span,
                        "this choice has only one real option: both sides do the same",
                    )
                    .also(expanded[prev].span, "the same as this")
                    .hint("remove the `or` and one side, or make the two sides differ"),
                );
                return None;
            }
            if out.labels.contains(&label) {
                self.err(
                    layer,
                    Diag::error(
                        Code::LabelTwice,
                        x.span,
                        format!("two choices of this card are both called `{label}`"),
                    )
                    .hint("name them apart: `... as \"low\" or ... as \"high\"`"),
                );
                return None;
            }
            out.labels.push(label);
            out.choices[ci] = c;
            out.len += 1;
        }
        Some(out)
    }

    /// Steps joined by `and`. A test after one of several steps could govern that step or the
    /// whole card: such a line is refused, with both readings written out.
    fn plain(
        &mut self,
        layer: usize,
        rank: u8,
        (effect, ci): (&ast::Effect, usize),
        steps: &[ast::Step],
        subject: &mut ast::Who,
        origin: Origin,
    ) -> Option<Vec<Lowered>> {
        if steps.len() > 1
            && let Some(k) = steps.iter().position(|s| s.condition.is_some())
        {
            let diag = self.ambiguous_test(layer, (effect, ci), steps, k);
            self.err(layer, diag);
            return None;
        }
        let mut out = Vec::with_capacity(steps.len());
        for step in steps {
            out.push(self.step(layer, rank, step, subject, origin)?);
        }
        Some(out)
    }

    /// One step: its action, and its test and `otherwise` when it has them.
    fn step(
        &mut self,
        layer: usize,
        rank: u8,
        step: &ast::Step,
        subject: &mut ast::Who,
        origin: Origin,
    ) -> Option<Lowered> {
        let then = self.act(layer, rank, &step.action, subject, origin)?;
        let cond = match &step.condition {
            None => None,
            Some(cond) => Some(self.cond(layer, cond, Vec::new())?),
        };
        let otherwise = match &step.otherwise {
            None => ir::Act::Nothing,
            Some(a) => self.act(layer, rank, a, subject, origin)?,
        };
        Some(ir::Step {
            cond,
            then,
            otherwise,
        })
    }

    /// `if A: X; otherwise if B: Y; otherwise Z`. With one test, each step is a `then` /
    /// `otherwise` pair; with several, each branch's steps run under its own test and none of
    /// the tests before it. A branch that offers choices (`otherwise either add 10 or
    /// subtract 10`) makes one choice of the card for each of its choices, the other
    /// branches the same in every one.
    fn branches(
        &mut self,
        layer: usize,
        rank: u8,
        span: Span,
        branches: &[ast::Branch],
        subject: &mut ast::Who,
        origin: Origin,
    ) -> Option<Vec<Expanded>> {
        // By branch, by choice: what it does (a branch without choices has one).
        let mut acts: Vec<Vec<Vec<ir::Act>>> = Vec::new();
        let mut labels: Vec<Option<Spanned<String>>> = Vec::new();
        let mut ways = 1;
        for b in branches {
            let alternatives: Vec<&[ast::Step]> = match &b.body {
                ast::BranchBody::Steps(steps) => vec![steps.as_slice()],
                ast::BranchBody::Either(choices) => {
                    if ways > 1 && choices.len() != ways {
                        self.err(
                            layer,
                            Diag::error(
                                Code::Ambiguous,
                                b.span,
                                format!(
                                    "this branch offers {} choices, and an earlier one {ways}: which goes with which?",
                                    choices.len()
                                ),
                            )
                            .hint("give every branch that says `either` the same number of choices, in the same order"),
                        );
                        return None;
                    }
                    ways = choices.len();
                    labels.resize(ways, None);
                    for (j, c) in choices.iter().enumerate() {
                        if let Some(l) = &c.label {
                            match &labels[j] {
                                Some(prev) if prev.node != l.node => {
                                    self.err(
                                        layer,
                                        Diag::error(
                                            Code::LabelTwice,
                                            l.span,
                                            format!("this choice is called `{}` in one branch and `{}` in another", prev.node, l.node),
                                        )
                                        .also(prev.span, "named here")
                                        .hint("name a choice once, in the first branch that offers it"),
                                    );
                                    return None;
                                }
                                _ => labels[j] = Some(l.clone()),
                            }
                        }
                    }
                    choices
                        .iter()
                        .map(|c| match &c.body {
                            ast::Body::Steps(steps) => steps.as_slice(),
                            ast::Body::Branches(_) => &[],
                        })
                        .collect()
                }
            };
            let mut lowered = Vec::new();
            for steps in alternatives {
                let mut them = *subject;
                let mut list = Vec::new();
                for step in steps {
                    if let Some(c) = &step.condition {
                        self.err(
                            layer,
                            Diag::error(
                                Code::Ambiguous,
                                c.span,
                                "a test inside a branch: does it belong to the branch or to the step?",
                            )
                            .hint("make it a branch of its own: `...; otherwise if TEST: STEPS`"),
                        );
                        return None;
                    }
                    list.push(self.act(layer, rank, &step.action, &mut them, origin)?);
                }
                self.added_twice(layer, b.span, &list);
                lowered.push(list);
            }
            acts.push(lowered);
        }
        let tested = branches.iter().filter(|b| b.condition.is_some()).count();
        let mut conds: Vec<u16> = Vec::new();
        for b in branches {
            let cond = match &b.condition {
                Some(c) => self.cond(layer, c, conds.clone())?,
                // With one test, the last branch is that test's `otherwise`: no condition.
                None if tested == 1 => continue,
                None => self.push_cond(ir::Cond {
                    any_of: vec![Vec::new()],
                    unless: conds.clone(),
                }),
            };
            conds.push(cond);
        }
        let pick = |alts: &Vec<Vec<ir::Act>>, j: usize| alts.get(j).unwrap_or(&alts[0]).clone();
        let out = (0..ways)
            .map(|j| {
                let chosen: Vec<Vec<ir::Act>> = acts.iter().map(|alts| pick(alts, j)).collect();
                let steps = if tested == 1 {
                    // `if A: X and Y; otherwise Z`: step by step, `then` or `otherwise`.
                    let none = Vec::new();
                    let then = &chosen[0];
                    let otherwise = chosen.get(1).unwrap_or(&none);
                    let n = then.len().max(otherwise.len());
                    (0..n)
                        .map(|i| ir::Step {
                            cond: Some(conds[0]),
                            then: then.get(i).copied().unwrap_or(ir::Act::Nothing),
                            otherwise: otherwise.get(i).copied().unwrap_or(ir::Act::Nothing),
                        })
                        .collect()
                } else {
                    chosen
                        .iter()
                        .zip(&conds)
                        .flat_map(|(list, cond)| {
                            list.iter().map(|a| ir::Step {
                                cond: Some(*cond),
                                then: *a,
                                otherwise: ir::Act::Nothing,
                            })
                        })
                        .collect()
                };
                Expanded {
                    steps,
                    label: labels.get(j).cloned().flatten(),
                    span,
                }
            })
            .collect();
        Some(out)
    }

    /// Effects said twice mean what they say; the designer hears about it.
    /// `add 11 and add 11`: one way of a card that adds twice, a warning with the sum
    /// (whether it was meant or a hint pasted, it reads better once). Whether it warned.
    fn added_twice(&mut self, layer: usize, span: Span, acts: &[ir::Act]) -> bool {
        let added: Vec<i64> = acts
            .iter()
            .filter_map(|a| {
                if let ir::Act::Add(n) = a {
                    Some(i64::from(*n))
                } else {
                    None
                }
            })
            .collect();
        if added.len() < 2 {
            return false;
        }
        let sum: i64 = added.iter().sum();
        let once = if sum < 0 {
            format!("subtract {}", -sum)
        } else {
            format!("add {sum}")
        };
        self.err(
            layer,
            Diag::warning(
                Code::RepeatedEffect,
                span,
                format!(
                    "`add` is said {} times here: the card adds {sum} in all",
                    added.len()
                ),
            )
            .hint(format!("say it once: `{once}`")),
        );
        true
    }

    fn repeated(&mut self, layer: usize, span: Span, c: &ir::Choice) {
        let count = |f: fn(ir::Act) -> bool| {
            c.steps()
                .iter()
                .filter(|s| s.cond.is_none() && f(s.then))
                .count()
        };
        let skips = count(|a| matches!(a, ir::Act::Skip(_)));
        let reverses = count(|a| matches!(a, ir::Act::Reverse));
        let agains = count(|a| matches!(a, ir::Act::Again(_)));
        let unconditional: Vec<ir::Act> = c
            .steps()
            .iter()
            .filter(|s| s.cond.is_none())
            .map(|s| s.then)
            .collect();
        if self.added_twice(layer, span, &unconditional) {
            return;
        }
        let (message, hint) = if skips > 1 {
            (
                format!(
                    "`skip` is said {skips} times: {} players are skipped",
                    c.turn.skip
                ),
                format!("say it once: `skip {} players`", c.turn.skip),
            )
        } else if reverses > 1 {
            (
                format!(
                    "`reverse` is said {reverses} times: the direction {}",
                    if c.turn.reverse {
                        "is reversed once"
                    } else {
                        "does not change"
                    }
                ),
                "say it once, or not at all".to_string(),
            )
        } else if agains > 1 {
            (
                format!(
                    "`play again` is said {agains} times: the player plays {} more turns",
                    c.turn.again
                ),
                format!("say it once: `play again {} times`", c.turn.again),
            )
        } else {
            return;
        };
        self.err(
            layer,
            Diag::warning(Code::RepeatedEffect, span, message).hint(hint),
        );
    }

    /// A positive count: `skip 2 players`, `play again 3 times`.
    pub(super) fn times(
        &mut self,
        layer: usize,
        a: Option<&SAmount>,
        what: &str,
        of: &str,
    ) -> Option<u8> {
        let Some(a) = a else { return Some(1) };
        let v = self.amount(layer, a)?;
        if !(1..=u8::MAX.into()).contains(&v) {
            self.err(
                layer,
                Diag::error(
                    Code::BadNumber,
                    a.span,
                    format!("{what} {v} {of} makes no sense"),
                )
                .hint(format!("{what} from 1 to {} {of}", u8::MAX)),
            );
            return None;
        }
        Some(v as u8)
    }

    pub fn act(
        &mut self,
        layer: usize,
        rank: u8,
        action: &Spanned<ast::Action>,
        subject: &mut ast::Who,
        origin: Origin,
    ) -> Option<ir::Act> {
        use ast::Action as A;
        let pos = |c: &mut Self, a: &SAmount, what: &str| -> Option<i32> {
            let v = c.amount_i32(layer, a)?;
            if v <= 0 {
                c.err(
                    layer,
                    Diag::error(
                        Code::BadNumber,
                        a.span,
                        format!("{what} by {v} makes no sense"),
                    )
                    .hint(format!("{what} by a number above 0")),
                );
                return None;
            }
            Some(v)
        };
        Some(match &action.node {
            A::Add(q) | A::Subtract(q) => {
                let n = match q {
                    ast::Quantity::Face => face_value(rank),
                    ast::Quantity::Amount(a) => match self.value(layer, a, true)? {
                        ir::Amount::Fixed(n) => n,
                        ir::Amount::Of(e) => {
                            // `add the run`: the total plus (or minus) the amount.
                            let ops = &mut self.exprs[usize::from(e)].ops;
                            ops.insert(0, ir::Op::Get(ir::Quantity::Total, ir::Who::Player));
                            ops.push(if matches!(action.node, A::Add(_)) {
                                ir::Op::Add
                            } else {
                                ir::Op::Sub
                            });
                            return Some(ir::Act::Value(e));
                        }
                    },
                };
                if matches!(action.node, A::Add(_)) {
                    ir::Act::Add(n)
                } else {
                    ir::Act::Add(-n)
                }
            }
            A::Set(a) => match self.value(layer, a, true)? {
                ir::Amount::Fixed(n) => ir::Act::Set(n),
                ir::Amount::Of(e) => ir::Act::Value(e),
            },
            A::Multiply(a) => ir::Act::Mul(pos(self, a, "multiplying")?),
            A::Divide(a) => ir::Act::Div(pos(self, a, "dividing")?),
            A::Double => ir::Act::Mul(2),
            A::Halve => ir::Act::Div(2),
            A::Nothing => ir::Act::Nothing,
            A::Skip(n) => ir::Act::Skip(self.times(layer, n.as_ref(), "skipping", "players")?),
            A::Reverse => ir::Act::Reverse,
            A::ChooseNext => ir::Act::ChooseNext,
            A::PlayAgain(n) => {
                ir::Act::Again(self.times(layer, n.as_ref(), "playing again", "times")?)
            }
            A::Run(name) => {
                self.script_fn(layer, name)?;
                let doc = self
                    .host
                    .as_ref()
                    .map_or(String::new(), |h| h.doc(&name.node).to_string());
                self.script_fx.push(ir::ScriptFx {
                    func: name.node.clone(),
                    doc,
                    rank,
                    lo: self.window.0,
                    table: None,
                    origin,
                });
                self.fx_spans.push((layer, name.span));
                ir::Act::Script((self.script_fx.len() - 1) as u16)
            }
            A::Outcome(o) if matches!(o.kind, ast::OutcomeKind::GoesOn) => ir::Act::Nothing,
            A::Outcome(o) => {
                self.note_roles(layer, o, super::compiler::Lowering::Card(rank));
                let text = self.text(layer, o.span);
                let list = vec![self.outcome(layer, o, subject)?];
                self.outcomes.push(ir::Outcomes::new(list, origin, text));
                ir::Act::Outcomes((self.outcomes.len() - 1) as u16)
            }
        })
    }

    /// A condition: its tests in groups (`and` binds before `or`), and the conditions of the
    /// branches before it, which must not hold.
    fn cond(&mut self, layer: usize, cond: &ast::Condition, unless: Vec<u16>) -> Option<u16> {
        let mut any_of: Vec<Vec<ir::Test>> = vec![Vec::new()];
        for (and, test) in &cond.tests {
            let t = self.test(layer, test)?;
            if !and {
                any_of.push(Vec::new());
            }
            any_of.last_mut().expect("never empty").push(t);
        }
        Some(self.push_cond(ir::Cond { any_of, unless }))
    }

    /// The index of a condition, the same one for the same condition.
    fn push_cond(&mut self, cond: ir::Cond) -> u16 {
        let idx = self
            .conds
            .iter()
            .position(|c| *c == cond)
            .unwrap_or_else(|| {
                self.conds.push(cond);
                self.conds.len() - 1
            });
        idx as u16
    }

    fn test(&mut self, layer: usize, test: &Spanned<ast::Test>) -> Option<ir::Test> {
        use ast::Test as T;
        let n = |c: &mut Self, a: &SAmount| c.amount_i32(layer, a);
        Some(match &test.node {
            T::Even => ir::Test::Even,
            T::Odd => ir::Test::Odd,
            T::AtLeast(a) => ir::Test::AtLeast(n(self, a)?),
            T::AtMost(a) => ir::Test::AtMost(n(self, a)?),
            T::Above(a) => ir::Test::Above(n(self, a)?),
            T::Below(a) => ir::Test::Below(n(self, a)?),
            T::Exactly(a) => ir::Test::Exactly(n(self, a)?),
            T::EndsIn(a) => {
                let d = n(self, a)?;
                if d < 0 {
                    return self.bad_test(
                        layer,
                        a.span,
                        format!("no total ends in {d}"),
                        "a total ends in digits, like `ends in 5` or `ends in 25`",
                    );
                }
                ir::Test::EndsIn(d)
            }
            T::MultipleOf(a) => {
                let m = n(self, a)?;
                if m <= 0 {
                    return self.bad_test(
                        layer,
                        a.span,
                        format!("`a multiple of {m}` makes no sense"),
                        "a multiple of a number above 0, like `a multiple of 11`",
                    );
                }
                ir::Test::MultipleOf(m)
            }
            T::Between(a, b) => {
                let (lo, hi) = (n(self, a)?, n(self, b)?);
                self.in_order(layer, (lo, a.span), (hi, b.span), "total")?;
                ir::Test::Between(lo, hi)
            }
            T::Script(name) => ir::Test::Script(self.script_test(layer, name)?),
            T::Chips(cmp, a) => {
                let (c, v) = self.compare(layer, *cmp, a)?;
                ir::Test::Chips(c, v)
            }
            T::CardsLeft(cmp, a) => {
                let (c, v) = self.compare(layer, *cmp, a)?;
                ir::Test::CardsLeft(c, v)
            }
            T::PlayersLeft(cmp, a) => {
                let (c, v) = self.compare(layer, *cmp, a)?;
                ir::Test::PlayersLeft(c, v)
            }
            T::Previous(word) => ir::Test::Previous(self.rank_word(layer, word)?),
            T::CountBetween(count, lo, hi) => {
                let q = self.count_read_by_test(layer, count, lo.span)?;
                let (lo_n, hi_n) = (self.amount_i32(layer, lo)?, self.amount_i32(layer, hi)?);
                self.in_order(layer, (lo_n, lo.span), (hi_n, hi.span), "number")?;
                if q == ir::Quantity::Total {
                    ir::Test::Between(lo_n, hi_n)
                } else {
                    ir::Test::CountBetween(q, lo_n, hi_n)
                }
            }
            T::Count(count, cmp, a) => {
                let q = self.count_read_by_test(layer, count, a.span)?;
                let (c, v) = self.compare(layer, *cmp, a)?;
                // `the total is more than 3` is the total's own test, however it is said.
                match (q, c) {
                    (ir::Quantity::Total, ir::Cmp::Exactly) => ir::Test::Exactly(v),
                    (ir::Quantity::Total, ir::Cmp::AtLeast) => ir::Test::AtLeast(v),
                    (ir::Quantity::Total, ir::Cmp::AtMost) => ir::Test::AtMost(v),
                    (ir::Quantity::Total, ir::Cmp::MultipleOf) if v == 2 => ir::Test::Even,
                    (ir::Quantity::Total, ir::Cmp::MultipleOf) if v != 0 => ir::Test::MultipleOf(v),
                    (ir::Quantity::Total, ir::Cmp::Odd) => ir::Test::Odd,
                    (ir::Quantity::Total, ir::Cmp::EndsIn) => ir::Test::EndsIn(v),
                    _ => ir::Test::Count(q, c, v),
                }
            }
        })
    }

    /// `between A and B` with A the smaller: else an error whose fix swaps them.
    fn in_order(
        &mut self,
        layer: usize,
        (lo, a): (i32, Span),
        (hi, b): (i32, Span),
        what: &str,
    ) -> Option<()> {
        if lo <= hi {
            return Some(());
        }
        let span = Span::new(a.start, b.end);
        let swapped = format!("{} and {}", self.text(layer, b), self.text(layer, a));
        let message = format!("no {what} is between {lo} and {hi}");
        let hint = format!("write the smaller number first: `between {hi} and {lo}`");
        let diag = Diag::error(Code::BadNumber, span, message).hint(hint);
        self.err(layer, diag.fix(span, swapped));
        None
    }

    /// The quantity a test reads: the table's, or the player's own.
    fn count_read_by_test(
        &mut self,
        layer: usize,
        count: &ast::TableCount,
        span: Span,
    ) -> Option<ir::Quantity> {
        let (q, who) = self.quantity(layer, count, span)?;
        if who != ir::Who::Player && q.of_a_seat(&self.counts) {
            return self.bad_test(
                layer,
                span,
                "a condition reads the player's own counts".into(),
                "say `the player's ...`: the player laying the card, or the one a moment is about",
            );
        }
        Some(q)
    }

    /// A moment's condition, read in the situation of the player the moment is about.
    pub(super) fn moment_cond(&mut self, layer: usize, cond: &ast::Condition) -> Option<u16> {
        self.cond(layer, cond, Vec::new())
    }

    /// `more than 2` is `at least 3`; `fewer than 2` is `at most 1`.
    fn compare(&mut self, layer: usize, cmp: ast::Cmp, a: &SAmount) -> Option<(ir::Cmp, i32)> {
        let v = self.amount_i32(layer, a)?;
        Some(match cmp {
            ast::Cmp::Exactly => (ir::Cmp::Exactly, v),
            ast::Cmp::AtLeast => (ir::Cmp::AtLeast, v),
            ast::Cmp::AtMost => (ir::Cmp::AtMost, v),
            ast::Cmp::MoreThan => (ir::Cmp::AtLeast, v.saturating_add(1)),
            ast::Cmp::FewerThan => (ir::Cmp::AtMost, v.saturating_sub(1)),
            ast::Cmp::MultipleOf => (ir::Cmp::MultipleOf, v),
            ast::Cmp::Odd => (ir::Cmp::Odd, v),
            ast::Cmp::EndsIn => (ir::Cmp::EndsIn, v),
        })
    }

    /// A rank named in a test (`the previous card is a King`).
    fn rank_word(&mut self, layer: usize, word: &Spanned<String>) -> Option<u8> {
        if let Some(r) = parse_rank(&word.node) {
            return Some(r);
        }
        self.ranks(
            layer,
            &[ast::RankItem {
                from: word.clone(),
                to: None,
            }],
        )
        .first()
        .copied()
    }

    fn bad_test<T>(&mut self, layer: usize, span: Span, message: String, hint: &str) -> Option<T> {
        self.err(
            layer,
            Diag::error(Code::BadNumber, span, message).hint(hint),
        );
        None
    }
}

/// One choice of a card, lowered: its steps, its label if the line gives one, and where it
/// was written (a branch's choices each make one, written where the branches are).
struct Expanded {
    steps: Vec<Lowered>,
    label: Option<Spanned<String>>,
    span: Span,
}

/// The labels the card's choices get where the line names none, told apart
/// ([`ir::Choice::default_labels`]); a choice of too many steps (refused) counts by its
/// first ones.
fn default_labels(expanded: &[Expanded], empty: ir::Choice) -> Vec<String> {
    let choices: Vec<ir::Choice> = expanded
        .iter()
        .map(|x| {
            let mut c = empty;
            let n = x.steps.len().min(MAX_STEPS);
            c.steps[..n].copy_from_slice(&x.steps[..n]);
            c.len = n as u8;
            c
        })
        .collect();
    ir::Choice::default_labels(&choices)
}

/// Whether a choice's steps say `otherwise`.
fn has_otherwise(c: &ast::Choice) -> bool {
    match &c.body {
        ast::Body::Steps(steps) => steps.iter().any(|s| s.otherwise.is_some()),
        ast::Body::Branches(_) => false,
    }
}
