//! Every diagnostic code, in one place: its stable name (shown as `ninety::NAME` and in
//! `check --format json`) and what it is about. A new diagnostic adds a line here.

macro_rules! codes {
    ($($variant:ident = $name:literal: $about:literal,)*) => {
        /// A diagnostic's kind.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $(#[doc = $about] $variant,)*
        }

        impl Code {
            /// Every code, in the order of this file.
            pub const ALL: &[Code] = &[$(Code::$variant,)*];

            /// The stable name: `unknown-rank`.
            pub fn name(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                }
            }

            /// What the diagnostic is about, in a line.
            pub fn about(self) -> &'static str {
                match self {
                    $(Code::$variant => $about,)*
                }
            }
        }
    };
}

codes! {
    // Reading the file.
    NotText = "not-text": "the file is not a text ruleset (binary, not UTF-8, or far too big)",
    EmptyFile = "empty-file": "the ruleset holds no statement",
    Syntax = "syntax": "a line cannot be read",
    UnknownKeyword = "unknown-keyword": "a line starts with a word no statement starts with",
    StrayEnd = "stray-end": "`end` closes nothing",
    UnclosedText = "unclosed-text": "text in quotes is never closed",
    UnclosedScenario = "unclosed-scenario": "a scenario block is never closed",
    UnclosedScript = "unclosed-script": "a script block is never closed",
    BadNumber = "bad-number": "a number is too big, written in words, or makes no sense here",
    LongLine = "long-line": "a line is longer, or lists more values, than a ruleset line may",
    TooMany = "too-many": "a file holds more lines, statements or scenarios than allowed",
    // The chain of files.
    ExtendsTwice = "extends-twice": "a ruleset extends more than one other",
    ExtendsCycle = "extends-cycle": "rulesets extend each other in a circle",
    MissingParent = "missing-parent": "the ruleset an `extends` names cannot be found",
    MissingScript = "missing-script": "a `script file` cannot be read",
    FileOutside = "file-outside": "an `extends` or `script file` names a file outside the ruleset's folder",
    ExtendsDepth = "extends-depth": "a chain of `extends` is longer than allowed",
    // Options.
    OptionTwice = "option-twice": "an option is declared twice in one file",
    OptionName = "option-name": "an option is named like a keyword",
    OptionRange = "option-range": "an option's range is empty",
    OptionDefault = "option-default": "an option's default is not one of its values",
    OptionValue = "option-value": "a value given for an option is not allowed",
    UnknownOption = "unknown-option": "a value is given for an option the ruleset does not declare",
    UndeclaredOption = "undeclared-option": "an option is used but never declared",
    UnusedOption = "unused-option": "an option is declared but never used",
    DeadOption = "dead-option": "a variant's line leaves a parent's option unused, or a value is given for an unused option",
    // Settings.
    SaidTwice = "said-twice": "a setting is said twice in one file",
    NoPlayers = "no-players": "the ruleset never says how many players play",
    FewPlayers = "few-players": "fewer than 2 players",
    EmptyPlayers = "empty-players": "the range of players is empty",
    ManyPlayers = "many-players": "more players than one table seats",
    NoHand = "no-hand": "the ruleset never says how many cards a hand holds",
    OutOfRange = "out-of-range": "a number of decks or cards is out of range",
    Jokers = "jokers": "a deck holds more jokers than it can",
    DeckTooSmall = "deck-too-small": "the deck cannot deal every hand",
    NoChips = "no-chips": "the ruleset never says how many chips players start with",
    FewChips = "few-chips": "players start with no chips",
    LimitsCrossed = "limits-crossed": "the upper limit is below the lower one",
    StartAboveLimit = "start-above-limit": "the total starts above its upper limit",
    StartBelowLimit = "start-below-limit": "the total starts below its lower limit",
    Teams = "teams": "a team of fewer than 2",
    TeamsAlone = "teams-alone": "a team would have no opponents",
    TeamsUneven = "teams-uneven": "players cannot sit in teams of that size",
    Rounds = "rounds": "a way the game ends that cannot be: fewer than 1 round, a number of players or chips the table has from the start",
    WinnerRule = "winner-rule": "the game can end with several players left, and the winner line names the last one",
    DealerSeat = "dealer-seat": "the first dealer's seat does not exist",
    DealerLeads = "dealer-leads": "the dealer leads each round (unusual)",
    // Counts the table keeps, and amounts from the table.
    UnknownCount = "unknown-count": "a count the ruleset does not keep, or named without saying whose",
    CountTwice = "count-twice": "a count declared twice, or named like something the table keeps",
    UnusedCount = "unused-count": "a count is kept but nothing reads it",
    FixedAmount = "fixed-amount": "an amount from the table where a number is needed, or another player's count where only the player's own is read",
    // Cards.
    UnknownRank = "unknown-rank": "a word that is not a card rank",
    RankRange = "rank-range": "a range of ranks names no card",
    RankNoValue = "rank-no-value": "a rank has no effect",
    CardConflict = "card-conflict": "a card has two different effects",
    CardTwice = "card-twice": "a card is defined twice the same way",
    NeverApplies = "never-applies": "a line applies to no player count the ruleset allows",
    NoGeneralEffect = "no-general-effect": "a card has an effect only for some player counts",
    ManyChoices = "many-choices": "a card offers too many choices",
    ManySteps = "many-steps": "a choice does too many things",
    OneOptionChoice = "one-option-choice": "both sides of a choice do the same",
    LabelTwice = "label-twice": "two choices share a label",
    PaysSelf = "pays-self": "a player pays themselves",
    CardMove = "card-move": "a card moved between hands names several players at once, the player themselves, or not how the card is picked",
    OtherMove = "other-move": "a move beside laying a card that is said twice, names no card, or cannot be made",
    ChosenPlayer = "chosen-player": "`a player of their choice` where no card is laid to name them",
    Ambiguous = "ambiguous": "a line that could be read two ways",
    Role = "role": "`the next player` or `the previous player` where the cards' skips and extra turns make it unclear who that is",
    RepeatedEffect = "repeated-effect": "an effect said twice in one choice",
    NeverPlayable = "never-playable": "a card that can never be played under the limits",
    // Bars, moments and the end.
    BarTwice = "bar-twice": "what happens at a bar is said twice",
    BarAboveLimit = "bar-above-limit": "a bar lies beyond the limit",
    BarUnreachable = "bar-unreachable": "no card ever gets to a bar",
    BarWay = "bar-way": "a card can come down onto or across a bar whose line does not say which way it counts",
    WhenTwice = "when-twice": "a moment has two rules in one file",
    NoBustRule = "no-bust-rule": "a player can be stuck, and the rules do not say what then",
    NeverEnds = "never-ends": "the game cannot end: no rule can cost a chip, or a game played while checking did not end",
    NoWinner = "no-winner": "a game played while checking ended with no winner",
    HalfRemoved = "half-removed": "a variant removes what happens on reaching a bar, or on passing it, but not the other",
    RoundEnd = "round-end": "a variant's line replaces one that ended the round, and does not end it",
    NeverFired = "never-fired": "a card line, bar or moment that no game played while checking made happen",
    CannotHappen = "cannot-happen": "a rule the game can never make happen, whatever is dealt or played",
    // Variants.
    SameAsParent = "same-as-parent": "a variant's line says what its parent already says",
    NothingToRemove = "nothing-to-remove": "a `no ...` line names nothing the parents have",
    NothingToKeep = "nothing-to-keep": "a `keep the bars at ...` line names a bar the parents do not have",
    BarsKept = "bars-kept": "a variant adds bars of its own and does not say whether its parents' bars still count",
    Stuck = "stuck": "no card can ever be played: every round would pass with nobody playing",
    // Scripts.
    ScriptSyntax = "script-syntax": "a script does not compile",
    NoScripts = "no-scripts": "a script function is named but the ruleset has no scripts",
    ScriptArity = "script-arity": "a script function takes the wrong arguments",
    UnknownScript = "unknown-script": "no script defines a function",
    ScriptTestLive = "script-test-live": "a script test reads more than the total and the card",
    ScriptWindow = "script-window": "a script test cannot be worked out for every total the limits allow",
    ScriptFails = "script-fails": "a script fails when tried",
    // Scenarios.
    BadCard = "bad-card": "a scenario names something that is not a card",
    ScenarioPosition = "scenario-position": "a scenario's position cannot be set up",
    ScenarioFailed = "scenario-failed": "a scenario's expectation does not hold",
    ScenarioIdle = "scenario-idle": "a scenario's expectations hold before its moves too: it tests nothing they do",
    // About the check itself.
    MoreProblems = "more-problems": "more diagnostics than are shown for one file",
    Unreadable = "unreadable": "the file cannot be read at all",
    // Never a ruleset's fault.
    Internal = "internal": "the compiled form failed its verification: a bug in ninety",
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_kebab_case() {
        let mut names: Vec<&str> = Code::ALL.iter().map(|c| c.name()).collect();
        assert!(
            names
                .iter()
                .all(|n| n.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
        );
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(names.len(), before);
    }
}
