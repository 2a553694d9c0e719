//! Every shipped ruleset: it checks clean (scenarios included), its compiled form and rules
//! sheet are snapshotted, and one seeded game with bots is played to the end and snapshotted.

use ninety::app::load::check_one;
use ninety::app::run::{RunOptions, run_cmd};
use ninety::compile::Disk;
use ninety::play::Bot;
use ninety::present;

#[test]
fn shipped_rulesets() {
    insta::glob!("../rulesets", "*.rules", |path| {
        let shown = format!(
            "rulesets/{}",
            path.file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
        );
        let path = path.to_str().expect("utf-8 path");
        let checked = check_one(&Disk, path, &[]).expect("readable");
        let problems: Vec<String> = checked.diags.iter().map(|d| d.render_plain(100)).collect();
        assert!(
            problems.is_empty(),
            "{shown} does not check clean:\n{}",
            problems.join("\n")
        );
        let program = checked.program.expect("compiled");
        insta::assert_snapshot!("compiled", present::dump(&program));
        let base = ninety::app::load::base_program(&Disk, &program, &[]);
        insta::assert_snapshot!("sheet", present::rules_sheet(&program, base.as_ref(), true));

        let o = RunOptions {
            seed: 7,
            bots: Some("cautious".into()),
            ..RunOptions::default()
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = run_cmd(&Disk, path, &o, &mut out, &mut err);
        let out = String::from_utf8(out).expect("utf-8");
        assert_eq!(code, 0, "{shown}: {}", String::from_utf8_lossy(&err));
        assert!(
            out.contains("The game ends"),
            "{shown} did not play to the end"
        );
        insta::assert_snapshot!("game", out);
        let _ = Bot::Random;
    });
}
