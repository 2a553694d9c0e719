//! `check` plays the ruleset: besides its scenarios, a quick dry run of seeded games with the
//! random and cautious bots, at every player count. A ruleset whose games do not end is an
//! error, with the seed that shows it and what went round and round; card lines, bars and
//! moments that never happened in any game are warnings.
//!
//! The work is counted, never timed: at most [`DRY_GAMES`] games and [`DRY_TURNS`] cards in
//! all, a game stopped at [`DRY_GAME_TURNS`] cards. The same ruleset gives the same verdict on
//! any machine, under any load.

use crate::play::Ruleset;
use std::collections::BTreeSet;

use crate::base::cards::RANK_WORDS;
use crate::base::diag::{Diag, Source};
use crate::base::limits::{
    DRY_GAME_TURNS, DRY_GAMES, DRY_TURNS, SCRIPT_DRY_RUN_OPERATIONS, grouped,
};
use crate::base::{Code, Span};
use crate::compile::Layer;
use crate::engine::{Event, Setup, Sink, kind};
use crate::ir::Origin;
use crate::play::{Bot, Driver, Ending, Player};

/// What the games did: the card lines, bars and moments that happened.
#[derive(Default)]
struct Seen {
    effects: BTreeSet<u16>,
    /// A bar's value and whether it was passed (else reached).
    bars: BTreeSet<(i32, bool)>,
    cannot_play: bool,
    no_cards: bool,
    /// The lines told as they ran (a moment's, a trigger's with cases).
    ran: BTreeSet<u16>,
    /// Of the game being played: the highest total of its round, the chips lost, the rounds
    /// ended, the cards played, and the cards played when its last round ended.
    top: i32,
    lost: i64,
    rounds: u32,
    cards: u64,
    round_began: u64,
}

impl Sink for Seen {
    const WANTS: u32 = kind::PLAY
        | kind::BAR
        | kind::CANNOT_PLAY
        | kind::NO_CARDS
        | kind::PAY
        | kind::ROUND_END
        | kind::MOMENT;

    fn event(&mut self, e: Event) {
        match e {
            Event::Play { fx, total, .. } => {
                self.effects.insert(fx);
                self.top = self.top.max(total);
                self.cards += 1;
            }
            Event::Bar { value, passed, .. } => {
                self.bars.insert((value, passed));
            }
            Event::CannotPlay { .. } => self.cannot_play = true,
            Event::Moment { rule, .. } => {
                self.ran.insert(rule);
            }
            Event::NoCards { .. } => self.no_cards = true,
            Event::Pay { amount, .. } => self.lost += i64::from(amount),
            Event::RoundEnd { .. } => {
                self.rounds += 1;
                self.round_began = self.cards;
                self.top = i32::MIN;
            }
            _ => {}
        }
    }
}

/// A game the dry run could not finish.
struct Endless {
    players: usize,
    seed: u64,
    bot: Bot,
    turns: u64,
    top: i32,
    lost: i64,
    rounds: u32,
    /// Cards played in the round that was going on.
    round_cards: u64,
}

/// Whether the dry run's first games at the fewest players (random bots, then cautious
/// ones, as it plays them) come to an end within its cap on a game's cards. A command that
/// plays many games asks it before the first (a few hundred cards for games that end), and
/// only when one does not end runs the whole dry run for the words that say why.
pub fn first_games_end(p: &Ruleset) -> bool {
    let mut seen = Seen::default();
    let players = usize::from(p.min_players);
    [(1, Bot::Random), (2, Bot::Cautious)]
        .into_iter()
        .all(|(seed, bot)| {
            !matches!(
                play_game(p, players, seed, bot, &mut seen),
                Played::Endless(_)
            )
        })
}

