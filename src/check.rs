//! The checker: loads a ruleset and its `extends` chain, resolves options, validates every
//! statement and compiles the result to an [`ir::Program`]. It never stops at the first
//! problem: every problem becomes a [`Diag`] with a span and a hint.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use crate::ast::{self, Amount, OptRange, OptValue, SAmount, Span, Spanned, StatementKind};
use crate::diag::{Diag, Source, did_you_mean};
use crate::ir::{
    self, MAX_CHOICES, MAX_DECKS, MAX_HAND, MAX_SEATS, MAX_STEPS, NO_EFFECT, Origin, RANKS,
};
use crate::syntax;

/// Where ruleset files come from: the disk, or the copies built into the binary.
pub trait Loader {
    /// The text of the file at `path`, or why it cannot be read.
    fn read(&self, path: &str) -> Result<Vec<u8>, String>;
}

/// Reads ruleset files from the disk.
#[derive(Debug, Default, Clone, Copy)]
pub struct Disk;

impl Loader for Disk {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
        if meta.is_dir() {
            return Err("it is a folder".into());
        }
        if meta.len() > 64 * syntax::MAX_FILE_BYTES as u64 {
            // Do not even read a huge file into memory: report its size instead.
            return Ok(vec![b'#'; syntax::MAX_FILE_BYTES + 1]);
        }
        std::fs::read(path).map_err(|e| e.to_string())
    }
}

// The rulesets that ship with ninety, built into the binary (see `build.rs`).
include!(concat!(env!("OUT_DIR"), "/shipped.rs"));

/// Reads the shipped rulesets by name (`ninety-nine` or `rulesets/ninety-nine.rules`),
/// falling back to the disk.
#[derive(Debug, Default, Clone, Copy)]
pub struct Shipped;

impl Loader for Shipped {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        if let Ok(bytes) = Disk.read(path) {
            return Ok(bytes);
        }
        let stem = Path::new(path)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or(path);
        SHIPPED
            .iter()
            .find(|(name, _)| *name == stem)
            .map(|(_, text)| text.as_bytes().to_vec())
            .ok_or_else(|| format!("no ruleset file `{path}`, and no shipped ruleset of that name"))
    }
}

/// A parsed file of the `extends` chain.
#[derive(Debug, Clone)]
pub struct Layer {
    pub path: String,
    pub source: Source,
    pub file: ast::File,
}

/// What checking a ruleset gives: the compiled program when there was no error, every
/// diagnostic, and the parsed files (the ruleset's own last) for its scenarios.
#[derive(Debug)]
pub struct Checked {
    pub program: Option<ir::Program>,
    pub diags: Vec<Diag>,
    pub layers: Vec<Layer>,
}

impl Checked {
    pub fn errors(&self) -> usize {
        self.diags.iter().filter(|d| d.is_error()).count()
    }
    pub fn warnings(&self) -> usize {
        self.diags.len() - self.errors()
    }
}

/// The root file could not be read at all (a usage error, not a ruleset problem).
#[derive(Debug, thiserror::Error)]
#[error("cannot read `{path}`: {reason}")]
pub struct Unreadable {
    pub path: String,
    pub reason: String,
}

/// Option values given on the command line: `chips=5`.
pub type Sets = [(String, String)];

/// Loads, checks and compiles the ruleset at `path` with option values `sets`.
pub fn check(loader: &dyn Loader, path: &str, sets: &Sets) -> Result<Checked, Unreadable> {
    let bytes = loader.read(path).map_err(|reason| Unreadable {
        path: path.to_string(),
        reason,
    })?;
    let mut diags = Vec::new();
    let mut layers = Vec::new();
    let mut chain: Vec<String> = Vec::new();
    load_chain(loader, path, &bytes, &mut chain, &mut layers, &mut diags);
    layers.reverse();
    let program = if diags.iter().any(Diag::is_error) {
        // A file that cannot be read fully is not compiled: half a ruleset would report
        // problems (a rank with no value) that are only echoes of the syntax error.
        None
    } else {
        let mut c = Compiler::new(&layers);
        c.set_options(sets);
        let program = c.compile();
        // A parent's warnings are its own business: they show when it is checked itself.
        let own = layers.last().map(|l| l.path.clone()).unwrap_or_default();
        diags.extend(
            c.diags
                .into_iter()
                .filter(|d| d.is_error() || d.source.as_ref().is_none_or(|s| s.name == own)),
        );
        program.filter(|_| !diags.iter().any(Diag::is_error))
    };
    Ok(Checked {
        program,
        diags,
        layers,
    })
}

/// Parses `path` and then its parents; `layers` ends up ruleset first, base last.
fn load_chain(
    loader: &dyn Loader,
    path: &str,
    bytes: &[u8],
    chain: &mut Vec<String>,
    layers: &mut Vec<Layer>,
    diags: &mut Vec<Diag>,
) {
    let path = path.to_string();
    let text = match decode(bytes) {
        Ok(text) => text,
        Err(message) => {
            let source = Source::new(path.clone(), String::new());
            diags.push(
                Diag::error(
                    "not-text",
                    Span::default(),
                    format!("`{}`: {message}", file_name(&path)),
                )
                .label("this file")
                .hint("a ruleset is a plain text file (UTF-8) of lines like `players 2 to 5`")
                .in_source(&source),
            );
            return;
        }
    };
    let (mut file, parse_diags) = syntax::parse(&text);
    let source = Source::new(path.clone(), text);
    diags.extend(parse_diags.into_iter().map(|d| d.in_source(&source)));
    // `script file "x.rhai"`: the code of a file beside the ruleset.
    for st in &file.statements {
        let StatementKind::ScriptFile(name) = &st.kind else {
            continue;
        };
        let script_path = match Path::new(&path).parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir.join(&name.node).display().to_string(),
            _ => name.node.clone(),
        };
        match loader
            .read(&script_path)
            .map(|b| String::from_utf8(b).map_err(|_| "it is not UTF-8 text".to_string()))
        {
            Ok(Ok(code)) => file.scripts.push(ast::ScriptSource {
                text: code,
                span: name.span,
                line: 1,
                path: Some(script_path),
            }),
            Ok(Err(why)) => diags.push(
                Diag::error(
                    "missing-script",
                    name.span,
                    format!("the script file `{}` cannot be read: {why}", name.node),
                )
                .label("not a script")
                .hint("a script file is plain UTF-8 text")
                .in_source(&source),
            ),
            Err(_) => diags.push(
                Diag::error(
                    "missing-script",
                    name.span,
                    format!("there is no script file `{}` beside the ruleset", name.node),
                )
                .label("no such script")
                .hint("a script file lies beside the ruleset; its name is written with `.rhai`")
                .in_source(&source),
            ),
        }
    }
    let extends: Vec<Spanned<String>> = file
        .statements
        .iter()
        .filter_map(|s| match &s.kind {
            StatementKind::Extends(name) => Some(name.clone()),
            _ => None,
        })
        .collect();
    chain.push(path.clone());
    layers.push(Layer {
        path: path.clone(),
        source: source.clone(),
        file,
    });
    if let Some(second) = extends.get(1) {
        diags.push(
            Diag::error("extends-twice", second.span, "a ruleset can extend only one other")
                .also(extends[0].span, "first `extends`")
                .hint("keep one `extends` line; a chain of variants is fine (each extends the one before)")
                .in_source(&source),
        );
    }
    let Some(parent) = extends.first() else {
        return;
    };
    let parent_path = resolve(&path, &parent.node);
    if chain.iter().any(|p| same_file(p, &parent_path)) {
        let names: Vec<String> = chain
            .iter()
            .map(|p| file_name(p))
            .chain([file_name(&parent_path)])
            .collect();
        // Point at the checked file's own `extends` line: that is the file the designer asked
        // about.
        let (root_source, root_span) = layers
            .first()
            .and_then(|l| {
                l.file.statements.iter().find_map(|s| match &s.kind {
                    StatementKind::Extends(n) => Some((l.source.clone(), n.span)),
                    _ => None,
                })
            })
            .unwrap_or((source.clone(), parent.span));
        diags.push(
            Diag::error(
                "extends-cycle",
                root_span,
                format!(
                    "these rulesets extend each other in a circle: {}",
                    names.join(" → ")
                ),
            )
            .label("the circle starts here")
            .hint("one of them must stand on its own: remove its `extends` line")
            .in_source(&root_source),
        );
        return;
    }
    match loader.read(&parent_path) {
        Ok(bytes) => load_chain(loader, &parent_path, &bytes, chain, layers, diags),
        Err(_) => diags.push(
            Diag::error(
                "missing-parent",
                parent.span,
                format!(
                    "`{}` extends `{}`, but there is no ruleset `{}`",
                    file_name(&path),
                    parent.node,
                    file_name(&parent_path)
                ),
            )
            .label("no such ruleset")
            .hint({
                let siblings = sibling_rulesets(&path);
                match did_you_mean(&parent.node, siblings.iter().map(String::as_str)) {
                    Some(n) if n != parent.node => format!("did you mean `extends \"{n}\"`?"),
                    _ => "the parent is a `.rules` file in the same folder, named without `.rules`"
                        .into(),
                }
            })
            .in_source(&source),
        ),
    }
}

/// The names of the rulesets beside `path`, for "did you mean".
fn sibling_rulesets(path: &str) -> Vec<String> {
    let dir = Path::new(path)
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "rules"))
                .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

