//! What the table keeps, compiled: the counts a ruleset declares (`count points for each
//! player`), amounts worked out from the table (`109 minus 10 times the round, but not below
//! 59`), the counts a condition reads (`the run is 3`), and the moments that run rules at a
//! point of the game (`after each card, if ...: ...`, `the round ends after 20 cards`).

use super::compiler::{Compiler, Decided, Lowering};
use super::outcomes::who_ir;
use super::settings::{Collect, Settings};
use crate::base::diag::{Diag, did_you_mean};
use crate::base::{Code, Span, Spanned};
use crate::ir::{self, MAX_COUNTS, Op, Quantity};
use crate::lang::ast::{self, SValue, TableCount, Value};

/// `count points for each player, starting at 0`, as collected.
#[derive(Debug, Clone)]
pub(super) struct CountLine {
    pub name: Spanned<String>,
    pub per_player: bool,
    pub start: i64,
}

/// A moment's line, as collected.
#[derive(Debug, Clone)]
pub(super) struct MomentLine {
    pub moment: ast::Moment,
    pub condition: Option<ast::Condition>,
    pub outcomes: Vec<ast::Outcome>,
    /// The outcomes as written.
    pub text: String,
}

/// The names of what the table keeps itself: a count may not take one.
const TABLE_WORDS: [&str; 9] = [
    "total", "limit", "round", "run", "pot", "stock", "chips", "cards", "player",
];

impl Collect<'_, '_> {
    /// `the total may not go above 99`, `... above 109 minus 10 times the round`: a number,
    /// or an amount worked out from the table (its value at the start set once every line
    /// is collected).
    pub(super) fn limit(&mut self, side: ast::Side, value: &ast::SValue) {
        let slot = usize::from(side == ast::Side::Below);
        let n = match value.node.as_amount() {
            Some(a) => {
                let a = Spanned {
                    node: a.clone(),
                    span: value.span,
                };
                let Some(n) = self.c.amount(self.layer, &a) else {
                    return;
                };
                self.s.limit_values[slot] = None;
                n
            }
            None => {
                // Worked out from the table: its value at the start of the game is set
                // once every line is collected.
                self.s.limit_values[slot] = self.decided(value.clone());
                0
            }
        };
        match side {
            ast::Side::Above => {
                self.once("the upper limit");
                self.s.ceiling = self.decided(n);
            }
            ast::Side::Below => {
                self.once("the lower limit");
                self.s.floor = self.decided(n);
            }
        }
    }

    /// `count NAME [for each player][, starting at N]`.
    pub(super) fn count_stmt(
        &mut self,
        name: &Spanned<String>,
        per_player: bool,
        start: Option<&ast::SAmount>,
    ) {
        let first = match start {
            Some(a) => match self.c.amount(self.layer, a) {
                Some(n) => n,
                None => return,
            },
            None => 0,
        };
        let lower = name.node.to_lowercase();
        if TABLE_WORDS.contains(&lower.as_str()) {
            self.c.err(
                self.layer,
                Diag::error(
                    Code::CountTwice,
                    name.span,
                    format!("`{}` is something the table keeps already", name.node),
                )
                .label("the table's own")
                .hint(format!(
                    "give the count a name of its own: `count my_{lower}, starting at 0`"
                )),
            );
            return;
        }
        if let Some(prev) = self
            .s
            .counts
            .iter()
            .find(|d| d.value.name.node.eq_ignore_ascii_case(&name.node))
        {
            let (layer, span) = (prev.layer, prev.value.name.span);
            let mut d = Diag::error(
                Code::CountTwice,
                name.span,
                format!("the count `{}` is declared twice", name.node),
            )
            .label("declared again")
            .hint("declare each count once; a variant changes what its parent's counts do with outcomes");
            if layer == self.layer {
                d = d.also(span, "first declared here");
            }
            self.c.err(self.layer, d);
            return;
        }
        let line = CountLine {
            name: name.clone(),
            per_player,
            start: first,
        };
        self.s.counts.push(Decided {
            value: line,
            layer: self.layer,
            span: self.st.span,
            line: self.st.line,
        });
    }

