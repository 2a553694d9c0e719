//! The strong bot: information-set Monte Carlo tree search with one observer (SO-ISMCTS,
//! Cowling, Powley and Whitehouse, IEEE TCIAIG 2012), over the compiled program, for any
//! ruleset.
//!
//! Each iteration deals the cards the mover cannot see again ([`State::determinize`]: what
//! the table knows, nothing more), walks the tree of moves made from the mover's information
//! set (every seat's moves are nodes; a move is its card's face and choice, the same in every
//! deal where it is legal), chooses with UCB among the moves legal in this deal (counting for
//! each child how often it was available, so a move legal in few deals is not starved),
//! expands one move not tried yet, plays the rest out with cautious players, and backs up a
//! reward for every seat (max^n: each seat chooses for itself; partners share their team's).
//!
//! The reward is at the horizon. By default play-outs stop at the end of the round, and each
//! seat is rewarded by its share of the chips of the players in the game (a game that ended
//! gives its winners their share of the win). With the game horizon (`ismcts:N:game`),
//! play-outs go on to the end of the game. Measured (`cargo bench --bench bots -- --ladder`,
//! docs/performance.md): at one table, 500 iterations to the round's end won 57.7% of 300 games
//! of 3-player Ninety-Nine against 25.7% for 500 to the game's end: a long play-out by
//! cautious players says little about a move, and costs more. The work is counted
//! (iterations, and a cap on each play-out), never timed: a seed gives one game.

use super::Ruleset;
use std::cell::RefCell;

use super::player::play_and_draw;
use crate::base::Rng;
use crate::base::cards::COPY;
use crate::engine::{Move, Moves, State};
use crate::ir::{MAX_SEATS, Winner};

/// The iterations of a move when none are given: about 20 ms a move on one core in 3-player
/// Ninety-Nine (`cargo bench --bench bots`; docs/performance.md has the figures of every game).
pub const DEFAULT_ITERATIONS: u32 = 5000;
/// The most iterations one move may be given (`BOT_ITERATIONS`, SECURITY.md).
pub const MAX_ITERATIONS: u32 = crate::base::limits::BOT_ITERATIONS;
/// Exploration: how much a move's uncertainty counts against its mean reward.
const EXPLORE: f32 = 0.7;
/// The most cards one play-out plays before it is scored as it stands.
const PLAYOUT_CARDS: u64 = crate::base::limits::BOT_PLAYOUT_CARDS;

/// Where an iteration's play-out stops and is scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Horizon {
    /// The end of the game: the winners share 1.
    Game,
    /// The end of the round: each seat's share of the chips in the game.
    Round,
}

/// A move as the tree knows it: the face of its card and its choice (two copies of a face
/// are one move), or a draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Key(u32);

impl Key {
    fn of(m: Move) -> Key {
        let face = |card: u8| u32::from(card % COPY);
        match m {
            Move::Play { card, choice } => Key(face(card) << 8 | u32::from(choice)),
            Move::Aim { card, choice, seat } => {
                Key(1 << 24 | face(card) << 16 | u32::from(choice) << 8 | u32::from(seat))
            }
            Move::Other { index, card } => Key(2 << 24 | u32::from(index) << 8 | face(card)),
            Move::Give { card, choice, gift } => {
                Key(3 << 24 | face(card) << 16 | u32::from(choice) << 8 | face(gift))
            }
            Move::Yield => Key(u32::MAX - 1),
            Move::Draw => Key(u32::MAX),
        }
    }
}

const NONE: u32 = u32::MAX;

/// A node: the move that leads to it, its children (a list through `sibling`),
/// and what the iterations through it brought each seat.
#[derive(Debug, Clone, Copy)]
struct Node {
    key: Key,
    parent: u32,
    child: u32,
    sibling: u32,
    visits: u32,
    /// The iterations in which its move was legal at its parent.
    avail: u32,
    reward: [f32; MAX_SEATS],
}

impl Node {
    fn new(key: Key, parent: u32) -> Node {
        Node {
            key,
            parent,
            child: NONE,
            sibling: NONE,
            visits: 0,
            avail: 0,
            reward: [0.0; MAX_SEATS],
        }
    }
}

/// The search's buffers, kept between moves (one set a thread): the tree and the game an
/// iteration plays. Nothing in them carries from one move to the next but their capacity.
#[derive(Debug, Default)]
pub struct Tree {
    nodes: Vec<Node>,
    game: Option<State>,
}

thread_local! {
    static TREE: RefCell<Tree> = RefCell::new(Tree::default());
}

