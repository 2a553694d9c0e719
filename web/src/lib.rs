//! ninety in a browser: a small façade over the real library, exported with wasm-bindgen.
//!
//! The page's workers call [`Playground`]: check a ruleset as it is typed (the language
//! server's diagnostics, quick fixes, colours, hover and completion; the rules sheet), play a
//! game move by move against bots (the REPL's session), and simulate (the same report and page
//! as `ninety sim --report`) or judge it (`ninety judge`'s verdicts and page). Every answer is JSON text: the façade's types are plain structs
//! ([`editor`], [`table`], [`simulate`]), tested on the host like any Rust.
//!
//! A panic is a bug in ninety, never an answer: in wasm32 it aborts the module (every later
//! call would trap), so the hook installed by [`Playground::new`] hands its message to the
//! worker's `ninetyPanic` first, and the page starts a new worker.

pub mod editor;
pub mod simulate;
pub mod table;

use serde::Serialize;
use wasm_bindgen::prelude::*;

use editor::Editor;
use table::Table;

#[cfg(target_family = "wasm")]
#[wasm_bindgen]
extern "C" {
    /// The worker's function that posts a panic's message to the page.
    #[wasm_bindgen(js_name = ninetyPanic)]
    fn ninety_panic(message: &str);
}

/// Sends every panic's message to the worker before the module aborts.
fn install_panic_hook() {
    #[cfg(target_family = "wasm")]
    std::panic::set_hook(Box::new(|info| ninety_panic(&info.to_string())));
}

fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| {
        serde_json::json!({ "error": format!("cannot write the answer: {e}") }).to_string()
    })
}

fn error(message: &str) -> String {
    serde_json::json!({ "error": message }).to_string()
}

/// The shipped rulesets, as the page's examples: `[{"name", "text"}]`.
#[wasm_bindgen]
pub fn examples() -> String {
    #[derive(Serialize)]
    struct Example<'a> {
        name: &'a str,
        text: &'a str,
    }
    let list: Vec<Example> = ninety::compile::SHIPPED
        .iter()
        .map(|(name, text)| Example { name, text })
        .collect();
    json(&list)
}

/// The playground of one worker: the ruleset being written and the game at its table.
#[wasm_bindgen]
#[derive(Debug, Default)]
pub struct Playground {
    editor: Editor,
    table: Option<Table>,
}

#[wasm_bindgen]
impl Playground {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Playground {
        install_panic_hook();
        Playground::default()
    }

    /// Checks a new text as an editor does on each change: `{"diagnostics", "sheet",
    /// "name", "tokens"}`.
    pub fn check(&mut self, text: &str) -> String {
        json(&self.editor.check(text, false))
    }

    /// [`Playground::check`] with the scenarios run and the games of `ninety check`'s dry run
    /// played, as on opening or saving a file.
    pub fn check_full(&mut self, text: &str) -> String {
        json(&self.editor.check(text, true))
    }

    /// The hover at a place (0-based line, UTF-16 column): `{"markdown", "from", "to"}` or
    /// `null`.
    pub fn hover(&self, line: u32, character: u32) -> String {
        json(&self.editor.hover(line, character))
    }

    /// The completions at a place: `[{"label", "detail", "from", "to", "text"}]`.
    pub fn complete(&self, line: u32, character: u32) -> String {
        json(&self.editor.complete(line, character))
    }

    /// A new game of the last text checked: the table's first view, or `{"error"}`.
    pub fn new_game(&mut self, players: usize, bot: &str, seed: u64) -> String {
        let Some(program) = self.editor.program().cloned() else {
            return error("the ruleset has errors: mend them to play it");
        };
        if ninety::play::Player::builtin(bot).is_err() {
            return error(&format!("`{bot}` is not one of the built-in bots"));
        }
        match Table::new(program, players, bot, seed) {
            Ok((t, view)) => {
                self.table = Some(t);
                json(&view)
            }
            Err(e) => error(&e),
        }
    }

    /// Plays a move of the game (`9H`, `AS:11`, `draw`, or empty for "do not draw").
    pub fn play(&mut self, send: &str) -> String {
        match &mut self.table {
            Some(t) => json(&t.play(send)),
            None => error("no game: start one first"),
        }
    }

    /// Simulates the last text checked: `{"games", "text", "html"}` or `{"error"}`. `bots`
    /// is a comma-separated list of built-in bots; `players` 0 means the ruleset's default.
    pub fn simulate(&self, games: u64, players: usize, bots: &str, seed: u64) -> String {
        let Some(program) = self.editor.program() else {
            return error("the ruleset has errors: mend them to simulate it");
        };
        let names: Vec<String> = bots
            .split(',')
            .map(str::trim)
            .filter(|b| !b.is_empty())
            .map(str::to_string)
            .collect();
        if let Some(bad) = names
            .iter()
            .find(|n| ninety::play::Player::builtin(n).is_err())
        {
            return error(&format!("`{bad}` is not one of the built-in bots"));
        }
        let players = (players > 0).then_some(players);
        match simulate::simulate(program, games, players, &names, seed) {
            Ok(run) => json(&run),
            Err(e) => error(&e),
        }
    }

    /// Judges the last text checked as `ninety judge` does, `bot` in every seat: `{"games",
    /// "text", "html"}` or `{"error"}`.
    pub fn judge(&self, games: u64, players: usize, bot: &str, seed: u64) -> String {
        let Some(program) = self.editor.program() else {
            return error("the ruleset has errors: mend them to judge it");
        };
        if ninety::play::Player::builtin(bot).is_err() {
            return error(&format!("`{bot}` is not one of the built-in bots"));
        }
        let players = (players > 0).then_some(players);
        match simulate::judge_run(program, games, players, bot, seed) {
            Ok(run) => json(&run),
            Err(e) => error(&e),
        }
    }

    /// For the page's tests only: a panic inside the engine's module, to see the page recover.
    pub fn panic_for_test(&self) {
        panic!("a panic asked for by the page's test hook");
    }
}
