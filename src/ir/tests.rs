//! Unit tests of the IR's pure pieces, on programs built by hand: the total a choice makes,
//! conditions, limits, and the verifier.

use super::*;
use crate::base::cards::RANKS;

fn step(then: Act) -> Step {
    Step {
        cond: None,
        then,
        otherwise: Act::Nothing,
    }
}

fn choice(steps: &[Step]) -> Choice {
    let mut c = Choice {
        steps: [step(Act::Nothing); MAX_STEPS],
        len: steps.len() as u8,
        simple: true,
        fast: Fast::Add(0),
        turn: Turn::default(),
        scripted: false,
        aims: false,
        gives: false,
    };
    c.steps[..steps.len()].copy_from_slice(steps);
    c.finish();
    c
}

/// The total kept from `floor` to `ceiling`.
fn between(p: &mut Program, floor: i32, ceiling: i32) {
    let at = |value| {
        Some(Limit {
            value,
            expr: None,
            origin: Origin::default(),
        })
    };
    p.floor = at(floor);
    p.ceiling = at(ceiling);
}

fn effect(choices: &[Choice]) -> Effect {
    let mut fx = Effect {
        choices: [choice(&[]); MAX_CHOICES],
        len: choices.len() as u8,
        labels: (1..=choices.len()).map(|i| i.to_string()).collect(),
        origin: Origin::default(),
        text: String::new(),
    };
    fx.choices[..choices.len()].copy_from_slice(choices);
    fx
}

/// Three players, every rank adds 1, a ceiling at 99.
fn program() -> Program {
    let mut rank_fx = [[NO_EFFECT; RANKS]; MAX_SEATS + 1];
    for row in &mut rank_fx[2..=3] {
        row[..13].fill(0);
    }
    Program {
        name: "test".into(),
        about: String::new(),
        files: vec!["test.rules".into()],
        sources: vec!["card A: add 1\nthe total may not go above 99\n".into()],
        options: Vec::new(),
        counts: Vec::new(),
        exprs: Vec::new(),
        moments: Vec::new(),
        others: Vec::new(),
        reads_table: false,
        min_players: 2,
        max_players: 3,
        decks: [1; MAX_SEATS + 1],
        jokers: 0,
        hand: [3; MAX_SEATS + 1],
        chips: 3,
        start: 0,
        ceiling: Some(Limit {
            value: 99,
            expr: None,
            origin: Origin { file: 0, line: 2 },
        }),
        floor: None,
        clockwise: true,
        by_hand: false,
        reshuffle: true,
        first_dealer: None,
        deal_clockwise: true,
        leader: Leader {
            role: Role::Dealer,
            offset: 1,
            by: None,
        },
        rounds: None,
        ending: Ending::default(),
        winner: Winner::LastLeft,
        out_when_cannot_pay: false,
        team_size: None,
        rank_fx,
        card_lines: (0..13)
            .map(|rank| CardLine {
                rank,
                count: Count::Any,
                fx: 0,
            })
            .collect(),
        effects: vec![effect(&[choice(&[step(Act::Add(1))])])],
        conds: Vec::new(),
        outcomes: Vec::new(),
        bars: Vec::new(),
        triggers: Triggers::default(),
        trigger_cases: Vec::new(),
        settings: Vec::new(),
        removed: Vec::new(),
        script_fx: Vec::new(),
        script_tests: Vec::new(),
        script_bars: Vec::new(),
        scripts: None,
    }
}

