//! Shell completion and the man page, both from the command line's own clap definitions.
//!
//! Completion is dynamic: the script a shell sources (`ninety completions bash`) asks the
//! binary itself, with [`VAR`] set, for the candidates of the word under the cursor
//! (clap_complete's engine). So it knows what a static script cannot: the shipped rulesets
//! (and `.rules` files and folders), the bots, and the options of the ruleset already on the
//! command line for `--set` and `--sweep`.

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::Path;

use clap::Command;
use clap_complete::engine::{ArgValueCompleter, CompletionCandidate, PathCompleter};
use clap_complete::env::Shells;

use crate::compile::{self, SHIPPED, Shipped};
use crate::ir::OptionInfo;
use crate::play::Bot;

/// The environment variable that asks the binary for completions instead of running.
pub(super) const VAR: &str = "NINETY_COMPLETE";

/// The shells `ninety completions` writes a script for.
pub(super) const SHELLS: [&str; 5] = ["bash", "zsh", "fish", "elvish", "powershell"];

/// Where each command takes rulesets (its first positional arguments).
const RULESET_ARGS: [(&str, &str); 5] = [
    ("check", "paths"),
    ("run", "ruleset"),
    ("play", "ruleset"),
    ("sim", "rulesets"),
    ("rules", "ruleset"),
];

/// Where each command takes a bot, or bots separated by commas.
const BOT_ARGS: [(&str, &str); 3] = [("sim", "bots"), ("play", "bot"), ("run", "bots")];

/// Where each command takes `NAME=VALUE` for an option of its rulesets.
const OPTION_ARGS: [(&str, &str); 6] = [
    ("check", "sets"),
    ("run", "sets"),
    ("play", "sets"),
    ("sim", "sets"),
    ("sim", "sweep"),
    ("rules", "sets"),
];

/// The command line's definitions with the completers attached. `args` is how the binary was
/// called: for completion, its own path, `--`, then the words of the line being completed.
pub(super) fn with_completers(cmd: Command, args: &[OsString]) -> Command {
    let words: Vec<String> = args
        .iter()
        .skip_while(|a| *a != "--")
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let mut built = cmd.clone();
    built.build();
    let given = rulesets_given(&built, &words);
    let mut cmd = cmd;
    for (sub, arg) in RULESET_ARGS {
        cmd = cmd.mut_subcommand(sub, |c| {
            c.mut_arg(arg, |a| a.add(ArgValueCompleter::new(rulesets)))
        });
    }
    for (sub, arg) in BOT_ARGS {
        cmd = cmd.mut_subcommand(sub, |c| {
            c.mut_arg(arg, |a| a.add(ArgValueCompleter::new(bots)))
        });
    }
    for (sub, arg) in OPTION_ARGS {
        let given = given.clone();
        let complete = move |current: &OsStr| options(&given, current);
        cmd = cmd.mut_subcommand(sub, |c| {
            c.mut_arg(arg, |a| a.add(ArgValueCompleter::new(complete)))
        });
    }
    cmd
}

/// The rulesets on a command line: the positional arguments of its command (every value
/// an option takes skipped, as clap's definitions say).
fn rulesets_given(cmd: &Command, words: &[String]) -> Vec<String> {
    let Some(sub) = words.get(1).and_then(|w| cmd.find_subcommand(w)) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let mut rest = words.iter().skip(2).peekable();
    while let Some(w) = rest.next() {
        if w == "--" {
            found.extend(rest.by_ref().cloned());
        } else if let Some(long) = w.strip_prefix("--") {
            if long.contains('=') {
                continue;
            }
            let arg = sub.get_arguments().find(|a| a.get_long() == Some(long));
            let takes = arg.and_then(clap::Arg::get_num_args).unwrap_or_default();
            if arg.is_some_and(|a| a.get_action().takes_values()) && takes.max_values() > 0 {
                // One value, or as many as follow (`--merge FILES...`).
                let many = takes.max_values() > 1;
                while rest.peek().is_some_and(|v| !v.starts_with('-')) {
                    rest.next();
                    if !many {
                        break;
                    }
                }
            }
        } else if !w.starts_with('-') || w == "-" {
            found.push(w.clone());
        }
    }
    found
}

