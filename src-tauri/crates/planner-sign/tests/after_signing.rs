//! Issue 14: what follows a signature may only be later signatures, a signer's certificate must
//! be valid when it signs, and a damaged signed file is called damaged. Each case is built from
//! the issue's reproducer and judged by `verify`, pdfsig and pyHanko.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{append_drawing, append_update, run, sample_pdf, t0, text};
use planner_sign::{Identity, SignError, SignRequest, Timestamp, sign, verify};
use std::path::Path;

fn request(name: &str, time: Timestamp) -> SignRequest<'_> {
    SignRequest {
        signer_name: name,
        reason: Some("Author: approves the decision"),
        location: None,
        time,
        appearance: None,
    }
}

fn author() -> Identity {
    Identity::create("Ada Author", "Compute Planner Test Org", None, t0(), 365).unwrap()
}

/// pyHanko's judgement of `file` trusting `trust` (exit status ignored: an invalid signature
/// exits non-zero).
fn pyhanko(dir: &Path, file: &str, trust: &str) -> String {
    let out = common::pyhanko(
        &[
            "sign",
            "validate",
            "--pretty-print",
            "--no-revocation-check",
            "--trust-replace",
            "--trust",
            trust,
            file,
        ],
        dir,
    );
    text(&out)
}

const PAINTED: &str = "APPROVED: BUY 10,000 GPUS NOW";

#[test]
fn a_drawing_appended_after_signing_is_modified_after_signing_on_page_1() {
    let dir = tempfile::tempdir().unwrap();
    let id = author();
    let signed = sign(&sample_pdf(3), &id, &request("Ada Author", t0())).unwrap();
    assert!(verify(&signed).unwrap().all_intact());
    let altered = append_drawing(&signed, 1, PAINTED);
    std::fs::write(dir.path().join("altered.pdf"), &altered).unwrap();
    std::fs::write(dir.path().join("author.pem"), id.certificate_pem()).unwrap();
    common::keep(dir.path(), "appended-drawing");

    // The reproducer is real: a reader shows the painted words on page 1.
    let page1 = text(&run(
        "pdftotext",
        &["-f", "1", "-l", "1", "altered.pdf", "-"],
        dir.path(),
    ));
    assert!(page1.contains(PAINTED), "{page1}");

    let v = verify(&altered).unwrap();
    println!("{v:#?}");
    assert!(!v.all_intact());
    let s = &v.signatures[0];
    assert!(s.digest_ok && s.signature_ok && s.covers_revision, "{s:#?}");
    assert!(!s.intact());
    let problems = s.problems.join("\n");
    assert!(problems.contains("modified after signing"), "{problems}");
    assert!(
        problems.contains("page 1 (object")
            && problems.contains("/Contents")
            && problems.contains("what the page draws"),
        "{problems}"
    );
    assert!(problems.contains("(content stream) was added on page 1"), "{problems}");
    assert!(problems.contains("(font) was added on page 1"), "{problems}");
    assert!(
        !problems.contains("page 2") && !problems.contains("page 3"),
        "{problems}"
    );

    let pdfsig = text(&run("pdfsig", &["altered.pdf"], dir.path()));
    println!("pdfsig:\n{pdfsig}");
    assert!(pdfsig.contains("Not total document signed"), "{pdfsig}");
    let hanko = pyhanko(dir.path(), "altered.pdf", "author.pem");
    println!("pyHanko:\n{hanko}");
    assert!(hanko.contains("The signature is cryptographically sound."), "{hanko}");
    assert!(!hanko.contains("judged VALID"), "{hanko}");
    assert!(
        hanko.contains("incompatible with the current document modification policy"),
        "{hanko}"
    );
    assert!(hanko.contains("The signature is judged INVALID."), "{hanko}");
}

#[test]
fn a_drawing_between_two_signatures_fails_the_first_only() {
    let author = author();
    let reviewer = Identity::create("Rex Reviewer", "Review Board", None, t0(), 30).unwrap();
    let once = sign(&sample_pdf(2), &author, &request("Ada Author", t0())).unwrap();
    let altered = append_drawing(&once, 2, PAINTED);
    let later = Timestamp::new(2026, 11, 23, 9, 0, 0).unwrap();
    // The reviewer signs what they see: their signature covers the drawing.
    let twice = sign(&altered, &reviewer, &request("Rex Reviewer", later)).unwrap();
    let v = verify(&twice).unwrap();
    assert!(!v.all_intact());
    let (a, r) = (&v.signatures[0], &v.signatures[1]);
    assert!(!a.intact());
    assert!(a.problems.iter().any(|p| p.contains("page 2 (object")), "{a:#?}");
    assert!(r.intact(), "{r:#?}");
}

