//! Owned hardware: its price, servers' power, lead time, financing and milestones, and its residual
//! value at the horizon.

use super::*;

impl<'c> Resolver<'c> {
    /// The share of the hardware price the hardware sells for at the horizon, recorded as an
    /// assumption at `<layer>.residual_share`: the user's `residual_share` (an override), else the
    /// catalog's resale estimate for the accelerator at its age at the horizon (horizon − delivery
    /// month), else 0 with a warning. Never the book value: that is an accounting figure, not a
    /// price a buyer pays.
    pub(super) fn residual(
        &mut self,
        p: &str,
        l: &LayerSpec,
        acc: Option<&Accelerator>,
        delivery: u32,
        leased: bool,
        point: PricePoint,
    ) -> Decimal {
        let path = format!("{p}.residual_share");
        if let Some(r) = l.residual_share {
            self.fraction(&path, r);
            let reason = l.residual_reason.clone().filter(|r| !r.trim().is_empty());
            if reason.is_none() {
                self.warnings.push(format!(
                    "layer `{}`: residual_share {r} has no residual_reason; say where the resale price comes from (a quote, a buy-back offer)",
                    l.id
                ));
            }
            self.assumptions.push(Assumption {
                path,
                value: r,
                origin: Origin::Override {
                    reason: reason.unwrap_or_else(|| "given in the scenario file; no reason stated".to_owned()),
                },
            });
            return r;
        }
        // Leased hardware goes back to the lessor; hardware delivered after the horizon is not sold.
        if leased || delivery >= self.horizon {
            return Decimal::ZERO;
        }
        let age = self.horizon - delivery;
        // No sourced estimate at that age and the market derives resale: the market sets it.
        if self.derive_resale
            && let Some(a) = acc
            && self.catalog.resale_for(a).and_then(|c| c.share_at(age)).is_none()
        {
            return Decimal::ZERO;
        }
        self.catalog_resale(&path, &l.id, acc, age, point)
    }

    /// The catalog's sourced resale estimate for accelerator `acc` at `age` months, at `point`,
    /// recorded as an assumption at `path`; 0 with a warning when no estimate covers it.
    pub(super) fn catalog_resale(
        &mut self,
        path: &str,
        layer_id: &str,
        acc: Option<&Accelerator>,
        age: u32,
        point: PricePoint,
    ) -> Decimal {
        let Some(acc) = acc else {
            self.warnings.push(format!(
                "layer `{layer_id}`: no accelerator is known, so no sourced resale estimate: resale counted as 0; give residual_share with a reason to use a quote"
            ));
            return Decimal::ZERO;
        };
        let Some(curve) = self.catalog.resale_for(acc) else {
            self.warnings.push(format!(
                "no sourced resale estimate for `{}`: resale counted as 0; give residual_share with a reason to use a quote",
                acc.id
            ));
            return Decimal::ZERO;
        };
        match curve.share_at(age) {
            Some(fig) => {
                let field = format!("resale share at {age} months");
                let (id, fig) = (curve.id.clone(), fig);
                self.take_catalog(path, &id, &field, &fig, None, point)
            }
            None => {
                self.warnings.push(format!(
                    "no sourced resale estimate for `{}` at {age} months (the estimate `{}` stops at {} months): resale counted as 0; give residual_share with a reason to use a quote",
                    acc.id,
                    curve.id,
                    curve.last_age()
                ));
                Decimal::ZERO
            }
        }
    }

