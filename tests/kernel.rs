//! The engine's loop of plain turns (`engine::loop_turns`, what `ninety sim` runs when every
//! seat is a random, cautious or aggressive bot) plays the very games the general way plays:
//! each turn through `Player::turn`. Every shipped ruleset, every player count it allows,
//! game by game, with random bots, weighing bots and a table of both, the whole state
//! compared (hands, piles, chips, the game's random stream and the bots') at every point
//! where the loop hands back, and at the end.

use ninety::play::Ruleset;
use std::path::Path;

use ninety::app::load::load_program;
use ninety::base::Rng;
use ninety::base::limits::TURN_LIMIT;
use ninety::compile::{Disk, Memory};
use ninety::engine::{self, Kernel, Pick, Setup, State};
use ninety::play::{Bot, Player};

const RANDOM: Player = Player::Bot(Bot::Random);

/// The tables of bots the loop is held to the general way with: each repeated round the
/// table.
const TABLES: [&[Bot]; 4] = [
    &[Bot::Random],
    &[Bot::Cautious],
    &[Bot::Aggressive],
    &[Bot::Cautious, Bot::Random, Bot::Aggressive],
];

/// The general way: one turn, as the simulation played every turn before the loop.
fn general_turn(p: &Ruleset, s: &mut State, rng: &mut Rng) -> bool {
    RANDOM.turn(p, s, rng, &mut ()).unwrap_or(false)
}

/// Plays one game both ways in step, with `bots` round the table; `Err(why)` where they
/// part. Returns how many turns the loop played itself (to show it ran), and how many plays
/// it handed back as picked.
fn both_ways(p: &Ruleset, players: usize, seed: u64, bots: &[Bot]) -> Result<(u64, u64), String> {
    let setup = Setup {
        players,
        seed,
        ..Setup::default()
    };
    let seats: Vec<Player> = (0..players)
        .map(|i| Player::Bot(bots[i % bots.len()]))
        .collect();
    let turn = |s: &mut State, rng: &mut Rng| {
        seats[usize::from(s.turn)]
            .turn(p, s, rng, &mut ())
            .unwrap_or(false)
    };
    let mut a = engine::new_game(p, &setup, &mut ()).map_err(|e| e.to_string())?;
    let mut b = a.clone();
    let (mut ra, mut rb) = (Rng::for_bots(seed), Rng::for_bots(seed));
    let (mut by_loop, mut handed) = (0, 0);
    while !b.over && b.turns < TURN_LIMIT {
        let before = b.turns;
        let until = (b.turns + 1 + seed % 7).min(TURN_LIMIT);
        let mut choose = |s: &State, n: usize| {
            seats
                .get(usize::from(s.turn))
                .map_or(Pick::Unanswered, |x| x.pick(p, s, n, &mut rb))
        };
        let picked = match engine::loop_turns(p, &mut b, &mut choose, until, &mut ()) {
            Kernel::Ran => None,
            Kernel::Picked(mv) => Some(mv),
            Kernel::General => {
                if !turn(&mut b, &mut rb) {
                    break;
                }
                None
            }
        };
        by_loop += b.turns - before;
        if let Some(mv) = picked {
            handed += 1;
            Player::play_chosen(p, &mut b, mv, &mut ()).map_err(|e| e.to_string())?;
        }
        while a.turns < b.turns && !a.over {
            if !turn(&mut a, &mut ra) {
                return Err(format!("the general way stopped at turn {}", a.turns));
            }
        }
        if a != b || ra != rb {
            return Err(format!(
                "the two ways part by turn {}: {:?}",
                b.turns,
                first_difference(&a, &b, ["general", "loop"])
            ));
        }
    }
    Ok((by_loop, handed))
}

fn first_difference(a: &State, b: &State, [na, nb]: [&str; 2]) -> String {
    let (x, y) = (format!("{a:?}"), format!("{b:?}"));
    let at = x
        .bytes()
        .zip(y.bytes())
        .position(|(u, v)| u != v)
        .unwrap_or(0);
    let from = at.saturating_sub(60);
    format!(
        "{na} `{}` / {nb} `{}`",
        &x[from..(at + 60).min(x.len())],
        &y[from..(at + 60).min(y.len())]
    )
}

/// Every shipped ruleset, by its path, checked and compiled.
fn shipped() -> Vec<(String, Ruleset)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("rulesets")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "rules"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|file| {
            let name = file.display().to_string();
            let p = load_program(&Disk, &name, &[]).expect("it checks");
            (name, p)
        })
        .collect()
}

/// A variant of a shipped ruleset, written out in full, checked and compiled.
fn variant(text: &str) -> Ruleset {
    let mut memory = Memory::new();
    memory.insert("variant.rules", text.to_string());
    load_program(&memory, "variant.rules", &[])
        .unwrap_or_else(|e| panic!("{text}\ndoes not check: {e}"))
}

