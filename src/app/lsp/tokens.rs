//! Semantic tokens: the colours of a ruleset, for editors that do not read the TextMate
//! grammar (Neovim, Helix) and over it in VS Code. What a piece is comes from the parsed file:
//! the words of a line that parsed are the grammar's keywords, save those the tree names
//! (card ranks and cards, declared options and counts, script functions, scenario names, the
//! parent);
//! a line that did not parse shows only its comment and strings. Full answers and deltas.

use lsp_types::{
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens, SemanticTokensDelta,
    SemanticTokensEdit, SemanticTokensLegend,
};

use super::documents::Document;
use super::layout::{self, Role};
use super::lexer::{self, Kind};
use crate::base::Span;
use crate::lang::ast::{
    Action, Body, BranchBody, Change, Choice, Condition, Effect, Ending, Expectation, File,
    Holding, Outcome, OutcomeKind, Quantity, Removal, RoundEnd, ScenarioStep, SeatCount,
    StatementKind, Step, TableCount, Test, Value, WinnerRule,
};

/// The token types, in the legend's order (a token's type is its index here).
pub const TYPES: [&str; 8] = [
    "keyword",
    "number",
    "enumMember",
    "variable",
    "function",
    "string",
    "comment",
    "namespace",
];

/// The modifiers: `declaration` (an option's `option NAME =`, a count's `count NAME`, a
/// scenario's name).
pub const MODIFIERS: [&str; 1] = ["declaration"];

const KEYWORD: u32 = 0;
const NUMBER: u32 = 1;
const RANK: u32 = 2;
const OPTION: u32 = 3;
/// A count the table keeps (`count points`, `the player's points`): a variable, as an option.
const COUNT: u32 = 3;
const FUNCTION: u32 = 4;
const STRING: u32 = 5;
const COMMENT: u32 = 6;
const PARENT: u32 = 7;
const DECLARATION: u32 = 1;

/// The legend sent in `initialize`.
pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TYPES.iter().map(|t| SemanticTokenType::new(t)).collect(),
        token_modifiers: MODIFIERS
            .iter()
            .map(|m| SemanticTokenModifier::new(m))
            .collect(),
    }
}

/// A token by bytes of the text: where, its type and its modifiers.
type Mark = (Span, u32, u32);

/// Every token of a document, as the protocol encodes them (relative lines and UTF-16
/// columns).
pub fn tokens(doc: &Document) -> Vec<SemanticToken> {
    let Some(file) = doc.file() else {
        return Vec::new();
    };
    let text = doc.text.as_str();
    let roles = layout::roles(file, text, &doc.lines);
    let mut named = named(file, text);
    named.sort_by_key(|m| (m.0.start, m.0.end));
    let mut marks: Vec<Mark> = Vec::new();
    for (line, role) in roles.iter().enumerate() {
        if *role == Role::Script {
            continue;
        }
        let span = doc.lines.line_span(text, line);
        let Some(line_text) = text.get(span.start..span.end) else {
            continue;
        };
        for piece in lexer::pieces(line_text, span.start) {
            let before = named.partition_point(|m| m.0.start <= piece.span.start);
            if let Some(mark) = before
                .checked_sub(1)
                .map(|i| named[i])
                .filter(|m| inside(piece.span, m.0))
            {
                if marks.last().map(|m| m.0) != Some(mark.0) {
                    marks.push(mark);
                }
                continue;
            }
            let ty = match (piece.kind, role.parsed()) {
                (Kind::Comment, _) => COMMENT,
                (Kind::Str, _) => STRING,
                (Kind::Word, true) => KEYWORD,
                (Kind::Number, true) => NUMBER,
                (Kind::OptionRef, true) => OPTION,
                _ => continue,
            };
            marks.push((piece.span, ty, 0));
        }
    }
    encode(doc, marks)
}

fn inside(piece: Span, mark: Span) -> bool {
    mark.start <= piece.start && piece.end <= mark.end
}

