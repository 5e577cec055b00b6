//! Risk sampling: the draws behind the spread of a plan's outcomes (issue #16).
//!
//! Each uncertain figure is an [`Input`]: a distribution over its range and, optionally, a group
//! whose members move together (the cloud rates of one provider). [`draw`] makes a seeded Latin
//! hypercube sample: every input's range is cut into as many equally likely strata as there are
//! draws and each stratum is drawn exactly once, so 1,000 draws cover a range as well as many more
//! plain random ones. Within a group the draws are then paired by rank so that their rank
//! correlation is the one asked for (a one-factor Gaussian copula over the ranks, after Iman and
//! Conover's method); the values themselves, and so each input's distribution, are unchanged.
//!
//! One draw of an input is shared by every scenario that uses it (common random numbers), so
//! "A cheaper than B" is judged on paired draws. Positions inside a range are `f64`; each drawn
//! value becomes a decimal before any money is computed, and every statistic of money
//! ([`spread`], [`probability_below`]) is taken over decimal totals: a figure shown or signed is
//! never a float.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rust_decimal::Decimal;
use rust_decimal::prelude::{FromPrimitive, ToPrimitive};
use serde::{Deserialize, Serialize};

/// Decimals kept of a drawn value: far below a cent of any amount the engine books.
const DRAWN_DECIMALS: u32 = 10;

/// How an uncertain figure is spread over its range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Distribution {
    /// Every value of the range equally likely: for a range with no most likely value.
    Uniform { low: Decimal, high: Decimal },
    /// Most likely at `mode`, falling linearly to `low` and `high`.
    Triangular { low: Decimal, mode: Decimal, high: Decimal },
    /// PERT: a beta distribution over `low..=high` with its mode at `mode` and shape parameters
    /// `α = 1 + 4 (mode − low) / (high − low)`, `β = 1 + 4 (high − mode) / (high − low)`; its
    /// mean is `(low + 4 mode + high) / 6`, so it leans on the mode more than a triangle does.
    Pert { low: Decimal, mode: Decimal, high: Decimal },
}

/// The family of distribution a risk analysis spreads each ranged figure with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum Shape {
    /// Triangular, its mode at the plan's price point (the default).
    #[default]
    Triangular,
    /// PERT (beta), its mode at the plan's price point.
    Pert,
    /// Uniform: no value of the range more likely than another (no mode claimed).
    Uniform,
}

impl Shape {
    /// The distribution of this shape over `low..=high` with its mode at `mode`.
    pub fn over(self, low: Decimal, mode: Decimal, high: Decimal) -> Distribution {
        match self {
            Shape::Triangular => Distribution::triangular(low, mode, high),
            Shape::Pert => Distribution::pert(low, mode, high),
            Shape::Uniform => Distribution::uniform(low, high),
        }
    }

    /// The shape's name in files and on the command line (`planner risk --shape`).
    pub fn name(self) -> &'static str {
        match self {
            Shape::Triangular => "triangular",
            Shape::Pert => "pert",
            Shape::Uniform => "uniform",
        }
    }

    /// The shape as a sentence names it.
    pub fn label(self) -> &'static str {
        match self {
            Shape::Triangular => "triangular",
            Shape::Pert => "PERT",
            Shape::Uniform => "uniform",
        }
    }
}

impl Distribution {
    /// A triangular distribution over `low..=high` with its mode at `mode` (clamped into the
    /// range); the bounds are put in order.
    pub fn triangular(low: Decimal, mode: Decimal, high: Decimal) -> Distribution {
        let (low, high) = if low <= high { (low, high) } else { (high, low) };
        Distribution::Triangular {
            low,
            mode: mode.clamp(low, high),
            high,
        }
    }

    /// A PERT distribution over `low..=high` with its mode at `mode` (clamped into the range); the
    /// bounds are put in order.
    pub fn pert(low: Decimal, mode: Decimal, high: Decimal) -> Distribution {
        let (low, high) = if low <= high { (low, high) } else { (high, low) };
        Distribution::Pert {
            low,
            mode: mode.clamp(low, high),
            high,
        }
    }

