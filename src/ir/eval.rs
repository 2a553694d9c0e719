//! The IR's pure evaluation: what a step does at a total, the total a choice makes, whether a
//! total is allowed. The engine, the checker's analyses and the bots all call these, so the
//! rules are worked out in one place.

use super::{Act, Choice, Fast, Program, Step};

impl Step {
    /// What this step does when the card is played on `before` (the total before the card):
    /// `then`, or `otherwise` when its condition does not hold.
    #[inline]
    pub fn act(&self, p: &Program, before: i32) -> Act {
        match self.cond {
            Some(c) if !p.conds[usize::from(c)].holds(p, before) => self.otherwise,
            _ => self.then,
        }
    }
}

impl Program {
    /// Whether a total is allowed by the limits.
    #[inline]
    pub fn allows(&self, total: i32) -> bool {
        self.ceiling.is_none_or(|c| total <= c.value) && self.floor.is_none_or(|f| total >= f.value)
    }
}

/// The total after one choice of a card, from `total`: one folded instruction for most
/// cards, the steps for the others. A live script's step leaves the total as it is here (the
/// engine asks the script, with the game at hand).
#[inline(always)]
pub fn choice_total(p: &Program, choice: &Choice, total: i32) -> i32 {
    match choice.fast {
        Fast::Add(n) => total.saturating_add(n),
        Fast::Set(n) => n,
        Fast::General => general_total(p, choice, total),
    }
}

/// The total after a choice that needs its steps run (conditions, products, scripts).
#[inline(never)]
fn general_total(p: &Program, choice: &Choice, before: i32) -> i32 {
    let mut t = before;
    for s in choice.steps() {
        t = match s.act(p, before) {
            Act::Script(i) => p.script_fx[usize::from(i)]
                .lookup(t)
                .and_then(|o| o.total)
                .unwrap_or(t),
            other => other.apply(t),
        };
    }
    t
}
