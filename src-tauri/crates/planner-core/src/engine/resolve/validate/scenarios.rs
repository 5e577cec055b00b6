//! A scenario as a whole: its own figures in place of the shared ones, its fabric, its layers
//! together and the warnings across them.

use super::*;

impl<'c> Resolver<'c> {
    pub(super) fn scenario(
        &mut self,
        i: usize,
        s: &ScenarioSpec,
        file: &ScenarioFile,
        workloads: &[Workload],
    ) -> Option<Scenario> {
        let p = format!("scenarios[{i}]");
        let before = self.problems.len();
        self.assumptions.clear();
        self.warnings.clear();
        self.point = s.price_point.unwrap_or(file.price_point);
        let point = self.point;
        for (name, value) in [
            ("staff_fte", s.staff_fte),
            ("staff_cost_per_fte_year", s.staff_cost_per_fte_year),
            ("engineer_month_cost", s.engineer_month_cost),
            ("software_per_month", s.software_per_month),
            ("storage_per_month", s.storage_per_month),
            ("egress_tb_per_month", s.egress_tb_per_month),
            ("egress_per_tb", s.egress_per_tb),
        ] {
            self.non_negative(&format!("{p}.{name}"), value);
        }
        self.fraction(
            &format!("{p}.egress_share_of_cloud_spend"),
            s.egress_share_of_cloud_spend.unwrap_or_default(),
        );
        if s.layers.is_empty() {
            self.push(format!("{p}.layers"), "a scenario needs at least one supply layer");
        }
        let facility = s
            .facility
            .as_ref()
            .map(|f| self.facility(&format!("{p}.facility"), f, point));
        let fabric = s.network.as_ref().and_then(|n| self.fabric(&p, n, point));
        let mut warnings = self.fx_warnings.clone();
        if let Some(m) = &s.market {
            self.check_market(&format!("{p}.market"), m);
        }
        let resale = self.resale_choice(&p, s, file);
        self.derive_resale = resale.is_some();
        let (mut layers, adaptation_months) = self.scenario_layers(&p, s, file, facility.as_ref(), &mut warnings);
        if adaptation_months > Decimal::ZERO && s.engineer_month_cost.is_zero() {
            self.push(
                format!("{p}.engineer_month_cost"),
                "a domestic accelerator needs engineering months to adapt the software stack; give the cost of one engineer-month",
            );
        }
        if self.problems.len() > before {
            return None;
        }
        let market = self.apply_market(&p, s, file, &mut layers, resale);
        let world = self.world_overrides(&p, s, file, workloads);
        if self.problems.len() > before {
            return None;
        }
        let months = crate::engine::blocks::sizing::ceil_u32(adaptation_months);
        // Every scenario prices work it leaves undone at the workloads' shadow prices: each
        // scenario's assumption list cites where they come from.
        self.assumptions
            .extend(workloads.iter().filter_map(|w| w.shadow_source.clone()));
        warnings.append(&mut self.warnings);
        Some(Scenario {
            id: s.id.clone(),
            name: s.name.clone(),
            layers,
            facility,
            fabric,
            staff_per_month: s.staff_fte * s.staff_cost_per_fte_year / dec!(12),
            software_per_month: s.software_per_month,
            storage_egress_per_month: s.storage_per_month + s.egress_tb_per_month * s.egress_per_tb,
            egress_share_of_cloud_spend: s.egress_share_of_cloud_spend.unwrap_or_default(),
            adaptation_per_month: if months == 0 {
                Decimal::ZERO
            } else {
                adaptation_months * s.engineer_month_cost / Decimal::from(months)
            },
            adaptation_months: months,
            demand_scale: world.demand_scale,
            monthly_growth: world.monthly_growth,
            discount_rate: world.discount_rate,
            market,
            assumptions: std::mem::take(&mut self.assumptions),
            warnings,
        })
    }

