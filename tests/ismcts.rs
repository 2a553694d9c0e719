//! The strong bot's honesty: its deals of the unseen cards read nothing but what the table
//! knows (swapping hidden cards changes nothing it does), they are uniform over the deals
//! consistent with that knowledge, and they respect what play revealed (a stuck player who
//! kept their cards holds none that could be laid then). And every shipped ruleset plays with
//! it.

mod common;

use ninety::play::Ruleset;
use std::path::Path;

use ninety::app::load::load_program;
use ninety::base::Rng;
use ninety::base::cards::{Card, parse_card, rank_of};
use ninety::compile::Disk;
use ninety::engine::{Setup, State, deal_hidden, new_game};
use ninety::ir::MAX_SEATS;
use ninety::play::{Bot, bot_turn, ismcts};

fn load(path: &Path) -> Ruleset {
    load_program(&Disk, &path.display().to_string(), &[]).expect("checks")
}

fn shipped() -> Vec<(String, Ruleset)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
    common::rulesets(&dir)
        .into_iter()
        .map(|f| (f.display().to_string(), load(&f)))
        .collect()
}

/// The fewest players the ruleset seats, at least 3 where it allows them.
fn players(p: &Ruleset) -> usize {
    (3..=MAX_SEATS)
        .chain(2..3)
        .find(|&n| p.check_players(n).is_ok())
        .expect("some table")
}

/// A game `turns` turns in, played by cautious and random bots (`None` if it ended first).
fn mid_game(p: &Ruleset, seed: u64, turns: u64) -> Option<State> {
    let setup = Setup {
        players: players(p),
        seed,
        ..Setup::default()
    };
    let mut s = new_game(p, &setup, &mut ()).ok()?;
    let mut rng = Rng::from_seed(seed ^ 0xABCD);
    for t in 0..turns {
        let bot = if t % 3 == 0 {
            Bot::Random
        } else {
            Bot::Cautious
        };
        if s.over || !bot_turn(p, &mut s, bot, &mut rng, &mut ()).ok()? {
            return None;
        }
    }
    (!s.over).then_some(s)
}

/// Where a hidden card lies: a seat's hand, the cards face down, or the stock.
#[derive(Clone, Copy, PartialEq)]
enum Place {
    Hand(usize),
    Down,
    Stock,
}

/// The same table but for the cards the player to move cannot see: they change places at
/// random (only where the table's knowledge allows: a stuck player's hand keeps holding no
/// playable card), and the engine's own random stream is another.
fn swap_hidden(s: &State, rng: &mut Rng) -> State {
    let viewer = usize::from(s.turn);
    let n = usize::from(s.seats);
    let mut cards: Vec<(Place, Card)> = Vec::new();
    for seat in (0..n).filter(|&x| x != viewer) {
        cards.extend(
            s.hands[seat]
                .cards()
                .iter()
                .map(|&c| (Place::Hand(seat), c)),
        );
    }
    cards.extend(s.face_down.iter().map(|&c| (Place::Down, c)));
    cards.extend(s.stock.iter().map(|&c| (Place::Stock, c)));
    let fits = |place: Place, c: Card| match place {
        Place::Hand(seat) => s.known_not[seat] & (1 << rank_of(c)) == 0,
        _ => true,
    };
    for _ in 0..cards.len() * 3 {
        let (i, j) = (rng.below(cards.len()), rng.below(cards.len()));
        if fits(cards[i].0, cards[j].1) && fits(cards[j].0, cards[i].1) {
            let (ci, cj) = (cards[i].1, cards[j].1);
            cards[i].1 = cj;
            cards[j].1 = ci;
        }
    }
    // The same table, the cards in their new places.
    let mut hands: Vec<Vec<Card>> = vec![Vec::new(); MAX_SEATS];
    let (mut down, mut stock) = (Vec::new(), Vec::new());
    for (place, c) in cards {
        match place {
            Place::Hand(seat) => hands[seat].push(c),
            Place::Down => down.push(c),
            Place::Stock => stock.push(c),
        }
    }
    let mut t = s.clone();
    for (seat, cards) in hands
        .iter()
        .enumerate()
        .filter(|&(x, _)| x < n && x != viewer)
    {
        t.hands[seat] = ninety::engine::Hand::of(cards).expect("a hand");
    }
    t.face_down = down;
    t.stock = stock;
    t.rng = Rng::from_seed(rng.next_u64());
    t
}

