//! The scenario file's text (issue #15): the types serialize totally for the IPC answers (every
//! key, `null` for an absent option), while `to_json` writes files exactly as before: absent
//! options and empty `fx` / `payment_milestones` lists left out, fields in declaration order. The
//! expected texts in `scenario_file_output/` were written by `to_json` before the change.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use planner_core::engine::input::scenario_file::{parse, to_json};
use serde_json::Value;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenario_file_output")
}

fn read(name: &str) -> String {
    std::fs::read_to_string(dir().join(name)).unwrap()
}

#[test]
fn a_file_with_every_field_is_written_as_before() {
    let file = parse(&read("full.input.json")).unwrap();
    assert_eq!(to_json(&file) + "\n", read("full.expected.json"));
}

#[test]
fn a_sparse_file_is_written_as_before() {
    let file = parse(&read("sparse.input.json")).unwrap();
    assert_eq!(to_json(&file) + "\n", read("sparse.expected.json"));
}

#[test]
fn the_wire_form_is_total() {
    let file = parse(&read("sparse.input.json")).unwrap();
    let v = serde_json::to_value(&file).unwrap();
    assert_eq!(v["description"], Value::Null);
    assert_eq!(v["fx"], serde_json::json!([]));
    assert_eq!(v["workloads"][0]["method"], Value::Null);
    assert_eq!(v["workloads"][0]["model"]["layers"], Value::Null);
    let layer = &v["scenarios"][0]["layers"][1];
    assert_eq!(layer["price_per_gpu"]["currency"], Value::Null);
    assert_eq!(layer["payment_milestones"], serde_json::json!([]));
    assert_eq!(layer["serves"], Value::Null);
    assert_eq!(v["scenarios"][0]["network"]["per_port_cost"], Value::Null);
    // The total form reads back as the same file.
    assert_eq!(
        serde_json::from_value::<planner_core::engine::input::scenario_file::ScenarioFile>(v).unwrap(),
        file
    );
}

/// The file form by a rule of this test's own: every `null` key left out, and the two lists when
/// empty.
fn file_form(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.retain(|k, x| {
                !x.is_null() && !((k == "fx" || k == "payment_milestones") && x.as_array().is_some_and(Vec::is_empty))
            });
            map.values_mut().for_each(file_form);
        }
        Value::Array(items) => items.iter_mut().for_each(file_form),
        _ => {}
    }
}

#[test]
fn every_sample_is_written_in_its_file_form() {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../catalogs/samples");
    let mut seen = 0;
    for entry in std::fs::read_dir(samples).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".json") || name.ends_with(".schema.json") {
            continue;
        }
        let file = parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let written: Value = serde_json::from_str(&to_json(&file)).unwrap();
        let mut expected = serde_json::to_value(&file).unwrap();
        file_form(&mut expected);
        assert_eq!(written, expected, "{name}");
        assert_eq!(parse(&to_json(&file)).unwrap(), file, "{name}");
        seen += 1;
    }
    assert!(seen >= 5, "{seen} samples");
}
