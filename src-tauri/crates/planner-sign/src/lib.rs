//! PDF signatures for Compute Planner's decision memos.
//!
//! [`sign`] appends a PAdES baseline B-B signature (CMS detached, SHA-256, ECDSA P-256 or RSA
//! PKCS#1 v1.5) to a PDF as an incremental update, so earlier signatures stay valid;
//! [`verify`] finds every signature in a PDF and says, in words, whatever is wrong with each.
//! An [`Identity`] is a private key with its certificate: made here ([`Identity::create`]),
//! stored and imported as PKCS#12.
//!
//! No IO and no clock: PDFs, key files and times come in as arguments.

mod changes;
mod cms;
mod detached;
mod error;
mod identity;
mod pack_sig;
mod pdf;
mod pkcs12;
mod time;

pub use detached::{DetachedCheck, sign_detached, verify_detached};
pub use error::{SignError, replay_random_for_recordings, shorten};
pub use identity::{CertificateInfo, Identity};
pub use pack_sig::{
    PackKey, PackSigError, VerifiedSignature, generate_pack_key, pack_key_file, read_pack_key, sign_manifest,
    verify_manifest,
};
pub use pdf::{Appearance, PageChoice, SignRequest, SignatureReport, Verification, sign, verify};
pub use time::Timestamp;
