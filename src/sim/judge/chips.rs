//! The standings at each round's end, in what the winner line ranks by, and what a game's
//! measures read from them: lead changes, last place, drama, when the winner led for good.

use super::MICRO;
use super::tally::{party, standing};
use crate::engine::State;
use crate::ir::MAX_SEATS;
use crate::play::Ruleset;

/// The chips of a seat out of the game, in a round end's row.
pub(super) const OUT: i32 = i32::MIN;

/// The chips of each seat at a round's end, and what the game loop worked out from them.
#[derive(Default)]
pub(super) struct Chips {
    /// Each round end's chips, by seat.
    pub(super) history: Vec<[i32; MAX_SEATS]>,
    pub(super) leader: Option<u8>,
    pub(super) changes: u64,
    /// Seats that were last in chips at some round's end (strictly below another seat).
    pub(super) been_last: u16,
    /// The players (a team at its first seat) in the game at its start, a bit a seat; 0
    /// until [`Chips::start`] (then the first round end's are taken).
    heads: u16,
}

impl Chips {
    /// A round end's standings: what the winner line ranks by (negated when the fewest
    /// win, so that more is always ahead); a team once, at its first seat in the game.
    pub(super) fn look(&mut self, p: &Ruleset, s: &State) {
        let n = usize::from(s.seats);
        let st = standing(p);
        let mut row = [OUT; MAX_SEATS];
        for (seat, c) in row.iter_mut().enumerate().take(n) {
            let x = seat as u8;
            if s.in_game(x) && party(p, s, x) == x {
                let v = s.holding_of(p, x, st.by);
                *c = if st.most { v } else { v.saturating_neg() };
            }
        }
        self.record(row, n);
    }

    /// The players in the game as it starts (a team once), before any round end.
    pub(super) fn start(&mut self, p: &Ruleset, s: &State) {
        if self.heads == 0 {
            self.heads = (0..s.seats)
                .filter(|&x| s.in_game(x) && party(p, s, x) == x)
                .fold(0, |m, x| m | 1 << x);
        }
    }

    /// One round end's chips (`OUT` for a seat out of the game), of `n` seats.
    pub(super) fn record(&mut self, row: [i32; MAX_SEATS], n: usize) {
        let live = &row[..n];
        let top = live.iter().copied().max().unwrap_or(0);
        let mut leaders = (0..n).filter(|&i| row[i] == top);
        if let (Some(only), None) = (leaders.next(), leaders.next()) {
            let only = only as u8;
            if self.leader.is_some_and(|l| l != only) {
                self.changes += 1;
            }
            self.leader = Some(only);
        }
        let in_game = live.iter().copied().filter(|c| *c != OUT);
        let (low, high) = in_game.fold((i32::MAX, i32::MIN), |(lo, hi), c| (lo.min(c), hi.max(c)));
        if low < high {
            for (seat, c) in live.iter().enumerate() {
                if *c == low {
                    self.been_last |= 1 << seat;
                }
            }
        }
        self.history.push(row);
    }

    /// For winner `w`: the share of the round ends (in millionths) after the first of which
    /// `w` led alone at every round end to the last; all of them where `w` never did. `None`
    /// for a game with no round end looked at.
    pub(super) fn decided_at(&self, w: usize) -> Option<u64> {
        let n = self.history.len() as u64;
        let leads = |row: &[i32; MAX_SEATS]| {
            row[w] != OUT
                && row
                    .iter()
                    .enumerate()
                    .all(|(x, c)| x == w || *c == OUT || *c < row[w])
        };
        let from = self
            .history
            .iter()
            .rposition(|row| !leads(row))
            .map_or(0, |k| k + 1);
        (n > 0).then(|| (from as u64 + 1).min(n) * MICRO / n)
    }

    /// For winner `w`: for each other player (or team) in the game at its start (else at the
    /// first round end),
    /// the share of the round ends (in millionths) until the last at which they were level
    /// with `w` or ahead of them; 0 for one who never was.
    pub(super) fn hope(&self, w: usize) -> Vec<u64> {
        let n = self.history.len() as u64;
        let Some(first) = self.history.first() else {
            return Vec::new();
        };
        let heads = if self.heads == 0 {
            (0..MAX_SEATS)
                .filter(|&x| first[x] != OUT)
                .fold(0u16, |m, x| m | 1 << x)
        } else {
            self.heads
        };
        (0..MAX_SEATS)
            .filter(|&x| x != w && heads & (1 << x) != 0)
            .map(|x| {
                let last = self
                    .history
                    .iter()
                    .rposition(|row| row[x] != OUT && row[x] >= row[w]);
                last.map_or(0, |k| (k as u64 + 1) * MICRO / n)
            })
            .collect()
    }

