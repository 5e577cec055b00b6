//! The optional `tax` catalog kind (issue #44): tax profile presets parse with their provenance,
//! each mistake is refused at its line and field, the shipped presets carry the figures their
//! sources state, and a catalog without a tax file still loads.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::catalog::{CatalogKind, IssueKind, TaxConvention, TaxMethod, load, parse_file};
use rust_decimal::dec;

const HEAD: &str = "[catalog]\nkind = \"tax\"\nformat = 1\nversion = \"t\"\ntitle = \"t\"\n\n[sources.law]\ntitle = \"A statute\"\nurl = \"https://example.invalid\"\nas_of = \"2025-07-04\"\n\n";

/// A `[[tax_profile]]` entry on line 12, its descriptive fields and provenance on lines 13 to 17,
/// then `body` from line 18.
fn profile(body: &str) -> String {
    format!(
        "{HEAD}[[tax_profile]]\nid = \"p\"\ntitle = \"P\"\njurisdiction = \"J\"\nsrc = \"law\"\nconf = \"primary\"\n{body}"
    )
}

const GOOD: &str = "rate = 0.21\nmethod = \"macrs-gds\"\nrecovery_years = 5\nconvention = \"half-year\"\nbonus_share = { value = 1, conf = \"secondary\" }\nnote = \"n\"\n";

#[test]
fn a_preset_parses_with_its_provenance() {
    let p = parse_file("tax.toml", &profile(GOOD)).unwrap_or_else(|e| panic!("{:#?}", e.issues));
    assert_eq!(p.info().kind, CatalogKind::Tax);
    assert_eq!(p.info().entries, 1);
    // Assembled with the rest of a catalog: the engine test catalog plus this file.
    let mut files = common_files();
    files.push(("tax.toml".into(), profile(GOOD)));
    let c = load(&files).unwrap_or_else(|e| panic!("{:#?}", e.issues));
    let t = c.tax_profile("p").unwrap();
    assert_eq!(t.rate.low, dec!(0.21));
    assert_eq!(t.method, TaxMethod::MacrsGds);
    assert_eq!(t.recovery_years, 5);
    assert_eq!(t.convention, TaxConvention::HalfYear);
    assert_eq!(t.bonus_share.low, dec!(1));
    // The bonus share's own confidence, the entry's source and date.
    assert_eq!(t.bonus_share.provenance.sources[0].id, "law");
    assert_eq!(t.provenance.as_of.to_string(), "2025-07-04");
    assert_eq!(t.notes.as_deref(), Some("n"));
}

#[test]
fn a_bonus_share_left_out_is_none() {
    let body = GOOD.replace("bonus_share = { value = 1, conf = \"secondary\" }\n", "");
    let mut files = common_files();
    files.push(("tax.toml".into(), profile(&body)));
    let c = load(&files).unwrap();
    assert_eq!(c.tax_profile("p").unwrap().bonus_share.low, dec!(0));
}

