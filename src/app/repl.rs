//! The terminal loop only: rustyline with history, hints, completion, the Space key of the
//! interactive 33/66/99 game (N33-14) and a clear screen between hot-seat players. Everything a line does is
//! [`Session::handle`]; when standard input is not a terminal, lines are read plainly.

use std::borrow::Cow;
use std::cell::RefCell;
use std::io::{BufRead, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::{Hinter, HistoryHinter};
use rustyline::history::DefaultHistory;
use rustyline::{
    Cmd, ConditionalEventHandler, Context, Editor, Event, EventContext, EventHandler, Helper,
    KeyEvent, RepeatCount, Validator,
};

use super::session::Session;
use crate::base::limits::{INPUT_LINE_BYTES, INPUT_SKIP_BYTES, grouped};
use crate::compile::Loader;

/// Completes commands and the cards in the hand of the player to move.
#[derive(Validator)]
struct ReplHelper {
    words: Rc<RefCell<Vec<String>>>,
    hinter: HistoryHinter,
    color: bool,
}

impl Completer for ReplHelper {
    type Candidate = Pair;
    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let start = line[..pos].rfind(char::is_whitespace).map_or(0, |i| i + 1);
        let word = line[start..pos].to_ascii_lowercase();
        let words = self.words.borrow();
        let found = words
            .iter()
            .filter(|w| w.to_ascii_lowercase().starts_with(&word))
            .map(|w| Pair {
                display: w.clone(),
                replacement: w.clone(),
            })
            .collect();
        Ok((start, found))
    }
}

impl Hinter for ReplHelper {
    type Hint = String;
    fn hint(&self, line: &str, pos: usize, ctx: &Context<'_>) -> Option<String> {
        self.hinter.hint(line, pos, ctx)
    }
}

impl Highlighter for ReplHelper {
    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.color {
            Cow::Owned(format!("\x1b[2m{hint}\x1b[0m"))
        } else {
            Cow::Borrowed(hint)
        }
    }
}

impl Helper for ReplHelper {}

/// Where players draw by hand (the interactive 33/66/99 game, N33-14), Space on an empty
/// line draws at once: a word never starts with a space, so the key swallows nothing typed.
/// `c` and `s` are lines of one key, with Enter, as every command is: a key that acted at
/// once would take the first letter of `save FILE` or `scores`.
struct SpaceKey {
    /// Whether the rules of the game in play draw by hand (set before each line).
    on: Arc<AtomicBool>,
    pressed: Arc<AtomicBool>,
}

impl ConditionalEventHandler for SpaceKey {
    fn handle(&self, _: &Event, _: RepeatCount, _: bool, ctx: &EventContext) -> Option<Cmd> {
        if self.on.load(Ordering::Relaxed) && ctx.line().is_empty() {
            self.pressed.store(true, Ordering::Relaxed);
            Some(Cmd::AcceptLine)
        } else {
            None
        }
    }
}

/// Ctrl-C: it clears a line being typed, as in a shell; on an empty line it is noted, so the
/// loop says how to leave (a newcomer may expect Ctrl-C to end the program).
struct CtrlC {
    on_empty: Arc<AtomicBool>,
}

impl ConditionalEventHandler for CtrlC {
    fn handle(&self, _: &Event, _: RepeatCount, _: bool, ctx: &EventContext) -> Option<Cmd> {
        self.on_empty
            .store(ctx.line().is_empty(), Ordering::Relaxed);
        Some(Cmd::Interrupt)
    }
}

/// Said on Ctrl-C at an empty line.
const HOW_TO_LEAVE: &str = "Type `quit` to leave, or press Ctrl-D.";

/// The history of lines typed: `$XDG_STATE_HOME/ninety/history`, or
/// `~/.local/state/ninety/history`. `NINETY_HOME`, for tests, stands for a home folder whose
/// state folder is its own (`$NINETY_HOME/.local/state/ninety/history`).
fn history_path() -> Option<PathBuf> {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let state = match (var("NINETY_HOME"), var("XDG_STATE_HOME")) {
        (Some(home), _) => home.join(".local").join("state"),
        // The specification ignores a relative path.
        (None, Some(state)) if state.is_absolute() => state,
        _ => var("HOME")?.join(".local").join("state"),
    };
    Some(state.join("ninety").join("history"))
}

