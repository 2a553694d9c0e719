//! The rhai escape hatch, sandboxed: card effects, conditions, bar tests and bots a ruleset's
//! language cannot say.
//!
//! Scripts are compiled once, when the ruleset is checked. Each function gets a `game` value
//! to read (see [`Game`]); one that reads only the total and the card is tabulated then, so it
//! costs nothing at play time, and only functions that read more run live. The engine is
//! limited in operations, call depth, and string, array and map sizes, prints nothing, and has
//! no file, network or process access: a runaway script fails with a clear error and the game
//! stays as it was before the move.

use std::sync::atomic::Ordering;

use rhai::{
    AST, Array, CallFnOptions, Dynamic, Engine, EvalAltResult, ImmutableString, Map, Scope,
};

use crate::engine::{State, card_name};
use crate::ir::{self, Outcome, OutcomeKind, Program, Target, Who};

/// The most operations one call may take (about a few milliseconds).
pub const MAX_OPERATIONS: u64 = 200_000;
/// The deepest a call may nest.
pub const MAX_CALL_LEVELS: usize = 32;
/// The longest string, array and map a script may build.
pub const MAX_STRING: usize = 10_000;
pub const MAX_ARRAY: usize = 10_000;
pub const MAX_MAP: usize = 1_000;

/// What a script reads: `game.total`, `game.previous` (the total before the card, for bar
/// tests), `game.card` (`"Q"`), `game.face` (12), `game.player` (the seat), `game.chips` and
/// `game.hand_sizes` (by seat), `game.direction` (`"cw"` or `"ccw"`), `game.players_left`,
/// `game.round`, `game.seats`, `game.hand` (bots only: the player's cards).
#[derive(Debug, Clone, Copy)]
pub struct Game {
    total: i32,
    previous: i32,
    rank: u8,
    player: u8,
    seats: u8,
    players_left: u8,
    clockwise: bool,
    round: u32,
    chips: [i32; ir::MAX_SEATS],
    hand_sizes: [u8; ir::MAX_SEATS],
    hand: [u8; ir::MAX_HAND],
    hand_len: u8,
}

/// What a script read of the game, as bits (set by the getters as the script runs).
pub mod read {
    pub const TOTAL: u16 = 1;
    pub const PREVIOUS: u16 = 2;
    pub const CARD: u16 = 4;
    pub const PLAYER: u16 = 8;
    pub const CHIPS: u16 = 16;
    pub const HAND_SIZES: u16 = 32;
    pub const DIRECTION: u16 = 64;
    pub const PLAYERS_LEFT: u16 = 128;
    pub const ROUND: u16 = 256;
    pub const SEATS: u16 = 512;
    pub const HAND: u16 = 1024;
    /// Reading only these, a script can be tabulated by total.
    pub const PURE: u16 = TOTAL | PREVIOUS | CARD;
}

thread_local! {
    /// The fields read by the script running on this thread.
    static READ: std::cell::Cell<u16> = const { std::cell::Cell::new(0) };
}

fn mark(bit: u16) {
    READ.with(|r| r.set(r.get() | bit));
}

/// Runs `f` and says which fields of the game it read.
pub fn reading<T>(f: impl FnOnce() -> T) -> (T, u16) {
    READ.with(|r| r.set(0));
    let out = f();
    (out, READ.with(std::cell::Cell::get))
}

