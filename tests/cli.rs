//! The binary as a user runs it: exit codes, formats, folders, `run` transcripts.

use std::process::{Command, Output};

fn ninety(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ninety"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn check_a_folder_of_good_rulesets_exits_0() {
    let o = ninety(&["check", "rulesets/"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    // Every scenario of every shipped ruleset ran.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
    let scenarios: usize = std::fs::read_dir(&dir)
        .expect("rulesets")
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "rules"))
        .map(|e| {
            std::fs::read_to_string(e.path())
                .expect("text")
                .lines()
                .filter(|l| l.trim_start().starts_with("scenario \""))
                .count()
        })
        .sum();
    assert!(scenarios > 50);
    assert!(
        stdout(&o).contains(&format!(
            "rulesets checked, {scenarios} scenarios run, 0 errors, 0 warnings"
        )),
        "{}",
        stdout(&o)
    );
}

#[test]
fn check_of_a_file_that_is_not_there_says_so_in_its_summary() {
    let o = ninety(&["check", "tests/cli-inputs/there-is-no-such.rules"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("0 rulesets checked, 1 could not be read, 0 scenarios run"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn check_a_faulty_ruleset_exits_1_with_a_summary() {
    let o = ninety(&["check", "tests/cli-inputs/unknown_keyword.rules"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("1 ruleset checked, 0 scenarios run, 1 error, 0 warnings"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn check_a_missing_file_exits_2() {
    let o = ninety(&["check", "no-such-file.rules"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot read `no-such-file.rules`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_bad_flag_exits_2() {
    assert_eq!(
        ninety(&["check", "--format", "xml", "rulesets/"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        ninety(&["check", "--nope", "rulesets/"]).status.code(),
        Some(2)
    );
}

#[test]
fn deny_warnings_turns_a_warning_into_failure() {
    let path = "tests/cli-inputs/unused_option.rules";
    assert_eq!(ninety(&["check", path]).status.code(), Some(0));
    assert_eq!(
        ninety(&["check", "--deny-warnings", path]).status.code(),
        Some(1)
    );
}

#[test]
fn check_json_gives_one_object_per_diagnostic() {
    let o = ninety(&[
        "check",
        "--format",
        "json",
        "tests/cli-inputs/unknown_keyword.rules",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON object"))
        .collect();
    assert_eq!(lines.len(), 1);
    let d = &lines[0];
    for key in [
        "file", "line", "column", "end", "severity", "code", "message", "hint",
    ] {
        assert!(d.get(key).is_some(), "no `{key}` in {d}");
    }
    assert_eq!(d["severity"], "error");
    assert_eq!(d["code"], "unknown-keyword");
}

#[test]
fn set_validates_option_values() {
    // A `--set` the ruleset has no room for is a usage error: exit 2.
    let o = ninety(&["check", "--set", "chips=50", "rulesets/ninety-nine.rules"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("`chips` must be from 1 to 10"),
        "{}",
        stdout(&o)
    );
    let o = ninety(&["check", "--set", "chip=5", "rulesets/ninety-nine.rules"]);
    assert!(
        stdout(&o).contains("did you mean `--set chips=5`"),
        "{}",
        stdout(&o)
    );
    assert_eq!(
        ninety(&["check", "--set", "chips=5", "rulesets/ninety-nine.rules"])
            .status
            .code(),
        Some(0)
    );
}

#[test]
fn run_replays_a_table_position() {
    let o = ninety(&[
        "run",
        "ninety-nine",
        "--players",
        "3",
        "--hands",
        "AS 2H 3D | KC 4S 9D | 5C 6C 7C",
        "--deck",
        "8H 8S 8D 8C",
        "--total",
        "90",
        "--turn",
        "0",
        "--moves",
        "AS:1; 9D",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Seat 0 plays AS:1: total 91."), "{out}");
    assert!(out.contains("Seat 1 plays 9D: total 99."), "{out}");
    // Seat 2 holds 5, 6 and 7: they cannot play at 99 and bust at once.
    assert!(out.contains("Seat 2 cannot play."), "{out}");
    assert!(
        out.contains("Seat 2 pays 1 to the bank (could not play)."),
        "{out}"
    );
}

#[test]
fn an_illegal_move_stops_with_the_reason_and_the_legal_moves() {
    let o = ninety(&[
        "run",
        "rulesets/ninety-nine.rules",
        "--hands",
        "AS 2H 3D | KC 4S 9D | 5C 6C 7C",
        "--total",
        "95",
        "--turn",
        "0",
        "--json",
        "--moves",
        "AS:11",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("move `AS:11`"), "{err}");
    assert!(
        err.contains("may not go above 99 (ninety-nine.rules line"),
        "{err}"
    );
    assert!(err.contains("legal moves: AS:1 2H 3D"), "{err}");
    // Nothing was applied: the state is still at 95 with seat 0 to play.
    let last: serde_json::Value =
        serde_json::from_str(stdout(&o).lines().last().expect("state")).expect("json");
    assert_eq!(last["event"], "state");
    assert_eq!(last["total"], 95);
    assert_eq!(last["turn"], 0);
    assert_eq!(last["hand_sizes"], serde_json::json!([3, 3, 3]));
}

#[test]
fn run_json_reports_pays_with_their_rule() {
    let o = ninety(&[
        "run",
        "rulesets/33-66-99.rules",
        "--hands",
        "7H 2C 3C | 5D 6D 8D | 5S 6S 8S",
        "--total",
        "29",
        "--turn",
        "0",
        "--json",
        "--moves",
        "7H",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let events: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    let pay = events
        .iter()
        .find(|e| e["event"] == "pay")
        .expect("a pay event");
    assert_eq!(pay["seat"], 0);
    assert_eq!(pay["amount"], 1);
    assert_eq!(pay["to"], "bank");
    assert_eq!(pay["reason"], "passed 33");
    let state = events.last().expect("state");
    for key in [
        "total",
        "direction",
        "turn",
        "chips",
        "eliminated",
        "round",
        "hand_sizes",
        "stock",
        "discard",
    ] {
        assert!(state.get(key).is_some(), "no `{key}` in the state");
    }
    assert_eq!(state["chips"], serde_json::json!([8, 9, 9]));
}

#[test]
fn the_same_seed_gives_the_same_game_byte_for_byte() {
    let a = ninety(&[
        "run",
        "ninety-nine",
        "--seed",
        "42",
        "--bots",
        "random",
        "--json",
    ]);
    let b = ninety(&[
        "run",
        "ninety-nine",
        "--seed",
        "42",
        "--bots",
        "random",
        "--json",
    ]);
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(a.stdout, b.stdout);
    let c = ninety(&[
        "run",
        "ninety-nine",
        "--seed",
        "43",
        "--bots",
        "random",
        "--json",
    ]);
    assert_ne!(a.stdout, c.stdout);
}

#[test]
fn list_shows_the_shipped_rulesets() {
    let o = ninety(&["list"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    for name in ["ninety-nine", "ninety-eight", "33-66-99", "ring-of-99"] {
        assert!(out.contains(name), "{out}");
    }
}

#[test]
fn rules_prints_a_sheet_with_the_variant_marked() {
    let o = ninety(&["rules", "ring-of-99", "--format", "md"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    assert!(out.starts_with("# Ring of 99"), "{out}");
    assert!(
        out.contains("- Card 9: set the total to 199. **(changed)**"),
        "{out}"
    );
    assert!(out.contains("- Card Queen: add 10.\n"), "{out}");
}

/// The binary with `input` on standard input (a pipe, so `play` reads it line by line).
fn ninety_typing(args: &[&str], input: &str, dir: &std::path::Path) -> Output {
    use std::io::Write as _;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ninety"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("NINETY_HOME", dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("typed");
    drop(stdin);
    child.wait_with_output().expect("it ends")
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ninety-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    dir
}

#[test]
fn every_command_exits_2_for_a_ruleset_it_cannot_read() {
    let dir = temp("unreadable");
    let folder = dir.display().to_string();
    let missing = "no-such-ruleset.rules";
    let cases: [&[&str]; 13] = [
        &["check", missing],
        &["play", missing],
        &["run", missing],
        &["run", missing, "--bots"],
        &["sim", missing, "--games", "5"],
        &["sim", "ninety-nine", missing, "--games", "5"],
        &["sim", missing, "ninety-nine", "--games", "5"],
        &["sim", missing, "--sweep", "chips=1,2", "--games", "5"],
        &["rules", missing],
        &["rules", missing, "--format", "md"],
        &["rules", missing, "--format", "rules"],
        // A folder is not a ruleset file either.
        &["rules", &folder],
        &["sim", &folder, "--games", "5"],
    ];
    for args in cases {
        let o = ninety_typing(args, "", std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(err.contains("cannot read `"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_ruleset_that_does_not_check_exits_1_in_every_command() {
    let bad = "tests/cli-inputs/unknown_keyword.rules";
    let cases: [&[&str]; 6] = [
        &["check", bad],
        &["play", bad],
        &["run", bad],
        &["sim", bad, "--games", "5"],
        &["rules", bad],
        &["rules", bad, "--format", "md"],
    ];
    for args in cases {
        let o = ninety_typing(args, "", std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}");
    }
}

/// Every argument of every command, and every command, with the words `--help` shows.
#[test]
fn every_option_and_argument_has_help() {
    fn walk(cmd: &clap::Command, path: &str, missing: &mut Vec<String>) {
        if cmd.get_about().is_none() && !path.is_empty() {
            missing.push(format!("`{path}` (the command)"));
        }
        for arg in cmd.get_arguments() {
            let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
            if help.trim().is_empty() && arg.get_long_help().is_none() {
                missing.push(format!("`{path}` {}", arg.get_id()));
            }
        }
        for sub in cmd.get_subcommands() {
            walk(sub, format!("{path} {}", sub.get_name()).trim(), missing);
        }
    }
    let mut cmd = ninety::app::cli::definitions();
    cmd.build();
    let mut missing = Vec::new();
    walk(&cmd, "", &mut missing);
    assert!(missing.is_empty(), "no help text: {missing:#?}");
    // The walk sees the arguments the report found bare.
    let sim = cmd.find_subcommand("sim").expect("sim");
    for id in ["games", "seed", "players", "sets", "json", "rulesets"] {
        assert!(sim.get_arguments().any(|a| a.get_id() == id), "{id}");
    }
    // And `--help` prints them.
    let o = ninety(&["run", "--help"]);
    let help = stdout(&o);
    assert!(
        help.contains("The total when the first move is played"),
        "{help}"
    );
    assert!(help.contains("The seat to move first"), "{help}");
    assert!(!help.contains("(`random` or `cautious`)"), "{help}");
}

#[test]
fn play_prints_its_seed_and_the_seed_deals_the_game_again() {
    let dir = temp("seed");
    let first = ninety_typing(&["play"], "quit\n", &dir);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let out = stdout(&first);
    let seed: u64 = out
        .lines()
        .find_map(|l| l.strip_prefix("Seed ")?.split(':').next()?.parse().ok())
        .unwrap_or_else(|| panic!("no seed said: {out}"));
    assert!(
        out.contains(&format!("`--seed {seed}` deals this game again")),
        "{out}"
    );
    let again = ninety_typing(&["play", "--seed", &seed.to_string()], "quit\n", &dir);
    assert_eq!(stdout(&again), out, "the same seed, the same game");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_load_plays_on_a_saved_game() {
    let dir = temp("load");
    let save = dir.join("game.json").display().to_string();
    let o = ninety_typing(
        &["play", "--seed", "5"],
        &format!("1\nsave {save}\nquit\n"),
        &dir,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let played = stdout(&o);
    // The turn the save stopped at: the last table shown before saving.
    let at = played.rfind("── Round").expect("a turn");
    let turn: String = played[at..]
        .lines()
        .take_while(|l| !l.starts_with("> ") && !l.starts_with("Saved"))
        .collect::<Vec<_>>()
        .join("\n");
    let o = ninety_typing(&["play", "--load", &save], "scores\nquit\n", &dir);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let resumed = stdout(&o);
    assert!(resumed.contains(&format!("loaded {save}")), "{resumed}");
    assert!(
        resumed.contains(turn.lines().next().unwrap_or_default()),
        "the game goes on where it was saved: {turn}\n---\n{resumed}"
    );
    assert!(resumed.contains("Chips: You"), "{resumed}");
    // A save that is not there is a file that cannot be read: 2, as for a ruleset.
    let o = ninety_typing(&["play", "--load", "nowhere.json"], "", &dir);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot load `nowhere.json`"),
        "{}",
        stderr(&o)
    );
    // A save brings its own rules and seats.
    let o = ninety_typing(&["play", "--load", &save, "--seed", "3"], "", &dir);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `--set` that names no option, or gives one a value it does not allow, is a slip on the
/// command line in every command: exit 2, and the message names `--set`, never "does not
/// check" (the ruleset is fine).
#[test]
fn set_mistakes_are_usage_errors_in_every_command() {
    for set in ["chipz=3", "chips=abc", "chips=99"] {
        for args in [
            &["play", "ninety-nine"][..],
            &["run", "ninety-nine", "--bots"],
            &["sim", "ninety-nine", "--games", "2"],
            &["judge", "ninety-nine", "--games", "2"],
            &["rules", "ninety-nine"],
            &["rules", "ninety-nine", "--format", "rules"],
        ] {
            let mut all = args.to_vec();
            all.extend(["--set", set]);
            let o = ninety(&all);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{all:?}: {err}");
            assert!(
                err.contains(&format!("`--set {}", &set[..5])),
                "{all:?}: {err}"
            );
            assert!(!err.contains("does not check"), "{all:?}: {err}");
        }
    }
    let o = ninety(&["sim", "ninety-nine", "--set", "chipz=3"]);
    assert!(
        stderr(&o).contains("did you mean `--set chips=3`"),
        "{}",
        stderr(&o)
    );
}

/// `check --json` is `check --format json`; both together are refused.
#[test]
fn check_json_is_format_json() {
    let file = "rulesets/ninety-nine.rules";
    let a = ninety(&["check", "--json", file]);
    let b = ninety(&["check", "--format", "json", file]);
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    assert_eq!(stdout(&a), stdout(&b));
    let v: serde_json::Value = serde_json::from_str(stdout(&a).trim()).expect("JSON");
    assert_eq!(v["checked"], true);
    let both = ninety(&["check", "--json", "--format", "text", file]);
    assert_eq!(both.status.code(), Some(2));
}

/// A misspelt shipped ruleset is told the name it is closest to, in every command.
#[test]
fn a_misspelt_ruleset_name_is_told_the_closest_one() {
    for args in [
        &["play", "ninty-nine"][..],
        &["sim", "ninty-nine"],
        &["judge", "ninety-nien"],
        &["rules", "ninty-nine"],
        &["run", "ninty-nine"],
        &["check", "ninty-nine"],
    ] {
        let o = ninety(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("did you mean `ninety-nine`?"),
            "{args:?}: {err}"
        );
        assert!(err.contains("`ninety list`"), "{args:?}: {err}");
    }
    let far = ninety(&["sim", "zzzzzzzz"]);
    assert!(!stderr(&far).contains("did you mean"), "{}", stderr(&far));
}

/// Help is wrapped: no line of any command's `--help` is wider than the widest clap is
/// given (on a narrower terminal, the terminal's width).
#[test]
fn help_is_wrapped() {
    let width = ninety::app::cli::HELP_WIDTH;
    let mut cmd = ninety::app::cli::definitions();
    cmd.build();
    let mut names = vec![Vec::new()];
    names.extend(
        cmd.get_subcommands()
            .filter(|s| s.get_name() != "help")
            .map(|s| vec![s.get_name().to_string()]),
    );
    for name in names {
        let mut args: Vec<&str> = name.iter().map(String::as_str).collect();
        args.push("--help");
        let o = ninety(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        let help = stdout(&o);
        let widest = help.lines().map(|l| l.chars().count()).max().unwrap_or(0);
        assert!(
            widest <= width,
            "{args:?}: a line of {widest} characters\n{help}"
        );
    }
    // A narrow terminal (COLUMNS, as clap reads it when it cannot ask) narrows it.
    let o = Command::new(env!("CARGO_BIN_EXE_ninety"))
        .args(["sim", "--help"])
        .env("COLUMNS", "60")
        .output()
        .expect("runs");
    let widest = stdout(&o).lines().map(|l| l.chars().count()).max();
    assert!(widest.is_some_and(|w| w <= 60), "{}", stdout(&o));
}

/// Every option that names a bot lists the strong one, `ismcts`, in its help.
#[test]
fn every_bot_option_lists_ismcts() {
    let mut cmd = ninety::app::cli::definitions();
    cmd.build();
    let mut seen = 0;
    for sub in cmd.get_subcommands() {
        for arg in sub.get_arguments() {
            let id = arg.get_id().as_str();
            if matches!(id, "bot" | "bots" | "restrict_bot") {
                seen += 1;
                let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
                assert!(
                    help.contains("ismcts"),
                    "`{} --{id}`: {help}",
                    sub.get_name()
                );
            }
        }
    }
    assert!(seen >= 5, "{seen}");
}

/// `run` sets what the table keeps, as a scenario does: a count's values and the round.
/// A bust at 95 scores the total as points (the points house rule), from where the counts
/// were put; a count the ruleset does not keep is a usage error that names the ones it does.
#[test]
fn run_sets_the_counts_and_the_round() {
    let o = ninety(&[
        "run",
        "tests/house-rules/set3/points.rules",
        "--players",
        "3",
        "--hands",
        "2C 3C 4C | JS QS JD | 5D 6D 7D",
        "--deck",
        "8H 8S 8D 8C 9H 9S 9D",
        "--total",
        "95",
        "--turn",
        "0",
        "--count",
        "points=10,200,0",
        "--round",
        "3",
        "--json",
        "--moves",
        "2C",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("\"round\":3"), "{out}");
    // Seat 1 cannot play at 97: their points go up by the total, from 200.
    assert!(
        out.contains("\"from\":200") && out.contains("\"to\":297"),
        "{out}"
    );
    let o = ninety(&[
        "run",
        "tests/house-rules/set3/points.rules",
        "--count",
        "pionts=1",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("it keeps points"), "{}", stderr(&o));
}

/// `run --moves` takes every kind of move by its notation: a card naming a player
/// (`KS>2`), a move beside laying a card (`stock`, `discard KS`, `yield`), and says the
/// legal ones, in the same notation, when a move is not one of them.
#[test]
fn run_takes_moves_beside_a_card_and_players_named() {
    let run = |rules: &str, hands: &str, total: &str, moves: &str| {
        ninety(&[
            "run",
            rules,
            "--players",
            "3",
            "--hands",
            hands,
            "--deck",
            "8H 8S 8D 8C 9H 9S 9D",
            "--total",
            total,
            "--turn",
            "0",
            "--json",
            "--moves",
            moves,
        ])
    };
    let o = run(
        "tests/house-rules/set3/kings-choice.rules",
        "KS 2C 3C | 2D 6D 7D | 5H 6H 7H",
        "40",
        "KS>2; 6H",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("\"event\":\"chose\"") && out.contains("\"chosen\":2"),
        "{out}"
    );
    // Seat 2, named, played the 6 of hearts.
    assert!(
        out.contains("\"card\":\"6H\",\"choice\":null,\"event\":\"play\",\"seat\":2,\"total\":46"),
        "{out}"
    );
    let o = run(
        "tests/house-rules/set3/bust-shield.rules",
        "KS JC QC | 2D 6D 7D | 5H 6H 7H",
        "95",
        "discard KS",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("\"move\":\"discard\""),
        "{}",
        stdout(&o)
    );
    let o = run(
        "tests/house-rules/set3/blind-draw.rules",
        "KS JC QC | 2D 6D 7D | 5H 6H 7H",
        "50",
        "stock",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("\"move\":\"stock\""), "{}", stdout(&o));
    // A King typed without the player it names: the legal moves say how.
    let o = run(
        "tests/house-rules/set3/kings-choice.rules",
        "KS 2C 3C | 2D 6D 7D | 5H 6H 7H",
        "40",
        "KS",
    );
    assert_ne!(o.status.code(), Some(0));
    assert!(
        stderr(&o).contains("KS>1") && stderr(&o).contains("KS>2"),
        "{}",
        stderr(&o)
    );
}

/// `play` offers the bots as levels, each with its bot beside it: `easy` (random), `normal`
/// (cautious, the default) and `hard` (ismcts); a level plays as its bot does.
#[test]
fn play_offers_the_bots_as_levels() {
    let dir = temp("levels");
    let game = |bot: Option<&str>| {
        let mut args = vec!["play", "--seed", "5"];
        args.extend(bot.map(|b| ["--bot", b]).into_iter().flatten());
        let o = ninety_typing(&args, "1\n1\nquit\n", &dir);
        assert_eq!(o.status.code(), Some(0), "{bot:?}: {}", stderr(&o));
        stdout(&o)
    };
    assert_eq!(game(Some("easy")), game(Some("random")));
    assert_eq!(game(None), game(Some("cautious")), "normal is the default");
    assert_eq!(game(Some("normal")), game(Some("cautious")));
    assert_eq!(game(Some("hard")), game(Some("ismcts")));
    assert_ne!(game(Some("easy")), game(Some("normal")));
    let levels = "easy (random), normal (cautious), hard (ismcts)";
    let o = ninety(&["play", "--bot", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains(levels), "{}", stderr(&o));
    // Help is wrapped to the terminal: read as one line.
    let help = stdout(&ninety(&["play", "--help"]))
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for word in [
        "`easy` (the random bot)",
        "`normal` (the cautious bot)",
        "`hard` (ismcts",
    ] {
        assert!(help.contains(word), "{word}: {help}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A ruleset given by a path that climbs out of the working folder (`../rules/v.rules`) reads
/// its parents as from anywhere else: a shipped one by name, one beside it; a parent named
/// through `..` out of its folder is still refused.
#[test]
fn a_ruleset_above_the_working_folder_reads_its_parents() {
    let dir = temp("above");
    let (rules, work) = (dir.join("rules"), dir.join("work"));
    std::fs::create_dir_all(&rules).expect("a folder");
    std::fs::create_dir_all(&work).expect("a folder");
    std::fs::write(
        rules.join("base.rules"),
        "extends \"ninety-nine\"\nname \"base\"\n",
    )
    .expect("written");
    std::fs::write(rules.join("v.rules"), "extends \"base\"\nname \"v\"\n").expect("written");
    std::fs::write(
        work.join("x.rules"),
        "extends \"ninety-nine\"\nname \"x\"\n",
    )
    .expect("written");
    std::fs::write(rules.join("w.rules"), "extends \"../work/x\"\nname \"w\"\n").expect("written");
    let check = |file: &str| {
        Command::new(env!("CARGO_BIN_EXE_ninety"))
            .args(["check", file])
            .current_dir(&work)
            .output()
            .expect("runs")
    };
    let o = check("../rules/v.rules");
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let o = check("../rules/w.rules");
    assert_ne!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("outside"), "{}", stdout(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A move that wins the game at once is the best move there is, for every bot: the weighing
/// bots count `the player wins the game` above any chips, the searching ones a play-out that
/// ends the game won above any round.
#[test]
fn every_bot_takes_a_move_that_wins_the_game_at_once() {
    for bot in ["cautious", "aggressive", "search", "ismcts:300"] {
        let o = ninety(&[
            "run",
            "tests/cli-inputs/instant-win.rules",
            "--players",
            "3",
            "--hands",
            "AS 2C 3C | 5D 6D 7D | 8H 6H 7H",
            "--deck",
            "8S 9S 10S KS KD",
            "--total",
            "88",
            "--turn",
            "0",
            "--bots",
            bot,
            "--json",
        ]);
        assert_eq!(o.status.code(), Some(0), "{bot}: {}", stderr(&o));
        let out = stdout(&o);
        let first = out
            .lines()
            .find(|l| l.contains("\"event\":\"play\""))
            .expect("a play");
        assert_eq!(
            first, r#"{"card":"AS","choice":"11","event":"play","seat":0,"total":99}"#,
            "{bot}"
        );
        assert!(
            out.contains(r#"{"event":"game_end","winner":0}"#),
            "{bot}: {out}"
        );
    }
}

/// An ante that leaves one player before the first card ends the game there, with that
/// player its winner (as it does in any later round), and `check` finds every game won.
#[test]
fn an_ante_that_leaves_one_player_in_the_first_round_ends_the_game_won() {
    let o = ninety(&[
        "run",
        "tests/cli-inputs/ante-one-chip.rules",
        "--players",
        "3",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains(r#"{"event":"game_end","winner":2}"#), "{out}");
    assert!(out.contains(r#""winners":[2]"#), "{out}");
    let c = ninety(&["check", "tests/cli-inputs/ante-one-chip.rules"]);
    let said = format!("{}{}", stdout(&c), stderr(&c));
    assert!(said.contains("0 errors, 0 warnings"), "{said}");
}

#[test]
fn a_position_given_with_chips_and_a_pot_is_the_table_after_the_ante() {
    // `--chips` and `--pot` give the table as it stands, its round begun: the ante of the
    // round's start is not paid again on top of them. Without them, it is paid.
    let args = |extra: &[&str]| {
        let mut a = vec![
            "run",
            "tests/cli-inputs/ante-one-chip.rules",
            "--players",
            "3",
            "--set",
            "chips=3",
            "--total",
            "90",
            "--hands",
            "2C 3C 5C | 2D 3D 5D | 2H 3H 5H",
            "--turn",
            "0",
            "--json",
        ];
        a.extend_from_slice(extra);
        a.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let run = |extra: &[&str]| {
        let a = args(extra);
        let o = ninety(&a.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        stdout(&o)
    };
    let given = run(&["--chips", "3,3,3", "--pot", "5"]);
    assert!(given.contains(r#""chips":[3,3,3]"#), "{given}");
    assert!(given.contains(r#""pot":5"#), "{given}");
    assert!(
        !given.contains(r#""reason":"start of the round""#),
        "{given}"
    );
    let dealt = run(&[]);
    assert!(dealt.contains(r#""chips":[2,2,2]"#), "{dealt}");
    assert!(dealt.contains(r#""pot":3"#), "{dealt}");
}

#[test]
fn a_negative_number_of_games_is_told_as_such_not_taken_for_an_option() {
    for cmd in ["sim", "judge", "tune"] {
        let o = ninety(&[cmd, "ninety-nine", "--games", "-1"]);
        assert_eq!(o.status.code(), Some(2), "{cmd}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("cannot be negative"),
            "{cmd}: {}",
            stderr(&o)
        );
        assert!(!stderr(&o).contains("-- -1"), "{cmd}: {}", stderr(&o));
    }
}

/// A ruleset whose games do not end is refused by the commands that measure many games, in
/// `check`'s words, before any game (each would play to the turn limit in silence); `run`
/// still plays one, to see why.
#[test]
fn games_that_do_not_end_are_not_measured() {
    for cmd in [
        vec!["sim", "tests/cli-inputs/free-pass.rules", "--games", "5"],
        vec!["judge", "tests/cli-inputs/free-pass.rules", "--games", "5"],
        vec![
            "tune",
            "tests/cli-inputs/free-pass.rules",
            "--vary",
            "chips=2..3",
            "--target",
            "fair=0.5",
            "--games",
            "5",
        ],
    ] {
        let o = ninety(&cmd);
        assert_eq!(o.status.code(), Some(1), "{cmd:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("its games do not end") && stderr(&o).contains("never-ends"),
            "{cmd:?}: {}",
            stderr(&o)
        );
    }
    let o = ninety(&[
        "run",
        "tests/cli-inputs/free-pass.rules",
        "--players",
        "2",
        "--seed",
        "2",
        "--bots",
        "cautious",
    ]);
    assert!(stderr(&o).contains("without ending"), "{}", stderr(&o));
}
