//! A simulation, as `ninety sim RULESET --report FILE.html` runs it: the same games (one seed,
//! the same bots round the table), the same text report and the same self-contained page of
//! charts; two rulesets on the same deals, as `ninety sim A B` compares them; and `ninety
//! judge RULESET --report FILE.html`: its verdicts and its page.
//!
//! A browser's worker has one thread, and a message to it waits until what it runs returns.
//! So a simulation is played in slices ([`Batch`]): slice `k` of `n` is the run's shard `k`
//! of `n` (the games whose number is `k - 1` modulo `n`), and the shards merge into exactly
//! the statistics of the whole run. Between two slices the worker reports its progress and
//! reads a request to stop; stopped, the report covers the slices played, as `sim` does after
//! Ctrl-C.

use ninety::app::load::{load_program, player};
use ninety::ir::Program;
use ninety::play::Player;
use ninety::play::Ruleset;
use ninety::sim::judge::{self, JudgeConfig};
use ninety::sim::{self, Config, Control, Stats, html};
use serde::Serialize;

/// The most games one click may ask for.
pub const MAX_GAMES: u64 = 1_000_000;

/// What a run asks for, as the page's fields give it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Ask {
    pub games: u64,
    /// The ruleset's default when `None`.
    pub players: Option<usize>,
    /// The bots round the table (`cautious` when empty).
    pub bots: Vec<String>,
    pub seed: u64,
    /// Option values, as `--set` takes them.
    pub sets: Vec<(String, String)>,
    /// The file the report's command names: what the page's download saves.
    pub file: String,
}

/// What a run gives the page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Run {
    /// The games played (of each ruleset, in a comparison).
    pub games: u64,
    /// The games asked for: more than `games` when the run was stopped.
    pub asked: u64,
    /// `sim`'s (or `judge`'s) text report.
    pub text: String,
    /// The page: one self-contained HTML document (nothing fetched or run).
    pub html: String,
    /// The command that runs it in a terminal, when the report does not give it (the judge's
    /// does not; sim's gives its own).
    pub command: Option<String>,
}

/// How far a [`Batch`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Progress {
    /// Games played so far, of each ruleset.
    pub played: u64,
    pub games: u64,
    pub done: bool,
}

/// One ruleset of a batch: its run and what it has played.
struct Side {
    cfg: Config,
    ruleset: Ruleset,
    stats: Stats,
}

/// A simulation played a slice at a time: one ruleset, or two on the same deals (A the one
/// compared against, B the text being written).
pub struct Batch {
    sides: Vec<Side>,
    seats: Vec<Player>,
    slices: u64,
    next: u64,
}

impl std::fmt::Debug for Batch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Batch")
            .field("rulesets", &self.sides.len())
            .field("slices", &self.slices)
            .field("next", &self.next)
            .finish_non_exhaustive()
    }
}

/// Games a slice plays for each bot's cost: a slice lasts a few tens of milliseconds, so a
/// request to stop is read soon.
fn slice_games(bots: &[String]) -> u64 {
    if bots.iter().any(|b| b.starts_with("ismcts")) {
        1
    } else if bots.iter().any(|b| b.starts_with("search")) {
        20
    } else {
        1000
    }
}

fn check_games(games: u64) -> Result<(), String> {
    if games == 0 || games > MAX_GAMES {
        return Err(format!("a run plays from 1 to {MAX_GAMES} games"));
    }
    Ok(())
}

/// The bots of a run, by name: `cautious` when none is given.
fn bot_names(bots: &[String]) -> Result<(Vec<String>, Vec<Player>), String> {
    let names: Vec<String> = if bots.is_empty() {
        vec!["cautious".to_string()]
    } else {
        bots.to_vec()
    };
    for n in &names {
        Player::builtin(n).map_err(|_| format!("`{n}` is not one of the built-in bots"))?;
    }
    let seats = names.iter().map(|n| player(n)).collect::<Result<_, _>>()?;
    Ok((names, seats))
}

/// The players of a run, checked against every ruleset of it.
fn table_size(programs: &[&Program], players: Option<usize>) -> Result<usize, String> {
    let players = players.unwrap_or_else(|| programs[0].default_players());
    for p in programs {
        p.check_players(players)?;
    }
    Ok(players)
}

