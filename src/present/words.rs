//! The compiled rules in words: tests, conditions, who, outcomes, actions and effects, as the
//! rules sheet, `why` and explanations say them.

use crate::base::cards::RANK_WORDS;
use crate::ir::{Act, Cmp, Cond, Effect, OutcomeKind, Outcomes, Pool, Program, Target, Test, Who};

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
        Test::Script(i) => Said::Is(format!(
            "as the script `{}` says",
            p.script_tests[usize::from(i)].func
        )),
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

/// `if the total is even and above 49`, `otherwise if the total ends in 5`, `otherwise`.
pub fn cond_words(p: &Program, c: &Cond) -> String {
    let always = c.any_of.iter().any(Vec::is_empty);
    let lead = if c.unless.is_empty() {
        "if"
    } else {
        "otherwise if"
    };
    if always {
        return if c.unless.is_empty() {
            "always".into()
        } else {
            "otherwise".into()
        };
    }
    let groups: Vec<String> = c.any_of.iter().map(|all| group_words(p, all)).collect();
    format!("{lead} {}", groups.join(", or "))
}

pub fn who_words(w: Who) -> &'static str {
    match w {
        Who::Player => "the player",
        Who::EachOther => "each other player",
        Who::Every => "every player",
        Who::Winner => "the winner",
        Who::Loser => "the loser",
        Who::Next => "the next player",
        Who::After => "the player after",
        Who::Previous => "the previous player",
        Who::Richest => "the player with the most chips",
        Who::Poorest => "the player with the fewest chips",
        Who::EachOut => "each player out of the round",
    }
}

/// `the player pays 2 and loses the round`
pub fn outcomes_words(o: &Outcomes) -> String {
    let mut previous: Option<Who> = None;
    let parts: Vec<String> = o
        .list
        .iter()
        .map(|x| {
            // "the player pays 2 and loses the round": the subject is said once.
            let who = if previous == Some(x.who) {
                String::new()
            } else {
                format!("{} ", who_words(x.who))
            };
            let subject_free = matches!(x.kind, OutcomeKind::ResetTotal(_) | OutcomeKind::EndRound);
            if !subject_free {
                previous = Some(x.who);
            }
            match x.kind {
                OutcomeKind::Pay { amount, to } => {
                    let to = match to {
                        Target::Bank => "the bank".to_string(),
                        Target::Pot => "the pot".to_string(),
                        Target::Seat(w) => who_words(w).to_string(),
                    };
                    format!("{who}pays {amount} to {to}")
                }
                OutcomeKind::WinRound => format!("{who}wins the round"),
                OutcomeKind::LoseRound => format!("{who}loses the round"),
                OutcomeKind::OutOfRound => format!("{who}is out of the round"),
                OutcomeKind::OutOfGame => format!("{who}is out of the game"),
                OutcomeKind::ResetTotal(false) => "the total resets".to_string(),
                OutcomeKind::ResetTotal(true) => "the total and the discard pile reset".to_string(),
                OutcomeKind::EndRound => "the round ends".to_string(),
                OutcomeKind::TakePot => format!("{who}takes the pot"),
                OutcomeKind::Gain { amount, from } => format!(
                    "{who}takes {amount} from the {}",
                    match from {
                        Pool::Bank => "bank",
                        Pool::Pot => "pot",
                    }
                ),
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
        Act::Add(n) => format!("subtract {}", -n),
        Act::Set(n) => format!("set the total to {n}"),
        Act::Mul(2) => "double the total".into(),
        Act::Mul(n) => format!("multiply the total by {n}"),
        Act::Div(2) => "halve the total".into(),
        Act::Div(n) => format!("divide the total by {n}"),
        Act::Nothing => "nothing".into(),
        Act::Skip(1) => "skip the next player".into(),
        Act::Skip(n) => format!("skip the next {n} players"),
        Act::Reverse => "reverse the direction".into(),
        Act::Again(1) => "play again".into(),
        Act::Again(2) => "play again twice".into(),
        Act::Again(n) => format!("play again {n} times"),
        Act::Outcomes(i) => outcomes_words(&p.outcomes[usize::from(i)]),
        Act::Script(i) => {
            let fx = &p.script_fx[usize::from(i)];
            if fx.doc.is_empty() {
                format!("what the script `{}` says", fx.func)
            } else {
                // The doc is a sentence of its own; here it goes on after `Queen: `.
                let doc = fx.doc.trim_end_matches('.');
                let mut chars = doc.chars();
                let first = chars.next().map(|c| c.to_lowercase().to_string());
                format!(
                    "{}{} (the script `{}`)",
                    first.unwrap_or_default(),
                    chars.as_str(),
                    fx.func
                )
            }
        }
    }
}

/// A choice's steps in words: unconditional steps joined by `and`; steps under one test as
/// `halve the total if ..., otherwise double the total`, or, when the test decides several,
/// `if ...: add 5 and skip the next player; otherwise add 5`.
fn steps_words(p: &Program, steps: &[crate::ir::Step]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < steps.len() {
        let cond = steps[i].cond;
        let mut j = i + 1;
        while j < steps.len() && steps[j].cond == cond {
            j += 1;
        }
        let group = &steps[i..j];
        match cond {
            None => parts.extend(group.iter().map(|s| act_words(p, s.then))),
            Some(ci) => {
                let c = &p.conds[usize::from(ci)];
                let then: Vec<String> = group
                    .iter()
                    .filter(|s| s.then != Act::Nothing)
                    .map(|s| act_words(p, s.then))
                    .collect();
                let otherwise: Vec<String> = group
                    .iter()
                    .filter(|s| s.otherwise != Act::Nothing)
                    .map(|s| act_words(p, s.otherwise))
                    .collect();
                if group.len() == 1 && c.unless.is_empty() {
                    let mut w = format!("{} {}", act_words(p, group[0].then), cond_words(p, c));
                    if let Some(o) = otherwise.first() {
                        w.push_str(&format!(", otherwise {o}"));
                    }
                    parts.push(w);
                } else if c.any_of.iter().any(Vec::is_empty) {
                    // The last branch: `otherwise add 6`.
                    parts.push(format!("otherwise {}", or_nothing(&then)));
                } else {
                    let mut w = format!("{}: {}", cond_words(p, c), or_nothing(&then));
                    if !otherwise.is_empty() {
                        w.push_str(&format!("; otherwise {}", otherwise.join(" and ")));
                    }
                    parts.push(w);
                }
            }
        }
        i = j;
    }
    // Branches are separated by `;`; other steps by commas, the last by `and`.
    let mut out = String::new();
    for (k, part) in parts.iter().enumerate() {
        if k > 0 {
            out.push_str(if part.starts_with("otherwise") {
                "; "
            } else if k + 1 == parts.len() {
                " and "
            } else {
                ", "
            });
        }
        out.push_str(part);
    }
    out
}

fn or_nothing(acts: &[String]) -> String {
    if acts.is_empty() {
        "nothing".to_string()
    } else {
        acts.join(" and ")
    }
}

/// A card's effect in words: `add 1 (`1`), or add 11 (`11`)`.
pub fn effect_words(p: &Program, fx: &Effect) -> String {
    let choices: Vec<String> = fx
        .choices()
        .iter()
        .zip(&fx.labels)
        .map(|(c, label)| {
            let steps = steps_words(p, c.steps());
            if fx.len > 1 {
                format!("{steps} (`{label}`)")
            } else {
                steps
            }
        })
        .collect();
    choices.join(", or ")
}