    /// `after each card, if ...: ...`, `when a player goes out: ...`, `when 2 players are
    /// left: ...`.
    pub(super) fn moment_stmt(
        &mut self,
        moment: &Spanned<ast::Moment>,
        condition: Option<&ast::Condition>,
        outcomes: &[ast::Outcome],
    ) {
        let text = match (outcomes.first(), outcomes.last()) {
            (Some(a), Some(b)) => self.c.text(self.layer, Span::new(a.span.start, b.span.end)),
            _ => String::new(),
        };
        self.s.moments.push(Decided {
            value: MomentLine {
                moment: moment.node.clone(),
                condition: condition.cloned(),
                outcomes: outcomes.to_vec(),
                text,
            },
            layer: self.layer,
            span: self.st.span,
            line: self.st.line,
        });
    }

    /// `the round ends after 20 cards`, `the round ends when the run is 4`: a moment after
    /// each card whose condition holds ends the round.
    pub(super) fn round_ends_stmt(&mut self, how: &ast::RoundEnd) {
        let span = self.st.span;
        let condition = match how {
            ast::RoundEnd::When(c) => c.clone(),
            ast::RoundEnd::AfterCards(n) => ast::Condition {
                tests: vec![(
                    true,
                    Spanned {
                        node: ast::Test::Count(
                            TableCount::RoundCards,
                            ast::Cmp::AtLeast,
                            n.clone(),
                        ),
                        span: n.span,
                    },
                )],
                span: n.span,
            },
        };
        let outcomes = vec![ast::Outcome {
            who: None,
            kind: ast::OutcomeKind::RoundEnds,
            span,
        }];
        self.s.moments.push(Decided {
            value: MomentLine {
                moment: ast::Moment::AfterCard,
                condition: Some(condition),
                outcomes,
                text: "the round ends".into(),
            },
            layer: self.layer,
            span,
            line: self.st.line,
        });
    }
}

