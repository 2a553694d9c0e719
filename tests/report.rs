//! The HTML report of `ninety sim --report`: snapshots of a run, a comparison and a sweep; its
//! structure checked without a browser (every chart, one SVG each, its bars against the table
//! of its numbers, nothing that fetches or runs, hostile names as text); the command line that
//! writes it atomically, for merged shards too; the text report's histograms; and a real
//! browser (headless Chromium) that renders, screenshots and prints it without a request
//! leaving the file (ignored by a plain `cargo test`: `cargo xtask test` installs Chromium and
//! runs it).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use ninety::app::load::load_program;
use ninety::compile::Shipped;
use ninety::play::Player;
use ninety::sim::{self, Config, Control, Stats, html};

const BOTS: [&str; 3] = ["cautious", "random", "aggressive"];
const GAMES: u64 = 200;
const SEED: u64 = 3;

fn play(ruleset: &str, sets: &[(String, String)]) -> (Config, Stats) {
    let p = load_program(&Shipped, ruleset, sets).expect("the ruleset checks");
    let players: Vec<Player> = BOTS
        .iter()
        .map(|b| Player::builtin(b).expect("a bot"))
        .collect();
    let cfg = Config {
        ruleset: ruleset.into(),
        name: p.name.clone(),
        players: 3,
        bots: BOTS.iter().map(|b| (*b).to_string()).collect(),
        seed: SEED,
        games: GAMES,
        sets: sets.to_vec(),
    };
    let st = sim::run(&p, &players, &cfg, &Control::jobs(2)).expect("runs");
    (cfg, st)
}

fn ninety_nine() -> &'static (Config, Stats) {
    static RUN: OnceLock<(Config, Stats)> = OnceLock::new();
    RUN.get_or_init(|| play("ninety-nine", &[]))
}

fn quick() -> &'static (Config, Stats) {
    static RUN: OnceLock<(Config, Stats)> = OnceLock::new();
    RUN.get_or_init(|| play("ninety-nine-quick", &[]))
}

fn with_bars() -> &'static (Config, Stats) {
    static RUN: OnceLock<(Config, Stats)> = OnceLock::new();
    RUN.get_or_init(|| play("33-66-99", &[]))
}

const SWEPT: [&str; 2] = ["1", "3"];

fn sweep_rows() -> &'static Vec<(String, Config, Stats)> {
    static ROWS: OnceLock<Vec<(String, Config, Stats)>> = OnceLock::new();
    ROWS.get_or_init(|| {
        SWEPT
            .iter()
            .map(|v| {
                let (cfg, st) = play("ninety-nine", &[("chips".into(), (*v).into())]);
                ((*v).to_string(), cfg, st)
            })
            .collect()
    })
}

fn single_html() -> String {
    let (cfg, st) = ninety_nine();
    html::single(cfg, st)
}

fn comparison_html() -> String {
    let (a, b) = (ninety_nine(), quick());
    html::comparison((&a.0, &a.1), (&b.0, &b.1))
}

fn sweep_html() -> String {
    let rows: Vec<html::SweepRow> = sweep_rows()
        .iter()
        .map(|(v, c, s)| (v.as_str(), c, s))
        .collect();
    html::sweep("chips", &rows)
}

/// A ruleset with bars (33, 66, 99) against one without 66, for the chart of bars.
fn bars_html() -> String {
    let (a, b) = (with_bars(), play("33-66-99-no-66", &[]));
    html::comparison((&a.0, &a.1), (&b.0, &b.1))
}

/// A sweep of a ruleset with bars (33, 66, 99), for the chart of bars against the values.
fn bars_sweep_html() -> String {
    let runs: Vec<(&str, (Config, Stats))> = ["3", "9"]
        .iter()
        .map(|v| (*v, play("33-66-99", &[("chips".into(), (*v).into())])))
        .collect();
    let rows: Vec<html::SweepRow> = runs.iter().map(|(v, (c, s))| (*v, c, s)).collect();
    html::sweep("chips", &rows)
}

/// Every name a ruleset or the command line gives, made hostile.
fn hostile_html() -> String {
    let (cfg, st) = ninety_nine();
    let mut cfg = cfg.clone();
    cfg.name = "<script>alert(1)</script>".into();
    cfg.ruleset = "rules/\"><b onmouseover=alert(2)>x</b>.rules".into();
    cfg.bots = vec![
        "script:<b>bold</b>.rhai".into(),
        "random".into(),
        "a&b".into(),
    ];
    cfg.sets = vec![("<i>chips</i>".into(), "'3'\"".into())];
    html::single(&cfg, st)
}

// ---------------------------------------------------------------------------------------------
// Snapshots

#[test]
fn the_report_of_a_run() {
    insta::assert_snapshot!("report_single", single_html());
}

#[test]
fn the_report_of_a_comparison() {
    insta::assert_snapshot!("report_comparison", comparison_html());
}

