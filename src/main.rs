//! The `ninety` binary: parses arguments and calls the library.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use ninety::check::Shipped;
use ninety::commands::{self, CheckOptions, RunOptions};

#[derive(Parser)]
#[command(
    name = "ninety",
    version,
    about = "Play, check and simulate running-total card games and their house rules"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check rulesets (files or folders of `.rules` files) and run their scenarios.
    Check {
        #[arg(required = true)]
        paths: Vec<String>,
        /// `text` (default) or `json`: one JSON object per diagnostic.
        #[arg(long, default_value = "text")]
        format: String,
        /// Fail on warnings too.
        #[arg(long)]
        deny_warnings: bool,
        /// Give an option a value: `--set chips=5`.
        #[arg(long = "set", value_name = "NAME=VALUE")]
        sets: Vec<String>,
    },
    /// Play a game from the command line: given moves, then bots to the end with `--bots`.
    Run(RunArgs),
    /// Play at the terminal against bots or friends (the standard Ninety-Nine by default).
    Play {
        /// A ruleset file, or the name of a shipped one.
        #[arg(default_value = "ninety-nine")]
        ruleset: String,
        #[arg(long)]
        players: Option<usize>,
        /// How many of the seats are people (the rest are bots); 2 or more is hot-seat play.
        #[arg(long, default_value_t = 1)]
        humans: usize,
        /// The bots' strategy: `cautious`, `random`, `aggressive`, `search`, or
        /// `script:FILE.rhai` (a bot written in rhai).
        #[arg(long, default_value = "cautious")]
        bot: String,
        /// The seed of the deal (a random one when not given).
        #[arg(long)]
        seed: Option<u64>,
        #[arg(long = "set", value_name = "NAME=VALUE")]
        sets: Vec<String>,
    },
    /// Simulate many games with bots and report who wins, how long games last and why chips
    /// are lost; two rulesets are compared on the same deals.
    Sim(SimArgs),
    /// List the shipped rulesets with a line each.
    List,
    /// Print a ruleset as a rules sheet to read at the table.
    Rules {
        /// A ruleset file, or the name of a shipped one.
        ruleset: String,
        /// `text` (default) or `md` (Markdown).
        #[arg(long, default_value = "text")]
        format: String,
        #[arg(long = "set", value_name = "NAME=VALUE")]
        sets: Vec<String>,
    },
}

#[derive(Args)]
struct SimArgs {
    /// One ruleset, or two to compare on the same seeded deals.
    #[arg(required_unless_present = "merge")]
    rulesets: Vec<String>,
    #[arg(long, default_value_t = 1000)]
    games: u64,
    #[arg(long)]
    players: Option<usize>,
    /// Bots by seat, repeated round the table: `cautious,random`.
    #[arg(long, value_delimiter = ',')]
    bots: Vec<String>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (the report is the same for any number).
    #[arg(long)]
    jobs: Option<usize>,
    #[arg(long = "set", value_name = "NAME=VALUE")]
    sets: Vec<String>,
    #[arg(long)]
    json: bool,
    /// One option over several values, a row each: `--sweep chips=2,3,5`.
    #[arg(long, value_name = "NAME=V1,V2,...")]
    sweep: Option<String>,
    /// Run the K-th of N slices of the games: `--shard 2/4` (merge the `--json` outputs with
    /// `--merge`).
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Merge the `--json` outputs of a run's shards into its report.
    #[arg(long, num_args = 1.., value_name = "FILES")]
    merge: Vec<String>,
}

#[derive(Args)]
struct RunArgs {
    /// A ruleset file, or the name of a shipped one (`ninety-nine`).
    ruleset: String,
    #[arg(long)]
    players: Option<usize>,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[arg(long = "set", value_name = "NAME=VALUE")]
    sets: Vec<String>,
    /// Moves, separated by `;`: `"AS:11; 9H; draw"`.
    #[arg(long)]
    moves: Option<String>,
    /// A file of moves, separated by `;` or new lines.
    #[arg(long)]
    moves_file: Option<String>,
    /// One JSON object per event, then the state.
    #[arg(long)]
    json: bool,
    /// When the moves run out, a bot plays every seat to the end (`random` or `cautious`).
    #[arg(long, num_args = 0..=1, default_missing_value = "cautious")]
    bots: Option<String>,
    /// The stock's top cards, top first: `"9H KS 4D"`.
    #[arg(long)]
    deck: Option<String>,
    /// Every seat's hand, seat 0 first: `"AS 2H 3D | KC 4S 9D"`.
    #[arg(long)]
    hands: Option<String>,
    /// The discard pile, top card last.
    #[arg(long)]
    discard: Option<String>,
    #[arg(long, allow_negative_numbers = true)]
    total: Option<i32>,
    /// Every seat's chips: `9,9,1`.
    #[arg(long)]
    chips: Option<String>,
    #[arg(long)]
    turn: Option<u8>,
    /// `cw` or `ccw`.
    #[arg(long)]
    direction: Option<String>,
    /// The seat that dealt the first round.
    #[arg(long)]
    dealer: Option<u8>,
}

fn sets(list: &[String]) -> Result<Vec<(String, String)>, String> {
    list.iter()
        .map(|s| {
            s.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| format!("`--set {s}`: write NAME=VALUE, like `--set chips=5`"))
        })
        .collect()
}