#[test]
fn simple_choices_fold_into_one_instruction() {
    let p = program();
    let at = Facts::total;
    let add_and_skip = choice(&[step(Act::Add(3)), step(Act::Skip(1))]);
    assert_eq!(add_and_skip.fast, Fast::Add(3));
    assert_eq!(add_and_skip.turn.skip, 1);
    assert_eq!(choice_total(&p, &add_and_skip, &at(40)), 43);
    let set_then_add = choice(&[step(Act::Set(0)), step(Act::Add(5))]);
    assert_eq!(set_then_add.fast, Fast::Set(5));
    assert_eq!(choice_total(&p, &set_then_add, &at(77)), 5);
    // Effects said twice add up: two skips skip two players, two reverses cancel out.
    let skips = choice(&[step(Act::Skip(1)), step(Act::Skip(2))]);
    assert_eq!(skips.turn.skip, 3);
    let twice = choice(&[step(Act::Reverse), step(Act::Reverse)]);
    assert!(!twice.turn.reverse);
    let again = choice(&[step(Act::Again(1)), step(Act::Again(1))]);
    assert_eq!(again.turn.again, 2);
    // Products need their steps run.
    let double = choice(&[step(Act::Mul(2))]);
    assert_eq!(double.fast, Fast::General);
    assert_eq!(choice_total(&p, &double, &at(21)), 42);
    // Halving rounds towards minus infinity.
    assert_eq!(choice_total(&p, &choice(&[step(Act::Div(2))]), &at(-3)), -2);
}

#[test]
fn a_condition_picks_a_step_by_the_total_before_the_card() {
    let mut p = program();
    // `halve if the total is even and above 49, otherwise double`
    p.conds.push(Cond {
        any_of: vec![vec![Test::Even, Test::Above(49)]],
        unless: Vec::new(),
    });
    let halve_or_double = choice(&[Step {
        cond: Some(0),
        then: Act::Div(2),
        otherwise: Act::Mul(2),
    }]);
    assert!(!halve_or_double.simple);
    let at = Facts::total;
    assert_eq!(choice_total(&p, &halve_or_double, &at(60)), 30);
    assert_eq!(choice_total(&p, &halve_or_double, &at(61)), 122);
    assert_eq!(choice_total(&p, &halve_or_double, &at(40)), 80);
    // `below 10 or odd`: any group of the condition holds.
    let c = Cond {
        any_of: vec![vec![Test::Below(10)], vec![Test::Odd]],
        unless: Vec::new(),
    };
    assert!(c.holds(&p, &at(3)) && c.holds(&p, &at(51)) && !c.holds(&p, &at(52)));
    // `otherwise if`: a later branch holds only when the earlier ones do not.
    p.conds.push(c);
    let later = Cond {
        any_of: vec![vec![Test::AtLeast(0)]],
        unless: vec![1],
    };
    assert!(later.holds(&p, &at(52)) && !later.holds(&p, &at(51)));
}

#[test]
fn tests_of_digits_multiples_ranges_and_the_players_situation() {
    let p = program();
    let at = Facts::total;
    let holds = |t: Test, f: Facts| t.holds(&p, &f);
    assert!(holds(Test::EndsIn(5), at(45)) && holds(Test::EndsIn(5), at(-5)));
    assert!(!holds(Test::EndsIn(5), at(54)));
    assert!(holds(Test::EndsIn(25), at(125)) && !holds(Test::EndsIn(25), at(35)));
    assert!(holds(Test::EndsIn(0), at(0)) && holds(Test::EndsIn(0), at(90)));
    assert!(holds(Test::MultipleOf(11), at(77)) && holds(Test::MultipleOf(11), at(0)));
    assert!(!holds(Test::MultipleOf(11), at(78)));
    assert!(holds(Test::Between(50, 60), at(50)) && holds(Test::Between(50, 60), at(60)));
    assert!(!holds(Test::Between(50, 60), at(61)));
    let f = Facts {
        total: 10,
        chips: 1,
        cards_left: 0,
        players_left: 2,
        previous: Some(12),
        ..Facts::default()
    };
    assert!(holds(Test::Chips(Cmp::AtMost, 1), f) && !holds(Test::Chips(Cmp::AtLeast, 2), f));
    assert!(holds(Test::CardsLeft(Cmp::Exactly, 0), f));
    assert!(holds(Test::PlayersLeft(Cmp::Exactly, 2), f));
    assert!(holds(Test::Previous(12), f) && !holds(Test::Previous(11), f));
    assert!(Test::Chips(Cmp::Exactly, 1).reads_player() && !Test::EndsIn(5).reads_player());
}

