//! Depreciation schedules and the tax shield (issue #44), against the published reference: IRS
//! Publication 946, "How To Depreciate Property", Appendix A (https://www.irs.gov/publications/p946),
//! a work of the US government. Each test computes the schedule with `engine::blocks::tax` and
//! compares every year's percentage, rounded half-even to 2 decimals, with the printed table; the
//! schedule itself is never rounded.
//!
//! The percentages were read from these reproductions of the tables:
//! - Table A-1 (half-year convention; 3-, 5-, 7-year 200% DB and 15-year 150% DB columns):
//!   "MACRS applicable percentage for property class ... From IRS Publication 946 Table A-1",
//!   https://www.liquisearch.com/macrs/macrs_applicable_percentage_for_property_class, and the same
//!   figures in Whittenburg et al., Table 7.2 (Cengage),
//!   http://cxp.cengage.com/contentservice/assets/T=1467295792958/whit1itf34h/images/ch07/tables_7-2_7-3_7-4.html;
//!   Table 7.3 on that page gives the straight-line half-year percentages (Pub. 946 Table A-8).
//! - Table A-2 (mid-quarter, first quarter): https://fkco.com/tax_resources/depreciationtable2.html
//! - Table A-4 (mid-quarter, third quarter): https://www.fkco.com/tax_resources/depreciationtable4.html
//! - Tables A-2 to A-5, years 1 to 5 of the 5- and 7-year columns: Whittenburg et al., Table 8.4
//!   (Cengage), https://cxp.cengage.com/contentservice/assets/T=1586447785969/whitf38h/images/ch08/table_8-4.html
//! - Table A-5 (mid-quarter, fourth quarter), every year: "IRS Publication 946 MACRS Percentage
//!   Tables" (tables A-1 and A-5 transcribed), https://taxprotesttx.com/datasets/macrs-tables-pub-946.json
//! - Table A-3 (mid-quarter, second quarter) after year 5 (5-year: 4.26; 7-year: 8.87, 8.87, 3.34):
//!   no web page in the search showed them; they are as transcribed from Table A-3 in several
//!   public source repositories, and each column totals 100.00 as the test asserts.
//!
//! The IRS prints each column so that it totals exactly 100.00. In seven of the 200% DB cells
//! checked here (and four of the 15-year 150% DB column) the printed value is one hundredth away
//! from the exact share rounded to 2 decimals; each such cell is named below with its exact value,
//! and the test asserts it differs by exactly 0.01 and every other cell not at all.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use planner_core::engine::blocks::finance::powi;
use planner_core::engine::blocks::tax::{
    Convention, DepreciationMethod, MAX_RECOVERY_YEARS, Quarter, schedule, tax_shield_pv,
};
use rust_decimal::{Decimal, RoundingStrategy, dec};

use DepreciationMethod::{DecliningBalance150, DecliningBalance200, MacrsGds, StraightLine};
use planner_core::engine::blocks::refused::Refused;

/// A share of cost as a percentage rounded half-even to 2 decimals, as the tables print it.
fn percent(share: Decimal) -> Decimal {
    (share * dec!(100)).round_dp_with_strategy(2, RoundingStrategy::MidpointNearestEven)
}

/// A share of cost as a percentage rounded to 0.1%, as the worked figures state it.
fn percent_1dp(share: Decimal) -> Decimal {
    (share * dec!(100)).round_dp_with_strategy(1, RoundingStrategy::MidpointNearestEven)
}

fn sum(shares: &[Decimal]) -> Decimal {
    shares.iter().sum()
}