/// The pieces the tree names: each with its token type.
fn named(file: &File, text: &str) -> Vec<Mark> {
    let mut out: Vec<Mark> = Vec::new();
    for st in &file.statements {
        match &st.kind {
            StatementKind::Option { name, .. } => out.push((name.span, OPTION, DECLARATION)),
            StatementKind::Extends(name) => out.push((name.span, PARENT, 0)),
            StatementKind::Card { ranks, effect, .. } => {
                ranks_of(ranks, &mut out);
                effect_names(effect, &mut out);
            }
            StatementKind::ScriptBar { name, outcomes } => {
                out.push((name.span, FUNCTION, 0));
                outcomes.iter().for_each(|o| outcome_names(o, &mut out));
            }
            StatementKind::Remove(Removal::Option(name)) => out.push((name.span, OPTION, 0)),
            StatementKind::Remove(Removal::Card { ranks, .. }) => ranks_of(ranks, &mut out),
            StatementKind::Count { name, .. } => out.push((name.span, COUNT, DECLARATION)),
            StatementKind::Bar { outcomes, .. } => {
                outcomes.iter().for_each(|o| outcome_names(o, &mut out));
            }
            StatementKind::Moment {
                condition,
                outcomes,
                ..
            }
            | StatementKind::When {
                condition,
                outcomes,
                ..
            } => {
                if let Some(c) = condition {
                    condition_names(c, &mut out);
                }
                outcomes.iter().for_each(|o| outcome_names(o, &mut out));
            }
            StatementKind::RoundEnds(RoundEnd::When(c)) => condition_names(c, &mut out),
            StatementKind::Other {
                action,
                then,
                failed,
                ..
            } => {
                if let crate::lang::ast::OtherAction::Discard(Some(ranks)) = &action.node {
                    ranks_of(ranks, &mut out);
                }
                let failed = failed.iter().flat_map(|(_, list)| list);
                then.iter()
                    .chain(failed)
                    .for_each(|o| outcome_names(o, &mut out));
            }
            StatementKind::Limit { value, .. } => value_names(value, &mut out),
            StatementKind::GameEnd(endings) => {
                for e in endings {
                    if let Ending::Reach(_, h) | Ending::Fall(_, h) = e {
                        holding_names(h, &mut out);
                    }
                }
            }
            StatementKind::Winner(WinnerRule::Most(h) | WinnerRule::Fewest(h))
            | StatementKind::Leader {
                by: Some((h, _)), ..
            } => holding_names(h, &mut out),
            _ => {}
        }
    }
    for sc in &file.scenarios {
        out.push((sc.name.span, FUNCTION, DECLARATION));
        for step in &sc.steps {
            let cards: Vec<Span> = match &step.node {
                ScenarioStep::Hand(_, cards)
                | ScenarioStep::Stock(cards, _)
                | ScenarioStep::Discard(cards)
                | ScenarioStep::NextDeal(cards) => cards.iter().map(|c| c.span).collect(),
                ScenarioStep::Expect(Expectation::Holds(_, cards)) => {
                    cards.iter().map(|c| c.span).collect()
                }
                ScenarioStep::Play(c)
                | ScenarioStep::Expect(Expectation::Illegal(c) | Expectation::Legal(c)) => {
                    vec![c.span]
                }
                ScenarioStep::Set(name, _) => {
                    out.extend(set_name(text, step.span, name).map(|s| (s, OPTION, 0)));
                    Vec::new()
                }
                ScenarioStep::Count(name, _)
                | ScenarioStep::Expect(Expectation::Count(name, _)) => {
                    out.push((name.span, COUNT, 0));
                    Vec::new()
                }
                _ => Vec::new(),
            };
            out.extend(cards.into_iter().map(|s| (s, RANK, 0)));
        }
    }
    out
}

/// The name in a scenario's `set NAME = 3`: the first word after the step's first that is
/// the name.
pub fn set_name(text: &str, step: Span, name: &str) -> Option<Span> {
    let words = lexer::pieces(text.get(step.start..step.end)?, step.start);
    words
        .into_iter()
        .skip(1)
        .find(|p| p.kind == Kind::Word && text.get(p.span.start..p.span.end) == Some(name))
        .map(|p| p.span)
}

fn ranks_of(ranks: &[crate::lang::ast::RankItem], out: &mut Vec<Mark>) {
    for item in ranks {
        for w in std::iter::once(&item.from).chain(&item.to) {
            out.push((w.span, RANK, 0));
        }
    }
}

/// The script functions and ranks an effect names (`run swap`, `if script lucky`, `if the
/// previous card is a King`).
fn effect_names(effect: &Effect, out: &mut Vec<Mark>) {
    for choice in &effect.choices {
        choice_names(choice, out);
    }
}

fn choice_names(choice: &Choice, out: &mut Vec<Mark>) {
    match &choice.body {
        Body::Steps(steps) => steps.iter().for_each(|s| step_names(s, out)),
        Body::Branches(branches) => {
            for b in branches {
                if let Some(c) = &b.condition {
                    condition_names(c, out);
                }
                match &b.body {
                    BranchBody::Steps(steps) => steps.iter().for_each(|s| step_names(s, out)),
                    BranchBody::Either(choices) => {
                        choices.iter().for_each(|c| choice_names(c, out));
                    }
                }
            }
        }
    }
}

fn step_names(step: &Step, out: &mut Vec<Mark>) {
    for action in std::iter::once(&step.action).chain(&step.otherwise) {
        match &action.node {
            Action::Run(name) => out.push((name.span, FUNCTION, 0)),
            Action::Add(Quantity::Amount(v))
            | Action::Subtract(Quantity::Amount(v))
            | Action::Set(v) => value_names(v, out),
            Action::Outcome(o) => outcome_names(o, out),
            _ => {}
        }
    }
    if let Some(c) = &step.condition {
        condition_names(c, out);
    }
}

