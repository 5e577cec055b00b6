//! Price paths (issue #44): each figure below is worked out by hand in the test (a power, a
//! square root or an interpolation written out), never by calling the path twice.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use planner_core::market_shape::{Period, Point, PricePath, Refusal};
use rust_decimal::{Decimal, RoundingStrategy, dec};

/// Rounds half-even to `dp` decimals, for comparisons with hand figures.
fn round(x: Decimal, dp: u32) -> Decimal {
    x.round_dp_with_strategy(dp, RoundingStrategy::MidpointNearestEven)
}

/// The computed multiplier agrees with the exact hand figure to 20 decimals (the monthly root is
/// exact to ~27 digits; twelve or twenty-four multiplications keep 20 easily).
fn assert_close(got: Decimal, want: Decimal) {
    assert!((got - want).abs() < dec!(1e-20), "got {got}, want {want}");
}

fn fall_then_rebound() -> PricePath {
    PricePath::Periods {
        periods: vec![
            Period {
                from_month: 0,
                per_year: dec!(-0.6),
            },
            Period {
                from_month: 12,
                per_year: dec!(0.4),
            },
        ],
    }
}

fn halving_points() -> PricePath {
    PricePath::Points {
        points: vec![
            Point {
                month: 0,
                multiplier: dec!(1),
            },
            Point {
                month: 12,
                multiplier: dec!(0.5),
            },
        ],
    }
}

fn refusal(path: &PricePath) -> Refusal {
    match path.validate() {
        Err(e) => e,
        Ok(()) => panic!("{path:?} should be refused"),
    }
}

#[test]
fn flat_is_one_every_month() {
    let path = PricePath::Flat {};
    assert_eq!(path.validate(), Ok(()));
    assert_eq!(path.multipliers(60), vec![Decimal::ONE; 60]);
    assert_eq!(path.multiplier(1_000), Decimal::ONE);
    assert_eq!(PricePath::default(), PricePath::Flat {});
}

#[test]
fn a_rate_of_minus_25_percent_compounds_monthly() {
    let path = PricePath::Rate { per_year: dec!(-0.25) };
    assert_eq!(path.validate(), Ok(()));
    assert_eq!(path.multiplier(0), Decimal::ONE);
    // One year: 1 - 0.25 = 0.75. Two years: 0.75 × 0.75 = 0.5625.
    assert_close(path.multiplier(12), dec!(0.75));
    assert_close(path.multiplier(24), dec!(0.5625));
    // Half a year: 0.75^(1/2) = sqrt(0.75) = 0.866025403784...; 0.8660254² = 0.74999999... and
    // 0.8660255² = 0.75000016..., so to 7 decimals it is 0.8660254.
    assert_eq!(round(path.multiplier(6), 7), dec!(0.8660254));
    // Each month is cheaper than the one before.
    let all = path.multipliers(25);
    assert_eq!(all.len(), 25);
    assert!(all.windows(2).all(|w| w[1] < w[0]));
}

#[test]
fn a_rising_rate_compounds_too() {
    // +10% a year for three years: 1.1 × 1.1 × 1.1 = 1.331.
    let path = PricePath::Rate { per_year: dec!(0.1) };
    assert_close(path.multiplier(36), dec!(1.331));
}

#[test]
fn a_fall_then_a_rebound() {
    let path = fall_then_rebound();
    assert_eq!(path.validate(), Ok(()));
    assert_eq!(path.multiplier(0), Decimal::ONE);
    // A year at -60%: 1 - 0.6 = 0.4.
    assert_close(path.multiplier(12), dec!(0.4));
    // Then a year at +40%: 0.4 × 1.4 = 0.56.
    assert_close(path.multiplier(24), dec!(0.56));
    // Half-way through the fall: sqrt(0.4) = 0.632455532...
    assert_eq!(round(path.multiplier(6), 7), dec!(0.6324555));
    // Half-way through the rebound: 0.4 × sqrt(1.4) = 0.4 × 1.183215956... = 0.473286382...
    assert_eq!(round(path.multiplier(18), 7), dec!(0.4732864));
    // The lowest month is the end of the fall.
    let all = path.multipliers(25);
    let lowest = all.iter().copied().fold(Decimal::MAX, Decimal::min);
    assert_eq!(all[12], lowest);
}

#[test]
fn before_the_first_period_the_path_is_flat() {
    // Flat for 6 months, then -50% a year: at month 18 one year of it, 0.5.
    let path = PricePath::Periods {
        periods: vec![Period {
            from_month: 6,
            per_year: dec!(-0.5),
        }],
    };
    assert_eq!(path.multiplier(0), Decimal::ONE);
    assert_eq!(path.multiplier(6), Decimal::ONE);
    assert_close(path.multiplier(18), dec!(0.5));
}

#[test]
fn points_interpolate_linearly_and_hold_after_the_last() {
    let path = halving_points();
    assert_eq!(path.validate(), Ok(()));
    // Half-way from 1 to 0.5: 1 + (0.5 - 1) × 6/12 = 0.75.
    assert_eq!(path.multiplier(6), dec!(0.75));
    // A quarter of the way: 1 - 0.5 × 3/12 = 0.875.
    assert_eq!(path.multiplier(3), dec!(0.875));
    assert_eq!(path.multiplier(12), dec!(0.5));
    // After the last point: flat at its multiplier.
    assert_eq!(path.multiplier(30), dec!(0.5));
}

