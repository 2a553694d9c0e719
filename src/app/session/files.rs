//! Saving and loading a game, and reading an edited ruleset again.

use crate::play::Ruleset;
use std::path::{Path, PathBuf};

use super::save::{self, Header, Loaded};
use super::{Reply, Session, Waiting};
use crate::app::atomic::write_atomically;
use crate::base::Rng;
use crate::base::cards::rank_of;
use crate::base::limits::{
    LOG_LINE_CHARS, LOG_LINES, SAVE_BYTES, SAVE_SETS, SEAT_NAME_CHARS, grouped,
};
use crate::base::text::{clip, is_unsafe, paint_key};
use crate::compile::{self, Loader, read_capped};
use crate::ir::{NO_EFFECT, Program};
use crate::play::Bot;

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
        let text = match self.save_file(path) {
            Ok(text) => text,
            Err(why) => format!("{why}. The game goes on.\n"),
        };
        Reply { text, quit: false }
    }

    /// The answer to "save the game before leaving?": a file name saves it there; Enter,
    /// Ctrl-C or Ctrl-D (`None`) leaves it unsaved, and says so. What to say, and whether to
    /// ask again (the save failed: another name may do).
    pub fn save_on_leaving(&mut self, answer: Option<&str>) -> (String, bool) {
        let name = answer.map_or("", str::trim);
        // A yes or a no answers the question; it is not a file's name.
        match name.to_ascii_lowercase().as_str() {
            "" | "n" | "no" => return ("The game was not saved.\n".to_string(), false),
            "y" | "yes" => {
                return (
                    "Type the file's name (`game.json`), or press Enter to leave without saving.\n"
                        .to_string(),
                    true,
                );
            }
            _ => {}
        }
        match self.save_file(name) {
            Ok(text) => (text, false),
            Err(why) => (
                format!(
                    "{why}.\nType another file name, or press Enter to leave without saving.\n"
                ),
                true,
            ),
        }
    }

    /// Saves the game to `path`: what to say, or why it could not be saved.
    fn save_file(&mut self, path: &str) -> Result<String, String> {
        let from = self.log.len().saturating_sub(LOG_LINES);
        let (ruleset, beside) = ruleset_from(path, &self.ruleset);
        let header = Header {
            ruleset,
            ruleset_name: self.program.name.clone(),
            ruleset_hash: hash(&self.program),
            sets: self.sets.clone(),
            seed: self.seed,
            seats: self.seats.clone(),
            // The last lines of the history, each as long as a saved line may be.
            log: self.log[from..]
                .iter()
                .map(|l| clip(l, LOG_LINE_CHARS).into_owned())
                .collect(),
        };
        let json = save::write(&header, &self.state).map_err(|e| format!("Could not save: {e}"))?;
        write_atomically(Path::new(path), json.as_bytes(), "a save")
            .map_err(|e| format!("Could not save to {path}: {e}"))?;
        self.unsaved = false;
        let note = if beside {
            String::new()
        } else {
            format!(
                "It names its ruleset `{}`, which is not in the save's folder: to load it, keep the save in the ruleset's folder (or a folder above it).\n",
                clip(&self.ruleset, 80)
            )
        };
        Ok(format!("Saved to {path}.\n{note}"))
    }

    pub(super) fn load(&mut self, loader: &dyn Loader, path: &str) -> Reply {
        let refuse = |why: String| Reply {
            text: format!("Cannot load {path}: {why}. The game goes on.\n"),
            quit: false,
        };
        let (file, program, ruleset, notes) = match read_save(loader, path) {
            Ok(loaded) => loaded,
            Err(why) => return refuse(why),
        };
        self.program = program;
        self.ruleset = ruleset;
        self.sets = file.header.sets;
        self.seed = file.header.seed;
        self.seats = file.header.seats;
        self.state = file.state;
        self.log = file.header.log;
        self.undo.clear();
        self.waiting = Waiting::Nothing;
        self.unsaved = false;
        self.players.clear();
        self.restart_clocks();
        let mut text = format!("Loaded {path}.\n{notes}");
        text.push_str(&self.advance());
        Reply { text, quit: false }
    }

    /// A saved game to play on (`ninety play --load FILE`), checked whole as `load` checks
    /// it; the text is the welcome and the turn it stopped at.
    pub fn resume(
        loader: &dyn Loader,
        path: &str,
        color: bool,
    ) -> Result<(Session, String), String> {
        let (file, program, ruleset, notes) =
            read_save(loader, path).map_err(|why| format!("cannot load `{path}`: {why}"))?;
        let mut session = Session {
            ruleset,
            sets: file.header.sets,
            program,
            seats: file.header.seats,
            state: file.state,
            seed: file.header.seed,
            undo: Vec::new(),
            log: file.header.log,
            bot_rng: Rng::for_bots(file.header.seed),
            waiting: Waiting::Nothing,
            next_program: None,
            color,
            paint_key: if color { paint_key() } else { String::new() },
            unsaved: false,
            games: 1,
            players: Vec::new(),
            allowance: None,
        };
        session.restart_clocks();
        let p = &session.program;
        let mut text = format!("{} — loaded {path}.\n{notes}", p.name);
        text.push_str("Type a card to play it, `help` for commands, `rules` for the rules.\n");
        if color {
            text.push_str(super::SUITS_TYPED);
        }
        text.push_str(&session.advance());
        Ok((session, text))
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
        let fits = self.state.validate(&program).is_ok()
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
            self.program = Ruleset::new(program);
            self.restart_clocks();
            self.undo.clear();
            let mut text = String::from("Reloaded: the game goes on under the new rules.\n");
            text.push_str(&self.advance());
            Reply { text, quit: false }
        } else {
            self.next_program = Some(Ruleset::new(program));
            Reply {
                text: "Reloaded, but the new rules do not fit this game (another deck or table): type `new` to start a new game under them.\n".into(),
                quit: false,
            }
        }
    }
}