impl Game {
    /// A fingerprint of the fields in `mask`: two games alike in them are alike to a script
    /// that reads only them.
    pub fn fingerprint(&self, mask: u16) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut mix = |v: i64| {
            h ^= v as u64;
            h = h.wrapping_mul(0x0100_0000_01b3).rotate_left(29);
        };
        mix(i64::from(mask));
        if mask & read::TOTAL != 0 {
            mix(i64::from(self.total));
        }
        if mask & read::PREVIOUS != 0 {
            mix(i64::from(self.previous));
        }
        if mask & read::CARD != 0 {
            mix(i64::from(self.rank));
        }
        if mask & read::PLAYER != 0 {
            mix(i64::from(self.player));
        }
        if mask & (read::CHIPS | read::HAND_SIZES | read::SEATS) != 0 {
            mix(i64::from(self.seats));
            for x in 0..usize::from(self.seats) {
                mix((i64::from(self.chips[x]) << 8) | i64::from(self.hand_sizes[x]));
            }
        }
        if mask & read::DIRECTION != 0 {
            mix(i64::from(self.clockwise));
        }
        if mask & read::PLAYERS_LEFT != 0 {
            mix(i64::from(self.players_left));
        }
        if mask & read::ROUND != 0 {
            mix(i64::from(self.round));
        }
        if mask & read::HAND != 0 {
            for c in &self.hand[..usize::from(self.hand_len)] {
                mix(i64::from(*c));
            }
        }
        h
    }

    /// The game as the player to move sees it, with `rank` the card being played. Plain
    /// numbers: the script's lists are built only if it reads them.
    pub fn from_state(p: &Program, s: &State, rank: u8, previous: i32, total: i32) -> Game {
        let mut chips = [0; ir::MAX_SEATS];
        let mut hand_sizes = [0; ir::MAX_SEATS];
        for x in 0..s.seats {
            chips[usize::from(x)] = s.chips_of(p, x);
            hand_sizes[usize::from(x)] = s.hands[usize::from(x)].len() as u8;
        }
        let cards = s.hands[usize::from(s.turn)].cards();
        let mut hand = [0; ir::MAX_HAND];
        hand[..cards.len()].copy_from_slice(cards);
        Game {
            total,
            previous,
            rank: rank.min(13),
            player: s.turn,
            seats: s.seats,
            players_left: s.active() as u8,
            clockwise: s.clockwise,
            round: s.round,
            chips,
            hand_sizes,
            hand,
            hand_len: cards.len() as u8,
        }
    }

    /// A made-up game for tabulating and trying a script at check time.
    fn probe(rank: u8, previous: i32, total: i32) -> Game {
        let mut chips = [0; ir::MAX_SEATS];
        chips[..3].fill(3);
        let mut hand_sizes = [0; ir::MAX_SEATS];
        hand_sizes[..3].fill(3);
        Game {
            total,
            previous,
            rank: rank.min(13),
            player: 0,
            seats: 3,
            players_left: 3,
            clockwise: true,
            round: 1,
            chips,
            hand_sizes,
            hand: [0; ir::MAX_HAND],
            hand_len: 0,
        }
    }
}

/// Where a function was written, for messages.
#[derive(Debug, Clone)]
pub struct FnSource {
    pub name: String,
    /// The ruleset or `.rhai` file, and the line its code starts at in it.
    pub file: String,
    pub first_line: usize,
    /// The line of `fn NAME(` in that file.
    pub def_line: usize,
}

/// The compiled scripts of a ruleset and the sandboxed engine that runs them.
pub struct Host {
    engine: Engine,
    ast: AST,
    pub functions: Vec<FnSource>,
    /// Unique among hosts, for the engine's memo of live answers.
    pub id: u64,
}

static HOSTS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl std::fmt::Debug for Host {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Host")
            .field("functions", &self.functions)
            .finish_non_exhaustive()
    }
}

/// A script failed: which, where, and why, in words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("script `{function}` ({place}): {message}")]
pub struct ScriptError {
    pub function: String,
    pub place: String,
    pub message: String,
    /// The line in the script's file, when known.
    pub line: Option<usize>,
}

