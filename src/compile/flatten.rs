//! A variant flattened into one standalone ruleset (`ninety rules NAME --format rules`): every
//! setting, card, bar and moment as the file that decides it wrote it, the parents' lines that
//! a variant replaced or removed left out, its scripts inlined. Guards (`if {option}:`) are
//! resolved for the option values given, and option declarations keep those values as their
//! defaults, so the flat file compiles to the same program.

use std::fmt::Write as _;

use super::chain::load_chain;
use super::compiler::{Compiler, Count, Decided};
use super::loader::Loader;
use super::options::Declared;
use super::settings::Settings;
use super::{Sets, Unreadable};
use crate::base::Span;
use crate::base::cards::RANK_NAMES;
use crate::base::span::strip_comment;
use crate::lang::ast::{self, OptRange, OptValue};

/// The ruleset at `path`, flattened. `Err` holds the diagnostics when it does not check.
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
    let s = c.collect();
    Ok(Flat {
        c: &c,
        out: String::new(),
    }
    .write(&s))
}

/// The flat file being written.
struct Flat<'c, 'a> {
    c: &'c Compiler<'a>,
    out: String,
}

impl Flat<'_, '_> {
    fn write(mut self, s: &Settings) -> String {
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
        self.settings(s);
        self.scripts();
        self.cards(s);
        self.bars(s);
        self.moments(s);
        self.out
    }

    /// The text of a span of a layer, without its comment.
    fn text(&self, layer: usize, span: Span) -> String {
        strip_comment(&self.c.text(layer, span)).trim().to_string()
    }

    /// The statement that decided a setting, as it was written.
    fn line<T>(&mut self, d: &Option<Decided<T>>) {
        if let Some(d) = d {
            let t = self.text(d.layer, d.span);
            let _ = writeln!(self.out, "{t}");
        }
    }

    fn settings(&mut self, s: &Settings) {
        self.line(&s.name);
        self.line(&s.about);
        let options: Vec<(String, Declared)> = self
            .c
            .options
            .iter()
            .map(|(n, d)| (n.clone(), d.clone()))
            .collect();
        for (name, d) in options {
            let _ = writeln!(self.out, "option {name} = {}", option_tail(&d));
        }
        self.line(&s.players);
        for d in s.decks.values().chain(s.hands.values()) {
            let t = self.text(d.layer, d.span);
            let _ = writeln!(self.out, "{t}");
        }
        for slot in [
            &s.jokers, &s.chips, &s.start, &s.ceiling, &s.floor, &s.teams,
        ] {
            self.line(slot);
        }
        for slot in [
            &s.clockwise,
            &s.by_hand,
            &s.reshuffle,
            &s.deal_clockwise,
            &s.most_chips,
            &s.cannot_pay,
        ] {
            self.line(slot);
        }
        self.line(&s.first_dealer);
        self.line(&s.leader);
        self.line(&s.rounds);
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

    fn cards(&mut self, s: &Settings) {
        for ((rank, count), d) in &s.cards {
            let with = match count {
                Count::Any => String::new(),
                other => other.words(),
            };
            let _ = writeln!(
                self.out,
                "card {}{with}: {}",
                RANK_NAMES[usize::from(*rank)],
                d.value.text
            );
        }
    }

    fn bars(&mut self, s: &Settings) {
        for ((value, passing), d) in &s.bars {
            let outcomes = self.outcomes(d.layer, &d.value.outcomes);
            let _ = writeln!(
                self.out,
                "on {} {value}{}: {outcomes}",
                if *passing { "passing" } else { "reaching" },
                match d.value.way {
                    None => "",
                    Some(ast::Way::Up) => " going up",
                    Some(ast::Way::Down) => " going down",
                    Some(ast::Way::Both) => " either way",
                }
            );
        }
        for b in &s.script_bars {
            let t = strip_comment(&b.text).trim().to_string();
            let _ = writeln!(self.out, "{t}");
        }
    }

    fn moments(&mut self, s: &Settings) {
        for d in s.triggers.values() {
            let t = strip_comment(&d.value.text).trim().to_string();
            let _ = writeln!(self.out, "{t}");
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
        _ => v.to_string(),
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
