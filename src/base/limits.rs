//! Every limit on what a file can make ninety do, in one place: what a shared ruleset, script,
//! saved game or simulation shard may cost in memory, time and output. `SECURITY.md` states
//! each one with its value (a test keeps the two in step), and the mechanisms import them
//! from here.

/// The largest ruleset file read, in bytes: a rules file is a page of text.
pub const RULESET_BYTES: usize = 256 * 1024;
/// The largest `.rhai` file read (a `script file` or a bot), in bytes.
pub const SCRIPT_FILE_BYTES: usize = 256 * 1024;
/// The longest line of a ruleset, in bytes.
pub const LINE_BYTES: usize = 4 * 1024;
/// The most lines in a ruleset file.
pub const LINES: usize = 10_000;
/// The most statements in a ruleset file.
pub const STATEMENTS: usize = 5_000;
/// The most values one line may list (`card A, 2, 3`, `on reaching 33 or 66`).
pub const VALUES_PER_LINE: usize = 64;
/// The most rulesets in an `extends` chain, the ruleset itself included.
pub const EXTENDS_DEPTH: usize = 16;
/// The most bars (`on reaching`, `on passing`) in a ruleset, its parents' included.
pub const BARS: usize = 256;
/// The most scenarios in a ruleset file.
pub const SCENARIOS: usize = 100;
/// The most diagnostics shown for one file; the rest are counted in one last diagnostic.
pub const DIAGS_PER_FILE: usize = 100;
/// The most characters of a line a diagnostic quotes (a window around the place it points at).
pub const QUOTE_CHARS: usize = 120;
/// The most lines of one place a diagnostic quotes.
pub const QUOTE_LINES: usize = 20;
/// The most events of a scenario's game a failed scenario's hint tells (the last ones).
pub const TRACE_EVENTS: usize = 16;
/// The most totals the checker's reachability analysis explores, nearest the start first.
pub const REACH_TOTALS: usize = 20_000;
/// The most totals a script is tried on (and tabulated over) when a ruleset is checked.
pub const SCRIPT_WINDOW: usize = 2_001;
/// The largest number a ruleset may write (and a script may make the total).
pub const NUMBER: i64 = 1_000_000;

/// The most work one script call may do, in operations: rhai's own, and one more for every
/// [`SCRIPT_ITEMS_AN_OPERATION`] items a variable it reads holds. Counted, never timed, so a
/// seed gives one game on any machine under any load.
pub const SCRIPT_OPERATIONS: u64 = 200_000;
/// How many items (array items, map entries, characters of strings and map keys, nested ones
/// included) reading a variable may hold for each operation it costs: copying or sorting a
/// big value is work in proportion to its size.
pub const SCRIPT_ITEMS_AN_OPERATION: u64 = 32;
/// The most work all the script calls of one game may do, in operations, the ruleset's
/// scripts and each script bot apart (a check's scenarios share one such allowance).
pub const SCRIPT_GAME_OPERATIONS: u64 = 20_000_000;
/// The most work all the script calls of one `check` of a ruleset may do while it is
/// compiled (its scripts tried over the totals of a game), in operations.
pub const SCRIPT_CHECK_OPERATIONS: u64 = 20_000_000;
/// The most work all the script calls of the games one `check` plays (its dry run) may do
/// together, in operations: as much as one game may, so a ruleset whose first game spends it
/// fails in play too, and a check never plays more than one game's worth of script work.
pub const SCRIPT_DRY_RUN_OPERATIONS: u64 = SCRIPT_GAME_OPERATIONS;
/// The deepest script calls may nest.
pub const SCRIPT_CALL_LEVELS: usize = 32;
/// The longest string a script may build, in bytes; a value's strings and map keys together
/// (nested ones included) count against it too.
pub const SCRIPT_STRING: usize = 10_000;
/// The most items an array may hold, nested arrays' items included.
pub const SCRIPT_ARRAY: usize = 10_000;
/// The most entries a map may hold, nested maps' entries included.
pub const SCRIPT_MAP: usize = 1_000;
/// The most variables alive at once in one script call.
pub const SCRIPT_VARIABLES: usize = 256;
/// The most functions the scripts of one ruleset (or one bot) may define.
pub const SCRIPT_FUNCTIONS: usize = 256;
/// The most bytes of script a ruleset's chain may compile in all: its inline scripts and its
/// script files, each time one is named.
pub const SCRIPT_BYTES: usize = 1 << 20;
/// The last-resort guard: a script call still running after this many milliseconds of the
/// machine's time (its operations should take a small part of it) stops the command with an
/// error, never with another result.
pub const SCRIPT_GUARD_MS: u64 = 10_000;
/// The stack a script call runs on, in bytes (reserved, used only as deep as a call goes):
/// enough for the deepest value the size limits allow.
pub const SCRIPT_STACK_BYTES: usize = 256 << 20;
/// The most memory the memo of live script answers may hold, in bytes.
pub const MEMO_BYTES: usize = 8 << 20;

