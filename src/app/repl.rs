//! The terminal loop only: rustyline with history, hints, completion and the one-key
//! commands of the interactive 33/66/99 game (N33-14). Everything a line does is
//! [`Session::handle`]; when standard input is not a terminal, lines are read plainly.

use std::borrow::Cow;
use std::cell::RefCell;
use std::io::{BufRead, IsTerminal, Write};
use std::rc::Rc;
use std::sync::{Arc, Mutex};

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

/// On an empty line, Space, `c` and `s` act at once (N33-14): the key is remembered and the
/// empty line accepted.
struct OneKey {
    key: char,
    pressed: Arc<Mutex<Option<char>>>,
}

impl ConditionalEventHandler for OneKey {
    fn handle(&self, _: &Event, _: RepeatCount, _: bool, ctx: &EventContext) -> Option<Cmd> {
        if ctx.line().is_empty() {
            if let Ok(mut k) = self.pressed.lock() {
                *k = Some(self.key);
            }
            Some(Cmd::AcceptLine)
        } else {
            None
        }
    }
}

fn history_path() -> Option<std::path::PathBuf> {
    let home = std::env::var_os("NINETY_HOME").or_else(|| std::env::var_os("HOME"))?;
    Some(std::path::PathBuf::from(home).join(".ninety_history"))
}

/// Runs the session until `quit`, end of input or Ctrl-D.
pub fn run(loader: &dyn Loader, mut session: Session, welcome: &str) -> std::io::Result<()> {
    let mut out = std::io::stdout();
    write!(out, "{welcome}")?;
    if !std::io::stdin().is_terminal() {
        // Scripted: the same commands, line by line, plain output.
        for line in std::io::stdin().lock().lines() {
            let reply = session.handle(loader, &line?);
            write!(out, "{}", reply.text)?;
            if reply.quit {
                break;
            }
        }
        return Ok(());
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
    let pressed = Arc::new(Mutex::new(None));
    for key in [' ', 'c', 's'] {
        rl.bind_sequence(
            KeyEvent::from(key),
            EventHandler::Conditional(Box::new(OneKey {
                key,
                pressed: pressed.clone(),
            })),
        );
    }
    let history = history_path();
    if let Some(h) = &history {
        let _ = rl.load_history(h);
    }
    loop {
        {
            let mut w = words.borrow_mut();
            w.clear();
            w.extend(Session::COMMANDS.iter().map(|c| (*c).to_string()));
            w.extend(session.completions());
        }
        match rl.readline(&session.prompt()) {
            Ok(line) => {
                let key = pressed.lock().ok().and_then(|mut k| k.take());
                let line = match (key, line.is_empty()) {
                    (Some(' '), true) => " ".to_string(),
                    (Some('c'), true) => "c".to_string(),
                    (Some('s'), true) => "s".to_string(),
                    _ => line,
                };
                if !line.trim().is_empty() {
                    let _ = rl.add_history_entry(line.as_str());
                }
                let reply = session.handle(loader, &line);
                write!(out, "{}", reply.text)?;
                if reply.quit {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => {
                // Ctrl-C clears the line.
                continue;
            }
            Err(ReadlineError::Eof) => {
                if session.unsaved && !session.state.over {
                    writeln!(
                        out,
                        "Save the game before leaving? Type a file name, or press Enter to leave without saving."
                    )?;
                    if let Ok(name) = rl.readline("save as > ") {
                        let name = name.trim();
                        if !name.is_empty() {
                            let reply = session.handle(loader, &format!("save {name}"));
                            write!(out, "{}", reply.text)?;
                        }
                    }
                }
                break;
            }
            Err(e) => return Err(std::io::Error::other(e)),
        }
    }
    if let Some(h) = &history {
        let _ = rl.save_history(h);
    }
    writeln!(out, "Goodbye.")?;
    Ok(())
}
