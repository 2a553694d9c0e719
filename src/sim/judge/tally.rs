//! What `judge` counts of each game, as exact integer sums: a sink for the engine's events and
//! a game loop that also reads the state between turns (the legal moves, the chips at each
//! round's end). Sums merge in any order, so a run gives the same tally on any number of
//! threads.

use crate::play::Ruleset;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::super::{Clustered, Histogram, WIN_UNIT};
use super::chips::Chips;
use super::sums::Sum;
use crate::base::rng::game_seed;
use crate::engine::{Event, Move, Reason, Setup, Sink, State, kind};
use crate::ir::{Origin, TriggerKind};
use crate::play::{self, Driver, Ending, Player};

/// Per-game shares (downtime, drama) are summed in millionths, exactly.
pub const MICRO: u64 = 1_000_000;

/// Every sum `judge` reports, for one ruleset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Tally {
    pub players: usize,
    /// Games finished (with a winner or stopped by the turn limit).
    pub games: u64,
    /// Games that failed (a move refused, a script error): not counted in `games`.
    pub failed: u64,
    pub with_winner: u64,
    pub turn_limited: u64,
    /// Games won by two or more players together.
    pub shared: u64,
    /// Win shares by seat, in units of [`WIN_UNIT`].
    pub wins: Vec<u64>,
    /// Win shares of whoever led the first round, in units of [`WIN_UNIT`].
    pub first_wins: u64,
    pub turns: Histogram,
    pub rounds: Histogram,
    /// Turns a player was to move (a bot was asked).
    pub decisions: u64,
    /// Turns with two or more legal cards that make different totals.
    pub choices: u64,
    /// Real choices per game.
    pub choices_per_game: Histogram,
    /// Real choices of the turns asked, a game at a time: the share's interval allows for
    /// the turns of one game being alike.
    #[serde(default)]
    pub choice_turns: Clustered,
    /// Players who could not play or had no cards.
    pub forced: u64,
    /// The same, a game at a time: busts of one game come together (one a round, say), so
    /// their interval is that of a mean per game, not of a Poisson count.
    #[serde(default)]
    pub forced_per_game: Histogram,
    /// By elimination order (0 = first out): the share of the game's turns spent out, in
    /// millionths, one value per player eliminated.
    pub downtime: Vec<Histogram>,
    /// Chip-leader changes, counted at each round's end.
    pub lead_changes: u64,
    /// Round ends at which the leader was looked at.
    pub lead_rounds: u64,
    /// Games with one winner, and of those the ones won by a player who was once last in chips.
    pub sole_wins: u64,
    pub comebacks: u64,
    /// Per game with one winner: CardStock's drama on the chips, in millionths.
    pub drama: Histogram,
    /// Per game with one winner: the share of its round ends after which the winner led alone
    /// for good, in millionths ([`Chips::decided_at`]).
    #[serde(default)]
    pub decided_at: Histogram,
    /// Per game with one winner: the mean over its losing players (or teams) of the share of
    /// its round ends until which they were level with the winner or ahead, in millionths.
    #[serde(default)]
    pub hope: Histogram,
    /// Rule impact: by effect, cards played under it and rounds it decided.
    pub fx_fired: Vec<u64>,
    pub fx_decided: Vec<u64>,
    /// By outcome list: times it happened and rounds it decided.
    pub out_fired: Vec<u64>,
    pub out_decided: Vec<u64>,
    /// Rounds that ended; and faults: rounds that ended with a loser, players put out of a
    /// round (as Ninety-Eight's player who cannot play) or of the game, each player once a
    /// round: what a rule can decide.
    pub round_ends: u64,
    #[serde(alias = "lost_rounds")]
    pub faults: u64,
    /// Games in which each effect, and each outcome list, happened at least once.
    pub fx_games: Vec<u64>,
    pub out_games: Vec<u64>,
    /// By move beside laying a card: times a player made it, games in which one did, and
    /// rounds lost by the player who made it, on the turn they made it.
    #[serde(default)]
    pub other_fired: Vec<u64>,
    #[serde(default)]
    pub other_games: Vec<u64>,
    #[serde(default)]
    pub other_decided: Vec<u64>,
    /// Games in which a card line fired, by where it was written ([`line_key`]): a line
    /// may compile to several effects.
    pub line_games: BTreeMap<u64, u64>,
    /// The skill ladder, when it was played (`--skill`): worked out apart, never merged.
    #[serde(default)]
    pub skill: Vec<super::skill::Rung>,
    /// Each bot of the ladder in one seat against `random` in the others (CardStock's Order),
    /// with `--skill`.
    #[serde(default)]
    pub order: Vec<super::skill::Rung>,
    /// Restricted play (`--restrict`): worked out apart, never merged.
    #[serde(default)]
    pub restricted: Option<super::restrict::Restricted>,
    /// What the lead is counted in, in words (`in chips`, `in points (the most, as the
    /// fewest win)`): what the winner line ranks players by.
    #[serde(default)]
    pub standing: String,
}

