//! Financial arithmetic in decimals: roots, the monthly rate, NPV, annuity payments, straight-line
//! depreciation and the presentation rounding rule.
//!
//! Everything is `rust_decimal::Decimal` (28 significant digits). Binary floats never touch money:
//! a fractional power such as `(1 + annual)^(1/12)` is computed by Newton's method on the decimal
//! itself, which converges quadratically and is exact to the last representable digit in a handful
//! of steps. `tests/reference_numpy.rs` checks these functions against numpy-financial on 200+
//! random cases, to the cent.
//!
//! Conventions (the lead documents them in ARCHITECTURE.md):
//! - cash flows are per month; month `0` is the first month of the horizon and is not discounted,
//!   month `m` is discounted by `(1 + r)^m` (numpy-financial's `npv` convention, cash at the start
//!   of each month);
//! - the monthly rate is the exact equivalent of the annual rate, `(1 + annual)^(1/12) - 1`, not
//!   `annual / 12`;
//! - annuity payments are due at the end of each period (numpy-financial `when = 'end'`).

use rust_decimal::{Decimal, RoundingStrategy};

/// The number of decimal places a ledger cell keeps. Far below a cent, so no figure a person reads
/// is affected, yet fixed, so that every sum of cells is exact in any order (28 significant digits
/// hold amounts up to 10^17 at this scale).
pub const LEDGER_SCALE: u32 = 10;

/// The one presentation rule: round half to even (banker's rounding) to whole cents. It is
/// applied once, when a figure is shown or exported; the ledger itself is never rounded to cents.
pub fn present(amount: Decimal) -> Decimal {
    amount.round_dp_with_strategy(2, RoundingStrategy::MidpointNearestEven)
}

/// Brings an amount to the ledger's fixed scale (half-even). Used when a cell enters the ledger.
pub fn to_ledger(amount: Decimal) -> Decimal {
    amount.round_dp_with_strategy(LEDGER_SCALE, RoundingStrategy::MidpointNearestEven)
}

/// `x^n` for a whole `n`, by repeated squaring. Returns `None` on overflow.
pub fn powi(x: Decimal, n: u32) -> Option<Decimal> {
    let mut result = Decimal::ONE;
    let mut base = x;
    let mut e = n;
    while e > 0 {
        if e & 1 == 1 {
            result = result.checked_mul(base)?;
        }
        e >>= 1;
        if e > 0 {
            base = base.checked_mul(base)?;
        }
    }
    Some(result)
}

/// The positive `n`-th root of a positive `x`, by Newton's method in decimals.
///
/// `None` for `x <= 0`, `n == 0`, or an overflow in an intermediate power (not reachable for the
/// rates and durations a plan uses).
pub fn nth_root(x: Decimal, n: u32) -> Option<Decimal> {
    if x <= Decimal::ZERO || n == 0 {
        return None;
    }
    if n == 1 || x == Decimal::ONE {
        return Some(x);
    }
    let nd = Decimal::from(n);
    // Start above the root so that Newton's iteration decreases monotonically towards it.
    let mut y = if x > Decimal::ONE {
        Decimal::ONE + (x - Decimal::ONE) / nd
    } else {
        Decimal::ONE
    };
    for _ in 0..200 {
        let p = powi(y, n - 1)?;
        let next = y - (p.checked_mul(y)? - x) / (nd * p);
        if (next - y).abs() <= Decimal::new(1, 27) {
            return Some(next);
        }
        y = next;
    }
    Some(y)
}

/// The square root, for the Young/Daly checkpoint interval.
pub fn sqrt(x: Decimal) -> Option<Decimal> {
    if x == Decimal::ZERO {
        return Some(Decimal::ZERO);
    }
    nth_root(x, 2)
}

/// The monthly rate equivalent to an annual rate: `(1 + annual)^(1/12) - 1`.
///
/// Rates below -100% have no meaning and give `None`.
pub fn monthly_rate(annual: Decimal) -> Option<Decimal> {
    nth_root(Decimal::ONE + annual, 12).map(|r| r - Decimal::ONE)
}

/// Discount factors `1 / (1 + r)^m` for `m = 0..months`.
pub fn discount_factors(monthly: Decimal, months: usize) -> Vec<Decimal> {
    let mut out = Vec::with_capacity(months);
    let step = Decimal::ONE + monthly;
    let mut growth = Decimal::ONE;
    for _ in 0..months {
        out.push(Decimal::ONE / growth);
        growth *= step;
    }
    out
}

