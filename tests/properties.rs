//! Properties: `check` never panics, whatever it is fed, and neither does the language server
//! fed the same text and edits (with hovers, completions and definitions at random places);
//! every shipped ruleset plays thousands of seeded games to the end with every card and chip
//! accounted for.

use std::collections::HashMap;
use std::path::Path;

use ninety::app::lsp::{Flow, Server};
use ninety::base::limits::TURN_LIMIT;
use ninety::compile::{self, Disk, Loader};
use ninety::engine::{self, Setup};
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

/// A game of `program` for `players` seats dealt from `seed`, and the bots' generator for it.
fn seeded_game(
    program: &ninety::play::Ruleset,
    players: u8,
    seed: u64,
) -> (engine::State, ninety::base::Rng) {
    let setup = Setup {
        players: usize::from(players),
        seed,
        ..Setup::default()
    };
    let s = engine::new_game(program, &setup, &mut ()).expect("a game starts");
    (s, ninety::base::Rng::for_bots(seed))
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

/// A random edit: where, insert / delete / replace, and the text.
type Edit = (prop::sample::Index, u8, String);

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    proptest::collection::vec((any::<prop::sample::Index>(), 0u8..3, "[ -~\n]{0,6}"), 1..6)
}

/// An edit as a byte range of `text` and the text that replaces it.
fn edit_range(text: &str, (at, kind, insert): &Edit) -> (std::ops::Range<usize>, String) {
    let mut i = at.index(text.len().max(1)).min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    let mut e = (i + insert.len()).min(text.len());
    while !text.is_char_boundary(e) {
        e -= 1;
    }
    match kind {
        0 => (i..i, insert.clone()),
        1 => (i..e, String::new()),
        _ => (i..e, insert.clone()),
    }
}

/// A shipped ruleset with the edits applied.
fn edited(which: usize, edits: &[Edit]) -> String {
    let files = shipped();
    let (_, text) = &files[which % files.len()];
    let mut text = text.clone();
    for edit in edits {
        let (range, insert) = edit_range(&text, edit);
        text.replace_range(range, &insert);
    }
    text
}

/// The LSP position of a byte offset, counted here, apart from the server: UTF-16 columns.
fn position(text: &str, offset: usize) -> serde_json::Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let character: usize = before[start..].chars().map(char::len_utf16).sum();
    serde_json::json!({ "line": line, "character": character })
}

/// The language server, in process, fed the text, the edits and requests at random places.
struct Lsp {
    server: Server,
    uri: String,
    id: i32,
}

impl Lsp {
    fn new() -> Lsp {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
        let mut lsp = Lsp {
            server: Server::new(),
            uri: format!("file://{}/fuzz.rules", dir.display()),
            id: 0,
        };
        lsp.request("initialize", &serde_json::json!({ "capabilities": {} }));
        lsp.notify("initialized", &serde_json::json!({}));
        lsp
    }

    fn send(&mut self, v: serde_json::Value) {
        let msg: lsp_server::Message = serde_json::from_value(v).expect("a message");
        let (replies, flow) = self.server.handle(msg);
        assert_eq!(flow, Flow::Continue);
        assert_eq!(self.server.failures(), 0, "a handler panicked");
        for reply in replies {
            if let lsp_server::Message::Response(r) = reply {
                assert!(r.response_result.is_ok(), "{r:?}");
            }
        }
    }