#[test]
fn the_report_of_a_sweep() {
    insta::assert_snapshot!("report_sweep", sweep_html());
}

#[test]
fn the_same_run_gives_the_same_bytes() {
    let (cfg, st) = ninety_nine();
    assert_eq!(html::single(cfg, st), html::single(cfg, &st.clone()));
    // Played again on one thread: the same statistics, the same page.
    let p = load_program(&Shipped, "ninety-nine", &[]).expect("checks");
    let players: Vec<Player> = BOTS
        .iter()
        .map(|b| Player::builtin(b).expect("a bot"))
        .collect();
    let again = sim::run(&p, &players, cfg, &Control::jobs(1)).expect("runs");
    assert_eq!(html::single(cfg, &again), single_html());
}

// ---------------------------------------------------------------------------------------------
// Structure, without a browser

/// The inside of `<figure id="ID">`.
fn figure<'a>(html: &'a str, id: &str) -> Option<&'a str> {
    let start = html.find(&format!("<figure id=\"{id}\""))?;
    let len = html[start..].find("</figure>")?;
    Some(&html[start..start + len])
}

fn bars_in(html: &str, id: &str) -> usize {
    figure(html, id)
        .unwrap_or_else(|| panic!("no figure `{id}`"))
        .matches("<rect class=\"bar\"")
        .count()
}

fn figure_ids(html: &str) -> Vec<String> {
    html.match_indices("<figure id=\"")
        .map(|(i, m)| {
            let rest = &html[i + m.len()..];
            rest[..rest.find('"').expect("a closing quote")].to_string()
        })
        .collect()
}

/// The body rows of the table under a figure's chart, cell by cell (as HTML).
fn table_rows(html: &str, id: &str) -> Vec<Vec<String>> {
    let f = figure(html, id).expect("the figure");
    let body = &f[f.find("<tbody>").expect("a table body")..f.find("</tbody>").expect("its end")];
    body.split("<tr>")
        .skip(1)
        .map(|row| {
            let mut cells = Vec::new();
            let mut rest = row;
            while let Some(open) = rest.find("<t") {
                let after = &rest[open..];
                let (Some(gt), Some(close)) = (after.find('>'), after.find("</t")) else {
                    break;
                };
                cells.push(after[gt + 1..close].to_string());
                rest = &after[close + 3..];
            }
            cells
        })
        .collect()
}

/// Nothing that could fetch or run anything.
fn assert_self_contained(html: &str) {
    for bad in [
        "http://",
        "https://",
        "src=",
        "<script",
        "@import",
        "url(",
        "<link",
        "href=",
        "<img",
        "<iframe",
        "<object",
        "<embed",
        "@font-face",
        "javascript:",
    ] {
        assert!(!html.contains(bad), "the report contains `{bad}`");
    }
}

/// Every chart: one inline SVG with a title, `role="img"` and an `aria-label`, a caption, and
/// a table under it; no SVG outside a figure.
fn assert_charts_with_tables(html: &str) {
    let ids = figure_ids(html);
    assert_eq!(
        html.matches("<svg").count(),
        ids.len(),
        "one <svg> per figure"
    );
    for id in ids {
        let f = figure(html, &id).expect("the figure");
        assert_eq!(f.matches("<svg").count(), 1, "`{id}`: one chart");
        let svg = &f[f.find("<svg").expect("a chart")..];
        let open = &svg[..svg.find('>').expect("an opening tag")];
        assert!(open.contains("role=\"img\""), "`{id}`: {open}");
        assert!(open.contains("aria-label=\""), "`{id}`: {open}");
        assert!(
            svg[open.len()..].starts_with(">\n<title>"),
            "`{id}`: no <title>"
        );
        assert!(f.contains("<figcaption>"), "`{id}`: no caption");
        let after_svg = &f[f.find("</svg>").expect("the chart ends")..];
        assert!(after_svg.contains("<table"), "`{id}`: no table under it");
        assert!(!table_rows(html, &id).is_empty(), "`{id}`: an empty table");
    }
}

/// A histogram draws a bar for every bin and run with a game in it: the non-zero game counts
/// of its table (columns: bin, then games and share for each run).
fn assert_histogram_matches_its_table(html: &str, id: &str) {
    let rows = table_rows(html, id);
    let nonzero: usize = rows
        .iter()
        .map(|r| r.iter().skip(1).step_by(2).filter(|c| *c != "0").count())
        .sum();
    assert_eq!(bars_in(html, id), nonzero, "`{id}`: bars against its table");
    assert!(nonzero >= 2, "`{id}`: {rows:?}");
}

const RUN_CHARTS: [&str; 6] = [
    "wins-by-seat",
    "wins-by-bot",
    "turns",
    "rounds",
    "chips-by-cause",
    "elimination",
];
const SWEEP_CHARTS: [&str; 6] = [
    "sweep-wins",
    "sweep-turns",
    "sweep-rounds",
    "sweep-chips",
    "sweep-forced-busts",
    "sweep-elimination",
];