impl Compiler<'_> {
    /// The counts the ruleset keeps, in the order declared (at most [`MAX_COUNTS`]).
    pub(super) fn count_infos(&mut self, s: &Settings) -> Vec<ir::CountInfo> {
        if let Some(d) = s.counts.get(MAX_COUNTS) {
            let (layer, span) = (d.layer, d.span);
            self.err(
                layer,
                Diag::error(
                    Code::TooMany,
                    span,
                    format!("a ruleset keeps at most {MAX_COUNTS} counts"),
                )
                .label("one too many")
                .hint("keep the counts that decide the game"),
            );
        }
        s.counts
            .iter()
            .take(MAX_COUNTS)
            .map(|d| ir::CountInfo {
                name: d.value.name.node.clone(),
                per_player: d.value.per_player,
                start: d
                    .value
                    .start
                    .clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
                origin: self.origin(d.layer, d.line),
            })
            .collect()
    }

    /// The quantity a count names, and whose it is; `None` (reported) for a count the
    /// ruleset does not keep.
    pub(super) fn quantity(
        &mut self,
        layer: usize,
        count: &TableCount,
        span: Span,
    ) -> Option<(Quantity, ir::Who)> {
        Some(match count {
            TableCount::Total => (Quantity::Total, ir::Who::Player),
            TableCount::Limit => {
                self.limit_reads.push((layer, span));
                (Quantity::Limit, ir::Who::Player)
            }
            TableCount::Round => (Quantity::Round, ir::Who::Player),
            TableCount::RoundCards => (Quantity::RoundCards, ir::Who::Player),
            TableCount::Run => (Quantity::Run, ir::Who::Player),
            TableCount::PlayersLeft => (Quantity::PlayersLeft, ir::Who::Player),
            TableCount::PlayersInRound => (Quantity::PlayersInRound, ir::Who::Player),
            TableCount::Stock => (Quantity::Stock, ir::Who::Player),
            TableCount::Pot => (Quantity::Pot, ir::Who::Player),
            TableCount::Seat(who, what) => {
                let q = match what {
                    ast::SeatCount::Chips => Quantity::Chips,
                    ast::SeatCount::Cards => Quantity::Cards,
                    ast::SeatCount::Named(name) => self.named_count(layer, name, true)?,
                };
                (q, who_ir(*who))
            }
            TableCount::Named(name) => {
                let _ = span;
                (self.named_count(layer, name, false)?, ir::Who::Player)
            }
        })
    }

    /// What an ending, the winner or the leader goes by: chips, or a count kept for each
    /// player; `None` (reported) for a count the ruleset does not keep, or keeps for the
    /// table (a player has none of it to compare).
    pub(super) fn holding(&mut self, layer: usize, h: &ast::Holding) -> Option<ir::Holding> {
        let name = match h {
            ast::Holding::Chips => return Some(ir::Holding::Chips),
            ast::Holding::Count(name) => name,
        };
        let table_own = self
            .counts
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(&name.node) && !c.per_player);
        if let Some(c) = table_own {
            let diag = Diag::error(
                Code::UnknownCount,
                name.span,
                format!(
                    "the count `{}` is the table's, so no player has more or fewer of it",
                    c.name
                ),
            )
            .label("not a player's")
            .hint(format!(
                "keep it for each player: `count {} for each player, starting at {}`",
                c.name, c.start
            ));
            self.err(layer, diag);
            return None;
        }
        // A count's name gives a count: `chips` is its own word, never a name.
        match self.named_count(layer, name, true)? {
            Quantity::Count(i) => Some(ir::Holding::Count(i)),
            Quantity::Chips
            | Quantity::Total
            | Quantity::Limit
            | Quantity::Round
            | Quantity::RoundCards
            | Quantity::Run
            | Quantity::PlayersLeft
            | Quantity::PlayersInRound
            | Quantity::Stock
            | Quantity::Pot
            | Quantity::Cards => Some(ir::Holding::Chips),
        }
    }

    /// A count the ruleset keeps, by name: a player's (`the player's points`) or the
    /// table's (`the streak`).
    fn named_count(
        &mut self,
        layer: usize,
        name: &Spanned<String>,
        of_a_seat: bool,
    ) -> Option<Quantity> {
        let found = self
            .counts
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(&name.node));
        let Some(i) = found else {
            let lower = name.node.to_lowercase();
            if TABLE_WORDS.contains(&lower.as_str()) {
                self.err(layer, table_word_changed(name, &lower));
                return None;
            }
            let mut names: Vec<String> = self.counts.iter().map(|c| c.name.clone()).collect();
            if of_a_seat {
                // A player's own: chips and cards are the table's words for them.
                names.extend(["chips", "chip", "cards", "card"].map(String::from));
            }
            let suggestion = did_you_mean(&name.node, names.iter().map(String::as_str));
            let hint = match suggestion {
                Some(n) => format!("did you mean `{n}`?"),
                None if of_a_seat => format!(
                    "declare it: `count {} for each player, starting at 0`",
                    name.node
                ),
                None => format!("declare it: `count {}, starting at 0`", name.node),
            };
            let mut d = Diag::error(
                Code::UnknownCount,
                name.span,
                format!("the ruleset keeps no count `{}`", name.node),
            )
            .label("not declared")
            .hint(hint);
            if let Some(n) = suggestion {
                d = d.fix(name.span, n);
            }
            self.err(layer, d);
            return None;
        };
        let info = &self.counts[i];
        if info.per_player != of_a_seat {
            let (what, fix) = if info.per_player {
                (
                    "is kept for each player",
                    format!("say whose: `the player's {}`", info.name),
                )
            } else {
                ("is the table's", format!("say `the {}`", info.name))
            };
            self.err(
                layer,
                Diag::error(
                    Code::UnknownCount,
                    name.span,
                    format!("the count `{}` {what}", info.name),
                )
                .label("whose?")
                .hint(fix),
            );
            return None;
        }
        self.count_read[i] = true;
        Some(Quantity::Count(i as u8))
    }

    /// An amount: fixed when it is a number or an option, else worked out from the table
    /// (an expression kept in the program). `only_player`: a seat's count may be the
    /// player's own only (a card's arithmetic, a condition).
    pub(super) fn value(
        &mut self,
        layer: usize,
        v: &SValue,
        only_player: bool,
    ) -> Option<ir::Amount> {
        if let Some(a) = v.node.as_amount() {
            let a = Spanned {
                node: a.clone(),
                span: v.span,
            };
            return self.amount_i32(layer, &a).map(ir::Amount::Fixed);
        }
        let mut ops = Vec::new();
        self.ops(layer, v, only_player, &mut ops)?;
        self.exprs.push(ir::Expr { ops });
        Some(ir::Amount::Of((self.exprs.len() - 1) as u16))
    }

    fn ops(
        &mut self,
        layer: usize,
        v: &SValue,
        only_player: bool,
        out: &mut Vec<Op>,
    ) -> Option<()> {
        match &v.node {
            Value::Amount(a) => {
                let a = Spanned {
                    node: a.clone(),
                    span: v.span,
                };
                out.push(Op::Num(self.amount_i32(layer, &a)?));
            }
            Value::Count(c) => {
                let (q, who) = self.quantity(layer, c, v.span)?;
                if only_player && who != ir::Who::Player && q.of_a_seat(&self.counts) {
                    self.err(
                        layer,
                        Diag::error(
                            Code::FixedAmount,
                            v.span,
                            "here an amount reads the player's own counts only",
                        )
                        .label("another player's")
                        .hint("a card's arithmetic and a condition read the player laying the card: say `the player's ...`"),
                    );
                    return None;
                }
                out.push(Op::Get(q, who));
            }
            Value::Plus(a, b) => {
                self.ops(layer, a, only_player, out)?;
                self.ops(layer, b, only_player, out)?;
                out.push(Op::Add);
            }
            Value::Minus(a, b) => {
                self.ops(layer, a, only_player, out)?;
                self.ops(layer, b, only_player, out)?;
                out.push(Op::Sub);
            }
            Value::Times(a, b) => {
                self.ops(layer, a, only_player, out)?;
                self.ops(layer, b, only_player, out)?;
                out.push(Op::Mul);
            }
            Value::Half(a) => {
                self.ops(layer, a, only_player, out)?;
                out.push(Op::Half);
            }
            Value::Twice(a) => {
                self.ops(layer, a, only_player, out)?;
                out.push(Op::Num(2));
                out.push(Op::Mul);
            }
            Value::Bounded { value, low, high } => {
                self.ops(layer, value, only_player, out)?;
                if let Some(l) = low {
                    out.push(Op::AtLeast(self.amount_i32(layer, l)?));
                }
                if let Some(h) = high {
                    out.push(Op::AtMost(self.amount_i32(layer, h)?));
                }
            }
        }
        Some(())
    }

    /// The moments' rules, in the order written, lowered: their conditions read in the
    /// situation of the player each is about.
    pub(super) fn moments(&mut self, s: &Settings) -> Vec<ir::Moment> {
        self.lowering = Lowering::Moment;
        let mut out = Vec::new();
        for d in &s.moments {
            let origin = self.origin(d.layer, d.line);
            let kind = match &d.value.moment {
                ast::Moment::AfterCard => ir::MomentKind::AfterCard,
                ast::Moment::PlayerOut => ir::MomentKind::PlayerOut,
                ast::Moment::Left(n) => match self.amount(d.layer, n) {
                    Some(k) if (1..=ir::MAX_SEATS as i64).contains(&k) => {
                        ir::MomentKind::Left(k as u8)
                    }
                    Some(k) => {
                        self.err(
                            d.layer,
                            Diag::error(
                                Code::BadNumber,
                                n.span,
                                format!("a game never has {k} players left"),
                            )
                            .hint(format!("a table seats 2 to {} players", ir::MAX_SEATS)),
                        );
                        continue;
                    }
                    None => continue,
                },
            };
            let cond = match &d.value.condition {
                Some(c) => match self.moment_cond(d.layer, c) {
                    Some(i) => Some(i),
                    None => continue,
                },
                None => None,
            };
            let Some(outcomes) =
                self.outcomes(d.layer, &d.value.outcomes, origin, d.value.text.clone())
            else {
                continue;
            };
            out.push(ir::Moment {
                kind,
                cond,
                outcomes,
                origin,
            });
        }
        out
    }
}

