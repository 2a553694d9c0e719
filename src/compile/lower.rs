//! The passes in order, and the program they assemble.

use super::chain::file_name;
use super::changes::Ceiling;
use super::compiler::{Compiler, Decided};
use super::ends::Ends;
use super::options::allowed;
use super::settings::Settings;
use super::table::Table;
use crate::base::Code;
use crate::base::cards::RANKS;
use crate::base::diag::Diag;
use crate::base::limits::{BARS, SCRIPT_WINDOW, grouped};
use crate::ir::{self, MAX_SEATS};
use crate::script::Budget;

/// What the cards, bars and moments lowered to.
struct Lowered {
    effects: Vec<ir::Effect>,
    rank_fx: [[u16; RANKS]; MAX_SEATS + 1],
    card_lines: Vec<ir::CardLine>,
    bars: Vec<ir::Bar>,
    triggers: ir::Triggers,
    trigger_cases: Vec<ir::TriggerCase>,
    moments: Vec<ir::Moment>,
    others: Vec<ir::OtherMove>,
    /// The limits worked out from the table (upper, lower): their expressions.
    limits: [Option<u16>; 2],
    ends: Ends,
}

impl Compiler<'_> {
    /// Every pass: collect, check the table, compile the scripts, lower the cards, bars and
    /// moments, assemble, tabulate the scripts, analyse. `None` when there is an error. The
    /// scripts tried meanwhile share one allowance of time ([`Budget::Check`]).
    pub fn compile(&mut self) -> Option<ir::Program> {
        let program = self.passes();
        if let Some(host) = &self.host {
            host.allow(None);
        }
        program
    }

    fn passes(&mut self) -> Option<ir::Program> {
        let mut s = self.collect();
        self.counts = self.count_infos(&s);
        self.count_read = vec![false; self.counts.len()];
        let mut limits = self.limit_exprs(&mut s);
        self.ceiling = match (&s.ceiling, limits[0]) {
            (None, _) => Ceiling::None,
            (Some(_), Some(_)) => Ceiling::Moving,
            (Some(d), None) => Ceiling::Fixed {
                start: d.value.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32,
                origin: self.origin(d.layer, d.line),
            },
        };
        self.mark_live_options(&s);
        self.half_removed_bars(&s);
        self.bars_kept(&s);
        if let Some(set) = s.bars.values().nth(BARS) {
            let (layer, span) = (set.layer, set.span);
            self.err(
                layer,
                Diag::error(
                    Code::TooMany,
                    span,
                    format!(
                        "this ruleset has {} bars; a ruleset may have at most {BARS}",
                        grouped(s.bars.len() as u64)
                    ),
                )
                .label("the bars from here on are too many")
                .hint("a bar is a total that costs or pays: keep the few that matter"),
            );
            return None;
        }
        let table = self.table(&s)?;
        // Scripts: compiled once, tabulated over the totals a game can hold.
        self.compile_scripts();
        if let Some(host) = &self.host {
            host.allow(Some(Budget::Check));
        }
        let (window, capped) = script_window(&s, table.start);
        self.window = window;
        self.window_capped = capped;
        let (effects, rank_fx, card_lines) = self.cards(&s, &table);
        let bars = self.bars(&s);
        let triggers = self.triggers(&s);
        let trigger_cases = self.trigger_cases(&s);
        let moments = self.moments(&s);
        let others = self.others(&s);
        let ends = self.ends(&s);
        self.changed_limit(&mut limits);
        self.unused_options();
        self.unused_counts(&s);
        if self.has_errors() {
            return None;
        }
        let lowered = Lowered {
            effects,
            rank_fx,
            card_lines,
            bars,
            triggers,
            trigger_cases,
            moments,
            others,
            limits,
            ends,
        };
        let mut program = self.assemble(&s, &table, lowered);
        Self::mark_aims(&mut program);
        program.reads_table = program.reads_table_now();
        self.tabulate(&mut program, &s.script_bars);
        // A game that cannot start is the one thing to say: the analyses would only echo it.
        self.stuck_at_start(&program, &s);
        if !self.has_errors() {
            self.lints(&program, &s);
        }
        Some(program)
    }

    /// Where each top-level setting was decided, for the rules sheet.
    fn setting_origins(&self, s: &Settings) -> Vec<(String, ir::Origin)> {
        fn at<T>(d: &Option<Decided<T>>) -> Option<(usize, usize)> {
            d.as_ref().map(|d| (d.layer, d.line))
        }
        let notes = [
            ("about", at(&s.about)),
            ("players", at(&s.players)),
            ("chips", at(&s.chips)),
            ("start", at(&s.start)),
            ("ceiling", at(&s.ceiling)),
            ("floor", at(&s.floor)),
            ("direction", at(&s.clockwise)),
            ("drawing", at(&s.by_hand)),
            ("stock", at(&s.reshuffle)),
            ("first dealer", at(&s.first_dealer)),
            ("deal", at(&s.deal_clockwise)),
            ("leader", at(&s.leader)),
            ("game end", at(&s.ending)),
            ("winner", at(&s.winner)),
            ("elimination", at(&s.cannot_pay)),
            ("teams", at(&s.teams)),
            ("jokers", at(&s.jokers)),
            (
                "hand",
                s.hands.values().next_back().map(|d| (d.layer, d.line)),
            ),
            (
                "decks",
                s.decks.values().next_back().map(|d| (d.layer, d.line)),
            ),
        ];
        notes
            .into_iter()
            .filter_map(|(name, at)| at.map(|(l, line)| (name.to_string(), self.origin(l, line))))
            .collect()
    }

    fn assemble(&mut self, s: &Settings, table: &Table, lowered: Lowered) -> ir::Program {
        let layers = self.layers;
        if s.ceiling.is_none() {
            // `the limit` of a total that may go as high as it likes is no number.
            for (layer, span) in std::mem::take(&mut self.limit_reads) {
                self.err(
                    layer,
                    Diag::error(
                        Code::FixedAmount,
                        span,
                        "the total has no upper limit here, so `the limit` is no number",
                    )
                    .label("no limit to read")
                    .hint(
                        "say the limit, `the total may not go above 99`, or name a number instead",
                    ),
                );
            }
        }
        // An option no rule uses is not one a player can change: it is not offered.
        let options = self
            .options
            .iter()
            .filter(|(_, d)| d.used && !d.removed)
            .map(|(n, d)| ir::OptionInfo {
                name: n.clone(),
                value: d.value,
                default: d.default,
                allowed: allowed(&d.range),
                origin: self.origin(d.layer, d.line),
            })
            .collect();
        let limit = |d: &Option<Decided<i64>>, expr: Option<u16>| {
            d.as_ref().map(|d| ir::Limit {
                value: d.value as i32,
                expr,
                origin: self.origin(d.layer, d.line),
            })
        };
        let Ends {
            rounds,
            ending,
            leader,
            winner,
        } = lowered.ends;
        ir::Program {
            name: s
                .name
                .as_ref()
                .map_or_else(|| file_name(&layers[self.leaf()].path), |n| n.value.clone()),
            about: s
                .about
                .as_ref()
                .map_or_else(String::new, |a| a.value.clone()),
            files: layers.iter().map(|l| l.path.clone()).collect(),
            sources: layers.iter().map(|l| l.source.text.to_string()).collect(),
            options,
            min_players: table.min_p as u8,
            max_players: table.max_p as u8,
            decks: table.decks,
            jokers: table.jokers as u8,
            hand: table.hand,
            chips: table.chips as i32,
            start: table.start as i32,
            ceiling: limit(&s.ceiling, lowered.limits[0]),
            floor: limit(&s.floor, lowered.limits[1]),
            counts: std::mem::take(&mut self.counts),
            exprs: std::mem::take(&mut self.exprs),
            moments: lowered.moments,
            others: lowered.others,
            reads_table: false,
            clockwise: s.clockwise.as_ref().is_none_or(|c| c.value),
            by_hand: s.by_hand.as_ref().is_some_and(|b| b.value),
            reshuffle: s.reshuffle.as_ref().is_none_or(|r| r.value),
            first_dealer: s
                .first_dealer
                .as_ref()
                .and_then(|d| d.value)
                .map(|d| d as u8),
            deal_clockwise: s.deal_clockwise.as_ref().is_none_or(|d| d.value),
            leader,
            rounds: rounds.map(|r| r as u32),
            ending,
            winner,
            out_when_cannot_pay: s.cannot_pay.as_ref().is_some_and(|c| c.value),
            team_size: s.teams.as_ref().map(|t| t.value as u8),
            rank_fx: lowered.rank_fx,
            card_lines: lowered.card_lines,
            effects: lowered.effects,
            conds: std::mem::take(&mut self.conds),
            outcomes: std::mem::take(&mut self.outcomes),
            bars: lowered.bars,
            triggers: lowered.triggers,
            trigger_cases: lowered.trigger_cases,
            settings: self.setting_origins(s),
            removed: s
                .removed
                .iter()
                .map(|d| (d.value.clone(), self.origin(d.layer, d.line)))
                .collect(),
            script_fx: std::mem::take(&mut self.script_fx),
            script_tests: std::mem::take(&mut self.script_tests),
            script_bars: Vec::new(),
            scripts: self
                .host
                .clone()
                .map(|h| ir::Scripts(h as std::sync::Arc<dyn ir::ScriptHost>)),
        }
    }
}

/// The totals scripts are tabulated over: the limits, or well around the bars and the start;
/// at most [`SCRIPT_WINDOW`] of them, around the start (and whether it was cut to that).
fn script_window(s: &Settings, start: i64) -> ((i32, i32), bool) {
    let top = s
        .bars
        .keys()
        .map(|(v, _)| *v as i32)
        .max()
        .unwrap_or(0)
        .max(start as i32)
        .max(100);
    let lo = s
        .floor
        .as_ref()
        .map_or((start as i32).min(0) - 200, |f| f.value as i32);
    let hi = s.ceiling.as_ref().map_or(top + 200, |c| c.value as i32);
    let hi = hi.max(lo);
    let width = SCRIPT_WINDOW as i64;
    if i64::from(hi) - i64::from(lo) < width {
        return ((lo, hi), false);
    }
    // Around the start: the totals of a game's first turns.
    let from = (start - width / 2).clamp(i64::from(lo), i64::from(hi) - width + 1);
    ((from as i32, (from + width - 1) as i32), true)
}
