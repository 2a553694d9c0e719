//! The real binary in a pseudo-terminal, as a player meets it: completion of a card name, the
//! Space key of the 33/66/99 game (N33-14) and the commands typed in full beside it, Ctrl-C and
//! Ctrl-D, the history under the state folder, the screen cleared between hot-seat players (read
//! off tmux's screen: ignored by a plain `cargo test`, run by `cargo xtask test`), colour as
//! `NO_COLOR` asks, and cards with their suits' symbols where there is colour.

use std::path::{Path, PathBuf};
use std::process::Command;

use rexpect::session::{PtySession, spawn_command};

mod tmux;
use tmux::Tmux;

const BIN: &str = env!("CARGO_BIN_EXE_ninety");

/// How long an expected text may take to appear before the test fails: a guard against a
/// hang, far beyond what any step takes on a busy machine, not a measure of speed.
const HANG_MS: u64 = 120_000;

fn play(args: &[&str], home: &Path) -> PtySession {
    let mut cmd = Command::new(BIN);
    cmd.arg("play")
        .args(args)
        .current_dir(home)
        .env("TERM", "xterm")
        .env("NO_COLOR", "1")
        .env("NINETY_HOME", home);
    spawn_command(cmd, Some(HANG_MS)).expect("the binary starts in a pty")
}

/// Types keys and makes sure they leave (rexpect buffers until flushed).
fn send(p: &mut PtySession, keys: &str) {
    p.send(keys).expect("type");
    p.flush().expect("flush");
}

/// A line typed in one go, as a hand types it when quick (or pastes it), then Enter.
fn line(p: &mut PtySession, text: &str) {
    send(p, &format!("{text}\r"));
}

fn home(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ninety-pty-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp home");
    dir
}

/// Leaves with Ctrl-D, saving nothing.
fn leave(p: &mut PtySession) {
    p.send_control('d').expect("ctrl-d");
    if p.exp_string("Save the game before leaving?").is_ok() {
        p.send_line("").expect("no");
    }
    p.exp_string("Goodbye.").expect("goodbye");
    p.exp_eof().expect("the program ends");
}

