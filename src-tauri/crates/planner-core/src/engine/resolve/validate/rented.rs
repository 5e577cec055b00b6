//! What a rented layer pays: its kind's terms, token prices, offer and reservation prices, spot
//! checkpointing, clauses and the energy of rented capacity.

use super::*;

impl<'c> Resolver<'c> {
    /// What a layer pays and when it ends, by its kind: the price per GPU-hour of an on-demand,
    /// reserved or spot offer (or its override), a reserved term, the spot checkpoint overhead,
    /// the internal price of a pool, the price per million tokens, or the owned hardware.
    pub(super) fn kind_terms(
        &mut self,
        p: &str,
        l: &LayerSpec,
        hw: &LayerHardware,
        exit_fee: Option<(u32, Decimal)>,
        point: PricePoint,
    ) -> KindTerms {
        let offer = hw.offer;
        let mut terms = KindTerms {
            price_per_gpu_hour: Decimal::ZERO,
            price_per_million_tokens: Decimal::ZERO,
            token_prices: None,
            overhead: Decimal::ONE,
            spot: None,
            until: exit_fee.map(|e| e.0),
            owned: None,
            region: offer.map(|o| o.region.clone()),
            gpus: l.gpus,
        };
        match l.kind {
            LayerKind::OnDemand => {
                let fig = offer.and_then(|o| o.on_demand_per_gpu_hour.clone());
                terms.price_per_gpu_hour = self.offer_price(p, l, offer, "on_demand_per_gpu_hour", fig.as_ref(), point);
            }
            LayerKind::Reserved => self.reserved_terms(p, l, offer, point, &mut terms),
            LayerKind::Spot => {
                let fig = offer.and_then(|o| o.spot_per_gpu_hour.clone());
                terms.price_per_gpu_hour = self.offer_price(p, l, offer, "spot_per_gpu_hour", fig.as_ref(), point);
                let checkpointing = self.spot_checkpointing(p, l);
                terms.overhead = overhead_factor(&checkpointing);
                let notice_s = offer.and_then(|o| {
                    o.spot_notice_s.as_ref().map(|f| {
                        self.take_catalog(&format!("{p}.spot_notice_s"), &o.id, "spot_notice_s", f, None, point)
                    })
                });
                terms.spot = Some(crate::engine::blocks::spot::SpotTerms {
                    checkpointing,
                    notice_s,
                    provider: offer.map(|o| o.provider.clone()),
                });
            }
            LayerKind::Pooled => match &l.price_per_gpu_hour {
                Some(o) => terms.price_per_gpu_hour = self.take_override(&format!("{p}.price_per_gpu_hour"), o),
                None => self.push(format!("{p}.price_per_gpu_hour"), "a pooled layer needs its internal price per GPU-hour, with the reason (e.g. the pool's charge-back rate)"),
            },
            LayerKind::TokenMetered => self.token_terms(p, l, &mut terms),
            LayerKind::Owned => {
                terms.region = None;
                terms.owned = self.owned(p, l, hw.acc, hw.system, point);
                terms.gpus = terms.owned.as_ref().map(|o: &Owned| o.gpus);
                if let Some(o) = &terms.owned
                    && let Financing::Lease { term_months, .. } = o.financing
                {
                    let end = o.delivery_month + term_months;
                    terms.until = Some(terms.until.map_or(end, |u| u.min(end)));
                }
            }
        }
        terms
    }

