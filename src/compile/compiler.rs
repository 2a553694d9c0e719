//! The compiler's state while it works through the layers of a ruleset: diagnostics so far,
//! options, the tables it fills, and the small types its passes share.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::Layer;
use super::options::Declared;
use crate::base::diag::{Diag, did_you_mean};
use crate::base::{Code, Span, Spanned};
use crate::ir::{self, Origin};
use crate::lang::ast::{self, Amount, SAmount};
use crate::script::Host;

/// A value and where it was decided: the layer, the span and line of its statement.
#[derive(Debug, Clone)]
pub(super) struct Decided<T> {
    pub value: T,
    pub layer: usize,
    pub span: Span,
    pub line: usize,
}

/// The player counts a line applies to: any, `with 2 players`, `with 5 or more players`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Count {
    Any,
    Exactly(i64),
    AtLeast(i64),
}

impl Count {
    /// Lines sort the general one first, then by count, an exact count before `or more`.
    fn key(self) -> (bool, i64, bool) {
        match self {
            Count::Any => (false, 0, false),
            Count::Exactly(n) => (true, n, false),
            Count::AtLeast(n) => (true, n, true),
        }
    }

    /// Whether the line applies with `n` players.
    pub fn applies(self, n: usize) -> bool {
        match self {
            Count::Any => true,
            Count::Exactly(k) => k as usize == n,
            Count::AtLeast(k) => k as usize <= n,
        }
    }

    /// ` with 2 players`, ` with 5 or more players`, or nothing.
    pub fn words(self) -> String {
        match self {
            Count::Any => String::new(),
            Count::Exactly(n) => format!(" with {n} players"),
            Count::AtLeast(n) => format!(" with {n} or more players"),
        }
    }
}

impl PartialOrd for Count {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Count {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(&other.key())
    }
}

/// The most specific line of a per-count table that applies with `n` players: the exact
/// count, then the highest `or more` not above `n`, then the general line.
pub(super) fn most_specific<T>(lines: &BTreeMap<Count, T>, n: usize) -> Option<&T> {
    let exact = lines.get(&Count::Exactly(n as i64));
    let more = lines
        .iter()
        .filter(|(c, _)| matches!(c, Count::AtLeast(k) if *k as usize <= n))
        .max_by_key(|(c, _)| c.key())
        .map(|(_, v)| v);
    exact.or(more).or(lines.get(&Count::Any))
}

/// The compiler at work.
pub(super) struct Compiler<'a> {
    pub layers: &'a [Layer],
    pub diags: Vec<Diag>,
    pub options: BTreeMap<String, Declared>,
    pub conds: Vec<ir::Cond>,
    pub outcomes: Vec<ir::Outcomes>,
    /// Statements that were written but could not be read fully (an undeclared option, a bad
    /// number): later checks do not report them as missing, so one fault gives one diagnostic.
    pub attempted: BTreeSet<&'static str>,
    /// A card line named an unknown rank or a bad range.
    pub card_errors: bool,
    /// An option was used but never declared (perhaps misspelt).
    pub undeclared: bool,
    /// The ruleset's compiled scripts.
    pub host: Option<Arc<Host>>,
    /// The totals scripts are tabulated over.
    pub window: (i32, i32),
    /// Whether the limits allow more totals than the window holds.
    pub window_capped: bool,
    pub script_fx: Vec<ir::ScriptFx>,
    /// Where each `run NAME` was written.
    pub fx_spans: Vec<(usize, Span)>,
    pub script_tests: Vec<ir::ScriptTest>,
    /// A script did not compile: names it would define are not reported missing.
    pub script_errors: bool,
    /// Parents' lines a later file replaced or removed, for the options they leave unused.
    pub replaced: Vec<Replaced>,
    /// The options given a value on the command line (`--set`).
    pub given: Vec<String>,
    /// Where a line names `the next player` or `the previous player`, whose meaning
    /// depends on the cards' skips and extra turns (see `lints::roles`).
    pub roles: Vec<RoleUse>,
    /// What kind of line's outcomes are being lowered.
    pub lowering: Lowering,
    /// `no rule on reaching 66` (and passing): the value, passing, the layer and the span.
    pub half_removed: Vec<(i64, bool, usize, Span)>,
    /// Each layer's bars beside its parents', for `bars-kept` (by layer).
    pub bar_layers: Vec<BarLayer>,
    /// The counts the ruleset keeps, and whether a line reads each.
    pub counts: Vec<ir::CountInfo>,
    pub count_read: Vec<bool>,
    /// Amounts worked out from the table, as the program keeps them.
    pub exprs: Vec<ir::Expr>,
    /// Where a line reads `the limit` (which needs an upper limit to read).
    pub limit_reads: Vec<(usize, Span)>,
    /// What `the limit` is to a line that changes it.
    pub ceiling: super::changes::Ceiling,
    /// The count that holds the limit, once a line changes it.
    pub limit_count: Option<u8>,
}

