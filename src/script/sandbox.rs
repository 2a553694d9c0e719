//! The sandboxed rhai engine: the core language only, limits on everything that can grow
//! (map keys too, which rhai does not count), work counted by the meter (every value a call
//! reads, in proportion to its size, and sorting), no printing, no `eval`, no clock and no
//! waiting, no function pointers that carry data, and the game as a read-only value whose
//! getters note what they read.

use std::cmp::Ordering as Order;
use std::sync::Arc;
use std::sync::atomic::{AtomicU16, Ordering};

use rhai::{AST, Array, Dynamic, Engine, EvalAltResult, ImmutableString, Position};

use super::meter::{Meter, Stop, WEIGH_EVERY};
use crate::base::cards::{RANK_NAMES, card_name, face_value};
use crate::base::limits::{self, SCRIPT_ITEMS_AN_OPERATION};
use crate::ir::View;

/// The most operations one call may take (about a few milliseconds).
pub const MAX_OPERATIONS: u64 = limits::SCRIPT_OPERATIONS;
/// The deepest a call may nest.
pub const MAX_CALL_LEVELS: usize = limits::SCRIPT_CALL_LEVELS;
/// The longest string, array and map a script may build.
pub const MAX_STRING: usize = limits::SCRIPT_STRING;
pub const MAX_ARRAY: usize = limits::SCRIPT_ARRAY;
pub const MAX_MAP: usize = limits::SCRIPT_MAP;

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
    pub const PILE: u16 = 2048;
    pub const STOCK: u16 = 4096;
    pub const COUNTS: u16 = 8192;
    /// Reading only these, a script can be tabulated by total.
    pub const PURE: u16 = TOTAL | PREVIOUS | CARD;
}

/// A sandboxed engine whose game getters mark the fields they read in `reads`, and whose
/// calls stop when `meter` says their work is done.
pub fn sandbox(reads: Arc<AtomicU16>, meter: &Arc<Meter>, counts: Arc<Vec<String>>) -> Engine {
    // A raw engine with the core language only (arithmetic, logic, strings, arrays, maps),
    // package by package: not the language core's `sleep`, nor the time package's
    // `timestamp`, nor blobs, nor function-pointer helpers.
    let mut engine = Engine::new_raw();
    {
        use rhai::packages::{
            ArithmeticPackage, BasicArrayPackage, BasicIteratorPackage, BasicMapPackage,
            BasicMathPackage, BasicStringPackage, BitFieldPackage, LogicPackage, MoreStringPackage,
            Package,
        };
        for module in [
            ArithmeticPackage::new().as_shared_module(),
            LogicPackage::new().as_shared_module(),
            BasicStringPackage::new().as_shared_module(),
            MoreStringPackage::new().as_shared_module(),
            BasicIteratorPackage::new().as_shared_module(),
            BasicMathPackage::new().as_shared_module(),
            BasicArrayPackage::new().as_shared_module(),
            BasicMapPackage::new().as_shared_module(),
            BitFieldPackage::new().as_shared_module(),
        ] {
            engine.register_global_module(module);
        }
    }
    engine.set_optimization_level(rhai::OptimizationLevel::Full);
    engine
        .set_max_operations(MAX_OPERATIONS)
        .set_max_call_levels(MAX_CALL_LEVELS)
        .set_max_expr_depths(64, 32)
        .set_max_string_size(MAX_STRING)
        .set_max_array_size(MAX_ARRAY)
        .set_max_map_size(MAX_MAP)
        .set_max_variables(limits::SCRIPT_VARIABLES)
        .set_max_functions(limits::SCRIPT_FUNCTIONS)
        .set_max_modules(0)
        .on_print(|_| {})
        .on_debug(|_, _, _| {});
    let weigh = meter.clone();
    engine.on_progress(move |ops| {
        if ops % WEIGH_EVERY != 0 {
            return None;
        }
        weigh.weigh(ops).map(|stop| Dynamic::from(stop.code()))
    });
    let reading = meter.clone();
    #[allow(deprecated)] // rhai marks the callback volatile, not deprecated
    engine.on_var(move |name, index, ctx| {
        let scope = ctx.scope();
        let value = match index {
            // Offsets from the top of the scope: the variables a call reads most are its
            // latest.
            1..=8 => scope.iter_raw().nth(index - 1).map(|(_, _, v)| v),
            _ => scope.get(name),
        };
        match value {
            Some(v) => read_value(&reading, v).map(|()| None),
            None => Ok(None),
        }
    });
    // Function pointers could carry data past the size limits (a curried argument, a
    // closure's captures: closures are off in Cargo.toml), and `eval` runs text as code.
    // `this` reaches a value without reading a variable, so without being weighed.
    for symbol in ["eval", "Fn", "call", "curry", "import", "export", "this"] {
        engine.disable_symbol(symbol);
    }
    no_clock(&mut engine);
    counted_sorts(&mut engine, meter);
    register_game(&mut engine, reads, counts);
    engine
}

