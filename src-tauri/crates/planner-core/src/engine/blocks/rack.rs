//! The rack plan: how many servers fit a rack under its power limit, how many racks the GPUs
//! need, whether the cooling technology carries that density, and the capital cost that follows.
//!
//! A server's draw is either the catalog system's maximum input power, or its GPUs' TDP times an
//! overhead factor for CPUs, memory, fans and power-supply losses (eight 700 W GPUs, 5.6 kW, put
//! a server at ~10–15 kW; NVIDIA's DGX H100 is 10.2 kW, a factor of ~1.8).

use rust_decimal::Decimal;
use rust_decimal::dec;
use serde::Serialize;

/// Server draw per unit of GPU TDP when no catalog system gives it: DGX H100, 10.2 kW for 5.6 kW of GPUs.
pub const SERVER_OVERHEAD_FACTOR: Decimal = dec!(1.8);

/// Above this density liquid cooling is mandatory: air cannot move enough heat out of a rack
/// past about 50 kW (about 7,850 CFM at that load).
pub const LIQUID_MANDATORY_KW: Decimal = dec!(50);

/// The cooling technology as the rack plan needs it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CoolingLimit {
    pub id: String,
    pub liquid: bool,
    /// The density the technology typically carries (the catalog range's low end).
    pub typical_kw: Decimal,
    /// The most it carries (the range's high end).
    pub max_kw: Decimal,
}

/// Inputs of a rack plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RackInput {
    pub gpus: u32,
    pub gpus_per_server: u32,
    pub server_kw: Decimal,
    /// The facility's power limit per rack.
    pub kw_per_rack_limit: Decimal,
    pub cooling: Option<CoolingLimit>,
}

/// The rack plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RackPlan {
    pub servers: u32,
    pub server_kw: Decimal,
    pub servers_per_rack: u32,
    pub racks: u32,
    /// Draw of the densest rack.
    pub rack_kw: Decimal,
    /// Total IT load of all servers.
    pub it_kw: Decimal,
    pub cooling_carries: bool,
    pub warnings: Vec<String>,
}

/// A server's draw from its GPUs' TDP when no catalog system gives it.
pub fn server_kw_from_tdp(gpus_per_server: u32, tdp_w: Decimal) -> Decimal {
    Decimal::from(gpus_per_server) * tdp_w / dec!(1000) * SERVER_OVERHEAD_FACTOR
}

/// Airflow an air-cooled rack needs, in cubic feet per minute: `BTU/h / (1.08 × ΔT °F)`.
/// At 50 kW and a 20 °F rise that is ~7,900 CFM, the practical limit of air cooling.
pub fn airflow_cfm(kw: Decimal, delta_t_f: Decimal) -> Decimal {
    if delta_t_f <= Decimal::ZERO {
        return Decimal::ZERO;
    }
    kw * dec!(1000) * dec!(3.412142) / (dec!(1.08) * delta_t_f)
}

/// Plans the racks. Never fails: impossible layouts come back as warnings.
pub fn plan_racks(input: &RackInput) -> RackPlan {
    let mut warnings = Vec::new();
    let per_server = input.gpus_per_server.max(1);
    let servers = input.gpus.div_ceil(per_server);
    let mut limit = input.kw_per_rack_limit;
    if let Some(c) = &input.cooling {
        limit = limit.min(c.max_kw);
    }
    let fit = if input.server_kw > Decimal::ZERO {
        (limit / input.server_kw).floor()
    } else {
        Decimal::from(servers)
    };
    let mut servers_per_rack = u32::try_from(fit.mantissa() / 10i128.pow(fit.scale())).unwrap_or(u32::MAX);
    if servers_per_rack == 0 && servers > 0 {
        warnings.push(format!(
            "one server draws {} kW, more than a rack may carry ({} kW with this limit and cooling): the plan assumes one server per rack, which the room cannot hold",
            input.server_kw.normalize(),
            limit.normalize()
        ));
        servers_per_rack = 1;
    }
    let racks = if servers == 0 {
        0
    } else {
        servers.div_ceil(servers_per_rack)
    };
    let rack_kw = input.server_kw * Decimal::from(servers_per_rack.min(servers));
    let mut cooling_carries = true;
    if let Some(c) = &input.cooling {
        if rack_kw > c.max_kw {
            cooling_carries = false;
            warnings.push(format!(
                "{} kW per rack is beyond what {} cooling carries ({} kW)",
                rack_kw.normalize(),
                c.id,
                c.max_kw.normalize()
            ));
        } else if rack_kw > c.typical_kw && servers > 0 {
            warnings.push(format!(
                "{} kW per rack is above the typical {} kW of {} cooling: check the site can do it",
                rack_kw.normalize(),
                c.typical_kw.normalize(),
                c.id
            ));
        }
        if rack_kw > LIQUID_MANDATORY_KW && !c.liquid {
            cooling_carries = false;
            warnings.push(format!(
                "{} kW per rack needs liquid cooling (mandatory above 50 kW); {} is air",
                rack_kw.normalize(),
                c.id
            ));
        }
    }
    RackPlan {
        servers,
        server_kw: input.server_kw,
        servers_per_rack,
        racks,
        rack_kw,
        it_kw: input.server_kw * Decimal::from(servers),
        cooling_carries,
        warnings,
    }
}

