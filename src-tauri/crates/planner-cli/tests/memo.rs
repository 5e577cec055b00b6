//! The signed decision memo from the `planner` binary, judged by tools no one here wrote:
//! poppler's pdfsig, pyHanko (trusting the signers' certificates), qpdf, pdftotext and OpenSSL.
//! A missing tool fails the test with what to install; nothing is skipped.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

#[path = "../../planner-sign/tests/common/mod.rs"]
mod sign_common;

use sign_common::{pyhanko, run, tamper_cases, text};

const PASS_VAR: &str = "PLANNER_TEST_PASSPHRASE";
const PASS: &str = "correct horse battery staple";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn planner(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_planner"))
        .args(args)
        .arg("--catalog")
        .arg(root().join("catalogs"))
        .env(PASS_VAR, PASS)
        .current_dir(dir)
        .output()
        .expect("run planner")
}

fn ok(out: &Output, what: &str) -> String {
    assert!(out.status.success(), "{what} failed ({}):\n{}", out.status, text(out));
    text(out)
}

fn sample(name: &str) -> String {
    root()
        .join(format!("catalogs/samples/{name}.json"))
        .display()
        .to_string()
}

/// A workspace made from the enterprise sample, with a memo draft written through the store.
fn workspace(dir: &Path) -> PathBuf {
    let ws = dir.join("client.cpw");
    ok(
        &planner(
            &["workspace", "new", "client.cpw", "--from", &sample("enterprise-hybrid")],
            dir,
        ),
        "workspace new",
    );
    ws
}

fn identity(dir: &Path, name: &str, file: &str) -> PathBuf {
    ok(
        &planner(
            &[
                "identity",
                "new",
                "--name",
                name,
                "--org",
                "Example Ltd",
                "--out",
                file,
                "--passphrase-env",
                PASS_VAR,
            ],
            dir,
        ),
        "identity new",
    );
    dir.join(file)
}

/// The certificate of a PKCS#12 file as PEM, read by OpenSSL (an independent reader).
fn certificate_pem(dir: &Path, p12: &str, pem: &str) {
    let out = run(
        "openssl",
        &[
            "pkcs12",
            "-in",
            p12,
            "-passin",
            &format!("pass:{PASS}"),
            "-nokeys",
            "-clcerts",
            "-out",
            pem,
        ],
        dir,
    );
    assert!(out.status.success(), "openssl pkcs12: {}", text(&out));
}

fn pdfsig(dir: &Path, pdf: &str) -> String {
    text(&run("pdfsig", &[pdf], dir))
}

/// pdfsig, pyHanko (trusting the two certificates) and qpdf on `memo.pdf` signed by an author
/// and then a reviewer.
fn independent_validators_accept_both_signatures(dir: &Path) {
    // pdfsig: both valid; the author's covers its revision, the reviewer's the whole file.
    let sig = pdfsig(dir, "memo.pdf");
    assert_eq!(sig.matches("Signature is Valid").count(), 2, "{sig}");
    assert!(sig.contains("Total document signed"), "{sig}");
    assert!(sig.contains("ETSI.CAdES.detached"), "{sig}");

    // pyHanko, trusting the two certificates: both signatures judged valid and intact.
    let py = pyhanko(
        &[
            "sign",
            "validate",
            "--pretty-print",
            "--trust-replace",
            "--trust",
            "ada.pem",
            "--trust",
            "rex.pem",
            "memo.pdf",
        ],
        dir,
    );
    let py_text = text(&py);
    assert!(py.status.success(), "pyHanko: {py_text}");
    assert_eq!(py_text.matches("judged VALID").count(), 2, "{py_text}");
    assert!(py_text.contains("The signature covers the entire file"), "{py_text}");

    let qpdf = run("qpdf", &["--check", "memo.pdf"], dir);
    assert!(qpdf.status.success(), "qpdf --check: {}", text(&qpdf));
}

