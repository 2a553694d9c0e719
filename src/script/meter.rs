//! Work for scripts, counted: the operations of each call (rhai's own, and the size of every
//! value a call reads), and an allowance for all the calls of one game (or one check of a
//! ruleset). Nothing here reads the clock to decide a result: the same calls do the same
//! work on every machine under any load, so a seed gives one game. The clock is only a guard
//! of last resort ([`SCRIPT_GUARD_MS`]): a call still running that long ends the command
//! with an error, and every later call of the host fails the same way, so no game carries on
//! to another result.
//!
//! What a thread may still spend is kept here, by thread, owned by the host (no global or
//! thread-local state): a game runs on one thread, so its allowance is that thread's.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::ThreadId;
use std::time::Duration;
// In wasm32 the standard clock panics; the guard reads the browser's (`web/`).
#[cfg(not(target_family = "wasm"))]
use std::time::Instant;
#[cfg(target_family = "wasm")]
use web_time::Instant;

use crate::base::limits::{
    SCRIPT_CHECK_OPERATIONS, SCRIPT_DRY_RUN_OPERATIONS, SCRIPT_GAME_OPERATIONS, SCRIPT_GUARD_MS,
    SCRIPT_ITEMS_AN_OPERATION, SCRIPT_OPERATIONS, grouped,
};

/// How often (in rhai's operations) a running call is weighed against its limits. A call's
/// cost is rounded up to a multiple of it: the same for the same call, on any machine.
pub const WEIGH_EVERY: u64 = 64;

/// How many weighings apart the guard looks at the clock: it is coarse by nature.
const CLOCK_EVERY: u64 = 16;

/// Whose allowance a thread spends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// All the script calls of one game (or all the scenarios of a check).
    Game,
    /// All the script calls while a ruleset is compiled.
    Check,
    /// All the script calls of all the games a check plays (its dry run): shared, so that
    /// games started meanwhile do not open their own.
    DryRun,
}

impl Budget {
    /// The allowance of a game or a check, in operations.
    pub fn allowance(self) -> u64 {
        match self {
            Budget::Game => SCRIPT_GAME_OPERATIONS,
            Budget::Check => SCRIPT_CHECK_OPERATIONS,
            Budget::DryRun => SCRIPT_DRY_RUN_OPERATIONS,
        }
    }
}

/// Why a call was stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The call did more than [`SCRIPT_OPERATIONS`].
    Operations,
    /// The game's or the check's allowance ran out.
    Spent(Budget),
    /// The guard: the machine took far longer than the work should (or an earlier call of
    /// this host met it).
    Guard,
}

impl Stop {
    /// The code the callbacks stop a script with, and back.
    pub fn code(self) -> i64 {
        match self {
            Stop::Operations => 1,
            Stop::Spent(Budget::Game) => 2,
            Stop::Spent(Budget::Check) => 3,
            Stop::Guard => 4,
            Stop::Spent(Budget::DryRun) => 5,
        }
    }

    pub fn from_code(code: i64) -> Option<Stop> {
        Some(match code {
            1 => Stop::Operations,
            2 => Stop::Spent(Budget::Game),
            3 => Stop::Spent(Budget::Check),
            4 => Stop::Guard,
            5 => Stop::Spent(Budget::DryRun),
            _ => return None,
        })
    }

    /// Why the script was stopped, in words.
    pub fn words(self) -> String {
        match self {
            Stop::Operations => format!(
                "it ran too long and was stopped (a script may take at most {} operations; reading a value counts one more for every {SCRIPT_ITEMS_AN_OPERATION} items it holds)",
                grouped(SCRIPT_OPERATIONS)
            ),
            Stop::Spent(Budget::Game) => format!(
                "the scripts of this game have done {} operations in all, the most a game may, and were stopped",
                grouped(SCRIPT_GAME_OPERATIONS)
            ),
            Stop::Spent(Budget::Check) => format!(
                "the scripts of this ruleset did {} operations in all while it was checked, the most a check may, and were stopped",
                grouped(SCRIPT_CHECK_OPERATIONS)
            ),
            Stop::Spent(Budget::DryRun) => format!(
                "the scripts of this ruleset did {} operations in all in the games played while checking, the most those games may share, and were stopped",
                grouped(SCRIPT_DRY_RUN_OPERATIONS)
            ),
            Stop::Guard => GUARD_WORDS.to_string(),
        }
    }
}

