//! The catalog as the app uses it: every figure resolved to a [`Figure`] with full provenance.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::provenance::{Figure, Provenance};

/// The accelerator quadrant, plus the two groups that sit outside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// Large-scale training: judged on HBM capacity and scale-up bandwidth.
    Training,
    /// High-throughput inference: judged on memory bandwidth and tokens per watt.
    Inference,
    /// Edge and device: judged on power budget, thermal envelope and ecosystem maturity.
    Edge,
    /// Domestic alternatives: usable, but the software stack needs engineering months to adapt.
    Domestic,
    /// Consumer graphics cards used for small training and inference jobs.
    Consumer,
    /// Accelerators that can only be rented from one cloud (TPUs).
    CloudOnly,
}

impl Family {
    pub const ALL: [Family; 6] = [
        Family::Training,
        Family::Inference,
        Family::Edge,
        Family::Domestic,
        Family::Consumer,
        Family::CloudOnly,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Family::Training => "Large-scale training",
            Family::Inference => "High-throughput inference",
            Family::Edge => "Edge and device",
            Family::Domestic => "Domestic alternatives",
            Family::Consumer => "Consumer cards",
            Family::CloudOnly => "Cloud-only (TPU)",
        }
    }
}

/// One accelerator model with its specifications and purchase price.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Accelerator {
    pub id: String,
    pub name: String,
    pub vendor: String,
    pub family: Family,
    pub launch_year: u16,
    pub memory_type: String,
    pub scale_up: String,
    pub form_factor: String,
    /// Provenance of the descriptive fields (memory type, interconnect, form factor, launch year).
    pub spec_provenance: Provenance,
    pub memory_gb: Figure,
    pub bandwidth_tbps: Option<Figure>,
    /// Dense (not 2:4-sparse) BF16 tensor throughput; for parts without BF16, their FP16 figure.
    pub bf16_tflops: Option<Figure>,
    /// Dense FP8 tensor throughput; absent when the part has no FP8.
    pub fp8_tflops: Option<Figure>,
    pub tdp_w: Option<Figure>,
    /// Purchase price per accelerator in US dollars; absent for rent-only parts.
    pub price_usd: Option<Figure>,
    /// Engineering months to adapt the software stack; present for every domestic alternative.
    pub adaptation_months: Option<Figure>,
    pub notes: Option<String>,
}

impl Accelerator {
    /// Whether GPUs of one server are joined by a scale-up link (NVLink or similar), which
    /// tensor parallelism needs; the catalog writes "none" (or nothing) when there is none.
    pub fn has_scale_up_link(&self) -> bool {
        let s = self.scale_up.to_ascii_lowercase();
        !(s.is_empty() || s == "none" || s.starts_with("none") || s == "n/a")
    }
}

/// The kind of company selling cloud capacity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum ProviderKind {
    Hyperscaler,
    Neocloud,
    Marketplace,
}

/// A cloud offer for one accelerator: prices per GPU-hour by purchase option.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Offer {
    pub id: String,
    pub provider: String,
    pub provider_kind: ProviderKind,
    /// The catalog id of the accelerator this offer rents out.
    pub accelerator: String,
    pub sku: String,
    pub gpus_per_instance: u16,
    pub region: String,
    /// ISO 4217 code of every price in this offer.
    pub currency: String,
    pub on_demand_per_gpu_hour: Option<Figure>,
    pub reserved_1y_per_gpu_hour: Option<Figure>,
    pub reserved_3y_per_gpu_hour: Option<Figure>,
    /// The largest discount the provider advertises for a commitment, in percent.
    pub commit_discount_pct: Option<Figure>,
    pub spot_per_gpu_hour: Option<Figure>,
    /// Notice before a spot instance is reclaimed, in seconds.
    pub spot_notice_s: Option<Figure>,
    /// The catalog region whose grid intensity the offer's energy is counted at; `None` when the
    /// offer states no region (the engine then uses the `world` region and says so).
    pub grid_region: Option<String>,
    pub notes: Option<String>,
}

