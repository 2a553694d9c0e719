//! Scripted REPL sessions: each file in `tests/repl-inputs/` has a header (ruleset, players,
//! humans, seed, bot, set), a `---` line, then the lines a player types. They run through the
//! same `Session::handle` the terminal uses; the transcript is snapshotted.
//!
//! Lines starting with `!` are test directives, not input: `!copy FROM TO` copies a file,
//! `!replace FILE OLD => NEW` edits one, `!write FILE TEXT` writes one. `<first>` types the
//! first legal move, `<space>` a lone space (the Space key). `$TMP` stands for a
//! fresh temporary folder, and `$ROOT` for the repository.

use std::path::Path;

use ninety::app::session::{Options, Session};
use ninety::compile::Shipped;

#[test]
fn repl_sessions() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    insta::glob!("repl-inputs/*.txt", |path| {
        let name = path
            .file_stem()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let tmp = std::env::temp_dir().join(format!("ninety-repl-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        std::fs::create_dir_all(&tmp).expect("temp dir");
        let tmp_s = tmp.display().to_string();
        let root_s = root.display().to_string();
        let fill = |s: &str| s.replace("$TMP", &tmp_s).replace("$ROOT", &root_s);
        let text = std::fs::read_to_string(path).expect("readable");
        let (header, body) = text
            .split_once("\n---\n")
            .unwrap_or_else(|| panic!("{name}: no `---` line"));
        let mut o = Options {
            ruleset: "ninety-nine".into(),
            players: None,
            humans: 1,
            bot: "cautious".into(),
            seed: 1,
            sets: Vec::new(),
            color: false,
        };
        for line in header
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let (k, v) = line
                .split_once(':')
                .unwrap_or_else(|| panic!("{name}: bad header `{line}`"));
            let v = fill(v.trim());
            match k.trim() {
                "ruleset" => o.ruleset = v,
                "players" => o.players = Some(v.parse().expect("a number")),
                "humans" => o.humans = v.parse().expect("a number"),
                "seed" => o.seed = v.parse().expect("a number"),
                "bot" => o.bot = v,
                "set" => {
                    let (a, b) = v.split_once('=').expect("name=value");
                    o.sets.push((a.into(), b.into()));
                }
                "copy" => {
                    let (a, b) = v.split_once(' ').expect("copy FROM TO");
                    std::fs::copy(a, b).expect("copy");
                }
                other => panic!("{name}: unknown header `{other}`"),
            }
        }
        let mut transcript = String::new();
        let (mut session, welcome) = match Session::start(&Shipped, &o) {
            Ok(s) => s,
            Err(e) => panic!("{name}: {e}"),
        };
        transcript.push_str(&welcome);
        for raw in body.lines() {
            let line = fill(raw);
            if let Some(d) = line.strip_prefix('!') {
                let (cmd, rest) = d.split_once(' ').unwrap_or((d, ""));
                match cmd {
                    "copy" => {
                        let (a, b) = rest.split_once(' ').expect("!copy FROM TO");
                        std::fs::copy(a, b).expect("copy");
                    }
                    "replace" => {
                        let (file, edit) = rest.split_once(' ').expect("!replace FILE OLD => NEW");
                        let (old, new) = edit.split_once(" => ").expect("OLD => NEW");
                        let t = std::fs::read_to_string(file).expect("read");
                        assert!(t.contains(old), "{name}: `{old}` is not in {file}");
                        std::fs::write(file, t.replacen(old, new, 1)).expect("write");
                    }
                    "write" => {
                        let (file, t) = rest.split_once(' ').expect("!write FILE TEXT");
                        std::fs::write(file, t.replace("\\n", "\n")).expect("write");
                    }
                    other => panic!("{name}: unknown directive `!{other}`"),
                }
                transcript.push_str(&format!("{}\n", raw));
                continue;
            }
            // `<space>` stands for a line of one space (the Space key, N33-14); `<first>` for
            // the first legal move, typed by its name.
            let input = match line.as_str() {
                "<space>" => " ".to_string(),
                "<first>" if session.state.over => continue,
                "<first>" => {
                    let moves = session.state.legal_moves(&session.program);
                    match moves.as_slice().first() {
                        Some(m) => ninety::play::move_name(&session.program, &session.state, *m),
                        None => "total".to_string(),
                    }
                }
                _ => line.clone(),
            };
            let shown = if line == "<first>" {
                input.clone()
            } else {
                raw.to_string()
            };
            transcript.push_str(&format!("> {shown}\n"));
            let reply = session.handle(&Shipped, &input);
            transcript.push_str(&reply.text.replace(&tmp_s, "$TMP"));
            if reply.quit {
                transcript.push_str("(quit)\n");
                break;
            }
        }
        let _ = std::fs::remove_dir_all(&tmp);
        insta::assert_snapshot!(transcript);
    });
}

