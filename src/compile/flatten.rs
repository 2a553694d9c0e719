//! A variant flattened into one standalone ruleset (`ninety rules NAME --format rules`): every
//! setting, card, bar and moment as the file that decides it wrote it, the parents' lines that
//! a variant replaced or removed left out, its scripts inlined. Guards (`if {option}:`) are
//! resolved for the option values given, and option declarations keep those values as their
//! defaults, so the flat file compiles to the same program.

use std::fmt::Write as _;

use super::chain::load_chain;
use super::compiler::{Compiler, Count};
use super::loader::Loader;
use super::options::Declared;
use super::settings::Settings;
use super::{Sets, Unreadable};
use crate::base::Span;
use crate::base::cards::RANK_NAMES;
use crate::base::span::strip_comment;
use crate::lang::ast::{self, OptRange, OptValue};

/// The ruleset at `path`, flattened. `Err` holds the diagnostics when it does not check.
///
/// A line switched by an option (`if {by_hand}: players draw by hand`) keeps its switch: the
/// chain is collected once for each way the switching options can go, and a setting decided
/// by different lines as one option goes one way or the other is written with `if {option}:`
/// and `if not {option}:`. So the flat file plays the same games under every `--set`.
pub fn flatten(loader: &dyn Loader, path: &str, sets: &Sets) -> Result<String, String> {
    let checked = super::check(loader, path, sets).map_err(|e: Unreadable| e.to_string())?;
    if checked.program.is_none() {
        let errors: Vec<String> = checked
            .diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.render_plain(100))
            .collect();
        return Err(format!("{path} does not check:\n{}", errors.join("\n")));
    }
    let (bytes, home) = super::root(loader, path).map_err(|e| e.to_string())?;
    let mut diags = Vec::new();
    let layers = load_chain(loader, path, &bytes, home, &mut diags);
    let mut c = Compiler::new(&layers);
    c.set_options(sets);
    // Collected once so that the options a variant removes (`no option chips`) are marked.
    let _ = c.collect();
    let switches = switching_options(&c);
    let now: usize = switches
        .iter()
        .enumerate()
        .filter(|(_, n)| c.options.get(*n).is_some_and(|d| d.value != 0))
        .fold(0, |m, (i, _)| m | 1 << i);
    // Every way the switches can go, the way they go now first.
    let ways: Vec<usize> = if switches.len() > MAX_SWITCHES {
        vec![now]
    } else {
        std::iter::once(now)
            .chain((0..1usize << switches.len()).filter(|&m| m != now))
            .collect()
    };
    let mut by_way: Vec<(usize, Vec<Entry>)> = Vec::new();
    for &way in &ways {
        let mut cw = Compiler::new(&layers);
        cw.set_options(sets);
        for (i, name) in switches.iter().enumerate() {
            if let Some(d) = cw.options.get_mut(name) {
                let on = way & (1 << i) != 0;
                d.value = match (on, d.value) {
                    (false, _) => 0,
                    (true, 0) => 1,
                    (true, v) => v,
                };
            }
        }
        let s = cw.collect();
        let entries = Flat {
            c: &cw,
            out: String::new(),
        }
        .entries(&s);
        by_way.push((way, entries));
    }
    let mut flat = Flat {
        c: &c,
        out: String::new(),
    };
    flat.header();
    flat.options();
    flat.scripts();
    flat.merged(&switches, &by_way);
    Ok(flat.out)
}

/// At most this many options switching lines are kept as switches (2^6 collections); past
/// it, the flat file is written for the values given.
const MAX_SWITCHES: usize = 6;

/// The options some line is switched by (`if {name}:`), declared ones only.
fn switching_options(c: &Compiler<'_>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for layer in c.layers {
        for st in &layer.file.statements {
            if let Some((_, name)) = &st.guard
                && c.options.contains_key(&name.node)
                && !out.contains(&name.node)
            {
                out.push(name.node.clone());
            }
        }
    }
    out
}

/// One line of the flat file: what it decides (a key), where it was written, and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    key: String,
    at: (usize, usize),
    text: String,
}

/// The flat file being written.
struct Flat<'c, 'a> {
    c: &'c Compiler<'a>,
    out: String,
}

