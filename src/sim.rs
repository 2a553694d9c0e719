//! Simulation for designers: many seeded games with bots, and the statistics that say whether
//! a house rule is fair and how it changes the game.
//!
//! Every figure is an integer sum or a histogram, gathered per game by a counting [`Sink`]
//! and added up in any order, so a run gives the same report for any number of threads, and
//! shards of a run merge into exactly the report of the whole. Memory stays flat in the number
//! of games.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::bots::Player;
use crate::engine::{self, Event, Reason, Setup, Sink, TURN_LIMIT};
use crate::ir::{MAX_SEATS, Program};

/// Shares of a win: a game won by `k` tied players gives each `WIN_UNIT / k`, exactly.
pub const WIN_UNIT: u64 = 27_720; // lcm(1..=12)

/// Turns and rounds up to this are counted one by one; longer games share the last bucket.
const HIST: usize = 4096;

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

/// A histogram of small counts with exact sums, for mean, median and percentiles.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Histogram {
    /// `(value, count)` for every value seen, sorted (sparse, so JSON stays small).
    pub counts: BTreeMap<u32, u64>,
    pub n: u64,
    pub sum: u64,
    pub sum_sq: u128,
}

impl Histogram {
    fn add(&mut self, v: u64) {
        *self.counts.entry(v.min(HIST as u64) as u32).or_insert(0) += 1;
        self.n += 1;
        self.sum += v;
        self.sum_sq += u128::from(v) * u128::from(v);
    }

    fn merge(&mut self, o: &Histogram) {
        for (k, c) in &o.counts {
            *self.counts.entry(*k).or_insert(0) += c;
        }
        self.n += o.n;
        self.sum += o.sum;
        self.sum_sq += o.sum_sq;
    }

    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum as f64 / self.n as f64
        }
    }

    pub fn variance(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as f64;
        let mean = self.mean();
        ((self.sum_sq as f64) - n * mean * mean).max(0.0) / (n - 1.0)
    }

    /// The smallest value with at least `q` of the counts at or below it.
    pub fn quantile(&self, q: f64) -> u32 {
        let target = ((self.n as f64) * q).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (v, c) in &self.counts {
            seen += c;
            if seen >= target {
                return *v;
            }
        }
        0
    }
}

/// Every figure of a run, as sums.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Stats {
    pub games: u64,
    /// Win shares by seat, in units of [`WIN_UNIT`].
    pub wins: Vec<u64>,
    /// Games each seat won (alone or shared), for confidence intervals.
    pub won_games: Vec<u64>,
    pub turns: Histogram,
    pub rounds: Histogram,
    /// Chips lost by why: `bust` (could not play, no cards), `passed` (a bar passed),
    /// `reached` (others paid for an exact hit), `other` (card effects, antes...).
    pub chips_lost: BTreeMap<String, u64>,
    /// Chips lost in each game, for the comparison's test.
    pub chips_per_game: Histogram,
    pub bar_reached: BTreeMap<i32, u64>,
    pub bar_passed: BTreeMap<i32, u64>,
    pub forced_busts: u64,
    pub chosen_busts: u64,
    /// Per seat, how many games it left in each place: 0 = first out, the last place = never out.
    pub elimination: Vec<Vec<u64>>,
    pub turn_limited: u64,
    /// Games that failed (a bot's move refused, a script error).
    pub failed: u64,
}

impl Stats {
    fn new(players: usize) -> Self {
        Self {
            wins: vec![0; players],
            won_games: vec![0; players],
            elimination: vec![vec![0; players]; players],
            ..Self::default()
        }
    }

    /// Adds another part of the same run.
    pub fn merge(&mut self, o: &Stats) {
        self.games += o.games;
        add_vec(&mut self.wins, &o.wins);
        add_vec(&mut self.won_games, &o.won_games);
        self.turns.merge(&o.turns);
        self.rounds.merge(&o.rounds);
        for (k, v) in &o.chips_lost {
            *self.chips_lost.entry(k.clone()).or_insert(0) += v;
        }
        self.chips_per_game.merge(&o.chips_per_game);
        for (k, v) in &o.bar_reached {
            *self.bar_reached.entry(*k).or_insert(0) += v;
        }
        for (k, v) in &o.bar_passed {
            *self.bar_passed.entry(*k).or_insert(0) += v;
        }
        self.forced_busts += o.forced_busts;
        self.chosen_busts += o.chosen_busts;
        if self.elimination.len() < o.elimination.len() {
            self.elimination.resize(o.elimination.len(), Vec::new());
        }
        for (a, b) in self.elimination.iter_mut().zip(&o.elimination) {
            add_vec(a, b);
        }
        self.turn_limited += o.turn_limited;
        self.failed += o.failed;
    }
}