/// A cooling technology and the rack density it carries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Cooling {
    pub id: String,
    pub name: String,
    pub liquid: bool,
    pub kw_per_rack: Figure,
    pub pue: Figure,
    pub notes: Option<String>,
}

/// What a facility upgrade improves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum UpgradeKind {
    PowerDistribution,
    Cooling,
}

/// A capital cost range for preparing a room for dense racks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Upgrade {
    pub id: String,
    pub name: String,
    pub kind: UpgradeKind,
    pub currency: String,
    pub cost: Figure,
    pub notes: Option<String>,
}

/// Colocation space priced per kW of IT load per month in one market.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Colocation {
    pub id: String,
    pub market: String,
    pub currency: String,
    pub per_kw_month: Figure,
    pub notes: Option<String>,
}

/// A complete server or rack system: its accelerators, power draw and price.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ServerSystem {
    pub id: String,
    pub name: String,
    /// The catalog id of the accelerator inside.
    pub accelerator: String,
    pub gpus: u16,
    pub liquid_cooled: bool,
    pub max_power_kw: Figure,
    pub price_usd: Option<Figure>,
    pub notes: Option<String>,
}

/// A measured or targeted power usage effectiveness.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PueBenchmark {
    pub id: String,
    pub name: String,
    pub pue: Figure,
    /// The cloud provider whose published fleet PUE this is, spelled as in the offers'
    /// `provider`; `None` for a facility benchmark.
    pub provider: Option<String>,
    /// The PUE assumed for a cloud provider that publishes none (an industry average).
    pub cloud_default: bool,
    pub notes: Option<String>,
}

/// Which accelerators a resale estimate covers: one accelerator, or a family (optionally of
/// one vendor). A more specific estimate wins: accelerator, then family and vendor, then family.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case", tag = "by")]
pub enum ResaleTarget {
    Accelerator { id: String },
    Family { family: Family, vendor: Option<String> },
}

/// The resale price of a used accelerator at one age, as a share of its new price.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ResalePoint {
    pub age_months: u32,
    pub share: Figure,
}

/// A sourced secondary-market estimate: resale share of the new price by age, points in
/// increasing age. Between points the share is interpolated linearly; before the first point
/// the first point's share holds; past the last point there is no estimate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ResaleCurve {
    pub id: String,
    pub target: ResaleTarget,
    pub points: Vec<ResalePoint>,
    pub notes: Option<String>,
}

/// A facility lead time, in weeks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct LeadTime {
    pub id: String,
    pub item: String,
    pub weeks: Figure,
    pub notes: Option<String>,
}

/// Everything about the room: cooling, upgrades, colocation, systems, PUE, lead times.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Facility {
    pub cooling: Vec<Cooling>,
    pub upgrades: Vec<Upgrade>,
    pub colocation: Vec<Colocation>,
    pub systems: Vec<ServerSystem>,
    pub pue_benchmarks: Vec<PueBenchmark>,
    pub lead_times: Vec<LeadTime>,
}

/// Which compute pool a fabric suits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum Pool {
    Training,
    Inference,
    Experiment,
    Storage,
}

/// The network technology family of a fabric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum FabricTechnology {
    Infiniband,
    Roce,
    Ethernet,
}

/// A network fabric with its cost per GPU-facing port.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Fabric {
    pub id: String,
    pub name: String,
    pub technology: FabricTechnology,
    pub port_gbps: u32,
    pub pools: Vec<Pool>,
    pub currency: String,
    /// All-in cost per GPU-facing port: its share of leaf and spine switches, optics and cables.
    pub per_port_cost: Figure,
    /// Ports per switch.
    pub switch_radix: Option<u16>,
    pub switch_cost: Option<Figure>,
    pub optic_cost: Option<Figure>,
    pub notes: Option<String>,
}

/// A region's electricity tariff and grid carbon intensity.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Region {
    pub id: String,
    pub name: String,
    /// ISO 4217 code of the tariff.
    pub currency: String,
    pub tariff_per_kwh: Option<Figure>,
    pub grid_gco2_per_kwh: Option<Figure>,
    pub notes: Option<String>,
}

