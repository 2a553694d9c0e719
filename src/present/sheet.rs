//! The rules sheet (`ninety rules`), written from the compiled ruleset so it never drifts
//! from the file: one function per section.

use std::fmt::Write as _;

use super::events::direction_word;
use super::words::{effect_words, outcomes_words};
use crate::base::cards::{JOKER, RANK_WORDS, RANKS};
use crate::ir::{MAX_SEATS, NO_EFFECT, Origin, Program, Role};

/// One line of the rules sheet: a section, a key that names what it is about (the same key
/// in a variant and in its parent), the sentence, and where it was decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub section: Section,
    /// `players`, `card 4`, `card 4 with 2`, `reach 66`, `trigger cannot play`...
    pub key: String,
    pub text: String,
    pub origin: Option<Origin>,
    /// A player-count exception, shown under its card.
    pub nested: bool,
}

/// The sections of the sheet, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Table,
    Cards,
    Limits,
    End,
}

impl Section {
    const ALL: [Section; 4] = [
        Section::Table,
        Section::Cards,
        Section::Limits,
        Section::End,
    ];

    fn title(self) -> &'static str {
        match self {
            Section::Table => "The table",
            Section::Cards => "The cards",
            Section::Limits => "Limits and bars",
            Section::End => "Penalties, rounds and the end",
        }
    }
}

/// What a line of a variant's sheet is to its parent's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    Same,
    Changed,
    New,
    Removed,
}

impl Mark {
    fn words(self, md: bool) -> &'static str {
        match (self, md) {
            (Mark::Same, _) => "",
            (Mark::Changed, true) => " **(changed)**",
            (Mark::Changed, false) => "  [changed]",
            (Mark::New, true) => " **(new)**",
            (Mark::New, false) => "  [new]",
            (Mark::Removed, true) => " **(removed)**",
            (Mark::Removed, false) => "  [removed]",
        }
    }
}

fn origin_of(p: &Program, name: &str) -> Option<Origin> {
    p.settings.iter().find(|(n, _)| n == name).map(|(_, o)| *o)
}

/// The rules sheet: a page a player can read at the table. For a variant, give its base's
/// compiled program: every line is compared with the base's line about the same thing, and
/// marked changed, new, or (the base's line, struck) removed.
pub fn rules_sheet(p: &Program, base: Option<&Program>, md: bool) -> String {
    let base_items = base.map(items);
    let mut sheet = Sheet {
        p,
        md,
        out: String::new(),
    };
    sheet.header();
    let own = items(p);
    for section in Section::ALL {
        sheet.h2(section.title());
        let mut any = false;
        for it in own.iter().filter(|it| it.section == section) {
            let mark = match &base_items {
                Some(b) => match b.iter().find(|x| x.key == it.key) {
                    Some(x) if x.text == it.text => Mark::Same,
                    Some(_) => Mark::Changed,
                    None => Mark::New,
                },
                // No base to read: what the variant's own file says is marked.
                None if p.files.len() > 1 && it.origin.is_some_and(|o| p.is_own(o)) => {
                    Mark::Changed
                }
                None => Mark::Same,
            };
            sheet.line(it, mark);
            any = true;
        }
        for gone in base_items
            .iter()
            .flatten()
            .filter(|x| x.section == section && !own.iter().any(|it| it.key == x.key))
        {
            sheet.line(gone, Mark::Removed);
            any = true;
        }
        if section == Section::Limits && !any {
            let _ = writeln!(sheet.out, "- None.");
        }
    }
    if base_items.is_none() && !p.removed.is_empty() {
        sheet.h2("Removed from the parent");
        for (what, _) in &p.removed {
            let _ = writeln!(sheet.out, "- {what}.");
        }
    }
    sheet.options();
    sheet.out
}

/// Every line of the rules sheet, in order, with where each was decided (for the sheet, and
/// for an editor's hover).
pub fn items(p: &Program) -> Vec<Item> {
    let mut out = Vec::new();
    table_items(p, &mut out);
    card_items(p, &mut out);
    limit_items(p, &mut out);
    end_items(p, &mut out);
    out
}

fn push(out: &mut Vec<Item>, section: Section, key: &str, text: String, origin: Option<Origin>) {
    out.push(Item {
        section,
        key: key.to_string(),
        text,
        origin,
        nested: false,
    });
}

/// A sheet being written.
struct Sheet<'a> {
    p: &'a Program,
    md: bool,
    out: String,
}

impl Sheet<'_> {
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

    fn line(&mut self, it: &Item, mark: Mark) {
        let indent = if it.nested { "  " } else { "" };
        let text = if mark == Mark::Removed && self.md {
            format!("~~{}~~", it.text)
        } else {
            it.text.clone()
        };
        let _ = writeln!(self.out, "{indent}- {text}{}", mark.words(self.md));
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
}

