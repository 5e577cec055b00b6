//! A checklist template (TOML), as a workspace reads the one it keeps and the app the shipped
//! one: parsed with every issue located, and a parsed template's items and accelerator lists
//! checked against the shipped catalog.
#![no_main]

use libfuzzer_sys::fuzz_target;
use planner_core::compliance::checklist::{SubjectKind, parse_template, template_issues};
use planner_fuzz::catalog;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let issues = template_issues("d1-compliance.toml", text);
    match parse_template("d1-compliance.toml", text) {
        Ok(t) => {
            assert!(issues.is_empty(), "a template that parses has no issues");
            let _ = t.unknown_accelerators(catalog());
            for kind in [SubjectKind::Scenario, SubjectKind::Vendor] {
                for item in t.items_for(kind) {
                    let _ = t.item(&item.id);
                }
            }
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
