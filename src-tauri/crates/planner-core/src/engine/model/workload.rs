//! Workloads: what the compute serves, and how much useful compute it asks for each month.
//!
//! Demand is measured in **useful PFLOP-hours** (one PFLOP/s of model FLOPs sustained for an hour,
//! 3.6 × 10^18 FLOP), so layers with different accelerators can serve the same workload and be
//! compared on cost per unit of work rather than per card. A workload states its demand either in
//! tokens per month (trained or served; converted with 6N, 4N or 2N FLOPs per token) or in
//! GPU-hours per day on a named accelerator (converted with that accelerator's peak and the
//! workload's MFU).

use rust_decimal::Decimal;
use rust_decimal::dec;
use serde::Serialize;

use crate::engine::model::assumption::Assumption;
use crate::workload_kind::{DataClassification, ModelShape, Precision, TuningMethod, WorkloadClass, WorkloadKind};

/// FLOPs in one PFLOP-hour: 10^15 FLOP/s for 3,600 s.
pub const FLOP_PER_PFLOP_HOUR: Decimal = dec!(3600000000000000000);

/// Model FLOPs per token: 6N to train every weight (2N forward, 4N backward), about 4N for
/// LoRA/QLoRA (the backward pass still propagates activation gradients, 2N, but computes no
/// weight gradients for the frozen base), and 2N to infer.
pub fn flops_per_token(kind: WorkloadKind, method: Option<TuningMethod>, parameters: Decimal) -> Decimal {
    let factor = match (kind, method) {
        (WorkloadKind::Inference, _) => dec!(2),
        (WorkloadKind::FineTuning, Some(TuningMethod::Lora | TuningMethod::Qlora)) => dec!(4),
        _ => dec!(6),
    };
    factor * parameters
}

/// Useful PFLOP-hours delivered by one GPU-hour at `peak_tflops` and model FLOPs utilisation `mfu`.
pub fn useful_pflop_per_gpu_hour(peak_tflops: Decimal, mfu: Decimal) -> Decimal {
    peak_tflops * mfu / dec!(1000)
}

/// Cost per useful PFLOP-hour of a GPU-hour bought at `price_per_gpu_hour`.
pub fn cost_per_useful_pflop_hour(price_per_gpu_hour: Decimal, peak_tflops: Decimal, mfu: Decimal) -> Option<Decimal> {
    let useful = useful_pflop_per_gpu_hour(peak_tflops, mfu);
    (useful > Decimal::ZERO).then(|| price_per_gpu_hour / useful)
}

/// A resolved workload, every figure a number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Workload {
    pub id: String,
    pub name: String,
    pub kind: WorkloadKind,
    pub method: Option<TuningMethod>,
    pub class: WorkloadClass,
    pub precision: Precision,
    pub interruptible: bool,
    pub data_classification: DataClassification,
    pub region: Option<String>,
    /// Model parameters (a count, not billions), when the file names a model.
    pub parameters: Option<Decimal>,
    /// FLOPs per token, when the model is known: converts served compute back into tokens.
    pub flops_per_token: Option<Decimal>,
    /// Inference: the shares of its tokens that are input, output and cached (each 0 to 1,
    /// summing to 1), for token-metered layers priced by kind of token. It moves no FLOPs.
    pub token_mix: Option<crate::engine::input::scenario_file::TokenMix>,
    /// Useful PFLOP-hours asked for in the first month at full length (per day when `per_day`).
    pub base_demand: Decimal,
    /// True when `base_demand` is per day (GPU-hours per day), false when per month (tokens).
    pub per_day: bool,
    /// Compound growth per month, as a fraction.
    pub monthly_growth: Decimal,
    /// First month (0-based) of activity and number of active months (`None`: to the horizon).
    pub active_from: u32,
    pub active_months: Option<u32>,
    /// Model FLOPs utilisation the workload reaches on the hardware it is sized for.
    pub mfu: Decimal,
    /// The model's shape, for the memory check, when the file gives a model.
    pub shape: Option<ModelShape>,
    /// What one useful PFLOP-hour of this workload left unserved costs the decision: the
    /// on-demand price of the cheapest catalog offer that could serve it (zero when none could).
    pub shadow_price_per_pflop_h: Decimal,
    /// Where the shadow price comes from (the offer's catalog figure), for every scenario's
    /// assumption list.
    pub shadow_source: Option<Assumption>,
}

impl Workload {
    /// Useful PFLOP-hours demanded in month `m` (0-based) of `days` days, with growth factor
    /// `growth` = `(1 + g)^(m − active_from)` computed by the caller once per month: growth
    /// compounds from the workload's own first month, not from the plan's.
    pub fn demand(&self, m: u32, days: u32, growth: Decimal) -> Decimal {
        if m < self.active_from
            || self
                .active_months
                .is_some_and(|n| m >= self.active_from.saturating_add(n))
        {
            return Decimal::ZERO;
        }
        let base = if self.per_day {
            self.base_demand * Decimal::from(days)
        } else {
            self.base_demand
        };
        base * growth
    }

    /// Whether spot capacity may serve this workload: it must be interruptible, and steady
    /// workloads never take spot whatever the flag says.
    pub fn takes_spot(&self) -> bool {
        self.interruptible && self.class != WorkloadClass::Steady
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A worked example: at equal hours, a card 30% dearer with twice the MFU has about
    /// 35% lower cost per useful PFLOP-hour.
    #[test]
    fn worked_figure_6_cost_per_useful_compute() {
        let base = cost_per_useful_pflop_hour(dec!(2.00), dec!(989), dec!(0.25)).unwrap_or_default();
        let better = cost_per_useful_pflop_hour(dec!(2.00) * dec!(1.3), dec!(989), dec!(0.50)).unwrap_or_default();
        let saving = Decimal::ONE - better / base;
        assert!((saving - dec!(0.35)).abs() < dec!(0.0001), "saving {saving}");
    }

    #[test]
    fn flops_per_token_follow_the_rules() {
        let n = dec!(7000000000);
        assert_eq!(flops_per_token(WorkloadKind::Inference, None, n), dec!(14000000000));
        assert_eq!(flops_per_token(WorkloadKind::PreTraining, None, n), dec!(42000000000));
        assert_eq!(
            flops_per_token(WorkloadKind::FineTuning, Some(TuningMethod::Lora), n),
            dec!(28000000000)
        );
    }
}