#[test]
fn deals_of_the_unseen_cards_read_nothing_hidden() {
    let mut states = 0;
    let mut differ = 0;
    for (name, p) in shipped() {
        for seed in 0..60u64 {
            let Some(s) = mid_game(&p, seed, 1 + seed % 40) else {
                continue;
            };
            let mut rng = Rng::from_seed(seed);
            let t = swap_hidden(&s, &mut rng);
            t.check_invariants(&p)
                .expect("the swapped table is a table");
            differ += usize::from(t != s);
            states += 1;
            let (mut a, mut b) = (s.clone(), t.clone());
            a.determinize(&p, s.turn, &mut Rng::from_seed(seed + 7));
            b.determinize(&p, s.turn, &mut Rng::from_seed(seed + 7));
            assert_eq!(
                a, b,
                "{name}, seed {seed}: a deal read where the hidden cards lay"
            );
            a.check_invariants(&p).expect("a deal is a table");
            let viewer = usize::from(s.turn);
            assert_eq!(
                a.hands[viewer], s.hands[viewer],
                "{name}: the viewer's hand stays"
            );
            assert_eq!(a.discard, s.discard, "{name}: the discard pile stays");
            assert_eq!(a.aside, s.aside, "{name}: the cards face up stay");
        }
    }
    assert!(states > 1000, "only {states} mid-game states");
    assert!(
        differ * 10 > states * 9,
        "the swaps changed only {differ} of {states} tables"
    );
}

#[test]
fn the_bot_plays_the_same_whatever_the_hidden_cards() {
    let mut states = 0;
    for (name, p) in shipped() {
        for seed in 0..40u64 {
            // Both horizons: to the round's end and to the game's; a small budget, so that
            // thousands of tables are tried (each deal is where a peek would show).
            let bot = Bot::Ismcts {
                iterations: 12 + (seed % 3) as u32 * 10,
                round: seed % 2 == 0,
            };
            let Some(s) = mid_game(&p, seed, 2 + seed % 50) else {
                continue;
            };
            let t = swap_hidden(&s, &mut Rng::from_seed(seed));
            let (mut ra, mut rb) = (Rng::from_seed(seed * 31), Rng::from_seed(seed * 31));
            let a = bot.choose(&p, &s, &mut ra);
            let tree_a = ismcts::last_shape();
            let b = bot.choose(&p, &t, &mut rb);
            let tree_b = ismcts::last_shape();
            assert_eq!(a, b, "{name}, seed {seed}: the move");
            assert_eq!(tree_a, tree_b, "{name}, seed {seed}: the tree");
            assert_eq!(ra, rb, "{name}, seed {seed}: the random stream");
            states += 1;
        }
    }
    assert!(states > 1000, "only {states} states");
}

#[test]
fn deals_are_uniform_over_the_consistent_ones() {
    // Six cards, none seen: seat 1 and seat 2 hold two each, two are in the stock, and seat 1
    // is known to hold no Ace. Of the 90 ways to split them, 36 give seat 1 no Ace.
    let deck: Vec<Card> = ["AS", "AH", "2S", "2H", "3S", "3H"]
        .iter()
        .map(|c| parse_card(c).expect("a card"))
        .collect();
    let ace = rank_of(deck[0]);
    let known_not = [0, 1 << ace, 0];
    let sizes = [0, 2, 2];
    let mut rng = Rng::from_seed(2026);
    let mut counts = std::collections::BTreeMap::<(Vec<Card>, Vec<Card>), u32>::new();
    let draws = 36_000;
    for _ in 0..draws {
        let mut pool = deck.clone();
        deal_hidden(&mut pool, &sizes, &known_not, 0, &mut rng);
        let mut one = pool[0..2].to_vec();
        let mut two = pool[2..4].to_vec();
        one.sort_unstable();
        two.sort_unstable();
        assert!(
            one.iter().all(|&c| rank_of(c) != ace),
            "seat 1 was dealt an Ace"
        );
        *counts.entry((one, two)).or_default() += 1;
    }
    assert_eq!(counts.len(), 36, "every consistent split happens");
    let expected = f64::from(draws) / 36.0;
    let chi2: f64 = counts
        .values()
        .map(|&o| (f64::from(o) - expected).powi(2) / expected)
        .sum();
    // 35 degrees of freedom: 66.6 is the 0.999 quantile.
    assert!(
        chi2 < 66.6,
        "chi-square {chi2:.1} over 36 splits: not uniform"
    );
}