    /// The scenario's own demand scale, monthly growth and discount rate (scenario-level
    /// overrides of figures every scenario otherwise shares), each in its range, with its reason
    /// recorded; the scaled and grown demand of every workload is held to the demand bound.
    pub(super) fn world_overrides(
        &mut self,
        p: &str,
        s: &ScenarioSpec,
        file: &ScenarioFile,
        workloads: &[Workload],
    ) -> WorldFigures {
        let world = WorldFigures {
            demand_scale: self.scenario_override(
                &format!("{p}.demand_scale"),
                s.demand_scale.as_ref(),
                (Decimal::ZERO, dec!(100)),
                "a scale of the stated demand between 0 and 100 (\"0.8\" for 80%)",
            ),
            monthly_growth: self.scenario_override(
                &format!("{p}.monthly_growth"),
                s.monthly_growth.as_ref(),
                (dec!(-1), Decimal::ONE),
                "a monthly growth between -1 and 1",
            ),
            discount_rate: self.scenario_override(
                &format!("{p}.discount_rate"),
                s.discount_rate.as_ref(),
                (Decimal::ZERO, Decimal::ONE),
                "an annual rate between 0 and 1 (\"0.08\" for 8%)",
            ),
        };
        if world.demand_scale.is_none() && world.monthly_growth.is_none() {
            return world;
        }
        let scale = world.demand_scale.unwrap_or(Decimal::ONE);
        for spec in &file.workloads {
            let Some(w) = workloads.iter().find(|w| w.id == spec.id) else {
                continue;
            };
            let growth = world.monthly_growth.unwrap_or(spec.monthly_growth);
            let fits = w
                .base_demand
                .checked_mul(scale)
                .is_some_and(|base| self.demand_fits(spec, base, w.per_day, growth).2);
            if !fits {
                let field = if world.demand_scale.is_some() {
                    "demand_scale"
                } else {
                    "monthly_growth"
                };
                self.push(
                    format!("{p}.{field}"),
                    format!(
                        "workload `{}`, scaled and grown as this scenario says, asks for more than {} useful PFLOP-hours in a month, beyond what the planner evaluates; lower the scale or the growth",
                        spec.id,
                        crate::engine::input::bounds::MAX_MONTHLY_DEMAND_PFLOP_H.normalize()
                    ),
                );
            }
        }
        world
    }

    /// A scenario-level override: its value within `range` (else refused with `what`), a reason
    /// given, no currency (it is not money); recorded as an assumption at `path`.
    pub(super) fn scenario_override(
        &mut self,
        path: &str,
        o: Option<&Override>,
        range: (Decimal, Decimal),
        what: &str,
    ) -> Option<Decimal> {
        let o = o?;
        if o.value < range.0 || o.value > range.1 {
            self.push(path, format!("{} is not {what}", o.value));
        }
        if o.reason.trim().is_empty() {
            self.push(
                format!("{path}.reason"),
                "say why this scenario departs from the shared figure (a what-if, a measurement, a source)",
            );
        }
        if o.currency.is_some() {
            self.push(
                format!("{path}.currency"),
                "this figure is not money, so it has no currency; remove `currency`",
            );
        }
        self.assumptions.push(Assumption {
            path: path.to_owned(),
            value: o.value,
            origin: Origin::Override {
                reason: o.reason.clone(),
            },
        });
        Some(o.value)
    }

    /// The scenario's network fabric from the catalog, its price per port taken from the catalog
    /// or an override; a quoted price per port replaces the catalog's part-by-part pricing.
    pub(super) fn fabric(&mut self, p: &str, n: &NetworkSpec, point: PricePoint) -> Option<Fabric> {
        let path = format!("{p}.network.fabric");
        let Some(fab) = self.catalog.fabric(&n.fabric) else {
            self.push(path, format!("no fabric has id `{}` in the catalog", n.fabric));
            return None;
        };
        let fab = fab.clone();
        // A quoted price per port is all-in: it replaces the catalog's part-by-part pricing
        // (switches and optics), which would otherwise ignore it.
        let by_parts = n.per_port_cost.is_none();
        // The parts are priced (and so recorded as assumptions) only when the network plan
        // uses them: a switch radix of at least 2 and a price for both switches and optics.
        let parts = match (fab.switch_radix, &fab.switch_cost, &fab.optic_cost) {
            (Some(radix), Some(switch), Some(optic)) if by_parts && radix >= 2 => {
                Some((radix, switch.clone(), optic.clone()))
            }
            _ => None,
        };
        let rate = self.fx_rate(&path, &fab.currency);
        let (per_port, switch_radix, switch_cost, optic_cost) = match parts {
            Some((radix, switch, optic)) => {
                let at_fabric = format!("{p}.network.fabric");
                let currency = Some(fab.currency.as_str());
                let switch = self.take_catalog(&at_fabric, &fab.id, "switch_cost", &switch, currency, point);
                let optic = self.take_catalog(&at_fabric, &fab.id, "optic_cost", &optic, currency, point);
                (
                    at(&fab.per_port_cost, point) * rate,
                    Some(u32::from(radix)),
                    Some(switch),
                    Some(optic),
                )
            }
            None => {
                let per_port = self.figure_or_override(
                    &format!("{p}.network.per_port_cost"),
                    n.per_port_cost.as_ref(),
                    &fab.id,
                    "per_port_cost",
                    Some(&fab.per_port_cost),
                    Some(&fab.currency),
                    point,
                );
                (per_port, None, None, None)
            }
        };
        Some(Fabric {
            cost: FabricCost {
                id: fab.id.clone(),
                per_port_cost: per_port,
                switch_radix,
                switch_cost,
                optic_cost,
            },
            id: fab.id.clone(),
            port_gbps: fab.port_gbps,
            rdma: fab.technology != FabricTechnology::Ethernet,
        })
    }

