//! PKCS#12 (RFC 7292) files: written with PBES2 (AES-256-CBC, PBKDF2-HMAC-SHA256) and an
//! HMAC-SHA256 MAC, as OpenSSL 3 does by default; read the same (and an unencrypted key bag).

use crate::error::{SignError, random};
use crate::identity::{Identity, Key};
use cms::content_info::{CmsVersion, ContentInfo};
use cms::encrypted_data::EncryptedData;
use cms::enveloped_data::EncryptedContentInfo;
use const_oid::ObjectIdentifier;
use der::asn1::{Any, BmpString, OctetString, SetOfVec};
use der::{Decode, Encode, Sequence};
use hmac::{KeyInit, Mac};
use sha2::{Digest, Sha256};
use spki::AlgorithmIdentifierOwned;
use x509_cert::Certificate;
use x509_cert::attr::Attribute;

const ID_DATA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.1");
const ID_ENCRYPTED_DATA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.6");
const ID_SHA256: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.1");
const KEY_BAG: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.12.10.1.1");
const SHROUDED_KEY_BAG: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.12.10.1.2");
const CERT_BAG: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.12.10.1.3");
const X509_CERTIFICATE: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.22.1");
const FRIENDLY_NAME: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.20");
const LOCAL_KEY_ID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.21");
/// The PKCS#12 PBE algorithms (pbeWithSHAAnd3-KeyTripleDES-CBC and friends), 1.2.840.113549.1.12.1.*
const PKCS12_PBE_PREFIX: &str = "1.2.840.113549.1.12.1.";

/// PBKDF2 iterations for the key and certificate encryption (OpenSSL 3 uses 2048; more is
/// slower to guess).
const PBKDF2_ITERATIONS: u32 = 200_000;
/// MAC iterations, as OpenSSL 3.
const MAC_ITERATIONS: u32 = 2048;
/// The most key-derivation iterations a file may ask for, its MAC and every encrypted part
/// together. The count is the file's to choose and each iteration costs a hash, so without a
/// bound a hostile file of a few hundred bytes keeps the app busy for hours (issue #14). Our
/// own files ask for 2 × 200,000 + 2048, OpenSSL 3's for 3 × 2048.
const MAX_KDF_ITERATIONS: u64 = 1_000_000;

#[derive(Sequence)]
struct Pfx {
    version: u8,
    auth_safe: ContentInfo,
    #[asn1(optional = "true")]
    mac_data: Option<MacData>,
}

#[derive(Sequence)]
struct MacData {
    mac: DigestInfo,
    mac_salt: OctetString,
    #[asn1(optional = "true")]
    iterations: Option<u32>,
}

#[derive(Sequence)]
struct DigestInfo {
    algorithm: AlgorithmIdentifierOwned,
    digest: OctetString,
}

#[derive(Sequence)]
struct SafeBag {
    bag_id: ObjectIdentifier,
    #[asn1(context_specific = "0", tag_mode = "EXPLICIT")]
    bag_value: Any,
    #[asn1(optional = "true")]
    bag_attributes: Option<SetOfVec<Attribute>>,
}

#[derive(Sequence)]
struct CertBag {
    cert_id: ObjectIdentifier,
    #[asn1(context_specific = "0", tag_mode = "EXPLICIT")]
    cert_value: OctetString,
}

/// The PKCS#12 key derivation (RFC 7292 appendix B.2) with SHA-256, for the MAC key (id 3).
fn pkcs12_kdf(password: &str, salt: &[u8], id: u8, iterations: u32, len: usize) -> Vec<u8> {
    const U: usize = 32;
    const V: usize = 64;
    let mut pass: Vec<u8> = password.encode_utf16().flat_map(u16::to_be_bytes).collect();
    pass.extend_from_slice(&[0, 0]);
    let fill = |src: &[u8]| -> Vec<u8> {
        if src.is_empty() {
            return Vec::new();
        }
        let n = V * src.len().div_ceil(V);
        src.iter().copied().cycle().take(n).collect()
    };
    let mut i_block = fill(salt);
    i_block.extend(fill(&pass));
    let d = [id; V];
    let mut out = Vec::with_capacity(len);
    while out.len() < len {
        let mut a: Vec<u8> = Sha256::new().chain_update(d).chain_update(&i_block).finalize().to_vec();
        for _ in 1..iterations.max(1) {
            a = Sha256::digest(&a).to_vec();
        }
        let take = (len - out.len()).min(U);
        out.extend_from_slice(&a[..take]);
        if out.len() >= len {
            break;
        }
        let b: Vec<u8> = a.iter().copied().cycle().take(V).collect();
        for chunk in i_block.chunks_mut(V) {
            // chunk = (chunk + b + 1) mod 2^(8V)
            let mut carry: u16 = 1;
            for k in (0..V).rev() {
                let sum = u16::from(chunk[k]) + u16::from(b[k]) + carry;
                chunk[k] = (sum & 0xff) as u8;
                carry = sum >> 8;
            }
        }
    }
    out
}