/// The most cards a game may see played before it is stopped as never-ending.
pub const TURN_LIMIT: u64 = 100_000;
/// The most rounds in a row that may end without a card played before a game is stopped as
/// unable to go on.
pub const IDLE_ROUNDS: u32 = 100;
/// The most times the step function may go round without a card played, whatever the
/// reason: a bound no game comes near.
pub const IDLE_STEPS: u64 = 1 << 20;

/// The most games `check` plays to see that a ruleset's games end (its dry run).
pub const DRY_GAMES: u64 = 200;
/// The most cards all the games of one dry run may play: counted work, so the verdict is the
/// same on any machine.
pub const DRY_TURNS: u64 = 60_000;
/// The most cards one game of the dry run may play before it is called endless.
pub const DRY_GAME_TURNS: u64 = 5_000;

/// Values of an option `judge --sweep` judges side by side: each is a whole judge run.
pub const SWEEP_VALUES: usize = 20;
/// Tables `tune` searches (its options' values times its player counts): each is raced.
pub const TUNE_TABLES: usize = 400;
/// Targets one `tune` run reads.
pub const TUNE_TARGETS: usize = 16;

/// The most iterations the strong bot (`ismcts:N`) may be given a move.
pub const BOT_ITERATIONS: u32 = 1_000_000;
/// The most cards one of the strong bot's play-outs plays before it is scored as it stands.
pub const BOT_PLAYOUT_CARDS: u64 = 400;

/// The largest saved game read, in bytes.
pub const SAVE_BYTES: usize = 8 << 20;
/// The longest name of a seat in a saved game, in characters.
pub const SEAT_NAME_CHARS: usize = 40;
/// The most lines of a game's history kept (and saved).
pub const LOG_LINES: usize = 10_000;
/// The longest line of a game's history, in characters.
pub const LOG_LINE_CHARS: usize = 1_000;
/// The most option values a saved game may give.
pub const SAVE_SETS: usize = 64;
/// The longest line typed at the game's prompt, in bytes.
pub const INPUT_LINE_BYTES: usize = 4 * 1024;
/// The most bytes of an over-long input line skipped looking for its end.
pub const INPUT_SKIP_BYTES: usize = 16 << 20;
/// The largest `--moves-file`, in bytes.
pub const MOVES_FILE_BYTES: usize = 1 << 20;
/// The largest shard file `sim --merge` reads, in bytes.
pub const SHARD_BYTES: usize = 4 << 20;

/// The longest header line of a language-server message, in bytes.
pub const LSP_HEADER_BYTES: usize = 4 * 1024;
/// The largest language-server message read, in bytes; a bigger one is skipped. A ruleset's
/// whole text, every byte escaped in JSON, fits.
pub const LSP_MESSAGE_BYTES: usize = 2 << 20;
/// The most documents the language server holds open at once.
pub const LSP_DOCUMENTS: usize = 64;
/// The most edits one change of a document may carry.
pub const LSP_EDITS: usize = 1_000;

/// The largest message a client of `ninety serve` may send, in bytes: a ruleset's whole
/// text, every byte escaped in JSON, fits. A bigger one closes the connection.
pub const SERVE_MESSAGE_BYTES: usize = 2 << 20;
/// The most messages one connection may send that play no move, in a row (a move played
/// starts the count again): a flood of joins, refusals or nonsense is counted, never timed.
/// The connection is told why, then closed.
pub const SERVE_IDLE_MESSAGES: usize = 64;
/// The most messages waiting to be sent to one connection; a client that reads none of them
/// is dropped from its table (its seat waits for it).
pub const SERVE_QUEUE: usize = 256;
/// The most bytes waiting to be sent to one connection, whatever their count: a client that
/// asks for big answers (replays) and reads none is dropped as one whose queue is full.
pub const SERVE_QUEUE_BYTES: usize = 2 << 20;
/// The most connections a server holds at once.
pub const SERVE_CONNECTIONS: usize = 4_096;
/// The most connections at one table (players and spectators).
pub const SERVE_WATCHERS: usize = 64;
/// The most tables one connection may open.
pub const SERVE_TABLES_OPENED: usize = 16;
/// The most tables a server plays at once (finished ones not counted).
pub const SERVE_TABLES: usize = 10_000;
/// The most steps a replay of a game sends (its first ones).
pub const SERVE_REPLAY_STEPS: usize = 2_000;
/// The most bytes of steps a replay sends (its first ones): a replay fits in a connection's
/// queue ([`SERVE_QUEUE_BYTES`]).
pub const SERVE_REPLAY_BYTES: usize = 1 << 20;