fn color() -> bool {
    std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal()
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut out = std::io::stdout().lock();
    let mut err = std::io::stderr().lock();
    let code = match cli.command {
        Command::Check {
            paths,
            format,
            deny_warnings,
            sets: raw,
        } => {
            let json = match format.as_str() {
                "json" => true,
                "text" => false,
                other => {
                    let _ = writeln!(err, "error: `--format {other}`: use `text` or `json`");
                    return ExitCode::from(2);
                }
            };
            match sets(&raw) {
                Ok(sets) => {
                    let opts = CheckOptions {
                        json,
                        deny_warnings,
                        sets,
                        color: color(),
                    };
                    commands::check_cmd(&paths, &opts, &mut out, &mut err)
                }
                Err(e) => {
                    let _ = writeln!(err, "error: {e}");
                    2
                }
            }
        }
        Command::Run(a) => {
            let mut moves: Vec<String> = Vec::new();
            let mut text = a.moves.clone().unwrap_or_default();
            if let Some(f) = &a.moves_file {
                match std::fs::read_to_string(f) {
                    Ok(t) => {
                        text.push(';');
                        text.push_str(&t.replace('\n', ";"));
                    }
                    Err(e) => {
                        let _ = writeln!(err, "error: cannot read `{f}`: {e}");
                        return ExitCode::from(2);
                    }
                }
            }
            moves.extend(
                text.split(';')
                    .map(str::trim)
                    .filter(|m| !m.is_empty())
                    .map(String::from),
            );
            match sets(&a.sets) {
                Err(e) => {
                    let _ = writeln!(err, "error: {e}");
                    2
                }
                Ok(sets) => {
                    let o = RunOptions {
                        players: a.players,
                        seed: a.seed,
                        sets,
                        moves,
                        json: a.json,
                        bots: a.bots,
                        deck: a.deck,
                        hands: a.hands,
                        discard: a.discard,
                        total: a.total,
                        chips: a.chips,
                        turn: a.turn,
                        direction: a.direction,
                        dealer: a.dealer,
                    };
                    commands::run_cmd(&Shipped, &a.ruleset, &o, &mut out, &mut err)
                }
            }
        }
        Command::List => commands::list_cmd(&mut out),
        Command::Sim(a) => {
            if !a.merge.is_empty() {
                return ExitCode::from(
                    commands::merge_cmd(&a.merge, a.json, &mut out, &mut err) as u8
                );
            }
            let shard = match a.shard.as_deref().map(|s| {
                s.split_once('/')
                    .and_then(|(k, n)| {
                        Some((k.trim().parse::<u64>().ok()?, n.trim().parse::<u64>().ok()?))
                    })
                    .filter(|(k, n)| *n >= 1 && (1..=*n).contains(k))
            }) {
                None => None,
                Some(Some(s)) => Some(s),
                Some(None) => {
                    let _ = writeln!(
                        err,
                        "error: `--shard K/N` needs 1 <= K <= N, like `--shard 2/4`"
                    );
                    return ExitCode::from(2);
                }
            };
            let sweep = match a.sweep.as_deref().map(|s| {
                s.split_once('=').map(|(k, v)| {
                    (
                        k.trim().to_string(),
                        v.split(',')
                            .map(|x| x.trim().to_string())
                            .filter(|x| !x.is_empty())
                            .collect::<Vec<_>>(),
                    )
                })
            }) {
                None => None,
                Some(Some(sw)) if !sw.1.is_empty() => Some(sw),
                Some(_) => {
                    let _ = writeln!(
                        err,
                        "error: `--sweep NAME=V1,V2,...`, like `--sweep chips=2,3,5`"
                    );
                    return ExitCode::from(2);
                }
            };
            let sets = match sets(&a.sets) {
                Ok(s) => s,
                Err(e) => {
                    let _ = writeln!(err, "error: {e}");
                    return ExitCode::from(2);
                }
            };
            let _ = ctrlc::set_handler(|| {
                ninety::sim::STOP.store(true, std::sync::atomic::Ordering::Relaxed)
            });
            let o = commands::SimOptions {
                games: a.games,
                players: a.players,
                bots: a.bots,
                seed: a.seed,
                jobs: a
                    .jobs
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
                sets,
                json: a.json,
                sweep,
                shard,
                progress: std::io::stderr().is_terminal(),
            };
            commands::sim_cmd(&Shipped, &a.rulesets, &o, &mut out, &mut err)
        }
        Command::Play {
            ruleset,
            players,
            humans,
            bot,
            seed,
            sets: raw,
        } => {
            let sets = match sets(&raw) {
                Ok(s) => s,
                Err(e) => {
                    let _ = writeln!(err, "error: {e}");
                    return ExitCode::from(2);
                }
            };
            let seed = seed.unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64)
            });
            let o = ninety::session::Options {
                ruleset,
                players,
                humans,
                bot,
                seed,
                sets,
                color: color(),
            };
            drop(out);
            match ninety::session::Session::start(&Shipped, &o) {
                Ok((session, welcome)) => match ninety::repl::run(&Shipped, session, &welcome) {
                    Ok(()) => return ExitCode::SUCCESS,
                    Err(e) => {
                        let _ = writeln!(err, "error: {e}");
                        return ExitCode::from(1);
                    }
                },
                Err(e) => {
                    let _ = writeln!(err, "error: {e}");
                    return ExitCode::from(2);
                }
            }
        }
        Command::Rules {
            ruleset,
            format,
            sets: raw,
        } => {
            let md = match format.as_str() {
                "md" | "markdown" => true,
                "text" => false,
                other => {
                    let _ = writeln!(err, "error: `--format {other}`: use `text` or `md`");
                    return ExitCode::from(2);
                }
            };
            match sets(&raw) {
                Ok(sets) => commands::rules_cmd(&Shipped, &ruleset, md, &sets, &mut out, &mut err),
                Err(e) => {
                    let _ = writeln!(err, "error: {e}");
                    2
                }
            }
        }
    };
    let _ = out.flush();
    ExitCode::from(code as u8)
}
