//! Signatures of catalog pack manifests, in minisign's format (Ed25519, prehashed with BLAKE2b).
//!
//! A publisher makes a key pair once ([`generate_pack_key`] or the `minisign -G` tool), keeps the
//! secret key offline and hands out the public key: one line of base64, which a user pastes into
//! Settings. The pack's manifest (which names each catalog file's SHA-256) is what is signed; the
//! signature's trusted comment carries the publisher, version and date, and is covered by the
//! signature's global part. A secret key is never prompted for interactively: an encrypted key
//! needs its passphrase passed in.

use std::io::Cursor;

use minisign::{PublicKey, PublicKeyBox, SecretKey, SecretKeyBox, SignatureBox};

/// A publisher key the app trusts (or is asked to trust).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PackKey {
    /// The key's id as minisign prints it: 16 upper-case hex digits.
    pub id: String,
    /// The public key: minisign's base64 line (56 characters).
    pub public_key: String,
}

/// Why a pack signature or key was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PackSigError {
    /// A key, signature or secret key that cannot be read.
    #[error("{0}")]
    Malformed(String),
    /// The signature is by a key the app does not trust.
    #[error(
        "the pack is signed by key {key_id}, which is not among the trusted publisher keys; if you trust its publisher, add their public key in Settings (or pass --trust) and import the pack again"
    )]
    UnknownKey { key_id: String },
    /// The signature does not match the manifest (altered after signing, or a forged signature).
    #[error(
        "the signature by key {key_id} does not match the pack's manifest: the manifest was changed after signing, or the signature is not genuine"
    )]
    BadSignature { key_id: String },
}

/// A signature that verified: by whom, and the trusted comment it carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedSignature {
    pub key_id: String,
    pub trusted_comment: String,
}

fn malformed(what: &str, e: impl std::fmt::Display) -> PackSigError {
    PackSigError::Malformed(format!("{what}: {e}"))
}

fn key_id_of(keynum: &[u8]) -> String {
    // minisign prints the 8-byte key number as a little-endian u64 in hex.
    let mut n = [0u8; 8];
    for (d, s) in n.iter_mut().zip(keynum) {
        *d = *s;
    }
    format!("{:016X}", u64::from_le_bytes(n))
}

/// Reads a public key: a minisign `.pub` file's text (comment line and key line) or the key line
/// alone.
pub fn read_pack_key(text: &str) -> Result<PackKey, PackSigError> {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("untrusted comment:"))
        .unwrap_or_default();
    if line.len() != 56
        || !line
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/' || b == b'=')
    {
        return Err(PackSigError::Malformed(
            "this is not a minisign public key: expected one line of 56 base64 characters (as in the publisher's .pub file, e.g. RWQ...)".into(),
        ));
    }
    let pk = PublicKey::from_base64(line).map_err(|e| malformed("this is not a minisign public key", e))?;
    if !pk.to_bytes().starts_with(b"Ed") {
        return Err(PackSigError::Malformed(
            "this is not a minisign Ed25519 public key (its algorithm tag is not `Ed`)".into(),
        ));
    }
    Ok(PackKey {
        id: key_id_of(pk.keynum()),
        public_key: line.to_owned(),
    })
}

/// Makes a key pair: (public key file text, secret key file text), both in minisign's format.
/// With a passphrase the secret key is encrypted with it (scrypt), as `minisign -G` does.
pub fn generate_pack_key(passphrase: Option<&str>) -> Result<(String, String), PackSigError> {
    let pair = match passphrase {
        Some(p) if !p.is_empty() => minisign::KeyPair::generate_encrypted_keypair(Some(p.to_owned())),
        _ => minisign::KeyPair::generate_unencrypted_keypair(),
    }
    .map_err(|e| malformed("cannot make a key pair", e))?;
    let public = pair
        .pk
        .to_box()
        .map_err(|e| malformed("cannot write the public key", e))?
        .into_string();
    let secret = pair
        .sk
        .to_box(Some("Compute Planner catalog pack secret key"))
        .map_err(|e| malformed("cannot write the secret key", e))?
        .into_string();
    Ok((public, secret))
}

