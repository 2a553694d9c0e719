//! What the tests of hostile input share: a fresh folder per test, the real binary run in it
//! (on Unix with an address-space cap) under a hang guard, what the run gave, its time budget
//! (asserted only with `NINETY_TIMING_TESTS=1`), and a run stopped by SIGINT once it says it
//! handles Ctrl-C.
#![allow(dead_code)] // each test file uses its own part of it

use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// How long a run may take before it is taken for a hang, stopped, and the test failed: far
/// beyond what any run here takes on a busy machine. A guard against hanging for good, not a
/// measure of speed.
pub const HANG: Duration = Duration::from_secs(300);

/// Whether the tests' time budgets are asserted: `NINETY_TIMING_TESTS=1`. Off by default, so
/// that no verdict depends on how fast or how busy the machine is (a budget belongs in a
/// bench); a run still fails the test when it hangs ([`HANG`]).
pub fn timing_tests() -> bool {
    std::env::var_os("NINETY_TIMING_TESTS").is_some_and(|v| v == "1")
}

/// A time budget: `what` took `took`, which should be under `budget`. With
/// `NINETY_TIMING_TESTS=1` a slower run fails the test; otherwise the time is only said (on
/// standard output, which `cargo test -- --nocapture` shows).
pub fn budget(what: &str, took: Duration, budget: Duration) {
    if timing_tests() {
        assert!(
            took < budget,
            "{what} took {took:?}, over its budget of {budget:?}"
        );
    } else {
        println!(
            "timing: {what} took {took:?} (budget {budget:?}, asserted with NINETY_TIMING_TESTS=1)"
        );
    }
}

/// Reads all of a child's pipe on a thread of its own.
fn drain(mut from: impl Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = from.read_to_end(&mut bytes);
        bytes
    })
}

/// Waits for `child` to end; after `limit` it is killed and the test fails, saying `what`
/// and what the child wrote to standard error (`stderr`, read elsewhere).
fn wait_or_kill(
    child: &mut Child,
    limit: Duration,
    what: &str,
    stderr: std::thread::JoinHandle<Vec<u8>>,
) -> (std::process::ExitStatus, std::thread::JoinHandle<Vec<u8>>) {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return (status, stderr);
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "{what} ran longer than {limit:?}: taken for a hang\nstderr: {}",
                String::from_utf8_lossy(&stderr.join().unwrap_or_default())
            );
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Runs `cmd` with its standard output and error read to the end, and waits for it under the
/// hang guard ([`HANG`]).
pub fn output_guarded(cmd: &mut Command) -> Output {
    let what = format!("{cmd:?}");
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the program runs");
    let stdout = drain(child.stdout.take().expect("stdout"));
    let stderr = drain(child.stderr.take().expect("stderr"));
    let (status, stderr) = wait_or_kill(&mut child, HANG, &what, stderr);
    Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    }
}

/// The line `ninety sim` and `ninety judge` write to standard error under
/// `NINETY_READY_LINE=1` once Ctrl-C is handled (`src/app/cli.rs`, `say_ready`).
pub const READY_LINE: &str = "ready: Ctrl-C stops the run";

/// Runs `cmd` (a `ninety` command too long to finish) with `NINETY_READY_LINE=1`, sends it
/// SIGINT, as Ctrl-C does, once it says it handles Ctrl-C, and gives what it wrote and how it
/// ended. No clock decides anything: before the line a SIGINT would end the process at once
/// (no handler yet), after it the command must stop by itself; only a hang ([`HANG`]) fails
/// the test for want of an end.
#[cfg(unix)]
pub fn interrupted(cmd: &mut Command) -> Output {
    let what = format!("{cmd:?}");
    let mut child = cmd
        .env("NINETY_READY_LINE", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let stdout = drain(child.stdout.take().expect("stdout"));
    let (ready, said) = std::sync::mpsc::channel();
    let mut err = std::io::BufReader::new(child.stderr.take().expect("stderr"));
    let stderr = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let mut told = false;
        loop {
            let mut line = Vec::new();
            match err.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            if !told && String::from_utf8_lossy(&line).starts_with(READY_LINE) {
                told = ready.send(()).is_ok();
            }
            bytes.extend(line);
        }
        bytes
    });
    // The line, or the end of standard error (the command ended, or failed, before it).
    let got = said.recv_timeout(HANG);
    if got.is_err() {
        let _ = child.kill();
        let _ = child.wait();
        panic!(
            "{what} never said `{READY_LINE}`\nstderr: {}",
            String::from_utf8_lossy(&stderr.join().unwrap_or_default())
        );
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "kill -INT {}", child.id());
    let (status, stderr) = wait_or_kill(&mut child, HANG, &what, stderr);
    Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    }
}

