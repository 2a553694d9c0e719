//! Moves beside laying a card (`instead of laying a card, a player may ...`, `a player who
//! cannot play may ... instead`) and cards that name a player (`choose who plays next`, `a
//! player of their choice`): every bot plays them to a game's end with only legal moves and a
//! sound state after each; the same seed plays the same game; a move the rules do not offer
//! now is refused and changes nothing.

use ninety::app::load::load_program;
use ninety::compile::Disk;
use ninety::engine::{self, Event, Move, PlayError, Setup, State};
use ninety::play::{Bot, Driver, Ending, Player, Ruleset, bot_turn, move_name, parse_move};

const RULES: [&str; 6] = [
    "tests/house-rules/set3/kings-choice.rules",
    "tests/house-rules/set3/blind-draw.rules",
    "tests/house-rules/set3/bust-shield.rules",
    "tests/house-rules/chosen-pays.rules",
    "tests/house-rules/moves-phrasings.rules",
    "tests/house-rules/chosen-gift.rules",
];

fn load(path: &str) -> Ruleset {
    load_program(&Disk, path, &[]).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn start(p: &Ruleset, players: usize, seed: u64) -> State {
    let setup = Setup {
        players,
        seed,
        ..Setup::default()
    };
    engine::new_game(p, &setup, &mut ()).expect("a game")
}

#[test]
fn every_bot_plays_only_legal_moves_to_the_end() {
    let bots = [
        Bot::Random,
        Bot::Cautious,
        Bot::Aggressive,
        Bot::Search,
        Bot::Ismcts {
            iterations: 40,
            round: true,
        },
    ];
    for path in RULES {
        let p = load(path);
        let mut kinds = [0u32; 4];
        for (i, bot) in bots.iter().enumerate() {
            for seed in 0..3u64 {
                let players = 2 + (seed as usize + i) % 3;
                let mut s = start(&p, players, seed);
                let mut rng = ninety::base::Rng::for_bots(seed);
                let mut turns = 0;
                while !s.over {
                    let legal = s.legal_moves(&p);
                    let before = s.clone();
                    let chosen = bot.choose(&p, &s, &mut rng).expect("a move");
                    assert!(
                        legal.as_slice().contains(&chosen),
                        "{path}: {} chose {} of {}",
                        bot.name(),
                        move_name(&p, &before, chosen),
                        ninety::play::legal_list(&p, &before)
                    );
                    match chosen {
                        Move::Aim { .. } | Move::Give { .. } => kinds[0] += 1,
                        Move::Other { .. } => kinds[1] += 1,
                        Move::Yield => kinds[2] += 1,
                        Move::Play { .. } | Move::Draw => kinds[3] += 1,
                    }
                    engine::step(&p, &mut s, chosen, &mut ()).expect("a legal move plays");
                    assert_eq!(s.validate(&p), Ok(()), "{path}: after {turns} moves");
                    // The notation of each move reads back as the move.
                    assert_eq!(
                        parse_move(&p, &before, &move_name(&p, &before, chosen)),
                        Ok(chosen),
                        "{path}"
                    );
                    turns += 1;
                    assert!(turns < 20_000, "{path}: the game ends");
                }
            }
        }
        assert!(
            kinds[0] + kinds[1] > 0,
            "{path}: no move beside a card was made: {kinds:?}"
        );
    }
}

#[test]
fn the_same_seed_plays_the_same_game() {
    for path in RULES {
        let p = load(path);
        let seats = vec![
            Player::Bot(Bot::Random),
            Player::Bot(Bot::Cautious),
            Player::Bot(Bot::Random),
        ];
        let game = |seed: u64| {
            let mut events: Vec<Event> = Vec::new();
            let mut driver = Driver::new(&p, &seats, seed);
            let setup = Setup {
                players: 3,
                seed,
                ..Setup::default()
            };
            let mut s = driver.start(&setup, &mut events).expect("starts");
            assert_eq!(
                driver.play(&mut s, &|| false, &mut events),
                Ending::Over,
                "{path}"
            );
            events
                .iter()
                .map(|e| ninety::present::event_json(&p, e).to_string())
                .collect::<Vec<_>>()
        };
        for seed in [1, 9] {
            let a = game(seed);
            assert_eq!(a, game(seed), "{path}: seed {seed}");
            assert!(
                a.iter().any(|e| ["\"other\"", "\"chose\"", "\"handed\""]
                    .iter()
                    .any(|k| e.contains(k))),
                "{path}: seed {seed}"
            );
        }
    }
}

#[test]
fn a_move_not_offered_is_refused_and_changes_nothing() {
    // A King that names a player, laid without one, or naming the player themselves.
    let p = load("tests/house-rules/set3/kings-choice.rules");
    for seed in 0..40 {
        let s = start(&p, 3, seed);
        let Some(king) = s.hands[usize::from(s.turn)]
            .cards()
            .iter()
            .copied()
            .find(|c| ninety::base::cards::rank_of(*c) == 12)
        else {
            continue;
        };
        for mv in [
            Move::Play {
                card: king,
                choice: 0,
            },
            Move::Aim {
                card: king,
                choice: 0,
                seat: s.turn,
            },
            Move::Aim {
                card: king,
                choice: 0,
                seat: 11,
            },
            Move::Yield,
            Move::Other { index: 0, card: 0 },
        ] {
            let mut copy = s.clone();
            let e = engine::step(&p, &mut copy, mv, &mut ()).expect_err("refused");
            assert!(matches!(e, PlayError::NotOffered(_)), "{mv:?}: {e}");
            assert_eq!(copy, s, "{mv:?} changed the game");
        }
        let seat = (s.turn + 1) % 3;
        let mut copy = s.clone();
        engine::step(
            &p,
            &mut copy,
            Move::Aim {
                card: king,
                choice: 0,
                seat,
            },
            &mut (),
        )
        .expect("plays");
        assert_eq!(copy.turn, seat, "the named player plays next");
        return;
    }
    panic!("no seed deals a King to the leader");
}

#[test]
fn a_stuck_player_with_a_shield_is_asked_and_bots_take_it() {
    // Bust shield: every game of cautious bots in which someone is stuck with a King ends up
    // discarding one (they never yield while they may discard), and the driver counts it.
    let p = load("tests/house-rules/set3/bust-shield.rules");
    let mut discards = 0;
    for seed in 0..20 {
        let mut s = start(&p, 3, seed);
        let mut rng = ninety::base::Rng::for_bots(seed);
        while !s.over {
            let legal = s.legal_moves(&p);
            let stuck = legal.as_slice().contains(&Move::Yield);
            let mut events: Vec<Event> = Vec::new();
            assert!(bot_turn(&p, &mut s, Bot::Cautious, &mut rng, &mut events).expect("plays"));
            if stuck {
                assert!(
                    events.iter().any(|e| matches!(e, Event::Other { .. })),
                    "a stuck cautious bot with a King discards it"
                );
                discards += 1;
            }
        }
    }
    assert!(discards > 0, "some player was stuck with a King");
}
