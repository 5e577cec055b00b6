//! A signer's private key and certificate.

use crate::error::{SignError, random};
use crate::time::Timestamp;
use const_oid::ObjectIdentifier;
use const_oid::db::rfc5912::{
    ECDSA_WITH_SHA_256, ID_EC_PUBLIC_KEY, RSA_ENCRYPTION, SECP_256_R_1, SHA_256_WITH_RSA_ENCRYPTION,
};
use der::asn1::{Any, BitString, Ia5String, OctetString, SetOfVec, Uint, Utf8StringRef};
use der::{Decode, Encode, EncodePem, Sequence, Tag, Tagged};
use sha2::{Digest, Sha256};
use signature_traits::{Signer, Verifier};
use spki::{AlgorithmIdentifierOwned, SubjectPublicKeyInfoOwned};
use std::fmt;
use x509_cert::Certificate;
use x509_cert::attr::AttributeTypeAndValue;
use x509_cert::ext::Extension;
use x509_cert::ext::pkix::name::GeneralName;
use x509_cert::ext::pkix::{BasicConstraints, KeyUsage, KeyUsages, SubjectAltName};
use x509_cert::name::{Name, RdnSequence, RelativeDistinguishedName};
use x509_cert::time::Validity;

/// The `signature` traits, as re-exported by the key crates.
pub(crate) mod signature_traits {
    pub use p256::ecdsa::signature::{Signer, Verifier};
}

const OID_CN: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.4.3");
const OID_O: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.4.10");
const OID_EMAIL: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.1");
const OID_BASIC_CONSTRAINTS: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.29.19");
const OID_KEY_USAGE: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.29.15");
const OID_SAN: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.29.17");
const OID_SKI: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.29.14");

/// The private key of an identity.
#[derive(Clone)]
pub(crate) enum Key {
    /// ECDSA on NIST P-256.
    P256(p256::ecdsa::SigningKey),
    /// RSA, 2048 bits or more.
    Rsa(Box<rsa::RsaPrivateKey>),
}

impl Key {
    /// Signs `message` (hashing it with SHA-256); returns the signature as CMS stores it and the
    /// CMS signature algorithm identifier.
    pub(crate) fn sign(&self, message: &[u8]) -> (Vec<u8>, AlgorithmIdentifierOwned) {
        match self {
            Key::P256(k) => {
                let sig: p256::ecdsa::DerSignature = k.sign(message);
                (
                    sig.to_bytes().to_vec(),
                    AlgorithmIdentifierOwned {
                        oid: ECDSA_WITH_SHA_256,
                        parameters: None,
                    },
                )
            }
            Key::Rsa(k) => {
                let signer = rsa::pkcs1v15::SigningKey::<Sha256>::new(k.as_ref().clone());
                let sig: rsa::pkcs1v15::Signature = signer.sign(message);
                (
                    signature_bytes(&sig),
                    AlgorithmIdentifierOwned {
                        oid: SHA_256_WITH_RSA_ENCRYPTION,
                        parameters: Some(Any::null()),
                    },
                )
            }
        }
    }

    /// PKCS#8 DER of the private key.
    pub(crate) fn to_pkcs8_der(&self) -> Result<Vec<u8>, SignError> {
        use pkcs8::EncodePrivateKey;
        let doc = match self {
            Key::P256(k) => k.to_pkcs8_der(),
            Key::Rsa(k) => k.as_ref().to_pkcs8_der(),
        }
        .map_err(|e| SignError::Encoding(e.to_string()))?;
        Ok(doc.as_bytes().to_vec())
    }

