//! Builds the list of shipped rulesets into the binary, so `ninety play NAME` and `ninety
//! list` work from any folder and a new file in `rulesets/` needs no Rust change.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new("rulesets");
    println!("cargo::rerun-if-changed=rulesets");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "rules"))
                .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let mut out = String::from(
        "/// The shipped rulesets: name and text.\npub const SHIPPED: &[(&str, &str)] = &[\n",
    );
    for name in &names {
        println!("cargo::rerun-if-changed=rulesets/{name}.rules");
        let _ = writeln!(
            out,
            "    ({name:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/rulesets/{name}.rules\"))),"
        );
    }
    out.push_str("];\n");
    let target =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("shipped.rs");
    std::fs::write(target, out).expect("write the list of rulesets");
}
