//! What the player and the designer read: events as sentences and JSON, refused moves with
//! the rule that refuses them, the rules sheet, and a dump of the compiled form.

mod dump;
mod errors;
mod events;
mod scripted;
mod sheet;
mod words;

pub use dump::dump;
pub use errors::{illegal_total, illegal_words, play_error, stall_words};
pub use events::{count_values, direction_word, event_json, event_text, state_json};
pub use sheet::{
    Item as SheetItem, Section as SheetSection, items as sheet_items, other_action_words,
    other_rule, rules_sheet,
};
pub use words::{
    act_words, cannot_play_words, cond_words, effect_words, outcomes_words, test_words, who_words,
};
