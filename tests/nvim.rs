//! Neovim set up exactly as docs/editors.md says: its init.lua is the documented
//! `dofile(…/editors/nvim/init.lua)` (and the doc shows that file whole, word for word), and
//! `ninety` is on the `PATH`. Headless Neovim opens a real ruleset as a user would
//! (`tests/nvim/session.lua`): the filetype is `ninety`, the server attaches, diagnostics
//! arrive, the keyword is coloured, `K` shows the hover, `CTRL-]` goes to the declaration,
//! `gO` lists the outline, completion answers, `:NinetyRun` runs the scenario under the cursor
//! (its lens says it passed), `:NinetyFormat` mends a line's spacing, and a second file
//! shares the server. Then,
//! with the file copied into init.lua and no `ninety` on the `PATH`, a ruleset still opens as
//! `ninety`, with a warning and no Lua error.
//!
//! It runs the `nvim` on the `PATH` (Debian 12's is 0.7.2), or the one `NINETY_NVIM` names
//! (to try a current Neovim too). The two tests that run Neovim are ignored by a plain
//! `cargo test` (`needs nvim`); `cargo xtask test` installs Neovim and runs them, and there a
//! missing Neovim fails the test with the command that installs it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const GOOD: &str = "extends \"ninety-nine\"
name \"Kings pay a bonus\"
option bonus = 5 from 1 to 9
hand 3 cards
card K: add {bonus}
scenario \"K adds the bonus\"
  players 2
  total 10
  hand 0: KH 2C 3C
  hand 1: 4D 5D 6D
  play KH
  expect total 15
end
";

const TYPO: &str = "card 9: set the total to 99 as \"🂡\" or ad 0";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn nvim() -> String {
    let nvim = std::env::var("NINETY_NVIM").unwrap_or_else(|_| "nvim".into());
    let found = Command::new(&nvim)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        found,
        "this test needs Neovim (0.7 or later) on the PATH: `apt-get install neovim` on Debian \
         or Ubuntu, `brew install neovim` on macOS (or name one with NINETY_NVIM=/path/to/nvim)"
    );
    nvim
}

/// The Lua block of docs/editors.md that follows the line `<!-- editors/nvim/init.lua -->`.
fn documented_init() -> String {
    let doc = std::fs::read_to_string(root().join("docs/editors.md")).expect("docs/editors.md");
    let (_, after) = doc
        .split_once("<!-- editors/nvim/init.lua -->\n```lua\n")
        .expect("docs/editors.md shows editors/nvim/init.lua after its marker");
    let (block, _) = after.split_once("\n```").expect("the block ends");
    format!("{block}\n")
}

