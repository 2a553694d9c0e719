//! The verifier: run after every compilation, it checks that the compiled form is one the
//! engine can run — every index in bounds, every table filled for every player count the
//! program allows, decks big enough to deal, no more jokers than the card encoding holds.
//! And the legal-choice table the engine derives from the program agrees with working out
//! every cell of it. A failure is a bug in the compiler (or a check it lacks), never a
//! ruleset's fault.

use super::{Act, Choice, Effect, MAX_CHOICES, MAX_DECKS, MAX_HAND, MAX_SEATS, MAX_STEPS};
use super::{Count, NO_EFFECT, OutcomeKind, Program, Tally, Test};
use crate::base::cards::{JOKER, MAX_JOKERS, RANKS};

/// The most bars whose test is a script (the engine keeps which fired in a `u32`).
pub const MAX_SCRIPT_BARS: usize = 32;

/// Every problem found, in words; empty when the program is sound.
pub fn verify(p: &Program) -> Vec<String> {
    let mut v = Verifier {
        p,
        problems: Vec::new(),
    };
    v.table();
    v.ranks();
    for (i, fx) in p.effects.iter().enumerate() {
        v.effect(i, fx);
    }
    v.outcomes();
    v.others();
    // The legal-choice table the engine will build is built and checked against working
    // every cell out, once every index it follows is known to be sound.
    if v.problems.is_empty() {
        v.problems
            .extend(super::LegalTable::build(p).disagreements(p));
    }
    v.problems
}

/// The effect of the most specific card line for `rank` with `n` players: the exact count,
/// then the highest `or more` not above `n`, then the general line.
fn line_for(p: &Program, rank: u8, n: usize) -> Option<u16> {
    let lines = p.card_lines.iter().filter(|l| l.rank == rank);
    let exact = lines
        .clone()
        .find(|l| l.count == Count::Exactly(n.min(255) as u8));
    let more = lines
        .clone()
        .filter(|l| matches!(l.count, Count::AtLeast(k) if usize::from(k) <= n))
        .max_by_key(|l| l.count);
    let general = lines.clone().find(|l| l.count == Count::Any);
    exact.or(more).or(general).map(|l| l.fx)
}

struct Verifier<'p> {
    p: &'p Program,
    problems: Vec<String>,
}