/// What the winner line ranks players by, and which way: the lead, last place and drama are
/// counted in it (the chips by default, and for the last player left).
pub(super) fn standing(p: &Ruleset) -> crate::ir::Standing {
    match p.winner {
        crate::ir::Winner::Best(st) => st,
        crate::ir::Winner::LastLeft => crate::ir::Winner::MOST_CHIPS_STANDING,
    }
}

/// What a whole stack is, for drama: the starting chips, or for a count the mark that ends
/// the game (`the game ends when a player reaches 300 points`), else 100.
fn drama_scale(p: &Ruleset) -> i32 {
    match standing(p).by {
        crate::ir::Holding::Chips => p.chips,
        by @ crate::ir::Holding::Count(_) => {
            p.ending.reach.filter(|m| m.by == by).map_or(100, |m| m.at)
        }
    }
}

/// [`standing`] in words.
fn standing_words(p: &Ruleset) -> String {
    let st = standing(p);
    let what = match st.by {
        crate::ir::Holding::Chips => "chips".to_string(),
        crate::ir::Holding::Count(i) => p
            .counts
            .get(usize::from(i))
            .map_or_else(|| "points".to_string(), |c| c.name.clone()),
    };
    if st.most {
        format!("in {what}")
    } else {
        format!("in {what} (the most, as the fewest win)")
    }
}

/// Where an effect was written, as one number: its file and line.
pub fn line_key(o: Origin) -> u64 {
    (u64::from(o.file) << 32) | u64::from(o.line)
}

impl Tally {
    pub fn new(p: &Ruleset, players: usize) -> Tally {
        Tally {
            players,
            wins: vec![0; players],
            downtime: vec![Histogram::default(); players],
            fx_fired: vec![0; p.effects.len()],
            fx_decided: vec![0; p.effects.len()],
            out_fired: vec![0; p.outcomes.len()],
            out_decided: vec![0; p.outcomes.len()],
            fx_games: vec![0; p.effects.len()],
            out_games: vec![0; p.outcomes.len()],
            other_fired: vec![0; p.others.len()],
            other_games: vec![0; p.others.len()],
            other_decided: vec![0; p.others.len()],
            standing: standing_words(p),
            ..Tally::default()
        }
    }

    /// Adds another tally of the same ruleset and players. The sums of games played never
    /// overflow; a tally read from a file is added with [`Tally::try_merge`], which says so.
    pub fn merge(&mut self, o: &Tally) {
        let _ = self.try_merge(o);
    }