/// Every player count of `p` (up to `most`), six seeds each, both ways, with each table of
/// [`TABLES`]: the turns the loop played, by table.
fn plays_alike(p: &Ruleset, name: &str, most: usize) -> [u64; TABLES.len()] {
    let mut looped = [0; TABLES.len()];
    for players in usize::from(p.min_players)..=usize::from(p.max_players).min(most) {
        for seed in 0..6 {
            for (n, bots) in looped.iter_mut().zip(TABLES) {
                match both_ways(p, players, seed, bots) {
                    Ok((k, _)) => *n += k,
                    Err(why) => {
                        panic!("{name}, {players} players, seed {seed}, {bots:?}: {why}")
                    }
                }
            }
        }
    }
    looped
}

#[test]
fn the_loop_of_plain_turns_plays_the_games_the_general_way_plays() {
    let shipped = shipped();
    assert!(shipped.len() >= 20, "the shipped rulesets");
    let mut looped = [0; TABLES.len()];
    for (name, p) in &shipped {
        for (sum, n) in looped.iter_mut().zip(plays_alike(p, name, 10)) {
            *sum += n;
        }
    }
    // Most turns of most games are the loop's, whichever bots play: the test compares
    // something.
    for (n, bots) in looped.iter().zip(TABLES) {
        assert!(*n > 50_000, "{bots:?}: the loop played {n} turns");
    }
}

/// A card whose outcomes a condition decides (`ninety-nine-bounty`: a King takes a chip
/// back from the pot for a player on their last chip, a Jack on a Jack costs the next player
/// one) is laid in the loop when none fires: few of its plays are handed back to the
/// general step, against one play in seven (each King and Jack) were they all handed back.
#[test]
fn a_card_whose_outcomes_do_not_fire_is_laid_in_the_loop() {
    let p = load_program(&Disk, "rulesets/ninety-nine-bounty.rules", &[]).expect("it checks");
    for bots in TABLES {
        let (mut looped, mut handed) = (0, 0);
        for seed in 0..40 {
            let (n, k) = both_ways(&p, 3, seed, bots).expect("both ways alike");
            looped += n;
            handed += k;
        }
        assert!(looped > 2_000, "{bots:?}: the loop played {looped} turns");
        assert!(
            handed * 20 < looped,
            "{bots:?}: {handed} of {looped} plays handed back"
        );
    }
}

/// Each variant of a shipped ruleset (its parent, hand size and decks, after the lines
/// `more`) with up to `most` players, both ways: the loop plays turns for every table.
fn variants_play_alike(variants: &[(&str, usize, usize)], more: &str, most: usize) {
    for &(parent, hand, decks) in variants {
        let text = format!(
            "extends \"{parent}\"\nname \"{parent}, {hand} cards, {decks} decks\"\n\
             {more}hand {hand} cards\ndecks {decks}\n"
        );
        let looped = plays_alike(&variant(&text), &text, most);
        assert!(
            looped.iter().all(|n| *n > 1_000),
            "{text}: the loop played {looped:?}"
        );
    }
}

/// The loop reads a hand across as many slots as the widest hand the program deals (up to
/// eight in one 64-bit word, nine and ten in a 128-bit one), with one deck or several (two
/// copies of a card are one move): hands of every width, both ways.
#[test]
fn hands_of_every_width_play_alike_with_one_deck_or_two() {
    let variants = [
        ("ring-of-99", 10, 2),
        ("ring-of-99", 9, 1),
        ("ninety-nine", 7, 2),
        ("ninety-nine", 6, 1),
        ("ninety-eight", 2, 2),
    ];
    variants_play_alike(&variants, "", 10);
}

/// The most seats a table has (12) and the most decks (4), three and four copies of a card
/// in play: both ways.
#[test]
fn the_fullest_tables_play_alike() {
    let variants = [
        ("ninety-nine", 3, 3),
        ("ninety-nine", 3, 4),
        ("ring-of-99", 5, 4),
        ("33-66-99", 4, 3),
    ];
    variants_play_alike(&variants, "players 10 to 12\n", 12);
}

/// A simulation lays each game out on the table of the game before (`new_game_in`): whatever
/// that game left (ended, or stopped half-way, with any number of players), the new game is
/// the one `new_game` makes.
#[test]
fn a_game_laid_out_on_an_old_table_is_a_new_game() {
    for (name, p) in &shipped() {
        let (least, most) = (
            usize::from(p.min_players),
            usize::from(p.max_players).min(8),
        );
        for seed in 0..4u64 {
            let old = Setup {
                players: if seed % 2 == 0 { least } else { most },
                seed,
                ..Setup::default()
            };
            let mut s = engine::new_game(p, &old, &mut ()).expect("a game");
            // Played to its end, or stopped after some turns.
            let mut rng = Rng::for_bots(seed);
            let stop = if seed < 2 { TURN_LIMIT } else { 7 + seed * 5 };
            while !s.over && s.turns < stop && general_turn(p, &mut s, &mut rng) {}
            let new = Setup {
                players: if seed % 2 == 0 { most } else { least },
                seed: 1_000 + seed,
                ..Setup::default()
            };
            engine::new_game_in(p, &new, &mut (), &mut s).expect("a game");
            let fresh = engine::new_game(p, &new, &mut ()).expect("a game");
            assert!(
                s == fresh,
                "{name}, seed {seed}: {}",
                first_difference(&fresh, &s, ["new", "laid on the old table"])
            );
        }
    }
}
