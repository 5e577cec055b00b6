//! What the fuzz targets share: the bundled catalog and checklist template (compiled in, so a
//! run does not depend on the working folder), a fixed workspace setting, and a scratch folder
//! for the importers that read a path.
//!
//! Nothing here catches a panic: a panic in the code under test is a finding.

use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use planner_core::calendar::YearMonth;
use planner_core::catalog::{self, Catalog, ParsedFile};
use planner_core::compliance::checklist::ChecklistTemplate;
use planner_core::engine::workspace::content::WorkspaceSettings;

/// The shipped catalog's files, as `planner_store::read_catalog_dir` names them.
pub const CATALOG_FILES: [(&str, &str); 5] = [
    (
        "catalogs/accelerators.toml",
        include_str!("../../../catalogs/accelerators.toml"),
    ),
    ("catalogs/fabrics.toml", include_str!("../../../catalogs/fabrics.toml")),
    (
        "catalogs/facility.toml",
        include_str!("../../../catalogs/facility.toml"),
    ),
    ("catalogs/offers.toml", include_str!("../../../catalogs/offers.toml")),
    ("catalogs/regions.toml", include_str!("../../../catalogs/regions.toml")),
];

/// The shipped checklist template.
pub const CHECKLIST: (&str, &str) = (
    "d1-compliance.toml",
    include_str!("../../../catalogs/checklists/d1-compliance.toml"),
);

fn owned_files() -> Vec<(String, String)> {
    CATALOG_FILES
        .iter()
        .map(|(n, t)| ((*n).to_owned(), (*t).to_owned()))
        .collect()
}

/// The shipped catalog, loaded once. A catalog that does not load is a broken build, not a
/// finding, so the harness stops with the catalog's own issues.
pub fn catalog() -> &'static Catalog {
    static CATALOG: LazyLock<Catalog> = LazyLock::new(|| match catalog::load(&owned_files()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("the bundled catalog does not load: {:?}", e.issues);
            std::process::abort()
        }
    });
    &CATALOG
}

/// The shipped catalog's files, each parsed on its own (to assemble with a fuzzed one).
pub fn parsed_files() -> &'static [ParsedFile] {
    static PARSED: LazyLock<Vec<ParsedFile>> = LazyLock::new(|| {
        CATALOG_FILES
            .iter()
            .map(|(n, t)| match catalog::parse_file(n, t) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("{n} does not parse: {:?}", e.issues);
                    std::process::abort()
                }
            })
            .collect()
    });
    &PARSED
}

/// The shipped checklist template, parsed once.
pub fn checklist_template() -> &'static ChecklistTemplate {
    static TEMPLATE: LazyLock<ChecklistTemplate> =
        LazyLock::new(
            || match planner_core::compliance::checklist::parse_template(CHECKLIST.0, CHECKLIST.1) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("the bundled checklist template does not parse: {:?}", e.issues);
                    std::process::abort()
                }
            },
        );
    &TEMPLATE
}

/// The settings of a new workspace as `planner quotes check` makes them (USD, no exchange
/// rates), with a fixed start month instead of the clock's next month so runs repeat.
pub fn quote_settings() -> WorkspaceSettings {
    match YearMonth::new(2026, 1) {
        Some(start) => WorkspaceSettings::new("Quote check", start),
        None => std::process::abort(),
    }
}

/// A folder of this process's own for the files an importer reads by path: under
/// `PLANNER_FUZZ_SCRATCH` when set (xtask points it at a folder in memory when there is one),
/// else the system's temporary folder.
pub fn scratch() -> &'static Path {
    static DIR: LazyLock<PathBuf> = LazyLock::new(|| {
        let base = std::env::var_os("PLANNER_FUZZ_SCRATCH").map_or_else(std::env::temp_dir, PathBuf::from);
        let dir = base.join(format!("planner-fuzz-{}", std::process::id()));
        if let Err(e) = std::fs::create_dir_all(&dir) {
            eprintln!("cannot create the scratch folder {}: {e}", dir.display());
            std::process::abort()
        }
        dir
    });
    &DIR
}

/// Writes `data` to `name` in the scratch folder, replacing what was there.
pub fn scratch_file(name: &str, data: &[u8]) -> PathBuf {
    let path = scratch().join(name);
    if let Err(e) = std::fs::write(&path, data) {
        eprintln!("cannot write {}: {e}", path.display());
        std::process::abort()
    }
    path
}

/// The passphrase the pkcs12 target opens every input with: that of the OpenSSL seed
/// identities xtask makes (the `planner`-made seed has another, see xtask's fuzz.rs).
pub const PASSPHRASE: &str = "fuzz-passphrase";

/// An RFP quote file named `name` (its extension chooses the reader) with the bytes `data`, read
/// as `planner quotes check` and the app's import read it: the table, then the quotes checked
/// against the shipped catalog and a new USD workspace's settings, each turned into the supply
/// layer it becomes.
pub fn read_quote_file(name: &str, data: &[u8]) {
    let path = scratch_file(name, data);
    let settings = quote_settings();
    let _ = planner_store::quotes::read_quote_table(&path);
    match planner_store::quotes::read_quotes_in(&path, catalog(), &settings) {
        Ok(read) => {
            if let Some(sheet) = &read.sheet {
                let _ = sheet.describe();
            }
            for q in &read.quotes {
                let _ = q.to_layer_spec(&q.layer_id(), &settings);
            }
            let _ = serde_json::to_string(&read.quotes);
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
}
