//! A workspace file (.cpw, SQLite) as the app and the command line open it: the header check,
//! migration, settings, workloads and the catalog snapshot (`Workspace::open`), then what
//! `planner workspace show`, `workspace export`, `workspace check`, `audit verify` and
//! `audit log` read, and the comparison and checklist views the app shows on opening.
#![no_main]

use libfuzzer_sys::fuzz_target;
use planner_core::checklist::SignOffSignature;
use planner_fuzz::{CHECKLIST, catalog, scratch, scratch_file};
use planner_store::Workspace;

/// The check `planner audit verify` installs (planner_publish::verify_signoff_signature, which
/// this crate does not link: it would bring the memo's PDF layout into the fuzz build): the
/// detached CMS signature over the sign-off's content, verified by planner-sign, and its
/// certificate compared with the one the sign-off names.
fn verify_signoff(content: &[u8], sig: &SignOffSignature) -> Result<(), String> {
    let hex = sig.cms_hex.as_bytes();
    if hex.len() % 2 != 0 {
        return Err("odd hex".to_owned());
    }
    let der: Vec<u8> = hex
        .chunks(2)
        .map(|p| std::str::from_utf8(p).ok().and_then(|s| u8::from_str_radix(s, 16).ok()))
        .collect::<Option<_>>()
        .ok_or("not hex")?;
    let check = planner_sign::verify_detached(&der, content);
    if !check.intact {
        return Err(check.problems.join("; "));
    }
    match check.certificate {
        Some(c) if c.sha256_fingerprint == sig.certificate_sha256 => Ok(()),
        _ => Err("another certificate".to_owned()),
    }
}

fuzz_target!(|data: &[u8]| {
    // A fresh file each time: no write-ahead log or shared memory left from the last input.
    for stale in ["fuzz.cpw-wal", "fuzz.cpw-shm", "fuzz.cpw-journal"] {
        let _ = std::fs::remove_file(scratch().join(stale));
    }
    let path = scratch_file("fuzz.cpw", data);
    let Ok(mut ws) = Workspace::open(&path) else {
        return;
    };
    // workspace show
    let _ = ws.info(Some(catalog()));
    let _ = ws.memos();
    // workspace export
    if let Ok(file) = ws.export(None) {
        let _ = planner_core::scenario_file::to_json(&file);
    }
    // workspace check
    let _ = ws.integrity_check();
    // audit verify and audit log
    ws.set_signature_verifier(verify_signoff);
    let _ = ws.verify_checklist_log();
    let _ = ws.checklist_log();
    // What the app shows: the comparison, and the checklists against the kept template.
    let _ = ws.compare();
    let shipped = (CHECKLIST.0.to_owned(), CHECKLIST.1.to_owned());
    if let Ok(t) = ws.checklist_template(&shipped) {
        let _ = ws.checklist_statuses(&t);
    }
    drop(ws);
});
