//! The facility a scenario runs in: power, cooling, colocation and upgrades.

use super::*;

impl<'c> Resolver<'c> {
    pub(super) fn facility(&mut self, p: &str, f: &FacilitySpec, point: PricePoint) -> Facility {
        let region = self.catalog.region(&f.region).cloned();
        if region.is_none() {
            self.push(
                format!("{p}.region"),
                format!("no region has id `{}` in the catalog", f.region),
            );
        }
        let (rid, rcur) = region.as_ref().map_or((String::new(), self.currency.clone()), |r| {
            (r.id.clone(), r.currency.clone())
        });
        let tariff = match (
            &f.tariff_per_kwh,
            region.as_ref().and_then(|r| r.tariff_per_kwh.as_ref()),
        ) {
            (Some(o), _) => self.take_override(&format!("{p}.tariff_per_kwh"), o),
            (None, Some(fig)) => self.take_catalog(
                &format!("{p}.tariff_per_kwh"),
                &rid,
                "tariff_per_kwh",
                fig,
                Some(&rcur),
                point,
            ),
            (None, None) => {
                if region.is_some() {
                    self.push(
                        format!("{p}.tariff_per_kwh"),
                        format!(
                            "the catalog has no tariff for `{}`; give {{\"value\": \"...\", \"reason\": \"...\"}}",
                            f.region
                        ),
                    );
                }
                Decimal::ZERO
            }
        };
        let grid = match (
            &f.grid_gco2_per_kwh,
            region.as_ref().and_then(|r| r.grid_gco2_per_kwh.as_ref()),
        ) {
            (Some(o), _) => self.take_override(&format!("{p}.grid_gco2_per_kwh"), o),
            (None, Some(fig)) => self.take_catalog(
                &format!("{p}.grid_gco2_per_kwh"),
                &rid,
                "grid_gco2_per_kwh",
                fig,
                None,
                point,
            ),
            (None, None) => Decimal::ZERO,
        };
        let cooling = self.catalog.cooling(&f.cooling).cloned();
        if cooling.is_none() {
            self.push(
                format!("{p}.cooling"),
                format!("no cooling technology has id `{}` in the catalog", f.cooling),
            );
        }
        let pue = match (&f.pue, &cooling) {
            (Some(o), _) => self.take_override(&format!("{p}.pue"), o),
            (None, Some(c)) => self.take_catalog(&format!("{p}.pue"), &c.id, "pue", &c.pue, None, point),
            (None, None) => Decimal::ONE,
        };
        if pue < Decimal::ONE {
            self.push(
                format!("{p}.pue"),
                format!("a PUE of {pue} is below 1, which no facility reaches"),
            );
        }
        if f.kw_per_rack_limit <= Decimal::ZERO {
            self.push(
                format!("{p}.kw_per_rack_limit"),
                "the rack power limit must be above zero kW",
            );
        }
        let colocation = self.colocation(p, f, point);
        let pd = self.facility_upgrade(
            p,
            "power_distribution_upgrade",
            f.power_distribution_upgrade.as_deref(),
            UpgradeKind::PowerDistribution,
            point,
        );
        let cu = self.facility_upgrade(
            p,
            "cooling_upgrade",
            f.cooling_upgrade.as_deref(),
            UpgradeKind::Cooling,
            point,
        );
        Facility {
            pue,
            tariff_per_kwh: tariff,
            grid_gco2_per_kwh: grid,
            kw_per_rack_limit: f.kw_per_rack_limit,
            cooling: cooling.map(|c| CoolingLimit {
                id: c.id.clone(),
                liquid: c.liquid,
                typical_kw: c.kw_per_rack.low,
                max_kw: c.kw_per_rack.high,
            }),
            colocation_per_kw_month: colocation,
            power_distribution_per_rack: pd,
            cooling_upgrade_per_rack: cu,
        }
    }

    /// The colocation price per kW and month: an override, else the named catalog market's.
    pub(super) fn colocation(&mut self, p: &str, f: &FacilitySpec, point: PricePoint) -> Decimal {
        match (&f.colocation, &f.colocation_per_kw_month) {
            (_, Some(o)) => self.take_override(&format!("{p}.colocation_per_kw_month"), o),
            (Some(id), None) => match self.catalog.facility.colocation.iter().find(|c| &c.id == id).cloned() {
                Some(c) => self.take_catalog(
                    &format!("{p}.colocation"),
                    &c.id,
                    "per_kw_month",
                    &c.per_kw_month,
                    Some(&c.currency),
                    point,
                ),
                None => {
                    self.push(
                        format!("{p}.colocation"),
                        format!("no colocation market has id `{id}` in the catalog"),
                    );
                    Decimal::ZERO
                }
            },
            (None, None) => Decimal::ZERO,
        }
    }

    /// The cost per rack of the facility upgrade `id` names (the field `field` of the facility
    /// at `p`), which must be of `kind`; 0 when none is named.
    pub(super) fn facility_upgrade(
        &mut self,
        p: &str,
        field: &str,
        id: Option<&str>,
        kind: UpgradeKind,
        point: PricePoint,
    ) -> Decimal {
        let Some(id) = id else { return Decimal::ZERO };
        match self.catalog.facility.upgrades.iter().find(|u| u.id == id).cloned() {
            Some(u) if u.kind == kind => self.take_catalog(
                &format!("{p}.{field}"),
                &u.id,
                "cost",
                &u.cost,
                Some(&u.currency),
                point,
            ),
            Some(_) => {
                self.push(
                    format!("{p}.{field}"),
                    format!("upgrade `{id}` is not of the kind this field needs"),
                );
                Decimal::ZERO
            }
            None => {
                self.push(
                    format!("{p}.{field}"),
                    format!("no facility upgrade has id `{id}` in the catalog"),
                );
                Decimal::ZERO
            }
        }
    }
}