    /// A token-metered layer's price: one blended price per million tokens, or prices by kind of
    /// token (input and output, cached defaulting to input), never both.
    pub(super) fn token_terms(&mut self, p: &str, l: &LayerSpec, terms: &mut KindTerms) {
        let split = l.price_per_million_input_tokens.is_some()
            || l.price_per_million_output_tokens.is_some()
            || l.price_per_million_cached_tokens.is_some();
        match (&l.price_per_million_tokens, split) {
            (Some(_), true) => self.push(
                format!("{p}.price_per_million_tokens"),
                "give one price or the other: the blended `price_per_million_tokens`, or the prices by kind of token (`price_per_million_input_tokens`, `price_per_million_output_tokens`, optionally `price_per_million_cached_tokens`); remove one",
            ),
            (Some(o), false) => {
                terms.price_per_million_tokens = self.take_override(&format!("{p}.price_per_million_tokens"), o);
            }
            (None, true) => terms.token_prices = self.split_token_prices(p, l),
            (None, false) => self.push(
                format!("{p}.price_per_million_tokens"),
                "a token-metered layer needs its price per million tokens, with the reason (or its prices per million input and output tokens)",
            ),
        }
    }

    /// The prices by kind of token of a token-metered layer, each an override with its reason:
    /// input and output both required; cached, when not given, at the input price, recorded so.
    pub(super) fn split_token_prices(&mut self, p: &str, l: &LayerSpec) -> Option<TokenPrices> {
        let mut price = |field: &str, what: &str, o: Option<&Override>| {
            let path = format!("{p}.{field}");
            match o {
                Some(o) => Some(self.take_override(&path, o)),
                None => {
                    self.push(
                        path,
                        format!("give the price per million {what} tokens too, with the reason: a layer priced by kind of token needs its input and its output price"),
                    );
                    None
                }
            }
        };
        let input = price(
            "price_per_million_input_tokens",
            "input",
            l.price_per_million_input_tokens.as_ref(),
        );
        let output = price(
            "price_per_million_output_tokens",
            "output",
            l.price_per_million_output_tokens.as_ref(),
        );
        let (input, output) = (input?, output?);
        let cached = match &l.price_per_million_cached_tokens {
            Some(o) => self.take_override(&format!("{p}.price_per_million_cached_tokens"), o),
            None => {
                let input_path = format!("{p}.price_per_million_input_tokens");
                let input_reason = self
                    .assumptions
                    .iter()
                    .rev()
                    .find(|a| a.path == input_path)
                    .and_then(|a| match &a.origin {
                        Origin::Override { reason } => Some(reason.clone()),
                        Origin::Catalog { .. } | Origin::Derived { .. } => None,
                    })
                    .unwrap_or_default();
                self.assumptions.push(Assumption {
                    path: format!("{p}.price_per_million_cached_tokens"),
                    value: input,
                    origin: Origin::Override {
                        reason: format!(
                            "no price for cached tokens given: cached tokens are billed at the input price ({input_reason})"
                        ),
                    },
                });
                input
            }
        };
        Some(TokenPrices { input, output, cached })
    }

    /// A rented layer's price per GPU-hour: its override, else the offer's figure `field`.
    pub(super) fn offer_price(
        &mut self,
        p: &str,
        l: &LayerSpec,
        offer: Option<&crate::catalog::Offer>,
        field: &str,
        fig: Option<&Figure>,
        point: PricePoint,
    ) -> Decimal {
        let offer_id = offer.map(|o| o.id.clone()).unwrap_or_default();
        let offer_cur = offer.map(|o| o.currency.clone());
        self.figure_or_override(
            &format!("{p}.price_per_gpu_hour"),
            l.price_per_gpu_hour.as_ref(),
            &offer_id,
            field,
            fig,
            offer_cur.as_deref(),
            point,
        )
    }