#[test]
fn the_limits_allow_a_total() {
    let mut p = program();
    assert!(p.allows(99) && !p.allows(100));
    p.floor = Some(Limit {
        value: 0,
        expr: None,
        origin: Origin::default(),
    });
    assert!(p.allows(0) && !p.allows(-1));
}

#[test]
fn a_sound_program_verifies() {
    assert_eq!(verify(&program()), Vec::<String>::new());
}

#[test]
fn the_verifier_finds_what_the_engine_could_not_run() {
    let mut p = program();
    p.jokers = 6;
    p.rank_fx[3][13] = 0;
    assert!(
        verify(&p).iter().any(|e| e.contains("6 jokers")),
        "{:?}",
        verify(&p)
    );

    let mut p = program();
    p.rank_fx[2][4] = 7;
    assert!(verify(&p).iter().any(|e| e.contains("effect 7")));

    let mut p = program();
    p.rank_fx[3][0] = NO_EFFECT;
    assert!(
        verify(&p)
            .iter()
            .any(|e| e.contains("no effect with 3 players"))
    );

    let mut p = program();
    p.hand[3] = 20;
    assert!(verify(&p).iter().any(|e| e.contains("hands of 20 cards")));

    let mut p = program();
    p.effects[0].choices[0].steps[0].then = Act::Outcomes(4);
    assert!(verify(&p).iter().any(|e| e.contains("outcomes 4")));

    let mut p = program();
    p.effects[0].choices[0].fast = Fast::Set(99);
    assert!(verify(&p).iter().any(|e| e.contains("stale")));
}

#[test]
fn an_outcome_lists_tally_is_its_chips_and_a_stale_one_is_caught() {
    let o = |who, kind| Outcome { who, kind };
    let list = vec![
        o(
            Who::Player,
            OutcomeKind::Pay {
                amount: Amount::Fixed(2),
                to: Target::Pot,
            },
        ),
        o(Who::Player, OutcomeKind::LoseRound),
        o(
            Who::EachOther,
            OutcomeKind::Gain {
                amount: Amount::Fixed(3),
                from: Pool::Bank,
            },
        ),
        o(
            Who::Every,
            OutcomeKind::Pay {
                amount: Amount::Fixed(1),
                to: Target::Pot,
            },
        ),
        o(
            Who::Next,
            OutcomeKind::Pay {
                amount: Amount::Fixed(5),
                to: Target::Pot,
            },
        ),
    ];
    let origin = Origin { file: 0, line: 1 };
    let outcomes = Outcomes::new(list, origin, "the player pays 2".into());
    assert_eq!(
        outcomes.tally,
        Tally {
            player: -2,
            each_other: 3,
            every: -1,
            player_loses: 1,
            ..Tally::default()
        }
    );

    let mut p = program();
    p.outcomes.push(outcomes);
    assert_eq!(verify(&p), Vec::<String>::new());
    p.outcomes[0].tally.every = 0;
    assert!(verify(&p).iter().any(|e| e.contains("tally")));
}

