//! The vendor scorecard: five axes, the buyer's weights, a ranking, and how far the weights must
//! move before a different vendor comes out on top.
//!
//! **Axes.** Each vendor gets a score from 0 to 1 on each axis, relative to the vendors compared
//! (min–max): the best vendor on an axis gets 1, the worst 0, the others in proportion; when every
//! vendor has the same value, all get 1 (the axis then separates nobody, whatever its weight),
//! except on *compliance*, whose measure is already a share from 0 to 1: there every vendor then
//! keeps its measure, so vendors none of which is cleared all read 0, not 100 % (issue #42).
//! - *performance*: measured MFU, higher is better;
//! - *reliability*: three measures, each put on 0..1 across the vendors first — annual failure
//!   rate (lower is better), SLA availability (higher), share of the bill refunded on an SLA miss
//!   (higher) — count equally: their sum is min–max scaled again, so the axis also runs 0..1;
//! - *cost*: TCO in the plan's currency (the vendor scenario's decision total, the figure the
//!   comparison ranks on: `vendors::scorecard_view`), lower is better;
//! - *service*: response time in hours (lower is better) and expert hours per month (higher),
//!   combined as reliability's measures are;
//! - *compliance*: the share (0..1) of checklist items passed, 0 for a vendor not cleared, with
//!   stated exit terms counting for half of it: the measure is `checklist × (1 + exit) ÷ 2`, where
//!   `exit` (0..1) is the share of the vendor's commitments whose quotes state exit terms (see
//!   `vendors::vendor_terms`). A vendor not cleared scores 0 whatever its exit terms (clearance
//!   is a gate, not a figure to trade); a cleared vendor that states no exit terms measures half
//!   one that does. When every vendor has the same `exit`, the axis is the checklist's alone.
//!
//! **Weights** are the buyer's, non-negative and on any scale (30/20/30/10/10 or 0.3/0.2/…); they
//! are divided by their sum, so they sum to 1. All zero is refused. A vendor's score is
//! `Σ weight × axis score`; the ranking is by score, highest first, ties broken by name in
//! ascending byte order (so `"Alpha"` before `"Beta"`; names must be unique).
//!
//! **Flip threshold.** The distance between two weight vectors `w`, `v` (both summing to 1) is
//! the weight moved between axes: `½ Σ |w_a − v_a|` (the sum of the increases, which equals the
//! sum of the decreases), reported as a share of the total weight and in percentage points. The
//! threshold is the smallest distance at which a different vendor takes the top spot.
//!
//! For the top vendor `t` and a challenger `c`, with `d_a = s_t,a − s_c,a`, `t`'s lead is
//! `M(w) = Σ w_a d_a ≥ 0`, linear in `w`. Moving an amount `x` of weight from axis `i` to axis
//! `j` changes `M` by `x (d_j − d_i)`. The cheapest way to bring `M` to 0 takes weight from the
//! axes where `t` leads most (largest `d`), in that order, each at most down to zero, and gives
//! it all to the axis `j*` where `c` leads most (smallest `d`). Why this is optimal: write any
//! move as removals `r_a ≥ 0` (at most `w_a`) and additions `p_a ≥ 0`, with `Σ r = Σ p = T` (the
//! distance). The change in `M` is `Σ p_a d_a − Σ r_a d_a ≥ T d_min − Σ r_a d_a`, and for a given
//! `T` the sum `Σ r_a d_a` is largest when removals fill the largest `d` first (a fractional
//! knapsack). Our move attains both bounds at once, so no move of size `T` lowers `M` more, and the
//! smallest `T` that brings `M` to 0 is the one the greedy finds (its reduction grows
//! monotonically with `T`). It can reach 0 only when `d_min ≤ 0`: a challenger behind on every axis
//! (dominated) never overtakes; one that at best ties (`d_min = 0`) takes the top only if its name
//! comes first. The threshold is the least distance over all challengers (ties: the better-ranked
//! challenger). At the returned weights the challenger ties the top vendor; any further move
//! towards its best axis puts it ahead (the threshold is an infimum).
//!
//! All arithmetic is in decimals, so a scorecard is reproducible to the digit; the only rounding
//! is the 28th significant digit of a division.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::problem::Problem;

/// The five axes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum Axis {
    Performance,
    Reliability,
    Cost,
    Service,
    Compliance,
}

