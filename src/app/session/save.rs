//! The save file's format, a type of its own: what a saved game holds, written and read with
//! explicit conversions to and from the engine's state, so a change inside the engine never
//! changes a file strangers exchange without the format's version changing with it.
//!
//! Version 3 (written now) is version 2 and what the table keeps besides the cards and the
//! chips: the ruleset's counts, where the round began, the moments that have run, and who
//! knows which card of another's hand. Version 2 names every card (`AS`, `10H`; a second
//! deck's copy `AS/2`) and every set of seats as a list; it is read by the same shape, its
//! missing fields taken as a game that keeps nothing. Version 1 (the engine's state as it was
//! serialized then) is still read, through a frozen copy of its shape. A file of any other
//! version is refused with its number, and left as it is.

use serde::{Deserialize, Serialize};

use super::Seat;
use crate::base::Rng;
use crate::base::cards::{COPY, Card, RANK_NAMES, RANKS, card_name, parse_card, parse_rank};
use crate::engine::{Hand, Kept, Pile, Stall, State};
use crate::ir::{MAX_HAND, MAX_SEATS};

/// The format version this build writes.
pub const SAVE_VERSION: u32 = 3;

/// The versions this build reads.
pub const READS: [u32; 3] = [1, 2, 3];

/// The name every save file carries.
pub const FORMAT: &str = "ninety-save";

/// What a save holds besides the game: which rules, which options, who sits where, what
/// happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    pub ruleset: String,
    pub ruleset_name: String,
    pub ruleset_hash: String,
    pub sets: Vec<(String, String)>,
    pub seed: u64,
    pub seats: Vec<Seat>,
    pub log: Vec<String>,
}

/// A save read back: its header and the game, not yet checked against the rules.
#[derive(Debug)]
pub struct Loaded {
    pub header: Header,
    pub state: State,
}

/// The file, versions 2 and 3 (the fields version 3 added are optional).
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileV2 {
    format: String,
    version: u32,
    ruleset: String,
    ruleset_name: String,
    ruleset_hash: String,
    sets: Vec<(String, String)>,
    seed: u64,
    seats: Vec<Seat>,
    state: GameV2,
    log: Vec<String>,
}

/// The game, versions 2 and 3: every field the engine's state holds, in words a person can read.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct GameV2 {
    players: u8,
    /// Each seat's hand, seat 0 first.
    hands: Vec<Vec<String>>,
    /// The stock, its top card last.
    stock: Vec<String>,
    /// The discard pile, its top card last.
    discard: Vec<String>,
    /// Cards out of play face up until the next deal.
    aside: Vec<String>,
    /// Cards out of play face down until the next deal.
    face_down: Vec<String>,
    /// The top of the stock at the next deal, top first.
    next_deal: Vec<String>,
    total: i32,
    clockwise: bool,
    turn: u8,
    /// Chips by account: a seat's own, or its team's (the first accounts).
    chips: Vec<i32>,
    bank: i32,
    pot: i32,
    round: u32,
    dealer: u8,
    out_of_game: Vec<u8>,
    out_of_round: Vec<u8>,
    /// Draws each seat forgot, by seat.
    forgot: Vec<u8>,
    pending_draw: Option<u8>,
    round_winner: Option<u8>,
    round_loser: Option<u8>,
    round_over: bool,
    over: bool,
    winners: Vec<u8>,
    turns: u64,
    again: u8,
    /// By seat, the ranks the table knows that seat does not hold.
    known_not: Vec<Vec<String>>,
    out_now: Vec<u8>,
    declared: Vec<u8>,
    /// Who laid the top card of the discard pile, and the one under it.
    laid_by: [Option<u8>; 2],
    /// The game's random stream.
    rng: [u64; 4],
    /// `no cards` or `no play`: the game stopped as unable to go on.
    stuck: Option<String>,
    /// The ruleset's counts: count `i` of seat `x` at `i * 12 + x` (a count of the table's
    /// at `x = 0`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    counts: Vec<i32>,
    /// The cards laid in the game when this round began (version 3; a file of version 2,
    /// without it, is taken to begin the round where it stands).
    #[serde(default)]
    round_began: Option<u64>,
    /// The run of one rank the discard pile held when last gathered: the rank of its top
    /// card and how many of that rank lay under it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    run_carry: Option<(String, u8)>,
    /// The `when N players are left` moments that have run, by N.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    left_fired: Vec<u8>,
    /// Cards a rule moved between hands in sight of other players: each card, and the seats
    /// that know which hand holds it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    seen: Vec<(String, Vec<u8>)>,
    /// Players a line said to skip when the turn next passes.
    #[serde(default, skip_serializing_if = "is_zero")]
    skips: u8,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// The file, version 1: the engine's state as it was serialized then, frozen here.