#[test]
fn the_legal_table_agrees_with_the_choices_and_a_stale_one_is_caught() {
    let mut p = program();
    p.effects = vec![effect(&[
        choice(&[step(Act::Add(1))]),
        choice(&[step(Act::Add(11))]),
        choice(&[step(Act::Add(-10))]),
    ])];
    between(&mut p, 0, 99);
    let legal = LegalTable::build(&p);
    assert_eq!(legal.window(), (0, 99));
    assert_eq!(verify(&p), Vec::<String>::new());
    for e in 0..p.effects.len() {
        for t in 0..=99 {
            let (allowed, live) = legal.get(e as u16, t).expect("in the window");
            assert_eq!(live, 0);
            for (k, c) in p.effects[e].choices().iter().enumerate() {
                let ok = p.allows(choice_total(&p, c, &Facts::total(t)));
                assert_eq!(allowed & (1 << k) != 0, ok, "effect {e} choice {k} at {t}");
            }
        }
    }
    for t in 0..=99 {
        let row = legal.row(t).expect("in the window");
        let (allowed, _) = row.get(0);
        for (k, c) in p.effects[0].choices().iter().enumerate() {
            if allowed & (1 << k) != 0 {
                let made = choice_total(&p, c, &Facts::total(t));
                assert_eq!(
                    row.total(0, k),
                    Some(made),
                    "the total of choice {k} at {t}"
                );
            }
        }
    }
    for active in 0..=MAX_SEATS + 1 {
        let column = legal.ranks_with(active);
        for t in [-5, -1, 0, 1, 50, 98, 99, 100, 1000, i32::MIN, i32::MAX] {
            assert_eq!(
                column.at(t),
                legal.ranks(active, t),
                "{active} players at {t}"
            );
        }
    }
    assert_eq!(legal.get(0, 5), Some((0b011, 0)), "no -10 at 5");
    assert_eq!(legal.get(0, 90), Some((0b101, 0)), "no +11 at 90");
    assert_eq!(legal.get(0, 100), None, "outside the window");
    assert_eq!(legal.get(0, -1), None, "outside the window");
    // A table built for other limits is caught by the verifier.
    p.ceiling = Some(Limit {
        value: 50,
        expr: None,
        origin: Origin::default(),
    });
    assert!(
        legal
            .disagreements(&p)
            .iter()
            .any(|e| e.contains("legal-choice table"))
    );
}

#[test]
fn the_legal_table_answers_at_the_highest_total_and_a_stale_answer_is_caught() {
    let mut p = program();
    p.ceiling = None;
    p.effects = vec![effect(&[
        choice(&[step(Act::Add(1))]),
        choice(&[step(Act::Set(5))]),
    ])];
    p.rank_fx[3][0] = 0;
    let legal = LegalTable::build(&p);
    assert_eq!(verify(&p), Vec::<String>::new());
    // Outside the window, only the highest total is answered.
    assert_eq!(legal.ranks(3, i32::MAX).map(|[ok, _]| ok & 1), Some(1));
    assert_eq!(legal.ranks(3, i32::MAX - 1), None);
    assert_eq!(legal.ranks_with(3).at(i32::MAX), legal.ranks(3, i32::MAX));
    assert_eq!(legal.ranks_with(3).at(i32::MAX - 1), None);
    // A floor above 5 refuses the second choice but not the first: the ace still goes.
    p.floor = Some(Limit {
        value: 6,
        expr: None,
        origin: Origin::default(),
    });
    p.start = 10;
    let legal = LegalTable::build(&p);
    assert_eq!(verify(&p), Vec::<String>::new());
    assert_eq!(legal.ranks(3, i32::MAX).map(|[ok, _]| ok & 1), Some(1));
    // Made stale: the ace now sets the total to 0, below the floor, and can no longer be
    // laid at the top; the verifier sees the table's answer is out of date.
    p.effects = vec![effect(&[
        choice(&[step(Act::Set(0))]),
        choice(&[step(Act::Set(5))]),
    ])];
    let errors = legal.disagreements(&p);
    assert!(
        errors.iter().any(|e| e.contains("highest total")),
        "{errors:?}"
    );
}

