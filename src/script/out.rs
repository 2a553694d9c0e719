//! What a script effect returns, read into a [`ScriptOut`]: a number (the new total), a map of
//! what happens, or nothing. Anything else — a key that means nothing, a wrong type, a
//! negative amount — is an error naming the script and what it returned, found when the
//! ruleset is checked (every script is tried then).

use rhai::{Array, Dynamic, Map};

use super::host::Host;
use crate::base::limits::NUMBER;
use crate::ir::{
    Amount, Change, Outcome, OutcomeKind, Pool, Quantity, ScriptError, ScriptOut, Target, Turn, Who,
};

/// The largest number of chips one payment or gain from a script may move.
pub const MAX_SCRIPT_AMOUNT: i64 = 1_000;

/// The keys a returned map may have.
const KEYS: &str = "total, skip, reverse, again, pay, gain, draw, swap, take, give, count, end_round, win, lose, end_game or win_game";

/// The keys that move cards: a ruleset's code that names none of them moves none.
const CARD_MOVES: [&str; 4] = ["draw", "swap", "take", "give"];

/// Whether a script's code names a key that moves cards (as a word, anywhere in it): the
/// program is then taken to move cards as its lines may.
pub(super) fn names_a_card_move(code: &str) -> bool {
    code.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| CARD_MOVES.contains(&w))
}

