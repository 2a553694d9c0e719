//! The compiled rules in words: tests, conditions, who, outcomes, actions and effects, as the
//! rules sheet, `why` and explanations say them.

use crate::ir::{Act, Cond, Effect, OutcomeKind, Outcomes, Program, Target, Test, Who};

pub fn test_words(p: &Program, t: Test) -> String {
    match t {
        Test::Even => "even".into(),
        Test::Odd => "odd".into(),
        Test::AtLeast(n) => format!("at least {n}"),
        Test::AtMost(n) => format!("at most {n}"),
        Test::Above(n) => format!("above {n}"),
        Test::Below(n) => format!("below {n}"),
        Test::Exactly(n) => format!("exactly {n}"),
        Test::Script(i) => format!(
            "as the script `{}` says",
            p.script_tests[usize::from(i)].func
        ),
    }
}

pub fn cond_words(p: &Program, c: &Cond) -> String {
    let groups: Vec<String> = c
        .any_of
        .iter()
        .map(|all| {
            all.iter()
                .map(|t| test_words(p, *t))
                .collect::<Vec<_>>()
                .join(" and ")
        })
        .collect();
    format!("if the total is {}", groups.join(", or "))
}

pub fn who_words(w: Who) -> &'static str {
    match w {
        Who::Player => "the player",
        Who::EachOther => "each other player",
        Who::Every => "every player",
        Who::Winner => "the winner",
        Who::Loser => "the loser",
        Who::Next => "the next player",
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
        Act::Skip => "skip the next player".into(),
        Act::Reverse => "reverse the direction".into(),
        Act::Again => "play again".into(),
        Act::Outcomes(i) => outcomes_words(&p.outcomes[usize::from(i)]),
        Act::Script(i) => format!(
            "what the script `{}` says",
            p.script_fx[usize::from(i)].func
        ),
    }
}

/// A card's effect in words: `add 1 (1) or add 11 (11)`.
pub fn effect_words(p: &Program, fx: &Effect) -> String {
    let choices: Vec<String> = fx
        .choices()
        .iter()
        .zip(&fx.labels)
        .map(|(c, label)| {
            let steps: Vec<String> = c
                .steps()
                .iter()
                .map(|s| match s.cond {
                    None => act_words(p, s.then),
                    Some(ci) => {
                        let mut w = format!(
                            "{} {}",
                            act_words(p, s.then),
                            cond_words(p, &p.conds[usize::from(ci)])
                        );
                        if s.otherwise != Act::Nothing {
                            w.push_str(&format!(", otherwise {}", act_words(p, s.otherwise)));
                        }
                        w
                    }
                })
                .collect();
            if fx.len > 1 {
                format!("{} (`{label}`)", steps.join(" and "))
            } else {
                steps.join(" and ")
            }
        })
        .collect();
    choices.join(", or ")
}
