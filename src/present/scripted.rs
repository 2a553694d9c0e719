//! What a card's script does, in words, from the table the compiler made of it (a script
//! that reads only the total and the card is run once for every total): the sheet says what
//! the code does, and the script's `///` comment only as its author's words, so a comment that
//! says "add 10" over code that adds 20 cannot pass for the rule.

use crate::ir::{ScriptFx, ScriptOut, Turn};

/// The most stretches of totals a script's effect is said in; one that changes more often
/// than this is said to depend on the total.
const MOST_STRETCHES: usize = 4;

/// What a script does at one total, when it only changes the total.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Does {
    Add(i32),
    Set(i32),
}

impl Does {
    fn words(self) -> String {
        match self {
            Does::Add(0) => "leaves the total".to_string(),
            Does::Add(d) if d > 0 => format!("adds {d}"),
            Does::Add(d) => format!("subtracts {}", d.unsigned_abs()),
            Does::Set(n) => format!("sets the total to {n}"),
        }
    }
}

/// The totals a table covers, in stretches that each do one thing: `(from, to, does)`.
fn stretches(lo: i32, table: &[ScriptOut], as_set: bool) -> Option<Vec<(i32, i32, Does)>> {
    let mut out: Vec<(i32, i32, Does)> = Vec::new();
    for (at, o) in (lo..).zip(table) {
        if o.turn != Turn::default() || !o.outcomes.is_empty() {
            return None;
        }
        let does = match o.total {
            None => Does::Add(0),
            Some(n) if as_set => Does::Set(n),
            Some(n) => Does::Add(n - at),
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
pub fn script_does(f: &ScriptFx) -> Option<String> {
    let table = f.table.as_deref()?;
    let by_add = stretches(f.lo, table, false);
    let by_set = stretches(f.lo, table, true);
    let best = match (by_add, by_set) {
        (Some(a), Some(s)) if s.len() < a.len() => s,
        (Some(a), _) => a,
        (None, s) => s?,
    };
    if let [(_, _, does)] = best.as_slice() {
        return Some(format!("{} at every total", does.words()));
    }
    let parts: Vec<String> = best
        .iter()
        .map(|(from, to, does)| {
            if from == to {
                format!("{} at {from}", does.words())
            } else {
                format!("{} at totals {from} to {to}", does.words())
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

    #[test]
    fn a_script_is_said_by_what_its_table_does() {
        let twenty = fx(0, (0..40).map(|t| Some(t + 20)));
        assert_eq!(
            script_does(&twenty).as_deref(),
            Some("adds 20 at every total")
        );
        let two = fx(
            0,
            (0..100).map(|t| Some(if t < 50 { t + 10 } else { t - 5 })),
        );
        assert_eq!(
            script_does(&two).as_deref(),
            Some("adds 10 at totals 0 to 49, subtracts 5 at totals 50 to 99")
        );
        let set = fx(0, (0..100).map(|_| Some(99)));
        assert_eq!(
            script_does(&set).as_deref(),
            Some("sets the total to 99 at every total")
        );
        let keep = fx(0, (0..10).map(|_| None));
        assert_eq!(
            script_does(&keep).as_deref(),
            Some("leaves the total at every total")
        );
        // Digits swapped: a different result at nearly every total, so not said.
        let swap = fx(0, (0..40).map(|t| Some((t % 10) * 10 + t / 10)));
        assert_eq!(script_does(&swap), None);
        let mut live = fx(0, (0..3).map(Some));
        live.table = None;
        assert_eq!(script_does(&live), None);
    }
}