/// How many iterations apart a search looks whether it is asked to stop (a few hundred
/// microseconds of work at most).
pub const STOP_EVERY: u32 = 64;

/// The bot's move: the root move most visited after `iterations` iterations.
pub fn ismcts(
    p: &Ruleset,
    s: &State,
    rng: &mut Rng,
    iterations: u32,
    horizon: Horizon,
) -> Option<Move> {
    ismcts_until(p, s, rng, iterations, horizon, &|| false)
}

/// [`ismcts`], looking at `stop` every [`STOP_EVERY`] iterations: when it says so, the
/// search ends there and its move is the best so far (a game stopped so is thrown away:
/// the driver ends it as stopped). While `stop` says nothing, the same iterations, the
/// same random numbers and the same move as [`ismcts`].
pub fn ismcts_until(
    p: &Ruleset,
    s: &State,
    rng: &mut Rng,
    iterations: u32,
    horizon: Horizon,
    stop: &dyn Fn() -> bool,
) -> Option<Move> {
    let mut moves = Moves::new();
    s.legal_moves_into(p, &mut moves);
    moves.retain_plays();
    match moves.len() {
        0 => return None,
        1 => return Some(moves.as_slice()[0]),
        _ => {}
    }
    TREE.with(|t| {
        let mut tree = t.borrow_mut();
        let iterations = iterations.clamp(1, MAX_ITERATIONS);
        tree.search(p, s, rng, (iterations, horizon), stop);
        tree.best(moves.as_slice())
    })
}

/// [`ismcts_until`], the move chosen among `allowed` only (restricted play's seat: the same
/// search, its root's most visited move among those allowed).
pub fn ismcts_among(
    p: &Ruleset,
    s: &State,
    rng: &mut Rng,
    (iterations, horizon): (u32, Horizon),
    stop: &dyn Fn() -> bool,
    allowed: &[Move],
) -> Option<Move> {
    match allowed {
        [] => return None,
        [one] => return Some(*one),
        _ => {}
    }
    TREE.with(|t| {
        let mut tree = t.borrow_mut();
        let iterations = iterations.clamp(1, MAX_ITERATIONS);
        tree.search(p, s, rng, (iterations, horizon), stop);
        tree.best(allowed)
    })
}

impl Tree {
    /// Runs the iterations from `s`, seen by the player to move, until `stop` says so.
    fn search(
        &mut self,
        p: &Ruleset,
        s: &State,
        rng: &mut Rng,
        (iterations, horizon): (u32, Horizon),
        stop: &dyn Fn() -> bool,
    ) {
        self.nodes.clear();
        self.nodes.reserve(iterations as usize + 1);
        self.nodes.push(Node::new(Key(u32::MAX), NONE));
        let mut game = self.game.take().unwrap_or_else(|| s.clone());
        for i in 0..iterations {
            if i % STOP_EVERY == 0 && stop() {
                break;
            }
            game.copy_from(s);
            game.determinize(p, s.turn, rng);
            self.iterate(p, s, &mut game, rng, horizon);
        }
        self.game = Some(game);
    }

    /// One iteration on a determinized game.
    fn iterate(
        &mut self,
        p: &Ruleset,
        root: &State,
        g: &mut State,
        rng: &mut Rng,
        horizon: Horizon,
    ) {
        let mut node = 0u32;
        let mut moves = Moves::new();
        loop {
            if g.over || (horizon == Horizon::Round && g.round != root.round) {
                break;
            }
            moves.clear();
            g.legal_moves_into(p, &mut moves);
            moves.retain_plays();
            if moves.is_empty() {
                break;
            }
            let mover = g.turn;
            let (next, fresh) = self.select(node, mover, moves.as_slice(), rng);
            if play_and_draw(p, g, next, &mut ()).is_err() {
                break;
            }
            let key = Key::of(next);
            node = match self.find(node, key) {
                Some(c) if !fresh => c,
                _ => self.add(node, key),
            };
            if fresh {
                break;
            }
        }
        let round = (horizon == Horizon::Round).then_some(root.round);
        super::driver::playout(p, g, rng, round, PLAYOUT_CARDS);
        let reward = reward(p, g);
        let mut at = node;
        while at != NONE {
            let n = &mut self.nodes[at as usize];
            n.visits += 1;
            for (r, add) in n.reward.iter_mut().zip(reward) {
                *r += add;
            }
            at = n.parent;
        }
    }

