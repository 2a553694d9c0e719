//! A game's whole state as plain data (hands in fixed arrays, seats as bit sets), the legal
//! moves list that lives on the stack, and the questions about the table every stage asks.
//! The hands and the discard pile are `hand.rs`'s.

use serde::{Deserialize, Serialize};

use super::{Hand, Pile};
use crate::base::Rng;
use crate::base::cards::{Card, card_name, rank_counts};
use crate::ir::{self, MAX_CHOICES, MAX_HAND, MAX_SEATS, Program};

/// A move: lay a card with one of its choices, or draw (when players draw by hand), or one
/// of the ruleset's moves beside laying a card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Move {
    Play {
        card: Card,
        choice: u8,
    },
    Draw,
    /// A card laid with a choice that names a player (`choose who plays next`, `a player of
    /// their choice pays 1`): the seat named, another player in the round.
    Aim {
        card: Card,
        choice: u8,
        seat: u8,
    },
    /// A card laid with a choice that gives a card of the player's choice (`the player gives
    /// a card of their choice to the next player`): `gift`, another card of their hand.
    Give {
        card: Card,
        choice: u8,
        gift: Card,
    },
    /// A move beside laying a card: [`Program::others`]' move `index`, with the card of the
    /// hand it names (`discard KS`), or 0 for a move that names none.
    Other {
        index: u8,
        card: Card,
    },
    /// A player who cannot play, offered other moves, takes what the rules give a player who
    /// cannot play.
    Yield,
}

impl Move {
    /// The card of the hand the move lays or names, if any.
    pub fn card(self) -> Option<Card> {
        match self {
            Move::Play { card, .. } | Move::Aim { card, .. } | Move::Give { card, .. } => {
                Some(card)
            }
            Move::Other { index: _, card } if card != 0 => Some(card),
            Move::Other { .. } | Move::Draw | Move::Yield => None,
        }
    }

    /// The card laid and its choice, for a move that lays a card of the hand.
    pub fn laid(self) -> Option<(Card, u8)> {
        match self {
            Move::Play { card, choice }
            | Move::Aim { card, choice, .. }
            | Move::Give { card, choice, .. } => Some((card, choice)),
            Move::Other { .. } | Move::Draw | Move::Yield => None,
        }
    }
}

/// Most moves of one position: every choice of every card, once for each player a choice
/// may name or each other card of the hand it may give (never both: `check` refuses a line
/// that would), every card a move beside laying one may name, a draw and a yield.
pub const MAX_MOVES: usize =
    MAX_HAND * MAX_CHOICES * most(MAX_SEATS - 1, MAX_HAND - 1) + ir::MAX_OTHERS * MAX_HAND + 2;

const fn most(a: usize, b: usize) -> usize {
    if a > b { a } else { b }
}

/// The legal moves of a position, on the stack.
#[derive(Debug, Clone, Copy)]
pub struct Moves {
    list: [Move; MAX_MOVES],
    /// The total each move makes.
    totals: [i32; MAX_MOVES],
    pub(super) len: usize,
}

impl Default for Moves {
    fn default() -> Self {
        Self::new()
    }
}

