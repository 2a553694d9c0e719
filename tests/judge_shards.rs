//! `ninety judge --shard K/N` and `--merge`: slices of a run, or of a comparison with the
//! skill ladder, merge into exactly the report one machine gives; a slice missing, given
//! twice, of another run, interrupted, edited or forged is refused naming its file.

mod support;

use support::Dir;

fn slices(d: &Dir, args: &[&str], n: u64, prefix: &str) -> Vec<String> {
    (1..=n)
        .map(|k| {
            let slice = format!("{k}/{n}");
            let mut all = vec!["judge"];
            all.extend_from_slice(args);
            all.extend(["--shard", &slice, "--json"]);
            let r = d.run(&all);
            assert_eq!(r.code(), Some(0), "{}", r.shown());
            let name = format!("{prefix}{k}.json");
            d.write(&name, r.stdout());
            name
        })
        .collect()
}

fn judge(d: &Dir, args: &[&str]) -> support::Run {
    let mut all = vec!["judge"];
    all.extend_from_slice(args);
    d.run(&all)
}

#[test]
fn slices_of_a_run_merge_into_exactly_its_report() {
    let d = Dir::new("judge-slices", "judge-inputs", &[]);
    let run = [
        "ninety-nine",
        "--games",
        "1500",
        "--set",
        "chips=4",
        "--minutes",
        "15..30",
    ];
    let files = slices(&d, &run, 3, "s");
    let whole = judge(&d, &run);
    let mut json = run.to_vec();
    json.push("--json");
    let whole_json = judge(&d, &json);
    let mut merge = vec!["--merge"];
    merge.extend(files.iter().rev().map(String::as_str));
    let merged = judge(&d, &merge);
    assert_eq!(merged.code(), Some(0), "{}", merged.shown());
    assert_eq!(merged.stdout(), whole.stdout());
    merge.push("--json");
    assert_eq!(judge(&d, &merge).stdout(), whole_json.stdout());
    // A slice's own text says it is one.
    let mut one = run.to_vec();
    one.extend(["--shard", "2/3"]);
    assert!(judge(&d, &one).stdout().contains("(shard 2 of 3:"));
}

#[test]
fn slices_of_a_comparison_with_the_skill_ladder_merge_into_its_report() {
    let d = Dir::new("judge-slices-two", "judge-inputs", &[]);
    let run = [
        "ninety-nine",
        "ninety-nine-quick",
        "--games",
        "400",
        "--skill",
    ];
    let files = slices(&d, &run, 2, "c");
    let whole = judge(&d, &run);
    let merged = judge(&d, &["--merge", &files[1], &files[0], "--report", "r.html"]);
    assert_eq!(merged.code(), Some(0), "{}", merged.shown());
    assert_eq!(merged.stdout(), whole.stdout());
    assert!(d.read("r.html").contains("Ninety-Nine"));
}

#[test]
fn a_merge_refuses_what_is_not_every_slice_of_one_run() {
    let d = Dir::new("judge-slices-bad", "judge-inputs", &[]);
    let run = ["ninety-nine", "--games", "300"];
    let files = slices(&d, &run, 2, "s");
    let s1: serde_json::Value = serde_json::from_str(&d.read(&files[0])).expect("json");
    let edit = |name: &str, f: &dyn Fn(&mut serde_json::Value)| {
        let mut v = s1.clone();
        f(&mut v);
        d.write(name, v.to_string());
    };
    edit("seed.json", &|v| v["config"]["seed"] = 9.into());
    edit("stopped.json", &|v| v["interrupted"] = true.into());
    edit("short.json", &|v| v["tally"]["games"] = 3.into());
    edit("wins.json", &|v| {
        v["tally"]["wins"] = serde_json::json!([1, 2])
    });
    edit("huge.json", &|v| {
        v["tally"]["turns"]["sum"] = u64::MAX.into();
    });
    edit("slice9.json", &|v| v["shard"] = serde_json::json!([9, 2]));
    // A whole run as its one slice, naming a ruleset outside the folder.
    let one = slices(&d, &run, 1, "one");
    let mut away: serde_json::Value = serde_json::from_str(&d.read(&one[0])).expect("json");
    away["config"]["ruleset"] = "/etc/passwd.rules".into();
    d.write("away.json", away.to_string());
    d.write("junk.json", "[1, 2]");
    let whole = judge(&d, &["ninety-nine", "--games", "300", "--json"]);
    d.write("whole.json", whole.stdout());
    for (files, says) in [
        (&["s1.json"][..], "slice 2 of 2 is missing"),
        (&["s1.json", "s1.json"][..], "are both slice 1 of 2"),
        (&["s1.json", "seed.json"][..], "not a slice of the same run"),
        (&["stopped.json", "s2.json"][..], "interrupted"),
        (&["short.json", "s2.json"][..], "incomplete or edited"),
        (
            &["wins.json", "s2.json"][..],
            "not those of its ruleset and players",
        ),
        (&["huge.json", "s2.json"][..], "overflow"),
        (&["slice9.json", "s2.json"][..], "which no run has"),
        (&["away.json"][..], "neither a shipped ruleset nor"),
        (&["whole.json"][..], "names no slice"),
        (&["junk.json"][..], "is not the JSON of `ninety judge"),
    ] {
        let mut args = vec!["--merge"];
        args.extend_from_slice(files);
        let r = judge(&d, &args);
        assert!(matches!(r.code(), Some(1 | 2)), "{files:?}: {}", r.shown());
        assert!(r.stderr().contains(says), "{files:?}: {}", r.shown());
        assert!(r.stdout().is_empty(), "{files:?}: {}", r.shown());
    }
    // A slice of a run that decides from every game at once is refused before playing.
    let r = judge(
        &d,
        &[
            "ninety-nine",
            "ninety-nine-quick",
            "--until-decided",
            "--shard",
            "1/2",
        ],
    );
    assert_eq!(r.code(), Some(2), "{}", r.shown());
}

#[test]
fn a_slurm_array_or_an_indexed_job_names_the_slice() {
    // `--shard auto` reads the scheduler's variables: the slice it plays is the one
    // `--shard K/N` names, for judge and for tune alike.
    let d = Dir::new("judge-slices-auto", "judge-inputs", &[]);
    for (command, args) in [
        (
            "judge",
            &["judge", "ninety-nine", "--games", "200", "--json"][..],
        ),
        (
            "tune",
            &[
                "tune",
                "ninety-nine",
                "--vary",
                "chips=1..4",
                "--target",
                "fair",
                "--games",
                "300",
                "--json",
            ][..],
        ),
    ] {
        let mut given = args.to_vec();
        given.extend(["--shard", "3/4"]);
        let want = d.run(&given);
        assert_eq!(want.code(), Some(0), "{}", want.shown());
        let mut slurm = args.to_vec();
        slurm.extend(["--shard", "auto"]);
        let env = [
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_STEP", "1"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        let got = d.run_env(&slurm, b"", &env, std::time::Duration::from_secs(30));
        assert_eq!(got.stdout(), want.stdout(), "{command} under Slurm");
        let mut pod = args.to_vec();
        pod.extend(["--shard", "auto/4"]);
        let env = [("JOB_COMPLETION_INDEX", "2")];
        let got = d.run_env(&pod, b"", &env, std::time::Duration::from_secs(30));
        assert_eq!(got.stdout(), want.stdout(), "{command} in an Indexed Job");
    }
}