#[test]
fn a_deal_too_narrow_to_draw_is_mended_consistently() {
    // Twenty cards; seat 1 holds five and is known to hold no Ace, 2 or 3 (twelve of them):
    // one deal in 277 fits, so drawing again (`REDEALS` times) mostly gives up and the cards that do not fit
    // are swapped out.
    let deck: Vec<Card> = [
        "AS", "AH", "AD", "AC", "2S", "2H", "2D", "2C", "3S", "3H", "3D",
    ]
    .iter()
    .chain(["3C", "4S", "4H", "4D", "5S", "5H", "5D", "5C", "4C"].iter())
    .map(|c| parse_card(c).expect("a card"))
    .collect();
    let banned = [0usize, 1, 2]
        .iter()
        .fold(0u16, |m, &i| m | 1 << rank_of(deck[i * 4]));
    let sizes = [0, 5, 5];
    let mut rng = Rng::from_seed(7);
    for _ in 0..500 {
        let mut pool = deck.clone();
        deal_hidden(&mut pool, &sizes, &[0, banned, 0], 0, &mut rng);
        assert!(
            pool[0..5].iter().all(|&c| banned & (1 << rank_of(c)) == 0),
            "seat 1 got a card it cannot hold: {:?}",
            &pool[0..5]
        );
        let mut all = pool.clone();
        all.sort_unstable();
        let mut want = deck.clone();
        want.sort_unstable();
        assert_eq!(all, want, "the cards are the same cards");
    }
}

#[test]
fn a_stuck_player_who_kept_their_cards_is_never_dealt_a_playable_one() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/house-rules");
    let p = load(&dir.join("stuck-keeps-hand.rules"));
    let mut rng = Rng::from_seed(99);
    let mut seen = 0;
    for seed in 0..40 {
        let mut s = new_game(
            &p,
            &Setup {
                players: 3,
                seed,
                ..Setup::default()
            },
            &mut (),
        )
        .expect("deals");
        while !s.over && s.turns < 2000 {
            for seat in 0..usize::from(s.seats) {
                let k = s.known_not[seat];
                // What the table knows is true.
                assert!(
                    s.hands[seat]
                        .cards()
                        .iter()
                        .all(|&c| k & (1 << rank_of(c)) == 0),
                    "seed {seed}: seat {seat} is said to hold none of {k:#b} but holds {:?}",
                    s.hands[seat]
                );
                if k == 0 || seat == usize::from(s.turn) || s.hands[seat].is_empty() {
                    continue;
                }
                seen += 1;
                for _ in 0..20 {
                    let mut d = s.clone();
                    d.determinize(&p, s.turn, &mut rng);
                    assert!(
                        d.hands[seat]
                            .cards()
                            .iter()
                            .all(|&c| k & (1 << rank_of(c)) == 0),
                        "seed {seed}: a deal gave stuck seat {seat} a card it could have laid: {:?}",
                        d.hands[seat]
                    );
                }
            }
            if !bot_turn(&p, &mut s, Bot::Cautious, &mut rng, &mut ()).expect("plays") {
                break;
            }
        }
    }
    assert!(
        seen > 100,
        "only {seen} tables with a stuck player holding cards"
    );
}

#[test]
fn every_shipped_ruleset_plays_with_the_strong_bot() {
    let bot = Bot::Ismcts {
        iterations: 20,
        round: false,
    };
    for (name, p) in shipped() {
        let mut s = new_game(
            &p,
            &Setup {
                players: players(&p),
                seed: 5,
                ..Setup::default()
            },
            &mut (),
        )
        .expect("deals");
        let mut rng = Rng::from_seed(5);
        while !s.over && s.turns < 400 {
            if !bot_turn(&p, &mut s, bot, &mut rng, &mut ())
                .unwrap_or_else(|e| panic!("{name}: {e}"))
            {
                break;
            }
        }
        assert!(s.turns > 0, "{name}: no card was played");
    }
}

#[test]
fn ismcts_names_read_back() {
    for name in ["ismcts", "ismcts:50", "ismcts:50:game", "ismcts:2000:game"] {
        let bot = Bot::from_name(name).expect("a bot");
        assert_eq!(bot.name(), name);
    }
    // The round's end is the default horizon: said or not, the same bot.
    let said = Bot::from_name("ismcts:50:round").expect("a bot");
    assert_eq!(said, Bot::from_name("ismcts:50").expect("a bot"));
    assert_eq!(said.name(), "ismcts:50");
    for bad in [
        "ismcts:",
        "ismcts:0",
        "ismcts:x",
        "ismcts:5:moon",
        "ismcts:5:game:1",
        "ismcts:1000001",
        "ismctsx",
    ] {
        assert!(Bot::from_name(bad).is_none(), "{bad} is no bot");
    }
}