/// Compares a computed schedule with a published column. `adjusted` names the years (from 1)
/// where the IRS printed one hundredth away from the exact share so the column totals 100.00.
fn check_column(
    table: &str,
    method: DepreciationMethod,
    convention: Convention,
    recovery_years: u32,
    published: &[Decimal],
    adjusted: &[usize],
) {
    let shares = schedule(method, convention, recovery_years, Decimal::ZERO).unwrap();
    assert_eq!(sum(&shares), Decimal::ONE, "{table}: the schedule sums to exactly 1");
    assert_eq!(sum(published), dec!(100), "{table}: the printed column totals 100.00");
    assert_eq!(shares.len(), published.len(), "{table}: the number of tax years");
    for (i, (share, printed)) in shares.iter().zip(published).enumerate() {
        let year = i + 1;
        let ours = percent(*share);
        if adjusted.contains(&year) {
            assert_eq!(
                (ours - *printed).abs(),
                dec!(0.01),
                "{table}, year {year}: exactly {}% rounds to {ours}; the IRS prints {printed}",
                *share * dec!(100)
            );
        } else {
            assert_eq!(
                ours,
                *printed,
                "{table}, year {year}: exactly {}% rounds to {ours}; the IRS prints {printed}",
                *share * dec!(100)
            );
        }
    }
}

/// Table A-1, half-year convention, 200% declining balance switching to straight line.
#[test]
fn table_a1_half_year_3_5_and_7_year_property() {
    let hy = Convention::HalfYear;
    // Year 2 is 44.444…% exactly; the IRS prints 44.45.
    check_column(
        "A-1 3-year",
        MacrsGds,
        hy,
        3,
        &[dec!(33.33), dec!(44.45), dec!(14.81), dec!(7.41)],
        &[2],
    );
    check_column(
        "A-1 5-year",
        MacrsGds,
        hy,
        5,
        &[
            dec!(20.00),
            dec!(32.00),
            dec!(19.20),
            dec!(11.52),
            dec!(11.52),
            dec!(5.76),
        ],
        &[],
    );
    // Years 5 to 7 are each 8.92485…% exactly; the IRS prints 8.93, 8.92, 8.93.
    check_column(
        "A-1 7-year",
        MacrsGds,
        hy,
        7,
        &[
            dec!(14.29),
            dec!(24.49),
            dec!(17.49),
            dec!(12.49),
            dec!(8.93),
            dec!(8.92),
            dec!(8.93),
            dec!(4.46),
        ],
        &[5, 7],
    );
    // The same percentages through the general 200% declining-balance method.
    assert_eq!(
        schedule(MacrsGds, hy, 7, Decimal::ZERO).unwrap(),
        schedule(DecliningBalance200, hy, 7, Decimal::ZERO).unwrap()
    );
}

/// Table A-2, mid-quarter convention, placed in service in the first quarter.
#[test]
fn table_a2_mid_quarter_first_quarter() {
    let q1 = Convention::MidQuarter(Quarter::Q1);
    check_column(
        "A-2 5-year",
        MacrsGds,
        q1,
        5,
        &[
            dec!(35.00),
            dec!(26.00),
            dec!(15.60),
            dec!(11.01),
            dec!(11.01),
            dec!(1.38),
        ],
        &[],
    );
    // Year 6 is 8.74636…% exactly; the IRS prints 8.74.
    check_column(
        "A-2 7-year",
        MacrsGds,
        q1,
        7,
        &[
            dec!(25.00),
            dec!(21.43),
            dec!(15.31),
            dec!(10.93),
            dec!(8.75),
            dec!(8.74),
            dec!(8.75),
            dec!(1.09),
        ],
        &[6],
    );
}

/// Table A-3, mid-quarter convention, placed in service in the second quarter.
#[test]
fn table_a3_mid_quarter_second_quarter() {
    let q2 = Convention::MidQuarter(Quarter::Q2);
    check_column(
        "A-3 5-year",
        MacrsGds,
        q2,
        5,
        &[
            dec!(25.00),
            dec!(30.00),
            dec!(18.00),
            dec!(11.37),
            dec!(11.37),
            dec!(4.26),
        ],
        &[],
    );
    // Year 1 is 2/7 × 5/8 = 17.857…% exactly and year 8 3.3262…%; the IRS prints 17.85 and 3.34.
    check_column(
        "A-3 7-year",
        MacrsGds,
        q2,
        7,
        &[
            dec!(17.85),
            dec!(23.47),
            dec!(16.76),
            dec!(11.97),
            dec!(8.87),
            dec!(8.87),
            dec!(8.87),
            dec!(3.34),
        ],
        &[1, 8],
    );
}

