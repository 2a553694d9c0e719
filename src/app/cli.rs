//! The command line: clap's definitions, and each command's arguments turned into a call of
//! the library. The only terminal and file I/O the binary does is here and in the commands.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use clap::{Args, CommandFactory, Parser, Subcommand};

use super::cli_tools::{JudgeArgs, TuneArgs, judge, tune};
use super::commands::{self, CheckOptions};
use super::{completion, lsp, repl, run, session, shard, sim_cmd};
use crate::base::limits::{MOVES_FILE_BYTES, SCRIPT_STACK_BYTES};
use crate::base::text::escape_lines;
use crate::compile::{Shipped, read_capped};

#[derive(Parser)]
#[command(
    name = "ninety",
    version,
    about = "Play, check and simulate running-total card games and their house rules",
    // Help is wrapped to the terminal's width, and never wider than this (piped, too).
    max_term_width = HELP_WIDTH
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The widest help line: help is wrapped to the terminal, and to this on a wide one.
pub const HELP_WIDTH: usize = 100;

#[derive(Subcommand)]
enum Command {
    /// Check rulesets (files or folders of `.rules` files) and run their scenarios.
    Check(CheckArgs),
    /// Play a game from the command line: given moves, then bots to the end with `--bots`.
    Run(RunArgs),
    /// Play at the terminal against bots or friends (the standard Ninety-Nine by default).
    Play(PlayArgs),
    /// Simulate many games with bots and report who wins, how long games last and why chips
    /// are lost; two rulesets are compared on the same deals.
    Sim(SimArgs),
    /// Judge a variant: whether it is fair, ends, how long it runs, how much choice it gives,
    /// who sits out and what each rule does, each with its 95% interval; two rulesets are
    /// compared on the same deals.
    Judge(JudgeArgs),
    /// Find the option values (and player counts) that meet a designer's targets (fair, a
    /// length in minutes, enough real choices, no rule deciding too much), each with its
    /// interval; games go where the answer is still uncertain.
    Tune(TuneArgs),
    /// Serve tables where friends play together, each at their own screen (a browser, or
    /// `ninety join`): any shipped ruleset or one of their own, bots in the empty seats.
    Serve(ServeArgs),
    /// Play a served table at the terminal: `ninety join http://HOST:PORT/t/N` (add
    /// `#TOKEN` to come back to your seat).
    Join(JoinArgs),
    /// List the shipped rulesets with a line each.
    List,
    /// Print a ruleset as a rules sheet to read at the table.
    Rules(RulesArgs),
    /// Serve the Language Server Protocol on standard input and output, for editors.
    Lsp(LspArgs),
    /// Print the script that makes a shell complete ninety's commands, rulesets, bots and
    /// options: `source <(ninety completions bash)`.
    Completions(CompletionsArgs),
    /// Print the manual page (roff), of ninety or of one command: `ninety man sim | man -l -`.
    Man(ManArgs),
}

#[derive(Args)]
struct CompletionsArgs {
    /// The shell: `bash`, `zsh`, `fish`, `elvish` or `powershell`.
    #[arg(value_parser = clap::builder::PossibleValuesParser::new(completion::SHELLS))]
    shell: String,
}

#[derive(Args)]
struct ManArgs {
    /// A command, for its own page (`sim`); ninety's page when none is given.
    command: Option<String>,
}

#[derive(Args)]
struct ServeArgs {
    /// The port to listen on (0: any free port, which the first line says).
    #[arg(long, default_value_t = 9999)]
    port: u16,
    /// The address to listen on: 127.0.0.1 serves this machine only; 0.0.0.0 every network
    /// it is on (your friends' machines).
    #[arg(long, default_value = "127.0.0.1")]
    listen: std::net::IpAddr,
    /// The file the tables are kept in (made when missing): every move is written there
    /// before anyone is told of it, and the tables go on from it after a restart.
    #[arg(long, default_value = "ninety-tables.db", conflicts_with = "memory")]
    db: std::path::PathBuf,
    /// Keep the tables in memory only: they are gone when the server stops.
    #[arg(long)]
    memory: bool,
    /// Seconds a person may be gone, when it is their move, before a bot plays for them
    /// (they take the seat back by coming back).
    #[arg(long, default_value_t = 60)]
    away: u64,
    /// Deal every table from this seed (and the count of tables before it) rather than at
    /// random: the same moves give the same games. For tests: whoever knows it knows the deals.
    #[arg(long)]
    seed: Option<u64>,
}

