//! Signing checked by independent validators: pdfsig (poppler), pyHanko and qpdf, and by our
//! own `verify`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{run, sample_pdf, t0, text};
use planner_sign::{Appearance, Identity, PageChoice, SignRequest, Timestamp, sign, verify};
use std::path::Path;

fn author() -> Identity {
    Identity::create(
        "Ada Author",
        "Compute Planner Test Org",
        Some("ada@example.org"),
        t0(),
        365,
    )
    .unwrap()
}

fn request<'a>(name: &'a str, reason: &'a str, time: Timestamp) -> SignRequest<'a> {
    SignRequest {
        signer_name: name,
        reason: Some(reason),
        location: Some("Test lab"),
        time,
        appearance: None,
    }
}

/// pyHanko's validation of `file` trusting the given certificates (PEM files in `dir`).
fn pyhanko(dir: &Path, file: &str, trust: &[&str]) -> String {
    let mut args = vec![
        "sign",
        "validate",
        "--pretty-print",
        "--no-revocation-check",
        "--trust-replace",
    ];
    for t in trust {
        args.push("--trust");
        args.push(t);
    }
    args.push(file);
    let out = common::pyhanko(&args, dir);
    let t = text(&out);
    assert!(out.status.success(), "pyHanko failed on {file}:\n{t}");
    t
}

#[test]
fn one_signature_is_accepted_by_pdfsig_pyhanko_qpdf_and_verify() {
    let dir = tempfile::tempdir().unwrap();
    let id = author();
    let signed = sign(
        &sample_pdf(3),
        &id,
        &request("Ada Author", "Author: approves the decision", t0()),
    )
    .unwrap();
    std::fs::write(dir.path().join("one.pdf"), &signed).unwrap();
    std::fs::write(dir.path().join("author.pem"), id.certificate_pem()).unwrap();

    let pdfsig = text(&run("pdfsig", &["one.pdf"], dir.path()));
    println!("pdfsig:\n{pdfsig}");
    assert!(pdfsig.contains("Signature #1"), "{pdfsig}");
    assert!(pdfsig.contains("Signature Validation: Signature is Valid."), "{pdfsig}");
    assert!(pdfsig.contains("Total document signed"), "{pdfsig}");
    assert!(!pdfsig.contains("Signature #2"), "{pdfsig}");
    assert!(pdfsig.contains("ETSI.CAdES.detached"), "{pdfsig}");

    let hanko = pyhanko(dir.path(), "one.pdf", &["author.pem"]);
    println!("pyHanko:\n{hanko}");
    assert!(hanko.contains("The signature is cryptographically sound."), "{hanko}");
    assert!(hanko.contains("The signer's certificate is trusted."), "{hanko}");
    assert!(hanko.contains("The signature covers the entire file."), "{hanko}");
    assert!(hanko.contains("The signature is judged VALID."), "{hanko}");

    let qpdf = run("qpdf", &["--check", "one.pdf"], dir.path());
    assert!(qpdf.status.success(), "qpdf --check failed:\n{}", text(&qpdf));

    let v = verify(&signed).unwrap();
    assert!(v.all_intact(), "{v:#?}");
    assert_eq!(v.signatures.len(), 1);
    let s = &v.signatures[0];
    assert_eq!(s.field, "Signature1");
    assert_eq!(s.signer_name.as_deref(), Some("Ada Author"));
    assert_eq!(s.reason.as_deref(), Some("Author: approves the decision"));
    assert_eq!(s.location.as_deref(), Some("Test lab"));
    assert_eq!(s.signing_time.as_deref(), Some("2026-11-22T10:30:00Z"));
    assert_eq!(s.later_bytes, 0);
    assert_eq!(s.byte_range[0], 0);
    assert_eq!(s.byte_range[2] + s.byte_range[3], signed.len() as u64);
    let cert = s.certificate.as_ref().unwrap();
    assert_eq!(cert, &id.certificate());
    assert_eq!(cert.common_name.as_deref(), Some("Ada Author"));
    assert_eq!(cert.organisation.as_deref(), Some("Compute Planner Test Org"));
    assert_eq!(cert.email.as_deref(), Some("ada@example.org"));
    assert!(cert.self_signed);
    assert_eq!(cert.key_algorithm, "EC P-256");
    assert_eq!(cert.not_before, "2026-11-22T10:30:00Z");
    assert_eq!(cert.not_after, "2027-11-22T10:30:00Z");
    assert_eq!(cert.sha256_fingerprint.len(), 64);
}