/// The dry run's verdict on a compiled ruleset: diagnostics said in its own file.
pub fn dry_run(p: &Ruleset, own: &Layer) -> Vec<Diag> {
    let source = Source::new(own.path.clone(), own.source.text.to_string());
    let counts: Vec<usize> = (usize::from(p.min_players)..=usize::from(p.max_players)).collect();
    let mut seen = Seen::default();
    let mut endless: Option<Endless> = None;
    let mut no_winner: Vec<(usize, u64)> = Vec::new();
    // A game that ended with several players in it, under `the winner is the last player left`.
    let mut several_left: Option<(usize, u64)> = None;
    let (mut games, mut turns) = (0u64, 0u64);
    // Games that could not go on (a script that failed, a game stuck): how many, the first.
    let mut failed: Option<(usize, u64, String, bool)> = None;
    let mut failures = 0u64;
    // Every game here spends one allowance of script work: when it is spent, no more games.
    let shared = SharedScripts::open(p);
    let mut spent = false;
    'games: for round in 0.. {
        for &players in &counts {
            if games >= DRY_GAMES || turns >= DRY_TURNS {
                break 'games;
            }
            let bot = if round % 2 == 0 {
                Bot::Random
            } else {
                Bot::Cautious
            };
            let seed = 1 + round as u64;
            let played = play_game(p, players, seed, bot, &mut seen);
            let last = shared.spent();
            if last && games > 0 {
                // A game cut short by what earlier games spent is none of its own fault.
                spent = true;
                break 'games;
            }
            match played {
                Played::Ended {
                    turns: t,
                    winners,
                    several,
                } => {
                    turns += t;
                    if winners == 0 {
                        no_winner.push((players, seed));
                    }
                    if several && p.winner == crate::ir::Winner::LastLeft {
                        several_left.get_or_insert((players, seed));
                    }
                }
                Played::Endless(e) => {
                    endless = Some(e);
                    break 'games;
                }
                Played::Failed(why, error) => {
                    // The first failure shown; a game that failed outright before a stuck one.
                    if failed.as_ref().is_none_or(|f| error && !f.3) {
                        failed = Some((players, seed, why, error));
                    }
                    failures += 1;
                }
            }
            games += 1;
            if last {
                // The first game alone spent what one game may: it fails in play too.
                break 'games;
            }
        }
    }
    drop(shared);
    let mut out = Vec::new();
    if spent {
        out.push(spent_diag(games).in_source(&source));
    }
    if let Some(e) = endless {
        out.push(endless_diag(p, own, &e).in_source(&source));
        return out;
    }
    if let Some((players, seed, why, error)) = failed {
        let message =
            format!("{failures} of {games} games played while checking could not go on: {why}");
        out.push(
            if error {
                Diag::error(Code::NeverEnds, Span::default(), message)
            } else {
                Diag::warning(Code::NeverEnds, Span::default(), message)
            }
            .without_snippet()
            .hint(format!(
                "see one: `ninety run {} --players {players} --seed {seed} --bots random`",
                own.path
            ))
            .in_source(&source),
        );
    }
    if let Some(&(players, seed)) = no_winner.first() {
        out.push(
            Diag::warning(
                Code::NoWinner,
                Span::default(),
                format!(
                    "{} of {games} games played while checking ended with no winner",
                    no_winner.len()
                ),
            )
            .without_snippet()
            .hint(format!(
                "see one: `ninety run {} --players {players} --seed {seed} --bots random`; say who wins when everyone is out at once, or when no one is left",
                own.path
            ))
            .in_source(&source),
        );
    }
    if let Some((players, seed)) = several_left {
        let at = p
            .settings
            .iter()
            .find(|(n, _)| n == "winner")
            .filter(|(_, o)| p.is_own(*o))
            .map_or(Span::default(), |(_, o)| line_span(own, o.line as usize));
        let mut d = Diag::warning(
            Code::WinnerRule,
            at,
            "a game played while checking ended after its last round with several players left, and the winner line names the last one",
        )
        .hint(format!(
            "say who wins then: `the winner is the player with the most chips` (the most chips win when it is not said); see one: `ninety run {} --players {players} --seed {seed} --bots random`",
            own.path
        ));
        if at == Span::default() {
            d = d.without_snippet();
        }
        out.push(d.in_source(&source));
    }
    // Lines that never happened in the few games played before the scripts' work ran out
    // say little: the warning above says they were not looked for.
    out.extend(
        never_seen(p, own, &seen, games)
            .into_iter()
            .filter(|_| !spent)
            .map(|d| d.in_source(&source)),
    );
    out
}

/// The dry run stopped when its games had spent the scripts' one allowance.
fn spent_diag(games: u64) -> Diag {
    Diag::warning(
        Code::NeverFired,
        Span::default(),
        format!(
            "the scripts of this ruleset did {} operations, the most the games played while checking may share in all, so the check stopped after {}",
            grouped(SCRIPT_DRY_RUN_OPERATIONS),
            games_words(games)
        ),
    )
    .without_snippet()
    .hint(format!(
        "games that do not end are looked for in {} only, and lines that never happen not at all; make the scripts do less work, or write scenarios that show the rules work",
        if games == 1 { "that game" } else { "those games" }
    ))
}

