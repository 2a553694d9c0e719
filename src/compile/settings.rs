//! The first pass: every statement of every layer, collected into [`Settings`]. A later layer's
//! line replaces an earlier one's for the same setting, card, bar or moment; a setting said
//! twice in one file is a warning, a card, bar or moment said twice an error.

use std::collections::{BTreeMap, HashMap};

use super::compiler::{Compiler, Count, Decided, Replaced};
use crate::base::cards::{RANK_NAMES, RANK_WORDS};
use crate::base::diag::Diag;
use crate::base::span::strip_comment;
use crate::base::{Code, Span, Spanned};
use crate::ir;
use crate::lang::ast::{self, Statement, StatementKind};

/// What happens on reaching or passing a bar.
#[derive(Debug, Clone)]
pub(super) struct BarLine {
    pub outcomes: Vec<ast::Outcome>,
    /// Which way the line says the bar counts (`None`: it does not say, so going up).
    pub way: Option<ast::Way>,
    /// Where the line says it, or where it would (just after the numbers).
    pub way_span: Span,
    /// The line's text.
    pub text: String,
}

/// One way the game ends, its number worked out, and where it is said.
#[derive(Debug, Clone)]
pub(super) struct EndLine {
    pub kind: EndKind,
    pub span: Span,
    /// What a player's reach or fall goes by: chips, or a count named.
    pub by: ast::Holding,
}

