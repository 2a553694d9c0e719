//! The built-in bots. They read only the compiled ruleset and what a player at the table can see
//! (their hand, the total, the discard pile, chips), so they play any variant.

use super::Ruleset;
use std::borrow::Cow;

use std::ops::ControlFlow;

use super::weigh::weigh;
use crate::base::Rng;
use crate::engine::{Move, Moves, State};
use crate::ir::{self};

/// A bot strategy, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bot {
    /// Uniform over the legal moves (each choice of a choice card is one move).
    Random,
    /// Plays by the rule texts' tips: pays nothing it can avoid, keeps an escape card once the
    /// total is high, plays big cards while it is low, counts the cards already seen.
    Cautious,
    /// Pushes the next player towards a bust: aims at totals that leave few safe cards among
    /// those not yet seen, and at bars that make the others pay.
    Aggressive,
    /// Determinized Monte Carlo: for each move, samples the unseen cards many times and plays
    /// each sample out with cautious players to the end of the round.
    Search,
    /// Information-set Monte Carlo tree search (`ismcts`, `ismcts:500`, `ismcts:500:game`):
    /// a tree of the mover's information sets, grown over deals of the unseen cards that
    /// agree with what the table knows (see `play::ismcts`). Its play-outs stop at the end of
    /// the round (`round`), or of the game (`:game`).
    Ismcts { iterations: u32, round: bool },
}

impl Bot {
    pub const NAMES: [&'static str; 5] = ["random", "cautious", "aggressive", "search", "ismcts"];

    /// The levels a player picks from, each with the bot that plays it: `easy` is the
    /// random bot, `normal` the cautious one, `hard` the searching `ismcts`.
    pub const LEVELS: [(&'static str, &'static str); 3] = [
        ("easy", "random"),
        ("normal", "cautious"),
        ("hard", "ismcts"),
    ];

    /// Every built-in bot, as a player reads the list: the levels with their bots beside
    /// them, then the bots that are no level: `easy (random), normal (cautious), hard
    /// (ismcts), aggressive and search`.
    pub fn choices_words() -> String {
        let levels = Bot::LEVELS
            .iter()
            .map(|(level, bot)| format!("{level} ({bot})"));
        let others = Bot::NAMES
            .iter()
            .filter(|name| !Bot::LEVELS.iter().any(|(_, bot)| bot == *name))
            .map(|name| (*name).to_string());
        let mut all: Vec<String> = levels.chain(others).collect();
        let last = all.pop().unwrap_or_default();
        if all.is_empty() {
            last
        } else {
            format!("{} and {last}", all.join(", "))
        }
    }

    /// A bot by name or by level (`easy`, `normal`, `hard`); `ismcts` takes its iterations a
    /// move and its horizon after colons (`ismcts:500`, `ismcts:500:game`; the default
    /// horizon is the round's end).
    pub fn from_name(name: &str) -> Option<Bot> {
        let name = Bot::LEVELS
            .iter()
            .find(|(level, _)| *level == name)
            .map_or(name, |(_, bot)| *bot);
        match name {
            "random" => Some(Bot::Random),
            "cautious" => Some(Bot::Cautious),
            "aggressive" => Some(Bot::Aggressive),
            "search" => Some(Bot::Search),
            _ => {
                let mut parts = name.split(':');
                if parts.next()? != "ismcts" {
                    return None;
                }
                let iterations = match parts.next() {
                    None => super::ismcts::DEFAULT_ITERATIONS,
                    Some(n) => n
                        .parse::<u32>()
                        .ok()
                        .filter(|n| (1..=super::ismcts::MAX_ITERATIONS).contains(n))?,
                };
                let round = match parts.next() {
                    None | Some("round") => true,
                    Some("game") => false,
                    Some(_) => return None,
                };
                parts
                    .next()
                    .is_none()
                    .then_some(Bot::Ismcts { iterations, round })
            }
        }
    }

    /// The bot's name, as [`Bot::from_name`] reads it back (an `ismcts` with its budget
    /// and horizon when they are not the default).
    pub fn name(self) -> Cow<'static, str> {
        match self {
            Bot::Random => "random".into(),
            Bot::Cautious => "cautious".into(),
            Bot::Aggressive => "aggressive".into(),
            Bot::Search => "search".into(),
            Bot::Ismcts { iterations, round } => {
                match (iterations == super::ismcts::DEFAULT_ITERATIONS, round) {
                    (true, true) => "ismcts".into(),
                    (false, true) => format!("ismcts:{iterations}").into(),
                    (_, false) => format!("ismcts:{iterations}:game").into(),
                }
            }
        }
    }

