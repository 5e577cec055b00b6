//! The optional `market` catalog kind (issue #44): the shipped price paths and resale decay load
//! and move as their stated rates say; each mistake in a market file is refused at its line and
//! field; and a scenario file follows the catalog with `defaults`, names a catalog path at a band,
//! or overrides it with its own path.
//!
//! Every expected figure is computed here from the rate written in `catalogs/market.toml` (a
//! power written out, or a binary-float power independent of the engine's decimal roots), never
//! read from the program's output.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::catalog::{CatalogKind, IssueKind, PathUse, assemble, parse_file};
use planner_core::engine::blocks::resale::share_at;
use planner_core::engine::input::scenario_file::{PricePoint, parse};
use planner_core::engine::model::assumption::{Assumption, Origin};
use planner_core::engine::resolve::validate::validate;
use planner_core::market_shape::Band;
use rust_decimal::Decimal;
use rust_decimal::dec;
use rust_decimal::prelude::ToPrimitive;

/// Within 1e-20 of an exact decimal figure (the monthly root is exact to about 27 digits).
fn exact(got: Decimal, want: Decimal, what: &str) {
    assert!((got - want).abs() < dec!(1e-20), "{what}: got {got}, want {want}");
}

/// Within binary-float precision of a figure computed here in f64.
fn close(got: Decimal, want: f64, what: &str) {
    let got = got.to_f64().unwrap();
    assert!((got - want).abs() <= 1e-12, "{what}: engine {got}, hand {want}");
}

#[test]
fn the_shipped_paths_move_as_their_rates_say_at_month_12() {
    let c = common::shipped_catalog();
    assert!(c.files.iter().any(|f| f.kind == CatalogKind::Market));
    let at12 = |id: &str, band: Band| c.market_path(id).unwrap().band(band).multiplier(12);
    // Rental: -55% a year is 1 - 0.55 = 0.45 after a year; -30% is 0.70; the rebound reaches
    // 2.35 / 1.70 = 1.3824 (rounded) at month 5 and stays there.
    exact(at12("rental-datacenter-gpu", Band::Low), dec!(0.45), "rental low");
    exact(at12("rental-datacenter-gpu", Band::Mid), dec!(0.70), "rental mid");
    assert_eq!(at12("rental-datacenter-gpu", Band::High), dec!(1.3824));
    // Halfway up the rebound (month 2 of 5): 1 + 0.3824 × 2 / 5 = 1.15296.
    let rebound = c.market_path("rental-datacenter-gpu").unwrap();
    assert_eq!(rebound.high.multiplier(2), dec!(1.15296));
    // Purchase: 1 - 0.30 = 0.70; 2^(-1/2.07) - 1 = -0.2846 → 0.7154; 2^(-1/2.46) - 1 = -0.2456
    // → 0.7544.
    exact(
        at12("purchase-fixed-performance", Band::Low),
        dec!(0.70),
        "purchase low",
    );
    exact(
        at12("purchase-fixed-performance", Band::Mid),
        dec!(0.7154),
        "purchase mid",
    );
    exact(
        at12("purchase-fixed-performance", Band::High),
        dec!(0.7544),
        "purchase high",
    );
    // The rounded rates are the doubling times': 2^(-1/2.07) = 0.715443, 2^(-1/2.46) = 0.754449.
    assert!((0.7154 - 2f64.powf(-1.0 / 2.07)).abs() < 5e-5);
    assert!((0.7544 - 2f64.powf(-1.0 / 2.46)).abs() < 5e-5);
    // US electricity: 1 - 0.0010, 1 + 0.0302, 1 + 0.0416.
    exact(
        at12("electricity-us-commercial", Band::Low),
        dec!(0.9990),
        "electricity low",
    );
    exact(
        at12("electricity-us-commercial", Band::Mid),
        dec!(1.0302),
        "electricity mid",
    );
    exact(
        at12("electricity-us-commercial", Band::High),
        dec!(1.0416),
        "electricity high",
    );
    // EIA's figures behind the rates: (10.29 / 7.87)^(1/9) - 1 = 0.03024, 1.13^(1/3) - 1 = 0.04158.
    assert!(((10.29f64 / 7.87).powf(1.0 / 9.0) - 1.0 - 0.0302).abs() < 5e-5);
    assert!((1.13f64.powf(1.0 / 3.0) - 1.0 - 0.0416).abs() < 5e-5);
}