    /// An owned layer in stages: GPUs and servers, the hardware price, the server power, the
    /// running-cost rates, the financing, the resale share and the payment milestones.
    pub(super) fn owned(
        &mut self,
        p: &str,
        l: &LayerSpec,
        acc: Option<&Accelerator>,
        system: Option<&crate::catalog::ServerSystem>,
        point: PricePoint,
    ) -> Option<Owned> {
        let gpus = match l.gpus {
            Some(g) => g,
            None => {
                self.push(format!("{p}.gpus"), "an owned layer needs the number of GPUs bought");
                0
            }
        };
        let per_server = system
            .map(|s| u32::from(s.gpus))
            .or(l.gpus_per_server)
            .unwrap_or(8)
            .max(1);
        if system.is_some() && l.gpus_per_server.is_some() {
            self.push(
                format!("{p}.gpus_per_server"),
                "the system sets the GPUs per server; remove `gpus_per_server`",
            );
        }
        let hardware = self.hardware_price(p, l, acc, system, point);
        let server_kw = self.server_kw(p, l, acc, system, per_server, point);
        let life = l.depreciation_life_months.unwrap_or(DEFAULT_LIFE_MONTHS);
        if life == 0 {
            self.push(
                format!("{p}.depreciation_life_months"),
                "the depreciation life must be at least one month",
            );
        }
        self.fraction(&format!("{p}.salvage_share"), l.salvage_share);
        self.fraction(&format!("{p}.support_rate_per_year"), l.support_rate_per_year);
        self.fraction(
            &format!("{p}.non_server_maintenance_rate_per_year"),
            l.non_server_maintenance_rate_per_year.unwrap_or_default(),
        );
        self.non_negative(
            &format!("{p}.running_cost_per_gpu_hour"),
            l.running_cost_per_gpu_hour.unwrap_or_default(),
        );
        let idle = l.idle_power_share.unwrap_or(DEFAULT_IDLE_POWER_SHARE);
        self.fraction(&format!("{p}.idle_power_share"), idle);
        let financing = self.financing(p, l, life);
        let delivery = l.start_month + self.lead_time(p, l, point);
        let leased = matches!(financing, Financing::Lease { .. });
        let residual_share = self.residual(p, l, acc, delivery, leased, point);
        let milestones = self.milestones(p, l, delivery);
        Some(Owned {
            gpus,
            gpus_per_server: per_server,
            server_kw,
            hardware_per_gpu: hardware,
            installation: l.installation,
            order_month: l.start_month,
            delivery_month: delivery,
            financing,
            milestones,
            life_months: life.max(1),
            salvage_share: l.salvage_share,
            residual_share,
            support_rate_per_year: l.support_rate_per_year,
            non_server_maintenance_rate_per_year: l.non_server_maintenance_rate_per_year.unwrap_or_default(),
            running_cost_per_gpu_hour: l.running_cost_per_gpu_hour.unwrap_or_default(),
            idle_power_share: idle,
            retired: None,
        })
    }

    /// An owned layer's lead time in months, recorded as an assumption: the catalog entry named by
    /// `lead_time_source` (its weeks at the chosen point, rounded up to whole months of
    /// 365.25 ÷ 12 days), or the typed `lead_time_months` as an override with its reason (a
    /// warning when the reason is missing); 0 when neither is given.
    pub(super) fn lead_time(&mut self, p: &str, l: &LayerSpec, point: PricePoint) -> u32 {
        let typed = l.lead_time_months;
        let Some(id) = l.lead_time_source.as_deref() else {
            if typed > 0 {
                let reason = l.lead_time_reason.clone().filter(|r| !r.trim().is_empty());
                if reason.is_none() {
                    self.warnings.push(format!(
                        "layer `{}`: lead_time_months {typed} has no lead_time_reason; say where the delivery time comes from (the supplier's quote), or take it from the catalog with lead_time_source",
                        l.id
                    ));
                }
                self.assumptions.push(Assumption {
                    path: format!("{p}.lead_time_months"),
                    value: Decimal::from(typed),
                    origin: Origin::Override {
                        reason: reason.unwrap_or_else(|| "given in the scenario file; no reason stated".to_owned()),
                    },
                });
            }
            return typed;
        };
        let path = format!("{p}.lead_time_source");
        if typed > 0 {
            self.push(
                path,
                "the lead time is given twice: take it from the catalog (`lead_time_source`) or type it with its reason (`lead_time_months`), not both",
            );
            return typed;
        }
        let catalog = self.catalog;
        let Some(entry) = catalog.facility.lead_times.iter().find(|e| e.id == id) else {
            let known: Vec<&str> = catalog.facility.lead_times.iter().map(|e| e.id.as_str()).collect();
            self.push(
                path,
                format!(
                    "`{id}` is not a lead time in the catalog; choose one of: {}",
                    known.join(", ")
                ),
            );
            return 0;
        };
        let weeks = self.take_catalog(
            &format!("{p}.lead_time_weeks"),
            &entry.id,
            "weeks",
            &entry.weeks,
            None,
            point,
        );
        crate::engine::blocks::sizing::lead_time_months(weeks)
    }

    /// The price of one owned GPU: an override, else the system's price per GPU, else the
    /// accelerator's; plus the platform cost per GPU.
    pub(super) fn hardware_price(
        &mut self,
        p: &str,
        l: &LayerSpec,
        acc: Option<&Accelerator>,
        system: Option<&crate::catalog::ServerSystem>,
        point: PricePoint,
    ) -> Decimal {
        let price_path = format!("{p}.price_per_gpu");
        let price = match (
            &l.price_per_gpu,
            system.and_then(|s| s.price_usd.as_ref().map(|f| (s, f))),
            acc,
        ) {
            (Some(o), _, _) => self.take_override(&price_path, o),
            (None, Some((s, f)), _) => {
                self.take_catalog(&price_path, &s.id, "price_usd", f, Some("USD"), point) / Decimal::from(s.gpus.max(1))
            }
            (None, None, Some(a)) => match &a.price_usd {
                Some(f) => self.take_catalog(&price_path, &a.id, "price_usd", f, Some("USD"), point),
                None => {
                    self.push(&price_path, format!("the catalog has no purchase price for `{}`; give {{\"value\": \"...\", \"reason\": \"...\"}}", a.id));
                    Decimal::ZERO
                }
            },
            (None, None, None) => Decimal::ZERO,
        };
        price + l.platform_cost_per_gpu
    }