    /// Reads a PKCS#8 private key (EC P-256 or RSA of 2048 bits or more).
    pub(crate) fn from_pkcs8_der(der_bytes: &[u8]) -> Result<Key, SignError> {
        use pkcs8::DecodePrivateKey;
        let info = pkcs8::PrivateKeyInfoRef::from_der(der_bytes)
            .map_err(|e| SignError::BadPkcs12(format!("the private key is damaged: {e}")))?;
        let oid = info.algorithm.oid;
        if oid == ID_EC_PUBLIC_KEY {
            let curve = info
                .algorithm
                .parameters
                .and_then(|p| p.decode_as::<ObjectIdentifier>().ok());
            if curve != Some(SECP_256_R_1) {
                return Err(SignError::UnsupportedKey(format!(
                    "an EC key on curve {}",
                    curve.map_or_else(|| "(unnamed)".to_owned(), |c| oid_name(&c))
                )));
            }
            let k = p256::ecdsa::SigningKey::from_pkcs8_der(der_bytes)
                .map_err(|e| SignError::BadPkcs12(format!("the EC key is damaged: {e}")))?;
            Ok(Key::P256(k))
        } else if oid == RSA_ENCRYPTION {
            let k = rsa::RsaPrivateKey::from_pkcs8_der(der_bytes)
                .map_err(|e| SignError::BadPkcs12(format!("the RSA key is damaged: {e}")))?;
            let bits = rsa::traits::PublicKeyParts::n_bits_precision(&k);
            if bits < 2048 {
                return Err(SignError::UnsupportedKey(format!("an RSA key of {bits} bits")));
            }
            Ok(Key::Rsa(Box::new(k)))
        } else {
            Err(SignError::UnsupportedKey(format!("a key of type {}", oid_name(&oid))))
        }
    }

    /// DER of the public key's SubjectPublicKeyInfo.
    fn public_spki_der(&self) -> Result<Vec<u8>, SignError> {
        use spki::EncodePublicKey;
        let doc = match self {
            Key::P256(k) => k.verifying_key().to_public_key_der(),
            Key::Rsa(k) => k.to_public_key().to_public_key_der(),
        }
        .map_err(|e| SignError::Encoding(e.to_string()))?;
        Ok(doc.as_bytes().to_vec())
    }
}

/// A human-readable name for an OID.
pub(crate) fn oid_name(oid: &ObjectIdentifier) -> String {
    const_oid::db::DB
        .by_oid(oid)
        .map_or_else(|| oid.to_string(), str::to_owned)
}

/// Verifies `signature` over `message` with the public key in `spki`, by `algorithm`.
pub(crate) fn verify_with_spki(
    spki: &SubjectPublicKeyInfoOwned,
    algorithm: &ObjectIdentifier,
    message: &[u8],
    signature: &[u8],
) -> Result<(), String> {
    if spki.algorithm.oid == ID_EC_PUBLIC_KEY {
        if *algorithm != ECDSA_WITH_SHA_256 {
            return Err(format!(
                "signature algorithm {} is not supported with an EC key (only ecdsa-with-SHA256)",
                oid_name(algorithm)
            ));
        }
        let key = p256::ecdsa::VerifyingKey::from_sec1_bytes(spki.subject_public_key.raw_bytes())
            .map_err(|_| "the certificate's EC key is not a P-256 key".to_owned())?;
        let sig = p256::ecdsa::DerSignature::try_from(signature)
            .map_err(|_| "the ECDSA signature value is malformed".to_owned())?;
        key.verify(message, &sig)
            .map_err(|_| "the signature does not verify with the certificate's key".to_owned())
    } else if spki.algorithm.oid == RSA_ENCRYPTION {
        if *algorithm != SHA_256_WITH_RSA_ENCRYPTION && *algorithm != RSA_ENCRYPTION {
            return Err(format!(
                "signature algorithm {} is not supported with an RSA key (only RSA PKCS#1 v1.5 with SHA-256)",
                oid_name(algorithm)
            ));
        }
        use spki::DecodePublicKey;
        let der_spki = spki.to_der().map_err(|e| e.to_string())?;
        let key = rsa::RsaPublicKey::from_public_key_der(&der_spki)
            .map_err(|_| "the certificate's RSA key is malformed".to_owned())?;
        let verifier = rsa::pkcs1v15::VerifyingKey::<Sha256>::new(key);
        let sig = rsa::pkcs1v15::Signature::try_from(signature)
            .map_err(|_| "the RSA signature value is malformed".to_owned())?;
        verifier
            .verify(message, &sig)
            .map_err(|_| "the signature does not verify with the certificate's key".to_owned())
    } else {
        Err(format!(
            "the certificate's key type {} is not supported",
            oid_name(&spki.algorithm.oid)
        ))
    }
}