/// Strength, counted (never timed): at one table of the strong bot, the search bot and a
/// cautious one, in every seating, the strong bot wins more than the search bot beyond
/// chance, in Ninety-Nine and Ninety-Eight. Heavy: `cargo test --release --test ismcts --
/// --ignored` (about five minutes on two cores); `cargo bench --bench bots -- --ladder` prints
/// the whole ladder.
#[test]
#[ignore]
fn ismcts_beats_search_beyond_chance() {
    use ninety::play::Player;
    use ninety::sim::{self, Config, Control, WIN_UNIT};
    let strong = Bot::from_name("ismcts").expect("the default strong bot");
    let bots = [strong, Bot::Search, Bot::Cautious];
    let seatings = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let games = 30;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
    for name in ["ninety-nine", "ninety-eight"] {
        let p = load(&dir.join(format!("{name}.rules")));
        let mut won = [0.0f64; 3];
        for (k, seating) in seatings.iter().enumerate() {
            let seated: Vec<Bot> = seating.iter().map(|&b| bots[b]).collect();
            let cfg = Config {
                ruleset: name.into(),
                name: name.into(),
                players: 3,
                bots: seated.iter().map(|b| b.name().to_string()).collect(),
                seed: 500 + k as u64,
                games,
                sets: Vec::new(),
            };
            let players: Vec<Player> = seated.iter().map(|b| Player::Bot(*b)).collect();
            let st = sim::run(&p, &players, &cfg, &Control::jobs(2)).expect("runs");
            for (seat, &b) in seating.iter().enumerate() {
                won[b] += st.wins[seat] as f64 / WIN_UNIT as f64;
            }
        }
        let n = (games * seatings.len() as u64) as f64;
        let (i, s) = (won[0] / n, won[1] / n);
        // The two shares come from the same games: the difference's variance is
        // (i + s - (i - s)²) / n.
        let z = (i - s) / ((i + s - (i - s).powi(2)) / n).sqrt();
        assert!(
            z > 1.96,
            "{name}: ismcts won {:.1}% and search {:.1}% of {n} games (cautious {:.1}%): z = {z:.2}",
            100.0 * i,
            100.0 * s,
            100.0 * won[2] / n
        );
    }
}

/// No clock decides anything: the same seed gives the same games on one thread or two, with
/// another thread keeping a core busy the whole time.
#[test]
fn the_same_seed_gives_the_same_games_under_load() {
    use ninety::play::Player;
    use ninety::sim::{self, Config, Control};
    use std::sync::atomic::{AtomicBool, Ordering};
    let p = load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/ninety-nine.rules"));
    let bots = [
        Bot::from_name("ismcts:60").expect("a bot"),
        Bot::Search,
        Bot::Cautious,
    ];
    let cfg = Config {
        ruleset: "ninety-nine".into(),
        name: "ninety-nine".into(),
        players: 3,
        bots: bots.iter().map(|b| b.name().to_string()).collect(),
        seed: 42,
        games: 6,
        sets: Vec::new(),
    };
    let players: Vec<Player> = bots.iter().map(|b| Player::Bot(*b)).collect();
    let quiet = sim::run(&p, &players, &cfg, &Control::jobs(1)).expect("runs");
    let stop = AtomicBool::new(false);
    let loaded = std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut x = 0u64;
            while !stop.load(Ordering::Relaxed) {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
        });
        let st = sim::run(&p, &players, &cfg, &Control::jobs(2)).expect("runs");
        stop.store(true, Ordering::Relaxed);
        st
    });
    assert_eq!(
        quiet, loaded,
        "the games changed with the load or the threads"
    );
    assert!(quiet.turns.sum > 0);
}

/// The searching bots' evaluation sums its play-outs without overflow: a move that fails in
/// every deal (its script fails in any two-player game) scores below every move that plays,
/// where a wrapping sum once made it the best.
#[test]
fn a_move_that_fails_in_every_deal_is_never_the_search_bots_pick() {
    use ninety::base::cards::parse_cards;
    use ninety::engine::Move;
    let mut memory = ninety::compile::Memory::new();
    memory.insert(
        "boom.rules",
        "extends \"ninety-nine\"\nname \"Boom\"\nscript\n  \
         fn boom(game) { if game.seats == 2 { throw \"boom\"; } game.total + 5 }\nend\n\
         card 5: run boom\n",
    );
    let p = load_program(&memory, "boom.rules", &[]).expect("checks");
    let hands = vec![
        parse_cards("5C 2C 3C").expect("cards"),
        parse_cards("7D 8D 9D").expect("cards"),
    ];
    let setup = Setup {
        players: 2,
        seed: 4,
        hands: Some(hands),
        total: Some(10),
        turn: Some(0),
        ..Setup::default()
    };
    let s = new_game(&p, &setup, &mut ()).expect("a position");
    let five = Move::Play {
        card: parse_card("5C").expect("a card"),
        choice: 0,
    };
    let two = Move::Play {
        card: parse_card("2C").expect("a card"),
        choice: 0,
    };
    assert!(
        s.legal_moves(&p).as_slice().contains(&five),
        "the 5 is offered"
    );
    let mut rng = Rng::for_bots(1);
    let best = ninety::play::search::best_of(&p, &s, &[five, two], 24, &mut rng);
    assert_eq!(best, two);
    let mut rng = Rng::for_bots(1);
    assert_ne!(Bot::Search.choose(&p, &s, &mut rng), Some(five));
}