    /// The wall power of one server at full load, kW: an override per GPU, else the system's
    /// maximum, else the accelerator's TDP with the server overhead factor.
    pub(super) fn server_kw(
        &mut self,
        p: &str,
        l: &LayerSpec,
        acc: Option<&Accelerator>,
        system: Option<&crate::catalog::ServerSystem>,
        per_server: u32,
        point: PricePoint,
    ) -> Decimal {
        let power_path = format!("{p}.power_kw_per_gpu");
        match (
            &l.power_kw_per_gpu,
            system,
            acc.and_then(|a| a.tdp_w.as_ref().map(|t| (a, t))),
        ) {
            (Some(o), _, _) => self.take_override(&power_path, o) * Decimal::from(per_server),
            (None, Some(s), _) => self.take_catalog(&power_path, &s.id, "max_power_kw", &s.max_power_kw, None, point),
            (None, None, Some((a, tdp))) => {
                let w = self.take_catalog(&power_path, &a.id, "tdp_w", tdp, None, point);
                Decimal::from(per_server) * w / dec!(1000) * SERVER_OVERHEAD_FACTOR
            }
            (None, None, None) => {
                self.push(
                    &power_path,
                    "the catalog gives no power for this hardware; give the wall power per GPU in kW",
                );
                Decimal::ZERO
            }
        }
    }

    /// How owned hardware is paid: cash, a loan (term, down payment) or a lease (no longer than
    /// the depreciation life `life`, paid by the lease rather than by milestones).
    pub(super) fn financing(&mut self, p: &str, l: &LayerSpec, life: u32) -> Financing {
        let fin = l
            .financing
            .clone()
            .unwrap_or(crate::engine::input::scenario_file::FinancingSpec {
                method: FinancingMethod::Cash,
                annual_rate: Decimal::ZERO,
                term_months: 0,
                down_payment: Decimal::ZERO,
            });
        let fp = format!("{p}.financing");
        if fin.annual_rate < Decimal::ZERO || fin.annual_rate > Decimal::ONE {
            self.push(
                format!("{fp}.annual_rate"),
                format!("{} is not an annual rate between 0 and 1", fin.annual_rate),
            );
        }
        let rate = monthly_rate(fin.annual_rate.max(Decimal::ZERO)).unwrap_or_default();
        match fin.method {
            FinancingMethod::Cash => {
                if fin.term_months > 0 || !fin.annual_rate.is_zero() || !fin.down_payment.is_zero() {
                    self.push(fp.clone(), "cash financing takes no rate, term or down payment");
                }
                Financing::Cash
            }
            FinancingMethod::Loan => {
                if fin.term_months == 0 {
                    self.push(format!("{fp}.term_months"), "a loan needs a term of at least one month");
                }
                self.fraction(&format!("{fp}.down_payment"), fin.down_payment);
                Financing::Loan {
                    monthly_rate: rate,
                    term_months: fin.term_months,
                    down_payment: fin.down_payment,
                }
            }
            FinancingMethod::Lease => {
                if fin.term_months == 0 || fin.term_months > MAX_LEASE_MONTHS || fin.term_months > life {
                    self.push(
                        format!("{fp}.term_months"),
                        format!(
                            "a lease of {} months is not allowed: give 1 to {MAX_LEASE_MONTHS} months, and no longer than the depreciation life ({life} months)",
                            fin.term_months
                        ),
                    );
                }
                if !fin.down_payment.is_zero() {
                    self.push(format!("{fp}.down_payment"), "a lease takes no down payment");
                }
                if !l.payment_milestones.is_empty() {
                    self.push(
                        format!("{p}.payment_milestones"),
                        "leased hardware is paid by the lease, not by milestones",
                    );
                }
                Financing::Lease {
                    monthly_rate: rate,
                    term_months: fin.term_months,
                }
            }
        }
    }

    /// The hardware's payment milestones as (absolute month, share), the shares adding up to 1;
    /// all on delivery when the file gives none.
    pub(super) fn milestones(&mut self, p: &str, l: &LayerSpec, delivery: u32) -> Vec<(u32, Decimal)> {
        if l.payment_milestones.is_empty() {
            vec![(delivery, Decimal::ONE)]
        } else {
            let mut total = Decimal::ZERO;
            for (k, m) in l.payment_milestones.iter().enumerate() {
                self.fraction(&format!("{p}.payment_milestones[{k}].share"), m.share);
                total += m.share;
            }
            if total != Decimal::ONE {
                self.push(
                    format!("{p}.payment_milestones"),
                    format!("the milestone shares add up to {total}, not 1"),
                );
            }
            l.payment_milestones
                .iter()
                .map(|m| (l.start_month + m.month, m.share))
                .collect()
        }
    }
}