#[test]
fn an_author_then_a_reviewer_sign_the_memo_and_every_validator_agrees() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    workspace(dir);
    identity(dir, "Ada Author", "ada.p12");
    identity(dir, "Rex Reviewer", "rex.p12");
    certificate_pem(dir, "ada.p12", "ada.pem");
    certificate_pem(dir, "rex.p12", "rex.pem");

    let made = ok(
        &planner(
            &[
                "memo",
                "client.cpw",
                "--scenarios",
                "hybrid,all-cloud",
                "--out",
                "memo.pdf",
                "--author",
                "Ada Author",
                "--decision",
                "Adopt the hybrid: owned base load, cloud burst.",
                "--recommended",
                "hybrid",
                "--sign-with",
                "ada.p12",
                "--passphrase-env",
                PASS_VAR,
            ],
            dir,
        ),
        "memo",
    );
    assert!(made.contains("signed by Ada Author, Example Ltd"), "{made}");
    ok(
        &planner(
            &[
                "sign",
                "memo.pdf",
                "--with",
                "rex.p12",
                "--passphrase-env",
                PASS_VAR,
                "--reason",
                "Reviewer: approved",
                "--workspace",
                "client.cpw",
            ],
            dir,
        ),
        "sign",
    );

    independent_validators_accept_both_signatures(dir);

    // Our own verify: exit 0, both intact, names and reasons.
    let v = planner(&["verify", "memo.pdf"], dir);
    let v_text = ok(&v, "verify");
    assert_eq!(
        v_text.matches("INTACT").count() - v_text.matches("NOT INTACT").count(),
        2,
        "{v_text}"
    );
    assert!(
        v_text.contains("Rex Reviewer") && v_text.contains("Reviewer: approved"),
        "{v_text}"
    );
    assert!(v_text.contains("every signature is intact"), "{v_text}");

    // The visible blocks are on the memo's last page.
    let pages = text(&run("pdfinfo", &["memo.pdf"], dir));
    let last = pages
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .map(|n| n.trim().to_owned())
        .unwrap();
    let tail = text(&run("pdftotext", &["-f", &last, "-l", &last, "memo.pdf", "-"], dir));
    assert!(tail.contains("Digitally signed by Ada Author"), "{tail}");
    assert!(tail.contains("Digitally signed by Rex Reviewer"), "{tail}");

    // The workspace recorded the memo, its signature and the reviewer's, with the file's hashes.
    let show = ok(&planner(&["workspace", "show", "client.cpw"], dir), "workspace show");
    let final_sha = sha256_of(&dir.join("memo.pdf"));
    assert!(
        show.contains(&final_sha),
        "the workspace lists the signed file's SHA-256 {final_sha}:\n{show}"
    );
    assert!(show.contains("Rex Reviewer") && show.contains("Ada Author"), "{show}");

    // Artefacts for a person to look at: the signed memo and its last page.
    let artifacts = root().join("artifacts/memo");
    std::fs::create_dir_all(&artifacts).unwrap();
    std::fs::copy(dir.join("memo.pdf"), artifacts.join("memo-signed-author-reviewer.pdf")).unwrap();
    let prefix = artifacts.join("memo-signed-last-page");
    let png = run(
        "pdftoppm",
        &[
            "-png",
            "-r",
            "80",
            "-singlefile",
            "-f",
            &last,
            "-l",
            &last,
            "memo.pdf",
            &prefix.to_string_lossy(),
        ],
        dir,
    );
    assert!(png.status.success(), "{}", text(&png));
}