fn condition_names(c: &Condition, out: &mut Vec<Mark>) {
    for (_, test) in &c.tests {
        match &test.node {
            Test::Script(name) => out.push((name.span, FUNCTION, 0)),
            Test::Previous(rank) => out.push((rank.span, RANK, 0)),
            Test::Count(count, ..) | Test::CountBetween(count, ..) => count_names(count, out),
            _ => {}
        }
    }
}

/// The counts an outcome names: `the player's points go up by the streak`.
fn outcome_names(o: &Outcome, out: &mut Vec<Mark>) {
    match &o.kind {
        OutcomeKind::Pays { amount: v, .. }
        | OutcomeKind::Gains { amount: v, .. }
        | OutcomeKind::SetTotal(v)
        | OutcomeKind::Draws(v) => value_names(v, out),
        OutcomeKind::Count { count, change } => {
            count_names(&count.node, out);
            if let Change::Up(v) | Change::Down(v) | Change::Become(v) = change {
                value_names(v, out);
            }
        }
        _ => {}
    }
}

/// The counts a value reads: `109 minus 10 times the streak`.
fn value_names(v: &crate::lang::ast::SValue, out: &mut Vec<Mark>) {
    match &v.node {
        Value::Count(count) => count_names(count, out),
        Value::Plus(a, b) | Value::Minus(a, b) | Value::Times(a, b) => {
            value_names(a, out);
            value_names(b, out);
        }
        Value::Half(a) | Value::Twice(a) | Value::Bounded { value: a, .. } => value_names(a, out),
        _ => {}
    }
}

/// A count of the ruleset's own, by its name: `the streak`, `the player's points`.
fn count_names(count: &TableCount, out: &mut Vec<Mark>) {
    if let TableCount::Named(name) | TableCount::Seat(_, SeatCount::Named(name)) = count {
        out.push((name.span, COUNT, 0));
    }
}

/// `the most points`: what an ending, the winner or the leader goes by.
fn holding_names(h: &Holding, out: &mut Vec<Mark>) {
    if let Holding::Count(name) = h {
        out.push((name.span, COUNT, 0));
    }
}

/// Marks in order, none overlapping another, as relative UTF-16 positions.
fn encode(doc: &Document, mut marks: Vec<Mark>) -> Vec<SemanticToken> {
    marks.sort_by_key(|m| (m.0.start, m.0.end));
    let mut out = Vec::with_capacity(marks.len());
    let (mut line, mut col, mut end) = (0u32, 0u32, 0usize);
    for (span, ty, modifiers) in marks {
        if span.start < end || span.end <= span.start {
            continue;
        }
        let range = doc.range(span);
        if range.start.line != range.end.line {
            continue;
        }
        let delta_line = range.start.line - line;
        let delta_start = if delta_line == 0 {
            range.start.character - col
        } else {
            range.start.character
        };
        out.push(SemanticToken {
            delta_line,
            delta_start,
            length: range.end.character - range.start.character,
            token_type: ty,
            token_modifiers_bitset: modifiers,
        });
        (line, col, end) = (range.start.line, range.start.character, span.end);
    }
    out
}

/// A full answer, numbered so a later request can ask for the difference.
pub fn full(doc: &mut Document, id: u64) -> SemanticTokens {
    let data = tokens(doc);
    let result_id = id.to_string();
    doc.tokens = Some((result_id.clone(), data.clone()));
    SemanticTokens {
        result_id: Some(result_id),
        data,
    }
}

/// The difference from the answer `previous` (one edit: what lies between the tokens both
/// share at the start and at the end), or a full answer when that one is not the last.
pub fn delta(
    doc: &mut Document,
    previous: &str,
    id: u64,
) -> Result<SemanticTokensDelta, SemanticTokens> {
    let Some((_, before)) = doc.tokens.clone().filter(|(last, _)| last == previous) else {
        return Err(full(doc, id));
    };
    let now = full(doc, id);
    let after = &now.data;
    let head = before.iter().zip(after).take_while(|(a, b)| a == b).count();
    let tail = before[head..]
        .iter()
        .rev()
        .zip(after[head..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let edits = if head == before.len() && head == after.len() {
        Vec::new()
    } else {
        vec![SemanticTokensEdit {
            start: (head * 5) as u32,
            delete_count: ((before.len() - head - tail) * 5) as u32,
            data: Some(after[head..after.len() - tail].to_vec()),
        }]
    };
    Ok(SemanticTokensDelta {
        result_id: now.result_id,
        edits,
    })
}