#[test]
fn a_run_has_every_chart_with_its_bars() {
    let html = single_html();
    assert_self_contained(&html);
    assert_charts_with_tables(&html);
    assert_eq!(figure_ids(&html), RUN_CHARTS, "ninety-nine has no bars");
    assert_eq!(bars_in(&html, "wins-by-seat"), 3);
    assert_eq!(table_rows(&html, "wins-by-seat").len(), 3);
    assert_eq!(bars_in(&html, "wins-by-bot"), 3);
    assert_histogram_matches_its_table(&html, "turns");
    assert_histogram_matches_its_table(&html, "rounds");
    assert!(bars_in(&html, "turns") <= 40);
    assert_eq!(bars_in(&html, "chips-by-cause"), 4);
    assert_eq!(bars_in(&html, "elimination"), 3 * 3, "a segment a place");
    // The configuration and the command that runs it again.
    assert!(html.contains(
        "ninety sim ninety-nine --games 200 --players 3 --bots cautious,random,aggressive --seed 3"
    ));
    assert!(html.contains("<dt>Seed</dt><dd>3</dd>"));
    // Printing: a print stylesheet that keeps charts whole.
    assert!(html.contains("@media print"));
    assert!(html.contains("break-inside: avoid"));
}

#[test]
fn a_ruleset_with_bars_has_their_chart() {
    let html = bars_html();
    assert_self_contained(&html);
    assert_charts_with_tables(&html);
    let ids = figure_ids(&html);
    assert!(ids.iter().any(|i| i == "bars"), "{ids:?}");
    // A group per bar of either ruleset (33, 66, 99), reached and passed for A and B.
    let rows = table_rows(&html, "bars");
    assert_eq!(rows.len(), 3, "{rows:?}");
    let nonzero: usize = rows
        .iter()
        .map(|r| r[1..5].iter().filter(|c| *c != "0.000").count())
        .sum();
    assert_eq!(bars_in(&html, "bars"), 3 * 4);
    assert!(nonzero < 12, "B has no bar at 66: {rows:?}");
    // Without 66, the bar 66 is never reached in B: beyond chance, and marked.
    assert_eq!(rows[1][0], "66");
    assert!(rows[1][5].ends_with('*'), "{rows:?}");
    assert!(figure(&html, "bars").expect("bars").contains(">bar 66 *<"));
}

#[test]
fn a_comparison_draws_both_rulesets_and_marks_differences() {
    let html = comparison_html();
    assert_self_contained(&html);
    assert_charts_with_tables(&html);
    assert_eq!(figure_ids(&html), RUN_CHARTS);
    assert_eq!(bars_in(&html, "wins-by-seat"), 3 * 2);
    assert_eq!(bars_in(&html, "wins-by-bot"), 3 * 2);
    assert_eq!(bars_in(&html, "chips-by-cause"), 4 * 2);
    assert_eq!(bars_in(&html, "elimination"), 3 * 3 * 2);
    assert_histogram_matches_its_table(&html, "turns");
    assert_histogram_matches_its_table(&html, "rounds");
    for id in RUN_CHARTS {
        let f = figure(&html, id).expect("the figure");
        assert!(f.contains("A: Ninety-Nine"), "`{id}` names A");
        assert!(f.contains("B: Ninety-Nine (quick)"), "`{id}` names B");
        assert!(f.contains("beyond chance"), "`{id}` says what differs");
    }
    // Two chips against three: shorter games, beyond chance, as `sim::compare` says.
    let (a, b) = (ninety_nine(), quick());
    assert!(sim::welch(&a.1.rounds, &b.1.rounds));
    let rounds = figure(&html, "rounds").expect("rounds");
    assert!(rounds.contains("class=\"badge\">beyond chance"), "{rounds}");
    assert!(rounds.contains("<strong>Rounds per game *</strong>"));
    assert!(html.contains("ninety sim ninety-nine ninety-nine-quick --games 200"));
}

#[test]
fn a_seat_that_wins_more_beyond_chance_is_marked() {
    // B: the same games with seats 0 and 1's wins exchanged.
    let (cfg, st) = ninety_nine();
    let mut other = st.clone();
    other.wins.swap(0, 1);
    other.won_games.swap(0, 1);
    assert!(sim::two_prop(
        st.wins[0] as f64 / sim::WIN_UNIT as f64,
        st.games as f64,
        other.wins[0] as f64 / sim::WIN_UNIT as f64,
        other.games as f64
    ));
    let html = html::comparison((cfg, st), (cfg, &other));
    let seats = figure(&html, "wins-by-seat").expect("wins by seat");
    assert!(seats.contains(">seat 0 (cautious) *<"), "{seats}");
    assert!(seats.contains(">seat 1 (random) *<"), "{seats}");
    assert!(seats.contains(">seat 2 (aggressive)<"), "{seats}");
    assert!(seats.contains("<span class=\"badge\">beyond chance</span>"));
    assert_eq!(seats.matches("<td>yes *</td>").count(), 2);
    // The same run against itself: nothing differs, nothing is marked.
    let same = html::comparison((cfg, st), (cfg, st));
    assert!(!same.contains("yes *"));
    assert!(!same.contains("class=\"badge\""));
}