#[test]
fn the_shipped_resale_decay_keeps_what_price_performance_leaves() {
    let c = common::shipped_catalog();
    let d = c.default_resale_decay().unwrap();
    assert_eq!(d.id, "resale-price-performance");
    // After a year: 0.7 (30% cheaper), 2^(-1/2.07), 2^(-1/2.46).
    assert_eq!(share_at(d.band(Band::Low), 12).unwrap(), dec!(0.7));
    close(share_at(d.band(Band::Mid), 12).unwrap(), 2f64.powf(-1.0 / 2.07), "mid");
    close(
        share_at(d.band(Band::High), 12).unwrap(),
        2f64.powf(-1.0 / 2.46),
        "high",
    );
    // The defaults of the shipped file: one per use at most.
    let defaults = |u: PathUse| c.market_paths.iter().filter(|p| p.applies_to == u && p.default).count();
    assert_eq!(defaults(PathUse::Rental), 1);
    assert_eq!(defaults(PathUse::Purchase), 1);
    assert_eq!(defaults(PathUse::Electricity), 0);
    for p in &c.market_paths {
        assert!(!p.provenance.sources.is_empty() && p.notes.as_deref().is_some_and(|n| n.contains("Derived")));
    }
}

const HEAD: &str = "[catalog]\nkind = \"market\"\nformat = 1\nversion = \"t\"\ntitle = \"t\"\n\n[sources.s]\ntitle = \"A source\"\nas_of = \"2025-01\"\n\n";

/// A `[[path]]` entry on line 11, its fields from line 12, `body` after them (from line 17).
fn path_entry(id: &str, body: &str) -> String {
    format!(
        "[[path]]\nid = \"{id}\"\ntitle = \"T\"\nsrc = \"s\"\nconf = \"estimate\"\nlow = {{ kind = \"flat\" }}\n{body}"
    )
}

const RENTAL: &str =
    "applies_to = \"rental\"\nmid = { kind = \"rate\", per_year = \"-0.3\" }\nhigh = { kind = \"flat\" }\n";

