//! One front door for untrusted input: every way a file, script, document, save or shard
//! comes in (`check`, `rules`, `run`, `play`, `sim`, a bot, the `--merge` of `sim`, `judge`
//! and `tune`, `load`, a moves file, shell completion, the language server) is fed the same
//! hostile corpus — the files of both hostile-input reports in `tests/front-door/`, and links
//! out of the folder made here — so a fix in one place is a fix everywhere. Each must end by
//! itself, quickly, within 2 GB, without a panic, without sending a control character to the
//! terminal, and without showing a byte of a file outside its folder or of the environment.

mod support;

use std::path::Path;
use std::time::Duration;

use support::{Dir, Run, hover, lsp_session, open_doc, uri};

/// A line only the file outside the folder holds.
const SECRET: &str = "SECRETMARKER_OUTSIDE";

/// The corpus, copied into a fresh folder `corpus/` (beside a folder `outside/` it must not
/// read): its file names, those made here included.
fn corpus(name: &str) -> (Dir, Vec<String>) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/front-door");
    let mut files: Vec<String> = std::fs::read_dir(&from)
        .expect("the corpus")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let d = Dir::new(name, "front-door", &[]);
    for f in &files {
        std::fs::create_dir_all(d.path("corpus")).expect("a folder");
        std::fs::copy(from.join(f), d.path("corpus").join(f)).expect("copy");
    }
    d.write(
        "outside/secret.rules",
        format!("name \"s\"\n{SECRET} this line is private\n"),
    );
    d.write(
        "outside/secret.rhai",
        format!("fn choose(game, moves) {{ {SECRET} }}\n"),
    );
    d.write("outside/secret.json", format!("{{\"{SECRET}\": 1}}\n"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        // Links a file of the corpus names: never followed out of the folder. (A link named
        // on the command line is the user's choice, and read.)
        for (link, to) in [
            ("link-parent.rules", "../outside/secret.rules"),
            ("link-script.rhai", "../outside/secret.rhai"),
            ("environ.rhai", "/proc/self/environ"),
        ] {
            symlink(to, d.path("corpus").join(link)).expect("a link");
        }
        d.write(
            "corpus/via-link.rules",
            "extends \"link-parent\"\nname \"v\"\n",
        );
        for (file, script) in [
            ("via-script.rules", "link-script.rhai"),
            ("via-environ.rules", "environ.rhai"),
        ] {
            d.write(
                &format!("corpus/{file}"),
                format!("extends \"ninety-nine\"\nname \"v\"\nscript file \"{script}\"\ncard 7: run choose\n"),
            );
            files.push(file.to_string());
        }
        files.push("via-link.rules".to_string());
    }
    (d, files)
}

/// An entry point: how it is fed one file of the corpus (`corpus/NAME`).
type Entry = fn(&Dir, &str) -> Run;

const LIMIT: Duration = Duration::from_secs(90);

