//! House rules written with the language's newer constructs (`tests/house-rules/`): each file
//! checks clean and its scenarios hold (they prove what each construct does), and its rules
//! sheet — every construct in words — is snapshotted.

use ninety::app::load::{base_program, check_one};
use ninety::compile::Shipped;
use ninety::present;

#[test]
fn house_rules() {
    insta::glob!("house-rules/**/*.rules", |path| {
        let path = path.to_str().expect("utf-8 path");
        let checked = check_one(&Shipped, path, &[]).expect("readable");
        let problems: Vec<String> = checked.diags.iter().map(|d| d.render_plain(100)).collect();
        assert!(
            problems.is_empty(),
            "{path} does not check clean:\n{}",
            problems.join("\n")
        );
        let program = checked.program.expect("compiled");
        let base = base_program(&Shipped, &program, &[]);
        insta::assert_snapshot!(present::rules_sheet(&program, base.as_ref(), false));
    });
}