/// A sandboxed engine: no printing, no `eval`, limits on everything that can grow.
pub fn sandbox() -> Engine {
    // A raw engine with the core language only (arithmetic, logic, strings, arrays, maps):
    // fewer functions to resolve, and nothing that reaches outside.
    let mut engine = Engine::new_raw();
    {
        use rhai::packages::{Package, StandardPackage};
        engine.register_global_module(StandardPackage::new().as_shared_module());
    }
    engine.set_optimization_level(rhai::OptimizationLevel::Full);
    engine
        .set_max_operations(MAX_OPERATIONS)
        .set_max_call_levels(MAX_CALL_LEVELS)
        .set_max_expr_depths(64, 32)
        .set_max_string_size(MAX_STRING)
        .set_max_array_size(MAX_ARRAY)
        .set_max_map_size(MAX_MAP)
        .on_print(|_| {})
        .on_debug(|_, _, _| {});
    engine.disable_symbol("eval");
    engine
        .register_type_with_name::<Game>("Game")
        .register_get("total", |g: &mut Game| {
            mark(read::TOTAL);
            i64::from(g.total)
        })
        .register_get("card", |g: &mut Game| {
            mark(read::CARD);
            ImmutableString::from(ir::RANK_NAMES[usize::from(g.rank)])
        })
        .register_get("face", |g: &mut Game| {
            mark(read::CARD);
            i64::from(crate::check::face_value(g.rank))
        })
        .register_get("previous", |g: &mut Game| {
            mark(read::PREVIOUS);
            i64::from(g.previous)
        })
        .register_get("player", |g: &mut Game| {
            mark(read::PLAYER);
            i64::from(g.player)
        })
        .register_get("chips", |g: &mut Game| {
            mark(read::CHIPS);
            g.chips[..usize::from(g.seats)]
                .iter()
                .map(|c| Dynamic::from(i64::from(*c)))
                .collect::<Array>()
        })
        .register_get("hand_sizes", |g: &mut Game| {
            mark(read::HAND_SIZES);
            g.hand_sizes[..usize::from(g.seats)]
                .iter()
                .map(|c| Dynamic::from(i64::from(*c)))
                .collect::<Array>()
        })
        .register_get("direction", |g: &mut Game| {
            mark(read::DIRECTION);
            ImmutableString::from(if g.clockwise { "cw" } else { "ccw" })
        })
        .register_get("players_left", |g: &mut Game| {
            mark(read::PLAYERS_LEFT);
            i64::from(g.players_left)
        })
        .register_get("round", |g: &mut Game| {
            mark(read::ROUND);
            i64::from(g.round)
        })
        .register_get("seats", |g: &mut Game| {
            mark(read::SEATS);
            i64::from(g.seats)
        })
        .register_get("hand", |g: &mut Game| {
            mark(read::HAND);
            g.hand[..usize::from(g.hand_len)]
                .iter()
                .map(|c| Dynamic::from(card_name(*c)))
                .collect::<Array>()
        });
    engine
}

/// Why a piece of code does not compile: the message and its line and column in that code.
#[derive(Debug, Clone)]
pub struct CompileError {
    pub message: String,
    pub line: usize,
    pub column: usize,
}

/// Compiles one piece of code with the sandbox's syntax.
pub fn compile(engine: &Engine, code: &str) -> Result<AST, CompileError> {
    engine.compile(code).map_err(|e| CompileError {
        message: e.err_type().to_string(),
        line: e.position().line().unwrap_or(1),
        column: e.position().position().unwrap_or(1),
    })
}

