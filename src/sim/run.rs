//! Running games: each seeded from the run's seed and its number, played by bots on a pool of
//! threads, its events counted by a [`Sink`] and folded into [`Stats`] per thread.

use crate::play::Ruleset;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::{Stats, WIN_UNIT};
use crate::base::limits::SCRIPT_STACK_BYTES;
use crate::base::rng::game_seed;
use crate::engine::{self, Event, Reason, Setup, Sink, kind};
use crate::ir::{Bar, MAX_SEATS};
use crate::play::{Driver, Ending, Player};

/// What a run is: the same for every shard of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    pub ruleset: String,
    pub name: String,
    pub players: usize,
    pub bots: Vec<String>,
    pub seed: u64,
    pub games: u64,
    pub sets: Vec<(String, String)>,
}

/// Counts one game's events without keeping them. One counter a thread serves its games
/// one after the other ([`Counter::clear`]), so a game allocates nothing.
struct Counter<'p> {
    /// The program's bars, sorted by value: a bar is counted by its place among them, so
    /// every bar is counted, however many the program has.
    bars: &'p [Bar],
    chips: [u64; 4],
    reached: Vec<u32>,
    passed: Vec<u32>,
    forced: u64,
    chosen: u64,
    /// Cards a rule made players draw, cards handed between hands, hands swapped.
    moved: [u64; 3],
    /// Whether a rule of the program moves cards (then the figures are reported, 0 or not).
    moves_cards: bool,
    /// Moves beside laying a card, by index of `Program::others`, then players named.
    others: [u64; crate::ir::MAX_OTHERS + 1],
    /// The words of those moves; empty where the rules offer none.
    other_words: Vec<&'static str>,
    /// Whether a card names a player (then the players named are reported).
    aims: bool,
    out_order: [u8; MAX_SEATS],
    outs: usize,
}

impl<'p> Counter<'p> {
    fn new(p: &'p Ruleset) -> Counter<'p> {
        Counter {
            bars: &p.bars,
            chips: [0; 4],
            reached: vec![0; p.bars.len()],
            passed: vec![0; p.bars.len()],
            forced: 0,
            chosen: 0,
            moved: [0; 3],
            moves_cards: p.moves_cards(),
            others: [0; crate::ir::MAX_OTHERS + 1],
            aims: p.aims(),
            other_words: if p.more_moves() {
                p.others.iter().map(|o| o.word()).collect()
            } else {
                Vec::new()
            },
            out_order: [0; MAX_SEATS],
            outs: 0,
        }
    }

    /// Ready for the next game.
    fn clear(&mut self) {
        self.chips = [0; 4];
        self.reached.fill(0);
        self.passed.fill(0);
        self.forced = 0;
        self.chosen = 0;
        self.moved = [0; 3];
        self.others = [0; crate::ir::MAX_OTHERS + 1];
        self.outs = 0;
    }
}

impl Sink for Counter<'_> {
    // Only what the statistics count: no event is built for a card played, a draw, a deal.
    const WANTS: u32 = kind::PAY
        | kind::BAR
        | kind::CANNOT_PLAY
        | kind::NO_CARDS
        | kind::ROUND_END
        | kind::ELIMINATED
        | kind::CHANGED
        | kind::CARDS
        | kind::OTHER;
    // Inlined where each event is made, so the match on its kind is decided there, not by
    // a jump through a table at every event.
    #[inline(always)]
    fn event(&mut self, e: Event) {
        match e {
            Event::Pay { amount, reason, .. } => {
                let k = match reason {
                    Reason::CannotPlay | Reason::NoCards => 0,
                    Reason::Passed(_) => 1,
                    Reason::Reached(_) => 2,
                    Reason::Card(_)
                    | Reason::RoundStart
                    | Reason::RoundEnd
                    | Reason::GameEnd
                    | Reason::Script(_)
                    | Reason::Moment
                    | Reason::Other(_) => 3,
                };
                self.chips[k] += amount.max(0) as u64;
            }
            Event::Bar { value, passed, .. } => {
                let list = if passed {
                    &mut self.passed
                } else {
                    &mut self.reached
                };
                if let Ok(i) = self.bars.binary_search_by_key(&value, |b| b.value) {
                    list[i] += 1;
                }
            }
            Event::CannotPlay { .. } | Event::NoCards { .. } => self.forced += 1,
            // A round lost to the card just played: a chosen bust.
            Event::RoundEnd {
                loser: Some(_),
                by_card: true,
                ..
            } => self.chosen += 1,
            Event::Eliminated { seat } => {
                if self.outs < MAX_SEATS {
                    self.out_order[self.outs] = seat;
                    self.outs += 1;
                }
            }
            // Chips a rule took away by setting them: lost to the other rules.
            Event::Changed {
                what: crate::ir::Quantity::Chips,
                from,
                to,
                ..
            } => self.chips[3] += u64::try_from(from.saturating_sub(to)).unwrap_or(0),
            Event::Drew { cards, .. } => self.moved[0] += u64::from(cards),
            Event::Handed { .. } => self.moved[1] += 1,
            Event::Swapped { .. } => self.moved[2] += 1,
            Event::Other { index, .. } => {
                if let Some(n) = self.others.get_mut(usize::from(index)) {
                    *n += 1;
                }
            }
            Event::Chose { .. } => self.others[crate::ir::MAX_OTHERS] += 1,
            Event::Deal { .. }
            | Event::Play { .. }
            | Event::Draw { .. }
            | Event::Forgot { .. }
            | Event::Reshuffle { .. }
            | Event::Skip { .. }
            | Event::Reverse { .. }
            | Event::PlayAgain { .. }
            | Event::TakePot { .. }
            | Event::Gain { .. }
            | Event::OutOfRound { .. }
            | Event::TotalReset { .. }
            | Event::RoundEnd { .. }
            | Event::GameEnd { .. }
            | Event::Moment { .. }
            | Event::Changed { .. } => {}
        }
    }
}

