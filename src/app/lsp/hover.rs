//! Hover: what a line means, in the words of the rules sheet (and, in a variant, what it
//! replaces in the parent); what a card does under this ruleset; an option's declaration,
//! range and default. Every sentence comes from the compiled program and the grammar.

use std::collections::BTreeMap;

use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind, Position};

use super::documents::{Document, Workspace};
use crate::base::Span;
use crate::base::cards::{RANK_WORDS, parse_card, parse_rank, rank_of};
use crate::base::span::strip_comment;
use crate::compile;
use crate::ir::{MAX_SEATS, NO_EFFECT, Origin, Program};
use crate::lang::{self, ast};
use crate::present::{self, SheetItem};

/// The compiled parent of a document that extends another, for "what it replaces".
pub fn parent_program(docs: &BTreeMap<String, Document>, doc: &Document) -> Option<Program> {
    let p = doc.program()?;
    let parent = p.files.len().checked_sub(2).and_then(|i| p.files.get(i))?;
    compile::check(&Workspace { docs }, parent, &[])
        .ok()?
        .program
}

/// The hover at a position, if there is something to say there.
pub fn hover(doc: &Document, pos: Position) -> Option<Hover> {
    let (at, line) = doc.offset(pos);
    if let Some((name, span)) = option_at(doc, at) {
        return answer(doc, span, option_words(doc, &name)?);
    }
    if let Some((rank, span)) = doc.file().and_then(|f| card_at(f, at)) {
        // Spans come from the last check of this very text; a span it does not hold says
        // nothing rather than fail.
        let written = doc.text.get(span.start..span.end)?;
        return answer(doc, span, card_words(doc.program()?, rank, written));
    }
    let span = doc.lines.line_span(&doc.text, line - 1);
    let text = doc.text.get(span.start..span.end)?;
    if strip_comment(text).trim().is_empty() {
        return None;
    }
    let (_, before) = lang::parse(doc.text.get(..span.start)?);
    let open = |code| before.iter().any(|d| d.code == code);
    if open(crate::base::Code::UnclosedScript) {
        return None;
    }
    let mut parts = statement_words(doc, doc.source_line(at));
    if let Some(d) = lang::line_doc(text, open(crate::base::Code::UnclosedScenario)) {
        parts.push(format!("*{}*", d.replace('*', "\\*")));
    }
    if parts.is_empty() {
        return None;
    }
    answer(doc, span, parts.join("\n\n"))
}

fn answer(doc: &Document, span: Span, markdown: String) -> Option<Hover> {
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: markdown,
        }),
        range: Some(doc.range(span)),
    })
}

/// The rules sheet's sentences for the statement on a line, and in a variant what each
/// replaces in the parent.
fn statement_words(doc: &Document, line: usize) -> Vec<String> {
    let Some(p) = doc.program() else {
        return Vec::new();
    };
    let own = Origin {
        file: (p.files.len() - 1) as u16,
        line: line as u32,
    };
    let items: Vec<SheetItem> = present::sheet_items(p)
        .into_iter()
        .filter(|i| i.origin == Some(own))
        .collect();
    let mut out: Vec<String> = items.iter().map(|i| i.text.clone()).collect();
    // An option's line: its value, range and default (the sheet lists options apart).
    for o in p.options.iter().filter(|o| o.origin == own) {
        out.extend(option_words(doc, &o.name));
    }
    let Some(parent) = doc.parent.as_ref().and_then(Option::as_ref) else {
        return out;
    };
    let name = file_name(&p.files[p.files.len() - 2]);
    let theirs = present::sheet_items(parent);
    for item in &items {
        out.push(match theirs.iter().find(|t| t.key == item.key) {
            Some(t) if t.text == item.text => format!("The same as in `{name}`."),
            Some(t) => format!("Replaces, in `{name}`: {}", t.text),
            None => format!("New: `{name}` has no such rule."),
        });
    }
    out
}

/// `{chips}` at an offset: the name and the span of the braces.
fn option_at(doc: &Document, at: usize) -> Option<(String, Span)> {
    let line = doc.lines.line_span(&doc.text, doc.lines.line_of(at));
    let text = &doc.text[line.start..line.end];
    let mut from = 0;
    while let Some(open) = text[from..].find('{').map(|i| from + i) {
        let close = text[open..].find('}').map(|i| open + i)?;
        let name = &text[open + 1..close];
        let span = Span::new(line.start + open, line.start + close + 1);
        if (span.start..=span.end).contains(&at)
            && !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Some((name.to_string(), span));
        }
        from = close;
    }
    None
}

