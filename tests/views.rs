//! A seat is shown only what the rules let it see: over thousands of games of every shipped
//! ruleset and of the house rules that move cards between hands (a swap, a card handed at
//! random, a card given by choice), after every move, no seat's view of the table
//! (`State::seat_view`) nor any event as that seat is told it (`Event::seen_by`) holds a
//! card of another hand it was not shown, of the stock, of the cards face down, or of the
//! next deal; and each view holds the seat's whole hand and everything face up.

use std::collections::BTreeSet;

use ninety::app::load::load_program;
use ninety::base::cards::Card;
use ninety::compile::Disk;
use ninety::engine::{self, Event, SeatView, Seen, Setup, State};
use ninety::play::{Bot, Ruleset};

fn load(path: &str) -> Ruleset {
    load_program(&Disk, path, &[]).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The cards `seat` may not know where they are, now: the other hands' cards it was not
/// shown, the stock, the cards face down and the next deal's.
fn hidden(s: &State, seat: Option<u8>) -> BTreeSet<Card> {
    let mut out = BTreeSet::new();
    for (holder, h) in s.hands.iter().enumerate().take(usize::from(s.seats)) {
        let mine = seat.is_some_and(|x| usize::from(x) == holder);
        for &c in h.cards() {
            let shown = seat.is_some_and(|x| s.seen_by(c) & (1 << x) != 0);
            if !mine && !shown {
                out.insert(c);
            }
        }
    }
    out.extend(s.stock.iter().copied());
    out.extend(s.face_down.iter().copied());
    out.extend(s.next_deal.iter().copied());
    out
}

/// Every card a view names.
fn named(v: &SeatView) -> Vec<Card> {
    let mut out = v.hand.clone();
    out.extend(v.known.iter().map(|(_, c)| *c));
    out.extend(v.discard.iter().copied());
    out.extend(v.aside.iter().copied());
    out
}

/// Checks every seat's (and a spectator's) view after a move, and the move's events as each
/// is told them; counts the cards handed that a seat was not told.
fn check(s: &State, events: &[Event], what: &str, withheld: &mut u64) {
    let seats = (0..s.seats).map(Some).chain([None]);
    for seat in seats {
        let v = s.seat_view(seat);
        let secret = hidden(s, seat);
        for c in named(&v) {
            assert!(
                !secret.contains(&c),
                "{what}: seat {seat:?} is shown card {c}, which it may not see"
            );
        }
        // The seat's whole hand and everything face up are there; of the others, the counts.
        if let Some(x) = seat {
            assert_eq!(v.hand, s.hands[usize::from(x)].cards(), "{what}");
        }
        assert_eq!(v.discard.len(), s.discard.len(), "{what}");
        assert_eq!(v.stock, s.stock.len(), "{what}");
        let json = serde_json::to_string(&v).expect("a view is JSON");
        assert!(
            !json.contains("rng") && !json.contains("next_deal"),
            "{what}: {json}"
        );
        for e in events {
            let Event::Handed { from, to, .. } = *e else {
                // Any other event is told whole: it holds no card, or one face up.
                assert_eq!(e.seen_by(seat), Seen::Event(*e), "{what}");
                continue;
            };
            let told = seat.is_some_and(|x| x == from || x == to);
            match e.seen_by(seat) {
                Seen::Event(whole) => assert!(told && whole == *e, "{what}: {seat:?} {e:?}"),
                Seen::Handed { .. } => {
                    assert!(!told, "{what}: seat {seat:?} not told its own card {e:?}");
                    *withheld += 1;
                }
            }
            let text = serde_json::to_string(&e.seen_by(seat)).expect("JSON");
            assert_eq!(text.contains("card"), told, "{what}: {text}");
        }
    }
}

#[test]
fn no_seat_is_shown_a_card_it_may_not_see() {
    let mut paths: Vec<String> = std::fs::read_dir("rulesets")
        .expect("the shipped rulesets")
        .filter_map(Result::ok)
        .map(|e| e.path().display().to_string())
        .filter(|p| p.ends_with(".rules"))
        .collect();
    paths.sort();
    paths.extend(
        [
            "tests/house-rules/set3/swap.rules",
            "tests/house-rules/chosen-gift.rules",
            "tests/house-rules/script-moves.rules",
        ]
        .map(String::from),
    );
    let (mut moves, mut withheld, mut known) = (0u64, 0u64, 0u64);
    for path in &paths {
        let p = load(path);
        let games = if path.starts_with("tests/") { 150 } else { 40 };
        for seed in 0..games {
            let players = p
                .check_players(2 + (seed as usize) % 4)
                .map_or_else(|_| p.default_players(), |()| 2 + (seed as usize) % 4);
            let setup = Setup {
                players,
                seed,
                ..Setup::default()
            };
            let mut events: Vec<Event> = Vec::new();
            let mut s = engine::new_game(&p, &setup, &mut events).expect("a game");
            check(
                &s,
                &events,
                &format!("{path} seed {seed} deal"),
                &mut withheld,
            );
            let mut rng = ninety::base::Rng::for_bots(seed);
            let mut turns = 0;
            while !s.over && turns < 2_000 {
                let Some(mv) = Bot::Random.choose(&p, &s, &mut rng) else {
                    break;
                };
                events.clear();
                if engine::step(&p, &mut s, mv, &mut events).is_err() {
                    break;
                }
                let what = format!("{path} seed {seed} move {turns}");
                check(&s, &events, &what, &mut withheld);
                known += (0..s.seats)
                    .map(|x| s.seat_view(Some(x)).known.len() as u64)
                    .sum::<u64>();
                moves += 1;
                turns += 1;
            }
        }
    }
    // The games went far, and the rules that move cards were seen at work: cards handed that
    // others were not told, and cards of other hands a seat was shown.
    assert!(moves > 50_000, "{moves} moves");
    assert!(withheld > 0, "no card was handed before a third seat");
    assert!(known > 0, "no seat was shown a card of another hand");
}

/// A table of people at their own screens and bots: every update sent to a seat holds no card
/// it may not see; every person's move is one the update offered; a move out of turn, or not
/// offered, changes nothing; and the seed with the people's moves plays the same game again.
#[test]
fn a_shared_table_tells_each_seat_only_its_own() {
    use ninety::app::table::{Refused, Sitter, Table};
    let paths = [
        "rulesets/ninety-nine.rules",
        "rulesets/33-66-99.rules",
        "rulesets/ninety-eight-teams.rules",
        "tests/house-rules/set3/swap.rules",
        "tests/house-rules/chosen-gift.rules",
        "tests/house-rules/set3/kings-choice.rules",
    ];
    let (mut updates, mut passes) = (0u64, 0u64);
    for path in paths {
        let p = load(path);
        for seed in 0..40u64 {
            let players = p.default_players();
            // People in the even seats, bots in the others.
            let sitters: Vec<Sitter> = (0..players)
                .map(|i| {
                    if i % 2 == 0 {
                        Sitter::Person
                    } else {
                        Sitter::Bot("random".into())
                    }
                })
                .collect();
            let (mut t, mut events) =
                Table::open(p.clone(), seed, sitters.clone()).expect("a table");
            let mut rng = ninety::base::Rng::from_seed(seed);
            let mut turns = 0;
            loop {
                let what = format!("{path} seed {seed} move {turns}");
                for seat in (0..players as u8).map(Some).chain([None]) {
                    let u = t.update_for(seat, &events);
                    let secret = hidden(t.state(), seat);
                    let mut cards = named(&u.view);
                    for e in &u.events {
                        if let Seen::Event(Event::Handed { card, .. }) = e {
                            cards.push(*card);
                        }
                    }
                    for c in cards {
                        assert!(!secret.contains(&c) || u.events.iter().any(|e| matches!(e, Seen::Event(Event::Handed { card, .. }) if *card == c)),
                            "{what}: seat {seat:?} is sent card {c}, which it may not see");
                    }
                    if seat != u.waiting_on {
                        assert!(u.moves.is_empty(), "{what}: {seat:?} offered moves");
                    }
                    updates += 1;
                }
                let Some(seat) = t.waiting_on() else {
                    break;
                };
                let offered = t.moves_for(seat);
                assert!(!offered.is_empty(), "{what}: nothing to send");
                // A seat not waited on, and a move not offered, are refused and change nothing.
                let before = (t.state().clone(), t.moves().len());
                let other = (seat + 1) % players as u8;
                if t.waiting_on() != Some(other) {
                    assert!(matches!(
                        t.play(other, &offered[0]),
                        Err(Refused::NotYourTurn { .. })
                    ));
                }
                assert!(matches!(
                    t.play(seat, "no such move"),
                    Err(Refused::NotAMove { .. })
                ));
                assert_eq!((t.state().clone(), t.moves().len()), before, "{what}");
                let pick = &offered[rng.below(offered.len())];
                passes += u64::from(pick == "pass");
                events = t.play(seat, pick).expect("an offered move plays");
                turns += 1;
                if turns > 3_000 {
                    break;
                }
            }
            let again = Table::replay(p.clone(), seed, sitters, t.moves()).expect("it replays");
            assert_eq!(again.state(), t.state(), "{path} seed {seed}: replayed");
        }
    }
    assert!(updates > 20_000, "{updates} updates");
    assert!(passes > 0, "no draw by hand was left undone");
}
