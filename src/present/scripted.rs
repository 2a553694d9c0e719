//! What a card's script does, in words, from the table the compiler made of it (a script
//! that reads only the total and the card is run once for every total): the sheet says what
//! the code does, and the script's `///` comment only as its author's words, so a comment that
//! says "add 10" over code that adds 20 cannot pass for the rule.

use crate::ir::{Outcome, Program, ScriptFx, ScriptOut, Turn};

/// The most stretches of totals a script's effect is said in; one that changes more often
/// than this is said to depend on the total.
const MOST_STRETCHES: usize = 4;

/// What a script does to the total at one total.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Total {
    Add(i32),
    Set(i32),
}

/// What a script does at one total: the total changed, and what else happens (a payment, a
/// card moved, a count changed), said after it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Does<'a> {
    total: Total,
    outcomes: &'a [Outcome],
}

impl Does<'_> {
    fn words(&self, said: &dyn Fn(&[Outcome]) -> String) -> String {
        let total = match self.total {
            Total::Add(0) => "leaves the total".to_string(),
            Total::Add(d) if d > 0 => format!("adds {d}"),
            Total::Add(d) => format!("subtracts {}", d.unsigned_abs()),
            Total::Set(n) => format!("sets the total to {n}"),
        };
        if self.outcomes.is_empty() {
            total
        } else {
            format!("{total}, then {}", said(self.outcomes))
        }
    }
}

/// The totals a table covers, in stretches that each do one thing: `(from, to, does)`.
fn stretches(lo: i32, table: &[ScriptOut], as_set: bool) -> Option<Vec<(i32, i32, Does<'_>)>> {
    let mut out: Vec<(i32, i32, Does<'_>)> = Vec::new();
    for (at, o) in (lo..).zip(table) {
        if o.turn != Turn::default() {
            return None;
        }
        let total = match o.total {
            None => Total::Add(0),
            Some(n) if as_set => Total::Set(n),
            Some(n) => Total::Add(n - at),
        };
        let does = Does {
            total,
            outcomes: &o.outcomes,
        };
        match out.last_mut() {
            Some((_, to, d)) if *d == does => *to = at,
            _ => out.push((at, at, does)),
        }
    }
    (!out.is_empty() && out.len() <= MOST_STRETCHES).then_some(out)
}

/// What a tabulated script does, in words (`adds 20 at every total`, `adds 10 at totals 0 to
/// 49, adds 20 at totals 50 to 99`), or `None` when it runs live or does more than change
/// the total in a few stretches.
pub fn script_does(p: &Program, f: &ScriptFx) -> Option<String> {
    table_words(f, &|o: &[Outcome]| super::words::outcome_list_words(p, o))
}

/// [`script_does`], with the words of a list of outcomes `said`.
fn table_words(f: &ScriptFx, said: &dyn Fn(&[Outcome]) -> String) -> Option<String> {
    let table = f.table.as_deref()?;
    let by_add = stretches(f.lo, table, false);
    let by_set = stretches(f.lo, table, true);
    let best = match (by_add, by_set) {
        (Some(a), Some(s)) if s.len() < a.len() => s,
        (Some(a), _) => a,
        (None, s) => s?,
    };
    if let [(_, _, does)] = best.as_slice() {
        return Some(format!("{} at every total", does.words(said)));
    }
    let parts: Vec<String> = best
        .iter()
        .map(|(from, to, does)| {
            if from == to {
                format!("{} at {from}", does.words(said))
            } else {
                format!("{} at totals {from} to {to}", does.words(said))
            }
        })
        .collect();
    Some(parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Origin;

    fn fx(lo: i32, totals: impl Iterator<Item = Option<i32>>) -> ScriptFx {
        ScriptFx {
            func: "f".into(),
            doc: String::new(),
            rank: 12,
            lo,
            table: Some(
                totals
                    .map(|total| ScriptOut {
                        total,
                        turn: Turn::default(),
                        outcomes: Vec::new(),
                    })
                    .collect(),
            ),
            origin: Origin::default(),
        }
    }

    fn words_of(f: &ScriptFx) -> Option<String> {
        table_words(f, &|o: &[Outcome]| format!("{} outcomes", o.len()))
    }

    #[test]
    fn a_script_is_said_by_what_its_table_does() {
        let twenty = fx(0, (0..40).map(|t| Some(t + 20)));
        assert_eq!(words_of(&twenty).as_deref(), Some("adds 20 at every total"));
        let two = fx(
            0,
            (0..100).map(|t| Some(if t < 50 { t + 10 } else { t - 5 })),
        );
        assert_eq!(
            words_of(&two).as_deref(),
            Some("adds 10 at totals 0 to 49, subtracts 5 at totals 50 to 99")
        );
        let set = fx(0, (0..100).map(|_| Some(99)));
        assert_eq!(
            words_of(&set).as_deref(),
            Some("sets the total to 99 at every total")
        );
        let keep = fx(0, (0..10).map(|_| None));
        assert_eq!(
            words_of(&keep).as_deref(),
            Some("leaves the total at every total")
        );
        // Digits swapped: a different result at nearly every total, so not said.
        let swap = fx(0, (0..40).map(|t| Some((t % 10) * 10 + t / 10)));
        assert_eq!(words_of(&swap), None);
        // What else happens is said after the total, and splits the stretches too.
        let mut moves = fx(0, (0..4).map(|t| Some(t + 10)));
        if let Some(t) = moves.table.as_mut() {
            for o in &mut t[2..] {
                o.outcomes.push(Outcome {
                    who: crate::ir::Who::Player,
                    kind: crate::ir::OutcomeKind::EndRound,
                });
            }
        }
        assert_eq!(
            words_of(&moves).as_deref(),
            Some("adds 10 at totals 0 to 1, adds 10, then 1 outcomes at totals 2 to 3")
        );
        let mut only = fx(0, (0..2).map(|_| None));
        if let Some(t) = only.table.as_mut() {
            for o in t.iter_mut() {
                o.outcomes.push(Outcome {
                    who: crate::ir::Who::Player,
                    kind: crate::ir::OutcomeKind::EndRound,
                });
            }
        }
        assert_eq!(
            words_of(&only).as_deref(),
            Some("leaves the total, then 1 outcomes at every total")
        );
        let mut live = fx(0, (0..3).map(Some));
        live.table = None;
        assert_eq!(words_of(&live), None);
    }
}