#[test]
fn a_sweep_draws_each_figure_against_the_values() {
    let html = sweep_html();
    assert_self_contained(&html);
    assert_charts_with_tables(&html);
    assert_eq!(figure_ids(&html), SWEEP_CHARTS);
    assert_eq!(bars_in(&html, "sweep-wins"), SWEPT.len() * 3);
    for id in &SWEEP_CHARTS[..5] {
        assert_eq!(table_rows(&html, id).len(), SWEPT.len(), "{id}");
    }
    for id in ["sweep-turns", "sweep-rounds", "sweep-forced-busts"] {
        assert_eq!(bars_in(&html, id), SWEPT.len(), "{id}");
    }
    // Ninety-Nine loses chips to busts only: a bar a value, the cause named in the table.
    assert_eq!(bars_in(&html, "sweep-chips"), SWEPT.len());
    let chips = table_rows(&html, "sweep-chips");
    assert_eq!(
        chips[0].len(),
        1 + 1 + 1,
        "the value, busts, all causes: {chips:?}"
    );
    // A row per seat and value, a segment per place.
    assert_eq!(
        table_rows(&html, "sweep-elimination").len(),
        3 * SWEPT.len()
    );
    assert_eq!(bars_in(&html, "sweep-elimination"), 3 * SWEPT.len() * 3);
    for v in SWEPT {
        assert!(
            html.contains(&format!(">chips={v}<")),
            "the value {v} on the axis"
        );
    }
    assert!(html.contains(
        "ninety sim ninety-nine --games 200 --players 3 --bots cautious,random,aggressive --seed 3 --sweep chips=1,3"
    ));
}

#[test]
fn a_sweep_of_a_ruleset_with_bars_draws_them_against_the_values() {
    let html = bars_sweep_html();
    assert_self_contained(&html);
    assert_charts_with_tables(&html);
    let ids = figure_ids(&html);
    assert_eq!(ids.len(), SWEEP_CHARTS.len() + 1, "{ids:?}");
    assert_eq!(ids[5], "sweep-bars");
    // Two values; for each, bars 33, 66 and 99 reached and passed.
    assert_eq!(bars_in(&html, "sweep-bars"), 2 * 3 * 2);
    let rows = table_rows(&html, "sweep-bars");
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].len(), 1 + 3 * 2, "{rows:?}");
    // The 33/66/99 game loses chips to bars passed and exact hits (busts are always shown).
    let chips = table_rows(&html, "sweep-chips");
    assert!(
        chips[0].len() >= 4,
        "the value, two causes or more, all: {chips:?}"
    );
    assert_eq!(
        bars_in(&html, "sweep-chips"),
        2 * (chips[0].len() - 2),
        "a bar a cause and value"
    );
}

#[test]
fn hostile_names_are_shown_as_text() {
    let html = hostile_html();
    assert_self_contained(&html);
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(html.contains("&lt;b&gt;bold&lt;/b&gt;"));
    assert!(html.contains("&lt;i&gt;chips&lt;/i&gt;"));
    assert!(html.contains("a&amp;b"));
    assert!(!html.contains("<b>bold"));
    assert!(!html.contains("<i>chips"));
    assert!(html.contains("&quot;&gt;&lt;b onmouseover=alert(2)&gt;"));
    assert!(!html.contains("<b onmouseover"));
}

#[test]
fn text_histograms_of_turns_and_rounds() {
    let (cfg, st) = ninety_nine();
    let plain = sim::report(cfg, st);
    let line = |text: &str, label: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(label))
            .unwrap_or_else(|| panic!("no `{label}` histogram in\n{text}"))
            .to_string()
    };
    let turns = line(&plain, "turns ");
    let words: Vec<&str> = turns.split_whitespace().collect();
    assert_eq!(words.first(), Some(&"turns"));
    let lo: u32 = words[1].parse().expect("the smallest value");
    let hi: u32 = words[words.len() - 1].parse().expect("the largest value");
    assert_eq!(lo, *st.turns.counts.keys().next().expect("turns"));
    assert_eq!(hi, *st.turns.counts.keys().next_back().expect("turns"));
    assert!(turns.is_ascii(), "{turns}");
    assert!(turns.contains('#'), "the fullest column: {turns}");
    let unicode = sim::report_with(cfg, st, true);
    assert!(line(&unicode, "turns ").contains('█'));
    assert!(line(&unicode, "rounds ").contains('█'));
    // Only the histograms differ.
    let strip = |t: &str| {
        t.lines()
            .filter(|l| {
                let l = l.trim_start();
                !l.starts_with("turns ") && !l.starts_with("rounds ")
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&plain), strip(&unicode));
}

