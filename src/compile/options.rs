//! Options: declared in any file of the chain (a variant may redeclare one to change its
//! default), given values on the command line or by a scenario, and used as `{name}`.

use std::collections::HashMap;

use super::Sets;
use super::compiler::Compiler;
use crate::base::diag::{Diag, unknown_option_hint};
use crate::base::{Code, Span};
use crate::lang::ast::{OptRange, OptValue, StatementKind};

/// A declared option and its value in this compilation.
#[derive(Debug, Clone)]
pub(super) struct Declared {
    pub value: i64,
    pub default: i64,
    pub range: OptRange,
    pub layer: usize,
    pub span: Span,
    pub line: usize,
    pub used: bool,
    /// A variant said `no option NAME`.
    pub removed: bool,
}

impl Compiler<'_> {
    /// Declares every option of the chain, then applies the values given.
    pub fn set_options(&mut self, sets: &Sets) {
        for li in 0..self.layers.len() {
            self.declare_options(li);
        }
        for (name, text) in sets {
            self.give_value(name, text);
        }
    }

    /// The options one file declares.
    fn declare_options(&mut self, li: usize) {
        let layer = &self.layers[li];
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
                        Code::OptionTwice,
                        name.span,
                        format!("the option `{}` is declared twice", name.node),
                    )
                    .also(first, "first declared here")
                    .hint("keep one declaration")
                    .in_source(&layer.source),
                );
            }
            if is_keyword(&name.node) {
                self.diags.push(
                    Diag::warning(
                        Code::OptionName,
                        name.span,
                        format!("`{}` is also a keyword", name.node),
                    )
                    .hint("it works, but a different name (`lives`, `cap`) reads more clearly")
                    .in_source(&layer.source),
                );
            }
            let empty_range = matches!(range, OptRange::Between(lo, hi) if lo > hi);
            if let OptRange::Between(lo, hi) = range
                && empty_range
            {
                let swapped = format!("from {hi} to {lo}");
                let mut diag = Diag::error(
                    Code::OptionRange,
                    st.span,
                    format!("the range {lo} to {hi} is empty"),
                )
                .hint(format!("write the smaller number first: `{swapped}`"))
                .in_source(&layer.source);
                // The range is the statement's tail: `from 10 to 1`.
                let text = layer.source.text[st.span.start..st.span.end].to_ascii_lowercase();
                if let Some(at) = text.rfind("from") {
                    diag = diag.fix(Span::new(st.span.start + at, st.span.end), swapped);
                }
                self.diags.push(diag);
            }
            if !empty_range && !allows(range, default.node) {
                self.diags.push(
                    Diag::error(
                        Code::OptionDefault,
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
            let value = default.node.as_number();
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
                    removed: false,
                },
            );
        }
    }

    /// `--set name=text`.
    fn give_value(&mut self, name: &str, text: &str) {
        let Some(decl) = self.options.get_mut(name) else {
            let names: Vec<&str> = self.options.keys().map(String::as_str).collect();
            let hint = unknown_option_hint(name, &names, |n| format!("--set {n}={text}"));
            self.diags.push(
                Diag::error(
                    Code::UnknownOption,
                    Span::default(),
                    format!("`--set {name}`: this ruleset has no option `{name}`"),
                )
                .hint(hint),
            );
            return;
        };
        match parse_value(text) {
            Some(v) if allows(&decl.range, v) => {
                decl.value = v.as_number();
                self.given.push(name.to_string());
            }
            _ => {
                let msg = format!(
                    "`--set {name}={text}`: `{name}` must be {}",
                    allowed(&decl.range)
                );
                let (span, layer) = (decl.span, decl.layer);
                let hint = match &decl.range {
                    OptRange::Between(lo, hi) => format!("choose a number from {lo} to {hi}"),
                    OptRange::YesNo => "choose yes or no".to_string(),
                    OptRange::OneOf(_) => format!("choose {}", allowed(&decl.range)),
                };
                self.err(
                    layer,
                    Diag::error(Code::OptionValue, span, msg)
                        .label("declared here")
                        .hint(hint),
                );
            }
        }
    }
}

/// An option's value as typed: `5`, `yes`, `off`.
fn parse_value(text: &str) -> Option<OptValue> {
    match text.to_ascii_lowercase().as_str() {
        "yes" | "on" | "true" => Some(OptValue::Yes),
        "no" | "off" | "false" => Some(OptValue::No),
        t => t.parse::<i64>().ok().map(OptValue::Number),
    }
}

pub(super) fn allows(range: &OptRange, v: OptValue) -> bool {
    match range {
        OptRange::Between(lo, hi) => matches!(v, OptValue::Number(n) if (*lo..=*hi).contains(&n)),
        OptRange::OneOf(list) => list.iter().any(|x| x.as_number() == v.as_number()),
        OptRange::YesNo => matches!(v, OptValue::Yes | OptValue::No),
    }
}

/// The allowed values in words: `from 1 to 10`, `one of 199, 299`, `yes or no`.
pub(super) fn allowed(range: &OptRange) -> String {
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

fn is_keyword(name: &str) -> bool {
    matches!(
        name,
        "card" | "players" | "hand" | "total" | "decks" | "jokers" | "option" | "name"
    )
}