fn add_vec(a: &mut Vec<u64>, b: &[u64]) {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

/// Counts one game's events without keeping them.
struct Counter {
    chips: [u64; 4],
    reached: [(i32, u32); 8],
    passed: [(i32, u32); 8],
    forced: u64,
    chosen: u64,
    last_forced: bool,
    out_order: [u8; MAX_SEATS],
    outs: usize,
}

impl Sink for Counter {
    const ON: bool = true;
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
            Event::CannotPlay { .. } | Event::NoCards { .. } => {
                self.forced += 1;
                self.last_forced = true;
            }
            Event::Play { .. } => self.last_forced = false,
            Event::RoundEnd { loser: Some(_), .. } if !self.last_forced => self.chosen += 1,
            Event::Eliminated { seat } => {
                if self.outs < MAX_SEATS {
                    self.out_order[self.outs] = seat;
                    self.outs += 1;
                }
            }
            Event::Deal { .. }
            | Event::Draw { .. }
            | Event::Forgot { .. }
            | Event::Reshuffle { .. }
            | Event::Skip { .. }
            | Event::Reverse { .. }
            | Event::PlayAgain { .. }
            | Event::TakePot { .. }
            | Event::OutOfRound { .. }
            | Event::TotalReset { .. }
            | Event::RoundEnd { .. }
            | Event::GameEnd { .. } => {}
        }
    }
}

/// A game's seed from the run's seed and the game's number: splitmix64, so neighbouring
/// games are unrelated and any thread can play any game.
pub fn game_seed(master: u64, index: u64) -> u64 {
    let mut z = master ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays game `index` and adds it to `stats`.
fn play_one(
    p: &Program,
    bots: &[Player],
    players: usize,
    master: u64,
    index: u64,
    stats: &mut Stats,
) {
    let seed = game_seed(master, index);
    let mut c = Counter {
        chips: [0; 4],
        reached: [(0, 0); 8],
        passed: [(0, 0); 8],
        forced: 0,
        chosen: 0,
        last_forced: false,
        out_order: [0; MAX_SEATS],
        outs: 0,
    };
    let setup = Setup {
        players,
        seed,
        ..Setup::default()
    };
    let Ok(mut s) = engine::new_game(p, &setup, &mut c) else {
        stats.failed += 1;
        return;
    };
    let mut rng = engine::bot_rng(seed);
    let mut limited = false;
    while !s.over {
        if s.turns >= TURN_LIMIT {
            limited = true;
            break;
        }
        let bot = &bots[usize::from(s.turn) % bots.len()];
        match bot.turn(p, &mut s, &mut rng, &mut c) {
            Ok(true) => {}
            Ok(false) | Err(_) => {
                // A script that fails every move, or a bot with no move: counted, not fatal.
                stats.failed += 1;
                return;
            }
        }
    }
    stats.games += 1;
    if limited {
        stats.turn_limited += 1;
    }
    let winners = s.winner_list();
    if !winners.is_empty() && !limited {
        let share = WIN_UNIT / winners.len() as u64;
        for w in winners {
            stats.wins[usize::from(w)] += share;
            stats.won_games[usize::from(w)] += 1;
        }
    }
    stats.turns.add(s.turns);
    stats.rounds.add(u64::from(s.round));
    let names = ["bust", "passed", "reached", "other"];
    let mut lost = 0;
    for (name, n) in names.iter().zip(c.chips) {
        *stats.chips_lost.entry((*name).to_string()).or_insert(0) += n;
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
    let mut place = vec![players - 1; players];
    for (i, seat) in c.out_order[..c.outs].iter().enumerate() {
        place[usize::from(*seat)] = i.min(players - 1);
    }
    for (seat, pl) in place.into_iter().enumerate() {
        stats.elimination[seat][pl] += 1;
    }
}

/// Set by Ctrl-C: games not yet started are skipped and the report covers those played.
pub static STOP: AtomicBool = AtomicBool::new(false);

/// Plays the games of a run (or of shard `k` of `n`: the games whose number is `k - 1` modulo
/// `n`) on `jobs` threads; `tick` is called after each game (a progress bar).
pub fn run(
    p: &Program,
    bots: &[Player],
    cfg: &Config,
    shard: Option<(u64, u64)>,
    jobs: usize,
    tick: &(dyn Fn() + Sync),
) -> Result<Stats, String> {
    if bots.is_empty() {
        return Err("no bots given".into());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .map_err(|e| e.to_string())?;
    let players = cfg.players;
    let stats = pool.install(|| {
        (0..cfg.games)
            .into_par_iter()
            .filter(|i| shard.is_none_or(|(k, n)| i % n == k - 1))
            .fold(
                || Stats::new(players),
                |mut st, i| {
                    if !STOP.load(Ordering::Relaxed) {
                        play_one(p, bots, players, cfg.seed, i, &mut st);
                        tick();
                    }
                    st
                },
            )
            .reduce(
                || Stats::new(players),
                |mut a, b| {
                    a.merge(&b);
                    a
                },
            )
    });
    Ok(stats)
}

/// A 95% Wilson interval for `k` successes in `n` trials, in percent.
pub fn wilson(k: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 0.0);
    }
    let z = 1.96;
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = p + z * z / (2.0 * n);
    let margin = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    (
        100.0 * (centre - margin) / denom,
        100.0 * (centre + margin) / denom,
    )
}

/// The figures a report shows, computed from the sums.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Figures {
    pub games: u64,
    pub win_pct: Vec<f64>,
    pub win_ci: Vec<(f64, f64)>,
    pub wins_by_bot: BTreeMap<String, f64>,
    pub turns_mean: f64,
    pub turns_median: u32,
    pub turns_p95: u32,
    pub rounds_mean: f64,
    pub rounds_median: u32,
    pub rounds_p95: u32,
    pub chips_lost_per_round: f64,
    pub chips_lost_per_round_by_why: BTreeMap<String, f64>,
    pub bars_reached_per_game: BTreeMap<i32, f64>,
    pub bars_passed_per_game: BTreeMap<i32, f64>,
    pub forced_busts_per_game: f64,
    pub chosen_busts_per_game: f64,
    /// Per seat, the share of games it left in each place (the last: never out), percent.
    pub elimination_pct: Vec<Vec<f64>>,
    pub turn_limited: u64,
    pub failed: u64,
}

