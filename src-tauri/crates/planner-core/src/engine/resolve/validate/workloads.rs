//! What each workload asks: its kind, token mix, demand in range and the shadow price of work left
//! unserved.

use super::*;

impl<'c> Resolver<'c> {
    pub(super) fn workload(&mut self, i: usize, w: &WorkloadSpec) -> Option<Workload> {
        let p = format!("workloads[{i}]");
        let before = self.problems.len();
        if w.id.trim().is_empty() {
            self.push(format!("{p}.id"), "give the workload an id");
        }
        self.positive_fraction(&format!("{p}.mfu"), w.mfu);
        if w.monthly_growth < dec!(-1) || w.monthly_growth > Decimal::ONE {
            self.push(
                format!("{p}.monthly_growth"),
                format!("{} is not a monthly growth between -1 and 1", w.monthly_growth),
            );
        }
        if w.active_months == Some(0) {
            self.push(
                format!("{p}.active_months"),
                "a workload must be active at least one month; leave the field out for the whole horizon",
            );
        }
        let method = self.tuning_method(&p, w);
        let token_mix = self.token_mix(&p, w);
        if let Some(region) = &w.region
            && self.catalog.region(region).is_none()
        {
            self.push(
                format!("{p}.region"),
                format!("no region has id `{region}` in the catalog"),
            );
        }
        let parameters = w.model.as_ref().map(|m| m.parameters_billion * dec!(1000000000));
        if let Some(m) = &w.model
            && m.parameters_billion <= Decimal::ZERO
        {
            self.push(
                format!("{p}.model.parameters_billion"),
                "the model needs more than zero parameters",
            );
        }
        let fpt = parameters.map(|n| flops_per_token(w.kind, method, n));
        let (base, per_day) = self.base_demand(&p, w, fpt);
        if self.problems.len() == before {
            self.demand_in_range(&p, w, base, per_day);
        }
        if self.problems.len() > before {
            return None;
        }
        let shape = w.model.as_ref().map(|m| ModelShape {
            parameters: m.parameters_billion * dec!(1000000000),
            precision: w.precision,
            layers: m.layers,
            kv_heads: m.kv_heads,
            head_dim: m.head_dim,
            context_tokens: m.context_tokens,
            batch: m.batch,
        });
        let need_gb = shape.as_ref().map(|s| memory_need(s, w.kind, method).total_gb);
        let (shadow, shadow_source) = self.shadow_price(&p, w.precision, w.mfu, need_gb);
        Some(Workload {
            id: w.id.clone(),
            name: w.name.clone(),
            kind: w.kind,
            method,
            class: w.class,
            precision: w.precision,
            interruptible: w.interruptible,
            data_classification: w.data_classification,
            region: w.region.clone(),
            parameters,
            flops_per_token: fpt,
            token_mix,
            base_demand: base,
            per_day,
            monthly_growth: w.monthly_growth,
            active_from: w.active_from_month,
            active_months: w.active_months,
            mfu: w.mfu,
            shape,
            shadow_price_per_pflop_h: shadow,
            shadow_source,
        })
    }

    /// The tuning method a workload trains with: full fine-tuning unless it says otherwise, and
    /// none for work that is not fine-tuning (where giving one is refused).
    pub(super) fn tuning_method(&mut self, p: &str, w: &WorkloadSpec) -> Option<TuningMethod> {
        match (w.kind, w.method) {
            (WorkloadKind::FineTuning, None) => Some(TuningMethod::Full),
            (WorkloadKind::FineTuning, m) => m,
            (_, Some(_)) => {
                self.push(format!("{p}.method"), "`method` applies to fine-tuning only");
                None
            }
            (_, None) => None,
        }
    }

    /// A workload's token mix, when it gives one: inference only, each share a fraction, the
    /// three summing to 1 (within [`TOKEN_MIX_TOLERANCE`]).
    pub(super) fn token_mix(&mut self, p: &str, w: &WorkloadSpec) -> Option<TokenMix> {
        let mix = w.token_mix.as_ref()?;
        let at = format!("{p}.token_mix");
        if w.kind != WorkloadKind::Inference {
            self.push(
                at,
                "`token_mix` applies to inference workloads only: it splits the tokens an API serves into input, output and cached",
            );
            return None;
        }
        for (name, share) in [("input", mix.input), ("output", mix.output), ("cached", mix.cached)] {
            self.fraction(&format!("{at}.{name}"), share);
        }
        let sum = mix.input + mix.output + mix.cached;
        if (sum - Decimal::ONE).abs() > TOKEN_MIX_TOLERANCE {
            self.push(
                at,
                format!(
                    "the shares of input, output and cached tokens sum to {}, not 1: give each as a fraction of the workload's tokens per month (e.g. \"0.7\", \"0.2\", \"0.1\")",
                    sum.normalize()
                ),
            );
        }
        Some(mix.clone())
    }

