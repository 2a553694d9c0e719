//! `ninety tune`: the tables that meet a target where the answer is known by construction, the
//! same report for any number of threads, shards that merge into exactly the whole run's
//! report (and refused where they cannot), and the command's usage errors.

mod support;

use support::Dir;

fn tune(d: &Dir, args: &[&str]) -> support::Run {
    let mut all = vec!["tune"];
    all.extend_from_slice(args);
    d.run(&all)
}

/// The tables a JSON report says meet every target, as `name=value` words.
fn meeting(v: &serde_json::Value) -> Vec<String> {
    v["raced"]
        .as_array()
        .expect("tables")
        .iter()
        .filter(|r| r["state"] == "meets")
        .map(|r| {
            r["table"]["values"]
                .as_array()
                .expect("values")
                .iter()
                .map(|p| {
                    format!(
                        "{}={}",
                        p[0].as_str().unwrap_or(""),
                        p[1].as_str().unwrap_or("")
                    )
                })
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect()
}

#[test]
fn a_game_of_exactly_n_rounds_meets_a_rounds_target_at_exactly_those_values() {
    // The fixed-rounds variant plays exactly `rounds` rounds: the values 4 to 6, and only
    // they, meet `rounds=4..6`, each decided at the first look.
    let d = Dir::new("rounds", "tune-inputs", &[]);
    let r = tune(
        &d,
        &[
            "ninety-nine-fixed-rounds",
            "--vary",
            "rounds=1..8",
            "--target",
            "rounds=4..6",
            "--games",
            "1000",
            "--json",
        ],
    );
    assert_eq!(r.code(), Some(0), "{}", r.shown());
    let v: serde_json::Value = serde_json::from_str(&r.stdout()).expect("json");
    assert_eq!(meeting(&v), ["rounds=4", "rounds=5", "rounds=6"]);
    for t in v["raced"].as_array().expect("tables") {
        assert_eq!(t["looks"], 1, "decided at the first look: {t}");
        assert_ne!(t["state"], "undecided");
    }
}

#[test]
fn ninety_nine_meets_15_to_30_minutes_and_fairness_at_3_and_4_chips() {
    // Each chip is a round or so of about six minutes at 8 seconds a turn: 1 and 2 chips
    // are too short, 5 and more too long; the seats are fair at every count of chips.
    let d = Dir::new("minutes", "tune-inputs", &[]);
    let args = [
        "ninety-nine",
        "--vary",
        "chips=1..6",
        "--target",
        "fair",
        "--target",
        "minutes=15..30",
        "--json",
    ];
    let r = tune(&d, &args);
    assert_eq!(r.code(), Some(0), "{}", r.shown());
    let v: serde_json::Value = serde_json::from_str(&r.stdout()).expect("json");
    assert_eq!(meeting(&v), ["chips=3", "chips=4"]);
    // Racing spends fewer games than the whole grid played out.
    let played: u64 = v["raced"]
        .as_array()
        .expect("tables")
        .iter()
        .map(|t| t["games"].as_u64().unwrap_or(0))
        .sum();
    assert!(played < 6 * 16_000 / 2, "{played}");
    // The same report on one thread as on two.
    let mut one = args.to_vec();
    one.extend(["--jobs", "1"]);
    let r1 = tune(&d, &one);
    assert_eq!(r1.stdout(), r.stdout());
    // In words: the values that meet, the closest are not needed, the games said.
    let text = tune(&d, &args[..args.len() - 1]);
    let t = text.stdout();
    assert!(t.contains("meets every target (2):"), "{t}");
    assert!(t.contains("  chips=3 ("), "{t}");
    assert!(t.contains("miss `minutes=15..30`"), "{t}");
    assert!(t.contains("games played, against 96,000"), "{t}");
}

#[test]
fn shards_merge_into_exactly_the_whole_runs_report() {
    let d = Dir::new("shards", "tune-inputs", &[]);
    let base = [
        "ninety-eight",
        "--vary",
        "threshold=95..99",
        "--vary",
        "lives=2..4",
        "--target",
        "fair",
        "--target",
        "length=100..200",
        "--games",
        "2000",
    ];
    let whole = tune(&d, &base);
    assert_eq!(whole.code(), Some(0), "{}", whole.shown());
    let mut json = base.to_vec();
    json.push("--json");
    let whole_json = tune(&d, &json).stdout();
    for k in 1..=3 {
        let mut a = json.clone();
        let slice = format!("{k}/3");
        a.extend(["--shard", &slice]);
        let r = tune(&d, &a);
        assert_eq!(r.code(), Some(0), "{}", r.shown());
        d.write(&format!("s{k}.json"), r.stdout());
    }
    let merged = d.run(&["tune", "--merge", "s3.json", "s1.json", "s2.json"]);
    assert_eq!(merged.code(), Some(0), "{}", merged.shown());
    assert_eq!(merged.stdout(), whole.stdout());
    let merged_json = d.run(&["tune", "--merge", "s1.json", "s2.json", "s3.json", "--json"]);
    assert_eq!(merged_json.stdout(), whole_json);
    // A page from the merge.
    let page = d.run(&[
        "tune", "--merge", "s1.json", "s2.json", "s3.json", "--report", "t.html",
    ]);
    assert_eq!(page.code(), Some(0), "{}", page.shown());
    assert!(d.read("t.html").contains("<h1>Tuning Ninety-Eight</h1>"));

    // Refused, naming the file: a shard missing, one given twice, another run's, an
    // interrupted one, tables not of the slice, and what is not a shard at all.
    let s1: serde_json::Value = serde_json::from_str(&d.read("s1.json")).expect("json");
    let mut other = s1.clone();
    other["config"]["seed"] = 2.into();
    d.write("other.json", other.to_string());
    let mut stopped = s1.clone();
    stopped["interrupted"] = true.into();
    d.write("stopped.json", stopped.to_string());
    let mut moved = s1.clone();
    moved["raced"][0]["table"]["index"] = 1.into();
    d.write("moved.json", moved.to_string());
    let mut forged = s1.clone();
    forged["raced"][0]["games"] = u64::MAX.into();
    d.write("forged.json", forged.to_string());
    // A verdict edited without its readings, and a table's values not those of its place.
    let mut verdict = s1.clone();
    let said = verdict["raced"][0]["state"]
        .as_str()
        .expect("a state")
        .to_string();
    verdict["raced"][0]["state"] = if said == "meets" { "misses" } else { "meets" }.into();
    d.write("verdict.json", verdict.to_string());
    let mut renamed = s1.clone();
    renamed["raced"][0]["table"]["values"][0][1] = "<script>alert(1)</script>".into();
    d.write("renamed.json", renamed.to_string());
    let mut many = s1.clone();
    many["shard"] = serde_json::json!([1, u64::MAX]);
    d.write("many.json", many.to_string());
    let mut wide = s1.clone();
    wide["config"]["tables"] = 1_000_000_000_000_000u64.into();
    d.write("wide.json", wide.to_string());
    d.write("whole.json", &whole_json);
    d.write("junk.json", "{\"raced\": 5}");
    for (files, says) in [
        (&["s1.json", "s2.json"][..], "shard 3 of 3 is missing"),
        (
            &["s1.json", "s1.json", "s2.json"][..],
            "are both shard 1 of 3",
        ),
        (
            &["s1.json", "other.json", "s3.json"][..],
            "not a shard of the same run",
        ),
        (&["stopped.json", "s2.json", "s3.json"][..], "interrupted"),
        (
            &["moved.json", "s2.json", "s3.json"][..],
            "not those of shard 1 of 3",
        ),
        (&["forged.json", "s2.json", "s3.json"][..], "cannot be true"),
        (
            &["verdict.json", "s2.json", "s3.json"][..],
            "is not what its readings say",
        ),
        (
            &["renamed.json", "s2.json", "s3.json"][..],
            "not the table of that place",
        ),
        (
            &["many.json"][..],
            "shard 2 of 18446744073709551615 is missing",
        ),
        (
            &["wide.json", "s2.json", "s3.json"][..],
            "not a shard of the same run",
        ),
        (&["whole.json"][..], "a whole run, not a shard"),
        (&["junk.json"][..], "is not the JSON of `ninety tune"),
        (&["absent.json"][..], "cannot read `absent.json`"),
    ] {
        let mut args = vec!["tune", "--merge"];
        args.extend_from_slice(files);
        let r = d.run(&args);
        assert!(matches!(r.code(), Some(1 | 2)), "{files:?}: {}", r.shown());
        assert!(r.stderr().contains(says), "{files:?}: {}", r.shown());
        assert!(r.stdout().is_empty(), "{files:?}");
    }
}

#[test]
fn usage_errors_say_what_to_write() {
    let d = Dir::new("usage", "tune-inputs", &[]);
    for (args, says) in [
        (
            &["ninety-nine", "--target", "fair"][..],
            "give `--vary NAME=A..B`",
        ),
        (
            &["ninety-nine", "--vary", "chips=1..3"][..],
            "give at least one",
        ),
        (
            &["ninety-nine", "--vary", "chips=1..3", "--target", "minutes"][..],
            "like `--target minutes=15..30`",
        ),
        (
            &[
                "ninety-nine",
                "--vary",
                "chips=1..3",
                "--target",
                "bogus=1..2",
            ][..],
            "no measure is called `bogus`",
        ),
        (
            &[
                "ninety-nine",
                "--vary",
                "chips=1..3",
                "--target",
                "turns_median=1..2",
            ][..],
            "no interval to decide",
        ),
        (
            &["ninety-nine", "--vary", "chips=0..3", "--target", "fair"][..],
            "`--vary chips=...` (its value 0)",
        ),
        (
            &["ninety-nine", "--vary", "nope=1..3", "--target", "fair"][..],
            "nope",
        ),
        (
            &[
                "ninety-nine",
                "--vary",
                "chips=1..20",
                "--vary",
                "chips=1..2",
                "--target",
                "fair",
            ][..],
            "given twice",
        ),
        (
            &[
                "ninety-eight",
                "--vary",
                "threshold=50..69",
                "--vary",
                "lives=1..10",
                "--players",
                "2..4",
                "--target",
                "fair",
            ][..],
            "at most 400",
        ),
        (
            &[
                "ninety-nine",
                "--vary",
                "chips=1..3",
                "--target",
                "fair",
                "--games",
                "0",
            ][..],
            "at least 1 game",
        ),
    ] {
        let mut all = vec!["tune"];
        all.extend_from_slice(args);
        let r = d.run(&all);
        assert_eq!(r.code(), Some(2), "{args:?}: {}", r.shown());
        assert!(r.stderr().contains(says), "{args:?}: {}", r.shown());
    }
}

#[test]
fn player_counts_are_searched_beside_the_options() {
    let d = Dir::new("counts", "tune-inputs", &[]);
    let r = tune(
        &d,
        &[
            "ninety-nine",
            "--players",
            "2..4",
            "--target",
            "minutes=15..30",
            "--games",
            "1000",
            "--json",
        ],
    );
    assert_eq!(r.code(), Some(0), "{}", r.shown());
    let v: serde_json::Value = serde_json::from_str(&r.stdout()).expect("json");
    let players: Vec<u64> = v["raced"]
        .as_array()
        .expect("tables")
        .iter()
        .map(|t| t["table"]["players"].as_u64().unwrap_or(0))
        .collect();
    assert_eq!(players, [2, 3, 4]);
    // More players, more turns: the 2-player game is the shortest.
    let minutes: Vec<f64> = v["raced"]
        .as_array()
        .expect("tables")
        .iter()
        .map(|t| t["readings"][0]["value"].as_f64().unwrap_or(0.0))
        .collect();
    assert!(
        minutes[0] < minutes[1] && minutes[1] < minutes[2],
        "{minutes:?}"
    );
}

/// Ctrl-C (SIGINT, once the run says it handles it) stops a search that would not end: each
/// table says what its games showed, the report says it was stopped, and the run fails.
#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_search_and_says_so() {
    let d = Dir::new("ctrl-c", "tune-inputs", &[]);
    for json in [false, true] {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_ninety"));
        cmd.args([
            "tune",
            "ninety-nine",
            "--vary",
            "chips=1..3",
            "--target",
            "first_player=0..",
            "--games",
            "1000000000000",
            "--jobs",
            "2",
        ])
        .current_dir(&d.0);
        if json {
            cmd.arg("--json");
        }
        let out = support::interrupted(&mut cmd);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains("interrupted: each table says what"),
            "{stderr}"
        );
        if json {
            let v: serde_json::Value = serde_json::from_str(&stdout).expect("json");
            assert_eq!(v["interrupted"], true);
        } else {
            assert!(stdout.contains("(stopped by Ctrl-C:"), "{stdout}");
        }
    }
}