#[derive(Args)]
struct JoinArgs {
    /// The table's link, as its page shows it: `http://HOST:PORT/t/N`, or with `#TOKEN`.
    url: String,
}

#[derive(Args)]
struct LspArgs {
    /// Accepted for editors that ask for it (`--stdio` is the only transport).
    #[arg(long, hide = true)]
    stdio: bool,
}

#[derive(Args)]
struct CheckArgs {
    /// Ruleset files, shipped rulesets by name, or folders (every `.rules` file in them).
    #[arg(required = true, value_name = "PATHS")]
    paths: Vec<String>,
    /// `text`, or `json`: one JSON object a line for each diagnostic, and a record for each
    /// file with none.
    #[arg(long, default_value = "text")]
    format: String,
    /// The same as `--format json`.
    #[arg(long, conflicts_with = "format")]
    json: bool,
    /// Fail on warnings too.
    #[arg(long)]
    deny_warnings: bool,
    /// Give an option of the rulesets a value, for the check and the scenarios: `--set
    /// chips=5` (repeat for more).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    sets: Vec<String>,
}

#[derive(Args)]
struct PlayArgs {
    /// A ruleset file, or the name of a shipped one.
    #[arg(default_value = "ninety-nine")]
    ruleset: String,
    /// Players at the table, you included (the ruleset's default when not given).
    #[arg(long)]
    players: Option<usize>,
    /// How many of the seats are people (the rest are bots); 2 or more is hot-seat play.
    #[arg(long, default_value_t = 1)]
    humans: usize,
    /// How well the bots play: `easy` (the random bot), `normal` (the cautious bot) or
    /// `hard` (ismcts, the strongest; `ismcts:N` searches N iterations a move); or a bot by
    /// name: `aggressive`, `search`, or `script:FILE.rhai` (a bot written in rhai).
    #[arg(long, default_value = "normal")]
    bot: String,
    /// The seed of the deal: one seed, one game (a random one, printed at the start, when
    /// not given).
    #[arg(long)]
    seed: Option<u64>,
    /// Give an option of the ruleset a value: `--set chips=5` (repeat for more).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    sets: Vec<String>,
    /// Play on a game saved with `save FILE` (its ruleset, seats and options are the save's).
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = ["ruleset", "players", "humans", "bot", "seed", "sets"]
    )]
    load: Option<String>,
}

#[derive(Args)]
struct RulesArgs {
    /// A ruleset file, or the name of a shipped one.
    ruleset: String,
    /// `text`, `md` (Markdown), or `rules`: the ruleset flattened into one standalone file
    /// (a variant's parents merged in, its removals applied).
    #[arg(long, default_value = "text")]
    format: String,
    /// Give an option of the ruleset a value: `--set chips=5` (repeat for more).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    sets: Vec<String>,
}

#[derive(Args)]
struct SimArgs {
    /// One ruleset, or two to compare on the same seeded deals.
    #[arg(required_unless_present = "merge", value_name = "RULESETS")]
    rulesets: Vec<String>,
    /// Games to play (each ruleset plays them all, on the same deals).
    #[arg(long, default_value_t = 1000, allow_negative_numbers = true, value_parser = games_count)]
    games: u64,
    /// Players at each table (the ruleset's default when not given).
    #[arg(long)]
    players: Option<usize>,
    /// Bots by seat, repeated round the table: `cautious,random` (`cautious`, `random`,
    /// `aggressive`, `search`, `ismcts[:N]` or `script:FILE.rhai`; `cautious` when not given).
    #[arg(long, value_delimiter = ',')]
    bots: Vec<String>,
    /// The seed of the run: each game's seed comes from it and the game's number, so one seed
    /// gives one report.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (the report is the same for any number; every core when not given).
    #[arg(long)]
    jobs: Option<usize>,
    /// Give an option of the rulesets a value: `--set chips=5` (repeat for more).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    sets: Vec<String>,
    /// Write the report as one JSON object (a comparison's with each difference, its
    /// interval, test and verdict) instead of text.
    #[arg(long)]
    json: bool,
    /// One option over several values, a row each: `--sweep chips=2,3,5`.
    #[arg(long, value_name = "NAME=V1,V2,...")]
    sweep: Option<String>,
    /// Run the K-th of N slices of the games: `--shard 2/4` (merge the `--json` outputs with
    /// `--merge`). `--shard auto` takes the slice from a Slurm job array, `--shard auto/N` from
    /// a Kubernetes Indexed Job of N completions (see docs/cluster.md).
    #[arg(long, value_name = "K/N|auto|auto/N")]
    shard: Option<String>,
    /// Merge the `--json` outputs of a run's shards into its report.
    #[arg(long, num_args = 1.., value_name = "FILES")]
    merge: Vec<String>,
    /// Also write the report as one self-contained HTML page of charts (inline SVG and CSS:
    /// it reads offline and prints); the text or JSON output stays as it is.
    #[arg(long, value_name = "FILE.html")]
    report: Option<String>,
}