    /// The move to play at `node` among the legal `moves`: one not tried yet (at random),
    /// else the best by UCB for the player to move, each legal child counted available.
    /// `true` when the move is new to the tree.
    fn select(&mut self, node: u32, mover: u8, moves: &[Move], rng: &mut Rng) -> (Move, bool) {
        let mut untried = [Move::Draw; crate::ir::MAX_HAND * crate::ir::MAX_CHOICES + 1];
        let mut n_untried = 0;
        for &m in moves {
            match self.find(node, Key::of(m)) {
                Some(c) => self.nodes[c as usize].avail += 1,
                None => {
                    untried[n_untried] = m;
                    n_untried += 1;
                }
            }
        }
        if n_untried > 0 {
            return (untried[rng.below(n_untried)], true);
        }
        let mut best = moves[0];
        let mut best_score = f32::MIN;
        for &m in moves {
            let Some(c) = self.find(node, Key::of(m)) else {
                continue;
            };
            let n = &self.nodes[c as usize];
            let visits = n.visits.max(1) as f32;
            let mean = n.reward[usize::from(mover)] / visits;
            let score = mean + EXPLORE * ((n.avail.max(1) as f32).ln() / visits).sqrt();
            if score > best_score {
                best_score = score;
                best = m;
            }
        }
        (best, false)
    }

    /// The child of `node` reached by `key`.
    fn find(&self, node: u32, key: Key) -> Option<u32> {
        let mut c = self.nodes[node as usize].child;
        while c != NONE {
            let n = &self.nodes[c as usize];
            if n.key == key {
                return Some(c);
            }
            c = n.sibling;
        }
        None
    }

    fn add(&mut self, parent: u32, key: Key) -> u32 {
        let at = self.nodes.len() as u32;
        let mut n = Node::new(key, parent);
        n.sibling = self.nodes[parent as usize].child;
        n.avail = 1;
        self.nodes.push(n);
        self.nodes[parent as usize].child = at;
        at
    }

    /// The root's most visited move that is legal now (ties: the first).
    fn best(&self, moves: &[Move]) -> Option<Move> {
        moves.iter().copied().max_by_key(|&m| {
            self.find(0, Key::of(m))
                .map_or(0, |c| self.nodes[c as usize].visits)
        })
    }

    /// How many nodes the last search grew, and what its root's children hold (for tests).
    pub fn shape(&self) -> (usize, Vec<(u32, u32, u32)>) {
        let mut out = Vec::new();
        if let Some(root) = self.nodes.first() {
            let mut c = root.child;
            while c != NONE {
                let n = &self.nodes[c as usize];
                out.push((n.key.0, n.visits, n.avail));
                c = n.sibling;
            }
        }
        (self.nodes.len(), out)
    }
}

/// The tree of the last search on this thread, as [`Tree::shape`] tells it (for tests).
pub fn last_shape() -> (usize, Vec<(u32, u32, u32)>) {
    TREE.with(|t| t.borrow().shape())
}

/// What the play-out brought each seat: a winner's share of the win when the game is over;
/// else each seat's share of what the winner goes by, among the players in the game (the
/// fewer the better where the fewest win). Partners share their team's chips.
fn reward(p: &Ruleset, g: &State) -> [f32; MAX_SEATS] {
    let n = usize::from(g.seats);
    let mut r = [0.0; MAX_SEATS];
    if g.over {
        // The winning accounts (a team is one), as a set: no allocation per iteration.
        let won = (0..g.seats)
            .filter(|x| g.winners & (1 << x) != 0)
            .fold(0u32, |m, x| m | 1 << g.account(p, x));
        let share = 1.0 / won.count_ones().max(1) as f32;
        for (seat, slot) in r.iter_mut().enumerate().take(n) {
            if won & (1 << g.account(p, seat as u8)) != 0 {
                *slot = share;
            }
        }
        return r;
    }
    // What the winner goes by: chips, or a count kept for each player.
    let standing = match p.winner {
        Winner::Best(st) => st,
        Winner::LastLeft => Winner::MOST_CHIPS_STANDING,
    };
    let chips = |x: u8| {
        if !g.in_game(x) {
            return 0.0;
        }
        let c = g.holding_of(p, x, standing.by).max(0) as f32;
        if standing.most { c } else { 1.0 / (1.0 + c) }
    };
    let total: f32 = (0..g.seats).map(chips).sum();
    if total > 0.0 {
        for (seat, slot) in r.iter_mut().enumerate().take(n) {
            *slot = chips(seat as u8) / total;
        }
    }
    r
}
