//! What can go wrong, in words a person can act on.

use thiserror::Error;

/// Every failure of signing, verifying or handling an identity.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SignError {
    /// The bytes are not a PDF this library can read.
    #[error("file is not a PDF this program can read: {0}")]
    NotPdf(String),
    /// The bytes start as a PDF but cannot be read: the file is damaged, or was altered (after
    /// signing, when it holds a signature).
    #[error("{0}")]
    Damaged(String),
    /// The signer's certificate is not valid at the signing time.
    #[error("cannot sign with this certificate: {0}")]
    CertificateNotValid(String),
    /// The PDF is readable but lacks something signing needs.
    #[error("cannot sign this PDF: {0}")]
    UnsupportedPdf(String),
    /// A signing request is not usable (e.g. a page that does not exist).
    #[error("the signing request is not usable: {0}")]
    BadRequest(String),
    /// A date or time outside the calendar.
    #[error("invalid date or time: {0}")]
    BadTime(String),
    /// The passphrase does not open the PKCS#12 file.
    #[error("the passphrase does not open this PKCS#12 file; check the passphrase and try again")]
    WrongPassphrase,
    /// The PKCS#12 file is damaged or of a kind this library does not read.
    #[error("cannot read this PKCS#12 file: {0}")]
    BadPkcs12(String),
    /// The private key is of a kind this library does not sign with.
    #[error("unsupported key: {0}; use an EC P-256 key or an RSA key of 2048 bits or more")]
    UnsupportedKey(String),
    /// The certificate cannot be read or does not belong to the key.
    #[error("certificate problem: {0}")]
    BadCertificate(String),
    /// The PDF has no signature (for callers that require one).
    #[error("this PDF has no signature")]
    NoSignature,
    /// The signature did not fit the space reserved for it.
    #[error(
        "the signature ({needed} bytes) does not fit the {reserved} bytes reserved for it; the certificate chain is too large"
    )]
    SignatureTooLarge {
        /// Bytes of CMS produced.
        needed: usize,
        /// Bytes reserved in /Contents.
        reserved: usize,
    },
    /// The operating system gave no random bytes.
    #[error("the operating system's random number generator failed: {0}")]
    Random(String),
    /// An internal encoding step failed (a bug if it happens).
    #[error("internal encoding error: {0}")]
    Encoding(String),
}

impl From<der::Error> for SignError {
    fn from(e: der::Error) -> Self {
        SignError::Encoding(e.to_string())
    }
}

/// The most characters of a quoted value that messages show.
pub(crate) const QUOTE_MAX: usize = 200;

/// `value` cut to its first [`QUOTE_MAX`] characters, with "…" when it was longer: messages
/// quote values from files and callers, which can be of any length.
pub fn shorten(value: &str) -> String {
    match value.char_indices().nth(QUOTE_MAX) {
        Some((at, _)) => format!("{}…", &value[..at]),
        None => value.to_owned(),
    }
}

/// The seeded stream [`replay_random_for_recordings`] set, if one is set.
static REPLAYED: std::sync::Mutex<Option<u64>> = std::sync::Mutex::new(None);

/// Makes every random draw of this process (new keys, certificate serials, PKCS#12 salts) come
/// from a stream seeded with `seed`, or, with `None`, from the operating system again.
///
/// Only for recorded test answers (`planner_app::recorded`): a recording made twice must hold
/// the same keys, so the same signatures and digests. Keys drawn this way are predictable and
/// must never sign anything real; the app itself never calls this.
pub fn replay_random_for_recordings(seed: Option<u64>) {
    *REPLAYED.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = seed;
}

/// Fills `buf` with random bytes from the operating system (or the replayed stream, see
/// [`replay_random_for_recordings`]).
pub(crate) fn random(buf: &mut [u8]) -> Result<(), SignError> {
    let mut replayed = REPLAYED.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(state) = replayed.as_mut() {
        // SplitMix64: a small, well-known generator; reproducible, not secret.
        for chunk in buf.chunks_mut(8) {
            *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = *state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            chunk.copy_from_slice(&z.to_le_bytes()[..chunk.len()]);
        }
        return Ok(());
    }
    drop(replayed);
    getrandom::fill(buf).map_err(|e| SignError::Random(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_values_are_cut() {
        assert_eq!(shorten("short"), "short");
        let long = "é".repeat(500);
        let cut = shorten(&long);
        assert_eq!(cut.chars().count(), QUOTE_MAX + 1);
        assert!(cut.ends_with('…'));
        assert_eq!(shorten(&"x".repeat(QUOTE_MAX)), "x".repeat(QUOTE_MAX));
    }
}