/// A fresh folder for one test, with the named files of `from` (a folder of `tests/`) copied
/// in.
pub struct Dir(pub PathBuf);

impl Dir {
    pub fn new(name: &str, from: &str, files: &[&str]) -> Dir {
        let dir = std::env::temp_dir().join(format!("ninety-{from}-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temp folder");
        let source = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests")
            .join(from);
        for f in files {
            std::fs::copy(source.join(f), dir.join(f)).expect("copy a hostile file");
        }
        Dir(dir)
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    pub fn write(&self, name: &str, text: impl AsRef<[u8]>) {
        let p = self.path(name);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("a folder");
        }
        std::fs::write(p, text).expect("write");
    }

    pub fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.path(name)).unwrap_or_default()
    }

    /// Runs `ninety ARGS` here, with `input` on standard input and the environment `env`
    /// added. `limit` is the run's time budget: with `NINETY_TIMING_TESTS=1` a run longer
    /// than it is stopped and fails the test; otherwise only a hang does (the longer of
    /// `limit` and [`HANG`]). On Unix it runs with its address space capped at 2 GB: a run
    /// that would take more aborts, and fails the test as a crash.
    pub fn run_env(
        &self,
        args: &[&str],
        input: &[u8],
        env: &[(&str, &str)],
        limit: Duration,
    ) -> Run {
        let started = Instant::now();
        let bin = env!("CARGO_BIN_EXE_ninety");
        let mut cmd = if cfg!(unix) && Path::new("/bin/sh").exists() {
            let mut c = Command::new("/bin/sh");
            c.arg("-c")
                .arg("ulimit -v 2000000 2>/dev/null; exec \"$0\" \"$@\"")
                .arg(bin)
                .args(args);
            c
        } else {
            let mut c = Command::new(bin);
            c.args(args);
            c
        };
        cmd.current_dir(&self.0)
            .env("NO_COLOR", "1")
            .env("NINETY_HOME", &self.0)
            .env("SECRET_TOKEN", "hunter2")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in env {
            if v.is_empty() {
                cmd.env_remove(k);
            } else {
                cmd.env(k, v);
            }
        }
        let mut child = cmd.spawn().expect("the binary runs");
        let mut stdin = child.stdin.take().expect("stdin");
        let input = input.to_vec();
        let feeder = std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let stdout = drain(child.stdout.take().expect("stdout"));
        let stderr = drain(child.stderr.take().expect("stderr"));
        let guard = if timing_tests() {
            limit
        } else {
            limit.max(HANG)
        };
        let what = format!("`ninety {}`", args.join(" "));
        let (status, stderr) = wait_or_kill(&mut child, guard, &what, stderr);
        let _ = feeder.join();
        Run {
            out: Output {
                status,
                stdout: stdout.join().unwrap_or_default(),
                stderr: stderr.join().unwrap_or_default(),
            },
            took: started.elapsed(),
            dir: self.0.display().to_string(),
            what,
        }
    }

    pub fn run_with(&self, args: &[&str], input: &[u8], limit: Duration) -> Run {
        self.run_env(args, input, &[], limit)
    }

    pub fn run(&self, args: &[&str]) -> Run {
        self.run_with(args, b"", Duration::from_secs(30))
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `ninety COMMAND ninety-nine --games 1000000000000 --jobs 2` (a run that would never end)
/// in `dir`, as text and then with `--json`, each stopped by SIGINT once it handles Ctrl-C
/// ([`interrupted`]): each must end by itself with exit code 1 and say on standard error that
/// its report covers the games played before Ctrl-C, and the JSON must say it was
/// interrupted. The text report and the JSON, for the caller's own checks.
#[cfg(unix)]
pub fn ctrl_c_stops_a_huge_run(command: &str, dir: &Path) -> (String, serde_json::Value) {
    let run = |json: bool| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ninety"));
        cmd.args([
            command,
            "ninety-nine",
            "--games",
            "1000000000000",
            "--jobs",
            "2",
        ])
        .current_dir(dir);
        if json {
            cmd.arg("--json");
        }
        let out = interrupted(&mut cmd);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(1),
            "`{command}`, json {json}: {stderr}"
        );
        assert!(
            stderr.contains("interrupted: the report covers the"),
            "`{command}`, json {json}: {stderr}"
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let text = run(false);
    // The report itself says it was cut short, as the JSON does.
    assert!(
        text.contains("(stopped by Ctrl-C: this covers"),
        "`{command}`: {text}"
    );
    let json = run(true);
    let v: serde_json::Value = serde_json::from_str(&json).expect("the report is JSON");
    assert_eq!(v["interrupted"], true, "{json}");
    (text, v)
}

/// What a run gave.
pub struct Run {
    pub out: Output,
    pub took: Duration,
    pub dir: String,
    /// The command run: `ninety ARGS`.
    pub what: String,
}

impl Run {
    pub fn code(&self) -> Option<i32> {
        self.out.status.code()
    }
    /// Its time budget ([`budget`]): asserted only with `NINETY_TIMING_TESTS=1`.
    pub fn within(&self, limit: Duration) -> &Self {
        budget(&self.what, self.took, limit);
        self
    }
    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.out.stdout).replace(&self.dir, "$TMP")
    }
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.out.stderr).replace(&self.dir, "$TMP")
    }
    /// Exit code, standard output and standard error, for a snapshot.
    pub fn shown(&self) -> String {
        format!(
            "exit code: {:?}\n--- stdout\n{}--- stderr\n{}",
            self.code(),
            self.stdout(),
            self.stderr()
        )
    }
    /// It ended by itself, with `code`, not a crash.
    pub fn failed_cleanly(&self, code: i32) -> &Self {
        assert_eq!(self.code(), Some(code), "{}", self.shown());
        self.no_crash()
    }
    /// No panic, no abort, no stack overflow, no raw control character sent.
    pub fn no_crash(&self) -> &Self {
        self.no_crash_but('\n')
    }

    /// [`Run::no_crash`], the control character `allowed` aside (besides new lines and tabs).
    pub fn no_crash_but(&self, allowed: char) -> &Self {
        let err = self.stderr();
        assert!(
            self.code().is_some_and(|c| c <= 2)
                && !err.contains("panicked")
                && !err.contains("overflow")
                && !err.contains("memory allocation"),
            "{}",
            self.shown()
        );
        for (what, bytes) in [("stdout", &self.out.stdout), ("stderr", &self.out.stderr)] {
            let text = String::from_utf8_lossy(bytes);
            assert!(
                !text.chars().any(|c| ninety::base::text::is_unsafe(c)
                    && !matches!(c, '\n' | '\t')
                    && c != allowed),
                "a control character reached {what}: {}",
                self.shown()
            );
        }
        self
    }
}