impl Host {
    /// A host for compiled pieces of code, each with where it came from.
    pub fn new(pieces: Vec<(AST, String, usize, String)>) -> Host {
        let engine = sandbox();
        let mut ast = AST::empty();
        let mut functions = Vec::new();
        for (piece, file, first_line, text) in pieces {
            for f in piece.iter_functions() {
                functions.retain(|x: &FnSource| x.name != f.name);
                let needle = format!("fn {}", f.name);
                let def = text
                    .lines()
                    .position(|l| l.trim_start().starts_with(&needle))
                    .map_or(first_line, |i| first_line + i);
                functions.push(FnSource {
                    name: f.name.to_string(),
                    file: file.clone(),
                    first_line,
                    def_line: def,
                });
            }
            ast = ast.merge(&piece);
        }
        Host {
            engine,
            ast,
            functions,
            id: HOSTS.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// The number of parameters of a function, if it is defined.
    pub fn arity(&self, name: &str) -> Option<usize> {
        self.ast
            .iter_functions()
            .filter(|f| f.name == name)
            .map(|f| f.params.len())
            .next()
    }

    fn place(&self, name: &str, line: Option<usize>) -> (String, Option<usize>) {
        match self.functions.iter().find(|f| f.name == name) {
            Some(f) => {
                let abs = Some(line.map_or(f.def_line, |l| f.first_line + l - 1));
                let file = f
                    .file
                    .rsplit(['/', '\\'])
                    .next()
                    .unwrap_or(&f.file)
                    .to_string();
                (
                    abs.map_or(file.clone(), |l| format!("{file} line {l}")),
                    abs,
                )
            }
            None => ("no such function".into(), None),
        }
    }

    fn error(&self, name: &str, e: &EvalAltResult) -> ScriptError {
        let line = e.position().line();
        let (place, line) = self.place(name, line);
        let message = match e {
            EvalAltResult::ErrorTooManyOperations(..) => {
                format!(
                    "it ran too long and was stopped (a script may take at most {MAX_OPERATIONS} operations)"
                )
            }
            EvalAltResult::ErrorStackOverflow(..) => {
                format!(
                    "it called itself too deeply and was stopped (at most {MAX_CALL_LEVELS} calls deep)"
                )
            }
            EvalAltResult::ErrorDataTooLarge(what, ..) => {
                let what = what.to_lowercase();
                let thing = ["string", "array", "map"]
                    .into_iter()
                    .find(|t| what.contains(t))
                    .unwrap_or("value");
                format!(
                    "it built a {thing} too large and was stopped (strings of at most {MAX_STRING} characters, arrays of {MAX_ARRAY} items, maps of {MAX_MAP})"
                )
            }
            EvalAltResult::ErrorFunctionNotFound(f, ..) => {
                format!("it calls `{f}`, which does not exist")
            }
            other => other.to_string(),
        };
        ScriptError {
            function: name.to_string(),
            place,
            message,
            line,
        }
    }

    /// Calls `name(args...)`.
    pub fn call(&self, name: &str, args: impl rhai::FuncArgs) -> Result<Dynamic, ScriptError> {
        let mut scope = Scope::new();
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
        self.engine
            .call_fn_with_options::<Dynamic>(options, &mut scope, &self.ast, name, args)
            .map_err(|e| self.error(name, &e))
    }

    fn bad_return(&self, name: &str, wanted: &str, got: &Dynamic) -> ScriptError {
        let (place, line) = self.place(name, None);
        ScriptError {
            function: name.to_string(),
            place,
            message: format!(
                "it must return {wanted}, but it returned {} `{got}`",
                got.type_name()
            ),
            line,
        }
    }

    /// A card effect: the new total (a number), what happens (a map), or nothing (`()`).
    pub fn effect(&self, name: &str, game: Game) -> Result<ScriptOut, ScriptError> {
        let value = self.call(name, (game,))?;
        self.to_out(name, &value)
    }

    /// A test: `true` or `false`.
    pub fn test(&self, name: &str, game: Game) -> Result<bool, ScriptError> {
        let value = self.call(name, (game,))?;
        value
            .as_bool()
            .map_err(|_| self.bad_return(name, "true or false", &value))
    }

    fn to_out(&self, name: &str, v: &Dynamic) -> Result<ScriptOut, ScriptError> {
        const WANTED: &str =
            "a number (the new total), a map (like `#{ total: 10, skip: true }`) or nothing";
        if v.is_unit() {
            return Ok(ScriptOut::default());
        }
        if let Ok(n) = v.as_int() {
            return Ok(ScriptOut {
                total: Some(clamp(n)),
                ..ScriptOut::default()
            });
        }
        let Some(map) = v.read_lock::<Map>() else {
            return Err(self.bad_return(name, WANTED, v));
        };
        let mut out = ScriptOut::default();
        let bad = |what: &str| {
            let (place, line) = self.place(name, None);
            ScriptError {
                function: name.to_string(),
                place,
                message: what.to_string(),
                line,
            }
        };
        for (key, value) in map.iter() {
            let flag = || {
                value
                    .as_bool()
                    .map_err(|_| bad(&format!("`{key}` must be true or false")))
            };
            match key.as_str() {
                "total" => {
                    out.total = Some(clamp(
                        value
                            .as_int()
                            .map_err(|_| bad("`total` must be a number"))?,
                    ))
                }
                "skip" if flag()? => out.turn |= ir::SKIP,
                "reverse" if flag()? => out.turn ^= ir::REVERSE,
                "again" if flag()? => out.turn |= ir::AGAIN,
                "end_round" if flag()? => out.outcomes.push(Outcome {
                    who: Who::Player,
                    kind: OutcomeKind::EndRound,
                }),
                "win" if flag()? => out.outcomes.push(Outcome {
                    who: Who::Player,
                    kind: OutcomeKind::WinRound,
                }),
                "lose" if flag()? => out.outcomes.push(Outcome {
                    who: Who::Player,
                    kind: OutcomeKind::LoseRound,
                }),
                "skip" | "reverse" | "again" | "end_round" | "win" | "lose" => {}
                "pay" => {
                    let list: Vec<Dynamic> = match value.clone().try_cast::<Array>() {
                        Some(a) => a,
                        None => vec![value.clone()],
                    };
                    for item in list {
                        let Some(m) = item.try_cast::<Map>() else {
                            return Err(bad(
                                "`pay` must be a map like `#{ who: \"each other\", amount: 1 }`, or a list of them",
                            ));
                        };
                        let who = m.get("who").map_or("player".to_string(), |w| w.to_string());
                        let who = who_of(&who).ok_or_else(|| {
                            bad(&format!("`who: \"{who}\"`: write \"player\", \"each other\", \"every\" or \"next\""))
                        })?;
                        let amount = m
                            .get("amount")
                            .and_then(|a| a.as_int().ok())
                            .unwrap_or(1)
                            .clamp(0, 1_000) as i32;
                        let to = match m.get("to").map(|t| t.to_string()).as_deref() {
                            None | Some("bank") => Target::Bank,
                            Some("pot") => Target::Pot,
                            Some(t) => Target::Seat(who_of(t).ok_or_else(|| {
                                bad(&format!(
                                    "`to: \"{t}\"`: write \"bank\", \"pot\", \"player\" or \"next\""
                                ))
                            })?),
                        };
                        out.outcomes.push(Outcome {
                            who,
                            kind: OutcomeKind::Pay { amount, to },
                        });
                    }
                }
                other => {
                    return Err(bad(&format!(
                        "it returned a map with `{other}`, which means nothing here: use total, skip, reverse, again, pay, end_round, win or lose"
                    )));
                }
            }
        }
        Ok(out)
    }

    /// Tries `name` on every total of `lo..=hi` with the card `rank`: its table, when the
    /// function reads only the total and the card, or `None` when it reads more and must run
    /// live. Errors are found here, at check time.
    pub fn tabulate_effect(
        &self,
        name: &str,
        rank: u8,
        lo: i32,
        hi: i32,
    ) -> Result<Option<Vec<ScriptOut>>, (i32, ScriptError)> {
        let mut all = 0;
        let mut table = Vec::with_capacity((hi - lo + 1).max(0) as usize);
        for t in lo..=hi {
            let (out, read) = reading(|| self.effect(name, Game::probe(rank, t, t)));
            all |= read;
            table.push(out.map_err(|e| (t, e))?);
        }
        Ok((all & !read::PURE == 0).then_some(table))
    }

    /// As [`Host::tabulate_effect`] for a test.
    pub fn tabulate_test(
        &self,
        name: &str,
        rank: u8,
        lo: i32,
        hi: i32,
    ) -> Result<Option<Vec<bool>>, (i32, ScriptError)> {
        let mut all = 0;
        let mut table = Vec::with_capacity((hi - lo + 1).max(0) as usize);
        for t in lo..=hi {
            let (out, read) = reading(|| self.test(name, Game::probe(rank, t, t)));
            all |= read;
            table.push(out.map_err(|e| (t, e))?);
        }
        Ok((all & !read::PURE == 0).then_some(table))
    }

    /// Tries a bar test on a few moves; whether it reads more than the totals and the card.
    pub fn probe_bar(&self, name: &str, lo: i32, hi: i32) -> Result<bool, (i32, ScriptError)> {
        let mut all = 0;
        let step = ((hi - lo) / 16).max(1);
        let mut t = lo;
        while t <= hi {
            let (out, read) = reading(|| self.test(name, Game::probe(0, t, (t + 7).min(hi))));
            all |= read;
            out.map_err(|e| (t, e))?;
            t += step;
        }
        Ok(all & !read::PURE != 0)
    }
}

fn clamp(n: i64) -> i32 {
    n.clamp(-1_000_000, 1_000_000) as i32
}

fn who_of(word: &str) -> Option<Who> {
    Some(match word {
        "player" | "the player" => Who::Player,
        "each other" | "each other player" | "others" => Who::EachOther,
        "every" | "every player" | "all" => Who::Every,
        "next" | "the next player" => Who::Next,
        _ => return None,
    })
}

/// What a script effect does, as the engine applies it.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct ScriptOut {
    /// The new total, or `None` to leave it.
    pub total: Option<i32>,
    /// [`ir::SKIP`], [`ir::REVERSE`], [`ir::AGAIN`] bits.
    pub turn: u8,
    pub outcomes: Vec<Outcome>,
}

/// A bot written in rhai: `fn choose(game, moves)` gets the legal moves as maps
/// `#{ name: "AS:11", total: 56 }` (the total each makes) and returns the index of its move,
/// or its name.
#[derive(Debug)]
pub struct ScriptBot {
    pub host: Host,
    pub file: String,
}

impl ScriptBot {
    /// Compiles a bot script; it must define `choose(game, moves)`.
    pub fn load(path: &str) -> Result<ScriptBot, String> {
        let code = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the bot script `{path}`: {e}"))?;
        let engine = sandbox();
        let ast = compile(&engine, &code)
            .map_err(|e| format!("{path}:{}:{}: {}", e.line, e.column, e.message))?;
        let host = Host::new(vec![(ast, path.to_string(), 1, code.clone())]);
        if host.arity("choose") != Some(2) {
            return Err(format!(
                "{path}: a bot script defines `fn choose(game, moves)`, returning the index of its move"
            ));
        }
        Ok(ScriptBot {
            host,
            file: path.to_string(),
        })
    }

    /// The bot's choice among the legal moves: their names and the totals they make.
    pub fn choose(
        &self,
        game: Game,
        names: &[String],
        totals: &[i32],
    ) -> Result<usize, ScriptError> {
        let moves: Array = names
            .iter()
            .zip(totals)
            .map(|(n, t)| {
                let mut m = Map::new();
                m.insert("name".into(), Dynamic::from(n.clone()));
                m.insert("total".into(), Dynamic::from(i64::from(*t)));
                Dynamic::from_map(m)
            })
            .collect();
        let v = self.host.call("choose", (game, moves))?;
        if let Ok(i) = v.as_int()
            && let Ok(i) = usize::try_from(i)
            && i < names.len()
        {
            return Ok(i);
        }
        if let Some(s) = v.clone().try_cast::<ImmutableString>()
            && let Some(i) = names
                .iter()
                .position(|n| n.eq_ignore_ascii_case(s.as_str()))
        {
            return Ok(i);
        }
        Err(self.host.bad_return(
            "choose",
            &format!(
                "the index of a move (0 to {}) or its name",
                names.len().saturating_sub(1)
            ),
            &v,
        ))
    }
}
