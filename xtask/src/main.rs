//! ninety's own tasks, run as `cargo xtask TASK` (the alias is in `.cargo/config.toml`).
//!
//! - `cargo xtask test`: every test, on a fresh machine too. It first installs what the tests
//!   need and the crate cannot build (tmux, Neovim, Chromium, zsh and fish through apt; the
//!   VS Code extension's npm packages through `npm ci`; the `wasm32-unknown-unknown` target
//!   through rustup), then runs `cargo test --locked --no-fail-fast --workspace` (one failing
//!   target hides none after it) and the 60-second soak. A tool it cannot install stops it
//!   at once, with the command that installs it: no test is skipped for want of a tool.
//! - `cargo xtask deps`: only the installing.
//! - `cargo xtask web`: builds the browser playground into `web/dist/` (the library for
//!   `wasm32-unknown-unknown`, `wasm-bindgen`, the JavaScript bundled by esbuild), installing
//!   what that needs first (the target, wasm-bindgen-cli at the version of Cargo.lock's
//!   wasm-bindgen, `npm ci` in `web/`).
//! - `cargo xtask serve [PORT]`: builds it, then serves `web/dist/` on 127.0.0.1 (8099).
//!
//! `.ci/run` runs `cargo fmt --check`, clippy and `cargo xtask test`, nothing else, so a green
//! CI proves the README's command on a machine where nothing was installed.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

mod web;

/// A program a test runs, and the Debian package that brings it.
struct Tool {
    /// The program, looked for on the `PATH`.
    program: &'static str,
    /// Other names it goes by (`chromium-browser`); any one will do.
    or: &'static [&'static str],
    package: &'static str,
    /// Which tests need it.
    why: &'static str,
}

/// The programs of the tests, installed with apt when missing.
const TOOLS: [Tool; 7] = [
    Tool {
        program: "tmux",
        or: &[],
        package: "tmux",
        why: "tests/pty.rs and tests/completions.rs read the screen of a real terminal",
    },
    Tool {
        program: "nvim",
        or: &[],
        package: "neovim",
        why: "tests/nvim.rs runs the language server in Neovim as docs/editors.md sets it up",
    },
    Tool {
        program: "chromium",
        or: &["chromium-browser"],
        package: "chromium",
        why: "tests/report.rs renders the HTML report; web/tests/browser.rs drives the playground",
    },
    Tool {
        program: "zsh",
        or: &[],
        package: "zsh",
        why: "tests/completions.rs completes in zsh",
    },
    Tool {
        program: "fish",
        or: &[],
        package: "fish",
        why: "tests/completions.rs completes in fish",
    },
    Tool {
        program: "man",
        or: &[],
        package: "man-db",
        why: "tests/completions.rs reads the manual pages as `man` shows them",
    },
    Tool {
        program: "node",
        or: &["nodejs"],
        package: "nodejs npm",
        why: "tests/editors.rs checks the VS Code extension with Node.js; web/tests/browser.rs builds and drives the playground",
    },
];

/// The compilation targets the tests build for, added with rustup when missing.
const TARGETS: [&str; 1] = ["wasm32-unknown-unknown"];

/// How long the soak runs, in seconds, unless `NINETY_SOAK_SECS` says.
const SOAK_SECS: &str = "60";

