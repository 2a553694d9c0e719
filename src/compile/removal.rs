//! `no ...` lines: a variant removes a statement of its parent. What is removed is forgotten
//! by the later passes (so the lints see the ruleset as it is), and remembered in words for
//! the rules sheet.

use super::compiler::Decided;
use super::settings::{Collect, bar_key, card_key, trigger_words, when_key};
use crate::base::cards::RANK_WORDS;
use crate::base::diag::Diag;
use crate::base::{Code, Span};
use crate::lang::ast::{self, Removal};

impl Collect<'_, '_> {
    /// Removes what a `no ...` line names; a name that is not there is an error.
    pub fn remove(&mut self, r: &Removal) {
        match r {
            Removal::Bars(values) => {
                for v in values {
                    let Some(n) = self.c.amount(self.layer, v) else {
                        continue;
                    };
                    self.bar_named(n, None);
                    self.c.bar_layers[self.layer].removed.push((n, v.span));
                    let reach = self.remove_bar(n, false);
                    let pass = self.remove_bar(n, true);
                    if !reach && !pass {
                        self.nothing(v.span, format!("there is no bar at {n} to remove"));
                    } else {
                        self.removed(format!("the bar at {n}"));
                    }
                }
            }
            Removal::Bar { passing, values } => {
                let verb = if *passing { "passing" } else { "reaching" };
                for v in values {
                    let Some(n) = self.c.amount(self.layer, v) else {
                        continue;
                    };
                    self.bar_named(n, None);
                    if self.remove_bar(n, *passing) {
                        self.c.half_removed.push((n, *passing, self.layer, v.span));
                        self.removed(format!("what happens on {verb} {n}"));
                    } else {
                        self.nothing(v.span, format!("no rule says what happens on {verb} {n}"));
                    }
                }
            }
            Removal::Card { ranks, with } => {
                let count = self.c.count(self.layer, with.as_ref());
                for rank in self.c.ranks(self.layer, ranks) {
                    let what = format!("the {}{}", RANK_WORDS[usize::from(rank)], count.words());
                    if self.s.cards.remove(&(rank, count)).is_some() {
                        self.forget(&card_key(rank, count));
                        self.removed(format!("the card rule for {what}"));
                    } else {
                        let span = self.st.span;
                        self.nothing(span, format!("no card rule for {what} to remove"));
                    }
                }
            }
            Removal::When(t) => {
                // The trigger's lines for some cases go with it.
                let cases = self.s.cases.len();
                self.s.cases.retain(|d| d.value.trigger != *t);
                if self.s.triggers.remove(t).is_some() | (self.s.cases.len() < cases) {
                    self.forget(&when_key(*t));
                    self.removed(trigger_words(*t).to_string());
                } else {
                    let span = self.st.span;
                    self.nothing(
                        span,
                        format!("no rule says {} to remove", trigger_words(*t)),
                    );
                }
            }
            Removal::Limit(side) => {
                let (slot, word) = match side {
                    ast::Side::Above => (&mut self.s.ceiling, "upper"),
                    ast::Side::Below => (&mut self.s.floor, "lower"),
                };
                if slot.take().is_some() {
                    self.forget(&format!("the {word} limit"));
                    self.removed(format!("the {word} limit"));
                } else {
                    let span = self.st.span;
                    self.nothing(span, format!("there is no {word} limit to remove"));
                }
            }
            Removal::Option(name) => match self.c.options.get_mut(&name.node) {
                Some(d) if d.layer < self.layer => {
                    d.removed = true;
                    self.removed(format!("the option `{}`", name.node));
                }
                _ => self.nothing(
                    name.span,
                    format!("no parent declares an option `{}` to remove", name.node),
                ),
            },
            Removal::Teams => {
                if self.s.teams.take().is_some() {
                    self.forget("the teams");
                    self.removed("the teams".to_string());
                } else {
                    let span = self.st.span;
                    self.nothing(span, "players do not play in teams here".to_string());
                }
            }
        }
    }

    /// `keep the bars at 33, 66`: changes nothing, and says the parents' bars are meant to
    /// count beside this file's own (see `lints::bars_kept`).
    pub fn keep_bars(&mut self, values: &[ast::SAmount]) {
        for v in values {
            let Some(n) = self.c.amount(self.layer, v) else {
                continue;
            };
            let had = self.c.bar_layers[self.layer].before.contains(&n);
            if had {
                self.bar_named(n, None);
                self.c.bar_layers[self.layer].kept.push((n, v.span));
                continue;
            }
            let hint = if self.layer == 0 {
                "a `keep` line keeps a bar of the ruleset this one extends; this one extends none"
            } else {
                "a `keep` line names a bar of the parents; check its number"
            };
            self.c.err(
                self.layer,
                Diag::error(
                    Code::NothingToKeep,
                    v.span,
                    format!("there is no bar at {n} to keep"),
                )
                .hint(hint),
            );
        }
    }

