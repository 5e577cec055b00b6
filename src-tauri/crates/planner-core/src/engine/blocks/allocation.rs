//! Dispatch: which layer serves which demand, month by month.
//!
//! Demand (useful PFLOP-hours per workload) is served tier by tier: owned and leased capacity
//! first (only once delivered), then reserved, then spot (interruptible workloads only), then
//! on-demand, pooled and token-metered. Within a tier, steady workloads are served before
//! variable ones and variable before exploratory, then in file order; layers in file order.
//! Each layer converts between its own units (GPU-hours, or millions of tokens when
//! token-metered) and useful compute with a precomputed rate per (workload, layer) pair, so the
//! monthly loop only multiplies.
//!
//! Guarantees, checked by property tests: a workload is never served more than it asked; a layer
//! never gives more than its capacity; and demand is left unmet only when every layer allowed to
//! serve it is full.

use rust_decimal::Decimal;

/// How a (workload, layer) pair converts: useful PFLOP-hours per layer unit, and its inverse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    pub useful_per_unit: Decimal,
    pub units_per_useful: Decimal,
}

impl Rate {
    pub fn new(useful_per_unit: Decimal) -> Option<Rate> {
        (useful_per_unit > Decimal::ZERO).then(|| Rate {
            useful_per_unit,
            units_per_useful: Decimal::ONE / useful_per_unit,
        })
    }
}

/// The fixed part of dispatch for one scenario: the order of visits and the rates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Routes {
    /// (workload, layer, rate) in the order they are tried.
    pub visits: Vec<(usize, usize, Rate)>,
    pub workloads: usize,
    pub layers: usize,
}

/// What one month's dispatch decided.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Allocation {
    /// Units (GPU-hours or millions of tokens) each layer gave.
    pub units: Vec<Decimal>,
    /// Useful PFLOP-hours each layer gave.
    pub useful_by_layer: Vec<Decimal>,
    /// Useful PFLOP-hours each workload received.
    pub served: Vec<Decimal>,
    /// Useful PFLOP-hours each workload did not get.
    pub unmet: Vec<Decimal>,
    /// Tokens served per layer (where the workload's model is known).
    pub tokens_by_layer: Vec<Decimal>,
    /// Units each layer gave to workloads whose tokens are counted.
    pub token_units: Vec<Decimal>,
    /// Every (workload, layer, units, useful PFLOP-hours) that served something, in visit order.
    pub cells: Vec<(usize, usize, Decimal, Decimal)>,
}

/// Serves `demand` (per workload) from `capacity` (per layer, in its units; `None` = unlimited).
/// `tokens_per_useful[w]` converts useful compute to tokens for workloads with a known model.
pub fn allocate(
    routes: &Routes,
    demand: &[Decimal],
    capacity: &[Option<Decimal>],
    tokens_per_useful: &[Decimal],
    out: &mut Allocation,
) {
    out.units.clear();
    out.units.resize(routes.layers, Decimal::ZERO);
    out.useful_by_layer.clear();
    out.useful_by_layer.resize(routes.layers, Decimal::ZERO);
    out.tokens_by_layer.clear();
    out.tokens_by_layer.resize(routes.layers, Decimal::ZERO);
    out.token_units.clear();
    out.token_units.resize(routes.layers, Decimal::ZERO);
    out.served.clear();
    out.served.resize(routes.workloads, Decimal::ZERO);
    out.cells.clear();
    out.unmet.clear();
    out.unmet.extend_from_slice(demand);
    for &(w, l, rate) in &routes.visits {
        let rem = out.unmet[w];
        if rem <= Decimal::ZERO {
            continue;
        }
        let left = capacity[l].map(|c| c - out.units[l]);
        if left.is_some_and(|c| c <= Decimal::ZERO) {
            continue;
        }
        let needed = rem * rate.units_per_useful;
        let (units, useful) = match left {
            Some(c) if c < needed => (c, (c * rate.useful_per_unit).min(rem)),
            _ => (needed, rem),
        };
        out.units[l] += units;
        out.useful_by_layer[l] += useful;
        out.tokens_by_layer[l] += useful * tokens_per_useful[w];
        if tokens_per_useful[w] > Decimal::ZERO {
            out.token_units[l] += units;
        }
        out.served[w] += useful;
        out.unmet[w] = rem - useful;
        if units > Decimal::ZERO || useful > Decimal::ZERO {
            out.cells.push((w, l, units, useful));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::dec;

    #[test]
    fn owned_first_then_overflow() {
        let r = Rate::new(dec!(0.4)).unwrap_or_else(|| unreachable!());
        let routes = Routes {
            visits: vec![(0, 0, r), (0, 1, r)],
            workloads: 1,
            layers: 2,
        };
        let mut a = Allocation::default();
        allocate(
            &routes,
            &[dec!(100)],
            &[Some(dec!(200)), None],
            &[Decimal::ZERO],
            &mut a,
        );
        assert_eq!(a.units, vec![dec!(200), dec!(50)]);
        assert_eq!(a.served, vec![dec!(100)]);
        assert_eq!(a.unmet, vec![Decimal::ZERO]);
    }
}