impl ResaleCurve {
    /// The resale share at `age_months`, as a figure with the provenance of the points it rests
    /// on: exact at a point, interpolated linearly (both ends of the range) between two points,
    /// the first point's share before the first point (no source says a younger card fetches
    /// more, and the flat share errs against owning), and `None` past the last point (no source
    /// covers that age, so the caller counts no resale rather than guessing).
    pub fn share_at(&self, age_months: u32) -> Option<Figure> {
        let i = self.points.iter().position(|p| p.age_months >= age_months)?;
        let p1 = &self.points[i];
        if i == 0 || p1.age_months == age_months {
            return Some(p1.share.clone());
        }
        let p0 = &self.points[i - 1];
        let span = Decimal::from(p1.age_months - p0.age_months);
        let t = Decimal::from(age_months - p0.age_months) / span;
        let lerp = |a: Decimal, b: Decimal| a + (b - a) * t;
        let (a, b) = (&p0.share.provenance, &p1.share.provenance);
        let mut sources = a.sources.clone();
        for s in &b.sources {
            if !sources.iter().any(|x| x.id == s.id) {
                sources.push(s.clone());
            }
        }
        Some(Figure {
            low: lerp(p0.share.low, p1.share.low),
            high: lerp(p0.share.high, p1.share.high),
            provenance: Provenance {
                sources,
                as_of: a.as_of.max(b.as_of),
                confidence: a.confidence.weakest(b.confidence),
                note: Some(format!(
                    "interpolated linearly between the estimates at {} and {} months",
                    p0.age_months, p1.age_months
                )),
            },
        })
    }

    /// The oldest age the estimate covers, in months.
    pub fn last_age(&self) -> u32 {
        self.points.last().map_or(0, |p| p.age_months)
    }
}

/// The kinds of catalog file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum CatalogKind {
    Accelerators,
    Offers,
    Facility,
    Fabrics,
    Regions,
    /// Tax profile presets (optional: a catalog without one loads, with no presets).
    Tax,
    /// Price paths and resale decays (optional: a catalog without one loads, with no paths).
    Market,
}

impl CatalogKind {
    pub const ALL: [CatalogKind; 7] = [
        CatalogKind::Accelerators,
        CatalogKind::Offers,
        CatalogKind::Facility,
        CatalogKind::Fabrics,
        CatalogKind::Regions,
        CatalogKind::Tax,
        CatalogKind::Market,
    ];

    /// Whether a catalog folder must hold a file of this kind. Kinds added after the first
    /// catalogs (tax profiles, price paths) are optional, so an older folder or signed pack still
    /// loads.
    pub fn is_required(self) -> bool {
        !matches!(self, CatalogKind::Tax | CatalogKind::Market)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            CatalogKind::Accelerators => "accelerators",
            CatalogKind::Offers => "offers",
            CatalogKind::Facility => "facility",
            CatalogKind::Fabrics => "fabrics",
            CatalogKind::Regions => "regions",
            CatalogKind::Tax => "tax",
            CatalogKind::Market => "market",
        }
    }
}

/// What a catalog file says about itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CatalogFileInfo {
    pub file: String,
    pub kind: CatalogKind,
    pub format: u32,
    pub version: String,
    pub title: String,
    pub entries: u32,
}

/// The whole catalog, every file loaded and cross-checked.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Catalog {
    pub files: Vec<CatalogFileInfo>,
    pub accelerators: Vec<Accelerator>,
    pub offers: Vec<Offer>,
    pub facility: Facility,
    pub fabrics: Vec<Fabric>,
    pub regions: Vec<Region>,
    /// Secondary-market resale estimates (in accelerators files, `[[resale]]`).
    pub resale: Vec<ResaleCurve>,
    /// Tax profile presets (in the optional tax file, `[[tax_profile]]`).
    pub tax_profiles: Vec<super::tax_model::TaxPreset>,
    /// Price paths (in the optional market file, `[[path]]`).
    pub market_paths: Vec<super::market_model::MarketPath>,
    /// Price-performance decays for derived resale (in the optional market file,
    /// `[[resale_decay]]`).
    pub resale_decays: Vec<super::market_model::ResaleDecayEntry>,
}

