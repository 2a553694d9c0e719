//! The rules sheet (`ninety rules`), written from the compiled ruleset so it never drifts
//! from the file: one function per section.

use std::collections::HashSet;
use std::fmt::Write as _;

use super::events::direction_word;
use super::words::{effect_words, outcomes_words};
use crate::base::cards::{JOKER, RANK_NAMES, RANK_WORDS, RANKS};
use crate::ir::{MAX_SEATS, NO_EFFECT, Origin, Program, Role};

/// How a variant's sheet knows what it changed: the lines of its base's sheet, or, without
/// them, where each piece was written.
struct Marker<'a> {
    base: Option<&'a HashSet<String>>,
    md: bool,
}

impl Marker<'_> {
    fn mark(&self, p: &Program, line: &str, origin: Option<Origin>) -> &'static str {
        let changed = match self.base {
            Some(lines) => !lines.contains(line),
            None => p.files.len() > 1 && origin.is_some_and(|o| p.is_own(o)),
        };
        match (changed, self.md) {
            (false, _) => "",
            (true, true) => " **(changed)**",
            (true, false) => "  [changed]",
        }
    }
}

fn origin_of(p: &Program, name: &str) -> Option<Origin> {
    p.settings.iter().find(|(n, _)| n == name).map(|(_, o)| *o)
}

/// The rules sheet: a page a player can read at the table. For a variant, give its base's
/// compiled program: every line that reads differently from the base's sheet is marked,
/// whether the variant changed a line, an option's value or a card.
pub fn rules_sheet(p: &Program, base: Option<&Program>, md: bool) -> String {
    let lines: Option<HashSet<String>> = base.map(|b| {
        let marker = Marker {
            base: None,
            md: false,
        };
        Sheet::new(b, &marker, false)
            .write()
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("- ").map(str::to_string))
            .collect()
    });
    let marker = Marker {
        base: lines.as_ref(),
        md,
    };
    Sheet::new(p, &marker, md).write()
}

/// One item of the rules sheet: what it is about (`card 9`, `players`, `passing 99`: the same
/// key in a variant and its parent), the line that decided it (`None` for a default), and its
/// sentence as the sheet prints it, without the `[changed]` mark.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SheetItem {
    pub key: String,
    pub origin: Option<Origin>,
    pub sentence: String,
}

/// The items of the rules sheet, in its order, recorded while the sheet is written: an editor's
/// hover says what the sheet says, and the two cannot disagree.
pub fn sheet_items(p: &Program) -> Vec<SheetItem> {
    let marker = Marker {
        base: None,
        md: false,
    };
    let mut sheet = Sheet::new(p, &marker, false);
    sheet.write_sections();
    sheet.items
}

/// A sheet being written.
struct Sheet<'a> {
    p: &'a Program,
    marker: &'a Marker<'a>,
    md: bool,
    out: String,
    items: Vec<SheetItem>,
}

impl<'a> Sheet<'a> {
    fn new(p: &'a Program, marker: &'a Marker<'a>, md: bool) -> Self {
        Sheet {
            p,
            marker,
            md,
            out: String::new(),
            items: Vec::new(),
        }
    }

    fn write(mut self) -> String {
        self.write_sections();
        self.out
    }

    fn write_sections(&mut self) {
        self.header();
        self.table();
        self.cards();
        self.limits();
        self.penalties();
        self.options();
    }

    fn h1(&mut self, t: &str) {
        if self.md {
            let _ = writeln!(self.out, "# {t}\n");
        } else {
            let _ = writeln!(self.out, "{t}\n{}\n", "=".repeat(t.chars().count()));
        }
    }

    fn h2(&mut self, t: &str) {
        if self.md {
            let _ = writeln!(self.out, "\n## {t}\n");
        } else {
            let _ = writeln!(self.out, "\n{t}\n{}", "-".repeat(t.chars().count()));
        }
    }

    fn item(&mut self, key: &str, t: &str, o: Option<Origin>) {
        self.record(key, t, o);
        let m = self.marker.mark(self.p, t, o);
        let _ = writeln!(self.out, "- {t}{m}");
    }

    fn record(&mut self, key: &str, t: &str, o: Option<Origin>) {
        self.items.push(SheetItem {
            key: key.to_string(),
            origin: o,
            sentence: t.to_string(),
        });
    }

    fn header(&mut self) {
        let p = self.p;
        self.h1(&p.name);
        if !p.about.is_empty() {
            let _ = writeln!(self.out, "{}", p.about);
        }
        if p.files.len() > 1 {
            let base: Vec<String> = p.files[..p.files.len() - 1]
                .iter()
                .map(|f| {
                    f.rsplit(['/', '\\'])
                        .next()
                        .unwrap_or(f)
                        .trim_end_matches(".rules")
                        .to_string()
                })
                .collect();
            let _ = writeln!(
                self.out,
                "\nA variant of {}; what it changes is marked.",
                base.join(" ← ")
            );
        }
    }