fn sha256_of(path: &Path) -> String {
    let out = Command::new("sha256sum").arg(path).output().expect("sha256sum");
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn a_pkcs12_made_by_openssl_signs_a_memo_that_validates() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for (key, name) in [("ec", "org-ec"), ("rsa", "org-rsa")] {
        let mut req = vec!["req", "-x509", "-newkey"];
        let opts = if key == "ec" {
            vec!["ec", "-pkeyopt", "ec_paramgen_curve:P-256"]
        } else {
            vec!["rsa:2048"]
        };
        req.extend(opts);
        let key_file = format!("{name}.key");
        let crt = format!("{name}.pem");
        let subj = format!("/CN=Olga {name}/O=Example Org");
        req.extend([
            "-keyout", &key_file, "-out", &crt, "-days", "30", "-nodes", "-subj", &subj,
        ]);
        let out = run("openssl", &req, dir);
        assert!(out.status.success(), "openssl req: {}", text(&out));
        let p12 = format!("{name}.p12");
        let out = run(
            "openssl",
            &[
                "pkcs12",
                "-export",
                "-inkey",
                &key_file,
                "-in",
                &crt,
                "-out",
                &p12,
                "-passout",
                &format!("pass:{PASS}"),
            ],
            dir,
        );
        assert!(out.status.success(), "openssl pkcs12: {}", text(&out));
        let pdf = format!("{name}-memo.pdf");
        ok(
            &planner(
                &[
                    "memo",
                    &sample("student-lora-rtx4090"),
                    "--out",
                    &pdf,
                    "--author",
                    "Olga",
                    "--decision",
                    "Rent.",
                    "--sign-with",
                    &p12,
                    "--passphrase-env",
                    PASS_VAR,
                ],
                dir,
            ),
            "memo",
        );
        let sig = pdfsig(dir, &pdf);
        assert!(
            sig.contains("Signature is Valid") && sig.contains("Total document signed"),
            "{name}: {sig}"
        );
        let py = pyhanko(
            &[
                "sign",
                "validate",
                "--pretty-print",
                "--trust-replace",
                "--trust",
                &crt,
                &pdf,
            ],
            dir,
        );
        assert!(
            py.status.success() && text(&py).contains("judged VALID"),
            "{name}: {}",
            text(&py)
        );
        assert!(run("qpdf", &["--check", &pdf], dir).status.success());
        ok(&planner(&["verify", &pdf], dir), "verify");
    }
}

#[test]
fn two_hundred_changed_bytes_are_each_caught_by_planner_verify_and_pdfsig() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    identity(dir, "Ada Author", "ada.p12");
    ok(
        &planner(
            &[
                "memo",
                &sample("enterprise-hybrid"),
                "--out",
                "memo.pdf",
                "--author",
                "Ada Author",
                "--decision",
                "Adopt the hybrid.",
                "--sign-with",
                "ada.p12",
                "--passphrase-env",
                PASS_VAR,
            ],
            dir,
        ),
        "memo",
    );
    let signed = std::fs::read(dir.join("memo.pdf")).unwrap();
    let json: serde_json::Value =
        serde_json::from_str(&ok(&planner(&["verify", "memo.pdf", "--json"], dir), "verify --json")).unwrap();
    let range: Vec<u64> = json["verification"]["signatures"][0]["byte_range"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let range = [range[0], range[1], range[2], range[3]];
    assert_eq!(
        range[2] + range[3],
        signed.len() as u64,
        "the signature covers the whole memo"
    );

    let (mut ours, mut poppler) = (0, 0);
    let mut missed = Vec::new();
    let cases = tamper_cases(&signed, range, 200, 0x005e_ed0f_3e30);
    for (offset, copy) in &cases {
        std::fs::write(dir.join("tampered.pdf"), copy).unwrap();
        let v = planner(&["verify", "tampered.pdf"], dir);
        let caught_ours = !v.status.success();
        let sig = pdfsig(dir, "tampered.pdf");
        let caught_poppler = !sig.contains("Signature is Valid");
        ours += usize::from(caught_ours);
        poppler += usize::from(caught_poppler);
        if !(caught_ours && caught_poppler) {
            missed.push(format!(
                "offset {offset}: planner verify {caught_ours}, pdfsig {caught_poppler}"
            ));
        }
    }
    println!("tamper: planner verify caught {ours}/200, pdfsig caught {poppler}/200");
    assert!(missed.is_empty(), "missed:\n{}", missed.join("\n"));
}