impl Flat<'_, '_> {
    fn header(&mut self) {
        let names: Vec<String> = self
            .c
            .layers
            .iter()
            .map(|l| super::chain::file_name(&l.path))
            .collect();
        let _ = writeln!(
            self.out,
            "# Flattened from {}: each line as the file that decides it wrote it.",
            names.join(" ← ")
        );
        let _ = writeln!(
            self.out,
            "# Scenarios are left out: they stay with their files.\n"
        );
    }

    /// The options the game uses, with the values given as their defaults.
    fn options(&mut self) {
        for (name, d) in &self.c.options {
            if d.removed {
                continue;
            }
            let _ = writeln!(self.out, "option {name} = {}", option_tail(d));
        }
    }

    /// The lines of every way the switches go, merged: a key decided by one line whichever
    /// way they go is written once; one that a switch decides is written under it.
    fn merged(&mut self, switches: &[String], by_way: &[(usize, Vec<Entry>)]) {
        let mut keys: Vec<String> = Vec::new();
        for (_, entries) in by_way {
            for e in entries {
                if !keys.contains(&e.key) {
                    keys.push(e.key.clone());
                }
            }
        }
        for key in keys {
            let decider = |way: usize| -> Option<&Entry> {
                by_way
                    .iter()
                    .find(|(w, _)| *w == way)
                    .and_then(|(_, es)| es.iter().find(|e| e.key == key))
            };
            let first = decider(by_way[0].0);
            if by_way.iter().all(|(w, _)| decider(*w) == first) {
                if let Some(e) = first {
                    let _ = writeln!(self.out, "{}", e.text);
                }
                continue;
            }
            // The one switch that decides it: the same line whenever that switch goes the
            // same way.
            let switch = (0..switches.len()).find(|&i| {
                by_way.iter().all(|(w, _)| {
                    by_way
                        .iter()
                        .filter(|(v, _)| (v & (1 << i)) == (w & (1 << i)))
                        .all(|(v, _)| decider(*v) == decider(*w))
                })
            });
            match switch {
                Some(i) => {
                    let on = by_way.iter().find(|(w, _)| w & (1 << i) != 0);
                    let off = by_way.iter().find(|(w, _)| w & (1 << i) == 0);
                    let name = &switches[i];
                    if let Some(e) = on.and_then(|(w, _)| decider(*w)) {
                        let _ = writeln!(self.out, "if {{{name}}}: {}", e.text);
                    }
                    if let Some(e) = off.and_then(|(w, _)| decider(*w)) {
                        let _ = writeln!(self.out, "if not {{{name}}}: {}", e.text);
                    }
                }
                None => {
                    if let Some(e) = first {
                        let _ = writeln!(
                            self.out,
                            "{}  # with other option values another line decides this",
                            e.text
                        );
                    }
                }
            }
        }
    }

    /// The text of a span of a layer, without its comment.
    fn text(&self, layer: usize, span: Span) -> String {
        strip_comment(&self.c.text(layer, span)).trim().to_string()
    }