#[test]
fn author_then_reviewer_both_stay_valid() {
    let dir = tempfile::tempdir().unwrap();
    let author = author();
    let reviewer = Identity::create("Rex Reviewer", "Review Board", None, t0(), 30).unwrap();
    let once = sign(
        &sample_pdf(2),
        &author,
        &request("Ada Author", "Author: approves the decision", t0()),
    )
    .unwrap();
    let later = Timestamp::new(2026, 11, 23, 9, 0, 0).unwrap();
    let twice = sign(&once, &reviewer, &request("Rex Reviewer", "Reviewer", later)).unwrap();
    assert!(twice.starts_with(&once), "the second signature must only append");
    std::fs::write(dir.path().join("two.pdf"), &twice).unwrap();
    std::fs::write(dir.path().join("author.pem"), author.certificate_pem()).unwrap();
    std::fs::write(dir.path().join("reviewer.pem"), reviewer.certificate_pem()).unwrap();

    let pdfsig = text(&run("pdfsig", &["two.pdf"], dir.path()));
    println!("pdfsig:\n{pdfsig}");
    let (first, second) = pdfsig.split_once("Signature #2:").expect("two signatures");
    assert!(first.contains("Signature Field Name: Signature1"), "{pdfsig}");
    assert!(first.contains("Signature is Valid."), "{pdfsig}");
    assert!(first.contains("Not total document signed"), "{pdfsig}");
    assert!(second.contains("Signature Field Name: Signature2"), "{pdfsig}");
    assert!(
        second.contains("Signer Certificate Common Name: Rex Reviewer"),
        "{pdfsig}"
    );
    assert!(second.contains("Signature is Valid."), "{pdfsig}");
    assert!(second.contains("Total document signed"), "{pdfsig}");
    assert!(!second.contains("Not total document signed"), "{pdfsig}");

    let hanko = pyhanko(dir.path(), "two.pdf", &["author.pem", "reviewer.pem"]);
    println!("pyHanko:\n{hanko}");
    let (h1, h2) = hanko.split_once("Field 2: Signature2").expect("two fields");
    assert!(h1.contains("Field 1: Signature1"), "{hanko}");
    for part in [h1, h2] {
        assert!(part.contains("The signature is cryptographically sound."), "{hanko}");
        assert!(part.contains("The signer's certificate is trusted."), "{hanko}");
        assert!(part.contains("The signature is judged VALID."), "{hanko}");
    }
    assert!(h1.contains("The signature does not cover the entire file."), "{hanko}");
    assert!(
        h1.contains("All modifications relate to signing and form filling operations"),
        "{hanko}"
    );
    assert!(h2.contains("The signature covers the entire file."), "{hanko}");

    let qpdf = run("qpdf", &["--check", "two.pdf"], dir.path());
    assert!(qpdf.status.success(), "qpdf --check failed:\n{}", text(&qpdf));

    let v = verify(&twice).unwrap();
    assert!(v.all_intact(), "{v:#?}");
    assert_eq!(v.signatures.len(), 2);
    let (a, r) = (&v.signatures[0], &v.signatures[1]);
    assert_eq!(a.field, "Signature1");
    assert_eq!(r.field, "Signature2");
    assert_eq!(a.later_bytes, (twice.len() - once.len()) as u64);
    assert_eq!(v.unsigned_tail(), 0);
    assert_eq!(
        verify(&[twice.as_slice(), b"junk appended\n"].concat())
            .unwrap()
            .unsigned_tail(),
        14
    );
    assert!(a.later_bytes > 0);
    assert_eq!(r.later_bytes, 0);
    assert_eq!(r.signing_time.as_deref(), Some("2026-11-23T09:00:00Z"));
    assert_eq!(
        r.certificate.as_ref().unwrap().common_name.as_deref(),
        Some("Rex Reviewer")
    );
    assert_eq!(r.certificate.as_ref().unwrap().email, None);
}

