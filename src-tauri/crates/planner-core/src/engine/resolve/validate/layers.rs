//! One supply layer: the fields its kind takes, what it serves, its hardware and peak, its exit fee
//! and clause.

use super::*;

impl<'c> Resolver<'c> {
    /// Refuses fields that do not apply to the layer's kind, so a file says only what it means:
    /// every row of the table of layer fields the resolver judges by kind
    /// ([`crate::engine::input::layer_fields::LayerField::stated`]), and an accelerator beside
    /// a cloud layer's offer (the offer names it).
    pub(super) fn kind_fields(&mut self, p: &str, l: &LayerSpec) {
        let cloud = is_cloud(l.kind);
        for f in &LAYER_FIELDS {
            let allowed = if f.name == "accelerator" {
                !cloud || l.offer.is_none()
            } else {
                f.kinds.contains(&l.kind)
            };
            let stated = f.name == "accelerator" && l.accelerator.is_some() || f.stated.is_some_and(|st| st(l));
            if stated && !allowed {
                let field = f.name;
                self.push(
                    format!("{p}.{field}"),
                    format!("`{field}` does not apply to a layer of kind `{}`", kind_id(l.kind)),
                );
            }
        }
    }

    /// Resolves one supply layer in stages: the checks on its own fields, the workloads it
    /// serves, its hardware (offer, system, accelerator), its throughput, its exit (a fixed month
    /// or a clause), the terms its kind pays on, and the energy estimate of a rented layer. Every
    /// problem is reported; the layer is `None` when any was found.
    pub(super) fn layer(
        &mut self,
        p: &str,
        l: &LayerSpec,
        workloads: &HashMap<&str, usize>,
        horizon: u32,
        facility: Option<&Facility>,
        point: PricePoint,
    ) -> Option<Layer> {
        let before = self.problems.len();
        self.layer_fields(p, l);
        let serves = self.layer_serves(p, l, workloads);
        let hw = self.layer_hardware(p, l);
        let (peak16, peak8) = self.layer_peak(p, l, hw.acc);
        let memory_gb = hw.acc.map_or(Decimal::ZERO, |a| a.memory_gb.low);
        let has_scale_up = hw.acc.is_some_and(|a| a.has_scale_up_link());
        if let Some(g) = l.gpus
            && g == 0
        {
            self.push(
                format!("{p}.gpus"),
                "a layer with zero GPUs serves nothing; remove it or give a count",
            );
        }
        let exit_fee = self.layer_exit_fee(p, l, horizon);
        let exit_clause = self.layer_exit_clause(p, l);
        let _ = facility;
        let terms = self.kind_terms(p, l, &hw, exit_fee, point);
        if exit_clause.is_some() {
            self.clause_applies(p, l, terms.owned.as_ref());
        }
        let cloud_energy = if l.kind == LayerKind::Owned {
            None
        } else {
            self.cloud_energy(p, &l.id, l.idle_power_share, hw.offer, hw.acc, point)
        };
        if l.kind != LayerKind::Owned && (l.platform_cost_per_gpu > Decimal::ZERO || l.installation > Decimal::ZERO) {
            self.push(
                format!("{p}.installation"),
                "installation and platform costs apply to owned layers only",
            );
        }
        if self.problems.len() > before {
            return None;
        }
        Some(Layer {
            id: l.id.clone(),
            kind: l.kind,
            accelerator: hw.acc_id,
            peak_tflops_16: peak16,
            peak_tflops_8: peak8,
            memory_gb,
            has_scale_up_link: has_scale_up,
            mfu: l.mfu,
            availability: l.availability.unwrap_or(if l.kind == LayerKind::Owned {
                DEFAULT_OWNED_AVAILABILITY
            } else {
                Decimal::ONE
            }),
            gpus: terms.gpus,
            from_month: terms.owned.as_ref().map_or(l.start_month, |o| o.delivery_month),
            until_month: terms.until,
            price_per_gpu_hour: terms.price_per_gpu_hour,
            price_per_million_tokens: terms.price_per_million_tokens,
            token_prices: terms.token_prices,
            overhead_factor: terms.overhead,
            spot: terms.spot,
            serves,
            exit_fee,
            exit_clause,
            owned: terms.owned,
            region: terms.region,
            cloud_energy,
            running_cost_per_gpu_hour: if l.kind == LayerKind::Owned {
                Decimal::ZERO
            } else {
                l.running_cost_per_gpu_hour.unwrap_or_default()
            },
            running_cost_per_month: l.running_cost_per_month.unwrap_or_default(),
            price_path: None,
            base_price: None,
        })
    }

