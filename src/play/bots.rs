//! The built-in bots. They read only the compiled ruleset and what a player at the table can see
//! (their hand, the total, the discard pile, chips), so they play any variant.

use std::hint::select_unpredictable;
use std::ops::ControlFlow;

use super::player::{bot_turn, play_and_draw};
use crate::base::Rng;
use crate::base::cards::{JOKER, RANKS, rank_counts_less, rank_sum};
use crate::engine::{Move, Moves, Play, State};
use crate::ir::{self, Choice, Facts, Program, Ranks, choice_total};

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
}

impl Bot {
    pub const NAMES: [&'static str; 4] = ["random", "cautious", "aggressive", "search"];

    pub fn from_name(name: &str) -> Option<Bot> {
        match name {
            "random" => Some(Bot::Random),
            "cautious" => Some(Bot::Cautious),
            "aggressive" => Some(Bot::Aggressive),
            "search" => Some(Bot::Search),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Bot::Random => "random",
            Bot::Cautious => "cautious",
            Bot::Aggressive => "aggressive",
            Bot::Search => "search",
        }
    }

    /// The bot's card, or `None` when it has none (the engine deals with such a player before
    /// asking). Drawing by hand is not a choice: bots draw right after their card (see
    /// [`bot_turn`]), so the bot never plays one.
    #[inline]
    pub fn choose(self, p: &Program, s: &State, rng: &mut Rng) -> Option<Move> {
        if self == Bot::Random {
            // No list of moves to build: the commonest bot in a simulation is also the
            // cheapest.
            return random(p, s, rng);
        }
        self.choose_from_list(p, s, rng)
    }

    /// The bots that weigh each move.
    #[inline(never)]
    fn choose_from_list(self, p: &Program, s: &State, rng: &mut Rng) -> Option<Move> {
        match self {
            Bot::Random => random(p, s, rng),
            // One copy of the weighing, inlined here: the two bots differ in one term.
            Bot::Cautious | Bot::Aggressive => weigh(p, s, rng, self == Bot::Aggressive),
            Bot::Search => {
                let mut moves = Moves::new();
                s.legal_moves_into(p, &mut moves);
                moves.retain_plays();
                match moves.len() {
                    0 => None,
                    1 => Some(moves.as_slice()[0]),
                    _ => Some(search(p, s, &moves, rng)),
                }
            }
        }
    }
}

/// A legal card uniformly (each choice of a card is one move), from a list on the stack that
/// holds the moves alone.
#[inline(never)]
fn random(p: &Program, s: &State, rng: &mut Rng) -> Option<Move> {
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

/// The highest-scoring legal move, ties broken at random; `None` when there is none. The
/// moves are scored as they are found (no list of them is kept), and a turn with one move
/// takes no random number: the bot has nothing to choose.
#[inline(always)]
fn weigh(p: &Program, s: &State, rng: &mut Rng, aggressive: bool) -> Option<Move> {
    let mut view = Knowledge::new(p, s, true);
    let mut best = Best {
        rng: *rng,
        n: 0,
        play: 0,
        score: i64::MIN,
    };
    // Most positions: the table answers every card, with no live choice to work out.
    let table = s.table_each_play(
        p,
        #[inline(always)]
        |play| best.offer(play, view.score(p, s, play, aggressive)),
    );
    if !table {
        // A turn the table does not answer (a live choice, two copies of a card, a total
        // outside its window) may make any total: the unseen cards are always counted.
        if !view.unseen.counted {
            view.unseen = Unseen::new(p, s, s.hands[usize::from(s.turn)].ranks());
        }
        s.each_play_read(p, |play| {
            best.offer(play, view.score(p, s, play, aggressive));
            ControlFlow::Continue(())
        });
    }
    // A turn with one move takes no random number: the bot has nothing to choose.
    if best.n != 1 {
        *rng = best.rng;
    }
    best.mv()
}

/// The best play so far, ties broken at random, as the plays are found.
struct Best {
    rng: Rng,
    n: usize,
    /// The best play's card and choice, a byte each: chosen by a conditional move, not a
    /// branch (which play is best is as good as random to a branch predictor).
    play: u16,
    score: i64,
}

impl Best {
    #[inline(always)]
    fn offer(&mut self, play: Play, score: i64) {
        // No overflow: see `WORTH_CAP`.
        let sc = score * 16 + self.rng.below(16) as i64;
        let better = (sc > self.score) | (self.n == 0);
        let this = u16::from(play.card) << 8 | u16::from(play.choice);
        self.play = select_unpredictable(better, this, self.play);
        self.score = self.score.max(sc);
        self.n += 1;
    }

    /// The best play, if any was offered.
    fn mv(&self) -> Option<Move> {
        (self.n > 0).then_some(Move::Play {
            card: (self.play >> 8) as u8,
            choice: self.play as u8,
        })
    }
}

/// What the player to move knows: how many cards of each rank are still unseen (not in their
/// hand, not in the discard pile), and which ranks are escapes (always playable); and what
/// follows from it for every move of the turn, worked out once.
struct Knowledge<'p> {
    /// The cards the player has not seen: not counted ([`Unseen::NONE`]) when no move of
    /// the turn can leave a card stuck.
    unseen: Unseen,
    /// Bit `r`: rank `r` can be laid whatever the total (at the upper limit).
    escape: u16,
    /// The ranks playable at a total, with this many players in the round.
    ranks: Ranks<'p>,
    /// The lowest bar above the total, and what reaching it and passing it are worth (see
    /// [`Knowledge::worth`]).
    next_bar: i64,
    reach_worth: i64,
    pass_worth: i64,
    /// The bar after it: a move that stays below it reaches no other bar.
    bar_after: i64,
    /// Players in the round besides the mover.
    others: i64,
    /// The total is high: 80% of the way to the top (the upper limit, or the highest bar).
    high: bool,
    /// What laying an escape card costs the cautious bot now.
    escape_cost: i64,
}

impl<'p> Knowledge<'p> {
    /// What the player to move knows. `tabled`: every move weighed will be one the
    /// legal-choice table answers (from [`State::table_each_play`]).
    fn new(p: &'p Program, s: &State, tabled: bool) -> Knowledge<'p> {
        let held = s.hands[usize::from(s.turn)].ranks();
        let active = s.active();
        let ranks = p.legal.ranks_with(active);
        // Where the column is complete and every total the table allows from here is in its
        // window, no move can leave a card stuck ([`Ranks::all_at`] holds for each): the
        // unseen cards go uncounted. The same branch for every move of a game where any card
        // can always be laid.
        let unseen = if tabled && ranks.complete && p.legal.inside(s.total) {
            Unseen::NONE
        } else {
            Unseen::new(p, s, held)
        };
        let escape = playable_ranks(p, s, ranks, p.ceiling.map_or(i32::MAX, |c| c.value));
        let escapes_held = rank_sum(held, escape);
        let top = p
            .ceiling
            .map_or(p.bars.last().map_or(100, |b| b.value), |c| c.value);
        let high = i64::from(s.total) * 10 >= i64::from(top) * 8;
        let others = i64::from(active.saturating_sub(1) as u8);
        // The bars are sorted by value: the two above the total.
        let mut above = p.bars.iter().skip_while(|b| b.value <= s.total);
        let worth = |o: Option<u16>| o.map_or(0, |i| Knowledge::worth(p, i, others));
        let (next_bar, reach_worth, pass_worth) = above.next().map_or((i64::MAX, 0, 0), |b| {
            (i64::from(b.value), worth(b.reach), worth(b.pass))
        });
        let bar_after = above.next().map_or(i64::MAX, |b| i64::from(b.value));
        Knowledge {
            unseen,
            escape,
            ranks,
            next_bar,
            reach_worth,
            pass_worth,
            bar_after,
            others,
            high,
            escape_cost: match (high, escapes_held) {
                (true, held) if held > 1 => 30,
                (true, _) => 0,
                (false, _) => 120,
            },
        }
    }

    /// How many unseen cards could not be played at `total`: how likely the next player is
    /// to be stuck there.
    #[inline(always)]
    fn stuck_cards(&self, p: &Program, s: &State, total: i32) -> u32 {
        // The next player's situation is not known: the mover's stands in for it.
        let ok = playable_ranks(p, s, self.ranks, total);
        // The unseen cards of the ranks that cannot be laid.
        rank_sum(self.unseen.counts, !ok)
    }

    /// The stuck cards' share of the unseen ones, per thousand, divided by `d`, given
    /// `per_thousand` = 1000 / `d`: one division, since ⌊⌊1000 b / u⌋ / d⌋ is
    /// ⌊(1000 / d) b / u⌋ for `d` dividing 1000.
    #[inline(always)]
    fn stuck_part(&self, stuck: u32, per_thousand: u32) -> i64 {
        i64::from(self.unseen.per.div(stuck * per_thousand))
    }

    /// What a play is worth to the cautious bot, or to the aggressive one (as careful with
    /// its own chips and escape cards, but it aims the total where the next player has the
    /// fewest safe cards).
    #[inline(always)]
    fn score(&self, p: &Program, s: &State, play: Play, aggressive: bool) -> i64 {
        let (value, new) = self.immediate(p, s, play);
        let mut score = value * 1000;
        // Keep an escape card for when the total is high (the texts' first tip). The
        // penalty for laying one is the same for every move of a turn, and is taken by a
        // product rather than a branch: which card is an escape is as good as random.
        score -= self.escape_cost * i64::from(self.escape >> play.rank & 1);
        let rise = i64::from(new - s.total);
        // While the total is high every point of rise costs; while it is low, big cards are
        // safe: play them now. Bounded by conditional moves: `max` and `clamp` compiled to
        // branches here, on a rise as good as random.
        let high = i64::from(self.high);
        let up = select_unpredictable(rise > 0, rise, 0);
        let capped = min_of(max_of(rise, -20), 20);
        score += high * (-up * 4) + (1 - high) * capped;
        // Do not leave the next player an easy total if it costs nothing.
        // (The share of unseen cards stuck, per thousand, divided by 50.)
        // Where the column says every rank of the deck can be laid at the new total, no
        // card is stuck: a branch that is the same for every move of a game where any card
        // can always be laid (one with no upper limit, say), and so predicted; elsewhere the
        // count, with no branch.
        if self.ranks.all_at(new) {
            // The shortcut is the long way's answer (the unseen cards are of the deck's
            // ranks): every debug build of a game with these bots checks it.
            debug_assert_eq!(
                Knowledge::new(p, s, false).stuck_cards(p, s, new),
                0,
                "no stuck card at {new}"
            );
        } else {
            // Counted whenever a move may leave some.
            debug_assert!(self.unseen.counted, "the unseen cards were not counted");
            let stuck = self.stuck_cards(p, s, new);
            score += self.stuck_part(stuck, 1000 / 50);
            if aggressive {
                // (The same share divided by 4.)
                score += self.stuck_part(stuck, 1000 / 4);
            }
        }
        score
    }

    /// What a play costs or gains its player at once, in chips (losing a round counts as
    /// its payments, which the ruleset lists), and the total it makes.
    ///
    /// A script's step is counted as its table says, as everywhere in the bots' estimates.
    #[inline(always)]
    fn immediate(&self, p: &Program, s: &State, play: Play) -> (i64, i32) {
        // Most plays: a quiet choice (no outcome of its own, read from the table rather than
        // the choice), and at most the next bar in reach, its worth taken by products rather
        // than branches (whether a play reaches it is as good as random).
        let new = i64::from(play.total);
        if p.legal.quiet(play.fx) >> play.choice & 1 != 0 && new < self.bar_after {
            let value = i64::from(new == self.next_bar) * self.reach_worth
                + i64::from(new > self.next_bar) * self.pass_worth;
            // The shortcut is the long way's answer: every debug build of a game with these
            // bots (the tests) checks it.
            #[cfg(debug_assertions)]
            if let Some(ch) = p.choice(play.fx, usize::from(play.choice)) {
                debug_assert_eq!(
                    (value, play.total),
                    self.immediate_worked_out(p, s, ch, play.total)
                );
            }
            return (value, play.total);
        }
        match p.choice(play.fx, usize::from(play.choice)) {
            Some(ch) => self.immediate_worked_out(p, s, ch, play.total),
            None => (0, s.total),
        }
    }

    /// What outcomes `i` are worth to their player, with `others` other players in the round:
    /// paying costs, gaining earns, the player's own chips count three times the others', and
    /// losing the round two more.
    ///
    /// Bounded by [`WORTH_CAP`], as every value a play is given: a move's score then needs
    /// no overflow check.
    fn worth(p: &Program, i: u16, others: i64) -> i64 {
        p.outcomes.get(usize::from(i)).map_or(0, |o| {
            let t = &o.tally;
            (3 * t.player - others * t.each_other + t.every - 2 * t.player_loses)
                .clamp(-WORTH_CAP, WORTH_CAP)
        })
    }

    /// [`Knowledge::immediate`] for a play with outcomes, a script or a bar in reach.
    #[inline(never)]
    fn immediate_worked_out(&self, p: &Program, s: &State, ch: &Choice, total: i32) -> (i64, i32) {
        let facts = &s.facts(p);
        let old = s.total;
        let new = if ch.scripted {
            choice_total(p, ch, facts)
        } else {
            total
        };
        let worth = |i: u16| Knowledge::worth(p, i, self.others);
        let mut value = 0;
        // A simple choice has no outcome of its own (no step with a condition or outcomes).
        if !ch.simple {
            for st in ch.steps() {
                if let ir::Act::Outcomes(i) = st.act(p, facts) {
                    value += worth(i);
                }
            }
        }
        // The bars are sorted by value: those above the old total and up to the new one.
        for b in p.bars.iter().skip_while(|b| b.value <= old) {
            let hit = if new == b.value {
                b.reach
            } else if new > b.value {
                b.pass
            } else {
                break;
            };
            value += hit.map_or(0, worth);
        }
        (value.clamp(-WORTH_CAP, WORTH_CAP), new)
    }
}

/// The most a play's chips can be worth either way, far beyond any ruleset's (amounts are at
/// most a million, lists short): a score, 1000 times a worth and a few terms of at most a
/// total's rise, then times 16, stays far inside an `i64`.
const WORTH_CAP: i64 = 1 << 40;

/// The smaller of two numbers, written as arithmetic (`min` and `clamp` compiled to branches
/// here; this compiles to conditional moves); `a - b` must not overflow.
#[inline(always)]
fn min_of(a: i64, b: i64) -> i64 {
    let d = a - b;
    b + (d & (d >> 63))
}

/// The larger of two numbers, as [`min_of`].
#[inline(always)]
fn max_of(a: i64, b: i64) -> i64 {
    let d = a - b;
    a - (d & (d >> 63))
}

/// The cards the player to move has not seen (not in their hand, not in the discard pile), by
/// rank, a byte each ([`rank_counts`](crate::base::cards::rank_counts)), and how many.
#[derive(Debug, Clone, Copy)]
struct Unseen {
    counts: u128,
    /// Dividing by how many cards are unseen, once a move.
    per: Divisor,
    /// Whether they were counted: a turn whose moves the table does not answer counts them
    /// then, and the debug builds check that every count taken has them.
    counted: bool,
}

impl Unseen {
    /// Not counted: for a turn where no move can leave a card stuck.
    const NONE: Unseen = Unseen {
        counts: 0,
        per: Divisor(0),
        counted: false,
    };