/// What a call stopped by the guard says: the command ends there, not with a result.
pub const GUARD_WORDS: &str = "the machine is far too busy: one script call ran 10 s while its operations take a moment, so the command was stopped (this is no result of the game)";

/// A call under way on a thread.
#[derive(Debug, Clone, Copy)]
struct Call {
    /// rhai's operations at the last weighing.
    ops: u64,
    /// Operations charged besides (the values read).
    charged: u64,
    started: Instant,
}

impl Call {
    fn cost(&self) -> u64 {
        self.ops.saturating_add(self.charged)
    }
}

/// A thread's allowance and its call under way.
#[derive(Debug, Default)]
struct Slot {
    allowance: Option<(Budget, u64)>,
    /// The allowance is shared by everything the thread does until [`Meter::share`] ends
    /// it: a game's allowance is not opened (nor closed) meanwhile.
    shared: bool,
    call: Option<Call>,
}

/// The calls running, and what each thread may still spend (a slot for each thread that ran
/// a call: as many as a run has threads, so a list is the quickest look-up).
#[derive(Debug, Default)]
pub struct Meter {
    threads: Mutex<Vec<(ThreadId, Slot)>>,
    /// The guard was met: every later call fails with it.
    tripped: AtomicBool,
}

impl Meter {
    fn with_slot<T>(&self, f: impl FnOnce(&mut Slot) -> T) -> Option<T> {
        let mut threads = self.threads.lock().ok()?;
        let me = std::thread::current().id();
        let at = match threads.iter().position(|(id, _)| *id == me) {
            Some(at) => at,
            None => {
                threads.push((me, Slot::default()));
                threads.len() - 1
            }
        };
        Some(f(&mut threads[at].1))
    }

    /// Gives this thread an allowance for all its calls from now (a game's, a check's), or
    /// takes it away.
    pub fn allow(&self, budget: Option<Budget>) {
        self.with_slot(|s| {
            if !s.shared {
                s.allowance = budget.map(|b| (b, b.allowance()));
            }
        });
    }

    /// Gives this thread one allowance of `budget` for everything it does until it is
    /// ended (`None`): games started meanwhile spend it, not one of their own.
    pub fn share(&self, budget: Option<Budget>) {
        self.with_slot(|s| {
            s.allowance = budget.map(|b| (b, b.allowance()));
            s.shared = budget.is_some();
        });
    }

    /// Whether this thread's allowance is spent.
    pub fn spent(&self) -> bool {
        self.with_slot(|s| matches!(s.allowance, Some((_, 0))))
            .unwrap_or(false)
    }

    /// Whether the guard stopped a call of this host.
    pub fn tripped(&self) -> bool {
        self.tripped.load(Ordering::Relaxed)
    }

    /// A call starts on this thread, or may not start at all.
    pub fn start(&self) -> Result<(), Stop> {
        if self.tripped() {
            return Err(Stop::Guard);
        }
        self.with_slot(|s| {
            if let Some((b, 0)) = s.allowance {
                return Err(Stop::Spent(b));
            }
            s.call = Some(Call {
                ops: 0,
                charged: 0,
                started: Instant::now(),
            });
            Ok(())
        })
        .unwrap_or(Ok(()))
    }

    /// Weighs the call under way at `ops` of rhai's operations: whether it must stop.
    pub fn weigh(&self, ops: u64) -> Option<Stop> {
        let clock = (ops / WEIGH_EVERY).is_multiple_of(CLOCK_EVERY);
        self.with_slot(|s| {
            let call = s.call.as_mut()?;
            call.ops = ops;
            let call = *call;
            self.over(s, &call, clock)
        })
        .flatten()
    }

    /// Charges the call under way `units` operations more (a big value read): whether it
    /// must stop.
    pub fn charge(&self, units: u64) -> Option<Stop> {
        self.with_slot(|s| {
            let call = s.call.as_mut()?;
            call.charged = call.charged.saturating_add(units);
            let call = *call;
            self.over(s, &call, false)
        })
        .flatten()
    }

    /// Whether the call must stop: its work, the thread's allowance, and (`clock`) the guard.
    fn over(&self, s: &Slot, call: &Call, clock: bool) -> Option<Stop> {
        if call.cost() > SCRIPT_OPERATIONS {
            return Some(Stop::Operations);
        }
        if let Some((b, left)) = s.allowance
            && call.cost() > left
        {
            return Some(Stop::Spent(b));
        }
        if clock && call.started.elapsed() > Duration::from_millis(SCRIPT_GUARD_MS) {
            self.tripped.store(true, Ordering::Relaxed);
            return Some(Stop::Guard);
        }
        None
    }

