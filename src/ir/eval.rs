//! The IR's pure evaluation: what a step does when a card is played, the total a choice
//! makes, whether a total is allowed. The engine, the checker's analyses and the bots all call
//! these, so the rules are worked out in one place.

use super::{Act, Choice, Facts, Fast, Program, Step};

impl Step {
    /// What this step does when the card is played in situation `f` (the total before the
    /// card, the player's situation): `then`, or `otherwise` when its condition does not
    /// hold.
    #[inline]
    pub fn act(&self, p: &Program, f: &Facts) -> Act {
        match self.cond {
            Some(c) if !p.conds[usize::from(c)].holds(p, f) => self.otherwise,
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

/// The total after one choice of a card, played in situation `f`: one folded instruction for
/// most cards, the steps for the others. A live script's step leaves the total as it is here
/// (the engine asks the script, with the game at hand).
#[inline(always)]
pub fn choice_total(p: &Program, choice: &Choice, f: &Facts) -> i32 {
    match choice.fast {
        Fast::Add(n) => f.total.saturating_add(n),
        Fast::Set(n) => n,
        Fast::General => general_total(p, choice, f),
    }
}

/// The total after a choice that needs its steps run (conditions, products, scripts).
#[inline(never)]
fn general_total(p: &Program, choice: &Choice, f: &Facts) -> i32 {
    // A script not tabulated at `t` leaves the total as it is here.
    steps_total(p, choice, f, Some).unwrap_or(f.total)
}

/// The total after `choice`'s steps in situation `f`, each script's tabulated answer looked
/// up (its total taken, or the total left when it gives none); where a script is not
/// tabulated at the total it is asked at, `untabulated(t)` says what it makes, or `None` to
/// give up.
#[inline(always)]
fn steps_total(
    p: &Program,
    choice: &Choice,
    f: &Facts,
    untabulated: impl Fn(i32) -> Option<i32>,
) -> Option<i32> {
    let mut t = f.total;
    for s in choice.steps() {
        // Every act but a script's is arithmetic `Act::apply` knows (the identity for a
        // turn effect or outcomes).
        let act = s.act(p, f);
        t = if let Act::Script(i) = act {
            match p.script_fx.get(usize::from(i)).and_then(|fx| fx.lookup(t)) {
                Some(out) => out.total.unwrap_or(t),
                None => untabulated(t)?,
            }
        } else {
            act.apply_in(p, f, t)
        };
    }
    Some(t)
}

/// The total a choice makes in situation `f` when every script it runs is tabulated at the
/// total it is asked at, as the engine's `ask_scripts` works it out then (the tabulated
/// answer looked up, its total taken, or the total left when it gives none); `None` when
/// one is not, and the script would be asked live.
pub fn tabulated_total(p: &Program, choice: &Choice, f: &Facts) -> Option<i32> {
    steps_total(p, choice, f, |_| None)
}

/// Every total a choice can make from `total`, whatever the player's situation: a step whose
/// condition reads the player goes both ways. For the checker's analyses.
pub fn possible_totals(p: &Program, choice: &Choice, total: i32) -> Vec<i32> {
    let mut totals = vec![total];
    let facts = Facts::total(total);
    for s in choice.steps() {
        let acts: Vec<Act> = match s.cond {
            Some(c) if p.conds[usize::from(c)].reads_player(p) => vec![s.then, s.otherwise],
            _ => vec![s.act(p, &facts)],
        };
        let mut next = Vec::with_capacity(totals.len() * acts.len());
        for &t in &totals {
            for &a in &acts {
                let n = if let Act::Script(i) = a {
                    p.script_fx[usize::from(i)]
                        .lookup(t)
                        .and_then(|o| o.total)
                        .unwrap_or(t)
                } else {
                    a.apply_in(p, &facts, t)
                };
                if !next.contains(&n) {
                    next.push(n);
                }
            }
        }
        totals = next;
    }
    totals
}