pub fn figures(cfg: &Config, st: &Stats) -> Figures {
    let n = st.games.max(1) as f64;
    let rounds = st.rounds.sum.max(1) as f64;
    let win_pct: Vec<f64> = st
        .wins
        .iter()
        .map(|w| 100.0 * (*w as f64) / (WIN_UNIT as f64) / n)
        .collect();
    let win_ci = st
        .wins
        .iter()
        .map(|w| wilson(*w as f64 / WIN_UNIT as f64, st.games as f64))
        .collect();
    let mut wins_by_bot: BTreeMap<String, (f64, f64)> = BTreeMap::new();
    for (seat, w) in st.wins.iter().enumerate() {
        let bot = cfg
            .bots
            .get(seat % cfg.bots.len().max(1))
            .cloned()
            .unwrap_or_default();
        let e = wins_by_bot.entry(bot).or_insert((0.0, 0.0));
        e.0 += *w as f64 / WIN_UNIT as f64;
        e.1 += n;
    }
    let total_lost: u64 = st.chips_lost.values().sum();
    Figures {
        games: st.games,
        win_pct,
        win_ci,
        wins_by_bot: wins_by_bot
            .into_iter()
            .map(|(k, (w, g))| (k, 100.0 * w / g))
            .collect(),
        turns_mean: st.turns.mean(),
        turns_median: st.turns.quantile(0.5),
        turns_p95: st.turns.quantile(0.95),
        rounds_mean: st.rounds.mean(),
        rounds_median: st.rounds.quantile(0.5),
        rounds_p95: st.rounds.quantile(0.95),
        chips_lost_per_round: total_lost as f64 / rounds,
        chips_lost_per_round_by_why: st
            .chips_lost
            .iter()
            .map(|(k, v)| (k.clone(), *v as f64 / rounds))
            .collect(),
        bars_reached_per_game: st
            .bar_reached
            .iter()
            .map(|(k, v)| (*k, *v as f64 / n))
            .collect(),
        bars_passed_per_game: st
            .bar_passed
            .iter()
            .map(|(k, v)| (*k, *v as f64 / n))
            .collect(),
        forced_busts_per_game: st.forced_busts as f64 / n,
        chosen_busts_per_game: st.chosen_busts as f64 / n,
        elimination_pct: st
            .elimination
            .iter()
            .map(|row| row.iter().map(|c| 100.0 * *c as f64 / n).collect())
            .collect(),
        turn_limited: st.turn_limited,
        failed: st.failed,
    }
}

