//! How the game ends, who wins it and who leads each round: the lines collected, and what
//! they go by (chips, or a count kept for each player) resolved once the counts are known.

use super::compiler::Compiler;
use super::settings::{Collect, EndKind, EndLine, LeaderLine, Settings};
use crate::base::Code;
use crate::base::diag::Diag;
use crate::ir;
use crate::lang::ast;

/// How the game ends, who wins it and who leads each round, with what they go by resolved.
pub(super) struct Ends {
    pub rounds: Option<i64>,
    pub ending: ir::Ending,
    pub leader: ir::Leader,
    pub winner: ir::Winner,
}

impl Collect<'_, '_> {
    pub(super) fn leader(
        &mut self,
        role: ast::Role,
        side: Option<ast::Turning>,
        by: Option<&(ast::Holding, bool)>,
    ) {
        let role = match role {
            ast::Role::Dealer => ir::Role::Dealer,
            ast::Role::Loser => ir::Role::Loser,
            ast::Role::Winner => ir::Role::Winner,
        };
        let offset = match side {
            None => 0,
            Some(ast::Turning::Clockwise) => 1,
            Some(ast::Turning::Counterclockwise) => -1,
        };
        if role == ir::Role::Dealer && offset == 0 && by.is_none() {
            self.c.err(
                self.layer,
                Diag::warning(Code::DealerLeads, self.st.span, "the dealer leads each round")
                    .hint("most games have the player left of the dealer lead: `the player left of the dealer leads`")
                    .fix(self.st.span, "the player left of the dealer leads"),
            );
        }
        self.once("who leads");
        self.s.leader = self.decided(LeaderLine {
            leader: ir::Leader {
                role,
                offset,
                by: None,
            },
            by: by.cloned(),
        });
    }

    pub(super) fn game_end(&mut self, endings: &[ast::Ending]) {
        let mut lines = Vec::new();
        for e in endings {
            let mut by = ast::Holding::Chips;
            let (kind, amount) = match e {
                ast::Ending::OneLeft => (EndKind::OneLeft, None),
                ast::Ending::FirstOut => (EndKind::FirstOut, None),
                ast::Ending::PlayersLeft(a) => (EndKind::PlayersLeft(0), Some(a)),
                ast::Ending::Reach(a, h) => {
                    by = h.clone();
                    (EndKind::Reach(0), Some(a))
                }
                ast::Ending::Fall(a, h) => {
                    by = h.clone();
                    (EndKind::Fall(0), Some(a))
                }
                ast::Ending::AfterRounds(a) => (EndKind::Rounds(0), Some(a)),
            };
            let (kind, span) = match amount {
                None => (kind, self.st.span),
                Some(a) => {
                    let Some(n) = self.number(a) else { return };
                    let kind = match kind {
                        EndKind::PlayersLeft(_) => EndKind::PlayersLeft(n),
                        EndKind::Reach(_) => EndKind::Reach(n),
                        EndKind::Fall(_) => EndKind::Fall(n),
                        EndKind::OneLeft | EndKind::FirstOut | EndKind::Rounds(_) => {
                            EndKind::Rounds(n)
                        }
                    };
                    (kind, a.span)
                }
            };
            lines.push(EndLine { kind, span, by });
        }
        self.once("the end of the game");
        self.s.ending = self.decided(lines);
    }
}

impl Compiler<'_> {
    /// The rounds a game lasts at most, the other ways it ends, who wins and who leads, with
    /// the counts they go by resolved (and reported where the ruleset keeps no such count).
    pub(super) fn ends(&mut self, s: &Settings) -> Ends {
        let mut rounds = None;
        let mut e = ir::Ending::default();
        for (layer, line) in s
            .ending
            .iter()
            .flat_map(|d| d.value.iter().map(move |l| (d.layer, l)))
        {
            let at = line_number(line.kind);
            let mark = |c: &mut Self| {
                c.holding(layer, &line.by).map(|by| ir::Mark {
                    by,
                    at: at.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
                })
            };
            match line.kind {
                EndKind::OneLeft => {}
                EndKind::PlayersLeft(n) => e.left = n.clamp(1, 255) as u8,
                EndKind::FirstOut => e.first_out = true,
                EndKind::Reach(_) => e.reach = mark(self),
                EndKind::Fall(_) => e.fall = mark(self),
                EndKind::Rounds(n) => rounds = Some(n),
            }
        }
        let leader = match &s.leader {
            None => ir::Leader {
                role: ir::Role::Dealer,
                offset: 1,
                by: None,
            },
            Some(d) => ir::Leader {
                by: d.value.by.as_ref().and_then(|(h, most)| {
                    self.holding(d.layer, h)
                        .map(|by| ir::Standing { by, most: *most })
                }),
                ..d.value.leader
            },
        };
        let standing = |c: &mut Self, layer: usize, h: &ast::Holding, most: bool| {
            let by = c.holding(layer, h).unwrap_or(ir::Holding::Chips);
            ir::Winner::Best(ir::Standing { by, most })
        };
        let winner = match s.winner.as_ref() {
            Some(d) => match &d.value {
                ast::WinnerRule::Most(h) => standing(self, d.layer, h, true),
                ast::WinnerRule::Fewest(h) => standing(self, d.layer, h, false),
                ast::WinnerRule::LastLeft => ir::Winner::LastLeft,
            },
            // A game that can end with several players left is won by the most chips.
            None if rounds.is_some() || e.early() => ir::Winner::MOST_CHIPS,
            None => ir::Winner::LastLeft,
        };
        Ends {
            rounds,
            ending: e,
            leader,
            winner,
        }
    }
}

/// The number an ending line names (0 for one without).
fn line_number(kind: EndKind) -> i64 {
    match kind {
        EndKind::PlayersLeft(n) | EndKind::Reach(n) | EndKind::Fall(n) | EndKind::Rounds(n) => n,
        EndKind::OneLeft | EndKind::FirstOut => 0,
    }
}
