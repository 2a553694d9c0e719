//! Move notation both ways: `AS:11`, `9H`, `KC>2`, `discard KS`, `stock`, `pass`, `yield`,
//! `draw` as a player types them.

use super::Ruleset;
use crate::base::cards::{Card, card_name, parse_card, rank_of, same_face};
use crate::engine::{Move, State};
use crate::ir::{OtherKind, OtherMove};

/// `AS:11`, `9H`, `KC>2` (a King naming seat 2), `discard KS`, `stock`, `pass`, `yield`,
/// `draw`: a move as a player types it. A card with one choice has no colon.
pub fn move_name(p: &Ruleset, s: &State, mv: Move) -> String {
    let card_move = |card: Card, choice: u8| match s.effect(p, rank_of(card)) {
        Some(fx) if fx.len > 1 => {
            format!("{}:{}", card_name(card), fx.labels[usize::from(choice)])
        }
        _ => card_name(card),
    };
    match mv {
        Move::Draw => "draw".to_string(),
        Move::Play { card, choice } => card_move(card, choice),
        Move::Aim { card, choice, seat } => format!("{}>{seat}", card_move(card, choice)),
        Move::Give { card, choice, gift } => {
            format!("{} give {}", card_move(card, choice), card_name(gift))
        }
        Move::Other { index, card } => match p.others.get(usize::from(index)) {
            Some(o) if o.names_card() => format!("{} {}", o.word(), card_name(card)),
            Some(o) => o.word().to_string(),
            None => "?".to_string(),
        },
        Move::Yield => "yield".to_string(),
    }
}

/// The moves that lay `card` with `choice` naming each player it may name, when that choice
/// names a player (`KC>1 or KC>2`), for a move typed without one.
pub fn player_options(p: &Ruleset, s: &State, card: Card, choice: u8) -> Option<String> {
    options(
        p,
        s,
        |m| matches!(m, Move::Aim { card: c, choice: k, .. } if same_face(c, card) && k == choice),
    )
}

/// The moves that lay `card` with `choice` giving each card it may give, when that choice
/// gives a card of the player's choice (`5C give 2C or 5C give KS`), for a move typed
/// without one.
pub fn gift_options(p: &Ruleset, s: &State, card: Card, choice: u8) -> Option<String> {
    options(
        p,
        s,
        |m| matches!(m, Move::Give { card: c, choice: k, .. } if same_face(c, card) && k == choice),
    )
}

/// The legal moves `pick` keeps, by name: `` `KC>1` or `KC>2` ``; `None` when it keeps none.
fn options(p: &Ruleset, s: &State, pick: impl Fn(Move) -> bool) -> Option<String> {
    let names: Vec<String> = s
        .legal_moves(p)
        .as_slice()
        .iter()
        .filter(|m| pick(**m))
        .map(|m| format!("`{}`", move_name(p, s, *m)))
        .collect();
    (!names.is_empty()).then(|| names.join(" or "))
}

/// Why a typed move cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("`{0}` is not a card: write a rank and a suit, like `9H`, `10S` or `AS:11`")]
    NotACard(String),
    #[error("{card} needs a choice: {options}")]
    NeedsChoice { card: String, options: String },
    #[error("{card} has no choice `{choice}`: {options}")]
    NoSuchChoice {
        card: String,
        choice: String,
        options: String,
    },
    /// A choice named on a card that has none (`AS:1` where the Ace only adds 11): played
    /// as written it would mean nothing, so it is refused rather than ignored.
    #[error("{card} has no choice to make: write `{card}`, without `:{choice}`")]
    NoChoices { card: String, choice: String },
    /// A card that names a player as it is laid, typed without one.
    #[error("{card} names a player as it is laid: {options} (the number after `>` is the seat)")]
    NeedsPlayer { card: String, options: String },
    #[error("`{0}` is not a seat: write the seat's number after `>`, like `KC>2`")]
    NotASeat(String),
    /// A card that gives a card of the player's choice as it is laid, typed without one.
    #[error("{card} gives a card of your choice as it is laid: {options}")]
    NeedsGift { card: String, options: String },
    #[error(
        "`{0}` is not a card to give: write one of your hand's after `give`, like `5C give KS`"
    )]
    NotAGift(String),
    #[error("{0}")]
    NoSuchMove(String),
}

/// Reads a move: `9H`, `AS:11`, `10H:-10`, `AS:+11`, `AS:high`, `KC>2`, `discard KS`,
/// `stock`, `pass`, `yield`, `draw`.
pub fn parse_move(p: &Ruleset, s: &State, text: &str) -> Result<Move, MoveError> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("draw") {
        return Ok(Move::Draw);
    }
    if text.eq_ignore_ascii_case("yield") {
        return Ok(Move::Yield);
    }
    if let Some(mv) = other_move(p, s, text)? {
        return Ok(mv);
    }
    // `5C give KS`: the card laid, and the card of the hand it gives.
    let lower = text.to_ascii_lowercase();
    if let Some(at) = lower.find(" give ") {
        let gift_text = text[at + " give ".len()..].trim();
        let gift =
            parse_card(gift_text).ok_or_else(|| MoveError::NotAGift(gift_text.to_string()))?;
        return match card_move(p, s, text[..at].trim())? {
            Move::Play { card, choice } => Ok(Move::Give { card, choice, gift }),
            mv => Ok(mv),
        };
    }
    // `KC>2`: the seat after the last `>`. A label may hold `>` itself (`KC:<x>`, which the
    // table offers as it is): text whose tail is no seat is read whole first.
    let (text, seat) = match text.rsplit_once('>') {
        Some((t, seat)) => {
            let seat = seat.trim();
            match seat.parse::<u8>() {
                Ok(n) => (t.trim(), Some(n)),
                Err(_) if card_move(p, s, text).is_ok() => (text, None),
                Err(_) => return Err(MoveError::NotASeat(seat.to_string())),
            }
        }
        None => (text, None),
    };
    let mv = card_move(p, s, text)?;
    match (mv, seat) {
        (Move::Play { card, choice }, Some(seat)) => Ok(Move::Aim { card, choice, seat }),
        (Move::Play { card, choice }, None) => {
            if let Some(options) = player_options(p, s, card, choice) {
                return Err(MoveError::NeedsPlayer {
                    card: card_name(card),
                    options,
                });
            }
            match gift_options(p, s, card, choice) {
                Some(options) => Err(MoveError::NeedsGift {
                    card: card_name(card),
                    options,
                }),
                None => Ok(mv),
            }
        }
        (mv, _) => Ok(mv),
    }
}