    fn notify(&mut self, method: &str, params: &serde_json::Value) {
        self.send(serde_json::json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    fn request(&mut self, method: &str, params: &serde_json::Value) {
        self.id += 1;
        let msg = serde_json::json!({ "jsonrpc": "2.0", "id": self.id, "method": method, "params": params });
        self.send(msg);
    }

    /// Hover, completion, definition and code actions at `(line, character)`.
    fn ask(&mut self, (line, character): (u32, u32)) {
        let at = serde_json::json!({
            "textDocument": { "uri": self.uri },
            "position": { "line": line, "character": character },
        });
        for method in [
            "textDocument/hover",
            "textDocument/completion",
            "textDocument/definition",
        ] {
            self.request(method, &at);
        }
        let range = serde_json::json!({ "start": at["position"], "end": { "line": line + 1, "character": 0 } });
        self.request(
            "textDocument/codeAction",
            &serde_json::json!({ "textDocument": { "uri": self.uri }, "range": range, "context": { "diagnostics": [] } }),
        );
    }
}

fn places() -> impl Strategy<Value = Vec<(u32, u32)>> {
    proptest::collection::vec((0u32..80, 0u32..60), 1..6)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, .. ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        check_bytes(bytes);
    }

    #[test]
    fn random_edits_of_shipped_rulesets_never_panic(which in 0usize..16, edits in edits()) {
        check_bytes(edited(which, &edits).into_bytes());
    }

    #[test]
    fn the_language_server_never_panics_on_random_bytes(
        bytes in proptest::collection::vec(any::<u8>(), 0..400),
        places in places(),
    ) {
        let mut lsp = Lsp::new();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        lsp.notify("textDocument/didOpen", &serde_json::json!({
            "textDocument": { "uri": lsp.uri, "languageId": "ninety", "version": 1, "text": text },
        }));
        for place in places {
            lsp.ask(place);
        }
    }

    #[test]
    fn the_language_server_never_panics_on_random_edits(
        which in 0usize..16,
        edits in edits(),
        places in places(),
    ) {
        let mut lsp = Lsp::new();
        let files = shipped();
        let mut text = files[which % files.len()].1.clone();
        lsp.notify("textDocument/didOpen", &serde_json::json!({
            "textDocument": { "uri": lsp.uri, "languageId": "ninety", "version": 1, "text": text },
        }));
        for (edit, place) in edits.iter().zip(places.iter().cycle()) {
            let (range, insert) = edit_range(&text, edit);
            let lsp_range = serde_json::json!({
                "start": position(&text, range.start),
                "end": position(&text, range.end),
            });
            text.replace_range(range, &insert);
            lsp.notify("textDocument/didChange", &serde_json::json!({
                "textDocument": { "uri": lsp.uri, "version": 2 },
                "contentChanges": [{ "range": lsp_range, "text": insert }],
            }));
            assert_eq!(lsp.server.text(&lsp.uri), Some(text.as_str()));
            lsp.ask(*place);
        }
        lsp.notify("textDocument/didSave", &serde_json::json!({ "textDocument": { "uri": lsp.uri } }));
        lsp.ask((0, 0));
        lsp.notify("textDocument/didClose", &serde_json::json!({ "textDocument": { "uri": lsp.uri } }));
    }
}

/// The weighing bots score most plays from a plan worked out once a game and number of
/// players (`play::bots`); a build with debug assertions checks each planned score against
/// the long way (`play/weigh.rs`), and would panic here. Cautious and aggressive bots, on
/// every shipped ruleset (quiet cards, cards with outcomes, scripts, live choices, two decks)
/// and on one whose bars are worth more than a plan's slot holds, so its plays are worked out.
///
/// The comparison is that check: no public function scores a play both ways. So without debug
/// assertions (`cargo test --release`) this test would only count turns: it is ignored there,
/// saying why, and fails if made to run (`--include-ignored`) rather than pass having compared
/// nothing.
#[test]
#[cfg_attr(
    not(debug_assertions),
    ignore = "needs debug assertions: play/weigh.rs compares the plan with the long way only \
              there; run without --release"
)]
fn the_weighing_bots_plans_score_every_play_as_the_long_way_does() {
    if !cfg!(debug_assertions) {
        panic!(
            "this test compares the plan's scores with the long way through the check that \
             play/weigh.rs makes in builds with debug assertions; this build has none \
             (`--release`?), so it would compare nothing: run it without --release"
        );
    }
    let mut files: Vec<(String, String)> = shipped();
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/33-66-99.rules");
    let base = std::fs::read_to_string(base).expect("text");
    let dear = "extends \"33-66-99\"\nname \"dear bars\"\n\
                on reaching 33 or 66: each other player pays 1000000\n";
    let mut memory = Memory(HashMap::new());
    memory
        .0
        .insert("rulesets/33-66-99.rules".into(), base.into_bytes());
    memory
        .0
        .insert("rulesets/dear.rules".into(), dear.as_bytes().to_vec());
    files.push(("rulesets/dear.rules".into(), dear.into()));
    let mut turns = 0u64;
    for (path, _) in files {
        let program = match path.as_str() {
            "rulesets/dear.rules" => {
                let checked = compile::check(&memory, &path, &[]).expect("in memory");
                ninety::play::Ruleset::new(checked.program.expect("the dear bars ruleset checks"))
            }
            _ => ninety::app::load::load_program(&Disk, &path, &[]).expect("checks"),
        };
        for players in [program.min_players, program.max_players] {
            for seed in 0..8 {
                let bot = [Bot::Cautious, Bot::Aggressive][seed as usize % 2];
                let (mut s, mut rng) = seeded_game(&program, players, seed);
                while !s.over && s.turns < TURN_LIMIT {
                    let moved = ninety::play::bot_turn(&program, &mut s, bot, &mut rng, &mut ())
                        .expect("a legal move");
                    assert!(moved, "{path} seed {seed}: the player to move has no move");
                    turns += 1;
                }
            }
        }
    }
    assert!(turns > 10_000, "{turns} turns");
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
                let (mut s, mut rng) = seeded_game(&program, players, seed);
                let chips = s.chips_total(&program);
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
                // Every game ends with a winner: those left, or the last ones out together.
                assert!(
                    s.winners != 0,
                    "{path} seed {seed}: a game without a winner"
                );
            }
        }
    }
}