fn mac(password: &str, salt: &[u8], iterations: u32, data: &[u8]) -> Result<Vec<u8>, SignError> {
    let key = pkcs12_kdf(password, salt, 3, iterations, 32);
    let mut m = hmac::Hmac::<Sha256>::new_from_slice(&key).map_err(|e| SignError::Encoding(e.to_string()))?;
    m.update(data);
    Ok(m.finalize().into_bytes().to_vec())
}

fn pbes2_params() -> Result<pkcs5::pbes2::Parameters, SignError> {
    let mut salt = [0u8; 16];
    let mut iv = [0u8; 16];
    random(&mut salt)?;
    random(&mut iv)?;
    pkcs5::pbes2::Parameters::generate_pbkdf2_sha256_aes256cbc(PBKDF2_ITERATIONS, &salt, iv)
        .map_err(|e| SignError::Encoding(e.to_string()))
}

fn bag_attributes(friendly_name: &str, local_key_id: &[u8]) -> Result<SetOfVec<Attribute>, SignError> {
    let mut attrs = vec![Attribute {
        oid: LOCAL_KEY_ID,
        values: SetOfVec::try_from(vec![Any::encode_from(&OctetString::new(local_key_id)?)?])?,
    }];
    if !friendly_name.is_empty() {
        attrs.push(Attribute {
            oid: FRIENDLY_NAME,
            values: SetOfVec::try_from(vec![Any::encode_from(&BmpString::from_utf8(friendly_name)?)?])?,
        });
    }
    Ok(SetOfVec::try_from(attrs)?)
}

fn data_content(bytes: Vec<u8>) -> Result<ContentInfo, SignError> {
    Ok(ContentInfo {
        content_type: ID_DATA,
        content: Any::encode_from(&OctetString::new(bytes)?)?,
    })
}

/// Writes `identity` as a PKCS#12 file.
pub(crate) fn write(identity: &Identity, passphrase: &str, friendly_name: &str) -> Result<Vec<u8>, SignError> {
    let local_key_id = Sha256::digest(&identity.cert_der)[..20].to_vec();

    // Certificates: one SafeContents, encrypted (EncryptedData).
    let mut cert_bags = Vec::new();
    for (i, der_bytes) in std::iter::once(&identity.cert_der)
        .chain(identity.chain.iter())
        .enumerate()
    {
        let cert_bag = CertBag {
            cert_id: X509_CERTIFICATE,
            cert_value: OctetString::new(der_bytes.clone())?,
        };
        cert_bags.push(SafeBag {
            bag_id: CERT_BAG,
            bag_value: Any::encode_from(&cert_bag)?,
            bag_attributes: if i == 0 {
                Some(bag_attributes(friendly_name, &local_key_id)?)
            } else {
                None
            },
        });
    }
    let cert_contents = cert_bags.to_der()?;
    let params = pbes2_params()?;
    let encrypted = params
        .encrypt(passphrase, &cert_contents)
        .map_err(|e| SignError::Encoding(e.to_string()))?;
    let scheme = pkcs5::EncryptionScheme::Pbes2(params);
    let enc_alg = AlgorithmIdentifierOwned::from_der(&scheme.to_der()?)?;
    let encrypted_data = EncryptedData {
        version: CmsVersion::V0,
        enc_content_info: EncryptedContentInfo {
            content_type: ID_DATA,
            content_enc_alg: enc_alg,
            encrypted_content: Some(OctetString::new(encrypted)?),
        },
        unprotected_attrs: None,
    };
    let cert_info = ContentInfo {
        content_type: ID_ENCRYPTED_DATA,
        content: Any::encode_from(&encrypted_data)?,
    };

    // The key: a shrouded key bag in a plain SafeContents.
    let key_der = identity.key.to_pkcs8_der()?;
    let params = pbes2_params()?;
    let encrypted_key = params
        .encrypt(passphrase, &key_der)
        .map_err(|e| SignError::Encoding(e.to_string()))?;
    let epki = pkcs8::EncryptedPrivateKeyInfoOwned {
        encryption_algorithm: pkcs5::EncryptionScheme::Pbes2(params),
        encrypted_data: OctetString::new(encrypted_key)?,
    };
    let key_bag = SafeBag {
        bag_id: SHROUDED_KEY_BAG,
        bag_value: Any::encode_from(&epki)?,
        bag_attributes: Some(bag_attributes(friendly_name, &local_key_id)?),
    };
    let key_info = data_content(vec![key_bag].to_der()?)?;

    let auth_safe = vec![cert_info, key_info].to_der()?;
    let mut salt = [0u8; 16];
    random(&mut salt)?;
    let digest = mac(passphrase, &salt, MAC_ITERATIONS, &auth_safe)?;
    let pfx = Pfx {
        version: 3,
        auth_safe: data_content(auth_safe)?,
        mac_data: Some(MacData {
            mac: DigestInfo {
                algorithm: AlgorithmIdentifierOwned {
                    oid: ID_SHA256,
                    parameters: Some(Any::null()),
                },
                digest: OctetString::new(digest)?,
            },
            mac_salt: OctetString::new(salt.to_vec())?,
            iterations: Some(MAC_ITERATIONS),
        }),
    };
    Ok(pfx.to_der()?)
}