#[test]
fn a_stale_total_in_the_legal_table_is_caught() {
    let mut p = program();
    p.effects = vec![effect(&[choice(&[step(Act::Set(50))])])];
    between(&mut p, 0, 99);
    let legal = LegalTable::build(&p);
    assert_eq!(verify(&p), Vec::<String>::new());
    assert_eq!(legal.row(7).and_then(|r| r.total(0, 0)), Some(50));
    // The same choices allowed at every total, another total made: only the totals differ.
    p.effects = vec![effect(&[choice(&[step(Act::Set(60))])])];
    let errors = legal.disagreements(&p);
    assert!(
        errors.iter().any(|e| e.contains("table's total is wrong")),
        "{errors:?}"
    );
}

#[test]
fn a_choice_is_quiet_when_no_step_has_outcomes_either_way_and_the_table_says_so() {
    let mut p = program();
    let pay = Outcome {
        who: Who::Player,
        kind: OutcomeKind::Pay {
            amount: Amount::Fixed(1),
            to: Target::Pot,
        },
    };
    p.outcomes
        .push(Outcomes::new(vec![pay], Origin::default(), "pay 1".into()));
    p.conds.push(Cond {
        any_of: vec![vec![Test::Even]],
        unless: Vec::new(),
    });
    let plain = choice(&[step(Act::Add(3))]);
    let halve_or_double = choice(&[Step {
        cond: Some(0),
        then: Act::Div(2),
        otherwise: Act::Mul(2),
    }]);
    let pays_when_odd = choice(&[Step {
        cond: Some(0),
        then: Act::Nothing,
        otherwise: Act::Outcomes(0),
    }]);
    let pays = choice(&[step(Act::Add(1)), step(Act::Outcomes(0))]);
    let scripted = choice(&[step(Act::Script(0))]);
    assert!(plain.is_quiet() && halve_or_double.is_quiet());
    assert!(!pays_when_odd.is_quiet() && !pays.is_quiet() && !scripted.is_quiet());
    p.effects = vec![
        effect(&[plain, halve_or_double, pays_when_odd]),
        effect(&[pays, plain]),
    ];
    let legal = LegalTable::build(&p);
    assert_eq!(verify(&p), Vec::<String>::new());
    assert_eq!((legal.quiet(0), legal.quiet(1)), (0b011, 0b10));
    // An effect the table does not hold has no quiet choice: the bots work it out.
    assert_eq!(legal.quiet(2), 0);
    assert_eq!(LegalTable::default().quiet(0), 0);
    // A choice that came to pay since the table was built is caught by the verifier.
    p.effects[0].choices[0] = pays;
    let errors = legal.disagreements(&p);
    assert!(
        errors.iter().any(|e| e.contains("quiet choices are wrong")),
        "{errors:?}"
    );
}

#[test]
fn a_column_of_ranks_is_live_when_a_choice_reads_the_player_and_the_verifier_checks_it() {
    let mut p = program();
    between(&mut p, 0, 99);
    p.effects = vec![effect(&[choice(&[step(Act::Add(2))])])];
    let legal = LegalTable::build(&p);
    assert_eq!(verify(&p), Vec::<String>::new());
    for active in 0..=MAX_SEATS {
        assert!(!legal.ranks_with(active).live, "{active} players");
    }
    // `add 3 if the card before was a 9`: read from the player's situation, so live.
    p.conds.push(Cond {
        any_of: vec![vec![Test::Previous(8)]],
        unless: Vec::new(),
    });
    p.effects.push(effect(&[choice(&[Step {
        cond: Some(0),
        then: Act::Add(3),
        otherwise: Act::Nothing,
    }])]));
    p.rank_fx[3][5] = 1;
    p.card_lines.push(CardLine {
        rank: 5,
        count: Count::Exactly(3),
        fx: 1,
    });
    let legal = LegalTable::build(&p);
    assert_eq!(verify(&p), Vec::<String>::new());
    assert!(legal.ranks_with(3).live);
    assert!(
        !legal.ranks_with(4).live,
        "the rank has no live effect with 4 players"
    );
    // A table without flags leaves every answer to be checked.
    assert!(LegalTable::default().ranks_with(3).live);
    // Made stale: the live effect gone, the flag is caught.
    p.rank_fx[3][5] = 0;
    // The table of effects must be what the card lines say, or the sheet would lie.
    let errors = verify(&p);
    assert!(
        errors.iter().any(|e| e.contains("not its card line's")),
        "{errors:?}"
    );
    p.card_lines.pop();
    let errors = legal.disagreements(&p);
    assert!(
        errors.iter().any(|e| e.contains("legal-choice table")),
        "{errors:?}"
    );
}

