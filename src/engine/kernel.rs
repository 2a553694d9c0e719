//! Plain turns in a row, as one loop: what a simulation of built-in bots spends its time on.
//! Each turn is the one [`table_turn`](super::table_turn) plays (the plays counted from the
//! legal-choice table, one picked, laid, drawn for, the turn passed), with what stays the
//! same from turn to turn read once (a *view*): the table of the players in the round
//! (`flat.rs`: the legal-choice table by rank), the next seat of each seat in each
//! direction, the hand size. The play is the player's: the random bot's `n`-th of the plays
//! counted, or the move a weighing bot chose from the table ([`Pick`]). Whatever is not a
//! plain turn is left to the general engine, the very functions a step calls: bars the card
//! touched, the end of a round, a player who cannot play, a reshuffle; after one of them the
//! loop reads its view again when the players in the round or the game changed (each view
//! it has read is kept, so a game whose players leave the round and come back reads each
//! once). A position the table does not answer, a player the loop does not serve, or a play
//! whose outcomes fire or with a script of its own, goes back to the caller before anything
//! is changed or drawn for it (or, for the play, with it picked), so the caller plays that
//! turn the general way and the game is the same. A choice a condition decides (no script,
//! not live: its total is the table's) is laid here when none of its outcomes fires, its
//! turn effects worked out by its steps.
//!
//! One count a turn: the plays of the player to move are counted once, right after the
//! turn before ends, and that count is both the check that they can play (no play, a live
//! choice, a total outside the table: the general `settle` decides) and the list the next
//! pick is made from. A hand is read across a fixed number of slots (`W`, the widest hand
//! the program deals, a const parameter), as the bytes of one number, a cell a slot: masked
//! past the hand's cards, summed by one multiplication, the play picked found from the sums'
//! high bits, with no loop and no branch that depends on the cards.
//!
//! Laying the card and drawing after it are the step's own (`lay_card`, `draw_after_card`,
//! inlined); passing the turn is written out here for a reverse and one skip, read from the
//! view's next seats without a branch, and is the step's `pass_on` for more turns or more
//! skips.
//!
//! `tests/kernel.rs` plays every shipped ruleset both ways, game by game, with random,
//! cautious and aggressive bots, and compares the whole state (the random streams included)
//! after every batch of turns.

use super::events::kind;
use super::flat::{
    LIVE, MANY, PLAIN, REVERSES, SKIPS_ONE, TurnTable, WORKED, code_at, code_of, turn_of,
};
use super::outcomes::{Acting, finish_round};
use super::prepared::Prepared;
use super::step::{
    bars_touched, calm_turn, draw_after_card, draw_pending, lay_card, pass_on, settle, touches_bar,
};
use super::{Move, Reason, Sink, State};
use crate::base::cards::{face_of, rank_of};
use crate::ir::{MAX_HAND, Turn};

/// What the player to move picks in the loop, from the plays the table counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    /// The `n`-th of the plays counted (from 0), in the order of
    /// [`State::each_move`](super::State::each_move): a random bot's pick.
    Nth(usize),
    /// This move, chosen by the player (a bot that weighs the plays); `None`: no move.
    Move(Option<Move>),
    /// Not a player the loop serves: nothing was drawn; play the turn the general way.
    Unanswered,
}

/// Why [`loop_turns`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    /// The game is over, or `turns` reached the bound asked for.
    Ran,
    /// The next turn is not one the loop plays (a total outside the table's window, a live
    /// choice, no card to lay, a draw owed, a player it does not serve, or a game or sink it
    /// does not serve): nothing of it was done or drawn; play it the general way.
    General,
    /// The play picked for the next turn (its random numbers drawn) has steps of its own, or
    /// is not one the table counted: nothing else was done; lay it the general way, as the
    /// player's choice.
    Picked(Move),
}

/// The events a turn of the loop would have to report, were they wanted: a sink that wants
/// one of them is served the general way.
const TURN_EVENTS: u32 =
    kind::PLAY | kind::DRAW | kind::FORGOT | kind::SKIP | kind::REVERSE | kind::PLAY_AGAIN;

/// Whether [`loop_turns`] can serve this program and sink at all: no script bars, and a
/// sink that wants none of a plain turn's events. (Where players draw by hand, a bot draws
/// right after its card, as [`play_and_draw`](crate::play) has it: the loop does the same.)
#[inline]
pub fn kernel_fits<S: Sink>(p: &Prepared) -> bool {
    S::WANTS & TURN_EVENTS == 0 && p.plain_cards
}