/// The engine test catalog and one market file.
fn with_market(text: &str) -> Result<planner_core::catalog::Catalog, planner_core::catalog::CatalogError> {
    let dir = format!("{}/tests/fixtures/engine-catalog", env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for k in ["accelerators", "offers", "facility", "fabrics", "regions"] {
        let name = format!("{k}.toml");
        files.push(parse_file(&name, &std::fs::read_to_string(format!("{dir}/{name}")).unwrap()).unwrap());
    }
    files.push(parse_file("market.toml", text)?);
    assemble(files)
}

#[test]
fn a_bad_band_is_refused_at_its_line_and_field() {
    let bad = path_entry("p", &RENTAL.replace("\"-0.3\"", "\"-1.5\""));
    let err = parse_file("market.toml", &format!("{HEAD}{bad}")).unwrap_err();
    let i = &err.issues[0];
    // The mid band is written on line 18 (the entry starts on line 11, its body on line 17).
    assert_eq!((i.field.as_str(), i.line), ("path[0].mid.per_year", 18));
    assert_eq!(i.kind, IssueKind::InvalidRange);
    assert!(i.message.contains("-1.5"), "{}", i.message);
    // A band that is not a path at all: a serde refusal at the band.
    let unknown = path_entry("p", &RENTAL.replace("kind = \"flat\"", "kind = \"steep\""));
    let err = parse_file("market.toml", &format!("{HEAD}{unknown}")).unwrap_err();
    assert!(err.issues[0].field.starts_with("path[0].high"), "{:?}", err.issues);
}

#[test]
fn two_defaults_for_one_use_are_refused() {
    let one = path_entry("a", &format!("{RENTAL}default = true\n"));
    let two = path_entry("b", &format!("{RENTAL}default = true\n"));
    let err = with_market(&format!("{HEAD}{one}\n{two}")).unwrap_err();
    let i = &err.issues[0];
    // The first entry takes lines 11 to 20 (its `default` last), a blank line, then the second
    // from line 22: its `default` is on line 31.
    assert_eq!((i.field.as_str(), i.line), ("path[1].default", 31));
    assert_eq!(i.kind, IssueKind::DuplicateId);
    assert!(i.message.contains("market.toml:20"), "{}", i.message);
    // One default per use: a rental and a purchase default together are fine.
    let purchase = path_entry(
        "b",
        &format!("{}default = true\n", RENTAL.replace("rental", "purchase")),
    );
    with_market(&format!("{HEAD}{one}\n{purchase}")).unwrap_or_else(|e| panic!("{:#?}", e.issues));
}

#[test]
fn unknown_accelerator_and_region_ids_are_refused_at_their_place() {
    let acc = path_entry(
        "a",
        &format!("{RENTAL}accelerators = [\"nvidia-h100-sxm\", \"no-such-card\"]\n"),
    );
    let err = with_market(&format!("{HEAD}{acc}")).unwrap_err();
    let i = &err.issues[0];
    assert_eq!((i.field.as_str(), i.line), ("path[0].accelerators[1]", 20));
    assert_eq!(i.kind, IssueKind::UnknownReference);
    let elec = RENTAL.replace("rental", "electricity");
    let reg = path_entry("e", &format!("{elec}regions = [\"atlantis\"]\n"));
    let err = with_market(&format!("{HEAD}{reg}")).unwrap_err();
    assert_eq!(
        (err.issues[0].field.as_str(), err.issues[0].line),
        ("path[0].regions[0]", 20)
    );
    // `regions` narrows electricity only.
    let wrong = path_entry("w", &format!("{RENTAL}regions = [\"us\"]\n"));
    let err = parse_file("market.toml", &format!("{HEAD}{wrong}")).unwrap_err();
    assert_eq!(err.issues[0].field, "path[0].regions");
}

/// 24 months from January 2027 against the shipped catalog: H100 on demand at 2.00, one H100
/// ordered in month 12 (delivered a month later), in a US facility; `market` given by the caller.
fn file(market: &str, scenario_market: &str) -> String {
    format!(
        r#"{{
  "format_version": 1, "title": "catalog paths", "currency": "USD", "start": "2027-01",
  "horizon_months": 24, "discount_rate": "0",
  "workloads": [{{ "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
    "gpu_hours_per_day": "48", "gpu_hours_on": "nvidia-h100-sxm", "mfu": "0.4" }}],
  {market}
  "scenarios": [{{ "id": "mix", "name": "mix", {scenario_market}
    "facility": {{ "region": "us", "cooling": "direct-to-chip", "kw_per_rack_limit": "40" }},
    "layers": [
      {{ "id": "od", "kind": "on-demand", "offer": "aws-p5-h100",
         "price_per_gpu_hour": {{ "value": "2.00", "reason": "quote" }} }},
      {{ "id": "box", "kind": "owned", "accelerator": "nvidia-h100-sxm", "gpus": 1, "start_month": 12,
         "availability": "1", "lead_time_months": 1, "lead_time_reason": "supplier quote",
         "price_per_gpu": {{ "value": "30000", "reason": "quote" }} }}
    ] }}]
}}"#
    )
}

fn assumption<'a>(s: &'a [Assumption], path: &str) -> &'a Assumption {
    s.iter().find(|a| a.path == path).unwrap_or_else(|| {
        panic!(
            "no assumption {path}: {:#?}",
            s.iter().map(|a| &a.path).collect::<Vec<_>>()
        )
    })
}

