//! The scenario's market (issue #44): each price path chosen, checked and applied to the layers
//! and costs it moves, and resale derived from price-performance where no source covers it.
//!
//! Resolution, for each key: the scenario's `market`, else the file's, else flat. A rental layer
//! takes `rental_for` its accelerator (scenario, then file) before `rental` (scenario, then file).
//! ENGINE_RULES.md, "Price paths in the ledger (issue #44)", states what each path moves.

use super::*;
use crate::engine::blocks::resale::share_at;
use crate::engine::input::scenario_file::{MarketSpec, PathChoice};
use crate::engine::model::market::{
    MAX_PATH_MULTIPLIER, MonthPath, ScenarioMarket, derived_residual_share, rental_margin, vendor_resells,
};
use crate::market_shape::Decay;

/// The keys of `market` that hold one price path.
#[derive(Clone, Copy)]
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
        match self {
            Key::Rental => "rental",
            Key::Token => "token",
            Key::Purchase => "purchase",
            Key::Electricity => "electricity",
            Key::Staff => "staff",
            Key::Support => "support",
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

/// A path chosen for a price, and the JSON path it is written at.
struct Chosen<'f> {
    choice: &'f PathChoice,
    at: String,
}

/// The resale decay a scenario resolves, where it is written and why.
#[derive(Clone)]
pub(super) struct ChosenDecay {
    pub(super) decay: Decay,
    pub(super) at: String,
    pub(super) reason: String,
}

/// The scenario's choice for `key`, else the file's.
fn pick<'f>(p: &str, s: &'f ScenarioSpec, file: &'f ScenarioFile, key: Key) -> Option<Chosen<'f>> {
    let own = s.market.as_ref().and_then(|m| key.of(m)).map(|choice| Chosen {
        choice,
        at: format!("{p}.market.{}", key.name()),
    });
    own.or_else(|| {
        file.market.as_ref().and_then(|m| key.of(m)).map(|choice| Chosen {
            choice,
            at: format!("market.{}", key.name()),
        })
    })
}

/// A rental layer's path: `rental_for` its accelerator (scenario, then file), else `rental`.
fn pick_rental<'f>(p: &str, s: &'f ScenarioSpec, file: &'f ScenarioFile, acc: Option<&str>) -> Option<Chosen<'f>> {
    let family = |m: Option<&'f MarketSpec>, at: String| {
        let a = acc?;
        m.and_then(|m| m.rental_for.get(a)).map(|choice| Chosen {
            choice,
            at: format!("{at}.rental_for.{a}"),
        })
    };
    family(s.market.as_ref(), format!("{p}.market"))
        .or_else(|| family(file.market.as_ref(), "market".to_owned()))
        .or_else(|| pick(p, s, file, Key::Rental))
}

impl<'c> Resolver<'c> {
    /// Checks every path and decay of a `market` written at `at` (`market` or
    /// `scenarios[i].market`): each path as its block validates it, each reason given, each
    /// `rental_for` naming a catalog accelerator.
    pub(super) fn check_market(&mut self, at: &str, m: &MarketSpec) {
        for key in Key::ALL {
            if let Some(c) = key.of(m) {
                self.check_path(&format!("{at}.{}", key.name()), c);
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
            self.check_path(&p, c);
        }
        if let Some(r) = &m.resale {
            if let Err(e) = share_at(r.decay, 12) {
                self.push(format!("{at}.resale.decay.{}", e.field), e.message);
            }
            self.reason_given(&format!("{at}.resale.reason"), &r.reason);
        }
    }

    fn check_path(&mut self, p: &str, c: &PathChoice) {
        if let Err(e) = c.path.validate() {
            self.push(format!("{p}.path.{}", e.field), e.message);
        }
        self.reason_given(&format!("{p}.reason"), &c.reason);
    }

    fn reason_given(&mut self, p: &str, reason: &str) {
        if reason.trim().is_empty() {
            self.push(
                p,
                "say where this comes from: a source and its date, a forecast, a contract's escalation clause",
            );
        }
    }

    /// The scenario's resale decay: its own `market.resale`, else the file's.
    pub(super) fn resale_choice(p: &str, s: &ScenarioSpec, file: &ScenarioFile) -> Option<ChosenDecay> {
        let own = s
            .market
            .as_ref()
            .and_then(|m| m.resale.as_ref())
            .map(|r| (r, format!("{p}.market.resale")));
        let file_level = || {
            file.market
                .as_ref()
                .and_then(|m| m.resale.as_ref())
                .map(|r| (r, "market.resale".to_owned()))
        };
        own.or_else(file_level).map(|(r, at)| ChosenDecay {
            decay: r.decay,
            at,
            reason: r.reason.clone(),
        })
    }

    /// The path `c` resolved over the horizon, refused at its `path` when it multiplies a price
    /// by more than [`MAX_PATH_MULTIPLIER`] in any month of the horizon (or month `also`).
    fn month_path(&mut self, c: &Chosen<'_>, also: u32) -> Option<MonthPath> {
        let path = MonthPath::new(c.choice.path.clone(), self.horizon);
        let highest = (0..self.horizon)
            .chain([also])
            .map(|m| path.at(m))
            .max()
            .unwrap_or(Decimal::ONE);
        if highest > MAX_PATH_MULTIPLIER {
            self.push(
                format!("{}.path", c.at),
                format!(
                    "the path multiplies the price by {} within the plan, beyond the {MAX_PATH_MULTIPLIER} times the planner evaluates; lower its rates or points",
                    highest.round_dp(4)
                ),
            );
            return None;
        }
        Some(path)
    }

    fn record_path(&mut self, path: String, value: Decimal, c: &Chosen<'_>, what: &str) {
        self.assumptions.push(Assumption {
            path,
            value,
            origin: Origin::Override {
                reason: format!("{what}; price path set at `{}`: {}", c.at, c.choice.reason.trim()),
            },
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
        resale: Option<ChosenDecay>,
    ) -> ScenarioMarket {
        if s.market.is_none() && file.market.is_none() {
            return ScenarioMarket::default();
        }
        for (j, l) in layers.iter_mut().enumerate() {
            self.layer_market(p, j, s, file, l);
        }
        let last = self.horizon.saturating_sub(1);
        let mut scenario_path = |key: Key, what: &str| {
            let c = pick(p, s, file, key)?;
            let path = self.month_path(&c, 0)?;
            self.record_path(c.at.clone(), path.at(last), &c, what);
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
                let c = if l.kind == LayerKind::TokenMetered {
                    pick(p, s, file, Key::Token)
                } else {
                    pick_rental(p, s, file, l.accelerator.as_deref())
                };
                let Some(c) = c else { return };
                let Some(path) = self.month_path(&c, 0) else { return };
                self.record_path(
                    lp,
                    path.at(last),
                    &c,
                    "multiplier of the layer's price in the horizon's last month",
                );
                l.price_path = Some(path);
            }
            LayerKind::Reserved => {
                let Some(c) = pick_rental(p, s, file, l.accelerator.as_deref()) else {
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
                self.record_path(lp, locked, &c, &what);
                l.base_price = Some(l.price_per_gpu_hour);
                l.price_per_gpu_hour *= locked;
            }
            LayerKind::Owned => {
                let Some(o) = l.owned.as_mut() else { return };
                let Some(c) = pick(p, s, file, Key::Purchase) else {
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
                self.record_path(lp, paid, &c, &what);
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
        d: &ChosenDecay,
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
                origin: Origin::Override { reason },
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
    d: &ChosenDecay,
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
