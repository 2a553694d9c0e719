//! The labels a card's choices get when the line names none: the amounts they add, told
//! apart, so that every default a compiled card carries can be typed back (`AS:11`).

use super::effect::{Act, Choice};

/// The label an amount gives a choice: `11`, `-10`, `=99`; none for anything else.
fn amount_label(act: Act) -> Option<String> {
    match act {
        Act::Add(n) => Some(n.to_string()),
        Act::Set(n) => Some(format!("={n}")),
        Act::Mul(_)
        | Act::Div(_)
        | Act::Nothing
        | Act::Skip(_)
        | Act::Reverse
        | Act::Again(_)
        | Act::ChooseNext
        | Act::Outcomes(_)
        | Act::Script(_)
        | Act::Value(_) => None,
    }
}

impl Choice {
    /// The label the choice at `index` gets when the line names none: the number its first
    /// add or subtract adds (`11`, `-10`), `=99` for a total it sets, or its place (`1`,
    /// `2`...). "First" is in the order the line is written, a test's `otherwise` included,
    /// so a label never depends on whether an add sits under a test (`reverse if the total
    /// ends in 0, otherwise add 10` is `10`).
    pub fn default_label(&self, index: usize) -> String {
        self.acts()
            .find_map(amount_label)
            .unwrap_or_else(|| (index + 1).to_string())
    }

    /// What the choice does, in the order the line is written: each step's act, then its
    /// `otherwise`.
    pub fn acts(&self) -> impl Iterator<Item = Act> + '_ {
        self.steps().iter().flat_map(|s| [s.then, s.otherwise])
    }

    /// The labels of a card's choices when the line names none, told apart: each choice's
    /// [`Choice::default_label`]; where two would be the same (`if the total is odd: add 7;
    /// otherwise either add 1 or nothing` adds 7 first in both), the first amount from where
    /// those choices start to differ (`1`, and `2` by its place for the one that adds
    /// nothing there); and if even then two are the same, every choice by its place.
    pub fn default_labels(choices: &[Choice]) -> Vec<String> {
        let first: Vec<String> = choices
            .iter()
            .enumerate()
            .map(|(i, c)| c.default_label(i))
            .collect();
        let clash =
            |labels: &[String], i: usize| labels.iter().filter(|l| **l == labels[i]).count() > 1;
        let refined: Vec<String> = (0..choices.len())
            .map(|i| {
                if !clash(&first, i) {
                    return first[i].clone();
                }
                let mine: Vec<Act> = choices[i].acts().collect();
                // Where this choice first parts from every other of its name.
                let from = choices
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i && first[*j] == first[i])
                    .map(|(_, c)| {
                        let theirs: Vec<Act> = c.acts().collect();
                        (0..mine.len().max(theirs.len()))
                            .find(|&k| mine.get(k) != theirs.get(k))
                            .unwrap_or(mine.len())
                    })
                    .min()
                    .unwrap_or(0);
                mine.get(from..)
                    .and_then(|rest| rest.iter().copied().find_map(amount_label))
                    .unwrap_or_else(|| (i + 1).to_string())
            })
            .collect();
        if (0..refined.len()).any(|i| clash(&refined, i)) {
            (1..=choices.len()).map(|i| i.to_string()).collect()
        } else {
            refined
        }
    }
}
