//! The weighing bots' choice (cautious and aggressive): every legal play scored by what it
//! gains or costs its player at once, the escape cards it keeps and the cards it may leave
//! stuck for the next player; the best one played, ties broken at random.

use super::Ruleset;
use std::hint::select_unpredictable;
use std::ops::ControlFlow;

use super::plan::{Slot, TurnRow, worked_slot};
use crate::base::Rng;
use crate::base::cards::{Card, JOKER, RANKS, rank_counts_less, rank_of, rank_sum};
use crate::engine::{Move, Play, State};
use crate::ir::{self, Choice, Facts, Ranks, choice_total};

/// The highest-scoring legal move, ties broken at random; `None` when there is none. The
/// moves are scored as they are found (no list of them is kept), and a turn with one move
/// takes no random number: the bot has nothing to choose.
#[inline(always)]
pub(super) fn weigh(p: &Ruleset, s: &State, rng: &mut Rng, aggressive: bool) -> Option<Move> {
    // Most positions: the plan (`play/plan.rs`) has the total's row, which says which plays
    // the table allows and the part of each quiet play's score that the totals alone decide.
    let Some(turn) = TurnRow::new(p, s) else {
        return weigh_worked_out(p, s, rng, aggressive);
    };
    let hand = s.hands[usize::from(s.turn)].cards();
    let view = Knowledge::planned(p, s, turn);
    let mut best = Best::new(rng);
    let answered = turn.each_play(
        hand,
        #[inline(always)]
        |card, choice, rank| {
            // The same branch for every move of a game whose choices are all quiet.
            let score = match turn.slot(rank, choice) {
                Some(planned) => {
                    let score = view.planned_score(rank, planned, aggressive);
                    // The plan is the long way's answer: every debug build of a game with
                    // these bots (the tests) checks it.
                    #[cfg(debug_assertions)]
                    {
                        let play = s.play_of(p, card, choice);
                        let want = Knowledge::new(p, s)
                            .worked(p, s)
                            .score(p, s, play, aggressive);
                        assert_eq!(score, want, "the plan's score of {play:?}");
                    }
                    score
                }
                None => view.score_unplanned(p, s, card, choice, aggressive),
            };
            best.offer(card, choice, score)
        },
    );
    if !answered {
        return weigh_worked_out(p, s, rng, aggressive);
    }
    // The plan's plays are the engine's, in its order: every debug build checks them.
    #[cfg(debug_assertions)]
    {
        // On the stack: the check allocates no more than the bot (tests/alloc.rs counts).
        const MOST: usize = crate::ir::MAX_HAND * crate::ir::MAX_CHOICES;
        let (mut planned, mut read) = ([(0u8, 0u8); MOST], [(0u8, 0u8); MOST]);
        let (mut n_planned, mut n_read) = (0, 0);
        turn.each_play(hand, |card, choice, _| {
            planned[n_planned] = (card, choice);
            n_planned += 1;
        });
        s.each_play_read(p, |play| {
            read[n_read] = (play.card, play.choice);
            n_read += 1;
            ControlFlow::Continue(())
        });
        assert_eq!(planned[..n_planned], read[..n_read], "the plan's plays");
    }
    best.choose(rng)
}

/// What the outcomes of choice `ch` that fire in situation `facts` (its steps' conditions
/// read there) are worth to its player, with `others` other players in the round.
fn fired_worth(p: &Ruleset, ch: &Choice, facts: &Facts, others: i64) -> i64 {
    let mut value = 0;
    // A simple choice has no outcome of its own (no step with a condition or outcomes).
    if !ch.simple {
        for st in ch.steps() {
            if let ir::Act::Outcomes(i) = st.act(p, facts) {
                value += worth(p, i, others);
            }
        }
    }
    value
}