#[test]
fn a_condition_on_the_player_is_live_only_when_its_branches_do_different_arithmetic() {
    let mut p = program();
    between(&mut p, 0, 99);
    p.conds.push(Cond {
        any_of: vec![vec![Test::Previous(10)]],
        unless: Vec::new(),
    });
    let on_jack = |then: Act, otherwise: Act| Step {
        cond: Some(0),
        then,
        otherwise,
    };
    // `if the previous card is a Jack: add 10 and the next player pays 1; otherwise add 10`:
    // the total is 10 more either way; only the payment depends on the player.
    let same = choice(&[
        on_jack(Act::Add(10), Act::Add(10)),
        on_jack(Act::Outcomes(0), Act::Nothing),
    ]);
    assert!(!same.is_live(&p));
    // Different arithmetic, or arithmetic on one side only: the total depends on it.
    for (then, otherwise) in [
        (Act::Add(10), Act::Add(1)),
        (Act::Add(10), Act::Nothing),
        (Act::Skip(1), Act::Set(99)),
        (Act::Mul(2), Act::Div(2)),
    ] {
        assert!(
            choice(&[on_jack(then, otherwise)]).is_live(&p),
            "{then:?} {otherwise:?}"
        );
    }
    // A condition on the total alone is never live.
    p.conds[0] = Cond {
        any_of: vec![vec![Test::Even]],
        unless: Vec::new(),
    };
    assert!(!choice(&[on_jack(Act::Add(10), Act::Nothing)]).is_live(&p));
}

#[test]
fn a_column_is_complete_when_every_rank_of_the_deck_can_always_be_laid_and_the_verifier_checks_it()
{
    // Every rank adds 1 up to a ceiling: at the ceiling none can be laid.
    let mut p = program();
    between(&mut p, 0, 99);
    assert_eq!(verify(&p), Vec::<String>::new());
    let legal = LegalTable::build(&p);
    for active in 0..=MAX_SEATS {
        assert!(!legal.ranks_with(active).complete, "{active} players");
        assert!(!legal.ranks_with(active).all_at(50));
    }
    // With nothing added, every card can always be laid: with the players whose ranks all
    // have the effect.
    p.effects = vec![effect(&[choice(&[step(Act::Nothing)])])];
    let legal = LegalTable::build(&p);
    assert_eq!(verify(&p), Vec::<String>::new());
    for active in [2, 3] {
        let ranks = legal.ranks_with(active);
        assert!(ranks.complete, "{active} players");
        assert!(ranks.all_at(0) && ranks.all_at(99));
        // Outside the window the column says nothing.
        assert!(!ranks.all_at(100) && !ranks.all_at(-1) && !ranks.all_at(i32::MAX));
    }
    assert!(
        !legal.ranks_with(4).complete,
        "no rank has an effect with 4 players"
    );
    // A table without flags claims nothing.
    assert!(!LegalTable::default().ranks_with(3).complete);
    // Jokers in the deck: their rank must be laid too.
    p.jokers = 2;
    let legal = LegalTable::build(&p);
    assert!(!legal.ranks_with(3).complete, "no effect lays a joker");
    p.rank_fx[2][usize::from(crate::base::cards::JOKER)] = 0;
    p.rank_fx[3][usize::from(crate::base::cards::JOKER)] = 0;
    p.card_lines.push(CardLine {
        rank: crate::base::cards::JOKER,
        count: Count::Any,
        fx: 0,
    });
    let legal = LegalTable::build(&p);
    assert_eq!(verify(&p), Vec::<String>::new());
    assert!(legal.ranks_with(3).complete);
    // Made stale: a rank whose effect goes past the ceiling, and the table is caught.
    p.effects.push(effect(&[choice(&[step(Act::Add(200))])]));
    p.rank_fx[3][4] = 1;
    p.card_lines.push(CardLine {
        rank: 4,
        count: Count::Exactly(3),
        fx: 1,
    });
    let errors = legal.disagreements(&p);
    assert!(
        errors.iter().any(|e| e.contains("legal-choice table")),
        "{errors:?}"
    );
    let legal = LegalTable::build(&p);
    assert_eq!(verify(&p), Vec::<String>::new());
    assert!(!legal.ranks_with(3).complete);
}

