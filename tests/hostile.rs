//! Hostile inputs: every numbered finding of the hostile-input report (issue 13) as a
//! regression test. Each runs the real binary (or the library) on a file from
//! `tests/hostile/` or one generated here, in a fresh folder, and snapshots the clear message
//! it must give; none may panic, hang, leak a file or take more than a moment.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A fresh folder for one test, with the named files of `tests/hostile/` copied in.
struct Dir(PathBuf);

impl Dir {
    fn new(name: &str, files: &[&str]) -> Dir {
        let dir =
            std::env::temp_dir().join(format!("ninety-hostile-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temp folder");
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile");
        for f in files {
            std::fs::copy(from.join(f), dir.join(f)).expect("copy a hostile file");
        }
        Dir(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    fn write(&self, name: &str, text: impl AsRef<[u8]>) {
        let p = self.path(name);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("a folder");
        }
        std::fs::write(p, text).expect("write");
    }

    /// Runs `ninety ARGS` here, with `input` on standard input, and stops it (failing the
    /// test) if it runs longer than `limit`.
    fn run_with(&self, args: &[&str], input: &[u8], limit: Duration) -> Run {
        let started = Instant::now();
        let mut child = Command::new(env!("CARGO_BIN_EXE_ninety"))
            .args(args)
            .current_dir(&self.0)
            .env("NO_COLOR", "1")
            .env("NINETY_HOME", &self.0)
            .env("SECRET_TOKEN", "hunter2")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let mut stdin = child.stdin.take().expect("stdin");
        let input = input.to_vec();
        let feeder = std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let drain = |mut from: Box<dyn std::io::Read + Send>| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                let _ = from.read_to_end(&mut bytes);
                bytes
            })
        };
        let stdout = drain(Box::new(child.stdout.take().expect("stdout")));
        let stderr = drain(Box::new(child.stderr.take().expect("stderr")));
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait") {
                break status;
            }
            if started.elapsed() > limit {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "`ninety {}` ran longer than {limit:?}\nstdout: {}\nstderr: {}",
                    args.join(" "),
                    String::from_utf8_lossy(&stdout.join().unwrap_or_default()),
                    String::from_utf8_lossy(&stderr.join().unwrap_or_default())
                );
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let _ = feeder.join();
        let out = Output {
            status,
            stdout: stdout.join().unwrap_or_default(),
            stderr: stderr.join().unwrap_or_default(),
        };
        Run {
            out,
            took: started.elapsed(),
            dir: self.0.display().to_string(),
        }
    }

    fn run(&self, args: &[&str]) -> Run {
        self.run_with(args, b"", Duration::from_secs(10))
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What a run gave.
struct Run {
    out: Output,
    took: Duration,
    dir: String,
}

impl Run {
    fn code(&self) -> Option<i32> {
        self.out.status.code()
    }
    fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.out.stdout).replace(&self.dir, "$TMP")
    }
    fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.out.stderr).replace(&self.dir, "$TMP")
    }
    /// Exit code, standard output and standard error, for a snapshot.
    fn shown(&self) -> String {
        format!(
            "exit code: {:?}\n--- stdout\n{}--- stderr\n{}",
            self.code(),
            self.stdout(),
            self.stderr()
        )
    }
    /// It ended by itself with a clear failure, not a crash.
    fn failed_cleanly(&self, code: i32) -> &Self {
        assert_eq!(self.code(), Some(code), "{}", self.shown());
        assert!(
            !self.stderr().contains("panicked") && !self.stderr().contains("overflow"),
            "{}",
            self.shown()
        );
        self
    }
}

// ---- 9, 10, 17, 19, 28, 29: files, and where a ruleset may read them from ----

#[test]
fn f09_a_script_file_outside_the_folder_is_refused_unread() {
    let d = Dir::new(
        "f09",
        &["09-script-file-absolute.rules", "09-script-file-up.rules"],
    );
    d.write(
        "../ninety-hostile-secret.rhai",
        "fn f(game) { 1 } // password = hunter2",
    );
    let abs = d.run(&["check", "09-script-file-absolute.rules"]);
    abs.failed_cleanly(1);
    assert!(!abs.stdout().contains("hunter2"), "{}", abs.shown());
    let up = d.run(&["check", "09-script-file-up.rules"]);
    up.failed_cleanly(1);
    insta::assert_snapshot!(format!("{}\n{}", abs.shown(), up.shown()));
}

#[test]
fn f10_extends_outside_the_folder_is_refused_unread() {
    let d = Dir::new("f10", &["10-extends-absolute.rules", "10-extends-up.rules"]);
    let abs = d.run(&["check", "10-extends-absolute.rules"]);
    abs.failed_cleanly(1);
    assert!(!abs.stdout().contains("include"), "{}", abs.shown());
    let up = d.run(&["check", "10-extends-up.rules"]);
    up.failed_cleanly(1);
    insta::assert_snapshot!(format!("{}\n{}", abs.shown(), up.shown()));
}

#[test]
fn f29_a_shipped_parent_is_found_from_any_folder_and_a_file_beside_wins() {
    let d = Dir::new("f29", &["29-variant.rules"]);
    // A file named like a shipped ruleset (no extension) does not shadow it.
    d.write("ninety-nine", "this is not a ruleset\n");
    let check = d.run(&["check", "29-variant.rules"]);
    assert_eq!(check.code(), Some(0), "{}", check.shown());
    let run = d.run(&["run", "29-variant.rules", "--bots", "--seed", "1"]);
    assert_eq!(run.code(), Some(0), "{}", run.shown());
    let shipped = d.run(&["run", "ninety-nine", "--bots", "--seed", "1"]);
    assert_eq!(shipped.code(), Some(0), "{}", shipped.shown());
    // A parent beside the variant wins over the shipped one.
    d.write(
        "ninety-nine.rules",
        "extends \"ninety-eight\"\nname \"Local Ninety-Nine\"\n",
    );
    let local = d.run(&["rules", "29-variant.rules"]);
    assert_eq!(local.code(), Some(0), "{}", local.shown());
    let check_local = d.run(&["check", "29-variant.rules"]);
    assert_eq!(check_local.code(), Some(0), "{}", check_local.shown());
    assert!(
        local
            .stdout()
            .contains("A variant of ninety-eight ← ninety-nine"),
        "{}",
        local.shown()
    );
    insta::assert_snapshot!(check.shown());
}