/// A ruleset a run plays: the name its command gives it, its program, and the option values
/// it was compiled with.
#[derive(Debug, Clone)]
pub struct Entry {
    pub name: String,
    pub program: Program,
    pub sets: Vec<(String, String)>,
}

/// A shipped ruleset to compare against, compiled with the option values it knows among
/// `sets`.
pub fn shipped(name: &str, sets: &[(String, String)]) -> Result<Entry, String> {
    let bare = load_program(&ninety::compile::Shipped, name, &[])?;
    let known: Vec<(String, String)> = sets
        .iter()
        .filter(|(n, _)| bare.option(n).is_some())
        .cloned()
        .collect();
    let program = if known.is_empty() {
        bare.into_program()
    } else {
        load_program(&ninety::compile::Shipped, name, &known)?.into_program()
    };
    Ok(Entry {
        name: name.to_string(),
        program,
        sets: known,
    })
}

impl Batch {
    /// A run of `program` as `ask` says; with `against`, a comparison: that ruleset as A,
    /// `program` as B, on the same deals.
    pub fn new(program: &Program, against: Option<Entry>, ask: &Ask) -> Result<Batch, String> {
        check_games(ask.games)?;
        let (names, seats) = bot_names(&ask.bots)?;
        let mut entries: Vec<Entry> = against.into_iter().collect();
        entries.push(Entry {
            name: ask.file.clone(),
            program: program.clone(),
            sets: ask.sets.clone(),
        });
        let refs: Vec<&Program> = entries.iter().map(|e| &e.program).collect();
        let players = table_size(&refs, ask.players)?;
        let sides = entries
            .into_iter()
            .map(|e| Side {
                cfg: Config {
                    ruleset: e.name,
                    name: e.program.name.clone(),
                    players,
                    bots: (0..players)
                        .map(|i| names[i % names.len()].clone())
                        .collect(),
                    seed: ask.seed,
                    games: ask.games,
                    sets: e.sets,
                },
                ruleset: Ruleset::new(e.program),
                stats: Stats::new(players),
            })
            .collect();
        Ok(Batch {
            sides,
            seats,
            slices: ask.games.div_ceil(slice_games(&names)).max(1),
            next: 0,
        })
    }

    /// Plays the next slice of every ruleset.
    pub fn step(&mut self) -> Result<Progress, String> {
        if self.next < self.slices {
            self.next += 1;
            let control = Control {
                shard: Some((self.next, self.slices)),
                ..Control::jobs(1)
            };
            for side in &mut self.sides {
                let st = sim::run(&side.ruleset, &self.seats, &side.cfg, &control)?;
                side.stats.merge(&st);
            }
        }
        Ok(self.progress())
    }

    pub fn progress(&self) -> Progress {
        let played = self.sides.iter().map(|s| s.stats.games).min().unwrap_or(0);
        let games = self.sides.first().map_or(0, |s| s.cfg.games);
        Progress {
            played,
            games,
            done: self.next >= self.slices,
        }
    }

    /// The report of what was played: `sim`'s text and page, or the comparison's.
    pub fn report(&self) -> Run {
        let Progress { played, games, .. } = self.progress();
        let (text, html) = match self.sides.as_slice() {
            [a, b] => {
                let (a, b) = ((&a.cfg, &a.stats), (&b.cfg, &b.stats));
                (sim::compare(a, b), html::comparison(a, b))
            }
            [one, ..] => (
                sim::report(&one.cfg, &one.stats),
                html::single(&one.cfg, &one.stats),
            ),
            [] => (String::new(), String::new()),
        };
        Run {
            games: played,
            asked: games,
            text,
            html,
            command: None,
        }
    }

    /// Every slice played, then the report.
    pub fn run_all(mut self) -> Result<Run, String> {
        while !self.step()?.done {}
        Ok(self.report())
    }
}