#[derive(Args)]
struct RunArgs {
    /// A ruleset file, or the name of a shipped one (`ninety-nine`).
    ruleset: String,
    /// Players at the table (the ruleset's default when not given).
    #[arg(long)]
    players: Option<usize>,
    /// The seed of the deal (and of the bots' choices): one seed, one game.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Give an option of the ruleset a value: `--set chips=5` (repeat for more).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    sets: Vec<String>,
    /// Moves, separated by `;`: `"AS:11; 9H; draw"`.
    #[arg(long)]
    moves: Option<String>,
    /// A file of moves, separated by `;` or new lines.
    #[arg(long, value_name = "FILE")]
    moves_file: Option<String>,
    /// One JSON object per event, then the state.
    #[arg(long)]
    json: bool,
    /// When the moves run out, a bot plays every seat to the end: `cautious` (the default),
    /// `random`, `aggressive`, `search`, `ismcts[:N]` or `script:FILE.rhai`.
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
    /// The total when the first move is played (the deal's when not given).
    #[arg(long, allow_negative_numbers = true)]
    total: Option<i32>,
    /// Every seat's chips: `9,9,1`.
    #[arg(long)]
    chips: Option<String>,
    /// The seat to move first, numbered from 0 (the leader's when not given).
    #[arg(long, value_name = "SEAT")]
    turn: Option<u8>,
    /// The direction of play: `cw` (clockwise, towards the next seat number) or `ccw`.
    #[arg(long)]
    direction: Option<String>,
    /// The seat that dealt the first round.
    #[arg(long, value_name = "SEAT")]
    dealer: Option<u8>,
    /// Chips in the pot.
    #[arg(long)]
    pot: Option<i32>,
    /// Chips in the bank.
    #[arg(long, allow_negative_numbers = true)]
    bank: Option<i32>,
    /// The top of the stock when the next round is dealt, top first: `"9H 2C"`.
    #[arg(long)]
    next_deal: Option<String>,
    /// A count the ruleset keeps, every seat's value (one for a count of the table's):
    /// `--count points=0,97,0` (repeat for more).
    #[arg(
        long = "count",
        value_name = "NAME=VALUES",
        allow_negative_numbers = true
    )]
    counts: Vec<String>,
    /// The round being played, from 1.
    #[arg(long)]
    round: Option<u32>,
}

pub(super) fn sets(list: &[String]) -> Result<Vec<(String, String)>, String> {
    list.iter()
        .map(|s| {
            let shape = || format!("`--set {s}`: write NAME=VALUE, like `--set chips=5`");
            let (k, v) = s.split_once('=').ok_or_else(shape)?;
            let (k, v) = (k.trim(), v.trim());
            if k.is_empty() || v.is_empty() || v.contains('=') {
                return Err(format!("{} (one name, one `=`, one value)", shape()));
            }
            Ok((k.to_string(), v.to_string()))
        })
        .collect()
}

/// Whether to paint the output: on a terminal, unless `NO_COLOR` is set to something (an
/// empty `NO_COLOR` does not count, as <https://no-color.org> says).
fn color() -> bool {
    !no_color(std::env::var_os("NO_COLOR").as_deref())
        && !dumb(std::env::var_os("TERM").as_deref())
        && std::io::stdout().is_terminal()
}

/// Whether `TERM` names a terminal that shows no colour (nor any other escape): `dumb`.
fn dumb(term: Option<&std::ffi::OsStr>) -> bool {
    term.is_some_and(|t| t == "dumb")
}