/// The items a value holds (array items and map entries, nested ones included) and the
/// bytes of its strings and map keys. rhai bounds the first and the strings, not the keys.
fn measure(v: &Dynamic) -> (u64, usize) {
    // Plain values (most items) are told by their tag alone, without borrowing them.
    let grows = |x: &Dynamic| x.is_array() || x.is_map() || x.is_string();
    if v.is_array()
        && let Ok(a) = v.as_array_ref()
    {
        a.iter()
            .filter(|x| grows(x))
            .fold((a.len() as u64, 0), |(items, text), x| {
                let (i, t) = measure(x);
                (items + i, text + t)
            })
    } else if v.is_map()
        && let Ok(m) = v.as_map_ref()
    {
        m.iter().fold((m.len() as u64, 0), |(items, text), (k, x)| {
            let (i, t) = if grows(x) { measure(x) } else { (0, 0) };
            (items + i, text + k.len() + t)
        })
    } else if v.is_string()
        && let Ok(s) = v.as_immutable_string_ref()
    {
        (0, s.len())
    } else {
        (0, 0)
    }
}

/// A variable about to be read: its keys within the string limit, and its size charged to
/// the call (copying, comparing or sorting it is work in proportion).
fn read_value(meter: &Meter, v: &Dynamic) -> Result<(), Box<EvalAltResult>> {
    if !(v.is_array() || v.is_map() || v.is_string()) {
        return Ok(());
    }
    let (items, text) = measure(v);
    if text > MAX_STRING {
        return Err(EvalAltResult::ErrorDataTooLarge(
            "Map keys and strings".into(),
            Position::NONE,
        )
        .into());
    }
    let units = (items + text as u64) / SCRIPT_ITEMS_AN_OPERATION;
    match (units > 0).then(|| meter.charge(units)).flatten() {
        Some(stop) => Err(terminated(stop)),
        None => Ok(()),
    }
}

fn terminated(stop: Stop) -> Box<EvalAltResult> {
    EvalAltResult::ErrorTerminated(Dynamic::from(stop.code()), Position::NONE).into()
}

/// `sort` and `sort_desc` without a comparer, as rhai's, but charged for their comparisons
/// (rhai counts one operation for the whole sort). With a comparer, each comparison is a
/// call, and counted.
fn counted_sorts(engine: &mut Engine, meter: &Arc<Meter>) {
    for (name, descending) in [("sort", false), ("sort_desc", true)] {
        let meter = meter.clone();
        engine.register_fn(
            name,
            move |a: &mut Array| -> Result<(), Box<EvalAltResult>> {
                let n = a.len() as u64;
                let comparisons = n * u64::from(n.max(1).ilog2() + 1);
                if let Some(stop) = meter.charge(comparisons / SCRIPT_ITEMS_AN_OPERATION) {
                    return Err(terminated(stop));
                }
                sort_plain(a, descending)
            },
        );
    }
}

/// rhai's sort of an array of one plain type.
fn sort_plain(a: &mut Array, descending: bool) -> Result<(), Box<EvalAltResult>> {
    let Some(first) = a.first().filter(|_| a.len() > 1) else {
        return Ok(());
    };
    let kind = first.type_id();
    if a.iter().any(|x| x.type_id() != kind) {
        return Err(EvalAltResult::ErrorFunctionNotFound(
            "elements of different types cannot be sorted".into(),
            Position::NONE,
        )
        .into());
    }
    let order: fn(&Dynamic, &Dynamic) -> Order = if first.is_int() {
        |x, y| x.as_int().unwrap_or(0).cmp(&y.as_int().unwrap_or(0))
    } else if first.is_char() {
        |x, y| x.as_char().unwrap_or(' ').cmp(&y.as_char().unwrap_or(' '))
    } else if first.is_float() {
        |x, y| {
            let (x, y) = (x.as_float().unwrap_or(0.0), y.as_float().unwrap_or(0.0));
            x.partial_cmp(&y).unwrap_or(Order::Equal)
        }
    } else if first.is_string() {
        |x, y| match (x.as_immutable_string_ref(), y.as_immutable_string_ref()) {
            (Ok(x), Ok(y)) => x.as_str().cmp(y.as_str()),
            _ => Order::Equal,
        }
    } else if first.is_bool() {
        |x, y| {
            x.as_bool()
                .unwrap_or(false)
                .cmp(&y.as_bool().unwrap_or(false))
        }
    } else if first.is_unit() {
        return Ok(());
    } else {
        return Err(EvalAltResult::ErrorFunctionNotFound(
            format!("elements of {} cannot be sorted", first.type_name()),
            Position::NONE,
        )
        .into());
    };
    if descending {
        a.sort_by(|x, y| order(y, x));
    } else {
        a.sort_by(order);
    }
    Ok(())
}