fn decode(bytes: &[u8]) -> Result<String, String> {
    if bytes.len() > syntax::MAX_FILE_BYTES {
        return Err(format!(
            "this file is {} KB, far too big for a ruleset (at most {} KB)",
            bytes.len() / 1024,
            syntax::MAX_FILE_BYTES / 1024
        ));
    }
    if bytes.contains(&0) {
        return Err("this is a binary file, not a ruleset".into());
    }
    // A byte-order mark some editors write is not part of the text.
    let bytes = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
    String::from_utf8(bytes.to_vec()).map_err(|e| {
        let good = &bytes[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|b| **b == b'\n').count() + 1;
        let column = String::from_utf8_lossy(good.rsplit(|b| *b == b'\n').next().unwrap_or(good)).chars().count() + 1;
        format!("this file is not UTF-8 text: a byte at line {line}, column {column} is not a letter of UTF-8")
    })
}

/// The file a parent name points at: a sibling `NAME.rules`.
fn resolve(from: &str, name: &str) -> String {
    let mut file = PathBuf::from(name);
    if file.extension().is_none() {
        file.set_extension("rules");
    }
    match Path::new(from).parent() {
        Some(dir) if !dir.as_os_str().is_empty() && file.is_relative() => {
            dir.join(file).display().to_string()
        }
        _ => file.display().to_string(),
    }
}

fn same_file(a: &str, b: &str) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => Path::new(a) == Path::new(b),
    }
}

fn file_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map_or(path.to_string(), |n| n.to_string_lossy().into_owned())
}

/// Parses a card rank as written: `A`, `10`, `T`, `k`, `Queen`, `X`.
pub fn parse_rank(word: &str) -> Option<u8> {
    let w = word.to_ascii_uppercase();
    let rank = match w.as_str() {
        "A" | "ACE" | "ACES" => 0,
        "T" | "10" => 9,
        "J" | "JACK" | "JACKS" => 10,
        "Q" | "QUEEN" | "QUEENS" => 11,
        "K" | "KING" | "KINGS" => 12,
        "X" | "JOKER" | "JOKERS" => 13,
        n => match n.parse::<u8>() {
            Ok(v @ 2..=9) => v - 1,
            _ => return None,
        },
    };
    Some(rank)
}

/// The number a card shows: Ace 1, 2 to 10, Jack 11, Queen 12, King 13, Joker 0.
pub fn face_value(rank: u8) -> i32 {
    if rank == ir::JOKER {
        0
    } else {
        i32::from(rank) + 1
    }
}

/// A value and where it was decided.
#[derive(Debug, Clone)]
struct Set<T> {
    value: T,
    layer: usize,
    span: Span,
    line: usize,
}

#[derive(Debug, Clone)]
struct Declared {
    value: i64,
    default: i64,
    range: OptRange,
    layer: usize,
    span: Span,
    line: usize,
    used: bool,
}

/// What happens on reaching or passing a bar: the outcomes, `either way`, the line's text.
type BarLine = Set<(Vec<ast::Outcome>, bool, String)>;
/// `on script NAME: ...`: layer, line, the function, the outcomes and the line's text.
type ScriptBarLine = (usize, usize, Spanned<String>, Vec<ast::Outcome>, String);
/// What happens at a moment: the outcomes and the line's text.
type WhenLine = Set<(Vec<ast::Outcome>, String)>;

/// A player-count condition: exactly `n`, or `n` or more.
type Mode = Option<(i64, bool)>;

struct Compiler<'a> {
    layers: &'a [Layer],
    diags: Vec<Diag>,
    options: BTreeMap<String, Declared>,
    conds: Vec<ir::Cond>,
    outcomes: Vec<ir::Outcomes>,
    /// Statements that were written but could not be read fully (an undeclared option, a bad
    /// number): later checks do not report them as missing, so one fault gives one diagnostic.
    attempted: BTreeSet<&'static str>,
    /// A card line named an unknown rank or a bad range.
    card_errors: bool,
    /// An option was used but never declared (perhaps misspelt).
    undeclared: bool,
    /// The ruleset's compiled scripts.
    host: Option<std::sync::Arc<crate::script::Host>>,
    /// The totals scripts are tabulated over.
    window: (i32, i32),
    script_fx: Vec<ir::ScriptFx>,
    /// Where each `run NAME` was written.
    fx_spans: Vec<(usize, Span)>,
    script_tests: Vec<ir::ScriptTest>,
    /// A script did not compile: names it would define are not reported missing.
    script_errors: bool,
}

impl<'a> Compiler<'a> {
    fn new(layers: &'a [Layer]) -> Self {
        Self {
            layers,
            diags: Vec::new(),
            options: BTreeMap::new(),
            conds: Vec::new(),
            outcomes: Vec::new(),
            attempted: BTreeSet::new(),
            card_errors: false,
            undeclared: false,
            host: None,
            window: (-200, 300),
            script_fx: Vec::new(),
            fx_spans: Vec::new(),
            script_tests: Vec::new(),
            script_errors: false,
        }
    }

    fn err(&mut self, layer: usize, diag: Diag) {
        self.diags.push(diag.in_source(&self.layers[layer].source));
    }

    fn origin(&self, layer: usize, line: usize) -> Origin {
        Origin {
            file: layer as u16,
            line: line as u32,
        }
    }

    /// Declares every option of the chain (a variant may redeclare one to change its
    /// default), then applies the command line's values.
    fn set_options(&mut self, sets: &Sets) {
        for (li, layer) in self.layers.iter().enumerate() {
            let mut seen: HashMap<&str, Span> = HashMap::new();
            for st in &layer.file.statements {
                let StatementKind::Option {
                    name,
                    default,
                    range,
                } = &st.kind
                else {
                    continue;
                };
                if let Some(first) = seen.insert(&name.node, name.span) {
                    self.diags.push(
                        Diag::error(
                            "option-twice",
                            name.span,
                            format!("the option `{}` is declared twice", name.node),
                        )
                        .also(first, "first declared here")
                        .hint("keep one declaration")
                        .in_source(&layer.source),
                    );
                }
                if ir_keyword(&name.node) {
                    self.diags.push(
                        Diag::warning(
                            "option-name",
                            name.span,
                            format!("`{}` is also a keyword", name.node),
                        )
                        .hint("it works, but a different name (`lives`, `cap`) reads more clearly")
                        .in_source(&layer.source),
                    );
                }
                if let OptRange::Between(lo, hi) = range
                    && lo > hi
                {
                    self.diags.push(
                        Diag::error(
                            "option-range",
                            st.span,
                            format!("the range {lo} to {hi} is empty"),
                        )
                        .hint(format!(
                            "write the smaller number first: `from {hi} to {lo}`"
                        ))
                        .in_source(&layer.source),
                    );
                }
                let value = default.node.as_number();
                let empty_range = matches!(range, OptRange::Between(lo, hi) if lo > hi);
                if !empty_range && !allows(range, default.node) {
                    self.diags.push(
                        Diag::error(
                            "option-default",
                            default.span,
                            format!(
                                "the default of `{}` is not one of its allowed values ({})",
                                name.node,
                                allowed(range)
                            ),
                        )
                        .hint("make the default one of the allowed values")
                        .in_source(&layer.source),
                    );
                }
                let used = self.options.get(&name.node).is_some_and(|d| d.used);
                self.options.insert(
                    name.node.clone(),
                    Declared {
                        value,
                        default: value,
                        range: range.clone(),
                        layer: li,
                        span: name.span,
                        line: st.line,
                        used,
                    },
                );
            }
        }
        for (name, text) in sets {
            let Some(decl) = self.options.get_mut(name) else {
                let names: Vec<&str> = self.options.keys().map(String::as_str).collect();
                let hint =
                    crate::diag::unknown_option_hint(name, &names, |n| format!("--set {n}={text}"));
                self.diags.push(
                    Diag::error(
                        "unknown-option",
                        Span::default(),
                        format!("`--set {name}`: this ruleset has no option `{name}`"),
                    )
                    .hint(hint),
                );
                continue;
            };
            let value = match text.to_ascii_lowercase().as_str() {
                "yes" | "on" | "true" => Some(OptValue::Yes),
                "no" | "off" | "false" => Some(OptValue::No),
                t => t.parse::<i64>().ok().map(OptValue::Number),
            };
            match value {
                Some(v) if allows(&decl.range, v) => decl.value = v.as_number(),
                _ => {
                    let msg = format!(
                        "`--set {name}={text}`: `{name}` must be {}",
                        allowed(&decl.range)
                    );
                    let span = decl.span;
                    let layer = decl.layer;
                    self.diags.push(
                        Diag::error("option-value", span, msg)
                            .label("declared here")
                            .hint(format!(
                                "choose a value among {}",
                                allowed(&self.options[name].range)
                            ))
                            .in_source(&self.layers[layer].source),
                    );
                }
            }
        }
    }

    /// The number an amount stands for; marks options as used.
    fn amount(&mut self, layer: usize, a: &SAmount) -> Option<i64> {
        match &a.node {
            Amount::Number(n) => Some(*n),
            Amount::Option(name) => {
                if let Some(decl) = self.options.get_mut(name) {
                    decl.used = true;
                    return Some(decl.value);
                }
                let names: Vec<String> = self.options.keys().cloned().collect();
                let hint = match did_you_mean(name, names.iter().map(String::as_str)) {
                    Some(n) => format!("did you mean `{{{n}}}`?"),
                    None => {
                        format!("declare it first, for example `option {name} = 3 from 1 to 10`")
                    }
                };
                self.undeclared = true;
                self.err(
                    layer,
                    Diag::error(
                        "undeclared-option",
                        a.span,
                        format!("the option `{name}` is used but never declared"),
                    )
                    .label("not declared")
                    .hint(hint),
                );
                None
            }
        }
    }

    fn amount_i32(&mut self, layer: usize, a: &SAmount) -> Option<i32> {
        self.amount(layer, a).map(|v| v as i32)
    }