/// `defaults = "mid"`: the on-demand H100 follows the rental path that names its card (-30% a
/// year), the owned card is bought at the purchase default's month-12 price (-0.2846 a year), the
/// US facility's tariff follows the US path (+0.0302 a year), and the resale decay default is
/// recorded; each as a catalog assumption at the mid band.
#[test]
fn defaults_mid_follows_the_catalog_for_every_unset_key() {
    let e = common::run_shipped(&file(r#""market": { "defaults": "mid" },"#, ""));
    let s = common::scenario(&e, "mix");
    let a = |p: &str| assumption(&s.assumptions, p);
    // On demand, in the horizon's last month (23): 0.7^(23/12).
    let od = a("scenarios[0].layers[0].price_path");
    close(od.value, 0.7f64.powf(23.0 / 12.0), "rental at month 23");
    // Owned, ordered in month 12: (1 - 0.2846)^(12/12) = 0.7154.
    exact(
        a("scenarios[0].layers[1].price_path").value,
        dec!(0.7154),
        "purchase at month 12",
    );
    // Electricity in month 23: 1.0302^(23/12).
    let el = a("scenarios[0].market.electricity");
    close(el.value, 1.0302f64.powf(23.0 / 12.0), "electricity at month 23");
    // Resale decay: the share after 12 months at 2.07-year doubling, 2^(-1/2.07).
    close(
        a("scenarios[0].market.resale").value,
        2f64.powf(-1.0 / 2.07),
        "resale share at 12 months",
    );
    match &od.origin {
        Origin::Catalog {
            entry,
            point,
            low,
            high,
            sources,
            ..
        } => {
            assert_eq!(entry, "rental-datacenter-gpu");
            assert_eq!(*point, PricePoint::Mid);
            // The low and high bands in the same month: 0.45^(23/12) and the rebound's 1.3824.
            close(*low, 0.45f64.powf(23.0 / 12.0), "low band at month 23");
            assert_eq!(*high, dec!(1.3824));
            assert!(sources.iter().any(|x| x.contains("Epoch AI")), "{sources:?}");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(&el.origin, Origin::Catalog { entry, .. } if entry == "electricity-us-commercial"));
    // Staff, support and tokens have no catalog path: nothing is recorded for them.
    assert!(!s.assumptions.iter().any(|x| x.path.ends_with("market.staff")));
}

/// The scenario's own rental path beats the file's `defaults`; the other keys still follow the
/// catalog, and a key may name a catalog path at another band.
#[test]
fn a_scenario_override_beats_the_catalog_default() {
    let own = r#""market": { "rental": { "path": { "kind": "rate", "per_year": "-0.25" }, "reason": "our forecast" },
        "purchase": { "catalog": "purchase-fixed-performance", "band": "high" } },"#;
    let e = common::run_shipped(&file(r#""market": { "defaults": "mid" },"#, own));
    let s = common::scenario(&e, "mix");
    let a = |p: &str| assumption(&s.assumptions, p);
    let od = a("scenarios[0].layers[0].price_path");
    close(od.value, 0.75f64.powf(23.0 / 12.0), "own rental at month 23");
    assert!(matches!(&od.origin, Origin::Override { reason } if reason.contains("our forecast")));
    // Purchase at the high band, ordered in month 12: 1 - 0.2456 = 0.7544.
    let buy = a("scenarios[0].layers[1].price_path");
    exact(buy.value, dec!(0.7544), "purchase high at month 12");
    assert!(matches!(
        &buy.origin,
        Origin::Catalog {
            point: PricePoint::High,
            ..
        }
    ));
    // Electricity still follows the default at mid.
    close(
        a("scenarios[0].market.electricity").value,
        1.0302f64.powf(23.0 / 12.0),
        "electricity",
    );
}

/// A file without `market` records no path: every price stays flat.
#[test]
fn without_a_market_nothing_follows_the_catalog() {
    let e = common::run_shipped(&file("", ""));
    let s = common::scenario(&e, "mix");
    assert!(
        !s.assumptions
            .iter()
            .any(|a| a.path.contains("price_path") || a.path.contains("market"))
    );
}

#[test]
fn unknown_catalog_ids_and_bands_on_own_paths_are_refused() {
    let c = common::shipped_catalog();
    let problems = |market: &str| {
        let f = parse(&file(market, "")).unwrap_or_else(|p| panic!("{p:?}"));
        validate(&c, &f, None).unwrap_err()
    };
    let p = problems(r#""market": { "rental": { "catalog": "no-such-path" } },"#);
    assert_eq!(p[0].path, "market.rental.catalog");
    assert!(p[0].message.contains("no-such-path"), "{}", p[0].message);
    let p = problems(r#""market": { "resale": { "catalog": "nope", "band": "low" } },"#);
    assert_eq!(p[0].path, "market.resale.catalog");
    let p = problems(r#""market": { "rental": { "path": { "kind": "flat" }, "band": "low", "reason": "r" } },"#);
    assert_eq!(p[0].path, "market.rental.band");
    // A catalog path of another price.
    let p = problems(r#""market": { "rental": { "catalog": "purchase-fixed-performance" } },"#);
    assert_eq!(p[0].path, "market.rental.catalog");
    assert!(p[0].message.contains("purchase"), "{}", p[0].message);
}