/// The report in words.
pub fn report(cfg: &Config, st: &Stats) -> String {
    let f = figures(cfg, st);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {} games of {} players (seed {}), bots {}",
        cfg.name,
        st.games,
        cfg.players,
        cfg.seed,
        cfg.bots.join(", ")
    );
    if st.games < cfg.games {
        let _ = writeln!(out, "(this covers {} of the {} games)", st.games, cfg.games);
    }
    let _ = writeln!(out, "\nWins by seat (95% confidence):");
    for (seat, (pct, (lo, hi))) in f.win_pct.iter().zip(&f.win_ci).enumerate() {
        let bot = cfg
            .bots
            .get(seat % cfg.bots.len().max(1))
            .map_or("", String::as_str);
        let _ = writeln!(
            out,
            "  seat {seat} ({bot:<9}) {pct:5.1}%  [{lo:.1}, {hi:.1}]"
        );
    }
    if cfg.bots.iter().any(|b| b != &cfg.bots[0]) {
        let _ = writeln!(out, "Wins by bot (share of its seats' games):");
        for (bot, pct) in &f.wins_by_bot {
            let _ = writeln!(out, "  {bot:<9} {pct:5.1}%");
        }
    }
    let _ = writeln!(
        out,
        "\nGame length: {:.1} turns on average (median {}, 95th percentile {}); {:.2} rounds (median {}, 95th percentile {})",
        f.turns_mean, f.turns_median, f.turns_p95, f.rounds_mean, f.rounds_median, f.rounds_p95
    );
    let why: Vec<String> = f
        .chips_lost_per_round_by_why
        .iter()
        .filter(|(_, v)| **v > 0.0)
        .map(|(k, v)| {
            let label = match k.as_str() {
                "bust" => "busts",
                "passed" => "bars passed",
                "reached" => "exact hits",
                _ => "other rules",
            };
            format!("{label} {v:.2}")
        })
        .collect();
    let _ = writeln!(
        out,
        "Chips lost per round: {:.2} ({})",
        f.chips_lost_per_round,
        why.join(", ")
    );
    if !f.bars_reached_per_game.is_empty() || !f.bars_passed_per_game.is_empty() {
        let _ = writeln!(out, "Bars per game:");
        let mut values: Vec<i32> = f
            .bars_reached_per_game
            .keys()
            .chain(f.bars_passed_per_game.keys())
            .copied()
            .collect();
        values.sort_unstable();
        values.dedup();
        for v in values {
            let _ = writeln!(
                out,
                "  {v:>4}: reached {:.2}, passed {:.2}",
                f.bars_reached_per_game.get(&v).copied().unwrap_or(0.0),
                f.bars_passed_per_game.get(&v).copied().unwrap_or(0.0)
            );
        }
    }
    let _ = writeln!(
        out,
        "Busts per game: {:.2} forced (no legal card), {:.2} chosen (a card that lost the round)",
        f.forced_busts_per_game, f.chosen_busts_per_game
    );
    let _ = writeln!(
        out,
        "Elimination order (share of games each seat went out 1st, 2nd, ...; last column: never out):"
    );
    for (seat, row) in f.elimination_pct.iter().enumerate() {
        let cells: Vec<String> = row.iter().map(|p| format!("{p:5.1}%")).collect();
        let _ = writeln!(out, "  seat {seat}: {}", cells.join(" "));
    }
    let _ = writeln!(
        out,
        "Games stopped by the turn limit ({TURN_LIMIT} turns): {}",
        f.turn_limited
    );
    if f.failed > 0 {
        let _ = writeln!(out, "Games that failed: {}", f.failed);
    }
    out
}

