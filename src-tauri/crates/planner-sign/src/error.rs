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

/// Fills `buf` with random bytes from the operating system.
pub(crate) fn random(buf: &mut [u8]) -> Result<(), SignError> {
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
