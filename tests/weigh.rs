//! The weighing bots' plan (`play/plan.rs`) answers the plays it should: a quiet play from its
//! row, a play whose conditions decide which of its outcomes fire from the plan but for those
//! outcomes, and none of either the long way. Whether the answers are the long way's is
//! checked on every move of every debug build (`play/weigh.rs`); this is the other half: that
//! they are asked of the plan at all.

use ninety::app::load::load_program;
use ninety::base::Rng;
use ninety::base::limits::TURN_LIMIT;
use ninety::compile::Disk;
use ninety::engine::{self, Setup};
use ninety::play::Ruleset;
use ninety::play::{Bot, Player, Scoring, scoring};

/// How the plays of every position a cautious player meets in `games` games of `players`
/// were scored, summed.
fn scored(p: &Ruleset, players: usize, games: u64) -> Scoring {
    let cautious = Player::Bot(Bot::Cautious);
    let mut sum = Scoring::default();
    for seed in 0..games {
        let setup = Setup {
            players,
            seed,
            ..Setup::default()
        };
        let mut s = engine::new_game(p, &setup, &mut ()).expect("a game");
        let mut rng = Rng::for_bots(seed);
        while !s.over && s.turns < TURN_LIMIT {
            let sc = scoring(p, &s);
            sum.planned += sc.planned;
            sum.planned_but_outcomes += sc.planned_but_outcomes;
            sum.long_way += sc.long_way;
            if !cautious
                .turn(p, &mut s, &mut rng, &mut ())
                .expect("a legal move")
            {
                break;
            }
        }
    }
    sum
}

/// `ninety-nine-bounty`'s Jack and King may make a player pay, as a condition on the player
/// decides: planned but for those outcomes, never scored the long way; its other cards from
/// the plan alone. Ninety-Nine has no such card.
#[test]
fn plays_whose_conditions_decide_their_outcomes_are_planned_but_for_them() {
    let bounty = load_program(&Disk, "rulesets/ninety-nine-bounty.rules", &[]).expect("checks");
    let sc = scored(&bounty, 3, 30);
    assert_eq!(sc.long_way, 0, "{sc:?}");
    assert!(sc.planned_but_outcomes > 500, "{sc:?}");
    assert!(sc.planned > 4 * sc.planned_but_outcomes, "{sc:?}");

    let plain = load_program(&Disk, "rulesets/ninety-nine.rules", &[]).expect("checks");
    let sc = scored(&plain, 3, 30);
    assert_eq!((sc.long_way, sc.planned_but_outcomes), (0, 0), "{sc:?}");
    assert!(sc.planned > 3_000, "{sc:?}");
}

/// A card whose effect is a script (`house-odd-queen`'s Queen) is scored the long way: the
/// plan cannot know what its script costs. The cards beside it still from the plan.
#[test]
fn a_scripted_card_is_scored_the_long_way() {
    let p = load_program(&Disk, "rulesets/house-odd-queen.rules", &[]).expect("checks");
    let sc = scored(&p, 3, 30);
    assert!(sc.long_way > 100, "{sc:?}");
    assert_eq!(sc.planned_but_outcomes, 0, "{sc:?}");
    assert!(sc.planned > 4 * sc.long_way, "{sc:?}");
}

/// Restricted play asks the same bot again with some moves taken away: every bot then
/// picks among the allowed moves only; given every legal move, the weighing bots pick what
/// they pick unrestricted (the same scores, the same ties broken the same way); and with the
/// move it would make taken away, a weighing bot makes another (never a stronger player's).
#[test]
fn a_bot_asked_among_some_moves_chooses_among_them_as_itself() {
    let p = load_program(
        &Disk,
        concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets/ninety-nine.rules"),
        &[],
    )
    .expect("checks");
    let never = || false;
    let (mut same, mut positions) = (0, 0);
    for seed in 0..20 {
        let setup = Setup {
            players: 3,
            seed,
            ..Setup::default()
        };
        let mut s = engine::new_game(&p, &setup, &mut ()).expect("a game");
        let mut rng = Rng::for_bots(seed);
        while !s.over && s.turns < 300 {
            let mut moves = engine::Moves::new();
            s.legal_moves_into(&p, &mut moves);
            moves.retain_plays();
            let all = moves.as_slice().to_vec();
            if all.len() > 1 {
                positions += 1;
                for bot in [Bot::Cautious, Bot::Aggressive] {
                    let own = bot.choose(&p, &s, &mut rng.clone());
                    let among = bot.choose_among(&p, &s, &mut rng.clone(), &never, &all);
                    same += usize::from(own == among);
                    let rest: Vec<_> = all.iter().copied().filter(|m| Some(*m) != own).collect();
                    let other = bot
                        .choose_among(&p, &s, &mut rng.clone(), &never, &rest)
                        .expect("a move");
                    assert!(rest.contains(&other), "{other:?} is not among {rest:?}");
                }
                for bot in [Bot::Random, Bot::Search] {
                    let first = &all[..all.len() - 1];
                    let m = bot
                        .choose_among(&p, &s, &mut rng.clone(), &never, first)
                        .expect("a move");
                    assert!(first.contains(&m), "{bot:?}: {m:?} is not among {first:?}");
                }
            }
            if !Player::Bot(Bot::Cautious)
                .turn(&p, &mut s, &mut rng, &mut ())
                .expect("a legal move")
            {
                break;
            }
        }
    }
    assert!(positions > 500, "only {positions} positions with a choice");
    assert_eq!(
        same,
        2 * positions,
        "the weighing bots chose otherwise given every move"
    );
}