impl Verifier<'_> {
    /// The moves beside laying a card name outcomes that exist, a discard names some rank,
    /// only a card laid from the stock has outcomes for one that cannot be laid; each
    /// choice says whether it names a player as its steps do.
    fn others(&mut self) {
        let p = self.p;
        if p.others.len() > super::MAX_OTHERS {
            self.fail(format!("{} moves beside laying a card", p.others.len()));
        }
        for (i, o) in p.others.iter().enumerate() {
            for x in [o.then, o.failed].into_iter().flatten() {
                if usize::from(x) >= p.outcomes.len() {
                    self.fail(format!("move {i} names outcomes {x}"));
                }
            }
            match o.kind {
                super::OtherKind::Discard(r) if r == 0 || r >> RANKS != 0 => {
                    self.fail(format!("move {i} discards ranks {r:#x}"));
                }
                super::OtherKind::Discard(_) | super::OtherKind::Pass if o.failed.is_some() => {
                    self.fail(format!("move {i} lays no card, yet has outcomes for one"));
                }
                super::OtherKind::Discard(_)
                | super::OtherKind::LayTop
                | super::OtherKind::Pass => {}
            }
        }
        for (i, fx) in p.effects.iter().enumerate() {
            for (k, c) in fx.choices().iter().enumerate() {
                if c.aims != p.choice_aims(c) {
                    self.fail(format!(
                        "effect {i} choice {k} says it names a player: {}",
                        c.aims
                    ));
                }
                if c.gives != p.choice_gives(c) {
                    self.fail(format!(
                        "effect {i} choice {k} says it gives a chosen card: {}",
                        c.gives
                    ));
                }
                if c.aims && c.gives {
                    self.fail(format!(
                        "effect {i} choice {k} both names a player and gives a chosen card"
                    ));
                }
            }
        }
    }

    fn fail(&mut self, problem: String) {
        self.problems.push(problem);
    }

    fn table(&mut self) {
        let p = self.p;
        let (lo, hi) = (usize::from(p.min_players), usize::from(p.max_players));
        if lo < 2 || hi > MAX_SEATS || lo > hi {
            self.fail(format!("players {lo} to {hi} is not a table"));
            return;
        }
        if usize::from(p.jokers) > MAX_JOKERS {
            self.fail(format!(
                "{} jokers a deck, but a deck's encoding holds {MAX_JOKERS}",
                p.jokers
            ));
        }
        // Players out of the game can leave fewer at the table than may sit down: every
        // count from 2 is dealt.
        for n in 2..lo {
            if !(1..=MAX_HAND).contains(&usize::from(p.hand[n])) {
                self.fail(format!(
                    "hands of {} cards with {n} players left",
                    p.hand[n]
                ));
            }
        }
        for n in lo..=hi {
            let (decks, hand) = (usize::from(p.decks[n]), usize::from(p.hand[n]));
            let most = (2..=n)
                .map(|k| usize::from(p.hand[k]) * k)
                .max()
                .unwrap_or(0);
            if most > p.deck_size(n) {
                self.fail(format!(
                    "{most} cards dealt as players leave a table of {n}, from a deck of {}",
                    p.deck_size(n)
                ));
            }
            if !(1..=MAX_DECKS).contains(&decks) {
                self.fail(format!("{decks} decks with {n} players"));
            }
            if !(1..=MAX_HAND).contains(&hand) {
                self.fail(format!("hands of {hand} cards with {n} players"));
            }
            if hand * n > p.deck_size(n) {
                self.fail(format!(
                    "{n} hands of {hand} cards from a deck of {}",
                    p.deck_size(n)
                ));
            }
            if p.deck(n).count() != p.deck_size(n) {
                self.fail(format!(
                    "the deck for {n} players is not {} cards",
                    p.deck_size(n)
                ));
            }
        }
        if let Some(t) = p.team_size
            && (t < 2 || (lo..=hi).any(|n| n % usize::from(t) != 0))
        {
            self.fail(format!("teams of {t} at a table of {lo} to {hi}"));
        }
        if p.first_dealer.is_some_and(|d| usize::from(d) >= lo) {
            self.fail("the first dealer's seat is not at every table".into());
        }
        if !p.allows(p.start) {
            self.fail(format!(
                "the total starts at {}, outside its limits",
                p.start
            ));
        }
        if p.files.len() != p.sources.len() || p.files.is_empty() {
            self.fail("the files of the chain and their texts differ".into());
        }
    }

    fn ranks(&mut self) {
        let p = self.p;
        let ranks = if p.jokers > 0 { JOKER + 1 } else { JOKER };
        for n in usize::from(p.min_players).max(2)..=usize::from(p.max_players).min(MAX_SEATS) {
            for rank in 0..ranks {
                let idx = p.effect_index(n, rank);
                if idx == NO_EFFECT {
                    self.fail(format!("rank {rank} has no effect with {n} players"));
                } else if usize::from(idx) >= p.effects.len() {
                    self.fail(format!(
                        "rank {rank} points at effect {idx}, which does not exist"
                    ));
                } else if line_for(p, rank, n) != Some(idx) {
                    self.fail(format!(
                        "rank {rank} with {n} players plays effect {idx}, not its card line's"
                    ));
                }
            }
        }
    }

    fn effect(&mut self, i: usize, fx: &Effect) {
        let len = usize::from(fx.len);
        if len == 0 || len > MAX_CHOICES || fx.labels.len() != len {
            self.fail(format!(
                "effect {i} has {len} choices and {} labels",
                fx.labels.len()
            ));
            return;
        }
        for (k, c) in fx.choices().iter().enumerate() {
            self.choice(i, k, c);
        }
    }

    fn choice(&mut self, i: usize, k: usize, c: &Choice) {
        let p = self.p;
        if usize::from(c.len) > MAX_STEPS {
            self.fail(format!("effect {i} choice {k} has {} steps", c.len));
            return;
        }
        let mut derived = *c;
        derived.finish();
        if derived != *c {
            self.fail(format!("effect {i} choice {k}: its folded form is stale"));
        }
        for s in c.steps() {
            if let Some(ci) = s.cond {
                match p.conds.get(usize::from(ci)) {
                    None => self.fail(format!("effect {i} names condition {ci}")),
                    Some(cond) => {
                        for t in cond.any_of.iter().flatten() {
                            if let Test::Script(j) = t
                                && usize::from(*j) >= p.script_tests.len()
                            {
                                self.fail(format!("condition {ci} names script test {j}"));
                            }
                        }
                    }
                }
            }
            for act in [s.then, s.otherwise] {
                self.act(i, act);
            }
        }
    }

    fn act(&mut self, i: usize, act: Act) {
        let p = self.p;
        match act {
            Act::Outcomes(o) if usize::from(o) >= p.outcomes.len() => {
                self.fail(format!("effect {i} names outcomes {o}"));
            }
            Act::Script(s) if usize::from(s) >= p.script_fx.len() => {
                self.fail(format!("effect {i} names script effect {s}"));
            }
            Act::Script(_) if p.scripts.is_none() => {
                self.fail(format!(
                    "effect {i} runs a script, but no scripts are loaded"
                ));
            }
            Act::Div(n) | Act::Mul(n) if n <= 0 => {
                self.fail(format!("effect {i} multiplies or divides by {n}"));
            }
            Act::Value(e) if usize::from(e) >= p.exprs.len() => {
                self.fail(format!("effect {i} names amount {e}"));
            }
            Act::Add(_)
            | Act::Set(_)
            | Act::Mul(_)
            | Act::Div(_)
            | Act::Nothing
            | Act::Skip(_)
            | Act::Reverse
            | Act::Again(_)
            | Act::ChooseNext
            | Act::Outcomes(_)
            | Act::Script(_)
            | Act::Value(_) => {}
        }
    }

    fn outcomes(&mut self) {
        let p = self.p;
        let n = p.outcomes.len();
        let t = &p.triggers;
        let mut indexes: Vec<u16> = [
            t.cannot_play,
            t.no_cards,
            t.round_start,
            t.round_end,
            t.game_end,
        ]
        .into_iter()
        .flatten()
        .collect();
        indexes.extend(p.bars.iter().flat_map(|b| [b.reach, b.pass]).flatten());
        indexes.extend(p.script_bars.iter().map(|b| b.outcomes));
        indexes.extend(p.moments.iter().map(|m| m.outcomes));
        indexes.extend(p.trigger_cases.iter().map(|c| c.outcomes));
        if let Some(bad) = indexes.iter().find(|i| usize::from(**i) >= n) {
            self.fail(format!("a rule names outcomes {bad}, of {n}"));
        }
        self.values();
        if let Some(i) = p
            .outcomes
            .iter()
            .position(|o| o.tally != Tally::of(&o.list))
        {
            self.fail(format!("outcomes {i}: the tally is not the list's"));
        }
        if !p.bars.windows(2).all(|w| w[0].value < w[1].value) {
            self.fail("bars are not sorted by value, or one is there twice".into());
        }
        if p.script_bars.len() > MAX_SCRIPT_BARS {
            self.fail(format!(
                "{} script bars, at most {MAX_SCRIPT_BARS}",
                p.script_bars.len()
            ));
        }
        if !p.script_bars.is_empty() && p.scripts.is_none() {
            self.fail("script bars without scripts".into());
        }
    }
}

