//! PKCS#12: files made by the OpenSSL command line sign PDFs that pdfsig and pyHanko accept;
//! our own files open in OpenSSL and round-trip.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{run, sample_pdf, t0, text};
use planner_sign::{Identity, SignError, SignRequest, sign, verify};
use std::path::Path;

fn openssl(dir: &Path, args: &[&str]) -> String {
    let out = run("openssl", args, dir);
    let t = text(&out);
    assert!(out.status.success(), "openssl {args:?} failed:\n{t}");
    t
}

/// A key and self-signed certificate made by OpenSSL, exported as PKCS#12 with its defaults.
fn openssl_identity(dir: &Path, stem: &str, newkey: &[&str], cn: &str) -> Vec<u8> {
    let key = format!("{stem}-key.pem");
    let cert = format!("{stem}-cert.pem");
    let p12 = format!("{stem}.p12");
    let subj = format!("/CN={cn}/O=OpenSSL Made Org");
    let mut args = vec!["req", "-x509"];
    args.extend_from_slice(newkey);
    args.extend_from_slice(&[
        "-keyout",
        &key,
        "-out",
        &cert,
        "-days",
        "3650",
        "-nodes",
        "-subj",
        &subj,
        "-addext",
        "keyUsage=critical,digitalSignature,nonRepudiation",
    ]);
    openssl(dir, &args);
    openssl(
        dir,
        &[
            "pkcs12",
            "-export",
            "-inkey",
            &key,
            "-in",
            &cert,
            "-out",
            &p12,
            "-name",
            cn,
            "-passout",
            "pass:open sesame",
        ],
    );
    let info = openssl(
        dir,
        &["pkcs12", "-in", &p12, "-info", "-noout", "-passin", "pass:open sesame"],
    );
    assert!(
        info.contains("AES-256-CBC"),
        "OpenSSL's default is PBES2/AES-256:\n{info}"
    );
    std::fs::read(dir.join(p12)).unwrap()
}

fn sign_and_validate(dir: &Path, id: &Identity, cert_pem: &str, stem: &str) {
    let req = SignRequest {
        signer_name: stem,
        reason: Some("Author"),
        location: None,
        time: common::valid_from(id),
        appearance: None,
    };
    let signed = sign(&sample_pdf(2), id, &req).unwrap();
    let file = format!("{stem}.pdf");
    std::fs::write(dir.join(&file), &signed).unwrap();
    let pdfsig = text(&run("pdfsig", &[&file], dir));
    println!("pdfsig {stem}:\n{pdfsig}");
    assert!(pdfsig.contains("Signature Validation: Signature is Valid."), "{pdfsig}");
    assert!(pdfsig.contains("Total document signed"), "{pdfsig}");
    let out = common::pyhanko(
        &[
            "sign",
            "validate",
            "--pretty-print",
            "--no-revocation-check",
            "--trust-replace",
            "--trust",
            cert_pem,
            &file,
        ],
        dir,
    );
    let hanko = text(&out);
    println!("pyHanko {stem}:\n{hanko}");
    assert!(out.status.success(), "{hanko}");
    assert!(hanko.contains("The signature is cryptographically sound."), "{hanko}");
    assert!(hanko.contains("The signer's certificate is trusted."), "{hanko}");
    assert!(hanko.contains("The signature is judged VALID."), "{hanko}");
    let v = verify(&signed).unwrap();
    assert!(v.all_intact(), "{v:#?}");
}

#[test]
fn openssl_p256_pkcs12_signs_valid_pdfs() {
    let dir = tempfile::tempdir().unwrap();
    let p12 = openssl_identity(
        dir.path(),
        "ec",
        &["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"],
        "Erin EC",
    );
    let id = Identity::from_pkcs12(&p12, "open sesame").unwrap();
    let info = id.certificate();
    assert_eq!(info.common_name.as_deref(), Some("Erin EC"));
    assert_eq!(info.organisation.as_deref(), Some("OpenSSL Made Org"));
    assert_eq!(info.key_algorithm, "EC P-256");
    assert!(info.self_signed);
    let pem = std::fs::read_to_string(dir.path().join("ec-cert.pem")).unwrap();
    assert_eq!(id.certificate_pem().trim(), pem.trim());
    sign_and_validate(dir.path(), &id, "ec-cert.pem", "ec");
}