/// What a person wants to know about a certificate.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CertificateInfo {
    /// Subject common name (CN).
    pub common_name: Option<String>,
    /// Subject organisation (O).
    pub organisation: Option<String>,
    /// E-mail address (subject alternative name, or the subject's emailAddress).
    pub email: Option<String>,
    /// The whole subject, RFC 4514 style.
    pub subject: String,
    /// The issuer, RFC 4514 style.
    pub issuer: String,
    /// Serial number, lowercase hex.
    pub serial_hex: String,
    /// Start of validity, ISO 8601 UTC.
    pub not_before: String,
    /// End of validity, ISO 8601 UTC.
    pub not_after: String,
    /// SHA-256 of the certificate's DER, lowercase hex.
    pub sha256_fingerprint: String,
    /// Issuer equals subject and the certificate's signature verifies with its own key.
    pub self_signed: bool,
    /// e.g. "EC P-256" or "RSA 3072".
    pub key_algorithm: String,
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

fn name_attr(name: &Name, oid: ObjectIdentifier) -> Option<String> {
    name.iter()
        .find(|atv| atv.oid == oid)
        .and_then(|atv| any_to_string(&atv.value))
}

fn any_to_string(value: &Any) -> Option<String> {
    match value.tag() {
        Tag::Utf8String | Tag::PrintableString | Tag::Ia5String | Tag::TeletexString => {
            Some(String::from_utf8_lossy(value.value()).into_owned())
        }
        Tag::BmpString => {
            let units: Vec<u16> = value
                .value()
                .chunks_exact(2)
                .map(|c| u16::from_be_bytes([c[0], c[1]]))
                .collect();
            Some(String::from_utf16_lossy(&units))
        }
        _ => None,
    }
}

/// Describes `cert` (its DER is `der_bytes`).
pub(crate) fn describe(cert: &Certificate, der_bytes: &[u8]) -> CertificateInfo {
    let tbs = cert.tbs_certificate();
    let email = tbs
        .extensions()
        .into_iter()
        .flatten()
        .filter(|e| e.extn_id == OID_SAN)
        .find_map(|e| {
            SubjectAltName::from_der(e.extn_value.as_bytes())
                .ok()?
                .0
                .into_iter()
                .find_map(|g| match g {
                    GeneralName::Rfc822Name(m) => Some(m.to_string()),
                    _ => None,
                })
        })
        .or_else(|| name_attr(tbs.subject(), OID_EMAIL));
    let spki = tbs.subject_public_key_info();
    let key_algorithm = if spki.algorithm.oid == ID_EC_PUBLIC_KEY {
        let curve = spki
            .algorithm
            .parameters
            .as_ref()
            .and_then(|p| p.decode_as::<ObjectIdentifier>().ok());
        if curve == Some(SECP_256_R_1) {
            "EC P-256".to_owned()
        } else {
            format!(
                "EC {}",
                curve.map_or_else(|| "(unnamed curve)".to_owned(), |c| oid_name(&c))
            )
        }
    } else if spki.algorithm.oid == RSA_ENCRYPTION {
        use spki::DecodePublicKey;
        let bits = spki
            .to_der()
            .ok()
            .and_then(|d| rsa::RsaPublicKey::from_public_key_der(&d).ok())
            .map(|k| rsa::traits::PublicKeyParts::n_bits_precision(&k));
        bits.map_or_else(|| "RSA".to_owned(), |b| format!("RSA {b}"))
    } else {
        oid_name(&spki.algorithm.oid)
    };
    let self_signed = tbs.issuer() == tbs.subject()
        && tbs.to_der().is_ok_and(|t| {
            verify_with_spki(spki, &cert.signature_algorithm().oid, &t, cert.signature().raw_bytes()).is_ok()
        });
    let iso = |t: &x509_cert::time::Time| Timestamp::from_date_time(&t.to_date_time()).iso8601();
    CertificateInfo {
        common_name: name_attr(tbs.subject(), OID_CN),
        organisation: name_attr(tbs.subject(), OID_O),
        email,
        subject: tbs.subject().to_string(),
        issuer: tbs.issuer().to_string(),
        serial_hex: hex(tbs.serial_number().as_bytes()),
        not_before: iso(&tbs.validity().not_before),
        not_after: iso(&tbs.validity().not_after),
        sha256_fingerprint: hex(&Sha256::digest(der_bytes)),
        self_signed,
        key_algorithm,
    }
}