/// Cards a rule moves between hands: the two players who saw a card move know where it is,
/// and a deal for either keeps it there; a deal for anyone else deals it like any unseen
/// card. (The rule takes a card at random, gives one back, and Jacks swap whole hands.)
#[test]
fn a_card_moved_before_a_players_eyes_stays_where_they_saw_it() {
    moved_cards_stay_where_they_were_seen(
        "extends \"ninety-nine\"\nname \"Moves\"\n\
         card J: add 10 and swap hands with the player after\n\
         card 7: add 7 and take a card at random from the player before\n\
         card 8: add 8 and give a card at random to the player after\n",
    );
}

/// The same moves made by scripts: what the two players saw is kept as when a line moves.
#[test]
fn a_card_a_script_moved_stays_where_it_was_seen() {
    moved_cards_stay_where_they_were_seen(
        "extends \"ninety-nine\"\nname \"Script moves\"\n\
         script\n\
           fn jack(game) { #{ total: game.total + 10, swap: \"after\" } }\n\
           fn seven(game) { #{ total: game.total + 7, take: #{ from: \"previous\" } } }\n\
           fn eight(game) { #{ total: game.total + 8, give: \"after\" } }\n\
         end\n\
         card J: run jack\n\
         card 7: run seven\n\
         card 8: run eight\n",
    );
}

/// A card given by the player's choice: the giver and the receiver know it, as any card
/// moved between hands.
#[test]
fn a_card_given_by_choice_stays_where_it_was_seen() {
    moved_cards_stay_where_they_were_seen(
        "extends \"ninety-nine\"\nname \"Gifts\"\n\
         card J: add 10 and swap hands with the player after\n\
         card 8: add 8 and the player gives a card of their choice to the player after\n\
         card 7: add 7 and the player gives a card of their choice to the player before\n",
    );
}

fn moved_cards_stay_where_they_were_seen(text: &str) {
    let mut memory = ninety::compile::Memory::new();
    memory.insert("moves.rules", text);
    let p = load_program(&memory, "moves.rules", &[]).expect("checks");
    let mut rng = Rng::from_seed(5);
    let (mut pinned, mut free) = (0, 0);
    for seed in 0..30 {
        let setup = Setup {
            players: 4,
            seed,
            ..Setup::default()
        };
        let mut s = new_game(&p, &setup, &mut ()).expect("deals");
        while !s.over && s.turns < 400 {
            s.validate(&p).expect("a table a game can be at");
            let viewer = s.turn;
            for seat in (0..s.seats).filter(|&x| x != viewer) {
                for &c in s.hands[usize::from(seat)].cards() {
                    let knows = s.seen_by(c) & (1 << viewer) != 0;
                    let mut kept = 0;
                    for k in 0..8 {
                        let mut d = s.clone();
                        d.determinize(&p, viewer, &mut Rng::from_seed(seed * 100 + k));
                        d.check_invariants(&p).expect("a deal is a table");
                        kept += usize::from(d.hands[usize::from(seat)].cards().contains(&c));
                    }
                    if knows {
                        pinned += 1;
                        assert_eq!(
                            kept, 8,
                            "seed {seed}: a card seat {viewer} saw go to seat {seat} was dealt elsewhere"
                        );
                    } else if s.hands[usize::from(seat)].len() < 6 {
                        free += usize::from(kept < 8);
                    }
                }
            }
            if !bot_turn(&p, &mut s, Bot::Random, &mut rng, &mut ()).expect("plays") {
                break;
            }
        }
    }
    assert!(pinned > 200, "only {pinned} cards seen moving");
    assert!(
        free > 200,
        "unseen cards were never dealt elsewhere ({free})"
    );
}
