//! Shared by the engine's integration tests: the engine test catalog and small builders.
#![allow(dead_code)]

use planner_core::catalog::{Catalog, load};
use planner_core::engine::costing::evaluate::{Evaluation, ScenarioResult, evaluate};
use planner_core::engine::input::scenario_file::parse;
use planner_core::engine::resolve::validate::validate;

const FILES: [(&str, &str); 5] = [
    (
        "accelerators.toml",
        include_str!("../fixtures/engine-catalog/accelerators.toml"),
    ),
    ("offers.toml", include_str!("../fixtures/engine-catalog/offers.toml")),
    (
        "facility.toml",
        include_str!("../fixtures/engine-catalog/facility.toml"),
    ),
    ("fabrics.toml", include_str!("../fixtures/engine-catalog/fabrics.toml")),
    ("regions.toml", include_str!("../fixtures/engine-catalog/regions.toml")),
];

pub fn catalog() -> Catalog {
    let files: Vec<(String, String)> = FILES.iter().map(|(n, t)| ((*n).to_owned(), (*t).to_owned())).collect();
    match load(&files) {
        Ok(c) => c,
        Err(e) => panic!("engine test catalog does not load: {:#?}", e.issues),
    }
}

/// The catalog the app ships (`catalogs/*.toml`), read from the repository.
pub fn shipped_catalog() -> Catalog {
    let dir = format!("{}/../../../catalogs", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
            )
        })
        .collect();
    files.sort();
    match load(&files) {
        Ok(c) => c,
        Err(e) => panic!("shipped catalog does not load: {:#?}", e.issues),
    }
}

/// Parses, validates and evaluates a scenario file, panicking with the problems if any.
pub fn run(text: &str) -> Evaluation {
    run_with(&catalog(), text)
}

/// As [`run`], against a given catalog.
pub fn run_with(catalog: &Catalog, text: &str) -> Evaluation {
    let file = parse(text).unwrap_or_else(|p| panic!("parse: {} {}", p.path, p.message));
    let plan = validate(catalog, &file, None).unwrap_or_else(|p| panic!("validate: {p:#?}"));
    evaluate(&plan)
}

/// As [`run`], against the catalog the app ships.
pub fn run_shipped(text: &str) -> Evaluation {
    run_with(&shipped_catalog(), text)
}

/// The evaluated scenario `id`.
pub fn scenario<'a>(e: &'a Evaluation, id: &str) -> &'a ScenarioResult {
    e.scenarios
        .iter()
        .find(|s| s.id == id)
        .unwrap_or_else(|| panic!("no scenario {id}"))
}

/// Days in the `k`-th month after January of `start_year`, by the Gregorian rule written out here
/// (independent of the engine's calendar, which the tests check against it).
pub fn month_days(start_year: u32, k: u32) -> u32 {
    let year = start_year + k / 12;
    let leap = (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400);
    match k % 12 + 1 {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}
