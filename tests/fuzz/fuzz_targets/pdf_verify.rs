//! A PDF as `planner verify` checks it: every signature found, its byte range, digest, CMS
//! signature and certificate checked, and the report's figures read.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match planner_sign::verify(data) {
        Ok(v) => {
            let _ = (v.all_intact(), v.unsigned_tail(), v.file_len);
            for s in &v.signatures {
                let _ = (s.intact(), planner_sign::shorten(&s.field), s.later_bytes);
                if let Some(c) = &s.certificate {
                    let _ = planner_sign::shorten(&c.issuer);
                }
            }
            let _ = serde_json::to_string(&v);
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