#[test]
fn a_row_is_inside_when_every_total_it_allows_is_in_the_window_and_the_verifier_checks_it() {
    // A floor and no ceiling (the window runs from 0 to 1024): adding 1 leaves it from its
    // top total alone; doubling from half-way.
    let mut p = program();
    between(&mut p, 0, 99);
    p.ceiling = None;
    let legal = LegalTable::build(&p);
    assert_eq!(legal.window(), (0, 1024));
    assert_eq!(verify(&p), Vec::<String>::new());
    assert!(legal.inside(0) && legal.inside(1023));
    assert!(!legal.inside(1024), "1025 is outside the window");
    // Outside the window, nothing is claimed.
    assert!(!legal.inside(-1) && !legal.inside(2000) && !legal.inside(i32::MAX));
    p.effects.push(effect(&[choice(&[step(Act::Mul(2))])]));
    let legal = LegalTable::build(&p);
    assert!(legal.inside(512) && !legal.inside(513));
    // A choice the limits refuse makes no total: with the ceiling back, every row is inside.
    between(&mut p, 0, 99);
    let legal = LegalTable::build(&p);
    assert!((0..=99).all(|t| legal.inside(t)));
    // A table without rows claims nothing.
    assert!(!LegalTable::default().inside(0));
    // Made stale: every rank adds 2 instead of 1, which leaves the window from 1023 too, and
    // the table is caught.
    p.ceiling = None;
    p.effects.truncate(1);
    let legal = LegalTable::build(&p);
    assert_eq!(verify(&p), Vec::<String>::new());
    p.effects[0] = effect(&[choice(&[step(Act::Add(2))])]);
    let errors = legal.disagreements(&p);
    assert!(
        errors
            .iter()
            .any(|e| e.contains("inside the window are wrong")),
        "{errors:?}"
    );
}

/// A card effect in rhai that reads only the total, tabulated from `lo` as `table` says.
fn tabulated(lo: i32, table: Vec<Option<i32>>) -> ScriptFx {
    ScriptFx {
        func: "f".into(),
        doc: String::new(),
        rank: 6,
        lo,
        table: Some(
            table
                .into_iter()
                .map(|total| ScriptOut {
                    total,
                    turn: Turn::default(),
                    outcomes: Vec::new(),
                })
                .collect(),
        ),
        origin: Origin::default(),
    }
}

/// Scripts that are never asked: a table answers them, or the test asks nothing live.
#[derive(Debug)]
struct NotAsked;

impl ScriptHost for NotAsked {
    fn effect(&self, func: &str, _: &View) -> Result<ScriptOut, ScriptError> {
        panic!("{func} asked live")
    }
    fn test(&self, func: &str, _: &View) -> Result<bool, ScriptError> {
        panic!("{func} asked live")
    }
    fn digest(&self) -> u64 {
        0
    }
}