/// The home folder of the history before it moved under the state folder.
fn home() -> Option<PathBuf> {
    let home = std::env::var_os("NINETY_HOME").or_else(|| std::env::var_os("HOME"))?;
    Some(PathBuf::from(home))
}

/// Clears the screen and what scrolled off it, so no hand stays in view (hot-seat).
const CLEAR_SCREEN: &str = "\x1b[H\x1b[2J\x1b[3J";

/// What a line of piped input gave.
enum Input {
    Line(String),
    /// Longer than [`INPUT_LINE_BYTES`]: skipped up to its end.
    TooLong,
    /// Not UTF-8.
    NotText,
    /// No end of line within [`INPUT_SKIP_BYTES`] past the cap: the input is not lines.
    Endless,
    End,
}

/// Reads one line, never more than [`INPUT_LINE_BYTES`] of it into memory.
fn read_line<R: BufRead>(r: &mut R) -> std::io::Result<Input> {
    let mut buf = Vec::new();
    let n = Read::take(&mut *r, INPUT_LINE_BYTES as u64 + 1).read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(Input::End);
    }
    if buf.last() != Some(&b'\n') && buf.len() > INPUT_LINE_BYTES {
        let mut skipped = 0usize;
        loop {
            let chunk = r.fill_buf()?;
            if chunk.is_empty() {
                return Ok(Input::TooLong);
            }
            if let Some(i) = chunk.iter().position(|b| *b == b'\n') {
                r.consume(i + 1);
                return Ok(Input::TooLong);
            }
            let len = chunk.len();
            r.consume(len);
            skipped += len;
            if skipped > INPUT_SKIP_BYTES {
                return Ok(Input::Endless);
            }
        }
    }
    while matches!(buf.last(), Some(b'\n' | b'\r')) {
        buf.pop();
    }
    Ok(String::from_utf8(buf).map_or(Input::NotText, Input::Line))
}

/// Text for the terminal: what came from files escaped, the session's own colours kept.
fn shown(session: &Session, text: &str) -> String {
    session.shown(text)
}

/// Said when a game that was not saved is left, so nothing is lost silently.
const NOT_SAVED: &str = "The game was not saved (`save FILE` keeps it).";

/// Runs the session line by line from piped input, until `quit` or its end.
fn run_piped(
    loader: &dyn Loader,
    mut session: Session,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    loop {
        let line = match read_line(&mut input)? {
            Input::Line(line) => line,
            Input::TooLong => {
                let cap = grouped(INPUT_LINE_BYTES as u64);
                writeln!(out, "That line is longer than {cap} bytes: it is ignored.")?;
                continue;
            }
            Input::NotText => {
                writeln!(out, "That line is not UTF-8 text: it is ignored.")?;
                continue;
            }
            Input::Endless => {
                // The session ends here: nothing is lost without saying so.
                if session.unsaved && !session.state.over {
                    writeln!(out, "{NOT_SAVED}")?;
                }
                return Err(std::io::Error::other(
                    "the input is not lines of text (no end of line in 16 MB)",
                ));
            }
            Input::End => break,
        };
        let reply = session.handle(loader, &line);
        write!(out, "{}", shown(&session, &reply.text))?;
        if reply.quit {
            break;
        }
    }
    if session.unsaved && !session.state.over {
        writeln!(out, "{NOT_SAVED}")?;
    }
    Ok(())
}