    /// Adds another tally, all or nothing: `None` (and this tally unchanged) when a sum would
    /// overflow or the figures are not of the same ruleset and players (vectors of other
    /// lengths). The skill ladder, Order and restricted play are worked out apart, and kept.
    #[must_use]
    pub fn try_merge(&mut self, o: &Tally) -> Option<()> {
        if self.players != o.players {
            return None;
        }
        let mut m = self.clone();
        m.games.sum_in(&o.games)?;
        m.failed.sum_in(&o.failed)?;
        m.with_winner.sum_in(&o.with_winner)?;
        m.turn_limited.sum_in(&o.turn_limited)?;
        m.shared.sum_in(&o.shared)?;
        m.wins.sum_in(&o.wins)?;
        m.first_wins.sum_in(&o.first_wins)?;
        m.turns.sum_in(&o.turns)?;
        m.rounds.sum_in(&o.rounds)?;
        m.decisions.sum_in(&o.decisions)?;
        m.choices.sum_in(&o.choices)?;
        m.choices_per_game.sum_in(&o.choices_per_game)?;
        m.choice_turns.sum_in(&o.choice_turns)?;
        m.forced.sum_in(&o.forced)?;
        m.forced_per_game.sum_in(&o.forced_per_game)?;
        m.downtime.sum_in(&o.downtime)?;
        m.lead_changes.sum_in(&o.lead_changes)?;
        m.lead_rounds.sum_in(&o.lead_rounds)?;
        m.sole_wins.sum_in(&o.sole_wins)?;
        m.comebacks.sum_in(&o.comebacks)?;
        m.drama.sum_in(&o.drama)?;
        m.decided_at.sum_in(&o.decided_at)?;
        m.hope.sum_in(&o.hope)?;
        m.fx_fired.sum_in(&o.fx_fired)?;
        m.fx_decided.sum_in(&o.fx_decided)?;
        m.out_fired.sum_in(&o.out_fired)?;
        m.out_decided.sum_in(&o.out_decided)?;
        m.round_ends.sum_in(&o.round_ends)?;
        m.faults.sum_in(&o.faults)?;
        m.fx_games.sum_in(&o.fx_games)?;
        m.out_games.sum_in(&o.out_games)?;
        m.other_fired.sum_in(&o.other_fired)?;
        m.other_games.sum_in(&o.other_games)?;
        m.other_decided.sum_in(&o.other_decided)?;
        m.line_games.sum_in(&o.line_games)?;
        *self = m;
        Some(())
    }
}

/// One game's events, as `judge` needs them.
struct Tracker<'p> {
    p: &'p Ruleset,
    /// What the game showed between its turns.
    turns: Turns,
    /// The turn being played (set by the loop before each move).
    turn: u64,
    first_leader: Option<u8>,
    forced: u64,
    /// The turn each seat was eliminated on, in order.
    outs: Vec<(u8, u64)>,
    /// The effect of the last card of this round, and the last outcome list a player paid by.
    last_fx: Option<u16>,
    last_pay: Option<(u8, u16)>,
    /// The round-start/end outcome lists already counted this round (a list pays many seats).
    counted_round: Vec<u16>,
    fx_fired: Vec<u64>,
    out_fired: Vec<u64>,
    fx_decided: Vec<u64>,
    out_decided: Vec<u64>,
    /// The last move beside laying a card: its seat, its index and the turn it was made on.
    last_other: Option<(u8, u8, u64)>,
    other_fired: Vec<u64>,
    other_decided: Vec<u64>,
    round_ends: u64,
    faults: u64,
    /// The seats put out of this round so far (a bit a seat).
    faulted: u16,
    /// The total before the move being played.
    total_before: i32,
}

