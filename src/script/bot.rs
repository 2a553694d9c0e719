//! Bots written in rhai: `fn choose(game, moves)` gets the legal moves as maps
//! `#{ name: "AS:11", total: 56 }` (the total each makes) and returns the index of its move,
//! or its name.

use rhai::{Array, Dynamic, ImmutableString, Map};

use super::host::{Host, Piece};
use super::sandbox::compile;
use crate::ir::{ScriptError, View};

/// A compiled bot script.
#[derive(Debug)]
pub struct ScriptBot {
    pub host: Host,
    /// The file it was read from, as given.
    pub file: String,
}

impl ScriptBot {
    /// Compiles a bot script read from `file`; it must define `choose(game, moves)`.
    pub fn compile(file: &str, code: &str) -> Result<ScriptBot, String> {
        let ast =
            compile(code).map_err(|e| format!("{file}:{}:{}: {}", e.line, e.column, e.message))?;
        let host = Host::new(vec![Piece {
            ast,
            file: file.to_string(),
            first_line: 1,
            text: code.to_string(),
        }]);
        if host.arity("choose") != Some(2) {
            return Err(format!(
                "{file}: a bot script defines `fn choose(game, moves)`, returning the index of its move"
            ));
        }
        Ok(ScriptBot {
            host,
            file: file.to_string(),
        })
    }

    /// The bot's choice among the legal moves: their names and the totals they make.
    pub fn choose(
        &self,
        game: View,
        names: &[String],
        totals: &[i32],
    ) -> Result<usize, ScriptError> {
        let moves: Array = names
            .iter()
            .zip(totals)
            .map(|(n, t)| {
                let mut m = Map::new();
                m.insert("name".into(), Dynamic::from(n.clone()));
                m.insert("total".into(), Dynamic::from(i64::from(*t)));
                Dynamic::from_map(m)
            })
            .collect();
        self.host.call("choose", (game, moves), |host, v| {
            if let Ok(i) = v.as_int()
                && let Ok(i) = usize::try_from(i)
                && i < names.len()
            {
                return Ok(i);
            }
            if let Some(s) = v.clone().try_cast::<ImmutableString>()
                && let Some(i) = names
                    .iter()
                    .position(|n| n.eq_ignore_ascii_case(s.as_str()))
            {
                return Ok(i);
            }
            Err(host.bad_return(
                "choose",
                &format!(
                    "the index of a move (0 to {}) or its name",
                    names.len().saturating_sub(1)
                ),
                v,
            ))
        })
    }
}
