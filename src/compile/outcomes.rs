//! What happens to players, lowered: outcome lists for card steps, bars and moments.

use std::collections::BTreeMap;

use super::compiler::{Compiler, Lowering, RoleUse};
use super::settings::Settings;
use crate::base::Code;
use crate::base::diag::Diag;
use crate::ir::{self, Origin};
use crate::lang::ast;

impl Compiler<'_> {
    /// The bars, by value, each with what happens on reaching and on passing it.
    pub fn bars(&mut self, s: &Settings) -> Vec<ir::Bar> {
        self.lowering = Lowering::Bar;
        let mut bars: BTreeMap<i64, ir::Bar> = BTreeMap::new();
        for ((value, passing), d) in &s.bars {
            let origin = self.origin(d.layer, d.line);
            let idx = self.outcomes(d.layer, &d.value.outcomes, origin, d.value.text.clone());
            let bar = bars.entry(*value).or_insert(ir::Bar {
                value: *value as i32,
                reach: None,
                pass: None,
                reach_way: ir::Way::Up,
                pass_way: ir::Way::Up,
            });
            let way = match d.value.way {
                None | Some(ast::Way::Up) => ir::Way::Up,
                Some(ast::Way::Down) => ir::Way::Down,
                Some(ast::Way::Both) => ir::Way::Both,
            };
            if *passing {
                bar.pass = idx;
                bar.pass_way = way;
            } else {
                bar.reach = idx;
                bar.reach_way = way;
            }
        }
        self.lowering = Lowering::Moment;
        bars.into_values().collect()
    }

    /// What happens at each moment.
    pub fn triggers(&mut self, s: &Settings) -> ir::Triggers {
        let mut t = ir::Triggers::default();
        for (trigger, d) in &s.triggers {
            let origin = self.origin(d.layer, d.line);
            let idx = self.outcomes(d.layer, &d.value.outcomes, origin, d.value.text.clone());
            self.undone_after(d.layer, d.span, *trigger, idx);
            let slot = match trigger {
                ast::Trigger::CannotPlay => &mut t.cannot_play,
                ast::Trigger::NoCards => &mut t.no_cards,
                ast::Trigger::RoundStart => &mut t.round_start,
                ast::Trigger::RoundEnd => &mut t.round_end,
                ast::Trigger::GameEnd => &mut t.game_end,
            };
            *slot = idx;
        }
        t
    }

    /// At the end of a round the next deal gathers the cards and sets the total, the
    /// direction and the turns afresh; at the end of the game nothing more is played: an
    /// outcome there that moves cards, the total or the turn would never be seen.
    fn undone_after(
        &mut self,
        layer: usize,
        span: crate::base::Span,
        t: ast::Trigger,
        idx: Option<u16>,
    ) {
        let round = match t {
            ast::Trigger::RoundEnd => true,
            ast::Trigger::GameEnd => false,
            ast::Trigger::CannotPlay | ast::Trigger::NoCards | ast::Trigger::RoundStart => return,
        };
        let Some(list) = idx.and_then(|i| self.outcomes.get(usize::from(i))) else {
            return;
        };
        let undone = list.list.iter().find_map(|o| {
            Some(match o.kind {
                ir::OutcomeKind::Draw(_)
                | ir::OutcomeKind::SwapHands(_)
                | ir::OutcomeKind::TakeCard(_)
                | ir::OutcomeKind::GiveCard(_)
                | ir::OutcomeKind::GiveChosen(_) => "the cards moved",
                ir::OutcomeKind::SetTotal(_) | ir::OutcomeKind::ResetTotal(_) => "the total set",
                ir::OutcomeKind::Reverse => "the direction reversed",
                ir::OutcomeKind::Skip(_) | ir::OutcomeKind::Again(_) => "the turns changed",
                ir::OutcomeKind::EndRound | ir::OutcomeKind::OutOfRound => "the round ended",
                ir::OutcomeKind::Pay { .. }
                | ir::OutcomeKind::WinRound
                | ir::OutcomeKind::LoseRound
                | ir::OutcomeKind::OutOfGame
                | ir::OutcomeKind::WinGame
                | ir::OutcomeKind::EndGame
                | ir::OutcomeKind::TakePot
                | ir::OutcomeKind::Gain { .. }
                | ir::OutcomeKind::Change { .. } => return None,
            })
        });
        if let Some(what) = undone {
            let (message, hint) = if round {
                (
                    format!(
                        "the next deal undoes {what} here: this line changes nothing anyone sees"
                    ),
                    "say it at the start of each round (`at the start of each round: ...`), where the new round keeps it",
                )
            } else {
                (
                    format!(
                        "no card is played after the end of the game: {what} here changes nothing anyone sees"
                    ),
                    "say it where the game goes on: at the end of each round, or in a card's line",
                )
            };
            self.err(
                layer,
                Diag::warning(Code::CannotHappen, span, message)
                    .label("undone at once")
                    .hint(hint),
            );
        }
    }

    /// The triggers' lines for some cases, in the order they are tried: a file's before its
    /// parents' (a variant's case comes first), in the order each file wrote them.
    pub fn trigger_cases(&mut self, s: &Settings) -> Vec<ir::TriggerCase> {
        let mut lines: Vec<_> = s.cases.iter().collect();
        lines.sort_by_key(|d| std::cmp::Reverse(d.layer));
        let mut out = Vec::new();
        for d in lines {
            let origin = self.origin(d.layer, d.line);
            let Some(cond) = self.moment_cond(d.layer, &d.value.condition) else {
                continue;
            };
            let Some(outcomes) = self.outcomes(
                d.layer,
                &d.value.line.outcomes,
                origin,
                d.value.line.text.clone(),
            ) else {
                continue;
            };
            self.undone_after(d.layer, d.span, d.value.trigger, Some(outcomes));
            out.push(ir::TriggerCase {
                trigger: trigger_kind(d.value.trigger),
                cond,
                outcomes,
            });
        }
        out
    }

    pub fn outcomes(
        &mut self,
        layer: usize,
        list: &[ast::Outcome],
        origin: Origin,
        text: String,
    ) -> Option<u16> {
        let mut subject = ast::Who::Player;
        let mut out = Vec::new();
        for o in list {
            self.note_roles(layer, o, self.lowering);
            if matches!(o.kind, ast::OutcomeKind::GoesOn) {
                continue;
            }
            out.push(self.outcome(layer, o, &mut subject)?);
        }
        self.outcomes.push(ir::Outcomes::new(out, origin, text));
        Some((self.outcomes.len() - 1) as u16)
    }

    /// Notes the roles an outcome names whose meaning depends on the cards' turn effects.
    pub fn note_roles(&mut self, layer: usize, o: &ast::Outcome, from: Lowering) {
        let target = match &o.kind {
            ast::OutcomeKind::Pays {
                to: ast::Target::Seat(w),
                ..
            }
            | ast::OutcomeKind::SwapsHands(w)
            | ast::OutcomeKind::TakesCard { from: w, .. }
            | ast::OutcomeKind::GivesCard { to: w, .. } => Some(*w),
            ast::OutcomeKind::Pays { .. }
            | ast::OutcomeKind::WinsRound
            | ast::OutcomeKind::LosesRound
            | ast::OutcomeKind::OutOfRound
            | ast::OutcomeKind::OutOfGame
            | ast::OutcomeKind::Resets { .. }
            | ast::OutcomeKind::RoundEnds
            | ast::OutcomeKind::GoesOn
            | ast::OutcomeKind::WinsGame
            | ast::OutcomeKind::GameEnds
            | ast::OutcomeKind::TakesPot
            | ast::OutcomeKind::Gains { .. }
            | ast::OutcomeKind::SetTotal(_)
            | ast::OutcomeKind::Count { .. }
            | ast::OutcomeKind::Reverses
            | ast::OutcomeKind::Draws(_)
            | ast::OutcomeKind::Skips(_)
            | ast::OutcomeKind::PlaysAgain(_) => None,
        };
        if let ast::OutcomeKind::GivesCard {
            pick: ast::Pick::Chosen,
            ..
        } = o.kind
        {
            self.chosen_gift_here(layer, o, from);
        }
        for who in [o.who, target].into_iter().flatten() {
            if who == ast::Who::Chosen && !matches!(from, Lowering::Card(_)) {
                let span = self.phrase_of(layer, o.span, "a player of their choice");
                self.err(
                    layer,
                    Diag::error(
                        Code::ChosenPlayer,
                        span,
                        "`a player of their choice` is named by a card's player as they lay it: here no card is laid",
                    )
                    .label("no one chooses here")
                    .hint("say whom the rule is about (`the player`, `the next player`, `each other player`), or move the outcome to a card's line"),
                );
            }
            if matches!(who, ast::Who::Richest | ast::Who::Poorest) {
                self.tie_warning(layer, o.span, who);
            }
            // `the player who laid the previous card` is worth a look where the player pays
            // them (or they pay the player): it can be the player themselves.
            let laid_previous = who == ast::Who::LaidPrevious
                && target.is_some()
                && [o.who.unwrap_or(ast::Who::Player), target.unwrap_or(who)]
                    .contains(&ast::Who::Player);
            if matches!(who, ast::Who::Next | ast::Who::Previous) || laid_previous {
                self.roles.push(RoleUse {
                    layer,
                    span: o.span,
                    who,
                    from,
                });
            }
        }
    }

    /// `the player with the most chips`: every player tied on the most, the player
    /// themselves too, and at the start of a game every player (they hold the same chips):
    /// the line says one player and means them all, so the checker asks to say it.
    fn tie_warning(&mut self, layer: usize, span: crate::base::Span, who: ast::Who) {
        let most = if who == ast::Who::Richest {
            "most"
        } else {
            "fewest"
        };
        let text = self.text(layer, span).to_ascii_lowercase();
        let words: &[&str] = if who == ast::Who::Richest {
            &["most"]
        } else {
            &["fewest", "least"]
        };
        let (phrase, what) = words
            .iter()
            .flat_map(|w| {
                ["chips", "lives"].map(|what| (format!("the player with the {w} {what}"), what))
            })
            .find(|(ph, _)| text.contains(ph.as_str()))
            .unwrap_or_else(|| (format!("the player with the {most} chips"), "chips"));
        let tied = format!("every player with the {most} {what}");
        let at = self.phrase_of(layer, span, &phrase);
        let mut d = Diag::warning(
            Code::Role,
            at,
            format!(
                "`{phrase}` can be several players: when players are tied on the {most}, every one of them is meant, the player themselves too; at the start every player holds the same, so it is every player"
            ),
        )
        .label("which player, when tied?")
        .hint(format!(
            "say it as it plays: `{tied}` (each player tied); to single one out, name a neighbour (`the player after`)"
        ));
        if at != span {
            d = d.fix(at, tied.clone());
        }
        self.err(layer, d);
    }

    /// The span of `phrase` within `span` of `layer`'s file (case aside), or the whole span.
    fn phrase_of(&self, layer: usize, span: crate::base::Span, phrase: &str) -> crate::base::Span {
        let text = self.text(layer, span).to_ascii_lowercase();
        text.find(phrase).map_or(span, |at| {
            crate::base::Span::new(span.start + at, span.start + at + phrase.len())
        })
    }

    pub fn outcome(
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
            ast::OutcomeKind::Skips(n) => {
                let n = self.times(layer, n.as_ref(), "skipping", "players")?;
                return Some(ir::Outcome {
                    who: ir::Who::Player,
                    kind: ir::OutcomeKind::Skip(n),
                });
            }
            ast::OutcomeKind::PlaysAgain(n) => {
                if who != ir::Who::Player {
                    self.err(
                        layer,
                        Diag::error(
                            Code::Syntax,
                            o.span,
                            "only the player whose turn it is can play again",
                        )
                        .label("not the player")
                        .hint("say `the player plays again`; to make another player play next, a card may say `choose who plays next`"),
                    );
                    return None;
                }
                ir::OutcomeKind::Again(self.times(layer, n.as_ref(), "playing again", "times")?)
            }
            ast::OutcomeKind::Pays { amount, to } => {
                let amount_ir = self.value(layer, amount, false)?;
                let n = match amount_ir {
                    ir::Amount::Fixed(n) => n,
                    ir::Amount::Of(_) => 1,
                };
                if n < 0 {
                    self.err(
                        layer,
                        Diag::error(Code::BadNumber, amount.span, format!("a player cannot pay {n} chips"))
                            .hint("to give a player chips, say where they come from: `the player takes 1 from the bank`, or `each other player pays 1 to the player`"),
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
                            Code::PaysSelf,
                            o.span,
                            "a player pays themselves here: nothing changes",
                        )
                        .hint("pay the bank, the pot or another player"),
                    );
                }
                ir::OutcomeKind::Pay {
                    amount: amount_ir,
                    to,
                }
            }
            ast::OutcomeKind::WinsRound => ir::OutcomeKind::WinRound,
            ast::OutcomeKind::LosesRound => ir::OutcomeKind::LoseRound,
            ast::OutcomeKind::OutOfRound => ir::OutcomeKind::OutOfRound,
            ast::OutcomeKind::OutOfGame => ir::OutcomeKind::OutOfGame,
            ast::OutcomeKind::Resets { pile } => ir::OutcomeKind::ResetTotal(*pile),
            ast::OutcomeKind::RoundEnds => ir::OutcomeKind::EndRound,
            ast::OutcomeKind::WinsGame => ir::OutcomeKind::WinGame,
            ast::OutcomeKind::GameEnds => ir::OutcomeKind::EndGame,
            ast::OutcomeKind::Reverses => ir::OutcomeKind::Reverse,
            // Said only to be plain; a card's step of it does nothing (see `act`).
            ast::OutcomeKind::GoesOn => return None,
            ast::OutcomeKind::TakesPot => ir::OutcomeKind::TakePot,
            ast::OutcomeKind::Gains { amount, from } => {
                let amount_ir = self.value(layer, amount, false)?;
                let n = match amount_ir {
                    ir::Amount::Fixed(n) => n,
                    ir::Amount::Of(_) => 1,
                };
                if n <= 0 {
                    self.err(
                        layer,
                        Diag::error(
                            Code::BadNumber,
                            amount.span,
                            format!("a player cannot gain {n} chips"),
                        )
                        .hint("a gain is a number above 0; to make a player lose chips, say `the player pays 1`"),
                    );
                    return None;
                }
                let from = match from {
                    ast::Pool::Bank => ir::Pool::Bank,
                    ast::Pool::Pot => ir::Pool::Pot,
                };
                ir::OutcomeKind::Gain {
                    amount: amount_ir,
                    from,
                }
            }
            ast::OutcomeKind::SetTotal(v) => {
                ir::OutcomeKind::SetTotal(self.value(layer, v, false)?)
            }
            ast::OutcomeKind::Count { count, change } => {
                return self.change_outcome(layer, count, change);
            }
            ast::OutcomeKind::Draws(_)
            | ast::OutcomeKind::SwapsHands(_)
            | ast::OutcomeKind::TakesCard { .. }
            | ast::OutcomeKind::GivesCard { .. } => self.card_move(layer, o, who)?,
        };
        Some(ir::Outcome { who, kind })
    }

    /// A card moved by a rule: drawn from the stock, or from one hand to another.
    fn card_move(
        &mut self,
        layer: usize,
        o: &ast::Outcome,
        who: ir::Who,
    ) -> Option<ir::OutcomeKind> {
        Some(match &o.kind {
            ast::OutcomeKind::Draws(v) => {
                let amount_ir = self.value(layer, v, false)?;
                if let ir::Amount::Fixed(n) = amount_ir
                    && !(1..=ir::MAX_HAND as i32).contains(&n)
                {
                    self.err(
                        layer,
                        Diag::error(
                            Code::BadNumber,
                            v.span,
                            format!("a player cannot draw {n} cards"),
                        )
                        .label(format!("from 1 to {}", ir::MAX_HAND))
                        .hint(format!(
                            "a hand holds at most {} cards: say `draws 1`",
                            ir::MAX_HAND
                        )),
                    );
                    return None;
                }
                ir::OutcomeKind::Draw(amount_ir)
            }
            ast::OutcomeKind::SwapsHands(w) => {
                self.one_other(layer, o, who, *w, "swap hands with")?;
                ir::OutcomeKind::SwapHands(who_ir(*w))
            }
            ast::OutcomeKind::TakesCard { from, pick } => {
                self.picked(layer, o, *pick, "takes a card at random from", false)?;
                self.one_other(layer, o, who, *from, "take a card from")?;
                ir::OutcomeKind::TakeCard(who_ir(*from))
            }
            ast::OutcomeKind::GivesCard { to, pick } => {
                self.picked(layer, o, *pick, "gives a card at random to", true)?;
                self.one_other(layer, o, who, *to, "give a card to")?;
                if *pick == ast::Pick::Chosen {
                    ir::OutcomeKind::GiveChosen(who_ir(*to))
                } else {
                    ir::OutcomeKind::GiveCard(who_ir(*to))
                }
            }
            ast::OutcomeKind::Reverses
            | ast::OutcomeKind::Pays { .. }
            | ast::OutcomeKind::WinsRound
            | ast::OutcomeKind::LosesRound
            | ast::OutcomeKind::OutOfRound
            | ast::OutcomeKind::OutOfGame
            | ast::OutcomeKind::Resets { .. }
            | ast::OutcomeKind::RoundEnds
            | ast::OutcomeKind::GoesOn
            | ast::OutcomeKind::WinsGame
            | ast::OutcomeKind::GameEnds
            | ast::OutcomeKind::TakesPot
            | ast::OutcomeKind::Gains { .. }
            | ast::OutcomeKind::SetTotal(_)
            | ast::OutcomeKind::Count { .. }
            | ast::OutcomeKind::Skips(_)
            | ast::OutcomeKind::PlaysAgain(_) => return None,
        })
    }

    /// A card move names one other player: not everyone at once, and not the subject.
    fn one_other(
        &mut self,
        layer: usize,
        o: &ast::Outcome,
        subject: ir::Who,
        other: ast::Who,
        verb: &str,
    ) -> Option<()> {
        let ir_other = who_ir(other);
        if matches!(
            ir_other,
            ir::Who::EachOther | ir::Who::Every | ir::Who::EachOut
        ) {
            self.err(
                layer,
                Diag::error(
                    Code::CardMove,
                    o.span,
                    format!("a player can {verb} one player at a time, not several"),
                )
                .hint(
                    "name one player: `the next player`, `the player after`, `the player before`",
                ),
            );
            return None;
        }
        if matches!(
            ir_other,
            ir::Who::LaidPrevious
                | ir::Who::Richest
                | ir::Who::Poorest
                | ir::Who::Winner
                | ir::Who::Loser
        ) && ir_other != subject
        {
            self.err(
                layer,
                Diag::warning(
                    Code::CardMove,
                    o.span,
                    format!("`{}` can be the player themselves here, and a player cannot {verb} themselves: then no card moves", who_name(other)),
                )
                .label("can be the player")
                .hint("name a neighbour, who is never the player: `the player after`, `the player before`"),
            );
        }
        if ir_other == subject {
            self.err(
                layer,
                Diag::error(
                    Code::CardMove,
                    o.span,
                    format!("a player cannot {verb} themselves"),
                )
                .hint("name another player: `the next player`, `the player before`"),
            );
            return None;
        }
        Some(())
    }

    /// How a card taken or given is picked: at random, or, for a card given, of the giver's
    /// choice (`gives a card of their choice to`). A card taken is never chosen: the taker
    /// does not see the other hand.
    fn picked(
        &mut self,
        layer: usize,
        o: &ast::Outcome,
        pick: ast::Pick,
        words: &str,
        may_choose: bool,
    ) -> Option<()> {
        let (message, label, hint) = match pick {
            ast::Pick::Random => return Some(()),
            ast::Pick::Chosen if may_choose => return Some(()),
            ast::Pick::Unsaid => (
                "which card? the line does not say how it is picked",
                "picked how?",
                if may_choose {
                    format!(
                        "say that it is picked at random (`{words} ...`), or chosen by the player giving it (`gives a card of their choice to ...`)"
                    )
                } else {
                    format!("say that it is picked at random: `{words} ...`")
                },
            ),
            ast::Pick::Chosen => (
                "a card taken from another hand cannot be chosen: the player taking it does not see that hand",
                "chosen unseen",
                format!(
                    "take it at random (`{words} ...`), or let the other player give one of their choice as they lay a card (`the player gives a card of their choice to ...`)"
                ),
            ),
            ast::Pick::Both => (
                "a card is picked at random or chosen, not both",
                "which one?",
                format!("say one: `{words} ...` or `gives a card of their choice to ...`"),
            ),
        };
        let mut diag = Diag::error(Code::CardMove, o.span, message)
            .label(label)
            .hint(hint);
        // The line as written, `at random` after its `card`.
        let text = self.layers[layer]
            .source
            .text
            .get(o.span.start..o.span.end)
            .unwrap_or("");
        if pick == ast::Pick::Unsaid
            && let Some(at) = text.to_ascii_lowercase().find(" card")
        {
            let end = at + " card".len();
            diag = diag.fix(
                o.span,
                format!("{} at random{}", &text[..end], &text[end..]),
            );
        }
        self.err(layer, diag);
        None
    }
}

