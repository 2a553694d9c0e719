//! Scripts: every piece of rhai in the chain compiled into one host, the functions a ruleset
//! names checked, and each tried at check time over the totals a game can hold — tabulated
//! when it reads only the total and the card.

use std::sync::Arc;

use super::compiler::Compiler;
use super::settings::ScriptBarLine;
use crate::base::diag::{Diag, Source, did_you_mean};
use crate::base::limits::{SCRIPT_WINDOW, grouped};
use crate::base::span::offset_of;
use crate::base::{Code, Span, Spanned};
use crate::ir::{self, ScriptError};
use crate::script::{self, Host, Piece};

impl Compiler<'_> {
    /// Compiles every script of the chain; a syntax error is a diagnostic at its line.
    pub fn compile_scripts(&mut self) {
        let mut pieces = Vec::new();
        let layers = self.layers;
        for (li, layer) in layers.iter().enumerate() {
            for src in &layer.file.scripts {
                match script::compile(&src.text) {
                    Ok(ast) => pieces.push(Piece {
                        ast,
                        file: src.path.clone().unwrap_or_else(|| layer.path.clone()),
                        first_line: src.line,
                        text: src.text.clone(),
                    }),
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
                                    Diag::error(Code::ScriptSyntax, Span::new(at, at + 1), message)
                                        .label("here")
                                        .hint(hint),
                                );
                            }
                            Some(path) => {
                                let source = Source::new(path.clone(), src.text.clone());
                                let at = offset_of(&src.text, e.line, e.column);
                                self.diags.push(
                                    Diag::error(Code::ScriptSyntax, Span::new(at, at + 1), message)
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
            let counts = self.counts.iter().map(|c| c.name.clone()).collect();
            self.host = Some(Arc::new(Host::with_counts(pieces, counts)));
        }
    }

    /// Checks that a script function exists and takes `game`.
    pub fn script_fn(&mut self, layer: usize, name: &Spanned<String>) -> Option<()> {
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
                Diag::error(Code::NoScripts, name.span, format!("`{}` is a script, but this ruleset has no scripts", name.node))
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
                        Code::ScriptArity,
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
                let suggestion = did_you_mean(&name.node, names.iter().copied());
                let hint = match suggestion {
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
                let diag = Diag::error(
                    Code::UnknownScript,
                    name.span,
                    format!("no script defines `{}`", name.node),
                )
                .label("unknown function")
                .hint(hint);
                let diag = match suggestion {
                    Some(n) => diag.fix(name.span, n),
                    None => diag,
                };
                self.err(layer, diag);
                None
            }
        }
    }

    /// A test written in rhai: tabulated now, so it must read only the total and the card,
    /// and the game may reach no total beyond the window it is tabulated over.
    pub fn script_test(&mut self, layer: usize, name: &Spanned<String>) -> Option<u16> {
        self.script_fn(layer, name)?;
        let host = self.host.clone()?;
        let (lo, hi) = self.window;
        if self.window_capped {
            self.err(
                layer,
                Diag::error(
                    Code::ScriptWindow,
                    name.span,
                    format!(
                        "the test `{}` cannot be worked out for every total: the limits allow more than {} totals",
                        name.node,
                        grouped(SCRIPT_WINDOW as u64)
                    ),
                )
                .label("too many totals")
                .hint(format!(
                    "a script test is worked out for every total the game can reach when the ruleset is checked: bring the limits within {} of each other, or make the rule a card effect (`run ...`), which runs live",
                    grouped(SCRIPT_WINDOW as u64 - 1)
                )),
            );
            return None;
        }
        match host.tabulate_test(&name.node, 0, lo, hi) {
            Ok(Some(table)) => {
                self.script_tests.push(ir::ScriptTest {
                    func: name.node.clone(),
                    doc: host.doc(&name.node).to_string(),
                    lo,
                    table,
                });
                Some((self.script_tests.len() - 1) as u16)
            }
            Ok(None) => {
                self.err(
                    layer,
                    Diag::error(Code::ScriptTestLive, name.span, format!("the test `{}` reads more than the total and the card", name.node))
                        .hint("a test is worked out for every total when the ruleset is checked; make the rule a card effect (`run ...`) to read the rest of the game"),
                );
                None
            }
            Err((t, e)) => {
                self.script_failed(layer, name.span, t, &e);
                None
            }
        }
    }

    /// Tabulates the card scripts that read only the total and the card, and tries the others
    /// and the script bars, so their mistakes show now rather than in a game.
    pub fn tabulate(&mut self, p: &mut ir::Program, bars: &[ScriptBarLine]) {
        let Some(host) = self.host.clone() else {
            if let Some(bar) = bars.first() {
                self.script_fn(bar.layer, &bar.func);
            }
            return;
        };
        let (lo, hi) = self.window;
        for (i, fx) in p.script_fx.iter_mut().enumerate() {
            match host.tabulate_effect(&fx.func, fx.rank, lo, hi) {
                Ok(table) => fx.table = table,
                Err((t, e)) => {
                    let (layer, span) = self.fx_spans[i];
                    self.script_failed(layer, span, t, &e);
                }
            }
        }
        for ScriptBarLine {
            layer,
            line,
            func: name,
            outcomes,
            text,
        } in bars
        {
            if self.script_fn(*layer, name).is_none() {
                continue;
            }
            if let Err((t, e)) = host.probe_bar(&name.node, lo, hi) {
                self.script_failed(*layer, name.span, t, &e);
                continue;
            }
            let origin = self.origin(*layer, *line);
            // The program owns the outcome lists by now: move this one over.
            self.lowering = super::compiler::Lowering::Bar;
            let lowered = self.outcomes(*layer, outcomes, origin, text.clone());
            self.lowering = super::compiler::Lowering::Moment;
            if lowered.is_some()
                && let Some(list) = self.outcomes.pop()
            {
                p.outcomes.push(list);
                p.script_bars.push(ir::script::ScriptBar {
                    func: name.node.clone(),
                    doc: host.doc(&name.node).to_string(),
                    outcomes: (p.outcomes.len() - 1) as u16,
                });
            }
        }
    }
}