/// A ruleset: the shipped ones by name, then `.rules` files and folders.
fn rulesets(current: &OsStr) -> Vec<CompletionCandidate> {
    let typed = current.to_string_lossy();
    let mut out: Vec<CompletionCandidate> = SHIPPED
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| name.starts_with(typed.as_ref()))
        .map(CompletionCandidate::new)
        .collect();
    out.sort();
    let files = PathCompleter::any().filter(|p: &Path| p.extension().is_some_and(|x| x == "rules"));
    out.extend(clap_complete::engine::ValueCompleter::complete(
        &files, current,
    ));
    out
}

/// A bot: a built-in one by name, or `script:` and a `.rhai` file.
fn bots(current: &OsStr) -> Vec<CompletionCandidate> {
    let typed = current.to_string_lossy();
    if let Some(path) = typed.strip_prefix("script:") {
        let files =
            PathCompleter::any().filter(|p: &Path| p.extension().is_some_and(|x| x == "rhai"));
        return clap_complete::engine::ValueCompleter::complete(&files, OsStr::new(path))
            .into_iter()
            .map(|c| c.add_prefix("script:"))
            .collect();
    }
    Bot::NAMES
        .iter()
        .copied()
        .chain(["script:"])
        .filter(|name| name.starts_with(typed.as_ref()))
        .map(CompletionCandidate::new)
        .collect()
}

/// `NAME=` for each option of the rulesets given (their union, sorted), with its default and
/// allowed values as help; after `NAME=`, its values when there are few.
fn options(given: &[String], current: &OsStr) -> Vec<CompletionCandidate> {
    let typed = current.to_string_lossy();
    let mut all: Vec<OptionInfo> = given
        .iter()
        .filter(|path| !Path::new(path).is_dir())
        .filter_map(|path| compile::check(&Shipped, path, &[]).ok()?.program)
        .flat_map(|p| p.options)
        .collect();
    all.sort_by(|a, b| a.name.cmp(&b.name));
    all.dedup_by(|a, b| a.name == b.name);
    if let Some((name, value)) = typed.split_once('=') {
        let Some(o) = all.iter().find(|o| o.name == name) else {
            return Vec::new();
        };
        return option_values(o)
            .into_iter()
            .filter(|v| v.starts_with(value))
            .map(|v| CompletionCandidate::new(format!("{name}={v}")))
            .collect();
    }
    all.iter()
        .filter(|o| o.name.starts_with(typed.as_ref()))
        .map(|o| {
            CompletionCandidate::new(format!("{}=", o.name))
                .help(Some(format!("default {}, {}", o.default, o.allowed).into()))
        })
        .collect()
}

/// The values an option takes, when they are few enough to list (its default otherwise).
fn option_values(o: &OptionInfo) -> Vec<String> {
    let allowed = o.allowed.as_str();
    if allowed == "yes or no" {
        return vec!["yes".into(), "no".into()];
    }
    if let Some(list) = allowed.strip_prefix("one of ") {
        return list.split(", ").map(String::from).collect();
    }
    let range = allowed
        .strip_prefix("from ")
        .and_then(|r| r.split_once(" to "))
        .and_then(|(lo, hi)| Some((lo.parse::<i64>().ok()?, hi.parse::<i64>().ok()?)));
    match range {
        Some((lo, hi)) if hi - lo < 20 => (lo..=hi).map(|v| v.to_string()).collect(),
        _ => vec![o.default.to_string()],
    }
}

