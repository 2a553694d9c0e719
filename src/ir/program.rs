//! The compiled ruleset as a whole: the table, the rank tables, and where each piece came from.

use serde::Serialize;

use super::script::{ScriptBar, ScriptFx, ScriptTest, Scripts};
use super::{Bar, Choice, Cond, Effect, MAX_SEATS, NO_EFFECT, Outcomes};
use crate::base::cards::{Card, RANKS, full_deck, full_deck_into};
use crate::base::span::strip_comment;

/// Why no player is ever without cards ([`Program::always_holds_cards`]), in the designer's
/// words: the checker's warning and the judge's "cannot happen here" say it.
pub const ALWAYS_HOLDS_CARDS: &str = "players draw after every card laid, the discard pile is shuffled into an empty stock and the deck holds more cards than the hands, so no one is ever without cards";

/// Where a compiled piece came from: a file of the `extends` chain and a line in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Origin {
    /// Index into [`Program::files`]; the last file is the ruleset itself, earlier ones its
    /// parents.
    pub file: u16,
    pub line: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Role {
    Dealer,
    Loser,
    Winner,
}

/// Which seat leads a round: `offset` seats from the role (1 = to its left).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Leader {
    pub role: Role,
    pub offset: i8,
    /// `the player with the most points leads`: the standing that picks the leader, among
    /// the players in the game; ties go to the first from `role` in the direction `offset`
    /// says.
    pub by: Option<Standing>,
}

/// What a player holds that an ending, the winner or the leader goes by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Holding {
    /// Chips (a team's, in teams).
    Chips,
    /// A count kept for each player: an index into [`Program::counts`].
    Count(u8),
}

/// Players ranked by what they hold: the most first, or the fewest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Standing {
    pub by: Holding,
    pub most: bool,
}

/// A mark a player's holding can reach (or fall to) that ends the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Mark {
    pub by: Holding,
    pub at: i32,
}

/// The ways a game ends besides one player (or team) left and a number of rounds
/// (`the game ends when a player is out`, `... when 2 players are left`, `... when a player
/// reaches 10 chips`, `... when a player falls to 1 chip`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Ending {
    /// The game ends when this many players (or teams) are left in it, or fewer.
    pub left: u8,
    /// The game ends as soon as a player (or team) is out of it.
    pub first_out: bool,
    /// The game ends as soon as a player has this many chips (or points) or more.
    pub reach: Option<Mark>,
    /// The game ends as soon as a player has this many chips (or points) or fewer.
    pub fall: Option<Mark>,
}

impl Default for Ending {
    fn default() -> Ending {
        Ending {
            left: 1,
            first_out: false,
            reach: None,
            fall: None,
        }
    }
}

impl Ending {
    /// Whether the game can end with several players (or teams) still in it.
    pub fn early(&self) -> bool {
        self.left > 1 || self.first_out || self.reach.is_some() || self.fall.is_some()
    }
}

/// Who wins the game among those it ends with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Winner {
    /// `the winner is the last player left` (the one, or the team, the game ends with)
    LastLeft,
    /// `the winner is the player with the most chips` (or `the fewest points`); tied
    /// players share the win
    Best(Standing),
}

impl Winner {
    /// `the winner is the player with the most chips`.
    pub const MOST_CHIPS: Winner = Winner::Best(Winner::MOST_CHIPS_STANDING);
    /// The most chips first.
    pub const MOST_CHIPS_STANDING: Standing = Standing {
        by: Holding::Chips,
        most: true,
    };
}

/// A declared option and the value it has in this compilation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OptionInfo {
    pub name: String,
    pub value: i64,
    pub default: i64,
    /// Allowed values in words: `1 to 10`, `199 or 299`, `yes or no`.
    pub allowed: String,
    pub origin: Origin,
}

/// Triggered outcomes, each an index into [`Program::outcomes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Triggers {
    pub cannot_play: Option<u16>,
    pub no_cards: Option<u16>,
    pub round_start: Option<u16>,
    pub round_end: Option<u16>,
    pub game_end: Option<u16>,
}

