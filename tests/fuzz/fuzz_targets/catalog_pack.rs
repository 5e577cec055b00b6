//! A catalog pack file (a zip of a signed manifest and catalog files), as the app opens one from
//! a file or a download: read within its bounds, its signature checked against a trusted key,
//! and, whatever the signature says, its manifest parsed and the files checked against it, so the
//! fuzzer reaches the manifest and catalog code without having to forge a signature.
#![no_main]

use libfuzzer_sys::fuzz_target;
use planner_core::catalog::pack::Manifest;
use planner_store::pack::{check_pack, read_pack_bytes};

fuzz_target!(|data: &[u8]| {
    let Ok(parts) = read_pack_bytes(data, "fuzz.cpack") else {
        return;
    };
    let trusted: Vec<planner_sign::PackKey> = planner_store::pack::shipped_key().into_iter().collect();
    let _ = check_pack(&parts, &trusted, "fuzz.cpack").map_err(|e| e.to_string());
    if let Ok(text) = std::str::from_utf8(&parts.manifest)
        && let Ok(manifest) = Manifest::parse(text)
    {
        let _ = manifest.check(&parts.files).map(|c| c.files.len());
        let _ = manifest.to_text();
    }
});
