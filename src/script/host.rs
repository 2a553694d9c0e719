//! The script host: a ruleset's compiled rhai functions and the sandboxed engine that runs
//! them, as the [`ScriptHost`] the engine asks. Live answers are remembered by what the
//! script read, in a memo bounded in bytes.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::{Arc, Mutex};

use rhai::{AST, CallFnOptions, Dynamic, Engine, EvalAltResult, Scope};

use super::meter::{Budget, Meter, Stop};
use super::sandbox::{MAX_ARRAY, MAX_CALL_LEVELS, MAX_MAP, MAX_STRING, read};
use crate::base::limits::{self, SCRIPT_STACK_BYTES, SCRIPT_VARIABLES};
use crate::base::text::clip;
use crate::ir::{Outcome, ScriptError, ScriptHost, ScriptOut, View};

/// A piece of compiled code and where it was written.
#[derive(Debug, Clone)]
pub struct Piece {
    pub ast: AST,
    /// The ruleset or `.rhai` file.
    pub file: String,
    /// The line of that file the code starts at.
    pub first_line: usize,
    pub text: String,
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
    /// Its doc comment: the `///` lines right above it, joined (what the rules sheet says).
    pub doc: String,
}

/// The most memory the memo of live answers may hold, in bytes.
pub const MEMO_BYTES: usize = limits::MEMO_BYTES;

/// What one remembered answer costs: its key and value in the table, the table's own bytes
/// for an entry (its control byte and the room it keeps free), and the outcomes it holds.
fn answer_bytes(out: &ScriptOut) -> usize {
    let entry = std::mem::size_of::<(usize, u64)>() + std::mem::size_of::<Answer>();
    entry * 8 / 7 + 1 + out.outcomes.capacity() * std::mem::size_of::<Outcome>()
}

/// A live answer and the work the call that gave it did.
#[derive(Debug, Clone)]
struct Answer {
    out: ScriptOut,
    cost: u64,
}

/// Live answers, by function and fingerprint of the fields read.
#[derive(Debug, Default)]
struct Memo {
    answers: HashMap<(usize, u64), Answer>,
    bytes: usize,
}

/// The compiled scripts of a ruleset and the sandboxed engine that runs them.
pub struct Host {
    engine: Engine,
    ast: AST,
    pub functions: Vec<FnSource>,
    /// Every field of the game any call has read (the getters set the bits).
    reads: Arc<AtomicU16>,
    memo: Mutex<Memo>,
    digest: u64,
    meter: Arc<Meter>,
    /// The counts the ruleset keeps, by name in order: what `game.count(NAME)` reads and a
    /// returned `count` changes.
    pub(super) counts: Arc<Vec<String>>,
    /// Whether the code names a card move (`draw`, `swap`, `take`, `give`), so a returned map
    /// may move cards: a ruleset whose code names none keeps its hands as its lines say.
    pub(super) moves_cards: bool,
}

impl std::fmt::Debug for Host {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Host")
            .field("functions", &self.functions)
            .finish_non_exhaustive()
    }
}

/// The `///` lines right above a function, joined into one sentence.
fn doc_above(lines: &[&str]) -> String {
    let mut doc: Vec<&str> = lines
        .iter()
        .rev()
        .map(|l| l.trim())
        .take_while(|l| l.starts_with("///"))
        .map(|l| l.trim_start_matches('/').trim())
        .collect();
    doc.reverse();
    doc.join(" ")
}

/// FNV-1a, for digests and fingerprints.
fn fnv(h: &mut u64, v: u64) {
    *h ^= v;
    *h = h.wrapping_mul(0x0100_0000_01b3).rotate_left(29);
}

/// A fingerprint of the fields of `game` in `mask`: two games alike in them are alike to a
/// script that reads only them.
fn fingerprint(game: &View, mask: u16) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |v: i64| fnv(&mut h, v as u64);
    mix(i64::from(mask));
    if mask & read::TOTAL != 0 {
        mix(i64::from(game.total));
    }
    if mask & read::PREVIOUS != 0 {
        mix(i64::from(game.previous));
    }
    if mask & read::CARD != 0 {
        mix(i64::from(game.rank));
    }
    if mask & read::PLAYER != 0 {
        mix(i64::from(game.player));
    }
    if mask & (read::CHIPS | read::HAND_SIZES | read::SEATS) != 0 {
        mix(i64::from(game.seats));
        for x in 0..usize::from(game.seats) {
            mix((i64::from(game.chips[x]) << 8) | i64::from(game.hand_sizes[x]));
        }
    }
    if mask & read::DIRECTION != 0 {
        mix(i64::from(game.clockwise));
    }
    if mask & read::PLAYERS_LEFT != 0 {
        mix(i64::from(game.players_left));
    }
    if mask & read::ROUND != 0 {
        mix(i64::from(game.round));
    }
    if mask & read::PILE != 0 {
        for c in &game.pile[..usize::from(game.pile_len)] {
            mix(i64::from(*c));
        }
        mix(i64::from(game.pile_len));
    }
    if mask & read::STOCK != 0 {
        mix(i64::from(game.stock));
    }
    if mask & read::COUNTS != 0 {
        for c in game.counts {
            mix(i64::from(c));
        }
    }
    if mask & read::HAND != 0 {
        for c in &game.hand[..usize::from(game.hand_len)] {
            mix(i64::from(*c));
        }
    }
    h
}