/// Signs `manifest` with the secret key in `secret_text` (minisign's format), carrying
/// `trusted_comment`. Returns the signature file's text.
pub fn sign_manifest(
    secret_text: &str,
    passphrase: Option<&str>,
    manifest: &[u8],
    trusted_comment: &str,
) -> Result<String, PackSigError> {
    let sk_box =
        SecretKeyBox::from_string(secret_text).map_err(|e| malformed("this is not a minisign secret key", e))?;
    let sk = match passphrase {
        Some(p) => SecretKey::from_box(sk_box, Some(p.to_owned())),
        None => SecretKey::from_unencrypted_box(sk_box),
    }
    .map_err(|e| {
        malformed(
            "cannot open the secret key (an encrypted key needs its passphrase; a wrong passphrase or a damaged key fails here; an unencrypted key made with `minisign -W` is not read: make the key with a passphrase, or with `planner catalog keygen`)",
            e,
        )
    })?;
    let comment = trusted_comment.replace(['\n', '\r'], " ");
    let sig = minisign::sign(
        None,
        &sk,
        Cursor::new(manifest),
        Some(&comment),
        Some("Compute Planner catalog pack signature"),
    )
    .map_err(|e| malformed("cannot sign", e))?;
    Ok(sig.into_string())
}

/// Verifies `signature_text` over `manifest` against the `trusted` keys.
pub fn verify_manifest(
    signature_text: &str,
    manifest: &[u8],
    trusted: &[PackKey],
) -> Result<VerifiedSignature, PackSigError> {
    if signature_text.len() > 4096 {
        return Err(PackSigError::Malformed(
            "the signature file is too large to be a minisign signature".into(),
        ));
    }
    // The minisign crate indexes the global signature as 64 bytes without checking its length:
    // a shorter one (a signature file edited by hand or by an attacker) must not reach it.
    let global = signature_text.lines().nth(3).unwrap_or_default().trim();
    let b64 = |c: u8| c.is_ascii_alphanumeric() || c == b'+' || c == b'/';
    if global.len() != 88 || !global.ends_with("==") || !global.bytes().take(86).all(b64) {
        return Err(PackSigError::Malformed(
            "the pack's signature cannot be read: its fourth line is not a 64-byte global signature".into(),
        ));
    }
    let sig =
        SignatureBox::from_string(signature_text).map_err(|e| malformed("the pack's signature cannot be read", e))?;
    let key_id = key_id_of(sig.keynum());
    let Some(key) = trusted.iter().find(|k| k.id == key_id) else {
        return Err(PackSigError::UnknownKey { key_id });
    };
    let pk = PublicKey::from_base64(&key.public_key).map_err(|e| malformed("a trusted key cannot be read", e))?;
    // Legacy (non-prehashed) signatures are refused: the prehashed form is minisign's default.
    minisign::verify(&pk, &sig, Cursor::new(manifest), true, false, false)
        .map_err(|_| PackSigError::BadSignature { key_id: key_id.clone() })?;
    let trusted_comment = sig.trusted_comment().unwrap_or_default();
    Ok(VerifiedSignature {
        key_id,
        trusted_comment,
    })
}