    /// A reserved layer's term, GPUs committed and price for the term. The commitment runs its
    /// whole term; an exit ends it early for a fee. A term that outlasts the horizon is paid only
    /// inside the horizon (the rest shows in results). A term of 12 or 36 months may take the
    /// offer's reserved price; any other length (`{"months": n}`) has no catalog price and needs
    /// the quoted `price_per_gpu_hour`.
    pub(super) fn reserved_terms(
        &mut self,
        p: &str,
        l: &LayerSpec,
        offer: Option<&crate::catalog::Offer>,
        point: PricePoint,
        terms: &mut KindTerms,
    ) {
        let term = match l.term {
            Some(t) => t,
            None => {
                self.push(
                    format!("{p}.term"),
                    "a reserved layer needs its commitment term: \"1y\", \"3y\" or a number of months as {\"months\": 6}",
                );
                CommitTerm::OneYear
            }
        };
        let months = term.months();
        if months == 0 || months > MAX_HORIZON_MONTHS {
            self.push(
                format!("{p}.term.months"),
                format!(
                    "a commitment of {months} months is outside 1 to {MAX_HORIZON_MONTHS} months; give the contract's term in whole months"
                ),
            );
        }
        if l.gpus.is_none() {
            self.push(
                format!("{p}.gpus"),
                "a reserved layer needs the number of GPUs committed",
            );
        }
        terms.price_per_gpu_hour = match term.catalog_price_field() {
            Some(field) => {
                let fig = offer.and_then(|o| {
                    if months == 36 {
                        o.reserved_3y_per_gpu_hour.clone()
                    } else {
                        o.reserved_1y_per_gpu_hour.clone()
                    }
                });
                self.offer_price(p, l, offer, field, fig.as_ref(), point)
            }
            None => match &l.price_per_gpu_hour {
                Some(o) => self.take_override(&format!("{p}.price_per_gpu_hour"), o),
                None => {
                    self.push(
                        format!("{p}.price_per_gpu_hour"),
                        format!(
                            "a reserved term of {} has no catalog price (the catalog prices 12- and 36-month terms): give the quoted price as `price_per_gpu_hour`, {{\"value\": \"...\", \"reason\": \"...\"}}",
                            term.words()
                        ),
                    );
                    Decimal::ZERO
                }
            },
        };
        let end = l.start_month.saturating_add(months);
        terms.until = Some(terms.until.map_or(end, |u| u.min(end)));
    }

    /// A spot layer's checkpointing: its interruption rate, checkpoint write and restart times
    /// (defaults 3 and 10 minutes), from which the overhead factor follows (Young/Daly).
    pub(super) fn spot_checkpointing(&mut self, p: &str, l: &LayerSpec) -> Checkpointing {
        let lambda = match l.interruptions_per_hour {
            Some(v) => {
                self.non_negative(&format!("{p}.interruptions_per_hour"), v);
                v
            }
            None => {
                self.push(
                    format!("{p}.interruptions_per_hour"),
                    "a spot layer needs the expected interruptions per hour (e.g. \"0.25\" for one per 4 hours)",
                );
                Decimal::ZERO
            }
        };
        let c = l.checkpoint_write_minutes.unwrap_or(dec!(3));
        let r = l.restart_minutes.unwrap_or(dec!(10));
        self.non_negative(&format!("{p}.checkpoint_write_minutes"), c);
        self.non_negative(&format!("{p}.restart_minutes"), r);
        Checkpointing {
            interruptions_per_hour: lambda.max(Decimal::ZERO),
            checkpoint_write_h: c.max(Decimal::ZERO) / dec!(60),
            restart_h: r.max(Decimal::ZERO) / dec!(60),
        }
    }

    /// A clause prices ending a commitment early, so only layers with a commitment schedule
    /// (reserved capacity, leased hardware) may carry one; see `catalogs/samples/README.md`.
    pub(super) fn clause_applies(&mut self, p: &str, l: &LayerSpec, owned: Option<&Owned>) {
        let refusal = match l.kind {
            LayerKind::Reserved => None,
            LayerKind::Owned => match owned.map(|o| &o.financing) {
                Some(Financing::Lease { .. }) | None => None,
                Some(_) => Some(
                    "owned hardware paid in cash or by a loan commits to no contract payments a clause could end; an exit clause applies to reserved capacity and leased hardware",
                ),
            },
            _ => Some(
                "this layer commits to no payments (it is paid as used): an exit clause applies to reserved capacity and leased hardware only",
            ),
        };
        if let Some(message) = refusal {
            self.push(format!("{p}.exit_clause"), message);
        }
    }