#[test]
fn bad_requests_say_what_to_do_and_write_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    workspace(dir);
    // A workspace without a memo draft: the author and decision are named.
    let out = planner(
        &["memo", "client.cpw", "--scenarios", "hybrid", "--out", "memo.pdf"],
        dir,
    );
    assert_eq!(out.status.code(), Some(1));
    let t = text(&out);
    assert!(t.contains("memo.author") && t.contains("memo.decision"), "{t}");
    // An unknown scenario.
    let out = planner(
        &[
            "memo",
            &sample("enterprise-hybrid"),
            "--scenarios",
            "nope",
            "--out",
            "memo.pdf",
            "--author",
            "A",
            "--decision",
            "D",
        ],
        dir,
    );
    assert!(text(&out).contains("no scenario `nope`"), "{}", text(&out));
    // A wrong passphrase for the identity.
    identity(dir, "Ada Author", "ada.p12");
    let out = Command::new(env!("CARGO_BIN_EXE_planner"))
        .args([
            "memo",
            &sample("enterprise-hybrid"),
            "--out",
            "memo.pdf",
            "--author",
            "A",
            "--decision",
            "D",
        ])
        .args(["--sign-with", "ada.p12", "--passphrase-env", "WRONG_PASS"])
        .env("WRONG_PASS", "not the passphrase")
        .current_dir(dir)
        .arg("--catalog")
        .arg(root().join("catalogs"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).to_lowercase().contains("passphrase"), "{}", text(&out));
    assert!(
        !dir.join("memo.pdf").exists(),
        "nothing is written when a request is refused"
    );
    // verify: a file that is not a PDF, and a PDF without a signature.
    std::fs::write(dir.join("notes.pdf"), "minutes").unwrap();
    assert_eq!(planner(&["verify", "notes.pdf"], dir).status.code(), Some(1));
    ok(
        &planner(
            &[
                "memo",
                &sample("enterprise-hybrid"),
                "--out",
                "plain.pdf",
                "--author",
                "A",
                "--decision",
                "D",
            ],
            dir,
        ),
        "unsigned memo",
    );
    let out = planner(&["verify", "plain.pdf"], dir);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).contains("holds no signature"), "{}", text(&out));
}

