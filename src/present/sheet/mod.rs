//! The rules sheet (`ninety rules`), written from the compiled ruleset so it never drifts
//! from the file: one function per section.
//!
//! Every rule on the sheet is a line of the ruleset language, in a sentence (`The total may
//! not go above 99.`), and what it means at the table follows a dash when its words do not
//! say it all. Read back as a ruleset, the sheet is the same game: `tests/sheet.rs` compiles
//! every shipped sheet and compares the programs.

use std::fmt::Write as _;

mod end;
mod others;

use end::{end_items, lead_words};
use others::other_items;
pub use others::{other_action_words, other_rule};

use super::events::direction_word;
use super::words::{effect_words, expr_words, outcomes_words, script_note, script_notes};
use crate::base::cards::RANK_WORDS;
use crate::ir::{Act, Count, MAX_SEATS, Origin, Program, Way};

/// One line of the rules sheet: a section, a key that names what it is about (the same key
/// in a variant and in its parent), the rule and what it means, and where it was decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub section: Section,
    /// `players`, `card 4`, `card 4 with 2 players`, `reaching 66`, `when a player cannot
    /// play`...
    pub key: String,
    /// The whole sentence: the rule, then (after a dash) what it means, when it says more.
    pub text: String,
    /// The rule as a line of a ruleset says it (`the total may not go above 99`).
    pub rule: String,
    /// What the rule means at the table, when its words alone do not say it all.
    pub note: Option<String>,
    pub origin: Option<Origin>,
    /// A player-count exception, shown under its card.
    pub nested: bool,
}

impl Item {
    /// `The total may not go above 99 — a card that would take it higher cannot be played.`
    fn sentence(rule: &str, note: Option<&str>) -> String {
        let mut chars = rule.chars();
        let first = chars.next().map(|c| c.to_uppercase().to_string());
        let mut out = format!("{}{}", first.unwrap_or_default(), chars.as_str());
        if let Some(n) = note {
            out.push_str(" — ");
            out.push_str(n);
        }
        out.push('.');
        out
    }
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
                    Some(x) if x.rule == it.rule => Mark::Same,
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
            let _ = writeln!(sheet.out, "- None: the total may go anywhere.");
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
    other_items(p, &mut out);
    limit_items(p, &mut out);
    end_items(p, &mut out);
    for it in &mut out {
        it.text = Item::sentence(&it.rule, it.note.as_deref());
    }
    out
}

fn push(
    out: &mut Vec<Item>,
    section: Section,
    key: &str,
    rule: String,
    note: Option<String>,
    origin: Option<Origin>,
) {
    out.push(Item {
        section,
        key: key.to_string(),
        text: String::new(),
        rule,
        note,
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
        // A variant's sheet opens with its own description, never its parent's.
        let own_about = p.files.len() < 2 || origin_of(p, "about").is_some_and(|o| p.is_own(o));
        let about = !p.about.is_empty() && own_about;
        if about {
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
                "{}A variant of {}; what it changes is marked.",
                if about { "\n" } else { "" },
                base.join(" ← ")
            );
        }
    }
}

/// A per-player-count table as statements: the general one (`decks 1`), then each count that
/// differs (`decks 2 with 6 or more players`, `hand 2 cards with 5 players`), from the least
/// players to the most.
fn by_players(p: &Program, table: &[u8; MAX_SEATS + 1]) -> Vec<(String, u8)> {
    let (lo, hi) = (usize::from(p.min_players), usize::from(p.max_players));
    let mut current = table[lo];
    let mut out = vec![(String::new(), current)];
    for n in lo + 1..=hi {
        if table[n] == current {
            continue;
        }
        if table[n..=hi].iter().all(|&v| v == table[n]) {
            current = table[n];
            out.push((format!(" with {n} or more players"), current));
        } else {
            out.push((format!(" with {n} players"), table[n]));
        }
    }
    out
}

