//! Resale derived from newer generations' price-performance (issue #44), against the hand
//! arithmetic of the domain notes: "with price-performance doubling every 2.46 years (Epoch AI, all
//! GPUs), a card keeps 2^(-3/2.46) = 43 % of its price after 3 years and 24 % after 5; at 30 %
//! cheaper each year at fixed performance, 34 % and 17 %." Epoch AI also gives 2.07 years for ML
//! GPUs. The unrounded shares are also checked against 40-digit references (Python `decimal`,
//! precision 40).

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use planner_core::engine::blocks::refused::Refused;
use planner_core::engine::blocks::resale::{DerivedResale, ResaleBasis, derived_resale, share_at};
use planner_core::market_shape::Decay;
use rust_decimal::{Decimal, RoundingStrategy, dec};

fn doubling(years: Decimal) -> Decay {
    Decay::Doubling { years }
}

fn decline(per_year: Decimal) -> Decay {
    Decay::Decline { per_year }
}

/// A share as a whole percentage, rounded half-even, as the notes print it.
fn percent(share: Decimal) -> Decimal {
    (share * dec!(100)).round_dp_with_strategy(0, RoundingStrategy::MidpointNearestEven)
}

fn assert_close(got: Decimal, want: Decimal, tolerance: Decimal) {
    assert!(
        (got - want).abs() <= tolerance,
        "got {got}, want {want} within {tolerance}"
    );
}

#[test]
fn doubling_every_2_46_years_keeps_43_percent_after_3_years_and_24_after_5() {
    let three = share_at(doubling(dec!(2.46)), 36).unwrap();
    let five = share_at(doubling(dec!(2.46)), 60).unwrap();
    assert_eq!(percent(three), dec!(43));
    assert_eq!(percent(five), dec!(24));
    // 2^(-36/29.52) and 2^(-60/29.52) to 40 digits.
    assert_close(three, dec!(0.4294278920805293903080801579), dec!(1e-20));
    assert_close(five, dec!(0.2444276966935688549199915417), dec!(1e-20));
}

#[test]
fn doubling_every_2_07_years_ml_gpus() {
    // 2^(-36/24.84) = 0.3662..., 2^(-30/24.84) = 0.4329494609991228503149606529.
    let at_30 = share_at(doubling(dec!(2.07)), 30).unwrap();
    assert_close(at_30, dec!(0.4329494609991228503149606529), dec!(1e-20));
    assert_eq!(percent(share_at(doubling(dec!(2.07)), 36).unwrap()), dec!(37));
}

#[test]
fn thirty_percent_cheaper_a_year_keeps_34_percent_after_3_years_and_17_after_5() {
    let three = share_at(decline(dec!(0.30)), 36).unwrap();
    let five = share_at(decline(dec!(0.30)), 60).unwrap();
    assert_eq!(percent(three), dec!(34));
    assert_eq!(percent(five), dec!(17));
    // Whole years: exact, 0.7^3 and 0.7^5.
    assert_eq!(three, dec!(0.343));
    assert_eq!(five, dec!(0.16807));
}

#[test]
fn a_fractional_year_of_decline_is_the_root() {
    // (0.7)^(1/2) = sqrt(0.7) = 0.8366600265340755479781720258 (40-digit reference).
    let half = share_at(decline(dec!(0.30)), 6).unwrap();
    assert_close(half, dec!(0.8366600265340755479781720258), dec!(1e-20));
    // Two half-years make a year.
    assert_close(half * half, dec!(0.7), dec!(1e-20));
}

#[test]
fn one_whole_doubling_period_halves_exactly() {
    assert_eq!(share_at(doubling(dec!(2)), 24).unwrap(), dec!(0.5));
    assert_eq!(share_at(doubling(dec!(1)), 36).unwrap(), dec!(0.125));
    // A fractional number of years whose period is whole months still halves exactly.
    assert_close(share_at(doubling(dec!(2.5)), 30).unwrap(), dec!(0.5), Decimal::ZERO);
}

#[test]
fn a_new_card_keeps_its_price_and_value_falls_with_age() {
    assert_eq!(share_at(doubling(dec!(2.46)), 0).unwrap(), Decimal::ONE);
    assert_eq!(share_at(decline(dec!(0.30)), 0).unwrap(), Decimal::ONE);
    assert_eq!(share_at(decline(Decimal::ZERO), 60).unwrap(), Decimal::ONE);
    for decay in [doubling(dec!(2.46)), doubling(dec!(2.07)), decline(dec!(0.3))] {
        let mut last = Decimal::ONE;
        for month in 1..=120 {
            let share = share_at(decay, month).unwrap();
            assert!(
                share < last && share > Decimal::ZERO,
                "{decay:?} month {month}: {share}"
            );
            last = share;
        }
    }
}

#[test]
fn a_very_old_card_keeps_nothing_without_error() {
    assert_eq!(share_at(doubling(dec!(0.1)), 10_000).unwrap(), Decimal::ZERO);
    // 12 000 months is exactly 10 000 doublings of 1.2 months.
    assert_eq!(share_at(doubling(dec!(0.1)), 12_000).unwrap(), Decimal::ZERO);
    assert_eq!(share_at(decline(dec!(0.99)), u32::MAX).unwrap(), Decimal::ZERO);
}