impl Axis {
    pub const ALL: [Axis; 5] = [
        Axis::Performance,
        Axis::Reliability,
        Axis::Cost,
        Axis::Service,
        Axis::Compliance,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Axis::Performance => "performance",
            Axis::Reliability => "reliability",
            Axis::Cost => "cost",
            Axis::Service => "service",
            Axis::Compliance => "compliance",
        }
    }
}

/// One number per axis: weights, axis scores, or a change of weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PerAxis {
    pub performance: Decimal,
    pub reliability: Decimal,
    pub cost: Decimal,
    pub service: Decimal,
    pub compliance: Decimal,
}

impl PerAxis {
    pub fn from_array(v: [Decimal; 5]) -> PerAxis {
        PerAxis {
            performance: v[0],
            reliability: v[1],
            cost: v[2],
            service: v[3],
            compliance: v[4],
        }
    }

    /// In the order of [`Axis::ALL`].
    pub fn to_array(self) -> [Decimal; 5] {
        [
            self.performance,
            self.reliability,
            self.cost,
            self.service,
            self.compliance,
        ]
    }

    pub fn get(&self, a: Axis) -> Decimal {
        self.to_array()[a as usize]
    }

    /// `Σ self_a × other_a`: a score when one side is weights and the other axis scores.
    pub fn dot(&self, other: &PerAxis) -> Decimal {
        self.to_array().iter().zip(other.to_array()).map(|(a, b)| *a * b).sum()
    }
}

/// What is known of one vendor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct VendorInput {
    pub name: String,
    /// Measured model FLOPs utilisation, 0..1.
    pub mfu: Decimal,
    /// Annual failure rate (failures per device-year, e.g. 0.02).
    pub annual_failure_rate: Decimal,
    /// SLA availability, 0..1 (e.g. 0.999).
    pub sla: Decimal,
    /// Share of the bill refunded on an SLA miss, 0..1.
    pub sla_refund_share: Decimal,
    /// Total cost of ownership over the horizon, from the engine.
    pub tco: Decimal,
    /// Support response time, hours.
    pub response_hours: Decimal,
    /// Expert (solutions-engineer) hours per month.
    pub expert_hours_per_month: Decimal,
    /// Share of compliance checklist items passed, 0..1; 0 when the vendor is not cleared.
    pub compliance: Decimal,
    /// Share of the vendor's commitments whose exit terms are stated, 0..1 (1 when it commits to
    /// nothing a clause could end; 0 when unknown).
    pub exit_terms_stated: Decimal,
}

/// One vendor's place in the ranking.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct VendorScore {
    pub name: String,
    /// 0..1 per axis, relative to the vendors compared.
    pub axes: PerAxis,
    /// `Σ weight × axis score`, 0..1.
    pub score: Decimal,
    /// 1 for the top vendor.
    pub rank: u32,
}

/// The smallest change of weights that puts another vendor on top.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Flip {
    /// The vendor that would take the top spot.
    pub challenger: String,
    /// Weight moved between axes, as a share of the total weight (0..1).
    pub threshold: Decimal,
    /// The same, in percentage points.
    pub threshold_points: Decimal,
    /// The weights (summing to 1) at which the challenger ties the top vendor.
    pub weights: PerAxis,
    /// `weights` − the current weights.
    pub change: PerAxis,
}

/// A scored, ranked comparison of vendors.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Scorecard {
    /// The weights used, divided by their sum.
    pub weights: PerAxis,
    /// Best first.
    pub ranking: Vec<VendorScore>,
    /// `None` when no change of weights can change the top vendor (one vendor, or every other
    /// vendor dominated or at best tied and later by name).
    pub flip: Option<Flip>,
}