    fn compile(&mut self) -> Option<ir::Program> {
        let layers = self.layers;
        let last = layers.len() - 1;
        let mut name: Option<Set<String>> = None;
        let mut about: Option<Set<String>> = None;
        let mut players: Option<Set<(i64, i64, Span, Span)>> = None;
        let mut decks: BTreeMap<Mode, Set<i64>> = BTreeMap::new();
        let mut hands: BTreeMap<Mode, Set<i64>> = BTreeMap::new();
        let mut jokers: Option<Set<i64>> = None;
        let mut chips: Option<Set<i64>> = None;
        let mut start: Option<Set<i64>> = None;
        let mut ceiling: Option<Set<i64>> = None;
        let mut floor: Option<Set<i64>> = None;
        let mut clockwise: Option<Set<bool>> = None;
        let mut by_hand: Option<Set<bool>> = None;
        let mut reshuffle: Option<Set<bool>> = None;
        let mut first_dealer: Option<Set<Option<i64>>> = None;
        let mut deal_clockwise: Option<Set<bool>> = None;
        let mut leader: Option<Set<ir::Leader>> = None;
        let mut rounds: Option<Set<Option<i64>>> = None;
        let mut most_chips: Option<Set<bool>> = None;
        let mut cannot_pay: Option<Set<bool>> = None;
        let mut teams: Option<Set<i64>> = None;
        // Card effects by (rank, player-count mode).
        let mut cards: BTreeMap<(u8, Mode), Set<(ast::Effect, String)>> = BTreeMap::new();
        let mut bars: BTreeMap<(i64, bool), BarLine> = BTreeMap::new();
        let mut triggers: BTreeMap<u8, WhenLine> = BTreeMap::new();
        let mut script_bars: Vec<ScriptBarLine> = Vec::new();

        for (li, layer) in layers.iter().enumerate() {
            // Settings said twice in one file: the second wins, with a warning.
            let mut said: HashMap<String, Span> = HashMap::new();
            for st in &layer.file.statements {
                if let Some((negate, name)) = &st.guard {
                    let amount = Spanned {
                        node: Amount::Option(name.node.clone()),
                        span: name.span,
                    };
                    let Some(v) = self.amount(li, &amount) else {
                        continue;
                    };
                    if (v != 0) == *negate {
                        continue;
                    }
                }
                let text = layer.source.text[st.span.start..st.span.end].to_string();
                let mut once = |c: &mut Self, key: String| {
                    if let Some(first) = said.insert(key.clone(), st.span) {
                        c.err(
                            li,
                            Diag::warning(
                                "said-twice",
                                st.span,
                                format!("{key} is set twice in this file; this line wins"),
                            )
                            .also(first, "first set here")
                            .hint("remove one of the two lines"),
                        );
                    }
                };
                // A setting by player count: `hand 3 cards with 6 or more players`.
                macro_rules! set_for {
                    ($map:ident, $amount:expr, $with:expr, $key:expr) => {{
                        let Some(n) = self.amount(li, $amount) else {
                            continue;
                        };
                        let mode = self.mode(li, $with.as_ref());
                        once(self, format!("{}{}", $key, mode_words(mode)));
                        $map.insert(
                            mode,
                            Set {
                                value: n,
                                layer: li,
                                span: st.span,
                                line: st.line,
                            },
                        );
                    }};
                }
                macro_rules! set {
                    ($slot:ident, $value:expr, $key:expr) => {{
                        once(self, String::from($key));
                        $slot = Some(Set {
                            value: $value,
                            layer: li,
                            span: st.span,
                            line: st.line,
                        });
                    }};
                }
                match &st.kind {
                    StatementKind::Name(n) => set!(name, n.clone(), "the name"),
                    StatementKind::About(a) => set!(about, a.clone(), "the description"),
                    StatementKind::Extends(_) | StatementKind::Option { .. } => {}
                    StatementKind::Players { min, max } => {
                        self.attempted.insert("players");
                        let (Some(lo), Some(hi)) = (self.amount(li, min), self.amount(li, max))
                        else {
                            continue;
                        };
                        set!(
                            players,
                            (lo, hi, min.span, max.span),
                            "the number of players"
                        );
                    }
                    StatementKind::Decks { count, with } => {
                        set_for!(decks, count, with, "the decks")
                    }
                    StatementKind::Hand { size, with } => {
                        self.attempted.insert("hand");
                        set_for!(hands, size, with, "the hand size");
                    }
                    StatementKind::Jokers(n) => {
                        let Some(n) = self.amount(li, n) else {
                            continue;
                        };
                        set!(jokers, n, "the jokers");
                    }
                    StatementKind::Chips(n) => {
                        self.attempted.insert("chips");
                        let Some(n) = self.amount(li, n) else {
                            continue;
                        };
                        set!(chips, n, "the chips");
                    }
                    StatementKind::Start(n) => {
                        let Some(n) = self.amount(li, n) else {
                            continue;
                        };
                        set!(start, n, "the starting total");
                    }
                    StatementKind::Limit { side, value } => {
                        let Some(n) = self.amount(li, value) else {
                            continue;
                        };
                        match side {
                            ast::Side::Above => set!(ceiling, n, "the upper limit"),
                            ast::Side::Below => set!(floor, n, "the lower limit"),
                        }
                    }
                    StatementKind::Direction(t) => set!(
                        clockwise,
                        *t == ast::Turning::Clockwise,
                        "the direction of play"
                    ),
                    StatementKind::Drawing { by_hand: b } => set!(by_hand, *b, "the drawing"),
                    StatementKind::EmptyStock { reshuffle: r } => {
                        set!(reshuffle, *r, "the empty stock rule")
                    }
                    StatementKind::FirstDealer(seat) => {
                        let seat = match seat {
                            Some(a) => match self.amount(li, a) {
                                Some(v) => Some(v),
                                None => continue,
                            },
                            None => None,
                        };
                        set!(first_dealer, seat, "the first dealer");
                    }
                    StatementKind::DealPasses(t) => {
                        set!(deal_clockwise, *t == ast::Turning::Clockwise, "the deal")
                    }
                    StatementKind::Leader { role, side } => {
                        let role = match role {
                            ast::Role::Dealer => ir::Role::Dealer,
                            ast::Role::Loser => ir::Role::Loser,
                            ast::Role::Winner => ir::Role::Winner,
                        };
                        let offset = match side {
                            None => 0,
                            Some(ast::Turning::Clockwise) => 1,
                            Some(ast::Turning::Counterclockwise) => -1,
                        };
                        if role == ir::Role::Dealer && offset == 0 {
                            self.err(
                                li,
                                Diag::warning("dealer-leads", st.span, "the dealer leads each round")
                                    .hint("most games have the player left of the dealer lead: `the player left of the dealer leads`"),
                            );
                        }
                        set!(leader, ir::Leader { role, offset }, "who leads");
                    }
                    StatementKind::GameEnd(n) => {
                        let n = match n {
                            Some(a) => match self.amount(li, a) {
                                Some(v) => Some(v),
                                None => continue,
                            },
                            None => None,
                        };
                        set!(rounds, n, "the end of the game");
                    }
                    StatementKind::Winner { most_chips: m } => set!(most_chips, *m, "the winner"),
                    StatementKind::Out { when_cannot_pay } => {
                        set!(cannot_pay, *when_cannot_pay, "elimination")
                    }
                    StatementKind::Teams(n) => {
                        let Some(n) = self.amount(li, n) else {
                            continue;
                        };
                        set!(teams, n, "the teams");
                    }
                    StatementKind::ScriptFile(_) => {}
                    StatementKind::ScriptBar { name, outcomes } => {
                        script_bars.push((
                            li,
                            st.line,
                            name.clone(),
                            outcomes.clone(),
                            text.clone(),
                        ));
                    }
                    StatementKind::Card {
                        ranks,
                        with,
                        effect,
                    } => {
                        let mode = self.mode(li, with.as_ref());
                        let effect_text =
                            layer.source.text[effect.span.start..effect.span.end].to_string();
                        for rank in self.ranks(li, ranks) {
                            let key = (rank, mode);
                            if let Some(prev) = cards.get(&key).filter(|p| p.layer == li) {
                                let what = format!(
                                    "{}{}",
                                    ir::RANK_WORDS[rank as usize],
                                    mode_words(mode)
                                );
                                let diag = if prev.value.1 == effect_text {
                                    Diag::warning(
                                        "card-twice",
                                        st.span,
                                        format!("the {what} is defined twice, the same way"),
                                    )
                                    .also(prev.span, "already defined here")
                                    .hint("remove one of the two lines")
                                } else {
                                    Diag::error(
                                        "card-conflict",
                                        st.span,
                                        format!("the {what} is defined twice, with different effects"),
                                    )
                                    .label("second definition")
                                    .also(prev.span, "first definition")
                                    .hint(format!(
                                        "a card has one effect: keep one line, or take `{}` out of one of them",
                                        ir::RANK_NAMES[rank as usize]
                                    ))
                                };
                                self.err(li, diag);
                            }
                            cards.insert(
                                key,
                                Set {
                                    value: (effect.clone(), effect_text.clone()),
                                    layer: li,
                                    span: st.span,
                                    line: st.line,
                                },
                            );
                        }
                    }
                    StatementKind::Bar {
                        passing,
                        values,
                        either_way,
                        outcomes,
                    } => {
                        for v in values {
                            let Some(n) = self.amount(li, v) else {
                                continue;
                            };
                            let key = (n, *passing);
                            if let Some(prev) = bars.get(&key).filter(|p| p.layer == li) {
                                let prev_span = prev.span;
                                self.err(
                                    li,
                                    Diag::error(
                                        "bar-twice",
                                        v.span,
                                        format!(
                                            "what happens on {} {n} is said twice",
                                            if *passing { "passing" } else { "reaching" }
                                        ),
                                    )
                                    .also(prev_span, "first said here")
                                    .hint(
                                        "put everything that happens on one line, joined by `and`",
                                    ),
                                );
                            }
                            bars.insert(
                                key,
                                Set {
                                    value: (outcomes.clone(), *either_way, text.clone()),
                                    layer: li,
                                    span: v.span,
                                    line: st.line,
                                },
                            );
                        }
                    }
                    StatementKind::When { trigger, outcomes } => {
                        if *trigger == ast::Trigger::CannotPlay {
                            self.attempted.insert("cannot play");
                        }
                        let key = *trigger as u8;
                        if let Some(prev) = triggers.get(&key).filter(|p| p.layer == li) {
                            let prev_span = prev.span;
                            self.err(
                                li,
                                Diag::error(
                                    "when-twice",
                                    st.span,
                                    format!(
                                        "{} already has a rule in this file",
                                        trigger_words(*trigger)
                                    ),
                                )
                                .also(prev_span, "first rule")
                                .hint("put everything that happens on one line, joined by `and`"),
                            );
                        }
                        triggers.insert(
                            key,
                            Set {
                                value: (outcomes.clone(), text.clone()),
                                layer: li,
                                span: st.span,
                                line: st.line,
                            },
                        );
                    }
                }
            }
        }

        // ---- The table: players, decks, hands, chips.
        let leaf_span = layers[last]
            .file
            .statements
            .first()
            .map_or(Span::default(), |s| Span::new(s.span.start, s.span.start));
        let Some(players) = players else {
            if self.attempted.contains("players") {
                return None;
            }
            self.err(
                last,
                Diag::error(
                    "no-players",
                    leaf_span,
                    "the ruleset never says how many players may play",
                )
                .hint("add a line like `players 2 to 5`"),
            );
            return None;
        };
        let (min_p, max_p, min_span, max_span) = players.value;
        let mut ok = true;
        if min_p < 2 {
            self.err(
                players.layer,
                Diag::error(
                    "few-players",
                    min_span,
                    format!("a game needs at least 2 players, not {min_p}"),
                )
                .hint("running-total games are played by 2 or more: `players 2 to 5`"),
            );
            ok = false;
        }
        if min_p > max_p {
            self.err(
                players.layer,
                Diag::error(
                    "empty-players",
                    players.span,
                    format!("no number of players is from {min_p} to {max_p}"),
                )
                .hint(format!(
                    "write the smaller number first: `players {max_p} to {min_p}`"
                )),
            );
            ok = false;
        }
        if max_p > MAX_SEATS as i64 {
            self.err(
                players.layer,
                Diag::error(
                    "many-players",
                    max_span,
                    format!("at most {MAX_SEATS} players can sit at one table"),
                )
                .hint(format!("lower the most players to {MAX_SEATS} or fewer")),
            );
            ok = false;
        }
        if !ok {
            return None;
        }
        let (min_p, max_p) = (min_p as usize, max_p as usize);

        for set in decks.iter().chain(hands.iter()).filter_map(|(m, s)| {
            let (n, or_more) = (*m)?;
            let never = if or_more {
                n > max_p as i64
            } else {
                n < min_p as i64 || n > max_p as i64
            };
            never.then_some(s)
        }) {
            self.err(
                set.layer,
                Diag::warning(
                    "never-applies",
                    set.span,
                    format!("this line never applies: {min_p} to {max_p} players play"),
                )
                .hint("change the player count, or remove the line"),
            );
        }
        let decks_by = self.by_players(&decks, 1, "decks", 1, MAX_DECKS as i64, min_p, max_p);
        let hand_by = self.by_players(
            &hands,
            0,
            "cards in a hand",
            1,
            MAX_HAND as i64,
            min_p,
            max_p,
        );
        if hands.is_empty() && !self.attempted.contains("hand") {
            self.err(
                last,
                Diag::error(
                    "no-hand",
                    leaf_span,
                    "the ruleset never says how many cards each player holds",
                )
                .hint("add a line like `hand 3 cards`"),
            );
        }
        let jokers_n = jokers.as_ref().map_or(0, |j| j.value);
        if let Some(j) = &jokers
            && !(0..=8).contains(&j.value)
        {
            self.err(
                j.layer,
                Diag::error("jokers", j.span, "a deck holds from 0 to 8 jokers")
                    .hint("say `jokers 2 per deck`"),
            );
        }
        for n in min_p..=max_p {
            let deck = usize::from(decks_by[n]) * (52 + jokers_n.clamp(0, 8) as usize);
            let need = usize::from(hand_by[n]) * n;
            if need > deck {
                let (layer, span) = hands
                    .iter()
                    .rev()
                    .find(|(m, _)| applies(**m, n))
                    .map_or((players.layer, players.span), |(_, s)| (s.layer, s.span));
                self.err(
                    layer,
                    Diag::error(
                        "deck-too-small",
                        span,
                        format!("{n} players holding {} cards need {need} cards, but the deck holds {deck}", hand_by[n]),
                    )
                    .hint(format!("deal fewer cards, allow fewer players, or add a deck: `decks 2 with {n} or more players`")),
                );
                break;
            }
        }
        let chips_n = match &chips {
            None if self.attempted.contains("chips") => 1,
            None => {
                self.err(
                    last,
                    Diag::error(
                        "no-chips",
                        leaf_span,
                        "the ruleset never says how many chips each player starts with",
                    )
                    .hint("add a line like `each player starts with 3 chips`"),
                );
                1
            }
            Some(c) if c.value < 1 => {
                self.err(
                    c.layer,
                    Diag::error(
                        "few-chips",
                        c.span,
                        format!("players must start with at least 1 chip, not {}", c.value),
                    )
                    .hint("chips are lives: `each player starts with 3 chips`"),
                );
                1
            }
            Some(c) => c.value,
        };
        let start_n = start.as_ref().map_or(0, |s| s.value);
        let crossed = matches!((&ceiling, &floor), (Some(c), Some(f)) if f.value > c.value);
        if let (Some(c), Some(f)) = (&ceiling, &floor)
            && crossed
        {
            self.err(
                c.layer,
                Diag::error(
                    "limits-crossed",
                    c.span,
                    format!(
                        "the total may not go above {} nor below {}: no total is allowed",
                        c.value, f.value
                    ),
                )
                .also(f.span, "the lower limit")
                .hint("the upper limit must be above the lower one"),
            );
        }
        if let (Some(s), Some(c)) = (&start, &ceiling)
            && s.value > c.value
            && !crossed
        {
            self.err(
                s.layer,
                Diag::error(
                    "start-above-limit",
                    s.span,
                    format!(
                        "the total starts at {} but may not go above {}",
                        s.value, c.value
                    ),
                )
                .hint(format!("start at {} or less, or raise the limit", c.value)),
            );
        }
        if let (Some(s), Some(f)) = (&start, &floor)
            && s.value < f.value
            && !crossed
        {
            self.err(
                s.layer,
                Diag::error(
                    "start-below-limit",
                    s.span,
                    format!(
                        "the total starts at {} but may not go below {}",
                        s.value, f.value
                    ),
                )
                .hint(format!("start at {} or more, or lower the limit", f.value)),
            );
        }
        if let Some(t) = &teams {
            if t.value < 2 {
                self.err(
                    t.layer,
                    Diag::error("teams", t.span, "a team needs at least 2 players")
                        .hint("say `players play in teams of 2 sharing chips`"),
                );
            } else if (min_p as i64) < t.value * 2 {
                self.err(
                    t.layer,
                    Diag::error(
                        "teams-alone",
                        t.span,
                        format!(
                            "with {min_p} players in teams of {}, one team has no opponents",
                            t.value
                        ),
                    )
                    .also(players.span, "the number of players")
                    .hint(format!(
                        "allow at least {} players: `players {} to {}`",
                        t.value * 2,
                        t.value * 2,
                        (t.value * 2).max(max_p as i64)
                    )),
                );
            } else if let Some(n) = (min_p..=max_p).find(|n| n % t.value as usize != 0) {
                self.err(
                    t.layer,
                    Diag::error(
                        "teams-uneven",
                        t.span,
                        format!("{n} players cannot sit in teams of {}", t.value),
                    )
                    .also(players.span, "the number of players")
                    .hint(format!(
                        "allow only multiples of {}, for example `players {} to {}`",
                        t.value,
                        t.value * 2,
                        t.value * 2
                    )),
                );
            }
        }
        if let Some(Set {
            value: Some(r),
            layer,
            span,
            ..
        }) = &rounds
            && *r < 1
        {
            self.err(
                *layer,
                Diag::error("rounds", *span, "a game lasts at least 1 round")
                    .hint("say `the game ends after 10 rounds`"),
            );
        }
        if let Some(Set {
            value: Some(seat),
            layer,
            span,
            ..
        }) = &first_dealer
            && (*seat < 0 || *seat >= min_p as i64)
        {
            self.err(
                *layer,
                Diag::error(
                    "dealer-seat",
                    *span,
                    format!(
                        "there may be no player {seat}: seats are numbered from 0 to {}",
                        min_p - 1
                    ),
                )
                .hint("say `the first dealer is player 0`, or `chosen at random`"),
            );
        }

        // ---- Scripts: compiled once, tabulated over the totals a game can hold.
        self.compile_scripts();
        {
            let top = bars
                .keys()
                .map(|(v, _)| *v as i32)
                .max()
                .unwrap_or(0)
                .max(start_n as i32)
                .max(100);
            let lo = floor
                .as_ref()
                .map_or((start_n as i32).min(0) - 200, |f| f.value as i32);
            let hi = ceiling.as_ref().map_or(top + 200, |c| c.value as i32);
            self.window = (lo, hi.max(lo));
        }

        // ---- Cards.
        let mut effects: Vec<ir::Effect> = Vec::new();
        let mut effect_of: BTreeMap<(u8, Mode), u16> = BTreeMap::new();
        for ((rank, mode), set) in &cards {
            let origin = self.origin(set.layer, set.line);
            if let Some(fx) =
                self.effect(set.layer, *rank, &set.value.0, origin, set.value.1.clone())
            {
                effect_of.insert((*rank, *mode), effects.len() as u16);
                effects.push(fx);
            }
        }
        let mut rank_fx = [[NO_EFFECT; RANKS]; MAX_SEATS + 1];
        for (n, row) in rank_fx.iter_mut().enumerate().take(max_p + 1).skip(2) {
            for (rank, cell) in row.iter_mut().enumerate() {
                // The most specific line wins: exact count, then `or more` (highest first),
                // then the general line.
                let rank = rank as u8;
                let exact = effect_of.get(&(rank, Some((n as i64, false))));
                let more = effect_of
                    .range((rank, Some((i64::MIN, true)))..=(rank, Some((n as i64, true))))
                    .rfind(|((_, m), _)| matches!(m, Some((_, true))))
                    .map(|(_, v)| v);
                let general = effect_of.get(&(rank, None));
                *cell = exact.or(more).or(general).copied().unwrap_or(NO_EFFECT);
            }
        }
        for ((rank, mode), set) in &cards {
            if let Some((n, or_more)) = mode {
                let never = if *or_more {
                    *n > max_p as i64
                } else {
                    *n < 2 || *n > max_p as i64
                };
                if never {
                    let why = if *n < 2 {
                        "a round is over when fewer than 2 players are left in it".to_string()
                    } else {
                        format!("at most {max_p} players play")
                    };
                    self.err(
                        set.layer,
                        Diag::warning(
                            "never-applies",
                            set.span,
                            format!("this line never applies: {why}"),
                        )
                        .hint("change the player count, or remove the line"),
                    );
                }
                if !cards.contains_key(&(*rank, None)) {
                    self.err(
                        set.layer,
                        Diag::error(
                            "no-general-effect",
                            set.span,
                            format!(
                                "the {} has an effect only{}",
                                ir::RANK_WORDS[*rank as usize],
                                mode_words(*mode)
                            ),
                        )
                        .hint(format!(
                            "say what it does otherwise too: `card {}: ...`",
                            ir::RANK_NAMES[*rank as usize]
                        )),
                    );
                }
            }
        }
        let mut missing: Vec<&str> = Vec::new();
        for rank in 0..13u8 {
            // A rank with only a player-count line is reported above.
            if !cards.contains_key(&(rank, None)) && !cards.keys().any(|(r, _)| *r == rank) {
                missing.push(ir::RANK_NAMES[rank as usize]);
            }
        }
        if !missing.is_empty() && !self.card_errors {
            let (layer, span) = cards
                .values()
                .filter(|s| s.layer == last)
                .map(|s| (s.layer, s.span))
                .max_by_key(|(_, s)| s.start)
                .unwrap_or((last, leaf_span));
            let list = missing
                .iter()
                .map(|r| format!("`{r}`"))
                .collect::<Vec<_>>()
                .join(", ");
            self.err(
                layer,
                Diag::error(
                    "rank-no-value",
                    span,
                    format!(
                        "{} {list} {} no value",
                        if missing.len() == 1 {
                            "the rank"
                        } else {
                            "the ranks"
                        },
                        if missing.len() == 1 { "has" } else { "have" }
                    ),
                )
                .label(if cards.is_empty() {
                    "no card lines at all"
                } else {
                    "after the last card line"
                })
                .hint(format!(
                    "give every rank a line, for example `card {}: add face value`",
                    missing.join(", ")
                )),
            );
        }
        if jokers_n == 0
            && let Some(set) = cards.get(&(ir::JOKER, None))
        {
            self.err(
                set.layer,
                Diag::warning(
                    "never-applies",
                    set.span,
                    "this deck has no jokers, so this line never applies",
                )
                .hint("add `jokers 2 per deck`, or remove the line"),
            );
        }
        if jokers_n > 0
            && !cards.contains_key(&(ir::JOKER, None))
            && let Some(j) = &jokers
        {
            self.err(
                j.layer,
                Diag::error(
                    "rank-no-value",
                    j.span,
                    "the deck has jokers but the joker has no value",
                )
                .hint("say what a joker does: `card X: nothing`"),
            );
        }

        // ---- Bars and triggers.
        let mut ir_bars: BTreeMap<i64, ir::Bar> = BTreeMap::new();
        let bar_list: Vec<((i64, bool), BarLine)> =
            bars.iter().map(|(k, v)| (*k, v.clone())).collect();
        for ((value, passing), set) in &bar_list {
            let origin = self.origin(set.layer, set.line);
            let idx = self.outcomes(set.layer, &set.value.0, origin, set.value.2.clone());
            let bar = ir_bars.entry(*value).or_insert(ir::Bar {
                value: *value as i32,
                reach: None,
                pass: None,
                reach_either_way: false,
                pass_either_way: false,
            });
            if *passing {
                bar.pass = idx;
                bar.pass_either_way = set.value.1;
            } else {
                bar.reach = idx;
                bar.reach_either_way = set.value.1;
            }
        }
        let mut ir_triggers = ir::Triggers::default();
        let trig_list: Vec<(u8, WhenLine)> =
            triggers.iter().map(|(k, v)| (*k, v.clone())).collect();
        for (key, set) in &trig_list {
            let origin = self.origin(set.layer, set.line);
            let idx = self.outcomes(set.layer, &set.value.0, origin, set.value.1.clone());
            let slot = match *key {
                k if k == ast::Trigger::CannotPlay as u8 => &mut ir_triggers.cannot_play,
                k if k == ast::Trigger::NoCards as u8 => &mut ir_triggers.no_cards,
                k if k == ast::Trigger::RoundStart as u8 => &mut ir_triggers.round_start,
                k if k == ast::Trigger::RoundEnd as u8 => &mut ir_triggers.round_end,
                _ => &mut ir_triggers.game_end,
            };
            *slot = idx;
        }

        // ---- Unused options.
        // After a misspelt option, the one meant looks unused: say nothing more about it.
        let unused: Vec<(String, Declared)> = if self.undeclared {
            Vec::new()
        } else {
            self.options
                .iter()
                .filter(|(_, d)| !d.used)
                .map(|(n, d)| (n.clone(), d.clone()))
                .collect()
        };
        for (name, d) in unused {
            self.err(
                d.layer,
                Diag::warning(
                    "unused-option",
                    d.span,
                    format!("the option `{name}` is declared but never used"),
                )
                .hint(format!(
                    "use it as `{{{name}}}` where its number belongs, or remove it"
                )),
            );
        }

        if self.diags.iter().any(Diag::is_error) {
            return None;
        }

        let setting_origin = |s: Option<(usize, usize)>| {
            s.map(|(l, line)| Origin {
                file: l as u16,
                line: line as u32,
            })
        };
        let mut settings = Vec::new();
        macro_rules! note {
            ($name:expr, $slot:expr) => {
                if let Some(o) = setting_origin($slot.as_ref().map(|s| (s.layer, s.line))) {
                    settings.push((String::from($name), o));
                }
            };
        }
        note!("players", Some(&players));
        note!("chips", chips);
        note!("start", start);
        note!("ceiling", ceiling);
        note!("floor", floor);
        note!("direction", clockwise);
        note!("drawing", by_hand);
        note!("stock", reshuffle);
        note!("first dealer", first_dealer);
        note!("deal", deal_clockwise);
        note!("leader", leader);
        note!("game end", rounds);
        note!("winner", most_chips);
        note!("elimination", cannot_pay);
        note!("teams", teams);
        note!("jokers", jokers);
        if let Some(h) = hands.values().next_back() {
            settings.push(("hand".into(), self.origin(h.layer, h.line)));
        }
        if let Some(d) = decks.values().next_back() {
            settings.push(("decks".into(), self.origin(d.layer, d.line)));
        }

        let options = self
            .options
            .iter()
            .map(|(n, d)| ir::OptionInfo {
                name: n.clone(),
                value: d.value,
                default: d.default,
                allowed: allowed(&d.range),
                origin: self.origin(d.layer, d.line),
            })
            .collect();
        let limit = |s: &Option<Set<i64>>| {
            s.as_ref().map(|s| ir::Limit {
                value: s.value as i32,
                origin: Origin {
                    file: s.layer as u16,
                    line: s.line as u32,
                },
            })
        };
        let rounds_v = rounds.as_ref().and_then(|r| r.value);
        let program = ir::Program {
            name: name.map_or_else(|| file_name(&layers[last].path), |n| n.value),
            about: about.map_or_else(String::new, |a| a.value),
            files: layers.iter().map(|l| l.path.clone()).collect(),
            sources: layers.iter().map(|l| l.source.text.to_string()).collect(),
            options,
            min_players: min_p as u8,
            max_players: max_p as u8,
            decks: decks_by,
            jokers: jokers_n as u8,
            hand: hand_by,
            chips: chips_n as i32,
            start: start_n as i32,
            ceiling: limit(&ceiling),
            floor: limit(&floor),
            clockwise: clockwise.is_none_or(|c| c.value),
            by_hand: by_hand.is_some_and(|b| b.value),
            reshuffle: reshuffle.is_none_or(|r| r.value),
            first_dealer: first_dealer.and_then(|d| d.value).map(|d| d as u8),
            deal_clockwise: deal_clockwise.is_none_or(|d| d.value),
            leader: leader.map_or(
                ir::Leader {
                    role: ir::Role::Dealer,
                    offset: 1,
                },
                |l| l.value,
            ),
            rounds: rounds_v.map(|r| r as u32),
            most_chips_wins: most_chips.map_or(rounds_v.is_some(), |m| m.value),
            out_when_cannot_pay: cannot_pay.is_some_and(|c| c.value),
            team_size: teams.map(|t| t.value as u8),
            rank_fx,
            effects,
            conds: std::mem::take(&mut self.conds),
            outcomes: std::mem::take(&mut self.outcomes),
            bars: ir_bars.into_values().collect(),
            triggers: ir_triggers,
            settings,
            script_fx: std::mem::take(&mut self.script_fx),
            script_tests: std::mem::take(&mut self.script_tests),
            script_bars: Vec::new(),
            scripts: self.host.clone().map(ir::Scripts),
        };
        let mut program = program;
        self.tabulate(&mut program, &script_bars);
        let reach = reachable(&program);
        self.check_reachability(&program, &bar_list, &reach);
        if program.triggers.cannot_play.is_none() && !self.attempted.contains("cannot play") {
            // Can a hand ever hold no legal card? Then the rules must say what happens.
            let stuck = reach.seen.iter().find_map(|&t| {
                let ranks = if program.jokers > 0 { RANKS } else { RANKS - 1 };
                (0..ranks).find_map(|r| {
                    let idx = program.rank_fx[usize::from(program.max_players)][r];
                    let fx = program.effects.get(usize::from(idx))?;
                    let totals: Vec<i32> = fx
                        .choices()
                        .iter()
                        .map(|c| crate::engine::choice_total(&program, c, t))
                        .collect();
                    (!totals
                        .iter()
                        .any(|&n| crate::engine::State::allowed(&program, n)))
                    .then(|| (t, r, totals[0]))
                })
            });
            if let Some((t, r, n)) = stuck {
                let limit = if program.ceiling.is_some_and(|c| n > c.value) {
                    &ceiling
                } else {
                    &floor
                };
                if let Some(c) = limit {
                    self.err(
                        c.layer,
                        Diag::error(
                            "no-bust-rule",
                            c.span,
                            "the ruleset says a card may not take the total past this limit, but not what happens to a player who cannot play",
                        )
                        .label(format!("at {t}, a hand of {}s has no legal card", ir::RANK_WORDS[r]))
                        .hint("add a line like `when a player cannot play: the player pays 1 and loses the round`"),
                    );
                }
            }
        }
        let bust_line = triggers
            .get(&(ast::Trigger::CannotPlay as u8))
            .map(|t| (t.layer, t.span));
        self.check_can_end(&program, bust_line);
        Some(program)
    }