/// An option's declaration, value, range and default.
fn option_words(doc: &Document, name: &str) -> Option<String> {
    if let Some(p) = doc.program()
        && let Some(o) = p.option(name)
    {
        let yes_no = o.allowed == "yes or no";
        let word = |v: i64| match (yes_no, v) {
            (true, 0) => "no".to_string(),
            (true, _) => "yes".to_string(),
            (false, v) => v.to_string(),
        };
        return Some(format!(
            "option `{}` = {} ({}; default {})\n\nDeclared at {}: `{}`",
            o.name,
            word(o.value),
            o.allowed,
            word(o.default),
            p.cite(o.origin),
            p.line_text(o.origin)
        ));
    }
    // Without a program: the declaration as written, nearest file first.
    let checked = doc.checked.as_ref()?;
    checked.layers.iter().rev().find_map(|l| {
        l.file.statements.iter().find_map(|s| match &s.kind {
            ast::StatementKind::Option { name: n, .. } if n.node == name => {
                let text = l.source.text.lines().nth(s.line - 1).unwrap_or("");
                Some(format!(
                    "option `{name}`, declared at {} line {}: `{}`",
                    file_name(&l.path),
                    s.line,
                    strip_comment(text).trim()
                ))
            }
            _ => None,
        })
    })
}

/// A card rank (`K` in `card K: …`) or a card (`9H` in a scenario) at an offset.
fn card_at(file: &ast::File, at: usize) -> Option<(u8, Span)> {
    let inside = |s: Span| (s.start..=s.end).contains(&at);
    for st in &file.statements {
        if let ast::StatementKind::Card { ranks, .. } = &st.kind {
            for item in ranks {
                for w in std::iter::once(&item.from).chain(&item.to) {
                    if inside(w.span) {
                        return parse_rank(&w.node).map(|r| (r, w.span));
                    }
                }
            }
        }
    }
    let card = |c: &ast::Spanned<String>| {
        let name = c.node.split(':').next().unwrap_or("");
        inside(c.span)
            .then(|| parse_card(name).map(|k| (rank_of(k), c.span)))
            .flatten()
    };
    file.scenarios
        .iter()
        .flat_map(|sc| &sc.steps)
        .find_map(|st| match &st.node {
            ast::ScenarioStep::Hand(_, cards)
            | ast::ScenarioStep::Stock(cards, _)
            | ast::ScenarioStep::Discard(cards) => cards.iter().find_map(card),
            ast::ScenarioStep::Play(c)
            | ast::ScenarioStep::Expect(ast::Expectation::Illegal(c))
            | ast::ScenarioStep::Expect(ast::Expectation::Legal(c)) => card(c),
            _ => None,
        })
}

/// What a rank does under this ruleset, by players left in the round, and the line deciding it.
fn card_words(p: &Program, rank: u8, written: &str) -> String {
    let mut seen: Vec<(u16, Vec<usize>)> = Vec::new();
    for n in usize::from(p.min_players)..=usize::from(p.max_players).min(MAX_SEATS) {
        let idx = p.effect_index(n, rank);
        match seen.iter_mut().find(|(i, _)| *i == idx) {
            Some((_, counts)) => counts.push(n),
            None => seen.push((idx, vec![n])),
        }
    }
    let word = RANK_WORDS[usize::from(rank)];
    let name = if word.eq_ignore_ascii_case(written) {
        format!("**{written}**")
    } else {
        format!("**{written}** ({word})")
    };
    let mut out = vec![format!("{name} under *{}*:", p.name)];
    for (idx, counts) in &seen {
        let when = if seen.len() == 1 {
            String::new()
        } else {
            let list: Vec<String> = counts.iter().map(ToString::to_string).collect();
            format!("with {} players left: ", list.join(" or "))
        };
        if *idx == NO_EFFECT {
            out.push(format!("- {when}no effect: it cannot be played."));
            continue;
        }
        let fx = &p.effects[usize::from(*idx)];
        out.push(format!(
            "- {when}{} (`{}`, {})",
            present::effect_words(p, fx),
            p.line_text(fx.origin),
            p.cite(fx.origin)
        ));
    }
    out.join("\n")
}

fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}
