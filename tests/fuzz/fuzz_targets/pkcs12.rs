//! A PKCS#12 identity as `planner sign --with` and `planner memo --sign-with` open it, with the
//! passphrase the seed identities were made with (`planner_fuzz::PASSPHRASE`): MAC, decryption,
//! key and certificate; a wrong passphrase is exercised whenever the MAC no longer matches.
#![no_main]

use libfuzzer_sys::fuzz_target;
use planner_sign::Identity;

fuzz_target!(|data: &[u8]| {
    match Identity::from_pkcs12(data, planner_fuzz::PASSPHRASE) {
        Ok(id) => {
            let _ = id.certificate();
            let _ = id.certificate_pem();
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