    /// A workload's demand in its first month, in useful PFLOP-hours, and whether it is counted
    /// per day: from tokens a month (with the model's FLOPs per token `fpt`), or from GPU-hours a
    /// day on a named accelerator; exactly one of the two.
    pub(super) fn base_demand(&mut self, p: &str, w: &WorkloadSpec, fpt: Option<Decimal>) -> (Decimal, bool) {
        match (w.tokens_per_month, w.gpu_hours_per_day) {
            (Some(t), None) => {
                self.non_negative(&format!("{p}.tokens_per_month"), t);
                if w.gpu_hours_on.is_some() {
                    self.push(
                        format!("{p}.gpu_hours_on"),
                        "`gpu_hours_on` goes with `gpu_hours_per_day`, not with tokens",
                    );
                }
                match fpt {
                    // Divided first: tokens × FLOPs per token can pass the decimal's limit.
                    Some(f) => (t / FLOP_PER_PFLOP_HOUR * f, false),
                    None => {
                        self.push(
                            format!("{p}.model"),
                            "demand in tokens needs the model (`model.parameters_billion`) to count FLOPs",
                        );
                        (Decimal::ZERO, false)
                    }
                }
            }
            (None, Some(h)) => self.gpu_hours_demand(p, w, h),
            _ => {
                self.push(
                    p,
                    "give the demand as exactly one of `tokens_per_month` or `gpu_hours_per_day`",
                );
                (Decimal::ZERO, false)
            }
        }
    }

    /// Demand given as `h` GPU-hours a day on the accelerator `gpu_hours_on` names, converted at
    /// its dense peak and the workload's MFU.
    pub(super) fn gpu_hours_demand(&mut self, p: &str, w: &WorkloadSpec, h: Decimal) -> (Decimal, bool) {
        self.non_negative(&format!("{p}.gpu_hours_per_day"), h);
        let peak = match &w.gpu_hours_on {
            None => {
                self.push(
                    format!("{p}.gpu_hours_on"),
                    "say which accelerator (catalog id) the GPU-hours are counted on",
                );
                None
            }
            Some(id) => {
                let path = format!("{p}.gpu_hours_on");
                let prec = w.precision;
                self.accelerator(&path, id).map(|a| peak_of(a, prec.uses_8bit_peak()))
            }
        };
        match peak {
            Some(Some(peak)) => (h * useful_pflop_per_gpu_hour(peak, w.mfu), true),
            Some(None) => {
                self.push(
                    format!("{p}.gpu_hours_on"),
                    "this accelerator publishes no dense tensor throughput; count the GPU-hours on one that does",
                );
                (Decimal::ZERO, true)
            }
            None => (Decimal::ZERO, true),
        }
    }

    /// Whether demand `base` (per day when `per_day`) of workload `w`, grown at `growth` a month
    /// over its months in the horizon, stays within
    /// [`crate::engine::input::bounds::MAX_MONTHLY_DEMAND_PFLOP_H`] in every month; with those months and
    /// the growth factor over them.
    pub(super) fn demand_fits(
        &self,
        w: &WorkloadSpec,
        base: Decimal,
        per_day: bool,
        growth: Decimal,
    ) -> (u32, Option<Decimal>, bool) {
        let max = crate::engine::input::bounds::MAX_MONTHLY_DEMAND_PFLOP_H;
        let months = self.horizon.saturating_sub(w.active_from_month);
        let months = w.active_months.map_or(months, |n| n.min(months));
        let per_month = if per_day {
            base.checked_mul(dec!(31))
        } else {
            Some(base)
        };
        let factor = crate::engine::blocks::finance::powi(Decimal::ONE + growth, months);
        let peak = match (per_month, factor) {
            (Some(d), Some(f)) if f <= max => d.checked_mul(f),
            _ => None,
        };
        (months, factor, peak.is_some_and(|d| d <= max))
    }