/// Issue 14's reproducer on a real memo: an incremental update appended after signing paints
/// "APPROVED: BUY 10,000 GPUS NOW" on page 1. Every reader shows it; `planner verify` must fail
/// and say what changed on which page. One changed byte that leaves the file unreadable must be
/// called damaged or altered, not "not a PDF".
#[test]
fn a_change_appended_after_signing_or_a_damaged_file_fails_planner_verify() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    identity(dir, "Ada Author", "ada.p12");
    certificate_pem(dir, "ada.p12", "ada.pem");
    ok(
        &planner(
            &[
                "memo",
                &sample("enterprise-hybrid"),
                "--out",
                "memo.pdf",
                "--author",
                "Ada Author",
                "--decision",
                "Adopt the hybrid.",
                "--sign-with",
                "ada.p12",
                "--passphrase-env",
                PASS_VAR,
            ],
            dir,
        ),
        "memo",
    );
    let signed = std::fs::read(dir.join("memo.pdf")).unwrap();
    let painted = "APPROVED: BUY 10,000 GPUS NOW";
    std::fs::write(
        dir.join("altered.pdf"),
        sign_common::append_drawing(&signed, 1, painted),
    )
    .unwrap();
    let page1 = text(&run("pdftotext", &["-f", "1", "-l", "1", "altered.pdf", "-"], dir));
    assert!(page1.contains(painted), "{page1}");

    let out = planner(&["verify", "altered.pdf"], dir);
    let report = text(&out);
    println!("{report}");
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(report.contains("NOT INTACT"), "{report}");
    assert!(report.contains("NOT every signature is intact"), "{report}");
    assert!(
        report.contains("problem:     modified after signing: page 1 (object"),
        "{report}"
    );
    assert!(report.contains("(content stream) was added on page 1"), "{report}");
    assert!(report.contains("and they change the document"), "{report}");

    let sig = pdfsig(dir, "altered.pdf");
    println!("pdfsig:\n{sig}");
    assert!(sig.contains("Not total document signed"), "{sig}");
    let py = pyhanko(
        &[
            "sign",
            "validate",
            "--pretty-print",
            "--trust-replace",
            "--trust",
            "ada.pem",
            "altered.pdf",
        ],
        dir,
    );
    let py_text = text(&py);
    println!("pyHanko:\n{py_text}");
    assert!(!py.status.success(), "{py_text}");
    assert!(py_text.contains("judged INVALID"), "{py_text}");

    // A further signature is refused on the altered memo.
    identity(dir, "Rex Reviewer", "rex.p12");
    let out = planner(
        &["sign", "altered.pdf", "--with", "rex.p12", "--passphrase-env", PASS_VAR],
        dir,
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("no longer intact"), "{}", text(&out));

    // One byte of the cross-reference offset changed: damaged or altered, never "not a PDF".
    let key = b"startxref\n";
    let at = signed.windows(key.len()).rposition(|w| w == key).unwrap() + key.len();
    let mut broken = signed.clone();
    broken[at] = if broken[at] == b'9' { b'8' } else { b'9' };
    std::fs::write(dir.join("broken.pdf"), &broken).unwrap();
    let out = planner(&["verify", "broken.pdf"], dir);
    let t = text(&out);
    println!("{t}");
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(
        t.contains("the signed PDF is damaged or was altered after signing, and cannot be read"),
        "{t}"
    );
    assert!(t.contains("cross-reference"), "{t}");
    assert!(!t.contains("not a PDF this program can read"), "{t}");
}

/// Issue 14: a decision written in Chinese is printed, extractable and signed like any other;
/// one in Arabic is refused in words, naming the field and what to do, and nothing is written.
#[test]
fn a_chinese_memo_signs_and_verifies_and_an_arabic_decision_is_refused_in_words() {
    const DECISION: &str = "采购决定：租用云端GPU，三十六个月";
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    identity(dir, "Ada Author", "ada.p12");
    let made = ok(
        &planner(
            &[
                "memo",
                &sample("enterprise-hybrid"),
                "--out",
                "memo.pdf",
                "--author",
                "李雷",
                "--client",
                "示例研究有限公司",
                "--decision",
                DECISION,
                "--rationale",
                "自有机房的电力不足以支撑新的集群，因此先租用云端算力三十六个月。",
                "--sign-with",
                "ada.p12",
                "--passphrase-env",
                PASS_VAR,
            ],
            dir,
        ),
        "memo",
    );
    assert!(made.contains("signed by Ada Author, Example Ltd"), "{made}");
    let sig = pdfsig(dir, "memo.pdf");
    assert_eq!(sig.matches("Signature is Valid").count(), 1, "{sig}");
    assert!(sig.contains("Total document signed"), "{sig}");
    let v = ok(&planner(&["verify", "memo.pdf"], dir), "verify");
    assert!(v.contains("every signature is intact"), "{v}");
    let qpdf = run("qpdf", &["--check", "memo.pdf"], dir);
    assert!(qpdf.status.success(), "qpdf --check: {}", text(&qpdf));
    let memo_text = text(&run("pdftotext", &["memo.pdf", "-"], dir));
    assert!(memo_text.contains(DECISION), "{memo_text}");
    assert!(
        memo_text.contains("示例研究有限公司") && memo_text.contains("李雷"),
        "{memo_text}"
    );
    let fonts = text(&run("pdffonts", &["memo.pdf"], dir));
    assert!(fonts.contains("+WenQuanYiMicroHei"), "{fonts}");

    let out = planner(
        &[
            "memo",
            &sample("enterprise-hybrid"),
            "--out",
            "arabic.pdf",
            "--author",
            "Ada Author",
            "--decision",
            "قرار: استئجار",
        ],
        dir,
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        err.starts_with(
            "error: The memo could not be made: some text cannot be printed as written: the decision text has “ق ر ا س ت ئ ج” (Arabic). "
        ),
        "{err}"
    );
    assert!(
        err.contains("Write it in Latin, Greek, Cyrillic or CJK script, or attach it as a separate document.\n"),
        "{err}"
    );
    assert!(
        err.contains(": memo.decision [invalid-input]: the memo cannot print “ق ر ا س ت ئ ج” (Arabic)"),
        "{err}"
    );
    assert!(
        !dir.join("arabic.pdf").exists(),
        "nothing is written when the memo is refused"
    );
}

