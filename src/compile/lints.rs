//! Analyses of the compiled program: bars no card can reach, a player who can be stuck with
//! no rule for it, a game no rule can end, options never used.

use std::collections::BTreeSet;

use super::compiler::Compiler;
use super::settings::Settings;
use crate::base::cards::{RANK_WORDS, RANKS};
use crate::base::diag::Diag;
use crate::base::limits::REACH_TOTALS;
use crate::base::{Code, Span};
use crate::ir::{self, NO_EFFECT, possible_totals};
use crate::lang::ast;

impl Compiler<'_> {
    /// Which options the game uses: those named in the lines that decide it (not in the
    /// parents' lines a variant replaced), and every option that switches a line on or off.
    pub fn mark_live_options(&mut self, s: &Settings) {
        let mut named: BTreeSet<String> = BTreeSet::new();
        for (layer, line) in s.live_lines() {
            named.extend(braced_names(self.line_text(layer, line)));
        }
        for layer in self.layers {
            for st in &layer.file.statements {
                if let Some((_, name)) = &st.guard {
                    named.insert(name.node.clone());
                }
            }
        }
        for (name, d) in &mut self.options {
            d.used = named.contains(name);
        }
    }

    /// Options a variant removed (`no option chips`): none of its lines may use them, and no
    /// value may be given for them.
    fn removed_options(&mut self) {
        let gone: Vec<(String, bool)> = self
            .options
            .iter()
            .filter(|(_, d)| d.removed)
            .map(|(n, d)| (n.clone(), d.used))
            .collect();
        for (name, used) in gone {
            if used {
                self.diags.push(
                    Diag::error(
                        Code::DeadOption,
                        Span::default(),
                        format!("the option `{name}` is removed (`no option {name}`), but a line of the ruleset still uses `{{{name}}}`"),
                    )
                    .without_snippet()
                    .hint("give that line a number instead, or keep the option"),
                );
            }
            if self.given.contains(&name) {
                self.diags.push(
                    Diag::error(
                        Code::DeadOption,
                        Span::default(),
                        format!("`--set {name}`: this ruleset removes the option `{name}` (`no option {name}`)"),
                    )
                    .without_snippet()
                    .hint("leave it out"),
                );
            }
        }
    }

    /// A line of a layer's file, as written (without its comment).
    pub(super) fn line_text(&self, layer: usize, line: usize) -> &str {
        self.layers[layer]
            .source
            .text
            .lines()
            .nth(line.saturating_sub(1))
            .map_or("", |l| crate::base::span::strip_comment(l).trim())
    }

    /// The options declared and never used (not after a misspelt one: the one meant would
    /// look unused). A parent's option that a variant's line left unused is said at that
    /// line; a value given on the command line for an unused option is an error, since it
    /// would change nothing.
    pub fn unused_options(&mut self) {
        if self.undeclared {
            return;
        }
        let leaf = self.leaf();
        self.removed_options();
        let unused: Vec<(String, usize, Span)> = self
            .options
            .iter()
            .filter(|(_, d)| !d.used && !d.removed)
            .map(|(n, d)| (n.clone(), d.layer, d.span))
            .collect();
        for (name, layer, span) in unused {
            let braced = format!("{{{name}}}");
            // The variant's line that replaced (or removed) the parent's line using it.
            let by = self
                .replaced
                .iter()
                .find(|r| r.by.0 == leaf && self.line_text(r.old.0, r.old.1).contains(&braced))
                .copied();
            if self.given.contains(&name) {
                let why = by.map_or(String::new(), |r| {
                    format!(
                        ": the line of `{}` that used it, `{}`, is replaced here",
                        self.layers[r.old.0].source.name,
                        self.line_text(r.old.0, r.old.1).trim()
                    )
                });
                self.diags.push(
                    Diag::error(
                        Code::DeadOption,
                        Span::default(),
                        format!("`--set {name}`: no rule of this ruleset uses the option `{name}`, so its value would change nothing{why}"),
                    )
                    .without_snippet()
                    .hint("leave it out, or make a line of the ruleset use it as `{NAME}`".replace("NAME", &name)),
                );
            }
            match by {
                Some(r) if layer < leaf => {
                    let parent = self.layers[r.old.0].source.name.clone();
                    let old = self.line_text(r.old.0, r.old.1).trim().to_string();
                    self.err(
                        leaf,
                        Diag::warning(
                            Code::DeadOption,
                            r.by.1,
                            format!(
                                "this line replaces `{old}` ({parent}), the only line that used the option `{name}`: `--set {name}=...` no longer changes anything"
                            ),
                        )
                        .label(format!("`{name}` unused from here"))
                        .hint(format!(
                            "to keep the option, use it here as `{braced}` (and give it a new default with `option {name} = ...`); to drop it, say so: `no option {name}`"
                        )),
                    );
                }
                _ if layer < leaf => {}
                _ => self.err(
                    layer,
                    Diag::warning(
                        Code::UnusedOption,
                        span,
                        format!("the option `{name}` is declared but never used"),
                    )
                    .hint(format!(
                        "use it as `{{{name}}}` where its number belongs, or remove it"
                    )),
                ),
            }
        }
    }

    /// `no rule on reaching 66` keeps the parent's rule on passing 66 (and the other way
    /// round): said at the removal, since `no bar at 66` removes both. Restating the kept
    /// rule in the variant says it is meant (and is then not "the same as the parent").
    pub fn half_removed_bars(&mut self, s: &Settings) {
        for (value, passing, layer, span) in std::mem::take(&mut self.half_removed) {
            let Some(other) = s.bars.get(&(value, !passing)) else {
                continue;
            };
            let (kept, gone) = if passing {
                ("reaching", "passing")
            } else {
                ("passing", "reaching")
            };
            if other.layer == layer {
                let line = other.line;
                let source = self.layers[layer].source.name.clone();
                self.diags.retain(|d| {
                    !(d.code == Code::SameAsParent
                        && d.source.as_ref().is_some_and(|s| s.name == source)
                        && d.source
                            .as_ref()
                            .is_some_and(|s| s.line_col(d.span.start).0 == line))
                });
                continue;
            }
            let parent = self.layers[other.layer].source.name.clone();
            let text = crate::base::span::strip_comment(&other.value.text)
                .trim()
                .to_string();
            self.err(
                layer,
                Diag::warning(
                    Code::HalfRemoved,
                    span,
                    format!("{kept} {value} still counts: `{text}` ({parent}) is kept"),
                )
                .label(format!("only {gone} {value} is removed"))
                .hint(format!(
                    "to remove the bar at {value} altogether, write `no bar at {value}`; to keep {kept} {value}, say so: write its line here"
                )),
            );
        }
    }

    /// The analyses of a compiled program.
    pub fn lints(&mut self, p: &ir::Program, s: &Settings) {
        let reach = reachable(p);
        self.check_reachability(p, s, &reach);
        if p.triggers.cannot_play.is_none() && !self.attempted.contains("cannot play") {
            self.no_bust_rule(p, s, &reach);
        }
        self.never_playable(p, s, &reach);
        self.dead_branches(p, s, &reach);
        self.cannot_happen(p, s);
        self.role_lints(p);
        self.winner_lints(p, s);
        let bust_line = s.triggers.get(&ast::Trigger::CannotPlay);
        let bust_line = bust_line.map(|t| (t.layer, t.span));
        let unlimited = s
            .removed
            .iter()
            .rev()
            .find(|d| d.value.ends_with("limit"))
            .map(|d| (d.layer, d.span));
        let stuck = can_be_stuck(p, &reach);
        self.never_offered(p, s, stuck, &reach);
        self.check_can_end(p, bust_line, stuck, unlimited);
    }

    /// Can a hand ever hold no legal card? Then the rules must say what happens.
    fn no_bust_rule(&mut self, p: &ir::Program, s: &Settings, reach: &Reach) {
        let stuck = reach.seen.iter().find_map(|&t| {
            let ranks = if p.jokers > 0 { RANKS } else { RANKS - 1 };
            (0..ranks).find_map(|r| {
                let idx = p.rank_fx[usize::from(p.max_players)][r];
                let fx = p.effects.get(usize::from(idx))?;
                // Stuck when, in some situation, no choice is allowed.
                let blocked: Vec<Option<i32>> = fx
                    .choices()
                    .iter()
                    .map(|c| possible_totals(p, c, t).into_iter().find(|n| !p.allows(*n)))
                    .collect();
                blocked
                    .iter()
                    .all(Option::is_some)
                    .then(|| (t, r, blocked[0].unwrap_or(t)))
            })
        });
        let Some((t, r, n)) = stuck else {
            return;
        };
        let limit = if p.ceiling.is_some_and(|c| n > c.value) {
            &s.ceiling
        } else {
            &s.floor
        };
        if let Some(c) = limit {
            let message = if p.has_cases(ir::TriggerKind::CannotPlay) {
                "the ruleset says a card may not take the total past this limit, and what happens to a player who cannot play only when a test holds: not otherwise"
            } else {
                "the ruleset says a card may not take the total past this limit, but not what happens to a player who cannot play"
            };
            self.err(
                c.layer,
                Diag::error(Code::NoBustRule, c.span, message)
                .label(format!("at {t}, a hand of {}s has no legal card", RANK_WORDS[r]))
                .hint("add a line like `when a player cannot play: the player pays 1 and loses the round`"),
            );
        }
    }

    /// Every bar must be reachable by some sequence of cards from the starting total.
    fn check_reachability(&mut self, p: &ir::Program, s: &Settings, reach: &Reach) {
        let passes = &reach.passes;
        let mut undirected: Vec<Undirected> = Vec::new();
        for ((value, passing), set) in &s.bars {
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
                    Diag::error(Code::BarAboveLimit, set.span, message).hint(hint),
                );
                continue;
            }
            let explored = |v: i32| {
                reach.complete
                    || (reach.seen.first().is_some_and(|lo| *lo < v)
                        && reach.seen.last().is_some_and(|hi| *hi > v))
            };
            if !explored(v) {
                continue;
            }
            let way = set.value.way.unwrap_or(ast::Way::Up);
            let (up, down) = match way {
                ast::Way::Up => (true, false),
                ast::Way::Down => (false, true),
                ast::Way::Both => (true, true),
            };
            let crossing = |below: bool| {
                passes.iter().copied().find(|&(a, b)| {
                    let from = if below { a < v } else { a > v };
                    let to = if !*passing {
                        b == v
                    } else if below {
                        b > v
                    } else {
                        b < v
                    };
                    from && to
                })
            };
            let (from_below, from_above) = (crossing(true), crossing(false));
            let what = if *passing { "passing" } else { "reaching" };
            if (up && from_below.is_some()) || (down && from_above.is_some()) {
                if set.value.way.is_none()
                    && let Some((a, b)) = from_above
                {
                    let key = (set.layer, set.line);
                    match undirected.iter_mut().find(|u| u.key == key) {
                        Some(u) => u.values.push(v),
                        None => undirected.push(Undirected {
                            key,
                            span: set.value.way_span,
                            what,
                            values: vec![v],
                            example: (a, b),
                        }),
                    }
                }
                continue;
            }
            let did = if *passing { "passes" } else { "reaches" };
            let hint = if !down && from_above.is_some() {
                format!(
                    "the total only gets there going down; bars count going up unless the line says so: `on {what} {v} going down: ...` or `on {what} {v} either way: ...`"
                )
            } else if !up && from_below.is_some() {
                format!(
                    "the total only gets there going up: `on {what} {v} going up: ...` or `on {what} {v} either way: ...`"
                )
            } else {
                "change the bar's number, or the card values that should get there".to_string()
            };
            let said = match way {
                ast::Way::Up => " going up",
                ast::Way::Down => " going down",
                ast::Way::Both => "",
            };
            self.err(
                set.layer,
                Diag::error(
                    Code::BarUnreachable,
                    set.span,
                    format!("no card ever {did} {v}{said}"),
                )
                .label("never happens")
                .hint(hint),
            );
        }
        for u in undirected {
            self.undirected_bar(&u);
        }
    }

    /// A bar a card can come down onto (or across) whose line does not say which way it
    /// counts: it counts going up only, which a designer may not have meant.
    fn undirected_bar(&mut self, u: &Undirected) {
        let list = match u.values.as_slice() {
            [one] => one.to_string(),
            [init @ .., last] => format!(
                "{} and {last}",
                init.iter()
                    .map(i32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            [] => return,
        };
        let verb_count = if u.values.len() == 1 {
            "counts"
        } else {
            "count"
        };
        let (a, b) = u.example;
        let verb = if u.what == "reaching" {
            format!("bring the total down onto {}", u.values[0])
        } else {
            format!("take the total down across {}", u.values[0])
        };
        self.err(
            u.key.0,
            Diag::warning(
                Code::BarWay,
                u.span,
                format!(
                    "a card can {verb} (from {a} to {b}), but this line does not say which way {list} {verb_count}"
                ),
            )
            .label("going up only, as written")
            .hint(format!(
                "say it: `on {} {list} going up: ...` (only coming up counts, as now), or `on {} {list} either way: ...` (coming down counts too)",
                u.what, u.what
            ))
            .fix(u.span, " going up"),
        );
    }

    /// A game no rule can end: no rule that can happen costs a chip or puts a player out,
    /// and no number of rounds ends it. A cost counts only where it can happen: a rule for a
    /// player who cannot play, only where a limit on the total can leave one stuck; a rule
    /// for a player with no cards, only where a hand can run out (players draw by hand, or
    /// the stock is not refilled).
    pub fn check_can_end(
        &mut self,
        p: &ir::Program,
        bust_line: Option<(usize, Span)>,
        stuck_possible: bool,
        unlimited: Option<(usize, Span)>,
    ) {
        // A number of rounds ends it; so may a player reaching a number of chips (where
        // chips are gained), which the dry run sees.
        if p.rounds.is_some() || p.ending.reach.is_some() || self.diags.iter().any(Diag::is_error) {
            return;
        }
        let costs = |i: Option<u16>| {
            i.and_then(|i| p.outcomes.get(usize::from(i)))
                .is_some_and(|o| o.list.iter().any(costs_chips))
        };
        let runs_out = p.by_hand || !p.reshuffle;
        // Any line of a trigger: its cases and its line without a test.
        let costs_any = |k: ir::TriggerKind| p.trigger_lines(k).any(|i| costs(Some(i)));
        let by_cards = p
            .effects
            .iter()
            .flat_map(|fx| fx.choices())
            .flat_map(|c| c.steps())
            .flat_map(|s| [s.then, s.otherwise])
            .any(|a| match a {
                ir::Act::Outcomes(i) => costs(Some(i)),
                // A script may make a player pay: it is not judged here.
                ir::Act::Script(_) => true,
                ir::Act::Value(_)
                | ir::Act::Add(_)
                | ir::Act::Set(_)
                | ir::Act::Mul(_)
                | ir::Act::Div(_)
                | ir::Act::Nothing
                | ir::Act::Skip(_)
                | ir::Act::Reverse
                | ir::Act::Again(_)
                | ir::Act::ChooseNext => false,
            });
        let by_bars = p.bars.iter().any(|b| costs(b.reach) || costs(b.pass))
            || p.script_bars.iter().any(|b| costs(Some(b.outcomes)));
        let by_others = p.others.iter().any(|o| costs(o.then) || costs(o.failed));
        let by_moments = by_others
            || (stuck_possible && costs_any(ir::TriggerKind::CannotPlay))
            || (runs_out && costs_any(ir::TriggerKind::NoCards))
            || costs_any(ir::TriggerKind::RoundStart)
            || costs_any(ir::TriggerKind::RoundEnd)
            || p.moments.iter().any(|m| costs(Some(m.outcomes)));
        if by_cards || by_bars || by_moments {
            return;
        }
        let last = self.layers.len() - 1;
        let never_stuck = costs_any(ir::TriggerKind::CannotPlay) && !stuck_possible;
        // Said at the line that made it so: a variant's `no upper limit`, or the bust line.
        let at = match (never_stuck, unlimited) {
            (true, Some(u)) => Some(u),
            _ => bust_line,
        };
        let (layer, span, snippet) =
            at.map_or((last, Span::default(), false), |(l, s)| (l, s, true));
        let (message, label) = if never_stuck {
            (
                "no card can ever leave a player stuck, so the rule for a player who cannot play never happens: no rule that can happen costs a chip or puts a player out, and the game cannot end",
                if unlimited.is_some() {
                    "without this limit no one is stuck"
                } else {
                    "never happens"
                },
            )
        } else {
            (
                "under these rules no one ever loses a chip or leaves the game: it cannot end",
                "costs nothing",
            )
        };
        let mut d = Diag::error(Code::NeverEnds, span, message)
            .label(label)
            .hint("add a limit on the total (`the total may not go above 99`), a penalty (`when a player cannot play: the player pays 1 and loses the round`), or `the game ends after 10 rounds`");
        if !snippet {
            d = d.without_snippet();
        }
        self.err(layer, d);
    }
}

/// Whether some hand can hold no card the limits allow, at a total a game can reach with some
/// number of players: then a rule for a player who cannot play can happen. Where not every
/// total was explored, it is taken to be possible.
fn can_be_stuck(p: &ir::Program, reach: &Reach) -> bool {
    if !reach.complete {
        return true;
    }
    let ranks = if p.jokers > 0 { RANKS } else { RANKS - 1 };
    (2..=usize::from(p.max_players)).any(|n| {
        reach.seen.iter().any(|&t| {
            (0..ranks).any(|r| {
                p.effect_for(n, r as u8).is_some_and(|fx| {
                    fx.choices().iter().all(|c| {
                        c.scripted || possible_totals(p, c, t).into_iter().any(|x| !p.allows(x))
                    })
                })
            })
        })
    })
}

/// Whether an outcome can cost a player a chip or their place in the game, or end the game.
fn costs_chips(o: &ir::Outcome) -> bool {
    match o.kind {
        ir::OutcomeKind::Pay { amount, .. } => match amount {
            ir::Amount::Fixed(n) => n > 0,
            // Worked out from the table: it may cost.
            ir::Amount::Of(_) => true,
        },
        // A player's chips set from the table may fall to nothing.
        ir::OutcomeKind::Change {
            what: ir::Quantity::Chips,
            ..
        } => true,
        ir::OutcomeKind::OutOfGame | ir::OutcomeKind::WinGame | ir::OutcomeKind::EndGame => true,
        ir::OutcomeKind::WinRound
        | ir::OutcomeKind::LoseRound
        | ir::OutcomeKind::OutOfRound
        | ir::OutcomeKind::ResetTotal(_)
        | ir::OutcomeKind::EndRound
        | ir::OutcomeKind::Reverse
        | ir::OutcomeKind::TakePot
        | ir::OutcomeKind::Gain { .. }
        | ir::OutcomeKind::SetTotal(_)
        | ir::OutcomeKind::Change { .. }
        | ir::OutcomeKind::Draw(_)
        | ir::OutcomeKind::SwapHands(_)
        | ir::OutcomeKind::TakeCard(_)
        | ir::OutcomeKind::GiveCard(_)
        | ir::OutcomeKind::GiveChosen(_)
        | ir::OutcomeKind::Skip(_)
        | ir::OutcomeKind::Again(_) => false,
    }
}

/// The option names a line writes in braces: `{chips}`.
fn braced_names(line: &str) -> Vec<String> {
    let line = crate::base::span::strip_comment(line);
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        out.push(after[..close].trim().to_string());
        rest = &after[close + 1..];
    }
    out
}

