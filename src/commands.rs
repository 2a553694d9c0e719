//! The commands behind the binary, as functions that write to any output and return an exit
//! code, so tests can call them directly.

use std::io::Write;
use std::path::Path;

use crate::bots::Player;
use crate::check::{self, Checked, Loader};
use crate::describe;
use crate::diag::Diag;
use crate::engine::{self, Card, Event, Move, PlayError, Setup, State, parse_card};
use crate::ir::Program;
use crate::scenario;

/// Exit codes.
pub const OK: i32 = 0;
pub const FAILED: i32 = 1;
pub const USAGE: i32 = 2;

/// Options of `ninety check`.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    pub json: bool,
    pub deny_warnings: bool,
    pub sets: Vec<(String, String)>,
    pub color: bool,
}

/// The `*.rules` files a list of paths names (a folder means every ruleset in it).
pub fn expand(paths: &[String]) -> Result<Vec<String>, String> {
    let mut files = Vec::new();
    for path in paths {
        let p = Path::new(path);
        if p.is_dir() {
            let mut found: Vec<String> = std::fs::read_dir(p)
                .map_err(|e| format!("cannot read the folder `{path}`: {e}"))?
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|f| f.extension().is_some_and(|x| x == "rules"))
                .map(|f| f.display().to_string())
                .collect();
            found.sort();
            if found.is_empty() {
                return Err(format!("the folder `{path}` holds no `.rules` files"));
            }
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// Checks one ruleset and runs its scenarios: every diagnostic.
pub fn check_one(
    loader: &dyn Loader,
    path: &str,
    sets: &[(String, String)],
) -> Result<Checked, check::Unreadable> {
    let mut checked = check::check(loader, path, sets)?;
    if let Some(program) = &checked.program
        && let Some(own) = checked.layers.last()
    {
        let recompile = |extra: &[(String, String)]| {
            let mut all = sets.to_vec();
            all.extend_from_slice(extra);
            let checked = check::check(loader, path, &all).map_err(|e| e.to_string())?;
            checked.program.ok_or_else(|| {
                let messages: Vec<String> = checked
                    .diags
                    .iter()
                    .filter(|d| d.is_error())
                    .map(|d| d.message.clone())
                    .collect();
                messages.join("; ")
            })
        };
        let diags: Vec<Diag> = scenario::run_all(program, own, &recompile);
        checked.diags.extend(diags);
    }
    Ok(checked)
}

/// `ninety check PATH...`
pub fn check_cmd(
    paths: &[String],
    opts: &CheckOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let files = match expand(paths) {
        Ok(f) => f,
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            return USAGE;
        }
    };
    let (mut errors, mut warnings, mut unreadable) = (0, 0, 0);
    for file in &files {
        match check_one(&check::Disk, file, &opts.sets) {
            Err(e) => {
                unreadable += 1;
                let _ = writeln!(err, "error: {e}");
            }
            Ok(checked) => {
                errors += checked.errors();
                warnings += checked.warnings();
                for d in &checked.diags {
                    if opts.json {
                        let _ = writeln!(out, "{}", d.to_json());
                    } else {
                        let _ = writeln!(out, "{}", d.render(opts.color));
                    }
                }
            }
        }
    }
    if !opts.json {
        let plural = |n: usize, w: &str| format!("{n} {w}{}", if n == 1 { "" } else { "s" });
        let _ = writeln!(
            out,
            "{} checked, {}, {}",
            plural(files.len() - unreadable, "ruleset"),
            plural(errors, "error"),
            plural(warnings, "warning")
        );
    }
    if unreadable > 0 {
        USAGE
    } else if errors > 0 || (opts.deny_warnings && warnings > 0) {
        FAILED
    } else {
        OK
    }
}

/// Options of `ninety run`.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    pub players: Option<usize>,
    pub seed: u64,
    pub sets: Vec<(String, String)>,
    pub moves: Vec<String>,
    pub json: bool,
    pub bots: Option<String>,
    pub deck: Option<String>,
    pub hands: Option<String>,
    pub discard: Option<String>,
    pub total: Option<i32>,
    pub chips: Option<String>,
    pub turn: Option<u8>,
    pub direction: Option<String>,
    pub dealer: Option<u8>,
}

/// Reads `9H KS 4D` into cards.
pub fn parse_cards(text: &str) -> Result<Vec<Card>, String> {
    text.split_whitespace()
        .map(|w| {
            parse_card(w).ok_or_else(|| {
                format!("`{w}` is not a card: write a rank and a suit, like `9H` or `10S`")
            })
        })
        .collect()
}