#[test]
fn openssl_rsa2048_pkcs12_signs_valid_pdfs() {
    let dir = tempfile::tempdir().unwrap();
    let p12 = openssl_identity(dir.path(), "rsa", &["-newkey", "rsa:2048"], "Rosa RSA");
    let id = Identity::from_pkcs12(&p12, "open sesame").unwrap();
    let info = id.certificate();
    assert_eq!(info.common_name.as_deref(), Some("Rosa RSA"));
    assert_eq!(info.key_algorithm, "RSA 2048");
    assert!(info.self_signed);
    sign_and_validate(dir.path(), &id, "rsa-cert.pem", "rsa");
}

#[test]
fn small_rsa_keys_and_wrong_passphrases_are_refused_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let p12 = openssl_identity(dir.path(), "small", &["-newkey", "rsa:1024"], "Tiny");
    let err = Identity::from_pkcs12(&p12, "open sesame").unwrap_err();
    assert_eq!(
        err.to_string(),
        "unsupported key: an RSA key of 1024 bits; use an EC P-256 key or an RSA key of 2048 bits or more"
    );
    let err = Identity::from_pkcs12(&p12, "wrong").unwrap_err();
    assert_eq!(err, SignError::WrongPassphrase);
    let err = Identity::from_pkcs12(b"not a p12", "x").unwrap_err();
    assert!(
        err.to_string()
            .starts_with("cannot read this PKCS#12 file: it is not a PKCS#12 (.p12/.pfx) file"),
        "{err}"
    );
}

#[test]
fn legacy_3des_pkcs12_is_refused_with_advice() {
    let dir = tempfile::tempdir().unwrap();
    openssl_identity(
        dir.path(),
        "old",
        &["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"],
        "Old",
    );
    openssl(
        dir.path(),
        &[
            "pkcs12",
            "-export",
            "-inkey",
            "old-key.pem",
            "-in",
            "old-cert.pem",
            "-out",
            "legacy.p12",
            "-certpbe",
            "PBE-SHA1-3DES",
            "-keypbe",
            "PBE-SHA1-3DES",
            "-macalg",
            "sha256",
            "-passout",
            "pass:pw",
        ],
    );
    let p12 = std::fs::read(dir.path().join("legacy.p12")).unwrap();
    let err = Identity::from_pkcs12(&p12, "pw").unwrap_err();
    println!("{err}");
    assert!(err.to_string().contains("legacy encryption"), "{err}");
    assert!(err.to_string().contains("AES-256"), "{err}");
}

#[test]
fn our_pkcs12_opens_in_openssl_and_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let id = Identity::create("Pia Pkcs", "Twelve Org", Some("pia@example.org"), t0(), 730).unwrap();
    let p12 = id.to_pkcs12("correct horse", "Pia Pkcs (Compute Planner)").unwrap();
    std::fs::write(dir.path().join("pia.p12"), &p12).unwrap();

    // An independent reader: OpenSSL decrypts key and certificate with the passphrase.
    let info = openssl(
        dir.path(),
        &[
            "pkcs12",
            "-in",
            "pia.p12",
            "-info",
            "-noout",
            "-passin",
            "pass:correct horse",
        ],
    );
    println!("openssl pkcs12 -info:\n{info}");
    assert!(info.contains("MAC: sha256"), "{info}");
    assert!(
        info.contains("PKCS7 Encrypted data: PBES2, PBKDF2, AES-256-CBC, Iteration 200000, PRF hmacWithSHA256"),
        "{info}"
    );
    assert!(
        info.contains("Shrouded Keybag: PBES2, PBKDF2, AES-256-CBC, Iteration 200000, PRF hmacWithSHA256"),
        "{info}"
    );
    let dump = openssl(
        dir.path(),
        &["pkcs12", "-in", "pia.p12", "-nodes", "-passin", "pass:correct horse"],
    );
    assert!(dump.contains("friendlyName: Pia Pkcs (Compute Planner)"), "{dump}");
    assert!(dump.contains("-----BEGIN PRIVATE KEY-----"), "{dump}");
    assert!(dump.contains(id.certificate_pem().trim()), "{dump}");
    // The key OpenSSL found is the certificate's key.
    std::fs::write(dir.path().join("dump.pem"), &dump).unwrap();
    let pub_from_key = openssl(dir.path(), &["pkey", "-in", "dump.pem", "-pubout"]);
    let pub_from_cert = openssl(dir.path(), &["x509", "-in", "dump.pem", "-noout", "-pubkey"]);
    assert_eq!(pub_from_key, pub_from_cert);
    let wrong = run(
        "openssl",
        &["pkcs12", "-in", "pia.p12", "-nodes", "-passin", "pass:wrong"],
        dir.path(),
    );
    assert!(!wrong.status.success(), "OpenSSL must refuse a wrong passphrase");

    // Round trip.
    let back = Identity::from_pkcs12(&p12, "correct horse").unwrap();
    assert_eq!(back.certificate(), id.certificate());
    assert_eq!(back.certificate_pem(), id.certificate_pem());
    let req = SignRequest {
        signer_name: "Pia Pkcs",
        reason: None,
        location: None,
        time: t0(),
        appearance: None,
    };
    assert!(
        verify(&sign(&sample_pdf(1), &back, &req).unwrap())
            .unwrap()
            .all_intact()
    );

    let err = Identity::from_pkcs12(&p12, "wrong horse").unwrap_err();
    assert_eq!(err, SignError::WrongPassphrase);
    assert_eq!(
        err.to_string(),
        "the passphrase does not open this PKCS#12 file; check the passphrase and try again"
    );

    // pyHanko opens it too and signs with it (another independent reader).
    std::fs::write(dir.path().join("in.pdf"), sample_pdf(1)).unwrap();
    std::fs::write(dir.path().join("pia.pem"), id.certificate_pem()).unwrap();
    std::fs::write(dir.path().join("pass.txt"), "correct horse").unwrap();
    let out = common::pyhanko(
        &[
            "sign",
            "addsig",
            "--field",
            "Sig1",
            "pkcs12",
            "--passfile",
            "pass.txt",
            "in.pdf",
            "by-pyhanko.pdf",
            "pia.p12",
        ],
        dir.path(),
    );
    assert!(
        out.status.success(),
        "pyHanko cannot sign with our PKCS#12:\n{}",
        text(&out)
    );
    let theirs = std::fs::read(dir.path().join("by-pyhanko.pdf")).unwrap();
    let v = verify(&theirs).unwrap();
    println!("our verify of pyHanko's signature: {v:#?}");
    assert!(v.all_intact(), "{v:#?}");
    assert_eq!(
        v.signatures[0].certificate.as_ref().unwrap().sha256_fingerprint,
        id.certificate().sha256_fingerprint
    );
}