#[derive(Debug, Deserialize)]
struct FileV1 {
    format: String,
    version: u32,
    ruleset: String,
    ruleset_name: String,
    ruleset_hash: String,
    sets: Vec<(String, String)>,
    seed: u64,
    seats: Vec<Seat>,
    state: GameV1,
    log: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct HandV1 {
    cards: [Card; MAX_HAND],
    len: u8,
}

#[derive(Debug, Deserialize)]
struct GameV1 {
    seats: u8,
    hands: [HandV1; MAX_SEATS],
    stock: Vec<Card>,
    discard: Vec<Card>,
    aside: Vec<Card>,
    #[serde(default)]
    face_down: Vec<Card>,
    total: i32,
    clockwise: bool,
    turn: u8,
    chips: [i32; MAX_SEATS],
    bank: i32,
    pot: i32,
    round: u32,
    dealer: u8,
    out_of_game: u16,
    out_of_round: u16,
    forgot: [u8; MAX_SEATS],
    pending_draw: Option<u8>,
    round_winner: Option<u8>,
    round_loser: Option<u8>,
    round_over: bool,
    over: bool,
    winners: u16,
    turns: u64,
    #[serde(default)]
    again: u8,
    #[serde(default)]
    known_not: [u16; MAX_SEATS],
    #[serde(default)]
    out_now: u16,
    #[serde(default)]
    declared: u16,
    #[serde(default = "nobody_laid")]
    laid_by: [u8; 2],
    #[serde(default)]
    next_deal: Vec<Card>,
    rng: [u64; 4],
    #[serde(default)]
    stuck: Option<StallV1>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
enum StallV1 {
    NoCards,
    NoPlay,
}

fn nobody_laid() -> [u8; 2] {
    [NO_SEAT; 2]
}

/// No seat, in the engine's state.
const NO_SEAT: u8 = u8::MAX;

/// The header fields every version shares, read first to know which version this is.
#[derive(Debug, Deserialize)]
struct Head {
    format: String,
    version: u32,
}

/// A game written as a save file of the current version.
pub fn write(header: &Header, s: &State) -> Result<String, String> {
    let file = FileV2 {
        format: FORMAT.into(),
        version: SAVE_VERSION,
        ruleset: header.ruleset.clone(),
        ruleset_name: header.ruleset_name.clone(),
        ruleset_hash: header.ruleset_hash.clone(),
        sets: header.sets.clone(),
        seed: header.seed,
        seats: header.seats.clone(),
        state: GameV2::of(s),
        log: header.log.clone(),
    };
    serde_json::to_string_pretty(&file).map_err(|e| e.to_string())
}

/// A save file read back, of any version this build reads; why not in words.
pub fn read(bytes: &[u8]) -> Result<Loaded, String> {
    let corrupt = |e: serde_json::Error| {
        if e.is_eof() {
            "the file is truncated".to_string()
        } else {
            format!("the file is not a saved game, or it is corrupt ({e})")
        }
    };
    let head: Head = serde_json::from_slice(bytes).map_err(corrupt)?;
    if head.format != FORMAT {
        return Err("the file is not a ninety saved game".into());
    }
    match head.version {
        1 => {
            let f: FileV1 = serde_json::from_slice(bytes).map_err(corrupt)?;
            let _ = (f.format, f.version);
            Ok(Loaded {
                header: Header {
                    ruleset: f.ruleset,
                    ruleset_name: f.ruleset_name,
                    ruleset_hash: f.ruleset_hash,
                    sets: f.sets,
                    seed: f.seed,
                    seats: f.seats,
                    log: f.log,
                },
                state: f.state.into_state()?,
            })
        }
        // Version 3 added what the table keeps (counts, moments run, cards known in another's
        // hand) to version 2, as fields version 2 lacks.
        2 | 3 => {
            let f: FileV2 = serde_json::from_slice(bytes).map_err(corrupt)?;
            let _ = (f.format, f.version);
            Ok(Loaded {
                state: f.state.into_state()?,
                header: Header {
                    ruleset: f.ruleset,
                    ruleset_name: f.ruleset_name,
                    ruleset_hash: f.ruleset_hash,
                    sets: f.sets,
                    seed: f.seed,
                    seats: f.seats,
                    log: f.log,
                },
            })
        }
        v => Err(format!(
            "it was saved in save format {v}, and this ninety reads formats {}, {} and {}: open it with the ninety that saved it",
            READS[0], READS[1], READS[2]
        )),
    }
}

/// A card as a save names it: `AS`, and `AS/2` for the second deck's copy.
fn card_word(c: Card) -> String {
    match c / COPY {
        0 => card_name(c),
        copy => format!("{}/{}", card_name(c), copy + 1),
    }
}

/// A card named as [`card_word`] names it.
fn word_card(w: &str) -> Result<Card, String> {
    let bad = || format!("the file is corrupt (`{}` is not a card)", clip(w));
    let (face, copy) = match w.split_once('/') {
        Some((face, copy)) => (face, copy.parse::<u8>().map_err(|_| bad())?),
        None => (w, 1),
    };
    let c = parse_card(face).ok_or_else(bad)?;
    let code = u16::from(copy.checked_sub(1).ok_or_else(bad)?) * u16::from(COPY) + u16::from(c);
    Card::try_from(code).map_err(|_| bad())
}

fn clip(w: &str) -> String {
    w.chars().take(12).collect()
}

fn words(cards: &[Card]) -> Vec<String> {
    cards.iter().map(|&c| card_word(c)).collect()
}

fn cards(words: &[String]) -> Result<Vec<Card>, String> {
    words.iter().map(|w| word_card(w)).collect()
}

/// The seats of a set, in order.
fn seat_list(set: u16) -> Vec<u8> {
    (0..16).filter(|x| set & (1 << x) != 0).collect()
}

/// A set of seats from its list.
fn seat_set(list: &[u8]) -> Result<u16, String> {
    list.iter().try_fold(0u16, |set, &x| {
        if usize::from(x) < MAX_SEATS {
            Ok(set | 1 << x)
        } else {
            Err(format!("the file is corrupt (there is no seat {x})"))
        }
    })
}

/// Who knows which cards a hand holds, by card id, from the save's list (empty when no one
/// knows any). Which hand holds a card, and whether it is in one, `engine::validate` checks.
fn seen_table(list: &[(String, Vec<u8>)]) -> Result<Vec<u16>, String> {
    if list.is_empty() {
        return Ok(Vec::new());
    }
    if list.len() > MAX_SEATS * MAX_HAND {
        return Err("the file is corrupt (it says more cards are known than hands hold)".into());
    }
    let mut seen = vec![0u16; 256];
    for (word, seats) in list {
        seen[usize::from(word_card(word)?)] = seat_set(seats)?;
    }
    Ok(seen)
}

/// Exactly `MAX_SEATS` values from a list of at most that many, the rest `fill`.
fn by_seat<T: Copy>(list: &[T], fill: T, what: &str) -> Result<[T; MAX_SEATS], String> {
    if list.len() > MAX_SEATS {
        return Err(format!("the file is corrupt (too many {what})"));
    }
    let mut out = [fill; MAX_SEATS];
    out[..list.len()].copy_from_slice(list);
    Ok(out)
}

fn stall_word(s: Stall) -> String {
    match s {
        Stall::NoCards => "no cards".into(),
        Stall::NoPlay => "no play".into(),
    }
}

impl GameV2 {
    fn of(s: &State) -> GameV2 {
        let n = usize::from(s.seats);
        let ranks = |set: u16| -> Vec<String> {
            (0..RANKS)
                .filter(|r| set & (1 << r) != 0)
                .map(|r| RANK_NAMES[r].to_string())
                .collect()
        };
        let seat = |x: u8| (x != NO_SEAT).then_some(x);
        GameV2 {
            players: s.seats,
            hands: s.hands[..n].iter().map(|h| words(h.cards())).collect(),
            stock: words(&s.stock),
            discard: words(&s.discard),
            aside: words(&s.aside),
            face_down: words(&s.face_down),
            next_deal: words(&s.next_deal),
            total: s.total,
            clockwise: s.clockwise,
            turn: s.turn,
            chips: s.chips[..n].to_vec(),
            bank: s.bank,
            pot: s.pot,
            round: s.round,
            dealer: s.dealer,
            out_of_game: seat_list(s.out_of_game),
            out_of_round: seat_list(s.out_of_round),
            forgot: s.forgot[..n].to_vec(),
            pending_draw: s.pending_draw,
            round_winner: s.round_winner,
            round_loser: s.round_loser,
            round_over: s.round_over,
            over: s.over,
            winners: seat_list(s.winners),
            turns: s.turns,
            again: s.again,
            known_not: s.known_not[..n].iter().map(|&k| ranks(k)).collect(),
            out_now: seat_list(s.out_now),
            declared: seat_list(s.declared),
            laid_by: [seat(s.laid_by[0]), seat(s.laid_by[1])],
            rng: s.rng.words(),
            stuck: s.stuck.map(stall_word),
            counts: s.kept.counts.clone(),
            round_began: Some(s.kept.round_began),
            run_carry: (s.kept.run_carry.1 > 0).then(|| {
                (
                    RANK_NAMES[usize::from(s.kept.run_carry.0)].to_string(),
                    s.kept.run_carry.1,
                )
            }),
            left_fired: seat_list(s.kept.left_fired),
            skips: s.kept.skips,
            seen: s.hands[..n]
                .iter()
                .flat_map(|h| h.cards())
                .filter(|&&c| s.seen_by(c) != 0)
                .map(|&c| (card_word(c), seat_list(s.seen_by(c))))
                .collect(),
        }
    }