impl Host {
    /// A host for compiled pieces of code, each with where it came from.
    pub fn new(pieces: Vec<Piece>) -> Host {
        Host::with_counts(pieces, Vec::new())
    }

    /// [`Host::new`], the ruleset keeping `counts` (by name, in order): `count(game, NAME)`
    /// reads them.
    pub fn with_counts(pieces: Vec<Piece>, counts: Vec<String>) -> Host {
        let reads = Arc::new(AtomicU16::new(0));
        let meter = Arc::new(Meter::default());
        let counts = Arc::new(counts);
        let engine = super::sandbox::sandbox(reads.clone(), &meter, counts.clone());
        let mut moves_cards = false;
        let mut ast = AST::empty();
        let mut functions: Vec<FnSource> = Vec::new();
        // Where each function is in `functions`: a later definition replaces an earlier one
        // in one look-up.
        let mut index: HashMap<String, usize> = HashMap::new();
        let mut digest: u64 = 0xcbf2_9ce4_8422_2325;
        for piece in pieces {
            for b in piece.text.bytes() {
                fnv(&mut digest, u64::from(b));
            }
            moves_cards |= super::out::names_a_card_move(&piece.text);
            let lines = def_lines(&piece.text);
            let text_lines: Vec<&str> = piece.text.lines().collect();
            for f in piece.ast.iter_functions() {
                let at = lines.get(f.name).copied();
                let def = at.map_or(piece.first_line, |i| piece.first_line + i);
                let source = FnSource {
                    name: f.name.to_string(),
                    file: piece.file.clone(),
                    first_line: piece.first_line,
                    def_line: def,
                    doc: at.map(|i| doc_above(&text_lines[..i])).unwrap_or_default(),
                };
                match index.get(f.name) {
                    Some(&i) => functions[i] = source,
                    None => {
                        index.insert(f.name.to_string(), functions.len());
                        functions.push(source);
                    }
                }
            }
            ast = ast.merge(&piece.ast);
        }
        Host {
            engine,
            ast,
            functions,
            reads,
            memo: Mutex::default(),
            digest,
            meter,
            counts,
            moves_cards,
        }
    }

    /// A function's doc comment (empty when it has none).
    pub fn doc(&self, name: &str) -> &str {
        self.functions
            .iter()
            .find(|f| f.name == name)
            .map_or("", |f| f.doc.as_str())
    }

    /// The bytes the memo of live answers holds now (at most [`MEMO_BYTES`]).
    pub fn memo_bytes(&self) -> usize {
        self.memo.lock().map_or(0, |m| m.bytes)
    }

    /// Gives the calling thread an allowance of script work (a game's, a check's), or ends
    /// it.
    pub fn allow(&self, budget: Option<Budget>) {
        self.meter.allow(budget);
    }

    /// Whether the guard of last resort stopped a call of this host: every call fails since,
    /// and the command must end with an error rather than another result.
    pub fn guard_met(&self) -> bool {
        self.meter.tripped()
    }

    /// The number of parameters of a function, if it is defined.
    pub fn arity(&self, name: &str) -> Option<usize> {
        self.ast
            .iter_functions()
            .filter(|f| f.name == name)
            .map(|f| f.params.len())
            .next()
    }

    /// Runs `f` and says which fields of the game it read. Only for a host nobody else is
    /// using (the checker's, while it tabulates).
    pub fn reading<T>(&self, f: impl FnOnce() -> T) -> (T, u16) {
        self.reads.store(0, Ordering::Relaxed);
        let out = f();
        (out, self.reads.load(Ordering::Relaxed))
    }

