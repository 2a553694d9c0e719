//! The simulation report in pictures: one self-contained HTML page for a run, a comparison of
//! two rulesets or a sweep of one option. Inline SVG and CSS only: nothing is fetched, nothing
//! runs, the page reads offline and prints cleanly.
//!
//! Every function here is pure and deterministic: the same statistics give the same bytes (no
//! clock, no hash order), so merged shards give the whole run's page. Everything that comes
//! from a ruleset or the command line (names, paths, option names and values, bot names) is
//! HTML-escaped. The page is returned as a `String`; writing it is `app`'s.
//!
//! - `fmt`: numbers and text for the page;
//! - `svg`: the SVG and HTML primitives (a chart's frame, its legend, axes, figures, tables);
//! - `charts`: horizontal and vertical bars with whiskers;
//! - `hist`: histograms of games by length; `stacked`: shares stacked in a bar;
//! - `wins`, `figures` and `bars`: each figure of one run or two side by side;
//! - `page`: the page of a run or a comparison; `sweep`: the page of a sweep, and `against`:
//!   its figures, each against the swept option's values.

mod against;
mod bars;
mod charts;
mod figures;
mod fmt;
mod hist;
mod page;
mod stacked;
mod svg;
mod sweep;
mod wins;

pub use fmt::esc;
pub use page::{comparison, single};
pub use sweep::{SweepRow, sweep};

// The Okabe–Ito palette: told apart by readers with any common colour-vision deficiency.
const BLUE: &str = "#0072B2";
const VERMILLION: &str = "#D55E00";
const ORANGE: &str = "#E69F00";
const SKY: &str = "#56B4E9";
const GREEN: &str = "#009E73";
const PURPLE: &str = "#CC79A7";
const YELLOW: &str = "#F0E442";
const BLACK: &str = "#000000";

/// The two rulesets of a comparison, and their tags (so they read without colour too).
const RUNS: [&str; 2] = [BLUE, VERMILLION];
const TAGS: [&str; 2] = ["A", "B"];
/// Seats in a sweep, in order.
const SEAT_COLOURS: [&str; 8] = [BLUE, VERMILLION, GREEN, PURPLE, ORANGE, SKY, BLACK, YELLOW];

/// The width of every chart, in SVG units (the page scales it down on narrow screens).
const W: f64 = 760.0;
/// Roughly the width of a character of the charts' 12px text.
const CHAR_W: f64 = 6.6;
