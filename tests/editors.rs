//! The editor support files: the VS Code extension's TextMate grammar highlights every line of
//! every shipped ruleset, checked by `editors/vscode/test/scopes.mjs` with the tokenizer VS Code
//! itself uses (vscode-textmate on vscode-oniguruma), and the extension maps the server's semantic
//! tokens, word for word its legend. The grammar test needs Node.js, so a plain `cargo test`
//! ignores it (`cargo xtask test` runs it); it installs the script's npm packages (`npm ci`)
//! when `editors/vscode/node_modules` is missing.

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
#[ignore = "needs node and npm: run by cargo xtask test"]
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

/// The extension colours exactly what the server sends: `semanticTokenScopes` in its
/// `package.json` maps every token type of the server's legend (given in `initialize`) to a
/// TextMate scope, and names no type or modifier the legend does not have; semantic
/// highlighting is on for rulesets whatever the theme; and the extension has its README.
#[test]
fn the_extension_maps_exactly_the_servers_semantic_tokens() {
    use serde_json::Value;
    use std::collections::BTreeSet;

    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text =
        std::fs::read_to_string(root.join("editors/vscode/package.json")).expect("package.json");
    let package: Value = serde_json::from_str(&text).expect("package.json is JSON");
    let capabilities =
        serde_json::to_value(ninety::app::lsp::server::capabilities()).expect("JSON");
    let legend = &capabilities["semanticTokensProvider"]["legend"];
    let names = |v: &Value| -> BTreeSet<String> {
        v.as_array()
            .expect("a list")
            .iter()
            .map(|t| t.as_str().expect("a name").to_string())
            .collect()
    };
    let types = names(&legend["tokenTypes"]);
    let modifiers = names(&legend["tokenModifiers"]);
    assert!(
        types.contains("keyword") && types.contains("comment"),
        "{legend:#}"
    );

    let entries = package["contributes"]["semanticTokenScopes"]
        .as_array()
        .expect("contributes.semanticTokenScopes");
    let ours: Vec<&Value> = entries
        .iter()
        .filter(|e| e["language"] == "ninety")
        .collect();
    assert_eq!(ours.len(), 1, "{entries:#?}");
    let scopes = ours[0]["scopes"].as_object().expect("scopes");
    let mut mapped = BTreeSet::new();
    for (key, value) in scopes {
        let mut parts = key.split('.');
        let ty = parts.next().unwrap_or("");
        assert!(
            types.contains(ty),
            "`{key}`: the server sends no type `{ty}` ({types:?})"
        );
        for m in parts {
            assert!(
                modifiers.contains(m),
                "`{key}`: the server sends no modifier `{m}`"
            );
        }
        let list = value.as_array().expect("a list of scopes");
        assert!(!list.is_empty(), "`{key}` maps to no scope");
        for scope in list {
            let scope = scope.as_str().expect("a scope");
            assert!(scope.ends_with(".ninety"), "`{key}`: {scope}");
        }
        mapped.insert(ty.to_string());
    }
    assert_eq!(mapped, types, "every token type of the legend has a scope");
    assert_eq!(
        package["contributes"]["configurationDefaults"]["[ninety]"]["editor.semanticHighlighting.enabled"],
        Value::Bool(true)
    );
    let readme = std::fs::read_to_string(root.join("editors/vscode/README.md"))
        .expect("editors/vscode/README.md");
    for said in [
        "ninety.server.path",
        "cargo install --locked --path .",
        "Run this scenario",
    ] {
        assert!(
            readme.contains(said),
            "the extension's README does not say `{said}`"
        );
    }
}