fn table_items(p: &Program, out: &mut Vec<Item>) {
    let t = Section::Table;
    push(
        out,
        t,
        "players",
        format!("players {} to {}", p.min_players, p.max_players),
        None,
        origin_of(p, "players"),
    );
    for (with, n) in by_players(p, &p.decks) {
        push(
            out,
            t,
            &format!("decks{with}"),
            format!("decks {n}{with}"),
            None,
            origin_of(p, "decks"),
        );
    }
    if p.jokers > 0 {
        push(
            out,
            t,
            "jokers",
            format!("jokers {} per deck", p.jokers),
            None,
            origin_of(p, "jokers"),
        );
    }
    for (with, n) in by_players(p, &p.hand) {
        push(
            out,
            t,
            &format!("hand{with}"),
            format!(
                "each player holds {n} {}{with}",
                if n == 1 { "card" } else { "cards" }
            ),
            None,
            origin_of(p, "hand"),
        );
    }
    push(
        out,
        t,
        "chips",
        format!(
            "each player starts with {} {}",
            p.chips,
            if p.chips == 1 { "chip" } else { "chips" }
        ),
        None,
        origin_of(p, "chips"),
    );
    if let Some(size) = p.team_size {
        push(
            out,
            t,
            "teams",
            format!("players play in teams of {size} sharing chips"),
            Some(team_words(p, size)),
            origin_of(p, "teams"),
        );
    }
    push(
        out,
        t,
        "start",
        format!("the total starts at {}", p.start),
        None,
        origin_of(p, "start"),
    );
    push(
        out,
        t,
        "direction",
        format!("play goes {}", direction_word(p.clockwise)),
        Some("at the start of each round".to_string()),
        origin_of(p, "direction"),
    );
    push(
        out,
        t,
        "first dealer",
        match p.first_dealer {
            None => "the first dealer is chosen at random".to_string(),
            Some(d) => format!("the first dealer is player {d}"),
        },
        None,
        origin_of(p, "first dealer"),
    );
    push(
        out,
        t,
        "deal",
        format!(
            "the deal passes {}",
            if p.deal_clockwise { "left" } else { "right" }
        ),
        None,
        origin_of(p, "deal"),
    );
    let (lead, note) = lead_words(p);
    push(out, t, "leader", lead, note, origin_of(p, "leader"));
    let (drawing, note) = if p.by_hand {
        (
            "players draw by hand",
            "after playing, a player may draw; one who forgets plays on with fewer cards",
        )
    } else {
        (
            "players draw automatically",
            "after playing, a player draws back up to a full hand",
        )
    };
    let mut note = note.to_string();
    if p.grows_hands() {
        // A rule adds cards to hands: say what becomes of a hand past its size.
        note.push_str(&format!(
            "; a hand a rule made larger draws nothing until it is smaller than a full hand again (a hand holds at most {} cards: a draw past that draws nothing)",
            crate::ir::MAX_HAND
        ));
    }
    push(
        out,
        t,
        "drawing",
        drawing.to_string(),
        Some(note),
        origin_of(p, "drawing"),
    );
    let (stock, note) = if p.reshuffle {
        (
            "when the stock is empty: shuffle the discard pile into it",
            Some("all of it but its top card".to_string()),
        )
    } else {
        ("when the stock is empty: play on without drawing", None)
    };
    push(
        out,
        t,
        "stock",
        stock.to_string(),
        note,
        origin_of(p, "stock"),
    );
}

/// `player 3`, `2 or more players`: the counts a card line is for.
fn count_words(c: Count) -> String {
    match c {
        Count::Any => String::new(),
        Count::Exactly(n) => format!(" with {n} {}", if n == 1 { "player" } else { "players" }),
        Count::AtLeast(n) => format!(" with {n} or more players"),
    }
}