/// Whether two means differ beyond chance (Welch's test at 95%).
fn welch(a: &Histogram, b: &Histogram) -> bool {
    let (na, nb) = (a.n as f64, b.n as f64);
    if na < 2.0 || nb < 2.0 {
        return false;
    }
    let se = (a.variance() / na + b.variance() / nb).sqrt();
    se > 0.0 && ((a.mean() - b.mean()) / se).abs() > 1.96
}

/// Whether two proportions differ beyond chance (a two-proportion z test at 95%).
fn two_prop(ka: f64, na: f64, kb: f64, nb: f64) -> bool {
    if na <= 0.0 || nb <= 0.0 {
        return false;
    }
    let p = (ka + kb) / (na + nb);
    let se = (p * (1.0 - p) * (1.0 / na + 1.0 / nb)).sqrt();
    se > 0.0 && ((ka / na - kb / nb) / se).abs() > 1.96
}

/// Two rulesets played on the same seeds, figure by figure.
pub fn compare(a: (&Config, &Stats), b: (&Config, &Stats)) -> String {
    let (ca, sa) = a;
    let (cb, sb) = b;
    let (fa, fb) = (figures(ca, sa), figures(cb, sb));
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} against {}: {} games each, seed {}, same deals",
        ca.name, cb.name, sa.games, ca.seed
    );
    let _ = writeln!(
        out,
        "{:<34} {:>12} {:>12} {:>10}  significant?",
        "",
        short(&ca.name),
        short(&cb.name),
        "difference"
    );
    let mut row = |label: String, x: f64, y: f64, sig: bool| {
        let _ = writeln!(
            out,
            "{label:<34} {x:>12.2} {y:>12.2} {:>+10.2}  {}",
            y - x,
            if sig { "yes" } else { "no" }
        );
    };
    for seat in 0..fa.win_pct.len().min(fb.win_pct.len()) {
        let ka = sa.wins[seat] as f64 / WIN_UNIT as f64;
        let kb = sb.wins[seat] as f64 / WIN_UNIT as f64;
        row(
            format!("seat {seat} wins (%)"),
            fa.win_pct[seat],
            fb.win_pct[seat],
            two_prop(ka, sa.games as f64, kb, sb.games as f64),
        );
    }
    row(
        "turns per game".into(),
        fa.turns_mean,
        fb.turns_mean,
        welch(&sa.turns, &sb.turns),
    );
    row(
        "rounds per game".into(),
        fa.rounds_mean,
        fb.rounds_mean,
        welch(&sa.rounds, &sb.rounds),
    );
    row(
        "chips lost per game".into(),
        sa.chips_per_game.mean(),
        sb.chips_per_game.mean(),
        welch(&sa.chips_per_game, &sb.chips_per_game),
    );
    row(
        "chips lost per round".into(),
        fa.chips_lost_per_round,
        fb.chips_lost_per_round,
        false,
    );
    row(
        "forced busts per game".into(),
        fa.forced_busts_per_game,
        fb.forced_busts_per_game,
        false,
    );
    row(
        "chosen busts per game".into(),
        fa.chosen_busts_per_game,
        fb.chosen_busts_per_game,
        false,
    );
    row(
        "games stopped by the turn limit".into(),
        fa.turn_limited as f64,
        fb.turn_limited as f64,
        false,
    );
    let _ = writeln!(
        out,
        "(\"significant\": the difference is beyond chance at 95%; rows without a test say no)"
    );
    out
}

fn short(name: &str) -> String {
    name.chars().take(12).collect()
}

/// A shard's or a whole run's output for `--json` and `--merge`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Output {
    pub config: Config,
    pub shard: Option<(u64, u64)>,
    pub stats: Stats,
}

/// Merges shard outputs of one run: they must share the run's configuration.
pub fn merge(parts: &[Output]) -> Result<Output, String> {
    let Some(first) = parts.first() else {
        return Err("no files to merge".into());
    };
    let mut stats = Stats::new(first.config.players);
    let mut seen = std::collections::BTreeSet::new();
    for part in parts {
        if part.config != first.config {
            return Err("these files come from different runs (ruleset, players, bots, seed or games differ)".into());
        }
        if let Some(s) = part.shard
            && !seen.insert(s)
        {
            return Err(format!("shard {}/{} is given twice", s.0, s.1));
        }
        stats.merge(&part.stats);
    }
    Ok(Output {
        config: first.config.clone(),
        shard: None,
        stats,
    })
}
