//! Running games: each seeded from the run's seed and its number, played by bots on a pool of
//! threads, its events counted by a [`Sink`] and folded into [`Stats`] per thread.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::{Stats, WIN_UNIT};
use crate::base::Rng;
use crate::base::limits::SCRIPT_STACK_BYTES;
use crate::base::rng::game_seed;
use crate::engine::{self, Event, Kernel, Pick, Reason, Setup, Sink, TURN_LIMIT, kind};
use crate::ir::{MAX_SEATS, Program};
use crate::play::{self, Bot, Player};

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

/// A run looks whether it was stopped every this many turns of a game (and between games)
/// when random or weighing bots hold every seat: the engine's loop of plain turns plays
/// that many in a row, about a millisecond at most. With other bots (a search may take
/// milliseconds a turn) it looks every turn.
const CHECK_EVERY: u64 = 1024;

/// Counts one game's events without keeping them.
struct Counter {
    chips: [u64; 4],
    reached: [(i32, u32); 8],
    passed: [(i32, u32); 8],
    forced: u64,
    chosen: u64,
    out_order: [u8; MAX_SEATS],
    outs: usize,
}

impl Sink for Counter {
    // Only what the statistics count: no event is built for a card played, a draw, a deal.
    const WANTS: u32 = kind::PAY
        | kind::BAR
        | kind::CANNOT_PLAY
        | kind::NO_CARDS
        | kind::ROUND_END
        | kind::ELIMINATED;
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
                    | Reason::Script(_) => 3,
                };
                self.chips[k] += amount.max(0) as u64;
            }
            Event::Bar { value, passed, .. } => {
                let list = if passed {
                    &mut self.passed
                } else {
                    &mut self.reached
                };
                if let Some(slot) = list.iter_mut().find(|(v, c)| *v == value || *c == 0) {
                    slot.0 = value;
                    slot.1 += 1;
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
            | Event::GameEnd { .. } => {}
        }
    }
}

/// Plays game `index` and adds it to `stats`, unless `stopped` says the run is cancelled
/// before the game ends (then it is not counted). A game a script's guard stopped is not
/// counted either: `guard` is set, and the run ends with an error.
fn play_one(
    p: &Program,
    seats: &[Player],
    players: usize,
    (master, index): (u64, u64),
    (stopped, guard): (&dyn Fn() -> bool, &AtomicBool),
    (stats, spare): (&mut Stats, &mut Option<Box<engine::State>>),
) {
    play::game_clock(p, seats, true);
    let seed = game_seed(master, index);
    let mut c = Counter {
        chips: [0; 4],
        reached: [(0, 0); 8],
        passed: [(0, 0); 8],
        forced: 0,
        chosen: 0,
        out_order: [0; MAX_SEATS],
        outs: 0,
    };
    let setup = Setup {
        players,
        seed,
        ..Setup::default()
    };
    // On the table of this thread's last game, laid out again in place (boxed: the fold
    // that carries it from game to game moves a pointer, not a table).
    let started = match spare {
        Some(s) => engine::new_game_in(p, &setup, &mut c, s),
        None => engine::new_game(p, &setup, &mut c).map(|s| *spare = Some(Box::new(s))),
    };
    let s = match (started, spare.as_deref_mut()) {
        (Ok(()), Some(s)) => s,
        (Ok(()), None) => return,
        (Err(e), _) => {
            play::game_clock(p, seats, false);
            if play::guard_met(&e) {
                guard.store(true, Ordering::Relaxed);
            } else {
                stats.failed += 1;
            }
            return;
        }
    };
    let mut rng = Rng::for_bots(seed);
    let mut limited = false;
    let mut failed = s.stuck.is_some();
    // Random or weighing bots in every seat: their plain turns run in the engine's loop, up
    // to the next check of `stopped` (the same games, turn for turn); random bots alone by
    // a pick that need not ask whose turn it is.
    let kernel = engine::kernel_fits::<Counter>(p) && seats.iter().all(Player::loops);
    let random = seats.iter().all(|x| matches!(x, Player::Bot(Bot::Random)));
    while !s.over {
        if s.turns >= TURN_LIMIT {
            limited = true;
            break;
        }
        if (!kernel || s.turns % CHECK_EVERY == 0) && stopped() {
            play::game_clock(p, seats, false);
            return;
        }
        let (mut picked, mut general) = (None, false);
        if kernel {
            let until = ((s.turns / CHECK_EVERY + 1) * CHECK_EVERY).min(TURN_LIMIT);
            let ran = if random {
                // The random bot's own pick, its `match` folded away.
                const RANDOM: Player = Player::Bot(Bot::Random);
                let mut choose = |s: &engine::State, n: usize| RANDOM.pick(p, s, n, &mut rng);
                engine::loop_turns(p, s, &mut choose, until, &mut c)
            } else {
                let mut choose = |s: &engine::State, n: usize| {
                    seats
                        .get(usize::from(s.turn))
                        .map_or(Pick::Unanswered, |x| x.pick(p, s, n, &mut rng))
                };
                engine::loop_turns(p, s, &mut choose, until, &mut c)
            };
            match ran {
                Kernel::Ran => {
                    failed |= s.stuck.is_some();
                    continue;
                }
                Kernel::Picked(mv) => picked = Some(mv),
                // Not the table's turn: chosen the general way at once, without trying
                // the fused turn again.
                Kernel::General => general = true,
            }
        }
        let Some(bot) = seats.get(usize::from(s.turn)) else {
            failed = true;
            break;
        };
        let turn = match picked {
            Some(mv) => Player::play_chosen(p, s, mv, &mut c),
            None if general && matches!(bot, Player::Bot(Bot::Random)) => {
                match Bot::Random.choose(p, s, &mut rng) {
                    Some(mv) => Player::play_chosen(p, s, mv, &mut c),
                    None => Ok(false),
                }
            }
            None => bot.turn(p, s, &mut rng, &mut c),
        };
        match turn {
            Ok(true) => failed |= s.stuck.is_some(),
            Err(e) if play::guard_met(&e) => {
                guard.store(true, Ordering::Relaxed);
                play::game_clock(p, seats, false);
                return;
            }
            Ok(false) | Err(_) => {
                // A script that fails every move, or a bot with no move: counted, not fatal.
                failed = true;
                break;
            }
        }
    }
    play::game_clock(p, seats, false);
    if failed {
        // A game that could not go on, or a move that failed.
        stats.failed += 1;
        return;
    }
    add_game(s, &c, players, limited, stats);
}

/// Adds a finished game and what its counter saw to `stats`.
fn add_game(s: &engine::State, c: &Counter, players: usize, limited: bool, stats: &mut Stats) {
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
    for (v, n) in c.reached.iter().filter(|(_, n)| *n > 0) {
        *stats.bar_reached.entry(*v).or_insert(0) += u64::from(*n);
    }
    for (v, n) in c.passed.iter().filter(|(_, n)| *n > 0) {
        *stats.bar_passed.entry(*v).or_insert(0) += u64::from(*n);
    }
    stats.forced_busts += c.forced;
    stats.chosen_busts += c.chosen;
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
    p: &Program,
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
                || (Stats::new(players), None),
                |(mut st, mut spare), i| {
                    play_one(
                        p,
                        &seats,
                        players,
                        (cfg.seed, i),
                        (&stopped, &guard),
                        (&mut st, &mut spare),
                    );
                    if let Some(tick) = control.tick {
                        tick();
                    }
                    (st, spare)
                },
            )
            .map(|(st, _)| st)
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