fn card_items(p: &Program, out: &mut Vec<Item>) {
    for line in &p.card_lines {
        let Some(fx) = p.effects.get(usize::from(line.fx)) else {
            continue;
        };
        let rank = usize::from(line.rank);
        let with = count_words(line.count);
        let mut notes = script_notes(p, fx);
        if fx.choices().iter().any(|c| c.aims) {
            let next = fx.choices().iter().any(|c| {
                c.steps()
                    .iter()
                    .any(|s| s.then == Act::ChooseNext || s.otherwise == Act::ChooseNext)
            });
            notes.push(format!(
                "its player names any other player still in the round as they lay it{}",
                if next {
                    "; play goes on from the player named, in the same direction"
                } else {
                    ""
                }
            ));
        }
        // `add 10 or subtract 10 and the tens go up by 1`: how `and` and `or` grouped.
        if let Some(one_by_one) = super::words::choices_one_by_one(p, fx) {
            notes.push(one_by_one);
        }
        // A card that both skips and reverses: who is skipped depends on the order.
        let turns = |c: &crate::ir::Choice| c.turn.reverse && (c.turn.back > 0 || c.turn.skip > 0);
        if let Some(c) = fx.choices().iter().find(|c| turns(c)) {
            notes.push(if c.turn.back > 0 {
                "the player skipped is the one play turns away from: the player on the other side plays next (with two players left, play comes back to the one who laid it)".to_string()
            } else {
                "play turns round first, then the player next in the new direction is skipped".to_string()
            });
        }
        if fx.choices().iter().any(|c| c.gives) {
            notes.push(
                "its player names the card they give as they lay it, another card of their hand (none when it was their last)".to_string(),
            );
        }
        out.push(Item {
            section: Section::Cards,
            key: format!("card {rank}{with}"),
            text: String::new(),
            rule: format!("card {}{with}: {}", RANK_WORDS[rank], effect_words(p, fx)),
            note: (!notes.is_empty()).then(|| notes.join("; ")),
            origin: Some(fx.origin),
            nested: line.count != Count::Any,
        });
    }
}

fn way_words(way: Way) -> &'static str {
    match way {
        Way::Up => "going up",
        Way::Down => "going down",
        Way::Both => "either way",
    }
}

/// The most rounds a limit that reads only the round is said for, one by one.
const ROUNDS_SAID: i32 = 12;

/// A limit that reads only the round, round by round until it stays put: `99 in round 1,
/// 89 in round 2, 79 from round 3 on`; `None` for one that reads anything else (or that
/// still moves after [`ROUNDS_SAID`] rounds: then its rule says it).
fn by_round(e: &crate::ir::Expr) -> Option<String> {
    let only_round = !e
        .ops
        .iter()
        .any(|op| matches!(op, crate::ir::Op::Get(q, _) if *q != crate::ir::Quantity::Round));
    if !only_round || !e.reads_table() {
        return None;
    }
    let at = |round: i32| e.eval(|_, _| round);
    let mut parts = Vec::new();
    for round in 1..=ROUNDS_SAID {
        let v = at(round);
        // From here on it stays put: said once, for every round after.
        if (round..round + ROUNDS_SAID).all(|r| at(r) == v) {
            parts.push(if round == 1 {
                format!("{v} in every round")
            } else {
                format!("{v} from round {round} on")
            });
            return Some(parts.join(", "));
        }
        parts.push(format!("{v} in round {round}"));
    }
    None
}

fn limit_items(p: &Program, out: &mut Vec<Item>) {
    let l = Section::Limits;
    let limit = |l: crate::ir::Limit| match l.expr {
        None => l.value.to_string(),
        Some(e) => expr_words(p, &p.exprs[usize::from(e)]),
    };
    let moving = |l: crate::ir::Limit, first: &str| match l.expr {
        None => String::new(),
        Some(e) => match by_round(&p.exprs[usize::from(e)]) {
            Some(rounds) => format!("; the limit is worked out as each round starts: {rounds}"),
            None => format!(
                "; the limit is worked out as each card is laid ({first} {} at the start)",
                l.value
            ),
        },
    };
    if let Some(c) = p.ceiling {
        let note = if p.limit_count().is_some() {
            format!(
                "a card that would take it higher cannot be played; the lines that change the limit keep it where they leave it (it is {} at the start)",
                c.value
            )
        } else {
            format!(
                "a card that would take it higher cannot be played{}",
                moving(c, "it is")
            )
        };
        let said = if p.limit_count().is_some() {
            c.value.to_string()
        } else {
            limit(c)
        };
        push(
            out,
            l,
            "ceiling",
            format!("the total may not go above {said}"),
            Some(note),
            Some(c.origin),
        );
    }
    if let Some(f) = p.floor {
        push(
            out,
            l,
            "floor",
            format!("the total may not go below {}", limit(f)),
            Some(format!(
                "a card that would take it lower cannot be played{}",
                moving(f, "it is")
            )),
            Some(f.origin),
        );
    }
    for b in &p.bars {
        for (kind, rule, way) in [
            ("reaching", b.reach, b.reach_way),
            ("passing", b.pass, b.pass_way),
        ] {
            let Some(i) = rule else { continue };
            let o = &p.outcomes[usize::from(i)];
            push(
                out,
                l,
                &format!("{kind} {}", b.value),
                format!(
                    "on {kind} {} {}: {}",
                    b.value,
                    way_words(way),
                    outcomes_words(p, o)
                ),
                None,
                Some(o.origin),
            );
        }
    }
    for b in &p.script_bars {
        let o = &p.outcomes[usize::from(b.outcomes)];
        push(
            out,
            l,
            &format!("script {}", b.func),
            format!("on script {}: {}", b.func, outcomes_words(p, o)),
            Some(format!(
                "after every card, when the script says so; {}",
                script_note(&b.func, &b.doc)
            )),
            Some(o.origin),
        );
    }
}