/// Table A-4, mid-quarter convention, placed in service in the third quarter.
#[test]
fn table_a4_mid_quarter_third_quarter() {
    let q3 = Convention::MidQuarter(Quarter::Q3);
    check_column(
        "A-4 5-year",
        MacrsGds,
        q3,
        5,
        &[
            dec!(15.00),
            dec!(34.00),
            dec!(20.40),
            dec!(12.24),
            dec!(11.30),
            dec!(7.06),
        ],
        &[],
    );
    // Year 7 is 8.85402…% exactly; the IRS prints 8.86.
    check_column(
        "A-4 7-year",
        MacrsGds,
        q3,
        7,
        &[
            dec!(10.71),
            dec!(25.51),
            dec!(18.22),
            dec!(13.02),
            dec!(9.30),
            dec!(8.85),
            dec!(8.86),
            dec!(5.53),
        ],
        &[7],
    );
}

/// Table A-5, mid-quarter convention, placed in service in the fourth quarter.
#[test]
fn table_a5_mid_quarter_fourth_quarter() {
    let q4 = Convention::MidQuarter(Quarter::Q4);
    check_column(
        "A-5 5-year",
        MacrsGds,
        q4,
        5,
        &[
            dec!(5.00),
            dec!(38.00),
            dec!(22.80),
            dec!(13.68),
            dec!(10.94),
            dec!(9.58),
        ],
        &[],
    );
    check_column(
        "A-5 7-year",
        MacrsGds,
        q4,
        7,
        &[
            dec!(3.57),
            dec!(27.55),
            dec!(19.68),
            dec!(14.06),
            dec!(10.04),
            dec!(8.73),
            dec!(8.73),
            dec!(7.64),
        ],
        &[],
    );
}

/// Table A-1's 15-year column: 150% declining balance, half-year convention, switching to straight
/// line in year 7. Years 9, 11, 13 and 15 are each 5.9049…% exactly; the IRS prints 5.91.
#[test]
fn table_a1_15_year_column_is_150_percent_declining_balance() {
    check_column(
        "A-1 15-year",
        DecliningBalance150,
        Convention::HalfYear,
        15,
        &[
            dec!(5.00),
            dec!(9.50),
            dec!(8.55),
            dec!(7.70),
            dec!(6.93),
            dec!(6.23),
            dec!(5.90),
            dec!(5.90),
            dec!(5.91),
            dec!(5.90),
            dec!(5.91),
            dec!(5.90),
            dec!(5.91),
            dec!(5.90),
            dec!(5.91),
            dec!(2.95),
        ],
        &[9, 11, 13, 15],
    );
}

/// Straight line with the half-year convention (Pub. 946 Table A-8, as Table 7.3 reproduces it).
#[test]
fn straight_line_half_year_matches_the_published_percentages() {
    check_column(
        "A-8 3-year",
        StraightLine,
        Convention::HalfYear,
        3,
        &[dec!(16.67), dec!(33.33), dec!(33.33), dec!(16.67)],
        &[],
    );
    check_column(
        "A-8 5-year",
        StraightLine,
        Convention::HalfYear,
        5,
        &[
            dec!(10.00),
            dec!(20.00),
            dec!(20.00),
            dec!(20.00),
            dec!(20.00),
            dec!(10.00),
        ],
        &[],
    );
}

