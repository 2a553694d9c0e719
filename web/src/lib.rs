//! ninety in a browser: a small façade over the real library, exported with wasm-bindgen.
//!
//! The page's workers call [`Playground`]: check a ruleset as it is typed (the language
//! server's diagnostics, quick fixes, colours, hover and completion; the rules sheet and the
//! options), play a game move by move against bots (the REPL's session), simulate it (the same
//! report and page as `ninety sim --report`, a slice at a time so the page shows progress and
//! can stop it), compare it with another ruleset on the same deals (`ninety sim A B`), or
//! judge it (`ninety judge`'s verdicts and page). Every answer is JSON text: the façade's
//! types are plain structs ([`editor`], [`table`], [`simulate`]), tested on the host like any
//! Rust.
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
use simulate::{Ask, Batch};
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

/// The shipped rulesets, as the page's examples: `[{"name", "title", "text", "variant"}]`,
/// `variant` being the start of a new variant of it ([`variant_of`]).
#[wasm_bindgen]
pub fn examples() -> String {
    #[derive(Serialize)]
    struct Example<'a> {
        name: &'a str,
        title: String,
        text: &'a str,
        variant: String,
    }
    let list: Vec<Example> = ninety::compile::SHIPPED
        .iter()
        .map(|(name, text)| {
            let title = title_of(text).unwrap_or(name).to_string();
            Example {
                name,
                variant: variant_of(name, &title),
                title,
                text,
            }
        })
        .collect();
    json(&list)
}

/// The name a ruleset's text gives itself: its `name "..."` line.
pub fn title_of(text: &str) -> Option<&str> {
    text.lines().find_map(|l| {
        l.trim_start()
            .strip_prefix("name")
            .filter(|r| r.starts_with([' ', '\t']))
            .and_then(|r| r.trim_start().strip_prefix('"'))
            .and_then(|r| r.split_once('"'))
            .map(|(name, _)| name)
    })
}

/// A new variant of the shipped ruleset `name` (titled `title`): it `extends` it, names itself,
/// and says in comments how a variant goes on. It checks clean, and plays as its parent.
pub fn variant_of(name: &str, title: &str) -> String {
    format!(
        "extends \"{name}\"\nname \"My {title}\"\n\n\
         # A variant of {title}: it plays by {title}'s rules, and the lines below change them.\n\
         # A line for a card replaces that card's rule; the rules sheet marks what changed. Try:\n\
         #   card 7: add 7 and play again\n"
    )
}

/// The playground of one worker: the ruleset being written, the game at its table, and the
/// simulation under way.
#[wasm_bindgen]
#[derive(Debug, Default)]
pub struct Playground {
    editor: Editor,
    table: Option<Table>,
    batch: Option<Batch>,
}

/// Option values from the page: a JSON object of names and values (`{"chips": "5"}`), as
/// `--set name=value` takes them; nothing for an empty text.
pub fn parse_sets(json_text: &str) -> Result<Vec<(String, String)>, String> {
    if json_text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let map: serde_json::Map<String, serde_json::Value> = serde_json::from_str(json_text)
        .map_err(|e| format!("option values are not a JSON object: {e}"))?;
    Ok(map
        .into_iter()
        .map(|(k, v)| {
            let v = match v {
                serde_json::Value::String(s) => s,
                serde_json::Value::Bool(b) => if b { "yes" } else { "no" }.to_string(),
                other => other.to_string(),
            };
            (k, v)
        })
        .collect())
}

/// The bots of a comma-separated list.
fn bot_list(bots: &str) -> Vec<String> {
    bots.split(',')
        .map(str::trim)
        .filter(|b| !b.is_empty())
        .map(str::to_string)
        .collect()
}

#[wasm_bindgen]
impl Playground {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Playground {
        install_panic_hook();
        Playground::default()
    }

    /// Checks a new text as an editor does on each change: `{"diagnostics", "sheet",
    /// "name", "tokens", "options", "parent"}`.
    pub fn check(&mut self, text: &str) -> String {
        json(&self.editor.check(text, false))
    }

    /// [`Playground::check`] with the scenarios run and the games of `ninety check`'s dry run
    /// played, as on opening or saving a file.
    pub fn check_full(&mut self, text: &str) -> String {
        json(&self.editor.check(text, true))
    }

