//! The risk draws against what is known of them in closed form: Latin hypercube strata, the
//! distribution of a sum of two uniform inputs, rank correlation within a group, reproducibility.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use planner_core::engine::risk::sampling::{self as risk, Distribution, Input, Sampling};
use rust_decimal::Decimal;
use rust_decimal::dec;
use rust_decimal::prelude::ToPrimitive;

fn input(key: &str, distribution: Distribution, group: Option<&str>) -> Input {
    Input {
        key: key.to_owned(),
        distribution,
        group: group.map(str::to_owned),
    }
}

fn sampling(draws: usize, seed: u64, group_correlation: f64) -> Sampling {
    Sampling {
        draws,
        seed,
        group_correlation,
        shape: planner_core::engine::risk::sampling::Shape::Triangular,
    }
}

fn unit_uniform(key: &str, group: Option<&str>) -> Input {
    input(key, Distribution::uniform(dec!(0), dec!(1)), group)
}

/// Spearman's rank correlation of two samples without ties.
fn spearman(a: &[Decimal], b: &[Decimal]) -> f64 {
    let ranks = |x: &[Decimal]| {
        let mut order: Vec<usize> = (0..x.len()).collect();
        order.sort_by(|&i, &j| x[i].cmp(&x[j]));
        let mut r = vec![0.0; x.len()];
        for (rank, &i) in order.iter().enumerate() {
            r[i] = rank as f64;
        }
        r
    };
    let (ra, rb) = (ranks(a), ranks(b));
    let n = a.len() as f64;
    let d2: f64 = ra.iter().zip(&rb).map(|(x, y)| (x - y) * (x - y)).sum();
    1.0 - 6.0 * d2 / (n * (n * n - 1.0))
}

#[test]
fn the_same_seed_gives_the_same_draws_and_another_seed_others() {
    let inputs = [
        unit_uniform("a", None),
        unit_uniform("b", Some("aws")),
        unit_uniform("c", Some("aws")),
    ];
    let one = risk::draw(&inputs, &sampling(500, 7, 0.8));
    assert_eq!(one, risk::draw(&inputs, &sampling(500, 7, 0.8)));
    assert_ne!(one, risk::draw(&inputs, &sampling(500, 8, 0.8)));
    assert_eq!((one.len(), one[0].len()), (3, 500));
}

#[test]
fn every_stratum_of_a_range_is_drawn_exactly_once() {
    let n = 1_000;
    let draws = risk::draw(
        &[
            unit_uniform("a", None),
            unit_uniform("b", Some("g")),
            unit_uniform("c", Some("g")),
        ],
        &sampling(n, 42, 0.8),
    );
    for values in &draws {
        let mut strata: Vec<usize> = values
            .iter()
            .map(|v| (v * Decimal::from(n)).floor().to_usize().unwrap())
            .collect();
        strata.sort_unstable();
        assert_eq!(
            strata,
            (0..n).collect::<Vec<_>>(),
            "pairing by rank must keep the strata"
        );
    }
}

#[test]
fn a_sum_of_two_independent_uniforms_has_the_triangular_spread() {
    // X, Y ~ U(0, 1) independent: X + Y is triangular on 0..2 with mode 1, so its mean and median
    // are 1, its 10th percentile √0.2 = 0.4472 and its 90th 2 − √0.2 = 1.5528.
    let n = 10_000;
    let draws = risk::draw(
        &[unit_uniform("x", None), unit_uniform("y", None)],
        &sampling(n, 2026, 0.8),
    );
    let sums: Vec<Decimal> = draws[0].iter().zip(&draws[1]).map(|(x, y)| x + y).collect();
    let s = risk::spread(&sums).unwrap();
    // Latin hypercube: the mean of each input is exact to within 1/(2n) per input.
    assert!((s.mean - dec!(1)).abs() < dec!(0.0001), "mean {}", s.mean);
    // The percentiles of the sum are sampled (its pairing is random); with 10,000 draws their
    // standard error is about 0.004 (0.6 × √(p(1−p)/n) ÷ density): 0.02 is five of them.
    let within = |got: Decimal, want: f64| (got.to_f64().unwrap() - want).abs() < 0.02;
    let root = 0.2_f64.sqrt();
    assert!(within(s.p10, root), "P10 {}", s.p10);
    assert!(within(s.p50, 1.0), "P50 {}", s.p50);
    assert!(within(s.p90, 2.0 - root), "P90 {}", s.p90);
}

