//! What a script effect returns, read into a [`ScriptOut`]: a number (the new total), a map of
//! what happens, or nothing. Anything else — a key that means nothing, a wrong type, a
//! negative amount — is an error naming the script and what it returned, found when the
//! ruleset is checked (every script is tried then).

use rhai::{Array, Dynamic, Map};

use super::host::Host;
use crate::ir::{Outcome, OutcomeKind, Pool, ScriptError, ScriptOut, Target, Turn, Who};

/// The largest number of chips one payment or gain from a script may move.
pub const MAX_SCRIPT_AMOUNT: i64 = 1_000;

/// The keys a returned map may have.
const KEYS: &str =
    "total, skip, reverse, again, pay, gain, end_round, win, lose, end_game or win_game";

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
        let bad = |what: String| {
            let (place, line) = self.place(name, None);
            ScriptError {
                function: name.to_string(),
                place,
                message: what,
                line,
            }
        };
        let mut out = ScriptOut::default();
        for (key, value) in map.iter() {
            let flag = || {
                value
                    .as_bool()
                    .map_err(|_| bad(format!("`{key}` must be true or false")))
            };
            let player = |kind| Outcome {
                who: Who::Player,
                kind,
            };
            match key.as_str() {
                "total" => {
                    let n = value
                        .as_int()
                        .map_err(|_| bad("`total` must be a number".into()))?;
                    out.total = Some(clamp(n));
                }
                "skip" => {
                    let skip = count(value).ok_or_else(|| {
                        bad(
                            "`skip` must be true, false or a number of players from 0 to 255"
                                .into(),
                        )
                    })?;
                    out.turn = out.turn.and(Turn {
                        skip,
                        ..Turn::default()
                    });
                }
                "again" => {
                    let again = count(value).ok_or_else(|| {
                        bad("`again` must be true, false or a number of turns from 0 to 255".into())
                    })?;
                    out.turn = out.turn.and(Turn {
                        again,
                        ..Turn::default()
                    });
                }
                "reverse" => {
                    if flag()? {
                        out.turn = out.turn.and(Turn {
                            reverse: true,
                            ..Turn::default()
                        });
                    }
                }
                "end_round" if flag()? => out.outcomes.push(player(OutcomeKind::EndRound)),
                "win" if flag()? => out.outcomes.push(player(OutcomeKind::WinRound)),
                "lose" if flag()? => out.outcomes.push(player(OutcomeKind::LoseRound)),
                "end_game" if flag()? => out.outcomes.push(player(OutcomeKind::EndGame)),
                "win_game" if flag()? => out.outcomes.push(player(OutcomeKind::WinGame)),
                "end_round" | "win" | "lose" | "end_game" | "win_game" => {}
                "pay" => {
                    for item in items(value) {
                        out.outcomes.push(payment(&item, &bad)?);
                    }
                }
                "gain" => {
                    for item in items(value) {
                        out.outcomes.push(gain(&item, &bad)?);
                    }
                }
                other => {
                    return Err(bad(format!(
                        "it returned a map with `{other}`, which means nothing here: use {KEYS}"
                    )));
                }
            }
        }
        Ok(out)
    }
}

/// `true` (1), `false` (0) or a number from 0 to 255.
fn count(v: &Dynamic) -> Option<u8> {
    if let Ok(b) = v.as_bool() {
        return Some(u8::from(b));
    }
    v.as_int().ok().and_then(|n| u8::try_from(n).ok())
}

/// A map, or a list of maps.
fn items(value: &Dynamic) -> Vec<Dynamic> {
    match value.clone().try_cast::<Array>() {
        Some(a) => a,
        None => vec![value.clone()],
    }
}