/// An RSA-4096 signer certified by an RSA-4096 CA: the chain travels in the PKCS#12 and in the
/// signature (pyHanko trusts only the CA and builds the path from the embedded certificates),
/// and it fits the space reserved for /Contents.
#[test]
fn rsa4096_chain_fits_and_validates_against_the_ca() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    chain_pkcs12(d);
    let id = Identity::from_pkcs12(&std::fs::read(d.join("leaf.p12")).unwrap(), "chain").unwrap();
    let info = id.certificate();
    assert_eq!(info.key_algorithm, "RSA 4096");
    assert!(!info.self_signed);
    assert_eq!(info.issuer, "O=Chain Org,CN=Test Root CA");

    let req = SignRequest {
        signer_name: "Lee Leaf",
        reason: Some("Reviewer"),
        location: None,
        time: common::valid_from(&id),
        appearance: None,
    };
    let signed = sign(&sample_pdf(1), &id, &req).unwrap();
    std::fs::write(d.join("chain.pdf"), &signed).unwrap();
    let out = validate_trusting_the_ca(d, "chain.pdf");
    let hanko = text(&out);
    println!("pyHanko (trusting only the CA):\n{hanko}");
    assert!(out.status.success(), "{hanko}");
    assert!(
        hanko.contains("Trust anchor: \"Organization: Chain Org, Common Name: Test Root CA\""),
        "{hanko}"
    );
    assert!(hanko.contains("The signature is judged VALID."), "{hanko}");
    let pdfsig = text(&run("pdfsig", &["chain.pdf"], d));
    assert!(pdfsig.contains("Signature is Valid."), "{pdfsig}");
    // The re-exported file keeps the CA certificate.
    let again = Identity::from_pkcs12(&id.to_pkcs12("x", "leaf").unwrap(), "x").unwrap();
    let resigned = sign(&sample_pdf(1), &again, &req).unwrap();
    std::fs::write(d.join("again.pdf"), &resigned).unwrap();
    let out = validate_trusting_the_ca(d, "again.pdf");
    assert!(text(&out).contains("The signature is judged VALID."), "{}", text(&out));
    assert!(verify(&resigned).unwrap().all_intact());
}