/// Checks the weights and divides them by their sum.
pub fn normalise_weights(weights: &PerAxis) -> Result<PerAxis, Vec<Problem>> {
    let mut problems = Vec::new();
    for a in Axis::ALL {
        let w = weights.get(a);
        if w < Decimal::ZERO {
            problems.push(Problem {
                path: format!("weights.{}", a.name()),
                message: format!("{w} is negative; give zero or more (weights are on any scale)"),
            });
        }
    }
    let sum: Decimal = weights.to_array().iter().sum();
    if problems.is_empty() && sum.is_zero() {
        problems.push(Problem {
            path: "weights".to_owned(),
            message: "every weight is zero: give at least one axis a positive weight (any scale; they are divided by their sum)".to_owned(),
        });
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(PerAxis::from_array(weights.to_array().map(|w| w / sum)))
}

fn check_vendors(vendors: &[VendorInput]) -> Vec<Problem> {
    let mut problems = Vec::new();
    if vendors.is_empty() {
        problems.push(Problem {
            path: "vendors".to_owned(),
            message: "no vendors to compare: give at least one".to_owned(),
        });
    }
    for (i, v) in vendors.iter().enumerate() {
        let p = format!("vendors[{i}]");
        if v.name.trim().is_empty() {
            problems.push(Problem {
                path: format!("{p}.name"),
                message: "a vendor needs a name (the ranking breaks ties by name)".to_owned(),
            });
        } else if vendors[..i].iter().any(|o| o.name == v.name) {
            problems.push(Problem {
                path: format!("{p}.name"),
                message: format!("`{}` is named twice; vendor names must be unique", v.name),
            });
        }
        let fractions = [
            ("mfu", v.mfu),
            ("sla", v.sla),
            ("sla_refund_share", v.sla_refund_share),
            ("compliance", v.compliance),
            ("exit_terms_stated", v.exit_terms_stated),
        ];
        for (field, value) in fractions {
            if value < Decimal::ZERO || value > Decimal::ONE {
                problems.push(Problem {
                    path: format!("{p}.{field}"),
                    message: format!("{value} is not a share: give a value from 0 to 1 (e.g. 0.5 for 50%)"),
                });
            }
        }
        let amounts = [
            ("annual_failure_rate", v.annual_failure_rate),
            ("tco", v.tco),
            ("response_hours", v.response_hours),
            ("expert_hours_per_month", v.expert_hours_per_month),
        ];
        for (field, value) in amounts {
            if value < Decimal::ZERO {
                problems.push(Problem {
                    path: format!("{p}.{field}"),
                    message: format!("{value} is negative; give zero or more"),
                });
            }
        }
    }
    problems
}

/// Min–max scaling across vendors: best 1, worst 0; all equal → all 1.
fn min_max(values: &[Decimal], higher_is_better: bool) -> Vec<Decimal> {
    let lo = values.iter().copied().min().unwrap_or_default();
    let hi = values.iter().copied().max().unwrap_or_default();
    let span = hi - lo;
    values
        .iter()
        .map(|v| {
            if span.is_zero() {
                Decimal::ONE
            } else if higher_is_better {
                (*v - lo) / span
            } else {
                (hi - *v) / span
            }
        })
        .collect()
}

/// Several measures of one axis: each min–max scaled, summed (equal say), and scaled again.
fn combined(measures: &[(Vec<Decimal>, bool)], n: usize) -> Vec<Decimal> {
    let mut sum = vec![Decimal::ZERO; n];
    for (values, higher) in measures {
        for (s, v) in sum.iter_mut().zip(min_max(values, *higher)) {
            *s += v;
        }
    }
    min_max(&sum, true)
}

/// Every vendor's five axis scores (in the vendors' order), or the problems with the input.
pub fn axis_scores(vendors: &[VendorInput]) -> Result<Vec<PerAxis>, Vec<Problem>> {
    let problems = check_vendors(vendors);
    if !problems.is_empty() {
        return Err(problems);
    }
    let n = vendors.len();
    let col = |f: fn(&VendorInput) -> Decimal| vendors.iter().map(f).collect::<Vec<_>>();
    let performance = min_max(&col(|v| v.mfu), true);
    let reliability = combined(
        &[
            (col(|v| v.annual_failure_rate), false),
            (col(|v| v.sla), true),
            (col(|v| v.sla_refund_share), true),
        ],
        n,
    );
    let cost = min_max(&col(|v| v.tco), false);
    let service = combined(
        &[
            (col(|v| v.response_hours), false),
            (col(|v| v.expert_hours_per_month), true),
        ],
        n,
    );
    let compliance_measure = col(|v| v.compliance * (Decimal::ONE + v.exit_terms_stated) / Decimal::TWO);
    let compliance = if compliance_measure.windows(2).all(|w| w[0] == w[1]) {
        // Every vendor measures the same: each keeps its own share (0 when none is cleared).
        compliance_measure
    } else {
        min_max(&compliance_measure, true)
    };
    Ok((0..n)
        .map(|i| PerAxis {
            performance: performance[i],
            reliability: reliability[i],
            cost: cost[i],
            service: service[i],
            compliance: compliance[i],
        })
        .collect())
}

/// Scores and ranks vendors under weights that already sum to 1: by score, highest first, ties
/// by name ascending.
pub fn rank(names: &[String], axes: &[PerAxis], weights: &PerAxis) -> Vec<VendorScore> {
    let mut out: Vec<VendorScore> = names
        .iter()
        .zip(axes)
        .map(|(name, a)| VendorScore {
            name: name.clone(),
            axes: *a,
            score: weights.dot(a),
            rank: 0,
        })
        .collect();
    out.sort_by(|a, b| b.score.cmp(&a.score).then_with(|| a.name.cmp(&b.name)));
    for (i, v) in out.iter_mut().enumerate() {
        v.rank = u32::try_from(i + 1).unwrap_or(u32::MAX);
    }
    out
}

/// Weight moved between two weight vectors that each sum to 1: `½ Σ |a − b|`.
pub fn weight_distance(a: &PerAxis, b: &PerAxis) -> Decimal {
    let l1: Decimal = a.to_array().iter().zip(b.to_array()).map(|(x, y)| (*x - y).abs()).sum();
    l1 / Decimal::TWO
}

/// The least move of weight that lets `challenger` catch `top` (see the module docs), with the
/// weights it leads to; `None` when it never can.
fn catch_up(top: &VendorScore, challenger: &VendorScore, weights: &PerAxis) -> Option<(Decimal, PerAxis)> {
    let d: Vec<Decimal> = Axis::ALL
        .iter()
        .map(|a| top.axes.get(*a) - challenger.axes.get(*a))
        .collect();
    let w = weights.to_array();
    let lead: Decimal = w.iter().zip(&d).map(|(w, d)| *w * *d).sum();
    // The axis where the challenger leads most (the first such axis on a tie).
    let (target, d_min) = d
        .iter()
        .copied()
        .enumerate()
        .min_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)))?;
    let wins_ties = challenger.name < top.name;
    if d_min > Decimal::ZERO || (d_min.is_zero() && !wins_ties) {
        return None;
    }
    // Take from the axes where the top vendor leads most first.
    let mut order: Vec<usize> = (0..5).collect();
    order.sort_by(|a, b| d[*b].cmp(&d[*a]).then(a.cmp(b)));
    let mut remaining = lead;
    let mut moved = Decimal::ZERO;
    let mut new = w;
    for i in order {
        if remaining <= Decimal::ZERO {
            break;
        }
        let gain = d[i] - d_min;
        if gain <= Decimal::ZERO {
            break;
        }
        let take = w[i].min(remaining / gain);
        new[i] -= take;
        new[target] += take;
        moved += take;
        remaining -= take * gain;
    }
    // `d_min ≤ 0` makes the full move enough (Σ w (d − d_min) = lead − d_min ≥ lead); what could
    // be left is the rounding of the last division, far below any digit a person reads.
    Some((moved, PerAxis::from_array(new)))
}

