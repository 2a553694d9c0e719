//! Hostile inputs, third pass: the findings of the third hostile-input report that are the
//! command line's and the language server's (lost work, hangs, wrong results, unclear
//! messages), each as a regression test. Each runs the real binary (or the library) in a
//! fresh folder; none may panic, hang, lose output silently or leave a file behind.

mod support;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;
use support::Dir;

const SEC: Duration = Duration::from_secs(1);

fn dir(name: &str) -> Dir {
    Dir::new(name, "hostile3", &[])
}

// ---- B. lost work ----

/// Every command that writes a report, with standard output on a device that is always full:
/// exit 1 and the reason, never 0 with nothing written.
#[cfg(target_os = "linux")]
#[test]
fn g02_output_that_cannot_be_written_fails_the_command() {
    let d = dir("g02");
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/ninety-nine.rules");
    let file = file.display().to_string();
    for args in [
        &["sim", "ninety-nine", "--games", "50", "--json"][..],
        &["sim", "ninety-nine", "--games", "50"],
        &["judge", "ninety-nine", "--games", "20"],
        &["judge", "ninety-nine", "--games", "20", "--json"],
        &["run", "ninety-nine", "--seed", "1", "--bots", "--json"],
        &["run", "ninety-nine", "--seed", "1", "--bots"],
        &["rules", "ninety-nine"],
        &["rules", "ninety-nine", "--format", "rules"],
        &["check", &file, "--format", "json"],
        &["check", &file, "--json"],
        &["check", &file],
        &["list"],
        &["completions", "bash"],
        &["man", "sim"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let out = Command::new(env!("CARGO_BIN_EXE_ninety"))
            .args(args)
            .current_dir(&d.0)
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(full)
            .output()
            .expect("runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(
            err.contains("error: cannot write the output: No space left on device"),
            "{args:?}: {err}"
        );
    }
}

/// `--report` into a folder that cannot take a file fails before any game is played (a run
/// that would never end shows it: it must end at once).
#[cfg(target_os = "linux")]
#[test]
fn g03_a_report_that_cannot_be_written_fails_before_the_games() {
    let d = dir("g03");
    // Not even root may make a file in /proc.
    for (command, bots) in [("judge", "--bot"), ("sim", "--bots")] {
        let r = d.run_with(
            &[
                command,
                "ninety-nine",
                "--games",
                "1000000000000",
                bots,
                "search",
                "--report",
                "/proc/r.html",
            ],
            b"",
            30 * SEC,
        );
        r.failed_cleanly(1);
        assert!(
            r.stderr().contains("cannot write the report `/proc/r.html`"),
            "{}",
            r.shown()
        );
        assert!(r.stdout().is_empty(), "{}", r.shown());
    }
}

/// Ctrl-C while `play` saves again and again: the save is finished (or not begun) before the
/// game ends, so no hidden temporary file is left beside it, and the save is whole. The
/// signal is sent once a first save is written, while the others follow; wherever it lands,
/// the verdict is the same.
#[cfg(unix)]
#[test]
fn g17_ctrl_c_while_saving_leaves_no_temporary_file() {
    use std::io::{BufRead, Write};
    let d = dir("g17");
    for _ in 0..8 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ninety"))
            .args(["play", "--seed", "7"])
            .current_dir(&d.0)
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("runs");
        let mut input = child.stdin.take().expect("stdin");
        let feeder = std::thread::spawn(move || {
            let _ = input.write_all(format!("1\n{}quit\n", "save s.json\n".repeat(2000)).as_bytes());
        });
        let mut out = std::io::BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = String::new();
        while out.read_line(&mut line).is_ok_and(|n| n > 0) {
            if line.contains("Saved to") {
                break;
            }
            line.clear();
        }
        let sent = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success());
        let drained = std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
        let _ = child.wait();
        let _ = drained.join();
        let _ = feeder.join();
        let names: Vec<String> = std::fs::read_dir(&d.0)
            .expect("listed")
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["s.json"], "left beside the save: {names:?}");
        let _: Value = serde_json::from_str(&d.read("s.json")).expect("the save is whole");
    }
}
