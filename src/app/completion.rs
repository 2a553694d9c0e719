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
const RULESET_ARGS: [(&str, &str); 7] = [
    ("check", "paths"),
    ("run", "ruleset"),
    ("play", "ruleset"),
    ("sim", "rulesets"),
    ("judge", "rulesets"),
    ("tune", "ruleset"),
    ("rules", "ruleset"),
];

/// Where each command takes a bot, or bots separated by commas.
const BOT_ARGS: [(&str, &str); 5] = [
    ("sim", "bots"),
    ("play", "bot"),
    ("run", "bots"),
    ("judge", "bot"),
    ("tune", "bot"),
];

/// Where each command takes `NAME=VALUE` for an option of its rulesets.
const OPTION_ARGS: [(&str, &str); 10] = [
    ("check", "sets"),
    ("run", "sets"),
    ("play", "sets"),
    ("sim", "sets"),
    ("judge", "sets"),
    ("sim", "sweep"),
    ("judge", "sweep"),
    ("tune", "sets"),
    ("tune", "vary"),
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
    // `ninety man <TAB>`: the commands, each with a page of its own.
    let names: Vec<String> = built
        .get_subcommands()
        .filter(|c| !c.is_hide_set() && c.get_name() != "help")
        .map(|c| c.get_name().to_string())
        .collect();
    cmd = cmd.mut_subcommand("man", |c| {
        c.mut_arg("command", |a| {
            a.add(ArgValueCompleter::new(move |current: &OsStr| {
                let typed = current.to_string_lossy();
                names
                    .iter()
                    .filter(|n| n.starts_with(typed.as_ref()))
                    .map(CompletionCandidate::new)
                    .collect::<Vec<_>>()
            }))
        })
    });
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

/// A bot: a level (`easy`, `normal`, `hard`, with its bot as help), a built-in one by name
/// (with its level, when it is one), or `script:` and a `.rhai` file.
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
    let levels = Bot::LEVELS
        .iter()
        .map(|(level, bot)| (*level, Some(format!("the {bot} bot"))));
    let names = Bot::NAMES.iter().map(|name| {
        let level = Bot::LEVELS.iter().find(|(_, bot)| bot == name);
        (*name, level.map(|(level, _)| format!("level {level}")))
    });
    levels
        .chain(names)
        .chain([("script:", Some("a bot written in rhai".to_string()))])
        .filter(|(name, _)| name.starts_with(typed.as_ref()))
        .map(|(name, help)| CompletionCandidate::new(name).help(help.map(Into::into)))
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
    if shell == "bash" {
        return write!(out, "{}", bash_script(&path))
            .map_err(|e| format!("cannot write the script: {e}"));
    }
    completer
        .write_registration(VAR, "ninety", "ninety", &path, out)
        .map_err(|e| format!("cannot write the script: {e}"))
}

/// The bash script: clap's, but with the words readline split at `=` and `:` joined again.
/// Bash splits the line into `COMP_WORDS` at the characters of `COMP_WORDBREAKS`, so
/// `--set cap=1` arrives as `--set`, `cap`, `=`, `1`, and `script:x.rhai` as `script`, `:`,
/// `x.rhai`; the function joins the pieces that no blank separates on the line (as
/// bash-completion's `_get_comp_words_by_ref -n =:` does), asks the binary about the joined
/// words, and gives readline each candidate less what comes before its own word
/// (`cap=199` becomes `199` where readline completes after the `=`).
fn bash_script(binary: &str) -> String {
    let quoted = format!("'{}'", binary.replace('\'', "'\\''"));
    BASH.replace("BINARY", &quoted).replace("VAR", VAR)
}