impl Moves {
    /// An empty list.
    pub fn new() -> Moves {
        Moves {
            // All zero bytes (`Play` is the first variant): the list is cleared in a few
            // stores.
            list: [Move::Play { card: 0, choice: 0 }; MAX_MOVES],
            totals: [0; MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.list[..self.len]
    }
    /// The total after each move of [`Moves::as_slice`].
    #[inline]
    pub fn totals(&self) -> &[i32] {
        &self.totals[..self.len]
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline]
    pub(super) fn push(&mut self, m: Move, total: i32) {
        self.list[self.len] = m;
        self.totals[self.len] = total;
        self.len += 1;
    }
    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// Keeps the cards only (drops `draw`).
    pub fn retain_plays(&mut self) {
        if self.len > 0 && self.list[0] == Move::Draw {
            self.list.copy_within(1..self.len, 0);
            self.totals.copy_within(1..self.len, 0);
            self.len -= 1;
        }
    }
}

/// The whole state of a game: plain data, copied for undo. Not serialisable: a saved game is
/// the save format's own type, converted to and from this explicitly (`app::session`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    pub seats: u8,
    pub hands: [Hand; MAX_SEATS],
    /// The stock; its top card is the last.
    pub stock: Vec<Card>,
    /// The discard pile; its top card is the last.
    pub discard: Pile,
    /// Cards out of play face up until the next deal (a reset pile): every player has seen them.
    pub aside: Vec<Card>,
    /// Cards out of play face down until the next deal (the hands of players out of the round,
    /// the deck a position left out of the stock): no player may know them.
    pub face_down: Vec<Card>,
    pub total: i32,
    pub clockwise: bool,
    pub turn: u8,
    /// Chips by account: a seat's own, or its team's (see [`State::account`]).
    pub chips: [i32; MAX_SEATS],
    pub bank: i32,
    pub pot: i32,
    pub round: u32,
    pub dealer: u8,
    /// Bit sets of seats.
    pub out_of_game: u16,
    pub out_of_round: u16,
    pub forgot: [u8; MAX_SEATS],
    /// A seat that has just played and may still draw (players draw by hand).
    pub pending_draw: Option<u8>,
    pub round_winner: Option<u8>,
    pub round_loser: Option<u8>,
    /// The round is over, its end not yet dealt with (inside a step only).
    pub round_over: bool,
    pub over: bool,
    pub winners: u16,
    pub turns: u64,
    /// More turns the player to move has after this one (`play again twice`).
    pub again: u8,
    /// By seat, the ranks the table knows that seat does not hold: a player who could not
    /// play and kept their cards holds none of the ranks that could be laid then (public
    /// knowledge, what a determinizer may use). Forgotten as the hand changes.
    pub known_not: [u16; MAX_SEATS],
    /// The seats put out of the game by the outcomes that ran last: when they were the last
    /// in it, they share the win.
    pub out_now: u16,
    /// The winners a line declared (`the player wins the game`), when one did.
    pub declared: u16,
    /// Who laid the card on top of the discard pile this round, and the one under it
    /// ([`NO_SEAT`] when no one has yet).
    pub laid_by: [u8; 2],
    /// The top of the stock at the next deal, top first (a position can fix it).
    pub next_deal: Vec<Card>,
    /// The game's own random stream: the shuffles.
    pub rng: Rng,
    /// Set when the game stopped because it could not go on (it is `over`, with no winner).
    pub stuck: Option<super::Stall>,
    /// What the table keeps besides the cards and the chips (the ruleset's counts...).
    pub kept: Kept,
}

/// What the table keeps besides the cards and the chips, for the rules that read it: the
/// ruleset's own counts, where this round began, the run of one rank carried past a gathering
/// of the discard pile, and the `when N players are left` moments that have run. Nothing on
/// the hot path of a card touches it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Kept {
    /// The ruleset's counts: count `i` of seat `x` at `i * MAX_SEATS + x` (a count of the
    /// table's at `x = 0`). Empty for a ruleset that keeps none.
    pub counts: Vec<i32>,
    /// The cards laid in the game (`State::turns`) when this round began.
    pub round_began: u64,
    /// The run the discard pile held when it was last gathered into the stock, all but its
    /// top card: that card's rank, and how many of that rank lay in a row under it.
    pub run_carry: (u8, u8),
    /// The `when N players are left` moments that have run: bit `N`.
    pub left_fired: u16,
    /// The seat the move being played names ([`Move::Aim`]); `None` between moves.
    pub aim: Option<u8>,
    /// The card of their hand the move being played gives away ([`Move::Give`]); `None`
    /// between moves.
    pub gift: Option<Card>,
    /// The moments after a card are running: the card is counted among those laid this
    /// round (`State::turns` counts it once its turn is over).
    pub after_card: bool,
    /// While the moments after a card run: the rank of the card under it (`the previous
    /// card`, as in the card's own line), read before the player's draw.
    pub under: Option<u8>,
    /// By card id, the seats that know the card is in the hand that holds it, besides its
    /// holder: a rule moved it between hands before their eyes ([`State::seen_by`]). Empty
    /// until a card so moves (and after every deal).
    pub seen: Vec<u16>,
    /// Players a line outside a card said to skip (`after each card, ...: skip the next
    /// player`), passed over when the turn next passes.
    pub skips: u8,
}

