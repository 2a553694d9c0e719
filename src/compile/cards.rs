//! Cards: rank words read, each card line's effect lowered (see `effects.rs`), and the table
//! of effects by players left and rank filled; ranks with no effect and lines that never apply
//! are reported.

use std::collections::BTreeMap;

use super::compiler::{Compiler, Count, most_specific};
use super::settings::Settings;
use super::table::Table;
use crate::base::cards::{JOKER, RANK_NAMES, RANK_WORDS, RANKS, parse_rank};
use crate::base::diag::{Diag, did_you_mean};
use crate::base::{Code, Span, Spanned};
use crate::ir::{self, MAX_SEATS, NO_EFFECT};
use crate::lang::ast;

impl Compiler<'_> {
    /// Every card line lowered, and the table of effects by players left and rank.
    pub fn cards(
        &mut self,
        s: &Settings,
        table: &Table,
    ) -> (
        Vec<ir::Effect>,
        [[u16; RANKS]; MAX_SEATS + 1],
        Vec<ir::CardLine>,
    ) {
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
        let lines = effect_of
            .iter()
            .flat_map(|(&rank, lines)| {
                lines.iter().map(move |(count, &fx)| ir::CardLine {
                    rank,
                    count: match *count {
                        Count::Any => ir::Count::Any,
                        Count::Exactly(n) => ir::Count::Exactly(n.clamp(0, 255) as u8),
                        Count::AtLeast(n) => ir::Count::AtLeast(n.clamp(0, 255) as u8),
                    },
                    fx,
                })
            })
            .collect();
        (effects, rank_fx, lines)
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
}
