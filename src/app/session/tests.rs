//! The session's answers where a transcript cannot show them: the terminal's colours and
//! suits, and the question asked on leaving.

use super::{Options, Session};
use crate::compile::Shipped;

fn options(color: bool) -> Options {
    Options {
        ruleset: "ninety-nine".into(),
        players: None,
        humans: 1,
        bot: "normal".into(),
        seed: 5,
        sets: Vec::new(),
        color,
    }
}

fn start(color: bool) -> (Session, String) {
    Session::start(&Shipped, &options(color)).expect("a game starts")
}

#[test]
fn with_colour_cards_show_their_suits_in_red_and_black() {
    // Seed 5 deals KD, 10C and 10S.
    let (mut s, welcome) = start(true);
    let shown = s.shown(&welcome);
    assert!(shown.contains("\u{1b}[31mK♦\u{1b}[0m"), "{shown}");
    assert!(shown.contains("  3. 10♠  "), "{shown}");
    assert!(shown.contains("`10D` for \u{1b}[31m10♦"), "{shown}");
    // What is typed stays in letters; the prompt shows the suit, unpainted.
    let reply = s.handle(&Shipped, "10C");
    let shown = s.shown(&reply.text);
    assert!(shown.contains("1) 10♣:10   2) 10♣:-10"), "{shown}");
    assert_eq!(s.prompt(), "10♣ which way? > ");
    // A suit pasted as a symbol is read as its letter.
    let reply = s.handle(&Shipped, "back");
    assert!(reply.text.contains("stays in your hand"), "{}", reply.text);
    let reply = s.handle(&Shipped, "k♦");
    assert!(
        reply.text.contains("You play KD: total 18."),
        "{}",
        reply.text
    );
}

#[test]
fn without_colour_cards_stay_in_letters() {
    let (mut s, welcome) = start(false);
    let shown = s.shown(&welcome);
    assert!(shown.contains("  1. KD   → 18"), "{shown}");
    assert!(!shown.contains(['♠', '♥', '♦', '♣', '\u{1b}']), "{shown}");
    let reply = s.handle(&Shipped, "10C");
    assert!(s.shown(&reply.text).contains("1) 10C:10"), "{}", reply.text);
    assert_eq!(s.prompt(), "10C which way? > ");
}

#[test]
fn leaving_asks_again_when_the_save_fails_and_says_when_nothing_is_saved() {
    let (mut s, _) = start(false);
    s.handle(&Shipped, "KD");
    assert!(s.unsaved);
    // Enter, Ctrl-C or Ctrl-D: left unsaved, and said.
    for answer in [None, Some(""), Some("  "), Some("n"), Some("No")] {
        let (text, again) = s.save_on_leaving(answer);
        assert_eq!(text, "The game was not saved.\n");
        assert!(!again);
    }
    // A yes asks for the name; it is not one.
    let (text, again) = s.save_on_leaving(Some("y"));
    assert!(again && text.contains("Type the file's name"), "{text}");
    assert!(!std::path::Path::new("y").exists() && s.unsaved);
    let dir = std::env::temp_dir().join(format!("ninety-leaving-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let nowhere = dir.join("no-folder").join("game.json");
    let (text, again) = s.save_on_leaving(Some(&nowhere.display().to_string()));
    assert!(again, "a save that failed asks again: {text}");
    assert!(text.contains("Could not save to"), "{text}");
    assert!(text.contains("Type another file name"), "{text}");
    assert!(!text.contains("The game goes on"), "{text}");
    assert!(s.unsaved);
    std::fs::create_dir_all(&dir).expect("a folder");
    let file = dir.join("game.json");
    let (text, again) = s.save_on_leaving(Some(&file.display().to_string()));
    assert!(!again, "{text}");
    assert!(text.starts_with("Saved to"), "{text}");
    assert!(file.is_file() && !s.unsaved);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tab_offers_only_the_answers_to_a_question_and_never_another_hand() {
    let (mut s, _) = start(false);
    s.handle(&Shipped, "10C");
    assert_eq!(s.completions(), ["10C:10", "10C:-10"]);
    // Where players draw by hand, the next player is to move while the one who played is
    // asked to draw: their cards are not offered.
    let o = Options {
        ruleset: "33-66-99".into(),
        seed: 2,
        ..options(false)
    };
    let (mut s, _) = Session::start(&Shipped, &o).expect("a game");
    s.handle(&Shipped, "1");
    assert_eq!(s.completions(), ["draw"]);
}

#[test]
fn the_hand_that_could_not_play_is_the_one_held_then_and_only_the_persons() {
    use super::hands::Hands;
    use crate::engine::{Event, Sink};
    let (s, _) = start(false);
    let (p, table) = (&s.program, &s.state);
    let you = 0;
    let held = table.hands[0].cards().to_vec();
    let deal = Event::Deal {
        round: 2,
        dealer: 1,
        leader: 2,
    };
    // Followed from the table: the hand then, though a new deal replaced it since.
    let mut h = Hands::new(p, Some(you), Some(table));
    h.event(Event::CannotPlay { seat: you });
    h.event(deal);
    assert_eq!(h.finish(table).1, [(0, held.clone())]);
    // After the person's own card (the game draws for them, unnamed): the hand at the end,
    // when nothing touched it since; none when a deal did.
    let play = Event::Play {
        seat: you,
        card: held[0],
        choice: 0,
        total: 18,
        fx: 0,
    };
    let mut h = Hands::new(p, Some(you), Some(table));
    h.event(play);
    h.event(Event::CannotPlay { seat: you });
    assert_eq!(h.finish(table).1, [(1, held.clone())]);
    let mut h = Hands::new(p, Some(you), Some(table));
    h.event(play);
    h.event(Event::CannotPlay { seat: you });
    h.event(deal);
    assert!(h.finish(table).1.is_empty());
    // Another player's hand, or any hand at a table of several people: never.
    let mut h = Hands::new(p, Some(you), Some(table));
    h.event(Event::CannotPlay { seat: 1 });
    assert!(h.finish(table).1.is_empty());
    let mut h = Hands::new(p, None, Some(table));
    h.event(Event::CannotPlay { seat: you });
    assert!(h.finish(table).1.is_empty());
}

#[test]
fn quit_is_heard_while_the_keyboard_is_passed() {
    let o = Options {
        humans: 2,
        seed: 9,
        ..options(false)
    };
    let (mut s, welcome) = Session::start(&Shipped, &o).expect("a game");
    assert!(
        welcome.contains("Pass the keyboard to Player 1"),
        "{welcome}"
    );
    assert_eq!(s.prompt(), "(Enter) > ");
    assert!(s.handle(&Shipped, "quit").quit);
    // Any other line shows the hand of the player who sits down.
    let reply = s.handle(&Shipped, "2");
    assert!(reply.text.contains("Player 1's hand:"), "{}", reply.text);
    assert!(
        !reply.text.contains("plays"),
        "nothing is played: {}",
        reply.text
    );
}
