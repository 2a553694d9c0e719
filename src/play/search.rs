//! The searching bots' evaluation of a move, written once: the unseen cards dealt again many
//! times, and each deal played out by cautious players ([`super::driver::playout`]) to the
//! end of the round. The `search` bot takes the best move by it; the judge's restricted play
//! takes the best allowed one.

use super::Ruleset;
use crate::base::Rng;
use crate::engine::{Move, State};

/// How many deals of the unseen cards the `search` bot tries each move on.
pub const SAMPLES: usize = 24;

/// What winning the game in a play-out is worth (losing it, as much less): more than any
/// chips a round can move (100 a chip).
const GAME: i64 = 100_000_000;

/// How many cards a play-out lays at most.
const PLIES: u64 = 120;

/// What a play-out is worth when the move itself fails (a script that fails in that deal):
/// far below any play-out that plays, yet summed over every sample without overflow.
const FAILED: i64 = i64::MIN / 4;

/// The move of `moves` (at least one) that does best over `samples` deals of the cards the
/// mover cannot see, each played out by cautious players to the end of the round: the chips
/// the mover gains against the others', and staying in the game above all. Every move is
/// tried on the same deals; the first of equal moves is taken. The sums saturate, so a move
/// whose play-outs fail scores lowest, never wraps round to the highest.
#[inline(never)]
pub fn best_of(p: &Ruleset, s: &State, moves: &[Move], samples: usize, rng: &mut Rng) -> Move {
    let me = s.turn;
    let mut best = moves[0];
    let mut best_value = i64::MIN;
    // The same samples for every move, so moves are compared on the same unseen cards.
    let seeds: Vec<u64> = (0..samples).map(|_| rng.below(usize::MAX) as u64).collect();
    for &m in moves {
        let mut total = 0i64;
        for &seed in &seeds {
            let mut sample = s.clone();
            let mut r = Rng::for_bots(seed);
            sample.determinize(p, me, &mut r);
            total = total.saturating_add(worth(p, sample, m, me, &mut r));
        }
        if total > best_value {
            best_value = total;
            best = m;
        }
    }
    best
}

/// Plays `m` then cautious players to the end of the round: the mover's chips gained
/// against the others' on average, and staying in the game above all ([`FAILED`] when `m`
/// cannot be played in this deal).
pub fn worth(p: &Ruleset, mut s: State, m: Move, me: u8, rng: &mut Rng) -> i64 {
    let n = s.seats;
    let before: Vec<i32> = (0..n).map(|x| s.chips_of(p, x)).collect();
    let round = s.round;
    if super::play_and_draw(p, &mut s, m, &mut ()).is_err() {
        return FAILED;
    }
    super::driver::playout(p, &mut s, rng, Some(round), PLIES);
    let mine = i64::from(s.chips_of(p, me) - before[usize::from(me)]);
    let others: i64 = (0..n)
        .filter(|x| *x != me)
        .map(|x| i64::from(s.chips_of(p, x) - before[usize::from(x)]))
        .sum();
    let alive = if s.in_game(me) { 0 } else { -1000 };
    // A game over in the play-out: won (or shared) above all, lost below all.
    let game = match (s.over, s.winners & (1 << me) != 0) {
        (false, _) => 0,
        (true, true) => GAME,
        (true, false) => -GAME,
    };
    mine * 100 - others * 100 / i64::from(n.max(2) - 1) + alive + game
}