/// 200% declining balance over 5 full years, worked by hand from the rule: 40% of the balance a
/// year (40, 24, 14.4); in year 4 straight line over the 2 years left (21.6 / 2 = 10.8) beats
/// 40% of 21.6 (8.64), so it switches and year 5 takes the 10.8 left.
#[test]
fn double_declining_balance_switches_to_straight_line_in_year_4() {
    let shares = schedule(DecliningBalance200, Convention::None, 5, Decimal::ZERO).unwrap();
    let balance_after_3 = Decimal::ONE - dec!(0.4) - dec!(0.24) - dec!(0.144);
    assert!(
        balance_after_3 / dec!(2) > dec!(0.4) * balance_after_3,
        "the switch year"
    );
    assert_eq!(
        shares,
        [
            dec!(0.4),
            dec!(0.24),
            dec!(0.144),
            balance_after_3 / dec!(2),
            balance_after_3 / dec!(2)
        ]
    );
    let printed: Vec<Decimal> = shares.iter().map(|s| percent(*s)).collect();
    assert_eq!(
        printed,
        [dec!(40.00), dec!(24.00), dec!(14.40), dec!(10.80), dec!(10.80)]
    );
}

/// 150% declining balance over 5 full years, worked by hand: 30% of the balance a year (30, 21);
/// in year 3 straight line over the 3 years left (49 / 3 = 16.33) beats 30% of 49 (14.7), so it
/// switches there.
#[test]
fn declining_balance_150_switches_to_straight_line_in_year_3() {
    let shares = schedule(DecliningBalance150, Convention::None, 5, Decimal::ZERO).unwrap();
    let balance_after_2 = Decimal::ONE - dec!(0.3) - dec!(0.21);
    assert!(
        balance_after_2 / dec!(3) > dec!(0.3) * balance_after_2,
        "the switch year"
    );
    assert_eq!(shares.len(), 5);
    assert_eq!(&shares[..2], &[dec!(0.3), dec!(0.21)]);
    let printed: Vec<Decimal> = shares.iter().map(|s| percent(*s)).collect();
    let third = percent(balance_after_2 / dec!(3));
    assert_eq!(printed, [dec!(30.00), dec!(21.00), third, third, third]);
    assert_eq!(sum(&shares), Decimal::ONE);
}

/// Straight line without a convention: equal full years.
#[test]
fn straight_line_without_a_convention_is_equal_full_years() {
    let shares = schedule(StraightLine, Convention::None, 5, Decimal::ZERO).unwrap();
    assert_eq!(shares, [dec!(0.2); 5]);
    let thirds = schedule(StraightLine, Convention::None, 3, Decimal::ZERO).unwrap();
    assert_eq!(thirds.len(), 3);
    assert_eq!(sum(&thirds), Decimal::ONE);
    for share in &thirds {
        assert_eq!(percent(*share), dec!(33.33));
    }
}

/// 60% bonus in year 1, the other 40% of the cost by 5-year MACRS with the half-year convention:
/// year 1 is 60% + 40% × 20.00%, every later year 40% of the Table A-1 percentage.
#[test]
fn bonus_60_percent_then_macrs_on_the_rest() {
    let bonus = dec!(0.6);
    let table_a1_5_year = [
        dec!(20.00),
        dec!(32.00),
        dec!(19.20),
        dec!(11.52),
        dec!(11.52),
        dec!(5.76),
    ];
    let shares = schedule(MacrsGds, Convention::HalfYear, 5, bonus).unwrap();
    let expected: Vec<Decimal> = table_a1_5_year
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let rest = (Decimal::ONE - bonus) * *p / dec!(100);
            if i == 0 { bonus + rest } else { rest }
        })
        .collect();
    assert_eq!(shares, expected);
    assert_eq!(percent(shares[0]), dec!(68.00));
    assert_eq!(sum(&shares), Decimal::ONE);
}

/// 100% bonus: the whole cost in year 1, nothing after.
#[test]
fn full_bonus_deducts_everything_in_year_1() {
    let shares = schedule(MacrsGds, Convention::HalfYear, 5, Decimal::ONE).unwrap();
    assert_eq!(shares.len(), 6);
    assert_eq!(shares[0], Decimal::ONE);
    assert!(shares[1..].iter().all(|s| s.is_zero()));
}