impl<'p> Tracker<'p> {
    fn new(p: &'p Ruleset) -> Tracker<'p> {
        Tracker {
            p,
            turns: Turns {
                asked: 0,
                choices: 0,
                chips: Chips::default(),
                round: 0,
            },
            turn: 0,
            first_leader: None,
            forced: 0,
            outs: Vec::new(),
            last_fx: None,
            last_pay: None,
            counted_round: Vec::new(),
            fx_fired: vec![0; p.effects.len()],
            out_fired: vec![0; p.outcomes.len()],
            fx_decided: vec![0; p.effects.len()],
            out_decided: vec![0; p.outcomes.len()],
            last_other: None,
            other_fired: vec![0; p.others.len()],
            other_decided: vec![0; p.others.len()],
            round_ends: 0,
            faults: 0,
            faulted: 0,
            total_before: 0,
        }
    }

    /// Seat `l` lost the round or was put out of it: the card laid last, the rule `l` paid by
    /// and the move `l` made on this turn decided it.
    fn fault(&mut self, l: u8) {
        self.faults += 1;
        self.faulted |= 1 << l;
        if let Some(n) = self
            .last_fx
            .and_then(|f| self.fx_decided.get_mut(usize::from(f)))
        {
            *n += 1;
        }
        if let Some((seat, rule)) = self.last_pay
            && seat == l
            && let Some(n) = self.out_decided.get_mut(usize::from(rule))
        {
            *n += 1;
        }
        if let Some((seat, index, turn)) = self.last_other
            && seat == l
            && turn == self.turn
            && let Some(n) = self.other_decided.get_mut(usize::from(index))
        {
            *n += 1;
        }
        // The next fault of the round is decided by what comes after this one.
        self.last_fx = None;
        self.last_pay = None;
        self.last_other = None;
    }

    fn fire_outcome(&mut self, i: Option<u16>) {
        if let Some(slot) = i.and_then(|i| self.out_fired.get_mut(usize::from(i))) {
            *slot += 1;
        }
    }
}

impl Sink for Tracker<'_> {
    const WANTS: u32 = kind::DEAL
        | kind::PLAY
        | kind::PAY
        | kind::BAR
        | kind::CANNOT_PLAY
        | kind::NO_CARDS
        | kind::ELIMINATED
        | kind::ROUND_END
        | kind::MOMENT
        | kind::OTHER
        | kind::OUT_OF_ROUND;

    fn event(&mut self, e: Event) {
        match e {
            Event::Moment { rule, .. } => {
                // A trigger with cases tells the line that ran as a moment's: counted here,
                // and not again by what it pays.
                if !self.counted_round.contains(&rule) {
                    self.fire_outcome(Some(rule));
                }
                let once = [
                    TriggerKind::RoundStart,
                    TriggerKind::RoundEnd,
                    TriggerKind::GameEnd,
                ];
                if once
                    .into_iter()
                    .any(|k| self.p.trigger_lines(k).any(|i| i == rule))
                {
                    self.counted_round.push(rule);
                }
            }
            Event::Deal { leader, .. } => {
                self.first_leader.get_or_insert(leader);
                // `at the start of each round: ...` runs as each round is dealt, whatever it
                // does (a count reset, a draw), once a round.
                if let Some(r) = self.p.triggers.round_start
                    && !self.p.has_cases(TriggerKind::RoundStart)
                    && !self.counted_round.contains(&r)
                {
                    self.counted_round.push(r);
                    self.fire_outcome(Some(r));
                }
            }
            Event::Play {
                fx, choice, total, ..
            } => {
                if let Some(n) = self.fx_fired.get_mut(usize::from(fx)) {
                    *n += 1;
                }
                // A card that changed nothing (the same total, no turn effect, nothing of its
                // own: a free pass) decides nothing: the card before it still does.
                let idle = total == self.total_before
                    && self.p.effects.get(usize::from(fx)).is_some_and(|e| {
                        e.choices().get(usize::from(choice)).is_some_and(|c| {
                            c.simple && !c.scripted && c.turn == crate::ir::Turn::default()
                        })
                    });
                if !idle {
                    self.last_fx = Some(fx);
                }
            }
            Event::Pay {
                seat, rule, reason, ..
            } => {
                self.last_pay = Some((seat, rule));
                if matches!(
                    reason,
                    Reason::RoundStart | Reason::RoundEnd | Reason::GameEnd
                ) && !self.counted_round.contains(&rule)
                {
                    self.counted_round.push(rule);
                    self.fire_outcome(Some(rule));
                }
            }
            Event::Bar { value, passed, .. } => {
                let bar = self.p.bars.iter().find(|b| b.value == value);
                let rule = bar.and_then(|b| if passed { b.pass } else { b.reach });
                self.fire_outcome(rule);
            }
            Event::CannotPlay { .. } => {
                self.forced += 1;
                if !self.p.has_cases(TriggerKind::CannotPlay) {
                    self.fire_outcome(self.p.triggers.cannot_play);
                }
            }
            Event::NoCards { .. } => {
                self.forced += 1;
                if !self.p.has_cases(TriggerKind::NoCards) {
                    self.fire_outcome(self.p.triggers.no_cards);
                }
            }
            Event::Other { seat, index, .. } => {
                if let Some(n) = self.other_fired.get_mut(usize::from(index)) {
                    *n += 1;
                }
                self.last_other = Some((seat, index, self.turn));
            }
            Event::Eliminated { seat } => {
                self.outs.push((seat, self.turn + 1));
                if self.faulted & (1 << seat) == 0 {
                    self.fault(seat);
                }
            }
            Event::OutOfRound { seat } if self.faulted & (1 << seat) == 0 => self.fault(seat),
            Event::RoundEnd { loser, .. } => {
                self.round_ends += 1;
                // A loser already put out of the round was counted then.
                if let Some(l) = loser.filter(|l| self.faulted & (1 << l) == 0) {
                    self.fault(l);
                }
                self.faulted = 0;
                self.last_fx = None;
                self.last_pay = None;
                self.last_other = None;
                self.counted_round.clear();
            }
            _ => {}
        }
    }
}