/// The plan's slot of choice `choice` of a card of rank `rank`, if planned but for its
/// outcomes ([`worked_slot`]), and what those that fire now are worth (the part of its
/// [`base`] the plan left out, before the factor of 1000). `None` as well when the worth is
/// too large for the planned score to take it as it would the whole (never with a ruleset's
/// amounts, at most a million): then the play is scored the long way.
fn planned_but_outcomes(p: &Ruleset, s: &State, rank: u8, choice: u8) -> Option<(Slot, i64)> {
    let slot = worked_slot(p, s, rank, choice)?;
    let active = s.active();
    let fx = *p.rank_fx[active.min(ir::MAX_SEATS)].get(usize::from(rank))?;
    let ch = p.choice(fx, usize::from(choice))?;
    let value = fired_worth(p, ch, &s.facts(p), others(active));
    // The planned part's worth (its bars') is under 2^17 / 1000: the sum stays far inside
    // `WORTH_CAP`, so adding it is what `base` of the whole would give.
    (value.abs() < 1 << 30).then_some((slot, value))
}

/// How the weighing bots score the plays of a position ([`scoring`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Scoring {
    /// From the plan's row for the turn alone.
    pub planned: usize,
    /// From the plan, but for the outcomes that fire, which the turn's facts decide.
    pub planned_but_outcomes: usize,
    /// The long way: every part of the score worked out at the turn.
    pub long_way: usize,
}

/// How the weighing bots score each legal play of the position `s`, as [`weigh`] and
/// [`Knowledge::score_unplanned`] decide it: for the tests, which check that a kind of play
/// the plan should answer is not scored the long way.
pub fn scoring(p: &Ruleset, s: &State) -> Scoring {
    let mut sc = Scoring::default();
    let answered = TurnRow::new(p, s).is_some_and(|turn| {
        let hand = s.hands[usize::from(s.turn)].cards();
        turn.each_play(hand, |_, choice, rank| {
            if turn.slot(rank, choice).is_some() {
                sc.planned += 1;
            } else if planned_but_outcomes(p, s, rank, choice).is_some() {
                sc.planned_but_outcomes += 1;
            } else {
                sc.long_way += 1;
            }
        })
    });
    if !answered {
        sc = Scoring::default();
        s.each_play_read(p, |_| {
            sc.long_way += 1;
            ControlFlow::Continue(())
        });
    }
    sc
}

/// [`weigh`] for a turn the plan does not answer (a live choice, two copies of a card, a
/// total outside the table's window), every play worked out: out of line, so that the
/// common turn's code stays small.
#[inline(never)]
fn weigh_worked_out(p: &Ruleset, s: &State, rng: &mut Rng, aggressive: bool) -> Option<Move> {
    let mut best = Best::new(rng);
    let view = Knowledge::new(p, s).worked(p, s);
    s.each_play_read(p, |play| {
        best.offer(play.card, play.choice, view.score(p, s, play, aggressive));
        ControlFlow::Continue(())
    });
    best.choose(rng)
}

/// [`weigh`] among `allowed` moves only (restricted play's seat: the same bot with a rule
/// forbidden): the best-scored card among them; when none lays a card, the first of them.
pub(super) fn weigh_among(
    p: &Ruleset,
    s: &State,
    rng: &mut Rng,
    aggressive: bool,
    allowed: &[Move],
) -> Option<Move> {
    let mut best = Best::new(rng);
    let view = Knowledge::new(p, s).worked(p, s);
    for (card, choice) in allowed.iter().filter_map(|m| m.laid()) {
        let play = s.play_of(p, card, choice);
        best.offer(card, choice, view.score(p, s, play, aggressive));
    }
    let chosen = best.choose(rng).and_then(Move::laid);
    allowed
        .iter()
        .copied()
        .find(|m| chosen.is_some() && m.laid() == chosen)
        .or_else(|| allowed.first().copied())
}