/// Net present value of monthly cash flows, month 0 undiscounted (numpy-financial's `npv`).
pub fn npv(monthly: Decimal, flows: &[Decimal]) -> Decimal {
    let step = Decimal::ONE + monthly;
    let mut growth = Decimal::ONE;
    let mut sum = Decimal::ZERO;
    for f in flows {
        sum += *f / growth;
        growth *= step;
    }
    sum
}

/// The level payment that repays `principal` over `periods` at `rate` per period, paid at the end
/// of each period (numpy-financial's `pmt`, with the sign turned positive: what the borrower pays).
pub fn annuity_payment(principal: Decimal, rate: Decimal, periods: u32) -> Decimal {
    if periods == 0 {
        return principal;
    }
    if rate.is_zero() {
        return principal / Decimal::from(periods);
    }
    match powi(Decimal::ONE + rate, periods) {
        Some(g) if g != Decimal::ONE => principal * rate * g / (g - Decimal::ONE),
        _ => principal / Decimal::from(periods),
    }
}

/// One period of a loan: interest, principal repaid, and the balance after the payment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoanPeriod {
    pub interest: Decimal,
    pub principal: Decimal,
    pub balance: Decimal,
}

/// The amortisation schedule of an annuity loan. The last payment absorbs the residue of the
/// level payment so the balance ends at exactly zero.
pub fn amortisation(principal: Decimal, rate: Decimal, periods: u32) -> Vec<LoanPeriod> {
    let payment = annuity_payment(principal, rate, periods);
    let mut balance = principal;
    let mut out = Vec::with_capacity(periods as usize);
    for k in 0..periods {
        let interest = balance * rate;
        let repaid = if k + 1 == periods { balance } else { payment - interest };
        balance -= repaid;
        out.push(LoanPeriod {
            interest,
            principal: repaid,
            balance,
        });
    }
    out
}

/// Straight-line depreciation per month: `(cost - salvage) / life`.
pub fn straight_line_monthly(cost: Decimal, salvage: Decimal, life_months: u32) -> Decimal {
    if life_months == 0 {
        return cost - salvage;
    }
    (cost - salvage) / Decimal::from(life_months)
}

/// Book value after `elapsed` months of straight-line depreciation, never below the salvage value.
pub fn book_value(cost: Decimal, salvage: Decimal, life_months: u32, elapsed: u32) -> Decimal {
    if elapsed >= life_months {
        return salvage;
    }
    cost - straight_line_monthly(cost, salvage, life_months) * Decimal::from(elapsed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::dec;

    #[test]
    fn twelfth_root_is_exact_to_many_digits() {
        let r = monthly_rate(dec!(0.08)).unwrap_or_default();
        let back = powi(Decimal::ONE + r, 12).unwrap_or_default();
        assert!((back - dec!(1.08)).abs() < dec!(0.0000000000000000000001), "{back}");
        assert_eq!(r.round_dp(10), dec!(0.0064340301));
    }

    #[test]
    fn roots_handle_small_and_large_values() {
        assert_eq!(sqrt(dec!(0.4)).map(|v| v.round_dp(12)), Some(dec!(0.632455532034)));
        assert_eq!(sqrt(dec!(1000000)).map(|v| v.round_dp(12)), Some(dec!(1000)));
        assert_eq!(nth_root(dec!(-1), 2), None);
        assert_eq!(monthly_rate(Decimal::ZERO), Some(Decimal::ZERO));
    }

    #[test]
    fn annuity_matches_the_textbook_case() {
        // 100,000 over 36 months at 0.5% a month: 3,042.19 (any annuity table).
        assert_eq!(present(annuity_payment(dec!(100000), dec!(0.005), 36)), dec!(3042.19));
        let sched = amortisation(dec!(100000), dec!(0.005), 36);
        assert_eq!(sched.last().map(|p| p.balance), Some(Decimal::ZERO));
        let repaid: Decimal = sched.iter().map(|p| p.principal).sum();
        assert!((repaid - dec!(100000)).abs() < dec!(0.000000000001), "{repaid}");
    }

    #[test]
    fn presentation_rounds_half_to_even() {
        assert_eq!(present(dec!(0.125)), dec!(0.12));
        assert_eq!(present(dec!(0.135)), dec!(0.14));
        assert_eq!(present(dec!(-0.125)), dec!(-0.12));
    }

    #[test]
    fn depreciation_stops_at_salvage() {
        assert_eq!(straight_line_monthly(dec!(6000), dec!(0), 60), dec!(100));
        assert_eq!(book_value(dec!(6000), dec!(600), 60, 30), dec!(3300));
        assert_eq!(book_value(dec!(6000), dec!(600), 60, 90), dec!(600));
    }
}
