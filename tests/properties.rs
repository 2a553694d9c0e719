//! Properties: `check` never panics, whatever it is fed; every shipped ruleset plays
//! thousands of seeded games to the end with every card and chip accounted for.

use std::collections::HashMap;
use std::path::Path;

use ninety::compile::{self, Disk, Loader};
use ninety::engine::{self, Setup, TURN_LIMIT};
use ninety::play::Bot;
use proptest::prelude::*;

struct Memory(HashMap<String, Vec<u8>>);

impl Loader for Memory {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        self.0
            .get(path)
            .cloned()
            .ok_or_else(|| "no such file".to_string())
    }
}

fn shipped() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("rulesets")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "rules"))
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).expect("text"),
            )
        })
        .collect();
    files.sort();
    files
}

fn check_bytes(bytes: Vec<u8>) {
    let mut files: HashMap<String, Vec<u8>> = shipped()
        .into_iter()
        .map(|(p, t)| {
            (
                format!(
                    "rulesets/{}",
                    Path::new(&p)
                        .file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                ),
                t.into_bytes(),
            )
        })
        .collect();
    files.insert("rulesets/fuzz.rules".into(), bytes);
    let checked = compile::check(&Memory(files), "rulesets/fuzz.rules", &[]).expect("in memory");
    for d in &checked.diags {
        // Rendering must not panic either, and spans must lie inside the file.
        let _ = d.render_plain(80);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        check_bytes(bytes);
    }

    #[test]
    fn random_edits_of_shipped_rulesets_never_panic(
        which in 0usize..16,
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0u8..3, "[ -~\n]{0,6}"), 1..6),
    ) {
        let files = shipped();
        let (_, text) = &files[which % files.len()];
        let mut text = text.clone();
        for (at, kind, insert) in edits {
            let mut i = at.index(text.len().max(1)).min(text.len());
            while !text.is_char_boundary(i) { i -= 1; }
            match kind {
                0 => text.insert_str(i, &insert),
                1 => { let end = (i + insert.len()).min(text.len()); let mut e = end; while !text.is_char_boundary(e) { e -= 1; } text.replace_range(i..e, ""); }
                _ => { let end = (i + insert.len()).min(text.len()); let mut e = end; while !text.is_char_boundary(e) { e -= 1; } text.replace_range(i..e, &insert); }
            }
        }
        check_bytes(text.into_bytes());
    }
}

#[test]
fn thousands_of_seeded_games_keep_every_invariant() {
    let games_per_file: u64 = if cfg!(debug_assertions) { 300 } else { 3000 };
    for (path, _) in shipped() {
        let program = ninety::app::load::load_program(&Disk, &path, &[]).expect("checks");
        for players in [program.min_players, program.max_players] {
            for seed in 0..games_per_file {
                let bot = if seed % 2 == 0 {
                    Bot::Random
                } else {
                    Bot::Cautious
                };
                let setup = Setup {
                    players: usize::from(players),
                    seed,
                    ..Setup::default()
                };
                let mut s = engine::new_game(&program, &setup, &mut ()).expect("a game starts");
                let chips = s.chips_total(&program);
                let mut rng = ninety::base::Rng::for_bots(seed);
                while !s.over {
                    assert!(s.turns < TURN_LIMIT, "{path}: seed {seed} never ends");
                    let moved = ninety::play::bot_turn(&program, &mut s, bot, &mut rng, &mut ())
                        .expect("a legal move");
                    assert!(moved, "{path} seed {seed}: the player to move has no move");
                    assert_eq!(s.check_invariants(&program), Ok(()), "{path} seed {seed}");
                    assert_eq!(
                        s.chips_total(&program),
                        chips,
                        "{path} seed {seed}: chips are not conserved"
                    );
                    let turn = s.turn;
                    assert!(
                        s.over || (s.in_game(turn) && s.in_round(turn)),
                        "{path} seed {seed}: seat {turn} is out but has the turn"
                    );
                }
                assert!(
                    s.winners != 0 || program.most_chips_wins,
                    "{path} seed {seed}: a game without a winner"
                );
            }
        }
    }
}
