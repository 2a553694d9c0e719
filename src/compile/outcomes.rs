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
        let target = if let ast::OutcomeKind::Pays {
            to: ast::Target::Seat(w),
            ..
        } = &o.kind
        {
            Some(*w)
        } else {
            None
        };
        for who in [o.who, target].into_iter().flatten() {
            if matches!(who, ast::Who::Next | ast::Who::Previous) {
                self.roles.push(RoleUse {
                    layer,
                    span: o.span,
                    who,
                    from,
                });
            }
        }
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
                let (what, whose) = self.quantity(layer, &count.node, count.span)?;
                if what.changeable().is_none() {
                    self.err(
                        layer,
                        Diag::error(
                            Code::FixedAmount,
                            count.span,
                            "only chips and the ruleset's own counts can be changed this way",
                        )
                        .label("kept by the table itself")
                        .hint("change the total with `set the total to ...`; declare a count of your own with `count NAME, starting at 0`"),
                    );
                    return None;
                }
                let how = match change {
                    ast::Change::Up(v) => ir::Change::Up(self.value(layer, v, false)?),
                    ast::Change::Down(v) => ir::Change::Down(self.value(layer, v, false)?),
                    ast::Change::Become(v) => ir::Change::Become(self.value(layer, v, false)?),
                    ast::Change::Reset => ir::Change::Reset,
                };
                // Whose count it is: the seats of the possessive (`each player's chips`).
                return Some(ir::Outcome {
                    who: if what.of_a_seat(&self.counts) {
                        whose
                    } else {
                        ir::Who::Player
                    },
                    kind: ir::OutcomeKind::Change { what, how },
                });
            }
        };
        Some(ir::Outcome { who, kind })
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
        ast::Who::LaidPrevious => ir::Who::LaidPrevious,
        ast::Who::Richest => ir::Who::Richest,
        ast::Who::Poorest => ir::Who::Poorest,
        ast::Who::EachOut => ir::Who::EachOut,
    }
}