#[test]
fn a_comment_or_bytes_after_the_last_revision_are_modifications() {
    let id = author();
    let signed = sign(&sample_pdf(1), &id, &request("Ada Author", t0())).unwrap();
    // Whitespace after %%EOF changes nothing a reader shows.
    assert!(verify(&[signed.as_slice(), b"\n\r\n  "].concat()).unwrap().all_intact());
    // Anything else after it does.
    let junk = verify(&[signed.as_slice(), b"junk appended\n"].concat()).unwrap();
    assert!(!junk.all_intact());
    assert!(
        junk.signatures[0]
            .problems
            .iter()
            .any(|p| p.contains("after the last %%EOF")),
        "{junk:#?}"
    );
    // A text annotation (a sticky note) added to page 1.
    let doc = lopdf::Document::load_mem(&signed).unwrap();
    let page_id = doc.get_pages()[&1];
    let mut page = doc.get_dictionary(page_id).unwrap().clone();
    let size = u32::try_from(doc.trailer.get(b"Size").unwrap().as_i64().unwrap()).unwrap();
    let mut annots = page.get(b"Annots").unwrap().as_array().unwrap().clone();
    annots.push(lopdf::Object::Reference((size, 0)));
    page.set("Annots", lopdf::Object::Array(annots));
    let noted = append_update(
        &signed,
        &[
            (
                page_id.0,
                common::pdf_syntax(&lopdf::Object::Dictionary(page)).into_bytes(),
            ),
            (
                size,
                b"<</Type /Annot /Subtype /Text /Rect [50 700 80 730] /Contents (Approved: buy now) /Open true>>"
                    .to_vec(),
            ),
        ],
    );
    let v = verify(&noted).unwrap();
    assert!(!v.all_intact());
    let problems = v.signatures[0].problems.join("\n");
    assert!(
        problems.contains(&format!(
            "page 1: annotation {size} 0 (Text) was added, and it is not a signature field"
        )),
        "{problems}"
    );
}

/// pyHanko signs `input` into `output` in `dir` with the PKCS#12 file `p12`, whose passphrase
/// is in `pass.txt` there (pyHanko, unlike this crate, signs with an expired certificate).
fn pyhanko_signs(dir: &Path, p12: &str, input: &str, output: &str) {
    let out = common::pyhanko(
        &[
            "sign",
            "addsig",
            "--field",
            "Signature1",
            "--use-pades",
            "pkcs12",
            "--passfile",
            "pass.txt",
            input,
            output,
            p12,
        ],
        dir,
    );
    assert!(out.status.success(), "pyHanko could not sign:\n{}", text(&out));
}

/// An identity whose certificate was valid for one day in 2020.
fn expired() -> Identity {
    let from = Timestamp::new(2020, 1, 1, 0, 0, 0).unwrap();
    Identity::create("Old Key", "Compute Planner Test Org", None, from, 1).unwrap()
}

#[test]
fn a_certificate_not_valid_at_the_signing_time_is_refused() {
    let err = sign(&sample_pdf(1), &expired(), &request("Old Key", t0())).unwrap_err();
    assert!(matches!(err, SignError::CertificateNotValid(_)), "{err:?}");
    assert_eq!(
        err.to_string(),
        "cannot sign with this certificate: the certificate of Old Key expired on 2020-01-02T00:00:00Z \
         (signed 2026-11-22T10:30:00Z); a signature made now would not be valid. Make or import an identity \
         whose certificate is valid today, or check the computer's clock"
    );
    let future = Identity::create("New Key", "Org", None, Timestamp::new(2027, 1, 1, 0, 0, 0).unwrap(), 30).unwrap();
    let err = sign(&sample_pdf(1), &future, &request("New Key", t0())).unwrap_err();
    assert!(
        err.to_string().contains(
            "the certificate of New Key was not yet valid until 2027-01-01T00:00:00Z (signed 2026-11-22T10:30:00Z)"
        ),
        "{err}"
    );
    // The first and the last second of validity both sign.
    let id = expired();
    let first = Timestamp::new(2020, 1, 1, 0, 0, 0).unwrap();
    let last = Timestamp::new(2020, 1, 2, 0, 0, 0).unwrap();
    for t in [first, last] {
        let signed = sign(&sample_pdf(1), &id, &request("Old Key", t)).unwrap();
        assert!(verify(&signed).unwrap().all_intact());
    }
}

