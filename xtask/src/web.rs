//! The browser playground's build (`cargo xtask web`) and its local server (`cargo xtask
//! serve`): the `web/` crate for `wasm32-unknown-unknown` (the library without its `cli`
//! feature), `wasm-bindgen --target web`, then esbuild bundling the page's JavaScript
//! (CodeMirror from npm) into `web/dist/` beside the wasm, the HTML and the CSS.
//!
//! Everything cargo runs here uses its own target folder, `web` inside the target folder
//! (`target/web`, or `$CARGO_TARGET_DIR/web`): the browser test (`web/tests/browser.rs`) runs
//! this very build from inside `cargo test`, whose own folder may still be locked.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{npm_ci, on_path, run};

/// The page's static files, copied as they are.
const STATIC: [&str; 2] = ["index.html", "style.css"];

/// The JavaScript entry points, each bundled with what it imports.
const ENTRIES: [&str; 2] = ["main.js", "worker.js"];

fn cargo() -> std::ffi::OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

/// The version of the `wasm-bindgen` crate that Cargo.lock pins: the CLI must be the same.
fn bindgen_version(root: &Path) -> Result<String, String> {
    let lock = std::fs::read_to_string(root.join("Cargo.lock"))
        .map_err(|e| format!("cannot read Cargo.lock: {e}"))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == "name = \"wasm-bindgen\""
            && let Some(v) = lines
                .next()
                .and_then(|l| l.strip_prefix("version = \""))
                .and_then(|l| l.strip_suffix('"'))
        {
            return Ok(v.to_string());
        }
    }
    Err("Cargo.lock names no wasm-bindgen: is `web/` in the workspace?".into())
}

/// The installed CLI's version (`wasm-bindgen 0.2.130`), if there is one.
fn installed_bindgen() -> Option<String> {
    let out = Command::new("wasm-bindgen")
        .arg("--version")
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.split_whitespace().nth(1).map(str::to_string)
}

/// Installs wasm-bindgen-cli at the version of the crate, unless it is there already.
pub fn install_bindgen(root: &Path) -> Result<(), String> {
    let want = bindgen_version(root)?;
    if installed_bindgen().as_deref() == Some(want.as_str()) {
        return Ok(());
    }
    // Not `--locked`: the lockfile published with wasm-bindgen-cli pins a release of one of
    // its dependencies (webpki-roots) that the registry no longer serves. Without its default
    // features it has no TLS at all (it needs none to turn a `.wasm` into bindings).
    let ok = run(Command::new(cargo()).args([
        "install",
        "--no-default-features",
        "wasm-bindgen-cli",
        "--version",
        &want,
    ]))?;
    if ok && installed_bindgen().as_deref() == Some(want.as_str()) {
        Ok(())
    } else {
        Err(format!(
            "cannot install wasm-bindgen-cli {want}: run `cargo install --no-default-features \
             wasm-bindgen-cli --version {want}` (and put cargo's bin folder on the PATH)"
        ))
    }
}

/// The web build's own target folder: `web` inside cargo's (`CARGO_TARGET_DIR`, or `target`).
pub fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .filter(|d| !d.is_empty())
        .map_or_else(|| root.join("target"), PathBuf::from)
        .join("web")
}

/// Builds the page into `web/dist/`; its path.
pub fn build(root: &Path) -> Result<(), String> {
    install_bindgen(root)?;
    let web = root.join("web");
    npm_ci(&web)?;
    let target = target_dir(root);
    let ok = run(Command::new(cargo())
        .args([
            "build",
            "--locked",
            "--package",
            "ninety-web",
            "--lib",
            "--target",
            "wasm32-unknown-unknown",
            "--profile",
            "web",
        ])
        .arg("--target-dir")
        .arg(&target)
        .current_dir(root))?;
    if !ok {
        return Err("the wasm build failed (above)".into());
    }
    let wasm = target
        .join("wasm32-unknown-unknown")
        .join("web")
        .join("ninety_web.wasm");
    let pkg = web.join("pkg");
    let ok = run(Command::new("wasm-bindgen")
        .args(["--target", "web", "--no-typescript", "--out-dir"])
        .arg(&pkg)
        .arg(&wasm))?;
    if !ok {
        return Err("wasm-bindgen failed (above)".into());
    }
    let dist = web.join("dist");
    std::fs::create_dir_all(&dist).map_err(|e| format!("cannot make {}: {e}", dist.display()))?;
    let esbuild = web.join("node_modules").join(".bin").join("esbuild");
    let entries: Vec<PathBuf> = ENTRIES.iter().map(|e| web.join("js").join(e)).collect();
    let ok = run(Command::new(&esbuild)
        .args(&entries)
        .args(["--bundle", "--format=esm", "--minify", "--target=es2022"])
        .arg(format!("--outdir={}", dist.display()))
        .current_dir(&web))?;
    if !ok {
        return Err("esbuild failed (above)".into());
    }
    let mut copies: Vec<(PathBuf, PathBuf)> = STATIC
        .iter()
        .map(|f| (web.join("static").join(f), dist.join(f)))
        .collect();
    copies.push((
        pkg.join("ninety_web_bg.wasm"),
        dist.join("ninety_web_bg.wasm"),
    ));
    for (from, to) in copies {
        std::fs::copy(&from, &to)
            .map_err(|e| format!("cannot copy {} to {}: {e}", from.display(), to.display()))?;
    }
    println!("== the playground is in {}", dist.display());
    Ok(())
}

/// Serves `web/dist/` with the playground's own static server (`web/serve.mjs`, Node.js).
pub fn serve(root: &Path, port: Option<String>) -> Result<(), String> {
    if !on_path("node") {
        return Err("serving the playground needs Node.js (`apt-get install nodejs`)".into());
    }
    let web = root.join("web");
    let mut cmd = Command::new("node");
    cmd.arg(web.join("serve.mjs")).arg(web.join("dist"));
    if let Some(p) = port {
        cmd.arg(p);
    }
    if run(&mut cmd)? {
        Ok(())
    } else {
        Err("the server stopped with an error (above)".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lock_pins_the_bindgen_version() {
        let v = bindgen_version(&super::super::root()).expect("Cargo.lock names wasm-bindgen");
        assert!(v.starts_with("0.2."), "{v}");
    }
}