/// Whether a value of `NO_COLOR` turns colour off: any value but the empty one.
fn no_color(value: Option<&std::ffi::OsStr>) -> bool {
    value.is_some_and(|v| !v.is_empty())
}

/// The command line's definitions, as `--help`, the man pages and completion read them.
pub fn definitions() -> clap::Command {
    Cli::command()
}

/// Parses the command line and runs the command. A usage error is said on standard error
/// with exit code 2. The command runs on a thread with room for the deepest value a script
/// may build (scripts run on the calling thread).
pub fn main() -> ExitCode {
    // Asked by a shell for the completions of a command line: answer and exit.
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    clap_complete::CompleteEnv::with_factory(move || {
        completion::with_completers(Cli::command(), &args)
    })
    .var(completion::VAR)
    .complete();
    let cli = Cli::parse();
    let worker = std::thread::Builder::new()
        .name("ninety".into())
        .stack_size(SCRIPT_STACK_BYTES + (64 << 20))
        .spawn(move || command(cli));
    let code = match worker.map(std::thread::JoinHandle::join) {
        Ok(Ok(code)) => code,
        Ok(Err(_)) => commands::FAILED,
        // No thread to be had: run here.
        Err(_) => command(Cli::parse()),
    };
    ExitCode::from(code as u8)
}

fn command(cli: Cli) -> i32 {
    let result = match cli.command {
        Command::Play(a) => play(a),
        Command::Lsp(_) => Ok(lsp::run()),
        command => {
            let mut out = Watched::new(std::io::stdout().lock());
            // Standard error is locked for each write, not for the command: a simulation's
            // progress bar draws from its worker threads, which would wait forever on a lock
            // this thread holds until they finish.
            let mut err = std::io::stderr();
            let result = match command {
                Command::Check(a) => check(&a, &mut out, &mut err),
                Command::Run(a) => run_command(a, &mut out, &mut err),
                Command::Sim(a) => sim(a, &mut out, &mut err),
                Command::Judge(a) => judge(a, &mut out, &mut err),
                Command::Tune(a) => tune(a, &mut out, &mut err),
                Command::List => Ok(commands::list_cmd(&mut out)),
                Command::Serve(a) => Ok(super::serve::run(
                    &super::serve::Config {
                        listen: std::net::SocketAddr::new(a.listen, a.port),
                        db: (!a.memory).then_some(a.db),
                        away: std::time::Duration::from_secs(a.away),
                        seed: a.seed,
                    },
                    &mut out,
                    &mut err,
                )),
                Command::Join(a) => Ok(super::serve::join::run(&a.url, &mut out, &mut err)),
                Command::Rules(a) => rules(&a, &mut out, &mut err),
                Command::Completions(a) => {
                    let called = std::env::args_os().next().unwrap_or_default();
                    completion::script(&a.shell, &called, &mut out).map(|()| commands::OK)
                }
                Command::Man(a) => completion::man(Cli::command(), a.command.as_deref(), &mut out)
                    .map(|()| commands::OK),
                Command::Play(_) | Command::Lsp(_) => Ok(commands::OK),
            };
            let _ = out.flush();
            // Output that was not written is work lost: the command failed, whatever it
            // thought of itself.
            if let Some(e) = out.error {
                if e.kind() != std::io::ErrorKind::BrokenPipe {
                    let _ = writeln!(std::io::stderr(), "error: cannot write the output: {e}");
                }
                return commands::FAILED;
            }
            result
        }
    };
    result.unwrap_or_else(|e| {
        let _ = writeln!(std::io::stderr(), "error: {}", escape_lines(&e));
        commands::USAGE
    })
}

/// Standard output, its first failed write kept: a command writes with `let _ = writeln!`
/// and goes on, and the binary then fails with the reason (a full disk, `/dev/full`, a
/// closed pipe). After a failure nothing more is written.
struct Watched<W: Write> {
    inner: W,
    error: Option<std::io::Error>,
}

impl<W: Write> Watched<W> {
    fn new(inner: W) -> Watched<W> {
        Watched { inner, error: None }
    }

    fn keep<T>(&mut self, r: std::io::Result<T>) -> std::io::Result<T> {
        if let Err(e) = &r
            && self.error.is_none()
        {
            self.error = Some(std::io::Error::new(e.kind(), e.to_string()));
        }
        r
    }

    fn failed(&self) -> Option<std::io::Error> {
        self.error
            .as_ref()
            .map(|e| std::io::Error::new(e.kind(), e.to_string()))
    }
}