/// The keys of one `pay` or `gain` map, checked: only those listed, each of the right type.
fn fields(
    item: &Dynamic,
    what: &str,
    allowed: &[&str],
    bad: &dyn Fn(String) -> ScriptError,
) -> Result<Map, ScriptError> {
    let example = if what == "pay" {
        "#{ who: \"each other\", amount: 1 }"
    } else {
        "#{ who: \"player\", amount: 1, from: \"bank\" }"
    };
    let Some(m) = item.clone().try_cast::<Map>() else {
        return Err(bad(format!(
            "`{what}` must be a map like `{example}`, or a list of them"
        )));
    };
    if let Some(k) = m.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(bad(format!(
            "`{what}` has a key `{k}`, which means nothing there: use {}",
            allowed.join(", ")
        )));
    }
    Ok(m)
}

/// `amount`: a whole number of chips, 1 when not given.
fn amount(m: &Map, what: &str, bad: &dyn Fn(String) -> ScriptError) -> Result<i32, ScriptError> {
    let Some(a) = m.get("amount") else {
        return Ok(1);
    };
    let n = a.as_int().map_err(|_| {
        bad(format!(
            "`{what}`'s `amount` must be a whole number, not {} `{a}`",
            a.type_name()
        ))
    })?;
    if !(0..=MAX_SCRIPT_AMOUNT).contains(&n) {
        let hint = if n < 0 && what == "pay" {
            ": to give a player chips, use `gain`"
        } else {
            ""
        };
        return Err(bad(format!(
            "`{what}`'s `amount` is {n}, but it must be from 0 to {MAX_SCRIPT_AMOUNT}{hint}"
        )));
    }
    Ok(n as i32)
}

/// Who a map names: a string among the known ones.
fn who_field(
    m: &Map,
    key: &str,
    default: &str,
    bad: &dyn Fn(String) -> ScriptError,
) -> Result<Who, ScriptError> {
    let Some(v) = m.get(key) else {
        return who_of(default).ok_or_else(|| bad(format!("`{key}` is missing")));
    };
    let Some(word) = v.clone().try_cast::<rhai::ImmutableString>() else {
        return Err(bad(format!(
            "`{key}` must be text like \"player\", not {} `{v}`",
            v.type_name()
        )));
    };
    who_of(word.as_str()).ok_or_else(|| {
        bad(format!(
            "`{key}: \"{word}\"`: write \"player\", \"each other\", \"every\", \"next\", \"after\", \"previous\", \"richest\" or \"poorest\""
        ))
    })
}

fn payment(item: &Dynamic, bad: &dyn Fn(String) -> ScriptError) -> Result<Outcome, ScriptError> {
    let m = fields(item, "pay", &["who", "amount", "to"], bad)?;
    let who = who_field(&m, "who", "player", bad)?;
    let amount = amount(&m, "pay", bad)?;
    let to = match m.get("to").map(ToString::to_string).as_deref() {
        None | Some("bank") => Target::Bank,
        Some("pot") => Target::Pot,
        Some(_) => Target::Seat(who_field(&m, "to", "player", bad)?),
    };
    Ok(Outcome {
        who,
        kind: OutcomeKind::Pay {
            amount: crate::ir::Amount::Fixed(amount),
            to,
        },
    })
}

fn gain(item: &Dynamic, bad: &dyn Fn(String) -> ScriptError) -> Result<Outcome, ScriptError> {
    let m = fields(item, "gain", &["who", "amount", "from"], bad)?;
    let who = who_field(&m, "who", "player", bad)?;
    let amount = amount(&m, "gain", bad)?;
    let from = match m.get("from").map(ToString::to_string).as_deref() {
        None | Some("bank") => Pool::Bank,
        Some("pot") => Pool::Pot,
        Some(other) => {
            return Err(bad(format!(
                "`gain`'s `from: \"{other}\"`: write \"bank\" or \"pot\""
            )));
        }
    };
    Ok(Outcome {
        who,
        kind: OutcomeKind::Gain {
            amount: crate::ir::Amount::Fixed(amount),
            from,
        },
    })
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
        "after" | "the player after" => Who::After,
        "previous" | "the previous player" | "before" | "the player before" => Who::Previous,
        "laid previous" | "the player who laid the previous card" => Who::LaidPrevious,
        "richest" | "the player with the most chips" => Who::Richest,
        "poorest" | "the player with the fewest chips" => Who::Poorest,
        _ => return None,
    })
}