/// A private key with its certificate and, from a PKCS#12, the other certificates of its chain.
#[derive(Clone)]
pub struct Identity {
    pub(crate) key: Key,
    pub(crate) cert: Certificate,
    pub(crate) cert_der: Vec<u8>,
    /// DER of further certificates (issuers), signer's first-issuer first.
    pub(crate) chain: Vec<Vec<u8>>,
}

impl fmt::Debug for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the key.
        f.debug_struct("Identity")
            .field("subject", &self.cert.tbs_certificate().subject().to_string())
            .field("chain", &self.chain.len())
            .finish_non_exhaustive()
    }
}

/// The TBSCertificate we write (x509-cert's own type has no public constructor).
#[derive(Sequence)]
struct NewTbs {
    #[asn1(context_specific = "0", tag_mode = "EXPLICIT")]
    version: u8,
    serial_number: Uint,
    signature: AlgorithmIdentifierOwned,
    issuer: RdnSequence,
    validity: Validity,
    subject: RdnSequence,
    subject_public_key_info: SubjectPublicKeyInfoOwned,
    #[asn1(context_specific = "3", tag_mode = "EXPLICIT")]
    extensions: Vec<Extension>,
}

#[derive(Sequence)]
struct NewCert {
    tbs: NewTbs,
    signature_algorithm: AlgorithmIdentifierOwned,
    signature: BitString,
}

fn rdn(oid: ObjectIdentifier, value: Any) -> Result<RelativeDistinguishedName, SignError> {
    let set = SetOfVec::try_from(vec![AttributeTypeAndValue { oid, value }])?;
    Ok(RelativeDistinguishedName::from(set))
}

fn extension(oid: ObjectIdentifier, critical: bool, value: &impl Encode) -> Result<Extension, SignError> {
    Ok(Extension {
        extn_id: oid,
        critical,
        extn_value: OctetString::new(value.to_der()?)?,
    })
}