    /// The checks on a layer's own fields: those its kind refuses, its MFU and availability as
    /// fractions, its platform and installation costs not negative.
    pub(super) fn layer_fields(&mut self, p: &str, l: &LayerSpec) {
        self.kind_fields(p, l);
        if let Some(m) = l.mfu {
            self.positive_fraction(&format!("{p}.mfu"), m);
        }
        if let Some(a) = l.availability {
            self.fraction(&format!("{p}.availability"), a);
        }
        for (name, v) in [
            ("platform_cost_per_gpu", l.platform_cost_per_gpu),
            ("installation", l.installation),
        ] {
            self.non_negative(&format!("{p}.{name}"), v);
        }
        // A rented layer's running costs (owned hardware's are checked with its other costs).
        if l.kind != LayerKind::Owned {
            for (name, v) in [
                ("running_cost_per_gpu_hour", l.running_cost_per_gpu_hour),
                ("running_cost_per_month", l.running_cost_per_month),
            ] {
                self.non_negative(&format!("{p}.{name}"), v.unwrap_or_default());
            }
        }
    }

    /// The workloads a layer serves, by index, when it names them (every id must exist).
    pub(super) fn layer_serves(
        &mut self,
        p: &str,
        l: &LayerSpec,
        workloads: &HashMap<&str, usize>,
    ) -> Option<Vec<usize>> {
        l.serves.as_ref().map(|ids| {
            ids.iter()
                .enumerate()
                .filter_map(|(k, id)| {
                    let found = workloads.get(id.as_str()).copied();
                    if found.is_none() {
                        self.push(format!("{p}.serves[{k}]"), format!("no workload has id `{id}`"));
                    }
                    found
                })
                .collect::<Vec<usize>>()
        })
    }

