//! The scenario's market (issue #44): each price path chosen, checked and applied to the layers
//! and costs it moves, and resale derived from price-performance where no source covers it.
//!
//! Resolution, for each key: the scenario's `market`, else the file's, else the catalog's
//! matching path at the `defaults` band (the scenario's, else the file's), else flat. A rental
//! layer takes `rental_for` its accelerator (scenario, then file) before `rental` (scenario, then
//! file), and from the catalog the path naming its accelerator before the rental default; the
//! electricity tariff takes the path naming the facility's region before the electricity
//! default. A key may name a catalog path itself, `{ catalog, band }`.
//! ENGINE_RULES.md, "Price paths in the ledger (issue #44)", states what each path moves.

use super::*;
use crate::catalog::{MarketPath, PathUse, ResaleDecayEntry};
use crate::engine::blocks::resale::share_at;
use crate::engine::input::scenario_file::{MarketSpec, PathChoice, ResaleChoice};
use crate::engine::model::market::{
    MAX_PATH_MULTIPLIER, MonthPath, ScenarioMarket, derived_residual_share, vendor_resells,
};
use crate::engine::model::scenario::rental_margin;
use crate::market_shape::{Band, Decay, PricePath};

/// The keys of `market` that hold one price path.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Key {
    Rental,
    Token,
    Purchase,
    Electricity,
    Staff,
    Support,
}

impl Key {
    const ALL: [Key; 6] = [
        Key::Rental,
        Key::Token,
        Key::Purchase,
        Key::Electricity,
        Key::Staff,
        Key::Support,
    ];

    fn name(self) -> &'static str {
        self.use_().as_str()
    }

    /// The catalog's word for the price this key moves.
    fn use_(self) -> PathUse {
        match self {
            Key::Rental => PathUse::Rental,
            Key::Token => PathUse::Token,
            Key::Purchase => PathUse::Purchase,
            Key::Electricity => PathUse::Electricity,
            Key::Staff => PathUse::Staff,
            Key::Support => PathUse::Support,
        }
    }

    fn of(self, m: &MarketSpec) -> Option<&PathChoice> {
        match self {
            Key::Rental => m.rental.as_ref(),
            Key::Token => m.token.as_ref(),
            Key::Purchase => m.purchase.as_ref(),
            Key::Electricity => m.electricity.as_ref(),
            Key::Staff => m.staff.as_ref(),
            Key::Support => m.support.as_ref(),
        }
    }
}

/// Where a resolved path comes from.
enum PathFrom<'c> {
    /// The user's own path, and why.
    Own(String),
    /// A catalog path at a band.
    Catalog(&'c MarketPath, Band),
}

/// A path chosen for a price, and the JSON path it is written at.
struct Chosen<'c> {
    path: PricePath,
    at: String,
    from: PathFrom<'c>,
}

/// The resale decay a scenario resolves, where it is written and why.
#[derive(Clone)]
pub(super) struct ChosenDecay<'c> {
    pub(super) decay: Decay,
    pub(super) at: String,
    pub(super) reason: String,
    /// The catalog entry and band, when the decay is the catalog's.
    catalog: Option<(&'c ResaleDecayEntry, Band)>,
}

/// The scenario's `market`, else the file's, with the JSON path it is written at.
fn markets<'f>(p: &str, s: &'f ScenarioSpec, file: &'f ScenarioFile) -> [(Option<&'f MarketSpec>, String); 2] {
    [
        (s.market.as_ref(), format!("{p}.market")),
        (file.market.as_ref(), "market".to_owned()),
    ]
}

