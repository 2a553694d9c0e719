//! Sums added without overflow: what merges a tally read from a file (a shard from a
//! stranger may hold any number), all or nothing.

use std::collections::BTreeMap;

use crate::sim::{Clustered, Histogram};

/// A sum that adds another of its kind, or says it cannot (an overflow, or vectors of
/// different lengths: figures of another ruleset or table).
pub(super) trait Sum {
    #[must_use]
    fn sum_in(&mut self, o: &Self) -> Option<()>;
}

impl Sum for u64 {
    fn sum_in(&mut self, o: &u64) -> Option<()> {
        *self = self.checked_add(*o)?;
        Some(())
    }
}

impl Sum for u128 {
    fn sum_in(&mut self, o: &u128) -> Option<()> {
        *self = self.checked_add(*o)?;
        Some(())
    }
}

impl<T: Sum> Sum for Vec<T> {
    fn sum_in(&mut self, o: &Vec<T>) -> Option<()> {
        if self.len() != o.len() {
            return None;
        }
        for (a, b) in self.iter_mut().zip(o) {
            a.sum_in(b)?;
        }
        Some(())
    }
}

impl<K: Ord + Copy> Sum for BTreeMap<K, u64> {
    fn sum_in(&mut self, o: &BTreeMap<K, u64>) -> Option<()> {
        for (k, n) in o {
            self.entry(*k).or_insert(0).sum_in(n)?;
        }
        Some(())
    }
}

impl Sum for Histogram {
    fn sum_in(&mut self, o: &Histogram) -> Option<()> {
        self.counts.sum_in(&o.counts)?;
        self.n.sum_in(&o.n)?;
        self.sum.sum_in(&o.sum)?;
        self.sum_sq.sum_in(&o.sum_sq)
    }
}

impl Sum for Clustered {
    fn sum_in(&mut self, o: &Clustered) -> Option<()> {
        self.n.sum_in(&o.n)?;
        self.a.sum_in(&o.a)?;
        self.b.sum_in(&o.b)?;
        self.aa.sum_in(&o.aa)?;
        self.bb.sum_in(&o.bb)?;
        self.ab.sum_in(&o.ab)
    }
}