    /// Those of the player to move, who holds `held` (by rank).
    #[inline(always)]
    fn new(p: &Program, s: &State, held: u128) -> Unseen {
        // The deck (four of each rank and the jokers, per copy of the deck) less the cards
        // seen, rank by rank, all ranks at once.
        let decks = u64::from(p.decks[usize::from(s.seats).min(ir::MAX_SEATS)]);
        let seen = held.wrapping_add(s.discard.ranks());
        // Ranks 0 to 7 in the low half, 8 to 12 and the jokers in the high one: two 64-bit
        // products, no count above 16.
        const _: () = assert!(JOKER == 13);
        let low = 0x0404_0404_0404_0404 * decks;
        let high = 0x04_0404_0404 * decks + ((decks * u64::from(p.jokers)) << 40);
        let deck = u128::from(high) << 64 | u128::from(low);
        let counts = rank_counts_less(deck, seen);
        Unseen {
            counts,
            per: Divisor::new(rank_sum(counts, u16::MAX)),
            counted: true,
        }
    }
}

/// Division by a number fixed for a turn, as a multiplication by its reciprocal, rounded up,
/// in 32-bit fixed point: exact when the dividend times the divisor is below 2³² (with
/// `m = (2³² + k) / d`, `0 <= k < d`, the error `n k / d 2³²` stays under `1 / d`), as for a
/// share of the unseen cards (fewer than 256) times at most 1000. Dividing by zero gives
/// zero.
#[derive(Debug, Clone, Copy)]
struct Divisor(u64);

impl Divisor {
    fn new(d: u32) -> Divisor {
        Divisor(match d {
            0 => 0,
            d => (1u64 << 32).div_ceil(u64::from(d)),
        })
    }