    /// Refuses demand that, grown over the workload's months in the horizon, would ask for more
    /// than [`crate::engine::input::bounds::MAX_MONTHLY_DEMAND_PFLOP_H`] in a month, or whose growth factor alone
    /// passes it: the engine compounds the growth month by month and sizes layers from it.
    pub(super) fn demand_in_range(&mut self, p: &str, w: &WorkloadSpec, base: Decimal, per_day: bool) {
        let (months, factor, fits) = self.demand_fits(w, base, per_day, w.monthly_growth);
        if fits {
            return;
        }
        let max = crate::engine::input::bounds::MAX_MONTHLY_DEMAND_PFLOP_H;
        let field = if w.monthly_growth > Decimal::ZERO && factor.is_none_or(|f| f > Decimal::ONE) {
            "monthly_growth"
        } else if per_day {
            "gpu_hours_per_day"
        } else {
            "tokens_per_month"
        };
        self.push(
            format!("{p}.{field}"),
            format!(
                "this demand, grown over its {months} month(s) in the horizon, asks for more than {} useful PFLOP-hours in a month, beyond what the planner evaluates; lower the demand or its growth (see Limits in the README)",
                max.normalize()
            ),
        );
    }

    /// The shadow price of a workload's unserved work, per useful PFLOP-hour: the on-demand
    /// price of the catalog offer that serves one useful PFLOP-hour of it most cheaply (at the
    /// file's price point, the workload's precision and MFU, the speed rule's midpoint
    /// throughput), in the file's currency, among the offers whose card holds the work's memory
    /// need (`need_gb`, when the workload gives its model) in one server ([`memory_fit`]); only
    /// when none does, among those that hold it across servers, then any. Offers in a currency
    /// the file has no rate for are passed over; with none left the price is zero and the
    /// assumption says so.
    pub(super) fn shadow_price(
        &mut self,
        p: &str,
        precision: crate::workload_kind::Precision,
        mfu: Decimal,
        need_gb: Option<Decimal>,
    ) -> (Decimal, Option<Assumption>) {
        let mut best: Option<((u8, Decimal), &crate::catalog::Offer, &Figure, Decimal)> = None;
        for o in &self.catalog.offers {
            let Some(fig) = o.on_demand_per_gpu_hour.as_ref() else {
                continue;
            };
            let Some(acc) = self.catalog.accelerator(&o.accelerator) else {
                continue;
            };
            let Some(peak) = peak_of(acc, precision.uses_8bit_peak()) else {
                continue;
            };
            let useful = useful_pflop_per_gpu_hour(peak, mfu);
            let rate = if o.currency == self.currency {
                Some(Decimal::ONE)
            } else {
                self.fx.get(&o.currency).map(|c| c.per_unit)
            };
            let (Some(rate), true) = (rate, useful > Decimal::ZERO) else {
                continue;
            };
            let per_useful = at(fig, self.point) * rate / useful;
            // A card that cannot hold the work cannot price it while one that can is offered.
            let fit = need_gb.map_or(0, |need| memory_fit(need, acc.memory_gb.low, acc.has_scale_up_link()));
            if best.is_none_or(|b| (fit, per_useful) < b.0) {
                best = Some(((fit, per_useful), o, fig, rate));
            }
        }
        let Some(((_, price), offer, fig, rate)) = best else {
            return (Decimal::ZERO, None);
        };
        // The price was converted into the file's currency: its range is given in it too, and
        // the assumption names that currency.
        let assumption = Assumption {
            path: format!("{p}.unserved_work_price"),
            value: at(fig, self.point) * rate,
            origin: Origin::Catalog {
                entry: offer.id.clone(),
                field: "on_demand_per_gpu_hour".to_owned(),
                point: self.point,
                low: fig.low * rate,
                high: fig.high * rate,
                currency: Some(self.currency.clone()),
                as_of: fig.provenance.as_of.to_string(),
                confidence: fig.provenance.confidence,
                sources: fig
                    .provenance
                    .sources
                    .iter()
                    .map(|s| format!("{} ({})", s.title, s.as_of))
                    .collect(),
            },
        };
        (price, Some(assumption))
    }
}