/// A limit the total may not pass, and where it was said.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Limit {
    /// The limit, or (for one worked out from the table) its value at the start of the game,
    /// which the checker's analyses read.
    pub value: i32,
    /// A limit worked out from the table when it is needed (`109 minus 10 times the round`):
    /// an index into [`Program::exprs`].
    pub expr: Option<u16>,
    pub origin: Origin,
}

/// The player counts a card line is for: every count, exactly one, or one and more.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Count {
    Any,
    Exactly(u8),
    AtLeast(u8),
}

impl Count {
    /// Whether the line applies with `n` players in the round.
    pub fn applies(self, n: usize) -> bool {
        match self {
            Count::Any => true,
            Count::Exactly(k) => usize::from(k) == n,
            Count::AtLeast(k) => usize::from(k) <= n,
        }
    }
}

/// A card line as compiled: its rank, the player counts it is for, and its effect (an index
/// into [`Program::effects`]). [`Program::rank_fx`] says which line applies at each count; the
/// lines say what the ruleset wrote (for the rules sheet, and for checks of what can fire).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CardLine {
    pub rank: u8,
    pub count: Count,
    pub fx: u16,
}

/// A checked, compiled ruleset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Program {
    pub name: String,
    pub about: String,
    /// The files of the `extends` chain, base first, the ruleset itself last.
    pub files: Vec<String>,
    /// The text of each file, for quoting the line that decides a rule.
    #[serde(skip)]
    pub sources: Vec<String>,
    pub options: Vec<OptionInfo>,
    pub min_players: u8,
    pub max_players: u8,
    /// Decks by player count.
    pub decks: [u8; MAX_SEATS + 1],
    pub jokers: u8,
    /// Hand size by player count.
    pub hand: [u8; MAX_SEATS + 1],
    pub chips: i32,
    pub start: i32,
    pub ceiling: Option<Limit>,
    pub floor: Option<Limit>,
    pub clockwise: bool,
    pub by_hand: bool,
    pub reshuffle: bool,
    /// The counts the ruleset keeps (`count points for each player`), at most
    /// [`super::MAX_COUNTS`].
    pub counts: Vec<super::CountInfo>,
    /// Amounts worked out from the table, by index (`Amount::Of`, `Act::Value`, a limit's).
    pub exprs: Vec<super::Expr>,
    /// Moments' rules (`after each card: ...`), in the order written.
    pub moments: Vec<super::Moment>,
    /// Whether a rule reads what the table keeps beyond a player's situation (a count, an
    /// amount from the table, a moment): derived from the rest ([`Program::reads_table_now`])
    /// and checked by the verifier.
    pub reads_table: bool,
    /// The first dealer's seat, or `None` for a random one.
    pub first_dealer: Option<u8>,
    pub deal_clockwise: bool,
    pub leader: Leader,
    pub rounds: Option<u32>,
    pub ending: Ending,
    pub winner: Winner,
    pub out_when_cannot_pay: bool,
    pub team_size: Option<u8>,
    /// Effect index by players still in the round, then rank.
    pub rank_fx: [[u16; RANKS]; MAX_SEATS + 1],
    /// Every card line, by rank, the general line first.
    pub card_lines: Vec<CardLine>,
    pub effects: Vec<Effect>,
    pub conds: Vec<Cond>,
    pub outcomes: Vec<Outcomes>,
    /// Sorted by value.
    pub bars: Vec<Bar>,
    pub triggers: Triggers,
    /// Trigger lines for some cases (`when a player cannot play, if ...: ...`), in the order
    /// they are tried.
    pub trigger_cases: Vec<super::TriggerCase>,
    /// Where each top-level setting was decided, for the rules sheet: name → origin.
    pub settings: Vec<(String, Origin)>,
    /// What the ruleset's `no ...` lines removed from its parents, in words.
    pub removed: Vec<(String, Origin)>,
    /// Card effects written in rhai (`run NAME`).
    pub script_fx: Vec<ScriptFx>,
    /// Tests written in rhai (`if script NAME`), always tabulated.
    pub script_tests: Vec<ScriptTest>,
    /// Bars whose test is written in rhai (`on script NAME: ...`).
    pub script_bars: Vec<ScriptBar>,
    /// Moves beside laying a card (`instead of laying a card, a player may ...`), in the
    /// order written.
    pub others: Vec<super::OtherMove>,
    /// The compiled scripts, when the ruleset has any: their code, shared by every copy of
    /// the program (two programs of the same code are equal).
    #[serde(skip)]
    pub scripts: Option<Scripts>,
}

