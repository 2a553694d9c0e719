//! Shell completion and the man page as a user gets them: the script `ninety completions bash`
//! prints, sourced in a real bash and driven as readline drives it (COMP_WORDS, COMP_CWORD,
//! COMP_LINE, COMP_POINT, COMP_TYPE, then the function `complete -p ninety` names), completes commands,
//! the shipped rulesets, bots and the options of the ruleset given; then an interactive bash in
//! a terminal (tmux), where readline splits words at `=` and `:` as it does for a user, and
//! zsh and fish running their own scripts; `ninety man` is a roff page of every command, with
//! the sections a manual page has. The tests that need tmux, zsh, fish or man are ignored by a
//! plain `cargo test` (each says what it needs); `cargo xtask test` installs those and runs
//! them. The bash tests need only bash.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod tmux;
use tmux::Tmux;

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

/// A folder holding `ninety` alone, for a shell's `PATH`: the script names the binary as the
/// README has users do, `source <(ninety completions bash)`.
fn bin_folder(dir: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).expect("a folder");
    std::os::unix::fs::symlink(BIN, bin.join("ninety")).expect("a link to the binary");
    bin
}

/// Clears the line being edited (Ctrl-U), and waits for the prompt to be alone on it (for two
/// minutes at most: a guard against a hang).
fn clear_line(t: &Tmux) {
    t.press(&["C-u"]);
    let start = std::time::Instant::now();
    loop {
        let screen = t.screen();
        if edited(&screen).trim_end() == "$" {
            return;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(120),
            "Ctrl-U left the line: {screen}"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// The last line of the screen that starts with the prompt `$ `: the line being edited.
fn edited(screen: &str) -> String {
    screen
        .lines()
        .rev()
        .find(|l| l.starts_with("$ "))
        .unwrap_or_default()
        .to_string()
}

#[test]
#[ignore = "needs tmux: run by cargo xtask test"]
fn an_interactive_bash_completes_option_values_after_the_equals_sign() {
    let dir = Empty::new("complete-tmux-bash");
    let bin = bin_folder(&dir.0);
    std::fs::write(dir.0.join("house.rhai"), "fn turn(game) { 0 }\n").expect("written");
    let path = format!("PATH={}:/usr/bin:/bin", bin.display());
    let home = format!("HOME={}", dir.0.display());
    let t = Tmux::start(
        "bash",
        &dir.0,
        &[
            "env",
            "-i",
            &path,
            &home,
            "TERM=xterm",
            "PS1=$ ",
            "INPUTRC=/dev/null",
            "bash",
            "--norc",
            "--noprofile",
        ],
    );
    t.wait_for("$ ");
    // The premise: this bash splits words at `=` and `:`, as bash does by default.
    t.type_text("[[ $COMP_WORDBREAKS == *=* && $COMP_WORDBREAKS == *:* ]] && echo SPLITS-AT-EQUALS-AND-COLON");
    t.press(&["Enter"]);
    t.wait_for("\nSPLITS-AT-EQUALS-AND-COLON");
    t.type_text("source <(ninety completions bash) && echo SOURCED");
    t.press(&["Enter"]);
    t.wait_for("\nSOURCED");
    // `--set chips=<TAB><TAB>`: Ninety-Nine's chips go from 1 to 10; all are listed.
    t.type_text("ninety sim ninety-nine --set chips=");
    t.press(&["Tab", "Tab"]);
    let screen = t.wait_for("10");
    let listed = screen
        .lines()
        .rev()
        .find(|l| l.split_whitespace().any(|w| w == "10"))
        .unwrap_or_default();
    let mut values: Vec<&str> = listed.split_whitespace().collect();
    values.sort_by_key(|v| v.parse::<u32>().unwrap_or(0));
    assert_eq!(
        values,
        ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"],
        "{screen}"
    );
    clear_line(&t);
    // `--set cap=2<TAB>`: the one value is completed in place, after the `=`.
    t.type_text("ninety sim ring-of-99 --set cap=2");
    t.press(&["Tab"]);
    let screen = t.wait_for("cap=299");
    assert!(
        edited(&screen).starts_with("$ ninety sim ring-of-99 --set cap=299"),
        "{screen}"
    );
    clear_line(&t);
    t.type_text("ninety sim ring-of-99 --set cap=");
    t.press(&["Tab", "Tab"]);
    let screen = t.wait_for("299");
    assert!(
        screen.lines().any(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            w == ["199", "299"]
        }),
        "the two values, listed: {screen}"
    );
    clear_line(&t);
    // After a `:`, as after `=`: a bot written in rhai.
    t.type_text("ninety sim ninety-nine --bots script:ho");
    t.press(&["Tab"]);
    let screen = t.wait_for("script:house.rhai");
    assert!(
        edited(&screen).starts_with("$ ninety sim ninety-nine --bots script:house.rhai"),
        "{screen}"
    );
    clear_line(&t);
    // The names of the commands after `ninety man`.
    t.type_text("ninety man si");
    t.press(&["Tab"]);
    let screen = t.wait_for("man sim");
    assert!(edited(&screen).starts_with("$ ninety man sim"), "{screen}");
    clear_line(&t);
    // The command names, and a shipped ruleset, as before.
    t.type_text("ninety sim ring-of-2");
    t.press(&["Tab"]);
    let screen = t.wait_for("ring-of-299");
    assert!(
        edited(&screen).starts_with("$ ninety sim ring-of-299"),
        "{screen}"
    );
}

/// Whether a shell is here; else the test fails saying how to get it. (The tests that need
/// one are ignored by a plain `cargo test`; `cargo xtask test` installs the shells and runs them.)
fn shell(name: &str) {
    let found = Command::new(name)
        .arg("-c")
        .arg("exit 0")
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        found,
        "this test runs ninety's {name} script in {name}: `apt-get install {name}` \
         (`cargo xtask test` installs it)"
    );
}

#[test]
#[ignore = "needs fish: run by cargo xtask test"]
fn fish_runs_its_script_and_completes_option_values() {
    shell("fish");
    let dir = Empty::new("complete-fish");
    let bin = bin_folder(&dir.0);
    let complete = |line: &str| {
        let o = Command::new("fish")
            .args(["--no-config", "-c"])
            .arg(format!(
                "ninety completions fish | source; complete --do-complete '{line}'"
            ))
            .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
            .env("HOME", &dir.0)
            .current_dir(&dir.0)
            .output()
            .expect("fish runs");
        let out = stdout(&o);
        let mut got: Vec<String> = out
            .lines()
            .map(|l| l.split('\t').next().unwrap_or_default().to_string())
            .collect();
        got.sort();
        got
    };
    assert_eq!(
        complete("ninety sim ring-of-99 --set cap="),
        ["cap=199", "cap=299"]
    );
    assert_eq!(complete("ninety sim ring-of-99 --set "), ["cap=", "chips="]);
    assert_eq!(complete("ninety man si"), ["sim"]);
}

#[test]
#[ignore = "needs zsh and tmux: run by cargo xtask test"]
fn zsh_runs_its_script_and_completes_option_values() {
    shell("zsh");
    let dir = Empty::new("complete-zsh");
    let bin = bin_folder(&dir.0);
    let path = format!("PATH={}:/usr/bin:/bin", bin.display());
    let home = format!("HOME={}", dir.0.display());
    let t = Tmux::start(
        "zsh",
        &dir.0,
        &[
            "env",
            "-i",
            &path,
            &home,
            "TERM=xterm",
            "PS1=$ ",
            "zsh",
            "-f",
        ],
    );
    t.wait_for("$ ");
    t.type_text(
        "autoload -Uz compinit && compinit -u && source <(ninety completions zsh) && echo SOURCED",
    );
    t.press(&["Enter"]);
    t.wait_for("\nSOURCED");
    t.type_text("ninety sim ring-of-99 --set cap=2");
    t.press(&["Tab"]);
    let screen = t.wait_for("cap=299");
    assert!(
        edited(&screen).starts_with("$ ninety sim ring-of-99 --set cap=299"),
        "{screen}"
    );
    clear_line(&t);
    t.type_text("ninety sim ring-of-99 --set ch");
    t.press(&["Tab"]);
    let screen = t.wait_for("chips=");
    assert!(
        edited(&screen).starts_with("$ ninety sim ring-of-99 --set chips="),
        "{screen}"
    );
}

/// A page as `man` shows it, 100 columns wide, and what groff warned about it.
fn rendered(page: &str) -> (String, String) {
    use std::io::Write as _;
    let mut child = Command::new("man")
        .args(["--warnings", "-l", "-"])
        .env("MANWIDTH", "100")
        .env("MANPAGER", "cat")
        .env("MAN_KEEP_FORMATTING", "")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect(
            "this test reads the pages with `man`: `apt-get install man-db` (`cargo xtask test` \
             installs it)",
        );
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(page.as_bytes())
        .expect("the page");
    let o = child.wait_with_output().expect("man runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
#[ignore = "needs man: run by cargo xtask test"]
fn every_manual_page_has_examples_exit_status_environment_and_files() {
    let mut pages = vec![(String::from("ninety"), stdout(&ninety(&["man"])))];
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
        pages.push((command.to_string(), stdout(&ninety(&["man", command]))));
    }
    for (name, page) in &pages {
        for section in [
            ".SH \"EXIT STATUS\"",
            ".SH ENVIRONMENT",
            ".SH FILES",
            ".SH EXAMPLES",
        ] {
            assert!(page.contains(section), "{name}: no `{section}`:\n{page}");
        }
        let (text, warnings) = rendered(page);
        assert!(warnings.trim().is_empty(), "{name}: {warnings}");
        for heading in ["EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES"] {
            assert!(
                text.lines().any(|l| l == heading),
                "{name}: `{heading}` as a heading:\n{text}"
            );
        }
        // The words, whatever the lines they were filled into.
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains("NO_COLOR"), "{name}: {text}");
        assert!(
            flat.contains("~/.local/state/ninety/history"),
            "{name}: {text}"
        );
        // Exit code 2 is the same for every command: an unreadable file named on the line.
        assert!(flat.contains("that cannot be read"), "{name}: {text}");
    }
    let (sim, _) = rendered(&pages[4].1);
    let sim = sim.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        sim.contains("ninety sim ninety-nine --sweep chips=2,3,5"),
        "an example, its hyphens as typed: {sim}"
    );
    assert!(sim.contains("SLURM_ARRAY_TASK_ID"), "{sim}");
    assert!(sim.contains("ninety(1)"), "SEE ALSO: {sim}");
}
