//! A ruleset ready to play: the compiled program, the engine's tables of it
//! ([`Prepared`]), and the weighing bots' plan of it (`plan.rs`), each derived from the
//! program alone and kept beside it by the stage that reads it. Every command that plays
//! loads one ([`crate::app::load`]) and hands it down; the program inside stays inert data.

use std::ops::Deref;

use crate::engine::{Prepared, Tables};
use crate::ir::Program;

/// A program with the engine's tables and the bots' plan.
#[derive(Clone)]
pub struct Ruleset {
    prepared: Prepared,
    /// The weighing bots' plan, by players in the round, built on first use (`plan.rs`).
    pub(super) plan: Tables<Box<[u32]>>,
}

impl PartialEq for Ruleset {
    /// The tables are the program's: equal programs, equal rulesets.
    fn eq(&self, other: &Ruleset) -> bool {
        self.prepared == other.prepared
    }
}

impl Eq for Ruleset {}

impl Ruleset {
    /// `program`, prepared for the engine and the bots.
    pub fn new(program: Program) -> Ruleset {
        Ruleset {
            prepared: Prepared::new(program),
            plan: Tables::default(),
        }
    }

    /// The program, without its tables.
    pub fn into_program(self) -> Program {
        self.prepared.into_program()
    }

    /// The engine's form of it.
    pub fn prepared(&self) -> &Prepared {
        &self.prepared
    }
}

impl From<Program> for Ruleset {
    fn from(p: Program) -> Ruleset {
        Ruleset::new(p)
    }
}

impl Deref for Ruleset {
    type Target = Prepared;
    #[inline(always)]
    fn deref(&self) -> &Prepared {
        &self.prepared
    }
}

impl std::fmt::Debug for Ruleset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Ruleset")
            .field(self.prepared.program())
            .finish()
    }
}
