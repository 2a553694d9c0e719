//! ninety's own tasks, run as `cargo xtask TASK` (the alias is in `.cargo/config.toml`).
//!
//! - `cargo xtask test`: every test, on a fresh machine too. A plain `cargo test` needs only
//!   Rust: the tests that need a program cargo does not build are ignored there, each saying
//!   `needs TOOL: run by cargo xtask test`. This task first installs what those need (tmux,
//!   Neovim, Chromium, zsh, fish and man through apt; the VS Code extension's and the
//!   playground's npm packages through `npm ci`; the `wasm32-unknown-unknown` target through
//!   rustup; wasm-bindgen-cli), then runs `cargo test --locked --no-fail-fast --workspace --
//!   --include-ignored` (one failing target hides none after it), every ignored test with the
//!   others but the soak's ([`SOAK_TESTS`]) and two heavy ones left to run by hand
//!   ([`BY_HAND`]), then the 60-second soak with the very same cargo arguments (only the test
//!   binaries' differ), so that nothing is compiled twice. A tool it cannot install
//!   stops it at once, with the command that installs it: no test is skipped for want of a
//!   tool.
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

/// The soak's tests (`tests/soak.rs`): ignored, left out of the main run, then run by
/// themselves for `NINETY_SOAK_SECS`.
const SOAK_TESTS: [&str; 3] = [
    "soak_rulesets_check_and_play_without_panic_keeping_every_invariant",
    "soak_tampered_saves_are_refused_or_sound",
    "soak_edited_shards_merge_true_or_not_at_all",
];

/// Ignored tests `cargo xtask test` does not run, and how to run them by hand: heavy, and
/// never part of it.
const BY_HAND: [(&str, &str); 2] = [
    (
        "many_games",
        "tests/native.rs, 20,000 games per player count: cargo test --test native -- --ignored",
    ),
    (
        "ismcts_beats_search_beyond_chance",
        "tests/ismcts.rs, minutes of a release build: \
         cargo test --release --test ismcts -- --ignored",
    ),
];

/// What both runs give cargo, word for word: the same packages, targets, features and
/// profile, so that the soak's run builds nothing the main run has not built. (Selecting the
/// soak's target alone, `--test soak`, leaves the playground's wasm-bindgen out of the build,
/// and with it the reason cargo shares the proc macros' dependencies with the targets' ones:
/// cargo then builds those, every proc macro and the crate again, in another flavour.) Only
/// the test binaries' arguments, after `--`, differ.
const CARGO_TEST: [&str; 4] = ["test", "--locked", "--no-fail-fast", "--workspace"];

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

/// The arguments of the main run: every test target, the ignored tests included but the
/// soak's and those run by hand (`--skip`, exact names).
fn main_run_args() -> Vec<&'static str> {
    let mut args = CARGO_TEST.to_vec();
    args.extend(["--", "--include-ignored", "--exact"]);
    for name in SOAK_TESTS.into_iter().chain(BY_HAND.map(|(n, _)| n)) {
        args.extend(["--skip", name]);
    }
    args
}

/// The arguments of the soak's run: the main run's build, the soak's tests alone (exact
/// names; every other test binary runs none).
fn soak_args() -> Vec<&'static str> {
    let mut args = CARGO_TEST.to_vec();
    args.extend(["--", "--ignored", "--exact"]);
    args.extend(SOAK_TESTS);
    args
}

/// Every test target, then the soak; each runs whatever the one before gave.
fn test(root: &Path) -> Result<(), String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let all = run(Command::new(&cargo).args(main_run_args()).current_dir(root))?;
    let secs = std::env::var("NINETY_SOAK_SECS").unwrap_or_else(|_| SOAK_SECS.to_string());
    let soak = run(Command::new(&cargo)
        .args(soak_args())
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

    /// The ignored tests of the integration test files: each test's name and its attribute's
    /// reason (empty for a bare `#[ignore]`), `#[cfg_attr(..., ignore = "...")]` included.
    fn ignored_tests() -> Vec<(String, String, String)> {
        let mut found = Vec::new();
        for folder in ["tests", "web/tests"] {
            let dir = root().join(folder);
            let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
                .expect("a test folder")
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "rs"))
                .collect();
            files.sort();
            for file in files {
                let text = std::fs::read_to_string(&file).expect("a test file");
                let lines: Vec<&str> = text.lines().map(str::trim).collect();
                for (i, line) in lines.iter().enumerate() {
                    if !(line.starts_with("#[ignore") || line.starts_with("ignore = \"")) {
                        continue;
                    }
                    let reason = line
                        .split_once('"')
                        .map_or("", |(_, r)| r.trim_end_matches(['"', ']', ',', '\\']));
                    let name = lines[i..]
                        .iter()
                        .find_map(|l| l.strip_prefix("fn ").or_else(|| l.strip_prefix("pub fn ")))
                        .and_then(|l| l.split('(').next())
                        .expect("an ignored test has a function");
                    let shown = format!("{}", file.strip_prefix(root()).unwrap_or(&file).display());
                    found.push((shown, name.to_string(), reason.to_string()));
                }
            }
        }
        found
    }

    #[test]
    fn every_ignored_test_needs_a_tool_or_is_run_apart_by_name() {
        let ignored = ignored_tests();
        assert!(ignored.len() >= 10, "{ignored:?}");
        let apart: Vec<&str> = SOAK_TESTS
            .into_iter()
            .chain(BY_HAND.map(|(n, _)| n))
            .collect();
        for (file, name, reason) in &ignored {
            let is_apart = apart.contains(&name.as_str());
            assert!(
                reason.starts_with("needs ") || is_apart,
                "{file}: `{name}` is ignored ({reason:?}): say `needs TOOL: run by cargo xtask \
                 test` if it needs a program cargo does not build, or name it in SOAK_TESTS or \
                 BY_HAND"
            );
            assert!(
                !(reason.starts_with("needs ") && is_apart),
                "{file}: `{name}` needs a tool, yet the main run skips it"
            );
        }
        for name in apart {
            assert_eq!(
                ignored.iter().filter(|(_, n, _)| n == name).count(),
                1,
                "`{name}` is to be one ignored test: the main run skips it by that name"
            );
        }
        for name in SOAK_TESTS {
            assert!(
                ignored
                    .iter()
                    .any(|(f, n, _)| n == name && f == "tests/soak.rs"),
                "`{name}` is no test of tests/soak.rs"
            );
        }
    }

    #[test]
    fn the_soak_is_built_as_the_main_run_builds_and_runs_once() {
        let (main, soak) = (main_run_args(), soak_args());
        // The same arguments to cargo: only the test binaries' (after `--`) differ.
        let cargo = |a: &[&'static str]| -> Vec<&'static str> {
            a.iter().copied().take_while(|x| *x != "--").collect()
        };
        assert_eq!(cargo(&main), CARGO_TEST);
        assert_eq!(cargo(&soak), CARGO_TEST);
        let binaries = |a: &[&'static str]| -> Vec<&'static str> {
            a.iter().copied().skip_while(|x| *x != "--").collect()
        };
        let (main, soak) = (binaries(&main), binaries(&soak));
        assert!(main.contains(&"--include-ignored") && main.contains(&"--exact"));
        assert!(soak.contains(&"--ignored") && soak.contains(&"--exact"));
        for name in SOAK_TESTS {
            assert!(
                main.windows(2).any(|w| w == ["--skip", name]),
                "the main run skips {name}: {main:?}"
            );
            assert!(soak.contains(&name), "the soak runs {name}: {soak:?}");
        }
    }
}