/// `NTH_CHOICE[allowed][r]`: the `r`-th allowed choice (from 0) of a cell's four bits.
const NTH_CHOICE: [[u8; 4]; 16] = {
    let mut t = [[0u8; 4]; 16];
    let mut a = 0;
    while a < 16 {
        let (mut k, mut r) = (0, 0);
        while k < 4 {
            if a & (1 << k) != 0 {
                t[a][r] = k as u8;
                r += 1;
            }
            k += 1;
        }
        a += 1;
    }
    t
};

/// What the loop reads once, and again when the players in the round or in the game change.
#[derive(Clone, Copy)]
struct View<'p> {
    /// The table for the players in the round.
    table: &'p TurnTable,
    /// The seats out of the round and out of the game it was read for.
    out: (u16, u16),
    /// By direction (clockwise second) and seat, the next seat in the round.
    next: [[u8; 16]; 2],
    /// The hand a player draws up to.
    size: usize,
}

impl<'p> View<'p> {
    #[inline(never)]
    fn new(p: &'p Prepared, s: &State) -> View<'p> {
        // The seats in the round; from each seat, the first of them going round the table
        // (the seat itself last), found by bits: what `State::next_seat` walks to.
        let n = u32::from(s.seats.min(16));
        let inside = !u32::from(s.out_of_round) & ((1 << n) - 1);
        let mut next = [[0u8; 16]; 2];
        for seat in 0..n {
            let above = inside & !((2 << seat) - 1);
            let below = inside & ((1 << seat) - 1);
            let (first, last) = (
                inside.trailing_zeros(),
                31u32.wrapping_sub(inside.leading_zeros()),
            );
            let clockwise = match (above, inside) {
                (0, 0) => seat,
                (0, _) => first,
                _ => above.trailing_zeros(),
            };
            let counter = match (below, inside) {
                (0, 0) => seat,
                (0, _) => last,
                _ => 31 - below.leading_zeros(),
            };
            next[1][seat as usize] = clockwise as u8;
            next[0][seat as usize] = counter as u8;
            debug_assert_eq!(clockwise as u8, s.next_seat(seat as u8, true));
            debug_assert_eq!(counter as u8, s.next_seat(seat as u8, false));
        }
        View {
            table: TurnTable::of(p, s.active()),
            out: (s.out_of_round, s.out_of_game),
            next,
            size: p.hand_size(s.seats_in_game()),
        }
    }

    /// This view, or the one of the players now in the round and the game when they have
    /// changed (from `seen` when it was read before).
    #[inline(always)]
    fn renew(self, p: &'p Prepared, s: &State, seen: &mut Views<'p>) -> View<'p> {
        if (s.out_of_round, s.out_of_game) == self.out {
            self
        } else {
            seen.get(p, s)
        }
    }

    /// The next seat in the round after `seat` in direction `clockwise`.
    #[inline(always)]
    fn after(&self, clockwise: bool, seat: u8) -> u8 {
        self.next[usize::from(clockwise)][usize::from(seat) & 15]
    }
}

/// The views read in one call of the loop, by the seats out of the round and of the game: a
/// game where players leave the round and come back (a stuck player out until the next
/// deal) reads each only once.
struct Views<'p>([Option<View<'p>>; 16]);