impl<W: Write> Write for Watched<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Some(e) = self.failed() {
            return Err(e);
        }
        let r = self.inner.write(buf);
        self.keep(r)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if let Some(e) = self.failed() {
            return Err(e);
        }
        let r = self.inner.flush();
        self.keep(r)
    }
}

fn check(a: &CheckArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, String> {
    let json = match a.format.as_str() {
        _ if a.json => true,
        "json" => true,
        "text" => false,
        other => return Err(format!("`--format {other}`: use `text` or `json`")),
    };
    let opts = CheckOptions {
        json,
        deny_warnings: a.deny_warnings,
        sets: sets(&a.sets)?,
        color: color(),
    };
    Ok(commands::check_cmd(&a.paths, &opts, out, err))
}

fn run_command(a: RunArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, String> {
    let mut text = a.moves.clone().unwrap_or_default();
    if let Some(f) = &a.moves_file {
        let t = read_capped(std::path::Path::new(f), MOVES_FILE_BYTES)
            .map_err(|e| format!("cannot read `{f}`: {e}"))
            .and_then(|b| String::from_utf8(b).map_err(|_| format!("`{f}` is not UTF-8 text")))?;
        text.push(';');
        text.push_str(&t.replace('\n', ";"));
    }
    let moves = text
        .split(';')
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(String::from)
        .collect();
    let o = run::RunOptions {
        players: a.players,
        seed: a.seed,
        sets: sets(&a.sets)?,
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
        pot: a.pot,
        bank: a.bank,
        next_deal: a.next_deal,
        counts: a.counts,
        round: a.round,
    };
    Ok(run::run_cmd(&Shipped, &a.ruleset, &o, out, err))
}

/// `--sweep NAME=V1,V2,...`: each value a number, `yes` or `no`.
fn sweep(text: &str) -> Result<(String, Vec<String>), String> {
    let (name, values) = sweep_list(text)?;
    if let Some(bad) = values
        .iter()
        .find(|v| v.parse::<i64>().is_err() && !matches!(v.as_str(), "yes" | "no"))
    {
        return Err(format!(
            "`--sweep {text}`: `{bad}` is not a value an option takes (a number, `yes` or `no`)"
        ));
    }
    Ok((name, values))
}

fn sweep_list(text: &str) -> Result<(String, Vec<String>), String> {
    let shape = || "`--sweep NAME=V1,V2,...`, like `--sweep chips=2,3,5`".to_string();
    let (name, values) = text.split_once('=').ok_or_else(shape)?;
    let values: Vec<String> = values.split(',').map(|x| x.trim().to_string()).collect();
    if name.trim().is_empty() || values.iter().all(String::is_empty) {
        return Err(shape());
    }
    // A value left out between commas is a slip, not a wish: said, not dropped.
    if values.iter().any(String::is_empty) {
        return Err(format!(
            "`--sweep {text}`: a value is missing between two commas (write {})",
            shape()
        ));
    }
    Ok((name.trim().to_string(), values))
}

fn sim(a: SimArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, String> {
    if !a.merge.is_empty() {
        let o = sim_cmd::SimOptions {
            json: a.json,
            unicode: std::io::stdout().is_terminal(),
            report: a.report,
            ..sim_cmd::SimOptions::default()
        };
        return Ok(sim_cmd::merge_cmd(&a.merge, &o, out, err));
    }
    let env = |name: &str| std::env::var(name).ok();
    let shard = a
        .shard
        .as_deref()
        .map(|t| shard::parse(t, &env))
        .transpose()?;
    let sweep = a.sweep.as_deref().map(sweep).transpose()?;
    let sets = sets(&a.sets)?;
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    let _ = ctrlc::set_handler(move || flag.store(true, std::sync::atomic::Ordering::Relaxed));
    let jobs = jobs(a.jobs, err)?;
    let o = sim_cmd::SimOptions {
        games: a.games,
        players: a.players,
        bots: a.bots,
        seed: a.seed,
        jobs,
        sets,
        json: a.json,
        sweep,
        shard,
        progress: std::io::stderr().is_terminal(),
        unicode: std::io::stdout().is_terminal(),
        report: a.report,
        cancel,
    };
    Ok(sim_cmd::sim_cmd(&Shipped, &a.rulesets, &o, out, err))
}

/// `--jobs`: at least 1, at most the machine's cores (said when cut down).
pub(super) fn jobs(asked: Option<usize>, err: &mut dyn Write) -> Result<usize, String> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    match asked {
        Some(0) => Err("`--jobs 0`: a run needs at least 1 thread".into()),
        Some(j) if j > cores => {
            let _ = writeln!(
                err,
                "note: --jobs {j} is more than the {cores} cores of this machine; using {cores}"
            );
            Ok(cores)
        }
        Some(j) => Ok(j),
        None => Ok(cores),
    }
}

/// A flag Ctrl-C sets, as `sim` has.
pub(super) fn ctrl_c() -> Arc<AtomicBool> {
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    let _ = ctrlc::set_handler(move || flag.store(true, std::sync::atomic::Ordering::Relaxed));
    say_ready();
    cancel
}

/// With `NINETY_READY_LINE=1`, one line on standard error, once, when Ctrl-C is handled (and,
/// for `sim`, its first game is played): the tests send their SIGINT after it, since before
/// the handler is installed a SIGINT ends the process.
pub(crate) fn say_ready() {
    static SAID: std::sync::Once = std::sync::Once::new();
    SAID.call_once(|| {
        if std::env::var_os("NINETY_READY_LINE").is_some_and(|v| v == "1") {
            eprintln!("ready: Ctrl-C stops the run and reports the games played");
        }
    });
}

fn play(a: PlayArgs) -> Result<i32, String> {
    // Ctrl-C still ends a game at once (at the prompt the terminal reads it as a key), but
    // never in the middle of writing a save: that is finished first.
    let _ = ctrlc::set_handler(|| super::atomic::exit_after_writes(130));
    let started = match &a.load {
        Some(file) => session::Session::resume(&Shipped, file, color())?,
        None => {
            let sets = sets(&a.sets)?;
            let seed = a.seed.unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64)
            });
            let program = match commands::load_for_command(&Shipped, &a.ruleset, &sets) {
                Ok(p) => p,
                Err((code, e)) => {
                    let _ = writeln!(std::io::stderr(), "error: {}", escape_lines(&e));
                    return Ok(code);
                }
            };
            let o = session::Options {
                ruleset: a.ruleset,
                players: a.players,
                humans: a.humans,
                bot: a.bot,
                seed,
                sets,
                color: color(),
            };
            session::Session::start_with(program, &o)?
        }
    };
    let (session, welcome) = started;
    match repl::run(&Shipped, session, &welcome) {
        Ok(()) => Ok(commands::OK),
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "error: {e}");
            Ok(commands::FAILED)
        }
    }
}