/// `sleep` and `timestamp` say why they are not there: a game must replay the same.
fn no_clock(engine: &mut Engine) {
    fn refuse() -> Box<EvalAltResult> {
        EvalAltResult::ErrorRuntime(
            "scripts may not wait or read the clock: a game must replay the same from its seed"
                .into(),
            Position::NONE,
        )
        .into()
    }
    engine
        .register_fn("sleep", |_: i64| -> Result<(), Box<EvalAltResult>> {
            Err(refuse())
        })
        .register_fn("sleep", |_: f64| -> Result<(), Box<EvalAltResult>> {
            Err(refuse())
        })
        .register_fn("timestamp", || -> Result<(), Box<EvalAltResult>> {
            Err(refuse())
        });
}

/// The game type and its getters (`game.total`, ...).
fn register_game(engine: &mut Engine, reads: Arc<AtomicU16>, names: Arc<Vec<String>>) {
    let mark = move |bit: u16| {
        let reads = reads.clone();
        move || {
            reads.fetch_or(bit, Ordering::Relaxed);
        }
    };
    let total = mark(read::TOTAL);
    let card = mark(read::CARD);
    let face = mark(read::CARD);
    let previous = mark(read::PREVIOUS);
    let player = mark(read::PLAYER);
    let chips = mark(read::CHIPS);
    let hand_sizes = mark(read::HAND_SIZES);
    let direction = mark(read::DIRECTION);
    let players_left = mark(read::PLAYERS_LEFT);
    let round = mark(read::ROUND);
    let seats = mark(read::SEATS);
    let hand = mark(read::HAND);
    let pile = mark(read::PILE);
    let stock = mark(read::STOCK);
    let count = mark(read::COUNTS);
    engine
        .register_get("pile", move |g: &mut View| {
            pile();
            g.pile[..usize::from(g.pile_len)]
                .iter()
                .map(|c| Dynamic::from(card_name(*c)))
                .collect::<Array>()
        })
        .register_get("stock", move |g: &mut View| {
            stock();
            i64::from(g.stock)
        })
        .register_fn(
            "count",
            move |g: &mut View, name: ImmutableString| -> Result<i64, Box<EvalAltResult>> {
                count();
                match names
                    .iter()
                    .position(|n| n.eq_ignore_ascii_case(name.as_str()))
                {
                    Some(i) => Ok(i64::from(g.counts[i])),
                    None if names.is_empty() => {
                        Err(format!("no count `{name}`: the ruleset keeps none").into())
                    }
                    None => Err(format!(
                        "no count `{name}`: the ruleset keeps {}",
                        names.join(", ")
                    )
                    .into()),
                }
            },
        );
    engine
        .register_type_with_name::<View>("Game")
        .register_get("total", move |g: &mut View| {
            total();
            i64::from(g.total)
        })
        .register_get("card", move |g: &mut View| {
            card();
            ImmutableString::from(RANK_NAMES[usize::from(g.rank)])
        })
        .register_get("face", move |g: &mut View| {
            face();
            i64::from(face_value(g.rank))
        })
        .register_get("previous", move |g: &mut View| {
            previous();
            i64::from(g.previous)
        })
        .register_get("player", move |g: &mut View| {
            player();
            i64::from(g.player)
        })
        .register_get("chips", move |g: &mut View| {
            chips();
            g.chips[..usize::from(g.seats)]
                .iter()
                .map(|c| Dynamic::from(i64::from(*c)))
                .collect::<Array>()
        })
        .register_get("hand_sizes", move |g: &mut View| {
            hand_sizes();
            g.hand_sizes[..usize::from(g.seats)]
                .iter()
                .map(|c| Dynamic::from(i64::from(*c)))
                .collect::<Array>()
        })
        .register_get("direction", move |g: &mut View| {
            direction();
            ImmutableString::from(if g.clockwise { "cw" } else { "ccw" })
        })
        .register_get("players_left", move |g: &mut View| {
            players_left();
            i64::from(g.players_left)
        })
        .register_get("round", move |g: &mut View| {
            round();
            i64::from(g.round)
        })
        .register_get("seats", move |g: &mut View| {
            seats();
            i64::from(g.seats)
        })
        .register_get("hand", move |g: &mut View| {
            hand();
            g.hand[..usize::from(g.hand_len)]
                .iter()
                .map(|c| Dynamic::from(card_name(*c)))
                .collect::<Array>()
        });
}

/// Why a piece of code does not compile: the message and its line and column in that code.
#[derive(Debug, Clone)]
pub struct CompileError {
    pub message: String,
    pub line: usize,
    pub column: usize,
}

/// Compiles one piece of code with the sandbox's syntax.
pub fn compile(code: &str) -> Result<AST, CompileError> {
    sandbox(Arc::default(), &Arc::default(), Arc::default())
        .compile(code)
        .map_err(|e| CompileError {
            message: e.err_type().to_string(),
            line: e.position().line().unwrap_or(1),
            column: e.position().position().unwrap_or(1),
        })
}