/// The seat a seat's result is counted at: the first seat in the game of its team (itself,
/// without teams), so a team leads, trails and wins as one.
pub(super) fn party(p: &Ruleset, s: &State, seat: u8) -> u8 {
    if p.team_size.is_none() {
        return seat;
    }
    let acc = s.account(p, seat);
    (0..s.seats)
        .find(|&x| s.in_game(x) && s.account(p, x) == acc)
        .unwrap_or(seat)
}

/// Whether the seat to move has a real choice: two or more legal cards making different totals.
fn real_choice(p: &Ruleset, s: &State) -> bool {
    let mut moves = s.legal_moves(p);
    moves.retain_plays();
    let list = moves.as_slice();
    let totals = moves.totals();
    let Some(first) = list.first().map(|m| result(*m, totals[0])) else {
        return false;
    };
    list.iter()
        .zip(totals)
        .any(|(m, t)| result(*m, *t) != first)
}

/// What a move makes, as far as a choice among moves goes: the total, and what it names
/// besides (the player named, the card given, the move beside laying a card and its card).
/// Two cards that make the same total and name nothing are one decision.
fn result(m: Move, total: i32) -> (i32, u32) {
    let face = |c: u8| u32::from(c % crate::base::cards::COPY);
    let named = match m {
        Move::Play { .. } => 0,
        Move::Aim { seat, .. } => 1 << 16 | u32::from(seat),
        Move::Give { gift, .. } => 2 << 16 | face(gift),
        Move::Other { index, card } => 3 << 16 | u32::from(index) << 8 | face(card),
        Move::Yield => 4 << 16,
        Move::Draw => 5 << 16,
    };
    (total, named)
}

/// What a game showed between its turns: how often the player to move had a real choice,
/// and the chips at each round's end.
struct Turns {
    asked: u64,
    choices: u64,
    chips: Chips,
    /// The round of the turn being played.
    round: u32,
}

impl play::Watch for Tracker<'_> {
    const EVERY_TURN: bool = true;

    fn before(&mut self, p: &Ruleset, s: &State) {
        self.turns.chips.start(p, s);
        self.turns.asked += 1;
        if real_choice(p, s) {
            self.turns.choices += 1;
        }
        self.turn = s.turns;
        self.turns.round = s.round;
        self.total_before = s.total;
    }

    fn after(&mut self, p: &Ruleset, s: &State) {
        if s.round != self.turns.round || s.over {
            self.turns.chips.look(p, s);
        }
    }
}

/// Plays game `index` of the run seeded `master` with one player a seat, into `t`. `Err` only
/// when a script met the guard of last resort (the run must stop).
pub fn play_game(
    p: &Ruleset,
    seats: &[Player],
    (master, index): (u64, u64),
    stopped: &dyn Fn() -> bool,
    t: &mut Tally,
) -> Result<(), String> {
    let seed = game_seed(master, index);
    let mut tracker = Tracker::new(p);
    let setup = Setup {
        players: seats.len(),
        seed,
        ..Setup::default()
    };
    let mut driver = Driver::new(p, seats, seed);
    let ending = match driver.start(&setup, &mut tracker) {
        Ok(mut s) => {
            let ending = driver.play_watched(&mut s, stopped, &mut tracker);
            if matches!(ending, Ending::Over | Ending::TurnLimit) {
                add(p, &s, &tracker, ending == Ending::TurnLimit, t);
            }
            ending
        }
        Err(ending) => ending,
    };
    match ending {
        Ending::Guard => Err(play::GUARD_WORDS.to_string()),
        e if e.failed() => {
            t.failed += 1;
            Ok(())
        }
        // Finished, or stopped (Ctrl-C) before its end: not counted.
        _ => Ok(()),
    }
}