/// The name a save gives its ruleset: a shipped ruleset's name, or the file's path from the
/// save's folder; and whether the file is in that folder's tree (else the save cannot be
/// loaded where it is, and the path is kept as it was given).
fn ruleset_from(save: &str, ruleset: &str) -> (String, bool) {
    if compile::shipped(ruleset).is_some() && !ruleset.contains(['/', '\\']) {
        return (ruleset.to_string(), true);
    }
    let absolute = |p: &Path| -> Option<PathBuf> {
        let p = if p.is_absolute() {
            p.to_path_buf()
        } else {
            std::env::current_dir().ok()?.join(p)
        };
        compile::normalize(&p)
    };
    let folder = Path::new(save).parent().unwrap_or(Path::new(""));
    match (absolute(folder), absolute(Path::new(ruleset))) {
        (Some(dir), Some(file)) => match file.strip_prefix(&dir) {
            Ok(rel) if !rel.as_os_str().is_empty() => (rel.display().to_string(), true),
            _ => (ruleset.to_string(), false),
        },
        _ => (ruleset.to_string(), false),
    }
}

/// Reads and checks a saved game as a whole before anything of it is used: the file (at
/// most [`SAVE_BYTES`], a regular file), its fields, its ruleset (a shipped name, or a
/// `.rules` file in the save's folder tree, which must check and be the one it was saved
/// under), its seats (built-in bots only: a bot written in a script is replaced, never run
/// from a save) and its state (every invariant of the engine). The ruleset's path to read it
/// by, and notes for the player; or why it is refused.
fn read_save(loader: &dyn Loader, path: &str) -> Result<(Loaded, Ruleset, String, String), String> {
    let bytes = read_capped(Path::new(path), SAVE_BYTES).map_err(|e| e.to_string())?;
    let mut file = save::read(&bytes)?;
    check_fields(&file.header)?;
    let ruleset = saved_ruleset(path, &file.header.ruleset)?;
    let program = saved_program(loader, &file.header, &ruleset)?;
    let notes = check_seats(&mut file.header)?;
    if file.header.seats.len() != usize::from(file.state.seats) {
        return Err("the file is corrupt (its seats do not match)".into());
    }
    file.state
        .validate(&program)
        .map_err(|e| format!("the file is corrupt ({e})"))?;
    Ok((file, program, ruleset, notes))
}

