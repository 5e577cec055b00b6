//! CMS SignedData, detached, as PAdES B-B wants it: signed attributes content-type,
//! message-digest and ESS signing-certificate-v2, and the certificates.

use crate::identity::{Identity, oid_name, verify_with_spki};
use cms::cert::{CertificateChoices, IssuerAndSerialNumber};
use cms::content_info::{CmsVersion, ContentInfo};
use cms::signed_data::{CertificateSet, EncapsulatedContentInfo, SignedData, SignerIdentifier, SignerInfo};
use const_oid::ObjectIdentifier;
use const_oid::db::rfc5911::{ID_CONTENT_TYPE, ID_DATA, ID_MESSAGE_DIGEST, ID_SIGNED_DATA};
use const_oid::db::rfc5912::ID_SHA_256;
use der::asn1::{Any, OctetString, SetOfVec};
use der::{Decode, Encode, Sequence};
use sha2::{Digest, Sha256};
use spki::AlgorithmIdentifierOwned;
use x509_cert::Certificate;
use x509_cert::attr::Attribute;
use x509_cert::ext::pkix::name::GeneralName;
use x509_cert::serial_number::SerialNumber;

use crate::error::SignError;

/// id-aa-signingCertificateV2 (RFC 5035).
const ID_AA_SIGNING_CERTIFICATE_V2: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.16.2.47");

/// IssuerSerial ::= SEQUENCE { issuer GeneralNames, serialNumber CertificateSerialNumber }
#[derive(Clone, Debug, Sequence)]
struct IssuerSerial {
    issuer: Vec<GeneralName>,
    serial_number: SerialNumber,
}

/// ESSCertIDv2 ::= SEQUENCE { hashAlgorithm DEFAULT sha256, certHash, issuerSerial OPTIONAL }
#[derive(Clone, Debug, Sequence)]
struct EssCertIdV2 {
    #[asn1(optional = "true")]
    hash_algorithm: Option<AlgorithmIdentifierOwned>,
    cert_hash: OctetString,
    #[asn1(optional = "true")]
    issuer_serial: Option<IssuerSerial>,
}

/// SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2, policies OPTIONAL }
#[derive(Clone, Debug, Sequence)]
struct SigningCertificateV2 {
    certs: Vec<EssCertIdV2>,
    #[asn1(optional = "true")]
    policies: Option<Vec<Any>>,
}

fn attribute(oid: ObjectIdentifier, value: Any) -> Result<Attribute, SignError> {
    Ok(Attribute {
        oid,
        values: SetOfVec::try_from(vec![value])?,
    })
}

fn sha256_alg() -> AlgorithmIdentifierOwned {
    AlgorithmIdentifierOwned {
        oid: ID_SHA_256,
        parameters: None,
    }
}

/// DER of a ContentInfo holding a detached SignedData over content whose SHA-256 is `digest`.
pub(crate) fn sign_digest(identity: &Identity, digest: &[u8]) -> Result<Vec<u8>, SignError> {
    let tbs = identity.cert.tbs_certificate();
    let ess = SigningCertificateV2 {
        certs: vec![EssCertIdV2 {
            hash_algorithm: None,
            cert_hash: OctetString::new(Sha256::digest(&identity.cert_der).to_vec())?,
            issuer_serial: Some(IssuerSerial {
                issuer: vec![GeneralName::DirectoryName(tbs.issuer().clone())],
                serial_number: tbs.serial_number().clone(),
            }),
        }],
        policies: None,
    };
    let attrs = SetOfVec::try_from(vec![
        attribute(ID_CONTENT_TYPE, Any::encode_from(&ID_DATA)?)?,
        attribute(
            ID_MESSAGE_DIGEST,
            Any::encode_from(&OctetString::new(digest.to_vec())?)?,
        )?,
        attribute(ID_AA_SIGNING_CERTIFICATE_V2, Any::encode_from(&ess)?)?,
    ])?;
    let (signature, signature_algorithm) = identity.key.sign(&attrs.to_der()?);
    let signer = SignerInfo {
        version: CmsVersion::V1,
        sid: SignerIdentifier::IssuerAndSerialNumber(IssuerAndSerialNumber {
            issuer: tbs.issuer().clone(),
            serial_number: tbs.serial_number().clone(),
        }),
        digest_alg: sha256_alg(),
        signed_attrs: Some(attrs),
        signature_algorithm,
        signature: OctetString::new(signature)?,
        unsigned_attrs: None,
    };
    let mut certs = vec![CertificateChoices::Certificate(identity.cert.clone())];
    for extra in &identity.chain {
        certs.push(CertificateChoices::Certificate(Certificate::from_der(extra)?));
    }
    let signed = SignedData {
        version: CmsVersion::V1,
        digest_algorithms: SetOfVec::try_from(vec![sha256_alg()])?,
        encap_content_info: EncapsulatedContentInfo {
            econtent_type: ID_DATA,
            econtent: None,
        },
        certificates: Some(CertificateSet::try_from(certs)?),
        crls: None,
        signer_infos: SetOfVec::try_from(vec![signer])?.into(),
    };
    let info = ContentInfo {
        content_type: ID_SIGNED_DATA,
        content: Any::encode_from(&signed)?,
    };
    Ok(info.to_der()?)
}

