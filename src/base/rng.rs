//! The seeded random numbers behind every shuffle and every bot's choice.
//!
//! xoshiro256++ stepped here, so the state can live inside a game's state, from a state made of
//! the first four outputs of `rand_xoshiro`'s generator seeded with `seed_from_u64`; our own
//! Fisher–Yates shuffle and Lemire's multiply-shift for a number below `n`. No library's sampling algorithm is involved, so one seed gives one
//! game on every machine and every version.

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use serde::{Deserialize, Serialize};

/// A xoshiro256++ stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Rng([u64; 4]);

impl Rng {
    /// The stream of a seed: its state is the first four outputs of `rand_xoshiro`'s
    /// xoshiro256++ seeded with `seed_from_u64`.
    pub fn from_seed(seed: u64) -> Rng {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        Rng([
            rng.next_u64(),
            rng.next_u64(),
            rng.next_u64(),
            rng.next_u64(),
        ])
    }

    /// The stream from its four words, as [`Rng::words`] gives them (a saved game's).
    pub fn from_words(words: [u64; 4]) -> Rng {
        Rng(words)
    }

    /// The stream's four words.
    pub fn words(&self) -> [u64; 4] {
        self.0
    }

    /// Whether the generator can be in this state: every state but all zeros, which it never
    /// leaves (and never reaches from a seed).
    pub fn can_be(&self) -> bool {
        self.0 != [0; 4]
    }

    /// The bots' stream of a game, independent of the game's own.
    pub fn for_bots(seed: u64) -> Rng {
        Rng::from_seed(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    /// The next 64 random bits (a seed for another stream).
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.0;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform index below `n` (Lemire's multiply-shift; its tiny bias is fixed by the seed,
    /// so it is deterministic, which is what matters here).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// Fisher–Yates, from the last item down.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// A game's seed from a run's seed and the game's number: splitmix64, so neighbouring games
/// are unrelated and any thread can play any game.
pub fn game_seed(master: u64, index: u64) -> u64 {
    let mut z = master ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOLDEN: [usize; 4] = [156, 56, 193, 358];

    #[test]
    fn one_seed_gives_one_stream_forever() {
        // Pinned: a change here changes every saved game and every seeded run.
        let mut rng = Rng::from_seed(42);
        let first: Vec<usize> = (0..4).map(|_| rng.below(1000)).collect();
        assert_eq!(first, GOLDEN);
    }

    #[test]
    fn below_stays_below_and_shuffle_permutes() {
        let mut rng = Rng::from_seed(7);
        for n in 1..50 {
            assert!(rng.below(n) < n);
        }
        let mut items: Vec<u8> = (0..52).collect();
        rng.shuffle(&mut items);
        let mut sorted = items.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..52).collect::<Vec<u8>>());
        assert_ne!(items, sorted);
    }

    #[test]
    fn games_of_one_run_get_different_seeds() {
        assert_ne!(game_seed(1, 0), game_seed(1, 1));
        assert_eq!(game_seed(9, 3), game_seed(9, 3));
    }
}
