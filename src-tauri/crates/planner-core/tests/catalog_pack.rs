//! Catalog packs in the core: the manifest's checks, the diff of a fixture with known changes,
//! the rollback rule and the age of figures (issue #18).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use planner_core::catalog::diff::{EntryChangeKind, Freshness, age_months, diff};
use planner_core::catalog::pack::{Manifest, check_not_older, sha256_hex};
use planner_core::catalog::provenance::AsOf;
use planner_core::catalog::{Catalog, load};
use rust_decimal::dec;

fn folder(dir: &str) -> Vec<(String, Vec<u8>)> {
    let dir = format!("{}/../../../{dir}", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

fn catalog_of(files: &[(String, Vec<u8>)]) -> Catalog {
    let texts: Vec<(String, String)> = files
        .iter()
        .map(|(n, b)| (n.clone(), String::from_utf8(b.clone()).unwrap()))
        .collect();
    load(&texts).unwrap_or_else(|e| panic!("{:#?}", e.issues))
}

fn day(s: &str) -> AsOf {
    s.parse().unwrap()
}

#[test]
fn a_manifest_names_every_file_with_its_digest_and_reads_back() {
    let files = folder("tests/fixtures/catalog-next");
    let (m, catalog) = Manifest::of("Test Publisher", day("2026-12-01"), Some("December prices"), &files).unwrap();
    assert_eq!(m.pack.version, "2026.12.0");
    assert_eq!(m.files.len(), 7);
    let offers = m.files.iter().find(|f| f.name == "offers.toml").unwrap();
    let bytes = &files.iter().find(|(n, _)| n == "offers.toml").unwrap().1;
    assert_eq!(offers.sha256, sha256_hex(bytes));
    assert_eq!(offers.bytes, bytes.len() as u64);
    let back = Manifest::parse(&m.to_text()).unwrap();
    assert_eq!(back, m);
    assert_eq!(back.check(&files).unwrap(), catalog);
}

#[test]
fn sha256_matches_the_published_test_vector() {
    // FIPS 180-2 appendix B.1.
    assert_eq!(
        sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

#[test]
fn one_changed_byte_in_any_file_is_refused() {
    let files = folder("tests/fixtures/catalog-next");
    let (m, _) = Manifest::of("Test Publisher", day("2026-12-01"), None, &files).unwrap();
    for i in 0..files.len() {
        let mut altered = files.clone();
        let at = altered[i].1.len() / 2;
        altered[i].1[at] ^= 0x01;
        let err = m.check(&altered).unwrap_err().to_string();
        assert!(
            err.contains(&files[i].0) && err.contains("changed after the pack was signed"),
            "{err}"
        );
    }
}

#[test]
fn a_missing_or_extra_file_is_refused() {
    let files = folder("tests/fixtures/catalog-next");
    let (m, _) = Manifest::of("Test Publisher", day("2026-12-01"), None, &files).unwrap();
    let missing: Vec<_> = files.iter().filter(|(n, _)| n != "regions.toml").cloned().collect();
    assert!(
        m.check(&missing)
            .unwrap_err()
            .to_string()
            .contains("regions.toml is listed in the manifest but missing")
    );
    let mut extra = files.clone();
    extra.push(("extra.toml".into(), b"x = 1".to_vec()));
    assert!(
        m.check(&extra)
            .unwrap_err()
            .to_string()
            .contains("extra.toml is in the pack but not in its manifest")
    );
}

#[test]
fn a_manifest_whose_version_disagrees_with_its_files_is_refused() {
    let files = folder("tests/fixtures/catalog-next");
    let (mut m, _) = Manifest::of("Test Publisher", day("2026-12-01"), None, &files).unwrap();
    m.pack.version = "2027.1.0".into();
    let err = m.check(&files).unwrap_err().to_string();
    assert!(
        err.contains("pack.version is 2027.1.0 but its catalog files declare 2026.12.0"),
        "{err}"
    );
}

#[test]
fn hostile_manifests_are_refused_with_the_field() {
    for (text, want) in [
        (
            "[pack]\nformat = 2\npublisher = \"x\"\nversion = \"1.0\"\ndate = \"2026-12-01\"\n[[files]]\nname = \"a.toml\"\nbytes = 1\nsha256 = \"00\"\n",
            "pack format 2",
        ),
        (
            "[pack]\nformat = 1\npublisher = \"x\"\nversion = \"1.0\"\ndate = \"2026-12-01\"\n[[files]]\nname = \"../a.toml\"\nbytes = 1\nsha256 = \"00\"\n",
            "not a plain catalog file name",
        ),
        (
            "files = []\n[pack]\nformat = 1\npublisher = \"\"\nversion = \"1.0\"\ndate = \"2026-12-01\"\n",
            "pack.publisher",
        ),
        (
            "files = []\n[pack]\nformat = 1\npublisher = \"x\"\nversion = \"v1\"\ndate = \"2026-12-01\"\n",
            "pack.version `v1`",
        ),
        ("not toml at all [", "not a pack manifest"),
    ] {
        let err = Manifest::parse(text).unwrap_err().to_string();
        assert!(err.contains(want), "{want}: {err}");
    }
}

#[test]
fn rollback_and_same_version_with_other_files_are_refused() {
    assert!(check_not_older("2026.12.0", "2026.11.0", false).is_ok());
    let again = check_not_older("2026.11.0", "2026.11.0", true).unwrap_err().to_string();
    assert!(again.contains("already the catalog in use"), "{again}");
    let old = check_not_older("2026.10.0", "2026.11.0", false)
        .unwrap_err()
        .to_string();
    assert!(old.contains("older than the 2026.11.0 in use"), "{old}");
    let same = check_not_older("2026.11.0", "2026.11.0", false)
        .unwrap_err()
        .to_string();
    assert!(same.contains("files differ"), "{same}");
    // Versions compare number by number, not as text.
    assert!(check_not_older("2026.9.0", "2026.10.0", false).is_err());
}

#[test]
fn the_diff_of_the_fixture_is_exactly_its_three_changes() {
    let old = catalog_of(&folder("catalogs"));
    let new = catalog_of(&folder("tests/fixtures/catalog-next"));
    let d = diff(&old, &new);
    assert_eq!(
        (d.old_version.as_str(), d.new_version.as_str()),
        ("2026.11.0", "2026.12.0")
    );
    assert_eq!((d.added, d.removed, d.changed, d.figures_changed), (1, 1, 1, 1));
    let shown: Vec<(String, String, EntryChangeKind)> = d
        .entries
        .iter()
        .map(|e| (e.kind.clone(), e.id.clone(), e.change))
        .collect();
    assert_eq!(
        shown,
        vec![
            ("offer".into(), "aws-p5-h100".into(), EntryChangeKind::Changed),
            ("offer".into(), "vultr-mi300x".into(), EntryChangeKind::Removed),
            ("offer".into(), "fixture-cloud-h100".into(), EntryChangeKind::Added),
        ]
    );
    let h100 = &d.entries[0];
    assert_eq!(h100.name, "AWS p5.48xlarge");
    assert!(h100.texts.is_empty(), "{:?}", h100.texts);
    assert_eq!(h100.figures.len(), 1);
    let f = &h100.figures[0];
    assert_eq!(f.field, "on_demand_per_gpu_hour");
    let (was, now) = (f.old.as_ref().unwrap(), f.new.as_ref().unwrap());
    assert_eq!(
        (was.low, was.high, now.low, now.high),
        (dec!(6.88), dec!(6.88), dec!(3.90), dec!(3.90))
    );
    assert_eq!((was.as_of.as_str(), now.as_of.as_str()), ("2026-09-25", "2026-12-01"));
    assert!(
        was.sources[0].starts_with("AWS EC2 on-demand price feed"),
        "{:?}",
        was.sources
    );
    assert!(
        now.sources[0].starts_with("TEST FIXTURE: invented price feed"),
        "{:?}",
        now.sources
    );
    let removed = &d.entries[1];
    assert_eq!(removed.name, "Vultr MI300X");
    assert_eq!(removed.figures.len(), 1);
    assert_eq!(removed.figures[0].old.as_ref().map(|s| s.low), Some(dec!(1.85)));
    assert!(removed.figures[0].new.is_none());
    let added = &d.entries[2];
    assert_eq!(added.figures[0].new.as_ref().map(|s| s.low), Some(dec!(2.75)));
    // The same catalog against itself changes nothing.
    let none = diff(&old, &old);
    assert!(none.entries.is_empty());
}

#[test]
fn a_figure_is_stale_after_its_threshold_in_whole_months() {
    assert_eq!(age_months(day("2026-05"), day("2026-11-26")), 5);
    assert_eq!(age_months(day("2026-05"), day("2026-11-30")), 6);
    assert_eq!(age_months(day("2026-05-15"), day("2026-11-15")), 6);
    assert_eq!(age_months(day("2026-05-15"), day("2026-11-14")), 5);
    assert_eq!(age_months(day("2025"), day("2026-11-26")), 10);
    assert_eq!(age_months(day("2026-12-01"), day("2026-11-26")), 0);
    let limits = Freshness::default();
    assert_eq!(
        Freshness::is_stale("2026-05-15", day("2026-11-16"), limits.cloud_months),
        None
    );
    assert_eq!(
        Freshness::is_stale("2026-05-15", day("2026-12-16"), limits.cloud_months),
        Some(7)
    );
}

#[test]
fn stale_figures_use_the_cloud_threshold_for_offers_and_the_other_for_the_rest() {
    let catalog = catalog_of(&folder("catalogs"));
    let today = day("2026-11-26");
    let limits = Freshness {
        cloud_months: 6,
        other_months: 12,
    };
    let stale = limits.stale_figures(&catalog, today);
    assert!(!stale.is_empty());
    for s in &stale {
        let want = if s.kind == "offer" { 6 } else { 12 };
        assert_eq!(s.limit_months, want, "{s:?}");
        assert!(s.age_months > want, "{s:?}");
        assert_eq!(age_months(day(&s.as_of), today), s.age_months);
    }
    // The marketplace RTX 4090 rate is dated "2026" (31 December): not stale in November 2026.
    assert!(!stale.iter().any(|s| s.entry == "marketplace-rtx-4090"));
    // Every figure older than its threshold is listed: recount independently from the diff walk.
    let all_offers_old = catalog
        .offers
        .iter()
        .filter_map(|o| {
            o.on_demand_per_gpu_hour
                .as_ref()
                .map(|f| (o.id.clone(), f.provenance.as_of))
        })
        .filter(|(_, d)| age_months(*d, today) > 6)
        .count();
    let listed = stale
        .iter()
        .filter(|s| s.kind == "offer" && s.field == "on_demand_per_gpu_hour")
        .count();
    assert_eq!(listed, all_offers_old);
    // A tighter threshold never lists fewer figures.
    let tight = Freshness {
        cloud_months: 1,
        other_months: 1,
    }
    .stale_figures(&catalog, today);
    assert!(tight.len() >= stale.len());
}