pub(super) fn who_ir(w: ast::Who) -> ir::Who {
    match w {
        ast::Who::Player => ir::Who::Player,
        ast::Who::EachOther => ir::Who::EachOther,
        ast::Who::Every => ir::Who::Every,
        ast::Who::Winner => ir::Who::Winner,
        ast::Who::Loser => ir::Who::Loser,
        ast::Who::Next | ast::Who::PlaysNext => ir::Who::Next,
        ast::Who::After => ir::Who::After,
        ast::Who::Previous | ast::Who::Before => ir::Who::Previous,
        ast::Who::LaidPrevious | ast::Who::WhoeverLaid => ir::Who::LaidPrevious,
        ast::Who::Richest | ast::Who::TiedRichest => ir::Who::Richest,
        ast::Who::Poorest | ast::Who::TiedPoorest => ir::Who::Poorest,
        ast::Who::EachOut => ir::Who::EachOut,
        ast::Who::Chosen => ir::Who::Chosen,
    }
}

/// A role as the line writes it, for a diagnostic.
fn who_name(w: ast::Who) -> &'static str {
    match w {
        ast::Who::Player => "the player",
        ast::Who::EachOther => "each other player",
        ast::Who::Every => "every player",
        ast::Who::Winner => "the winner",
        ast::Who::Loser => "the loser",
        ast::Who::Next => "the next player",
        ast::Who::PlaysNext => "the player who plays next",
        ast::Who::After => "the player after",
        ast::Who::Previous => "the previous player",
        ast::Who::Before => "the player before",
        ast::Who::LaidPrevious => "the player who laid the previous card",
        ast::Who::WhoeverLaid => "whoever laid the previous card",
        ast::Who::Richest => "the player with the most chips",
        ast::Who::Poorest => "the player with the fewest chips",
        ast::Who::TiedRichest => "every player with the most chips",
        ast::Who::TiedPoorest => "every player with the fewest chips",
        ast::Who::EachOut => "each player out of the round",
        ast::Who::Chosen => "a player of their choice",
    }
}

/// The trigger a line is for, as the program names it.
pub(super) fn trigger_kind(t: ast::Trigger) -> ir::TriggerKind {
    match t {
        ast::Trigger::CannotPlay => ir::TriggerKind::CannotPlay,
        ast::Trigger::NoCards => ir::TriggerKind::NoCards,
        ast::Trigger::RoundStart => ir::TriggerKind::RoundStart,
        ast::Trigger::RoundEnd => ir::TriggerKind::RoundEnd,
        ast::Trigger::GameEnd => ir::TriggerKind::GameEnd,
    }
}
