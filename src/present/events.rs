//! Events as sentences of a transcript and as JSON objects, and the state as JSON. Shared by
//! `ninety run`, scenarios and the REPL.

use serde_json::{Value, json};

use crate::base::cards::card_name;
use crate::engine::{Event, PayTo, State};
use crate::ir::{Program, Quantity};

fn to_words(to: PayTo) -> String {
    match to {
        PayTo::Bank => "the bank".into(),
        PayTo::Pot => "the pot".into(),
        PayTo::Seat(s) => format!("seat {s}"),
    }
}

/// The label of the choice a card was played with, when its effect offers several.
fn choice_label(p: &Program, fx: u16, choice: u8) -> Option<String> {
    p.effects
        .get(usize::from(fx))
        .filter(|fx| fx.len > 1)
        .and_then(|fx| fx.labels.get(usize::from(choice)).cloned())
}

/// How the direction of play is said: `clockwise` or `counterclockwise`.
pub fn direction_word(clockwise: bool) -> &'static str {
    if clockwise {
        "clockwise"
    } else {
        "counterclockwise"
    }
}

/// The verb for a subject: "You play", "Seat 1 plays".
fn verb<'a>(name: &str, third: &'a str, plain: &'a str) -> &'a str {
    if name == "You" { plain } else { third }
}

/// An event as a sentence of the transcript (empty for an event the next one tells).
pub fn event_text(p: &Program, e: &Event, names: &dyn Fn(u8) -> String) -> String {
    let v = |seat: u8, third: &'static str, plain: &'static str| {
        let n = names(seat);
        let word = verb(&n, third, plain);
        format!("{n} {word}")
    };
    match *e {
        Event::Deal {
            round,
            dealer,
            leader,
        } => {
            format!(
                "Round {round}: {}, {}.",
                v(dealer, "deals", "deal"),
                v(leader, "leads", "lead")
            )
        }
        Event::Play {
            seat,
            card,
            choice,
            total,
            fx,
        } => {
            let shown = match choice_label(p, fx, choice) {
                Some(label) => format!("{}:{label}", card_name(card)),
                None => card_name(card),
            };
            format!("{} {shown}: total {total}.", v(seat, "plays", "play"))
        }
        Event::Draw { seat } => format!("{}.", v(seat, "draws", "draw")),
        Event::Forgot { seat } => format!("{} forgot to draw.", names(seat)),
        Event::Reshuffle { cards } => format!(
            "The stock is empty: the discard pile but its top card ({cards} card{}) is shuffled into a new stock.",
            if cards == 1 { "" } else { "s" }
        ),
        Event::Skip { seat } => format!("{} skipped.", v(seat, "is", "are")),
        Event::Reverse { clockwise } => {
            format!("Play turns {}.", direction_word(clockwise))
        }
        Event::PlayAgain { seat } => format!("{} again.", v(seat, "plays", "play")),
        Event::CannotPlay { seat } => format!("{} cannot play.", names(seat)),
        Event::NoCards { seat } => format!("{} no cards.", v(seat, "has", "have")),
        Event::Pay {
            seat,
            amount,
            to,
            reason,
            ..
        } => {
            format!(
                "{} {amount} to {} ({reason}).",
                v(seat, "pays", "pay"),
                to_words(to)
            )
        }
        // The payment that follows names the bar: a transcript says it once.
        Event::Bar { .. } => String::new(),
        Event::TakePot { seat, amount } => {
            format!("{} the pot: {amount} chips.", v(seat, "takes", "take"))
        }
        Event::Gain { seat, amount, from } => format!(
            "{} {amount} from {}.",
            v(seat, "takes", "take"),
            to_words(from)
        ),
        Event::OutOfRound { seat } => format!("{} out of the round.", v(seat, "is", "are")),
        Event::Eliminated { seat } => format!("{} out of the game.", v(seat, "is", "are")),
        Event::TotalReset { total } => format!("The total goes back to {total}."),
        Event::RoundEnd {
            round,
            winner,
            loser,
            ..
        } => {
            let mut s = format!("Round {round} ends");
            if let Some(w) = winner {
                s.push_str(&format!(", won by {}", names(w)));
            }
            if let Some(l) = loser {
                s.push_str(&format!(", lost by {}", names(l)));
            }
            s.push('.');
            s
        }
        Event::GameEnd { winners } => {
            let list: Vec<String> = (0..16u8)
                .filter(|x| winners & (1 << x) != 0)
                .map(names)
                .collect();
            match list.len() {
                0 => "The game ends with no winner.".to_string(),
                1 => format!(
                    "The game ends: {} {}.",
                    list[0],
                    verb(&list[0], "wins", "win")
                ),
                _ => format!("The game ends: {} share the win.", list.join(" and ")),
            }
        }
        // The rule's own events follow: said by them.
        Event::Moment { .. } => String::new(),
        Event::Changed {
            seat,
            what,
            from,
            to,
        } => changed_text(p, seat, what, from, to, names),
        Event::Drew { seat, cards } => format!(
            "{} {cards} {}.",
            v(seat, "draws", "draw"),
            if cards == 1 { "card" } else { "cards" }
        ),
        Event::Swapped { seat, with } => {
            format!(
                "{} hands with {}.",
                v(seat, "swaps", "swap"),
                object(&names(with))
            )
        }
        Event::Handed { from, to, .. } => {
            format!(
                "{} a card to {}.",
                v(from, "hands", "hand"),
                object(&names(to))
            )
        }
        Event::Other {
            seat,
            index,
            card,
            laid,
        } => other_text(p, index, card, laid, &names(seat)),
        Event::Chose { seat, chosen, next } => format!(
            "{} {}{}.",
            v(seat, "names", "name"),
            object(&names(chosen)),
            if next { " to play next" } else { "" }
        ),
    }
}

