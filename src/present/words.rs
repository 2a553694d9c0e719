//! The compiled rules in words: tests, conditions, who, outcomes, actions and effects, as the
//! rules sheet, `why` and explanations say them.
//!
//! Every phrase here is valid ruleset text that compiles back to what it says: the rules
//! sheet is written in the language itself (`tests/sheet.rs` compiles every sheet back and
//! compares the programs). What a script does is said apart, in [`script_notes`].

use crate::base::cards::RANK_WORDS;
use crate::ir::{
    Act, Amount, Change, Choice, Cmp, Cond, Effect, Expr, Op, OutcomeKind, Outcomes, Pool, Program,
    Quantity, Step, Target, Test, Who,
};

/// How a test is said: after `the total is` (`even`, `above 49`), after `the total`
/// (`ends in 5`), or whole (`the player has at most 1 chip`).
enum Said {
    Is(String),
    Total(String),
    Whole(String),
}

fn cmp_words(c: Cmp, n: i32) -> String {
    match c {
        Cmp::Exactly if n == 0 => "no".to_string(),
        Cmp::Exactly => n.to_string(),
        Cmp::AtLeast => format!("at least {n}"),
        Cmp::AtMost => format!("at most {n}"),
        Cmp::MultipleOf => format!("a multiple of {n}"),
        Cmp::Odd => "an odd number of".to_string(),
        Cmp::EndsIn => format!("a number ending in {n} of"),
    }
}

fn plural(n: i32, one: &str, many: &str) -> String {
    if n == 1 { one.into() } else { many.into() }
}

fn said(p: &Program, t: Test) -> Said {
    match t {
        Test::Even => Said::Is("even".into()),
        Test::Odd => Said::Is("odd".into()),
        Test::AtLeast(n) => Said::Is(format!("at least {n}")),
        Test::AtMost(n) => Said::Is(format!("at most {n}")),
        Test::Above(n) => Said::Is(format!("above {n}")),
        Test::Below(n) => Said::Is(format!("below {n}")),
        Test::Exactly(n) => Said::Is(format!("exactly {n}")),
        Test::MultipleOf(n) => Said::Is(format!("a multiple of {n}")),
        Test::Between(a, b) => Said::Is(format!("between {a} and {b}")),
        Test::EndsIn(d) => Said::Total(format!("ends in {d}")),
        Test::Script(i) => Said::Whole(format!("script {}", p.script_tests[usize::from(i)].func)),
        Test::Chips(c, n) => Said::Whole(format!(
            "the player has {} {}",
            cmp_words(c, n),
            plural(n, "chip", "chips")
        )),
        Test::CardsLeft(c, n) => Said::Whole(format!(
            "the player has {} {} left",
            cmp_words(c, n),
            plural(n, "card", "cards")
        )),
        Test::PlayersLeft(c, n) => Said::Whole(format!(
            "{} {} left",
            match c {
                Cmp::Exactly => format!("only {n}"),
                other => cmp_words(other, n),
            },
            plural(n, "player is", "players are")
        )),
        Test::Previous(r) => Said::Whole(format!(
            "the previous card is a{} {}",
            if r == 0 || r == 7 { "n" } else { "" },
            RANK_WORDS[usize::from(r)]
        )),
        Test::Count(Quantity::Total, Cmp::EndsIn, n) => Said::Total(format!("ends in {n}")),
        Test::Count(Quantity::Total, c, n) => Said::Is(cmp_words_is(c, n)),
        Test::Count(q, c, n) => {
            let what = quantity_words(p, q, Who::Player);
            let plural = quantity_plural(q) || is_plural_name(p, q);
            if c == Cmp::EndsIn {
                let verb = if plural { "end" } else { "ends" };
                return Said::Whole(format!("{what} {verb} in {n}"));
            }
            let verb = if plural { "are" } else { "is" };
            Said::Whole(format!("{what} {verb} {}", cmp_words_is(c, n)))
        }
        Test::CountBetween(Quantity::Total, lo, hi) => Said::Is(format!("between {lo} and {hi}")),
        Test::CountBetween(q, lo, hi) => {
            let what = quantity_words(p, q, Who::Player);
            let verb = if quantity_plural(q) || is_plural_name(p, q) {
                "are"
            } else {
                "is"
            };
            Said::Whole(format!("{what} {verb} between {lo} and {hi}"))
        }
    }
}