impl Compiler<'_> {
    /// The limits worked out from the table: each compiled, and its setting given its value
    /// at the start of the game (what the checker's analyses read).
    pub(super) fn limit_exprs(&mut self, s: &mut Settings) -> [Option<u16>; 2] {
        let mut out = [None, None];
        for (slot, expr) in out.iter_mut().enumerate() {
            let Some(d) = s.limit_values[slot].clone() else {
                continue;
            };
            let Some(ir::Amount::Of(e)) = self.value(d.layer, &d.value, false) else {
                continue;
            };
            let chips = s.chips.as_ref().map_or(0, |c| c.value);
            let start = s.start.as_ref().map_or(0, |t| t.value);
            let players = s.players.as_ref().map_or(2, |p| p.value.min);
            let counts: Vec<i32> = self.counts.iter().map(|c| c.start).collect();
            let first = self.exprs[usize::from(e)].eval(|q, _| match q {
                Quantity::Total => start as i32,
                Quantity::Limit => i32::MAX,
                Quantity::Round => 1,
                Quantity::PlayersLeft | Quantity::PlayersInRound => players as i32,
                Quantity::Chips => chips as i32,
                Quantity::Count(i) => counts.get(usize::from(i)).copied().unwrap_or(0),
                Quantity::RoundCards
                | Quantity::Run
                | Quantity::Stock
                | Quantity::Pot
                | Quantity::Cards => 0,
            });
            let value = Decided {
                value: i64::from(first),
                layer: d.layer,
                span: d.span,
                line: d.line,
            };
            if slot == 0 {
                s.ceiling = Some(value);
            } else {
                s.floor = Some(value);
            }
            *expr = Some(e);
        }
        out
    }

    /// A count no line reads is kept for nothing: warned at its declaration.
    pub(super) fn unused_counts(&mut self, s: &Settings) {
        for (i, d) in s.counts.iter().enumerate().take(MAX_COUNTS) {
            if self.count_read.get(i).copied().unwrap_or(true) {
                continue;
            }
            let name = d.value.name.clone();
            // A script reads it by name: `game.count("last")`.
            let asked = [
                format!("count(\"{}\")", name.node),
                format!("count('{}')", name.node),
            ];
            if self
                .layers
                .iter()
                .flat_map(|l| &l.file.scripts)
                .any(|src| asked.iter().any(|a| src.text.contains(a.as_str())))
            {
                continue;
            }
            // A count kept for each player is read as someone's.
            let example = if d.value.per_player {
                format!("if the player's {} is at least 3: ...", name.node)
            } else {
                format!("if the {} is at least 3: ...", name.node)
            };
            self.err(
                d.layer,
                Diag::warning(
                    Code::UnusedCount,
                    name.span,
                    format!("the count `{}` is kept, but nothing reads it", name.node),
                )
                .label("never read")
                .hint(format!(
                    "read it in a condition or an amount (`{example}`), an ending (`the game ends when a player reaches 300 {0}`) or the winner line; or remove it",
                    name.node
                )),
            );
        }
    }
}

/// `the limit goes up by 5`: a word of what the table keeps, where a count would be changed.
/// Declaring a count of that name is refused too, so the help says what does work.
fn table_word_changed(name: &Spanned<String>, lower: &str) -> Diag {
    let hint = match lower {
        "limit" => "the limit is the table's, not a player's: `the limit goes up by 5`, `the limit becomes 50`".to_string(),
        "total" => "the total is the table's, not a player's: `the total goes up by 5`, `set the total to 0`".to_string(),
        _ => format!(
            "the table keeps `the {lower}` itself; keep a count of your own to change (`count my_{lower}, starting at 0`, then `the my_{lower} goes up by 1`)"
        ),
    };
    Diag::error(
        Code::UnknownCount,
        name.span,
        format!("`the {lower}` is the table's own, not a count a line can change"),
    )
    .label("the table's own")
    .hint(hint)
}