// ---------------------------------------------------------------------------------------------
// The command line

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("ninety-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        Self(dir)
    }

    fn file(&self, name: &str) -> String {
        self.0.join(name).display().to_string()
    }

    fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(&self.0)
            .expect("readable")
            .map(|e| {
                e.expect("an entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        v.sort();
        v
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn ninety(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ninety"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .expect("runs")
}

fn ok(o: &std::process::Output) {
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

const RUN_ARGS: [&str; 10] = [
    "--games",
    "200",
    "--players",
    "3",
    "--bots",
    "cautious,random,aggressive",
    "--seed",
    "3",
    "--jobs",
    "2",
];

fn args<'a>(head: &[&'a str], tail: &[&'a str]) -> Vec<&'a str> {
    let mut v = head.to_vec();
    v.extend(RUN_ARGS);
    v.extend(tail);
    v
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).expect("the report")
}

#[test]
fn the_cli_writes_the_report_and_keeps_its_output() {
    let dir = TempDir::new("report-cli");
    let file = dir.file("run.html");
    let run = args(&["sim", "ninety-nine"], &["--report", &file]);
    let o = ninety(&run);
    ok(&o);
    // Through a pipe, the text report with its histograms in plain ASCII.
    let (cfg, st) = ninety_nine();
    let text = String::from_utf8_lossy(&o.stdout);
    assert_eq!(text, sim::report(cfg, st));
    assert!(text.is_ascii(), "{text}");
    assert!(text.contains("\n  turns  ") && text.contains("\n  rounds "));
    assert_eq!(read(&file), single_html());
    // Written again over the old file, and no temporary file is left behind.
    ok(&ninety(&run));
    assert_eq!(dir.names(), ["run.html"]);
    // The JSON output is unchanged by `--report`.
    let without = ninety(&args(&["sim", "ninety-nine", "--json"], &[]));
    let with = ninety(&args(
        &["sim", "ninety-nine", "--json"],
        &["--report", &file],
    ));
    ok(&with);
    ok(&without);
    assert_eq!(with.stdout, without.stdout);
    assert_eq!(dir.names(), ["run.html"]);
}

#[test]
fn a_comparisons_text_draws_both_runs_histograms_over_one_range() {
    let o = ninety(&args(&["sim", "ninety-nine", "ninety-nine-quick"], &[]));
    ok(&o);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.is_ascii(), "{text}");
    for label in ["turns per game\n", "rounds per game\n"] {
        let at = text.rfind(label).expect(label) + label.len();
        let lines: Vec<&str> = text[at..].lines().take(2).collect();
        assert!(lines[0].starts_with("  Ninety-Nine  "), "{text}");
        assert!(lines[1].starts_with("  Ninety-Nine (quick)  "), "{text}");
        // Over the same range, so the columns line up: the same first and last values,
        // the same length.
        let ends = |l: &str| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w[w.len() - 1].to_string(), l.len())
        };
        assert_eq!(ends(lines[0]), ends(lines[1]), "{text}");
    }
}