impl Kept {
    /// A game's start: every count where it starts.
    pub fn start(&mut self, p: &Program) {
        self.counts.clear();
        for c in &p.counts {
            self.counts.extend(std::iter::repeat_n(c.start, MAX_SEATS));
        }
        self.round_began = 0;
        self.run_carry = (0, 0);
        self.left_fired = 0;
        self.aim = None;
        self.gift = None;
        self.after_card = false;
        self.seen.clear();
        self.skips = 0;
    }

    /// Count `i`'s value for `seat` (the table's own count for any seat).
    pub fn count(&self, p: &Program, i: u8, seat: u8) -> i32 {
        let x = if p.counts.get(usize::from(i)).is_some_and(|c| c.per_player) {
            usize::from(seat)
        } else {
            0
        };
        self.counts
            .get(usize::from(i) * MAX_SEATS + x)
            .copied()
            .unwrap_or(0)
    }

    /// Count `i` of `seat` (the table's own for any seat), to change.
    pub fn count_mut(&mut self, p: &Program, i: u8, seat: u8) -> Option<&mut i32> {
        let x = if p.counts.get(usize::from(i)).is_some_and(|c| c.per_player) {
            usize::from(seat)
        } else {
            0
        };
        self.counts.get_mut(usize::from(i) * MAX_SEATS + x)
    }
}

/// No seat: who laid a card that no one has laid yet.
pub const NO_SEAT: u8 = u8::MAX;

impl State {
    /// Chips of a seat are kept in its account: its own, or its team's.
    #[inline]
    pub fn account(&self, p: &Program, seat: u8) -> usize {
        match p.team_size {
            Some(size) if size > 0 => {
                usize::from(seat) % (usize::from(self.seats) / usize::from(size)).max(1)
            }
            _ => usize::from(seat),
        }
    }

    #[inline]
    pub fn chips_of(&self, p: &Program, seat: u8) -> i32 {
        self.chips[self.account(p, seat)]
    }

    /// What `seat` holds that an ending, the winner or the leader goes by.
    pub fn holding_of(&self, p: &Program, seat: u8, by: crate::ir::Holding) -> i32 {
        match by {
            crate::ir::Holding::Chips => self.chips_of(p, seat),
            crate::ir::Holding::Count(i) => self.kept.count(p, i, seat),
        }
    }

    #[inline]
    pub fn in_game(&self, seat: u8) -> bool {
        self.out_of_game & (1 << seat) == 0
    }

    #[inline]
    pub fn in_round(&self, seat: u8) -> bool {
        self.out_of_round & (1 << seat) == 0
    }

    /// How many teams (or players, without teams) have a seat not in `out`.
    #[inline]
    pub fn teams(&self, p: &Program, out: u16) -> u32 {
        if p.team_size.is_none_or(|size| size == 0) {
            // A seat's own account: the seats themselves.
            return seats_in(self.seat_mask() & !out) as u32;
        }
        let mut accounts = 0u16;
        for x in 0..self.seats {
            if out & (1 << x) == 0 {
                accounts |= 1 << self.account(p, x);
            }
        }
        accounts.count_ones()
    }

    #[inline]
    pub fn active(&self) -> usize {
        seats_in(self.seat_mask() & !self.out_of_round)
    }

    #[inline]
    pub fn seats_in_game(&self) -> usize {
        seats_in(self.seat_mask() & !self.out_of_game)
    }

    #[inline]
    fn seat_mask(&self) -> u16 {
        ((1u32 << self.seats) - 1) as u16
    }

    /// The effect a rank has now (it may depend on how many players are left).
    #[inline]
    pub fn effect<'p>(&self, p: &'p Program, rank: u8) -> Option<&'p ir::Effect> {
        p.effect_for(self.active(), rank)
    }
}

impl State {
    /// The next seat still in the round, `steps` seats on in the direction of play.
    #[inline]
    pub(super) fn next_seat(&self, from: u8, clockwise: bool) -> u8 {
        self.next_in(self.out_of_round, from, clockwise)
    }

