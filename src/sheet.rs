//! The rules sheet (`ninety rules`), written from the compiled ruleset so it never drifts
//! from the file, and a compact dump of the compiled form for snapshots.

use std::fmt::Write as _;

use crate::ir::{
    Act, Cond, Effect, MAX_SEATS, NO_EFFECT, Origin, OutcomeKind, Outcomes, Program, RANK_WORDS,
    Role, Target, Test, Who,
};

fn test_words(p: &Program, t: Test) -> String {
    match t {
        Test::Even => "even".into(),
        Test::Odd => "odd".into(),
        Test::AtLeast(n) => format!("at least {n}"),
        Test::AtMost(n) => format!("at most {n}"),
        Test::Above(n) => format!("above {n}"),
        Test::Below(n) => format!("below {n}"),
        Test::Exactly(n) => format!("exactly {n}"),
        Test::Script(i) => format!(
            "as the script `{}` says",
            p.script_tests[usize::from(i)].func
        ),
    }
}

fn cond_words(p: &Program, c: &Cond) -> String {
    let groups: Vec<String> = c
        .any_of
        .iter()
        .map(|all| {
            all.iter()
                .map(|t| test_words(p, *t))
                .collect::<Vec<_>>()
                .join(" and ")
        })
        .collect();
    format!("if the total is {}", groups.join(", or "))
}

fn who_words(w: Who) -> &'static str {
    match w {
        Who::Player => "the player",
        Who::EachOther => "each other player",
        Who::Every => "every player",
        Who::Winner => "the winner",
        Who::Loser => "the loser",
        Who::Next => "the next player",
        Who::EachOut => "each player out of the round",
    }
}

/// `the player pays 2 and loses the round`
pub fn outcomes_words(o: &Outcomes) -> String {
    let mut previous: Option<Who> = None;
    let parts: Vec<String> = o
        .list
        .iter()
        .map(|x| {
            // "the player pays 2 and loses the round": the subject is said once.
            let who = if previous == Some(x.who) {
                String::new()
            } else {
                format!("{} ", who_words(x.who))
            };
            let subject_free = matches!(x.kind, OutcomeKind::ResetTotal(_) | OutcomeKind::EndRound);
            if !subject_free {
                previous = Some(x.who);
            }
            match x.kind {
                OutcomeKind::Pay { amount, to } => {
                    let to = match to {
                        Target::Bank => "the bank".to_string(),
                        Target::Pot => "the pot".to_string(),
                        Target::Seat(w) => who_words(w).to_string(),
                    };
                    format!("{who}pays {amount} to {to}")
                }
                OutcomeKind::WinRound => format!("{who}wins the round"),
                OutcomeKind::LoseRound => format!("{who}loses the round"),
                OutcomeKind::OutOfRound => format!("{who}is out of the round"),
                OutcomeKind::OutOfGame => format!("{who}is out of the game"),
                OutcomeKind::ResetTotal(false) => "the total resets".to_string(),
                OutcomeKind::ResetTotal(true) => "the total and the discard pile reset".to_string(),
                OutcomeKind::EndRound => "the round ends".to_string(),
                OutcomeKind::TakePot => format!("{who}takes the pot"),
            }
        })
        .collect();
    match parts.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn act_words(p: &Program, a: Act) -> String {
    match a {
        Act::Add(n) if n >= 0 => format!("add {n}"),
        Act::Add(n) => format!("subtract {}", -n),
        Act::Set(n) => format!("set the total to {n}"),
        Act::Mul(2) => "double the total".into(),
        Act::Mul(n) => format!("multiply the total by {n}"),
        Act::Div(2) => "halve the total".into(),
        Act::Div(n) => format!("divide the total by {n}"),
        Act::Nothing => "nothing".into(),
        Act::Skip => "skip the next player".into(),
        Act::Reverse => "reverse the direction".into(),
        Act::Again => "play again".into(),
        Act::Outcomes(i) => outcomes_words(&p.outcomes[usize::from(i)]),
        Act::Script(i) => format!(
            "what the script `{}` says",
            p.script_fx[usize::from(i)].func
        ),
    }
}

/// A card's effect in words: `add 1 (1) or add 11 (11)`.
pub fn effect_words(p: &Program, fx: &Effect) -> String {
    let choices: Vec<String> = fx
        .choices()
        .iter()
        .zip(&fx.labels)
        .map(|(c, label)| {
            let steps: Vec<String> = c
                .steps()
                .iter()
                .map(|s| match s.cond {
                    None => act_words(p, s.then),
                    Some(ci) => {
                        let mut w = format!(
                            "{} {}",
                            act_words(p, s.then),
                            cond_words(p, &p.conds[usize::from(ci)])
                        );
                        if s.otherwise != Act::Nothing {
                            w.push_str(&format!(", otherwise {}", act_words(p, s.otherwise)));
                        }
                        w
                    }
                })
                .collect();
            if fx.len > 1 {
                format!("{} (`{label}`)", steps.join(" and "))
            } else {
                steps.join(" and ")
            }
        })
        .collect();
    choices.join(", or ")
}

/// How a variant's sheet knows what it changed: the lines of its base's sheet, or, without
/// them, where each piece was written.
struct Marker<'a> {
    base: Option<&'a std::collections::HashSet<String>>,
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
    let lines: Option<std::collections::HashSet<String>> = base.map(|b| {
        sheet_with(
            b,
            &Marker {
                base: None,
                md: false,
            },
            false,
        )
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("- ").map(str::to_string))
        .collect()
    });
    sheet_with(
        p,
        &Marker {
            base: lines.as_ref(),
            md,
        },
        md,
    )
}

