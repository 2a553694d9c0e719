//! The playground built and driven in a real browser: `cargo xtask web`'s build (the library
//! for `wasm32-unknown-unknown` without its `cli` feature, wasm-bindgen, esbuild), its size,
//! then `web/test/browser.mjs` (playwright-core driving Debian's Chromium) through every step a
//! person takes: a mistake seen at its line and gone when mended, the line typed kept in view,
//! completion opening by itself, the last good sheet kept greyed, an example and its sheet, a
//! new variant and the hint that points to one, a whole game against bots told in the page's
//! words, the options as controls, 10,000 games with the page responsive, a variant compared
//! with its parent, a million games shown as they go and stopped, a share link copied and its
//! round trip, a download, work never lost (a link, two tabs, a broken link), moves the table
//! does not offer refused, the server answering a malformed request, a forced panic recovered,
//! hover, and every shipped ruleset checked (its time reported; asserted under 50 ms only with
//! `NINETY_TIMING_TESTS=1`). It needs what `cargo xtask deps` installs (the wasm
//! target, wasm-bindgen-cli, Node.js and `npm ci` in `web/`, Chromium), so both tests are
//! ignored by a plain `cargo test`; `cargo xtask test` runs them, and there they fail, saying
//! so, without it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("web/ is in the repository")
        .to_path_buf()
}

/// The web build's target folder, as `cargo xtask web` picks it: `web` inside cargo's.
fn web_target(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .filter(|d| !d.is_empty())
        .map_or_else(|| root.join("target"), PathBuf::from)
        .join("web")
}

/// Builds the page once, as `cargo xtask web` does (the xtask itself, in the target folder of
/// the web build: `cargo test`'s own may be locked while tests run).
fn built() -> &'static PathBuf {
    static DIST: OnceLock<PathBuf> = OnceLock::new();
    DIST.get_or_init(|| {
        let root = root();
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let out = Command::new(cargo)
            .args([
                "run",
                "--quiet",
                "--locked",
                "--package",
                "xtask",
                "--target-dir",
            ])
            .arg(web_target(&root))
            .args(["--", "web"])
            .current_dir(&root)
            .output()
            .expect("cargo runs");
        assert!(
            out.status.success(),
            "`cargo xtask web` failed (run `cargo xtask deps` first on a new machine):\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        root.join("web").join("dist")
    })
}

#[test]
#[ignore = "needs the wasm32-unknown-unknown target, wasm-bindgen-cli and node (cargo xtask web): run by cargo xtask test"]
fn the_page_builds_with_every_file_and_a_small_wasm() {
    let dist = built();
    for f in [
        "index.html",
        "style.css",
        "main.js",
        "worker.js",
        "ninety_web_bg.wasm",
    ] {
        assert!(dist.join(f).is_file(), "web/dist/{f} is built");
    }
    let wasm = dist.join("ninety_web_bg.wasm");
    let raw = std::fs::metadata(&wasm).expect("the wasm").len();
    let gz = Command::new("gzip")
        .args(["-9", "-c"])
        .arg(&wasm)
        .output()
        .expect("gzip runs");
    assert!(gz.status.success());
    let gzipped = gz.stdout.len() as u64;
    println!("wasm: {raw} bytes, {gzipped} gzipped");
    assert!(
        gzipped < 3 << 20,
        "the wasm is {gzipped} bytes gzipped, over 3 MB"
    );
    let html = std::fs::read_to_string(dist.join("index.html")).expect("index.html");
    for hook in [
        "examples",
        "share",
        "diagnostics",
        "sheet",
        "table",
        "sim-run",
        "judge-run",
        "judge-by",
        "sim-games",
        "report",
        "new-variant",
        "work",
        "download",
        "options",
        "compare-run",
        "sim-against",
        "sim-progress",
        "sim-stop",
    ] {
        assert!(
            html.contains(&format!("data-test=\"{hook}\"")),
            "the page has the `{hook}` hook"
        );
    }
}

#[test]
#[ignore = "needs the wasm32-unknown-unknown target, wasm-bindgen-cli, node and chromium: run by cargo xtask test"]
fn the_playground_works_in_a_real_browser() {
    let dist = built();
    assert!(dist.join("ninety_web_bg.wasm").is_file());
    let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .find(|p| Path::new(p).is_file())
        .expect(
            "no Chromium at /usr/bin/chromium: `apt-get install chromium` (`cargo xtask test` does)",
        );
    let script = root().join("web").join("test").join("browser.mjs");
    let out = Command::new("node")
        .arg(&script)
        .env("NINETY_CHROMIUM", chromium)
        .current_dir(root().join("web"))
        .output()
        .expect("node runs (`apt-get install nodejs`; `cargo xtask test` does)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "the browser tests failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for name in [
        "diagnostics",
        "examples",
        "game",
        "simulation",
        "judge",
        "share",
        "storage",
        "panic",
        "hover",
        "speed",
        "scenarios",
        "typedLineInView",
        "completion",
        "staleSheet",
        "variant",
        "compare",
        "options",
        "progress",
        "shareAndDownload",
        "linkKeepsWork",
        "twoTabs",
        "brokenLink",
        "refused",
        "server",
    ] {
        assert!(
            stdout.lines().any(|l| l.starts_with(&format!("ok {name}"))),
            "the browser test `{name}` ran and passed:\n{stdout}"
        );
    }
}