    /// Who plays after `actor` in direction `clockwise` (the direction once the card is
    /// done) with `turn`'s skips, each player passed over told to `skipped` (with whether it was
    /// skipped before a reverse) in the order the card said it: first the ones skipped before a reverse (`back`, on the side play turned
    /// away from, passed over only if play comes round to them), then the ones skipped after.
    pub(super) fn skip_from(
        &self,
        actor: u8,
        clockwise: bool,
        turn: crate::ir::Turn,
        mut skipped: impl FnMut(u8, bool),
    ) -> u8 {
        // Seats skipped on the other side, by bit, each passed over once.
        let mut marked: u16 = 0;
        let mut x = actor;
        for _ in 0..turn.back {
            x = self.next_seat(x, !clockwise);
            if x == actor {
                break;
            }
            marked |= 1 << x;
            skipped(x, true);
        }
        let pass = |mut next: u8, marked: &mut u16| {
            while *marked & 1 << next != 0 {
                *marked &= !(1 << next);
                next = self.next_seat(next, clockwise);
            }
            next
        };
        let mut next = pass(self.next_seat(actor, clockwise), &mut marked);
        for _ in 0..turn.skip {
            skipped(next, false);
            next = pass(self.next_seat(next, clockwise), &mut marked);
        }
        next
    }

    pub(super) fn next_in_game(&self, from: u8, clockwise: bool) -> u8 {
        self.next_in(self.out_of_game, from, clockwise)
    }

    /// The next seat not in `out`, going round the table (no division on the hot path).
    /// A walk, not bit arithmetic: the next seat is nearly always the first one looked at,
    /// so the loop is predicted and short, where a bit search lengthens every turn's chain
    /// (measured: about 5% slower).
    #[inline]
    fn next_in(&self, out: u16, from: u8, clockwise: bool) -> u8 {
        let last = self.seats - 1;
        let mut s = from;
        for _ in 0..self.seats {
            s = match (clockwise, s) {
                (true, s) if s >= last => 0,
                (true, s) => s + 1,
                (false, 0) => last,
                (false, s) => s - 1,
            };
            if out & (1 << s) == 0 {
                return s;
            }
        }
        from
    }
}

impl State {
    /// Every card is in exactly one place, and chips are conserved.
    pub fn check_invariants(&self, p: &Program) -> Result<(), String> {
        let n = usize::from(self.seats);
        if let Some(h) = self.hands.iter().find(|h| h.len() > MAX_HAND) {
            return Err(format!("a hand holds {} cards", h.len()));
        }
        // The counts by rank kept beside the cards, which the bots read.
        if let Some(seat) =
            (0..n).find(|&i| self.hands[i].ranks() != rank_counts(self.hands[i].cards()))
        {
            return Err(format!(
                "seat {seat}'s count by rank disagrees with its hand"
            ));
        }
        if self.discard.ranks() != rank_counts(&self.discard) {
            return Err("the discard pile's count by rank disagrees with its cards".into());
        }
        if let Some(seat) = self
            .laid_by
            .iter()
            .find(|&&x| x != NO_SEAT && usize::from(x) >= n)
        {
            return Err(format!(
                "the last cards were laid by seat {seat}, not at the table"
            ));
        }
        // As many cards as the deck holds: then no card can be counted so often that its
        // counter wraps.
        let held = self.hands[..n].iter().map(Hand::len).sum::<usize>()
            + self.stock.len()
            + self.discard.len()
            + self.aside.len()
            + self.face_down.len();
        if held != p.deck_size(n) {
            return Err(format!(
                "{held} cards are on the table, but the deck holds {}",
                p.deck_size(n)
            ));
        }
        // No allocation unless something is wrong: this runs after every step in debug builds.
        let mut count = [0u32; 256];
        for h in &self.hands[..n] {
            for &c in h.cards() {
                count[usize::from(c)] += 1;
            }
        }
        for &c in self
            .stock
            .iter()
            .chain(self.discard.iter())
            .chain(&self.aside)
            .chain(&self.face_down)
        {
            count[usize::from(c)] += 1;
        }
        for c in p.deck(n) {
            if count[usize::from(c)] != 1 {
                return Err(format!(
                    "{} is in {} places",
                    card_name(c),
                    count[usize::from(c)]
                ));
            }
            count[usize::from(c)] = 0;
        }
        if let Some(c) = count.iter().position(|&k| k != 0) {
            return Err(format!("card {c} is not in the deck"));
        }
        for seat in 0..self.seats {
            if !self.in_round(seat) && !self.hands[usize::from(seat)].is_empty() {
                return Err(format!("seat {seat} is out of the round but holds cards"));
            }
        }
        Ok(())
    }