/// `the player left of the loser leads`, or `the player with the most points leads, ties to
/// the left of the dealer` (`by`, resolved when the counts are known).
#[derive(Debug, Clone)]
pub(super) struct LeaderLine {
    pub leader: ir::Leader,
    pub by: Option<(ast::Holding, bool)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum EndKind {
    OneLeft,
    PlayersLeft(i64),
    FirstOut,
    Reach(i64),
    Fall(i64),
    Rounds(i64),
}

/// `on script NAME: ...`.
#[derive(Debug, Clone)]
pub(super) struct ScriptBarLine {
    pub layer: usize,
    pub line: usize,
    pub func: Spanned<String>,
    pub outcomes: Vec<ast::Outcome>,
    pub text: String,
}

/// What happens at a moment (`when a player cannot play: ...`).
#[derive(Debug, Clone)]
pub(super) struct WhenLine {
    pub outcomes: Vec<ast::Outcome>,
    pub text: String,
}

/// A trigger's line for the cases its test holds in.
#[derive(Debug, Clone)]
pub(super) struct CaseLine {
    pub trigger: ast::Trigger,
    pub condition: ast::Condition,
    pub line: WhenLine,
}

/// A card line: its effect and the effect's text.
#[derive(Debug, Clone)]
pub(super) struct CardLine {
    pub effect: ast::Effect,
    pub text: String,
}

/// The number of players: `players 2 to 5`.
#[derive(Debug, Clone, Copy)]
pub(super) struct PlayersLine {
    pub min: i64,
    pub max: i64,
    pub min_span: Span,
    pub max_span: Span,
}

/// Every setting of the chain, each as the last layer decided it.
#[derive(Debug, Default)]
pub(super) struct Settings {
    pub name: Option<Decided<String>>,
    pub about: Option<Decided<String>>,
    pub players: Option<Decided<PlayersLine>>,
    pub decks: BTreeMap<Count, Decided<i64>>,
    pub hands: BTreeMap<Count, Decided<i64>>,
    pub jokers: Option<Decided<i64>>,
    pub chips: Option<Decided<i64>>,
    pub start: Option<Decided<i64>>,
    pub ceiling: Option<Decided<i64>>,
    pub floor: Option<Decided<i64>>,
    pub clockwise: Option<Decided<bool>>,
    pub by_hand: Option<Decided<bool>>,
    pub reshuffle: Option<Decided<bool>>,
    pub first_dealer: Option<Decided<Option<i64>>>,
    pub deal_clockwise: Option<Decided<bool>>,
    pub leader: Option<Decided<LeaderLine>>,
    /// `the game ends ...`: each way it ends, its number worked out.
    pub ending: Option<Decided<Vec<EndLine>>>,
    pub winner: Option<Decided<ast::WinnerRule>>,
    pub cannot_pay: Option<Decided<bool>>,
    pub teams: Option<Decided<i64>>,
    /// Card effects by rank and player count.
    pub cards: BTreeMap<(u8, Count), Decided<CardLine>>,
    /// By value and whether passing (else reaching).
    pub bars: BTreeMap<(i64, bool), Decided<BarLine>>,
    pub triggers: BTreeMap<ast::Trigger, Decided<WhenLine>>,
    /// `when a player cannot play, if ...: ...`: a trigger's lines for some cases, in the
    /// order written, file by file.
    pub cases: Vec<Decided<CaseLine>>,
    pub script_bars: Vec<ScriptBarLine>,
    /// What `no ...` lines removed, in words (`what happens on reaching 66`).
    pub removed: Vec<Decided<String>>,
    /// `count points for each player`: the counts kept, in order.
    pub counts: Vec<Decided<super::counts::CountLine>>,
    /// Moments' lines, in order (`the round ends after 20 cards` among them).
    pub moments: Vec<Decided<super::counts::MomentLine>>,
    /// Moves beside laying a card, in order.
    pub others: Vec<Decided<super::others::OtherLine>>,
    /// A limit worked out from the table: the upper one, then the lower one.
    pub limit_values: [Option<Decided<ast::SValue>>; 2],
}

impl Settings {
    /// The layer and line of every statement the settings keep: the lines that decide the
    /// game (the lines they replaced are not among them).
    pub fn live_lines(&self) -> Vec<(usize, usize)> {
        fn at<T>(d: &Option<Decided<T>>) -> Option<(usize, usize)> {
            d.as_ref().map(|d| (d.layer, d.line))
        }
        let mut out: Vec<(usize, usize)> = [
            at(&self.name),
            at(&self.about),
            at(&self.players),
            at(&self.jokers),
            at(&self.chips),
            at(&self.start),
            at(&self.ceiling),
            at(&self.floor),
            at(&self.clockwise),
            at(&self.by_hand),
            at(&self.reshuffle),
            at(&self.first_dealer),
            at(&self.deal_clockwise),
            at(&self.leader),
            at(&self.ending),
            at(&self.winner),
            at(&self.cannot_pay),
            at(&self.teams),
        ]
        .into_iter()
        .flatten()
        .collect();
        out.extend(self.decks.values().map(|d| (d.layer, d.line)));
        out.extend(self.hands.values().map(|d| (d.layer, d.line)));
        out.extend(self.cards.values().map(|d| (d.layer, d.line)));
        out.extend(self.bars.values().map(|d| (d.layer, d.line)));
        out.extend(self.triggers.values().map(|d| (d.layer, d.line)));
        out.extend(self.script_bars.iter().map(|b| (b.layer, b.line)));
        out.extend(self.removed.iter().map(|d| (d.layer, d.line)));
        out.extend(self.counts.iter().map(|d| (d.layer, d.line)));
        out.extend(self.moments.iter().map(|d| (d.layer, d.line)));
        out.extend(self.others.iter().map(|d| (d.layer, d.line)));
        out
    }
}

impl Compiler<'_> {
    /// Collects every statement of every layer.
    pub fn collect(&mut self) -> Settings {
        let mut settings = Settings::default();
        // What each setting, card, bar and moment means, and the layer that said it last.
        let mut meanings: HashMap<String, Meant> = HashMap::new();
        for li in 0..self.layers.len() {
            self.bar_layers.push(super::compiler::BarLayer {
                before: settings.bars.keys().map(|&(n, _)| n).collect(),
                ..Default::default()
            });
            // Settings said twice in one file: the second wins, with a warning.
            let mut said: HashMap<String, Span> = HashMap::new();
            let layers = self.layers;
            for st in &layers[li].file.statements {
                if let Some(guard) = &st.guard
                    && self.guard_holds(li, guard) != Some(true)
                {
                    continue;
                }
                let mut c = Collect {
                    c: self,
                    s: &mut settings,
                    said: &mut said,
                    meanings: &mut meanings,
                    layer: li,
                    st,
                };
                c.statement();
            }
        }
        settings
    }
}

/// One statement being collected.
pub(super) struct Collect<'c, 'a> {
    pub c: &'c mut Compiler<'a>,
    pub s: &'c mut Settings,
    said: &'c mut HashMap<String, Span>,
    meanings: &'c mut HashMap<String, Meant>,
    pub layer: usize,
    pub st: &'c Statement,
}

