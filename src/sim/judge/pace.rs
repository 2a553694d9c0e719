//! How long a game takes at the table, and when it is decided: the turns read as minutes at
//! a pace, and the round end after which the eventual winner leads for good (with how long
//! the losers stay level with them). Formulas in docs/judge.md.

use super::lines::{Basis, Line, Unit, find, line, plain, share};
use super::{JudgeConfig, MICRO, Tally};

/// Seconds a turn at the table when `--pace` is not given, in milliseconds: a card laid, the
/// total said aloud, the next player's think. At 8 s, Ninety-Nine's median game of about 135
/// turns takes 18 minutes, inside the 15 to 30 its rule texts give.
pub const DEFAULT_PACE_MS: u32 = 8_000;

/// The pace in words: `8 s a turn`, `6.5 s a turn`.
pub fn pace_words(ms: u32) -> String {
    let s = f64::from(ms) / 1000.0;
    if ms.is_multiple_of(1000) {
        format!("{s:.0} s a turn")
    } else {
        format!("{s} s a turn")
    }
}

/// Minutes a game at the configured pace: the mean with its interval, the median and the
/// 95th percentile, and the share of games inside `--minutes A..B`.
pub(super) fn minutes(t: &Tally, cfg: &JudgeConfig) -> Vec<Line> {
    let per_turn = f64::from(cfg.pace_ms) / 60_000.0;
    let pace = pace_words(cfg.pace_ms);
    let mut out = vec![line(
        "minutes_mean",
        format!("minutes per game, mean ({pace})"),
        Basis::Mean {
            h: t.turns.clone(),
            scale: per_turn,
        },
        Unit::Number,
        "how long a game takes at the table: turns times the pace",
    )];
    for (q, tag, word) in [
        (0.5, "median", "half the games"),
        (0.95, "p95", "95% of the games"),
    ] {
        out.push(plain(
            &format!("minutes_{tag}"),
            &format!(
                "minutes per game, {}",
                if tag == "p95" { "95th percentile" } else { tag }
            ),
            f64::from(t.turns.quantile(q)) * per_turn,
            &format!("{word} take this long or less"),
        ));
    }
    if let Some((a, b)) = cfg.minutes {
        // A game of `turns` takes `turns · pace` seconds: inside when that is within A..B
        // minutes, to the millisecond.
        let inside = |turns: u32| {
            let ms = u64::from(turns) * u64::from(cfg.pace_ms);
            (u64::from(a) * 60_000..=u64::from(b) * 60_000).contains(&ms)
        };
        let fit: u64 = t
            .turns
            .counts
            .iter()
            .filter(|(v, _)| inside(**v))
            .map(|(_, c)| c)
            .sum();
        out.push(line(
            "minutes_fit",
            format!("games of {a} to {b} minutes"),
            share(fit, t.games),
            Unit::Percent,
            "the share of games whose time at the table is the designer's target",
        ));
    }
    out
}

/// When the game is decided: the share of its round ends after which the eventual winner
/// leads alone for good, and how long the losers stay level with them.
pub(super) fn decided(t: &Tally) -> Vec<Line> {
    let scale = 100.0 / MICRO as f64;
    vec![
        line(
            "decided_at",
            "winner leads for good after".into(),
            Basis::Mean {
                h: t.decided_at.clone(),
                scale,
            },
            Unit::Percent,
            "the share of the game (its round ends) after which the eventual winner leads alone at every round end to the last, in what the winner line ranks by (Ludii's DecisivenessMoves, CardStock's Security): low, the end is known early",
        ),
        line(
            "false_hope",
            "losers level with the winner until".into(),
            Basis::Mean {
                h: t.hope.clone(),
                scale,
            },
            Unit::Percent,
            "for the players who lose, the share of the game (its round ends) until which they were level with the eventual winner or ahead, their mean a game: high, the losers stay in it",
        ),
    ]
}

/// The verdicts of this module's lines, in plain words (the pace as the minutes' line says it).
pub(super) fn verdicts(t: &Tally, lines: &[Line], out: &mut Vec<String>) {
    if let (Some(mean), Some(m), Some(p95)) = (
        find(lines, "minutes_mean"),
        find(lines, "minutes_median"),
        find(lines, "minutes_p95"),
    ) && t.games > 0
    {
        let pace = mean
            .label
            .rsplit_once('(')
            .map_or("", |(_, p)| p.trim_end_matches(')'));
        let median = m.value.round();
        let mut said = format!(
            "time: half the games take {median:.0} minute{} or less, 95% within {:.0} ({pace})",
            if median == 1.0 { "" } else { "s" },
            p95.value
        );
        if let Some(fit) = find(lines, "minutes_fit")
            && let (Some(lo), Some(hi)) = (fit.low, fit.high)
        {
            let target = fit.label.trim_start_matches("games of ");
            said.push_str(&format!(
                "; {:.1}% [{lo:.1}, {hi:.1}] of games take {target}",
                fit.value
            ));
        }
        out.push(said);
    }
    if let (Some(d), Some(h)) = (find(lines, "decided_at"), find(lines, "false_hope")) {
        out.push(if d.value.is_nan() {
            "decided: not measured, as no game was won by one player (or one team) alone"
                .to_string()
        } else {
            format!(
                "decided: the winner leads for good after {:.0}% of the game on average; a loser stays level with the winner until {:.0}%",
                d.value,
                if h.value.is_nan() { 0.0 } else { h.value }
            )
        });
    }
}