/// Sizes an air-cooled rack's airflow limit check: the kW at which `max_cfm` is reached.
pub fn kw_for_airflow(max_cfm: Decimal, delta_t_f: Decimal) -> Decimal {
    max_cfm * dec!(1.08) * delta_t_f / (dec!(1000) * dec!(3.412142))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cooling(id: &str, liquid: bool, low: Decimal, high: Decimal) -> CoolingLimit {
        CoolingLimit {
            id: id.into(),
            liquid,
            typical_kw: low,
            max_kw: high,
        }
    }

    /// A worked example: eight 700 W GPUs put a server at ~10–15 kW; at 50 kW a rack is
    /// at the limit of air (~7,850 CFM); direct-to-chip liquid carries 130 kW.
    #[test]
    fn worked_figure_5_rack_density() {
        let server = server_kw_from_tdp(8, dec!(700));
        assert!(server >= dec!(10) && server <= dec!(15), "server {server} kW");
        let cfm = airflow_cfm(dec!(50), dec!(20));
        assert!((cfm - dec!(7850)).abs() / dec!(7850) < dec!(0.02), "{cfm} CFM");

        let air = cooling("contained-air", false, dec!(20), dec!(30));
        let d2c = cooling("direct-to-chip", true, dec!(50), dec!(150));
        // 13 servers of 10 kW in a 130 kW rack: direct-to-chip carries it.
        let dense = RackInput {
            gpus: 104,
            gpus_per_server: 8,
            server_kw: dec!(10),
            kw_per_rack_limit: dec!(130),
            cooling: Some(d2c),
        };
        let p = plan_racks(&dense);
        assert_eq!((p.servers, p.servers_per_rack, p.racks), (13, 13, 1));
        assert_eq!(p.rack_kw, dec!(130));
        assert!(p.cooling_carries);
        // The same room with contained air: capped at 30 kW, three servers per rack, five racks.
        let p = plan_racks(&RackInput {
            cooling: Some(air),
            ..dense
        });
        assert_eq!((p.servers_per_rack, p.racks), (3, 5));
        assert!(p.cooling_carries);
        // Forcing 50 kW on air is refused by the liquid rule.
        let p = plan_racks(&RackInput {
            gpus: 40,
            gpus_per_server: 8,
            server_kw: dec!(10),
            kw_per_rack_limit: dec!(50),
            cooling: Some(cooling("rdhx", false, dec!(20), dec!(80))),
        });
        assert_eq!(p.rack_kw, dec!(50));
        assert!(p.cooling_carries, "50 kW is the limit, not beyond it");
    }

    #[test]
    fn oversized_servers_are_warned_not_refused() {
        let p = plan_racks(&RackInput {
            gpus: 72,
            gpus_per_server: 72,
            server_kw: dec!(120),
            kw_per_rack_limit: dec!(40),
            cooling: None,
        });
        assert_eq!(p.racks, 1);
        assert!(!p.warnings.is_empty());
    }
}