fn bad(what: impl std::fmt::Display) -> SignError {
    SignError::BadPkcs12(what.to_string())
}

fn legacy_check(oid: &ObjectIdentifier) -> Result<(), SignError> {
    if oid.to_string().starts_with(PKCS12_PBE_PREFIX) {
        return Err(bad(
            "it uses legacy encryption (3DES or RC2, OpenSSL's -legacy); export it again with OpenSSL 3 defaults (AES-256)",
        ));
    }
    Ok(())
}

/// What the key derivations of a file have asked for so far, held to [`MAX_KDF_ITERATIONS`].
struct KdfBudget {
    spent: u64,
}

impl KdfBudget {
    /// Counts `iterations` for `part` ("its integrity check (MAC)", "the key bag", ...), refusing
    /// the file once the total passes the bound.
    fn spend(&mut self, part: &str, iterations: u64) -> Result<(), SignError> {
        self.spent = self.spent.saturating_add(iterations);
        if self.spent > MAX_KDF_ITERATIONS {
            return Err(bad(format!(
                "{part} asks for {iterations} key-derivation iterations ({} in all with the parts read before), and at most {MAX_KDF_ITERATIONS} are read (OpenSSL 3 writes 2048 a part); export it again with OpenSSL 3 defaults",
                self.spent
            )));
        }
        Ok(())
    }

    /// Counts the key derivation of an encryption scheme before it runs. PBKDF2 (PBES2) and
    /// PBES1 are counted by their iterations; scrypt, whose parameters also set how much memory
    /// it takes, is refused (neither OpenSSL 3 nor this program writes it).
    fn spend_on(&mut self, part: &str, scheme: &pkcs5::EncryptionScheme) -> Result<(), SignError> {
        match scheme {
            pkcs5::EncryptionScheme::Pbes1(alg) => self.spend(part, u64::from(alg.parameters.iteration_count)),
            pkcs5::EncryptionScheme::Pbes2(params) => match &params.kdf {
                pkcs5::pbes2::Kdf::Pbkdf2(p) => self.spend(part, u64::from(p.iteration_count)),
                pkcs5::pbes2::Kdf::Scrypt(_) => Err(bad(format!(
                    "{part} is encrypted with a key derived by scrypt, which is not supported; export it again with OpenSSL 3 defaults (AES-256 with PBKDF2)"
                ))),
                _ => Err(bad(format!(
                    "{part} is encrypted with a key derivation that is not supported; export it again with OpenSSL 3 defaults (AES-256 with PBKDF2)"
                ))),
            },
            _ => Err(bad(format!(
                "{part} is encrypted with a scheme that is not supported; export it again with OpenSSL 3 defaults (AES-256 with PBKDF2)"
            ))),
        }
    }
}

