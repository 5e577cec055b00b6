//! Detached signatures over any bytes (not a PDF): the same CMS SignedData as a PDF signature
//! (SHA-256, the ESS signing-certificate-v2 attribute, the signer's certificate inside), used to
//! sign a reviewer's checklist sign-off so that it is attributable to a key, not only to a name.

use sha2::{Digest, Sha256};

use crate::identity::{CertificateInfo, Identity, describe};
use crate::{SignError, cms};

/// A CMS SignedData (DER) over `data`, detached (the data is not inside).
pub fn sign_detached(identity: &Identity, data: &[u8]) -> Result<Vec<u8>, SignError> {
    cms::sign_digest(identity, &Sha256::digest(data))
}

/// What checking a detached signature found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DetachedCheck {
    /// The signature is over exactly `data` and verifies with the certificate it carries.
    pub intact: bool,
    /// The signer's certificate, when the signature carries one.
    pub certificate: Option<CertificateInfo>,
    /// Everything wrong, in words.
    pub problems: Vec<String>,
}

/// Checks `signature` (CMS DER from [`sign_detached`]) over `data`. Never panics on any input.
pub fn verify_detached(signature: &[u8], data: &[u8]) -> DetachedCheck {
    let check = cms::check(signature, &Sha256::digest(data), true);
    let mut problems = check.problems;
    if !check.digest_ok && problems.is_empty() {
        problems.push("the signed content is not this content: it was changed after signing".to_owned());
    }
    if !check.signature_ok && problems.is_empty() {
        problems.push("the signature does not verify with the certificate it carries".to_owned());
    }
    DetachedCheck {
        intact: check.digest_ok && check.signature_ok && problems.is_empty(),
        certificate: check.certificate.map(|(cert, der)| describe(&cert, &der)),
        problems,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use crate::Timestamp;

    fn identity() -> Identity {
        let now = Timestamp::new(2026, 11, 22, 10, 0, 0).unwrap();
        Identity::create("Dana Reviewer", "Example Ltd", None, now, 365).unwrap()
    }

    #[test]
    fn a_detached_signature_verifies_over_its_content_only() {
        let id = identity();
        let data = br#"{"answers_sha256":"ab","reviewer":"Dana Reviewer"}"#;
        let sig = sign_detached(&id, data).unwrap();
        let ok = verify_detached(&sig, data);
        assert!(ok.intact, "{:?}", ok.problems);
        let cert = ok.certificate.unwrap();
        assert_eq!(cert.common_name.as_deref(), Some("Dana Reviewer"));
        assert_eq!(cert.sha256_fingerprint, id.certificate().sha256_fingerprint);

        let changed = verify_detached(&sig, br#"{"answers_sha256":"ac","reviewer":"Dana Reviewer"}"#);
        assert!(!changed.intact);
        assert!(!changed.problems.is_empty());
        // A change in the signature value (the last bytes of the SignerInfo) is caught.
        for i in sig.len() - 8..sig.len() {
            let mut bad = sig.clone();
            bad[i] ^= 0x5a;
            assert!(!verify_detached(&bad, data).intact, "byte {i}");
        }
        // Any single-byte change anywhere is read without a panic.
        for i in 0..sig.len() {
            let mut bad = sig.clone();
            bad[i] ^= 0xff;
            let _ = verify_detached(&bad, data);
        }
        assert!(!verify_detached(&[], data).intact);
    }
}
