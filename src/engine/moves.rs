//! Cards a rule moves: from the stock into a hand (`draws 2`), and from one hand to another
//! (`swap hands with`, `takes a card at random from`, `gives a card at random to`); and who
//! knows where such a card is, so that a searching bot's deals keep what its player saw and
//! nothing more.

use super::events::kind;
use super::step::reshuffle;
use super::{Event, Sink, State};
use crate::base::cards::{Card, same_face};
use crate::ir::{MAX_HAND, Program};

/// How many entries [`super::Kept::seen`] has once a card has moved between hands: one per
/// card id.
const CARD_IDS: usize = 256;

impl State {
    /// The seats that know `card` is in the hand that holds it, besides its holder: those a
    /// rule showed it to as it moved between hands.
    pub fn seen_by(&self, card: Card) -> u16 {
        self.kept.seen.get(usize::from(card)).copied().unwrap_or(0)
    }

    fn set_seen(&mut self, card: Card, seats: u16) {
        if self.kept.seen.is_empty() {
            if seats == 0 {
                return;
            }
            self.kept.seen.resize(CARD_IDS, 0);
        }
        self.kept.seen[usize::from(card)] = seats;
    }

    /// A card left a hand (laid, set aside): what was known of where it was is gone with it.
    #[inline(always)]
    pub(super) fn forget_card(&mut self, card: Card) {
        if let Some(x) = self.kept.seen.get_mut(usize::from(card)) {
            *x = 0;
        }
    }

    /// `seat`'s hand leaves play (set aside face down): [`State::forget_card`] of each card.
    pub(super) fn forget_hand(&mut self, seat: u8) {
        if self.kept.seen.is_empty() {
            return;
        }
        let hand = self.hands[usize::from(seat)];
        for &c in hand.cards() {
            self.kept.seen[usize::from(c)] = 0;
        }
    }

    /// Whatever was known of the cards now in the stock is forgotten: they were gathered and
    /// shuffled (a card drawn from it is known to its holder alone).
    pub(super) fn forget_stock(&mut self) {
        if self.kept.seen.is_empty() {
            return;
        }
        for &c in &self.stock {
            self.kept.seen[usize::from(c)] = 0;
        }
    }
}

/// `seat` draws `n` cards from the stock (the discard pile shuffled in when it runs out and
/// the rules say so), past its hand's size if need be, up to [`MAX_HAND`].
pub(super) fn draw_cards<S: Sink>(p: &Program, s: &mut State, seat: u8, n: i32, sink: &mut S) {
    if s.over || !s.in_round(seat) {
        return;
    }
    let mut drawn = 0u8;
    for _ in 0..n.max(0) {
        if s.hands[usize::from(seat)].len() >= MAX_HAND {
            break;
        }
        if s.stock.is_empty() {
            reshuffle(p, s, sink);
        }
        let Some(c) = s.stock.pop() else {
            break;
        };
        s.hands[usize::from(seat)].push(c);
        s.set_seen(c, 0);
        drawn += 1;
    }
    if drawn > 0 {
        s.known_not[usize::from(seat)] = 0;
        if S::WANTS & kind::CARDS != 0 {
            sink.event(Event::Drew { seat, cards: drawn });
        }
    }
}

/// `a` and `b` swap hands. Each knows the hand the other now holds (it was their own); what
/// anyone knew of a card goes with it, and what the table knew a hand lacked goes with it too.
pub(super) fn swap_hands<S: Sink>(s: &mut State, a: u8, b: u8, sink: &mut S) {
    if a == b || s.over || !s.in_round(a) || !s.in_round(b) {
        return;
    }
    let (ia, ib) = (usize::from(a), usize::from(b));
    s.hands.swap(ia, ib);
    s.known_not.swap(ia, ib);
    for (holder, gave) in [(ia, b), (ib, a)] {
        let cards = s.hands[holder];
        for &c in cards.cards() {
            let seen = s.seen_by(c) | 1 << gave;
            s.set_seen(c, seen);
        }
    }
    if S::WANTS & kind::CARDS != 0 {
        sink.event(Event::Swapped { seat: a, with: b });
    }
}

/// A card of `from`'s hand, picked at random, goes into `to`'s hand. The two of them know
/// which card it is; the others know only that a card went.
pub(super) fn hand_over<S: Sink>(s: &mut State, from: u8, to: u8, sink: &mut S) {
    if can_hand(s, from, to) {
        let i = s.rng.below(s.hands[usize::from(from)].len());
        hand_over_at(s, from, to, i, sink);
    }
}

/// The card `card` (a copy of it) of `from`'s hand goes into `to`'s hand, `from` having chosen
/// it: as [`hand_over`], the two of them know it; nothing moves when `from` holds it no more.
pub(super) fn hand_over_chosen<S: Sink>(s: &mut State, from: u8, to: u8, card: Card, sink: &mut S) {
    let at = s.hands[usize::from(from)]
        .cards()
        .iter()
        .position(|&c| same_face(c, card));
    if let Some(i) = at.filter(|_| can_hand(s, from, to)) {
        hand_over_at(s, from, to, i, sink);
    }
}

/// Whether a card can go from `from`'s hand to `to`'s: two players in the round, a card to
/// give and room for it.
fn can_hand(s: &State, from: u8, to: u8) -> bool {
    let (f, t) = (usize::from(from), usize::from(to));
    from != to
        && !s.over
        && s.in_round(from)
        && s.in_round(to)
        && !s.hands[f].is_empty()
        && s.hands[t].len() < MAX_HAND
}

/// The card at `i` of `from`'s hand goes into `to`'s hand ([`can_hand`] said it may): the two
/// of them know it, the others only that a card went.
fn hand_over_at<S: Sink>(s: &mut State, from: u8, to: u8, i: usize, sink: &mut S) {
    let (f, t) = (usize::from(from), usize::from(to));
    let card = s.hands[f].remove(i);
    s.hands[t].push(card);
    s.known_not[t] = 0;
    s.set_seen(card, 1 << from | 1 << to);
    if S::WANTS & kind::CARDS != 0 {
        sink.event(Event::Handed { from, to, card });
    }
}

/// The rest of a draw up to `size` for a hand a rule left more than one card short (it gave
/// cards away, or swapped for a smaller hand): one card at a time, as [`super::turn::draw_up_to`].
#[cold]
#[inline(never)]
pub(super) fn draw_rest<S: Sink>(p: &Program, s: &mut State, seat: u8, size: usize, sink: &mut S) {
    while s.hands[usize::from(seat)].len() < size {
        if s.stock.is_empty() {
            reshuffle(p, s, sink);
        }
        let Some(c) = s.stock.pop() else {
            return;
        };
        s.hands[usize::from(seat)].push(c);
    }
}
