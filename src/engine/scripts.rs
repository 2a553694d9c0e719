//! Asking a move's scripts before it changes anything: tabulated answers are looked up, live
//! ones asked of the program's [`ScriptHost`](crate::ir::ScriptHost) with a view of the game.

use std::borrow::Cow;

use super::State;
use crate::ir::{self, Act, Choice, Program, ScriptError, ScriptOut, View, choice_total};

/// What the scripts of a move say, asked before the move changes anything (a failing script
/// leaves the game as it was).
#[derive(Debug)]
pub struct Pre<'p> {
    /// The total after the card.
    pub total: i32,
    /// Each script step's result, by step.
    pub(super) outs: [Option<Cow<'p, ScriptOut>>; ir::MAX_STEPS],
    /// The script bars that fire, as bits.
    pub(super) bars: u32,
}

impl State {
    /// The game as a script sees it, with `rank` the card being played.
    pub fn view(&self, p: &Program, rank: u8, previous: i32, total: i32) -> View {
        let mut chips = [0; ir::MAX_SEATS];
        let mut hand_sizes = [0; ir::MAX_SEATS];
        for x in 0..self.seats {
            chips[usize::from(x)] = self.chips_of(p, x);
            hand_sizes[usize::from(x)] = self.hands[usize::from(x)].len() as u8;
        }
        let cards = self.hands[usize::from(self.turn)].cards();
        let mut hand = [0; ir::MAX_HAND];
        hand[..cards.len()].copy_from_slice(cards);
        let laid: &[crate::base::cards::Card] = &self.discard;
        let top = &laid[laid.len().saturating_sub(ir::script::PILE_SEEN)..];
        let mut pile = [0; ir::script::PILE_SEEN];
        pile[..top.len()].copy_from_slice(top);
        let mut counts = [0; ir::MAX_COUNTS];
        for (i, c) in counts.iter_mut().enumerate().take(p.counts.len()) {
            *c = self.kept.count(p, i as u8, self.turn);
        }
        View {
            total,
            previous,
            rank: rank.min(13),
            player: self.turn,
            seats: self.seats,
            players_left: self.active() as u8,
            clockwise: self.clockwise,
            round: self.round,
            chips,
            hand_sizes,
            hand,
            hand_len: cards.len() as u8,
            pile,
            pile_len: top.len() as u8,
            stock: self.stock.len().min(usize::from(u16::MAX)) as u16,
            counts,
        }
    }

    /// Asks a move's scripts, tabulated or live: the total it makes, each script's result and
    /// the script bars that fire.
    pub fn ask_scripts<'p>(
        &self,
        p: &'p Program,
        rank: u8,
        ch: &Choice,
    ) -> Result<Pre<'p>, ScriptError> {
        let old = self.total;
        let facts = self.facts(p);
        let mut t = old;
        let mut outs: [Option<Cow<'p, ScriptOut>>; ir::MAX_STEPS] = [const { None }; ir::MAX_STEPS];
        let host = p.scripts.as_ref().map(|h| &h.0);
        let missing = || ScriptError {
            function: String::new(),
            place: String::new(),
            message: "the ruleset's scripts are not loaded".into(),
            line: None,
        };
        if ch.simple {
            t = choice_total(p, ch, &facts);
        } else {
            for (k, st) in ch.steps().iter().enumerate() {
                let act = st.act(p, &facts);
                if let Act::Script(i) = act {
                    let fx = &p.script_fx[usize::from(i)];
                    let out = match fx.lookup(t) {
                        Some(o) => Cow::Borrowed(o),
                        None => {
                            let host = host.ok_or_else(missing)?;
                            Cow::Owned(host.effect(&fx.func, &self.view(p, rank, old, t))?)
                        }
                    };
                    if let Some(n) = out.total {
                        t = n;
                    }
                    outs[k] = Some(out);
                } else {
                    t = act.apply(t);
                }
            }
        }
        let mut bars = 0u32;
        for (j, b) in p.script_bars.iter().enumerate().take(32) {
            let host = host.ok_or_else(missing)?;
            if host.test(&b.func, &self.view(p, rank, old, t))? {
                bars |= 1 << j;
            }
        }
        Ok(Pre {
            total: t,
            outs,
            bars,
        })
    }

    /// The total a choice makes here, asking live scripts when it has any. A script that
    /// fails gives `None`: the move is offered anyway, and playing it reports the failure (a
    /// broken house rule must not pass for a player who cannot play).
    #[inline(never)]
    pub fn move_total(&self, p: &Program, rank: u8, ch: &Choice) -> Option<i32> {
        if ch.scripted {
            self.ask_scripts(p, rank, ch).ok().map(|pre| pre.total)
        } else {
            Some(choice_total(p, ch, &self.facts(p)))
        }
    }
}