    /// CardStock's drama for winner `w`: over the round ends at which `w` was not in the lead,
    /// the mean of the square root of how far behind the leader `w` was, as a share of the
    /// starting chips; 0 when `w` never trailed. In millionths.
    pub(super) fn drama(&self, w: usize, start: i32) -> u64 {
        let start = f64::from(start.max(1));
        let mut sum = 0.0;
        let mut k = 0u32;
        for row in &self.history {
            let top = row.iter().copied().max().unwrap_or(0);
            let mine = row[w];
            if mine != OUT && mine < top {
                let gap = (f64::from(top) - f64::from(mine)) / start;
                sum += gap.min(1.0).sqrt();
                k += 1;
            }
        }
        if k == 0 {
            0
        } else {
            (sum / f64::from(k) * MICRO as f64).round() as u64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(chips: &[&[i32]]) -> Chips {
        let mut c = Chips::default();
        for r in chips {
            let mut row = [OUT; MAX_SEATS];
            row[..r.len()].copy_from_slice(r);
            c.record(row, r.len());
        }
        c
    }

    #[test]
    fn the_lead_changes_when_another_player_alone_holds_the_most_chips() {
        // Leaders: 0, (a tie: no leader), 1, 1, 0: two changes (0 to 1, 1 to 0).
        let c = rows(&[
            &[3, 2, 2],
            &[2, 2, 1],
            &[1, 2, 1],
            &[1, 2, OUT],
            &[2, 1, OUT],
        ]);
        assert_eq!(c.changes, 2);
        // Last in chips: seats 1 and 2 at the first round end, 2 at the second, 0 and 2 at
        // the third, 0 at the fourth (seat 2 is out), 1 at the fifth.
        assert_eq!(c.been_last, 0b111);
        let even = rows(&[&[3, 3, 3], &[2, 2, 2]]);
        assert_eq!((even.changes, even.been_last), (0, 0));
    }

    #[test]
    fn drama_is_the_mean_root_of_the_winners_deficit_while_trailing() {
        // Seat 2 wins: it trails by 1 and by 3 of 4 chips (sqrt(1/4) = 0.5, sqrt(3/4)),
        // then leads; the mean over the two rounds it trailed.
        let c = rows(&[&[4, 3, 3], &[4, 1, 1], &[1, OUT, 2]]);
        let want = (0.5 + 0.75f64.sqrt()) / 2.0;
        assert_eq!(c.drama(2, 4), (want * MICRO as f64).round() as u64);
        // Seat 0 trails once, by 1 of 4 chips.
        assert_eq!(c.drama(0, 4), MICRO / 2);
        // A winner who never trails: no drama.
        assert_eq!(rows(&[&[3, 1], &[2, 1]]).drama(0, 3), 0);
    }

    #[test]
    fn the_winner_leads_for_good_from_the_round_end_after_their_last_not_in_front() {
        // Seat 1 wins: behind at the first round end, level at the second, alone in front at
        // the third and fourth: decided after 3 of 4 round ends.
        let c = rows(&[&[3, 2, 2], &[2, 2, 1], &[1, 2, 1], &[1, 2, OUT]]);
        assert_eq!(c.decided_at(1), Some(3 * MICRO / 4));
        // In front from the first round end: decided after 1 of 4.
        let early = rows(&[&[1, 3, 2], &[1, 3, 1], &[1, 2, 1], &[OUT, 2, 1]]);
        assert_eq!(early.decided_at(1), Some(MICRO / 4));
        // In front only at the end, or never alone: the whole game.
        assert_eq!(rows(&[&[3, 1], &[1, 2]]).decided_at(1), Some(MICRO));
        assert_eq!(rows(&[&[3, 1], &[2, 2]]).decided_at(1), Some(MICRO));
        assert_eq!(Chips::default().decided_at(0), None);
    }

    #[test]
    fn a_loser_hopes_until_their_last_round_end_level_with_the_winner() {
        // Seat 1 wins. Seat 0 is ahead at the first round end and level at the second: hope
        // until 2 of 4; seat 2 is never level: 0; out of the game counts as behind.
        let c = rows(&[&[3, 2, 1], &[2, 2, 1], &[1, 2, 1], &[1, 2, OUT]]);
        assert_eq!(c.hope(1), vec![2 * MICRO / 4, 0]);
        // A seat out of the game at the first round end is not a loser in the game.
        let c = rows(&[&[OUT, 2, 2], &[OUT, 2, 1]]);
        assert_eq!(c.hope(1), vec![MICRO / 2]);
    }
}