/// Loads and checks a ruleset for playing: the program, or the diagnostics rendered.
pub fn load_program(
    loader: &dyn Loader,
    path: &str,
    sets: &[(String, String)],
) -> Result<Program, String> {
    let checked = check::check(loader, path, sets).map_err(|e| e.to_string())?;
    match checked.program {
        Some(p) => Ok(p),
        None => {
            let text: Vec<String> = checked
                .diags
                .iter()
                .filter(|d| d.is_error())
                .map(|d| d.render_plain(100))
                .collect();
            Err(format!("{path} does not check:\n{}", text.join("\n")))
        }
    }
}

/// The setup a `run` describes.
pub fn setup_from(p: &Program, o: &RunOptions) -> Result<Setup, String> {
    let players = o
        .players
        .unwrap_or_else(|| 3.clamp(usize::from(p.min_players), usize::from(p.max_players)));
    let hands = match &o.hands {
        None => None,
        Some(h) => Some(
            h.split('|')
                .map(parse_cards)
                .collect::<Result<Vec<_>, _>>()?,
        ),
    };
    let chips = match &o.chips {
        None => None,
        Some(c) => Some(
            c.split(',')
                .map(|x| {
                    x.trim()
                        .parse::<i32>()
                        .map_err(|_| format!("`{x}` is not a number of chips"))
                })
                .collect::<Result<Vec<_>, _>>()?,
        ),
    };
    let clockwise = match o.direction.as_deref() {
        None => None,
        Some("cw" | "clockwise") => Some(true),
        Some("ccw" | "counterclockwise") => Some(false),
        Some(d) => return Err(format!("`--direction {d}`: write `cw` or `ccw`")),
    };
    Ok(Setup {
        players,
        seed: o.seed,
        deck: o.deck.as_deref().map(parse_cards).transpose()?,
        hands,
        discard: o.discard.as_deref().map(parse_cards).transpose()?,
        total: o.total,
        chips,
        turn: o.turn,
        clockwise,
        dealer: o.dealer,
        stock_only: false,
    })
}

fn seat_name(seat: u8) -> String {
    format!("Seat {seat}")
}

/// `ninety run RULESET`: plays the moves given, then (with `--bots`) bots to the end.
pub fn run_cmd(
    loader: &dyn Loader,
    path: &str,
    o: &RunOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let p = match load_program(loader, path, &o.sets) {
        Ok(p) => p,
        Err(e) => {
            let _ = writeln!(err, "{e}");
            return FAILED;
        }
    };
    let bot = match o.bots.as_deref().map(Player::from_name).transpose() {
        Ok(b) => b,
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            return USAGE;
        }
    };
    let setup = match setup_from(&p, o) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            return USAGE;
        }
    };
    let mut events: Vec<Event> = Vec::new();
    let mut s = match engine::new_game(&p, &setup, &mut events) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            return USAGE;
        }
    };
    let mut code = OK;
    let flush = |events: &mut Vec<Event>, out: &mut dyn Write| {
        for e in events.drain(..) {
            if o.json {
                let _ = writeln!(out, "{}", describe::event_json(&p, &e));
            } else {
                let line = describe::event_text(&p, &e, &seat_name);
                if !line.is_empty() {
                    let _ = writeln!(out, "{line}");
                }
            }
        }
    };
    flush(&mut events, out);
    for text in &o.moves {
        if s.over {
            let _ = writeln!(err, "error: move `{text}`: the game is already over");
            code = FAILED;
            break;
        }
        match apply_typed(&p, &mut s, text, &mut events) {
            Ok(()) => flush(&mut events, out),
            Err(e) => {
                let _ = writeln!(err, "error: {e}");
                code = FAILED;
                break;
            }
        }
    }
    if code == OK
        && let Some(bot) = bot
    {
        let mut rng = engine::bot_rng(o.seed);
        while !s.over {
            if s.turns > engine::TURN_LIMIT {
                let _ = writeln!(err, "error: {}", PlayError::TurnLimit(engine::TURN_LIMIT));
                code = FAILED;
                break;
            }
            match bot.turn(&p, &mut s, &mut rng, &mut events) {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => {
                    let _ = writeln!(err, "error: the bot's move failed: {e}");
                    code = FAILED;
                    break;
                }
            }
            flush(&mut events, out);
        }
    }
    if o.json {
        let _ = writeln!(out, "{}", describe::state_json(&p, &s));
    } else {
        let _ = writeln!(out, "{}", state_text(&p, &s));
    }
    code
}

/// Applies a typed move, or says why it cannot be played (with the legal moves).
pub fn apply_typed(
    p: &Program,
    s: &mut State,
    text: &str,
    events: &mut Vec<Event>,
) -> Result<(), String> {
    let legal = describe::legal_list(p, s);
    let seat = s.turn;
    let mv = describe::parse_move(p, s, text)
        .map_err(|e| format!("move `{text}`: {e}; legal moves: {legal}"))?;
    if let Move::Play { .. } = mv
        && s.pending_draw.is_some()
        && s.hands[usize::from(s.turn)].is_empty()
    {
        return Err(format!("move `{text}`: seat {} holds no cards", s.turn));
    }
    engine::step(p, s, mv, events)
        .map_err(|e| format!("move `{text}` by seat {seat}: {e}; legal moves: {legal}"))
}