/// A document signed by an expired certificate, as another program (pyHanko, which does not
/// refuse) makes it: verify fails and says when the certificate expired.
#[test]
fn a_signature_by_an_expired_certificate_fails_verification() {
    let dir = tempfile::tempdir().unwrap();
    let id = expired();
    let p12 = id.to_pkcs12("test passphrase", "Old Key").unwrap();
    std::fs::write(dir.path().join("old.p12"), p12).unwrap();
    std::fs::write(dir.path().join("pass.txt"), "test passphrase").unwrap();
    std::fs::write(dir.path().join("old.pem"), id.certificate_pem()).unwrap();
    std::fs::write(dir.path().join("plain.pdf"), sample_pdf(1)).unwrap();
    pyhanko_signs(dir.path(), "old.p12", "plain.pdf", "expired.pdf");
    let signed = std::fs::read(dir.path().join("expired.pdf")).unwrap();
    common::keep(dir.path(), "expired");

    let v = verify(&signed).unwrap();
    println!("{v:#?}");
    assert!(!v.all_intact());
    let s = &v.signatures[0];
    assert!(s.digest_ok && s.signature_ok, "{s:#?}");
    let at = s.signing_time.clone().unwrap();
    assert!(
        s.problems.contains(&format!(
            "the certificate of Old Key expired on 2020-01-02T00:00:00Z (signed {at})"
        )),
        "{s:#?}"
    );
    let pdfsig = text(&run("pdfsig", &["expired.pdf"], dir.path()));
    println!("pdfsig:\n{pdfsig}");
    assert!(pdfsig.contains("Certificate has Expired"), "{pdfsig}");
    // pyHanko does not judge the validity period of a certificate given as a trust anchor (a
    // self-signed certificate can only be one), so it calls this signature VALID: printed for
    // the record, not asserted. The next test puts the same expiry to it through a CA, where it
    // judges it, and agrees.
    let hanko = pyhanko(dir.path(), "expired.pdf", "old.pem");
    println!("pyHanko:\n{hanko}");
}

/// A certificate authority valid 2019 to 2040 and, issued by it, a signing certificate that was
/// valid for one day in 2020 (with its key, as PKCS#12 under `test passphrase`): made with the
/// Python `cryptography` package that pyHanko itself uses, so no code here is involved.
const CA_AND_EXPIRED_LEAF: &str = r#"
import datetime
from cryptography import x509
from cryptography.x509.oid import NameOID
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import pkcs12
def name(cn):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn), x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Compute Planner Test Org")])
def usage(sign_certs):
    return x509.KeyUsage(digital_signature=True, content_commitment=not sign_certs, key_encipherment=False, data_encipherment=False,
                         key_agreement=False, key_cert_sign=sign_certs, crl_sign=sign_certs, encipher_only=False, decipher_only=False)
ca_key = ec.generate_private_key(ec.SECP256R1())
ca = (x509.CertificateBuilder().subject_name(name("Test Root CA")).issuer_name(name("Test Root CA"))
      .public_key(ca_key.public_key()).serial_number(1)
      .not_valid_before(datetime.datetime(2019, 1, 1)).not_valid_after(datetime.datetime(2040, 1, 1))
      .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
      .add_extension(usage(True), critical=True).sign(ca_key, hashes.SHA256()))
key = ec.generate_private_key(ec.SECP256R1())
leaf = (x509.CertificateBuilder().subject_name(name("Old Key")).issuer_name(ca.subject)
        .public_key(key.public_key()).serial_number(2)
        .not_valid_before(datetime.datetime(2020, 1, 1)).not_valid_after(datetime.datetime(2020, 1, 2))
        .add_extension(usage(False), critical=True).sign(ca_key, hashes.SHA256()))