fn pbes2_decrypt(alg_der: &[u8], passphrase: &str, data: &[u8], budget: &mut KdfBudget) -> Result<Vec<u8>, SignError> {
    let scheme = pkcs5::EncryptionScheme::from_der(alg_der).map_err(|e| bad(format!("unsupported encryption: {e}")))?;
    budget.spend_on("an encrypted part", &scheme)?;
    scheme.decrypt(passphrase, data).map_err(|_| SignError::WrongPassphrase)
}

#[derive(Default)]
struct Found {
    keys: Vec<(Vec<u8>, Option<Vec<u8>>)>,
    certs: Vec<(Vec<u8>, Option<Vec<u8>>)>,
}

fn local_key_id(attrs: &Option<SetOfVec<Attribute>>) -> Option<Vec<u8>> {
    attrs
        .iter()
        .flat_map(|s| s.iter())
        .find(|a| a.oid == LOCAL_KEY_ID)
        .and_then(|a| a.values.iter().next())
        .and_then(|v| v.decode_as::<OctetString>().ok())
        .map(|o| o.as_bytes().to_vec())
}

fn read_bags(contents: &[u8], passphrase: &str, found: &mut Found, budget: &mut KdfBudget) -> Result<(), SignError> {
    let bags: Vec<SafeBag> = Vec::from_der(contents).map_err(|e| bad(format!("a bag list is damaged: {e}")))?;
    for bag in bags {
        let id = local_key_id(&bag.bag_attributes);
        if bag.bag_id == KEY_BAG {
            found.keys.push((bag.bag_value.to_der()?, id));
        } else if bag.bag_id == SHROUDED_KEY_BAG {
            let epki: pkcs8::EncryptedPrivateKeyInfoOwned = bag.bag_value.decode_as().map_err(|e| {
                // A PKCS#12 PBE scheme fails to parse as PBES1/PBES2: say so plainly.
                bad(format!(
                    "the key bag's encryption is not supported ({e}); export it again with OpenSSL 3 defaults (AES-256)"
                ))
            })?;
            if let Some(oid) = epki.encryption_algorithm.pbes1().map(|p| p.encryption.oid()) {
                legacy_check(&oid)?;
            }
            budget.spend_on("the key bag", &epki.encryption_algorithm)?;
            let key = epki
                .encryption_algorithm
                .decrypt(passphrase, epki.encrypted_data.as_bytes())
                .map_err(|_| SignError::WrongPassphrase)?;
            found.keys.push((key, id));
        } else if bag.bag_id == CERT_BAG {
            let cb: CertBag = bag
                .bag_value
                .decode_as()
                .map_err(|e| bad(format!("a certificate bag is damaged: {e}")))?;
            if cb.cert_id == X509_CERTIFICATE {
                found.certs.push((cb.cert_value.as_bytes().to_vec(), id));
            }
        }
        // CRL, secret and nested bags are not needed to sign.
    }
    Ok(())
}