/// A short summary of the state, for the end of a transcript.
pub fn state_text(p: &Program, s: &State) -> String {
    let chips: Vec<String> = (0..s.seats).map(|x| s.chips_of(p, x).to_string()).collect();
    let mut text = format!(
        "Total {}, {}, round {}, chips {} (bank {}, pot {}).",
        s.total,
        crate::describe::direction_word(s.clockwise),
        s.round,
        chips.join(" "),
        s.bank,
        s.pot
    );
    if s.over {
        text.push_str(" The game is over.");
    } else {
        text.push_str(&format!(
            " Seat {} to play: {}.",
            s.turn,
            describe::legal_list(p, s)
        ));
    }
    text
}

/// `ninety list`: the shipped rulesets, a line each.
pub fn list_cmd(out: &mut dyn Write) -> i32 {
    for (name, _) in check::SHIPPED {
        match check::check(&check::Shipped, name, &[]) {
            Ok(Checked {
                program: Some(p), ..
            }) => {
                let _ = writeln!(out, "{name:<29} {} — {}", p.name, p.about);
            }
            _ => {
                let _ = writeln!(out, "{name:<29} (does not check)");
            }
        }
    }
    OK
}

/// The compiled parent of a variant, to mark what the variant changes on its rules sheet.
pub fn base_program(
    loader: &dyn Loader,
    p: &Program,
    sets: &[(String, String)],
) -> Option<Program> {
    let parent = p.files.len().checked_sub(2).and_then(|i| p.files.get(i))?;
    let known: Vec<(String, String)> = sets
        .iter()
        .filter(|(n, _)| p.option(n).is_some())
        .cloned()
        .collect();
    load_program(loader, parent, &known)
        .or_else(|_| load_program(loader, parent, &[]))
        .ok()
}

/// `ninety rules RULESET`: the rules sheet.
pub fn rules_cmd(
    loader: &dyn Loader,
    path: &str,
    md: bool,
    sets: &[(String, String)],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    match load_program(loader, path, sets) {
        Ok(p) => {
            let base = base_program(loader, &p, sets);
            let _ = write!(out, "{}", crate::sheet::rules_sheet(&p, base.as_ref(), md));
            OK
        }
        Err(e) => {
            let _ = writeln!(err, "{e}");
            FAILED
        }
    }
}

/// Options of `ninety sim`.
#[derive(Debug, Clone, Default)]
pub struct SimOptions {
    pub games: u64,
    pub players: Option<usize>,
    pub bots: Vec<String>,
    pub seed: u64,
    pub jobs: usize,
    pub sets: Vec<(String, String)>,
    pub json: bool,
    pub sweep: Option<(String, Vec<String>)>,
    pub shard: Option<(u64, u64)>,
    pub progress: bool,
}

fn sim_bots(names: &[String]) -> Result<Vec<Player>, String> {
    names.iter().map(|n| Player::from_name(n)).collect()
}

fn sim_one(
    loader: &dyn Loader,
    path: &str,
    o: &SimOptions,
    sets: &[(String, String)],
) -> Result<(crate::sim::Config, crate::sim::Stats), String> {
    let p = load_program(loader, path, sets)?;
    let players = o
        .players
        .unwrap_or_else(|| 3.clamp(usize::from(p.min_players), usize::from(p.max_players)));
    if players < usize::from(p.min_players) || players > usize::from(p.max_players) {
        return Err(format!(
            "{} is played by {} to {} players, not {players}",
            p.name, p.min_players, p.max_players
        ));
    }
    let names = if o.bots.is_empty() {
        vec!["cautious".to_string()]
    } else {
        o.bots.clone()
    };
    let bots = sim_bots(&names)?;
    let cfg = crate::sim::Config {
        ruleset: path.to_string(),
        name: p.name.clone(),
        players,
        bots: (0..players)
            .map(|i| names[i % names.len()].clone())
            .collect(),
        seed: o.seed,
        games: o.games,
        sets: sets.to_vec(),
    };
    let planned = match o.shard {
        Some((k, n)) => (0..o.games).filter(|i| i % n == k - 1).count() as u64,
        None => o.games,
    };
    let bar = (o.progress && planned >= 2000).then(|| {
        let bar = indicatif::ProgressBar::new(planned);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} games, {per_sec}, {eta} left",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let tick = || {
        if let Some(b) = &bar {
            b.inc(1);
        }
    };
    let stats = crate::sim::run(&p, &bots, &cfg, o.shard, o.jobs, &tick)?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    Ok((cfg, stats))
}