#[test]
fn a_bad_report_path_fails_at_once_and_clearly() {
    let dir = TempDir::new("report-bad");
    let sub = dir.file("folder.html");
    std::fs::create_dir(&sub).expect("a folder");
    let missing = dir.file("nowhere/run.html");
    for (path, why) in [
        (sub.as_str(), "it is a folder"),
        (missing.as_str(), "there is no folder"),
        ("", "a report needs a file name"),
    ] {
        let o = ninety(&args(&["sim", "ninety-nine"], &["--report", path]));
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{path}: {err}");
        assert!(
            err.starts_with(&format!("error: cannot write the report `{path}`: {why}")),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
        assert!(o.stdout.is_empty(), "no game is played: {path}");
    }
    assert!(Path::new(&sub).is_dir());
    assert_eq!(dir.names(), ["folder.html"]);
    // A shard's page would show a slice of the run: refused, saying what to do.
    let o = ninety(&args(
        &["sim", "ninety-nine"],
        &["--shard", "1/2", "--report", &dir.file("x.html")],
    ));
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--merge"));
    assert_eq!(dir.names(), ["folder.html"]);
}

/// Plays `head` (with the run's arguments) in two shards, merges them with `--report`, and
/// checks the merged page and text are the whole command's, byte for byte.
fn merged_shards_give_the_whole_page(dir: &TempDir, name: &str, head: &[&str], tail: &[&str]) {
    let whole_file = dir.file(&format!("{name}-whole.html"));
    let mut whole_tail = tail.to_vec();
    whole_tail.extend(["--report", &whole_file]);
    let whole = ninety(&args(head, &whole_tail));
    ok(&whole);
    let mut shards = Vec::new();
    for k in ["1/2", "2/2"] {
        let mut shard_tail = tail.to_vec();
        shard_tail.extend(["--shard", k, "--json"]);
        let o = ninety(&args(head, &shard_tail));
        ok(&o);
        let f = dir.file(&format!("{name}-shard-{}.json", &k[..1]));
        std::fs::write(&f, &o.stdout).expect("written");
        shards.push(f);
    }
    let merged_file = dir.file(&format!("{name}-merged.html"));
    let o = ninety(&[
        "sim",
        "--merge",
        &shards[1],
        &shards[0],
        "--report",
        &merged_file,
    ]);
    ok(&o);
    assert_eq!(o.stdout, whole.stdout, "{name}: the merged text");
    assert_eq!(read(&merged_file), read(&whole_file), "{name}: the pages");
}

#[test]
fn the_cli_writes_the_report_of_a_comparison_a_sweep_and_a_merge() {
    let dir = TempDir::new("report-cli-more");
    let compared = dir.file("compare.html");
    ok(&ninety(&args(
        &["sim", "ninety-nine", "ninety-nine-quick"],
        &["--report", &compared],
    )));
    assert_eq!(read(&compared), comparison_html());
    let swept = dir.file("sweep.html");
    let o = ninety(&args(
        &["sim", "ninety-nine"],
        &["--sweep", "chips=1,3", "--report", &swept],
    ));
    ok(&o);
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 3);
    assert_eq!(read(&swept), sweep_html());
    // Shards merged: the whole command's page, for every shape of command.
    merged_shards_give_the_whole_page(&dir, "one", &["sim", "ninety-nine"], &[]);
    assert_eq!(read(&dir.file("one-merged.html")), single_html());
    merged_shards_give_the_whole_page(
        &dir,
        "two",
        &["sim", "ninety-nine", "ninety-nine-quick"],
        &[],
    );
    assert_eq!(read(&dir.file("two-merged.html")), comparison_html());
    merged_shards_give_the_whole_page(
        &dir,
        "sweep",
        &["sim", "ninety-nine"],
        &["--sweep", "chips=1,3"],
    );
    assert_eq!(read(&dir.file("sweep-merged.html")), sweep_html());
}

/// The cells of the table row whose header is `label` in `html` (the first such row).
fn row_cells(html: &str, label: &str) -> Option<Vec<String>> {
    let head = format!("<tr><th scope=\"row\">{label}</th>");
    let at = html.find(&head)? + head.len();
    let row = &html[at..at + html[at..].find("</tr>")?];
    Some(
        row.split("<td>")
            .skip(1)
            .map(|c| c.trim_end_matches("</td>").to_string())
            .collect(),
    )
}

/// The words of the text report's row `label`: its figures, its interval and its verdict.
fn text_row<'t>(text: &'t str, label: &str) -> &'t str {
    text.lines()
        .find(|l| {
            l.strip_prefix(label)
                .is_some_and(|rest| rest.starts_with("  "))
        })
        .unwrap_or_else(|| panic!("no row `{label}` in:\n{text}"))
}

#[test]
fn a_comparison_gives_one_verdict_per_row_in_text_page_and_json() {
    let dir = TempDir::new("report-verdicts");
    let page = dir.file("ab.html");
    let head = ["sim", "ninety-nine", "ninety-nine-quick"];
    let text = ninety(&args(&head, &["--report", &page]));
    ok(&text);
    let text = String::from_utf8_lossy(&text.stdout).into_owned();
    let json = ninety(&args(&head, &["--json"]));
    ok(&json);
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    let html = read(&page);
    // The columns are A and B, and each is named.
    assert!(
        text.contains("\n  A is Ninety-Nine (ninety-nine)\n"),
        "{text}"
    );
    assert!(
        text.contains("\n  B is Ninety-Nine (quick) (ninety-nine-quick)\n"),
        "{text}"
    );
    let columns = text
        .lines()
        .find(|l| l.contains("beyond chance?"))
        .expect("the columns");
    let words: Vec<&str> = columns.split_whitespace().collect();
    assert_eq!(&words[..2], ["A", "B"], "{columns}");
    let diffs = json["differences"].as_array().expect("the differences");
    assert!(diffs.len() >= 12, "{diffs:?}");
    let mut seen = std::collections::BTreeSet::new();
    for d in diffs {
        let label = d["label"].as_str().expect("a label");
        let verdict = d["verdict"].as_str().expect("a verdict");
        seen.insert(verdict.to_string());
        let difference = d["difference"].as_f64().expect("B − A");
        let (a, b) = (d["a"].as_f64().expect("A"), d["b"].as_f64().expect("B"));
        assert!((b - a - difference).abs() < 1e-9, "{d}");
        // The interval and the test are there exactly when there is a verdict; the verdict
        // is what the interval says.
        match verdict {
            "no_test" => {
                assert!(d["interval"].is_null() && d["test"].is_null(), "{d}");
            }
            "beyond" | "within" => {
                let lo = d["interval"][0].as_f64().expect("low");
                let hi = d["interval"][1].as_f64().expect("high");
                assert!(lo <= difference && difference <= hi, "{d}");
                let leaves_out_0 = lo > 0.0 || hi < 0.0 || (lo == hi && difference != 0.0);
                assert_eq!(verdict == "beyond", leaves_out_0, "{d}");
                assert!(d["test"].is_string(), "{d}");
            }
            other => panic!("a verdict `{other}`: {d}"),
        }
        let word = match verdict {
            "beyond" => "yes",
            "within" => "no",
            _ => "no test",
        };
        let row = text_row(&text, label);
        assert!(row.ends_with(&format!(" {word}")), "text `{row}`, JSON {d}");
        if verdict == "no_test" {
            assert!(!row.contains('['), "no interval without a test: {row}");
        }
        // The page: the key figures for the figures, the seats' table for the seats.
        let key = d["key"].as_str().expect("a key");
        let cells = match key.strip_prefix("seat_") {
            Some(rest) => {
                let seat = rest.split('_').next().expect("a seat");
                let seats = figure(&html, "wins-by-seat").expect("wins by seat");
                let label = ["cautious", "random", "aggressive"]
                    .iter()
                    .map(|bot| format!("seat {seat} ({bot})"))
                    .find(|l| seats.contains(&format!(">{l}</th>")))
                    .expect("the seat's row");
                row_cells(seats, &label)
            }
            None => row_cells(&html, label),
        }
        .unwrap_or_else(|| panic!("no row `{label}` on the page"));
        let html_word = if word == "yes" { "yes *" } else { word };
        assert_eq!(cells.last().map(String::as_str), Some(html_word), "{label}");
    }
    // Every kind of verdict is met here: a figure beyond chance, one within, a median.
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        ["beyond", "no_test", "within"]
    );
    // The case the report found: forced busts were `no` in the text, `yes *` on the page.
    assert!(
        text_row(&text, "forced busts per game").ends_with(" yes"),
        "{text}"
    );
    assert!(text_row(&text, "turns per game (median)").ends_with(" no test"));
}

