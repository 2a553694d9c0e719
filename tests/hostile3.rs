//! Hostile inputs, third pass: the findings of the third hostile-input report that are the
//! command line's and the language server's (lost work, hangs, wrong results, unclear
//! messages), each as a regression test. Each runs the real binary (or the library) in a
//! fresh folder; none may panic, hang, lose output silently or leave a file behind.

mod support;

use std::path::Path;
use std::process::{Command, Stdio};

use support::Dir;

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