/// Plays game `index` and adds it to `stats`, unless `stopped` says the run is cancelled
/// before the game ends (then it is not counted). A game a script's guard stopped is not
/// counted either: `guard` is set, and the run ends with an error.
fn play_one(
    p: &Ruleset,
    seats: &[Player],
    players: usize,
    (master, index): (u64, u64),
    (stopped, guard): (&dyn Fn() -> bool, &AtomicBool),
    (stats, spare, c): (
        &mut Stats,
        &mut Option<Box<engine::State>>,
        &mut Counter<'_>,
    ),
) {
    let seed = game_seed(master, index);
    c.clear();
    let setup = Setup {
        players,
        seed,
        ..Setup::default()
    };
    let mut driver = Driver::new(p, seats, seed);
    // On the table of this thread's last game, laid out again in place (boxed: the fold
    // that carries it from game to game moves a pointer, not a table).
    let ending = match driver.start_in(&setup, c, spare) {
        Ok(s) => {
            let ending = driver.play(s, stopped, c);
            if matches!(ending, Ending::Over | Ending::TurnLimit) {
                add_game(s, c, players, ending == Ending::TurnLimit, stats);
            }
            ending
        }
        Err(ending) => ending,
    };
    match ending {
        Ending::Guard => guard.store(true, Ordering::Relaxed),
        // A game that could not go on, or a move that failed (a script that fails every
        // move, a bot with no move): counted, not fatal.
        e if e.failed() => stats.failed += 1,
        _ => {}
    }
}

/// Adds a finished game and what its counter saw to `stats`.
fn add_game(s: &engine::State, c: &Counter<'_>, players: usize, limited: bool, stats: &mut Stats) {
    stats.games += 1;
    if limited {
        stats.turn_limited += 1;
    }
    if s.winners != 0 && !limited {
        let share = WIN_UNIT / u64::from(s.winners.count_ones());
        for seat in s.winning_seats().map(usize::from) {
            stats.wins[seat] += share;
            stats.won_games[seat] += 1;
        }
    }
    stats.turns.add(s.turns);
    stats.rounds.add(u64::from(s.round));
    let names = ["bust", "passed", "reached", "other"];
    let mut lost = 0;
    for (name, n) in names.iter().zip(c.chips) {
        // The names are in the map after the first game: no string is built per game.
        match stats.chips_lost.get_mut(*name) {
            Some(total) => *total += n,
            None => {
                stats.chips_lost.insert((*name).to_string(), n);
            }
        }
        lost += n;
    }
    stats.chips_per_game.add(lost);
    for (bar, n) in c.bars.iter().zip(&c.reached).filter(|(_, n)| **n > 0) {
        *stats.bar_reached.entry(bar.value).or_insert(0) += u64::from(*n);
    }
    for (bar, n) in c.bars.iter().zip(&c.passed).filter(|(_, n)| **n > 0) {
        *stats.bar_passed.entry(bar.value).or_insert(0) += u64::from(*n);
    }
    stats.forced_busts += c.forced;
    stats.chosen_busts += c.chosen;
    if c.moves_cards {
        for (name, n) in ["drawn", "handed", "swaps"].into_iter().zip(c.moved) {
            *stats.cards_moved.entry(name.to_string()).or_insert(0) += n;
        }
    }
    for (word, n) in c.other_words.iter().zip(c.others) {
        *stats.moves.entry(word.to_string()).or_insert(0) += n;
    }
    if c.aims {
        *stats.moves.entry("named".to_string()).or_insert(0) += c.others[crate::ir::MAX_OTHERS];
    }
    // Places: the eliminated in order, then the players never out.
    let mut place = [players - 1; MAX_SEATS];
    for (i, seat) in c.out_order[..c.outs].iter().enumerate() {
        place[usize::from(*seat)] = i.min(players - 1);
    }
    for (seat, &pl) in place[..players].iter().enumerate() {
        stats.elimination[seat][pl] += 1;
    }
}

