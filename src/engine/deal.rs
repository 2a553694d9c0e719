//! The deals of a searching bot: every card a player cannot see dealt again, consistent with
//! what the table knows and with nothing else (see ARCHITECTURE.md, `play/`).

use crate::base::Rng;
use crate::base::cards::{Card, rank_of};
use crate::ir::{MAX_SEATS, Program};

use super::{Hand, State};

impl State {
    /// Deals again, at random, every card `viewer` cannot see (the other hands, the stock, the
    /// cards out of play face down; not a card a rule moved into another hand before the
    /// viewer's eyes), consistent with what the table knows: each hand and the
    /// stock keep their sizes, a player known to hold none of some ranks gets none of them
    /// ([`State::known_not`]), the cards set aside face up stay. The future's randomness is
    /// drawn anew from `rng`, and the next deal's fixed cards are forgotten: a determinized
    /// game knows nothing the viewer does not. What it reads of the hidden cards is their
    /// multiset alone (sorted before the shuffle), so where they lay changes nothing.
    pub fn determinize(&mut self, _p: &Program, viewer: u8, rng: &mut Rng) {
        let n = usize::from(self.seats);
        let mut pool: Vec<Card> = std::mem::take(&mut self.stock);
        let stock_len = pool.len();
        let down_len = self.face_down.len();
        pool.append(&mut self.face_down);
        let mut sizes = [0usize; MAX_SEATS];
        // The cards of other hands the viewer saw moved there stay where they are.
        let mut kept = [Hand::default(); MAX_SEATS];
        for (seat, (size, hand)) in sizes
            .iter_mut()
            .zip(self.hands.iter_mut())
            .enumerate()
            .take(n)
        {
            if seat != usize::from(viewer) {
                for &c in hand.cards() {
                    if self.kept.seen.get(usize::from(c)).copied().unwrap_or(0) & (1 << viewer) != 0
                    {
                        kept[seat].push(c);
                    } else {
                        *size += 1;
                        pool.push(c);
                    }
                }
                *hand = kept[seat];
            }
        }
        deal_hidden(&mut pool, &sizes[..n], &self.known_not[..n], viewer, rng);
        // The pool, dealt: each other hand's cards, then the cards face down, then the stock.
        let mut at = 0;
        for (seat, hand) in self.hands.iter_mut().enumerate().take(n) {
            if seat == usize::from(viewer) {
                continue;
            }
            for &c in &pool[at..at + sizes[seat]] {
                hand.push(c);
            }
            at += sizes[seat];
        }
        self.face_down.extend_from_slice(&pool[at..at + down_len]);
        at += down_len;
        debug_assert_eq!(pool.len() - at, stock_len);
        pool.drain(..at);
        self.stock = pool;
        self.next_deal.clear();
        self.rng = Rng::from_seed(rng.next_u64());
    }
}

/// Deals the hidden cards `pool` at random, uniformly among the deals the table's knowledge
/// allows: the first `sizes[seat]` cards of the result go to each seat but the viewer in turn,
/// the rest stay as they fall (the cards face down, then the stock). Only the multiset of
/// `pool` counts: it is sorted before every shuffle. A deal giving a seat a rank it is known
/// not to hold is drawn again (rejection sampling: every allowed deal stays as likely as any
/// other); past [`REDEALS`] tries, the cards breaking the knowledge are swapped for allowed ones
/// from the rest (a consistent deal, if no longer quite uniform). Allocates nothing.
pub fn deal_hidden(
    pool: &mut [Card],
    sizes: &[usize],
    known_not: &[u16],
    viewer: u8,
    rng: &mut Rng,
) {
    let constrained = known_not
        .iter()
        .enumerate()
        .any(|(seat, &k)| k != 0 && seat != usize::from(viewer) && sizes[seat] > 0);
    for _ in 0..REDEALS {
        pool.sort_unstable();
        rng.shuffle(pool);
        if !constrained || breaks(pool, sizes, known_not, viewer).is_none() {
            return;
        }
    }
    // Mend: each card that breaks the knowledge changes places with a card that fits there
    // and whose place it fits (each swap mends one card and breaks none, so this ends).
    while let Some(i) = breaks(pool, sizes, known_not, viewer) {
        let Some(owner) = owner_of(i, sizes, viewer) else {
            return;
        };
        let Some(j) = (0..pool.len()).find(|&j| {
            let other = owner_of(j, sizes, viewer);
            let fits_here = known_not[owner] & (1 << rank_of(pool[j])) == 0;
            let fits_there = other.is_none_or(|o| known_not[o] & (1 << rank_of(pool[i])) == 0);
            Some(owner) != other && fits_here && fits_there
        }) else {
            return;
        };
        pool.swap(i, j);
    }
}

/// How many times a deal is drawn again before it is mended.
pub const REDEALS: usize = 64;

/// The seat whose hand the pool's card `i` is dealt to, or `None` past the hands.
fn owner_of(i: usize, sizes: &[usize], viewer: u8) -> Option<usize> {
    let mut at = 0;
    for (seat, &size) in sizes.iter().enumerate() {
        if seat == usize::from(viewer) {
            continue;
        }
        if i < at + size {
            return Some(seat);
        }
        at += size;
    }
    None
}

/// The first card of a deal given to a seat known not to hold its rank.
fn breaks(pool: &[Card], sizes: &[usize], known_not: &[u16], viewer: u8) -> Option<usize> {
    (0..pool.len()).find(|&i| {
        owner_of(i, sizes, viewer)
            .is_some_and(|seat| known_not[seat] & (1 << rank_of(pool[i])) != 0)
    })
}