    /// The scenario's layers, each resolved (ids unique, an owned layer only with a facility),
    /// with the engineering months its domestic accelerators need to adapt the software stack
    /// (the most any owned or pooled layer needs) and the data-residency warnings.
    pub(super) fn scenario_layers(
        &mut self,
        p: &str,
        s: &ScenarioSpec,
        file: &ScenarioFile,
        facility: Option<&Facility>,
        warnings: &mut Vec<String>,
    ) -> (Vec<Layer>, Decimal) {
        let point = self.point;
        let workload_ids: HashMap<&str, usize> = file
            .workloads
            .iter()
            .enumerate()
            .map(|(k, w)| (w.id.as_str(), k))
            .collect();
        let mut layer_ids = HashMap::new();
        let mut layers = Vec::new();
        let mut adaptation_months = Decimal::ZERO;
        for (j, l) in s.layers.iter().enumerate() {
            let lp = format!("{p}.layers[{j}]");
            if layer_ids.insert(l.id.clone(), j).is_some() {
                self.push(
                    format!("{lp}.id"),
                    format!("layer id `{}` is used twice in this scenario", l.id),
                );
            }
            if l.kind == LayerKind::Owned && s.facility.is_none() {
                self.push(
                    format!("{p}.facility"),
                    "an owned layer needs a `facility` (region, cooling, rack limit)",
                );
            }
            if let Some(layer) = self.layer(&lp, l, &workload_ids, self.horizon, facility, point) {
                if let Some(acc) = layer.accelerator.as_deref().and_then(|a| self.catalog.accelerator(a))
                    && let Some(m) = &acc.adaptation_months
                    && matches!(l.kind, LayerKind::Owned | LayerKind::Pooled)
                {
                    adaptation_months = adaptation_months.max(at(m, point));
                }
                self.region_warnings(&layer, file, warnings);
                self.token_mixes(&layer, file);
                layers.push(layer);
            }
        }
        (layers, adaptation_months)
    }

    /// A layer priced by kind of token bills each workload it may serve by the workload's token
    /// mix: a workload it could serve (inference naming a model) without one is a problem at the
    /// workload's `token_mix`, never a made-up mix; each mix it uses is recorded as the planner's
    /// declared figure.
    pub(super) fn token_mixes(&mut self, layer: &Layer, file: &ScenarioFile) {
        if layer.token_prices.is_none() {
            return;
        }
        for (k, w) in file.workloads.iter().enumerate() {
            let may_serve = layer.serves.as_ref().is_none_or(|s| s.contains(&k));
            if !may_serve || w.kind != WorkloadKind::Inference || w.model.is_none() {
                continue;
            }
            let at = format!("workloads[{k}].token_mix");
            match &w.token_mix {
                None => {
                    if !self.problems.iter().any(|p| p.path == at) {
                        self.push(
                            at,
                            format!(
                                "layer `{}` prices input, output and cached tokens apart and may serve this workload: give the workload's token_mix: the share of input, output and cached tokens",
                                layer.id
                            ),
                        );
                    }
                }
                Some(mix) => {
                    for (kind, share) in [("input", mix.input), ("output", mix.output), ("cached", mix.cached)] {
                        let path = format!("{at}.{kind}");
                        if self.assumptions.iter().any(|a| a.path == path) {
                            continue;
                        }
                        self.assumptions.push(Assumption {
                            path,
                            value: share,
                            origin: Origin::Override {
                                reason: format!(
                                    "the planner's declared share of {kind} tokens in workload `{}`'s tokens per month",
                                    w.id
                                ),
                            },
                        });
                    }
                }
            }
        }
    }

    pub(super) fn region_warnings(&self, layer: &Layer, file: &ScenarioFile, warnings: &mut Vec<String>) {
        use crate::workload_kind::DataClassification::{Confidential, Restricted};
        for (k, w) in file.workloads.iter().enumerate() {
            let spot_refused = layer.kind == LayerKind::Spot
                && !(w.interruptible && w.class != crate::workload_kind::WorkloadClass::Steady);
            let served = layer.serves.as_ref().is_none_or(|s| s.contains(&k)) && !spot_refused;
            let sensitive = matches!(w.data_classification, Confidential | Restricted);
            if let (true, true, Some(want), Some(have)) = (served, sensitive, &w.region, &layer.region)
                && !have.starts_with(want.as_str())
            {
                warnings.push(format!(
                        "layer `{}` runs in `{have}` but workload `{}` holds {:?} data that must stay in `{want}`; restrict it with `serves` or check the transfer mechanism",
                        layer.id, w.id, w.data_classification
                    ));
            }
        }
    }
}
