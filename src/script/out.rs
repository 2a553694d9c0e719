//! What a script effect returns, read into a [`ScriptOut`]: a number (the new total), a map of
//! what happens, or nothing. Anything else is an error naming the script and what it returned.

use rhai::{Array, Dynamic, Map};

use super::host::Host;
use crate::ir::{AGAIN, Outcome, OutcomeKind, REVERSE, SKIP, ScriptError, ScriptOut, Target, Who};

impl Host {
    pub(super) fn to_out(&self, name: &str, v: &Dynamic) -> Result<ScriptOut, ScriptError> {
        const WANTED: &str =
            "a number (the new total), a map (like `#{ total: 10, skip: true }`) or nothing";
        if v.is_unit() {
            return Ok(ScriptOut::default());
        }
        if let Ok(n) = v.as_int() {
            return Ok(ScriptOut {
                total: Some(clamp(n)),
                ..ScriptOut::default()
            });
        }
        let Some(map) = v.read_lock::<Map>() else {
            return Err(self.bad_return(name, WANTED, v));
        };
        let mut out = ScriptOut::default();
        let bad = |what: &str| {
            let (place, line) = self.place(name, None);
            ScriptError {
                function: name.to_string(),
                place,
                message: what.to_string(),
                line,
            }
        };
        for (key, value) in map.iter() {
            let flag = || {
                value
                    .as_bool()
                    .map_err(|_| bad(&format!("`{key}` must be true or false")))
            };
            match key.as_str() {
                "total" => {
                    out.total = Some(clamp(
                        value
                            .as_int()
                            .map_err(|_| bad("`total` must be a number"))?,
                    ))
                }
                "skip" if flag()? => out.turn |= SKIP,
                "reverse" if flag()? => out.turn ^= REVERSE,
                "again" if flag()? => out.turn |= AGAIN,
                "end_round" if flag()? => out.outcomes.push(Outcome {
                    who: Who::Player,
                    kind: OutcomeKind::EndRound,
                }),
                "win" if flag()? => out.outcomes.push(Outcome {
                    who: Who::Player,
                    kind: OutcomeKind::WinRound,
                }),
                "lose" if flag()? => out.outcomes.push(Outcome {
                    who: Who::Player,
                    kind: OutcomeKind::LoseRound,
                }),
                "skip" | "reverse" | "again" | "end_round" | "win" | "lose" => {}
                "pay" => {
                    let list: Vec<Dynamic> = match value.clone().try_cast::<Array>() {
                        Some(a) => a,
                        None => vec![value.clone()],
                    };
                    for item in list {
                        let Some(m) = item.try_cast::<Map>() else {
                            return Err(bad(
                                "`pay` must be a map like `#{ who: \"each other\", amount: 1 }`, or a list of them",
                            ));
                        };
                        let who = m.get("who").map_or("player".to_string(), |w| w.to_string());
                        let who = who_of(&who).ok_or_else(|| {
                            bad(&format!("`who: \"{who}\"`: write \"player\", \"each other\", \"every\" or \"next\""))
                        })?;
                        let amount = m
                            .get("amount")
                            .and_then(|a| a.as_int().ok())
                            .unwrap_or(1)
                            .clamp(0, 1_000) as i32;
                        let to = match m.get("to").map(|t| t.to_string()).as_deref() {
                            None | Some("bank") => Target::Bank,
                            Some("pot") => Target::Pot,
                            Some(t) => Target::Seat(who_of(t).ok_or_else(|| {
                                bad(&format!(
                                    "`to: \"{t}\"`: write \"bank\", \"pot\", \"player\" or \"next\""
                                ))
                            })?),
                        };
                        out.outcomes.push(Outcome {
                            who,
                            kind: OutcomeKind::Pay { amount, to },
                        });
                    }
                }
                other => {
                    return Err(bad(&format!(
                        "it returned a map with `{other}`, which means nothing here: use total, skip, reverse, again, pay, end_round, win or lose"
                    )));
                }
            }
        }
        Ok(out)
    }
}

fn clamp(n: i64) -> i32 {
    n.clamp(-1_000_000, 1_000_000) as i32
}

fn who_of(word: &str) -> Option<Who> {
    Some(match word {
        "player" | "the player" => Who::Player,
        "each other" | "each other player" | "others" => Who::EachOther,
        "every" | "every player" | "all" => Who::Every,
        "next" | "the next player" => Who::Next,
        _ => return None,
    })
}