    /// A per-player-count table in words: `3`, or `1 with 2 to 4 players; 2 with 5 players`.
    fn by_players(&self, table: &[u8; MAX_SEATS + 1]) -> String {
        let (lo, hi) = (
            usize::from(self.p.min_players),
            usize::from(self.p.max_players),
        );
        let mut parts: Vec<String> = Vec::new();
        let mut n = lo;
        while n <= hi {
            let v = table[n];
            let mut m = n;
            while m < hi && table[m + 1] == v {
                m += 1;
            }
            parts.push(if n == lo && m == hi {
                v.to_string()
            } else if n == m {
                format!("{v} with {n} players")
            } else {
                format!("{v} with {n} to {m} players")
            });
            n = m + 1;
        }
        parts.join("; ")
    }

    fn table(&mut self) {
        let p = self.p;
        self.h2("The table");
        self.item(
            "players",
            &format!("Players: {} to {}.", p.min_players, p.max_players),
            origin_of(p, "players"),
        );
        let jokers = if p.jokers > 0 {
            format!(", each with {} jokers", p.jokers)
        } else {
            String::new()
        };
        let decks = self.by_players(&p.decks);
        self.item(
            "decks",
            &format!("Decks of 52 cards: {decks}{jokers}."),
            origin_of(p, "decks"),
        );
        let hand = self.by_players(&p.hand);
        self.item(
            "hand",
            &format!("Cards in hand: {hand}."),
            origin_of(p, "hand"),
        );
        self.item(
            "chips",
            &format!(
                "Chips: {} each{}.",
                p.chips,
                p.team_size
                    .map_or(String::new(), |t| format!(", shared by teams of {t}"))
            ),
            origin_of(p, "chips").or(origin_of(p, "teams")),
        );
        self.item(
            "start",
            &format!("The total starts at {}.", p.start),
            origin_of(p, "start"),
        );
        self.item(
            "direction",
            &format!(
                "Play goes {} at the start of each round.",
                direction_word(p.clockwise)
            ),
            origin_of(p, "direction"),
        );
        let dealer = match p.first_dealer {
            None => "The first dealer is chosen at random".to_string(),
            Some(d) => format!("Seat {d} deals first"),
        };
        self.item(
            "dealer",
            &format!(
                "{dealer}; the deal passes {}.",
                if p.deal_clockwise { "left" } else { "right" }
            ),
            origin_of(p, "deal").or(origin_of(p, "first dealer")),
        );
        self.item("leader", &lead_words(p), origin_of(p, "leader"));
        self.item(
            "drawing",
            &if p.by_hand {
                "Players draw by hand after playing: one who forgets plays on with fewer cards."
                    .to_string()
            } else {
                "After playing, a player draws back up to a full hand.".to_string()
            },
            origin_of(p, "drawing"),
        );
        self.item(
            "stock",
            &if p.reshuffle {
                "When the stock is empty, the discard pile but its top card is shuffled into a new stock.".to_string()
            } else {
                "When the stock is empty, play goes on without drawing.".to_string()
            },
            origin_of(p, "stock"),
        );
    }

    fn cards(&mut self) {
        let p = self.p;
        self.h2("The cards");
        let range = usize::from(p.min_players)..=usize::from(p.max_players);
        let general = &p.rank_fx[usize::from(p.max_players)];
        for rank in 0..RANKS {
            let idx = general[rank];
            if idx == NO_EFFECT || (rank == usize::from(JOKER) && p.jokers == 0) {
                continue;
            }
            let fx = &p.effects[usize::from(idx)];
            self.item(
                &format!("card {}", RANK_NAMES[rank]),
                &format!("{}: {}.", RANK_WORDS[rank], effect_words(p, fx)),
                Some(fx.origin),
            );
            // Player-count exceptions.
            let mut shown: Vec<u16> = vec![idx];
            for n in range.clone() {
                let other = p.rank_fx[n][rank];
                if other != NO_EFFECT && !shown.contains(&other) {
                    shown.push(other);
                    let counts: Vec<String> = range
                        .clone()
                        .filter(|k| p.rank_fx[*k][rank] == other)
                        .map(|k| k.to_string())
                        .collect();
                    let ofx = &p.effects[usize::from(other)];
                    let line = format!(
                        "with {} players left: {}.",
                        counts.join(" or "),
                        effect_words(p, ofx)
                    );
                    let key = format!("card {} with {}", RANK_NAMES[rank], counts.join(" or "));
                    self.record(&key, &line, Some(ofx.origin));
                    let m = self.marker.mark(p, &line, Some(ofx.origin));
                    let _ = writeln!(self.out, "  - {line}{m}");
                }
            }
        }
    }

