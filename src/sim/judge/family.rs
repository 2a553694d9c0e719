//! Many measures compared at once: a 95% test on each of 16 rows claims a difference in
//! about 16 × 5% of them by chance alone, so a headline over all of them tests them as one
//! family (Holm's step-down correction: the chance that any row it names differs only by
//! chance is at most `alpha`, and it names as many as any such correction can).

use super::lines::{LineDiff, upper_tail};

/// Which rows differ beyond chance with the whole family taken together, at `alpha`: the
/// rows' p-values (two-sided, from each row's center and standard error) sorted, the `i`-th
/// smallest kept while it is at most `alpha / (m − i)`. A row with no test is never kept.
pub fn holm(ds: &[LineDiff], alpha: f64) -> Vec<bool> {
    let mut ps: Vec<(usize, f64)> = ds
        .iter()
        .enumerate()
        .filter_map(|(i, d)| d.se.map(|se| (i, 2.0 * upper_tail((d.center / se).abs()))))
        .collect();
    ps.sort_by(|a, b| a.1.total_cmp(&b.1));
    let m = ps.len();
    let mut kept = vec![false; ds.len()];
    for (rank, (i, p)) in ps.into_iter().enumerate() {
        if p > alpha / (m - rank) as f64 {
            break;
        }
        kept[i] = true;
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Verdict;
    use crate::sim::judge::Unit;

    fn row(label: &str, center: f64, se: Option<f64>) -> LineDiff {
        LineDiff {
            key: label.into(),
            label: label.into(),
            unit: Unit::Number,
            a: 0.0,
            b: center,
            diff: center,
            low: None,
            high: None,
            se,
            center,
            verdict: Verdict::NoTest,
        }
    }

    #[test]
    fn holm_keeps_what_the_whole_family_shows() {
        // z = 5 (p 6e-7), z = 2.5 (p 0.012), z = 2.1 (p 0.036), and no test: sorted, 6e-7 ≤
        // 0.05/3, 0.012 ≤ 0.05/2 and 0.036 ≤ 0.05/1, so all three tested rows are kept.
        let ds = [
            row("a", 5.0, Some(1.0)),
            row("b", 2.5, Some(1.0)),
            row("c", -2.1, Some(1.0)),
            row("d", 9.0, None),
        ];
        assert_eq!(holm(&ds, 0.05), [true, true, true, false]);
        // Sixteen rows, one at z = 2.1 (p 0.036 > 0.05/16): beyond chance alone, not as one
        // of sixteen.
        let mut many: Vec<LineDiff> = (0..15)
            .map(|i| row(&i.to_string(), 0.1, Some(1.0)))
            .collect();
        many.push(row("x", 2.1, Some(1.0)));
        assert!(holm(&many, 0.05).iter().all(|k| !k));
        // The same row at z = 4 (p 6e-5 < 0.05/16): kept, and it alone.
        many[15] = row("x", 4.0, Some(1.0));
        let kept = holm(&many, 0.05);
        assert!(kept[15]);
        assert_eq!(kept.iter().filter(|k| **k).count(), 1);
    }
}