    /// Every line the settings keep, in the flat file's order, with what it decides.
    fn entries(&self, s: &Settings) -> Vec<Entry> {
        let mut out = Vec::new();
        let mut one = |key: &str, layer: usize, line: usize, text: String| {
            out.push(Entry {
                key: key.to_string(),
                at: (layer, line),
                text,
            });
        };
        macro_rules! slot {
            ($key:literal, $d:expr) => {
                if let Some(d) = $d {
                    one($key, d.layer, d.line, self.text(d.layer, d.span));
                }
            };
        }
        slot!("name", &s.name);
        slot!("about", &s.about);
        slot!("players", &s.players);
        for (count, d) in &s.decks {
            one(
                &format!("decks{}", count.words()),
                d.layer,
                d.line,
                self.text(d.layer, d.span),
            );
        }
        for (count, d) in &s.hands {
            one(
                &format!("hand{}", count.words()),
                d.layer,
                d.line,
                self.text(d.layer, d.span),
            );
        }
        slot!("jokers", &s.jokers);
        slot!("chips", &s.chips);
        slot!("start", &s.start);
        slot!("ceiling", &s.ceiling);
        slot!("floor", &s.floor);
        slot!("teams", &s.teams);
        slot!("direction", &s.clockwise);
        slot!("drawing", &s.by_hand);
        slot!("stock", &s.reshuffle);
        slot!("deal", &s.deal_clockwise);
        slot!("winner", &s.winner);
        slot!("elimination", &s.cannot_pay);
        slot!("first dealer", &s.first_dealer);
        slot!("leader", &s.leader);
        slot!("game end", &s.ending);
        for ((rank, count), d) in &s.cards {
            let with = match count {
                Count::Any => String::new(),
                Count::Exactly(_) | Count::AtLeast(_) => count.words(),
            };
            let name = RANK_NAMES[usize::from(*rank)];
            one(
                &format!("card {name}{with}"),
                d.layer,
                d.line,
                format!("card {name}{with}: {}", d.value.text),
            );
        }
        for ((value, passing), d) in &s.bars {
            let outcomes = self.outcomes(d.layer, &d.value.outcomes);
            let kind = if *passing { "passing" } else { "reaching" };
            let way = match d.value.way {
                None => "",
                Some(ast::Way::Up) => " going up",
                Some(ast::Way::Down) => " going down",
                Some(ast::Way::Both) => " either way",
            };
            one(
                &format!("{kind} {value}"),
                d.layer,
                d.line,
                format!("on {kind} {value}{way}: {outcomes}"),
            );
        }
        for b in &s.script_bars {
            let t = strip_comment(&b.text).trim().to_string();
            one(
                &format!("script bar {}:{}", b.layer, b.line),
                b.layer,
                b.line,
                t,
            );
        }
        for (t, d) in &s.triggers {
            let text = strip_comment(&d.value.text).trim().to_string();
            one(&format!("when {t:?}"), d.layer, d.line, text);
        }
        // A trigger's cases in the order they are tried: a variant's before its parents'.
        let mut cases: Vec<_> = s.cases.iter().collect();
        cases.sort_by_key(|d| std::cmp::Reverse(d.layer));
        for d in cases {
            let text = self.text(d.layer, d.span);
            one(&format!("case {text}"), d.layer, d.line, text);
        }
        // Counts, moments (`the round ends ...` among them) and moves beside laying a card
        // are kept in the order written, each line whole; a line is its own key, so one an
        // option switches is written under its switch.
        for d in &s.counts {
            let key = format!("count {}", d.value.name.node.to_lowercase());
            one(&key, d.layer, d.line, self.text(d.layer, d.span));
        }
        for d in &s.moments {
            let text = self.text(d.layer, d.span);
            one(&format!("moment {text}"), d.layer, d.line, text);
        }
        for d in &s.others {
            let text = self.text(d.layer, d.span);
            one(&format!("move {text}"), d.layer, d.line, text);
        }
        out
    }

    /// Every script of the chain, inline, in the order the host compiles them.
    fn scripts(&mut self) {
        for layer in self.c.layers {
            for src in &layer.file.scripts {
                let _ = write!(self.out, "script\n{}", src.text);
                if !src.text.ends_with('\n') && !src.text.is_empty() {
                    self.out.push('\n');
                }
                self.out.push_str("end\n");
            }
        }
    }

    fn outcomes(&self, layer: usize, list: &[ast::Outcome]) -> String {
        match (list.first(), list.last()) {
            (Some(a), Some(b)) => self.text(layer, Span::new(a.span.start, b.span.end)),
            _ => String::new(),
        }
    }
}

/// `3 from 1 to 10`, `199, one of 199, 299`, `yes`: an option's value now and its range.
fn option_tail(d: &Declared) -> String {
    let word = |v: i64| match d.range {
        OptRange::YesNo if v != 0 => "yes".to_string(),
        OptRange::YesNo => "no".to_string(),
        OptRange::Between(..) | OptRange::OneOf(_) => v.to_string(),
    };
    match &d.range {
        OptRange::Between(lo, hi) => format!("{} from {lo} to {hi}", d.value),
        OptRange::OneOf(list) => {
            let values: Vec<String> = list
                .iter()
                .map(|v| match v {
                    OptValue::Number(n) => n.to_string(),
                    OptValue::Yes => "yes".into(),
                    OptValue::No => "no".into(),
                })
                .collect();
            format!("{}, one of {}", word(d.value), values.join(", "))
        }
        OptRange::YesNo => word(d.value),
    }
}
