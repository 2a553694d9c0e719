//! A line that could be read two ways, written out both ways: each reading as branches the
//! designer can paste, every test of the line kept, in the line's own words.

use super::compiler::Compiler;
use crate::base::diag::Diag;
use crate::base::{Code, Span};
use crate::lang::ast::{self, SAmount};

impl Compiler<'_> {
    /// `if odd: add 7; otherwise add 1 or nothing`: is `or nothing` a choice of the card, or
    /// a part of the last branch? Both readings, written with `either`.
    pub(super) fn branches_among_choices(
        &self,
        layer: usize,
        effect: &ast::Effect,
        k: usize,
    ) -> Diag {
        let c = &effect.choices[k];
        let mut diag = Diag::error(
            Code::Ambiguous,
            c.span,
            "a card with `or` choices cannot also decide by `if ...:`: is the `or` a choice of the card, or part of the last branch?",
        )
        .label("branches among choices");
        let ast::Body::Branches(b) = &c.body else {
            return diag;
        };
        let rest: Vec<String> = effect.choices[k + 1..]
            .iter()
            .map(|r| self.text(layer, r.span).trim().to_string())
            .collect();
        if k != 0 || rest.is_empty() {
            return diag.hint("give the branches their choices with `either`: `if the total is odd: add 7; otherwise either add 1 or nothing`");
        }
        let or_rest = rest.join(" or ");
        let heads: Vec<String> = b.iter().map(|br| self.branch_head(layer, br)).collect();
        let bodies: Vec<String> = b
            .iter()
            .map(|br| self.branch_body_text(layer, br))
            .collect();
        let last = b.len() - 1;
        let inside: Vec<String> = (0..b.len())
            .map(|i| {
                if i == last {
                    format!("{}either {} or {or_rest}", heads[i], bodies[i])
                } else {
                    format!("{}{}", heads[i], bodies[i])
                }
            })
            .collect();
        let everywhere: Vec<String> = (0..b.len())
            .map(|i| format!("{}either {} or {or_rest}", heads[i], bodies[i]))
            .collect();
        diag = diag.hint(format!(
            "write the reading you mean with `either`: `{}` (the choice is in the last branch only), or `{}` (it is a choice at every total)",
            inside.join("; "),
            everywhere.join("; ")
        ));
        diag
    }

    /// `reverse if the total ends in 0, otherwise add 10 or subtract 10`: does `or subtract 10`
    /// go on the `otherwise`, or is it a choice at every total? Both readings, with `either`.
    pub(super) fn otherwise_before_or(&self, layer: usize, effect: &ast::Effect, k: usize) -> Diag {
        let c = &effect.choices[k];
        let ast::Body::Steps(steps) = &c.body else {
            return Diag::error(Code::Ambiguous, c.span, "`otherwise` before `or`");
        };
        let at = steps
            .iter()
            .find_map(|s| s.otherwise.as_ref().map(|o| o.span))
            .unwrap_or(c.span);
        let diag = Diag::error(
            Code::Ambiguous,
            at,
            "`otherwise` before `or`: does the choice after `or` belong to the `otherwise`, or is it a choice at every total?",
        )
        .label("which does `or` follow?");
        let text = |s: Span| self.text(layer, s).trim().to_string();
        match (k, steps.as_slice()) {
            (0, [step]) => {
                let (Some(cond), Some(other)) = (&step.condition, &step.otherwise) else {
                    return diag;
                };
                let rest: Vec<String> = effect.choices[1..].iter().map(|r| text(r.span)).collect();
                let or_rest = rest.join(" or ");
                let (cond, then, other) = (text(cond.span), text(step.action.span), text(other.span));
                diag.hint(format!(
                    "write the reading you mean with branches: `if {cond}: {then}; otherwise either {other} or {or_rest}` (the choice belongs to the `otherwise`), or `if {cond}: either {then} or {or_rest}; otherwise either {other} or {or_rest}` (it is a choice at every total)"
                ))
            }
            _ => diag.hint("a choice with `otherwise` must be the card's last; or write the card with branches, its choices in each branch: `if TEST: either ... or ...; otherwise either ... or ...`"),
        }
    }

    /// `if the total is odd: `, `otherwise if ...: `, `otherwise `.
    pub(super) fn branch_head(&self, layer: usize, b: &ast::Branch) -> String {
        match &b.condition {
            Some(c) => {
                let t = self.text(layer, b.span);
                let lead = if t.trim_start().to_lowercase().starts_with("otherwise") {
                    "otherwise if"
                } else {
                    "if"
                };
                format!("{lead} {}: ", self.text(layer, c.span).trim())
            }
            None => "otherwise ".to_string(),
        }
    }

    /// What a branch does, as written.
    pub(super) fn branch_body_text(&self, layer: usize, b: &ast::Branch) -> String {
        let end = b.span.end;
        let start = match &b.body {
            ast::BranchBody::Steps(steps) => steps.first().map(|s| s.action.span.start),
            ast::BranchBody::Either(choices) => choices.first().map(|c| c.span.start),
        };
        let t = start.map_or(String::new(), |st| self.text(layer, Span::new(st, end)));
        let t = t.trim();
        match &b.body {
            ast::BranchBody::Steps(_) => t.to_string(),
            ast::BranchBody::Either(_) => t.to_string(),
        }
    }

    /// `add 5, skip if the total is 45, otherwise add 5`: the two readings, as branches, each
    /// keeping every test of the line: either each test decides its own step, or the first
    /// decides the whole card (and the others their own steps within it).
    pub(super) fn ambiguous_test(
        &self,
        layer: usize,
        (effect, ci): (&ast::Effect, usize),
        steps: &[ast::Step],
        k: usize,
    ) -> Diag {
        let span = effect.choices[ci].span;
        let text = |s: Span| self.text(layer, s).trim().to_string();
        let diag = Diag::error(
            Code::Ambiguous,
            steps[k].condition.as_ref().map_or(span, |c| c.span),
            format!(
                "this test could govern `{}` alone, or the whole card",
                text(steps[k].action.span)
            ),
        )
        .label("which part does it decide?");
        // Tests joined by `or` cannot be joined to others by `and` without changing them.
        let tested: Vec<usize> = (0..steps.len())
            .filter(|&i| steps[i].condition.is_some())
            .collect();
        let plain = tested.iter().all(|&i| {
            steps[i]
                .condition
                .as_ref()
                .is_some_and(|c| c.tests.iter().all(|(and, _)| *and))
        });
        // The card's other choices (`add 1 or ...`) go into every branch of each reading, as
        // a choice there; only plain ones can.
        let others_plain = effect.choices.iter().enumerate().all(|(i, c)| {
            i == ci
                || matches!(&c.body, ast::Body::Steps(s) if s.iter().all(|st| st.condition.is_none()))
        });
        if !plain || tested.len() > 4 || !others_plain {
            return diag.hint("write the reading you mean with branches, one test each: `if TEST: STEPS; otherwise STEPS`");
        }
        let choices: Vec<String> = effect.choices.iter().map(|c| text(c.span)).collect();
        let with_choices = |reading: String| among_choices(&reading, &choices, ci);
        let own = with_choices(self.reading(layer, steps, &tested, None));
        let whole = with_choices(self.reading(layer, steps, &tested, Some(k)));
        diag.hint(format!(
            "write the reading you mean with branches: `{whole}` (the test decides the whole card), or `{own}` (each test decides its own step); a card's test reads the total before the card is laid"
        ))
    }

    /// One reading of a line whose steps have tests, as branches: every combination of the
    /// tests, the most tests first, so each `otherwise if` holds exactly when its own tests
    /// do and the others do not; combinations no total can make are left out. With
    /// `whole`, that step's test decides the whole card: when it fails, only its
    /// `otherwise` happens.
    pub(super) fn reading(
        &self,
        layer: usize,
        steps: &[ast::Step],
        tested: &[usize],
        whole: Option<usize>,
    ) -> String {
        let text = |s: Span| self.text(layer, s).trim().to_string();
        let free: Vec<usize> = tested
            .iter()
            .copied()
            .filter(|&i| Some(i) != whole)
            .collect();
        // Which tests hold at each total the window holds, when that can be worked out.
        let (lo, hi) = self.window;
        let seen: Option<Vec<u32>> = (lo..=hi)
            .map(|t| {
                let mut bits = 0u32;
                for (b, &i) in tested.iter().enumerate() {
                    let c = steps[i].condition.as_ref()?;
                    if self.holds_at(c, t)? {
                        bits |= 1 << b;
                    }
                }
                Some(bits)
            })
            .collect();
        let bit = |i: usize| 1u32 << tested.iter().position(|&x| x == i).unwrap_or(0);
        let forced = whole.map_or(0, bit);
        let mut combos: Vec<u32> = (0..1u32 << free.len())
            .map(|m| {
                let mut bits = forced;
                for (b, &i) in free.iter().enumerate() {
                    if m & (1 << b) != 0 {
                        bits |= bit(i);
                    }
                }
                bits
            })
            .filter(|&bits| {
                seen.as_ref().is_none_or(|seen| {
                    seen.iter().any(|&s| {
                        // The tests of the combination hold, and no other free one.
                        let mask = bits | free.iter().fold(0, |m, &i| m | bit(i));
                        s & mask == bits
                    })
                })
            })
            .collect();
        combos.sort_by_key(|b| std::cmp::Reverse(b.count_ones()));
        let acts = |bits: u32| -> String {
            let list: Vec<String> = (0..steps.len())
                .filter_map(|i| {
                    let s = &steps[i];
                    if s.condition.is_none() || bits & bit(i) != 0 {
                        Some(text(s.action.span))
                    } else {
                        s.otherwise.as_ref().map(|o| text(o.span))
                    }
                })
                .collect();
            if list.is_empty() {
                "nothing".to_string()
            } else {
                list.join(" and ")
            }
        };
        let conds = |bits: u32| -> String {
            tested
                .iter()
                .filter(|&&i| bits & bit(i) != 0)
                .filter_map(|&i| steps[i].condition.as_ref().map(|c| text(c.span)))
                .collect::<Vec<_>>()
                .join(" and ")
        };
        let mut parts: Vec<String> = Vec::new();
        let last_tested = combos.iter().rposition(|&b| b != 0);
        for (n, &bits) in combos.iter().enumerate() {
            let lead = if parts.is_empty() {
                "if"
            } else {
                "otherwise if"
            };
            // With every combination known and none without a test, the last one needs no
            // test of its own (not when the whole card's test still has its `otherwise`).
            let needless = whole.is_none()
                && seen.is_some()
                && n > 0
                && Some(n) == last_tested
                && !combos.contains(&0);
            if bits == 0 || needless {
                parts.push(format!("otherwise {}", acts(bits)));
            } else {
                parts.push(format!("{lead} {}: {}", conds(bits), acts(bits)));
            }
        }
        if whole.is_some() {
            let rest = whole
                .and_then(|k| steps[k].otherwise.as_ref())
                .map_or("nothing".to_string(), |o| text(o.span));
            parts.push(format!("otherwise {rest}"));
        }
        if parts.first().is_some_and(|p| p.starts_with("otherwise")) {
            // Every total makes the same combination: no test is needed at all.
            return parts[0].trim_start_matches("otherwise ").to_string();
        }
        parts.join("; ")
    }

    /// Whether a condition holds at `total`, when it reads the total alone (its options at
    /// their values); `None` when it reads more (the player's chips, a script).
    pub(super) fn holds_at(&self, c: &ast::Condition, total: i32) -> Option<bool> {
        let mut any = false;
        let mut group = true;
        for (n, (and, t)) in c.tests.iter().enumerate() {
            if n > 0 && !and {
                any |= group;
                group = true;
            }
            group &= self.test_at(&t.node, total)?;
        }
        Some(any || group)
    }

    pub(super) fn test_at(&self, t: &ast::Test, total: i32) -> Option<bool> {
        use ast::Test as T;
        let n = |a: &SAmount| -> Option<i64> {
            match &a.node {
                ast::Amount::Number(v) => Some(*v),
                ast::Amount::Option(name) => self.options.get(name).map(|d| d.value),
            }
        };
        let t64 = i64::from(total);
        Some(match t {
            T::Even => total % 2 == 0,
            T::Odd => total % 2 != 0,
            T::AtLeast(a) => t64 >= n(a)?,
            T::AtMost(a) => t64 <= n(a)?,
            T::Above(a) => t64 > n(a)?,
            T::Below(a) => t64 < n(a)?,
            T::Exactly(a) => t64 == n(a)?,
            T::Between(a, b) => (n(a)?..=n(b)?).contains(&t64),
            T::MultipleOf(a) => {
                let m = n(a)?;
                m > 0 && t64 % m == 0
            }
            T::EndsIn(a) => {
                let d = n(a)?;
                let mut m = 10;
                while m <= d {
                    m *= 10;
                }
                d >= 0 && t64.abs() % m == d
            }
            T::Chips(..)
            | T::CardsLeft(..)
            | T::PlayersLeft(..)
            | T::Previous(_)
            | T::Script(_)
            | T::Count(..)
            | T::CountBetween(..) => {
                return None;
            }
        })
    }
}