/// `ninety sim RULESET [RULESET_B]`: statistics of many bot games, or two rulesets side by
/// side on the same deals, or one option swept over values.
pub fn sim_cmd(
    loader: &dyn Loader,
    paths: &[String],
    o: &SimOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let fail = |err: &mut dyn Write, e: String| {
        let _ = writeln!(err, "error: {e}");
        FAILED
    };
    match (paths, &o.sweep) {
        ([path], None) => match sim_one(loader, path, o, &o.sets) {
            Ok((cfg, stats)) => {
                if o.json {
                    let output = crate::sim::Output {
                        config: cfg.clone(),
                        shard: o.shard,
                        stats: stats.clone(),
                    };
                    let figures = crate::sim::figures(&cfg, &stats);
                    let v = serde_json::json!({ "run": output, "figures": figures });
                    let _ = writeln!(out, "{v}");
                } else {
                    let _ = write!(out, "{}", crate::sim::report(&cfg, &stats));
                }
                OK
            }
            Err(e) => fail(err, e),
        },
        ([a, b], None) => {
            let (ra, rb) = (
                sim_one(loader, a, o, &o.sets),
                sim_one(loader, b, o, &o.sets),
            );
            match (ra, rb) {
                (Ok(x), Ok(y)) => {
                    if o.json {
                        let v = serde_json::json!({
                            "a": { "run": crate::sim::Output { config: x.0.clone(), shard: o.shard, stats: x.1.clone() }, "figures": crate::sim::figures(&x.0, &x.1) },
                            "b": { "run": crate::sim::Output { config: y.0.clone(), shard: o.shard, stats: y.1.clone() }, "figures": crate::sim::figures(&y.0, &y.1) },
                        });
                        let _ = writeln!(out, "{v}");
                    } else {
                        let _ = write!(out, "{}", crate::sim::compare((&x.0, &x.1), (&y.0, &y.1)));
                    }
                    OK
                }
                (Err(e), _) | (_, Err(e)) => fail(err, e),
            }
        }
        ([path], Some((name, values))) => {
            let mut rows = Vec::new();
            for v in values {
                let mut sets = o.sets.clone();
                sets.push((name.clone(), v.clone()));
                match sim_one(loader, path, o, &sets) {
                    Ok((cfg, stats)) => rows.push((v.clone(), crate::sim::figures(&cfg, &stats))),
                    Err(e) => return fail(err, e),
                }
            }
            if o.json {
                let v: Vec<serde_json::Value> = rows
                    .iter()
                    .map(|(v, f)| serde_json::json!({ "value": v, "figures": f }))
                    .collect();
                let _ = writeln!(out, "{}", serde_json::Value::Array(v));
            } else {
                let _ = writeln!(
                    out,
                    "{:>8} {:>10} {:>8} {:>10} {:>12} {:>13} {:>11}",
                    name, "turns", "rounds", "seat 0 %", "chips/round", "forced/game", "turn limit"
                );
                for (v, f) in rows {
                    let _ = writeln!(
                        out,
                        "{v:>8} {:>10.1} {:>8.2} {:>10.1} {:>12.2} {:>13.2} {:>11}",
                        f.turns_mean,
                        f.rounds_mean,
                        f.win_pct.first().copied().unwrap_or(0.0),
                        f.chips_lost_per_round,
                        f.forced_busts_per_game,
                        f.turn_limited
                    );
                }
            }
            OK
        }
        (_, Some(_)) => fail(err, "`--sweep` runs one ruleset".into()),
        _ => {
            let _ = writeln!(err, "error: give one ruleset, or two to compare");
            USAGE
        }
    }
}

/// `ninety sim --merge FILES...`: the report of a run from the `--json` output of its shards.
pub fn merge_cmd(files: &[String], json: bool, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let mut parts = Vec::new();
    for f in files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                let _ = writeln!(err, "error: cannot read `{f}`: {e}");
                return USAGE;
            }
        };
        let v: serde_json::Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(e) => {
                let _ = writeln!(
                    err,
                    "error: `{f}` is not the JSON of `ninety sim --json`: {e}"
                );
                return FAILED;
            }
        };
        match serde_json::from_value::<crate::sim::Output>(v["run"].clone()) {
            Ok(o) => parts.push(o),
            Err(e) => {
                let _ = writeln!(
                    err,
                    "error: `{f}` is not the JSON of `ninety sim --json`: {e}"
                );
                return FAILED;
            }
        }
    }
    match crate::sim::merge(&parts) {
        Ok(whole) => {
            if json {
                let figures = crate::sim::figures(&whole.config, &whole.stats);
                let _ = writeln!(
                    out,
                    "{}",
                    serde_json::json!({ "run": whole, "figures": figures })
                );
            } else {
                let _ = write!(out, "{}", crate::sim::report(&whole.config, &whole.stats));
            }
            OK
        }
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            FAILED
        }
    }
}
