//! One catalog file (TOML) as a catalog folder holds it: parsed and checked on its own, and
//! when it parses, assembled with the shipped catalog's other kinds (references across files,
//! duplicate ids), as `catalog::load` does for a folder.
#![no_main]

use libfuzzer_sys::fuzz_target;
use planner_core::catalog::{assemble, parse_file};
use planner_core::error::PlannerError;
use planner_fuzz::parsed_files;

fuzz_target!(|data: &[u8]| {
    // read_catalog_dir refuses a file that is not UTF-8 before parsing.
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match parse_file("catalogs/fuzz.toml", text) {
        Ok(parsed) => {
            let kind = parsed.info().kind;
            let files: Vec<_> = parsed_files()
                .iter()
                .filter(|p| p.info().kind != kind)
                .cloned()
                .chain(std::iter::once(parsed))
                .collect();
            match assemble(files) {
                Ok(c) => {
                    let _ = planner_store::workspace::catalog_version(&c);
                    let _ = serde_json::to_string(&c);
                }
                Err(e) => {
                    let _ = PlannerError::from(e);
                }
            }
        }
        Err(e) => {
            let _ = PlannerError::from(e).to_string();
        }
    }
});