/// The memo's text from pdftotext (reading order, cells' wrapped lines one after the other), its
/// whitespace folded so that wrapped phrases read whole.
fn memo_text(dir: &Path, pdf: &str) -> String {
    let out = run("pdftotext", &[pdf, "-"], dir);
    assert!(out.status.success(), "pdftotext: {}", text(&out));
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Today in UTC, `YYYY-MM-DD`, from date(1) (an independent clock reader).
fn today_utc() -> String {
    let out = Command::new("date").args(["-u", "+%F"]).output().expect("date");
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

fn days_in(year: u32, month: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Whole months from the last day of `year`-`month` (a figure dated by its month) to `date`
/// (`YYYY-MM-DD`): a month is whole when the same day comes round, or the month's last day when
/// it is shorter (31 March to 30 April is one month).
fn whole_months_since(year: u32, month: u32, date: &str) -> u32 {
    let part = |i: usize| date.split('-').nth(i).unwrap().parse::<u32>().unwrap();
    let (y, m, d) = (part(0), part(1), part(2));
    let from_day = days_in(year, month);
    let mut months = (y * 12 + m) - (year * 12 + month);
    if d < from_day && d != days_in(y, m) {
        months -= 1;
    }
    months
}

/// The memo's own date, as the ledger states it, checked against the clock around the run.
fn memo_date(flat: &str, before: &str, after: &str) -> String {
    let date = flat
        .split("on the memo's date, ")
        .nth(1)
        .and_then(|rest| rest.get(..10))
        .unwrap_or_else(|| panic!("the ledger states no date:\n{flat}"))
        .to_owned();
    assert!(
        date == before || date == after,
        "memo dated {date}, made between {before} and {after}"
    );
    date
}

/// The hybrid's spot price, aws-p5-h100.spot_per_gpu_hour, takes its date from its source: the
/// `as_of` of `[sources.costnimbus]` in catalogs/offers.toml (year and month).
fn spot_price_dated() -> (u32, u32) {
    let toml = std::fs::read_to_string(root().join("catalogs/offers.toml")).unwrap();
    let section = toml.split("[sources.costnimbus]").nth(1).unwrap();
    let date = section
        .lines()
        .find(|l| l.starts_with("as_of"))
        .and_then(|l| l.split('"').nth(1))
        .unwrap();
    assert_eq!(date.len(), 7, "a month: {date}");
    (date[..4].parse().unwrap(), date[5..].parse().unwrap())
}

fn make_memo(dir: &Path, file: &str) {
    ok(
        &planner(
            &[
                "memo",
                file,
                "--scenarios",
                "hybrid,all-cloud",
                "--out",
                "memo.pdf",
                "--author",
                "Ada Author",
                "--decision",
                "Adopt the hybrid.",
                "--recommended",
                "hybrid",
            ],
            dir,
        ),
        "memo",
    );
}

#[test]
fn a_workspace_memo_states_its_shipped_catalog_and_marks_a_stale_price_with_its_age() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    workspace(dir);
    let before = today_utc();
    make_memo(dir, "client.cpw");
    let after = today_utc();
    let flat = memo_text(dir, "memo.pdf");
    assert!(
        flat.contains("data version 2026.11.0, shipped with the app (not a signed pack)"),
        "{flat}"
    );
    assert!(
        flat.contains("Catalog 2026.11.0, shipped with the app: it is part of the installed program, not a signed pack, so there is no pack signature to verify."),
        "{flat}"
    );
    assert!(
        flat.contains("Figures older than 6 months (cloud prices) or 12 months (everything else) on the memo's date"),
        "{flat}"
    );
    let date = memo_date(&flat, &before, &after);
    let (year, month) = spot_price_dated();
    let age = whole_months_since(year, month, &date);
    assert!(
        age > 6,
        "the spot price dated {year}-{month:02} is {age} months old on {date}"
    );
    assert!(
        flat.contains(&format!("STALE: {age} months old (threshold 6)")),
        "no stale mark of {age} months:\n{flat}"
    );

    // The same scenarios from the scenario file: the catalog is the folder given.
    let tmp = tempfile::tempdir().unwrap();
    make_memo(tmp.path(), &sample("enterprise-hybrid"));
    let flat = memo_text(tmp.path(), "memo.pdf");
    assert!(
        flat.contains("data version 2026.11.0, read from the folder catalogs (not a signed pack)"),
        "{flat}"
    );
    // The statement names the folder as given (`--catalog`, the repository's catalogs folder).
    let given = root().join("catalogs").display().to_string();
    assert!(
        flat.contains(&format!(
            "Catalog 2026.11.0, read from the folder {given} given when the memo was made: it is not a signed pack"
        )),
        "{flat}"
    );
    assert!(
        flat.contains(&format!("STALE: {age} months old (threshold 6)")),
        "{flat}"
    );
}

#[test]
fn a_memo_from_a_workspace_on_a_signed_pack_says_its_signature_verified() {
    use planner_store::pack::{build_pack, check_pack};
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let path = workspace(dir);
    let (public, secret) = planner_sign::generate_pack_key(None).unwrap();
    let key = planner_sign::read_pack_key(&public).unwrap();
    let parts = build_pack(
        &root().join("tests/fixtures/catalog-next"),
        &secret,
        None,
        "Test Publisher",
        "2026-12-01".parse().unwrap(),
        None,
    )
    .unwrap();
    let opened = check_pack(&parts, std::slice::from_ref(&key), "p").unwrap();
    {
        let mut ws = planner_store::Workspace::open(&path).unwrap();
        ws.apply_pack(&opened, NOW).unwrap();
    }
    make_memo(dir, "client.cpw");
    let flat = memo_text(dir, "memo.pdf");
    assert!(
        flat.contains(&format!(
            "data version 2026.12.0 from Test Publisher; pack signature verified (key {})",
            key.id
        )),
        "{flat}"
    );
    assert!(
        flat.contains(&format!(
            "Catalog 2026.12.0 from a pack published by Test Publisher on 2026-12-01; its signature (minisign key {}) and every file's SHA-256 verify.",
            key.id
        )),
        "{flat}"
    );
    assert!(!flat.contains("shipped with the app"), "{flat}");
    let artifacts = root().join("artifacts/memo");
    std::fs::create_dir_all(&artifacts).unwrap();
    std::fs::copy(dir.join("memo.pdf"), artifacts.join("memo-signed-pack.pdf")).unwrap();
}

/// The clock the workspace stamps its changes with in these tests (2026-11-01 00:00 UTC): the
/// store reads no clock of its own.
const NOW: i64 = 1_793_491_200_000;
