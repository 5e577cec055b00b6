//! A workspace file (.cpw, SQLite) as the app and the command line open it: the header check,
//! migration, settings, workloads and the catalog snapshot (`Workspace::open`), then what
//! `planner workspace show`, `workspace export`, `workspace check`, `audit verify` and
//! `audit log` read, and the comparison and checklist views the app shows on opening.
#![no_main]

use libfuzzer_sys::fuzz_target;
use planner_fuzz::{CHECKLIST, catalog, scratch, scratch_file};
use planner_store::Workspace;

fuzz_target!(|data: &[u8]| {
    // A fresh file each time: no write-ahead log or shared memory left from the last input.
    for stale in ["fuzz.cpw-wal", "fuzz.cpw-shm", "fuzz.cpw-journal"] {
        let _ = std::fs::remove_file(scratch().join(stale));
    }
    let path = scratch_file("fuzz.cpw", data);
    let Ok(ws) = Workspace::open(&path) else {
        return;
    };
    // workspace show
    let _ = ws.info(Some(catalog()));
    let _ = ws.memos();
    // workspace export
    if let Ok(file) = ws.export(None) {
        let _ = planner_core::engine::input::scenario_file::to_json(&file);
    }
    // workspace check
    let _ = ws.integrity_check();
    // audit verify (which checks every signed sign-off's signature) and audit log
    let _ = ws.verify_checklist_log();
    let _ = ws.checklist_log();
    // What the app shows: the comparison (the view and its scenarios read back, compared by the
    // core as planner-app's compare does), and the checklists against the kept template.
    if let Ok(view) = ws.view()
        && let Ok(chosen) = view
            .selected
            .iter()
            .map(|id| ws.scenario(id))
            .collect::<Result<Vec<_>, _>>()
    {
        let _ = planner_core::engine::workspace::content::compare_selection(
            ws.catalog(),
            ws.settings(),
            ws.workloads(),
            &chosen,
            &view,
        );
    }
    let shipped = (CHECKLIST.0.to_owned(), CHECKLIST.1.to_owned());
    if let Ok(t) = ws.checklist_template(&shipped)
        && let Ok((lists, _)) = ws.checklist_records()
    {
        for list in &lists {
            let _ = list.clearance(&t);
        }
    }
    drop(ws);
});
