//! Playing seats: the built-in bots, rhai bots, the one way a bot's turn is played, and move
//! notation. Bots read only the compiled ruleset and what a player at the table can see, so
//! they play any variant.

mod bots;
pub mod driver;
pub mod ismcts;
mod notation;
mod plan;
mod player;
mod ruleset;
pub mod search;
mod weigh;

pub use crate::script::GUARD_WORDS;
pub use bots::Bot;
pub use driver::{Allowance, Driver, Ending, Watch};
pub use notation::{MoveError, gift_options, legal_list, move_name, parse_move, player_options};
pub use player::{Player, bot_turn, guard_met, play_and_draw};
pub use ruleset::Ruleset;
pub use weigh::{Scoring, scoring};