/// How a run is carried out: its threads, its slice, and who may stop it. None of these
/// changes its statistics, only which games it plays.
#[derive(Clone, Copy)]
pub struct Control<'a> {
    /// Threads (at least 1).
    pub jobs: usize,
    /// Shard `k` of `n`: the games whose number is `k - 1` modulo `n`.
    pub shard: Option<(u64, u64)>,
    /// Set (by Ctrl-C): games not yet started are skipped and the statistics cover those
    /// played.
    pub cancel: Option<&'a AtomicBool>,
    /// Called after each game (a progress bar).
    pub tick: Option<&'a (dyn Fn() + Sync)>,
}

impl std::fmt::Debug for Control<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Control")
            .field("jobs", &self.jobs)
            .field("shard", &self.shard)
            .finish_non_exhaustive()
    }
}

impl Control<'_> {
    /// The whole run on `jobs` threads, not cancellable.
    pub fn jobs(jobs: usize) -> Control<'static> {
        Control {
            jobs,
            shard: None,
            cancel: None,
            tick: None,
        }
    }
}

/// The threads a run may use: what it asks, at least 1 and at most the machine's cores.
pub fn threads(jobs: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    jobs.clamp(1, cores)
}

/// Runs `work` (rayon's parallel iterators) on a pool of `jobs` threads, each with room for
/// the deepest value a script may build.
#[cfg(not(target_family = "wasm"))]
pub fn on_threads<T: Send>(jobs: usize, work: impl FnOnce() -> T + Send) -> Result<T, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads(jobs))
        .stack_size(SCRIPT_STACK_BYTES + (16 << 20))
        .build()
        .map_err(|e| e.to_string())?;
    Ok(pool.install(work))
}

/// In wasm32 (a browser's worker) there are no threads: rayon's global pool is the calling
/// thread itself, so `work` runs there, one game after another, with the same result.
#[cfg(target_family = "wasm")]
pub fn on_threads<T: Send>(jobs: usize, work: impl FnOnce() -> T + Send) -> Result<T, String> {
    const _NATIVE: usize = SCRIPT_STACK_BYTES;
    let _ = threads(jobs);
    Ok(work())
}

/// The games of a run or of its shard, by number: `first`, `first + step`, ... below `games`.
fn slice(games: u64, shard: Option<(u64, u64)>) -> (u64, u64, u64) {
    let (first, step) = match shard {
        Some((k, n)) if k >= 1 && n >= 1 => (k - 1, n),
        _ => (0, 1),
    };
    let count = if games > first {
        (games - first - 1) / step + 1
    } else {
        0
    };
    (first, step, count)
}

/// How many games the slice `shard` of a run of `games` holds.
pub fn slice_games(games: u64, shard: Option<(u64, u64)>) -> u64 {
    slice(games, shard).2
}

/// Plays the games of a run (or of its shard) as `control` says. Cancelled, it stops within
/// a turn of a game (1,024 with random bots in every seat, a fraction of a millisecond),
/// counting only the games it finished.
pub fn run(
    p: &Ruleset,
    bots: &[Player],
    cfg: &Config,
    control: &Control<'_>,
) -> Result<Stats, String> {
    if bots.is_empty() {
        return Err("no bots given".into());
    }
    let players = cfg.players;
    // One player a seat: the bots given, in turn round the table.
    let seats: Vec<Player> = (0..players).map(|i| bots[i % bots.len()].clone()).collect();
    let guard = AtomicBool::new(false);
    let stopped = || {
        control.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) || guard.load(Ordering::Relaxed)
    };
    let (first, step, count) = slice(cfg.games, control.shard);
    let stats = on_threads(control.jobs, || {
        (0..count)
            .into_par_iter()
            .map(|j| (!stopped()).then_some(first + j * step))
            .while_some()
            .fold(
                // The counter boxed, as the table: the fold moves pointers from game to game.
                || (Stats::new(players), None, Box::new(Counter::new(p))),
                |(mut st, mut spare, mut c), i| {
                    play_one(
                        p,
                        &seats,
                        players,
                        (cfg.seed, i),
                        (&stopped, &guard),
                        (&mut st, &mut spare, &mut c),
                    );
                    if let Some(tick) = control.tick {
                        tick();
                    }
                    (st, spare, c)
                },
            )
            .map(|(st, _, _)| st)
            .reduce(
                || Stats::new(players),
                |mut a, b| {
                    a.merge(&b);
                    a
                },
            )
    })?;
    if guard.load(Ordering::Relaxed) {
        return Err(crate::play::GUARD_WORDS.to_string());
    }
    Ok(stats)
}