/// What checking a CMS signature found.
#[derive(Debug, Default)]
pub(crate) struct CmsCheck {
    pub certificate: Option<(Certificate, Vec<u8>)>,
    pub digest_ok: bool,
    pub signature_ok: bool,
    pub problems: Vec<String>,
}

/// The length of the DER element at the start of `bytes` (the rest is /Contents padding).
fn der_len(bytes: &[u8]) -> Option<usize> {
    let first_len = *bytes.get(1)?;
    if first_len < 0x80 {
        return Some(2 + usize::from(first_len));
    }
    let n = usize::from(first_len & 0x7f);
    if n == 0 || n > 4 {
        return None;
    }
    let mut len = 0usize;
    for i in 0..n {
        len = (len << 8) | usize::from(*bytes.get(2 + i)?);
    }
    Some(2 + n + len)
}

/// The signed attributes of the first SignerInfo exactly as encoded, re-tagged as a SET (what
/// the signature covers, RFC 5652 5.4), so that a signer whose encoding differs from ours
/// still verifies. `None` when the structure cannot be walked.
fn raw_signed_attrs(content_info: &[u8]) -> Option<Vec<u8>> {
    use der::asn1::AnyRef;
    use der::{Reader, Tagged};
    let info = ContentInfo::from_der(content_info).ok()?;
    let signed_data = info.content.value();
    let mut reader = der::SliceReader::new(signed_data).ok()?;
    let mut last = None;
    while !reader.is_finished() {
        last = Some(AnyRef::decode(&mut reader).ok()?);
    }
    let signer_infos = last?;
    let mut infos = der::SliceReader::new(signer_infos.value()).ok()?;
    let first = AnyRef::decode(&mut infos).ok()?;
    let mut fields = der::SliceReader::new(first.value()).ok()?;
    for _ in 0..3 {
        AnyRef::decode(&mut fields).ok()?; // version, sid, digestAlgorithm
    }
    let attrs = AnyRef::decode(&mut fields).ok()?;
    let is_attrs =
        matches!(attrs.tag(), der::Tag::ContextSpecific { number, constructed: true } if number.value() == 0);
    if !is_attrs {
        return None;
    }
    let mut raw = attrs.to_der().ok()?;
    *raw.first_mut()? = 0x31;
    Some(raw)
}