/// A move beside laying a card, by its word: `discard KS`, `stock`, `pass`; `None` for text
/// that starts with no such word.
fn other_move(p: &Ruleset, s: &State, text: &str) -> Result<Option<Move>, MoveError> {
    let (word, rest) = text
        .split_once(char::is_whitespace)
        .map_or((text, ""), |(w, r)| (w, r.trim()));
    let word = word.to_ascii_lowercase();
    if !matches!(word.as_str(), "discard" | "stock" | "pass") {
        return Ok(None);
    }
    let found = |f: &dyn Fn(&OtherMove) -> bool| p.others.iter().position(f).map(|i| i as u8);
    let index = match word.as_str() {
        "discard" => {
            let card = parse_card(rest).ok_or_else(|| {
                MoveError::NoSuchMove(
                    "`discard` needs a card of the hand: write it like `discard KS`".to_string(),
                )
            })?;
            let card = s.hands[usize::from(s.turn)]
                .cards()
                .iter()
                .copied()
                .find(|c| same_face(*c, card))
                .unwrap_or(card);
            let index =
                found(&|o| matches!(o.kind, OtherKind::Discard(r) if r & 1 << rank_of(card) != 0));
            return match index {
                Some(index) => Ok(Some(Move::Other { index, card })),
                None if p.others.iter().any(|o| o.names_card()) => Err(MoveError::NoSuchMove(
                    format!("the rules let no one discard {}", card_name(card)),
                )),
                None => Err(MoveError::NoSuchMove(
                    "the rules let no one discard a card".to_string(),
                )),
            };
        }
        "stock" => found(&|o| o.kind == OtherKind::LayTop),
        _ => found(&|o| o.kind == OtherKind::Pass),
    };
    match index {
        Some(index) => Ok(Some(Move::Other { index, card: 0 })),
        None => Err(MoveError::NoSuchMove(format!(
            "`{word}` is not a move of these rules"
        ))),
    }
}

/// A card and its choice: `9H`, `AS:11`.
fn card_move(p: &Ruleset, s: &State, text: &str) -> Result<Move, MoveError> {
    let (card_text, choice_text) = match text.split_once(':') {
        Some((c, k)) => (c, Some(k.trim())),
        None => (text, None),
    };
    let card = parse_card(card_text).ok_or_else(|| MoveError::NotACard(text.to_string()))?;
    // Use the copy the player holds, if any.
    let card: Card = s.hands[usize::from(s.turn)]
        .cards()
        .iter()
        .copied()
        .find(|c| same_face(*c, card))
        .unwrap_or(card);
    let Some(fx) = s.effect(p, rank_of(card)) else {
        return Ok(Move::Play { card, choice: 0 });
    };
    let options = || {
        fx.labels
            .iter()
            .map(|l| format!("`{}:{l}`", card_name(card)))
            .collect::<Vec<_>>()
            .join(" or ")
    };
    let choice = match choice_text {
        None if fx.len > 1 => {
            return Err(MoveError::NeedsChoice {
                card: card_name(card),
                options: options(),
            });
        }
        None => 0,
        Some(k) if fx.len == 1 => {
            return Err(MoveError::NoChoices {
                card: card_name(card),
                choice: k.to_string(),
            });
        }
        Some(k) => {
            let k_plain = k.strip_prefix('+').unwrap_or(k);
            match fx
                .labels
                .iter()
                .position(|l| l.eq_ignore_ascii_case(k_plain) || l.eq_ignore_ascii_case(k))
            {
                Some(i) => i as u8,
                None => {
                    return Err(MoveError::NoSuchChoice {
                        card: card_name(card),
                        choice: k.to_string(),
                        options: options(),
                    });
                }
            }
        }
    };
    Ok(Move::Play { card, choice })
}

/// Every legal move, named, separated by spaces.
pub fn legal_list(p: &Ruleset, s: &State) -> String {
    let moves = s.legal_moves(p);
    if moves.is_empty() {
        return "none".to_string();
    }
    let names: Vec<String> = moves
        .as_slice()
        .iter()
        .map(|m| move_name(p, s, *m))
        .collect();
    // A move of two words (`discard KS`, `5C give KS`) is told from the next by a comma.
    let sep = if names.iter().any(|n| n.contains(' ')) {
        ", "
    } else {
        " "
    };
    names.join(sep)
}