/// "1 game", "12 games".
fn games_words(games: u64) -> String {
    if games == 1 {
        "1 game".to_string()
    } else {
        format!("{games} games")
    }
}

/// The one allowance of script work all the games of the dry run share on this thread,
/// ended when dropped (so no exit leaves it open).
struct SharedScripts<'a>(Option<&'a crate::ir::Scripts>);

impl<'a> SharedScripts<'a> {
    fn open(p: &'a Ruleset) -> Self {
        let scripts = p.scripts.as_ref();
        if let Some(s) = scripts {
            s.0.share_dry_run(true);
        }
        SharedScripts(scripts)
    }

    fn spent(&self) -> bool {
        self.0.is_some_and(|s| s.0.spent())
    }
}

impl Drop for SharedScripts<'_> {
    fn drop(&mut self) {
        if let Some(s) = self.0 {
            s.0.share_dry_run(false);
        }
    }
}

enum Played {
    Ended {
        turns: u64,
        winners: u16,
        /// It ended with several players (or teams) in it.
        several: bool,
    },
    Endless(Endless),
    /// It could not go on: why, and whether a move failed outright (not a game that stalled).
    Failed(String, bool),
}

/// One seeded game, every seat the same bot: as `ninety run FILE --players N --seed S --bots
/// BOT` plays it (where players draw by hand, the random bot forgets to draw a third of the
/// time, as players do: so the rules for a player with no cards get played too).
fn play_game(p: &Ruleset, players: usize, seed: u64, bot: Bot, seen: &mut Seen) -> Played {
    let player = if bot == Bot::Random {
        Player::Forgetful
    } else {
        Player::Bot(bot)
    };
    let seats = vec![player; players];
    let setup = Setup {
        players,
        seed,
        ..Setup::default()
    };
    seen.top = p.start;
    seen.lost = 0;
    seen.rounds = 0;
    seen.cards = 0;
    seen.round_began = 0;
    let mut driver = Driver::new(p, &seats, seed).with_limit(DRY_GAME_TURNS);
    let mut s = match driver.start(&setup, seen) {
        Ok(s) => s,
        Err(e) => return failed(e),
    };
    match driver.play(&mut s, &|| false, seen) {
        Ending::Over => Played::Ended {
            turns: s.turns,
            winners: s.winners,
            // A line that declared the winners (`the player wins the game`) ended it, not
            // the winner line.
            several: s.declared == 0 && s.teams(p, s.out_of_game) > 1,
        },
        Ending::TurnLimit => Played::Endless(Endless {
            players,
            seed,
            bot,
            turns: s.turns,
            top: seen.top,
            lost: seen.lost,
            rounds: seen.rounds,
            round_cards: seen.cards - seen.round_began,
        }),
        e @ (Ending::Stuck
        | Ending::NoMove(_)
        | Ending::Failed(_)
        | Ending::Stopped
        | Ending::Guard
        | Ending::Waiting(_)) => failed(e),
    }
}

/// A game that could not go on, and why in words.
fn failed(e: Ending) -> Played {
    match e {
        Ending::Stuck => Played::Failed(
            "rounds kept ending with no card laid, so the game stopped with no winner".into(),
            false,
        ),
        Ending::NoMove(seat) => Played::Failed(format!("seat {seat} had no move to make"), true),
        Ending::Failed(e) => Played::Failed(e.to_string(), true),
        Ending::Over | Ending::TurnLimit | Ending::Stopped | Ending::Guard | Ending::Waiting(_) => {
            Played::Failed("the game was stopped".into(), true)
        }
    }
}