/// The bars of one line that a card can come down onto, when the line does not say which way
/// they count: one warning a line.
struct Undirected {
    /// The layer and line.
    key: (usize, usize),
    /// Where the line would say it (just after its numbers).
    span: Span,
    /// `reaching` or `passing`.
    what: &'static str,
    values: Vec<i32>,
    /// A move that comes down onto (or across) the first of them.
    example: (i32, i32),
}

/// The totals a game can reach from its start, and every move between two of them.
pub(super) struct Reach {
    /// Whether every reachable total was explored (else only the nearest ones).
    pub complete: bool,
    pub seen: BTreeSet<i32>,
    pub passes: BTreeSet<(i32, i32)>,
}

fn reachable(p: &ir::Program) -> Reach {
    let top = p.bars.iter().map(|b| b.value).max().unwrap_or(0);
    let hi = p.ceiling.map_or(top.max(p.start) + 200, |c| c.value);
    let lo = p
        .floor
        .map_or(-(top.abs().max(p.start.abs())) - 200, |f| f.value);
    let mut seen: BTreeSet<i32> = BTreeSet::new();
    let mut passes: BTreeSet<(i32, i32)> = BTreeSet::new();
    // Nearest totals first, and no more than REACH_TOTALS of them (wide limits allow
    // millions): past that, the totals beyond those seen are taken as reachable.
    let mut queue = std::collections::VecDeque::from([p.start]);
    seen.insert(p.start);
    let effects: BTreeSet<u16> = p.rank_fx[usize::from(p.min_players)..=usize::from(p.max_players)]
        .iter()
        .flatten()
        .copied()
        .filter(|e| *e != NO_EFFECT)
        .collect();
    while let Some(t) = queue.pop_front() {
        if seen.len() >= REACH_TOTALS {
            return Reach {
                complete: false,
                seen,
                passes,
            };
        }
        for &e in &effects {
            for choice in p.effects[usize::from(e)].choices() {
                for next in possible_totals(p, choice, t) {
                    if !p.allows(next) {
                        continue;
                    }
                    passes.insert((t, next));
                    // A bar that ends the round (or resets the total) there: the next card
                    // is played from the start, not from `next`.
                    if !stays(p, t, next) {
                        continue;
                    }
                    if (lo..=hi).contains(&next) && seen.insert(next) {
                        queue.push_back(next);
                    }
                }
            }
        }
    }
    Reach {
        complete: true,
        seen,
        passes,
    }
}

/// Whether the total stays at `new` after a card takes it there from `old`: no bar it reaches
/// or passes ends the round or resets the total.
fn stays(p: &ir::Program, old: i32, new: i32) -> bool {
    let ends = |i: Option<u16>| {
        i.and_then(|i| p.outcomes.get(usize::from(i)))
            .is_some_and(|o| {
                o.list.iter().any(|x| {
                    matches!(
                        x.kind,
                        ir::OutcomeKind::WinRound
                            | ir::OutcomeKind::LoseRound
                            | ir::OutcomeKind::EndRound
                            | ir::OutcomeKind::ResetTotal(_)
                    )
                })
            })
    };
    !p.bars.iter().any(|b| {
        let v = b.value;
        let (reach, pass) = if old < v {
            (new == v && b.reach_way.up(), new > v && b.pass_way.up())
        } else if old > v {
            (new == v && b.reach_way.down(), new < v && b.pass_way.down())
        } else {
            (false, false)
        };
        (reach && ends(b.reach)) || (pass && ends(b.pass))
    })
}