    /// A uniform distribution over `low..=high` (the bounds put in order).
    pub fn uniform(low: Decimal, high: Decimal) -> Distribution {
        let (low, high) = if low <= high { (low, high) } else { (high, low) };
        Distribution::Uniform { low, high }
    }

    fn bounds(&self) -> (Decimal, Decimal) {
        match *self {
            Distribution::Uniform { low, high }
            | Distribution::Triangular { low, high, .. }
            | Distribution::Pert { low, high, .. } => (low, high),
        }
    }

    /// The mean: `(low + high) / 2` uniform, `(low + mode + high) / 3` triangular,
    /// `(low + 4 mode + high) / 6` PERT.
    pub fn mean(&self) -> Decimal {
        match *self {
            Distribution::Uniform { low, high } => (low + high) / Decimal::TWO,
            Distribution::Triangular { low, mode, high } => (low + mode + high) / Decimal::from(3),
            Distribution::Pert { low, mode, high } => (low + Decimal::from(4) * mode + high) / Decimal::from(6),
        }
    }

    /// The value the plan's point takes: the mode of a triangle or a PERT, the middle of a
    /// uniform range.
    pub fn quantile_of_mode(&self) -> Decimal {
        match *self {
            Distribution::Uniform { low, high } => (low + high) / Decimal::TWO,
            Distribution::Triangular { mode, .. } | Distribution::Pert { mode, .. } => mode,
        }
    }

    /// The value below which a share `p` (0 to 1) of the distribution lies. A range of one point
    /// gives that point exactly; `p` outside 0..1 is taken at the nearest end.
    pub fn quantile(&self, p: f64) -> Decimal {
        let (low, high) = self.bounds();
        if low == high {
            return low;
        }
        let p = if p.is_nan() { 0.5 } else { p.clamp(0.0, 1.0) };
        let (a, b) = (to_f64(low), to_f64(high));
        let x = match *self {
            Distribution::Uniform { .. } => a + p * (b - a),
            Distribution::Triangular { mode, .. } => {
                let c = to_f64(mode);
                let at_mode = (c - a) / (b - a);
                if p < at_mode {
                    a + (p * (b - a) * (c - a)).sqrt()
                } else {
                    b - ((1.0 - p) * (b - a) * (b - c)).sqrt()
                }
            }
            Distribution::Pert { mode, .. } => {
                let at_mode = (to_f64(mode) - a) / (b - a);
                let (alpha, beta) = (1.0 + 4.0 * at_mode, 1.0 + 4.0 * (1.0 - at_mode));
                let x = match p {
                    0.0 => 0.0,
                    1.0 => 1.0,
                    _ => puruspe::invbetai(p, alpha, beta),
                };
                a + x.clamp(0.0, 1.0) * (b - a)
            }
        };
        Decimal::from_f64(x)
            .map(|d| d.round_dp(DRAWN_DECIMALS))
            .unwrap_or(low)
            .clamp(low, high)
    }
}

fn to_f64(d: Decimal) -> f64 {
    d.to_f64().unwrap_or(0.0)
}

/// One uncertain figure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// What the figure is (a catalog entry and field, or a scenario-file path): one key, one draw
    /// per iteration, whatever scenarios use it.
    pub key: String,
    pub distribution: Distribution,
    /// Inputs of one group move together (e.g. the cloud rates of one provider).
    pub group: Option<String>,
}

/// How many draws, from which seed, and how strongly the inputs of a group move together.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sampling {
    pub draws: usize,
    pub seed: u64,
    /// The correlation of the Gaussian copula between two inputs of one group, 0 to 1 (0.8 gives
    /// a rank correlation of about 0.79). Inputs of different groups, or of none, are independent.
    pub group_correlation: f64,
    /// The family each ranged figure is drawn from.
    pub shape: Shape,
}

/// A uniform number in `[0, 1)` from 53 random bits.
fn unit(rng: &mut ChaCha8Rng) -> f64 {
    // 2^-53: the 53 bits of an f64 mantissa, exactly.
    const SCALE: f64 = 1.0 / 9_007_199_254_740_992.0;
    #[allow(clippy::cast_precision_loss)]
    let bits = (rng.next_u64() >> 11) as f64;
    bits * SCALE
}

