//! Spot capacity: what an interruptible hour is worth after checkpoints and restarts.
//!
//! With interruptions at rate `λ` per hour, a checkpoint every `τ` hours that takes `c` hours to
//! write, and `r` hours to restart after an interruption, a job needs about
//! `1 + c/τ + λ(τ/2 + r)` paid hours per useful hour: the checkpoint writes, plus on each
//! interruption half an interval of lost work and the restart. The interval that minimises it is
//! Young's approximation `τ* = √(2c/λ)` (refined by Daly; the planner uses the first-order form,
//! which is accurate while the checkpoint write is short against the time between interruptions).

use rust_decimal::Decimal;
use serde::Serialize;

use crate::engine::blocks::finance::sqrt;

/// The checkpointing assumptions of a spot layer, in hours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Checkpointing {
    /// Interruptions per hour (λ).
    pub interruptions_per_hour: Decimal,
    /// Time to write one checkpoint (c).
    pub checkpoint_write_h: Decimal,
    /// Time to restart after an interruption (r).
    pub restart_h: Decimal,
}

/// A spot layer's checkpointing and the notice its provider gives before reclaiming a machine.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SpotTerms {
    pub checkpointing: Checkpointing,
    /// Seconds of warning before an instance is reclaimed (the offer's catalog figure); `None`
    /// when the layer names no offer or the offer states none.
    pub notice_s: Option<Decimal>,
    /// The offer's provider, for the warning's wording.
    pub provider: Option<String>,
}

/// Young/Daly's optimal checkpoint interval `√(2c/λ)`, in hours; `None` when nothing interrupts
/// (checkpoint as rarely as you like).
pub fn optimal_interval_h(c: &Checkpointing) -> Option<Decimal> {
    if c.interruptions_per_hour <= Decimal::ZERO {
        return None;
    }
    sqrt(Decimal::TWO * c.checkpoint_write_h / c.interruptions_per_hour)
}

/// Paid hours per useful hour at checkpoint interval `tau_h`: `1 + c/τ + λ(τ/2 + r)`.
pub fn overhead_factor_at(c: &Checkpointing, tau_h: Decimal) -> Decimal {
    if tau_h <= Decimal::ZERO {
        return Decimal::ONE;
    }
    Decimal::ONE + c.checkpoint_write_h / tau_h + c.interruptions_per_hour * (tau_h / Decimal::TWO + c.restart_h)
}

/// The overhead factor at the optimal interval; exactly 1 when nothing interrupts.
pub fn overhead_factor(c: &Checkpointing) -> Decimal {
    match optimal_interval_h(c) {
        Some(tau) if tau > Decimal::ZERO => overhead_factor_at(c, tau),
        _ => Decimal::ONE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::dec;

    /// A worked example: one interruption per 4 hours, a 3-minute checkpoint write and a
    /// 10-minute restart give an interval of about 38 minutes and an overhead of about 1.20.
    #[test]
    fn worked_figure_8_young_daly() {
        let minutes = |m: i64| Decimal::from(m) / dec!(60);
        let c = Checkpointing {
            interruptions_per_hour: Decimal::ONE / dec!(4),
            checkpoint_write_h: minutes(3),
            restart_h: minutes(10),
        };
        let tau_min = optimal_interval_h(&c).unwrap_or_default() * dec!(60);
        assert!((tau_min - dec!(38)).abs() < dec!(0.5), "interval {tau_min} min");
        let f = overhead_factor(&c);
        assert!((f - dec!(1.20)).abs() < dec!(0.005), "overhead {f}");
        // The optimum is a minimum: nearby intervals cost more.
        let tau = optimal_interval_h(&c).unwrap_or_default();
        assert!(overhead_factor_at(&c, tau * dec!(0.8)) > f);
        assert!(overhead_factor_at(&c, tau * dec!(1.2)) > f);
    }

    #[test]
    fn no_interruptions_no_overhead() {
        let c = Checkpointing {
            interruptions_per_hour: Decimal::ZERO,
            checkpoint_write_h: dec!(0.05),
            restart_h: dec!(0.1),
        };
        assert_eq!(overhead_factor(&c), Decimal::ONE);
    }
}
