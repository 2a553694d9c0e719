//! What a line changes, by name: chips, a count the ruleset keeps, the total, the limit
//! (`the player's points go up by 5`, `the total goes down by 10`, `the limit becomes 50`).
//! What the table counts for itself from what happens (the round, the run, the stock, the
//! players left) is refused, with what to write instead.
//!
//! The limit a line changes is kept as a count of the table's named `limit` (a name no
//! ruleset may give a count), which starts at the limit line's number; the limit line then
//! reads it, so the engine, the scenarios (`count limit: 104`) and the rules sheet need
//! nothing of their own.

use super::compiler::Compiler;
use crate::base::diag::Diag;
use crate::base::{Code, Span, Spanned};
use crate::ir::{self, LIMIT_COUNT, MAX_COUNTS, Origin, Quantity};
use crate::lang::ast::{self, TableCount, Value};

/// What `the limit` is to a line that changes it.
#[derive(Debug, Clone, Copy, Default)]
pub(super) enum Ceiling {
    /// No upper limit: nothing to change.
    #[default]
    None,
    /// A number, said by the line at `origin`.
    Fixed { start: i32, origin: Origin },
    /// Worked out from the table (`109 minus 10 times the round`).
    Moving,
}

impl Compiler<'_> {
    /// `WHAT goes up by N`, `... goes down by N`, `... becomes N`, `... resets`, lowered.
    pub(super) fn change_outcome(
        &mut self,
        layer: usize,
        count: &Spanned<TableCount>,
        change: &ast::Change,
    ) -> Option<ir::Outcome> {
        let by_player = |kind| ir::Outcome {
            who: ir::Who::Player,
            kind,
        };
        match &count.node {
            TableCount::Total => {
                return self.total_change(layer, count.span, change).map(by_player);
            }
            TableCount::Limit => {
                let i = self.limit_count(layer, count.span)?;
                let how = self.how(layer, change)?;
                return Some(by_player(ir::OutcomeKind::Change {
                    what: Quantity::Count(i),
                    how,
                }));
            }
            TableCount::Round
            | TableCount::RoundCards
            | TableCount::Run
            | TableCount::PlayersLeft
            | TableCount::PlayersInRound
            | TableCount::Stock
            | TableCount::Pot => {
                self.err(layer, fixed_by_the_table(&count.node, count.span));
                return None;
            }
            TableCount::Seat(_, ast::SeatCount::Cards) => {
                self.err(layer, fixed_by_the_table(&count.node, count.span));
                return None;
            }
            TableCount::Seat(..) | TableCount::Named(_) => {}
        }
        let (what, whose) = self.quantity(layer, &count.node, count.span)?;
        if what.changeable().is_none() {
            self.err(layer, fixed_by_the_table(&count.node, count.span));
            return None;
        }
        let how = self.how(layer, change)?;
        // Whose count it is: the seats of the possessive (`each player's chips`).
        Some(ir::Outcome {
            who: if what.of_a_seat(&self.counts) {
                whose
            } else {
                ir::Who::Player
            },
            kind: ir::OutcomeKind::Change { what, how },
        })
    }

    fn how(&mut self, layer: usize, change: &ast::Change) -> Option<ir::Change> {
        Some(match change {
            ast::Change::Up(v) => ir::Change::Up(self.value(layer, v, false)?),
            ast::Change::Down(v) => ir::Change::Down(self.value(layer, v, false)?),
            ast::Change::Become(v) => ir::Change::Become(self.value(layer, v, false)?),
            ast::Change::Reset => ir::Change::Reset,
        })
    }

    /// `the total goes up by 5`: the total set to itself plus 5 (no bar counts it, as for
    /// `set the total to ...`); `the total resets`: back to where it starts.
    fn total_change(
        &mut self,
        layer: usize,
        span: Span,
        change: &ast::Change,
    ) -> Option<ir::OutcomeKind> {
        let total = || {
            Box::new(Spanned {
                node: Value::Count(TableCount::Total),
                span,
            })
        };
        let to = match change {
            ast::Change::Up(v) => Value::Plus(total(), Box::new(v.clone())),
            ast::Change::Down(v) => Value::Minus(total(), Box::new(v.clone())),
            ast::Change::Become(v) => v.node.clone(),
            ast::Change::Reset => return Some(ir::OutcomeKind::ResetTotal(false)),
        };
        let to = Spanned { node: to, span };
        Some(ir::OutcomeKind::SetTotal(self.value(layer, &to, false)?))
    }

    /// The count that holds the limit lines change, made at the first such line.
    fn limit_count(&mut self, layer: usize, span: Span) -> Option<u8> {
        if let Some(i) = self.limit_count {
            return Some(i);
        }
        let (start, origin) = match self.ceiling {
            Ceiling::Fixed { start, origin } => (start, origin),
            Ceiling::None => {
                self.err(
                    layer,
                    Diag::error(
                        Code::FixedAmount,
                        span,
                        "the total has no upper limit here, so there is no limit to change",
                    )
                    .label("no limit")
                    .hint("say where the limit starts: `the total may not go above 99`"),
                );
                return None;
            }
            Ceiling::Moving => {
                self.err(
                    layer,
                    Diag::error(
                        Code::FixedAmount,
                        span,
                        "the limit is worked out from the table here, so a line cannot also change it",
                    )
                    .label("the limit line decides it")
                    .hint("write the limit as a number (`the total may not go above 99`) and let the lines change it (`the limit goes down by 10`)"),
                );
                return None;
            }
        };
        if self.counts.len() >= MAX_COUNTS {
            self.err(
                layer,
                Diag::error(
                    Code::TooMany,
                    span,
                    format!(
                        "a limit the lines change is kept as a count, and this ruleset keeps {MAX_COUNTS} counts already"
                    ),
                )
                .label("one too many")
                .hint("keep the counts that decide the game"),
            );
            return None;
        }
        self.counts.push(ir::CountInfo {
            name: LIMIT_COUNT.to_string(),
            per_player: false,
            start,
            origin,
        });
        self.count_read.push(true);
        let i = (self.counts.len() - 1) as u8;
        self.limit_count = Some(i);
        Some(i)
    }

    /// The limit line's expression once a line changes the limit: it reads the count.
    pub(super) fn changed_limit(&mut self, limits: &mut [Option<u16>; 2]) {
        if let Some(i) = self.limit_count {
            self.exprs.push(ir::Expr {
                ops: vec![ir::Op::Get(Quantity::Count(i), ir::Who::Player)],
            });
            limits[0] = Some((self.exprs.len() - 1) as u16);
        }
    }
}