/// A standard normal number (Box–Muller).
fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let u = 1.0 - unit(rng); // (0, 1]: ln is finite
    let v = unit(rng);
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// A random order of `0..n` (Fisher–Yates).
fn permutation(rng: &mut ChaCha8Rng, n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = usize::try_from(rng.next_u64() % (i as u64 + 1)).unwrap_or(0);
        order.swap(i, j);
    }
    order
}

/// The positions (0 to 1) of `n` Latin hypercube draws of one input: one in each of the `n`
/// equal strata, in random order.
fn stratified(rng: &mut ChaCha8Rng, n: usize) -> Vec<f64> {
    #[allow(clippy::cast_precision_loss)]
    let width = 1.0 / n as f64;
    permutation(rng, n)
        .into_iter()
        .map(|stratum| {
            #[allow(clippy::cast_precision_loss)]
            let start = stratum as f64 * width;
            start + unit(rng) * width
        })
        .collect()
}

/// The positions (0 to 1: the share of its distribution below the value) of every input's draws:
/// `out[i][d]` is input `i`'s position in draw `d`. Reproducible: the same inputs, seed and count
/// give the same positions. A figure's value in a draw is its distribution's quantile at that
/// position, so one position can be read on two distributions of the same figure (two price
/// points) and the draws stay paired.
pub fn positions(inputs: &[Input], sampling: &Sampling) -> Vec<Vec<f64>> {
    let n = sampling.draws;
    let mut rng = ChaCha8Rng::seed_from_u64(sampling.seed);
    let mut positions: Vec<Vec<f64>> = inputs.iter().map(|_| stratified(&mut rng, n)).collect();
    let rho = sampling.group_correlation.clamp(0.0, 1.0);
    if rho > 0.0 && n > 1 {
        correlate_groups(inputs, &mut positions, rho, &mut rng);
    }
    positions
}

/// The draws of every input: `out[i][d]` is input `i`'s value in draw `d`, the quantile of its
/// distribution at its [`positions`]. Reproducible: the same inputs, seed and count give the same
/// draws.
pub fn draw(inputs: &[Input], sampling: &Sampling) -> Vec<Vec<Decimal>> {
    values(inputs, &positions(inputs, sampling))
}

/// Each input's values at its `positions` (`positions[i][d]`): `out[i][d]` is the quantile of
/// input `i`'s distribution at its position in draw `d`.
pub fn values(inputs: &[Input], positions: &[Vec<f64>]) -> Vec<Vec<Decimal>> {
    inputs
        .iter()
        .zip(positions)
        .map(|(input, at)| at.iter().map(|p| input.distribution.quantile(*p)).collect())
        .collect()
}

/// Pairs the draws of each group's inputs by rank: scores from one common factor per group plus
/// each input's own noise; each input's positions, sorted, are dealt out in the order of its
/// scores. The positions themselves do not change, so the Latin hypercube strata are kept.
fn correlate_groups(inputs: &[Input], positions: &mut [Vec<f64>], rho: f64, rng: &mut ChaCha8Rng) {
    let n = positions.first().map_or(0, Vec::len);
    let mut groups: Vec<&str> = inputs.iter().filter_map(|i| i.group.as_deref()).collect();
    groups.sort_unstable();
    groups.dedup();
    let (common, own) = (rho.sqrt(), (1.0 - rho).sqrt());
    for group in groups {
        let members: Vec<usize> = (0..inputs.len())
            .filter(|&i| inputs[i].group.as_deref() == Some(group))
            .collect();
        if members.len() < 2 {
            continue;
        }
        let factor: Vec<f64> = (0..n).map(|_| normal(rng)).collect();
        for &i in &members {
            let scores: Vec<f64> = factor.iter().map(|f| common * f + own * normal(rng)).collect();
            let mut by_score: Vec<usize> = (0..n).collect();
            by_score.sort_by(|&a, &b| scores[a].total_cmp(&scores[b]));
            let mut sorted = positions[i].clone();
            sorted.sort_by(f64::total_cmp);
            for (rank, &d) in by_score.iter().enumerate() {
                positions[i][d] = sorted[rank];
            }
        }
    }
}

/// The spread of a set of outcomes: the 10th, 50th and 90th percentiles and the mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Spread {
    pub p10: Decimal,
    pub p50: Decimal,
    pub p90: Decimal,
    pub mean: Decimal,
}