impl<'c> Resolver<'c> {
    /// A written choice resolved: the own path, or the catalog path at its band; `None` when
    /// it is not valid (`check_market` reports why).
    fn resolve(&self, choice: &PathChoice, at: String) -> Option<Chosen<'c>> {
        if let Some(path) = &choice.path {
            let reason = choice.reason.clone().unwrap_or_default();
            return Some(Chosen {
                path: path.clone(),
                at,
                from: PathFrom::Own(reason),
            });
        }
        let entry = self.catalog.market_path(choice.catalog.as_deref()?)?;
        let band = choice.band.unwrap_or_default();
        Some(Chosen {
            path: entry.band(band).clone(),
            at,
            from: PathFrom::Catalog(entry, band),
        })
    }

    /// The scenario's choice for `key`, else the file's.
    fn pick(&self, p: &str, s: &ScenarioSpec, file: &ScenarioFile, key: Key) -> Option<Chosen<'c>> {
        markets(p, s, file).into_iter().find_map(|(m, at)| {
            let choice = key.of(m?)?;
            self.resolve(choice, format!("{at}.{}", key.name()))
        })
    }

    /// A rental layer's written path: `rental_for` its accelerator (scenario, then file), else
    /// `rental`.
    fn pick_rental(&self, p: &str, s: &ScenarioSpec, file: &ScenarioFile, acc: Option<&str>) -> Option<Chosen<'c>> {
        let family = markets(p, s, file).into_iter().find_map(|(m, at)| {
            let a = acc?;
            let choice = m?.rental_for.get(a)?;
            self.resolve(choice, format!("{at}.rental_for.{a}"))
        });
        family.or_else(|| self.pick(p, s, file, Key::Rental))
    }

    /// The `defaults` band (the scenario's, else the file's) and where it is written.
    fn defaults_band(p: &str, s: &ScenarioSpec, file: &ScenarioFile) -> Option<(Band, String)> {
        markets(p, s, file)
            .into_iter()
            .find_map(|(m, at)| m?.defaults.map(|b| (b, format!("{at}.defaults"))))
    }

    /// What `key` resolves to: the written choice (see [`Self::pick`], [`Self::pick_rental`]),
    /// else the catalog's matching path at the `defaults` band.
    fn choose(
        &self,
        p: &str,
        s: &ScenarioSpec,
        file: &ScenarioFile,
        key: Key,
        acc: Option<&str>,
    ) -> Option<Chosen<'c>> {
        let written = match key {
            Key::Rental => self.pick_rental(p, s, file, acc),
            _ => self.pick(p, s, file, key),
        };
        written.or_else(|| {
            let (band, at) = Self::defaults_band(p, s, file)?;
            let region = s.facility.as_ref().map(|f| f.region.as_str());
            let region = if key == Key::Electricity { region } else { None };
            let acc = if key == Key::Rental { acc } else { None };
            let entry = self.catalog.market_path_for(key.use_(), acc, region)?;
            Some(Chosen {
                path: entry.band(band).clone(),
                at,
                from: PathFrom::Catalog(entry, band),
            })
        })
    }

    /// Checks every path and decay of a `market` written at `at` (`market` or
    /// `scenarios[i].market`): each own path as its block validates it with its reason given,
    /// each catalog choice naming a catalog entry for the same price, each `rental_for` naming a
    /// catalog accelerator.
    pub(super) fn check_market(&mut self, at: &str, m: &MarketSpec) {
        for key in Key::ALL {
            if let Some(c) = key.of(m) {
                self.check_path(&format!("{at}.{}", key.name()), c, key.use_());
            }
        }
        for (acc, c) in &m.rental_for {
            let p = format!("{at}.rental_for.{acc}");
            if self.catalog.accelerator(acc).is_none() {
                self.push(
                    p.clone(),
                    format!("no accelerator has id `{acc}`; key rental_for by an id from the accelerators catalog"),
                );
            }
            self.check_path(&p, c, PathUse::Rental);
        }
        if let Some(r) = &m.resale {
            self.check_decay(&format!("{at}.resale"), r);
        }
    }

    /// One choice: either an own path with its reason, or a catalog path of the same use.
    fn check_path(&mut self, p: &str, c: &PathChoice, use_: PathUse) {
        if !self.own_or_catalog(p, c.path.is_some(), c.catalog.as_deref(), c.band.is_some(), "path") {
            return;
        }
        if let Some(path) = &c.path {
            if let Err(e) = path.validate() {
                self.push(format!("{p}.path.{}", e.field), e.message);
            }
            self.reason_given(&format!("{p}.reason"), c.reason.as_deref());
            return;
        }
        let id = c.catalog.as_deref().unwrap_or_default();
        match self.catalog.market_path(id) {
            None => self.push(
                format!("{p}.catalog"),
                format!("no price path has id `{id}`; use an id from the market catalog (`planner catalog list --kind market`)"),
            ),
            Some(e) if e.applies_to != use_ => self.push(
                format!("{p}.catalog"),
                format!(
                    "`{id}` is a path of the {} price; name a {} path of the market catalog",
                    e.applies_to.as_str(),
                    use_.as_str()
                ),
            ),
            Some(_) => {}
        }
    }

    /// A resale choice: either an own decay with its reason, or a catalog decay.
    fn check_decay(&mut self, p: &str, r: &ResaleChoice) {
        if !self.own_or_catalog(p, r.decay.is_some(), r.catalog.as_deref(), r.band.is_some(), "decay") {
            return;
        }
        if let Some(d) = r.decay {
            if let Err(e) = share_at(d, 12) {
                self.push(format!("{p}.decay.{}", e.field), e.message);
            }
            self.reason_given(&format!("{p}.reason"), r.reason.as_deref());
            return;
        }
        let id = r.catalog.as_deref().unwrap_or_default();
        if self.catalog.resale_decay(id).is_none() {
            self.push(
                format!("{p}.catalog"),
                format!("no resale decay has id `{id}`; use an id from the market catalog (`planner catalog list --kind market`)"),
            );
        }
    }

    /// Exactly one of the own shape (`own`, named `what`) and `catalog`; `band` only with
    /// `catalog`. False (reported) otherwise.
    fn own_or_catalog(&mut self, p: &str, own: bool, catalog: Option<&str>, band: bool, what: &str) -> bool {
        let message = match (own, catalog.is_some()) {
            (true, true) => {
                format!("give either `{what}` (your own, with a reason) or `catalog` (a catalog entry's id), not both")
            }
            (false, false) => format!("give `{what}` (your own, with a reason) or `catalog` (a catalog entry's id)"),
            (true, false) if band => {
                self.push(
                    format!("{p}.band"),
                    format!("`band` picks a band of a catalog entry; remove it, or name the entry with `catalog` instead of `{what}`"),
                );
                return false;
            }
            _ => return true,
        };
        self.push(p, message);
        false
    }

    fn reason_given(&mut self, p: &str, reason: Option<&str>) {
        if reason.is_none_or(|r| r.trim().is_empty()) {
            self.push(
                p,
                "say where this comes from: a source and its date, a forecast, a contract's escalation clause",
            );
        }
    }

    /// The scenario's resale decay: its own `market.resale`, else the file's, else the catalog's
    /// default decay at the `defaults` band.
    pub(super) fn resale_choice(&self, p: &str, s: &ScenarioSpec, file: &ScenarioFile) -> Option<ChosenDecay<'c>> {
        let written = markets(p, s, file).into_iter().find_map(|(m, at)| {
            let r = m?.resale.as_ref()?;
            let at = format!("{at}.resale");
            match (r.decay, r.catalog.as_deref()) {
                (Some(decay), _) => Some(ChosenDecay {
                    decay,
                    at,
                    reason: r.reason.clone().unwrap_or_default(),
                    catalog: None,
                }),
                (None, Some(id)) => {
                    let entry = self.catalog.resale_decay(id)?;
                    Some(catalog_decay(entry, r.band.unwrap_or_default(), at))
                }
                (None, None) => None,
            }
        });
        written.or_else(|| {
            let (band, at) = Self::defaults_band(p, s, file)?;
            Some(catalog_decay(self.catalog.default_resale_decay()?, band, at))
        })
    }

    /// The path `c` resolved over the horizon, refused at its `path` when it multiplies a price
    /// by more than [`MAX_PATH_MULTIPLIER`] in any month of the horizon (or month `also`).
    fn month_path(&mut self, c: &Chosen<'_>, also: u32) -> Option<MonthPath> {
        let path = MonthPath::new(c.path.clone(), self.horizon);
        let highest = (0..self.horizon)
            .chain([also])
            .map(|m| path.at(m))
            .max()
            .unwrap_or(Decimal::ONE);
        if highest > MAX_PATH_MULTIPLIER {
            let at = match c.from {
                PathFrom::Own(_) => format!("{}.path", c.at),
                PathFrom::Catalog(..) => c.at.clone(),
            };
            self.push(
                at,
                format!(
                    "the path multiplies the price by {} within the plan, beyond the {MAX_PATH_MULTIPLIER} times the planner evaluates; lower its rates or points",
                    highest.round_dp(4)
                ),
            );
            return None;
        }
        Some(path)
    }

    /// Records the multiplier of month `m` on `path` at `at`: an own path with its reason, a
    /// catalog path as a catalog figure (its entry, band, the low and high bands' multipliers of
    /// the same month, sources, date and confidence).
    fn record_path(&mut self, at: String, m: u32, path: &MonthPath, c: &Chosen<'_>, what: &str) {
        let value = path.at(m);
        let origin = match &c.from {
            PathFrom::Own(reason) => Origin::Override {
                reason: format!("{what}; price path set at `{}`: {}", c.at, reason.trim()),
            },
            PathFrom::Catalog(entry, band) => Origin::Catalog {
                entry: entry.id.clone(),
                field: format!("{} ({what}; chosen at `{}`)", band.as_str(), c.at),
                point: point_of(*band),
                low: entry.low.multiplier(m),
                high: entry.high.multiplier(m),
                currency: None,
                as_of: entry.provenance.as_of.to_string(),
                confidence: entry.provenance.confidence,
                sources: cited(&entry.provenance),
            },
        };
        self.assumptions.push(Assumption {
            path: at,
            value,
            origin,
        });
    }

    /// Applies the scenario's market to its layers (rental and token paths month by month, a
    /// reservation's price locked in its signing month, owned hardware bought at its order
    /// month's price, then resale derived where nothing sourced covers it) and returns the paths
    /// of the scenario's own costs. Without `market` anywhere: nothing changes.
    pub(super) fn apply_market(
        &mut self,
        p: &str,
        s: &ScenarioSpec,
        file: &ScenarioFile,
        layers: &mut [Layer],
        resale: Option<ChosenDecay<'c>>,
    ) -> ScenarioMarket {
        if s.market.is_none() && file.market.is_none() {
            return ScenarioMarket::default();
        }
        for (j, l) in layers.iter_mut().enumerate() {
            self.layer_market(p, j, s, file, l);
        }
        let last = self.horizon.saturating_sub(1);
        let mut scenario_path = |key: Key, what: &str| {
            let c = self.choose(p, s, file, key, None)?;
            let path = self.month_path(&c, 0)?;
            // A path the `defaults` band picked is recorded at its key, not at `defaults`.
            let at = if c.at.ends_with(".defaults") {
                format!("{p}.market.{}", key.name())
            } else {
                c.at.clone()
            };
            self.record_path(at, last, &path, &c, what);
            Some(path)
        };
        let electricity = scenario_path(
            Key::Electricity,
            "multiplier of the facility's electricity tariff in the horizon's last month",
        );
        let staff = scenario_path(Key::Staff, "multiplier of staff cost in the horizon's last month");
        let support = scenario_path(
            Key::Support,
            "multiplier of support and maintenance in the horizon's last month",
        );
        if let Some(d) = &resale {
            self.derive_resales(p, s, file, layers, d);
            if let Some((entry, band)) = &d.catalog {
                self.record_decay(p, entry, *band);
            }
        }
        ScenarioMarket {
            electricity,
            staff,
            support,
            resale: resale.map(|d| d.decay),
        }
    }

    /// One layer's path: rental and token prices month by month, a reservation's price locked
    /// in its start month, owned hardware's price at its order month.
    fn layer_market(&mut self, p: &str, j: usize, s: &ScenarioSpec, file: &ScenarioFile, l: &mut Layer) {
        let lp = format!("{p}.layers[{j}].price_path");
        let last = self.horizon.saturating_sub(1);
        match l.kind {
            LayerKind::OnDemand | LayerKind::Spot | LayerKind::Pooled | LayerKind::TokenMetered => {
                let key = if l.kind == LayerKind::TokenMetered {
                    Key::Token
                } else {
                    Key::Rental
                };
                let Some(c) = self.choose(p, s, file, key, l.accelerator.as_deref()) else {
                    return;
                };
                let Some(path) = self.month_path(&c, 0) else { return };
                self.record_path(
                    lp,
                    last,
                    &path,
                    &c,
                    "multiplier of the layer's price in the horizon's last month",
                );
                l.price_path = Some(path);
            }
            LayerKind::Reserved => {
                let Some(c) = self.choose(p, s, file, Key::Rental, l.accelerator.as_deref()) else {
                    return;
                };
                let Some(path) = self.month_path(&c, l.from_month) else {
                    return;
                };
                let locked = path.at(l.from_month);
                let what = format!(
                    "multiplier of the rental price in force in month {}, when the reservation is signed, locked for its term",
                    l.from_month
                );
                self.record_path(lp, l.from_month, &path, &c, &what);
                l.base_price = Some(l.price_per_gpu_hour);
                l.price_per_gpu_hour *= locked;
            }
            LayerKind::Owned => {
                let Some(o) = l.owned.as_mut() else { return };
                let Some(c) = self.choose(p, s, file, Key::Purchase, None) else {
                    return;
                };
                let Some(path) = self.month_path(&c, o.order_month) else {
                    return;
                };
                let paid = path.at(o.order_month);
                let what = format!(
                    "multiplier of the hardware price in month {}, when it is ordered",
                    o.order_month
                );
                self.record_path(lp, o.order_month, &path, &c, &what);
                l.base_price = Some(o.hardware_per_gpu);
                o.hardware_per_gpu *= paid;
            }
        }
    }

    /// Owned hardware (not leased, delivered before the horizon) with no user `residual_share`
    /// and no sourced catalog estimate at its age resells at the horizon for the value derived
    /// from price-performance, capped by its remaining rental margin, recorded as derived.
    fn derive_resales(
        &mut self,
        p: &str,
        s: &ScenarioSpec,
        file: &ScenarioFile,
        layers: &mut [Layer],
        d: &ChosenDecay<'_>,
    ) {
        let horizon = self.horizon;
        for j in 0..layers.len() {
            let Some(spec) = s.layers.iter().find(|x| Some(&x.id) == layers.get(j).map(|l| &l.id)) else {
                continue;
            };
            let Some(l) = layers.get(j) else { continue };
            let Some(o) = &l.owned else { continue };
            let leased = matches!(o.financing, Financing::Lease { .. });
            if spec.residual_share.is_some() || leased || o.delivery_month >= horizon {
                continue;
            }
            let age = horizon - o.delivery_month;
            let Some(acc) = l.accelerator.as_deref().and_then(|a| self.catalog.accelerator(a)) else {
                continue;
            };
            if self.catalog.resale_for(acc).and_then(|c| c.share_at(age)).is_some() {
                continue;
            }
            let cap = rental_margin(layers, l, o, file.start, horizon, horizon.saturating_sub(1));
            let resells = vendor_resells(&acc.vendor);
            let Some((share, r)) = derived_residual_share(d.decay, o.hardware_per_gpu, age, cap, resells) else {
                continue;
            };
            let reason = derived_reason(&acc.vendor, age, &r, cap, d);
            self.assumptions.push(Assumption {
                path: format!("{p}.layers[{j}].residual_share"),
                value: share,
                origin: Origin::Derived { rule: reason },
            });
            if let Some(o) = layers.get_mut(j).and_then(|l| l.owned.as_mut()) {
                o.residual_share = share;
            }
        }
    }
}