/// A per-player-count table in words: `3`, or `1 with 2 to 4 players; 2 with 5 players`.
fn by_players(p: &Program, table: &[u8; MAX_SEATS + 1]) -> String {
    let (lo, hi) = (usize::from(p.min_players), usize::from(p.max_players));
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

fn table_items(p: &Program, out: &mut Vec<Item>) {
    let t = Section::Table;
    push(
        out,
        t,
        "players",
        format!("Players: {} to {}.", p.min_players, p.max_players),
        origin_of(p, "players"),
    );
    let jokers = if p.jokers > 0 {
        format!(", each with {} jokers", p.jokers)
    } else {
        String::new()
    };
    push(
        out,
        t,
        "decks",
        format!("Decks of 52 cards: {}{jokers}.", by_players(p, &p.decks)),
        origin_of(p, "decks"),
    );
    push(
        out,
        t,
        "hand",
        format!("Cards in hand: {}.", by_players(p, &p.hand)),
        origin_of(p, "hand"),
    );
    push(
        out,
        t,
        "chips",
        format!(
            "Chips: {} each{}.",
            p.chips,
            p.team_size
                .map_or(String::new(), |t| format!(", shared by teams of {t}"))
        ),
        origin_of(p, "chips").or(origin_of(p, "teams")),
    );
    push(
        out,
        t,
        "start",
        format!("The total starts at {}.", p.start),
        origin_of(p, "start"),
    );
    push(
        out,
        t,
        "direction",
        format!(
            "Play goes {} at the start of each round.",
            direction_word(p.clockwise)
        ),
        origin_of(p, "direction"),
    );
    let dealer = match p.first_dealer {
        None => "The first dealer is chosen at random".to_string(),
        Some(d) => format!("Seat {d} deals first"),
    };
    push(
        out,
        t,
        "deal",
        format!(
            "{dealer}; the deal passes {}.",
            if p.deal_clockwise { "left" } else { "right" }
        ),
        origin_of(p, "deal").or(origin_of(p, "first dealer")),
    );
    push(out, t, "leader", lead_words(p), origin_of(p, "leader"));
    push(
        out,
        t,
        "drawing",
        if p.by_hand {
            "Players draw by hand after playing: one who forgets plays on with fewer cards."
                .to_string()
        } else {
            "After playing, a player draws back up to a full hand.".to_string()
        },
        origin_of(p, "drawing"),
    );
    push(
        out,
        t,
        "stock",
        if p.reshuffle {
            "When the stock is empty, the discard pile but its top card is shuffled into a new stock.".to_string()
        } else {
            "When the stock is empty, play goes on without drawing.".to_string()
        },
        origin_of(p, "stock"),
    );
}

fn card_items(p: &Program, out: &mut Vec<Item>) {
    let range = usize::from(p.min_players)..=usize::from(p.max_players);
    let general = &p.rank_fx[usize::from(p.max_players)];
    for rank in 0..RANKS {
        let idx = general[rank];
        if idx == NO_EFFECT || (rank == usize::from(JOKER) && p.jokers == 0) {
            continue;
        }
        let fx = &p.effects[usize::from(idx)];
        push(
            out,
            Section::Cards,
            &format!("card {rank}"),
            format!("{}: {}.", RANK_WORDS[rank], effect_words(p, fx)),
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
                out.push(Item {
                    section: Section::Cards,
                    key: format!("card {rank} with {}", counts.join(" ")),
                    text: format!(
                        "with {} players left: {}.",
                        counts.join(" or "),
                        effect_words(p, ofx)
                    ),
                    origin: Some(ofx.origin),
                    nested: true,
                });
            }
        }
    }
}

fn limit_items(p: &Program, out: &mut Vec<Item>) {
    let l = Section::Limits;
    if let Some(c) = p.ceiling {
        push(
            out,
            l,
            "ceiling",
            format!(
                "The total may never go above {}: such a card cannot be played.",
                c.value
            ),
            Some(c.origin),
        );
    }
    if let Some(f) = p.floor {
        push(
            out,
            l,
            "floor",
            format!(
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
            push(
                out,
                l,
                &format!("reach {}", b.value),
                format!("Reaching exactly {}{way}: {}.", b.value, outcomes_words(o)),
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
            push(
                out,
                l,
                &format!("pass {}", b.value),
                format!("Passing {}{way}: {}.", b.value, outcomes_words(o)),
                Some(o.origin),
            );
        }
    }
}

fn end_items(p: &Program, out: &mut Vec<Item>) {
    let e = Section::End;
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
            push(
                out,
                e,
                label,
                format!("{label}: {}.", outcomes_words(o)),
                Some(o.origin),
            );
        }
    }
    push(
        out,
        e,
        "elimination",
        if p.out_when_cannot_pay {
            "A player who must pay a chip they do not have is out of the game at once.".to_string()
        } else {
            "A player who loses their last chip is out of the game.".to_string()
        },
        origin_of(p, "elimination"),
    );
    let one = if p.team_size.is_some() {
        "one team is left"
    } else {
        "one player is left"
    };
    push(
        out,
        e,
        "game end",
        match p.rounds {
            Some(1) => format!("The game ends after 1 round, or when {one}."),
            Some(r) => format!("The game ends after {r} rounds, or when {one}."),
            None => format!("The game ends when {one}."),
        },
        origin_of(p, "game end"),
    );
    push(
        out,
        e,
        "winner",
        if p.most_chips_wins {
            "The winner has the most chips; tied players share the win.".to_string()
        } else if p.team_size.is_some() {
            "The winners are the last team left.".to_string()
        } else {
            "The winner is the last player left.".to_string()
        },
        origin_of(p, "winner"),
    );
}

impl Sheet<'_> {
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
            let _ = writeln!(
                self.out,
                "- `{}` = {} ({}; default {}; change with `--set {}=...`).",
                o.name,
                word(o.value),
                o.allowed,
                word(o.default),
                o.name
            );
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