    /// The bot's card, or `None` when it has none (the engine deals with such a player before
    /// asking). Drawing by hand is not a choice: bots draw right after their card (see
    /// [`bot_turn`]), so the bot never plays one.
    #[inline]
    pub fn choose(self, p: &Ruleset, s: &State, rng: &mut Rng) -> Option<Move> {
        if p.more_moves {
            return self.choose_more(p, s, rng);
        }
        self.choose_card(p, s, rng)
    }

    /// [`Bot::choose`] for a ruleset whose every move lays a card of the hand (no move
    /// beside it, no card that names a player): the engine's loop of plain turns asks this.
    #[inline]
    pub fn choose_card(self, p: &Ruleset, s: &State, rng: &mut Rng) -> Option<Move> {
        debug_assert!(!p.more_moves);
        if self == Bot::Random {
            // No list of moves to build: the commonest bot in a simulation is also the
            // cheapest.
            return random(p, s, rng);
        }
        self.choose_from_list(p, s, rng)
    }

    /// [`Bot::choose`], for a search that looks at `stop` as it goes (ISMCTS: see
    /// [`super::ismcts::ismcts_until`]); the same move while `stop` says nothing.
    pub fn choose_until(
        self,
        p: &Ruleset,
        s: &State,
        rng: &mut Rng,
        stop: &dyn Fn() -> bool,
    ) -> Option<Move> {
        match self {
            Bot::Ismcts { iterations, round } => {
                let horizon = if round {
                    super::ismcts::Horizon::Round
                } else {
                    super::ismcts::Horizon::Game
                };
                super::ismcts::ismcts_until(p, s, rng, iterations, horizon, stop)
            }
            _ => self.choose(p, s, rng),
        }
    }

    /// The bot's move among `allowed` only, as it would choose were the others not legal
    /// (restricted play forbids a rule and asks the same bot again): the random bot picks
    /// among them alike, the weighing bots weigh them, `search` plays them out, `ismcts`
    /// searches and takes the most visited of them.
    pub fn choose_among(
        self,
        p: &Ruleset,
        s: &State,
        rng: &mut Rng,
        stop: &dyn Fn() -> bool,
        allowed: &[Move],
    ) -> Option<Move> {
        match (self, allowed.len()) {
            (_, 0) => None,
            (_, 1) => Some(allowed[0]),
            (Bot::Random, n) => Some(allowed[rng.below(n)]),
            (Bot::Cautious | Bot::Aggressive, _) => {
                super::weigh::weigh_among(p, s, rng, self == Bot::Aggressive, allowed)
            }
            (Bot::Search, _) => Some(super::search::best_of(
                p,
                s,
                allowed,
                super::search::SAMPLES,
                rng,
            )),
            (Bot::Ismcts { iterations, round }, _) => {
                let horizon = if round {
                    super::ismcts::Horizon::Round
                } else {
                    super::ismcts::Horizon::Game
                };
                super::ismcts::ismcts_among(p, s, rng, (iterations, horizon), stop, allowed)
            }
        }
    }

    /// [`Bot::choose`] where a turn may be more than laying a card (a move beside it, a card
    /// that names a player). The random bot takes any legal move, uniformly (a card that
    /// names a player is one move for each player it may name); the weighing bots weigh the
    /// cards as ever, name the other player with the most chips (the first of them in the
    /// direction of play), and make a move beside laying a card only when they have no card
    /// to lay (the first the rules offer, before a yield); the searching bots search them
    /// all.
    #[inline(never)]
    fn choose_more(self, p: &Ruleset, s: &State, rng: &mut Rng) -> Option<Move> {
        match self {
            Bot::Random => {
                // No list: the moves counted, then the one picked found again.
                let mut n = 0;
                s.each_legal(p, |_, _| n += 1);
                let k = match n {
                    0 => return None,
                    1 => 0,
                    n => rng.below(n),
                };
                let mut at = 0;
                let mut picked = None;
                s.each_legal(p, |mv, _| {
                    if at == k {
                        picked = Some(mv);
                    }
                    at += 1;
                });
                picked
            }
            Bot::Cautious | Bot::Aggressive => {
                let card = weigh(p, s, rng, self == Bot::Aggressive);
                let mut best: Option<(Move, (i32, std::cmp::Reverse<usize>))> = None;
                let mut gift: Option<(Move, i64)> = None;
                let mut other = None;
                let mut first = None;
                s.each_legal(p, |mv, _| {
                    first.get_or_insert(mv);
                    match mv {
                        Move::Aim {
                            card: c,
                            choice: k,
                            seat,
                        } if card.and_then(Move::laid) == Some((c, k)) => {
                            // The most chips; of those, the nearest after the player.
                            let d = (usize::from(seat) + usize::from(s.seats)
                                - usize::from(s.turn))
                                % usize::from(s.seats);
                            let key = (s.chips_of(p, seat), std::cmp::Reverse(d));
                            if best.is_none_or(|(_, b)| key > b) {
                                best = Some((mv, key));
                            }
                        }
                        Move::Give {
                            card: c,
                            choice: k,
                            gift: g,
                        } if card.and_then(Move::laid) == Some((c, k)) => {
                            // The card of the hand it would least like to lay.
                            let w = super::weigh::want(p, s, self == Bot::Aggressive, g);
                            if gift.is_none_or(|(_, b)| w < b) {
                                gift = Some((mv, w));
                            }
                        }
                        Move::Other { .. } => {
                            other.get_or_insert(mv);
                        }
                        Move::Play { .. }
                        | Move::Aim { .. }
                        | Move::Give { .. }
                        | Move::Draw
                        | Move::Yield => {}
                    }
                });
                match (
                    card,
                    best.or(gift.map(|(m, _)| (m, (0, std::cmp::Reverse(0))))),
                ) {
                    (_, Some((mv, _))) => Some(mv),
                    (Some(card), None) => Some(card),
                    (None, None) => other.or(first),
                }
            }
            Bot::Search | Bot::Ismcts { .. } => self.choose_from_list(p, s, rng),
        }
    }

