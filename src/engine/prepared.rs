//! A compiled program made ready for the engine: the program itself (inert data, as the
//! compiler made it) and the tables the engine derives from it alone, beside it, the way a
//! compiler keeps its analyses beside the function they describe. The legal-choice table
//! ([`LegalTable`]) is built when the program is prepared; the loop of plain turns' table
//! (`flat.rs`) once per number of players in the round, on the first turn that asks.
//!
//! The tables are a function of the program: two prepared forms of equal programs are
//! equal, a clone keeps the tables built so far, and the program cannot be changed once
//! prepared ([`Prepared::program`] lends it; [`Prepared::into_program`] gives it back
//! without its tables).

use std::ops::Deref;
use std::sync::OnceLock;

use super::flat::TurnTable;
use crate::ir::{LegalTable, MAX_SEATS, Program};

/// A program and the engine's tables of it.
#[derive(Clone)]
pub struct Prepared {
    program: Program,
    /// Which choices are legal at each total.
    pub(super) legal: LegalTable,
    /// The loop of plain turns' table, by players in the round.
    pub(super) turns: Tables<TurnTable>,
    /// Whether a card whose choice is simple is laid and done with (no script bar to ask,
    /// no moment after each card, limits that stay put, no card known in another's hand): the step's and the loops' plain
    /// way is open.
    pub(super) plain_cards: bool,
    /// Whether a turn may be more than laying a card of the hand (a move beside it, a card
    /// that names a player): the moves are then listed the general way.
    pub more_moves: bool,
    /// Whether a moment after each card is in the game: the player draws before it.
    pub(super) after_card_moments: bool,
}

impl Prepared {
    /// `program` with its legal-choice table.
    pub fn new(program: Program) -> Prepared {
        let more_moves = program.more_moves();
        let after_card_moments = program
            .moments
            .iter()
            .any(|m| m.kind == crate::ir::MomentKind::AfterCard);
        let plain_cards = !more_moves
            && program.script_bars.is_empty()
            && !program.moving_limits()
            // What is known of a card moved between hands is forgotten as it is laid.
            && !program.moves_between_hands()
            && !after_card_moments;
        Prepared {
            after_card_moments,
            legal: LegalTable::build(&program),
            program,
            turns: Tables::default(),
            plain_cards,
            more_moves,
        }
    }

    /// The program.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// The program, without the engine's tables.
    pub fn into_program(self) -> Program {
        self.program
    }

    /// Which choices are legal at each total, as the engine reads it.
    #[inline(always)]
    pub fn legal(&self) -> &LegalTable {
        &self.legal
    }
}

impl Deref for Prepared {
    type Target = Program;
    #[inline(always)]
    fn deref(&self) -> &Program {
        &self.program
    }
}

impl PartialEq for Prepared {
    /// The tables are the program's: equal programs, equal prepared forms.
    fn eq(&self, other: &Prepared) -> bool {
        self.program == other.program
    }
}

impl Eq for Prepared {}

impl std::fmt::Debug for Prepared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Prepared").field(&self.program).finish()
    }
}

/// One table a number of players in the round (at most [`MAX_SEATS`]), each built the first
/// time it is asked for: what a later stage derives from a program and keeps beside it.
pub struct Tables<T>([OnceLock<T>; MAX_SEATS + 1]);

impl<T> Default for Tables<T> {
    fn default() -> Tables<T> {
        Tables(std::array::from_fn(|_| OnceLock::new()))
    }
}

impl<T: Clone> Clone for Tables<T> {
    fn clone(&self) -> Tables<T> {
        Tables(self.0.clone())
    }
}

impl<T> Tables<T> {
    /// The table for `active` players in the round, built by `build` the first time it is
    /// asked for; `None` past [`MAX_SEATS`].
    #[inline]
    pub fn get_or_build(&self, active: usize, build: impl FnOnce() -> T) -> Option<&T> {
        self.0.get(active).map(|table| table.get_or_init(build))
    }

    /// How many tables have been built (for tests).
    pub fn built(&self) -> usize {
        self.0.iter().filter(|t| t.get().is_some()).count()
    }
}

impl<T> std::fmt::Debug for Tables<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tables({} built)", self.built())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_is_built_once_a_number_of_players_and_a_clone_keeps_it() {
        let tables: Tables<Vec<u32>> = Tables::default();
        let mut builds = 0;
        let mut build = || {
            builds += 1;
            vec![7, 8, 9]
        };
        assert_eq!(tables.get_or_build(3, &mut build), Some(&vec![7, 8, 9]));
        // Asked again, the table is the one built, not a new one.
        assert_eq!(
            tables.get_or_build(3, || unreachable!("built once")),
            Some(&vec![7, 8, 9])
        );
        assert_eq!(builds, 1);
        // One table a number of players in the round; none past the most seats.
        assert_eq!(tables.get_or_build(2, || vec![1]), Some(&vec![1]));
        assert_eq!(tables.get_or_build(MAX_SEATS + 1, || vec![1]), None);
        assert_eq!(tables.built(), 2);
        // A clone holds the tables built, as they are.
        let copy = tables.clone();
        assert_eq!(copy.built(), 2);
        assert_eq!(
            copy.get_or_build(3, || unreachable!("cloned with it")),
            Some(&vec![7, 8, 9])
        );
        assert_eq!(format!("{copy:?}"), "Tables(2 built)");
    }
}