/// Runs the session script under a fresh configuration whose init.lua is `init`; its output,
/// a `(KEY, VALUE)` a line.
fn session(name: &str, init: &str, path: &str, extra: &[(&str, &str)]) -> Vec<(String, String)> {
    let nvim = nvim();
    let dir = std::env::temp_dir().join(format!("ninety-nvim-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("config/nvim")).expect("a folder");
    std::fs::write(dir.join("config/nvim/init.lua"), init).expect("init.lua");
    let good = dir.join("good.rules");
    let broken = dir.join("broken.rules");
    std::fs::write(&good, GOOD).expect("write");
    std::fs::write(
        &broken,
        format!("name \"Broken 🂡\"\nplayres 2 to 5\n{TYPO}\n"),
    )
    .expect("write");
    let out = dir.join("out.txt");
    let script = root().join("tests/nvim/session.lua");
    let mut command = Command::new(nvim);
    command
        .args(["--headless", "-i", "NONE", "-n", "-c"])
        .arg(format!("luafile {}", script.display()))
        .current_dir(&dir)
        .env("PATH", path)
        .env("NINETY_GOOD", &good)
        .env("NINETY_BROKEN", &broken)
        .env("NINETY_OUT", &out)
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("XDG_DATA_HOME", dir.join("data"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    for (k, v) in extra {
        command.env(k, v);
    }
    let mut child = command.spawn().expect("nvim starts");
    let started = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("Neovim did not finish within 120 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let text = std::fs::read_to_string(&out).expect("the session wrote what it saw");
    let _ = std::fs::remove_dir_all(&dir);
    text.lines()
        .filter_map(|l| l.split_once(": "))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn all<'a>(seen: &'a [(String, String)], key: &str) -> Vec<&'a str> {
    seen.iter()
        .filter(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .collect()
}

fn one<'a>(seen: &'a [(String, String)], key: &str) -> &'a str {
    all(seen, key).first().copied().unwrap_or("(nothing)")
}

/// The `PATH` with the folder of the `ninety` being tested first.
fn path_with_ninety() -> String {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_ninety"));
    let folder = bin.parent().expect("a folder").display().to_string();
    format!("{folder}:{}", std::env::var("PATH").unwrap_or_default())
}

#[test]
fn the_documented_init_lua_is_the_shipped_file() {
    let shipped = std::fs::read_to_string(root().join("editors/nvim/init.lua")).expect("file");
    assert_eq!(
        documented_init(),
        shipped,
        "docs/editors.md and editors/nvim/init.lua differ"
    );
}

#[test]
#[ignore = "needs nvim: run by cargo xtask test"]
fn neovim_set_up_as_documented_shows_everything() {
    let init = format!(
        "dofile('{}')\n",
        root().join("editors/nvim/init.lua").display()
    );
    let seen = session("documented", &init, &path_with_ninety(), &[]);
    let report = seen
        .iter()
        .map(|(k, v)| format!("{k}: {v}"))
        .collect::<Vec<_>>()
        .join("\n");
    let version = one(&seen, "version");
    assert_eq!(one(&seen, "filetype"), "ninety", "{report}");
    assert_eq!(one(&seen, "commentstring"), "# %s", "{report}");
    assert_eq!(one(&seen, "attached"), "true", "{report}");
    assert_eq!(one(&seen, "diagnosed"), "true", "{report}");
    let diagnostics = all(&seen, "diagnostic");
    assert!(
        diagnostics
            .iter()
            .any(|d| d
                .starts_with("3:0 same-as-parent this line says what `ninety-nine` already says")),
        "{report}"
    );
    assert_eq!(one(&seen, "omnifunc"), "v:lua.vim.lsp.omnifunc", "{report}");
    assert_eq!(one(&seen, "tagfunc"), "v:lua.vim.lsp.tagfunc", "{report}");
    assert_eq!(one(&seen, "coloured"), "true", "{report}");
    let keyword = if version == "0.7" || version == "0.8" {
        "Keyword"
    } else {
        "@lsp.type.keyword.ninety"
    };
    assert!(all(&seen, "colour 0:1").contains(&keyword), "{report}");
    assert!(one(&seen, "syntax").ends_with(" ninety"), "{report}");
    let hover = one(&seen, "hover");
    assert!(
        hover.contains("**K** (King) under *Kings pay a bonus*") && hover.contains("add 5"),
        "{report}"
    );
    assert_eq!(one(&seen, "definition"), "2", "{report}");
    let symbols = all(&seen, "symbol");
    for want in [
        "2 [Variable] bonus",
        "4 [EnumMember] card K",
        "5 [Function] K adds the bonus",
    ] {
        assert!(
            symbols.contains(&want),
            "{want} not in the outline:\n{report}"
        );
    }
    let completion: Vec<&str> = one(&seen, "completion").split(',').collect();
    for effect in ["add", "subtract", "skip", "reverse", "play again"] {
        assert!(completion.contains(&effect), "{effect}:\n{report}");
    }
    assert_eq!(
        one(&seen, "ran"),
        "5 scenario \"K adds the bonus\" passes",
        "{report}"
    );
    assert_eq!(one(&seen, "lens"), "✓ passed · run again", "{report}");
    assert_eq!(one(&seen, "formatted"), "card K: add {bonus}", "{report}");
    // Neovim counts columns in bytes: it turned the server's UTF-16 columns back into them.
    let ad = TYPO.find(" ad ").expect("the typo") + 1;
    let broken = all(&seen, "broken");
    assert_eq!(broken.len(), 2, "{report}");
    assert!(
        broken[0].starts_with("1:0-1:7 unknown-keyword unknown keyword `playres`"),
        "{report}"
    );
    assert!(
        broken[1].starts_with(&format!("2:{ad}-2:{} syntax unknown word `ad`", ad + 2)),
        "{report}"
    );
    assert_eq!(one(&seen, "servers"), "1", "{report}");
    let messages = one(&seen, "messages");
    for bad in ["Error", "E5108", "traceback", "deprecated"] {
        assert!(!messages.contains(bad), "{report}");
    }
}

#[test]
#[ignore = "needs nvim: run by cargo xtask test"]
fn without_ninety_on_the_path_a_ruleset_opens_with_a_warning() {
    let init = std::fs::read_to_string(root().join("editors/nvim/init.lua")).expect("file");
    let seen = session(
        "no-server",
        &init,
        "/usr/bin:/bin",
        &[("NINETY_NO_SERVER", "1")],
    );
    let report = format!("{seen:?}");
    assert_eq!(one(&seen, "filetype"), "ninety", "{report}");
    assert_eq!(one(&seen, "clients"), "0", "{report}");
    let messages = one(&seen, "messages");
    assert!(messages.contains("`ninety` is not on the PATH"), "{report}");
    for bad in ["Error", "E5108", "traceback"] {
        assert!(!messages.contains(bad), "{report}");
    }
}
