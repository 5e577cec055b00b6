//! An RFP quote file (.xlsx) as `planner quotes check` and the app's import read it: from a
//! path (the reader takes one), checked against the shipped catalog and a new USD workspace's
//! settings, and every quote turned into the supply layer it becomes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use planner_fuzz::{catalog, quote_settings, scratch_file};

fuzz_target!(|data: &[u8]| {
    let path = scratch_file("quotes.xlsx", data);
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
});