    /// The bots that weigh each move.
    #[inline(never)]
    fn choose_from_list(self, p: &Ruleset, s: &State, rng: &mut Rng) -> Option<Move> {
        match self {
            Bot::Random => random(p, s, rng),
            // A copy of the weighing for each, inlined here: the aggressive bot's term is then
            // no test on every play of the cautious bot's.
            Bot::Cautious => weigh(p, s, rng, false),
            Bot::Aggressive => weigh(p, s, rng, true),
            Bot::Search => {
                let mut moves = Moves::new();
                s.legal_moves_into(p, &mut moves);
                moves.retain_plays();
                match moves.len() {
                    0 => None,
                    1 => Some(moves.as_slice()[0]),
                    _ => Some(super::search::best_of(
                        p,
                        s,
                        moves.as_slice(),
                        super::search::SAMPLES,
                        rng,
                    )),
                }
            }
            Bot::Ismcts { iterations, round } => {
                let horizon = if round {
                    super::ismcts::Horizon::Round
                } else {
                    super::ismcts::Horizon::Game
                };
                super::ismcts::ismcts(p, s, rng, iterations, horizon)
            }
        }
    }
}

/// A legal card uniformly (each choice of a card is one move), from a list on the stack that
/// holds the moves alone.
#[inline(never)]
fn random(p: &Ruleset, s: &State, rng: &mut Rng) -> Option<Move> {
    // Most positions: the table answers every card, and the plays are counted, not listed.
    if let Some(plays) = s.table_plays(p) {
        return match plays.count() {
            0 => None,
            1 => plays.nth(0),
            n => plays.nth(rng.below(n)),
        };
    }
    // Card and choice as two bytes: the list is zeroed in a few stores.
    let mut list = [(0u8, 0u8); ir::MAX_HAND * ir::MAX_CHOICES];
    let mut n = 0;
    s.each_move(p, |mv| {
        if let Move::Play { card, choice } = mv {
            list[n] = (card, choice);
            n += 1;
        }
        ControlFlow::Continue(())
    });
    let (card, choice) = match n {
        0 => return None,
        1 => list[0],
        n => list[rng.below(n)],
    };
    Some(Move::Play { card, choice })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_level_is_the_bot_beside_it() {
        assert_eq!(Bot::from_name("easy"), Some(Bot::Random));
        assert_eq!(Bot::from_name("normal"), Some(Bot::Cautious));
        assert_eq!(Bot::from_name("hard"), Bot::from_name("ismcts"));
        assert!(matches!(Bot::from_name("hard"), Some(Bot::Ismcts { .. })));
        for (level, bot) in Bot::LEVELS {
            let named = Bot::from_name(level).expect("a level is a bot");
            // A level is remembered by its bot's own name (in a save, a report).
            assert_eq!(named.name(), bot, "{level}");
        }
        // Only the words themselves: no budget after a level, no other case.
        assert_eq!(Bot::from_name("hard:50"), None);
        assert_eq!(Bot::from_name("Easy"), None);
        assert_eq!(
            Bot::choices_words(),
            "easy (random), normal (cautious), hard (ismcts), aggressive and search"
        );
    }
}