/// A comparison after `is`: `3`, `at least 3`, `at most 3` (never `no`, which reads as a
/// word there).
fn cmp_words_is(c: Cmp, n: i32) -> String {
    match c {
        Cmp::Exactly => n.to_string(),
        Cmp::AtLeast => format!("at least {n}"),
        Cmp::AtMost => format!("at most {n}"),
        Cmp::MultipleOf if n == 2 => "even".to_string(),
        Cmp::MultipleOf => format!("a multiple of {n}"),
        Cmp::Odd => "odd".to_string(),
        Cmp::EndsIn => format!("ending in {n}"),
    }
}

/// Whether a count is said with `are` (`the cards laid this round are 20`).
fn quantity_plural(q: Quantity) -> bool {
    match q {
        Quantity::RoundCards
        | Quantity::PlayersLeft
        | Quantity::PlayersInRound
        | Quantity::Stock
        | Quantity::Chips
        | Quantity::Cards => true,
        Quantity::Count(_)
        | Quantity::Total
        | Quantity::Limit
        | Quantity::Round
        | Quantity::Run
        | Quantity::Pot => false,
    }
}

/// A count the table keeps, as the language names it: `the run`, `the player's points`.
pub fn quantity_words(p: &Program, q: Quantity, whose: Who) -> String {
    let of = |what: &str| format!("{}'s {what}", who_words(whose));
    match q {
        Quantity::Total => "the total".into(),
        Quantity::Limit => "the limit".into(),
        Quantity::Round => "the round".into(),
        Quantity::RoundCards => "the cards laid this round".into(),
        Quantity::Run => "the run".into(),
        Quantity::PlayersLeft => "the players left".into(),
        Quantity::PlayersInRound => "the players in the round".into(),
        Quantity::Stock => "the cards in the stock".into(),
        Quantity::Pot => "the pot".into(),
        Quantity::Chips => of("chips"),
        Quantity::Cards => of("cards"),
        Quantity::Count(i) => {
            let c = &p.counts[usize::from(i)];
            if c.per_player {
                of(&c.name)
            } else {
                format!("the {}", c.name)
            }
        }
    }
}

/// An amount worked out from the table, as the language writes it: `109 minus 10 times the
/// round, but not below 59`. Written with brackets where the language's order (times before
/// plus and minus, left to right) needs them.
pub fn expr_words(p: &Program, e: &Expr) -> String {
    // Each stack entry: its words, and how tightly they bind (0 a sum, 1 a product, 2 one
    // piece), so a piece that binds less than its place is bracketed.
    let mut stack: Vec<(String, u8)> = Vec::new();
    let mut bounds: Vec<String> = Vec::new();
    let wrap = |(w, level): (String, u8), at: u8| {
        if level < at { format!("({w})") } else { w }
    };
    for op in &e.ops {
        match *op {
            Op::Num(n) => stack.push((n.to_string(), 2)),
            Op::Get(q, w) => stack.push((quantity_words(p, q, w), 2)),
            Op::Add | Op::Sub | Op::Mul => {
                let (Some(b), Some(a)) = (stack.pop(), stack.pop()) else {
                    continue;
                };
                stack.push(match *op {
                    Op::Add => (format!("{} plus {}", wrap(a, 0), wrap(b, 1)), 0),
                    Op::Sub => (format!("{} minus {}", wrap(a, 0), wrap(b, 1)), 0),
                    _ => (format!("{} times {}", wrap(a, 1), wrap(b, 2)), 1),
                });
            }
            Op::Half => {
                if let Some(a) = stack.pop() {
                    stack.push((format!("half {}", wrap(a, 2)), 2));
                }
            }
            Op::AtLeast(n) => bounds.push(format!(", but not below {n}")),
            Op::AtMost(n) => bounds.push(format!(", but not above {n}")),
        }
    }
    let body = stack.pop().map_or_else(|| "0".to_string(), |(w, _)| w);
    format!("{body}{}", bounds.concat())
}

