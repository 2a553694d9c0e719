//! `ninety serve` in a real browser: `web/test/serve.mjs` (playwright-core driving Debian's
//! Chromium) runs the binary's server and plays a table as people do. Two pages and a bot play
//! a game to its end, neither shown the other's hand, a spectator shown none; a reload brings
//! a page back to its seat; the server is killed mid-game and started again, and the game goes
//! on from the same position; a finished game is replayed step by step; the table is used at a
//! phone's width; a ruleset of one's own is opened, and one with an error refused in the
//! checker's words. It needs Chromium and the page tests' npm packages (`cargo xtask deps`),
//! so it is ignored by a plain `cargo test`; `cargo xtask test` runs it.

use std::path::Path;
use std::process::Command;

#[test]
#[ignore = "needs Chromium and node with web/'s npm packages (cargo xtask deps): run by cargo xtask test"]
fn friends_play_a_served_table_in_the_browser() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("node")
        .arg(root.join("web/test/serve.mjs"))
        .env("NINETY_BIN", env!("CARGO_BIN_EXE_ninety"))
        .current_dir(root)
        .output()
        .expect("node runs (cargo xtask deps installs it)");
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    println!("{text}");
    assert!(out.status.success(), "web/test/serve.mjs failed:\n{text}");
    assert!(text.contains("3 passed, 0 failed"), "{text}");
}