/// Checks a detached CMS signature (`contents`, possibly zero-padded) over content whose SHA-256
/// is `digest`.
pub(crate) fn check(contents: &[u8], digest: &[u8], pades: bool) -> CmsCheck {
    let mut out = CmsCheck::default();
    let Some(len) = der_len(contents).filter(|l| *l <= contents.len()) else {
        out.problems
            .push("the signature value (/Contents) is empty or not DER".to_owned());
        return out;
    };
    if contents[len..].iter().any(|b| *b != 0) {
        out.problems
            .push("the signature value has data after the CMS structure".to_owned());
    }
    let info = match ContentInfo::from_der(&contents[..len]) {
        Ok(i) => i,
        Err(e) => {
            out.problems
                .push(format!("the signature value is not a CMS ContentInfo: {e}"));
            return out;
        }
    };
    if info.content_type != ID_SIGNED_DATA {
        out.problems.push(format!(
            "the signature value is CMS {} rather than SignedData",
            oid_name(&info.content_type)
        ));
        return out;
    }
    let signed: SignedData = match info.content.decode_as() {
        Ok(s) => s,
        Err(e) => {
            out.problems.push(format!("the CMS SignedData cannot be read: {e}"));
            return out;
        }
    };
    if signed.encap_content_info.econtent.is_some() {
        out.problems
            .push("the CMS signature is not detached (it carries content)".to_owned());
    }
    let infos: Vec<&SignerInfo> = signed.signer_infos.0.iter().collect();
    let [signer] = infos.as_slice() else {
        out.problems.push(format!(
            "the CMS has {} signer infos; a PDF signature has exactly one",
            infos.len()
        ));
        return out;
    };
    let cert = signer_certificate(&signed, signer);
    let Some(cert) = cert else {
        out.problems
            .push("the signer's certificate is not included in the signature".to_owned());
        return out;
    };
    let cert_der = cert.to_der().unwrap_or_default();

    if signer.digest_alg.oid != ID_SHA_256 {
        out.problems.push(format!(
            "digest algorithm {} is not supported (only SHA-256)",
            oid_name(&signer.digest_alg.oid)
        ));
    }
    let Some(attrs) = &signer.signed_attrs else {
        out.problems
            .push("the signature has no signed attributes (not PAdES)".to_owned());
        out.certificate = Some((cert, cert_der));
        return out;
    };
    check_signed_attributes(attrs, digest, &cert_der, pades, &mut out);
    match raw_signed_attrs(&contents[..len]).map_or_else(|| attrs.to_der(), Ok) {
        Ok(signed_bytes) => match verify_with_spki(
            cert.tbs_certificate().subject_public_key_info(),
            &signer.signature_algorithm.oid,
            &signed_bytes,
            signer.signature.as_bytes(),
        ) {
            Ok(()) => out.signature_ok = true,
            Err(e) => out.problems.push(e),
        },
        Err(e) => out
            .problems
            .push(format!("the signed attributes cannot be encoded: {e}")),
    }
    out.certificate = Some((cert, cert_der));
    out
}

/// The certificate the signer identifier names, among those the signature includes.
fn signer_certificate(signed: &SignedData, signer: &SignerInfo) -> Option<Certificate> {
    let certs: Vec<Certificate> = signed
        .certificates
        .iter()
        .flat_map(|s| s.0.iter())
        .filter_map(|c| match c {
            CertificateChoices::Certificate(c) => Some(c.clone()),
            CertificateChoices::Other(_) => None,
        })
        .collect();
    let cert = match &signer.sid {
        SignerIdentifier::IssuerAndSerialNumber(ias) => certs.iter().find(|c| {
            c.tbs_certificate().issuer() == &ias.issuer && c.tbs_certificate().serial_number() == &ias.serial_number
        }),
        SignerIdentifier::SubjectKeyIdentifier(ski) => certs.iter().find(|c| {
            c.tbs_certificate().extensions().into_iter().flatten().any(|e| {
                e.extn_id == const_oid::db::rfc5280::ID_CE_SUBJECT_KEY_IDENTIFIER
                    && e.extn_value.as_bytes().ends_with(ski.0.as_bytes())
            })
        }),
    };
    cert.cloned()
}