    /// Compiles every script of the chain; a syntax error is a diagnostic at its line.
    fn compile_scripts(&mut self) {
        let engine = crate::script::sandbox();
        let mut pieces = Vec::new();
        let layers = self.layers;
        for (li, layer) in layers.iter().enumerate() {
            for src in &layer.file.scripts {
                match crate::script::compile(&engine, &src.text) {
                    Ok(ast) => {
                        let file = src.path.clone().unwrap_or_else(|| layer.path.clone());
                        pieces.push((ast, file, src.line, src.text.clone()));
                    }
                    Err(e) => {
                        self.script_errors = true;
                        let message = format!("the script does not compile: {}", e.message);
                        let hint = "scripts are rhai: see https://rhai.rs/book/ (functions look like `fn name(game) { ... }`)";
                        match &src.path {
                            None => {
                                // Inline: the error's line in the block is a line of the ruleset.
                                let at =
                                    offset_of(&layer.source.text, src.line + e.line - 1, e.column);
                                self.err(
                                    li,
                                    Diag::error("script-syntax", Span::new(at, at + 1), message)
                                        .label("here")
                                        .hint(hint),
                                );
                            }
                            Some(path) => {
                                let source = Source::new(path.clone(), src.text.clone());
                                let at = offset_of(&src.text, e.line, e.column);
                                self.diags.push(
                                    Diag::error("script-syntax", Span::new(at, at + 1), message)
                                        .label("here")
                                        .hint(hint)
                                        .in_source(&source),
                                );
                            }
                        }
                    }
                }
            }
        }
        if !pieces.is_empty() {
            self.host = Some(std::sync::Arc::new(crate::script::Host::new(pieces)));
        }
    }