#[test]
fn f17_a_named_pipe_is_refused_without_waiting() {
    let d = Dir::new("f17", &[]);
    for pipe in ["pipe.rules", "parent.rules", "house.rhai"] {
        let made = Command::new("mkfifo")
            .arg(d.path(pipe))
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
    }
    d.write("child.rules", "extends \"parent\"\nname \"c\"\n");
    d.write(
        "scripted.rules",
        "extends \"ninety-nine\"\nname \"s\"\nscript file \"house.rhai\"\n",
    );
    let root = d.run_with(&["check", "pipe.rules"], b"", Duration::from_secs(2));
    root.failed_cleanly(2);
    let parent = d.run_with(&["check", "child.rules"], b"", Duration::from_secs(2));
    parent.failed_cleanly(1);
    let script = d.run_with(&["check", "scripted.rules"], b"", Duration::from_secs(2));
    script.failed_cleanly(1);
    insta::assert_snapshot!(format!(
        "{}\n{}\n{}",
        root.shown(),
        parent.shown(),
        script.shown()
    ));
}

#[test]
fn f28_a_deep_extends_chain_stops_at_its_limit() {
    let d = Dir::new("f28", &[]);
    for i in 0..40 {
        d.write(
            &format!("c{i}.rules"),
            format!("extends \"c{}\"\nname \"c{i}\"\n", i + 1),
        );
    }
    d.write("c40.rules", "extends \"ninety-nine\"\nname \"c40\"\n");
    let r = d.run(&["check", "c0.rules"]);
    r.failed_cleanly(1);
    assert!(r.took < Duration::from_secs(1), "{:?}", r.took);
    insta::assert_snapshot!(r.shown());
}

// ---- 8, 25: work and output bounded by the file's size ----

#[test]
fn f08_a_line_of_thirty_thousand_bars_is_one_short_diagnostic() {
    let d = Dir::new("f08", &[]);
    let values: Vec<String> = (1..30_000).map(|i| i.to_string()).collect();
    d.write(
        "bars.rules",
        format!(
            "extends \"ninety-nine\"\nname \"b\"\non reaching {}: each other player pays 1\n",
            values.join(", ")
        ),
    );
    let r = d.run(&["check", "bars.rules"]);
    r.failed_cleanly(1);
    assert!(r.out.stdout.len() < 4_000, "{} bytes", r.out.stdout.len());
    assert!(r.took < Duration::from_secs(1), "{:?}", r.took);
    // Under the line limit, a line listing too many values is one diagnostic too.
    let values: Vec<String> = (1..200).map(|i| i.to_string()).collect();
    d.write(
        "many.rules",
        format!(
            "extends \"ninety-nine\"\nname \"b\"\non reaching {}: each other player pays 1\n",
            values.join(", ")
        ),
    );
    let many = d.run(&["check", "many.rules"]);
    many.failed_cleanly(1);
    insta::assert_snapshot!(format!("{}\n{}", r.shown(), many.shown()));
}

#[test]
fn f25_check_is_linear_in_the_file_and_its_output_bounded() {
    let d = Dir::new("f25", &[]);
    let bad = |n: usize| {
        format!(
            "extends \"ninety-nine\"\nname \"x\"\n{}",
            "bogus\n".repeat(n)
        )
    };
    d.write("small.rules", bad(1_000));
    d.write("big.rules", bad(8_000));
    let small = d.run(&["check", "small.rules"]);
    let big = d.run(&["check", "big.rules"]);
    small.failed_cleanly(1);
    big.failed_cleanly(1);
    // Each problem is counted, a hundred are shown: the output does not grow with the file.
    assert!(
        big.stdout().contains("and 7,900 more problems"),
        "{}",
        big.stdout()
    );
    assert!(big.stdout().contains("8,000 errors"), "{}", big.stdout());
    assert!(
        big.out.stdout.len() <= small.out.stdout.len() + 16,
        "{} then {}",
        small.out.stdout.len(),
        big.out.stdout.len()
    );
    assert!(big.took < Duration::from_secs(1), "{:?}", big.took);
    // A card line repeating a rank is one warning a line, not one a repeat quoting the line.
    let ks = vec!["K"; 60].join(", ");
    d.write(
        "ranks.rules",
        format!(
            "extends \"ninety-nine\"\nname \"k\"\n{}",
            format!("card {ks}: nothing\n").repeat(50)
        ),
    );
    let ranks = d.run(&["check", "ranks.rules"]);
    assert!(
        ranks.out.stdout.len() < 200_000,
        "{}",
        ranks.out.stdout.len()
    );
    // Past the line limit the rest of the file is not read.
    d.write("long.rules", bad(12_000));
    let long = d.run(&["check", "long.rules"]);
    long.failed_cleanly(1);
    let big_out = big.stdout();
    let tail: Vec<&str> = big_out.lines().rev().take(5).collect();
    let long_head: Vec<String> = long.stdout().lines().take(9).map(String::from).collect();
    insta::assert_snapshot!(format!(
        "{}\n---\n{}",
        tail.into_iter().rev().collect::<Vec<_>>().join("\n"),
        long_head.join("\n")
    ));
}