/// The most cards one `draw` of a script may draw, as a line's `draws N`.
const MOST_DRAWN: i64 = crate::ir::MAX_HAND as i64;

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
                "draw" | "swap" | "take" | "give" => {
                    if !self.moves_cards {
                        return Err(bad(format!(
                            "it returned a map with `{key}`, a key built as it ran: write `{key}` in the code as it is, so the ruleset is known to move cards"
                        )));
                    }
                    for item in items(value) {
                        out.outcomes.push(card_move(key, &item, &bad)?);
                    }
                }
                "count" => {
                    for item in items(value) {
                        out.outcomes.push(self.count_change(&item, &bad)?);
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

impl Host {
    /// One `count` map: `#{ name: "points", who: "player", add: 3 }` (or `set: 0`, or
    /// `reset: true`); `name` is a count the ruleset keeps, or `"chips"`.
    fn count_change(
        &self,
        item: &Dynamic,
        bad: &dyn Fn(String) -> ScriptError,
    ) -> Result<Outcome, ScriptError> {
        let m = fields(item, "count", &["name", "who", "add", "set", "reset"], bad)?;
        let kept = || {
            if self.counts.is_empty() {
                "the ruleset keeps no count; `\"chips\"` changes chips".to_string()
            } else {
                format!(
                    "use `\"chips\"` or a count the ruleset keeps: {}",
                    self.counts
                        .iter()
                        .map(|c| format!("\"{c}\""))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        };
        let Some(name) = m.get("name") else {
            return Err(bad(format!(
                "`count` needs a `name`, like `#{{ name: \"points\", add: 1 }}`: {}",
                kept()
            )));
        };
        let name = name.to_string();
        let what = if name == "chips" {
            Quantity::Chips
        } else {
            match self.counts.iter().position(|c| *c == name) {
                Some(i) => Quantity::Count(i as u8),
                None => {
                    return Err(bad(format!(
                        "`count`'s `name: \"{name}\"` is no count of this ruleset: {}",
                        kept()
                    )));
                }
            }
        };
        let who = who_field(&m, "who", "player", bad)?;
        let number = |key: &str| -> Result<Option<i32>, ScriptError> {
            let Some(v) = m.get(key) else {
                return Ok(None);
            };
            let n = v.as_int().map_err(|_| {
                bad(format!(
                    "`count`'s `{key}` must be a whole number, not {} `{v}`",
                    v.type_name()
                ))
            })?;
            if n.abs() > NUMBER {
                return Err(bad(format!(
                    "`count`'s `{key}` is {n}, but it must be from -{NUMBER} to {NUMBER}"
                )));
            }
            Ok(Some(n as i32))
        };
        let reset = match m.get("reset") {
            None => false,
            Some(v) => v
                .as_bool()
                .map_err(|_| bad("`count`'s `reset` must be true or false".into()))?,
        };
        let how = match (number("add")?, number("set")?, reset) {
            (Some(n), None, false) if n < 0 => Change::Down(Amount::Fixed(-n)),
            (Some(n), None, false) => Change::Up(Amount::Fixed(n)),
            (None, Some(n), false) => Change::Become(Amount::Fixed(n)),
            (None, None, true) => Change::Reset,
            (None, None, false) => {
                return Err(bad(
                    "`count` says how the count changes: `add: 1` (or less, `add: -1`), `set: 0` or `reset: true`".into(),
                ));
            }
            _ => {
                return Err(bad(
                    "`count` says one change: `add`, `set` or `reset`, not several (return a list of maps for several)".into(),
                ));
            }
        };
        Ok(Outcome {
            who,
            kind: OutcomeKind::Change { what, how },
        })
    }
}

/// One card move: `draw` (a number of cards for the player, or `#{ who, cards }`), `swap`
/// (the other hand's player, or `#{ who, with }`), `take` (`#{ who, from }`) or `give`
/// (`#{ who, to }`): a card taken or given is picked at random, as a line's `at random`.
fn card_move(
    key: &str,
    item: &Dynamic,
    bad: &dyn Fn(String) -> ScriptError,
) -> Result<Outcome, ScriptError> {
    let other_key = match key {
        "swap" => "with",
        "take" => "from",
        "give" => "to",
        _ => "cards",
    };
    // The short form: a number of cards, or the other player in words.
    let m = if item.is_int() || item.is_string() {
        let mut m = Map::new();
        m.insert(other_key.into(), item.clone());
        m
    } else {
        fields(item, key, &["who", other_key], bad)?
    };
    let who = who_field(&m, "who", "player", bad)?;
    if key == "draw" {
        let cards = match m.get("cards") {
            None => 1,
            Some(v) => v.as_int().map_err(|_| {
                bad(format!(
                    "`draw`'s `cards` must be a whole number, not {} `{v}`",
                    v.type_name()
                ))
            })?,
        };
        if !(1..=MOST_DRAWN).contains(&cards) {
            return Err(bad(format!(
                "`draw` is {cards} cards, but it must be from 1 to {MOST_DRAWN}"
            )));
        }
        return Ok(Outcome {
            who,
            kind: OutcomeKind::Draw(Amount::Fixed(cards as i32)),
        });
    }
    if !m.contains_key(other_key) {
        return Err(bad(format!(
            "`{key}` needs `{other_key}`: the other player, like `{key}: \"next\"`"
        )));
    }
    let other = who_field(&m, other_key, "next", bad)?;
    if matches!(other, Who::Player | Who::EachOther | Who::Every) {
        return Err(bad(format!(
            "`{key}`'s `{other_key}` must be one player other than the player: \"next\", \"after\", \"previous\", \"laid previous\", \"richest\" or \"poorest\""
        )));
    }
    let kind = match key {
        "swap" => OutcomeKind::SwapHands(other),
        "take" => OutcomeKind::TakeCard(other),
        _ => OutcomeKind::GiveCard(other),
    };
    Ok(Outcome { who, kind })
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
    let example = match what {
        "pay" => "#{ who: \"each other\", amount: 1 }",
        "gain" => "#{ who: \"player\", amount: 1, from: \"bank\" }",
        "draw" => "#{ who: \"each other\", cards: 1 }",
        "swap" => "#{ who: \"player\", with: \"next\" }",
        "take" => "#{ who: \"player\", from: \"next\" }",
        "give" => "#{ who: \"player\", to: \"before\" }",
        _ => "#{ name: \"points\", who: \"player\", add: 1 }",
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