fn rules(a: &RulesArgs, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, String> {
    let format = match a.format.as_str() {
        "md" | "markdown" => commands::SheetFormat::Markdown,
        "text" => commands::SheetFormat::Text,
        "rules" => commands::SheetFormat::Rules,
        other => return Err(format!("`--format {other}`: use `text`, `md` or `rules`")),
    };
    let sets = sets(&a.sets)?;
    Ok(commands::rules_cmd(
        &Shipped, &a.ruleset, format, &sets, out, err,
    ))
}

/// `--games N`: a whole number of games; a negative one is told as such (not taken for an
/// option, with clap's tip to write `-- -1`, which would make it a ruleset's name).
pub(super) fn games_count(text: &str) -> Result<u64, String> {
    match text.trim().parse::<i128>() {
        Ok(n) if n < 0 => {
            Err("a number of games cannot be negative: a run plays at least 1 game".into())
        }
        Ok(n) => u64::try_from(n).map_err(|_| "too many games".to_string()),
        Err(_) => Err("a number of games is a whole number, like `--games 2000`".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_no_color_with_a_value_turns_colour_off() {
        assert!(!no_color(None));
        assert!(!no_color(Some(std::ffi::OsStr::new(""))));
        for v in ["1", "0", "false", " "] {
            assert!(no_color(Some(std::ffi::OsStr::new(v))), "{v:?}");
        }
    }

    #[test]
    fn a_dumb_terminal_gets_no_colour() {
        assert!(dumb(Some(std::ffi::OsStr::new("dumb"))));
        for term in [None, Some("xterm"), Some("xterm-256color"), Some("")] {
            assert!(!dumb(term.map(std::ffi::OsStr::new)), "{term:?}");
        }
    }
}