/// Where a save's ruleset is read from: a shipped ruleset by its name, or a `.rules` file
/// in the save's own folder tree, by a path from that folder. Anything else is refused
/// before the disk is asked about it, so a refusal never tells whether a file elsewhere
/// exists.
fn saved_ruleset(save: &str, name: &str) -> Result<String, String> {
    let shipped = !name.contains(['/', '\\']) && compile::shipped(name).is_some();
    if shipped {
        return Ok(name.to_string());
    }
    let clipped = clip(name, 80);
    if !name.ends_with(".rules") {
        return Err(format!(
            "its ruleset `{clipped}` is neither a shipped ruleset nor a `.rules` file"
        ));
    }
    let outside = || {
        format!(
            "its ruleset `{clipped}` is not in the save's folder (a save names a shipped ruleset, or a `.rules` file by its path from the save's folder)"
        )
    };
    let named = Path::new(name);
    if named.has_root() || named.is_absolute() || name.contains(':') {
        return Err(outside());
    }
    let folder = Path::new(save)
        .parent()
        .map_or_else(String::new, |d| d.display().to_string());
    let file = Path::new(&folder).join(named).display().to_string();
    if !compile::Disk.inside(&folder, &file) {
        return Err(outside());
    }
    Ok(file)
}

/// The sizes of a save's own fields: option values, history, names.
fn check_fields(file: &Header) -> Result<(), String> {
    if file.sets.len() > SAVE_SETS || file.sets.iter().any(|(n, v)| n.len() > 64 || v.len() > 64) {
        return Err("the file is corrupt (its option values)".into());
    }
    if file.log.len() > LOG_LINES || file.log.iter().any(|l| l.chars().count() > LOG_LINE_CHARS) {
        return Err(format!(
            "its history is longer than a saved game's ({} lines of at most {} characters)",
            grouped(LOG_LINES as u64),
            grouped(LOG_LINE_CHARS as u64)
        ));
    }
    Ok(())
}

/// The ruleset a save was played under (`name`, from [`saved_ruleset`]), which must check,
/// and be the same rules (name and text) as when the game was saved. Its diagnostics are
/// not quoted: the file named may be anything.
fn saved_program(loader: &dyn Loader, file: &Header, name: &str) -> Result<Ruleset, String> {
    let checked = compile::check(loader, name, &file.sets).map_err(|e| {
        format!(
            "its ruleset `{}` cannot be read: {}",
            clip(&file.ruleset, 80),
            clip(&e.reason, 200)
        )
    })?;
    // A value the save gives an option that the ruleset does not allow is the save's fault.
    if let Some(why) = crate::app::load::set_errors(&checked.diags) {
        return Err(format!(
            "its option values do not fit its ruleset `{}`: {}",
            clip(name, 80),
            clip(&why.replace("`--set ", "`"), 200)
        ));
    }
    let Some(program) = checked.program else {
        return Err(format!(
            "its ruleset `{}` does not check ({} errors): check it with `ninety check`",
            clip(name, 80),
            checked.errors()
        ));
    };
    if program.name != file.ruleset_name || hash(&program) != file.ruleset_hash {
        return Err(format!(
            "it was played under another ruleset (or another version of `{}`); load it with the same rules",
            clip(name, 80)
        ));
    }
    Ok(Ruleset::new(program))
}

/// Seats: names a terminal can show, and built-in bots. A bot written in a script is
/// played by the cautious bot instead (a save never runs a script it names).
fn check_seats(file: &mut Header) -> Result<String, String> {
    let mut notes = String::new();
    for seat in &mut file.seats {
        let n = seat.name.chars().count();
        if n == 0 || n > SEAT_NAME_CHARS || seat.name.chars().any(is_unsafe) {
            return Err(format!(
                "a seat's name is not a name (1 to {SEAT_NAME_CHARS} printable characters)"
            ));
        }
        match seat.bot.as_deref() {
            None => {}
            Some(b) if Bot::from_name(b).is_some() => {}
            Some(b) if b.starts_with("script:") => {
                notes.push_str(&format!(
                    "{} was played by a script; a saved game runs no script, so the cautious bot plays it now.\n",
                    seat.name
                ));
                seat.bot = Some("cautious".into());
            }
            Some(b) => {
                return Err(format!(
                    "{} is played by `{}`, which is no built-in bot",
                    seat.name,
                    clip(b, 40)
                ));
            }
        }
    }
    Ok(notes)
}