/// Every method, convention, recovery period and bonus gives shares that add up to exactly 1,
/// none negative, with `n` tax years without a convention and `n + 1` with one.
#[test]
fn every_schedule_sums_to_exactly_one() {
    let conventions = [
        Convention::None,
        Convention::HalfYear,
        Convention::MidQuarter(Quarter::Q1),
        Convention::MidQuarter(Quarter::Q2),
        Convention::MidQuarter(Quarter::Q3),
        Convention::MidQuarter(Quarter::Q4),
    ];
    let bonuses = [Decimal::ZERO, dec!(0.3), dec!(0.6), dec!(0.8), Decimal::ONE];
    let mut checked = 0;
    for method in [StraightLine, DecliningBalance150, DecliningBalance200, MacrsGds] {
        for convention in conventions {
            for years in 1..=MAX_RECOVERY_YEARS {
                for bonus in bonuses {
                    let Ok(shares) = schedule(method, convention, years, bonus) else {
                        assert!(method == MacrsGds, "{method:?} {convention:?} {years} refused");
                        continue;
                    };
                    let want_len = if convention == Convention::None {
                        years
                    } else {
                        years + 1
                    };
                    assert_eq!(shares.len(), want_len as usize, "{method:?} {convention:?} {years}");
                    assert_eq!(sum(&shares), Decimal::ONE, "{method:?} {convention:?} {years} {bonus}");
                    assert!(shares.iter().all(|s| *s >= Decimal::ZERO));
                    checked += 1;
                }
            }
        }
    }
    // 3 general methods × 6 conventions × 50 periods × 5 bonuses, and MACRS's 3 classes × 5
    // conventions × 5 bonuses.
    assert_eq!(checked, 3 * 6 * 50 * 5 + 3 * 5 * 5);
}

/// The worked figures of the product's domain notes, at a 21% tax rate and 8% a year: the tax
/// shield is worth 17.0% of cost for 5-year MACRS with the half-year convention, 16.8% for five
/// equal full years of straight line and 19.4% for 100% bonus taken at the end of year 1.
#[test]
fn worked_figures_tax_shield_at_21_percent_and_8_percent() {
    let tax = dec!(0.21);
    let r = dec!(0.08);

    let macrs = schedule(MacrsGds, Convention::HalfYear, 5, Decimal::ZERO).unwrap();
    assert_eq!(percent_1dp(tax_shield_pv(&macrs, tax, r).unwrap()), dec!(17.0));

    let straight = schedule(StraightLine, Convention::None, 5, Decimal::ZERO).unwrap();
    let pv_straight = tax_shield_pv(&straight, tax, r).unwrap();
    assert_eq!(percent_1dp(pv_straight), dec!(16.8));
    // The same as a five-year annuity of 20% of the tax: 0.21 × 0.2 × (1 − 1.08^−5) / 0.08.
    let annuity = (Decimal::ONE - Decimal::ONE / powi(Decimal::ONE + r, 5).unwrap()) / r;
    assert!((pv_straight - tax * dec!(0.2) * annuity).abs() < dec!(0.000000000001));

    let bonus = schedule(MacrsGds, Convention::HalfYear, 5, Decimal::ONE).unwrap();
    let pv_bonus = tax_shield_pv(&bonus, tax, r).unwrap();
    assert_eq!(percent_1dp(pv_bonus), dec!(19.4));
    assert!((pv_bonus - tax / (Decimal::ONE + r)).abs() < dec!(0.000000000001));
}

/// Undiscounted, the shield is the tax rate on the whole cost; placed in service earlier in the
/// year, the deductions come sooner and are worth more.
#[test]
fn the_shield_is_the_tax_rate_undiscounted_and_earlier_is_worth_more() {
    let tax = dec!(0.21);
    let macrs = schedule(MacrsGds, Convention::HalfYear, 7, Decimal::ZERO).unwrap();
    assert_eq!(tax_shield_pv(&macrs, tax, Decimal::ZERO).unwrap(), tax);
    let pv = |q| {
        let s = schedule(MacrsGds, Convention::MidQuarter(q), 5, Decimal::ZERO).unwrap();
        tax_shield_pv(&s, tax, dec!(0.08)).unwrap()
    };
    assert!(pv(Quarter::Q1) > pv(Quarter::Q2));
    assert!(pv(Quarter::Q2) > pv(Quarter::Q3));
    assert!(pv(Quarter::Q3) > pv(Quarter::Q4));
    assert_eq!(tax_shield_pv(&[], tax, dec!(0.08)).unwrap(), Decimal::ZERO);
}

