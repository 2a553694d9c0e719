//! A scenario that tests nothing: one whose expectations all hold before its moves, so it
//! would pass whatever the moves did.

use super::scenario::run;
use crate::base::Code;
use crate::base::diag::Diag;
use crate::lang::ast::{Scenario, ScenarioStep};
use crate::play::Ruleset;

/// A scenario that passes with its moves left out tests nothing they do: every expectation
/// already held in its position (a count a start-of-round line resets, say, was expected to
/// be what the reset makes it).
pub(super) fn tests_nothing(p: &Ruleset, sc: &Scenario) -> Option<Diag> {
    let is_move = |s: &ScenarioStep| matches!(s, ScenarioStep::Play(_) | ScenarioStep::Draw);
    let moves = sc.steps.iter().filter(|s| is_move(&s.node)).count();
    let expects = sc
        .steps
        .iter()
        .filter(|s| matches!(s.node, ScenarioStep::Expect(_)))
        .count();
    if moves == 0 || expects == 0 {
        return None;
    }
    let still = Scenario {
        steps: sc
            .steps
            .iter()
            .filter(|s| !is_move(&s.node))
            .cloned()
            .collect(),
        ..sc.clone()
    };
    run(p, &still).ok()?;
    Some(
        Diag::warning(
            Code::ScenarioIdle,
            sc.name.span,
            format!(
                "scenario \"{}\": every expectation holds before its moves too, so it tests nothing they do",
                sc.name.node
            ),
        )
        .label("holds without the moves")
        .hint("expect something the moves make so (the total after them, whose turn it is, a count they change); if the position is not what you meant, the round's start may have changed it (`at the start of each round` lines run on the position)"),
    )
}