#[test]
fn resale_value_is_price_times_share_when_the_margin_is_larger() {
    let resale = derived_resale(dec!(30000), decline(dec!(0.3)), 36, Some(dec!(20000)), true).unwrap();
    assert_eq!(
        resale,
        DerivedResale {
            value: dec!(10290.000),
            share: dec!(0.343),
            capped_by_margin: false,
            basis: ResaleBasis::DerivedFromPricePerformance,
        }
    );
    let unbounded = derived_resale(dec!(30000), doubling(dec!(2)), 24, None, true).unwrap();
    assert_eq!(unbounded.value, dec!(15000));
    assert!(!unbounded.capped_by_margin);
}

#[test]
fn resale_value_is_capped_by_the_remaining_rental_margin() {
    let resale = derived_resale(dec!(30000), decline(dec!(0.3)), 36, Some(dec!(8000)), true).unwrap();
    assert_eq!(resale.value, dec!(8000));
    assert_eq!(resale.share, dec!(0.343));
    assert!(resale.capped_by_margin);
    assert_eq!(resale.basis, ResaleBasis::DerivedFromPricePerformance);
    // A margin equal to the path's value does not cap it.
    let equal = derived_resale(dec!(30000), decline(dec!(0.3)), 36, Some(dec!(10290)), true).unwrap();
    assert_eq!(equal.value, dec!(10290));
    assert!(!equal.capped_by_margin);
}

#[test]
fn resale_value_is_never_below_zero() {
    let resale = derived_resale(dec!(30000), decline(dec!(0.3)), 36, Some(dec!(-500)), true).unwrap();
    assert_eq!(resale.value, Decimal::ZERO);
    assert!(resale.capped_by_margin);
    let free = derived_resale(Decimal::ZERO, doubling(dec!(2.46)), 36, None, true).unwrap();
    assert_eq!(free.value, Decimal::ZERO);
}

#[test]
fn a_card_without_a_resale_market_resells_at_zero() {
    let resale = derived_resale(dec!(15000), doubling(dec!(2.46)), 36, Some(dec!(9000)), false).unwrap();
    assert_eq!(resale.value, Decimal::ZERO);
    assert_eq!(resale.basis, ResaleBasis::NoResaleMarket);
    assert!(!resale.capped_by_margin);
    // The path's share is still reported.
    assert_eq!(percent(resale.share), dec!(43));
}

fn refused_field(result: Result<impl std::fmt::Debug, Refused>) -> String {
    let error = result.unwrap_err();
    assert!(error.to_string().starts_with(&error.field), "{error}");
    error.field
}

#[test]
fn bad_input_is_refused_naming_the_field() {
    assert_eq!(refused_field(share_at(doubling(Decimal::ZERO), 12)), "years");
    assert_eq!(refused_field(share_at(doubling(dec!(-2.46)), 12)), "years");
    assert_eq!(refused_field(share_at(decline(dec!(1)), 12)), "per_year");
    assert_eq!(refused_field(share_at(decline(dec!(1.2)), 12)), "per_year");
    assert_eq!(refused_field(share_at(decline(dec!(-0.1)), 12)), "per_year");
    // Refused even at age 0, where the share would not depend on them.
    assert_eq!(refused_field(share_at(doubling(Decimal::ZERO), 0)), "years");
    assert_eq!(refused_field(share_at(decline(dec!(1)), 0)), "per_year");
    assert_eq!(
        refused_field(derived_resale(dec!(-1), doubling(dec!(2.46)), 12, None, true)),
        "price"
    );
    assert_eq!(
        refused_field(derived_resale(dec!(-1), doubling(dec!(2.46)), 12, None, false)),
        "price"
    );
    assert_eq!(
        refused_field(derived_resale(dec!(100), decline(dec!(1)), 12, None, false)),
        "per_year"
    );
}

#[test]
fn serde_round_trip() {
    for decay in [doubling(dec!(2.46)), decline(dec!(0.3))] {
        let json = serde_json::to_string(&decay).unwrap();
        assert_eq!(serde_json::from_str::<Decay>(&json).unwrap(), decay);
    }
    assert_eq!(
        serde_json::to_value(doubling(dec!(2.07))).unwrap(),
        serde_json::json!({ "kind": "doubling", "years": "2.07" })
    );
    assert_eq!(
        serde_json::to_value(decline(dec!(0.3))).unwrap(),
        serde_json::json!({ "kind": "decline", "per_year": "0.3" })
    );
    assert!(serde_json::from_str::<Decay>(r#"{"kind":"doubling","years":"2","extra":1}"#).is_err());

    let resale = derived_resale(dec!(30000), decline(dec!(0.3)), 36, Some(dec!(8000)), true).unwrap();
    let json = serde_json::to_string(&resale).unwrap();
    assert_eq!(serde_json::from_str::<DerivedResale>(&json).unwrap(), resale);
    assert!(json.contains(r#""basis":"derived-from-price-performance""#), "{json}");
    let none = derived_resale(dec!(30000), decline(dec!(0.3)), 36, None, false).unwrap();
    let json = serde_json::to_string(&none).unwrap();
    assert!(json.contains(r#""basis":"no-resale-market""#), "{json}");
    assert_eq!(serde_json::from_str::<DerivedResale>(&json).unwrap(), none);
}
