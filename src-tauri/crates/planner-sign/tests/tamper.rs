//! Tamper test: one byte changed anywhere in the signed bytes is caught by our `verify` and by
//! pdfsig, 200 fixed-seed cases.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{run, sample_pdf, t0, tamper_cases, text};
use planner_sign::{Identity, SignRequest, Timestamp, sign, verify};

const CASES: usize = 200;

#[test]
fn every_changed_byte_is_caught_by_verify_and_pdfsig() {
    let dir = tempfile::tempdir().unwrap();
    let author = Identity::create("Ada Author", "Org", None, t0(), 365).unwrap();
    let reviewer = Identity::create("Rex Reviewer", "Org", None, t0(), 365).unwrap();
    let req = |name, time| SignRequest {
        signer_name: name,
        reason: Some("Approves"),
        location: None,
        time,
        appearance: None,
    };
    let once = sign(&sample_pdf(3), &author, &req("Ada Author", t0())).unwrap();
    let later = Timestamp::new(2026, 11, 23, 0, 0, 0).unwrap();
    let signed = sign(&once, &reviewer, &req("Rex Reviewer", later)).unwrap();
    let v = verify(&signed).unwrap();
    assert!(v.all_intact());
    assert_eq!(v.signatures.len(), 2);
    // The last signature covers every byte but its own /Contents: tamper anywhere in it.
    let range = v.signatures[1].byte_range;

    let mut caught_by_verify = 0;
    let mut caught_by_pdfsig = 0;
    let mut missed = Vec::new();
    for (i, (offset, copy)) in tamper_cases(&signed, range, CASES, 0x00c0_ffee).into_iter().enumerate() {
        let ours = match verify(&copy) {
            Err(_) => true,
            Ok(v) => !v.all_intact(),
        };
        let file = format!("t{i}.pdf");
        std::fs::write(dir.path().join(&file), &copy).unwrap();
        let out = run("pdfsig", &[&file], dir.path());
        let t = text(&out);
        let valid = t.matches("Signature is Valid.").count();
        let theirs = !out.status.success() || valid < 2;
        caught_by_verify += usize::from(ours);
        caught_by_pdfsig += usize::from(theirs);
        if !ours || !theirs {
            missed.push(format!(
                "offset {offset} (byte {:#04x} -> {:#04x}): verify caught {ours}, pdfsig caught {theirs}\n{t}",
                signed[offset], copy[offset]
            ));
        }
        std::fs::remove_file(dir.path().join(&file)).unwrap();
    }
    println!(
        "tamper cases: {CASES}; caught by verify: {caught_by_verify}/{CASES}; caught by pdfsig: {caught_by_pdfsig}/{CASES}"
    );
    assert!(missed.is_empty(), "missed:\n{}", missed.join("\n"));
    assert_eq!(caught_by_verify, CASES);
    assert_eq!(caught_by_pdfsig, CASES);
}
