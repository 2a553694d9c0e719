//! Simulation for designers: many seeded games with bots, and the statistics that say whether
//! a house rule is fair and how it changes the game.
//!
//! Every figure is an integer sum or a histogram, gathered per game by a counting sink and
//! added up in any order, so a run gives the same report for any number of threads, and
//! shards of a run merge into exactly the report of the whole. Memory stays flat in the
//! number of games. Cancellation is passed in ([`Control`]), never global.

mod adjusted;
pub mod html;
pub mod judge;
mod report;
mod run;
mod shard;
mod spark;
mod stats;
pub mod tune;

pub use adjusted::{rate_difference, share_difference};
pub use report::{
    Difference, Figures, Test, Verdict, compare, compare_with, differences, figures, rates_differ,
    report, report_with, two_prop, welch, wilson,
};
pub use run::{Config, Control, run, slice_games, threads};
pub use shard::{Output, bars_of, merge, merge_named};
pub use spark::{sparkline, text_histograms};
pub use stats::{Clustered, Histogram, Stats, WIN_UNIT};
