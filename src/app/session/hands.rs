//! The hand the one person at the table held when they could not play, followed through the
//! events of a stretch of play: the table tells them "You cannot play" and shows that hand
//! (which a new deal may have replaced by the time the stretch is told). Only that person's
//! hand is followed: no one else's is ever shown.

use crate::base::cards::{Card, same_face};
use crate::engine::{Event, Sink, State, kind};
use crate::play::{Ruleset, Watch};

/// The events of a stretch of play, and the person's hand at each time they could not play.
#[derive(Debug)]
pub(super) struct Hands {
    pub(super) events: Vec<Event>,
    /// The one person at the table; `None` at a table of several (no hand is shown there:
    /// the others read the same screen).
    seat: Option<u8>,
    /// Each seat's hand as far as the events tell it; `None` once a card unknown here came
    /// into it (a draw, a new deal).
    hands: Vec<Option<Vec<Card>>>,
    /// Where the person could not play (the event's index) and the hand, when known.
    stuck: Vec<(usize, Option<Vec<Card>>)>,
    /// Whether players draw by hand (an event tells each draw) or the game draws for them
    /// after their card (no event tells it).
    by_hand: bool,
}

impl Hands {
    /// A stretch of play of `p` from `state` (none: from a deal), following `seat`'s hand.
    pub(super) fn new(p: &Ruleset, seat: Option<u8>, state: Option<&State>) -> Hands {
        let mut h = Hands {
            events: Vec::new(),
            seat,
            hands: Vec::new(),
            stuck: Vec::new(),
            by_hand: p.by_hand,
        };
        if let Some(s) = state {
            h.take(s);
        }
        h
    }

    /// Every hand, as the table holds it now.
    fn take(&mut self, s: &State) {
        if self.seat.is_none() {
            return;
        }
        self.hands = s
            .hands
            .iter()
            .take(usize::from(s.seats))
            .map(|h| Some(h.cards().to_vec()))
            .collect();
    }

    fn hand(&mut self, seat: u8) -> Option<&mut Option<Vec<Card>>> {
        self.hands.get_mut(usize::from(seat))
    }

    /// The events, and the person's hand where they could not play (by the event's index),
    /// the table being `end` once the stretch is over. A hand the events leave unknown is
    /// the one at the end, when nothing touched it after.
    pub(super) fn finish(self, end: &State) -> (Vec<Event>, Vec<(usize, Vec<Card>)>) {
        let Hands {
            events,
            seat,
            stuck,
            ..
        } = self;
        let Some(seat) = seat else {
            return (events, Vec::new());
        };
        let known = stuck
            .into_iter()
            .filter_map(|(at, hand)| {
                let hand = match hand {
                    Some(h) => h,
                    None if !events[at + 1..].iter().any(|e| touches(e, seat)) => {
                        end.hands.get(usize::from(seat))?.cards().to_vec()
                    }
                    None => return None,
                };
                Some((at, hand))
            })
            .collect();
        (events, known)
    }

    fn follow(&mut self, e: &Event) {
        match *e {
            Event::Deal { .. } => self.hands.iter_mut().for_each(|h| *h = None),
            Event::Play { seat, card, .. } => {
                let by_hand = self.by_hand;
                if let Some(slot) = self.hand(seat) {
                    if let Some(h) = slot
                        && let Some(i) = h.iter().position(|c| *c == card)
                    {
                        h.remove(i);
                    }
                    // Where the game draws for the mover, no event says which card.
                    if !by_hand {
                        *slot = None;
                    }
                }
            }
            Event::Draw { seat } | Event::Drew { seat, .. } => {
                if let Some(slot) = self.hand(seat) {
                    *slot = None;
                }
            }
            Event::Handed { from, to, card } => {
                if let Some(Some(h)) = self.hand(from)
                    && let Some(i) = h.iter().position(|c| same_face(*c, card))
                {
                    h.remove(i);
                }
                if let Some(Some(h)) = self.hand(to) {
                    h.push(card);
                }
            }
            Event::Swapped { seat, with } => {
                let (a, b) = (usize::from(seat), usize::from(with));
                if a < self.hands.len() && b < self.hands.len() {
                    self.hands.swap(a, b);
                }
            }
            Event::CannotPlay { seat } if Some(seat) == self.seat => {
                let hand = self.hand(seat).and_then(|h| h.clone());
                self.stuck.push((self.events.len(), hand));
            }
            _ => {}
        }
    }
}

/// Whether `e` changes `seat`'s hand.
fn touches(e: &Event, seat: u8) -> bool {
    match *e {
        Event::Deal { .. } => true,
        Event::Play { seat: s, .. } | Event::Draw { seat: s } | Event::Drew { seat: s, .. } => {
            s == seat
        }
        Event::Handed { from, to, .. } => from == seat || to == seat,
        Event::Swapped { seat: a, with: b } => a == seat || b == seat,
        _ => false,
    }
}

impl Sink for Hands {
    const WANTS: u32 = kind::ALL;
    fn event(&mut self, e: Event) {
        if self.seat.is_some() {
            self.follow(&e);
        }
        self.events.push(e);
    }
}

impl Watch for Hands {
    /// Each hand is read off the table before each bot's turn.
    const EVERY_TURN: bool = true;
    fn before(&mut self, _p: &Ruleset, s: &State) {
        self.take(s);
    }
}
