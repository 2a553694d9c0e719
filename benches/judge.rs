//! `ninety judge`, timed in process on the release profile (issue 31, "Speed"): the lines
//! that need no strong bot for 100,000 games of 3-player Ninety-Nine (`cautious` in every
//! seat; the target is under 60 s), on two jobs and on one (the tallies must be the same, or
//! the bench stops), then the full judge: the same lines, the skill ladder with Order
//! (`--skill`) and restricted play (`--restrict`) over a tenth of the games (the target is
//! under 10 minutes).
//!
//! ```text
//! cargo bench --bench judge                              # 100,000 games; the full judge at 10,000
//! cargo bench --bench judge -- --games 20000 --full 1000  # a quick run
//! ```

use std::path::Path;
use std::time::Instant;

use ninety::app::load::load_program;
use ninety::base::limits::grouped;
use ninety::compile::Disk;
use ninety::play::Player;
use ninety::sim::judge::{self, JudgeConfig};

fn number(arg: Option<String>) -> u64 {
    arg.and_then(|a| a.parse().ok()).unwrap_or_else(|| {
        eprintln!("expected a number");
        std::process::exit(2)
    })
}

fn config(games: u64) -> JudgeConfig {
    JudgeConfig {
        ruleset: "ninety-nine".into(),
        name: "Ninety-Nine".into(),
        players: 3,
        bot: "cautious".into(),
        games,
        seed: 1,
        length: None,
        pace_ms: ninety::sim::judge::DEFAULT_PACE_MS,
        minutes: None,
        skill_games: None,
        restrict: None,
    }
}

fn main() {
    let mut games = 100_000;
    let mut full = 10_000;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--games" => games = number(args.next()),
            "--full" => full = number(args.next()),
            // `cargo bench` passes `--bench`.
            _ => {}
        }
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/ninety-nine.rules");
    let Ok(p) = load_program(&Disk, &path.display().to_string(), &[]) else {
        eprintln!("ninety-nine.rules does not check");
        std::process::exit(1)
    };
    let Ok(bot) = Player::builtin("cautious") else {
        std::process::exit(1)
    };
    let cfg = config(games);
    let timed = |jobs: usize, cfg: &JudgeConfig| {
        let start = Instant::now();
        let t = judge::judge(&p, &bot, cfg, jobs).unwrap_or_else(|e| {
            eprintln!("judge failed: {e}");
            std::process::exit(1)
        });
        (t, start.elapsed())
    };
    println!(
        "ninety judge, 3-player Ninety-Nine, cautious in every seat ({} cores)",
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    );
    let (two, t2) = timed(2, &cfg);
    println!(
        "  lines with no strong bot, {} games, --jobs 2: {:.2} s ({:.0} games/s; target < 60 s)",
        grouped(games),
        t2.as_secs_f64(),
        games as f64 / t2.as_secs_f64()
    );
    let (one, t1) = timed(1, &cfg);
    println!(
        "  lines with no strong bot, {} games, --jobs 1: {:.2} s (two jobs {:.2}x one)",
        grouped(games),
        t1.as_secs_f64(),
        t1.as_secs_f64() / t2.as_secs_f64()
    );
    if one != two {
        eprintln!("the tallies of one job and two differ: the bench compares nothing");
        std::process::exit(1);
    }
    // The full judge, as `ninety judge ninety-nine --games FULL --skill --restrict` plays
    // it, then each of its parts alone on the same pool of two threads.
    let deals = (full / 10).max(1);
    let mut cfg = config(full);
    cfg.skill_games = Some(deals);
    cfg.restrict = Some(("cautious".into(), deals));
    let (t, all) = timed(2, &cfg);
    println!(
        "  the full judge, {} games (--skill --restrict, {} deals each), --jobs 2: {:.1} s (target < 600 s)",
        grouped(full),
        grouped(deals),
        all.as_secs_f64()
    );
    let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(2).build() else {
        std::process::exit(1)
    };
    let (_, lines) = timed(2, &config(full));
    let start = Instant::now();
    let skill = pool.install(|| judge::skill(&p, 3, (deals, 1), &|| false));
    let skill_time = start.elapsed();
    let start = Instant::now();
    let restricted = pool.install(|| judge::restrict(&p, 3, "cautious", (deals, 1), &|| false));
    let restrict_time = start.elapsed();
    if skill.map(|s| (s.ladder, s.order)) != Ok((t.skill.clone(), t.order.clone()))
        || restricted.ok() != t.restricted
    {
        eprintln!("the parts alone differ from the full judge's: the bench compares nothing");
        std::process::exit(1);
    }
    println!(
        "    its parts alone: the lines {:.1} s, the ladder with Order (5 rungs) {:.1} s, restricted play over {} rules {:.1} s",
        lines.as_secs_f64(),
        skill_time.as_secs_f64(),
        t.restricted.as_ref().map_or(0, |x| x.rows.len()),
        restrict_time.as_secs_f64()
    );
}