impl<'p> Views<'p> {
    #[inline]
    fn get(&mut self, p: &'p Prepared, s: &State) -> View<'p> {
        let key = (s.out_of_round, s.out_of_game);
        let at = usize::from(key.0.wrapping_mul(7) ^ key.1.wrapping_mul(13)) & 15;
        match self.0[at] {
            Some(v) if v.out == key => v,
            _ => {
                let v = View::new(p, s);
                self.0[at] = Some(v);
                v
            }
        }
    }
}

/// A hand's slots as the bytes of one number, slot `j` in byte `j`: `u64` for hands of up
/// to eight cards, `u128` for longer ones. A count kept a byte a slot is summed, masked and
/// searched in a few operations on the whole number, with no loop and no branch.
trait Lanes:
    Copy
    + Eq
    + std::ops::BitOr<Output = Self>
    + std::ops::BitAnd<Output = Self>
    + std::ops::Shl<u32, Output = Self>
    + std::ops::Shr<u32, Output = Self>
{
    const ZERO: Self;
    /// One in every byte.
    const ONES: Self;
    /// The high bit of every byte.
    const HIGH: Self;
    /// Seven in every byte.
    const SEVENS: Self;
    const BITS: u32;
    fn byte(b: u8) -> Self;
    fn low(self) -> u8;
    fn wrapping_mul(self, o: Self) -> Self;
    fn wrapping_sub(self, o: Self) -> Self;
    /// The bytes of slots `0..len` all ones, the others zero.
    fn first(len: usize) -> Self;
}

macro_rules! lanes {
    ($t:ty) => {
        impl Lanes for $t {
            const ZERO: $t = 0;
            const ONES: $t = <$t>::MAX / 0xff;
            const HIGH: $t = <$t>::MAX / 0xff * 0x80;
            const SEVENS: $t = <$t>::MAX / 0xff * 7;
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn byte(b: u8) -> $t {
                <$t>::from(b)
            }
            #[inline(always)]
            fn low(self) -> u8 {
                self as u8
            }
            #[inline(always)]
            fn wrapping_mul(self, o: $t) -> $t {
                <$t>::wrapping_mul(self, o)
            }
            #[inline(always)]
            fn wrapping_sub(self, o: $t) -> $t {
                <$t>::wrapping_sub(self, o)
            }
            #[inline(always)]
            fn first(len: usize) -> $t {
                const BYTES: usize = <$t>::BITS as usize / 8;
                const FIRST: [$t; BYTES + 1] = {
                    let mut t = [0; BYTES + 1];
                    let mut i = 1;
                    while i <= BYTES {
                        t[i] = (t[i - 1] << 8) | 0xff;
                        i += 1;
                    }
                    t
                };
                FIRST[len.min(BYTES)]
            }
        }
    };
}
lanes!(u64);
lanes!(u128);

// A live cell is one whose byte's high bit is set: `Lanes::HIGH` finds them all at once.
const _: () = assert!(LIVE == 0x80);

/// The plays of the player to move, counted across the first `W` slots of their hand.
#[derive(Clone, Copy)]
struct Count<L> {
    /// The row of the total in the table.
    row: usize,
    /// By slot: the cell (its allowed choices), zero past the hand's cards.
    cells: L,
    /// By slot: the plays of the slots up to it.
    sums: L,
    /// Every play of the hand.
    plays: u32,
}

impl<L: Lanes> Count<L> {
    /// Where play `n` (below [`Count::plays`]) is: its slot, and which of its card's
    /// allowed choices it is (from 0). The slots whose running sums are at most `n` come
    /// before it: counted by their bytes' high bits, with no loop whose exit depends on `n`.
    #[inline(always)]
    fn find(&self, n: u8) -> (usize, usize) {
        let before = (L::byte(n).wrapping_mul(L::ONES) | L::HIGH).wrapping_sub(self.sums) & L::HIGH;
        let index = ((before >> 7).wrapping_mul(L::ONES) >> (L::BITS - 8)).low();
        let place = 8 * u32::from(index);
        let earlier = ((self.sums << 8) >> place).low();
        (usize::from(index), usize::from(n.wrapping_sub(earlier)))
    }

    /// The cell of slot `index`.
    #[inline(always)]
    fn cell(&self, index: usize) -> u8 {
        (self.cells >> (8 * index as u32)).low()
    }

