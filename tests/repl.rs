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