#[test]
fn a_script_is_live_only_where_it_is_not_tabulated_and_the_table_holds_its_totals() {
    let mut p = program();
    between(&mut p, 0, 99);
    p.scripts = Some(Scripts(std::sync::Arc::new(NotAsked)));
    // `swap the digits` tabulated from 0 to 49; from 50 up it would be asked live. At 7 it
    // gives no total: the total stays.
    let swap = |t: i32| Some((t % 10) * 10 + t / 10);
    let mut table: Vec<Option<i32>> = (0..50).map(swap).collect();
    table[7] = None;
    p.script_fx = vec![tabulated(0, table)];
    let run = choice(&[step(Act::Script(0))]);
    let after_add = choice(&[step(Act::Add(40)), step(Act::Script(0))]);
    assert!(run.scripted && run.is_live(&p));
    p.effects = vec![effect(&[run, after_add])];
    let legal = LegalTable::build(&p);
    assert_eq!(verify(&p), Vec::<String>::new());
    let at = |t: i32| legal.row(t).expect("in the window");
    // Tabulated at 12 (21) and at 7 (no total: 7); asked live at 60.
    assert!(!run.live_at(&p, 12) && !run.live_at(&p, 7) && run.live_at(&p, 60));
    assert_eq!(at(12).get(0).0 & 0b01, 0b01);
    assert_eq!(at(12).total(0, 0), Some(21));
    assert_eq!(at(7).total(0, 0), Some(7));
    assert_eq!(at(60).get(0), (0b00, 0b11));
    // Its second choice asks the script at the total after its add: 5 + 40 is tabulated,
    // 12 + 40 is not.
    assert!(!after_add.live_at(&p, 5) && after_add.live_at(&p, 12));
    assert_eq!(at(5).get(0), (0b11, 0b00));
    assert_eq!(at(5).total(0, 1), Some(54));
    assert_eq!(at(12).get(0), (0b01, 0b10));
    // A script that runs live (no table) is live at every total; so is every script at the
    // highest total, where a bot asks what can be laid whatever the total.
    assert!(legal.ranks(3, i32::MAX).is_some_and(|[_, live]| live != 0));
    p.script_fx[0].table = None;
    assert!((0..100).all(|t| run.live_at(&p, t)));
    // The table built for the tabulated script no longer fits it: the verifier says so.
    let errors = legal.disagreements(&p);
    assert!(
        errors.iter().any(|e| e.contains("legal-choice table")),
        "{errors:?}"
    );
}

#[test]
fn default_labels_are_amounts_told_apart_and_places_when_they_cannot_be() {
    let tested = |then: Act, otherwise: Act| Step {
        cond: Some(0),
        then,
        otherwise,
    };
    // `add 1 or add 11`: the amounts.
    let plain = [choice(&[step(Act::Add(1))]), choice(&[step(Act::Add(11))])];
    assert_eq!(Choice::default_labels(&plain), ["1", "11"]);
    // `if odd: add 7; otherwise either add 1 or nothing`: both add 7 first; told apart
    // where they part, the one with no amount there by its place.
    let branches = [
        choice(&[tested(Act::Add(7), Act::Add(1))]),
        choice(&[tested(Act::Add(7), Act::Nothing)]),
    ];
    assert_eq!(Choice::default_labels(&branches), ["1", "2"]);
    // Parting where neither has an amount, and the same amount after: every one by its place.
    let alike = [
        choice(&[step(Act::Add(5)), step(Act::Reverse), step(Act::Add(2))]),
        choice(&[step(Act::Add(5)), step(Act::Skip(1)), step(Act::Add(2))]),
    ];
    assert_eq!(Choice::default_labels(&alike), ["1", "2"]);
    // A third choice whose amount is another's place cannot collide with the places.
    let mixed = [
        choice(&[step(Act::Add(5)), step(Act::Reverse)]),
        choice(&[step(Act::Add(5)), step(Act::Skip(1))]),
        choice(&[step(Act::Add(2))]),
    ];
    assert_eq!(Choice::default_labels(&mixed), ["1", "2", "3"]);
}