/// Each mistake at its line (`rate` is on line 18, then `method`, `recovery_years` and
/// `convention`) and field.
#[test]
fn mistakes_are_refused_at_their_line_and_field() {
    let cases: [(&str, &str, &str, u32, IssueKind); 6] = [
        (
            "rate = 0.21",
            "rate = { low = 0.19, high = 0.25 }",
            "tax_profile[0].rate",
            18,
            IssueKind::InvalidRange,
        ),
        (
            "rate = 0.21",
            "rate = 1.21",
            "tax_profile[0].rate",
            18,
            IssueKind::InvalidRange,
        ),
        (
            "recovery_years = 5",
            "recovery_years = 4",
            "tax_profile[0].recovery_years",
            20,
            IssueKind::InvalidRange,
        ),
        (
            "recovery_years = 5",
            "recovery_years = 0",
            "tax_profile[0].recovery_years",
            20,
            IssueKind::InvalidRange,
        ),
        (
            "convention = \"half-year\"",
            "convention = \"none\"",
            "tax_profile[0].convention",
            21,
            IssueKind::InvalidRange,
        ),
        (
            "method = \"macrs-gds\"",
            "method = \"sum-of-years\"",
            "tax_profile[0].method",
            19,
            IssueKind::UnknownValue,
        ),
    ];
    for (from, to, field, line, kind) in cases {
        let err = parse_file("tax.toml", &profile(&GOOD.replace(from, to))).unwrap_err();
        let got: Vec<(&str, u32, IssueKind)> = err.issues.iter().map(|i| (i.field.as_str(), i.line, i.kind)).collect();
        assert_eq!(got, [(field, line, kind)], "{to}: {:#?}", err.issues);
    }
    let over = parse_file("tax.toml", &profile(&GOOD.replace("value = 1,", "value = 1.5,"))).unwrap_err();
    assert_eq!(over.issues[0].field, "tax_profile[0].bonus_share");
    // No source: the entry's provenance is missing.
    let text = profile(GOOD).replace("src = \"law\"\n", "");
    let err = parse_file("tax.toml", &text).unwrap_err();
    assert!(
        err.issues.iter().all(|i| i.kind == IssueKind::MissingProvenance),
        "{:#?}",
        err.issues
    );
    // A misspelt field.
    let err = parse_file("tax.toml", &profile(&format!("{GOOD}rates = 1\n"))).unwrap_err();
    assert_eq!(err.issues[0].kind, IssueKind::UnknownField);
}

/// The kind is optional: the engine test catalog (no tax file) loads with no presets, and the
/// `catalog-min` folder, an older layout, too.
#[test]
fn a_catalog_without_a_tax_file_loads() {
    let c = load(&common_files()).unwrap_or_else(|e| panic!("{:#?}", e.issues));
    assert!(c.tax_profiles.is_empty());
    let dir = format!("{}/../../../tests/fixtures/catalog-min", env!("CARGO_MANIFEST_DIR"));
    let files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| (p.display().to_string(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    assert!(files.iter().all(|(n, _)| !n.ends_with("tax.toml")));
    let c = load(&files).unwrap_or_else(|e| panic!("{:#?}", e.issues));
    assert!(c.tax_profiles.is_empty());
}

/// The shipped presets state what their sources say: 21% (IRC section 11(b)) with MACRS 5-year
/// half-year, without and with 100% bonus; 25% with full expensing (UK); 25% with straight line
/// over 3 years (China).
#[test]
fn the_shipped_presets_carry_their_sources_figures() {
    let c = common::shipped_catalog();
    let figures = |id: &str| {
        let p = c.tax_profile(id).unwrap_or_else(|| panic!("no preset {id}"));
        (p.rate.low, p.method, p.recovery_years, p.convention, p.bonus_share.low)
    };
    assert_eq!(
        figures("us-federal-macrs5"),
        (dec!(0.21), TaxMethod::MacrsGds, 5, TaxConvention::HalfYear, dec!(0))
    );
    assert_eq!(
        figures("us-federal-macrs5-bonus-2025"),
        (dec!(0.21), TaxMethod::MacrsGds, 5, TaxConvention::HalfYear, dec!(1))
    );
    assert_eq!(
        figures("uk-full-expensing"),
        (dec!(0.25), TaxMethod::StraightLine, 1, TaxConvention::None, dec!(1))
    );
    assert_eq!(
        figures("cn-eit-3y"),
        (
            dec!(0.25),
            TaxMethod::StraightLine,
            3,
            TaxConvention::MidQuarter,
            dec!(0)
        )
    );
    for p in &c.tax_profiles {
        assert!(!p.provenance.sources.is_empty(), "{}", p.id);
        assert!(!p.rate.provenance.sources.is_empty(), "{}", p.id);
    }
}

fn common_files() -> Vec<(String, String)> {
    let dir = format!("{}/tests/fixtures/engine-catalog", env!("CARGO_MANIFEST_DIR"));
    ["accelerators", "offers", "facility", "fabrics", "regions"]
        .iter()
        .map(|k| {
            let name = format!("{k}.toml");
            let text = std::fs::read_to_string(format!("{dir}/{name}")).unwrap();
            (name, text)
        })
        .collect()
}