/// What a layer says about bars, beside what its parents have.
#[derive(Debug, Default)]
pub(super) struct BarLayer {
    /// The totals the parents have a bar at when this layer starts.
    pub before: BTreeSet<i64>,
    /// The totals this layer's lines name: its bars, its `no` lines and its `keep` lines.
    pub named: BTreeSet<i64>,
    /// The bars this layer adds at totals no parent has one at, and where the first is.
    pub added: BTreeSet<i64>,
    pub first_added: Option<Span>,
    /// The totals this layer's `no bar at ...` lines remove, and where each is named.
    pub removed: Vec<(i64, Span)>,
    /// The totals this layer's `keep the bars at ...` lines keep, and where each is named.
    pub kept: Vec<(i64, Span)>,
}

/// What kind of line outcomes come from: a card's (its rank), a bar's, or a moment's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Lowering {
    Card(u8),
    Bar,
    Moment,
    /// A move beside laying a card.
    Other,
}

/// A line naming a role whose meaning depends on turn effects.
#[derive(Debug, Clone, Copy)]
pub(super) struct RoleUse {
    pub layer: usize,
    /// The outcome that names it.
    pub span: Span,
    pub who: ast::Who,
    pub from: Lowering,
}

/// A parent's line that a later file's line replaced (or a `no ...` line removed).
#[derive(Debug, Clone, Copy)]
pub(super) struct Replaced {
    /// The layer and line of the parent's line.
    pub old: (usize, usize),
    /// The layer and span of the line that replaced it.
    pub by: (usize, Span),
}

impl<'a> Compiler<'a> {
    pub fn new(layers: &'a [Layer]) -> Self {
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
            window_capped: false,
            script_fx: Vec::new(),
            fx_spans: Vec::new(),
            script_tests: Vec::new(),
            script_errors: false,
            replaced: Vec::new(),
            given: Vec::new(),
            roles: Vec::new(),
            lowering: Lowering::Moment,
            half_removed: Vec::new(),
            bar_layers: Vec::new(),
            counts: Vec::new(),
            count_read: Vec::new(),
            exprs: Vec::new(),
            limit_reads: Vec::new(),
            ceiling: super::changes::Ceiling::None,
            limit_count: None,
        }
    }

    /// The last layer: the ruleset itself.
    pub fn leaf(&self) -> usize {
        self.layers.len() - 1
    }

    pub fn err(&mut self, layer: usize, diag: Diag) {
        self.diags.push(diag.in_source(&self.layers[layer].source));
    }

    pub fn has_errors(&self) -> bool {
        self.diags.iter().any(Diag::is_error)
    }

    pub fn origin(&self, layer: usize, line: usize) -> Origin {
        Origin {
            file: layer as u16,
            line: line as u32,
        }
    }

    /// The text of a span of a layer's file.
    pub fn text(&self, layer: usize, span: Span) -> String {
        self.layers[layer].source.text[span.start..span.end].to_string()
    }

    /// The number an amount stands for; marks options as used.
    pub fn amount(&mut self, layer: usize, a: &SAmount) -> Option<i64> {
        match &a.node {
            Amount::Number(n) => Some(*n),
            Amount::Option(name) => {
                if let Some(decl) = self.options.get_mut(name) {
                    decl.used = true;
                    return Some(decl.value);
                }
                let names: Vec<String> = self.options.keys().cloned().collect();
                let suggestion = did_you_mean(name, names.iter().map(String::as_str));
                let hint = match suggestion {
                    Some(n) => format!("did you mean `{{{n}}}`?"),
                    None => {
                        format!("declare it first, for example `option {name} = 3 from 1 to 10`")
                    }
                };
                self.undeclared = true;
                let mut diag = Diag::error(
                    Code::UndeclaredOption,
                    a.span,
                    format!("the option `{name}` is used but never declared"),
                )
                .label("not declared")
                .hint(hint);
                if let Some(n) = suggestion {
                    // `{chips}` in an amount; the bare name in an `if {chips}:` guard.
                    let braced = self.text(layer, a.span).starts_with('{');
                    diag = diag.fix(a.span, if braced { format!("{{{n}}}") } else { n.into() });
                }
                self.err(layer, diag);
                None
            }
        }
    }

    pub fn amount_i32(&mut self, layer: usize, a: &SAmount) -> Option<i32> {
        self.amount(layer, a).map(|v| v as i32)
    }

    /// The player counts a `with ... players` clause names.
    pub fn count(&mut self, layer: usize, with: Option<&ast::WithPlayers>) -> Count {
        let Some(w) = with else {
            return Count::Any;
        };
        match self.amount(layer, &w.count) {
            None => Count::Any,
            Some(n) if w.or_more => Count::AtLeast(n),
            Some(n) => Count::Exactly(n),
        }
    }

    /// Whether a statement's `if {option}:` guard lets it apply; `None` when the option is
    /// not declared (reported).
    pub fn guard_holds(&mut self, layer: usize, guard: &(bool, Spanned<String>)) -> Option<bool> {
        let (negate, name) = guard;
        let amount = Spanned {
            node: Amount::Option(name.node.clone()),
            span: name.span,
        };
        let v = self.amount(layer, &amount)?;
        Some((v != 0) != *negate)
    }
}