/// Every limit above by name, with its value in the words `SECURITY.md` uses.
pub const ALL: &[(&str, u64)] = &[
    ("RULESET_BYTES", RULESET_BYTES as u64),
    ("SCRIPT_FILE_BYTES", SCRIPT_FILE_BYTES as u64),
    ("LINE_BYTES", LINE_BYTES as u64),
    ("LINES", LINES as u64),
    ("STATEMENTS", STATEMENTS as u64),
    ("VALUES_PER_LINE", VALUES_PER_LINE as u64),
    ("EXTENDS_DEPTH", EXTENDS_DEPTH as u64),
    ("BARS", BARS as u64),
    ("SCENARIOS", SCENARIOS as u64),
    ("DIAGS_PER_FILE", DIAGS_PER_FILE as u64),
    ("QUOTE_CHARS", QUOTE_CHARS as u64),
    ("QUOTE_LINES", QUOTE_LINES as u64),
    ("TRACE_EVENTS", TRACE_EVENTS as u64),
    ("REACH_TOTALS", REACH_TOTALS as u64),
    ("SCRIPT_WINDOW", SCRIPT_WINDOW as u64),
    ("NUMBER", NUMBER as u64),
    ("SCRIPT_OPERATIONS", SCRIPT_OPERATIONS),
    ("SCRIPT_ITEMS_AN_OPERATION", SCRIPT_ITEMS_AN_OPERATION),
    ("SCRIPT_GAME_OPERATIONS", SCRIPT_GAME_OPERATIONS),
    ("SCRIPT_CHECK_OPERATIONS", SCRIPT_CHECK_OPERATIONS),
    ("SCRIPT_DRY_RUN_OPERATIONS", SCRIPT_DRY_RUN_OPERATIONS),
    ("SCRIPT_CALL_LEVELS", SCRIPT_CALL_LEVELS as u64),
    ("SCRIPT_STRING", SCRIPT_STRING as u64),
    ("SCRIPT_ARRAY", SCRIPT_ARRAY as u64),
    ("SCRIPT_MAP", SCRIPT_MAP as u64),
    ("SCRIPT_VARIABLES", SCRIPT_VARIABLES as u64),
    ("SCRIPT_FUNCTIONS", SCRIPT_FUNCTIONS as u64),
    ("SCRIPT_BYTES", SCRIPT_BYTES as u64),
    ("SCRIPT_GUARD_MS", SCRIPT_GUARD_MS),
    ("SCRIPT_STACK_BYTES", SCRIPT_STACK_BYTES as u64),
    ("MEMO_BYTES", MEMO_BYTES as u64),
    ("TURN_LIMIT", TURN_LIMIT),
    ("IDLE_ROUNDS", IDLE_ROUNDS as u64),
    ("IDLE_STEPS", IDLE_STEPS),
    ("DRY_GAMES", DRY_GAMES),
    ("DRY_TURNS", DRY_TURNS),
    ("DRY_GAME_TURNS", DRY_GAME_TURNS),
    ("SWEEP_VALUES", SWEEP_VALUES as u64),
    ("TUNE_TABLES", TUNE_TABLES as u64),
    ("TUNE_TARGETS", TUNE_TARGETS as u64),
    ("BOT_ITERATIONS", BOT_ITERATIONS as u64),
    ("BOT_PLAYOUT_CARDS", BOT_PLAYOUT_CARDS),
    ("SAVE_BYTES", SAVE_BYTES as u64),
    ("SEAT_NAME_CHARS", SEAT_NAME_CHARS as u64),
    ("LOG_LINES", LOG_LINES as u64),
    ("LOG_LINE_CHARS", LOG_LINE_CHARS as u64),
    ("SAVE_SETS", SAVE_SETS as u64),
    ("INPUT_LINE_BYTES", INPUT_LINE_BYTES as u64),
    ("INPUT_SKIP_BYTES", INPUT_SKIP_BYTES as u64),
    ("MOVES_FILE_BYTES", MOVES_FILE_BYTES as u64),
    ("SHARD_BYTES", SHARD_BYTES as u64),
    ("LSP_HEADER_BYTES", LSP_HEADER_BYTES as u64),
    ("LSP_MESSAGE_BYTES", LSP_MESSAGE_BYTES as u64),
    ("LSP_DOCUMENTS", LSP_DOCUMENTS as u64),
    ("LSP_EDITS", LSP_EDITS as u64),
    ("SERVE_MESSAGE_BYTES", SERVE_MESSAGE_BYTES as u64),
    ("SERVE_IDLE_MESSAGES", SERVE_IDLE_MESSAGES as u64),
    ("SERVE_QUEUE", SERVE_QUEUE as u64),
    ("SERVE_QUEUE_BYTES", SERVE_QUEUE_BYTES as u64),
    ("SERVE_CONNECTIONS", SERVE_CONNECTIONS as u64),
    ("SERVE_WATCHERS", SERVE_WATCHERS as u64),
    ("SERVE_TABLES_OPENED", SERVE_TABLES_OPENED as u64),
    ("SERVE_TABLES", SERVE_TABLES as u64),
    ("SERVE_REPLAY_STEPS", SERVE_REPLAY_STEPS as u64),
    ("SERVE_REPLAY_BYTES", SERVE_REPLAY_BYTES as u64),
];

/// `262,144`: a number with thousands separators, as `SECURITY.md` and messages write it.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1_000), "1,000");
        assert_eq!(grouped(262_144), "262,144");
        assert_eq!(grouped(268_435_456), "268,435,456");
    }

    #[test]
    fn every_limit_is_listed_once() {
        let mut names: Vec<&str> = ALL.iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(before, names.len());
    }
}