/// Reads a PKCS#12 file into an identity.
pub(crate) fn read(bytes: &[u8], passphrase: &str) -> Result<Identity, SignError> {
    let pfx = Pfx::from_der(bytes)
        .map_err(|e| bad(format!("it is not a PKCS#12 (.p12/.pfx) file, or it is damaged ({e})")))?;
    if pfx.version != 3 {
        return Err(bad(format!("PKCS#12 version {} is not 3", pfx.version)));
    }
    if pfx.auth_safe.content_type != ID_DATA {
        return Err(bad(
            "it is protected by public-key integrity, which is not supported (only a passphrase MAC)",
        ));
    }
    let auth_safe: OctetString = pfx
        .auth_safe
        .content
        .decode_as()
        .map_err(|e| bad(format!("its content is damaged: {e}")))?;
    let mut budget = KdfBudget { spent: 0 };
    if let Some(mac_data) = &pfx.mac_data {
        if mac_data.mac.algorithm.oid != ID_SHA256 {
            return Err(bad(format!(
                "its integrity check (MAC) uses {}, and only SHA-256 is supported; export it again with OpenSSL 3 defaults",
                crate::identity::oid_name(&mac_data.mac.algorithm.oid)
            )));
        }
        let iterations = mac_data.iterations.unwrap_or(1);
        budget.spend("its integrity check (MAC)", u64::from(iterations))?;
        let expected = mac(
            passphrase,
            mac_data.mac_salt.as_bytes(),
            iterations,
            auth_safe.as_bytes(),
        )?;
        if expected != mac_data.mac.digest.as_bytes() {
            return Err(SignError::WrongPassphrase);
        }
    }
    let infos: Vec<ContentInfo> =
        Vec::from_der(auth_safe.as_bytes()).map_err(|e| bad(format!("its content list is damaged: {e}")))?;
    let mut found = Found::default();
    for info in infos {
        if info.content_type == ID_DATA {
            let data: OctetString = info
                .content
                .decode_as()
                .map_err(|e| bad(format!("a data part is damaged: {e}")))?;
            read_bags(data.as_bytes(), passphrase, &mut found, &mut budget)?;
        } else if info.content_type == ID_ENCRYPTED_DATA {
            let ed: EncryptedData = info
                .content
                .decode_as()
                .map_err(|e| bad(format!("an encrypted part is damaged: {e}")))?;
            let alg = &ed.enc_content_info.content_enc_alg;
            legacy_check(&alg.oid)?;
            let Some(content) = &ed.enc_content_info.encrypted_content else {
                continue;
            };
            let plain = pbes2_decrypt(&alg.to_der()?, passphrase, content.as_bytes(), &mut budget)?;
            read_bags(&plain, passphrase, &mut found, &mut budget)?;
        } else {
            return Err(bad(format!(
                "it has a part of type {} that is not supported (public-key privacy)",
                crate::identity::oid_name(&info.content_type)
            )));
        }
    }
    let Some((key_der, key_id)) = found.keys.into_iter().next() else {
        return Err(bad("it holds no private key"));
    };
    let key = Key::from_pkcs8_der(&key_der)?;
    if found.certs.is_empty() {
        return Err(bad("it holds no certificate"));
    }
    // The certificate of the key: same local key id, else the one whose public key matches.
    let position = found
        .certs
        .iter()
        .position(|(_, id)| key_id.is_some() && *id == key_id)
        .or_else(|| {
            found
                .certs
                .iter()
                .position(|(der_bytes, _)| Identity::from_parts(key.clone(), der_bytes.clone(), Vec::new()).is_ok())
        })
        .ok_or_else(|| bad("none of its certificates belongs to its private key"))?;
    let (cert_der, _) = found.certs.remove(position);
    let chain: Vec<Vec<u8>> = found
        .certs
        .into_iter()
        .map(|(d, _)| d)
        .filter(|d| Certificate::from_der(d).is_ok())
        .collect();
    Identity::from_parts(key, cert_der, chain)
}

impl Identity {
    /// The identity as an encrypted PKCS#12 file: key and certificate encrypted with the
    /// passphrase (PBES2: AES-256-CBC with PBKDF2-HMAC-SHA256), integrity by HMAC-SHA256.
    /// OpenSSL 3, pyHanko and other tools open it.
    pub fn to_pkcs12(&self, passphrase: &str, friendly_name: &str) -> Result<Vec<u8>, SignError> {
        write(self, passphrase, friendly_name)
    }

    /// Imports a PKCS#12 file made here or elsewhere (OpenSSL 3 defaults: PBES2 AES-256-CBC,
    /// HMAC-SHA256), holding an EC P-256 key or an RSA key of 2048 bits or more.
    pub fn from_pkcs12(bytes: &[u8], passphrase: &str) -> Result<Identity, SignError> {
        read(bytes, passphrase)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shape only: the KDF's correctness is checked end to end by the integration test in
    /// which OpenSSL verifies the MAC of a file we wrote (and we verify OpenSSL's MACs).
    #[test]
    fn kdf_is_deterministic_and_sized() {
        let a = pkcs12_kdf("pass", &[1, 2, 3, 4, 5, 6, 7, 8], 3, 2048, 32);
        let b = pkcs12_kdf("pass", &[1, 2, 3, 4, 5, 6, 7, 8], 3, 2048, 32);
        assert_eq!(a, b);
        assert_eq!(a.len(), 32);
        assert_ne!(a, pkcs12_kdf("pass", &[1, 2, 3, 4, 5, 6, 7, 8], 1, 2048, 32));
        assert_eq!(pkcs12_kdf("pass", &[1; 8], 3, 1, 70).len(), 70);
    }
}