/// `Content-Length` framing of one language-server message.
pub fn frame(v: &serde_json::Value) -> Vec<u8> {
    let body = v.to_string();
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend(body.bytes());
    out
}

/// The messages of a language server's output.
pub fn replies(out: &[u8]) -> Vec<serde_json::Value> {
    let mut msgs = Vec::new();
    let text = out;
    let mut i = 0;
    while let Some(j) = find(&text[i..], b"Content-Length:").map(|j| j + i) {
        let Some(k) = find(&text[j..], b"\r\n\r\n").map(|k| k + j) else {
            break;
        };
        let n: usize = String::from_utf8_lossy(&text[j + 15..k])
            .trim()
            .parse()
            .unwrap_or(0);
        let body = &text[k + 4..(k + 4 + n).min(text.len())];
        msgs.push(serde_json::from_slice(body).unwrap_or(serde_json::Value::Null));
        i = k + 4 + n;
    }
    msgs
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The framed messages of a session: initialize, `body`, shutdown and exit.
pub fn lsp_session(body: &[serde_json::Value]) -> Vec<u8> {
    let mut msgs = vec![
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"processId": null, "rootUri": null, "capabilities": {}}}),
    ];
    msgs.extend(body.iter().cloned());
    msgs.push(serde_json::json!({"jsonrpc": "2.0", "id": 99, "method": "shutdown"}));
    msgs.push(serde_json::json!({"jsonrpc": "2.0", "method": "exit"}));
    msgs.iter().flat_map(frame).collect()
}

/// A `didOpen` notification.
pub fn open_doc(uri: &str, text: &str) -> serde_json::Value {
    serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "ninety", "version": 1, "text": text}}})
}

/// A hover request.
pub fn hover(id: i32, uri: &str, line: u32, character: u32) -> serde_json::Value {
    serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": uri}, "position": {"line": line, "character": character}}})
}

/// The `file://` URI of a path.
pub fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}
