//! A run's or a shard's output (`--json`), and merging shards into the whole run.

use serde::{Deserialize, Serialize};

use super::{Config, Stats};

/// A shard's or a whole run's output for `--json` and `--merge`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Output {
    pub config: Config,
    pub shard: Option<(u64, u64)>,
    pub stats: Stats,
}

/// Merges shard outputs of one run: they must share the run's configuration.
pub fn merge(parts: &[Output]) -> Result<Output, String> {
    let Some(first) = parts.first() else {
        return Err("no files to merge".into());
    };
    let mut stats = Stats::new(first.config.players);
    let mut seen = std::collections::BTreeSet::new();
    for part in parts {
        if part.config != first.config {
            return Err("these files come from different runs (ruleset, players, bots, seed or games differ)".into());
        }
        if let Some(s) = part.shard
            && !seen.insert(s)
        {
            return Err(format!("shard {}/{} is given twice", s.0, s.1));
        }
        stats.merge(&part.stats);
    }
    Ok(Output {
        config: first.config.clone(),
        shard: None,
        stats,
    })
}