    /// How a rented layer's energy and emissions are estimated, each figure recorded as an
    /// assumption under `<layer>.estimated_energy`: the accelerator's catalog TDP × the server
    /// overhead factor, the provider's published fleet PUE (else the catalog's cloud default, an
    /// industry average, labelled so), and the grid intensity of the offer's `grid_region` (else
    /// of the [`CLOUD_FALLBACK_REGION`], labelled so). `None`, with a warning, when a figure is
    /// missing: the layer's energy then counts as 0 and the warning says so.
    pub(super) fn cloud_energy(
        &mut self,
        p: &str,
        layer: &str,
        idle_power_share: Option<Decimal>,
        offer: Option<&crate::catalog::Offer>,
        acc: Option<&Accelerator>,
        point: PricePoint,
    ) -> Option<CloudEnergy> {
        let not_estimated =
            |why: String| format!("layer `{layer}`: {why}; its energy and emissions are not estimated (counted as 0)");
        let Some(acc) = acc else {
            self.warnings
                .push(not_estimated("the layer names no accelerator".to_owned()));
            return None;
        };
        let Some(tdp) = &acc.tdp_w else {
            self.warnings.push(not_estimated(format!(
                "the catalog gives no power (TDP) for `{}`",
                acc.id
            )));
            return None;
        };
        let ep = format!("{p}.estimated_energy");
        let pue_fig = match offer.and_then(|o| self.catalog.provider_pue(&o.provider)) {
            Some(b) => Some((b, "pue (the provider's published fleet average)".to_owned())),
            None => self.catalog.cloud_default_pue().map(|b| {
                let whose = match offer {
                    Some(o) => format!("`{}` publishes none", o.provider),
                    None => "the layer names no provider".to_owned(),
                };
                (b, format!("pue (industry average: {whose})"))
            }),
        };
        let Some((bench, pue_field)) = pue_fig else {
            self.warnings.push(not_estimated(
                "the catalog has no PUE for the provider and no cloud default PUE".to_owned(),
            ));
            return None;
        };
        let (region_id, grid_field) = match offer.and_then(|o| o.grid_region.clone()) {
            Some(r) => (r, "grid_gco2_per_kwh (the offer's region)".to_owned()),
            None => (
                CLOUD_FALLBACK_REGION.to_owned(),
                format!("grid_gco2_per_kwh (`{CLOUD_FALLBACK_REGION}` average: the offer states no region)"),
            ),
        };
        let Some((rid, grid_fig)) = self
            .catalog
            .region(&region_id)
            .and_then(|r| r.grid_gco2_per_kwh.clone().map(|g| (r.id.clone(), g)))
        else {
            self.warnings.push(not_estimated(format!(
                "the catalog gives no grid intensity for region `{region_id}`"
            )));
            return None;
        };
        let (bench_id, bench_pue) = (bench.id.clone(), bench.pue.clone());
        let watts = self.take_catalog(&format!("{ep}.tdp_w"), &acc.id, "tdp_w", tdp, None, point);
        let pue = self.take_catalog(&format!("{ep}.pue"), &bench_id, &pue_field, &bench_pue, None, point);
        let grid = self.take_catalog(
            &format!("{ep}.grid_gco2_per_kwh"),
            &rid,
            &grid_field,
            &grid_fig,
            None,
            point,
        );
        let idle = idle_power_share.unwrap_or(DEFAULT_IDLE_POWER_SHARE);
        self.fraction(&format!("{p}.idle_power_share"), idle);
        Some(CloudEnergy {
            kw_per_gpu: watts / dec!(1000) * SERVER_OVERHEAD_FACTOR,
            pue,
            grid_gco2_per_kwh: grid,
            idle_power_share: idle,
        })
    }
}