fn refused<T: std::fmt::Debug>(result: Result<T, Refused>) -> Refused {
    match result {
        Ok(value) => panic!("accepted: {value:?}"),
        Err(e) => e,
    }
}

#[test]
fn bad_schedule_inputs_are_refused_naming_the_field() {
    let e = refused(schedule(StraightLine, Convention::None, 0, Decimal::ZERO));
    assert_eq!(e.field, "recovery_years");
    assert!(e.to_string().starts_with("recovery_years: "), "{e}");
    assert!(e.message.contains("got 0"), "{e}");

    let e = refused(schedule(
        StraightLine,
        Convention::None,
        MAX_RECOVERY_YEARS + 1,
        Decimal::ZERO,
    ));
    assert_eq!(e.field, "recovery_years");
    assert!(e.message.contains("got 51"), "{e}");

    let e = refused(schedule(MacrsGds, Convention::HalfYear, 10, Decimal::ZERO));
    assert_eq!(e.field, "recovery_years");
    assert!(e.message.contains("got 10"), "{e}");

    let e = refused(schedule(MacrsGds, Convention::None, 5, Decimal::ZERO));
    assert_eq!(e.field, "convention");

    for bonus in [dec!(-0.1), dec!(1.01)] {
        let e = refused(schedule(MacrsGds, Convention::HalfYear, 5, bonus));
        assert_eq!(e.field, "bonus_share");
        assert!(e.message.contains(&bonus.to_string()), "{e}");
    }
}

#[test]
fn bad_tax_shield_inputs_are_refused_naming_the_field() {
    let macrs = schedule(MacrsGds, Convention::HalfYear, 5, Decimal::ZERO).unwrap();
    for rate in [dec!(-0.01), dec!(1.5)] {
        assert_eq!(refused(tax_shield_pv(&macrs, rate, dec!(0.08))).field, "tax_rate");
        assert_eq!(
            refused(tax_shield_pv(&macrs, dec!(0.21), rate)).field,
            "annual_discount_rate"
        );
    }
    let e = refused(tax_shield_pv(&[dec!(0.5), dec!(-0.1)], dec!(0.21), dec!(0.08)));
    assert_eq!(e.field, "schedule");
    assert!(e.message.contains("year 2"), "{e}");
    let e = refused(tax_shield_pv(&[dec!(0.7), dec!(0.7)], dec!(0.21), dec!(0.08)));
    assert_eq!(e.field, "schedule");
    assert!(e.message.contains("1.4"), "{e}");
    let long = vec![Decimal::ZERO; MAX_RECOVERY_YEARS as usize + 2];
    assert_eq!(refused(tax_shield_pv(&long, dec!(0.21), dec!(0.08))).field, "schedule");
}

/// The names a tax profile will be saved under.
#[test]
fn methods_and_conventions_serialize_in_kebab_case() {
    let names = [
        (StraightLine, "\"straight-line\""),
        (DecliningBalance150, "\"declining-balance-150\""),
        (DecliningBalance200, "\"declining-balance-200\""),
        (MacrsGds, "\"macrs-gds\""),
    ];
    for (method, json) in names {
        assert_eq!(serde_json::to_string(&method).unwrap(), json);
        assert_eq!(serde_json::from_str::<DepreciationMethod>(json).unwrap(), method);
    }
    let conventions = [
        (Convention::None, r#"{"kind":"none"}"#),
        (Convention::HalfYear, r#"{"kind":"half-year"}"#),
        (
            Convention::MidQuarter(Quarter::Q4),
            r#"{"kind":"mid-quarter","quarter":"q4"}"#,
        ),
    ];
    for (convention, json) in conventions {
        assert_eq!(serde_json::to_string(&convention).unwrap(), json);
        assert_eq!(serde_json::from_str::<Convention>(json).unwrap(), convention);
    }
}