const BASH: &str = r#"
_ninety() {
    local IFS=$'\013'
    local _CLAP_COMPLETE_COMP_TYPE=${COMP_TYPE}
    if compopt +o nospace 2> /dev/null; then
        local _CLAP_COMPLETE_SPACE=false
    else
        local _CLAP_COMPLETE_SPACE=true
    fi
    # The words up to the cursor, each piece readline split at a word break joined to the one
    # before it when no blank lies between them on the line.
    local line="${COMP_LINE:0:COMP_POINT}" words=() n=-1 i w gap
    for (( i = 0; i <= COMP_CWORD; i++ )); do
        if (( i == COMP_CWORD )); then
            gap="${line%%[![:space:]]*}"
            w="${line:${#gap}}"
        else
            w="${COMP_WORDS[i]}"
            gap="${line%%"$w"*}"
        fi
        line="${line:$(( ${#gap} + ${#w} ))}"
        if (( n >= 0 )) && [[ -z "$gap" ]]; then
            words[n]+="$w"
        else
            words[++n]="$w"
        fi
    done
    # What readline replaces is the current word as readline sees it.
    local current="$2" prefix=""
    if [[ "${BASH_VERSINFO[0]}" -lt 4 ]]; then
        current="${COMP_WORDS[COMP_CWORD]}"
    fi
    if [[ "${words[n]}" == *"$current" ]]; then
        prefix="${words[n]%"$current"}"
    fi
    COMPREPLY=( $( \
        _CLAP_IFS="$IFS" \
        _CLAP_COMPLETE_INDEX="$n" \
        _CLAP_COMPLETE_COMP_TYPE="$_CLAP_COMPLETE_COMP_TYPE" \
        _CLAP_COMPLETE_SPACE="$_CLAP_COMPLETE_SPACE" \
        VAR="bash" \
        BINARY -- "${words[@]}" \
    ) )
    if [[ $? != 0 ]]; then
        unset COMPREPLY
        return
    fi
    if [[ -n "$prefix" ]]; then
        local kept=() c
        for c in "${COMPREPLY[@]}"; do
            [[ "$c" == "$prefix"* ]] && kept+=("${c#"$prefix"}")
        done
        COMPREPLY=("${kept[@]}")
    fi
    if [[ $_CLAP_COMPLETE_SPACE == false ]] && [[ "${COMPREPLY-}" =~ [=/:]$ ]]; then
        compopt -o nospace
    fi
}
if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -o nospace -o bashdefault -o nosort -F _ninety ninety
else
    complete -o nospace -o bashdefault -F _ninety ninety
fi
"#;

/// `ninety man [COMMAND]`: the manual page of ninety, or of one of its commands, in roff:
/// clap's sections from the same definitions as `--help`, then EXIT STATUS, ENVIRONMENT,
/// FILES, EXAMPLES and (for a command) SEE ALSO.
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
    let has_args = page.get_arguments().any(|a| !a.is_hide_set());
    let has_subs = page.get_subcommands().any(|c| !c.is_hide_set());
    let has_version = page.get_version().is_some() || page.get_long_version().is_some();
    let man = clap_mangen::Man::new(page).source(format!("ninety {}", env!("CARGO_PKG_VERSION")));
    let mut page = Vec::new();
    let written = (|| {
        man.render_title(&mut page)?;
        man.render_name_section(&mut page)?;
        man.render_synopsis_section(&mut page)?;
        man.render_description_section(&mut page)?;
        if has_args {
            man.render_options_section(&mut page)?;
        }
        if has_subs {
            man.render_subcommands_section(&mut page)?;
        }
        page.extend_from_slice(manual_sections(command).as_bytes());
        if has_version {
            man.render_version_section(&mut page)?;
        }
        Ok(())
    })();
    written
        .and_then(|()| out.write_all(&page))
        .map_err(|e| format!("cannot write the manual page: {e}"))
}

