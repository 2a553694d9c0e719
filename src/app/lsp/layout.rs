//! What each line of a parsed file is: a statement, a scenario's heading, step or `end`, a
//! line of rhai code in a `script` block, or a line outside all of these (a comment, a blank
//! line, a line that did not parse). Read from the parsed file alone.

use super::documents::LineIndex;
use crate::lang::ast::File;

/// What a line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A line outside every block that holds no statement: blank, a comment, or broken.
    Loose,
    /// A statement that parsed.
    Statement,
    /// `scenario "…"`.
    ScenarioHead,
    /// A step of a scenario that parsed.
    Step,
    /// A line inside a scenario that is no step: blank, a comment, or broken.
    InScenario,
    /// The `end` of a scenario.
    ScenarioEnd,
    /// `script`, opening a block of rhai code.
    ScriptHead,
    /// A line of rhai code.
    Script,
    /// The `end` of a script block.
    ScriptEnd,
}

impl Role {
    /// Whether the grammar read the line (its words are the grammar's).
    pub fn parsed(self) -> bool {
        !matches!(self, Role::Loose | Role::InScenario | Role::Script)
    }
}

/// The role of each 0-based line of `text`, whose parsed form is `file`.
pub fn roles(file: &File, text: &str, lines: &LineIndex) -> Vec<Role> {
    let count = lines.line_of(text.len()) + 1;
    let mut roles = vec![Role::Loose; count];
    let mut set = |line: usize, role: Role| {
        if let Some(r) = roles.get_mut(line) {
            *r = role;
        }
    };
    for st in &file.statements {
        set(lines.line_of(st.span.start), Role::Statement);
    }
    for sc in &file.scenarios {
        let head = lines.line_of(sc.span.start);
        let end = lines.line_of(sc.span.end);
        for line in head + 1..end {
            set(line, Role::InScenario);
        }
        for step in &sc.steps {
            set(lines.line_of(step.span.start), Role::Step);
        }
        set(head, Role::ScenarioHead);
        if end > head {
            set(end, Role::ScenarioEnd);
        }
    }
    for script in file.scripts.iter().filter(|s| s.path.is_none()) {
        let head = lines.line_of(script.span.start);
        let end = lines.line_of(script.span.end);
        for line in head + 1..end {
            set(line, Role::Script);
        }
        set(head, Role::ScriptHead);
        if end > head {
            set(end, Role::ScriptEnd);
        }
    }
    roles
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_has_its_role() {
        let text = "name \"x\"\n# a comment\nplayres 2\nscenario \"s\"\n  # why\n  total 3\nend\nscript\nlet x = 1;\nend\n";
        let (file, _) = crate::lang::parse(text);
        let lines = LineIndex::new(text);
        use Role::*;
        assert_eq!(
            roles(&file, text, &lines),
            [
                Statement,
                Loose,
                Loose,
                ScenarioHead,
                InScenario,
                Step,
                ScenarioEnd,
                ScriptHead,
                Script,
                ScriptEnd,
                Loose
            ]
        );
    }
}