    /// A layer's hardware: the catalog offer it rents from, the server system it buys, and the
    /// accelerator, named directly, through the system, or through the offer.
    pub(super) fn layer_hardware(&mut self, p: &str, l: &LayerSpec) -> LayerHardware<'c> {
        let offer = match (&l.offer, l.kind) {
            (Some(id), _) => {
                let o = self.catalog.offer(id);
                if o.is_none() {
                    self.push(
                        format!("{p}.offer"),
                        format!("no offer has id `{id}` in the catalog; see `planner catalog list --kind offers`"),
                    );
                }
                o
            }
            (None, LayerKind::Reserved | LayerKind::Spot | LayerKind::OnDemand) if l.accelerator.is_none() => {
                self.push(
                    format!("{p}.offer"),
                    format!("a `{}` layer needs the catalog offer it buys from (or an `accelerator` and a quoted `price_per_gpu_hour`)", kind_id(l.kind)),
                );
                None
            }
            (None, _) => None,
        };
        let system = match &l.system {
            Some(id) => {
                let s = self.catalog.facility.systems.iter().find(|s| &s.id == id);
                if s.is_none() {
                    self.push(
                        format!("{p}.system"),
                        format!("no server system has id `{id}` in the catalog"),
                    );
                }
                s
            }
            None => None,
        };
        let acc_id = l
            .accelerator
            .clone()
            .or_else(|| system.as_ref().map(|s| s.accelerator.clone()))
            .or_else(|| offer.as_ref().map(|o| o.accelerator.clone()));
        let acc = match (&acc_id, l.kind) {
            (Some(id), _) => {
                let path = if l.accelerator.is_some() {
                    format!("{p}.accelerator")
                } else {
                    format!("{p}.offer")
                };
                self.accelerator(&path, id)
            }
            (None, LayerKind::TokenMetered) => None,
            (None, _) => {
                self.push(
                    format!("{p}.accelerator"),
                    "name the accelerator (catalog id), a `system`, or an `offer`",
                );
                None
            }
        };
        if let (Some(a), Some(s)) = (&l.accelerator, &system)
            && a != &s.accelerator
        {
            self.push(
                format!("{p}.accelerator"),
                format!("system `{}` holds `{}`, not `{a}`", s.id, s.accelerator),
            );
        }
        LayerHardware {
            offer,
            system,
            acc_id,
            acc,
        }
    }

    /// Throughput, dense 16-bit and 8-bit TFLOPS: from the catalog or an override; token-metered
    /// layers need none.
    pub(super) fn layer_peak(&mut self, p: &str, l: &LayerSpec, acc: Option<&Accelerator>) -> (Decimal, Decimal) {
        match (&l.peak_tflops, acc) {
            (Some(o), _) => {
                let v = self.take_override(&format!("{p}.peak_tflops"), o);
                (v, v)
            }
            (None, Some(a)) => {
                let id = a.id.clone();
                // The speed rule: a price point moves prices, never speeds. Throughput is taken
                // at the midpoint of its range here and where demand in GPU-hours is converted
                // (`peak_of`), so ten GPU-hours a day on a card are ten hours on that card at
                // any price point.
                let p16 = a.bf16_tflops.as_ref().map(|f| {
                    self.take_catalog(
                        &format!("{p}.peak_tflops"),
                        &id,
                        "bf16_tflops",
                        f,
                        None,
                        PricePoint::Mid,
                    )
                });
                let p8 = a.fp8_tflops.as_ref().map(Figure::mid);
                match p16 {
                    Some(p16) if p16 > Decimal::ZERO => (p16, p8.unwrap_or(p16)),
                    _ if l.kind == LayerKind::TokenMetered => (Decimal::ZERO, Decimal::ZERO),
                    _ => {
                        self.push(
                            format!("{p}.peak_tflops"),
                            format!("the catalog gives no dense BF16/FP16 throughput for `{id}`; give {{\"value\": \"...\", \"reason\": \"...\"}}"),
                        );
                        (Decimal::ZERO, Decimal::ZERO)
                    }
                }
            }
            (None, None) => (Decimal::ZERO, Decimal::ZERO),
        }
    }

    /// A fixed-month exit: the month (inside the horizon) and the fee paid then.
    pub(super) fn layer_exit_fee(&mut self, p: &str, l: &LayerSpec, horizon: u32) -> Option<(u32, Decimal)> {
        l.exit.as_ref().map(|e| {
            if e.month >= horizon {
                self.push(
                    format!("{p}.exit.month"),
                    format!(
                        "month {} is beyond the horizon of {horizon} months (months count from 0)",
                        e.month
                    ),
                );
            }
            self.non_negative(&format!("{p}.exit.fee"), e.fee);
            (e.month, e.fee)
        })
    }

    /// An exit clause, checked as a contract states it; refused beside a fixed-month exit.
    pub(super) fn layer_exit_clause(&mut self, p: &str, l: &LayerSpec) -> Option<ExitClause> {
        l.exit_clause.as_ref().map(|c| {
            for problem in crate::exit_clause::validate_clause(c, &format!("{p}.exit_clause")) {
                self.push(problem.path, problem.message);
            }
            if l.exit.is_some() {
                self.push(
                    format!("{p}.exit_clause"),
                    "this layer already leaves at a fixed month through `exit`; an exit clause prices leaving at any month (remove one of the two)",
                );
            }
            c.clone()
        })
    }
}