/// A move beside laying a card (`Event::Other`) as a sentence.
fn other_text(p: &Program, index: u8, card: u8, laid: bool, name: &str) -> String {
    let v =
        |third: &'static str, plain: &'static str| format!("{name} {}", verb(name, third, plain));
    match p.others.get(usize::from(index)).map(|o| o.kind) {
        Some(crate::ir::OtherKind::Discard(_)) => format!(
            "{} {} instead of laying a card.",
            v("discards", "discard"),
            card_name(card)
        ),
        Some(crate::ir::OtherKind::LayTop) if laid => {
            format!(
                "{} {} from the stock.",
                v("turns up", "turn up"),
                card_name(card)
            )
        }
        Some(crate::ir::OtherKind::LayTop) => format!(
            "{} {} from the stock: it cannot be laid, and goes onto the discard pile.",
            v("turns up", "turn up"),
            card_name(card)
        ),
        Some(crate::ir::OtherKind::Pass) | None => format!("{}.", v("passes", "pass")),
    }
}

/// A count the table keeps changed by a rule, as a sentence.
fn changed_text(
    p: &Program,
    seat: u8,
    what: Quantity,
    from: i32,
    to: i32,
    names: &dyn Fn(u8) -> String,
) -> String {
    let whose = |thing: &str| {
        let n = names(seat);
        if n == "You" {
            format!("Your {thing}")
        } else {
            format!("{n}'s {thing}")
        }
    };
    let named = match what {
        Quantity::Total => "The total".to_string(),
        Quantity::Chips => whose("chips"),
        Quantity::Count(i) => match p.counts.get(usize::from(i)) {
            Some(c) if c.per_player => whose(&c.name),
            Some(c) => format!("The {}", c.name),
            None => "A count".to_string(),
        },
        Quantity::Limit
        | Quantity::Round
        | Quantity::RoundCards
        | Quantity::Run
        | Quantity::PlayersLeft
        | Quantity::PlayersInRound
        | Quantity::Stock
        | Quantity::Pot
        | Quantity::Cards => "A count".to_string(),
    };
    format!("{named}: {from} → {to}.")
}

/// A name as the object of a sentence: "you", "Seat 2".
fn object(name: &str) -> String {
    if name == "You" {
        "you".into()
    } else {
        name.into()
    }
}

/// A count's name in JSON: `total`, `chips`, or the ruleset's own name.
fn quantity_name(p: &Program, q: Quantity) -> String {
    match q {
        Quantity::Count(i) => p
            .counts
            .get(usize::from(i))
            .map_or_else(|| format!("count {i}"), |c| c.name.clone()),
        Quantity::Total => "total".into(),
        Quantity::Chips => "chips".into(),
        Quantity::Limit => "limit".into(),
        Quantity::Round => "round".into(),
        Quantity::RoundCards => "round_cards".into(),
        Quantity::Run => "run".into(),
        Quantity::PlayersLeft => "players_left".into(),
        Quantity::PlayersInRound => "players_in_round".into(),
        Quantity::Stock => "stock".into(),
        Quantity::Pot => "pot".into(),
        Quantity::Cards => "cards".into(),
    }
}

