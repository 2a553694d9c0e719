//! The editor support files: the VS Code extension's TextMate grammar highlights every line of
//! every shipped ruleset, checked by `editors/vscode/test/scopes.mjs` with the tokenizer VS Code
//! itself uses (vscode-textmate on vscode-oniguruma). The test needs Node.js; it installs the
//! script's npm packages (`npm ci`) when `editors/vscode/node_modules` is missing.

use std::io::ErrorKind;
use std::path::Path;
use std::process::{Command, Output};

const INSTALL_NODE: &str = "install Node.js 18 or later (https://nodejs.org/en/download, or your \
     package manager: `apt install nodejs npm`, `brew install node`), which brings `node` and \
     `npm`, then run the tests again";

/// Runs a program, failing the test with a clear message when it is not installed.
fn run(command: &mut Command, what: &str) -> Output {
    match command.output() {
        Ok(output) => output,
        Err(e) if e.kind() == ErrorKind::NotFound => panic!(
            "`{what}` was not found: the editor tests need Node.js. To run them, {INSTALL_NODE}."
        ),
        Err(e) => panic!("could not run `{what}`: {e}"),
    }
}

fn text(output: &Output) -> String {
    format!(
        "--- stdout\n{}--- stderr\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

#[test]
fn the_textmate_grammar_highlights_every_line_of_every_shipped_ruleset() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let extension = root.join("editors/vscode");

    let node = run(Command::new("node").arg("--version"), "node");
    assert!(
        node.status.success(),
        "`node --version` failed:\n{}",
        text(&node)
    );

    if !extension.join("node_modules").is_dir() {
        let npm = if cfg!(windows) { "npm.cmd" } else { "npm" };
        let install = run(
            Command::new(npm)
                .args(["ci", "--no-audit", "--no-fund"])
                .current_dir(&extension),
            "npm",
        );
        assert!(
            install.status.success(),
            "`npm ci` in editors/vscode failed (it needs the npm registry, or a cache):\n{}",
            text(&install)
        );
    }

    let check = run(
        Command::new("node")
            .arg("editors/vscode/test/scopes.mjs")
            .current_dir(root),
        "node",
    );
    assert!(
        check.status.success(),
        "`node editors/vscode/test/scopes.mjs` failed: some lines are not highlighted by \
         editors/vscode/syntaxes/ninety.tmLanguage.json\n{}",
        text(&check)
    );
}