    /// The call under way ends: its cost (rhai's operations rounded up to the next weighing,
    /// and what was charged) is taken from the thread's allowance, and returned.
    pub fn end(&self) -> u64 {
        self.with_slot(|s| {
            let Some(call) = s.call.take() else {
                return 0;
            };
            let cost = (call.ops + WEIGH_EVERY)
                .saturating_sub(call.ops % WEIGH_EVERY)
                .saturating_add(call.charged);
            if let Some((_, left)) = &mut s.allowance {
                *left = left.saturating_sub(cost);
            }
            cost
        })
        .unwrap_or(0)
    }

    /// A call answered from memory costs what it cost when it ran, so that a game spends the
    /// same whatever was remembered: `Err` when that is more than the thread has left.
    pub fn spend(&self, cost: u64) -> Result<(), Stop> {
        if self.tripped() {
            return Err(Stop::Guard);
        }
        self.with_slot(|s| match &mut s.allowance {
            Some((b, left)) if cost > *left => {
                *left = 0;
                Err(Stop::Spent(*b))
            }
            Some((_, left)) => {
                *left -= cost;
                Ok(())
            }
            None => Ok(()),
        })
        .unwrap_or(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spent_allowance_stops_the_next_call() {
        let meter = Meter::default();
        meter.allow(Some(Budget::Game));
        assert_eq!(meter.start(), Ok(()));
        assert_eq!(meter.weigh(WEIGH_EVERY), None);
        // One weighing's operations, rounded up to the next.
        assert_eq!(meter.end(), 2 * WEIGH_EVERY);
        assert_eq!(
            meter.spend(SCRIPT_GAME_OPERATIONS),
            Err(Stop::Spent(Budget::Game))
        );
        assert_eq!(meter.start(), Err(Stop::Spent(Budget::Game)));
        meter.allow(None);
        assert_eq!(meter.start(), Ok(()));
    }

    #[test]
    fn a_shared_allowance_outlives_the_games_started_meanwhile() {
        let meter = Meter::default();
        meter.share(Some(Budget::DryRun));
        // A game opens and closes its own allowance: the shared one stays.
        meter.allow(Some(Budget::Game));
        assert_eq!(meter.spend(SCRIPT_DRY_RUN_OPERATIONS - 1), Ok(()));
        meter.allow(None);
        meter.allow(Some(Budget::Game));
        assert!(!meter.spent());
        assert_eq!(
            meter.spend(2),
            Err(Stop::Spent(Budget::DryRun)),
            "the second game spends what the first left"
        );
        assert!(meter.spent());
        assert_eq!(meter.start(), Err(Stop::Spent(Budget::DryRun)));
        meter.share(None);
        assert!(!meter.spent());
        meter.allow(Some(Budget::Game));
        assert_eq!(meter.start(), Ok(()), "a game after it has its own");
        meter.end();
    }

    #[test]
    fn a_call_stopped_by_the_shared_allowance_spends_it() {
        let meter = Meter::default();
        meter.share(Some(Budget::DryRun));
        assert_eq!(meter.spend(SCRIPT_DRY_RUN_OPERATIONS - WEIGH_EVERY), Ok(()));
        meter.start().expect("some is left");
        assert_eq!(
            meter.weigh(2 * WEIGH_EVERY),
            Some(Stop::Spent(Budget::DryRun))
        );
        meter.end();
        assert!(meter.spent());
        for stop in [Stop::Spent(Budget::DryRun), Stop::Spent(Budget::Game)] {
            assert_eq!(Stop::from_code(stop.code()), Some(stop));
        }
    }

    #[test]
    fn charges_count_with_operations_against_a_call() {
        let meter = Meter::default();
        assert_eq!(meter.start(), Ok(()));
        assert_eq!(meter.charge(SCRIPT_OPERATIONS / 2), None);
        assert_eq!(meter.weigh(SCRIPT_OPERATIONS / 2), None);
        assert_eq!(meter.charge(1), Some(Stop::Operations));
        meter.end();
    }

    #[test]
    fn a_call_costs_its_work_not_its_time() {
        let meter = Meter::default();
        meter.allow(Some(Budget::Check));
        meter.start().expect("a call may start");
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(meter.weigh(3 * WEIGH_EVERY), None);
        assert_eq!(meter.charge(5), None);
        assert_eq!(meter.end(), 4 * WEIGH_EVERY + 5);
    }
}