    /// Whether the engine holds this text (hover and completion answer about the text held).
    pub fn holds(&self, text: &str) -> bool {
        self.editor.holds(text)
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

    /// A new game of the last text checked, with the option values `sets` (a JSON object):
    /// the table's first view, or `{"error"}`.
    pub fn new_game(&mut self, players: usize, bot: &str, seed: u64, sets: &str) -> String {
        if ninety::play::Player::builtin(bot).is_err() {
            return error(&format!("`{bot}` is not one of the built-in bots"));
        }
        let program = match parse_sets(sets).and_then(|s| Ok((self.editor.program_with(&s)?, s))) {
            Ok(p) => p,
            Err(e) => return error(&e),
        };
        match Table::new(program.0, players, bot, seed, &program.1) {
            Ok((t, view)) => {
                self.table = Some(t);
                json(&view)
            }
            Err(e) => error(&e),
        }
    }

    /// Plays a move the table offers (`9H`, `AS:11`, `draw`, or empty for "do not draw");
    /// any other line is refused, the game unchanged.
    pub fn play(&mut self, send: &str) -> String {
        match &mut self.table {
            Some(t) => json(&t.play(send)),
            None => error("no game: start one first"),
        }
    }

    /// Starts a simulation of the last text checked, to be played by [`Playground::run_step`]:
    /// `{"played", "games", "done"}` or `{"error"}`. `bots` is a comma-separated list of
    /// built-in bots; `players` 0 means the ruleset's default; `sets` the option values (a
    /// JSON object); `against`, when not empty, the shipped ruleset to compare with on the
    /// same deals (A, the text being B); `file` the name the report's command gives the text.
    #[allow(clippy::too_many_arguments)]
    pub fn run_start(
        &mut self,
        games: u64,
        players: usize,
        bots: &str,
        seed: u64,
        sets: &str,
        against: &str,
        file: &str,
    ) -> String {
        self.batch = None;
        let start = || -> Result<Batch, String> {
            let sets = parse_sets(sets)?;
            let program = self.editor.program_with(&sets)?;
            let against = if against.is_empty() {
                None
            } else {
                Some(simulate::shipped(against, &sets)?)
            };
            let ask = Ask {
                games,
                players: (players > 0).then_some(players),
                bots: bot_list(bots),
                seed,
                sets,
                file: file.to_string(),
            };
            Batch::new(&program, against, &ask)
        };
        match start() {
            Ok(b) => {
                let progress = b.progress();
                self.batch = Some(b);
                json(&progress)
            }
            Err(e) => error(&e),
        }
    }

    /// Plays the next slice of the simulation started: `{"played", "games", "done"}`.
    pub fn run_step(&mut self) -> String {
        match &mut self.batch {
            Some(b) => match b.step() {
                Ok(p) => json(&p),
                Err(e) => {
                    self.batch = None;
                    error(&e)
                }
            },
            None => error("no simulation under way"),
        }
    }

    /// The report of what the simulation played (all of it, or up to where it was stopped):
    /// `{"games", "asked", "text", "html"}`; the simulation ends.
    pub fn run_report(&mut self) -> String {
        match self.batch.take() {
            Some(b) => json(&b.report()),
            None => error("no simulation under way"),
        }
    }

    /// Judges the last text checked as `ninety judge` does, `bot` in every seat: `{"games",
    /// "text", "html"}` or `{"error"}`. With `by` (`players=2..5`, or an option and its values,
    /// `chips=1..6`), at each count or value side by side, as `--players A..B` and `--sweep`.
    #[allow(clippy::too_many_arguments)]
    pub fn judge(
        &self,
        games: u64,
        players: usize,
        bot: &str,
        seed: u64,
        sets: &str,
        file: &str,
        by: &str,
    ) -> String {
        let run = || -> Result<simulate::Run, String> {
            let sets = parse_sets(sets)?;
            let program = self.editor.program_with(&sets)?;
            let ask = Ask {
                games,
                players: (players > 0).then_some(players),
                bots: Vec::new(),
                seed,
                sets,
                file: file.to_string(),
            };
            if !by.trim().is_empty() {
                return self.editor.judge_by(by, bot, &ask);
            }
            simulate::judge_run(&program, bot, &ask)
        };
        match run() {
            Ok(r) => json(&r),
            Err(e) => error(&e),
        }
    }

    /// For the page's tests only: a panic inside the engine's module, to see the page recover.
    pub fn panic_for_test(&self) {
        panic!("a panic asked for by the page's test hook");
    }
}