#[test]
fn tab_completes_a_card_and_ctrl_keys_act() {
    let dir = home("keys");
    let mut p = play(&["--seed", "5"], &dir);
    // Seed 5 deals this hand: KD, 10C, 10S; the King is the only card starting with K.
    p.exp_string("1. KD").expect("the hand is shown");
    p.exp_string("> ").expect("a prompt");
    send(&mut p, "K");
    send(&mut p, "\t");
    send(&mut p, "\r");
    p.exp_string("You play KD")
        .expect("Tab completed KD and it was played");
    p.exp_string("> ").expect("a prompt");
    // Ctrl-C clears a half-typed line: nothing of it is played.
    send(&mut p, "garbage");
    p.send_control('c').expect("ctrl-c");
    // Type the next line only once the editor reads it: it turns bracketed paste on
    // (ESC [ ? 2004 h) as it takes the terminal for the next line, then draws its prompt.
    p.exp_string("\x1b[?2004h")
        .expect("the editor takes the next line");
    p.exp_string("> ").expect("its prompt");
    line(&mut p, "c");
    let before = p
        .exp_string("You to play.")
        .expect("the line was cleared, `c` works on the empty line");
    assert!(
        !before.contains("to leave"),
        "Ctrl-C on a typed line only clears it: {before:?}"
    );
    // Ctrl-C on an empty line says how to leave, and does nothing else.
    p.exp_string("> ").expect("a prompt");
    p.send_control('c').expect("ctrl-c");
    p.exp_string("Type `quit` to leave, or press Ctrl-D.")
        .expect("how to leave");
    p.exp_string("\x1b[?2004h")
        .expect("the editor takes the next line");
    p.exp_string("> ").expect("its prompt");
    line(&mut p, "c");
    p.exp_string("You to play.")
        .expect("the game goes on where it was");
    // Ctrl-D leaves, offering to save the unfinished game first.
    p.send_control('d').expect("ctrl-d");
    p.exp_string("Save the game before leaving?")
        .expect("an offer to save");
    let save = dir.join("left.json");
    p.send_line(&save.display().to_string())
        .expect("a file name");
    p.exp_string("Saved to").expect("saved");
    p.exp_string("Goodbye.").expect("goodbye");
    p.exp_eof().expect("the program ends");
    assert!(save.exists(), "the game was saved on the way out");
    let history = dir.join(".local/state/ninety/history");
    let kept = std::fs::read_to_string(&history).expect("the history is kept between sessions");
    assert!(kept.lines().any(|l| l == "KD"), "{kept}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Leaving: a save that fails asks for another name; Ctrl-C there leaves, saying the game
/// was not saved.
#[test]
fn leaving_unsaved_says_so() {
    let dir = home("leave");
    let mut p = play(&["--seed", "5"], &dir);
    p.exp_string("1. KD").expect("the hand");
    p.exp_string("> ").expect("a prompt");
    line(&mut p, "KD");
    p.exp_string("You play KD").expect("played");
    p.exp_string("> ").expect("a prompt");
    p.send_control('d').expect("ctrl-d");
    p.exp_string("Save the game before leaving?")
        .expect("an offer to save");
    line(&mut p, &dir.join("no-folder/x.json").display().to_string());
    p.exp_string("Type another file name")
        .expect("asked again after a save that failed");
    p.exp_string("save as > ").expect("the same question");
    p.send_control('c').expect("ctrl-c");
    p.exp_string("The game was not saved.")
        .expect("leaving unsaved is said");
    p.exp_string("Goodbye.").expect("goodbye");
    p.exp_eof().expect("the program ends");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Where the terminal has colour, cards show their suits as symbols, red suits in red; on a
/// dumb terminal (as under `NO_COLOR`, the other tests) they stay in letters. Either way a
/// card is typed in letters.
#[test]
fn suits_show_as_symbols_in_colour_and_as_letters_on_a_dumb_terminal() {
    let dir = home("suits");
    let mut cmd = Command::new(BIN);
    cmd.args(["play", "--seed", "5"])
        .current_dir(&dir)
        .env("TERM", "xterm")
        .env_remove("NO_COLOR")
        .env("NINETY_HOME", &dir);
    // rexpect reads each byte as a character: the text as the terminal's bytes.
    let bytes = |text: &str| text.bytes().map(char::from).collect::<String>();
    let mut p = spawn_command(cmd, Some(HANG_MS)).expect("a pty");
    p.exp_string(&bytes("1. \x1b[31mK♦\x1b[0m   → 18"))
        .expect("the King of diamonds in red");
    p.exp_string(&bytes("3. 10♠"))
        .expect("the ten of spades as it is");
    p.exp_string("> ").expect("a prompt");
    line(&mut p, "KD");
    p.exp_string(&bytes("You play \x1b[31mK♦\x1b[0m"))
        .expect("typed in letters, shown with its suit");
    leave(&mut p);
    let mut cmd = Command::new(BIN);
    cmd.args(["play", "--seed", "5"])
        .current_dir(&dir)
        .env("TERM", "dumb")
        .env_remove("NO_COLOR")
        .env("NINETY_HOME", &dir);
    let mut p = spawn_command(cmd, Some(HANG_MS)).expect("a pty");
    let before = p.exp_string(&bytes("1. KD   → 18")).expect("letters");
    assert!(
        !before.contains(&bytes("♦")) && !before.contains('\u{1b}'),
        "{before:?}"
    );
    p.exp_string("> ").expect("a prompt");
    leave(&mut p);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The commands typed in full, and their one-letter forms as lines of their own, in a game
/// (`ruleset`) with the seed that deals `card` to the player; `save FILE` writes the file.
fn commands_typed_in_full(ruleset: &str, seed: &str, card: &str) {
    let dir = home(&format!("typed-{ruleset}"));
    let mut p = play(&[ruleset, "--seed", seed], &dir);
    p.exp_string("Your hand:").expect("the hand");
    p.exp_string("> ").expect("a prompt");
    let save = dir.join("typed.json");
    line(&mut p, &format!("save {}", save.display()));
    p.exp_string("Saved to").expect("`save FILE` saves");
    assert!(save.is_file(), "{ruleset}: the save was written");
    line(&mut p, "scores");
    p.exp_string("Chips: You")
        .expect("`scores` tells the chips");
    line(&mut p, "total");
    p.exp_string("You to play.")
        .expect("`total` tells the total");
    line(&mut p, "s");
    p.exp_string("Chips: You").expect("`s` alone is `scores`");
    line(&mut p, "c");
    p.exp_string("You to play.").expect("`c` alone is `total`");
    // A word that starts with one of the keys is a word: not a command.
    line(&mut p, "cxyz");
    p.exp_string("`cxyz` is not a card")
        .expect("refused as a card");
    line(&mut p, card);
    p.exp_string(&format!("You play {card}"))
        .expect("the card is played");
    leave(&mut p);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn commands_typed_in_full_in_ninety_nine() {
    // Seed 5 deals KD, 10C, 10S.
    commands_typed_in_full("ninety-nine", "5", "KD");
}

#[test]
fn commands_typed_in_full_in_the_33_66_99_game() {
    // Seed 2 deals 8S, 8D, 9S.
    commands_typed_in_full("33-66-99", "2", "8S");
}

#[test]
fn space_draws_at_once_only_where_players_draw_by_hand() {
    let dir = home("draw");
    let mut p = play(&["33-66-99", "--seed", "2"], &dir);
    p.exp_string("Your hand:").expect("the hand");
    p.exp_string("> ").expect("a prompt");
    line(&mut p, "1");
    p.exp_string("Draw a card")
        .expect("the game offers to draw");
    // Space alone, no Enter: it draws, and names the card drawn.
    send(&mut p, " ");
    p.exp_regex(r"You draw (10|[2-9AJQKX])[SHDC]\.")
        .expect("Space drew at once");
    leave(&mut p);
    // In Ninety-Nine the game draws for everyone: Space is a space, and the card drawn is
    // named after the card played.
    let mut p = play(&["--seed", "5"], &dir);
    p.exp_string("> ").expect("a prompt");
    line(&mut p, " KD");
    p.exp_regex(r"You play KD: total \d+\.\r?\nYou draw (10|[2-9AJQK])[SHDC]\.")
        .expect("a line starting with a space is typed as it is");
    leave(&mut p);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_history_is_kept_under_the_xdg_state_folder() {
    let dir = home("xdg");
    let state = dir.join("state");
    let mut cmd = Command::new(BIN);
    cmd.args(["play", "--seed", "5"])
        .current_dir(&dir)
        .env("TERM", "xterm")
        .env("NO_COLOR", "1")
        .env_remove("NINETY_HOME")
        .env("HOME", dir.join("home"))
        .env("XDG_STATE_HOME", &state);
    let mut p = spawn_command(cmd, Some(HANG_MS)).expect("a pty");
    p.exp_string("> ").expect("a prompt");
    line(&mut p, "scores");
    p.exp_string("Chips:").expect("scores");
    leave(&mut p);
    let kept = std::fs::read_to_string(state.join("ninety/history")).expect("the history");
    assert_eq!(kept.lines().last(), Some("scores"), "{kept}");
    assert!(!dir.join("home").exists(), "nothing in the home folder");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A simulation in a terminal draws its progress bar from the worker threads while the
/// command runs, then prints its report and ends. (It used to hang for good: the command
/// held standard error locked while the workers waited to draw on it.)
#[test]
fn a_simulation_in_a_terminal_shows_its_progress_and_ends() {
    for jobs in ["1", "2"] {
        let mut cmd = Command::new(BIN);
        cmd.args(["sim", "ninety-nine", "--games", "5000", "--players", "3"])
            .args(["--bots", "random", "--seed", "1", "--jobs", jobs])
            .env("TERM", "xterm")
            .env("NO_COLOR", "1");
        let mut p = spawn_command(cmd, Some(HANG_MS)).expect("the binary starts in a pty");
        p.exp_string("/5000 games")
            .expect("the progress bar is drawn");
        p.exp_string("Ninety-Nine: 5000 games of 3 players")
            .expect("the report follows");
        p.exp_string("Wins by seat").expect("the whole report");
        p.exp_eof().expect("the program ends");
    }
}

/// `ninety judge` in a terminal draws its progress bar as `sim` does (here with a bot that
/// searches, so a few games are a long run), then prints its report and ends.
#[test]
fn a_judge_in_a_terminal_shows_its_progress_and_ends() {
    let mut cmd = Command::new(BIN);
    cmd.args(["judge", "ninety-nine", "--games", "30", "--bot", "search"])
        .args(["--seed", "1", "--jobs", "1"])
        .env("TERM", "xterm")
        .env("NO_COLOR", "1");
    let mut p = spawn_command(cmd, Some(HANG_MS)).expect("the binary starts in a pty");
    p.exp_string("/30 games")
        .expect("the progress bar is drawn");
    p.exp_string("first player").expect("the report follows");
    p.exp_eof().expect("the program ends");
}

/// What `ninety check` of a faulty ruleset writes to a terminal, with `NO_COLOR` as given
/// (`None`: not set at all).
fn check_in_a_terminal(no_color: Option<&str>) -> String {
    let mut cmd = Command::new(BIN);
    cmd.args(["check", "tests/cli-inputs/unknown_keyword.rules"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("TERM", "xterm");
    match no_color {
        Some(v) => cmd.env("NO_COLOR", v),
        None => cmd.env_remove("NO_COLOR"),
    };
    let mut p = spawn_command(cmd, Some(HANG_MS)).expect("a pty");
    p.exp_eof().expect("the check ends")
}

#[test]
fn no_color_set_to_something_turns_colour_off_and_an_empty_one_does_not() {
    let painted = |text: &str| text.contains("\x1b[");
    let unset = check_in_a_terminal(None);
    assert!(unset.contains("unknown keyword"), "{unset}");
    assert!(painted(&unset), "a terminal gets colour: {unset:?}");
    let empty = check_in_a_terminal(Some(""));
    assert!(
        painted(&empty),
        "an empty NO_COLOR does not count: {empty:?}"
    );
    for value in ["1", "0", "no"] {
        let off = check_in_a_terminal(Some(value));
        assert!(off.contains("unknown keyword"), "{off}");
        assert!(!painted(&off), "NO_COLOR={value}: {off:?}");
    }
}

#[test]
#[ignore = "needs tmux: run by cargo xtask test"]
fn hot_seat_clears_the_screen_before_the_keyboard_is_passed() {
    let dir = home("hot-seat");
    let dir_s = dir.display().to_string();
    let t = Tmux::start(
        "hot-seat",
        &dir,
        &[
            "env",
            "TERM=xterm",
            "NO_COLOR=1",
            &format!("NINETY_HOME={dir_s}"),
            BIN,
            "play",
            "--humans",
            "2",
            "--seed",
            "9",
        ],
    );
    // Seed 9: Bot 1 leads, then Player 1 holds 7D, 6C and 10C (tests/repl-inputs/hot-seat.txt).
    t.wait_for("Pass the keyboard to Player 1");
    t.press(&["Enter"]);
    let before = t.wait_for("Player 1's hand:");
    assert!(before.contains("1. 7D   → 17"), "{before}");
    t.type_text("1");
    t.press(&["Enter"]);
    let after = t.wait_for("Pass the keyboard to Player 2");
    // What happened stays; Player 1's hand, on the screen or scrolled off it, does not.
    assert!(after.contains("Player 1 plays 7D: total 17."), "{after}");
    for card in ["7D   → 17", "6C   → 16", "10C  10C:10"] {
        assert!(
            !after.contains(card),
            "`{card}` is still readable:\n{after}"
        );
    }
    t.press(&["Enter"]);
    let next = t.wait_for("Player 2's hand:");
    assert!(next.contains("1. 7S   → 24"), "{next}");
    let _ = std::fs::remove_dir_all(&dir);
}
