//! A scenario file as `planner evaluate` and `planner compare` take it: UTF-8 text, parsed,
//! validated against the shipped catalog, evaluated, compared pairwise; and as a workspace
//! import takes it (settings, workloads and scenarios), exported back to JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;
use planner_core::engine::blocks::finance::present;
use planner_core::engine::costing::evaluate::evaluate;
use planner_core::engine::decide::compare::{compare_all, resale_share_of_difference};
use planner_core::engine::input::scenario_file;
use planner_core::engine::resolve::validate::{to_error, validate};
use planner_fuzz::catalog;

fuzz_target!(|data: &[u8]| {
    // The command line reads the file with read_to_string: non-UTF-8 is an IO error there.
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(file) = scenario_file::parse(text) else {
        return;
    };
    let _ = scenario_file::to_json(&file);
    match validate(catalog(), &file, None) {
        Ok(plan) => {
            let e = evaluate(&plan);
            for s in &e.scenarios {
                let _ = present(s.totals.total_cash);
                let _ = s.totals.cost_per_gpu_hour.map(present);
            }
            for c in compare_all(&e) {
                let _ = resale_share_of_difference(&c, e.horizon_months);
            }
            let _ = serde_json::to_string(&e);
        }
        Err(problems) => {
            let _ = to_error(&problems, Some("fuzz.json"));
        }
    }
    let (settings, workloads, scenarios) = planner_core::engine::workspace::content::from_scenario_file(file);
    let _ = (settings, workloads.len(), scenarios.len());
});