impl Sheet<'_> {
    /// The options, each as its line declares it (its default and the values it allows),
    /// and the value it has in this game when that is another.
    fn options(&mut self) {
        let p = self.p;
        if p.options.is_empty() {
            return;
        }
        self.h2("Options");
        for o in &p.options {
            let yes_no = o.allowed == "yes or no";
            let word = |v: i64| match (yes_no, v) {
                (true, 0) => "no".to_string(),
                (true, _) => "yes".to_string(),
                (false, v) => v.to_string(),
            };
            let range = if yes_no {
                String::new()
            } else if o.allowed.starts_with("one of") {
                format!(", {}", o.allowed)
            } else {
                format!(" {}", o.allowed)
            };
            let now = if o.value == o.default {
                String::new()
            } else {
                format!("{} in this game; ", word(o.value))
            };
            let rule = format!("option {} = {}{range}", o.name, word(o.default));
            let note = format!("{now}change it with `--set {}=...`", o.name);
            let _ = writeln!(self.out, "- {}", Item::sentence(&rule, Some(&note)));
        }
    }
}

/// What teams are at the table: who the partners are at each player count, and the one pile
/// each team shares (as big as one player's: partners win and lose from it together).
fn team_words(p: &Program, size: u8) -> String {
    let seats: Vec<String> = (p.min_players..=p.max_players)
        .filter(|&n| size > 0 && n % size == 0 && n > size)
        .map(|n| {
            let apart = n / size;
            let teams: Vec<String> = (0..apart)
                .map(|first| {
                    let members: Vec<String> = (first..n)
                        .step_by(usize::from(apart))
                        .map(|x| (x + 1).to_string())
                        .collect();
                    members.join(", ")
                })
                .collect();
            format!("with {n} players, {}", teams.join(" against "))
        })
        .collect();
    let chips = if p.chips == 1 { "chip" } else { "chips" };
    format!(
        "partners sit apart ({}, counting the seats round the table) and each team shares one pile of {} {chips}",
        seats.join("; "),
        p.chips
    )
}

#[cfg(test)]
mod tests {
    use super::by_round;
    use crate::ir::{Expr, Op, Quantity, Who};

    fn round_times(k: i32, plus: i32, floor: Option<i32>) -> Expr {
        let mut ops = vec![
            Op::Num(plus),
            Op::Get(Quantity::Round, Who::Player),
            Op::Num(k),
            Op::Mul,
            Op::Sub,
        ];
        ops.extend(floor.map(Op::AtLeast));
        Expr { ops }
    }

    #[test]
    fn a_limit_of_the_round_is_said_round_by_round_until_it_stays_put() {
        assert_eq!(
            by_round(&round_times(5, 45, Some(25))).as_deref(),
            Some("40 in round 1, 35 in round 2, 30 in round 3, 25 from round 4 on")
        );
        assert_eq!(
            by_round(&round_times(0, 40, None)).as_deref(),
            Some("40 in every round")
        );
        // Still falling after twelve rounds: the rule says it, not a list.
        assert_eq!(by_round(&round_times(1, 1000, None)), None);
        // A limit that reads anything but the round is worked out as cards are laid.
        let chips = Expr {
            ops: vec![Op::Get(Quantity::Chips, Who::Player), Op::Num(90), Op::Add],
        };
        assert_eq!(by_round(&chips), None);
    }
}
