//! Cards: rank words read, each card line's effect lowered to the compiled form, and the table
//! of effects by players left and rank filled; ranks with no effect and lines that never apply
//! are reported.

use std::collections::BTreeMap;

use super::compiler::{Compiler, Count, most_specific};
use super::settings::Settings;
use super::table::Table;
use crate::base::cards::{JOKER, RANK_NAMES, RANK_WORDS, RANKS, face_value, parse_rank};
use crate::base::diag::{Diag, did_you_mean};
use crate::base::{Code, Span, Spanned};
use crate::ir::{self, MAX_CHOICES, MAX_SEATS, MAX_STEPS, NO_EFFECT, Origin};
use crate::lang::ast::{self, SAmount};

impl Compiler<'_> {
    /// Every card line lowered, and the table of effects by players left and rank.
    pub fn cards(
        &mut self,
        s: &Settings,
        table: &Table,
    ) -> (Vec<ir::Effect>, [[u16; RANKS]; MAX_SEATS + 1]) {
        let mut effects: Vec<ir::Effect> = Vec::new();
        let mut effect_of: BTreeMap<u8, BTreeMap<Count, u16>> = BTreeMap::new();
        for ((rank, count), d) in &s.cards {
            let origin = self.origin(d.layer, d.line);
            if let Some(fx) = self.effect(
                d.layer,
                *rank,
                &d.value.effect,
                origin,
                d.value.text.clone(),
            ) {
                effect_of
                    .entry(*rank)
                    .or_default()
                    .insert(*count, effects.len() as u16);
                effects.push(fx);
            }
        }
        let mut rank_fx = [[NO_EFFECT; RANKS]; MAX_SEATS + 1];
        for (n, row) in rank_fx.iter_mut().enumerate().take(table.max_p + 1).skip(2) {
            for (rank, cell) in row.iter_mut().enumerate() {
                // The most specific line wins: exact count, then `or more` (highest first),
                // then the general line.
                *cell = effect_of
                    .get(&(rank as u8))
                    .and_then(|lines| most_specific(lines, n))
                    .copied()
                    .unwrap_or(NO_EFFECT);
            }
        }
        self.card_lints(s, table);
        (effects, rank_fx)
    }

    /// Lines that never apply, ranks with no effect, jokers without a line or a line without
    /// jokers.
    fn card_lints(&mut self, s: &Settings, table: &Table) {
        let max_p = table.max_p;
        for ((rank, count), d) in &s.cards {
            let n = match *count {
                Count::Any => continue,
                Count::Exactly(n) | Count::AtLeast(n) => n,
            };
            let never = match count {
                Count::AtLeast(_) => n > max_p as i64,
                Count::Exactly(_) | Count::Any => n < 2 || n > max_p as i64,
            };
            if never {
                let why = if n < 2 {
                    "a round is over when fewer than 2 players are left in it".to_string()
                } else {
                    format!("at most {max_p} players play")
                };
                self.err(
                    d.layer,
                    Diag::warning(
                        Code::NeverApplies,
                        d.span,
                        format!("this line never applies: {why}"),
                    )
                    .hint("change the player count, or remove the line"),
                );
            }
            if !s.cards.contains_key(&(*rank, Count::Any)) {
                self.err(
                    d.layer,
                    Diag::error(
                        Code::NoGeneralEffect,
                        d.span,
                        format!(
                            "the {} has an effect only{}",
                            RANK_WORDS[*rank as usize],
                            count.words()
                        ),
                    )
                    .hint(format!(
                        "say what it does otherwise too: `card {}: ...`",
                        RANK_NAMES[*rank as usize]
                    )),
                );
            }
        }
        self.missing_ranks(s);
        if table.jokers == 0
            && let Some(d) = s.cards.get(&(JOKER, Count::Any))
        {
            self.err(
                d.layer,
                Diag::warning(
                    Code::NeverApplies,
                    d.span,
                    "this deck has no jokers, so this line never applies",
                )
                .hint("add `jokers 2 per deck`, or remove the line"),
            );
        }
        if table.jokers > 0
            && !s.cards.contains_key(&(JOKER, Count::Any))
            && let Some(j) = &s.jokers
        {
            self.err(
                j.layer,
                Diag::error(
                    Code::RankNoValue,
                    j.span,
                    "the deck has jokers but the joker has no value",
                )
                .hint("say what a joker does: `card X: nothing`"),
            );
        }
    }

    /// Every rank A to K needs a line.
    fn missing_ranks(&mut self, s: &Settings) {
        let last = self.leaf();
        let missing: Vec<&str> = (0..13u8)
            // A rank with only a player-count line is reported as such.
            .filter(|rank| !s.cards.keys().any(|(r, _)| r == rank))
            .map(|rank| RANK_NAMES[rank as usize])
            .collect();
        if missing.is_empty() || self.card_errors {
            return;
        }
        let (layer, span) = s
            .cards
            .values()
            .filter(|d| d.layer == last)
            .map(|d| (d.layer, d.span))
            .max_by_key(|(_, s)| s.start)
            .unwrap_or((last, self.leaf_span()));
        let list = missing
            .iter()
            .map(|r| format!("`{r}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let one = missing.len() == 1;
        self.err(
            layer,
            Diag::error(
                Code::RankNoValue,
                span,
                format!(
                    "{} {list} {} no value",
                    if one { "the rank" } else { "the ranks" },
                    if one { "has" } else { "have" }
                ),
            )
            .label(if s.cards.is_empty() {
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

    pub fn ranks(&mut self, layer: usize, items: &[ast::RankItem]) -> Vec<u8> {
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
                    if to < from || to == JOKER {
                        self.card_errors = true;
                        let span = Span::new(item.from.span.start, to_word.span.end);
                        let mut diag = Diag::error(
                            Code::RankRange,
                            span,
                            format!("`{} to {}` names no card", item.from.node, to_word.node),
                        )
                        .hint("ranks run A 2 3 4 5 6 7 8 9 10 J Q K: write the lower one first");
                        if to != JOKER && from != JOKER {
                            diag =
                                diag.fix(span, format!("{} to {}", to_word.node, item.from.node));
                        }
                        self.err(layer, diag);
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
        let (hint, fix) = match word.node.as_str() {
            w if w.contains('-') && w.split('-').all(|p| parse_rank(p).is_some()) => {
                let (a, b) = w.split_once('-').unwrap_or((w, w));
                (format!("write a range of ranks with `to`: `{a} to {b}`"), Some(format!("{a} to {b}")))
            }
            "1" | "11" => ("the Ace is written `A`; its choice of 1 or 11 goes after the colon: `card A: add 1 or add 11`".to_string(), Some("A".to_string())),
            "0" | "joker" => ("the joker is written `X`".to_string(), Some("X".to_string())),
            w => match did_you_mean(w, RANK_NAMES.iter().copied().chain(RANK_WORDS.iter().copied())) {
                Some(r) => (format!("did you mean `{r}`? Ranks are A 2 3 4 5 6 7 8 9 10 J Q K, and X for a joker"), Some(r.to_string())),
                None => ("ranks are A 2 3 4 5 6 7 8 9 10 J Q K, and X for a joker".to_string(), None),
            },
        };
        let mut diag = Diag::error(
            Code::UnknownRank,
            word.span,
            format!("`{}` is not a card rank", word.node),
        )
        .label("unknown rank")
        .hint(hint);
        if let Some(fix) = fix {
            diag = diag.fix(word.span, fix);
        }
        self.err(layer, diag);
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
                    Code::ManyChoices,
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
                        Code::ManySteps,
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
                        Code::OneOptionChoice,
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
                        Code::LabelTwice,
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
                        Code::BadNumber,
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
                let text = self.text(layer, o.span);
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