impl Program {
    /// Whether a table of `seats` plays with two cards of one face (several decks): then two
    /// copies in a hand are one move. A deck's jokers are not copies of each other: each has
    /// its own code and face (`XS`, `XH`, ...), so one deck with jokers has none.
    #[inline]
    pub fn copies(&self, seats: u8) -> bool {
        self.decks.get(usize::from(seats)).is_some_and(|&d| d > 1)
    }

    /// The hand dealt, and drawn up to, while `in_game` players are in the game.
    #[inline(always)]
    pub fn hand_size(&self, in_game: usize) -> usize {
        usize::from(self.hand[in_game.clamp(2, MAX_SEATS)])
    }

    /// Whether no player is ever without cards at their turn, for sure ([`ALWAYS_HOLDS_CARDS`]
    /// says why in words): cards are drawn after
    /// every card laid (not by hand), the discard pile is shuffled into an empty stock, no
    /// line moves a card otherwise (no draws, gifts, takes, swaps, scripts that move cards,
    /// moves beside laying a card), every hand is dealt a card, and for every player count
    /// the deck holds more cards than every hand at its widest together, so a draw always
    /// finds one. Then `when a player has no cards` can never happen.
    pub fn always_holds_cards(&self) -> bool {
        if self.by_hand || !self.reshuffle || self.moves_cards() || !self.others.is_empty() {
            return false;
        }
        (usize::from(self.min_players)..=usize::from(self.max_players)).all(|n| {
            let fewest = (2..=n.clamp(2, MAX_SEATS))
                .map(|k| self.hand_size(k))
                .min()
                .unwrap_or(0);
            fewest >= 1 && self.deck_size(n) > n * self.widest_hand(n)
        })
    }

    /// The longest hand a game that starts with `seats` players deals or draws up to, as
    /// players leave it.
    pub fn widest_hand(&self, seats: usize) -> usize {
        (2..=seats.min(MAX_SEATS))
            .map(|k| self.hand_size(k))
            .max()
            .unwrap_or(0)
    }

    /// The cards of the deck for `players` seats: `decks` times 52 plus the jokers.
    /// Whether any line of the ruleset moves cards from one hand to another, so the table
    /// keeps who knows which card a hand holds ([`crate::engine::Kept`]).
    pub fn moves_between_hands(&self) -> bool {
        self.scripts_move_cards()
            || self
                .outcomes
                .iter()
                .any(|o| o.list.iter().any(|x| x.kind.moves_between_hands()))
    }

    /// Whether a card's script may move cards (its code names `draw`, `swap`, `take` or
    /// `give`): the program is then taken to move them as its lines may.
    pub fn scripts_move_cards(&self) -> bool {
        !self.script_fx.is_empty() && self.scripts.as_ref().is_some_and(|h| h.0.may_move_cards())
    }

    /// Whether a player who cannot play may keep their hand in the round (the table then
    /// knows ranks they do not hold, `engine::State::known_not`): the `when a player cannot
    /// play` line neither ends the round nor takes anyone out of it.
    pub fn keeps_stuck_hand(&self) -> bool {
        let lines = self.trigger_lines(super::TriggerKind::CannotPlay);
        self.triggers.cannot_play.is_none()
            || lines.into_iter().any(|i| {
                self.outcomes.get(usize::from(i)).is_some_and(|o| {
                    !o.list.iter().any(|x| {
                        matches!(
                            x.kind,
                            super::OutcomeKind::WinRound
                                | super::OutcomeKind::LoseRound
                                | super::OutcomeKind::EndRound
                                | super::OutcomeKind::OutOfRound
                                | super::OutcomeKind::OutOfGame
                                | super::OutcomeKind::WinGame
                                | super::OutcomeKind::EndGame
                        )
                    })
                })
            })
    }