/// How much the bot wants to lay `card` (its first choice) now: the card it wants least is
/// the one it gives away when a line lets it choose (`gives a card of their choice`).
pub(super) fn want(p: &Ruleset, s: &State, aggressive: bool, card: Card) -> i64 {
    let view = Knowledge::new(p, s).worked(p, s);
    view.score(p, s, s.play_of(p, card, 0), aggressive)
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
    /// None yet, drawing from a copy of `rng`.
    #[inline(always)]
    fn new(rng: &Rng) -> Best {
        Best {
            rng: *rng,
            n: 0,
            play: 0,
            score: i64::MIN,
        }
    }

    /// The best play, if any was offered, and `rng` moved on past the numbers drawn; a turn
    /// with one move takes no random number: the bot has nothing to choose.
    #[inline(always)]
    fn choose(&self, rng: &mut Rng) -> Option<Move> {
        if self.n != 1 {
            *rng = self.rng;
        }
        self.mv()
    }

    #[inline(always)]
    fn offer(&mut self, card: u8, choice: u8, score: i64) {
        // No overflow: see `WORTH_CAP`.
        let sc = score * 16 + self.rng.below(16) as i64;
        let better = (sc > self.score) | (self.n == 0);
        let this = u16::from(card) << 8 | u16::from(choice);
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Knowledge {
    /// The cards the player has not seen: not counted ([`Unseen::NONE`]) when no move of
    /// the turn can leave a card stuck.
    unseen: Unseen,
    /// Bit `r`: rank `r` can be laid whatever the total (at the upper limit).
    escape: u16,
    /// The total is high: 80% of the way to the top (the upper limit, or the highest bar).
    high: bool,
    /// What laying an escape card costs the cautious bot now.
    escape_cost: i64,
}

/// What the player to move knows, with what working a play out needs: the ranks playable at
/// each total with this many players in the round, the players in it besides the mover, and
/// the bars above the total.
#[derive(Clone, Copy)]
struct Worked<'p> {
    view: Knowledge,
    ranks: Ranks<'p>,
    others: i64,
    bars: Bars,
}

/// The bars above a turn's total: the lowest, and what reaching it and passing it are worth
/// (see [`worth`]); and the one after it: a move that stays below it reaches no other bar.
#[derive(Debug, Clone, Copy)]
struct Bars {
    next_bar: i64,
    reach_worth: i64,
    pass_worth: i64,
    bar_after: i64,
}

impl Bars {
    fn new(p: &Ruleset, total: i32, others: i64) -> Bars {
        // The bars are sorted by value: the two above the total.
        let mut above = p.bars.iter().skip_while(|b| b.value <= total);
        let worth = |o: Option<u16>| o.map_or(0, |i| worth(p, i, others));
        let (next_bar, reach_worth, pass_worth) = above.next().map_or((i64::MAX, 0, 0), |b| {
            let up = |o: Option<u16>, way: crate::ir::Way| o.filter(|_| way.up());
            (
                i64::from(b.value),
                worth(up(b.reach, b.reach_way)),
                worth(up(b.pass, b.pass_way)),
            )
        });
        let bar_after = above.next().map_or(i64::MAX, |b| i64::from(b.value));
        Bars {
            next_bar,
            reach_worth,
            pass_worth,
            bar_after,
        }
    }
}

/// The ranks that can be laid whatever the total (at the top: the upper limit, or the highest
/// total there is), in the situation of the player to move.
#[inline(never)]
fn escapes(p: &Ruleset, s: &State) -> u16 {
    let top = p.ceiling.map_or(i32::MAX, |c| c.value);
    playable_ranks(p, s, p.legal().ranks_with(s.active()), top)
}

/// Players in the round besides the mover, when `active` are in it.
pub(super) fn others(active: usize) -> i64 {
    i64::from(active.saturating_sub(1) as u8)
}

/// Whether `total` is high: 80% of the way to the top (the upper limit, or the highest bar).
#[inline(always)]
pub(super) fn is_high(p: &Ruleset, total: i32) -> bool {
    let top = p
        .ceiling
        .map_or(p.bars.last().map_or(100, |b| b.value), |c| c.value);
    i64::from(total) * 10 >= i64::from(top) * 8
}

/// What outcomes `i` are worth to their player, with `others` other players in the round:
/// paying costs, gaining earns, the player's own chips count three times the others', and
/// losing the round two more; winning the game is the most a list can be worth, and another
/// player's win (or going out of the game) the least.
///
/// Bounded by [`WORTH_CAP`], as every value a play is given: a move's score then needs no
/// overflow check.
fn worth(p: &Ruleset, i: u16, others: i64) -> i64 {
    p.outcomes.get(usize::from(i)).map_or(0, |o| {
        let t = &o.tally;
        // Winning the game is worth more than any chips; another's win, or going out of
        // the game, costs more than any.
        let game = (t.player_wins - t.others_win).clamp(-1, 1) * WORTH_CAP;
        (3 * t.player - others * t.each_other + t.every - 2 * t.player_loses + game)
            .clamp(-WORTH_CAP, WORTH_CAP)
    })
}

/// What the bars a move from `old` to `new` reaches or passes are worth to its player.
pub(super) fn bars_worth(p: &Ruleset, old: i32, new: i32, others: i64) -> i64 {
    let mut value = 0;
    // The bars are sorted by value: those above the old total and up to the new one.
    for b in p.bars.iter().skip_while(|b| b.value <= old) {
        let hit = if new == b.value {
            b.reach.filter(|_| b.reach_way.up())
        } else if new > b.value {
            b.pass.filter(|_| b.pass_way.up())
        } else {
            break;
        };
        value += hit.map_or(0, |i| worth(p, i, others));
    }
    value
}

/// The part of a play's score that the totals decide: what it gains or costs its player at
/// once (`value`, in chips), and the rise from `old` to `new`. While the total is high every
/// point of rise costs; while it is low, big cards are safe: play them now.
#[inline(always)]
pub(super) fn base(value: i64, old: i32, new: i32, high: bool) -> i64 {
    let rise = i64::from(new - old);
    // Bounded by conditional moves: `max` and `clamp` compiled to branches here, on a rise
    // as good as random.
    let high = i64::from(high);
    let up = select_unpredictable(rise > 0, rise, 0);
    let capped = min_of(max_of(rise, -20), 20);
    value * 1000 + high * (-up * 4) + (1 - high) * capped
}

impl Knowledge {
    /// What the player to move knows, the long way: the unseen cards always counted.
    fn new(p: &Ruleset, s: &State) -> Knowledge {
        let held = s.hands[usize::from(s.turn)].ranks();
        Knowledge::with(
            Unseen::new(p, s, held),
            escapes(p, s),
            held,
            is_high(p, s.total),
        )
    }

    /// What the player to move knows, from the plan's row for the turn: only the unseen cards
    /// are counted (and only where a move may leave some stuck), and the escapes worked out
    /// where the table leaves a live choice at the top.
    #[inline(always)]
    fn planned(p: &Ruleset, s: &State, turn: TurnRow) -> Knowledge {
        let held = s.hands[usize::from(s.turn)].ranks();
        // The same branch for every move of a game where any card can always be laid.
        let unseen = if turn.uncounted() {
            Unseen::NONE
        } else {
            Unseen::new(p, s, held)
        };
        let escape = match turn.escape() {
            Some(escape) => escape,
            None => escapes(p, s),
        };
        let view = Knowledge::with(unseen, escape, held, turn.high());
        // The plan's knowledge is the long way's (the unseen cards aside, where uncounted):
        // every debug build of a game with these bots checks it.
        #[cfg(debug_assertions)]
        {
            let long_way = Knowledge::new(p, s);
            let unseen = if turn.uncounted() {
                Unseen::NONE
            } else {
                long_way.unseen
            };
            assert_eq!(
                view,
                Knowledge { unseen, ..long_way },
                "the plan's knowledge"
            );
        }
        view
    }

    #[inline(always)]
    fn with(unseen: Unseen, escape: u16, held: u128, high: bool) -> Knowledge {
        Knowledge {
            unseen,
            escape,
            high,
            escape_cost: match (high, rank_sum(held, escape)) {
                (true, held) if held > 1 => 30,
                (true, _) => 0,
                (false, _) => 120,
            },
        }
    }

    /// With what working a play out needs.
    fn worked<'p>(self, p: &'p Ruleset, s: &State) -> Worked<'p> {
        let others = others(s.active());
        Worked {
            view: self,
            ranks: p.legal().ranks_with(s.active()),
            others,
            bars: Bars::new(p, s.total, others),
        }
    }

    /// [`Worked::score`] from the plan's slot for a play of a card of rank `rank`: its base,
    /// and the ranks that can be laid at the total it makes.
    #[inline(always)]
    fn planned_score(&self, rank: u8, planned: Slot, aggressive: bool) -> i64 {
        let mut score = planned.base() - self.escape_cost(rank);
        // Where every rank can be laid at the new total, no card is stuck: the same branch
        // for every move of a game where any card can always be laid.
        if !planned.all() {
            // Counted whenever a move may leave some.
            debug_assert!(self.unseen.counted, "the unseen cards were not counted");
            score += self.stuck_parts(rank_sum(self.unseen.counts, !planned.ok()), aggressive);
        }
        score
    }

    /// [`Worked::score`] for a play the plan's row for the turn does not score: from the
    /// plan's slot for a play planned but for its outcomes (those that fire now added), or the
    /// long way. By value: the turn's knowledge then need not be kept in memory for the
    /// planned plays.
    #[inline(never)]
    fn score_unplanned(
        self,
        p: &Ruleset,
        s: &State,
        card: Card,
        choice: u8,
        aggressive: bool,
    ) -> i64 {
        let rank = rank_of(card);
        if let Some((planned, worth)) = planned_but_outcomes(p, s, rank, choice) {
            let score = self.planned_score(rank, planned, aggressive) + 1000 * worth;
            // The plan is the long way's answer: every debug build of a game with these
            // bots (the tests) checks it.
            #[cfg(debug_assertions)]
            {
                let play = s.play_of(p, card, choice);
                let want = Knowledge::new(p, s)
                    .worked(p, s)
                    .score(p, s, play, aggressive);
                assert_eq!(
                    score, want,
                    "the plan's score of {play:?}, but for its outcomes"
                );
            }
            return score;
        }
        let play = s.play_of(p, card, choice);
        self.worked(p, s).score(p, s, play, aggressive)
    }

    /// What laying a card of rank `rank` costs: keep an escape card for when the total is
    /// high (the texts' first tip). The penalty for laying one is the same for every move of
    /// a turn, and is taken by a product rather than a branch: which card is an escape is as
    /// good as random.
    #[inline(always)]
    fn escape_cost(&self, rank: u8) -> i64 {
        self.escape_cost * i64::from(self.escape >> rank & 1)
    }

    /// The stuck cards' share of the unseen ones, per thousand, divided by `d`, given
    /// `per_thousand` = 1000 / `d`: one division, since ⌊⌊1000 b / u⌋ / d⌋ is
    /// ⌊(1000 / d) b / u⌋ for `d` dividing 1000.
    #[inline(always)]
    fn stuck_part(&self, stuck: u32, per_thousand: u32) -> i64 {
        i64::from(self.unseen.per.div(stuck * per_thousand))
    }

    /// Do not leave the next player an easy total if it costs nothing: what `stuck` unseen
    /// cards that cannot be laid there are worth (their share of the unseen ones, per
    /// thousand, divided by 50; for the aggressive bot, divided by 4 as well).
    #[inline(always)]
    fn stuck_parts(&self, stuck: u32, aggressive: bool) -> i64 {
        let mut score = self.stuck_part(stuck, 1000 / 50);
        if aggressive {
            score += self.stuck_part(stuck, 1000 / 4);
        }
        score
    }
}