impl Compiler<'_> {
    /// A script that failed when tried at check time: said at the script's own line when it
    /// is known (in the ruleset's script block, or in its `.rhai` file), and at the line that
    /// names the function.
    fn script_failed(&mut self, layer: usize, named: Span, total: i32, e: &ScriptError) {
        let message = format!(
            "the script `{}` fails when the total is {total}: {}",
            e.function, e.message
        );
        let hint = "scripts are tried on every total when the ruleset is checked; fix the function, or check `game.total` before using it";
        let at = self.script_line(e);
        let diag = match at {
            Some((source, span)) if source.name == self.layers[layer].source.name => {
                Diag::error(Code::ScriptFails, span, message)
                    .label("here")
                    .also(named, "used here")
                    .hint(hint)
                    .in_source(&source)
            }
            Some((source, span)) => Diag::error(Code::ScriptFails, span, message)
                .label("here")
                .hint(format!(
                    "it is used at {} line {}; {hint}",
                    self.layers[layer].source.name,
                    self.layers[layer].source.line_col(named.start).0
                ))
                .in_source(&source),
            None => Diag::error(Code::ScriptFails, named, message)
                .label(format!("in {}", e.place))
                .hint(hint),
        };
        self.err(layer, diag);
    }

    /// The file and the span of the line a script error names.
    fn script_line(&self, e: &ScriptError) -> Option<(Source, Span)> {
        let line = e.line?;
        let f = self
            .host
            .as_ref()?
            .functions
            .iter()
            .find(|f| f.name == e.function)?;
        let source = self.layers.iter().find_map(|l| {
            if l.path == f.file {
                return Some(l.source.clone());
            }
            l.file
                .scripts
                .iter()
                .find(|s| s.path.as_deref() == Some(f.file.as_str()))
                .map(|s| Source::new(f.file.clone(), s.text.clone()))
        })?;
        let start = offset_of(&source.text, line, 1);
        let text = &source.text[start..];
        let end = start + text.find('\n').unwrap_or(text.len());
        let first = start + (text.len() - text.trim_start().len()).min(end - start);
        Some((source, Span::new(first, end.max(first))))
    }
}