/// A reading of one choice of a card (`if T: A; otherwise B`) with the card's other choices
/// (`choices`, as written; `at` is this one) put into each branch as a choice there: `if T:
/// either X or A; otherwise either X or B`, so no `or` of the line is lost.
fn among_choices(reading: &str, choices: &[String], at: usize) -> String {
    if choices.len() < 2 {
        return reading.to_string();
    }
    let either = |body: &str| {
        let all: Vec<&str> = choices
            .iter()
            .enumerate()
            .map(|(i, c)| if i == at { body } else { c.as_str() })
            .collect();
        format!("either {}", all.join(" or "))
    };
    let parts: Vec<String> = reading
        .split("; ")
        .map(|part| {
            let head = if part.starts_with("if ") || part.starts_with("otherwise if ") {
                part.find(": ").map(|c| &part[..c + 2])
            } else {
                part.strip_prefix("otherwise ").map(|_| "otherwise ")
            };
            match head {
                Some(h) => format!("{h}{}", either(&part[h.len()..])),
                None => either(part),
            }
        })
        .collect();
    parts.join("; ")
}

impl Compiler<'_> {
    /// `add 10 or subtract 10 and the tens go up by 1`: `and` binds before `or`, so what
    /// follows the last choice's first step (a payment, a count changed, a skip) is that
    /// choice's alone. Where no other choice does it, the line could be read either way: a
    /// warning with the line that does it on every choice.
    pub(super) fn or_binds_last(&mut self, layer: usize, effect: &ast::Effect) {
        let words = |c: &Compiler<'_>, span: Span| -> String {
            c.text(layer, span)
                .split_whitespace()
                .map(str::to_lowercase)
                .collect::<Vec<_>>()
                .join(" ")
        };
        // Choices with labels say which is which, on the sheet and at the table.
        if effect.choices.iter().any(|c| c.label.is_some()) {
            return;
        }
        let Some((last, init)) = effect.choices.split_last() else {
            return;
        };
        let ast::Body::Steps(steps) = &last.body else {
            return;
        };
        let arithmetic = |a: &ast::Action| {
            matches!(
                a,
                ast::Action::Add(_)
                    | ast::Action::Subtract(_)
                    | ast::Action::Set(_)
                    | ast::Action::Multiply(_)
                    | ast::Action::Divide(_)
                    | ast::Action::Double
                    | ast::Action::Halve
                    | ast::Action::Nothing
            )
        };
        let said_before = |c: &Compiler<'_>, w: &str| {
            init.iter().any(|ch| match &ch.body {
                ast::Body::Steps(st) => st.iter().any(|x| words(c, x.action.span) == w),
                ast::Body::Branches(_) => true,
            })
        };
        let tail: Vec<String> = steps
            .iter()
            .skip(1)
            .filter(|st| st.condition.is_none() && !arithmetic(&st.action.node))
            .map(|st| words(self, st.action.span))
            .filter(|w| !said_before(self, w))
            .collect();
        if tail.is_empty() {
            return;
        }
        let first = words(self, steps[0].action.span);
        let tail = tail.join(" and ");
        let mut d = Diag::warning(
            Code::Ambiguous,
            last.span,
            format!(
                "`and` binds before `or`: only the choice `{}` does `{tail}`; the other choices of the card do not",
                words(self, last.span)
            ),
        )
        .label(format!("`{tail}` goes with `{first}` alone"))
        .hint(format!(
            "if every choice does it, say it in each, as the fix does; if only this one does, name the choices: `{first} as \"plain\" or ... as \"counted\"`"
        ));
        // The fix: the tail said in every choice.
        let mut line = Vec::new();
        for c in init {
            line.push(format!("{} and {tail}", words(self, c.span)));
        }
        line.push(words(self, last.span));
        d = d.fix(effect.span, line.join(" or "));
        self.err(layer, d);
    }
}

#[cfg(test)]
mod tests {
    use super::among_choices;

    #[test]
    fn every_other_choice_goes_into_every_branch() {
        let choices = ["add 1".to_string(), "X".to_string()];
        assert_eq!(
            among_choices(
                "if the total is 88: add 11 and the player wins the game; otherwise add 11",
                &choices,
                1
            ),
            "if the total is 88: either add 1 or add 11 and the player wins the game; otherwise either add 1 or add 11"
        );
        assert_eq!(
            among_choices("otherwise if the total is odd: skip", &choices, 0),
            "otherwise if the total is odd: either skip or X"
        );
        assert_eq!(
            among_choices("add 11", &choices, 1),
            "either add 1 or add 11"
        );
        assert_eq!(among_choices("add 11", &choices[..1], 0), "add 11");
    }
}