    /// Where `mv`, a play of the player to move, is in the count: its card's slot and its
    /// choice, when the table counted it (the first of two copies of a card, a choice the
    /// cell allows); `None` otherwise.
    #[inline(always)]
    fn place_of<const W: usize>(&self, s: &State, mv: Move) -> Option<(usize, usize)> {
        let Move::Play { card, choice } = mv else {
            return None;
        };
        let hand = s.hands[usize::from(s.turn)].cards();
        let index = hand.iter().take(W).position(|&c| c == card)?;
        let k = usize::from(choice);
        (k < 4 && self.cell(index) >> k & 1 != 0).then_some((index, k))
    }
}

/// The plays of the player to move, when the table answers for every card of their hand:
/// its total is in the window, the hand fits `W` slots and no card has a live choice.
/// `None` otherwise (as with no play: the general engine decides). With several decks
/// (`COPIES`), two copies of one card in a hand are one move: the later one has none.
#[inline(always)]
fn count<const W: usize, const COPIES: bool, L: Lanes>(
    p: &Prepared,
    t: &TurnTable,
    s: &State,
) -> Option<Count<L>> {
    let row = t.row(s.total)?;
    let cells = t.cells(row)?;
    let hand = &s.hands[usize::from(s.turn)];
    let len = hand.len();
    if len > W {
        return None;
    }
    let slots = hand.slots();
    let (mut word, mut seen) = (L::ZERO, 0u64);
    for (j, &card) in slots.iter().enumerate().take(W) {
        let rank = rank_of(card);
        let mut cell = cells[usize::from(rank) & 15];
        debug_assert!(j >= len || cell == expected_cell(p, s, rank));
        if COPIES {
            let face = face_of(card);
            cell &= (((seen >> face) & 1) as u8).wrapping_sub(1);
            seen |= 1 << face;
        }
        word = word | (L::byte(cell) << (8 * j as u32));
    }
    let cells = word & L::first(len);
    if cells & L::HIGH != L::ZERO {
        return None;
    }
    let sums = ((cells >> 4) & L::SEVENS).wrapping_mul(L::ONES);
    let plays = u32::from((sums >> (8 * (W as u32 - 1))).low());
    (plays > 0).then_some(Count {
        row,
        cells,
        sums,
        plays,
    })
}

/// The legal-choice table's cell of `rank` at the state's total, as the flat table keeps it
/// (debug builds check every cell a turn reads against it).
fn expected_cell(p: &Prepared, s: &State, rank: u8) -> u8 {
    let fx = p.effect_index(s.active(), rank);
    p.legal
        .row(s.total)
        .map_or(0, |row| super::flat::flat_cell(row.cell(fx)))
}

/// Plays the turns of players who each pick from the plays the table counts (`choose(s,
/// n)`: the state before the turn and the number of plays, `n > 0`), until the game is over
/// or `s.turns` reaches `until`, or a turn comes that the loop leaves to the caller (see
/// [`Kernel`]). The same game, move for move and number for number, as playing each turn
/// with the same choices and the general step. Only for a program and sink that
/// [`kernel_fits`]; otherwise it returns [`Kernel::General`] at once.
pub fn loop_turns<S: Sink>(
    p: &Prepared,
    s: &mut State,
    choose: &mut impl FnMut(&State, usize) -> Pick,
    until: u64,
    sink: &mut S,
) -> Kernel {
    if !kernel_fits::<S>(p) {
        return Kernel::General;
    }
    // The widest hand the program deals: a hand is read across that many slots. A game
    // that starts with more players deals by those left in it as players go out.
    match (p.widest_hand(usize::from(p.max_players)), p.copies(s.seats)) {
        (0..=3, false) => turns::<3, false, u64, S>(p, s, choose, until, sink),
        (0..=3, true) => turns::<3, true, u64, S>(p, s, choose, until, sink),
        (4, false) => turns::<4, false, u64, S>(p, s, choose, until, sink),
        (4, true) => turns::<4, true, u64, S>(p, s, choose, until, sink),
        (5, false) => turns::<5, false, u64, S>(p, s, choose, until, sink),
        (5, true) => turns::<5, true, u64, S>(p, s, choose, until, sink),
        (6..=8, false) => turns::<8, false, u64, S>(p, s, choose, until, sink),
        (6..=8, true) => turns::<8, true, u64, S>(p, s, choose, until, sink),
        (_, false) => turns::<MAX_HAND, false, u128, S>(p, s, choose, until, sink),
        (_, true) => turns::<MAX_HAND, true, u128, S>(p, s, choose, until, sink),
    }
}

/// [`loop_turns`] for hands of at most `W` cards (a longer one is left to the caller), in
/// a game with several decks or not (`COPIES`), the hands counted in `L`.
fn turns<const W: usize, const COPIES: bool, L: Lanes, S: Sink>(
    p: &Prepared,
    s: &mut State,
    choose: &mut impl FnMut(&State, usize) -> Pick,
    until: u64,
    sink: &mut S,
) -> Kernel {
    if s.pending_draw.is_some() {
        return Kernel::General;
    }
    let mut seen = Views([None; 16]);
    let mut v = seen.get(p, s);
    // Counted afresh: on the way in, and after the general engine has been at the table.
    'fresh: loop {
        if s.over || s.turns >= until {
            return Kernel::Ran;
        }
        // The view is the table's for the players in the round now.
        debug_assert_eq!(v.out, (s.out_of_round, s.out_of_game));
        let Some(mut c) = count::<W, COPIES, L>(p, v.table, s) else {
            return Kernel::General;
        };
        // Plain turns, each counting the next player's plays.
        loop {
            let seat = s.turn;
            let (index, k) = match choose(s, c.plays as usize) {
                Pick::Nth(n) if n < c.plays as usize => {
                    let (index, r) = c.find(n as u8);
                    let index = index.min(W - 1);
                    let k = NTH_CHOICE[usize::from(c.cell(index) & 0x0f)][r & 3];
                    (index, usize::from(k))
                }
                Pick::Move(Some(mv)) => match c.place_of::<W>(s, mv) {
                    Some(place) => place,
                    // Not a play the table counted: the general way lays it, or refuses
                    // it, as the player's choice.
                    None => return Kernel::Picked(mv),
                },
                // Not an answer a player may give (no move, a play past the count), or not
                // a player the loop serves: the general way decides.
                Pick::Nth(_) | Pick::Move(None) | Pick::Unanswered => return Kernel::General,
            };
            let card = s.hands[usize::from(seat)].slots()[index.min(MAX_HAND - 1)];
            let rank = rank_of(card);
            let choice = k as u8;
            let mut code = v.table.codes()[code_at(rank, k)];
            if code & PLAIN == 0 {
                match worked_code(p, s, code, rank, k) {
                    Some(worked) => code = worked,
                    None => return Kernel::Picked(Move::Play { card, choice }),
                }
            }
            let Some(total) = v.table.total(c.row, rank, k) else {
                return Kernel::General;
            };
            debug_assert!(super::Illegal::beyond_limits(p, total).is_none());
            debug_assert_eq!(
                Some(total),
                s.table_plays(p).map(|_| s.play_of(p, card, choice).total)
            );

            // Laid: the card from its place in the hand to the discard pile.
            let old = s.total;
            if W <= 8 {
                lay_card!(s, seat, index, total, remove_early);
            } else {
                lay_card!(s, seat, index, total, remove);
            }
            debug_assert_eq!(
                v.table.touches_bar(c.row, total).unwrap_or(false),
                touches_bar(p, old, total)
            );
            if v.table.touches_bar(c.row, total) == Some(true) {
                let by = Acting {
                    actor: seat,
                    reason: Reason::Card(rank),
                    turn: turn_of(code),
                };
                bars_touched(p, s, by, old, total, None, sink);
                if s.round_over || s.over {
                    finish_round(p, s, true, sink);
                    s.turns += 1;
                    settle(p, s, sink);
                    v = v.renew(p, s, &mut seen);
                    continue 'fresh;
                }
                v = v.renew(p, s, &mut seen);
                if s.in_round(seat) {
                    draw_after_card(p, s, seat, v.size, sink);
                }
            } else {
                draw_after_card(p, s, seat, v.size, sink);
            }

            // The turn passes.
            s.turn = if code & MANY == 0 && s.again == 0 && s.kept.skips == 0 {
                // A card that reverses, skips one player or neither: read from the view,
                // the same way whichever it is.
                let clockwise = s.clockwise ^ (code & REVERSES != 0);
                s.clockwise = clockwise;
                let next = v.after(clockwise, seat);
                let after = v.after(clockwise, next);
                if code & SKIPS_ONE != 0 { after } else { next }
            } else {
                pass_with(s, seat, turn_of(code), sink)
            };
            s.turns += 1;

            // Whoever is to play is counted: most turns they can play, and the count is the
            // next turn's. When they cannot (or the table does not answer), the general
            // engine deals with them.
            let next = count::<W, COPIES, L>(p, v.table, s);
            if next.is_none() {
                settle(p, s, sink);
                v = v.renew(p, s, &mut seen);
            }
            // The draw by hand, right after the card (a game that ends clears the draw
            // owed).
            if s.pending_draw == Some(seat) {
                debug_assert!(!s.over);
                draw_pending(p, s, sink);
                if s.turn == seat {
                    // The drawer is to play again, and was counted before the draw; the
                    // general engine has settled them, which may have taken players out.
                    v = v.renew(p, s, &mut seen);
                    continue 'fresh;
                }
            }
            match next {
                Some(next) if s.turns < until => c = next,
                _ => continue 'fresh,
            }
        }
    }
}

/// The code of choice `k` of `rank`, a [`WORKED`] one (its code says so), with the turn
/// effects its steps give it now; `None` for a choice the loop does not lay: not one its
/// code lets it work out, or one whose outcomes fire now.
#[cold]
#[inline(never)]
fn worked_code(p: &Prepared, s: &State, code: u32, rank: u8, k: usize) -> Option<u32> {
    if code & WORKED == 0 {
        return None;
    }
    let ch = p.choice(p.effect_index(s.active(), rank), k)?;
    calm_turn(p, s, ch).map(|turn| PLAIN | code_of(turn))
}

/// Who plays after `seat`'s card with turn effects `turn`, as the step passes the turn:
/// out of line, for the cards that do more than reverse or skip one.
#[inline(never)]
fn pass_with<S: Sink>(s: &mut State, seat: u8, turn: Turn, sink: &mut S) -> u8 {
    pass_on(s, seat, turn, sink);
    s.turn
}