#[test]
fn inputs_of_one_group_move_together_and_others_do_not() {
    let n = 5_000;
    let inputs = [
        unit_uniform("aws-h100", Some("aws")),
        unit_uniform("aws-a100", Some("aws")),
        unit_uniform("tariff", None),
    ];
    let draws = risk::draw(&inputs, &sampling(n, 11, 0.8));
    // A Gaussian copula of correlation 0.8 has rank correlation (6/π) asin(0.4) = 0.7859.
    let want = 6.0 / std::f64::consts::PI * (0.4_f64).asin();
    let within_group = spearman(&draws[0], &draws[1]);
    assert!((within_group - want).abs() < 0.02, "within the group: {within_group}");
    // Independent: the standard error of Spearman's ρ is 1/√(n−1) = 0.014; 0.05 is 3.5 of them.
    assert!(spearman(&draws[0], &draws[2]).abs() < 0.05);
    let apart = risk::draw(&inputs, &sampling(n, 11, 0.0));
    assert!(spearman(&apart[0], &apart[1]).abs() < 0.05);
}

#[test]
fn a_range_of_one_point_is_drawn_as_that_point_every_time() {
    let fixed = input(
        "tariff",
        Distribution::triangular(dec!(0.1234), dec!(0.1234), dec!(0.1234)),
        Some("grid"),
    );
    let draws = risk::draw(&[fixed, unit_uniform("other", Some("grid"))], &sampling(300, 3, 0.8));
    assert!(draws[0].iter().all(|v| *v == dec!(0.1234)));
    let s = risk::spread(&draws[0]).unwrap();
    assert_eq!(
        (s.p10, s.p50, s.p90, s.mean),
        (dec!(0.1234), dec!(0.1234), dec!(0.1234), dec!(0.1234))
    );
}

#[test]
fn a_scenario_cheaper_in_every_paired_draw_is_cheaper_with_probability_one() {
    let draws = risk::draw(&[unit_uniform("rate", None)], &sampling(1_000, 5, 0.8));
    // Two scenarios on the same draw of the rate: A pays 100 × rate, B 100 × rate + 1.
    let a: Vec<Decimal> = draws[0].iter().map(|r| r * dec!(100)).collect();
    let b: Vec<Decimal> = a.iter().map(|x| x + dec!(1)).collect();
    assert_eq!(risk::probability_below(&a, &b), Some(dec!(1)));
    assert_eq!(risk::probability_below(&b, &a), Some(dec!(0)));
}

/// PERT against the beta distributions it is built from, in closed form: with the mode at the
/// low end it is Beta(1, 5), whose quantile is `1 − (1 − p)^(1/5)`; with the mode in the middle it
/// is Beta(3, 3), whose CDF is `10x³ − 15x⁴ + 6x⁵`. Its mean is `(low + 4 mode + high) / 6`.
#[test]
fn pert_draws_follow_the_beta_distribution_of_their_low_mode_and_high() {
    let f = |d: Decimal| d.to_f64().unwrap();
    let at_low = Distribution::pert(dec!(10), dec!(10), dec!(20));
    let middle = Distribution::pert(dec!(0), dec!(5), dec!(10));
    for p in [0.01_f64, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99] {
        let expected = 10.0 + 10.0 * (1.0 - (1.0 - p).powf(0.2));
        assert!((f(at_low.quantile(p)) - expected).abs() < 1e-6, "Beta(1,5) at {p}");
        let x = f(middle.quantile(p)) / 10.0;
        let cdf = 10.0 * x.powi(3) - 15.0 * x.powi(4) + 6.0 * x.powi(5);
        assert!((cdf - p).abs() < 1e-7, "Beta(3,3) at {p}: CDF {cdf}");
    }
    assert_eq!((at_low.quantile(0.0), at_low.quantile(1.0)), (dec!(10), dec!(20)));
    assert_eq!(middle.mean(), dec!(5));
    assert_eq!(Distribution::pert(dec!(0), dec!(3), dec!(12)).mean(), dec!(4));
    // 4,000 Latin hypercube draws average to the mean within 0.1 % of the range.
    let skewed = Distribution::pert(dec!(0), dec!(3), dec!(12));
    let draws = risk::draw(&[input("x", skewed, None)], &sampling(4_000, 5, 0.0));
    let mean = draws[0].iter().map(|d| f(*d)).sum::<f64>() / 4_000.0;
    assert!((mean - 4.0).abs() < 0.012, "mean {mean}");
}
