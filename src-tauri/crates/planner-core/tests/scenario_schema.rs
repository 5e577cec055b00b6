//! The committed JSON Schema of the scenario file must match the Rust types.
//!
//! Regenerate it with `UPDATE_SCHEMA=1 cargo test -p planner-core --test scenario_schema`.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[test]
fn committed_schema_is_current() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../catalogs/samples/scenario.schema.json"
    );
    let fresh = planner_core::engine::input::scenario_file::schema_json();
    if std::env::var_os("UPDATE_SCHEMA").is_some() {
        std::fs::write(path, &fresh).unwrap_or_else(|e| panic!("{path}: {e}"));
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == fresh,
        "catalogs/samples/scenario.schema.json is stale: regenerate it with `UPDATE_SCHEMA=1 cargo test -p planner-core --test scenario_schema` and commit it"
    );
}