#[test]
fn visible_signature_shows_its_text() {
    let dir = tempfile::tempdir().unwrap();
    let id = author();
    let mut req = request("Ada Author", "Author", t0());
    req.appearance = Some(Appearance {
        page: PageChoice::Last,
        rect: [320.0, 60.0, 560.0, 140.0],
        lines: vec![
            "Signed by Ada Author (Author)".to_owned(),
            "Compute Planner Test Org".to_owned(),
            "2026-11-22 10:30 UTC — approved (€ 1.2 M)".to_owned(),
            "Escapes: (parens) and \\backslash\\".to_owned(),
        ],
    });
    let signed = sign(&sample_pdf(3), &id, &req).unwrap();
    std::fs::write(dir.path().join("visible.pdf"), &signed).unwrap();

    let pdfsig = text(&run("pdfsig", &["visible.pdf"], dir.path()));
    assert!(pdfsig.contains("Signature is Valid."), "{pdfsig}");
    let qpdf = run("qpdf", &["--check", "visible.pdf"], dir.path());
    assert!(qpdf.status.success(), "qpdf --check failed:\n{}", text(&qpdf));
    assert!(verify(&signed).unwrap().all_intact());

    // The box is on the last page (3) and not on page 1.
    let page3 = text(&run(
        "pdftotext",
        &["-f", "3", "-l", "3", "-layout", "visible.pdf", "-"],
        dir.path(),
    ));
    println!("pdftotext page 3:\n{page3}");
    assert!(page3.contains("Signed by Ada Author (Author)"), "{page3}");
    assert!(page3.contains("Compute Planner Test Org"), "{page3}");
    assert!(page3.contains("approved (€ 1.2 M)"), "{page3}");
    assert!(page3.contains("—"), "{page3}");
    assert!(page3.contains("Escapes: (parens) and \\backslash\\"), "{page3}");
    let page1 = text(&run(
        "pdftotext",
        &["-f", "1", "-l", "1", "visible.pdf", "-"],
        dir.path(),
    ));
    assert!(!page1.contains("Signed by"), "{page1}");

    // A picture for people to look at (kept when PLANNER_SIGN_KEEP is set).
    let png = run(
        "pdftoppm",
        &["-png", "-r", "60", "-f", "3", "-l", "3", "visible.pdf", "visible"],
        dir.path(),
    );
    assert!(png.status.success(), "{}", text(&png));
    common::keep(dir.path(), "visible");
}

#[test]
fn a_missing_page_is_refused_in_words() {
    let id = author();
    let mut req = request("Ada Author", "Author", t0());
    req.appearance = Some(Appearance {
        page: PageChoice::Index(7),
        rect: [10.0, 10.0, 100.0, 50.0],
        lines: vec!["x".to_owned()],
    });
    let err = sign(&sample_pdf(2), &id, &req).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the signing request is not usable: page index 7 does not exist; the PDF has 2 page(s), indexed from 0"
    );
    let mut bad_time = request("A", "B", t0());
    bad_time.time.month = 13;
    let err = sign(&sample_pdf(1), &id, &bad_time).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid date or time: 2026-13-22T10:30:00Z is not a valid UTC time (years 1970 to 9999)"
    );
    let err = sign(b"hello", &id, &request("A", "B", t0())).unwrap_err();
    assert_eq!(
        err.to_string(),
        "file is not a PDF this program can read: it does not start with a %PDF- header"
    );
}

#[test]
fn a_pdf_without_signature_has_none() {
    let v = verify(&sample_pdf(1)).unwrap();
    assert!(v.signatures.is_empty());
    assert!(!v.all_intact());
}