/// The signed attributes a PAdES signature needs: content type `data`, the message digest of
/// the signed bytes (`digest`; sets `digest_ok`), and the signing certificate (v2), which
/// `pades` requires.
fn check_signed_attributes(
    attrs: &SetOfVec<Attribute>,
    digest: &[u8],
    cert_der: &[u8],
    pades: bool,
    out: &mut CmsCheck,
) {
    let single = |oid: ObjectIdentifier| -> Option<&Any> {
        let found: Vec<&Attribute> = attrs.iter().filter(|a| a.oid == oid).collect();
        match found.as_slice() {
            [a] if a.values.len() == 1 => a.values.iter().next(),
            _ => None,
        }
    };
    match single(ID_CONTENT_TYPE).map(|v| v.decode_as::<ObjectIdentifier>()) {
        Some(Ok(ct)) if ct == ID_DATA => {}
        Some(Ok(ct)) => out
            .problems
            .push(format!("the signed content type is {}, not data", oid_name(&ct))),
        _ => out
            .problems
            .push("the content-type signed attribute is missing or malformed".to_owned()),
    }
    match single(ID_MESSAGE_DIGEST).map(|v| v.decode_as::<OctetString>()) {
        Some(Ok(md)) => {
            out.digest_ok = md.as_bytes() == digest;
            if !out.digest_ok {
                out.problems.push(
                    "the document digest does not match the signed message digest: the signed bytes were changed (the file is damaged or was altered after signing)"
                        .to_owned(),
                );
            }
        }
        _ => out
            .problems
            .push("the message-digest signed attribute is missing or malformed".to_owned()),
    }
    match single(ID_AA_SIGNING_CERTIFICATE_V2).map(|v| v.decode_as::<SigningCertificateV2>()) {
        Some(Ok(sc)) => {
            let first = sc.certs.first();
            let sha256 = first.is_some_and(|c| c.hash_algorithm.as_ref().is_none_or(|a| a.oid == ID_SHA_256));
            if !sha256 {
                out.problems.push(
                    "the signing-certificate-v2 attribute uses a hash other than SHA-256 (not checked)".to_owned(),
                );
            } else if first.is_none_or(|c| c.cert_hash.as_bytes() != Sha256::digest(cert_der).as_slice()) {
                out.problems.push(
                    "the signing-certificate-v2 attribute names a different certificate than the one included"
                        .to_owned(),
                );
            }
        }
        Some(Err(_)) => out
            .problems
            .push("the signing-certificate-v2 attribute is malformed".to_owned()),
        None if pades => out
            .problems
            .push("the signing-certificate-v2 attribute is missing (PAdES requires it)".to_owned()),
        None => {}
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::time::Timestamp;

    #[test]
    fn signatures_check_and_name_what_is_wrong() {
        let t = Timestamp::new(2026, 1, 2, 3, 4, 5).unwrap();
        let id = Identity::create("Unit", "Test", None, t, 1).unwrap();
        let digest = Sha256::digest(b"content");
        let der_bytes = sign_digest(&id, &digest).unwrap();

        // The signed attributes as encoded are what we sign (a SET, tag 0x31).
        let raw = raw_signed_attrs(&der_bytes).unwrap();
        assert_eq!(raw[0], 0x31);

        let mut padded = der_bytes.clone();
        padded.extend_from_slice(&[0; 64]);
        let ok = check(&padded, &digest, true);
        assert!(ok.digest_ok && ok.signature_ok, "{:?}", ok.problems);
        assert!(ok.problems.is_empty(), "{:?}", ok.problems);

        let wrong = check(&padded, &Sha256::digest(b"other"), true);
        assert!(!wrong.digest_ok);
        assert!(wrong.signature_ok);
        assert_eq!(
            wrong.problems,
            vec![
                "the document digest does not match the signed message digest: the signed bytes were changed (the file is damaged or was altered after signing)"
            ]
        );

        let mut broken = padded.clone();
        let last = der_bytes.len() - 1;
        broken[last] ^= 1; // inside the signature value
        let bad = check(&broken, &digest, true);
        assert!(!bad.signature_ok);
        assert!(
            bad.problems.iter().any(|p| p.contains("signature")),
            "{:?}",
            bad.problems
        );

        padded[der_bytes.len() + 3] = 1;
        let trailing = check(&padded, &digest, true);
        assert_eq!(
            trailing.problems,
            vec!["the signature value has data after the CMS structure"]
        );
        assert!(check(&[], &digest, true).problems[0].contains("empty"));
    }
}