/// Offers to save an unfinished game before leaving, until it is saved or left unsaved.
fn offer_save(
    session: &mut Session,
    rl: &mut Editor<ReplHelper, DefaultHistory>,
    out: &mut impl Write,
) -> std::io::Result<()> {
    if !session.unsaved || session.state.over {
        return Ok(());
    }
    writeln!(
        out,
        "Save the game before leaving? Type a file name to save it, or press Enter (or no) to leave without saving."
    )?;
    loop {
        // Ctrl-C and Ctrl-D leave too, saying the game was not saved.
        let answer = rl.readline("save as > ").ok();
        let (text, again) = session.save_on_leaving(answer.as_deref());
        write!(out, "{}", shown(session, &text))?;
        if !again {
            return Ok(());
        }
    }
}

/// Runs the session until `quit`, end of input or Ctrl-D.
pub fn run(loader: &dyn Loader, mut session: Session, welcome: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout();
    write!(out, "{}", shown(&session, welcome))?;
    if !std::io::stdin().is_terminal() {
        // Scripted: the same commands, line by line, plain output.
        return run_piped(loader, session, &mut out);
    }
    let words = Rc::new(RefCell::new(Vec::new()));
    let helper = ReplHelper {
        words: words.clone(),
        hinter: HistoryHinter::new(),
        color: session.color,
    };
    let mut rl: Editor<ReplHelper, DefaultHistory> =
        Editor::new().map_err(std::io::Error::other)?;
    rl.set_helper(Some(helper));
    let on = Arc::new(AtomicBool::new(false));
    let pressed = Arc::new(AtomicBool::new(false));
    rl.bind_sequence(
        KeyEvent::from(' '),
        EventHandler::Conditional(Box::new(SpaceKey {
            on: on.clone(),
            pressed: pressed.clone(),
        })),
    );
    let ctrl_c_on_empty = Arc::new(AtomicBool::new(false));
    rl.bind_sequence(
        KeyEvent::ctrl('C'),
        EventHandler::Conditional(Box::new(CtrlC {
            on_empty: ctrl_c_on_empty.clone(),
        })),
    );
    let history = history_path();
    if let Some(h) = &history {
        // The history of an older version, kept in the home folder, until the first save.
        let old = home().map(|h| h.join(".ninety_history"));
        if rl.load_history(h).is_err()
            && let Some(old) = old
        {
            let _ = rl.load_history(&old);
        }
    }
    loop {
        on.store(session.draws_by_hand(), Ordering::Relaxed);
        pressed.store(false, Ordering::Relaxed);
        {
            let mut w = words.borrow_mut();
            w.clear();
            w.extend(Session::COMMANDS.iter().map(|c| (*c).to_string()));
            w.extend(session.completions());
        }
        match rl.readline(&session.prompt()) {
            Ok(line) if line.len() > INPUT_LINE_BYTES => {
                let cap = grouped(INPUT_LINE_BYTES as u64);
                writeln!(out, "That line is longer than {cap} bytes: it is ignored.")?;
            }
            Ok(line) => {
                let line = if line.is_empty() && pressed.load(Ordering::Relaxed) {
                    " ".to_string()
                } else {
                    line
                };
                if !line.trim().is_empty() {
                    let _ = rl.add_history_entry(line.as_str());
                }
                let reply = session.handle(loader, &line);
                if session.handing_off() {
                    // The next player is about to sit down: the hand on the screen is not
                    // theirs. What happened since stays (it is the reply).
                    write!(out, "{CLEAR_SCREEN}")?;
                }
                write!(out, "{}", shown(&session, &reply.text))?;
                if reply.quit {
                    // `quit`, `q`, `exit`: the same offer as Ctrl-D.
                    offer_save(&mut session, &mut rl, &mut out)?;
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => {
                // Ctrl-C clears the line; on an empty one it says how to leave, and does
                // nothing else.
                if ctrl_c_on_empty.swap(false, Ordering::Relaxed) {
                    writeln!(out, "{HOW_TO_LEAVE}")?;
                }
                continue;
            }
            Err(ReadlineError::Eof) => {
                offer_save(&mut session, &mut rl, &mut out)?;
                break;
            }
            Err(e) => return Err(std::io::Error::other(e)),
        }
    }
    if let Some(h) = &history {
        if let Some(dir) = h.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = rl.save_history(h);
    }
    writeln!(out, "Goodbye.")?;
    Ok(())
}