fn endless_diag(p: &Ruleset, own: &Layer, e: &Endless) -> Diag {
    let which = if e.rounds == 0 {
        "its first round".to_string()
    } else {
        format!("round {}", e.rounds + 1)
    };
    let why = if e.round_cards * 2 >= e.turns {
        let limit = p
            .bars
            .iter()
            .map(|b| b.value)
            .chain(p.ceiling.map(|c| c.value))
            .max();
        if limit.is_none_or(|l| e.top > l) && e.top > p.start {
            format!(
                "{which} went on for {} cards: the total climbed past {}, and nothing there makes a player stuck or ends the round",
                e.round_cards, e.top
            )
        } else {
            format!(
                "{which} went on for {} cards: no player was ever stuck, and no bar ended the round",
                e.round_cards
            )
        }
    } else if e.lost == 0 {
        format!("{} rounds were played and no one lost a chip", e.rounds)
    } else {
        format!(
            "after {} rounds, players still had chips to lose: nothing puts them out fast enough",
            e.rounds
        )
    };
    Diag::error(
        Code::NeverEnds,
        Span::default(),
        format!(
            "a game of this ruleset does not end: {why} (stopped after {} cards)",
            e.turns
        ),
    )
    .without_snippet()
    .hint(format!(
        "see it: `ninety run {} --players {} --seed {} --bots {}`; give the game a way to end: an upper limit and a rule for a player who cannot play, a bar that ends the round, or `the game ends after 10 rounds`",
        own.path,
        e.players,
        e.seed,
        e.bot.name()
    ))
}

/// The card lines, bars and moments of the ruleset's own file that no game of the dry run
/// made happen.
fn never_seen(p: &Ruleset, own: &Layer, seen: &Seen, games: u64) -> Vec<Diag> {
    let mine = |o: Origin| p.is_own(o);
    let span_of = |o: Origin| line_span(own, o.line as usize);
    let mut out = Vec::new();
    let mut said: BTreeSet<u32> = BTreeSet::new();
    let mut warn = |o: Origin, what: String, out: &mut Vec<Diag>| {
        if mine(o) && said.insert(o.line) {
            out.push(
                Diag::warning(
                    Code::NeverFired,
                    span_of(o),
                    format!("{what} in the {} played while checking", games_words(games)),
                )
                .label("never happened")
                .hint("check that some card can make it happen; if it is meant to be rare, a scenario shows it works"),
            );
        }
    };
    for line in &p.card_lines {
        let Some(fx) = p.effects.get(usize::from(line.fx)) else {
            continue;
        };
        if (line.rank == crate::base::cards::JOKER && p.jokers == 0)
            || seen.effects.contains(&line.fx)
        {
            continue;
        }
        let applies =
            (2..=usize::from(p.max_players)).any(|n| p.effect_index(n, line.rank) == line.fx);
        if applies {
            warn(
                fx.origin,
                format!(
                    "no {} was played under this line",
                    RANK_WORDS[usize::from(line.rank)]
                ),
                &mut out,
            );
        }
    }
    for b in &p.bars {
        for (rule, passed, verb) in [(b.reach, false, "reaching"), (b.pass, true, "passing")] {
            if let Some(i) = rule
                && !seen.bars.contains(&(b.value, passed))
            {
                warn(
                    p.outcomes[usize::from(i)].origin,
                    format!("{verb} {} never happened", b.value),
                    &mut out,
                );
            }
        }
    }
    for (trigger, happened, what) in [
        (
            p.triggers.cannot_play,
            seen.cannot_play,
            "a player who cannot play",
        ),
        // Where no one can ever be without cards the checker proved it (`cannot-happen`).
        (
            p.triggers.no_cards.filter(|_| !p.always_holds_cards()),
            seen.no_cards,
            "a player with no cards",
        ),
    ] {
        if let Some(i) = trigger
            && !happened
        {
            warn(
                p.outcomes[usize::from(i)].origin,
                format!("{what} never happened"),
                &mut out,
            );
        }
    }
    // A trigger's cases, and its line without a test beside them: each told as it ran.
    for c in &p.trigger_cases {
        if !seen.ran.contains(&c.outcomes) {
            warn(
                p.outcomes[usize::from(c.outcomes)].origin,
                "this line's test never held when its moment came".to_string(),
                &mut out,
            );
        }
    }
    for kind in [
        crate::ir::TriggerKind::CannotPlay,
        crate::ir::TriggerKind::NoCards,
    ] {
        if let Some(i) = p.trigger(kind).filter(|_| p.has_cases(kind))
            && !seen.ran.contains(&i)
        {
            warn(
                p.outcomes[usize::from(i)].origin,
                "a line with a test always held first, so this one never happened".to_string(),
                &mut out,
            );
        }
    }
    out
}

/// The span of a line of the file (1-based), without its comment.
fn line_span(own: &Layer, line: usize) -> Span {
    crate::base::span::line_span(&own.source.text, line)
}