/// verify() must never panic: truncated, random and corrupted bytes give an error or a report.
#[test]
fn verify_survives_mangled_input() {
    let id = author();
    let once = sign(&sample_pdf(2), &id, &request("A", "B", t0())).unwrap();
    let twice = sign(&once, &id, &request("C", "D", t0())).unwrap();
    let mut rng = common::XorShift(0x5eed_1234);
    let mut cases: Vec<Vec<u8>> = Vec::new();
    for signed in [&once, &twice] {
        for cut in [0, 1, 5, 100, signed.len() / 2, signed.len() - 10, signed.len() - 1] {
            cases.push(signed[..cut].to_vec());
        }
    }
    for _ in 0..200 {
        let len = usize::try_from(rng.below(4000)).unwrap();
        let mut junk: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        if rng.below(2) == 0 {
            junk.splice(0..0, b"%PDF-1.7\n".iter().copied());
        }
        cases.push(junk);
    }
    for i in 0..1500 {
        let mut copy = if i % 2 == 0 { once.clone() } else { twice.clone() };
        let n = copy.len() as u64;
        match rng.below(5) {
            // Random bytes anywhere.
            0 => {
                for _ in 0..1 + rng.below(20) {
                    let at = usize::try_from(rng.below(n)).unwrap();
                    copy[at] = rng.next() as u8;
                }
            }
            // Bytes in the structure at the end (xref, trailer, startxref).
            1 => {
                for _ in 0..1 + rng.below(4) {
                    let at = copy.len() - 1 - usize::try_from(rng.below(600.min(n))).unwrap();
                    let tokens = b"0123456789 /<>[]()RnfobjxrefstartxrefPrevSize";
                    copy[at] = tokens[usize::try_from(rng.below(tokens.len() as u64)).unwrap()];
                }
            }
            // A range cut out.
            2 => {
                let at = usize::try_from(rng.below(n)).unwrap();
                let len = usize::try_from(rng.below(200)).unwrap().min(copy.len() - at);
                copy.drain(at..at + len);
            }
            // A chunk repeated.
            3 => {
                let at = usize::try_from(rng.below(n)).unwrap();
                let len = usize::try_from(rng.below(300)).unwrap().min(copy.len() - at);
                let chunk = copy[at..at + len].to_vec();
                copy.splice(at..at, chunk);
            }
            // Truncated anywhere.
            _ => copy.truncate(usize::try_from(rng.below(n)).unwrap()),
        }
        cases.push(copy);
    }
    let mut errors = 0;
    let mut not_intact = 0;
    let mut intact = 0;
    for case in &cases {
        match verify(case) {
            Err(_) => errors += 1,
            Ok(v) if v.all_intact() => {
                intact += 1;
                // Intact means the signed revisions are unchanged: the case is an original, or
                // bytes were only appended after the last signature, which `later_bytes` says.
                let appended = v.unsigned_tail() > 0;
                assert!(
                    *case == once || *case == twice || appended,
                    "a changed file was reported intact: {v:#?}"
                );
            }
            Ok(_) => not_intact += 1,
        }
    }
    println!(
        "{} mangled inputs: {errors} not readable as PDF, {not_intact} readable but not intact, {intact} intact",
        cases.len()
    );
    assert_eq!(errors + not_intact + intact, cases.len());
    // Changes outside any signed range (e.g. in the unsigned padding of /Contents) may leave a
    // file intact, but most cases touch signed bytes.
    assert!(
        errors + not_intact > cases.len() * 3 / 4,
        "{intact} of {} still intact",
        cases.len()
    );
}

/// The memo's writer: a PDF made by printpdf 0.12.8, signed by the author (visible block on
/// the last page) and then by the reviewer.
#[test]
fn printpdf_output_takes_two_signatures() {
    let dir = tempfile::tempdir().unwrap();
    let original =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/printpdf-0.12.8-3pages.pdf")).unwrap();
    let author = author();
    let reviewer = Identity::create("Rex Reviewer", "Review Board", None, t0(), 30).unwrap();
    let mut req = request("Ada Author", "Author: approves the decision", t0());
    req.appearance = Some(Appearance {
        page: PageChoice::Last,
        rect: [300.0, 40.0, 560.0, 100.0],
        lines: vec!["Approved by Ada Author".to_owned(), "2026-11-22".to_owned()],
    });
    let once = sign(&original, &author, &req).unwrap();
    let later = Timestamp::new(2026, 11, 22, 16, 0, 0).unwrap();
    let twice = sign(&once, &reviewer, &request("Rex Reviewer", "Reviewer", later)).unwrap();
    std::fs::write(dir.path().join("memo.pdf"), &twice).unwrap();
    std::fs::write(dir.path().join("author.pem"), author.certificate_pem()).unwrap();
    std::fs::write(dir.path().join("reviewer.pem"), reviewer.certificate_pem()).unwrap();
    common::keep(dir.path(), "printpdf");

    let pdfsig = text(&run("pdfsig", &["memo.pdf"], dir.path()));
    assert_eq!(pdfsig.matches("Signature is Valid.").count(), 2, "{pdfsig}");
    let hanko = pyhanko(dir.path(), "memo.pdf", &["author.pem", "reviewer.pem"]);
    assert_eq!(hanko.matches("The signature is judged VALID.").count(), 2, "{hanko}");
    let qpdf = run("qpdf", &["--check", "memo.pdf"], dir.path());
    assert!(qpdf.status.success(), "qpdf --check failed:\n{}", text(&qpdf));
    let v = verify(&twice).unwrap();
    assert!(v.all_intact(), "{v:#?}");
    assert_eq!(v.signatures.len(), 2);
    let page3 = text(&run("pdftotext", &["-f", "3", "-l", "3", "memo.pdf", "-"], dir.path()));
    assert!(page3.contains("Approved by Ada Author"), "{page3}");
    assert!(page3.contains("printpdf 0.12.8 fixture, page 3 of 3"), "{page3}");
}

