//! The back-end network: ports, switches and optics sized from the GPU count, and their cost.
//!
//! One fabric port per GPU (rail-optimised, as in NVIDIA's SuperPOD reference architecture), a
//! non-blocking two-tier fat tree: each leaf gives half its ports to GPUs and half to spines. A
//! single server needs no back-end fabric (its GPUs talk over the scale-up link). When the catalog
//! gives switch radix, switch price and optic price, the cost is counted part by part; otherwise
//! it is the fabric's all-in cost per GPU-facing port.

use rust_decimal::Decimal;
use serde::Serialize;

/// A fabric's figures as the plan needs them, already in the plan's currency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FabricCost {
    pub id: String,
    pub per_port_cost: Decimal,
    pub switch_radix: Option<u32>,
    pub switch_cost: Option<Decimal>,
    pub optic_cost: Option<Decimal>,
}

/// The sized network.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct NetworkPlan {
    pub ports: u32,
    pub leaf_switches: u32,
    pub spine_switches: u32,
    pub optics: u32,
    pub cost: Decimal,
}

/// Sizes the fabric for `gpus` GPUs in `servers` servers.
pub fn plan_network(gpus: u32, servers: u32, fabric: &FabricCost) -> NetworkPlan {
    if servers <= 1 || gpus == 0 {
        return NetworkPlan {
            ports: 0,
            leaf_switches: 0,
            spine_switches: 0,
            optics: 0,
            cost: Decimal::ZERO,
        };
    }
    let ports = gpus;
    match (fabric.switch_radix, fabric.switch_cost, fabric.optic_cost) {
        (Some(radix), Some(switch_cost), Some(optic_cost)) if radix >= 2 => {
            let down = radix / 2;
            let (leaves, spines) = if ports <= radix {
                (1, 0)
            } else {
                let leaves = ports.div_ceil(down);
                (leaves, (leaves * down).div_ceil(radix))
            };
            // An optic at each end of every GPU-leaf link and every leaf-spine link.
            let uplinks = if spines == 0 { 0 } else { leaves * down };
            let optics = 2 * (ports + uplinks);
            let cost = Decimal::from(leaves + spines) * switch_cost + Decimal::from(optics) * optic_cost;
            NetworkPlan {
                ports,
                leaf_switches: leaves,
                spine_switches: spines,
                optics,
                cost,
            }
        }
        _ => NetworkPlan {
            ports,
            leaf_switches: 0,
            spine_switches: 0,
            optics: 0,
            cost: Decimal::from(ports) * fabric.per_port_cost,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::dec;

    #[test]
    fn superpod_switch_counts() {
        let ib = FabricCost {
            id: "ib-ndr-400".into(),
            per_port_cost: dec!(2500),
            switch_radix: Some(64),
            switch_cost: Some(dec!(13500)),
            optic_cost: Some(dec!(700)),
        };
        // 1,024 GPUs: 32 leaves and 16 spines, as in the B200 SuperPOD table.
        let p = plan_network(1024, 128, &ib);
        assert_eq!((p.leaf_switches, p.spine_switches), (32, 16));
        assert_eq!(p.optics, 2 * (1024 + 1024));
        // 512 GPUs: 16 leaves, 8 spines.
        let p = plan_network(512, 64, &ib);
        assert_eq!((p.leaf_switches, p.spine_switches), (16, 8));
        // One server: no fabric.
        assert_eq!(plan_network(8, 1, &ib).cost, Decimal::ZERO);
        // Without part prices: per port.
        let flat = FabricCost {
            switch_radix: None,
            ..ib
        };
        assert_eq!(plan_network(16, 2, &flat).cost, dec!(40000));
    }
}
