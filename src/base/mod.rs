//! The vocabulary every stage shares: spans, cards, the seeded RNG, diagnostics and their
//! codes. Imports nothing from the rest of the crate.

pub mod cards;
pub mod codes;
pub mod diag;
pub mod excerpt;
pub mod limits;
pub mod rng;
pub mod span;
pub mod text;

pub use codes::Code;
pub use diag::{Diag, Fix, Level, Source};
pub use rng::Rng;
pub use span::{Span, Spanned};