/// Names outside ASCII travel as UTF-16 text strings and come back unchanged.
#[test]
fn non_ascii_names_round_trip() {
    let id = Identity::create("Zoë Ångström", "Société Générale d'Essai", None, t0(), 10).unwrap();
    assert_eq!(id.certificate().common_name.as_deref(), Some("Zoë Ångström"));
    let req = SignRequest {
        signer_name: "Zoë Ångström",
        reason: Some("Relecture — approuvé"),
        location: Some("Zürich"),
        time: t0(),
        appearance: None,
    };
    let v = verify(&sign(&sample_pdf(1), &id, &req).unwrap()).unwrap();
    assert!(v.all_intact(), "{v:#?}");
    let s = &v.signatures[0];
    assert_eq!(s.signer_name.as_deref(), Some("Zoë Ångström"));
    assert_eq!(s.reason.as_deref(), Some("Relecture — approuvé"));
    assert_eq!(s.location.as_deref(), Some("Zürich"));
    assert_eq!(
        s.certificate.as_ref().unwrap().organisation.as_deref(),
        Some("Société Générale d'Essai")
    );
}

/// A PDF whose cross-reference is a stream (object streams, as qpdf and many writers produce).
#[test]
fn xref_stream_pdf_takes_two_signatures() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("plain.pdf"), sample_pdf(2)).unwrap();
    let out = run(
        "qpdf",
        &["--object-streams=generate", "plain.pdf", "streams.pdf"],
        dir.path(),
    );
    assert!(out.status.success(), "{}", text(&out));
    let original = std::fs::read(dir.path().join("streams.pdf")).unwrap();
    assert!(original.windows(10).any(|w| w == b"/Type /XRe" || w == b"/Type/XRef"));
    let author = author();
    let reviewer = Identity::create("Rex Reviewer", "Review Board", None, t0(), 30).unwrap();
    let once = sign(&original, &author, &request("Ada Author", "Author", t0())).unwrap();
    let twice = sign(&once, &reviewer, &request("Rex Reviewer", "Reviewer", t0())).unwrap();
    std::fs::write(dir.path().join("signed.pdf"), &twice).unwrap();
    std::fs::write(dir.path().join("author.pem"), author.certificate_pem()).unwrap();
    std::fs::write(dir.path().join("reviewer.pem"), reviewer.certificate_pem()).unwrap();
    common::keep(dir.path(), "xref-stream");

    let pdfsig = text(&run("pdfsig", &["signed.pdf"], dir.path()));
    assert_eq!(pdfsig.matches("Signature is Valid.").count(), 2, "{pdfsig}");
    let hanko = pyhanko(dir.path(), "signed.pdf", &["author.pem", "reviewer.pem"]);
    assert_eq!(hanko.matches("The signature is judged VALID.").count(), 2, "{hanko}");
    let qpdf = run("qpdf", &["--check", "signed.pdf"], dir.path());
    assert!(qpdf.status.success(), "qpdf --check failed:\n{}", text(&qpdf));
    let v = verify(&twice).unwrap();
    assert!(v.all_intact(), "{v:#?}");
    assert_eq!(v.signatures.len(), 2);
}