#[test]
fn points_are_flat_before_the_first() {
    // Flat at 1.2 until month 6, then down to 0.9 at month 10: month 8 is 1.2 - 0.3 × 2/4 = 1.05.
    let path = PricePath::Points {
        points: vec![
            Point {
                month: 6,
                multiplier: dec!(1.2),
            },
            Point {
                month: 10,
                multiplier: dec!(0.9),
            },
        ],
    };
    assert_eq!(path.multiplier(0), dec!(1.2));
    assert_eq!(path.multiplier(8), dec!(1.05));
    assert_eq!(path.multiplier(11), dec!(0.9));
}

#[test]
fn rates_at_or_below_minus_one_or_above_ten_are_refused() {
    for bad in [dec!(-1), dec!(-1.5), dec!(10.01)] {
        let e = refusal(&PricePath::Rate { per_year: bad });
        assert_eq!(e.field, "per_year");
        assert!(e.message.contains(&bad.to_string()), "{e}");
    }
    assert_eq!(PricePath::Rate { per_year: dec!(10) }.validate(), Ok(()));
    assert_eq!(PricePath::Rate { per_year: dec!(-0.99) }.validate(), Ok(()));

    let e = refusal(&PricePath::Periods {
        periods: vec![
            Period {
                from_month: 0,
                per_year: dec!(-0.2),
            },
            Period {
                from_month: 12,
                per_year: dec!(11),
            },
        ],
    });
    assert_eq!(e.field, "periods[1].per_year");
    assert!(e.message.contains("at most 10"), "{e}");
}

#[test]
fn periods_must_strictly_increase() {
    for second in [12, 5] {
        let e = refusal(&PricePath::Periods {
            periods: vec![
                Period {
                    from_month: 12,
                    per_year: dec!(-0.2),
                },
                Period {
                    from_month: second,
                    per_year: dec!(0.1),
                },
            ],
        });
        assert_eq!(e.field, "periods[1].from_month");
        assert!(e.message.contains("strictly increasing"), "{e}");
    }
}

#[test]
fn points_must_strictly_increase_and_stay_in_range() {
    let e = refusal(&PricePath::Points {
        points: vec![
            Point {
                month: 0,
                multiplier: dec!(1),
            },
            Point {
                month: 12,
                multiplier: dec!(0.5),
            },
            Point {
                month: 12,
                multiplier: dec!(0.4),
            },
        ],
    });
    assert_eq!(e.field, "points[2].month");
    assert!(e.message.contains("strictly increasing"), "{e}");

    for bad in [dec!(0), dec!(-0.5), dec!(100.5)] {
        let e = refusal(&PricePath::Points {
            points: vec![
                Point {
                    month: 0,
                    multiplier: dec!(1),
                },
                Point {
                    month: 6,
                    multiplier: bad,
                },
            ],
        });
        assert_eq!(e.field, "points[1].multiplier");
        assert!(e.message.contains("above 0 and at most 100"), "{e}");
    }
    assert_eq!(
        PricePath::Points {
            points: vec![Point {
                month: 0,
                multiplier: dec!(100)
            }]
        }
        .validate(),
        Ok(())
    );
}

#[test]
fn at_most_240_periods_or_points() {
    let points = |n: u32| PricePath::Points {
        points: (0..n)
            .map(|month| Point {
                month,
                multiplier: dec!(1),
            })
            .collect(),
    };
    let periods = |n: u32| PricePath::Periods {
        periods: (0..n)
            .map(|from_month| Period {
                from_month,
                per_year: dec!(0),
            })
            .collect(),
    };
    assert_eq!(points(240).validate(), Ok(()));
    assert_eq!(periods(240).validate(), Ok(()));
    let e = refusal(&points(241));
    assert_eq!(e.field, "points");
    assert!(e.message.contains("at most 240"), "{e}");
    assert_eq!(refusal(&periods(241)).field, "periods");
}

fn round_trip(json: &str, want: &PricePath) {
    let read: PricePath = serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"));
    assert_eq!(&read, want);
    let written = serde_json::to_string(&read).unwrap_or_else(|e| panic!("{e}"));
    let again: PricePath = serde_json::from_str(&written).unwrap_or_else(|e| panic!("{written}: {e}"));
    assert_eq!(&again, want);
}

#[test]
fn every_kind_reads_and_writes_as_json() {
    round_trip(r#"{"kind": "flat"}"#, &PricePath::Flat {});
    round_trip(
        r#"{"kind": "rate", "per_year": "-0.25"}"#,
        &PricePath::Rate { per_year: dec!(-0.25) },
    );
    round_trip(
        r#"{"kind": "periods", "periods": [
            {"from_month": 0, "per_year": "-0.6"},
            {"from_month": 12, "per_year": "0.4"}
        ]}"#,
        &fall_then_rebound(),
    );
    round_trip(
        r#"{"kind": "points", "points": [
            {"month": 0, "multiplier": "1"},
            {"month": 12, "multiplier": "0.5"}
        ]}"#,
        &halving_points(),
    );
    assert_eq!(
        serde_json::to_string(&PricePath::Rate { per_year: dec!(-0.25) })
            .ok()
            .as_deref(),
        Some(r#"{"kind":"rate","per_year":"-0.25"}"#)
    );
}

#[test]
fn unknown_kinds_and_fields_are_refused() {
    for json in [
        r#"{"kind": "linear", "per_year": "0.1"}"#,
        r#"{"kind": "flat", "per_year": "0.1"}"#,
        r#"{"kind": "rate", "per_year": "0.1", "per_month": "0.01"}"#,
        r#"{"kind": "points", "points": [{"month": 0, "multiplier": "1", "note": "x"}]}"#,
        r#"{"kind": "periods", "periods": [{"from": 0, "per_year": "0.1"}]}"#,
    ] {
        assert!(
            serde_json::from_str::<PricePath>(json).is_err(),
            "{json} should be refused"
        );
    }
}