// ---------------------------------------------------------------------------------------------
// A real browser

/// Chromium: `CHROMIUM` when set, else the first of its names on the `PATH` (Debian's
/// `chromium`, Ubuntu's `chromium-browser`, Google's build).
fn chromium_binary() -> PathBuf {
    if let Some(p) = std::env::var_os("CHROMIUM").filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ] {
        for dir in std::env::split_paths(&path) {
            if dir.join(name).is_file() {
                return dir.join(name);
            }
        }
    }
    panic!(
        "no Chromium on the PATH (chromium, chromium-browser, google-chrome), nor in \
         CHROMIUM: this test renders the report in a real browser. Install it with `apt-get \
         install chromium` (Debian's package; `cargo xtask test` does) and run the tests again."
    )
}

/// Runs headless Chromium on a fresh profile, with a network log and every host name mapped
/// to nowhere, its standard output to a file; fails after two minutes.
fn chromium(dir: &Path, name: &str, args: &[String]) -> (String, PathBuf) {
    let profile = dir.join(format!("profile-{name}"));
    let net_log = dir.join(format!("{name}.netlog.json"));
    let out_file = dir.join(format!("{name}.stdout"));
    let err_file = dir.join(format!("{name}.stderr"));
    let mut child = Command::new(chromium_binary())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--host-resolver-rules=MAP * ~NOTFOUND",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--log-net-log={}", net_log.display()))
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_file).expect("a file"))
        .stderr(std::fs::File::create(&err_file).expect("a file"))
        .spawn()
        .expect("chromium starts");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break status;
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium took more than two minutes: {args:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let stderr = std::fs::read_to_string(&err_file).unwrap_or_default();
    assert!(
        status.success(),
        "chromium {args:?} failed: {status}\n{stderr}"
    );
    let _ = std::fs::remove_dir_all(&profile);
    (
        std::fs::read_to_string(&out_file).expect("chromium's output"),
        net_log,
    )
}

/// The URLs the page asked for, from Chromium's network log: every request but those the
/// browser makes for itself (component updates, time and account checks), which have no
/// origin ("not an origin"). A `file://` page's own requests have its opaque origin.
fn page_requests(net_log: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(net_log).expect("the network log");
    let log: serde_json::Value = serde_json::from_str(&text)
        .or_else(|_| serde_json::from_str(&format!("{}]}}", text.trim_end().trim_end_matches(','))))
        .expect("the network log is JSON");
    let start_job = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
        .as_u64()
        .expect("the event type of a URL request");
    let events = log["events"].as_array().expect("events");
    assert!(!events.is_empty(), "an empty network log");
    events
        .iter()
        .filter(|e| e["type"].as_u64() == Some(start_job))
        .filter_map(|e| {
            // The job's start names the URL; its end has only the outcome.
            let p = &e["params"];
            let url = p["url"].as_str()?;
            let initiator = p["initiator"].as_str().unwrap_or("");
            let key = p["network_isolation_key"].as_str().unwrap_or("");
            (initiator != "not an origin" || key.contains("file://")).then(|| url.to_string())
        })
        .filter(|u| !u.starts_with("file:"))
        .collect()
}