    fn into_state(self) -> Result<State, String> {
        let n = usize::from(self.players);
        if !(2..=MAX_SEATS).contains(&n) || self.hands.len() != n {
            return Err("the file is corrupt (its table)".into());
        }
        let mut hands = [Hand::default(); MAX_SEATS];
        for (h, words) in hands.iter_mut().zip(&self.hands) {
            *h = Hand::of(&cards(words)?).ok_or_else(|| {
                format!("the file is corrupt (a hand holds {} cards)", words.len())
            })?;
        }
        let mut known_not = [0u16; MAX_SEATS];
        if self.known_not.len() > n {
            return Err(format!(
                "the file is corrupt (it says what seat {n} holds, at a table of {n})"
            ));
        }
        for (k, names) in known_not.iter_mut().zip(&self.known_not) {
            for name in names {
                let r = parse_rank(name).ok_or_else(|| {
                    format!("the file is corrupt (`{}` is not a rank)", clip(name))
                })?;
                *k |= 1 << r;
            }
        }
        let laid = |x: Option<u8>| x.unwrap_or(NO_SEAT);
        let stuck = match self.stuck.as_deref() {
            None => None,
            Some("no cards") => Some(Stall::NoCards),
            Some("no play") => Some(Stall::NoPlay),
            Some(_) => return Err("the file is corrupt (how the game stopped)".into()),
        };
        let rng = Rng::from_words(self.rng);
        Ok(State {
            seats: self.players,
            hands,
            stock: cards(&self.stock)?,
            discard: Pile::from(cards(&self.discard)?),
            aside: cards(&self.aside)?,
            face_down: cards(&self.face_down)?,
            total: self.total,
            clockwise: self.clockwise,
            turn: self.turn,
            chips: by_seat(&self.chips, 0, "accounts of chips")?,
            bank: self.bank,
            pot: self.pot,
            round: self.round,
            dealer: self.dealer,
            out_of_game: seat_set(&self.out_of_game)?,
            out_of_round: seat_set(&self.out_of_round)?,
            forgot: by_seat(&self.forgot, 0, "seats that forgot to draw")?,
            pending_draw: self.pending_draw,
            round_winner: self.round_winner,
            round_loser: self.round_loser,
            round_over: self.round_over,
            over: self.over,
            winners: seat_set(&self.winners)?,
            turns: self.turns,
            again: self.again,
            known_not,
            out_now: seat_set(&self.out_now)?,
            declared: seat_set(&self.declared)?,
            laid_by: [laid(self.laid_by[0]), laid(self.laid_by[1])],
            next_deal: cards(&self.next_deal)?,
            rng,
            stuck,
            kept: Kept {
                aim: None,
                gift: None,
                counts: self.counts,
                round_began: self.round_began.unwrap_or(self.turns),
                run_carry: match self.run_carry {
                    Some((rank, n)) => (
                        parse_rank(&rank).ok_or_else(|| {
                            format!("the file is corrupt (`{}` is not a rank)", clip(&rank))
                        })?,
                        n,
                    ),
                    None => (0, 0),
                },
                left_fired: seat_set(&self.left_fired)?,
                after_card: false,
                under: None,
                seen: seen_table(&self.seen)?,
                skips: self.skips,
            },
        })
    }
}

impl GameV1 {
    fn into_state(self) -> Result<State, String> {
        let mut hands = [Hand::default(); MAX_SEATS];
        for (h, v1) in hands.iter_mut().zip(&self.hands) {
            *h = Hand::from_slots(v1.cards, v1.len)
                .ok_or_else(|| format!("the file is corrupt (a hand holds {} cards)", v1.len))?;
        }
        Ok(State {
            seats: self.seats,
            hands,
            stock: self.stock,
            discard: Pile::from(self.discard),
            aside: self.aside,
            face_down: self.face_down,
            total: self.total,
            clockwise: self.clockwise,
            turn: self.turn,
            chips: self.chips,
            bank: self.bank,
            pot: self.pot,
            round: self.round,
            dealer: self.dealer,
            out_of_game: self.out_of_game,
            out_of_round: self.out_of_round,
            forgot: self.forgot,
            pending_draw: self.pending_draw,
            round_winner: self.round_winner,
            round_loser: self.round_loser,
            round_over: self.round_over,
            over: self.over,
            winners: self.winners,
            turns: self.turns,
            again: self.again,
            known_not: self.known_not,
            out_now: self.out_now,
            declared: self.declared,
            laid_by: self.laid_by,
            next_deal: self.next_deal,
            rng: Rng::from_words(self.rng),
            stuck: self.stuck.map(|s| match s {
                StallV1::NoCards => Stall::NoCards,
                StallV1::NoPlay => Stall::NoPlay,
            }),
            // Version 1 knew no counts: where the game was, this round began.
            kept: Kept {
                round_began: self.turns,
                ..Kept::default()
            },
        })
    }
}
