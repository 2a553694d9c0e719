//! A program in a real terminal, tmux's, for the tests that must read a screen as a person
//! does (what stays in view, what a shell's Tab shows): keys typed, the screen captured.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// A program in a tmux window, its screen read as a person reads it.
pub struct Tmux {
    socket: String,
}

impl Tmux {
    /// Runs `args` in a new tmux server of its own, 100 columns by 40 lines.
    pub fn start(name: &str, dir: &Path, args: &[&str]) -> Tmux {
        let socket = format!("ninety-{name}-{}", std::process::id());
        let status = Command::new("tmux")
            .args(["-u", "-L", &socket, "-f", "/dev/null", "new-session", "-d"])
            .args(["-x", "100", "-y", "40", "-c"])
            .arg(dir)
            .arg("--")
            .args(args)
            .status();
        match status {
            Ok(s) if s.success() => {}
            Ok(s) => panic!("tmux could not start `{args:?}`: {s}"),
            Err(e) => panic!(
                "this test reads a real terminal's screen with tmux, which cannot run ({e}): \
                 `apt-get install tmux` (`cargo xtask test` installs it)"
            ),
        }
        Tmux { socket }
    }

    fn tmux(&self, args: &[&str]) -> String {
        let o = Command::new("tmux")
            .args(["-u", "-L", &self.socket])
            .args(args)
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&o.stdout).into_owned()
    }

    /// Types text as it is.
    pub fn type_text(&self, text: &str) {
        self.tmux(&["send-keys", "-l", text]);
    }

    /// Presses keys by name: `Enter`, `Tab`, `C-u`.
    pub fn press(&self, keys: &[&str]) {
        let mut args = vec!["send-keys"];
        args.extend(keys);
        self.tmux(&args);
    }

    /// The screen and everything that scrolled off it.
    pub fn screen(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-J", "-S", "-"])
    }

    /// Waits until the screen shows `text`; the screen then. After two minutes without it the
    /// test fails: a guard against a hang, not a measure of speed.
    pub fn wait_for(&self, text: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(text) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "`{text}` never appeared; the screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.tmux(&["kill-server"]);
    }
}