/// An amount, as written.
/// `set the total to 0`; `the total goes up by 5` for the total plus an amount (as the
/// ruleset may have said it).
fn total_set_words(p: &Program, a: Amount) -> String {
    if let Amount::Of(e) = a
        && let Some(e) = p.exprs.get(usize::from(e))
        && let [
            Op::Get(Quantity::Total, _),
            rest @ ..,
            last @ (Op::Add | Op::Sub),
        ] = e.ops.as_slice()
        && one_value(rest)
    {
        let by = expr_words(p, &Expr { ops: rest.to_vec() });
        let way = if *last == Op::Add { "up" } else { "down" };
        return format!("the total goes {way} by {by}");
    }
    format!("set the total to {}", amount_words(p, a))
}

/// Whether postfix operations leave exactly one value, never reaching below the stack.
fn one_value(ops: &[Op]) -> bool {
    let mut depth = 0usize;
    for op in ops {
        depth = match op {
            Op::Num(_) | Op::Get(..) => depth + 1,
            Op::Add | Op::Sub | Op::Mul if depth >= 2 => depth - 1,
            Op::Half | Op::AtLeast(_) | Op::AtMost(_) if depth >= 1 => depth,
            Op::Add | Op::Sub | Op::Mul | Op::Half | Op::AtLeast(_) | Op::AtMost(_) => {
                return false;
            }
        };
    }
    depth == 1
}

pub fn amount_words(p: &Program, a: Amount) -> String {
    match a {
        Amount::Fixed(n) => n.to_string(),
        Amount::Of(e) => expr_words(p, &p.exprs[usize::from(e)]),
    }
}

/// A test in words, on its own.
pub fn test_words(p: &Program, t: Test) -> String {
    match said(p, t) {
        Said::Is(w) => format!("the total is {w}"),
        Said::Total(w) => format!("the total {w}"),
        Said::Whole(w) => w,
    }
}

/// Tests joined by `and`, the total's said once: `the total is even and above 49`.
fn group_words(p: &Program, all: &[Test]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut after_is = false;
    for t in all {
        match said(p, *t) {
            Said::Is(w) if after_is => parts.push(w),
            Said::Is(w) => {
                parts.push(format!("the total is {w}"));
                after_is = true;
            }
            Said::Total(w) => {
                parts.push(format!("the total {w}"));
                after_is = false;
            }
            Said::Whole(w) => {
                parts.push(w);
                after_is = false;
            }
        }
    }
    parts.join(" and ")
}

/// A condition's own tests: groups joined by `or` (`and` binds first).
pub fn tests_words(p: &Program, c: &Cond) -> String {
    let groups: Vec<String> = c.any_of.iter().map(|all| group_words(p, all)).collect();
    groups.join(" or ")
}

/// `if the total is even and above 49`, `otherwise if the total ends in 5`, `otherwise`.
pub fn cond_words(p: &Program, c: &Cond) -> String {
    let always = c.any_of.iter().any(Vec::is_empty);
    match (always, c.unless.is_empty()) {
        (true, true) => "always".into(),
        (true, false) => "otherwise".into(),
        (false, true) => format!("if {}", tests_words(p, c)),
        (false, false) => format!("otherwise if {}", tests_words(p, c)),
    }
}

pub fn who_words(w: Who) -> &'static str {
    match w {
        Who::Player => "the player",
        Who::EachOther => "each other player",
        Who::Every => "every player",
        Who::Winner => "the winner",
        Who::Loser => "the loser",
        Who::Next => "the player who plays next",
        Who::After => "the player after",
        Who::Previous => "the player before",
        Who::LaidPrevious => "the player who laid the previous card",
        Who::Richest => "every player with the most chips",
        Who::Poorest => "every player with the fewest chips",
        Who::EachOut => "each player out of the round",
        Who::Chosen => "a player of their choice",
    }
}

/// `the player pays 2 and loses the round`
/// What the rules give a player who cannot play, in words (`nothing happens` when no line
/// says).
pub fn cannot_play_words(p: &Program) -> String {
    p.triggers
        .cannot_play
        .and_then(|i| p.outcomes.get(usize::from(i)))
        .map_or_else(|| "nothing happens".to_string(), |o| outcomes_words(p, o))
}

pub fn outcomes_words(p: &Program, o: &Outcomes) -> String {
    outcome_list_words(p, &o.list)
}