    /// Checks that a script function exists and takes `game`.
    fn script_fn(&mut self, layer: usize, name: &Spanned<String>) -> Option<()> {
        if self.script_errors
            && self
                .host
                .as_ref()
                .is_none_or(|h| h.arity(&name.node).is_none())
        {
            // Probably in the script that did not compile: one diagnostic is enough.
            return None;
        }
        let Some(host) = self.host.clone() else {
            self.err(
                layer,
                Diag::error("no-scripts", name.span, format!("`{}` is a script, but this ruleset has no scripts", name.node))
                    .hint("write the function in a block `script` ... `end`, or in a file named by `script file \"house.rhai\"`"),
            );
            return None;
        };
        match host.arity(&name.node) {
            Some(1) => Some(()),
            Some(n) => {
                self.err(
                    layer,
                    Diag::error(
                        "script-arity",
                        name.span,
                        format!(
                            "the script function `{}` takes {n} arguments, not 1",
                            name.node
                        ),
                    )
                    .hint(format!("write it `fn {}(game) {{ ... }}`", name.node)),
                );
                None
            }
            None => {
                let names: Vec<&str> = host.functions.iter().map(|f| f.name.as_str()).collect();
                let hint = match did_you_mean(&name.node, names.iter().copied()) {
                    Some(n) => format!("did you mean `{n}`?"),
                    None => format!(
                        "the scripts define {}",
                        names
                            .iter()
                            .map(|n| format!("`{n}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                self.err(
                    layer,
                    Diag::error(
                        "unknown-script",
                        name.span,
                        format!("no script defines `{}`", name.node),
                    )
                    .label("unknown function")
                    .hint(hint),
                );
                None
            }
        }
    }

    /// A test written in rhai: tabulated now, so it must read only the total and the card.
    fn script_test(&mut self, layer: usize, name: &Spanned<String>) -> Option<u16> {
        self.script_fn(layer, name)?;
        let host = self.host.clone()?;
        let (lo, hi) = self.window;
        match host.tabulate_test(&name.node, 0, lo, hi) {
            Ok(Some(table)) => {
                self.script_tests.push(ir::ScriptTest {
                    func: name.node.clone(),
                    lo,
                    table,
                });
                Some((self.script_tests.len() - 1) as u16)
            }
            Ok(None) => {
                self.err(
                    layer,
                    Diag::error("script-test-live", name.span, format!("the test `{}` reads more than the total and the card", name.node))
                        .hint("a test is worked out for every total when the ruleset is checked; make the rule a card effect (`run ...`) to read the rest of the game"),
                );
                None
            }
            Err((t, e)) => {
                self.err(layer, script_diag(name.span, t, &e));
                None
            }
        }
    }

    /// Tabulates the card scripts that read only the total and the card, and tries the others
    /// and the script bars, so their mistakes show now rather than in a game.
    fn tabulate(&mut self, p: &mut ir::Program, bars: &[ScriptBarLine]) {
        let Some(host) = self.host.clone() else {
            if let Some((layer, _, name, _, _)) = bars.first() {
                let name = name.clone();
                self.script_fn(*layer, &name);
            }
            return;
        };
        let (lo, hi) = self.window;
        for (i, fx) in p.script_fx.iter_mut().enumerate() {
            match host.tabulate_effect(&fx.func, fx.rank, lo, hi) {
                Ok(table) => fx.table = table,
                Err((t, e)) => {
                    let (layer, span) = self.fx_spans[i];
                    self.err(layer, script_diag(span, t, &e));
                }
            }
        }
        for (layer, line, name, outcomes, text) in bars {
            if self.script_fn(*layer, name).is_none() {
                continue;
            }
            if let Err((t, e)) = host.probe_bar(&name.node, lo, hi) {
                self.err(*layer, script_diag(name.span, t, &e));
                continue;
            }
            let origin = self.origin(*layer, *line);
            // The program owns the outcome lists by now: move this one over.
            if self
                .outcomes(*layer, outcomes, origin, text.clone())
                .is_some()
                && let Some(list) = self.outcomes.pop()
            {
                p.outcomes.push(list);
                p.script_bars.push(ir::ScriptBar {
                    func: name.node.clone(),
                    outcomes: (p.outcomes.len() - 1) as u16,
                });
            }
        }
    }

    /// A per-player-count table from `with N players` lines.
    #[allow(clippy::too_many_arguments)]
    fn by_players(
        &mut self,
        lines: &BTreeMap<Mode, Set<i64>>,
        default: u8,
        what: &str,
        lo: i64,
        hi: i64,
        min_p: usize,
        max_p: usize,
    ) -> [u8; MAX_SEATS + 1] {
        let mut table = [default; MAX_SEATS + 1];
        for set in lines.values() {
            if !(lo..=hi).contains(&set.value) {
                self.err(
                    set.layer,
                    Diag::error(
                        "out-of-range",
                        set.span,
                        format!("{} {what} is not allowed: from {lo} to {hi}", set.value),
                    )
                    .hint(format!("choose a number of {what} from {lo} to {hi}")),
                );
            }
        }
        for (n, cell) in table
            .iter_mut()
            .enumerate()
            .take(max_p + 1)
            .skip(min_p.min(max_p))
        {
            let exact = lines.get(&Some((n as i64, false)));
            let more = lines
                .iter()
                .filter(|(m, _)| matches!(m, Some((k, true)) if *k as usize <= n))
                .max_by_key(|(m, _)| m.map(|(k, _)| k))
                .map(|(_, v)| v);
            if let Some(set) = exact.or(more).or(lines.get(&None)) {
                *cell = set.value.clamp(lo, hi) as u8;
            }
        }
        table
    }

    fn mode(&mut self, layer: usize, with: Option<&ast::WithPlayers>) -> Mode {
        let w = with?;
        let n = self.amount(layer, &w.count)?;
        Some((n, w.or_more))
    }

    /// The ranks a `card` line names; unknown ones are reported.
    fn ranks(&mut self, layer: usize, items: &[ast::RankItem]) -> Vec<u8> {
        let mut out = Vec::new();
        for item in items {
            let Some(from) = self.rank(layer, &item.from) else {
                continue;
            };
            match &item.to {
                None => out.push(from),
                Some(to_word) => {
                    let Some(to) = self.rank(layer, to_word) else {
                        continue;
                    };
                    if to < from || to == ir::JOKER {
                        self.card_errors = true;
                        self.err(
                            layer,
                            Diag::error(
                                "rank-range",
                                Span::new(item.from.span.start, to_word.span.end),
                                format!("`{} to {}` names no card", item.from.node, to_word.node),
                            )
                            .hint(
                                "ranks run A 2 3 4 5 6 7 8 9 10 J Q K: write the lower one first",
                            ),
                        );
                        continue;
                    }
                    out.extend(from..=to);
                }
            }
        }
        out
    }

    fn rank(&mut self, layer: usize, word: &Spanned<String>) -> Option<u8> {
        if let Some(r) = parse_rank(&word.node) {
            return Some(r);
        }
        self.card_errors = true;
        let hint = match word.node.as_str() {
            w if w.contains('-') && w.split('-').all(|p| parse_rank(p).is_some()) => {
                let (a, b) = w.split_once('-').unwrap_or((w, w));
                format!("write a range of ranks with `to`: `{a} to {b}`")
            }
            "1" | "11" => "the Ace is written `A`; its choice of 1 or 11 goes after the colon: `card A: add 1 or add 11`".to_string(),
            "0" | "joker" => "the joker is written `X`".to_string(),
            w => match did_you_mean(w, ir::RANK_NAMES.iter().copied().chain(ir::RANK_WORDS.iter().copied())) {
                Some(r) => format!("did you mean `{r}`? Ranks are A 2 3 4 5 6 7 8 9 10 J Q K, and X for a joker"),
                None => "ranks are A 2 3 4 5 6 7 8 9 10 J Q K, and X for a joker".to_string(),
            },
        };
        self.err(
            layer,
            Diag::error(
                "unknown-rank",
                word.span,
                format!("`{}` is not a card rank", word.node),
            )
            .label("unknown rank")
            .hint(hint),
        );
        None
    }

    fn effect(
        &mut self,
        layer: usize,
        rank: u8,
        effect: &ast::Effect,
        origin: Origin,
        text: String,
    ) -> Option<ir::Effect> {
        if effect.choices.len() > MAX_CHOICES {
            self.err(
                layer,
                Diag::error(
                    "many-choices",
                    effect.span,
                    format!("a card offers at most {MAX_CHOICES} choices"),
                )
                .hint("split the card's choices, or use fewer `or`s"),
            );
            return None;
        }
        let empty_step = ir::Step {
            cond: None,
            then: ir::Act::Nothing,
            otherwise: ir::Act::Nothing,
        };
        let empty_choice = ir::Choice {
            steps: [empty_step; MAX_STEPS],
            len: 0,
            simple: true,
            fast: ir::Fast::Add(0),
            turn: 0,
            scripted: false,
        };
        let mut out = ir::Effect {
            choices: [empty_choice; MAX_CHOICES],
            len: 0,
            labels: Vec::new(),
            origin,
            text,
        };
        let mut subject = ast::Who::Player;
        for (ci, choice) in effect.choices.iter().enumerate() {
            if choice.steps.len() > MAX_STEPS {
                self.err(
                    layer,
                    Diag::error(
                        "many-steps",
                        choice.span,
                        format!("one choice does at most {MAX_STEPS} things"),
                    )
                    .hint("simplify the card"),
                );
                return None;
            }
            let mut c = empty_choice;
            for step in &choice.steps {
                let then = self.act(layer, rank, &step.action, &mut subject, origin)?;
                let cond = match &step.condition {
                    None => None,
                    Some(cond) => Some(self.cond(layer, cond)?),
                };
                let otherwise = match &step.otherwise {
                    None => ir::Act::Nothing,
                    Some(a) => self.act(layer, rank, a, &mut subject, origin)?,
                };
                c.steps[c.len as usize] = ir::Step {
                    cond,
                    then,
                    otherwise,
                };
                c.len += 1;
            }
            c.finish();
            let label = match &choice.label {
                Some(l) => l.node.clone(),
                None => default_label(&c, ci),
            };
            if let Some(prev) = out.choices().iter().position(|p| p.steps() == c.steps()) {
                self.err(
                    layer,
                    Diag::error(
                        "one-option-choice",
                        choice.span,
                        "this choice has only one real option: both sides do the same",
                    )
                    .also(effect.choices[prev].span, "the same as this")
                    .hint("remove the `or` and one side, or make the two sides differ"),
                );
                return None;
            }
            if out.labels.contains(&label) {
                self.err(
                    layer,
                    Diag::error(
                        "label-twice",
                        choice.span,
                        format!("two choices of this card are both called `{label}`"),
                    )
                    .hint("name them apart: `... as \"low\" or ... as \"high\"`"),
                );
                return None;
            }
            out.labels.push(label);
            out.choices[ci] = c;
            out.len += 1;
        }
        Some(out)
    }

    fn act(
        &mut self,
        layer: usize,
        rank: u8,
        action: &Spanned<ast::Action>,
        subject: &mut ast::Who,
        origin: Origin,
    ) -> Option<ir::Act> {
        use ast::Action as A;
        let pos = |c: &mut Self, a: &SAmount, what: &str| -> Option<i32> {
            let v = c.amount_i32(layer, a)?;
            if v <= 0 {
                c.err(
                    layer,
                    Diag::error(
                        "bad-number",
                        a.span,
                        format!("{what} by {v} makes no sense"),
                    )
                    .hint(format!("{what} by a number above 0")),
                );
                return None;
            }
            Some(v)
        };
        Some(match &action.node {
            A::Add(q) | A::Subtract(q) => {
                let n = match q {
                    ast::Quantity::Face => face_value(rank),
                    ast::Quantity::Amount(a) => self.amount_i32(layer, a)?,
                };
                if matches!(action.node, A::Add(_)) {
                    ir::Act::Add(n)
                } else {
                    ir::Act::Add(-n)
                }
            }
            A::Set(a) => ir::Act::Set(self.amount_i32(layer, a)?),
            A::Multiply(a) => ir::Act::Mul(pos(self, a, "multiplying")?),
            A::Divide(a) => ir::Act::Div(pos(self, a, "dividing")?),
            A::Double => ir::Act::Mul(2),
            A::Halve => ir::Act::Div(2),
            A::Nothing => ir::Act::Nothing,
            A::Skip => ir::Act::Skip,
            A::Reverse => ir::Act::Reverse,
            A::PlayAgain => ir::Act::Again,
            A::Run(name) => {
                self.script_fn(layer, name)?;
                self.script_fx.push(ir::ScriptFx {
                    func: name.node.clone(),
                    rank,
                    lo: self.window.0,
                    table: None,
                    origin,
                });
                self.fx_spans.push((layer, name.span));
                ir::Act::Script((self.script_fx.len() - 1) as u16)
            }
            A::Outcome(o) => {
                let text = self.layers[layer].source.text[o.span.start..o.span.end].to_string();
                let list = vec![self.outcome(layer, o, subject)?];
                self.outcomes.push(ir::Outcomes { list, origin, text });
                ir::Act::Outcomes((self.outcomes.len() - 1) as u16)
            }
        })
    }

    fn cond(&mut self, layer: usize, cond: &ast::Condition) -> Option<u16> {
        let mut any_of: Vec<Vec<ir::Test>> = vec![Vec::new()];
        for (and, test) in &cond.tests {
            let t = match &test.node {
                ast::Test::Even => ir::Test::Even,
                ast::Test::Odd => ir::Test::Odd,
                ast::Test::AtLeast(a) => ir::Test::AtLeast(self.amount_i32(layer, a)?),
                ast::Test::AtMost(a) => ir::Test::AtMost(self.amount_i32(layer, a)?),
                ast::Test::Above(a) => ir::Test::Above(self.amount_i32(layer, a)?),
                ast::Test::Below(a) => ir::Test::Below(self.amount_i32(layer, a)?),
                ast::Test::Exactly(a) => ir::Test::Exactly(self.amount_i32(layer, a)?),
                ast::Test::Script(name) => ir::Test::Script(self.script_test(layer, name)?),
            };
            if !and {
                any_of.push(Vec::new());
            }
            any_of.last_mut().expect("never empty").push(t);
        }
        let cond = ir::Cond { any_of };
        let idx = self
            .conds
            .iter()
            .position(|c| *c == cond)
            .unwrap_or_else(|| {
                self.conds.push(cond);
                self.conds.len() - 1
            });
        Some(idx as u16)
    }

    fn outcomes(
        &mut self,
        layer: usize,
        list: &[ast::Outcome],
        origin: Origin,
        text: String,
    ) -> Option<u16> {
        let mut subject = ast::Who::Player;
        let mut out = Vec::new();
        for o in list {
            out.push(self.outcome(layer, o, &mut subject)?);
        }
        self.outcomes.push(ir::Outcomes {
            list: out,
            origin,
            text,
        });
        Some((self.outcomes.len() - 1) as u16)
    }

    fn outcome(
        &mut self,
        layer: usize,
        o: &ast::Outcome,
        subject: &mut ast::Who,
    ) -> Option<ir::Outcome> {
        if let Some(w) = o.who {
            *subject = w;
        }
        let who = who_ir(*subject);
        let kind = match &o.kind {
            ast::OutcomeKind::Pays { amount, to } => {
                let n = self.amount_i32(layer, amount)?;
                if n < 0 {
                    self.err(
                        layer,
                        Diag::error("bad-number", amount.span, format!("a player cannot pay {n} chips"))
                            .hint("to give chips to a player, have the others pay them: `each other player pays 1 to the player`"),
                    );
                    return None;
                }
                let to = match to {
                    ast::Target::Bank => ir::Target::Bank,
                    ast::Target::Pot => ir::Target::Pot,
                    ast::Target::Seat(w) => ir::Target::Seat(who_ir(*w)),
                };
                if matches!(to, ir::Target::Seat(w) if w == who)
                    && matches!(
                        who,
                        ir::Who::Player | ir::Who::Next | ir::Who::Winner | ir::Who::Loser
                    )
                {
                    self.err(
                        layer,
                        Diag::warning(
                            "pays-self",
                            o.span,
                            "a player pays themselves here: nothing changes",
                        )
                        .hint("pay the bank, the pot or another player"),
                    );
                }
                ir::OutcomeKind::Pay { amount: n, to }
            }
            ast::OutcomeKind::WinsRound => ir::OutcomeKind::WinRound,
            ast::OutcomeKind::LosesRound => ir::OutcomeKind::LoseRound,
            ast::OutcomeKind::OutOfRound => ir::OutcomeKind::OutOfRound,
            ast::OutcomeKind::OutOfGame => ir::OutcomeKind::OutOfGame,
            ast::OutcomeKind::Resets { pile } => ir::OutcomeKind::ResetTotal(*pile),
            ast::OutcomeKind::RoundEnds => ir::OutcomeKind::EndRound,
            ast::OutcomeKind::TakesPot => ir::OutcomeKind::TakePot,
        };
        Some(ir::Outcome { who, kind })
    }

    /// Every bar must be reachable by some sequence of cards from the starting total.
    fn check_reachability(
        &mut self,
        p: &ir::Program,
        bars: &[((i64, bool), BarLine)],
        reach: &Reach,
    ) {
        let passes = &reach.passes;
        for ((value, passing), set) in bars {
            let v = *value as i32;
            if let Some(c) = p.ceiling
                && (v > c.value || (*passing && v >= c.value))
            {
                let (message, hint) = if *passing && v == c.value {
                    (
                        format!("the total may not go above {v}, so no card can ever pass {v}"),
                        format!(
                            "to make passing {v} cost something, remove `the total may not go above {v}`; or say what happens on reaching it"
                        ),
                    )
                } else {
                    (
                        format!(
                            "the total may not go above {}, so it never gets to {v}",
                            c.value
                        ),
                        format!("a bar must be at most {}", c.value),
                    )
                };
                self.err(
                    set.layer,
                    Diag::error("bar-above-limit", set.span, message).hint(hint),
                );
                continue;
            }
            let either = set.value.1;
            let ok = if *passing {
                passes
                    .iter()
                    .any(|&(a, b)| (a < v && b > v) || (either && a > v && b < v))
            } else {
                passes
                    .iter()
                    .any(|&(a, b)| b == v && (a < v || (either && a > v)))
            };
            if !ok {
                let what = if *passing { "passes" } else { "reaches" };
                let from_above = if *passing {
                    passes.iter().any(|&(a, b)| a > v && b < v)
                } else {
                    passes.iter().any(|&(a, b)| b == v && a > v)
                };
                let hint = if !either && from_above {
                    format!(
                        "the total only gets there going down; bars count going up unless the line says so: `on {} {v} either way: ...`",
                        if *passing { "passing" } else { "reaching" }
                    )
                } else {
                    "change the bar's number, or the card values that should get there".to_string()
                };
                self.err(
                    set.layer,
                    Diag::error(
                        "bar-unreachable",
                        set.span,
                        format!(
                            "no card ever {what} {v}{}",
                            if either { "" } else { " going up" }
                        ),
                    )
                    .label("never happens")
                    .hint(hint),
                );
            }
        }
    }

    /// Warns when no rule can ever cost a chip or put a player out: such a game never ends.
    fn check_can_end(&mut self, p: &ir::Program, bust_line: Option<(usize, Span)>) {
        if p.rounds.is_some() || self.diags.iter().any(Diag::is_error) {
            return;
        }
        let costs = p
            .outcomes
            .iter()
            .flat_map(|o| &o.list)
            .any(|o| match o.kind {
                ir::OutcomeKind::Pay { amount, .. } => amount > 0,
                ir::OutcomeKind::OutOfGame => true,
                ir::OutcomeKind::WinRound
                | ir::OutcomeKind::LoseRound
                | ir::OutcomeKind::OutOfRound
                | ir::OutcomeKind::ResetTotal(_)
                | ir::OutcomeKind::EndRound
                | ir::OutcomeKind::TakePot => false,
            });
        if !costs {
            let last = self.layers.len() - 1;
            let (layer, span, snippet) =
                bust_line.map_or((last, Span::default(), false), |(l, s)| (l, s, true));
            let mut d = Diag::warning("never-ends", span, "under these rules no one ever loses a chip or leaves the game: it cannot end")
                .label("costs nothing")
                .hint("add a penalty, like `when a player cannot play: the player pays 1 and loses the round`, or `the game ends after 10 rounds`");
            if !snippet {
                d = d.without_snippet();
            }
            self.err(layer, d);
        }
    }
}

/// The totals a game can reach from its start, and every move between two of them.
struct Reach {
    seen: BTreeSet<i32>,
    passes: BTreeSet<(i32, i32)>,
}

fn reachable(p: &ir::Program) -> Reach {
    let top = p.bars.iter().map(|b| b.value).max().unwrap_or(0);
    let hi = p.ceiling.map_or(top.max(p.start) + 200, |c| c.value);
    let lo = p
        .floor
        .map_or(-(top.abs().max(p.start.abs())) - 200, |f| f.value);
    let mut seen: BTreeSet<i32> = BTreeSet::new();
    let mut passes: BTreeSet<(i32, i32)> = BTreeSet::new();
    let mut queue = vec![p.start];
    seen.insert(p.start);
    let effects: BTreeSet<u16> = p.rank_fx[usize::from(p.min_players)..=usize::from(p.max_players)]
        .iter()
        .flatten()
        .copied()
        .filter(|e| *e != NO_EFFECT)
        .collect();
    while let Some(t) = queue.pop() {
        for &e in &effects {
            for choice in p.effects[usize::from(e)].choices() {
                let next = crate::engine::choice_total(p, choice, t);
                if !crate::engine::State::allowed(p, next) {
                    continue;
                }
                passes.insert((t, next));
                if (lo..=hi).contains(&next) && seen.insert(next) {
                    queue.push(next);
                }
            }
        }
    }
    Reach { seen, passes }
}

fn who_ir(w: ast::Who) -> ir::Who {
    match w {
        ast::Who::Player => ir::Who::Player,
        ast::Who::EachOther => ir::Who::EachOther,
        ast::Who::Every => ir::Who::Every,
        ast::Who::Winner => ir::Who::Winner,
        ast::Who::Loser => ir::Who::Loser,
        ast::Who::Next => ir::Who::Next,
        ast::Who::EachOut => ir::Who::EachOut,
    }
}

fn default_label(c: &ir::Choice, index: usize) -> String {
    for s in c.steps() {
        match s.then {
            ir::Act::Add(n) if s.cond.is_none() => {
                return n.to_string();
            }
            ir::Act::Set(n) if s.cond.is_none() => return format!("={n}"),
            _ => {}
        }
    }
    (index + 1).to_string()
}

fn applies(mode: Mode, n: usize) -> bool {
    match mode {
        None => true,
        Some((k, false)) => k as usize == n,
        Some((k, true)) => k as usize <= n,
    }
}

fn mode_words(mode: Mode) -> String {
    match mode {
        None => String::new(),
        Some((n, false)) => format!(" with {n} players"),
        Some((n, true)) => format!(" with {n} or more players"),
    }
}

fn allows(range: &OptRange, v: OptValue) -> bool {
    match range {
        OptRange::Between(lo, hi) => matches!(v, OptValue::Number(n) if (*lo..=*hi).contains(&n)),
        OptRange::OneOf(list) => list.iter().any(|x| x.as_number() == v.as_number()),
        OptRange::YesNo => matches!(v, OptValue::Yes | OptValue::No),
    }
}

fn allowed(range: &OptRange) -> String {
    match range {
        OptRange::Between(lo, hi) => format!("from {lo} to {hi}"),
        OptRange::OneOf(list) => {
            let words: Vec<String> = list
                .iter()
                .map(|v| match v {
                    OptValue::Number(n) => n.to_string(),
                    OptValue::Yes => "yes".into(),
                    OptValue::No => "no".into(),
                })
                .collect();
            format!("one of {}", words.join(", "))
        }
        OptRange::YesNo => "yes or no".into(),
    }
}

fn ir_keyword(name: &str) -> bool {
    matches!(
        name,
        "card" | "players" | "hand" | "total" | "decks" | "jokers" | "option" | "name"
    )
}

fn trigger_words(t: ast::Trigger) -> &'static str {
    match t {
        ast::Trigger::CannotPlay => "what happens when a player cannot play",
        ast::Trigger::NoCards => "what happens when a player has no cards",
        ast::Trigger::RoundStart => "the start of each round",
        ast::Trigger::RoundEnd => "the end of each round",
        ast::Trigger::GameEnd => "the end of the game",
    }
}

/// The byte offset of a 1-based line and column.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            return (offset + column.saturating_sub(1))
                .min(offset + l.trim_end_matches(['\n', '\r']).len());
        }
        offset += l.len();
    }
    text.len()
}

/// A script that failed when tried at check time.
fn script_diag(span: Span, total: i32, e: &crate::script::ScriptError) -> Diag {
    Diag::error(
        "script-fails",
        span,
        format!("the script `{}` fails when the total is {total}: {}", e.function, e.message),
    )
    .label(format!("in {}", e.place))
    .hint("scripts are tried on every total when the ruleset is checked; fix the function, or check `game.total` before using it")
}