/// Makes, with openssl, an RSA-4096 root CA (`ca.pem`) and an RSA-4096 signer it certifies,
/// exported with the CA's certificate to `leaf.p12` (passphrase `chain`), in `d`.
fn chain_pkcs12(d: &Path) {
    openssl(
        d,
        &[
            "req",
            "-x509",
            "-newkey",
            "rsa:4096",
            "-keyout",
            "ca-key.pem",
            "-out",
            "ca.pem",
            "-days",
            "3650",
            "-nodes",
            "-subj",
            "/CN=Test Root CA/O=Chain Org",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign,cRLSign",
        ],
    );
    openssl(
        d,
        &[
            "req",
            "-new",
            "-newkey",
            "rsa:4096",
            "-keyout",
            "leaf-key.pem",
            "-out",
            "leaf.csr",
            "-nodes",
            "-subj",
            "/CN=Lee Leaf/O=Chain Org",
        ],
    );
    std::fs::write(
        d.join("leaf.ext"),
        "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,nonRepudiation\n",
    )
    .unwrap();
    openssl(
        d,
        &[
            "x509",
            "-req",
            "-in",
            "leaf.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca-key.pem",
            "-CAcreateserial",
            "-out",
            "leaf.pem",
            "-days",
            "365",
            "-extfile",
            "leaf.ext",
        ],
    );
    openssl(
        d,
        &[
            "pkcs12",
            "-export",
            "-inkey",
            "leaf-key.pem",
            "-in",
            "leaf.pem",
            "-certfile",
            "ca.pem",
            "-out",
            "leaf.p12",
            "-passout",
            "pass:chain",
        ],
    );
}

/// pyHanko's validation of the signed file `name` in `d`, trusting only the CA `ca.pem`.
fn validate_trusting_the_ca(d: &Path, name: &str) -> std::process::Output {
    common::pyhanko(
        &[
            "sign",
            "validate",
            "--pretty-print",
            "--no-revocation-check",
            "--trust-replace",
            "--trust",
            "ca.pem",
            name,
        ],
        d,
    )
}

/// Reads a hostile fixture (see tests/fixtures/README.md) and returns the refusal, failing if
/// it took a second or more.
fn refused_quickly(name: &str) -> String {
    let bytes = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)).unwrap();
    let started = std::time::Instant::now();
    let result = Identity::from_pkcs12(&bytes, "fuzz-passphrase");
    let took = started.elapsed();
    assert!(took.as_secs_f64() < 1.0, "{name} took {took:?}");
    match result {
        Err(e @ SignError::BadPkcs12(_)) => e.to_string(),
        Err(e) => panic!("{name}: refused for another reason: {e}"),
        Ok(_) => panic!("{name} was accepted"),
    }
}

/// Found by fuzzing (issue #14): the iteration counts of the key derivation are the file's to
/// choose, and were followed however large; scrypt's parameters also set its memory.
#[test]
fn hostile_key_derivation_is_refused_at_once_in_words() {
    let mac = refused_quickly("pkcs12-mac-iterations.p12");
    assert!(
        mac.contains("integrity check (MAC) asks for 2147483647 key-derivation iterations")
            && mac.contains("at most 1000000")
            && mac.contains("export it again with OpenSSL 3 defaults"),
        "{mac}"
    );
    let pbkdf2 = refused_quickly("pkcs12-pbkdf2-iterations.p12");
    assert!(
        pbkdf2.contains("the key bag asks for 100000000 key-derivation iterations"),
        "{pbkdf2}"
    );
    let scrypt = refused_quickly("pkcs12-scrypt.p12");
    assert!(
        scrypt.contains("the key bag is encrypted with a key derived by scrypt, which is not supported"),
        "{scrypt}"
    );
}

/// The bound leaves room for what is written in practice: our own files (2 × 200,000 + 2048
/// iterations) and OpenSSL's with ten times its default.
#[test]
fn the_iteration_bound_admits_our_files_and_openssls() {
    let dir = tempfile::tempdir().unwrap();
    let id = Identity::create("Bound Check", "Compute Planner", None, t0(), 30).unwrap();
    let ours = id.to_pkcs12("a passphrase", "Bound Check").unwrap();
    assert!(Identity::from_pkcs12(&ours, "a passphrase").is_ok());
    openssl(
        dir.path(),
        &[
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-keyout",
            "k.pem",
            "-out",
            "c.pem",
            "-days",
            "30",
            "-nodes",
            "-subj",
            "/CN=Bound/O=Check",
        ],
    );
    openssl(
        dir.path(),
        &[
            "pkcs12",
            "-export",
            "-iter",
            "20480",
            "-inkey",
            "k.pem",
            "-in",
            "c.pem",
            "-out",
            "o.p12",
            "-passout",
            "pass:a passphrase",
        ],
    );
    let theirs = std::fs::read(dir.path().join("o.p12")).unwrap();
    assert!(Identity::from_pkcs12(&theirs, "a passphrase").is_ok());
}