/// Adds a finished game to the tally.
fn add(p: &Ruleset, s: &State, w: &Tracker<'_>, limited: bool, t: &mut Tally) {
    let e = &w.turns;
    t.games += 1;
    t.turns.add(s.turns);
    t.rounds.add(u64::from(s.round));
    t.decisions += e.asked;
    t.choices += e.choices;
    t.choices_per_game.add(e.choices);
    t.choice_turns.add(e.choices, e.asked);
    t.forced += w.forced;
    t.forced_per_game.add(w.forced);
    let winners = if limited { Vec::new() } else { s.winner_list() };
    if limited {
        t.turn_limited += 1;
    }
    if !winners.is_empty() {
        t.with_winner += 1;
        let share = WIN_UNIT / winners.len() as u64;
        for &x in &winners {
            if let Some(slot) = t.wins.get_mut(usize::from(x)) {
                *slot += share;
            }
            if w.first_leader == Some(x) {
                t.first_wins += share;
            }
        }
    }
    if winners.len() > 1 {
        t.shared += 1;
    }
    // One winner, or one team: its result is counted at its first seat.
    let mut parties: Vec<u8> = winners.iter().map(|&x| party(p, s, x)).collect();
    parties.dedup();
    if let [only] = parties[..] {
        t.sole_wins += 1;
        if e.chips.been_last & (1 << only) != 0 {
            t.comebacks += 1;
        }
        t.drama
            .add(e.chips.drama(usize::from(only), drama_scale(p)));
        if let Some(at) = e.chips.decided_at(usize::from(only)) {
            t.decided_at.add(at);
        }
        // One figure a game (its losers' mean), so that the games are the sample.
        let hope = e.chips.hope(usize::from(only));
        if !hope.is_empty() {
            t.hope.add(hope.iter().sum::<u64>() / hope.len() as u64);
        }
    }
    let total = s.turns.max(1);
    for (order, &(_, at)) in w.outs.iter().enumerate() {
        if let Some(h) = t.downtime.get_mut(order) {
            let waited = s.turns.saturating_sub(at);
            h.add(waited * MICRO / total);
        }
    }
    t.lead_changes += e.chips.changes;
    t.lead_rounds += e.chips.history.len() as u64;
    let pairs = [
        (&mut t.fx_fired, &w.fx_fired, &mut t.fx_games),
        (&mut t.out_fired, &w.out_fired, &mut t.out_games),
    ];
    for (sum, game, games) in pairs {
        for ((a, b), g) in sum.iter_mut().zip(game).zip(games.iter_mut()) {
            *a += b;
            *g += u64::from(*b > 0);
        }
    }
    let mut lines: Vec<u64> = (0..w.fx_fired.len())
        .filter(|&i| w.fx_fired[i] > 0)
        .filter_map(|i| p.effects.get(i).map(|e| line_key(e.origin)))
        .collect();
    lines.sort_unstable();
    lines.dedup();
    for k in lines {
        *t.line_games.entry(k).or_insert(0) += 1;
    }
    for (a, b) in t.fx_decided.iter_mut().zip(&w.fx_decided) {
        *a += b;
    }
    for (a, b) in t.out_decided.iter_mut().zip(&w.out_decided) {
        *a += b;
    }
    for ((a, g), b) in t
        .other_fired
        .iter_mut()
        .zip(t.other_games.iter_mut())
        .zip(&w.other_fired)
    {
        *a += b;
        *g += u64::from(*b > 0);
    }
    for (a, b) in t.other_decided.iter_mut().zip(&w.other_decided) {
        *a += b;
    }
    t.round_ends += w.round_ends;
    t.faults += w.faults;
}