impl Verifier<'_> {
    /// Amounts and counts: every index in bounds, every count of the ruleset's own, every
    /// amount one that leaves a number on its stack.
    fn values(&mut self) {
        let p = self.p;
        if p.counts.len() > super::MAX_COUNTS {
            self.fail(format!(
                "{} counts, at most {}",
                p.counts.len(),
                super::MAX_COUNTS
            ));
        }
        let counts = p.counts.len();
        let amount = |a: super::Amount| match a {
            super::Amount::Of(e) => usize::from(e) < p.exprs.len(),
            super::Amount::Fixed(_) => true,
        };
        for (i, e) in p.exprs.iter().enumerate() {
            let mut depth: i32 = 0;
            for op in &e.ops {
                depth += match op {
                    super::Op::Num(_) | super::Op::Get(..) => 1,
                    super::Op::Add | super::Op::Sub | super::Op::Mul => -1,
                    super::Op::Half | super::Op::AtLeast(_) | super::Op::AtMost(_) => 0,
                };
                if !(1..=16).contains(&depth) {
                    self.fail(format!("amount {i} does not leave one number"));
                    break;
                }
            }
            if depth != 1 {
                self.fail(format!("amount {i} leaves {depth} numbers"));
            }
            if e.quantities()
                .any(|q| matches!(q, super::Quantity::Count(c) if usize::from(c) >= counts))
            {
                self.fail(format!(
                    "amount {i} reads a count the program does not keep"
                ));
            }
        }
        for o in p.outcomes.iter().flat_map(|o| &o.list) {
            let ok = match o.kind {
                OutcomeKind::Pay { amount: a, .. }
                | OutcomeKind::Gain { amount: a, .. }
                | OutcomeKind::SetTotal(a) => amount(a),
                OutcomeKind::Change { what, how } => {
                    let a = match how {
                        super::Change::Up(a)
                        | super::Change::Down(a)
                        | super::Change::Become(a) => amount(a),
                        super::Change::Reset => true,
                    };
                    a && match what {
                        super::Quantity::Count(c) => usize::from(c) < counts,
                        super::Quantity::Chips => true,
                        super::Quantity::Total
                        | super::Quantity::Limit
                        | super::Quantity::Round
                        | super::Quantity::RoundCards
                        | super::Quantity::Run
                        | super::Quantity::PlayersLeft
                        | super::Quantity::PlayersInRound
                        | super::Quantity::Stock
                        | super::Quantity::Pot
                        | super::Quantity::Cards => false,
                    }
                }
                OutcomeKind::WinRound
                | OutcomeKind::LoseRound
                | OutcomeKind::OutOfRound
                | OutcomeKind::OutOfGame
                | OutcomeKind::ResetTotal(_)
                | OutcomeKind::EndRound
                | OutcomeKind::WinGame
                | OutcomeKind::EndGame
                | OutcomeKind::Reverse
                | OutcomeKind::TakePot => true,
                OutcomeKind::Skip(n) => n >= 1,
                // Only the player whose turn it is plays again.
                OutcomeKind::Again(n) => n >= 1 && o.who == super::Who::Player,
                OutcomeKind::Draw(a) => {
                    amount(a)
                        && !matches!(a, super::Amount::Fixed(n) if !(1..=super::MAX_HAND as i32).contains(&n))
                }
                // One other player each (never several at once).
                OutcomeKind::SwapHands(w)
                | OutcomeKind::TakeCard(w)
                | OutcomeKind::GiveCard(w)
                | OutcomeKind::GiveChosen(w) => !matches!(
                    w,
                    super::Who::EachOther | super::Who::Every | super::Who::EachOut
                ),
            };
            if !ok {
                self.fail(format!(
                    "an outcome names an amount or a count out of bounds: {o:?}"
                ));
            }
        }
        for m in &p.moments {
            if m.cond.is_some_and(|c| usize::from(c) >= p.conds.len()) {
                self.fail("a moment names a condition out of bounds".into());
            }
        }
        if p.trigger_cases
            .iter()
            .any(|c| usize::from(c.cond) >= p.conds.len())
        {
            self.fail("a trigger's case names a condition out of bounds".into());
        }
        if p.reads_table != p.reads_table_now() {
            self.fail("the program's `reads_table` is stale".into());
        }
        for l in [p.ceiling, p.floor].into_iter().flatten() {
            if l.expr.is_some_and(|e| usize::from(e) >= p.exprs.len()) {
                self.fail("a limit names an amount out of bounds".into());
            }
        }
    }
}
