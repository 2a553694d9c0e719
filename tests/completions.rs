//! Shell completion and the man page as a user gets them: the script `ninety completions bash`
//! prints, sourced in a real bash and driven as readline drives it (COMP_WORDS, COMP_CWORD,
//! COMP_LINE, COMP_POINT, COMP_TYPE, then the function `complete -p ninety` names), completes commands,
//! the shipped rulesets, bots and the options of the ruleset given; `ninety man` is a roff page
//! of every command.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_ninety");

fn ninety(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).expect("UTF-8")
}

/// An empty folder to complete in, so no file of the repository joins the candidates.
struct Empty(PathBuf);

impl Empty {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("ninety-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a folder");
        Self(dir)
    }
}

impl Drop for Empty {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What bash offers for each command line, the last word being completed: the script
/// sourced once, then for each line the completion function called as readline calls it
/// (`FUNCTION COMMAND WORD PREVIOUS`), COMPREPLY printed one candidate a line and a blank line
/// after each.
fn complete_in_bash(dir: &Path, lines: &[&[&str]]) -> Vec<Vec<String>> {
    let script = dir.join("ninety.bash");
    std::fs::write(&script, stdout(&ninety(&["completions", "bash"]))).expect("written");
    let mut session = format!(
        "source {}\nf=$(complete -p ninety | sed -E 's/.*-F ([^ ]+).*/\\1/')\n\
         [ -n \"$f\" ] || {{ echo 'no completion for ninety' >&2; exit 3; }}\n",
        script.display()
    );
    for words in lines {
        let quoted: Vec<String> = words
            .iter()
            .map(|w| format!("'{}'", w.replace('\'', "'\\''")))
            .collect();
        session.push_str(&format!(
            "COMP_WORDS=({})\nCOMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))\n\
             COMP_LINE=\"${{COMP_WORDS[*]}}\"\nCOMP_POINT=${{#COMP_LINE}}\nCOMP_TYPE=9\nCOMPREPLY=()\n\
             \"$f\" ninety \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"\n\
             printf '%s\\n' \"${{COMPREPLY[@]}}\"\necho\n",
            quoted.join(" ")
        ));
    }
    let o = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &session])
        .current_dir(dir)
        .env_remove("NINETY_COMPLETE")
        .stdin(Stdio::null())
        .output()
        .expect("bash runs");
    let out = stdout(&o);
    let blocks: Vec<Vec<String>> = out
        .split("\n\n")
        .map(|b| {
            b.lines()
                .filter(|l| !l.is_empty())
                .map(String::from)
                .collect()
        })
        .take(lines.len())
        .collect();
    assert_eq!(blocks.len(), lines.len(), "{out}");
    blocks
}

/// The shipped rulesets whose names start with `prefix`, from `rulesets/`.
fn shipped(prefix: &str) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("rulesets")
        .filter_map(Result::ok)
        .filter_map(|e| {
            e.file_name()
                .to_string_lossy()
                .strip_suffix(".rules")
                .map(String::from)
        })
        .filter(|n| n.starts_with(prefix))
        .collect();
    names.sort();
    names
}

#[test]
fn bash_completes_rulesets_bots_and_options() {
    let dir = Empty::new("complete-bash");
    std::fs::write(dir.0.join("house.rules"), "name \"House\"\n").expect("written");
    std::fs::write(dir.0.join("notes.txt"), "").expect("written");
    std::fs::create_dir(dir.0.join("variants")).expect("a folder");
    let got = complete_in_bash(
        &dir.0,
        &[
            &["ninety", "sim", "nin"],
            &["ninety", "si"],
            &["ninety", "sim", "ninety-nine", "--bots", ""],
            &["ninety", "sim", "ninety-nine", "--bots", "cautious,ra"],
            &["ninety", "sim", "ring-of-99", "--games", "10", "--set", ""],
            &["ninety", "sim", "ring-of-99", "--set", "cap="],
            &["ninety", "sim", "ninety-eight", "--sweep", "th"],
            &["ninety", "sim", "ninety-nine", "ring-of-99", "--set", ""],
            &["ninety", "play", "ninety-eight", "--set", ""],
            &["ninety", "rules", "h"],
            &["ninety", "completions", "f"],
        ],
    );
    let nin = shipped("nin");
    assert!(nin.len() >= 10, "{nin:?}");
    assert_eq!(got[0], nin, "`ninety sim nin<TAB>`: the shipped names");
    assert_eq!(got[1], ["sim"]);
    for bot in ["random", "cautious", "aggressive", "search", "script:"] {
        assert!(got[2].iter().any(|c| c == bot), "{bot} in {:?}", got[2]);
    }
    assert_eq!(got[3], ["cautious,random"], "after a comma, the next bot");
    assert_eq!(got[4], ["cap=", "chips="], "Ring of 99's options");
    assert_eq!(got[5], ["cap=199", "cap=299"], "an option's values");
    assert_eq!(got[6], ["threshold="], "Ninety-Eight's, for --sweep");
    assert_eq!(got[7], ["cap=", "chips="], "both rulesets' options");
    assert_eq!(got[8], ["lives=", "threshold="]);
    // The shipped names first, then the `.rules` files and folders here.
    let mut h = shipped("h");
    h.extend(["house.rules".to_string()]);
    assert_eq!(got[9], h);
    assert_eq!(got[10], ["fish"]);
    let folders = complete_in_bash(&dir.0, &[&["ninety", "check", "v"]]);
    assert_eq!(folders[0], ["variants/"]);
}

#[test]
fn scripts_for_zsh_and_fish_ask_the_same_binary() {
    for shell in ["zsh", "fish", "bash"] {
        let script = stdout(&ninety(&["completions", shell]));
        assert!(script.contains("NINETY_COMPLETE"), "{shell}: {script}");
        assert!(script.contains(BIN), "{shell} calls this binary: {script}");
    }
    // The binary answers a shell's question itself.
    let o = Command::new(BIN)
        .args(["--", "ninety", "sim", "ring-of-99", "--set", ""])
        .env("NINETY_COMPLETE", "fish")
        .env("_CLAP_COMPLETE_INDEX", "5")
        .current_dir(std::env::temp_dir())
        .output()
        .expect("runs");
    let out = stdout(&o);
    assert!(out.lines().any(|l| l.starts_with("cap=")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("chips=")), "{out}");
    // A shell it does not know is a usage error.
    let o = ninety(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn the_man_page_has_every_command() {
    let page = stdout(&ninety(&["man"]));
    assert!(page.starts_with(".ie"), "roff: {}", &page[..40]);
    assert!(page.contains(".TH ninety 1"), "{page}");
    assert!(page.contains(".SH SUBCOMMANDS"), "{page}");
    for command in [
        "check",
        "run",
        "play",
        "sim",
        "list",
        "rules",
        "lsp",
        "completions",
        "man",
    ] {
        assert!(
            page.contains(&format!("ninety\\-{command}(1)")),
            "`{command}` in the page"
        );
        let own = stdout(&ninety(&["man", command]));
        assert!(
            own.contains(&format!(".TH ninety-{command} 1")),
            "{command}: {own}"
        );
    }
    let sim = stdout(&ninety(&["man", "sim"]));
    for option in ["games", "bots", "set", "sweep", "merge", "report"] {
        assert!(sim.contains(&format!("\\-\\-{option}")), "--{option}");
    }
    let o = ninety(&["man", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no command `nope`"));
}