/// What a setting, card, bar or moment means now, and the line that says it.
pub(super) struct Meant {
    layer: usize,
    line: usize,
    text: String,
}

/// A line's meaning, for comparing it with a parent's: its words, in lower case, single-spaced.
fn meaning(text: &str) -> String {
    strip_comment(text)
        .split_whitespace()
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

impl Collect<'_, '_> {
    /// The setting decided by this statement.
    pub(super) fn decided<T>(&self, value: T) -> Option<Decided<T>> {
        Some(Decided {
            value,
            layer: self.layer,
            span: self.st.span,
            line: self.st.line,
        })
    }

    /// Notes what `key` means now; warns when a parent said the very same thing (a variant
    /// states only its differences).
    pub fn means(&mut self, key: &str, text: &str) {
        let now = meaning(&self.resolved(text));
        if let Some(before) = self.meanings.get(key)
            && before.layer < self.layer
        {
            self.c.replaced.push(Replaced {
                old: (before.layer, before.line),
                by: (self.layer, self.st.span),
            });
        }
        if let Some(before) = self.meanings.get(key)
            && before.layer < self.layer
            && before.text == now
        {
            let parent = self.c.layers[before.layer].source.name.clone();
            self.c.err(
                self.layer,
                Diag::warning(
                    Code::SameAsParent,
                    self.st.span,
                    format!("this line says what `{parent}` already says"),
                )
                .hint("remove it: a variant states only what it changes"),
            );
        }
        self.meanings.insert(
            key.to_string(),
            Meant {
                layer: self.layer,
                line: self.st.line,
                text: now,
            },
        );
    }

    /// The text with every `{option}` replaced by its value: `{threshold}` means 99 here.
    fn resolved(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            match after.find('}') {
                Some(close) => {
                    let name = &after[..close];
                    match self.c.options.get(name) {
                        Some(d) => out.push_str(&d.value.to_string()),
                        None => out.push_str(&rest[open..open + close + 2]),
                    }
                    rest = &after[close + 1..];
                }
                None => {
                    out.push_str(&rest[open..]);
                    rest = "";
                }
            }
        }
        out.push_str(rest);
        out
    }

    /// Forgets what `key` meant (a `no ...` line removed it).
    pub fn forget(&mut self, key: &str) {
        if let Some(before) = self.meanings.remove(key)
            && before.layer < self.layer
        {
            self.c.replaced.push(Replaced {
                old: (before.layer, before.line),
                by: (self.layer, self.st.span),
            });
        }
    }

    /// A parent's line that ended the round, replaced by one that does not: said, since the
    /// round then goes on where it used to end (a bust line rewritten without `and loses the
    /// round` lets a stuck player pay at every turn). `the round goes on` says it is meant.
    fn dropped_round_end(
        &mut self,
        parent_layer: usize,
        parent_text: &str,
        before: &[ast::Outcome],
        now: &[ast::Outcome],
    ) {
        let ends = |k: &ast::OutcomeKind| {
            matches!(
                k,
                ast::OutcomeKind::WinsRound
                    | ast::OutcomeKind::LosesRound
                    | ast::OutcomeKind::RoundEnds
            )
        };
        let Some(ending) = before.iter().find(|o| ends(&o.kind)) else {
            return;
        };
        if now
            .iter()
            .any(|o| ends(&o.kind) || matches!(o.kind, ast::OutcomeKind::GoesOn))
        {
            return;
        }
        let parent = self.c.layers[parent_layer].source.name.clone();
        let ending_text = self.c.text(parent_layer, ending.span);
        let end = now.last().map_or(self.st.span.end, |o| o.span.end);
        self.c.err(
            self.layer,
            Diag::warning(
                Code::RoundEnd,
                self.st.span,
                format!(
                    "this line replaces `{}` ({parent}), which also ended the round; this one does not, so the round goes on",
                    strip_comment(parent_text).trim()
                ),
            )
            .label("the round no longer ends here")
            .hint(format!(
                "to end the round as before, add `and {}`; if it should go on, say so: `and the round goes on`",
                ending_text.trim()
            ))
            .fix(Span::new(end, end), format!(" and {}", ending_text.trim())),
        );
    }

    /// Notes that `key` is set by this line; warns when the file set it already, or when a
    /// parent set it the same way.
    pub(super) fn once(&mut self, key: &str) {
        let text = self.c.text(self.layer, self.st.span);
        self.means(key, &text);
        if let Some(first) = self.said.insert(key.to_string(), self.st.span) {
            self.c.err(
                self.layer,
                Diag::warning(
                    Code::SaidTwice,
                    self.st.span,
                    format!("{key} is set twice in this file; this line wins"),
                )
                .also(first, "first set here")
                .hint("remove one of the two lines"),
            );
        }
    }

    pub(super) fn number(&mut self, a: &ast::SAmount) -> Option<i64> {
        self.c.amount(self.layer, a)
    }

    /// A setting by player count: `hand 3 cards with 6 or more players`.
    fn by_count(
        &mut self,
        amount: &ast::SAmount,
        with: Option<&ast::WithPlayers>,
        key: &str,
    ) -> Option<(Count, Decided<i64>)> {
        let n = self.number(amount)?;
        let count = self.c.count(self.layer, with);
        self.once(&format!("{key}{}", count.words()));
        Some((count, self.decided(n)?))
    }

    fn statement(&mut self) {
        let st = self.st;
        match &st.kind {
            StatementKind::Name(n) => {
                self.once("the name");
                self.s.name = self.decided(n.clone());
            }
            StatementKind::About(a) => {
                self.once("the description");
                self.s.about = self.decided(a.clone());
            }
            StatementKind::Extends(_)
            | StatementKind::Option { .. }
            | StatementKind::ScriptFile(_) => {}
            StatementKind::Players { min, max } => self.players(min, max),
            StatementKind::Decks { count, with } => {
                if let Some((k, d)) = self.by_count(count, with.as_ref(), "the decks") {
                    self.s.decks.insert(k, d);
                }
            }
            StatementKind::Hand { size, with } => {
                self.c.attempted.insert("hand");
                if let Some((k, d)) = self.by_count(size, with.as_ref(), "the hand size") {
                    self.s.hands.insert(k, d);
                }
            }
            StatementKind::Jokers(n) => {
                if let Some(n) = self.number(n) {
                    self.once("the jokers");
                    self.s.jokers = self.decided(n);
                }
            }
            StatementKind::Chips(n) => {
                self.c.attempted.insert("chips");
                if let Some(n) = self.number(n) {
                    self.once("the chips");
                    self.s.chips = self.decided(n);
                }
            }
            StatementKind::Start(n) => {
                if let Some(n) = self.number(n) {
                    self.once("the starting total");
                    self.s.start = self.decided(n);
                }
            }
            StatementKind::Limit { side, value } => self.limit(*side, value),
            StatementKind::Direction(t) => {
                self.once("the direction of play");
                self.s.clockwise = self.decided(*t == ast::Turning::Clockwise);
            }
            StatementKind::Drawing { by_hand } => {
                self.once("the drawing");
                self.s.by_hand = self.decided(*by_hand);
            }
            StatementKind::EmptyStock { reshuffle } => {
                self.once("the empty stock rule");
                self.s.reshuffle = self.decided(*reshuffle);
            }
            StatementKind::FirstDealer(seat) => self.first_dealer(seat.as_ref()),
            StatementKind::DealPasses(t) => {
                self.once("the deal");
                self.s.deal_clockwise = self.decided(*t == ast::Turning::Clockwise);
            }
            StatementKind::Leader { role, side, by } => self.leader(*role, *side, by.as_ref()),
            StatementKind::GameEnd(endings) => self.game_end(endings),
            StatementKind::Winner(rule) => {
                self.once("the winner");
                self.s.winner = self.decided(rule.clone());
            }
            StatementKind::Out { when_cannot_pay } => {
                self.once("elimination");
                self.s.cannot_pay = self.decided(*when_cannot_pay);
            }
            StatementKind::Teams(n) => {
                if let Some(n) = self.number(n) {
                    self.once("the teams");
                    self.s.teams = self.decided(n);
                }
            }
            StatementKind::ScriptBar { name, outcomes } => {
                let text = self.c.text(self.layer, st.span);
                self.s.script_bars.push(ScriptBarLine {
                    layer: self.layer,
                    line: st.line,
                    func: name.clone(),
                    outcomes: outcomes.clone(),
                    text,
                });
            }
            StatementKind::Card {
                ranks,
                with,
                effect,
            } => self.card(ranks, with.as_ref(), effect),
            StatementKind::Bar {
                passing,
                values,
                way,
                outcomes,
            } => self.bar(*passing, values, way.as_ref(), outcomes),
            StatementKind::When {
                trigger,
                condition: Some(c),
                outcomes,
            } => self.when_case(*trigger, c, outcomes),
            StatementKind::When {
                trigger,
                condition: None,
                outcomes,
            } => self.when(*trigger, outcomes),
            StatementKind::Remove(r) => self.remove(r),
            StatementKind::KeepBars(values) => self.keep_bars(values),
            StatementKind::Count {
                name,
                per_player,
                start,
            } => self.count_stmt(name, *per_player, start.as_ref()),
            StatementKind::Moment {
                moment,
                condition,
                outcomes,
            } => self.moment_stmt(moment, condition.as_ref(), outcomes),
            StatementKind::RoundEnds(how) => self.round_ends_stmt(how),
            StatementKind::Other {
                stuck,
                action,
                then,
                failed,
            } => self.other_stmt(*stuck, action, then, failed.as_ref()),
        }
    }

    fn players(&mut self, min: &ast::SAmount, max: &ast::SAmount) {
        self.c.attempted.insert("players");
        let (Some(lo), Some(hi)) = (self.number(min), self.number(max)) else {
            return;
        };
        self.once("the number of players");
        self.s.players = self.decided(PlayersLine {
            min: lo,
            max: hi,
            min_span: min.span,
            max_span: max.span,
        });
    }

    fn first_dealer(&mut self, seat: Option<&ast::SAmount>) {
        let seat = match seat {
            Some(a) => match self.number(a) {
                Some(v) => Some(v),
                None => return,
            },
            None => None,
        };
        self.once("the first dealer");
        self.s.first_dealer = self.decided(seat);
    }

    fn card(
        &mut self,
        ranks: &[ast::RankItem],
        with: Option<&ast::WithPlayers>,
        effect: &ast::Effect,
    ) {
        let count = self.c.count(self.layer, with);
        let text = strip_comment(&self.c.text(self.layer, effect.span))
            .trim()
            .to_string();
        for rank in self.c.ranks(self.layer, ranks) {
            let key = (rank, count);
            self.means(&card_key(rank, count), &text);
            if let Some(prev) = self.s.cards.get(&key).filter(|p| p.layer == self.layer) {
                let what = format!("{}{}", RANK_WORDS[rank as usize], count.words());
                let diag = if prev.value.text == text {
                    Diag::warning(
                        Code::CardTwice,
                        self.st.span,
                        format!("the {what} is defined twice, the same way"),
                    )
                    .also(prev.span, "already defined here")
                    .hint("remove one of the two lines")
                } else {
                    Diag::error(
                        Code::CardConflict,
                        self.st.span,
                        format!("the {what} is defined twice, with different effects"),
                    )
                    .label("second definition")
                    .also(prev.span, "first definition")
                    .hint(format!(
                        "a card has one effect: keep one line, or take `{}` out of one of them",
                        RANK_NAMES[rank as usize]
                    ))
                };
                self.c.err(self.layer, diag);
            }
            let line = CardLine {
                effect: effect.clone(),
                text: text.clone(),
            };
            if let Some(d) = self.decided(line) {
                self.s.cards.insert(key, d);
            }
        }
    }

    fn bar(
        &mut self,
        passing: bool,
        values: &[ast::SAmount],
        way: Option<&Spanned<ast::Way>>,
        outcomes: &[ast::Outcome],
    ) {
        let text = self.c.text(self.layer, self.st.span);
        let said = outcomes_text(self.c, self.layer, outcomes);
        let way_span = way.map_or_else(
            || {
                let end = values.last().map_or(self.st.span.start, |v| v.span.end);
                Span::new(end, end)
            },
            |w| w.span,
        );
        let way = way.map(|w| w.node);
        let meant = match way {
            None | Some(ast::Way::Up) => "up",
            Some(ast::Way::Down) => "down",
            Some(ast::Way::Both) => "both",
        };
        for v in values {
            let Some(n) = self.number(v) else {
                continue;
            };
            self.bar_named(n, Some(v.span));
            let key = (n, passing);
            if let Some(prev) = self.s.bars.get(&key).filter(|p| p.layer < self.layer)
                && v.span == values[0].span
            {
                let (layer, text, old) = (
                    prev.layer,
                    prev.value.text.clone(),
                    prev.value.outcomes.clone(),
                );
                self.dropped_round_end(layer, &text, &old, outcomes);
            }
            self.means(&bar_key(n, passing), &format!("{said} {meant}"));
            if let Some(prev) = self.s.bars.get(&key).filter(|p| p.layer == self.layer) {
                let prev_span = prev.span;
                self.c.err(
                    self.layer,
                    Diag::error(
                        Code::BarTwice,
                        v.span,
                        format!(
                            "what happens on {} {n} is said twice",
                            if passing { "passing" } else { "reaching" }
                        ),
                    )
                    .also(prev_span, "first said here")
                    .hint("put everything that happens on one line, joined by `and`"),
                );
            }
            self.s.bars.insert(
                key,
                Decided {
                    value: BarLine {
                        outcomes: outcomes.to_vec(),
                        way,
                        way_span,
                        text: text.clone(),
                    },
                    layer: self.layer,
                    span: v.span,
                    line: self.st.line,
                },
            );
        }
    }

    /// `when a player cannot play, if ...: ...`: a line for some cases, beside the line
    /// without a test (which says what happens otherwise).
    fn when_case(
        &mut self,
        trigger: ast::Trigger,
        condition: &ast::Condition,
        outcomes: &[ast::Outcome],
    ) {
        let line = CaseLine {
            trigger,
            condition: condition.clone(),
            line: WhenLine {
                outcomes: outcomes.to_vec(),
                text: self.c.text(self.layer, self.st.span),
            },
        };
        if let Some(d) = self.decided(line) {
            self.s.cases.push(d);
        }
    }

    fn when(&mut self, trigger: ast::Trigger, outcomes: &[ast::Outcome]) {
        if trigger == ast::Trigger::CannotPlay {
            self.c.attempted.insert("cannot play");
        }
        if let Some(prev) = self
            .s
            .triggers
            .get(&trigger)
            .filter(|p| p.layer == self.layer)
        {
            let prev_span = prev.span;
            self.c.err(
                self.layer,
                Diag::error(
                    Code::WhenTwice,
                    self.st.span,
                    format!("{} already has a rule in this file", trigger_words(trigger)),
                )
                .also(prev_span, "first rule")
                .hint("put everything that happens on one line, joined by `and`"),
            );
        }
        let said = outcomes_text(self.c, self.layer, outcomes);
        if let Some(prev) = self
            .s
            .triggers
            .get(&trigger)
            .filter(|p| p.layer < self.layer)
        {
            let (layer, text, old) = (
                prev.layer,
                prev.value.text.clone(),
                prev.value.outcomes.clone(),
            );
            self.dropped_round_end(layer, &text, &old, outcomes);
        }
        self.means(&when_key(trigger), &said);
        let line = WhenLine {
            outcomes: outcomes.to_vec(),
            text: self.c.text(self.layer, self.st.span),
        };
        if let Some(d) = self.decided(line) {
            self.s.triggers.insert(trigger, d);
        }
    }
}

pub(super) fn trigger_words(t: ast::Trigger) -> &'static str {
    match t {
        ast::Trigger::CannotPlay => "what happens when a player cannot play",
        ast::Trigger::NoCards => "what happens when a player has no cards",
        ast::Trigger::RoundStart => "the start of each round",
        ast::Trigger::RoundEnd => "the end of each round",
        ast::Trigger::GameEnd => "the end of the game",
    }
}

/// The keys under which the meaning of a card, bar or moment is remembered.
pub(super) fn card_key(rank: u8, count: Count) -> String {
    format!("card {rank}{}", count.words())
}

pub(super) fn bar_key(value: i64, passing: bool) -> String {
    format!("bar {value} {passing}")
}

pub(super) fn when_key(t: ast::Trigger) -> String {
    format!("when {t:?}")
}

/// The words of a list of outcomes, as written.
fn outcomes_text(c: &Compiler<'_>, layer: usize, outcomes: &[ast::Outcome]) -> String {
    match (outcomes.first(), outcomes.last()) {
        (Some(a), Some(b)) => c.text(layer, Span::new(a.span.start, b.span.end)),
        _ => String::new(),
    }
}