fn sheet_with(p: &Program, marker: &Marker<'_>, md: bool) -> String {
    let mut out = String::new();
    let h1 = |out: &mut String, t: &str| {
        if md {
            let _ = writeln!(out, "# {t}\n");
        } else {
            let _ = writeln!(out, "{t}\n{}\n", "=".repeat(t.chars().count()));
        }
    };
    let h2 = |out: &mut String, t: &str| {
        if md {
            let _ = writeln!(out, "\n## {t}\n");
        } else {
            let _ = writeln!(out, "\n{t}\n{}", "-".repeat(t.chars().count()));
        }
    };
    let item = |out: &mut String, t: String, o: Option<Origin>| {
        let m = marker.mark(p, &t, o);
        let _ = writeln!(out, "- {t}{m}");
    };
    h1(&mut out, &p.name);
    if !p.about.is_empty() {
        let _ = writeln!(out, "{}", p.about);
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
            out,
            "\nA variant of {}; what it changes is marked.",
            base.join(" ← ")
        );
    }
    h2(&mut out, "The table");
    item(
        &mut out,
        format!("Players: {} to {}.", p.min_players, p.max_players),
        origin_of(p, "players"),
    );
    let range = usize::from(p.min_players)..=usize::from(p.max_players);
    let by = |table: &[u8; MAX_SEATS + 1]| -> String {
        let mut parts: Vec<String> = Vec::new();
        let mut n = *range.start();
        while n <= *range.end() {
            let v = table[n];
            let mut m = n;
            while m < *range.end() && table[m + 1] == v {
                m += 1;
            }
            parts.push(if n == *range.start() && m == *range.end() {
                v.to_string()
            } else if n == m {
                format!("{v} with {n} players")
            } else {
                format!("{v} with {n} to {m} players")
            });
            n = m + 1;
        }
        parts.join("; ")
    };
    let jokers = if p.jokers > 0 {
        format!(", each with {} jokers", p.jokers)
    } else {
        String::new()
    };
    item(
        &mut out,
        format!("Decks of 52 cards: {}{jokers}.", by(&p.decks)),
        origin_of(p, "decks"),
    );
    item(
        &mut out,
        format!("Cards in hand: {}.", by(&p.hand)),
        origin_of(p, "hand"),
    );
    item(
        &mut out,
        format!(
            "Chips: {} each{}.",
            p.chips,
            p.team_size
                .map_or(String::new(), |t| format!(", shared by teams of {t}"))
        ),
        origin_of(p, "chips").or(origin_of(p, "teams")),
    );
    item(
        &mut out,
        format!("The total starts at {}.", p.start),
        origin_of(p, "start"),
    );
    item(
        &mut out,
        format!(
            "Play goes {} at the start of each round.",
            crate::describe::direction_word(p.clockwise)
        ),
        origin_of(p, "direction"),
    );
    let dealer = match p.first_dealer {
        None => "The first dealer is chosen at random".to_string(),
        Some(d) => format!("Seat {d} deals first"),
    };
    item(
        &mut out,
        format!(
            "{dealer}; the deal passes {}.",
            if p.deal_clockwise { "left" } else { "right" }
        ),
        origin_of(p, "deal").or(origin_of(p, "first dealer")),
    );
    let lead = match (p.leader.role, p.leader.offset) {
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
    };
    item(&mut out, lead, origin_of(p, "leader"));
    item(
        &mut out,
        if p.by_hand {
            "Players draw by hand after playing: one who forgets plays on with fewer cards."
                .to_string()
        } else {
            "After playing, a player draws back up to a full hand.".to_string()
        },
        origin_of(p, "drawing"),
    );
    item(
        &mut out,
        if p.reshuffle {
            "When the stock is empty, the discard pile but its top card is shuffled into a new stock.".to_string()
        } else {
            "When the stock is empty, play goes on without drawing.".to_string()
        },
        origin_of(p, "stock"),
    );

    h2(&mut out, "The cards");
    let general = &p.rank_fx[usize::from(p.max_players)];
    for rank in 0..crate::ir::RANKS {
        let idx = general[rank];
        if idx == NO_EFFECT || (rank == usize::from(crate::ir::JOKER) && p.jokers == 0) {
            continue;
        }
        let fx = &p.effects[usize::from(idx)];
        item(
            &mut out,
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
                let line = format!(
                    "with {} players left: {}.",
                    counts.join(" or "),
                    effect_words(p, ofx)
                );
                let _ = writeln!(out, "  - {line}{}", marker.mark(p, &line, Some(ofx.origin)));
            }
        }
    }

    h2(&mut out, "Limits and bars");
    if let Some(c) = p.ceiling {
        item(
            &mut out,
            format!(
                "The total may never go above {}: such a card cannot be played.",
                c.value
            ),
            Some(c.origin),
        );
    }
    if let Some(f) = p.floor {
        item(
            &mut out,
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
            item(
                &mut out,
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
            item(
                &mut out,
                format!("Passing {}{way}: {}.", b.value, outcomes_words(o)),
                Some(o.origin),
            );
        }
    }
    if p.ceiling.is_none() && p.floor.is_none() && p.bars.is_empty() {
        let _ = writeln!(out, "- None.");
    }

    h2(&mut out, "Penalties, rounds and the end");
    let t = &p.triggers;
    let mut trig = |label: &str, i: Option<u16>| {
        if let Some(i) = i {
            let o = &p.outcomes[usize::from(i)];
            item(
                &mut out,
                format!("{label}: {}.", outcomes_words(o)),
                Some(o.origin),
            );
        }
    };
    trig("A player who cannot play", t.cannot_play);
    trig("A player who has no cards", t.no_cards);
    trig("At the start of each round", t.round_start);
    trig("At the end of each round", t.round_end);
    trig("At the end of the game", t.game_end);
    item(
        &mut out,
        if p.out_when_cannot_pay {
            "A player who must pay a chip they do not have is out of the game at once.".to_string()
        } else {
            "A player who loses their last chip is out of the game.".to_string()
        },
        origin_of(p, "elimination"),
    );
    item(
        &mut out,
        match p.rounds {
            Some(1) => "The game ends after 1 round, or when one player is left.".to_string(),
            Some(r) => format!("The game ends after {r} rounds, or when one player is left."),
            None => "The game ends when one player is left.".to_string(),
        },
        origin_of(p, "game end"),
    );
    item(
        &mut out,
        if p.most_chips_wins {
            "The winner has the most chips; tied players share the win.".to_string()
        } else {
            "The winner is the last player left.".to_string()
        },
        origin_of(p, "winner"),
    );
    if !p.options.is_empty() {
        h2(&mut out, "Options");
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
                out,
                "- `{}` = {} ({}; default {}; change with `--set {}=...`).",
                o.name,
                word(o.value),
                o.allowed,
                word(o.default),
                o.name
            );
        }
    }
    out
}