/// The public key box text of `key` (for writing a `.pub` file).
pub fn pack_key_file(key: &PackKey) -> String {
    PublicKeyBox::from(format!(
        "untrusted comment: minisign public key: {}\n{}\n",
        key.id, key.public_key
    ))
    .into_string()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn a_signed_manifest_verifies_and_any_change_does_not() {
        let (public, secret) = generate_pack_key(None).unwrap();
        let key = read_pack_key(&public).unwrap();
        let manifest = b"[pack]\nversion = \"2026.12.0\"\n";
        let sig = sign_manifest(&secret, None, manifest, "publisher: Test; version: 2026.12.0").unwrap();
        let ok = verify_manifest(&sig, manifest, std::slice::from_ref(&key)).unwrap();
        assert_eq!(ok.key_id, key.id);
        assert_eq!(ok.trusted_comment, "publisher: Test; version: 2026.12.0");
        for i in 0..manifest.len() {
            let mut altered = manifest.to_vec();
            altered[i] ^= 0x20;
            assert_eq!(
                verify_manifest(&sig, &altered, std::slice::from_ref(&key)),
                Err(PackSigError::BadSignature { key_id: key.id.clone() })
            );
        }
        // A trusted comment changed in the signature file breaks its global signature.
        let forged = sig.replace("publisher: Test", "publisher: Evil");
        assert!(verify_manifest(&forged, manifest, std::slice::from_ref(&key)).is_err());
    }

    #[test]
    fn an_unknown_key_is_named_and_refused() {
        let (_, secret) = generate_pack_key(None).unwrap();
        let (other, _) = generate_pack_key(None).unwrap();
        let sig = sign_manifest(&secret, None, b"m", "c").unwrap();
        let err = verify_manifest(&sig, b"m", &[read_pack_key(&other).unwrap()]).unwrap_err();
        assert!(matches!(err, PackSigError::UnknownKey { .. }), "{err}");
        assert!(err.to_string().contains("add their public key in Settings"));
    }

    #[test]
    fn an_encrypted_key_needs_its_passphrase_and_is_never_prompted_for() {
        let (public, secret) = generate_pack_key(Some("correct horse")).unwrap();
        assert!(sign_manifest(&secret, None, b"m", "c").is_err());
        assert!(sign_manifest(&secret, Some("wrong"), b"m", "c").is_err());
        let sig = sign_manifest(&secret, Some("correct horse"), b"m", "c").unwrap();
        assert!(verify_manifest(&sig, b"m", &[read_pack_key(&public).unwrap()]).is_ok());
    }

    #[test]
    fn hostile_keys_and_signatures_are_refused_without_panicking() {
        for text in [
            "",
            "RWQ",
            "untrusted comment: x\n",
            &"A".repeat(56),
            &"é".repeat(56),
            "\0\0\0",
        ] {
            assert!(read_pack_key(text).is_err(), "{text:?}");
        }
        let (public, _) = generate_pack_key(None).unwrap();
        let key = read_pack_key(&public).unwrap();
        for text in [
            "",
            "untrusted comment: x",
            "untrusted comment: x\nAAAA\ntrusted comment: y\nBBBB\n",
            "untrusted comment: x\nRUQ=\n",
            &"x\n".repeat(3000),
        ] {
            assert!(
                verify_manifest(text, b"m", std::slice::from_ref(&key)).is_err(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn a_short_global_signature_by_a_trusted_key_is_refused_not_a_panic() {
        let (public, secret) = generate_pack_key(None).unwrap();
        let key = read_pack_key(&public).unwrap();
        let sig = sign_manifest(&secret, None, b"m", "c").unwrap();
        let lines: Vec<&str> = sig.lines().collect();
        for global in ["AAAA", "", &lines[3][..40], &format!("{}A", lines[3])] {
            let forged = format!("{}\n{}\n{}\n{global}\n", lines[0], lines[1], lines[2]);
            assert!(
                verify_manifest(&forged, b"m", std::slice::from_ref(&key)).is_err(),
                "{global}"
            );
        }
    }

    #[test]
    fn the_public_key_file_reads_back_with_the_same_id() {
        let (public, _) = generate_pack_key(None).unwrap();
        let key = read_pack_key(&public).unwrap();
        assert_eq!(read_pack_key(&pack_key_file(&key)).unwrap(), key);
        // The id is the one minisign prints in the file's comment line.
        assert!(public.lines().next().unwrap().ends_with(&key.id), "{public}");
        assert_eq!(read_pack_key(&key.public_key).unwrap(), key);
    }
}