    fn limits(&mut self) {
        let p = self.p;
        self.h2("Limits and bars");
        if let Some(c) = p.ceiling {
            self.item(
                "limit above",
                &format!(
                    "The total may never go above {}: such a card cannot be played.",
                    c.value
                ),
                Some(c.origin),
            );
        }
        if let Some(f) = p.floor {
            self.item(
                "limit below",
                &format!(
                    "The total may never go below {}: such a card cannot be played.",
                    f.value
                ),
                Some(f.origin),
            );
        }
        for b in &p.bars {
            if let Some(i) = b.reach {
                let o = &p.outcomes[usize::from(i)];
                let way = if b.reach_either_way {
                    " (from either side)"
                } else {
                    " going up"
                };
                self.item(
                    &format!("reaching {}", b.value),
                    &format!("Reaching exactly {}{way}: {}.", b.value, outcomes_words(o)),
                    Some(o.origin),
                );
            }
            if let Some(i) = b.pass {
                let o = &p.outcomes[usize::from(i)];
                let way = if b.pass_either_way {
                    " (either way)"
                } else {
                    " going up"
                };
                self.item(
                    &format!("passing {}", b.value),
                    &format!("Passing {}{way}: {}.", b.value, outcomes_words(o)),
                    Some(o.origin),
                );
            }
        }
        if p.ceiling.is_none() && p.floor.is_none() && p.bars.is_empty() {
            let _ = writeln!(self.out, "- None.");
        }
    }

    fn penalties(&mut self) {
        let p = self.p;
        self.h2("Penalties, rounds and the end");
        let t = &p.triggers;
        for (label, i) in [
            ("A player who cannot play", t.cannot_play),
            ("A player who has no cards", t.no_cards),
            ("At the start of each round", t.round_start),
            ("At the end of each round", t.round_end),
            ("At the end of the game", t.game_end),
        ] {
            if let Some(i) = i {
                let o = &p.outcomes[usize::from(i)];
                self.item(
                    label,
                    &format!("{label}: {}.", outcomes_words(o)),
                    Some(o.origin),
                );
            }
        }
        self.item(
            "elimination",
            &if p.out_when_cannot_pay {
                "A player who must pay a chip they do not have is out of the game at once."
                    .to_string()
            } else {
                "A player who loses their last chip is out of the game.".to_string()
            },
            origin_of(p, "elimination"),
        );
        self.item(
            "game end",
            &match p.rounds {
                Some(1) => "The game ends after 1 round, or when one player is left.".to_string(),
                Some(r) => format!("The game ends after {r} rounds, or when one player is left."),
                None => "The game ends when one player is left.".to_string(),
            },
            origin_of(p, "game end"),
        );
        self.item(
            "winner",
            &if p.most_chips_wins {
                "The winner has the most chips; tied players share the win.".to_string()
            } else {
                "The winner is the last player left.".to_string()
            },
            origin_of(p, "winner"),
        );
    }

    fn options(&mut self) {
        let p = self.p;
        if p.options.is_empty() {
            return;
        }
        self.h2("Options");
        for o in &p.options {
            let word = |v: i64| {
                if o.allowed == "yes or no" {
                    if v != 0 {
                        "yes".to_string()
                    } else {
                        "no".to_string()
                    }
                } else {
                    v.to_string()
                }
            };
            let line = format!(
                "`{}` = {} ({}; default {}; change with `--set {}=...`).",
                o.name,
                word(o.value),
                o.allowed,
                word(o.default),
                o.name
            );
            self.record(&format!("option {}", o.name), &line, Some(o.origin));
            let _ = writeln!(self.out, "- {line}");
        }
    }
}

/// Who leads each round, in words.
fn lead_words(p: &Program) -> String {
    match (p.leader.role, p.leader.offset) {
        (Role::Dealer, 0) => "The dealer leads.".to_string(),
        (r, o) => {
            let role = match r {
                Role::Dealer => "dealer",
                Role::Loser => "loser of the last round",
                Role::Winner => "winner of the last round",
            };
            let side = if o > 0 { "left" } else { "right" };
            match (o, r) {
                (0, _) => {
                    format!("The {role} leads (in the first round, the player left of the dealer).")
                }
                (_, Role::Dealer) => format!("The player {side} of the dealer leads."),
                _ => format!(
                    "The player {side} of the {role} leads (in the first round, the player left of the dealer)."
                ),
            }
        }
    }
}