    #[inline(always)]
    fn div(self, n: u32) -> u32 {
        ((u64::from(n) * self.0) >> 32) as u32
    }
}

/// The ranks (bit `r` for rank `r`) with a choice the limits allow were the total `total`, in
/// the situation of the player to move: read from the program's table, worked out for live
/// choices and totals outside it.
#[inline(always)]
fn playable_ranks(p: &Program, s: &State, ranks: Ranks, total: i32) -> u16 {
    match ranks.at(total) {
        // Most games: no choice is live, and the table's answer is the whole answer.
        Some([ok, _]) if !ranks.live => ok,
        Some([ok, live]) => match live & !ok {
            0 => ok,
            todo => ok | playable_live(p, s, todo, total),
        },
        None => playable_live(p, s, u16::MAX, total),
    }
}

/// [`playable_ranks`] for the ranks in `todo`, worked out.
#[inline(never)]
fn playable_live(p: &Program, s: &State, todo: u16, total: i32) -> u16 {
    let mut ok = 0;
    let facts = Facts {
        total,
        ..s.facts(p)
    };
    for r in 0..RANKS as u8 {
        if todo >> r & 1 != 0
            && s.effect(p, r).is_some_and(|fx| {
                fx.choices()
                    .iter()
                    .any(|c| p.allows(choice_total(p, c, &facts)))
            })
        {
            ok |= 1 << r;
        }
    }
    ok
}

/// How many samples each move gets, and how far each is played out.
const SAMPLES: usize = 24;
const PLIES: u32 = 120;

fn search(p: &Program, s: &State, moves: &Moves, rng: &mut Rng) -> Move {
    let me = s.turn;
    let mut best = moves.as_slice()[0];
    let mut best_value = i64::MIN;
    // The same samples for every move, so moves are compared on the same unseen cards.
    let seeds: Vec<u64> = (0..SAMPLES).map(|_| rng.below(usize::MAX) as u64).collect();
    for &m in moves.as_slice() {
        let mut total = 0i64;
        for &seed in &seeds {
            let mut sample = s.clone();
            let mut r = Rng::for_bots(seed);
            sample.determinize(p, me, &mut r);
            total += playout(p, sample, m, me, &mut r);
        }
        if total > best_value {
            best_value = total;
            best = m;
        }
    }
    best
}

/// Plays `m` then cautious players to the end of the round; the mover's chips gained against
/// the others' on average, and staying in the game above all.
fn playout(p: &Program, mut s: State, m: Move, me: u8, rng: &mut Rng) -> i64 {
    let n = s.seats;
    let before: Vec<i32> = (0..n).map(|x| s.chips_of(p, x)).collect();
    let round = s.round;
    if play_and_draw(p, &mut s, m, &mut ()).is_err() {
        return i64::MIN / 4;
    }
    let mut plies = 0;
    while !s.over && s.round == round && plies < PLIES {
        match bot_turn(p, &mut s, Bot::Cautious, rng, &mut ()) {
            Ok(true) => plies += 1,
            Ok(false) | Err(_) => break,
        }
    }
    let mine = i64::from(s.chips_of(p, me) - before[usize::from(me)]);
    let others: i64 = (0..n)
        .filter(|x| *x != me)
        .map(|x| i64::from(s.chips_of(p, x) - before[usize::from(x)]))
        .sum();
    let alive = if s.in_game(me) { 0 } else { -1000 };
    mine * 100 - others * 100 / i64::from(n.max(2) - 1) + alive
}

#[cfg(test)]
mod tests {
    use super::Divisor;

    #[test]
    fn division_by_multiplication_is_exact() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x as u32) >> (x >> 59)
        };
        let edges = [
            0,
            1,
            2,
            3,
            7,
            50,
            224,
            999,
            1000,
            65_535,
            u32::MAX - 1,
            u32::MAX,
        ];
        let numbers: Vec<u32> = edges.into_iter().chain((0..300).map(|_| next())).collect();
        let divisors: Vec<u32> = edges.into_iter().chain((0..3000).map(|_| next())).collect();
        let mut tried = 0;
        for d in divisors {
            let by = Divisor::new(d);
            for &n in &numbers {
                if u64::from(n) * u64::from(d) < 1 << 32 {
                    let want = n.checked_div(d).unwrap_or(0);
                    assert_eq!(by.div(n), want, "{n} / {d}");
                    tried += 1;
                }
            }
        }
        assert!(tried > 10_000, "{tried}");
        // Every share the bots take: how many cards are unseen, times a thousand at most.
        for d in 0..256 {
            let by = Divisor::new(d);
            for n in 0..=256_000 {
                assert_eq!(by.div(n), n.checked_div(d).unwrap_or(0), "{n} / {d}");
            }
        }
    }
}