impl Identity {
    /// New P-256 key with a self-signed certificate for a person and organisation.
    ///
    /// The certificate is valid from `not_before` for `valid_days` days, for digital signatures
    /// and non-repudiation (what document signing needs); `email` goes in the subject
    /// alternative name.
    pub fn create(
        common_name: &str,
        organisation: &str,
        email: Option<&str>,
        not_before: Timestamp,
        valid_days: u32,
    ) -> Result<Identity, SignError> {
        if common_name.trim().is_empty() {
            return Err(SignError::BadRequest(
                "the certificate needs a name (common name)".to_owned(),
            ));
        }
        if valid_days == 0 {
            return Err(SignError::BadRequest(
                "the certificate must be valid for at least one day".to_owned(),
            ));
        }
        let key = loop {
            let mut bytes = [0u8; 32];
            random(&mut bytes)?;
            if let Ok(k) = p256::ecdsa::SigningKey::from_slice(&bytes) {
                break Key::P256(k);
            }
        };
        let mut serial = [0u8; 16];
        random(&mut serial)?;
        serial[0] = (serial[0] & 0x7f) | 0x40;

        let mut name = RdnSequence::default();
        name.push(rdn(OID_CN, Any::from(Utf8StringRef::new(common_name)?))?);
        if !organisation.trim().is_empty() {
            name.push(rdn(OID_O, Any::from(Utf8StringRef::new(organisation)?))?);
        }
        let not_after = Timestamp::from_unix_seconds(not_before.unix_seconds()? + u64::from(valid_days) * 86_400)?;
        let spki_der = key.public_spki_der()?;
        let spki = SubjectPublicKeyInfoOwned::from_der(&spki_der)?;
        let mut extensions = vec![
            extension(
                OID_BASIC_CONSTRAINTS,
                true,
                &BasicConstraints {
                    ca: false,
                    path_len_constraint: None,
                },
            )?,
            extension(
                OID_KEY_USAGE,
                true,
                &KeyUsage(KeyUsages::DigitalSignature | KeyUsages::NonRepudiation),
            )?,
            extension(
                OID_SKI,
                false,
                &OctetString::new(Sha256::digest(spki.subject_public_key.raw_bytes())[..20].to_vec())?,
            )?,
        ];
        if let Some(mail) = email.filter(|m| !m.trim().is_empty()) {
            let ia5 = Ia5String::new(mail).map_err(|_| {
                SignError::BadRequest(format!(
                    "the e-mail address {:?} must be plain ASCII",
                    crate::error::shorten(mail)
                ))
            })?;
            extensions.push(extension(
                OID_SAN,
                false,
                &SubjectAltName(vec![GeneralName::Rfc822Name(ia5)]),
            )?);
        }
        let algorithm = AlgorithmIdentifierOwned {
            oid: ECDSA_WITH_SHA_256,
            parameters: None,
        };
        let tbs = NewTbs {
            version: 2,
            serial_number: Uint::new(&serial)?,
            signature: algorithm.clone(),
            issuer: name.clone(),
            validity: Validity::new(not_before.x509_time()?, not_after.x509_time()?),
            subject: name,
            subject_public_key_info: spki,
            extensions,
        };
        let tbs_der = tbs.to_der()?;
        let (sig, _) = key.sign(&tbs_der);
        let cert_der = NewCert {
            tbs,
            signature_algorithm: algorithm,
            signature: BitString::from_bytes(&sig)?,
        }
        .to_der()?;
        let cert = Certificate::from_der(&cert_der)?;
        Ok(Identity {
            key,
            cert,
            cert_der,
            chain: Vec::new(),
        })
    }

    /// Pairs a key with its certificate, checking that they belong together.
    pub(crate) fn from_parts(key: Key, cert_der: Vec<u8>, chain: Vec<Vec<u8>>) -> Result<Identity, SignError> {
        let cert = Certificate::from_der(&cert_der)
            .map_err(|e| SignError::BadCertificate(format!("cannot read the certificate: {e}")))?;
        let cert_spki = cert.tbs_certificate().subject_public_key_info().to_der()?;
        if cert_spki != key.public_spki_der()? {
            return Err(SignError::BadCertificate(
                "the certificate does not belong to the private key".to_owned(),
            ));
        }
        Ok(Identity {
            key,
            cert,
            cert_der,
            chain,
        })
    }

    /// What the certificate says.
    pub fn certificate(&self) -> CertificateInfo {
        describe(&self.cert, &self.cert_der)
    }

    /// The certificate in PEM (`-----BEGIN CERTIFICATE-----`).
    pub fn certificate_pem(&self) -> String {
        self.cert.to_pem(der::pem::LineEnding::LF).unwrap_or_default()
    }

    /// The DER of the certificate.
    pub fn certificate_der(&self) -> &[u8] {
        &self.cert_der
    }
}

fn signature_bytes(sig: &rsa::pkcs1v15::Signature) -> Vec<u8> {
    use p256::ecdsa::signature::SignatureEncoding;
    sig.to_bytes().to_vec()
}