    /// A bar line or a `no`/`keep` line of this layer names the total `n` (`added`: where a
    /// bar line says what happens there).
    pub fn bar_named(&mut self, n: i64, added: Option<Span>) {
        let layer = &mut self.c.bar_layers[self.layer];
        layer.named.insert(n);
        if let Some(span) = added
            && !layer.before.contains(&n)
        {
            layer.added.insert(n);
            layer.first_added.get_or_insert(span);
        }
    }

    fn remove_bar(&mut self, value: i64, passing: bool) -> bool {
        let gone = self.s.bars.remove(&(value, passing)).is_some();
        if gone {
            self.forget(&bar_key(value, passing));
        }
        gone
    }

    fn removed(&mut self, what: String) {
        self.s.removed.push(Decided {
            value: what,
            layer: self.layer,
            span: self.st.span,
            line: self.st.line,
        });
    }

    fn nothing(&mut self, span: Span, message: String) {
        let hint = if self.layer == 0 {
            "a `no ...` line removes a statement of the ruleset this one extends"
        } else {
            "a `no ...` line removes a statement of the parents; check its number or name"
        };
        self.c.err(
            self.layer,
            Diag::error(Code::NothingToRemove, span, message).hint(hint),
        );
    }
}

impl super::compiler::Compiler<'_> {
    /// One file that both keeps a parent's bar (`keep the bars at 33`) and removes it (`no bar
    /// at 33`) says two things of it: whichever line comes last would win unseen, so it is
    /// an error at the `keep` line.
    fn kept_and_removed(&mut self) {
        for layer in 0..self.bar_layers.len() {
            let both: Vec<(i64, Span, Span)> = self.bar_layers[layer]
                .kept
                .iter()
                .filter_map(|&(n, keep)| {
                    let removed = &self.bar_layers[layer].removed;
                    removed
                        .iter()
                        .find(|(m, _)| *m == n)
                        .map(|&(_, gone)| (n, keep, gone))
                })
                .collect();
            for (n, keep, gone) in both {
                self.err(
                    layer,
                    Diag::error(
                        Code::NothingToKeep,
                        keep,
                        format!("the bar at {n} is kept here and removed by `no bar at {n}`"),
                    )
                    .also(gone, "removed here")
                    .hint(format!(
                        "keep one of the two lines: `no bar at {n}` plays without the parent's bar, `keep the bars at {n}` with it"
                    )),
                );
            }
        }
    }

    /// A variant that adds bars at totals its parents have none at, and names none of the
    /// parents' bars (no bar line, `no` line or `keep` line at their totals), may mean its
    /// bars to be the only ones: both readings are plausible, so it is asked. `no bar at ...`
    /// drops the old ones, `keep the bars at ...` says they still count. A variant that
    /// changes or removes one of the parents' bars knows they are there, and is not asked.
    pub fn bars_kept(&mut self, s: &super::settings::Settings) {
        self.kept_and_removed();
        for layer in 1..self.bar_layers.len() {
            let bars = &self.bar_layers[layer];
            let Some(span) = bars.first_added else {
                continue;
            };
            if bars.before.intersection(&bars.named).next().is_some() {
                continue;
            }
            // The parents' bars this layer names nowhere, still there at the end.
            let kept: Vec<i64> = bars
                .before
                .difference(&bars.named)
                .copied()
                .filter(|&n| {
                    s.bars
                        .range((n, false)..=(n, true))
                        .any(|(_, d)| d.layer < layer)
                })
                .collect();
            if kept.is_empty() {
                continue;
            }
            let list = |v: &[i64], last: &str| -> String {
                let words: Vec<String> = v.iter().map(i64::to_string).collect();
                match words.split_last() {
                    Some((tail, head)) if !head.is_empty() => {
                        format!("{} {last} {tail}", head.join(", "))
                    }
                    _ => words.concat(),
                }
            };
            let added: Vec<i64> = bars.added.iter().copied().collect();
            let plural = |v: &[i64], word: &'static str, many: &'static str| {
                if v.len() == 1 { word } else { many }
            };
            let plain = kept
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(", ");
            let message = format!(
                "the parent's {} at {} still {} beside this file's new {} at {}",
                plural(&kept, "bar", "bars"),
                list(&kept, "and"),
                plural(&kept, "counts", "count"),
                plural(&added, "bar", "bars"),
                list(&added, "and"),
            );
            self.err(
                layer,
                Diag::warning(Code::BarsKept, span, message)
                    .label("a bar at a total the parent has none at")
                    .hint(format!(
                        "to play only this file's bars, write `no bar at {plain}`; to keep the parent's too, say so: `keep the bars at {plain}`"
                    )),
            );
        }
    }
}