/// Outcomes in order, in words: `the player pays 2 and loses the round`.
pub fn outcome_list_words(p: &Program, list: &[crate::ir::Outcome]) -> String {
    let mut previous: Option<Who> = None;
    let parts: Vec<String> = list
        .iter()
        .map(|x| {
            // "the player pays 2 and loses the round": the subject is said once.
            let who = if previous == Some(x.who) {
                String::new()
            } else {
                format!("{} ", who_words(x.who))
            };
            let subject_free = matches!(
                x.kind,
                OutcomeKind::ResetTotal(_)
                    | OutcomeKind::EndRound
                    | OutcomeKind::EndGame
                    | OutcomeKind::Reverse
                    | OutcomeKind::SetTotal(_)
                    | OutcomeKind::Change { .. }
                    | OutcomeKind::Skip(_)
            );
            if subject_free {
                previous = None;
            }
            if !subject_free {
                previous = Some(x.who);
            }
            match x.kind {
                OutcomeKind::Skip(1) => "skip the next player".to_string(),
                OutcomeKind::Skip(n) => format!("skip {n} players"),
                OutcomeKind::Again(1) => format!("{who}plays again"),
                OutcomeKind::Again(2) => format!("{who}plays again twice"),
                OutcomeKind::Again(n) => format!("{who}plays again {n} times"),
                OutcomeKind::Pay { amount, to } => {
                    let to = match to {
                        Target::Bank => "the bank".to_string(),
                        Target::Pot => "the pot".to_string(),
                        Target::Seat(w) => who_words(w).to_string(),
                    };
                    format!("{who}pays {} to {to}", amount_words(p, amount))
                }
                OutcomeKind::WinRound => format!("{who}wins the round"),
                OutcomeKind::LoseRound => format!("{who}loses the round"),
                OutcomeKind::OutOfRound => format!("{who}is out of the round"),
                OutcomeKind::OutOfGame => format!("{who}is out of the game"),
                OutcomeKind::ResetTotal(false) => "the total resets".to_string(),
                OutcomeKind::ResetTotal(true) => "the total and the discard pile reset".to_string(),
                OutcomeKind::EndRound => "the round ends".to_string(),
                OutcomeKind::WinGame => format!("{who}wins the game"),
                OutcomeKind::EndGame => "the game ends".to_string(),
                OutcomeKind::Reverse => "the direction reverses".to_string(),
                OutcomeKind::TakePot => format!("{who}takes the pot"),
                OutcomeKind::Gain { amount, from } => format!(
                    "{who}takes {} from the {}",
                    amount_words(p, amount),
                    match from {
                        Pool::Bank => "bank",
                        Pool::Pot => "pot",
                    }
                ),
                OutcomeKind::SetTotal(a) => total_set_words(p, a),
                OutcomeKind::Draw(a) => format!(
                    "{who}draws {} {}",
                    amount_words(p, a),
                    if a == crate::ir::Amount::Fixed(1) {
                        "card"
                    } else {
                        "cards"
                    }
                ),
                OutcomeKind::SwapHands(w) => format!("{who}swaps hands with {}", who_words(w)),
                OutcomeKind::TakeCard(w) => {
                    format!("{who}takes a card at random from {}", who_words(w))
                }
                OutcomeKind::GiveCard(w) => {
                    format!("{who}gives a card at random to {}", who_words(w))
                }
                OutcomeKind::GiveChosen(w) => {
                    format!("{who}gives a card of their choice to {}", who_words(w))
                }
                OutcomeKind::Change { what, how } => {
                    let count = quantity_words(p, what, x.who);
                    let plural = matches!(what, Quantity::Chips) || is_plural_name(p, what);
                    match how {
                        Change::Up(a) => format!(
                            "{count} {} up by {}",
                            if plural { "go" } else { "goes" },
                            amount_words(p, a)
                        ),
                        Change::Down(a) => format!(
                            "{count} {} down by {}",
                            if plural { "go" } else { "goes" },
                            amount_words(p, a)
                        ),
                        Change::Become(a) => format!(
                            "{count} {} {}",
                            if plural { "become" } else { "becomes" },
                            amount_words(p, a)
                        ),
                        // The sheet is a ruleset: where it resets to is the count's line.
                        Change::Reset => {
                            format!("{count} {}", if plural { "reset" } else { "resets" })
                        }
                    }
                }
            }
        })
        .collect();
    match parts.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

pub fn act_words(p: &Program, a: Act) -> String {
    match a {
        Act::Add(n) if n >= 0 => format!("add {n}"),
        Act::Add(n) => format!("subtract {}", -i64::from(n)),
        Act::Set(n) => format!("set the total to {n}"),
        Act::Mul(2) => "double".into(),
        Act::Mul(n) => format!("multiply by {n}"),
        Act::Div(2) => "halve".into(),
        Act::Div(n) => format!("divide by {n}"),
        Act::Nothing => "nothing".into(),
        Act::Skip(1) => "skip the next player".into(),
        Act::Skip(n) => format!("skip the next {n} players"),
        Act::Reverse => "reverse the direction".into(),
        Act::ChooseNext => "choose who plays next".into(),
        Act::Again(1) => "play again".into(),
        Act::Again(2) => "play again twice".into(),
        Act::Again(n) => format!("play again {n} times"),
        Act::Outcomes(i) => outcomes_words(p, &p.outcomes[usize::from(i)]),
        Act::Script(i) => format!("run {}", p.script_fx[usize::from(i)].func),
        Act::Value(e) => format!(
            "set the total to {}",
            expr_words(p, &p.exprs[usize::from(e)])
        ),
    }
}

/// Whether a count's name reads as plural (`points`): then `go up`, `become`.
fn is_plural_name(p: &Program, q: Quantity) -> bool {
    matches!(q, Quantity::Count(i) if p.counts.get(usize::from(i)).is_some_and(|c| c.name.ends_with('s')))
}

/// Acts joined by `and`, or `nothing`.
fn acts_words(p: &Program, acts: &[Act]) -> String {
    if acts.is_empty() {
        return "nothing".to_string();
    }
    let words: Vec<String> = acts.iter().map(|a| act_words(p, *a)).collect();
    match words.as_slice() {
        [init @ .., last] if !init.is_empty() => format!("{} and {last}", init.join(", ")),
        _ => words.join(""),
    }
}

/// What a choice's steps look like: plain steps; one test deciding each step's `then` or
/// `otherwise` (a trailing test, or `if A: ...; otherwise ...`); or branches, each under its
/// own test (`if A: ...; otherwise if B: ...; otherwise ...`).
enum Shape {
    Plain(Vec<Act>),
    One {
        cond: u16,
        then: Vec<Act>,
        otherwise: Vec<Act>,
    },
    Many(Vec<(u16, Vec<Act>)>),
}

/// A list without the `nothing`s that only pad it at its end.
fn trimmed(mut acts: Vec<Act>) -> Vec<Act> {
    while acts.last() == Some(&Act::Nothing) {
        acts.pop();
    }
    acts
}

fn shape(steps: &[Step]) -> Shape {
    let Some(first) = steps.first().and_then(|s| s.cond) else {
        return Shape::Plain(steps.iter().map(|s| s.then).collect());
    };
    if steps.iter().all(|s| s.cond == Some(first)) {
        return Shape::One {
            cond: first,
            then: trimmed(steps.iter().map(|s| s.then).collect()),
            otherwise: trimmed(steps.iter().map(|s| s.otherwise).collect()),
        };
    }
    let mut groups: Vec<(u16, Vec<Act>)> = Vec::new();
    for s in steps {
        let c = s.cond.unwrap_or(first);
        match groups.last_mut() {
            Some((g, acts)) if *g == c => acts.push(s.then),
            _ => groups.push((c, vec![s.then])),
        }
    }
    Shape::Many(groups)
}

/// A branch's head: `if A: `, `otherwise if B: `, `otherwise `.
fn head(p: &Program, cond: u16) -> String {
    let c = &p.conds[usize::from(cond)];
    match cond_words(p, c).as_str() {
        "otherwise" | "always" => "otherwise ".to_string(),
        w => format!("{w}: "),
    }
}

/// The acts of one branch in each choice: the same in all (`add 5`), or `either` one of them
/// (`either add 10 or subtract 10`), with the labels the compiler would not give.
fn alternatives(p: &Program, each: &[Vec<Act>], labels: &[Option<String>]) -> String {
    if each.iter().all(|a| *a == each[0]) {
        return acts_words(p, &each[0]);
    }
    let said: Vec<String> = each
        .iter()
        .zip(labels)
        .map(|(acts, label)| match label {
            Some(l) => format!("{} as {}", acts_words(p, acts), quoted(l)),
            None => acts_words(p, acts),
        })
        .collect();
    format!("either {}", said.join(" or "))
}

/// A label as written in a ruleset: in double quotes.
fn quoted(label: &str) -> String {
    format!("\"{label}\"")
}

/// A choice's steps in words: plain steps joined by `and`; one test as `halve if ...,
/// otherwise double`, or when it decides several steps `if ...: add 5 and skip the next
/// player; otherwise add 5`; branches as `if ...: ...; otherwise if ...: ...; otherwise ...`.
fn steps_words(p: &Program, steps: &[Step]) -> String {
    match shape(steps) {
        Shape::Plain(acts) => acts_words(p, &acts),
        Shape::One {
            cond,
            then,
            otherwise,
        } => {
            let c = &p.conds[usize::from(cond)];
            let tests = tests_words(p, c);
            if then.len() <= 1 && otherwise.len() <= 1 && !then.is_empty() {
                let mut w = format!("{} if {tests}", act_words(p, then[0]));
                if let Some(o) = otherwise.first() {
                    w.push_str(&format!(", otherwise {}", act_words(p, *o)));
                }
                w
            } else if otherwise.is_empty() {
                format!("if {tests}: {}", acts_words(p, &then))
            } else {
                format!(
                    "if {tests}: {}; otherwise {}",
                    acts_words(p, &then),
                    acts_words(p, &otherwise)
                )
            }
        }
        Shape::Many(groups) => groups
            .iter()
            .map(|(c, acts)| format!("{}{}", head(p, *c), acts_words(p, acts)))
            .collect::<Vec<_>>()
            .join("; "),
    }
}

/// The choices of an effect written as one set of branches, each branch saying `either`
/// where the choices differ: how an effect whose choices share their tests was written
/// (`if the total ends in 0: reverse; otherwise either add 10 or subtract 10`). `None` when
/// the choices do not share their tests.
fn merged_words(p: &Program, fx: &Effect, labels: &[Option<String>]) -> Option<String> {
    let shapes: Vec<Shape> = fx.choices().iter().map(|c| shape(c.steps())).collect();
    match &shapes[0] {
        Shape::Plain(_) => None,
        Shape::One { cond, .. } => {
            let mut thens = Vec::new();
            let mut others = Vec::new();
            for s in &shapes {
                match s {
                    Shape::One {
                        cond: c,
                        then,
                        otherwise,
                    } if c == cond => {
                        thens.push(then.clone());
                        others.push(otherwise.clone());
                    }
                    _ => return None,
                }
            }
            let tests = tests_words(p, &p.conds[usize::from(*cond)]);
            // Labels go with the first branch that says `either`.
            let then_either = !thens.iter().all(|t| *t == thens[0]);
            let none = vec![None; labels.len()];
            let then = alternatives(p, &thens, if then_either { labels } else { &none });
            let mut w = format!("if {tests}: {then}");
            if others.iter().any(|o| !o.is_empty()) {
                let other = alternatives(p, &others, if then_either { &none } else { labels });
                w.push_str(&format!("; otherwise {other}"));
            }
            Some(w)
        }
        Shape::Many(first) => {
            let mut by_branch: Vec<Vec<Vec<Act>>> = vec![Vec::new(); first.len()];
            for s in &shapes {
                let Shape::Many(groups) = s else { return None };
                if groups.len() != first.len()
                    || groups.iter().zip(first).any(|((a, _), (b, _))| a != b)
                {
                    return None;
                }
                for (g, (_, acts)) in groups.iter().enumerate() {
                    by_branch[g].push(acts.clone());
                }
            }
            let mut labelled = false;
            let none = vec![None; labels.len()];
            let parts: Vec<String> = first
                .iter()
                .zip(&by_branch)
                .map(|((c, _), each)| {
                    let differs = !each.iter().all(|a| *a == each[0]);
                    let use_labels = differs && !labelled;
                    labelled |= use_labels;
                    let body = alternatives(p, each, if use_labels { labels } else { &none });
                    format!("{}{body}", head(p, *c))
                })
                .collect();
            Some(parts.join("; "))
        }
    }
}

/// How a card's `or` and `and` grouped, where it matters: the choices one by one
/// (`1. add 10; 2. subtract 10 and the tens go up by 1`), for a card of several plain choices
/// one of which does more than one thing; `None` otherwise.
pub fn choices_one_by_one(p: &Program, fx: &Effect) -> Option<String> {
    let choices = fx.choices();
    if choices.len() < 2 {
        return None;
    }
    let mut parts = Vec::new();
    let mut several = false;
    for (i, c) in choices.iter().enumerate() {
        let Shape::Plain(acts) = shape(c.steps()) else {
            return None;
        };
        several |= acts.len() > 1;
        parts.push(format!("{}. {}", i + 1, acts_words(p, &acts)));
    }
    several.then(|| format!("one choice of: {}", parts.join("; ")))
}

/// Whether a choice is written with a test and `otherwise` (then it must be a card's last).
fn says_otherwise(c: &Choice) -> bool {
    c.steps()
        .iter()
        .any(|s| s.cond.is_some() && s.otherwise != Act::Nothing)
}

/// A card's effect in words, as a ruleset writes it: `add 1 or add 11`,
/// `add 10 as "up" or subtract 10 as "down"`.
pub fn effect_words(p: &Program, fx: &Effect) -> String {
    let choices = fx.choices();
    // The labels the compiler would not give by itself.
    let defaults = Choice::default_labels(choices);
    let labels: Vec<Option<String>> = fx
        .labels
        .iter()
        .zip(&defaults)
        .map(|(l, d)| (l != d).then(|| l.clone()))
        .collect();
    if choices.len() > 1 {
        // Choices that share their tests read best as one set of branches; and choices that
        // cannot be said one after the other (an `otherwise` before an `or`) must be.
        let tested = choices
            .iter()
            .all(|c| !matches!(shape(c.steps()), Shape::Plain(_)));
        let sayable = choices
            .iter()
            .enumerate()
            .all(|(i, c)| match shape(c.steps()) {
                Shape::Plain(_) => true,
                Shape::One {
                    then, otherwise, ..
                } => {
                    then.len() == 1
                        && otherwise.len() <= 1
                        && (i + 1 == choices.len() || !says_otherwise(c))
                }
                Shape::Many(_) => false,
            });
        if (tested || !sayable)
            && let Some(w) = merged_words(p, fx, &labels)
        {
            return w;
        }
    }
    choices
        .iter()
        .zip(&labels)
        .map(|(c, label)| {
            let steps = steps_words(p, c.steps());
            match label {
                Some(l) if choices.len() > 1 => format!("{steps} as {}", quoted(l)),
                _ => steps,
            }
        })
        .collect::<Vec<_>>()
        .join(" or ")
}

/// What the scripts a card runs or tests do, from their doc comments: `swap_digits: Swap the
/// total's two digits.` One note a script.
pub fn script_notes(p: &Program, fx: &Effect) -> Vec<String> {
    let mut notes: Vec<String> = Vec::new();
    for c in fx.choices() {
        for s in c.steps() {
            for a in [s.then, s.otherwise] {
                if let Act::Script(i) = a {
                    let f = &p.script_fx[usize::from(i)];
                    notes.push(match super::scripted::script_does(p, f) {
                        Some(does) => with_comment(format!("`{}` {does}", f.func), &f.doc),
                        None => script_note(&f.func, &f.doc),
                    });
                }
            }
            if let Some(ci) = s.cond {
                for t in p.conds[usize::from(ci)].any_of.iter().flatten() {
                    if let Test::Script(i) = t {
                        let f = &p.script_tests[usize::from(*i)];
                        notes.push(script_note(&f.func, &f.doc));
                    }
                }
            }
        }
    }
    notes.dedup();
    notes
}

/// What a script does, and its `///` comment as its author's words.
fn with_comment(does: String, doc: &str) -> String {
    let doc = doc.trim();
    if doc.is_empty() {
        does
    } else {
        format!("{does} (its comment: “{doc}”)")
    }
}

/// `` `swap` (its comment: “Swap the total's two digits.”) ``: what the script says of itself,
/// as its author's words (what it does is the code's, which the sheet cannot read).
pub fn script_note(func: &str, doc: &str) -> String {
    if doc.trim().is_empty() {
        format!("`{func}` is a script of this ruleset")
    } else {
        with_comment(format!("`{func}`"), doc)
    }
}
