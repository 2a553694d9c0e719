//! What the tests of hostile input share: a fresh folder per test, the real binary run in it
//! with a time limit (and, on Unix, an address-space cap), and what the run gave.
#![allow(dead_code)] // each test file uses its own part of it

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

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
    /// added, and stops it (failing the test) if it runs longer than `limit`. On Unix it runs
    /// with its address space capped at 2 GB: a run that would take more aborts, and fails
    /// the test as a crash.
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
                    "`ninety {}` ran longer than {limit:?}\nstderr: {}",
                    args.join(" "),
                    String::from_utf8_lossy(&stderr.join().unwrap_or_default())
                );
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let _ = feeder.join();
        Run {
            out: Output {
                status,
                stdout: stdout.join().unwrap_or_default(),
                stderr: stderr.join().unwrap_or_default(),
            },
            took: started.elapsed(),
            dir: self.0.display().to_string(),
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

/// What a run gave.
pub struct Run {
    pub out: Output,
    pub took: Duration,
    pub dir: String,
}

impl Run {
    pub fn code(&self) -> Option<i32> {
        self.out.status.code()
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