    /// Whether any line moves cards (`draws`, or from hand to hand).
    pub fn moves_cards(&self) -> bool {
        self.scripts_move_cards()
            || self.outcomes.iter().any(|o| {
                o.list.iter().any(|x| {
                    matches!(x.kind, super::OutcomeKind::Draw(_)) || x.kind.moves_between_hands()
                })
            })
    }

    /// Whether a rule can put more cards in a hand than it is dealt (`draws 2`, `takes a
    /// card at random from`).
    pub fn grows_hands(&self) -> bool {
        self.scripts_move_cards()
            || self.outcomes.iter().any(|o| {
                o.list.iter().any(|x| {
                    matches!(
                        x.kind,
                        super::OutcomeKind::Draw(_)
                            | super::OutcomeKind::TakeCard(_)
                            | super::OutcomeKind::GiveCard(_)
                            | super::OutcomeKind::GiveChosen(_)
                    )
                })
            })
    }

    pub fn deck_size(&self, players: usize) -> usize {
        usize::from(self.decks[players]) * (52 + usize::from(self.jokers))
    }

    /// Every card of the deck for `players` seats, in a fixed order.
    pub fn deck(&self, players: usize) -> impl Iterator<Item = Card> {
        full_deck(self.decks[players], self.jokers)
    }

    /// [`Program::deck`] onto the end of `out`, with no list of its own.
    pub fn deck_into(&self, players: usize, out: &mut Vec<Card>) {
        full_deck_into(self.decks[players], self.jokers, out);
    }

    /// The effect index of `rank` with `active` players in the round.
    #[inline]
    pub fn effect_index(&self, active: usize, rank: u8) -> u16 {
        self.rank_fx[active.min(MAX_SEATS)][usize::from(rank)]
    }

    /// The effect of `rank` with `active` players in the round, if it has one.
    #[inline]
    pub fn effect_for(&self, active: usize, rank: u8) -> Option<&Effect> {
        let idx = self.effect_index(active, rank);
        (idx != NO_EFFECT).then(|| &self.effects[usize::from(idx)])
    }

    /// Choice `k` of effect `fx`, if there is one.
    #[inline(always)]
    pub fn choice(&self, fx: u16, k: usize) -> Option<&Choice> {
        self.effects
            .get(usize::from(fx))
            .and_then(|e| e.choices().get(k))
    }

    /// Whether `players` may sit at this table, or why not, in words.
    pub fn check_players(&self, players: usize) -> Result<(), String> {
        if players < usize::from(self.min_players) || players > usize::from(self.max_players) {
            return Err(format!(
                "{} is played by {} to {} players, not {players}",
                self.name, self.min_players, self.max_players
            ));
        }
        Ok(())
    }

    /// The player count a command uses when none is given: 3, or the nearest allowed.
    pub fn default_players(&self) -> usize {
        3.clamp(usize::from(self.min_players), usize::from(self.max_players))
    }

    /// The line of a ruleset file that an origin points at.
    pub fn line_text(&self, origin: Origin) -> &str {
        self.sources
            .get(usize::from(origin.file))
            .and_then(|s| s.lines().nth((origin.line as usize).saturating_sub(1)))
            .map_or("", |l| strip_comment(l).trim())
    }

    /// `ninety-nine.rules line 23`
    pub fn cite(&self, origin: Origin) -> String {
        let file = self
            .files
            .get(usize::from(origin.file))
            .map_or("?", |f| f.rsplit(['/', '\\']).next().unwrap_or(f));
        format!("{file} line {}", origin.line)
    }

