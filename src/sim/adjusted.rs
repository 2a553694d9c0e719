//! The differences a test of two runs reads: shares and rates adjusted so that a sample
//! with no spread (all or nothing, no event at all) is never taken as proof.

/// B's share less A's (`ka` of `na` against `kb` of `nb`), as a test of the difference reads
/// it: the center and standard error of Agresti and Caffo's interval (one success and one
/// failure more on each side), so that a sample of all or nothing, as one game gives, still
/// has a spread and proves nothing alone. Near the plain difference once the samples are
/// large.
pub fn share_difference(ka: f64, na: f64, kb: f64, nb: f64) -> (f64, f64) {
    let (pa, pb) = ((ka + 1.0) / (na + 2.0), (kb + 1.0) / (nb + 2.0));
    let se = (pa * (1.0 - pa) / (na + 2.0) + pb * (1.0 - pb) / (nb + 2.0))
        .max(0.0)
        .sqrt();
    (pb - pa, se)
}

/// B's rate less A's (`kb` events over `eb` against `ka` over `ea`), the counts taken as
/// Poisson, and its standard error with half an event more on each side: no events at all on
/// both sides is no proof that the rates are the same.
pub fn rate_difference(ka: f64, ea: f64, kb: f64, eb: f64) -> (f64, f64) {
    let se = ((ka + 0.5) / (ea * ea) + (kb + 0.5) / (eb * eb)).sqrt();
    (kb / eb - ka / ea, se)
}