impl Worked<'_> {
    /// How many unseen cards could not be played at `total`: how likely the next player is
    /// to be stuck there.
    #[inline(always)]
    fn stuck_cards(&self, p: &Ruleset, s: &State, total: i32) -> u32 {
        // The next player's situation is not known: the mover's stands in for it.
        let ok = playable_ranks(p, s, self.ranks, total);
        // The unseen cards of the ranks that cannot be laid.
        rank_sum(self.view.unseen.counts, !ok)
    }

    /// What a play is worth to the cautious bot, or to the aggressive one (as careful with
    /// its own chips and escape cards, but it aims the total where the next player has the
    /// fewest safe cards).
    #[inline(always)]
    fn score(&self, p: &Ruleset, s: &State, play: Play, aggressive: bool) -> i64 {
        let (value, new) = self.immediate(p, s, play);
        base(value, s.total, new, self.view.high) + self.adjust(p, s, play, new, aggressive)
    }

    /// The part of a play's score that is not [`base`]: laying an escape card, and the next
    /// player's chances at the total `new` it makes.
    #[inline(always)]
    fn adjust(&self, p: &Ruleset, s: &State, play: Play, new: i32, aggressive: bool) -> i64 {
        let mut score = -self.view.escape_cost(play.rank);
        // Where the column says every rank of the deck can be laid at the new total, no
        // card is stuck: a branch that is the same for every move of a game where any card
        // can always be laid (one with no upper limit, say), and so predicted; elsewhere the
        // count, with no branch.
        if self.ranks.all_at(new) {
            // The shortcut is the long way's answer (the unseen cards are of the deck's
            // ranks): every debug build of a game with these bots (the tests) checks it.
            debug_assert_eq!(
                Knowledge::new(p, s).worked(p, s).stuck_cards(p, s, new),
                0,
                "no stuck card at {new}"
            );
        } else {
            // Counted whenever a move may leave some.
            debug_assert!(
                self.view.unseen.counted,
                "the unseen cards were not counted"
            );
            score += self
                .view
                .stuck_parts(self.stuck_cards(p, s, new), aggressive);
        }
        score
    }

    /// What a play costs or gains its player at once, in chips (losing a round counts as
    /// its payments, which the ruleset lists), and the total it makes.
    ///
    /// A script's step is counted as its table says, as everywhere in the bots' estimates.
    #[inline(always)]
    fn immediate(&self, p: &Ruleset, s: &State, play: Play) -> (i64, i32) {
        // Most plays: a quiet choice (no outcome of its own, read from the table rather than
        // the choice), and at most the next bar in reach, its worth taken by products rather
        // than branches (whether a play reaches it is as good as random).
        let new = i64::from(play.total);
        let bars = self.bars;
        if p.legal().quiet(play.fx) >> play.choice & 1 != 0 && new < bars.bar_after {
            let value = i64::from(new == bars.next_bar) * bars.reach_worth
                + i64::from(new > bars.next_bar) * bars.pass_worth;
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

    /// [`Worked::immediate`] for a play with outcomes, a script or a bar in reach.
    #[inline(never)]
    fn immediate_worked_out(&self, p: &Ruleset, s: &State, ch: &Choice, total: i32) -> (i64, i32) {
        let facts = &s.facts(p);
        let new = if ch.scripted {
            choice_total(p, ch, facts)
        } else {
            total
        };
        let value =
            fired_worth(p, ch, facts, self.others) + bars_worth(p, s.total, new, self.others);
        (value.clamp(-WORTH_CAP, WORTH_CAP), new)
    }
}

/// The most a play's chips can be worth either way, far beyond any ruleset's (amounts are at
/// most a million, lists short): a score, 1000 times a worth and a few terms of at most a
/// total's rise, then times 16, stays far inside an `i64`.
pub(super) const WORTH_CAP: i64 = 1 << 40;

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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
    fn new(p: &Ruleset, s: &State, held: u128) -> Unseen {
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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
fn playable_ranks(p: &Ruleset, s: &State, ranks: Ranks, total: i32) -> u16 {
    // Most games: no choice is live, and the table's answer is the whole answer.
    if let Some(ok) = ranks.settled(total) {
        return ok;
    }
    match ranks.at(total) {
        Some([ok, live]) => ok | playable_live(p, s, live & !ok, total),
        None => playable_live(p, s, u16::MAX, total),
    }
}

/// [`playable_ranks`] for the ranks in `todo`, worked out.
#[inline(never)]
fn playable_live(p: &Ruleset, s: &State, todo: u16, total: i32) -> u16 {
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