    /// Whether a rule reads what the table keeps beyond a player's situation, worked out.
    pub fn reads_table_now(&self) -> bool {
        !self.counts.is_empty()
            || !self.exprs.is_empty()
            || !self.moments.is_empty()
            || self
                .conds
                .iter()
                .flat_map(|c| c.any_of.iter().flatten())
                .any(|t| matches!(t, super::Test::Count(..) | super::Test::CountBetween(..)))
    }

    /// Whether a limit is worked out from the table (then the engine asks the game, and the
    /// legal-choice table is left empty).
    pub fn moving_limits(&self) -> bool {
        [self.ceiling, self.floor]
            .iter()
            .flatten()
            .any(|l| l.expr.is_some())
    }

    /// The count that holds the limit, where the ruleset's lines change it.
    pub fn limit_count(&self) -> Option<u8> {
        self.counts
            .iter()
            .position(super::CountInfo::holds_the_limit)
            .map(|i| i as u8)
    }

    /// The trigger's line without a test (what happens when no case holds).
    pub fn trigger(&self, kind: super::TriggerKind) -> Option<u16> {
        let t = &self.triggers;
        match kind {
            super::TriggerKind::CannotPlay => t.cannot_play,
            super::TriggerKind::NoCards => t.no_cards,
            super::TriggerKind::RoundStart => t.round_start,
            super::TriggerKind::RoundEnd => t.round_end,
            super::TriggerKind::GameEnd => t.game_end,
        }
    }

    /// Every line of a trigger: its cases in the order tried, then the line without a test.
    pub fn trigger_lines(&self, kind: super::TriggerKind) -> impl Iterator<Item = u16> + '_ {
        self.trigger_cases
            .iter()
            .filter(move |c| c.trigger == kind)
            .map(|c| c.outcomes)
            .chain(self.trigger(kind))
    }

    /// Whether a trigger has lines for some cases.
    pub fn has_cases(&self, kind: super::TriggerKind) -> bool {
        self.trigger_cases.iter().any(|c| c.trigger == kind)
    }

    /// Whether a piece comes from the ruleset's own file rather than a parent.
    pub fn is_own(&self, origin: Origin) -> bool {
        usize::from(origin.file) + 1 == self.files.len()
    }

    /// The program without where its pieces were written (files, lines, the text of each
    /// line): two programs that play the same game are equal after this.
    pub fn meaning(&self) -> Program {
        let mut p = self.clone();
        let nowhere = Origin::default();
        p.files.clear();
        p.sources.clear();
        p.settings.clear();
        p.removed.clear();
        for o in &mut p.options {
            o.origin = nowhere;
        }
        for fx in &mut p.effects {
            fx.origin = nowhere;
            fx.text.clear();
        }
        for o in &mut p.outcomes {
            o.origin = nowhere;
            o.text.clear();
        }
        for fx in &mut p.script_fx {
            fx.origin = nowhere;
        }
        for l in [&mut p.ceiling, &mut p.floor].into_iter().flatten() {
            l.origin = nowhere;
        }
        for o in &mut p.others {
            o.origin = nowhere;
        }
        for m in &mut p.moments {
            m.origin = nowhere;
        }
        for c in &mut p.counts {
            c.origin = nowhere;
        }
        p
    }

    /// A line's text with each `{option}` it names filled in with the option's value (the
    /// text as it plays: `set the total to {threshold}` is `set the total to 99`); a name
    /// that is no option of the program stays as written.
    pub fn filled(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let Some(close) = after.find('}') else {
                out.push_str(&rest[open..]);
                return out;
            };
            match self.option(&after[..close]) {
                Some(o) => out.push_str(&o.value.to_string()),
                None => out.push_str(&rest[open..open + close + 2]),
            }
            rest = &after[close + 1..];
        }
        out.push_str(rest);
        out
    }

    pub fn option(&self, name: &str) -> Option<&OptionInfo> {
        self.options.iter().find(|o| o.name == name)
    }
}