/// The reason a derived resale is recorded with: how it was reached, never book value.
pub(super) fn derived_reason(
    vendor: &str,
    age: u32,
    r: &crate::engine::blocks::resale::DerivedResale,
    cap: Option<Decimal>,
    d: &ChosenDecay<'_>,
) -> String {
    let how = if !vendor_resells(vendor) {
        format!("{vendor} cards have no resale market: resale 0")
    } else if r.capped_by_margin {
        format!(
            "derived from price-performance (share {} at {age} months), capped by the remaining rental margin of {} per GPU",
            r.share.round_dp(6),
            cap.unwrap_or_default().round_dp(2)
        )
    } else {
        let cap = match cap {
            Some(c) => format!("the remaining rental margin of {} per GPU does not bind", c.round_dp(2)),
            None => "no cap: the scenario rents no such card by the hour".to_owned(),
        };
        format!(
            "derived from price-performance: share {} at {age} months; {cap}",
            r.share.round_dp(6)
        )
    };
    format!(
        "{how}; derived, never book value; decay set at `{}`: {}",
        d.at,
        d.reason.trim()
    )
}

/// A catalog decay at a band, chosen at `at`; its reason names the entry, its sources and date.
fn catalog_decay(entry: &ResaleDecayEntry, band: Band, at: String) -> ChosenDecay<'_> {
    let reason = format!(
        "catalog resale decay `{}` ({}), {} band, as of {}: {}",
        entry.id,
        entry.title,
        band.as_str(),
        entry.provenance.as_of,
        cited(&entry.provenance).join("; ")
    );
    ChosenDecay {
        decay: entry.band(band),
        at,
        reason,
        catalog: Some((entry, band)),
    }
}