    /// `self` made equal to `other`, keeping the buffers `self` already has (a search copies
    /// a game many times a move without allocating).
    pub fn copy_from(&mut self, other: &State) {
        let State {
            seats,
            hands,
            stock,
            discard,
            aside,
            face_down,
            total,
            clockwise,
            turn,
            chips,
            bank,
            pot,
            round,
            dealer,
            out_of_game,
            out_of_round,
            forgot,
            pending_draw,
            round_winner,
            round_loser,
            round_over,
            over,
            winners,
            turns,
            again,
            known_not,
            out_now,
            declared,
            laid_by,
            next_deal,
            rng,
            stuck,
            kept,
        } = other;
        self.seats = *seats;
        self.hands = *hands;
        self.stock.clone_from(stock);
        self.discard.clone_from(discard);
        self.aside.clone_from(aside);
        self.face_down.clone_from(face_down);
        self.total = *total;
        self.clockwise = *clockwise;
        self.turn = *turn;
        self.chips = *chips;
        self.bank = *bank;
        self.pot = *pot;
        self.round = *round;
        self.dealer = *dealer;
        self.out_of_game = *out_of_game;
        self.out_of_round = *out_of_round;
        self.forgot = *forgot;
        self.pending_draw = *pending_draw;
        self.round_winner = *round_winner;
        self.round_loser = *round_loser;
        self.round_over = *round_over;
        self.over = *over;
        self.winners = *winners;
        self.turns = *turns;
        self.again = *again;
        self.known_not = *known_not;
        self.out_now = *out_now;
        self.declared = *declared;
        self.laid_by = *laid_by;
        self.next_deal.clone_from(next_deal);
        self.rng = *rng;
        self.stuck = *stuck;
        self.kept.counts.clone_from(&kept.counts);
        self.kept.round_began = kept.round_began;
        self.kept.run_carry = kept.run_carry;
        self.kept.left_fired = kept.left_fired;
        self.kept.after_card = kept.after_card;
        self.kept.seen.clone_from(&kept.seen);
    }

    /// All chips: seats' accounts, the bank and the pot.
    pub fn chips_total(&self, p: &Program) -> i32 {
        let mut accounts = 0u16;
        let mut sum = 0;
        for seat in 0..self.seats {
            let a = self.account(p, seat);
            if accounts & (1 << a) == 0 {
                accounts |= 1 << a;
                sum += self.chips[a];
            }
        }
        sum + self.bank + self.pot
    }

    /// The game's winners, by seat (none while it goes on).
    pub fn winning_seats(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.seats).filter(|x| self.winners & (1 << x) != 0)
    }

    pub fn winner_list(&self) -> Vec<u8> {
        self.winning_seats().collect()
    }
}

/// How many seats a set holds. `count_ones` compiles to a dozen instructions on the baseline
/// x86-64 the release is built for; a byte table is two loads, and the engine asks on every
/// turn.
#[inline(always)]
fn seats_in(set: u16) -> usize {
    const ONES: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut i = 0;
        while i < 256 {
            t[i] = (i as u32).count_ones() as u8;
            i += 1;
        }
        t
    };
    let [lo, hi] = set.to_le_bytes();
    usize::from(ONES[usize::from(lo)] + ONES[usize::from(hi)])
}

#[cfg(test)]
mod tests {
    #[test]
    fn seats_in_counts_every_set() {
        for set in 0..=u16::MAX {
            assert_eq!(super::seats_in(set), set.count_ones() as usize);
        }
    }
}