/// The save format is a type of its own, pinned by golden files that must keep loading:
/// version 2 (as written now) reads back and writes again byte for byte, version 1 (the
/// engine's state as it was once serialized) still loads, and a version this build does not
/// read is refused by its number, the file left as it is.
#[test]
fn golden_saves_keep_loading_and_the_format_writes_them_back_the_same() {
    use ninety::app::session::save;
    let saves = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/saves");
    let read = |name: &str| std::fs::read(saves.join(name)).expect("a golden save");
    for name in [
        "golden-v1.json",
        "golden-v2.json",
        "golden-two-decks-v2.json",
        "golden-v3.json",
        "golden-two-decks-v3.json",
        "golden-moves-v3.json",
    ] {
        let path = saves.join(name).display().to_string();
        let (session, text) = Session::resume(&Shipped, &path, false)
            .unwrap_or_else(|e| panic!("{name} does not load: {e}"));
        assert!(text.contains("loaded"), "{name}: {text}");
        let loaded = save::read(&read(name)).expect("reads");
        assert_eq!(loaded.state, session.state, "{name}");
        // Written in the current format and read back: the same game.
        let again = save::write(&loaded.header, &loaded.state).expect("writes");
        let back = save::read(again.as_bytes()).expect("reads back");
        assert_eq!(back.state, loaded.state, "{name}");
        assert_eq!(back.header, loaded.header, "{name}");
        if name.ends_with("-v3.json") {
            // The current format writes the golden file again, to the byte: a change to
            // what a save holds must change its version (and add a golden file).
            assert_eq!(again.as_bytes(), &read(name)[..], "{name}");
        }
    }
    // What the table keeps is saved: the counts, and who knows a card moved between hands.
    let moves = save::read(&read("golden-moves-v3.json")).expect("reads");
    assert!(
        moves.state.kept.seen.iter().any(|&x| x != 0),
        "no card known in another's hand"
    );
    assert!(
        moves.state.kept.counts.iter().any(|&x| x != 0),
        "no count kept"
    );
    // Cards of the second deck are named apart, so a game with copies keeps every card.
    let two = String::from_utf8(read("golden-two-decks-v3.json")).expect("text");
    assert!(two.contains("/2\""), "no card of the second deck named");
    // Another version: refused by its number, the file untouched.
    let dir = std::env::temp_dir().join(format!("ninety-save-v9-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    std::fs::copy(saves.join("nn.rules"), dir.join("nn.rules")).expect("copy");
    let v9 = String::from_utf8(read("golden-v3.json"))
        .expect("text")
        .replace("\"version\": 3", "\"version\": 9");
    let file = dir.join("v9.json");
    std::fs::write(&file, &v9).expect("write");
    let err = Session::resume(&Shipped, &file.display().to_string(), false)
        .map(|_| ())
        .expect_err("refused");
    assert!(
        err.contains("save format 9") && err.contains("reads formats 1, 2 and 3"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&file).expect("still there"), v9);
    let _ = std::fs::remove_dir_all(&dir);
}