impl Catalog {
    /// The most specific resale estimate covering `acc`: one naming the accelerator, else its
    /// family and vendor, else its family; `None` when no source covers it.
    pub fn resale_for(&self, acc: &Accelerator) -> Option<&ResaleCurve> {
        let by_id = self
            .resale
            .iter()
            .find(|r| matches!(&r.target, ResaleTarget::Accelerator { id } if *id == acc.id));
        let by_family = |want_vendor: bool| {
            self.resale.iter().find(|r| match &r.target {
                ResaleTarget::Family { family, vendor } => {
                    *family == acc.family
                        && match vendor {
                            Some(v) => want_vendor && v.eq_ignore_ascii_case(&acc.vendor),
                            None => !want_vendor,
                        }
                }
                ResaleTarget::Accelerator { .. } => false,
            })
        };
        by_id.or_else(|| by_family(true)).or_else(|| by_family(false))
    }

    /// The published fleet PUE of a cloud provider (matched case-insensitively).
    pub fn provider_pue(&self, provider: &str) -> Option<&PueBenchmark> {
        self.facility
            .pue_benchmarks
            .iter()
            .find(|p| p.provider.as_deref().is_some_and(|v| v.eq_ignore_ascii_case(provider)))
    }

    /// The PUE assumed for a cloud provider that publishes none.
    pub fn cloud_default_pue(&self) -> Option<&PueBenchmark> {
        self.facility.pue_benchmarks.iter().find(|p| p.cloud_default)
    }

    pub fn accelerator(&self, id: &str) -> Option<&Accelerator> {
        self.accelerators.iter().find(|a| a.id == id)
    }

    pub fn offer(&self, id: &str) -> Option<&Offer> {
        self.offers.iter().find(|o| o.id == id)
    }

    pub fn region(&self, id: &str) -> Option<&Region> {
        self.regions.iter().find(|r| r.id == id)
    }

    pub fn fabric(&self, id: &str) -> Option<&Fabric> {
        self.fabrics.iter().find(|f| f.id == id)
    }

    pub fn tax_profile(&self, id: &str) -> Option<&super::tax_model::TaxPreset> {
        self.tax_profiles.iter().find(|p| p.id == id)
    }

    pub fn cooling(&self, id: &str) -> Option<&Cooling> {
        self.facility.cooling.iter().find(|c| c.id == id)
    }
}

/// The market catalog's paths and decays, looked up (issue #44).
impl Catalog {
    /// The price path with this id.
    pub fn market_path(&self, id: &str) -> Option<&super::market_model::MarketPath> {
        self.market_paths.iter().find(|p| p.id == id)
    }

    /// The resale decay with this id.
    pub fn resale_decay(&self, id: &str) -> Option<&super::market_model::ResaleDecayEntry> {
        self.resale_decays.iter().find(|d| d.id == id)
    }

    /// The path a price of `use_` follows by default: the entry naming `accelerator` (rental)
    /// or `region` (electricity) when one does, else the default entry for `use_`.
    pub fn market_path_for(
        &self,
        use_: super::market_model::PathUse,
        accelerator: Option<&str>,
        region: Option<&str>,
    ) -> Option<&super::market_model::MarketPath> {
        let of_use = || self.market_paths.iter().filter(move |p| p.applies_to == use_);
        let narrower = of_use().find(|p| {
            accelerator.is_some_and(|a| p.accelerators.iter().any(|x| x == a))
                || region.is_some_and(|r| p.regions.iter().any(|x| x == r))
        });
        narrower.or_else(|| of_use().find(|p| p.default))
    }

    /// The resale decay used by default.
    pub fn default_resale_decay(&self) -> Option<&super::market_model::ResaleDecayEntry> {
        self.resale_decays.iter().find(|d| d.default)
    }
}