/// The compiled form, compactly, for snapshots: every table the engine reads.
pub fn dump(p: &Program) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "name: {}", p.name);
    let _ = writeln!(out, "players: {}..={}", p.min_players, p.max_players);
    let range = usize::from(p.min_players)..=usize::from(p.max_players);
    let _ = writeln!(
        out,
        "decks: {:?}  jokers: {}",
        &p.decks[range.clone()],
        p.jokers
    );
    let _ = writeln!(out, "hand: {:?}", &p.hand[range.clone()]);
    let _ = writeln!(out, "chips: {}  start: {}", p.chips, p.start);
    let _ = writeln!(
        out,
        "ceiling: {:?}  floor: {:?}",
        p.ceiling.map(|c| c.value),
        p.floor.map(|f| f.value)
    );
    let _ = writeln!(
        out,
        "clockwise: {}  by_hand: {}  reshuffle: {}  first_dealer: {:?}  deal_clockwise: {}",
        p.clockwise, p.by_hand, p.reshuffle, p.first_dealer, p.deal_clockwise
    );
    let _ = writeln!(
        out,
        "leader: {:?}  rounds: {:?}  most_chips_wins: {}  out_when_cannot_pay: {}  teams: {:?}",
        p.leader, p.rounds, p.most_chips_wins, p.out_when_cannot_pay, p.team_size
    );
    for o in &p.options {
        let _ = writeln!(
            out,
            "option {} = {} ({}, default {})",
            o.name, o.value, o.allowed, o.default
        );
    }
    let _ = writeln!(out, "rank effects by players left:");
    for n in range {
        let row: Vec<String> = p.rank_fx[n]
            .iter()
            .map(|e| {
                if *e == NO_EFFECT {
                    "-".into()
                } else {
                    e.to_string()
                }
            })
            .collect();
        let _ = writeln!(out, "  {n}: {}", row.join(" "));
    }
    for (i, fx) in p.effects.iter().enumerate() {
        let choices: Vec<String> = fx
            .choices()
            .iter()
            .zip(&fx.labels)
            .map(|(c, l)| {
                format!(
                    "{l}: {:?}",
                    c.steps()
                        .iter()
                        .map(|s| (s.cond, s.then, s.otherwise))
                        .collect::<Vec<_>>()
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "effect {i} (line {}): {}",
            fx.origin.line,
            choices.join(" | ")
        );
    }
    for (i, c) in p.conds.iter().enumerate() {
        let _ = writeln!(out, "cond {i}: {:?}", c.any_of);
    }
    for (i, o) in p.outcomes.iter().enumerate() {
        let _ = writeln!(out, "outcomes {i} (line {}): {:?}", o.origin.line, o.list);
    }
    for b in &p.bars {
        let _ = writeln!(out, "bar {:?}", b);
    }
    let _ = writeln!(out, "triggers: {:?}", p.triggers);
    out
}
