//! The table: players, decks, hands, jokers, chips, the starting total and its limits, teams,
//! rounds and the first dealer, checked against each other.

use std::collections::BTreeMap;

use super::compiler::{Compiler, Count, Decided, most_specific};
use super::settings::{EndKind, Settings};
use crate::base::cards::MAX_JOKERS;
use crate::base::diag::Diag;
use crate::base::{Code, Span};
use crate::ir::{MAX_DECKS, MAX_HAND, MAX_SEATS};
use crate::lang::ast;

/// The table's numbers, checked.
#[derive(Debug, Clone, Copy)]
pub(super) struct Table {
    pub min_p: usize,
    pub max_p: usize,
    pub decks: [u8; MAX_SEATS + 1],
    pub hand: [u8; MAX_SEATS + 1],
    pub jokers: i64,
    pub chips: i64,
    pub start: i64,
}

impl Compiler<'_> {
    /// Where a missing setting is reported: the start of the ruleset's first statement.
    pub fn leaf_span(&self) -> Span {
        self.layers[self.leaf()]
            .file
            .statements
            .first()
            .map_or(Span::default(), |s| Span::new(s.span.start, s.span.start))
    }

    /// Checks the table and works out its numbers for every player count. `None` when the
    /// number of players is missing or impossible (nothing else can be checked then).
    pub fn table(&mut self, s: &Settings) -> Option<Table> {
        let (min_p, max_p) = self.players(s)?;
        for d in s
            .decks
            .iter()
            .chain(s.hands.iter())
            .filter_map(|(count, d)| {
                let never = match *count {
                    Count::Any => false,
                    Count::AtLeast(n) => n > max_p as i64,
                    Count::Exactly(n) => n < min_p as i64 || n > max_p as i64,
                };
                never.then_some(d)
            })
        {
            self.err(
                d.layer,
                Diag::warning(
                    Code::NeverApplies,
                    d.span,
                    format!("this line never applies: {min_p} to {max_p} players play"),
                )
                .hint("change the player count, or remove the line"),
            );
        }
        let decks = self.by_players(&s.decks, 1, "decks", (1, MAX_DECKS as i64), (min_p, max_p));
        let hand = self.by_players(
            &s.hands,
            0,
            "cards in a hand",
            (1, MAX_HAND as i64),
            (min_p, max_p),
        );
        if s.hands.is_empty() && !self.attempted.contains("hand") {
            self.err(
                self.leaf(),
                Diag::error(
                    Code::NoHand,
                    self.leaf_span(),
                    "the ruleset never says how many cards each player holds",
                )
                .hint("add a line like `hand 3 cards`"),
            );
        }
        let jokers = self.jokers(s);
        let players_span = s
            .players
            .as_ref()
            .map_or((0, Span::default()), |p| (p.layer, p.span));
        self.deck_size(s, (min_p, max_p), &decks, &hand, jokers, players_span);
        let chips = self.chips(s);
        self.limits(s);
        self.teams(s, (min_p, max_p));
        self.rounds_and_dealer(s, min_p, chips);
        Some(Table {
            min_p,
            max_p,
            decks,
            hand,
            jokers,
            chips,
            start: s.start.as_ref().map_or(0, |s| s.value),
        })
    }

    /// `the game ends ...`, each way checked against the table; and a winner line that can
    /// name one player when the game can end with several.
    fn endings(&mut self, s: &Settings, min_p: usize, chips: i64) {
        let Some(d) = &s.ending else {
            return;
        };
        let mut early = None;
        for line in &d.value {
            // What a player starts with of what the line goes by.
            let (held, word) = match &line.by {
                ast::Holding::Chips => (chips, "chips".to_string()),
                ast::Holding::Count(name) => match self
                    .counts
                    .iter()
                    .find(|c| c.per_player && c.name.eq_ignore_ascii_case(&name.node))
                {
                    Some(c) => (i64::from(c.start), c.name.clone()),
                    // Reported where the count is resolved.
                    None => continue,
                },
            };
            let problem = match line.kind {
                EndKind::Rounds(r) if r < 1 => Some((
                    "a game lasts at least 1 round".to_string(),
                    "say `the game ends after 10 rounds`".to_string(),
                )),
                EndKind::PlayersLeft(n) if n < 1 => Some((
                    "a game cannot end with no player left".to_string(),
                    "say `the game ends when 2 players are left`".to_string(),
                )),
                EndKind::PlayersLeft(n) if n >= min_p as i64 => Some((
                    format!(
                        "with {min_p} players at the table, the game would end before it starts"
                    ),
                    if min_p > 2 {
                        format!(
                            "the game can end when at most {} players are left",
                            min_p - 1
                        )
                    } else {
                        "with 2 players the game ends when one is left; or allow more players: `players 3 to 5`".to_string()
                    },
                )),
                EndKind::Reach(n) if n <= held => Some((
                    format!("players start with {held} {word}, so the game would end at once"),
                    format!(
                        "name more {word} than players start with: `when a player reaches {} {word}`",
                        if held > 0 { held.saturating_mul(2) } else { held.saturating_add(100) }
                    ),
                )),
                EndKind::Fall(n) if n >= held => Some((
                    format!("players start with {held} {word}, so the game would end at once"),
                    match line.by {
                        ast::Holding::Chips => "name fewer chips than players start with: `when a player falls to 1 chip`".to_string(),
                        ast::Holding::Count(_) => format!(
                            "name fewer {word} than players start with: `when a player falls to {} {word}`",
                            held.saturating_sub(1)
                        ),
                    },
                )),
                EndKind::OneLeft
                | EndKind::PlayersLeft(_)
                | EndKind::FirstOut
                | EndKind::Reach(_)
                | EndKind::Fall(_)
                | EndKind::Rounds(_) => None,
            };
            if let Some((message, hint)) = problem {
                self.err(
                    d.layer,
                    Diag::error(Code::Rounds, line.span, message).hint(hint),
                );
            }
            // These certainly leave several players; after a number of rounds, it depends on
            // how rounds end (the dry run sees it).
            if !matches!(
                line.kind,
                EndKind::OneLeft | EndKind::PlayersLeft(1) | EndKind::Rounds(_)
            ) {
                early.get_or_insert((line.span, word.clone()));
            }
        }
        if let (Some(w), Some((at, word))) = (&s.winner, early)
            && w.value == ast::WinnerRule::LastLeft
        {
            let ending = self.text(d.layer, d.span);
            let ending = crate::base::span::strip_comment(&ending).trim().to_string();
            // The winner goes by what the ending goes by: chips, or the count it names.
            let winner = format!("the winner is the player with the most {word}");
            let hint = format!(
                "say who wins when `{ending}`: `{winner}` (or `the fewest {word}`); tied players share the win"
            );
            let message = "the game can end with several players left, so `the last player left` may be several";
            let diag = if d.layer > w.layer {
                // A variant's ending against its parent's winner line: said at the ending,
                // where the answer goes.
                let parent = self.layers[w.layer].source.name.clone();
                let text = &self.layers[d.layer].source.text;
                let end = text[d.span.end..]
                    .find('\n')
                    .map_or(text.len(), |i| d.span.end + i);
                Diag::error(
                    Code::WinnerRule,
                    at,
                    format!("{message} (`the winner is the last player left` is said in {parent})"),
                )
                .label("it can end with several players here")
                .hint(format!("{hint}, in this file"))
                .fix(Span::new(end, end), format!("\n{winner}"))
            } else {
                let mut diag = Diag::error(Code::WinnerRule, w.span, message)
                    .label("which of them wins?")
                    .hint(hint)
                    .fix(w.span, winner.clone());
                if d.layer == w.layer {
                    diag = diag.also(at, "it can end with several players here");
                }
                diag
            };
            self.err(d.layer.max(w.layer), diag);
        }
    }

    /// `players 2 to 5`, checked.
    fn players(&mut self, s: &Settings) -> Option<(usize, usize)> {
        let Some(players) = &s.players else {
            if self.attempted.contains("players") {
                return None;
            }
            self.err(
                self.leaf(),
                Diag::error(
                    Code::NoPlayers,
                    self.leaf_span(),
                    "the ruleset never says how many players may play",
                )
                .hint("add a line like `players 2 to 5`"),
            );
            return None;
        };
        let p = players.value;
        let mut ok = true;
        if p.min < 2 {
            self.err(
                players.layer,
                Diag::error(
                    Code::FewPlayers,
                    p.min_span,
                    format!("a game needs at least 2 players, not {}", p.min),
                )
                .hint("running-total games are played by 2 or more: `players 2 to 5`"),
            );
            ok = false;
        }
        if p.min > p.max {
            let swapped = format!("players {} to {}", p.max, p.min);
            let mut diag = Diag::error(
                Code::EmptyPlayers,
                players.span,
                format!("no number of players is from {} to {}", p.min, p.max),
            )
            .hint(format!("write the smaller number first: `{swapped}`"));
            if !self.text(players.layer, players.span).contains('{') {
                diag = diag.fix(players.span, swapped);
            }
            self.err(players.layer, diag);
            ok = false;
        }
        if p.max > MAX_SEATS as i64 {
            self.err(
                players.layer,
                Diag::error(
                    Code::ManyPlayers,
                    p.max_span,
                    format!("at most {MAX_SEATS} players can sit at one table"),
                )
                .hint(format!("lower the most players to {MAX_SEATS} or fewer")),
            );
            ok = false;
        }
        ok.then_some((p.min as usize, p.max as usize))
    }

    /// A per-player-count table from `with N players` lines.
    fn by_players(
        &mut self,
        lines: &BTreeMap<Count, Decided<i64>>,
        default: u8,
        what: &str,
        (lo, hi): (i64, i64),
        (min_p, max_p): (usize, usize),
    ) -> [u8; MAX_SEATS + 1] {
        let mut table = [default; MAX_SEATS + 1];
        for d in lines.values() {
            if !(lo..=hi).contains(&d.value) {
                self.err(
                    d.layer,
                    Diag::error(
                        Code::OutOfRange,
                        d.span,
                        format!("{} {what} is not allowed: from {lo} to {hi}", d.value),
                    )
                    .hint(format!("choose a number of {what} from {lo} to {hi}")),
                );
            }
        }
        // Every count from 2: players out of the game can leave fewer than the least who
        // may sit down, and they play on with the least's numbers.
        for (n, cell) in table.iter_mut().enumerate().take(max_p + 1).skip(2) {
            if let Some(d) = most_specific(lines, n.max(min_p)) {
                *cell = d.value.clamp(lo, hi) as u8;
            }
        }
        table
    }

    fn jokers(&mut self, s: &Settings) -> i64 {
        let jokers = s.jokers.as_ref().map_or(0, |j| j.value);
        if let Some(j) = &s.jokers
            && !(0..=MAX_JOKERS as i64).contains(&j.value)
        {
            self.err(
                j.layer,
                Diag::error(
                    Code::Jokers,
                    j.span,
                    format!(
                        "a deck holds from 0 to {MAX_JOKERS} jokers, not {}",
                        j.value
                    ),
                )
                .hint("say `jokers 2 per deck`"),
            );
        }
        jokers.clamp(0, MAX_JOKERS as i64)
    }

    fn deck_size(
        &mut self,
        s: &Settings,
        (min_p, max_p): (usize, usize),
        decks: &[u8; MAX_SEATS + 1],
        hand: &[u8; MAX_SEATS + 1],
        jokers: i64,
        (players_layer, players_span): (usize, Span),
    ) {
        for (n, &d) in decks.iter().enumerate().take(max_p + 1).skip(min_p) {
            let deck = usize::from(d) * (52 + jokers as usize);
            // The most cards dealt at a table of `n`: as players leave, each may hold more.
            let (need, k) = (2..=n)
                .map(|k| (usize::from(hand[k]) * k, k))
                .max()
                .unwrap_or((0, n));
            if need > deck {
                let (layer, span) = s
                    .hands
                    .iter()
                    .rev()
                    .find(|(count, _)| count.applies(k))
                    .map_or((players_layer, players_span), |(_, d)| (d.layer, d.span));
                let who = if k == n {
                    format!("{n} players")
                } else {
                    format!("{k} players left of {n}")
                };
                self.err(
                    layer,
                    Diag::error(
                        Code::DeckTooSmall,
                        span,
                        format!("{who} holding {} cards need {need} cards, but the deck holds {deck}", hand[k]),
                    )
                    .hint(format!("deal fewer cards, allow fewer players, or add a deck: `decks 2 with {n} or more players`")),
                );
                break;
            }
        }
    }

    fn chips(&mut self, s: &Settings) -> i64 {
        match &s.chips {
            None if self.attempted.contains("chips") => 1,
            None => {
                self.err(
                    self.leaf(),
                    Diag::error(
                        Code::NoChips,
                        self.leaf_span(),
                        "the ruleset never says how many chips each player starts with",
                    )
                    .hint("add a line like `each player starts with 3 chips`"),
                );
                1
            }
            Some(c) if c.value < 1 => {
                self.err(
                    c.layer,
                    Diag::error(
                        Code::FewChips,
                        c.span,
                        format!("players must start with at least 1 chip, not {}", c.value),
                    )
                    .hint("chips are lives: `each player starts with 3 chips`"),
                );
                1
            }
            Some(c) => c.value,
        }
    }

    /// The starting total and the limits, against each other.
    fn limits(&mut self, s: &Settings) {
        let crossed = matches!((&s.ceiling, &s.floor), (Some(c), Some(f)) if f.value > c.value);
        if let (Some(c), Some(f)) = (&s.ceiling, &s.floor)
            && crossed
        {
            self.err(
                c.layer,
                Diag::error(
                    Code::LimitsCrossed,
                    c.span,
                    format!(
                        "the total may not go above {} nor below {}: no total is allowed",
                        c.value, f.value
                    ),
                )
                .also(f.span, "the lower limit")
                .hint("the upper limit must be above the lower one"),
            );
        }
        if let (Some(st), Some(c)) = (&s.start, &s.ceiling)
            && st.value > c.value
            && !crossed
        {
            self.err(
                st.layer,
                Diag::error(
                    Code::StartAboveLimit,
                    st.span,
                    format!(
                        "the total starts at {} but may not go above {}",
                        st.value, c.value
                    ),
                )
                .hint(format!("start at {} or less, or raise the limit", c.value)),
            );
        }
        if let (Some(st), Some(f)) = (&s.start, &s.floor)
            && st.value < f.value
            && !crossed
        {
            self.err(
                st.layer,
                Diag::error(
                    Code::StartBelowLimit,
                    st.span,
                    format!(
                        "the total starts at {} but may not go below {}",
                        st.value, f.value
                    ),
                )
                .hint(format!("start at {} or more, or lower the limit", f.value)),
            );
        }
    }

    fn teams(&mut self, s: &Settings, (min_p, max_p): (usize, usize)) {
        let (Some(t), Some(players)) = (&s.teams, &s.players) else {
            return;
        };
        if t.value < 2 {
            self.err(
                t.layer,
                Diag::error(Code::Teams, t.span, "a team needs at least 2 players")
                    .hint("say `players play in teams of 2 sharing chips`"),
            );
        } else if (min_p as i64) < t.value * 2 {
            let hint = if t.value * 2 > MAX_SEATS as i64 {
                format!(
                    "two teams of {} would need {} seats, and a table has {MAX_SEATS}: make teams of at most {}",
                    t.value,
                    t.value * 2,
                    MAX_SEATS / 2
                )
            } else {
                format!(
                    "allow at least {} players: `players {} to {}`",
                    t.value * 2,
                    t.value * 2,
                    (t.value * 2).max(max_p as i64)
                )
            };
            let mut d = Diag::error(
                Code::TeamsAlone,
                t.span,
                format!(
                    "with {min_p} players in teams of {}, one team has no opponents",
                    t.value
                ),
            )
            .hint(hint);
            // The players line is shown when it is in the same file.
            if players.layer == t.layer {
                d = d.also(players.span, "the number of players");
            }
            self.err(t.layer, d);
        } else if let Some(n) = (min_p..=max_p).find(|n| n % t.value as usize != 0) {
            let mut d = Diag::error(
                Code::TeamsUneven,
                t.span,
                format!("{n} players cannot sit in teams of {}", t.value),
            )
            .hint(format!(
                "allow only multiples of {}, for example `players {} to {}`",
                t.value,
                t.value * 2,
                t.value * 2
            ));
            if players.layer == t.layer {
                d = d.also(players.span, "the number of players");
            }
            self.err(t.layer, d);
        }
    }

    fn rounds_and_dealer(&mut self, s: &Settings, min_p: usize, chips: i64) {
        self.endings(s, min_p, chips);
        if let Some(Decided {
            value: Some(seat),
            layer,
            span,
            ..
        }) = &s.first_dealer
            && (*seat < 0 || *seat >= min_p as i64)
        {
            self.err(
                *layer,
                Diag::error(
                    Code::DealerSeat,
                    *span,
                    format!(
                        "there may be no player {seat}: seats are numbered from 0 to {}",
                        min_p - 1
                    ),
                )
                .hint("say `the first dealer is player 0`, or `chosen at random`"),
            );
        }
    }
}