/// An event as one JSON object with an `"event"` field.
pub fn event_json(p: &Program, e: &Event) -> Value {
    match *e {
        Event::Deal {
            round,
            dealer,
            leader,
        } => json!({"event": "deal", "round": round, "dealer": dealer, "leader": leader}),
        Event::Play {
            seat,
            card,
            choice,
            total,
            fx,
        } => {
            let label = choice_label(p, fx, choice);
            json!({"event": "play", "seat": seat, "card": card_name(card), "choice": label, "total": total})
        }
        Event::Draw { seat } => json!({"event": "draw", "seat": seat}),
        Event::Forgot { seat } => json!({"event": "forgot", "seat": seat}),
        Event::Reshuffle { cards } => json!({"event": "reshuffle", "cards": cards}),
        Event::Skip { seat } => json!({"event": "skip", "seat": seat}),
        Event::Reverse { clockwise } => {
            json!({"event": "reverse", "direction": if clockwise { "cw" } else { "ccw" }})
        }
        Event::PlayAgain { seat } => json!({"event": "play_again", "seat": seat}),
        Event::CannotPlay { seat } => json!({"event": "cannot_play", "seat": seat}),
        Event::NoCards { seat } => json!({"event": "no_cards", "seat": seat}),
        Event::Pay {
            seat,
            amount,
            to,
            reason,
            ..
        } => {
            let to = match to {
                PayTo::Bank => json!("bank"),
                PayTo::Pot => json!("pot"),
                PayTo::Seat(s) => json!(s),
            };
            json!({"event": "pay", "seat": seat, "amount": amount, "to": to, "reason": reason.to_string()})
        }
        Event::Bar {
            seat,
            value,
            passed,
        } => json!({
            "event": if passed { "bar_passed" } else { "bar_reached" },
            "seat": seat,
            "bar": value
        }),
        Event::TakePot { seat, amount } => {
            json!({"event": "take_pot", "seat": seat, "amount": amount})
        }
        Event::Gain { seat, amount, from } => {
            let from = match from {
                PayTo::Bank => json!("bank"),
                PayTo::Pot => json!("pot"),
                PayTo::Seat(s) => json!(s),
            };
            json!({"event": "gain", "seat": seat, "amount": amount, "from": from})
        }
        Event::OutOfRound { seat } => json!({"event": "out_of_round", "seat": seat}),
        Event::Eliminated { seat } => json!({"event": "eliminated", "seat": seat}),
        Event::TotalReset { total } => json!({"event": "reset", "total": total}),
        Event::RoundEnd {
            round,
            winner,
            loser,
            ..
        } => {
            json!({"event": "round_end", "round": round, "winner": winner, "loser": loser})
        }
        Event::GameEnd { winners } => {
            let list: Vec<u8> = (0..16u8).filter(|x| winners & (1 << x) != 0).collect();
            let winner = if list.len() == 1 {
                json!(list[0])
            } else {
                json!(list)
            };
            json!({"event": "game_end", "winner": winner})
        }
        Event::Moment { seat, rule } => {
            let line = p
                .outcomes
                .get(usize::from(rule))
                .map(|o| p.line_text(o.origin).to_string());
            json!({"event": "moment", "seat": seat, "rule": line})
        }
        Event::Changed {
            seat,
            what,
            from,
            to,
        } => json!({
            "event": "changed",
            "seat": seat,
            "what": quantity_name(p, what),
            "from": from,
            "to": to
        }),
        Event::Drew { seat, cards } => json!({"event": "drew", "seat": seat, "cards": cards}),
        Event::Swapped { seat, with } => json!({"event": "swapped", "seat": seat, "with": with}),
        Event::Handed { from, to, card } => {
            json!({"event": "handed", "from": from, "to": to, "card": card_name(card)})
        }
        Event::Other {
            seat,
            index,
            card,
            laid,
        } => {
            let word = p.others.get(usize::from(index)).map_or("?", |o| o.word());
            let card = (card != 0).then(|| card_name(card));
            json!({"event": "other", "seat": seat, "move": word, "card": card, "laid": laid})
        }
        Event::Chose { seat, chosen, next } => {
            json!({"event": "chose", "seat": seat, "chosen": chosen, "next": next})
        }
    }
}

/// The state as the last object of `run --json`.
pub fn state_json(p: &Program, s: &State) -> Value {
    let n = s.seats;
    let mut v = json!({
        "event": "state",
        "total": s.total,
        "direction": if s.clockwise { "cw" } else { "ccw" },
        "turn": s.turn,
        "chips": (0..n).map(|x| s.chips_of(p, x)).collect::<Vec<_>>(),
        "eliminated": (0..n).filter(|x| !s.in_game(*x)).collect::<Vec<_>>(),
        "out_of_round": (0..n).filter(|x| s.in_game(*x) && !s.in_round(*x)).collect::<Vec<_>>(),
        "round": s.round,
        "hand_sizes": (0..usize::from(n)).map(|x| s.hands[x].len()).collect::<Vec<_>>(),
        "hands": (0..usize::from(n)).map(|x| s.hands[x].cards().iter().map(|c| card_name(*c)).collect::<Vec<_>>()).collect::<Vec<_>>(),
        "stock": s.stock.len(),
        "discard": s.discard.len(),
        "bank": s.bank,
        "pot": s.pot,
        "over": s.over,
        "winners": s.winner_list(),
    });
    if !p.counts.is_empty() {
        v["counts"] = count_values(p, s)
            .into_iter()
            .map(|(name, values)| (name, json!(values)))
            .collect::<serde_json::Map<_, _>>()
            .into();
    }
    v
}

/// The counts the table keeps, by name: a value for each player of a count kept per player,
/// one value for the table's own.
pub fn count_values(p: &Program, s: &State) -> Vec<(String, Vec<i32>)> {
    p.counts
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let values: Vec<i32> = if c.per_player {
                (0..s.seats).map(|x| s.kept.count(p, i as u8, x)).collect()
            } else {
                vec![s.kept.count(p, i as u8, 0)]
            };
            (c.name.clone(), values)
        })
        .collect()
}
