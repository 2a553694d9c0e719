//! Saving and loading a game, and reading an edited ruleset again.

use serde::{Deserialize, Serialize};

use super::{Reply, Seat, Session, Waiting};
use crate::base::cards::rank_of;
use crate::compile::{self, Loader};
use crate::engine::State;
use crate::ir::{NO_EFFECT, Program};

/// The format version of save files.
pub const SAVE_VERSION: u32 = 1;

#[derive(Debug, Serialize, Deserialize)]
struct SaveFile {
    format: String,
    version: u32,
    ruleset: String,
    ruleset_name: String,
    ruleset_hash: String,
    sets: Vec<(String, String)>,
    seed: u64,
    seats: Vec<Seat>,
    state: State,
    log: Vec<String>,
}

/// FNV-1a over the ruleset's files: a save file remembers which rules it was played under.
fn hash(p: &Program) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for text in &p.sources {
        for b in text.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

impl Session {
    pub(super) fn save(&mut self, path: &str) -> Reply {
        let file = SaveFile {
            format: "ninety-save".into(),
            version: SAVE_VERSION,
            ruleset: self.ruleset.clone(),
            ruleset_name: self.program.name.clone(),
            ruleset_hash: hash(&self.program),
            sets: self.sets.clone(),
            seed: self.seed,
            seats: self.seats.clone(),
            state: self.state.clone(),
            log: self.log.clone(),
        };
        let json = match serde_json::to_string_pretty(&file) {
            Ok(j) => j,
            Err(e) => {
                return Reply {
                    text: format!("Could not save: {e}.\n"),
                    quit: false,
                };
            }
        };
        // Write beside the target, then rename: a crash never leaves half a save.
        let tmp = format!("{path}.tmp-{}", std::process::id());
        let result = std::fs::write(&tmp, json).and_then(|()| std::fs::rename(&tmp, path));
        match result {
            Ok(()) => {
                self.unsaved = false;
                Reply {
                    text: format!("Saved to {path}.\n"),
                    quit: false,
                }
            }
            Err(e) => {
                let _ = std::fs::remove_file(&tmp);
                Reply {
                    text: format!("Could not save to {path}: {e}. The game goes on.\n"),
                    quit: false,
                }
            }
        }
    }

    pub(super) fn load(&mut self, loader: &dyn Loader, path: &str) -> Reply {
        let refuse = |why: String| Reply {
            text: format!("Cannot load {path}: {why}. The game goes on.\n"),
            quit: false,
        };
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => return refuse(e.to_string()),
        };
        let file: SaveFile = match serde_json::from_str(&text) {
            Ok(f) => f,
            Err(e) if e.is_eof() => return refuse("the file is truncated".into()),
            Err(e) => {
                return refuse(format!(
                    "the file is not a saved game, or it is corrupt ({e})"
                ));
            }
        };
        if file.format != "ninety-save" {
            return refuse("the file is not a ninety saved game".into());
        }
        if file.version != SAVE_VERSION {
            return refuse(format!(
                "it was saved by another version of ninety (save format {}, this one reads {SAVE_VERSION})",
                file.version
            ));
        }
        let program = match super::super::load::load_program(loader, &file.ruleset, &file.sets) {
            Ok(p) => p,
            Err(e) => return refuse(format!("its ruleset `{}` does not load: {e}", file.ruleset)),
        };
        if program.name != file.ruleset_name || hash(&program) != file.ruleset_hash {
            return refuse(format!(
                "it was played under another ruleset (or another version of `{}`); load it with the same rules",
                file.ruleset
            ));
        }
        let st = &file.state;
        let n = usize::from(st.seats);
        if n != file.seats.len()
            || n < usize::from(program.min_players)
            || n > usize::from(program.max_players)
            || usize::from(st.turn) >= n
        {
            return refuse("the file is corrupt (its seats do not match)".into());
        }
        if let Err(e) = st.check_invariants(&program) {
            return refuse(format!("the file is corrupt ({e})"));
        }
        self.program = program;
        self.ruleset = file.ruleset;
        self.sets = file.sets;
        self.seed = file.seed;
        self.seats = file.seats;
        self.state = file.state;
        self.log = file.log;
        self.undo.clear();
        self.waiting = Waiting::Nothing;
        self.unsaved = false;
        let mut text = format!("Loaded {path}.\n");
        text.push_str(&self.advance());
        Reply { text, quit: false }
    }

    pub(super) fn reload(&mut self, loader: &dyn Loader) -> Reply {
        let checked = match compile::check(loader, &self.ruleset, &self.sets) {
            Ok(c) => c,
            Err(e) => {
                return Reply {
                    text: format!("Cannot reload: {e}. The game goes on under the old rules.\n"),
                    quit: false,
                };
            }
        };
        let Some(program) = checked.program else {
            let diags: Vec<String> = checked
                .diags
                .iter()
                .filter(|d| d.is_error())
                .map(|d| d.render_plain(90))
                .collect();
            return Reply {
                text: format!(
                    "{}\nThe ruleset no longer checks; the game goes on under the old rules.\n",
                    diags.join("\n")
                ),
                quit: false,
            };
        };
        let fits = usize::from(self.state.seats) >= usize::from(program.min_players)
            && usize::from(self.state.seats) <= usize::from(program.max_players)
            && self.state.check_invariants(&program).is_ok()
            && self
                .state
                .hands
                .iter()
                .take(usize::from(self.state.seats))
                .all(|h| {
                    h.cards().iter().all(|c| {
                        program.rank_fx[usize::from(program.min_players)][usize::from(rank_of(*c))]
                            != NO_EFFECT
                    })
                });
        if fits {
            self.program = program;
            self.undo.clear();
            let mut text = String::from("Reloaded: the game goes on under the new rules.\n");
            text.push_str(&self.advance());
            Reply { text, quit: false }
        } else {
            self.next_program = Some(program);
            Reply {
                text: "Reloaded, but the new rules do not fit this game (another deck or table): type `new` to start a new game under them.\n".into(),
                quit: false,
            }
        }
    }
}