fn main() -> ExitCode {
    let task = std::env::args().nth(1).unwrap_or_default();
    let root = root();
    let result = match task.as_str() {
        "test" => deps(&root).and_then(|()| test(&root)),
        "deps" => deps(&root),
        "web" => install_targets().and_then(|()| web::build(&root)),
        "serve" => install_targets()
            .and_then(|()| web::build(&root))
            .and_then(|()| web::serve(&root, std::env::args().nth(2))),
        _ => Err(
            "usage: cargo xtask test (install what the tests need, then run them all) \
                  | cargo xtask deps (only install) \
                  | cargo xtask web (build the playground into web/dist) \
                  | cargo xtask serve [PORT] (build it and serve it)"
                .to_string(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The repository: the folder above this crate's.
fn root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.parent().unwrap_or(here).to_path_buf()
}

/// Whether `program` is a file on the `PATH` that can be run.
fn on_path(program: &str) -> bool {
    let Some(path) = std::env::var_os("PATH") else {
        return false;
    };
    std::env::split_paths(&path).any(|dir| is_executable(&dir.join(program)))
}

#[cfg(unix)]
fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(p: &Path) -> bool {
    p.is_file()
}

/// Runs a command, echoing it first; its success.
fn run(cmd: &mut Command) -> Result<bool, String> {
    let shown = format!("{cmd:?}").replace('"', "");
    println!("== {shown}");
    cmd.status()
        .map(|s| s.success())
        .map_err(|e| format!("cannot run `{shown}`: {e}"))
}

/// Whether this process may install packages itself (it is root), or through `sudo -n`.
fn apt_prefix() -> Option<Vec<&'static str>> {
    if !on_path("apt-get") {
        return None;
    }
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    if root {
        return Some(Vec::new());
    }
    let sudo = on_path("sudo")
        && Command::new("sudo")
            .args(["-n", "true"])
            .status()
            .is_ok_and(|s| s.success());
    sudo.then(|| vec!["sudo", "-n"])
}

/// Installs the missing tools with apt; or says, for each, which command installs it.
fn install_tools() -> Result<(), String> {
    let missing: Vec<&Tool> = TOOLS
        .iter()
        .filter(|t| !on_path(t.program) && !t.or.iter().any(|o| on_path(o)))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let packages: Vec<&str> = missing.iter().flat_map(|t| t.package.split(' ')).collect();
    let how = format!(
        "apt-get install -y --no-install-recommends {}",
        packages.join(" ")
    );
    let explain = || {
        let list: Vec<String> = missing
            .iter()
            .map(|t| format!("  {} ({}): {}", t.program, t.package, t.why))
            .collect();
        format!(
            "the tests need programs this machine lacks:\n{}\ninstall them with `sudo {how}` \
             (Debian, Ubuntu) or your system's packages, then run `cargo xtask test` again",
            list.join("\n")
        )
    };
    let Some(prefix) = apt_prefix() else {
        return Err(explain());
    };
    let apt = |args: &[&str]| {
        let mut cmd = Command::new(prefix.first().copied().unwrap_or("apt-get"));
        if !prefix.is_empty() {
            cmd.args(&prefix[1..]).arg("apt-get");
        }
        cmd.args(args).env("DEBIAN_FRONTEND", "noninteractive");
        run(&mut cmd)
    };
    let mut install = vec!["install", "-y", "--no-install-recommends"];
    install.extend(&packages);
    if !(apt(&["update"])? && apt(&install)?) {
        return Err(explain());
    }
    let still: Vec<&str> = missing
        .iter()
        .filter(|t| !on_path(t.program) && !t.or.iter().any(|o| on_path(o)))
        .map(|t| t.program)
        .collect();
    if still.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "apt installed {}, but {} is still not on the PATH",
            packages.join(" "),
            still.join(", ")
        ))
    }
}

/// Adds the compilation targets the tests build for.
fn install_targets() -> Result<(), String> {
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map_err(|e| {
            format!(
                "cannot run rustup ({e}): the tests build for {}; install rustup \
                 (https://rustup.rs), or add the targets to your toolchain",
                TARGETS.join(", ")
            )
        })?;
    let have = String::from_utf8_lossy(&installed.stdout).into_owned();
    for target in TARGETS {
        if !have.lines().any(|l| l.trim() == target)
            && !run(Command::new("rustup").args(["target", "add", target]))?
        {
            return Err(format!(
                "cannot add the target {target}: run `rustup target add {target}`"
            ));
        }
    }
    Ok(())
}

/// The npm packages of the VS Code extension and of the playground, as their lockfiles
/// give them.
fn install_npm_packages(root: &Path) -> Result<(), String> {
    npm_ci(&root.join("editors").join("vscode"))?;
    npm_ci(&root.join("web"))
}

/// `npm ci` in a folder with a lockfile and no `node_modules` yet.
fn npm_ci(ext: &Path) -> Result<(), String> {
    if !ext.join("package-lock.json").exists() || ext.join("node_modules").is_dir() {
        return Ok(());
    }
    let ok = run(Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund"])
        .current_dir(ext))?;
    if ok {
        Ok(())
    } else {
        Err(format!(
            "`npm ci` failed in {}: run it there by hand to see why",
            ext.display()
        ))
    }
}

/// Everything the tests need that cargo does not build.
fn deps(root: &Path) -> Result<(), String> {
    install_tools()?;
    install_targets()?;
    install_npm_packages(root)?;
    web::install_bindgen(root)
}

/// Every test target, then the soak; each runs whatever the one before gave.
fn test(root: &Path) -> Result<(), String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let all = run(Command::new(&cargo)
        .args(["test", "--locked", "--no-fail-fast", "--workspace"])
        .current_dir(root))?;
    let secs = std::env::var("NINETY_SOAK_SECS").unwrap_or_else(|_| SOAK_SECS.to_string());
    let soak = run(Command::new(&cargo)
        .args(["test", "--locked", "--test", "soak", "--", "--ignored"])
        .env("NINETY_SOAK_SECS", &secs)
        .current_dir(root))?;
    match (all, soak) {
        (true, true) => {
            println!("== every test passed, and the {secs} s soak");
            Ok(())
        }
        (false, true) => Err("some tests failed (above); the soak passed".into()),
        (true, false) => Err("the soak failed (above); every other test passed".into()),
        (false, false) => Err("some tests failed, and the soak too (above)".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_repository_is_the_folder_above() {
        assert!(root().join("Cargo.toml").is_file());
        assert!(root().join("xtask").join("Cargo.toml").is_file());
    }

    #[test]
    fn a_program_is_found_on_the_path_only_when_it_is_there() {
        assert!(on_path("sh"));
        assert!(!on_path("no-such-program-ninety-xtask"));
    }
}