/// Text for a roff page: backslashes and hyphens escaped, no line read as a request.
fn roff(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    escaped
        .lines()
        .map(|l| {
            if l.starts_with(['.', '\'']) {
                format!("\\&{l}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A section of tagged paragraphs: each tag in bold (`bold`) or italics, then its text.
fn tagged(title: &str, items: &[(&str, &str)], bold: bool) -> String {
    let mut s = format!(".SH {title}\n");
    let font = if bold { "\\fB" } else { "\\fI" };
    for (tag, text) in items {
        s.push_str(&format!(".TP\n{font}{}\\fR\n{}\n", roff(tag), roff(text)));
    }
    s
}

/// What every command's exit codes mean, then one command's own.
fn exit_status(command: Option<&str>) -> Vec<(&'static str, &'static str)> {
    let failed = match command {
        Some("check") => {
            "A ruleset has an error (or a warning, with --deny-warnings), or one of its \
             scenarios fails."
        }
        Some("run") => {
            "The ruleset does not check, a move is illegal (nothing of it is applied), or the \
             game cannot go on."
        }
        Some("play") => "The ruleset does not check, or the terminal failed.",
        Some("sim") => {
            "A ruleset does not check, a shard does not merge, the report cannot be written, \
             or Ctrl-C stopped the run (the report covers the games played)."
        }
        Some("rules") => "The ruleset does not check.",
        Some("serve") => {
            "The table store cannot be opened or read, or the port cannot be listened on."
        }
        Some("join") => "The link is not a table's, or the server cannot be reached.",
        Some("judge") => {
            "A ruleset does not check, none of its games finished, the report cannot be \
             written, a game met a script's guard, or Ctrl-C stopped the run (the report covers \
             the games played)."
        }
        Some("tune") => {
            "The ruleset does not check, a shard does not merge, the report cannot be \
             written, or Ctrl-C stopped the run (each table says what its games showed)."
        }
        Some(_) => "The command failed.",
        None => {
            "The command failed: a ruleset that does not check, an illegal move, a run \
             stopped by Ctrl-C, output that cannot be written (each command's page says which)."
        }
    };
    vec![
        ("0", "Success."),
        ("1", failed),
        (
            "1",
            "The output cannot be written (a full disk, a closed pipe): in every command.",
        ),
        (
            "2",
            "A usage error: an unknown option or a bad value (a --set the ruleset has no room \
             for too), or a file named on the command line (a ruleset, a save, a moves file, a \
             bot, a shard) that cannot be read. The same in every command.",
        ),
    ]
}

/// The environment ninety reads.
const ENVIRONMENT: [(&str, &str); 8] = [
    (
        "NO_COLOR",
        "Set to any value but the empty one, no colour is written (check, play), and play \
         writes suits as letters (10D), not symbols; an empty NO_COLOR does not count \
         (https://no-color.org).",
    ),
    (
        "TERM",
        "Set to dumb, no colour is written and play writes suits as letters, as with NO_COLOR.",
    ),
    (
        "XDG_STATE_HOME",
        "Where play keeps the history of lines typed: $XDG_STATE_HOME/ninety/history \
         (~/.local/state/ninety/history when it is not set).",
    ),
    (
        "XDG_CACHE_HOME",
        "Where the language server writes the shipped rulesets, for an editor to open on go \
         to definition: $XDG_CACHE_HOME/ninety/VERSION (~/.cache/ninety/VERSION).",
    ),
    (
        "SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT",
        "sim --shard auto reads its slice from a Slurm job array.",
    ),
    (
        "JOB_COMPLETION_INDEX",
        "sim --shard auto/N reads its slice from a Kubernetes Indexed Job of N completions.",
    ),
    (
        "NINETY_COMPLETE",
        "Set by the completion scripts: the binary answers with the candidates for the word \
         under the cursor instead of running.",
    ),
    ("HOME", "The home folder, for the defaults above."),
];

/// The files ninety reads and writes.
const FILES: [(&str, &str); 6] = [
    (
        "*.rules",
        "Rulesets, checked by check, played by play, run and sim; a variant names its parent \
         with extends, and reads .rules and .rhai files only in its own folder tree.",
    ),
    (
        "*.rhai",
        "House rules written in rhai, and bots (script:FILE.rhai).",
    ),
    (
        "~/.local/state/ninety/history",
        "The lines typed at play (see XDG_STATE_HOME).",
    ),
    (
        "~/.cache/ninety/VERSION/",
        "The shipped rulesets as the language server writes them (see XDG_CACHE_HOME).",
    ),
    (
        "FILE (save FILE, play --load FILE)",
        "A saved game: JSON, checked whole before it is loaded; its ruleset is a shipped one \
         or a .rules file in the save's folder tree.",
    ),
    (
        "ninety-tables.db (serve --db FILE)",
        "The tables serve keeps (SQLite): every move, each table's seed and seats' tokens.",
    ),
];

/// Examples of one command, or of ninety.
fn examples(command: Option<&str>) -> Vec<(&'static str, &'static str)> {
    match command {
        None => vec![
            (
                "ninety play",
                "Ninety-Nine at the terminal against two bots.",
            ),
            ("ninety check rulesets/", "Check every ruleset of a folder."),
            (
                "ninety sim ninety-nine ninety-nine-quick --games 20000 --report ab.html",
                "Two rulesets on the same deals, with a page of charts.",
            ),
            (
                "source <(ninety completions bash)",
                "Complete ninety's command line in bash.",
            ),
        ],
        Some("check") => vec![
            (
                "ninety check house.rules",
                "Check a ruleset and run its scenarios.",
            ),
            (
                "ninety check rulesets/ --deny-warnings",
                "Every ruleset of a folder; a warning fails too.",
            ),
            (
                "ninety check --format json house.rules",
                "One JSON object a line, for an editor or a script.",
            ),
        ],
        Some("run") => vec![
            (
                "ninety run ninety-nine --players 3 --hands \"AS 2H 3D | KC 4S 9D | 5C 6C 7C\" --total 90 --turn 0 --moves \"AS:1; 9D\"",
                "Replay a position from a real table.",
            ),
            (
                "ninety run ninety-nine --seed 3 --bots --json",
                "A whole game by bots, one JSON object an event.",
            ),
        ],
        Some("play") => vec![
            ("ninety play", "Ninety-Nine against two bots."),
            (
                "ninety play 33-66-99 --humans 2",
                "Two people at one keyboard and a bot (hot-seat).",
            ),
            (
                "ninety play --seed 42 --set chips=5",
                "The game of seed 42, with five chips each.",
            ),
            ("ninety play --load game.json", "Play on a saved game."),
        ],
        Some("sim") => vec![
            (
                "ninety sim ninety-nine --games 20000 --bots cautious,random,aggressive",
                "Who wins, how long games last and why chips are lost.",
            ),
            (
                "ninety sim ninety-nine ninety-nine-king-swap --json",
                "Two rulesets on the same deals; each difference with its interval, test and \
                 verdict.",
            ),
            (
                "ninety sim ninety-nine --sweep chips=2,3,5 --report sweep.html",
                "One option over several values, with a page of charts.",
            ),
            (
                "ninety sim ninety-nine --games 1000000 --shard 3/8 --json > part-3.json; ninety sim --merge part-*.json",
                "A run in slices, merged into the whole run's report.",
            ),
        ],
        Some("judge") => vec![
            (
                "ninety judge ninety-nine --games 20000",
                "Whether the game is fair, ends, gives choices and who sits out, each with its \
                 interval; what each rule does.",
            ),
            (
                "ninety judge ninety-nine ninety-nine-head-start --json",
                "Two rulesets on the same deals; every measure's difference and verdict.",
            ),
        ],
        Some("tune") => vec![
            (
                "ninety tune ninety-nine --vary chips=1..6 --target fair --target minutes=15..30",
                "Which numbers of chips make the game fair and 15 to 30 minutes long.",
            ),
            (
                "ninety tune ninety-eight --vary threshold=90..99 --vary lives=1..10 --target fair --shard 2/4 --json > part-2.json; ninety tune --merge part-*.json",
                "Two options searched in slices, merged into the whole run's report.",
            ),
        ],
        Some("serve") => vec![
            (
                "ninety serve",
                "A server on this machine (http://127.0.0.1:9999/), its tables kept in \
                 ninety-tables.db.",
            ),
            (
                "ninety serve --listen 0.0.0.0 --port 8080 --away 120",
                "Friends on other machines play at http://THIS-MACHINE:8080/; a player gone two \
                 minutes is played by a bot until they come back.",
            ),
        ],
        Some("join") => vec![
            (
                "ninety join http://127.0.0.1:9999/t/3",
                "Takes a free seat at table 3 and plays it at the terminal.",
            ),
            (
                "ninety join http://127.0.0.1:9999/t/3#TOKEN",
                "Comes back to one's seat (the token is printed on sitting down).",
            ),
        ],
        Some("list") => vec![("ninety list", "The shipped rulesets, a line each.")],
        Some("rules") => vec![
            (
                "ninety rules ring-of-99 --set cap=299",
                "The rules sheet, with an option's value.",
            ),
            (
                "ninety rules house.rules --format md > RULES.md",
                "The sheet in Markdown.",
            ),
            (
                "ninety rules house.rules --format rules",
                "The ruleset as one standalone file, its parents merged in.",
            ),
        ],
        Some("lsp") => vec![(
            "ninety lsp",
            "Started by an editor (docs/editors.md), on standard input and output.",
        )],
        Some("completions") => vec![
            ("source <(ninety completions bash)", "In ~/.bashrc."),
            ("source <(ninety completions zsh)", "In ~/.zshrc."),
            (
                "ninety completions fish > ~/.config/fish/completions/ninety.fish",
                "For fish.",
            ),
        ],
        Some(_) => vec![
            ("ninety man | man -l -", "Read ninety's page."),
            ("ninety man sim | man -l -", "Read the page of one command."),
        ],
    }
}

/// The sections clap does not write.
fn manual_sections(command: Option<&str>) -> String {
    let mut s = tagged("\"EXIT STATUS\"", &exit_status(command), true);
    s.push_str(&tagged("ENVIRONMENT", &ENVIRONMENT, true));
    s.push_str(&tagged("FILES", &FILES, false));
    s.push_str(&tagged("EXAMPLES", &examples(command), true));
    if command.is_some() {
        s.push_str(".SH \"SEE ALSO\"\n\\fBninety\\fR(1)\n");
    }
    s
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
                "easy",
                "normal",
                "hard",
                "random",
                "cautious",
                "aggressive",
                "search",
                "ismcts",
                "script:"
            ]
        );
        assert!(values(bots(OsStr::new("script:/nowhere/x"))).is_empty());
        // A level offered with its bot beside it, and a bot with its level.
        let help = |typed: &str| -> Vec<String> {
            bots(OsStr::new(typed))
                .iter()
                .map(|c| c.get_help().map(|h| h.to_string()).unwrap_or_default())
                .collect()
        };
        assert_eq!(values(bots(OsStr::new("h"))), ["hard"]);
        assert_eq!(help("h"), ["the ismcts bot"]);
        assert_eq!(help("ra"), ["level easy"]);
        assert_eq!(help("ag"), [""]);
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