/// A band as the point of a catalog range the assumptions name.
fn point_of(band: Band) -> PricePoint {
    match band {
        Band::Low => PricePoint::Low,
        Band::Mid => PricePoint::Mid,
        Band::High => PricePoint::High,
    }
}

/// The sources of a provenance as a reader cites them: "title (date)".
fn cited(p: &crate::catalog::provenance::Provenance) -> Vec<String> {
    p.sources.iter().map(|s| format!("{} ({})", s.title, s.as_of)).collect()
}

impl Resolver<'_> {
    /// Records the catalog decay a scenario's derived resale follows, at `<p>.market.resale`:
    /// the share a card keeps after 12 months on its band, the low and high bands' shares beside.
    fn record_decay(&mut self, p: &str, entry: &ResaleDecayEntry, band: Band) {
        let share = |d: Decay| share_at(d, 12).unwrap_or_default();
        self.assumptions.push(Assumption {
            path: format!("{p}.market.resale"),
            value: share(entry.band(band)),
            origin: Origin::Catalog {
                entry: entry.id.clone(),
                field: format!("{} (share of its price a card keeps after 12 months)", band.as_str()),
                point: point_of(band),
                low: share(entry.low),
                high: share(entry.high),
                currency: None,
                as_of: entry.provenance.as_of.to_string(),
                confidence: entry.provenance.confidence,
                sources: cited(&entry.provenance),
            },
        });
    }
}
