//! The real binary in a pseudo-terminal, as a player meets it: completion of a card name,
//! the one-key commands of the 33/66/99 game (N33-14), Ctrl-C and Ctrl-D.

use std::process::Command;

use rexpect::session::{PtySession, spawn_command};

fn play(args: &[&str], home: &std::path::Path) -> PtySession {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ninety"));
    cmd.arg("play")
        .args(args)
        .env("TERM", "xterm")
        .env("NO_COLOR", "1")
        .env("NINETY_HOME", home);
    spawn_command(cmd, Some(10_000)).expect("the binary starts in a pty")
}

/// Types keys and makes sure they leave (rexpect buffers until flushed).
fn send(p: &mut PtySession, keys: &str) {
    p.send(keys).expect("type");
    p.flush().expect("flush");
}

fn home(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ninety-pty-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp home");
    dir
}

#[test]
fn tab_completes_a_card_and_keys_act_at_once() {
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
    // `c` and `s` on an empty line act without Enter.
    send(&mut p, "c");
    p.exp_string("You to play.").expect("c tells the total");
    send(&mut p, "s");
    p.exp_string("Chips: You 3").expect("s tells the scores");
    // Space on an empty line draws: here the game draws for everyone, and says so.
    send(&mut p, " ");
    p.exp_string("everyone draws automatically")
        .expect("Space asks to draw");
    // Ctrl-C clears a half-typed line: nothing of it is played.
    send(&mut p, "garbage");
    p.send_control('c').expect("ctrl-c");
    // Let the editor take the next line before the next key.
    std::thread::sleep(std::time::Duration::from_millis(300));
    send(&mut p, "c");
    p.exp_string("You to play.")
        .expect("the line was cleared, `c` works on the empty line");
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
    assert!(
        dir.join(".ninety_history").exists(),
        "the history is kept between sessions"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn space_draws_in_the_game_that_draws_by_hand() {
    let dir = home("draw");
    let mut p = play(&["33-66-99", "--seed", "2"], &dir);
    p.exp_string("Your hand:").expect("the hand");
    p.exp_string("> ").expect("a prompt");
    p.send_line("1").expect("play the first card");
    p.exp_string("Draw a card")
        .expect("the game offers to draw");
    send(&mut p, " ");
    p.exp_string("You draw.").expect("Space drew");
    p.send_control('d').expect("ctrl-d");
    p.exp_string("Save the game before leaving?")
        .expect("an offer to save");
    p.send_line("").expect("no");
    p.exp_string("Goodbye.").expect("goodbye");
    p.exp_eof().expect("the program ends");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A simulation in a terminal draws its progress bar from the worker threads while the
/// command runs, then prints its report and ends. (It used to hang for good: the command
/// held standard error locked while the workers waited to draw on it.)
#[test]
fn a_simulation_in_a_terminal_shows_its_progress_and_ends() {
    for jobs in ["1", "2"] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ninety"));
        cmd.args(["sim", "ninety-nine", "--games", "5000", "--players", "3"])
            .args(["--bots", "random", "--seed", "1", "--jobs", jobs])
            .env("TERM", "xterm")
            .env("NO_COLOR", "1");
        let mut p = spawn_command(cmd, Some(60_000)).expect("the binary starts in a pty");
        p.exp_string("/5000 games")
            .expect("the progress bar is drawn");
        p.exp_string("Ninety-Nine: 5000 games of 3 players")
            .expect("the report follows");
        p.exp_string("Wins by seat").expect("the whole report");
        p.exp_eof().expect("the program ends");
    }
}