/// Judges the ruleset at `path` (read through `loader`, the page's documents) side by side as
/// `ninety judge --players A..B` or `--sweep NAME=VALUES` does: `by` is `players=2..5` or
/// `NAME=V1,V2,...` (or `NAME=A..B`). Its text, and a page that holds it.
pub fn judge_by(
    loader: &dyn ninety::compile::Loader,
    path: &str,
    by: &str,
    bot: &str,
    ask: &Ask,
) -> Result<Run, String> {
    use ninety::app::{judge_cmd, judge_counts};
    check_games(ask.games)?;
    Player::builtin(bot).map_err(|_| format!("`{bot}` is not one of the built-in bots"))?;
    let by = by.trim();
    let mut o = judge_cmd::JudgeOptions {
        games: ask.games,
        players: ask.players,
        bot: bot.to_string(),
        seed: ask.seed,
        jobs: 1,
        sets: ask.sets.clone(),
        ..judge_cmd::JudgeOptions::default()
    };
    let flag = match by.strip_prefix("players=") {
        Some(range) => {
            let (a, b) = judge_counts::parse_players(range)
                .map_err(|e| e.replace("--players ", "players="))?;
            o.players = None;
            o.players_range = Some((a, b));
            format!("--players {a}..{b}")
        }
        None => {
            let (name, values) = judge_counts::parse_sweep(by)
                .map_err(|e| e.replace("--sweep ", "side by side: "))?;
            let flag = format!("--sweep {name}={}", values.join(","));
            o.sweep = Some((name, values));
            flag
        }
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = judge_cmd::judge_cmd(loader, &[path.to_string()], &o, &mut out, &mut err);
    if code != 0 {
        let why = String::from_utf8_lossy(&err).into_owned();
        return Err(why.trim().trim_start_matches("error: ").to_string());
    }
    let text = String::from_utf8_lossy(&out).into_owned();
    let mut command = format!(
        "ninety judge {} --games {} {flag} --bot {bot} --seed {}",
        ask.file, ask.games, ask.seed
    );
    if let (Some(n), false) = (ask.players, flag.starts_with("--players")) {
        command.push_str(&format!(" --players {n}"));
    }
    for (name, value) in &ask.sets {
        command.push_str(&format!(" --set {name}={value}"));
    }
    let html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>ninety judge: side by side</title>\n<style>body {{ font: 14px/1.4 ui-monospace, monospace; margin: 1rem; }} pre {{ white-space: pre-wrap; }}</style>\n</head>\n<body>\n<pre>{}</pre>\n</body>\n</html>\n",
        html::esc(&text)
    );
    Ok(Run {
        games: ask.games,
        asked: ask.games,
        text,
        html,
        command: Some(command),
    })
}

/// Plays `ask.games` games of `program` and reports them as `ninety sim` does.
pub fn simulate(program: &Program, ask: &Ask) -> Result<Run, String> {
    Batch::new(program, None, ask)?.run_all()
}

/// Judges `ask.games` games of `program` as `ninety judge` does, `bot` in every seat: its text
/// (the verdicts, the measures, what each rule does) and its page.
pub fn judge_run(program: &Program, bot: &str, ask: &Ask) -> Result<Run, String> {
    check_games(ask.games)?;
    Player::builtin(bot).map_err(|_| format!("`{bot}` is not one of the built-in bots"))?;
    let players = table_size(&[program], ask.players)?;
    let seat = player(bot)?;
    let cfg = JudgeConfig {
        ruleset: ask.file.clone(),
        name: program.name.clone(),
        players,
        bot: bot.to_string(),
        games: ask.games,
        seed: ask.seed,
        length: None,
        pace_ms: ninety::sim::judge::DEFAULT_PACE_MS,
        minutes: None,
        skill_games: None,
        restrict: None,
    };
    let program = &Ruleset::new(program.clone());
    let tally = judge::judge(program, &seat, &cfg, 1)?;
    let mut command = format!(
        "ninety judge {} --games {} --players {players} --bot {bot} --seed {}",
        ask.file, ask.games, ask.seed
    );
    for (name, value) in &ask.sets {
        command.push_str(&format!(" --set {name}={value}"));
    }
    Ok(Run {
        games: ask.games,
        asked: ask.games,
        text: judge::text(program, &cfg, &tally),
        html: judge::html(program, &cfg, &tally),
        command: Some(command),
    })
}