/// `ninety completions SHELL`: the script that makes `SHELL` complete ninety's command line,
/// asking this binary (by the path it was called by, when that has a folder in it, else
/// `ninety` on the `PATH`).
pub(super) fn script(shell: &str, called_as: &OsStr, out: &mut dyn Write) -> Result<(), String> {
    let shells = Shells::builtins();
    let Some(completer) = shells.completer(shell) else {
        return Err(format!("`{shell}`: ninety completes {}", SHELLS.join(", ")));
    };
    let called = Path::new(called_as);
    let path = if called.components().count() > 1 {
        std::env::current_dir()
            .map(|d| d.join(called))
            .unwrap_or_else(|_| called.to_path_buf())
    } else {
        Path::new("ninety").to_path_buf()
    };
    let path = path.to_string_lossy();
    completer
        .write_registration(VAR, "ninety", "ninety", &path, out)
        .map_err(|e| format!("cannot write the script: {e}"))
}

/// `ninety man [COMMAND]`: the manual page of ninety, or of one of its commands, in roff.
pub(super) fn man(cmd: Command, command: Option<&str>, out: &mut dyn Write) -> Result<(), String> {
    let page = match command {
        None => cmd,
        Some(name) => {
            let Some(sub) = cmd.find_subcommand(name).cloned() else {
                let names: Vec<&str> = cmd
                    .get_subcommands()
                    .filter(|c| !c.is_hide_set())
                    .map(Command::get_name)
                    .collect();
                return Err(format!(
                    "no command `{name}`; the commands are {}",
                    names.join(", ")
                ));
            };
            sub.display_name(format!("ninety-{name}"))
                .bin_name(format!("ninety {name}"))
        }
    };
    clap_mangen::Man::new(page)
        .source(format!("ninety {}", env!("CARGO_PKG_VERSION")))
        .render(out)
        .map_err(|e| format!("cannot write the manual page: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(c: Vec<CompletionCandidate>) -> Vec<String> {
        c.into_iter()
            .map(|c| c.get_value().to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn the_rulesets_on_a_command_line() {
        let mut cmd = Command::new("ninety").subcommand(
            Command::new("sim")
                .arg(clap::Arg::new("rulesets").num_args(0..))
                .arg(clap::Arg::new("games").long("games"))
                .arg(
                    clap::Arg::new("json")
                        .long("json")
                        .num_args(0)
                        .action(clap::ArgAction::SetTrue),
                )
                .arg(clap::Arg::new("merge").long("merge").num_args(1..)),
        );
        cmd.build();
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            rulesets_given(
                &cmd,
                &words(&[
                    "ninety",
                    "sim",
                    "--games",
                    "10",
                    "a",
                    "--json",
                    "b",
                    "--games=3",
                    "c"
                ])
            ),
            ["a", "b", "c"]
        );
        assert!(rulesets_given(&cmd, &words(&["ninety", "sim", "--merge", "x", "y"])).is_empty());
        assert_eq!(
            rulesets_given(&cmd, &words(&["ninety", "sim", "--", "--odd"])),
            ["--odd"]
        );
        assert!(rulesets_given(&cmd, &words(&["ninety", "nope", "a"])).is_empty());
        assert!(rulesets_given(&cmd, &words(&[])).is_empty());
    }

    #[test]
    fn bots_by_name_and_by_script() {
        assert_eq!(values(bots(OsStr::new("c"))), ["cautious"]);
        assert_eq!(
            values(bots(OsStr::new(""))),
            [
                "random",
                "cautious",
                "aggressive",
                "search",
                "ismcts",
                "script:"
            ]
        );
        assert!(values(bots(OsStr::new("script:/nowhere/x"))).is_empty());
    }

    #[test]
    fn the_options_of_the_rulesets_given() {
        let given = vec!["ninety-nine".to_string(), "ring-of-99".to_string()];
        let names = values(options(&given, OsStr::new("")));
        assert_eq!(names, ["cap=", "chips="]);
        assert_eq!(values(options(&given, OsStr::new("ch"))), ["chips="]);
        assert_eq!(
            values(options(&given, OsStr::new("cap="))),
            ["cap=199", "cap=299"]
        );
        assert_eq!(
            values(options(&given, OsStr::new("chips=1"))),
            ["chips=1", "chips=10"]
        );
        assert!(values(options(&[], OsStr::new(""))).is_empty());
        assert!(values(options(&["/nowhere.rules".into()], OsStr::new(""))).is_empty());
    }
}
