//! A signed checklist sign-off, verified: the detached CMS signature covers exactly the sign-off's
//! content and was made with the certificate, and by the signer, the sign-off names. The store
//! checks every signed sign-off whenever it verifies the log; no caller can forget it.

use planner_core::compliance::checklist::SignOffSignature;

fn from_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| text.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok()))
        .collect()
}

/// Checks a signed sign-off: the signature covers exactly `content` and verifies with the
/// certificate it carries, which is the certificate (and signer) the sign-off names. The log's
/// verification calls it for every signed sign-off, always.
pub fn verify_signoff_signature(content: &[u8], sig: &SignOffSignature) -> Result<(), String> {
    let der = from_hex(&sig.cms_hex).ok_or("the signature is not hex-encoded DER")?;
    let check = planner_sign::verify_detached(&der, content);
    if !check.intact {
        return Err(check.problems.join("; "));
    }
    let Some(cert) = check.certificate else {
        return Err("the signature carries no certificate".to_owned());
    };
    if cert.sha256_fingerprint != sig.certificate_sha256 {
        return Err(format!(
            "it was made with certificate {}…, not the {}… the sign-off names",
            cert.sha256_fingerprint.get(..12).unwrap_or(""),
            sig.certificate_sha256.get(..12).unwrap_or("")
        ));
    }
    let named = match (&cert.common_name, &cert.organisation) {
        (Some(cn), Some(o)) => format!("{cn}, {o}"),
        (Some(cn), None) => cn.clone(),
        (None, Some(o)) => o.clone(),
        (None, None) => "(unnamed certificate)".to_owned(),
    };
    if named != sig.signer {
        return Err(format!(
            "the certificate names {}, the sign-off names {}",
            planner_sign::shorten(&named),
            planner_sign::shorten(&sig.signer)
        ));
    }
    Ok(())
}