/// A quantity the table counts for itself, named where a line would change it.
fn fixed_by_the_table(count: &TableCount, span: Span) -> Diag {
    let (what, hint) = match count {
        TableCount::Pot => (
            "the pot",
            "chips go into the pot by a payment (`the player pays 1 to the pot`) and out of it by a gain (`the player takes 1 from the pot`)".to_string(),
        ),
        TableCount::Seat(_, ast::SeatCount::Cards) => (
            "a player's cards",
            "cards come into a hand by a draw (`the player draws 1`) and go from one hand to another by `gives a card` or `takes a card`".to_string(),
        ),
        TableCount::Round => ("the round", own("round")),
        TableCount::RoundCards => ("the cards laid this round", own("cards")),
        TableCount::Run => ("the run", own("run")),
        TableCount::PlayersLeft => ("the players left", own("players")),
        TableCount::PlayersInRound => ("the players in the round", own("players")),
        TableCount::Stock => ("the cards in the stock", own("stock")),
        TableCount::Total | TableCount::Limit | TableCount::Seat(..) | TableCount::Named(_) => (
            "this",
            "declare a count of your own: `count NAME, starting at 0`".to_string(),
        ),
    };
    let (are, it) = if what.contains("cards") || what.contains("players") {
        ("are", "them")
    } else {
        ("is", "it")
    };
    Diag::error(
        Code::FixedAmount,
        span,
        format!("{what} {are} counted by the table from what happens: a line cannot change {it}"),
    )
    .label("the table's own")
    .hint(hint)
}

fn own(word: &str) -> String {
    format!(
        "keep a count of your own beside it (`count my_{word}, starting at 0`) and change that (`the my_{word} goes up by 1`)"
    )
}