open("ca.pem", "wb").write(ca.public_bytes(serialization.Encoding.PEM))
open("old.p12", "wb").write(pkcs12.serialize_key_and_certificates(
    b"Old Key", key, leaf, [ca], serialization.BestAvailableEncryption(b"test passphrase")))
"#;

/// The acceptance's "pdfsig and pyHanko agree": a memo signed (by pyHanko) with a certificate
/// that had expired years before, issued by a CA every validator is told to trust, so pyHanko
/// judges the signing certificate's validity (it does not judge a trust anchor's own, which is
/// why the self-signed case above cannot be put to it). All three refuse it.
#[test]
fn an_expired_certificate_from_a_trusted_ca_fails_here_in_pdfsig_and_in_pyhanko() {
    let dir = tempfile::tempdir().unwrap();
    let made = run("python3", &["-c", CA_AND_EXPIRED_LEAF], dir.path());
    assert!(made.status.success(), "{}", text(&made));
    std::fs::write(dir.path().join("pass.txt"), "test passphrase").unwrap();
    std::fs::write(dir.path().join("plain.pdf"), sample_pdf(2)).unwrap();
    pyhanko_signs(dir.path(), "old.p12", "plain.pdf", "expired.pdf");
    common::keep(dir.path(), "expired-from-ca");
    let signed = std::fs::read(dir.path().join("expired.pdf")).unwrap();

    let v = verify(&signed).unwrap();
    assert!(!v.all_intact());
    let s = &v.signatures[0];
    assert!(s.digest_ok && s.signature_ok, "{s:#?}");
    let at = s.signing_time.clone().unwrap();
    assert_eq!(
        s.problems,
        vec![format!(
            "the certificate of Old Key expired on 2020-01-02T00:00:00Z (signed {at})"
        )]
    );

    let pdfsig = text(&run("pdfsig", &["expired.pdf"], dir.path()));
    assert!(pdfsig.contains("Signature is Valid."), "{pdfsig}");
    assert!(pdfsig.contains("Certificate has Expired"), "{pdfsig}");

    let hanko = pyhanko(dir.path(), "expired.pdf", "ca.pem");
    assert!(
        hanko.contains("the end-entity certificate expired 2020-01-02"),
        "{hanko}"
    );
    assert!(hanko.contains("The signer's certificate is untrusted."), "{hanko}");
    assert!(hanko.contains("The signature is judged INVALID."), "{hanko}");
    assert!(hanko.contains("The signature is cryptographically sound."), "{hanko}");
}

#[test]
fn a_signed_file_that_cannot_be_read_is_called_damaged_or_altered() {
    let signed = sign(&sample_pdf(2), &author(), &request("Ada Author", t0())).unwrap();
    // One byte of the last cross-reference offset changed: lopdf cannot find the objects.
    let key = b"startxref\n";
    let at = signed.windows(key.len()).rposition(|w| w == key).unwrap() + key.len();
    let mut broken = signed.clone();
    broken[at] = b'9';
    let err = verify(&broken).unwrap_err();
    println!("{err}");
    assert!(matches!(err, SignError::Damaged(_)), "{err:?}");
    let message = err.to_string();
    assert!(
        message.starts_with("the signed PDF is damaged or was altered after signing, and cannot be read: "),
        "{message}"
    );
    assert!(message.contains("cross-reference"), "{message}");
    assert!(!message.contains("not a PDF"), "{message}");
    // Without a signature it is only damaged.
    let plain = sample_pdf(1);
    let at = plain.windows(key.len()).rposition(|w| w == key).unwrap() + key.len();
    let mut broken = plain.clone();
    broken[at] = b'9';
    let message = verify(&broken).unwrap_err().to_string();
    assert!(
        message.starts_with("the PDF is damaged and cannot be read: "),
        "{message}"
    );
    // A changed byte inside the signed range that still parses: the digest says it.
    let mut changed = signed.clone();
    let pos = changed.windows(8).position(|w| w == b"Decision").unwrap();
    changed[pos] = b'd';
    let v = verify(&changed).unwrap();
    assert!(
        v.signatures[0]
            .problems
            .iter()
            .any(|p| p.contains("the file is damaged or was altered after signing")),
        "{v:#?}"
    );
}