/// The legal-choice table's plays (`State::table_plays`, which the random bot reads) are
/// `each_move`'s, in their order, and `State::play_of` (which the weighing bots read) is
/// `each_play_read`'s play, wherever the table answers: every shipped ruleset, seeded games at
/// its smallest and largest tables. (The weighing bots' plan lists its plays its own way: a
/// debug build checks them against `each_play_read` on every turn.)
#[test]
fn the_tables_plays_are_each_moves_plays() {
    use ninety::engine::Move;
    use std::ops::ControlFlow;
    let (mut answered, mut with_copies) = (0, 0);
    for (path, _) in shipped() {
        let program = ninety::app::load::load_program(&Disk, &path, &[]).expect("checks");
        for players in [program.min_players, program.max_players] {
            for seed in 0..20 {
                let (mut s, mut rng) = seeded_game(&program, players, seed);
                while !s.over && s.turns < 500 {
                    let mut all = Vec::new();
                    s.each_move(&program, |m| {
                        if let Move::Play { .. } = m {
                            all.push(m);
                        }
                        ControlFlow::Continue(())
                    });
                    if let Some(t) = s.table_plays(&program) {
                        answered += 1;
                        // Two copies of a card in one hand (several decks): one move.
                        let hand = s.hands[usize::from(s.turn)].cards();
                        if ninety::base::cards::repeats(hand) != 0 {
                            with_copies += 1;
                        }
                        let listed: Vec<Move> = (0..t.count()).filter_map(|n| t.nth(n)).collect();
                        assert_eq!(listed, all, "{path}, seed {seed}, turn {}", s.turns);
                        assert_eq!(t.nth(t.count()), None);
                    }
                    // The weighing bots' reading of a play the table answers: `play_of`
                    // gives it the rank, effect and total `each_play_read` finds.
                    let mut read = Vec::new();
                    s.each_play_read(&program, |play| {
                        read.push(play);
                        ControlFlow::Continue(())
                    });
                    if s.table_plays(&program).is_some() {
                        for play in read {
                            let of = s.play_of(&program, play.card, play.choice);
                            assert_eq!(of, play, "{path}, seed {seed}, turn {}", s.turns);
                        }
                    }
                    let moved =
                        ninety::play::bot_turn(&program, &mut s, Bot::Random, &mut rng, &mut ())
                            .expect("a legal move");
                    assert!(moved);
                }
            }
        }
    }
    assert!(
        answered > 10_000,
        "the table answered only {answered} times"
    );
    assert!(
        with_copies > 100,
        "the table answered for a hand holding two copies of a card only {with_copies} times"
    );
}