/// The smallest change of `weights` (summing to 1) that changes the top vendor of `ranking`
/// (best first, as [`rank`] returns it), or `None` when none does.
pub fn flip_threshold(ranking: &[VendorScore], weights: &PerAxis) -> Option<Flip> {
    let (top, rest) = ranking.split_first()?;
    let mut best: Option<(Decimal, &VendorScore, PerAxis)> = None;
    for c in rest {
        let Some((moved, new)) = catch_up(top, c, weights) else {
            continue;
        };
        // Strictly less: on equal distances the better-ranked challenger (seen first) stays.
        if best.as_ref().is_none_or(|b| moved < b.0) {
            best = Some((moved, c, new));
        }
    }
    let (threshold, c, new) = best?;
    let (after, before) = (new.to_array(), weights.to_array());
    let change = PerAxis::from_array(std::array::from_fn(|i| after[i] - before[i]));
    Some(Flip {
        challenger: c.name.clone(),
        threshold,
        threshold_points: threshold * Decimal::ONE_HUNDRED,
        weights: new,
        change,
    })
}

/// Scores, ranks and tests the stability of a comparison of vendors.
pub fn scorecard(vendors: &[VendorInput], weights: &PerAxis) -> Result<Scorecard, Vec<Problem>> {
    let axes = axis_scores(vendors);
    let w = normalise_weights(weights);
    let (axes, w) = match (axes, w) {
        (Ok(a), Ok(w)) => (a, w),
        (a, w) => {
            let mut problems = a.err().unwrap_or_default();
            problems.extend(w.err().unwrap_or_default());
            return Err(problems);
        }
    };
    let names: Vec<String> = vendors.iter().map(|v| v.name.clone()).collect();
    let ranking = rank(&names, &axes, &w);
    let flip = flip_threshold(&ranking, &w);
    Ok(Scorecard {
        weights: w,
        ranking,
        flip,
    })
}