    pub(super) fn place(&self, name: &str, line: Option<usize>) -> (String, Option<usize>) {
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
            EvalAltResult::ErrorTooManyOperations(..) => Stop::Operations.words(),
            EvalAltResult::ErrorStackOverflow(..) => {
                format!(
                    "it called itself too deeply and was stopped (at most {MAX_CALL_LEVELS} calls deep)"
                )
            }
            EvalAltResult::ErrorDataTooLarge(what, ..) => {
                let what = what.to_lowercase();
                let thing = if what.contains("keys") {
                    "a value whose map keys and strings are"
                } else {
                    ["a string", "an array", "a map"]
                        .into_iter()
                        .find(|t| what.contains(&t[t.len() - 3..]))
                        .unwrap_or("a value")
                };
                format!(
                    "it built {thing} too large and was stopped (strings of at most {MAX_STRING} bytes, a value's strings and map keys together; arrays of {MAX_ARRAY} items, maps of {MAX_MAP}, nested ones counted)"
                )
            }
            EvalAltResult::ErrorTerminated(code, ..) => code
                .as_int()
                .ok()
                .and_then(Stop::from_code)
                .map_or_else(|| "it was stopped".to_string(), Stop::words),
            EvalAltResult::ErrorRuntime(value, ..) => value.to_string(),
            EvalAltResult::ErrorTooManyVariables(..) => {
                format!("it used more than {SCRIPT_VARIABLES} variables at once and was stopped")
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

    /// Calls `name(args...)` and reads what it returns with `then`, on a stack deep enough
    /// for the deepest value a script may build (the size limits bound it), under the meter.
    /// The value is read and dropped there too.
    pub fn call<T>(
        &self,
        name: &str,
        args: impl rhai::FuncArgs,
        then: impl FnOnce(&Host, &Dynamic) -> Result<T, ScriptError>,
    ) -> Result<T, ScriptError> {
        self.call_costed(name, args, then).0
    }

    /// [`Host::call`], and the work the call did.
    fn call_costed<T>(
        &self,
        name: &str,
        args: impl rhai::FuncArgs,
        then: impl FnOnce(&Host, &Dynamic) -> Result<T, ScriptError>,
    ) -> (Result<T, ScriptError>, u64) {
        if let Err(stop) = self.meter.start() {
            return (Err(self.stopped(name, stop)), 0);
        }
        let result = deep_stack(|| {
            let mut scope = Scope::new();
            let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
            self.engine
                .call_fn_with_options::<Dynamic>(options, &mut scope, &self.ast, name, args)
                .map_err(|e| self.error(name, &e))
                .and_then(|value| then(self, &value))
        });
        let cost = self.meter.end();
        (result, cost)
    }

    /// A call the meter did not let start.
    fn stopped(&self, name: &str, stop: Stop) -> ScriptError {
        let (place, line) = self.place(name, None);
        ScriptError {
            function: name.to_string(),
            place,
            message: stop.words(),
            line,
        }
    }

    pub(super) fn bad_return(&self, name: &str, wanted: &str, got: &Dynamic) -> ScriptError {
        let (place, line) = self.place(name, None);
        ScriptError {
            function: name.to_string(),
            place,
            message: format!(
                "it must return {wanted}, but it returned {} `{}`",
                got.type_name(),
                clip(&got.to_string(), 60)
            ),
            line,
        }
    }

    /// A card effect: the new total (a number), what happens (a map), or nothing (`()`).
    pub fn run_effect(&self, name: &str, game: View) -> Result<ScriptOut, ScriptError> {
        self.call(name, (game,), |host, value| host.to_out(name, value))
    }

    /// A test: `true` or `false`.
    pub fn run_test(&self, name: &str, game: View) -> Result<bool, ScriptError> {
        self.call(name, (game,), |host, value| {
            value
                .as_bool()
                .map_err(|_| host.bad_return(name, "true or false", value))
        })
    }

    /// Tries `run` on every total of `lo..=hi` with the card `rank`: its table, when the
    /// function reads only the total and the card, or `None` when it reads more and must run
    /// live. Errors are found here, at check time.
    fn tabulate<T>(
        &self,
        lo: i32,
        hi: i32,
        run: impl Fn(View) -> Result<T, ScriptError>,
        rank: u8,
    ) -> Result<Option<Vec<T>>, (i32, ScriptError)> {
        let mut all = 0;
        let mut table = Vec::with_capacity(usize::try_from(hi - lo + 1).unwrap_or(0));
        for t in lo..=hi {
            let (out, read) = self.reading(|| run(View::probe(rank, t, t)));
            all |= read;
            table.push(out.map_err(|e| (t, e))?);
        }
        Ok((all & !read::PURE == 0).then_some(table))
    }

    /// [`Host::tabulate`] for a card effect.
    pub fn tabulate_effect(
        &self,
        name: &str,
        rank: u8,
        lo: i32,
        hi: i32,
    ) -> Result<Option<Vec<ScriptOut>>, (i32, ScriptError)> {
        self.tabulate(lo, hi, |g| self.run_effect(name, g), rank)
    }

    /// [`Host::tabulate`] for a test.
    pub fn tabulate_test(
        &self,
        name: &str,
        rank: u8,
        lo: i32,
        hi: i32,
    ) -> Result<Option<Vec<bool>>, (i32, ScriptError)> {
        self.tabulate(lo, hi, |g| self.run_test(name, g), rank)
    }

    /// Tries a bar test on a few moves; whether it reads more than the totals and the card.
    pub fn probe_bar(&self, name: &str, lo: i32, hi: i32) -> Result<bool, (i32, ScriptError)> {
        let mut all = 0;
        let step = ((hi - lo) / 16).max(1);
        let mut t = lo;
        while t <= hi {
            let (out, read) =
                self.reading(|| self.run_test(name, View::probe(0, t, (t + 7).min(hi))));
            all |= read;
            out.map_err(|e| (t, e))?;
            t += step;
        }
        Ok(all & !read::PURE != 0)
    }

    /// A live answer: remembered, or asked (and remembered). A script is a function of the
    /// fields it reads, so games alike in every field any call has read get the same answer.
    fn remembered(&self, name: &str, game: &View) -> Result<ScriptOut, ScriptError> {
        let func = self
            .functions
            .iter()
            .position(|f| f.name == name)
            .unwrap_or(usize::MAX);
        let key = |mask| (func, fingerprint(game, mask));
        let before = self.reads.load(Ordering::Relaxed);
        let known = self
            .memo
            .lock()
            .ok()
            .and_then(|memo| memo.answers.get(&key(before)).cloned());
        if let Some(known) = known {
            // It costs what it cost: a game spends the same whatever was remembered (and
            // whichever thread remembered it).
            self.meter
                .spend(known.cost)
                .map_err(|stop| self.stopped(name, stop))?;
            return Ok(known.out);
        }
        let (out, cost) = self.call_costed(name, (*game,), |host, value| host.to_out(name, value));
        let out = out?;
        // Every field this call read is marked by now (with, maybe, fields other calls read
        // meanwhile: a finer key, never a wrong one).
        let after = self.reads.load(Ordering::Relaxed);
        if let Ok(mut memo) = self.memo.lock() {
            let size = answer_bytes(&out);
            if memo.bytes + size > MEMO_BYTES {
                memo.answers.clear();
                memo.bytes = 0;
            }
            memo.bytes += size;
            memo.answers.insert(
                key(after),
                Answer {
                    out: out.clone(),
                    cost,
                },
            );
        }
        Ok(out)
    }
}

impl ScriptHost for Host {
    fn effect(&self, func: &str, game: &View) -> Result<ScriptOut, ScriptError> {
        self.remembered(func, game)
    }

    fn test(&self, func: &str, game: &View) -> Result<bool, ScriptError> {
        self.run_test(func, *game)
    }

    fn digest(&self) -> u64 {
        self.digest
    }

    fn allow_game(&self, on: bool) {
        self.allow(on.then_some(Budget::Game));
    }

    fn share_dry_run(&self, on: bool) {
        self.meter.share(on.then_some(Budget::DryRun));
    }

    fn spent(&self) -> bool {
        self.meter.spent()
    }

    fn may_move_cards(&self) -> bool {
        self.moves_cards
    }
}

/// The line (from 0) of each `fn NAME(` in a piece of code, the first of each name: one
/// pass over the code however many functions it has.
fn def_lines(text: &str) -> HashMap<&str, usize> {
    let mut lines = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let code = line.trim_start();
        let code = code.strip_prefix("private ").unwrap_or(code);
        if let Some(rest) = code.strip_prefix("fn ") {
            let name = rest.trim_start();
            let end = name
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(name.len());
            lines.entry(&name[..end]).or_insert(i);
        }
    }
    lines
}

/// Runs `f` on a stack deep enough for the deepest value a script may build: stacker grows
/// one natively; in wasm32 the module has one stack, sized by the crate that links it
/// (`web/build.rs`), and a call past it traps (the page says so and starts again).
#[cfg(not(target_family = "wasm"))]
fn deep_stack<T>(f: impl FnOnce() -> T) -> T {
    stacker::maybe_grow(SCRIPT_STACK_BYTES / 2, SCRIPT_STACK_BYTES, f)
}

#[cfg(target_family = "wasm")]
fn deep_stack<T>(f: impl FnOnce() -> T) -> T {
    const _NATIVE: usize = SCRIPT_STACK_BYTES;
    f()
}
