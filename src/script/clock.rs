//! Time for scripts: a wall-clock limit on each call, and an allowance for all the calls of
//! one game (or one check of a ruleset), besides the operation limit. The operation limit is
//! what makes a script's result the same on every machine; the clock is the safety net for
//! operations that cost more than they count (sorting big arrays, checking big values).
//!
//! What a thread may still spend is kept here, by thread, owned by the host (no global or
//! thread-local state): a game runs on one thread, so its allowance is that thread's.

use std::collections::HashMap;
use std::sync::Mutex;
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use crate::base::limits::{SCRIPT_CALL_MS, SCRIPT_CHECK_MS, SCRIPT_GAME_MS};

/// Whose allowance a thread spends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// All the script calls of one game.
    Game,
    /// All the script calls while a ruleset is checked.
    Check,
}

impl Budget {
    /// The allowance of a game or a check.
    pub fn allowance(self) -> Duration {
        Duration::from_millis(match self {
            Budget::Game => SCRIPT_GAME_MS,
            Budget::Check => SCRIPT_CHECK_MS,
        })
    }
}

/// Why a call was stopped by the clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The call ran longer than [`SCRIPT_CALL_MS`].
    Call,
    /// The game's or the check's allowance ran out.
    Spent(Budget),
}

impl Stop {
    /// The code the progress callback stops a script with, and back.
    pub fn code(self) -> i64 {
        match self {
            Stop::Call => 1,
            Stop::Spent(Budget::Game) => 2,
            Stop::Spent(Budget::Check) => 3,
        }
    }

    pub fn from_code(code: i64) -> Option<Stop> {
        Some(match code {
            1 => Stop::Call,
            2 => Stop::Spent(Budget::Game),
            3 => Stop::Spent(Budget::Check),
            _ => return None,
        })
    }

    /// Why the script was stopped, in words.
    pub fn words(self) -> String {
        match self {
            Stop::Call => format!(
                "it ran longer than {SCRIPT_CALL_MS} ms and was stopped (a script call may take at most {SCRIPT_CALL_MS} ms)"
            ),
            Stop::Spent(Budget::Game) => format!(
                "the scripts of this game have run for {} s in all, the most a game may, and were stopped",
                SCRIPT_GAME_MS / 1000
            ),
            Stop::Spent(Budget::Check) => format!(
                "the scripts of this ruleset ran for {} s in all while it was checked, the most a check may, and were stopped",
                SCRIPT_CHECK_MS / 1000
            ),
        }
    }
}

/// A call under way: when it started.
#[derive(Debug, Clone, Copy)]
pub struct Started {
    at: Instant,
}

/// The deadlines of the calls running, and what each thread may still spend.
#[derive(Debug, Default)]
pub struct Clock {
    running: Mutex<HashMap<ThreadId, (Instant, Stop)>>,
    allowances: Mutex<HashMap<ThreadId, (Duration, Budget)>>,
}

impl Clock {
    /// Gives this thread an allowance for all its calls from now (a game's, a check's), or
    /// takes it away.
    pub fn allow(&self, budget: Option<Budget>) {
        if let Ok(mut a) = self.allowances.lock() {
            let me = std::thread::current().id();
            match budget {
                Some(b) => {
                    a.insert(me, (b.allowance(), b));
                }
                None => {
                    a.remove(&me);
                }
            }
        }
    }

    /// A call starts on this thread: its deadline is set, or it may not start at all.
    pub fn start(&self) -> Result<Started, Stop> {
        let me = std::thread::current().id();
        let now = Instant::now();
        let call = Duration::from_millis(SCRIPT_CALL_MS);
        let (limit, stop) = match self
            .allowances
            .lock()
            .ok()
            .and_then(|a| a.get(&me).copied())
        {
            Some((left, b)) if left.is_zero() => return Err(Stop::Spent(b)),
            Some((left, b)) if left < call => (left, Stop::Spent(b)),
            _ => (call, Stop::Call),
        };
        if let Ok(mut r) = self.running.lock() {
            r.insert(me, (now + limit, stop));
        }
        Ok(Started { at: now })
    }

    /// The call that started ends: its time is taken from the thread's allowance.
    pub fn end(&self, started: Started) {
        let me = std::thread::current().id();
        if let Ok(mut r) = self.running.lock() {
            r.remove(&me);
        }
        if let Ok(mut a) = self.allowances.lock()
            && let Some((left, _)) = a.get_mut(&me)
        {
            *left = left.saturating_sub(started.at.elapsed());
        }
    }

    /// Whether the call running on this thread is past its deadline.
    pub fn expired(&self) -> Option<Stop> {
        let me = std::thread::current().id();
        let (deadline, stop) = self.running.lock().ok()?.get(&me).copied()?;
        (Instant::now() >= deadline).then_some(stop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spent_allowance_stops_the_next_call() {
        let clock = Clock::default();
        clock.allow(Some(Budget::Game));
        let started = clock.start().expect("a call may start");
        assert_eq!(clock.expired(), None);
        clock.end(started);
        if let Ok(mut a) = clock.allowances.lock() {
            a.insert(std::thread::current().id(), (Duration::ZERO, Budget::Game));
        }
        assert_eq!(clock.start().err(), Some(Stop::Spent(Budget::Game)));
        clock.allow(None);
        assert!(clock.start().is_ok());
    }
}