fn url(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// How many PDF pages a file holds.
fn pdf_pages(bytes: &[u8]) -> usize {
    let text = String::from_utf8_lossy(bytes);
    text.matches("/Type /Page").count() - text.matches("/Type /Pages").count()
}

#[test]
#[ignore = "needs chromium: run by cargo xtask test"]
fn chromium_renders_prints_and_fetches_nothing() {
    // NINETY_REPORT_DIR keeps the pages, screenshots and PDF to look at.
    let keep = std::env::var_os("NINETY_REPORT_DIR").map(PathBuf::from);
    let tmp = TempDir::new("report-chromium");
    let dir = keep.clone().unwrap_or_else(|| tmp.0.clone());
    std::fs::create_dir_all(&dir).expect("a folder");
    let pages = [
        ("single", single_html()),
        ("comparison", comparison_html()),
        ("sweep", sweep_html()),
        ("bars", bars_html()),
        ("bars-sweep", bars_sweep_html()),
        ("hostile", hostile_html()),
    ];
    for (name, html) in &pages {
        let file = dir.join(format!("{name}.html"));
        std::fs::write(&file, html).expect("written");
        let (dom, net_log) = chromium(
            &dir,
            &format!("{name}-dom"),
            &["--dump-dom".into(), url(&file)],
        );
        // The browser's document has every figure of the file, each with all its bars.
        let ids = figure_ids(html);
        assert_eq!(figure_ids(&dom), ids, "{name}: the rendered figures");
        assert!(ids.len() >= 5, "{name}: {ids:?}");
        for id in &ids {
            assert_eq!(
                bars_in(&dom, id),
                bars_in(html, id),
                "{name}: the bars of `{id}` as rendered"
            );
            assert!(bars_in(&dom, id) >= 1, "{name}: `{id}` has no bars");
        }
        assert_eq!(dom.matches("<svg").count(), ids.len(), "{name}");
        assert!(!dom.contains("<script"), "{name}: a script element");
        let requests = page_requests(&net_log);
        assert!(requests.is_empty(), "{name} asked for {requests:?}");
    }
    let dom_of = |name: &str| {
        std::fs::read_to_string(dir.join(format!("{name}-dom.stdout"))).expect("the dom")
    };
    assert_eq!(bars_in(&dom_of("single"), "wins-by-seat"), 3);
    assert_eq!(bars_in(&dom_of("comparison"), "wins-by-seat"), 6);
    assert_eq!(bars_in(&dom_of("comparison"), "elimination"), 18);
    assert_eq!(bars_in(&dom_of("bars"), "bars"), 12);
    assert_eq!(bars_in(&dom_of("sweep"), "sweep-wins"), 6);
    assert_eq!(bars_in(&dom_of("bars-sweep"), "sweep-bars"), 12);
    assert_histogram_matches_its_table(&dom_of("single"), "turns");
    assert!(dom_of("hostile").contains("&lt;script&gt;alert(1)&lt;/script&gt;"));

    // Pictures: a screenshot of each page (not blank), and the comparison printed to PDF.
    for (name, _) in &pages[..5] {
        let png = dir.join(format!("{name}.png"));
        chromium(
            &dir,
            &format!("{name}-png"),
            &[
                format!("--screenshot={}", png.display()),
                "--window-size=1000,4000".into(),
                url(&dir.join(format!("{name}.html"))),
            ],
        );
        let bytes = std::fs::read(&png).expect("a screenshot");
        assert!(bytes.starts_with(b"\x89PNG"), "{name}: not a PNG");
        assert!(
            bytes.len() > 20_000,
            "{name}: a blank screenshot? {} bytes",
            bytes.len()
        );
    }
    let pdf = dir.join("comparison.pdf");
    let (_, net_log) = chromium(
        &dir,
        "comparison-pdf",
        &[
            format!("--print-to-pdf={}", pdf.display()),
            "--no-pdf-header-footer".into(),
            url(&dir.join("comparison.html")),
        ],
    );
    let bytes = std::fs::read(&pdf).expect("a PDF");
    assert!(bytes.starts_with(b"%PDF"), "not a PDF");
    let pages = pdf_pages(&bytes);
    assert!((3..=20).contains(&pages), "a PDF of {pages} pages");
    assert!(page_requests(&net_log).is_empty());

    // The check of requests is not vacuous: a page that asks for an image (at a host that
    // resolves nowhere, so nothing leaves the machine) is caught.
    let control = dir.join("control.html");
    std::fs::write(
        &control,
        "<!DOCTYPE html><title>control</title><img src=\"http://example.invalid/x.png\" alt=\"\">",
    )
    .expect("written");
    let (_, net_log) = chromium(&dir, "control", &["--dump-dom".into(), url(&control)]);
    assert_eq!(page_requests(&net_log), ["http://example.invalid/x.png"]);
}