/// The value below which a share `p` (0 to 1) of `sorted` (ascending) lies, interpolated linearly
/// between the two nearest ranks: numpy's default `percentile` and the spreadsheets'
/// `PERCENTILE.INC`. `None` for no values.
pub fn percentile(sorted: &[Decimal], p: Decimal) -> Option<Decimal> {
    let last = sorted.len().checked_sub(1)?;
    let h = Decimal::from(last) * p.clamp(Decimal::ZERO, Decimal::ONE);
    let below = h.floor();
    let i = below.to_usize().unwrap_or(0).min(last);
    let low = sorted[i];
    let high = sorted[(i + 1).min(last)];
    Some(low + (h - below) * (high - low))
}

/// The 10th, 50th and 90th percentiles and the mean of `values` (any order); `None` for none.
pub fn spread(values: &[Decimal]) -> Option<Spread> {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let at = |p: Decimal| percentile(&sorted, p);
    let sum: Decimal = sorted.iter().sum();
    Some(Spread {
        p10: at(Decimal::new(1, 1))?,
        p50: at(Decimal::new(5, 1))?,
        p90: at(Decimal::new(9, 1))?,
        mean: sum / Decimal::from(sorted.len()),
    })
}

/// The share of paired draws in which `a` is below `b` (ties count half), 0 to 1; `None` when
/// the two are not the same draws.
pub fn probability_below(a: &[Decimal], b: &[Decimal]) -> Option<Decimal> {
    if a.len() != b.len() || a.is_empty() {
        return None;
    }
    let halves: usize = a
        .iter()
        .zip(b)
        .map(|(x, y)| match x.cmp(y) {
            std::cmp::Ordering::Less => 2,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Greater => 0,
        })
        .sum();
    Some(Decimal::from(halves) / Decimal::from(2 * a.len()))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use rust_decimal::dec;

    use super::*;

    #[test]
    fn quantiles_follow_the_closed_forms() {
        let u = Distribution::uniform(dec!(10), dec!(20));
        assert_eq!(
            (u.quantile(0.0), u.quantile(0.25), u.quantile(1.0)),
            (dec!(10), dec!(12.5), dec!(20))
        );
        assert_eq!(u.mean(), dec!(15));
        // Triangular(0, 0.25, 1): F(mode) = 0.25; the median is 1 − √(0.5 × 0.75) = 0.3876275643.
        let t = Distribution::triangular(dec!(0), dec!(0.25), dec!(1));
        assert_eq!(t.quantile(0.5), dec!(0.3876275643));
        assert_eq!(t.quantile(0.25), dec!(0.25));
        assert_eq!(t.quantile(0.01), dec!(0.05));
        assert_eq!(t.mean().round_dp(6), dec!(0.416667));
        // A range of one point is that point, exactly, at every position.
        let point = Distribution::triangular(dec!(2.35), dec!(2.35), dec!(2.35));
        assert!([0.0, 0.3, 0.999].iter().all(|&p| point.quantile(p) == dec!(2.35)));
    }

    #[test]
    fn percentiles_interpolate_as_numpy_does() {
        let xs = [dec!(1), dec!(2), dec!(3), dec!(4)];
        // numpy.percentile([1, 2, 3, 4], [10, 50, 90]) == [1.3, 2.5, 3.7]
        assert_eq!(percentile(&xs, dec!(0.1)), Some(dec!(1.3)));
        assert_eq!(percentile(&xs, dec!(0.5)), Some(dec!(2.5)));
        assert_eq!(percentile(&xs, dec!(0.9)), Some(dec!(3.7)));
        assert_eq!(percentile(&[], dec!(0.5)), None);
        assert_eq!(percentile(&[dec!(7)], dec!(0.9)), Some(dec!(7)));
    }

    #[test]
    fn ties_count_half_and_unpaired_draws_give_nothing() {
        let a = [dec!(1), dec!(2), dec!(3), dec!(4)];
        let b = [dec!(2), dec!(2), dec!(2), dec!(2)];
        assert_eq!(probability_below(&a, &b), Some(dec!(0.375)));
        assert_eq!(probability_below(&a, &b[..3]), None);
    }
}