fn check(d: &Dir, f: &str) -> Run {
    d.run_with(&["check", f], b"", LIMIT)
}
fn rules(d: &Dir, f: &str) -> Run {
    d.run_with(&["rules", f], b"", LIMIT)
}
fn rules_md(d: &Dir, f: &str) -> Run {
    d.run_with(&["rules", f, "--format", "md"], b"", LIMIT)
}
fn run(d: &Dir, f: &str) -> Run {
    d.run_with(&["run", f, "--bots", "--seed", "1"], b"", LIMIT)
}
fn play(d: &Dir, f: &str) -> Run {
    d.run_with(
        &["play", f, "--seed", "1"],
        b"1\nhistory\nrules\nquit\n",
        LIMIT,
    )
}
fn sim(d: &Dir, f: &str) -> Run {
    d.run_with(&["sim", f, "--games", "5", "--seed", "1"], b"", LIMIT)
}
fn bot(d: &Dir, f: &str) -> Run {
    let bots = format!("script:{f}");
    d.run_with(
        &[
            "run",
            "ninety-nine",
            "--players",
            "2",
            "--seed",
            "1",
            "--bots",
            &bots,
        ],
        b"",
        LIMIT,
    )
}
fn merge(d: &Dir, f: &str) -> Run {
    d.run_with(&["sim", "--merge", f], b"", LIMIT)
}
fn judge_merge(d: &Dir, f: &str) -> Run {
    d.run_with(&["judge", "--merge", f], b"", LIMIT)
}
fn tune_merge(d: &Dir, f: &str) -> Run {
    d.run_with(&["tune", "--merge", f], b"", LIMIT)
}
fn load(d: &Dir, f: &str) -> Run {
    let input = format!("load {f}\n1\nquit\n");
    d.run_with(&["play", "--seed", "1"], input.as_bytes(), LIMIT)
}
fn moves_file(d: &Dir, f: &str) -> Run {
    d.run_with(
        &["run", "ninety-nine", "--seed", "1", "--moves-file", f],
        b"",
        LIMIT,
    )
}
fn completion(d: &Dir, f: &str) -> Run {
    d.run_env(
        &["--", "ninety", "sim", f, "--set", ""],
        b"",
        &[
            ("NINETY_COMPLETE", "bash"),
            ("_CLAP_IFS", "\n"),
            ("_CLAP_COMPLETE_INDEX", "4"),
            ("_CLAP_COMPLETE_COMP_TYPE", "9"),
            ("_CLAP_COMPLETE_SPACE", "false"),
        ],
        LIMIT,
    )
}
fn lsp(d: &Dir, f: &str) -> Run {
    let path = d.path(f);
    let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap_or_default()).into_owned();
    let u = uri(&path);
    let body = [
        open_doc(&u, &text),
        hover(2, &u, 1, 2),
        serde_json::json!({"jsonrpc": "2.0", "id": 3, "method": "textDocument/completion",
            "params": {"textDocument": {"uri": u}, "position": {"line": 2, "character": 0}}}),
        serde_json::json!({"jsonrpc": "2.0", "id": 4, "method": "textDocument/definition",
            "params": {"textDocument": {"uri": u}, "position": {"line": 0, "character": 10}}}),
    ];
    d.run_with(&["lsp"], &lsp_session(&body), LIMIT)
}

/// Feeds every file of the corpus to `entry`, and checks what it did with each.
fn feed(name: &str, entry: Entry) {
    let (d, files) = corpus(name);
    for f in &files {
        let file = format!("corpus/{f}");
        let r = entry(&d, &file);
        // The protocol's frames end their headers with CR LF: the one control character a
        // language server sends, to an editor.
        if name == "lsp" {
            r.no_crash_but('\r');
        } else {
            r.no_crash();
        }
        let all = format!("{}{}", r.stdout(), r.stderr());
        assert!(
            !all.contains(SECRET) && !all.contains("hunter2"),
            "{name} of {f} showed what lies outside its folder: {}",
            r.shown()
        );
        assert!(
            std::fs::read_to_string(d.path("outside/secret.rules"))
                .is_ok_and(|t| t.contains(SECRET)),
            "{name} of {f} wrote outside its folder"
        );
    }
}

#[test]
fn check_takes_the_corpus() {
    feed("check", check);
}

#[test]
fn rules_takes_the_corpus() {
    feed("rules", rules);
    feed("rules-md", rules_md);
}

#[test]
fn run_takes_the_corpus() {
    feed("run", run);
}

#[test]
fn play_takes_the_corpus() {
    feed("play", play);
}

#[test]
fn sim_takes_the_corpus() {
    feed("sim", sim);
}

#[test]
fn a_bot_takes_the_corpus() {
    feed("bot", bot);
}

#[test]
fn merge_takes_the_corpus() {
    feed("merge", merge);
}

#[test]
fn judge_merge_takes_the_corpus() {
    feed("judge-merge", judge_merge);
}

#[test]
fn tune_merge_takes_the_corpus() {
    feed("tune-merge", tune_merge);
}

#[test]
fn load_takes_the_corpus() {
    feed("load", load);
}

#[test]
fn a_moves_file_takes_the_corpus() {
    feed("moves", moves_file);
}

#[test]
fn completion_takes_the_corpus() {
    feed("completion", completion);
}

#[test]
fn the_language_server_takes_the_corpus() {
    feed("lsp", lsp);
}
