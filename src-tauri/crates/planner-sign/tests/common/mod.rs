//! Test support shared by the signing tests (and meant to be copied by the memo's tests):
//! a small multi-page PDF, the independent validators, and the byte-tamper helper.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, dead_code)]

use lopdf::content::{Content, Operation};
use lopdf::{Document, Object, Stream, dictionary};
use planner_sign::Timestamp;
use std::path::Path;
use std::process::{Command, Output};

/// 2026-11-22T10:30:00Z: tests never read the clock.
pub fn t0() -> Timestamp {
    Timestamp::new(2026, 11, 22, 10, 30, 0).unwrap()
}

/// A PDF of `pages` A4 pages with a line of text each, written by lopdf (classic xref table).
pub fn sample_pdf(pages: usize) -> Vec<u8> {
    let mut doc = Document::with_version("1.7");
    let pages_id = doc.new_object_id();
    let font_id = doc.add_object(dictionary! {
        "Type" => "Font",
        "Subtype" => "Type1",
        "BaseFont" => "Helvetica",
        "Encoding" => "WinAnsiEncoding",
    });
    let resources_id = doc.add_object(dictionary! {
        "Font" => dictionary! { "F1" => font_id },
    });
    let mut kids = Vec::new();
    for n in 1..=pages {
        let content = Content {
            operations: vec![
                Operation::new("BT", vec![]),
                Operation::new("Tf", vec!["F1".into(), 18.into()]),
                Operation::new("Td", vec![72.into(), 760.into()]),
                Operation::new(
                    "Tj",
                    vec![Object::string_literal(format!(
                        "Decision memo test page {n} of {pages}"
                    ))],
                ),
                Operation::new("ET", vec![]),
            ],
        };
        let content_id = doc.add_object(Stream::new(dictionary! {}, content.encode().unwrap()));
        let page_id = doc.add_object(dictionary! {
            "Type" => "Page",
            "Parent" => pages_id,
            "Contents" => content_id,
            "Resources" => resources_id,
            "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
        });
        kids.push(page_id.into());
    }
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages",
            "Kids" => kids,
            "Count" => i64::try_from(pages).unwrap(),
        }),
    );
    let catalog_id = doc.add_object(dictionary! {
        "Type" => "Catalog",
        "Pages" => pages_id,
    });
    doc.trailer.set("Root", catalog_id);
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}

/// What installs each external tool the tests use.
fn install_hint(program: &str) -> &'static str {
    match program {
        "pdfsig" | "pdftotext" | "pdftoppm" => "apt-get install -y --no-install-recommends poppler-utils",
        "qpdf" => "apt-get install -y --no-install-recommends qpdf",
        "pyhanko" => "pip install pyhanko pyhanko-certvalidator pyhanko-cli",
        "openssl" => "apt-get install -y --no-install-recommends openssl",
        _ => "(see the crate's tests)",
    }
}

/// Runs an external validator; a missing tool fails the test and says what to install.
pub fn run(program: &str, args: &[&str], dir: &Path) -> Output {
    match Command::new(program).args(args).current_dir(dir).output() {
        Ok(out) => out,
        Err(e) => panic!(
            "cannot run `{program}` ({e}); install it with: {} (or run `cargo xtask test`, which installs it)",
            install_hint(program)
        ),
    }
}

/// pyHanko's command line, run as `python3 -m pyhanko` (so a user install off PATH works too).
pub fn pyhanko(args: &[&str], dir: &Path) -> Output {
    let mut full = vec!["-m", "pyhanko"];
    full.extend_from_slice(args);
    let out = run("python3", &full, dir);
    let t = text(&out);
    if t.contains("No module named pyhanko") {
        panic!(
            "pyHanko is not installed; install it with: {} (or run `cargo xtask test`, which installs it)",
            install_hint("pyhanko")
        );
    }
    out
}

/// Copies the files of a test's temporary folder to `$PLANNER_SIGN_KEEP/<name>/` when that
/// variable is set, to look at them after the run.
pub fn keep(dir: &Path, name: &str) {
    if let Some(keep) = std::env::var_os("PLANNER_SIGN_KEEP") {
        let to = Path::new(&keep).join(name);
        std::fs::create_dir_all(&to).unwrap();
        for f in std::fs::read_dir(dir).unwrap() {
            let f = f.unwrap();
            std::fs::copy(f.path(), to.join(f.file_name())).unwrap();
        }
    }
}

/// stdout and stderr together, as text.
pub fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A tiny fixed-seed generator (xorshift64*): the same tamper cases on every run.
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The signed ranges of a `/ByteRange [a b c d]`: `[a, a+b)` and `[c, c+d)`.
pub fn signed_ranges(byte_range: [u64; 4]) -> [(usize, usize); 2] {
    let [a, b, c, d] = byte_range.map(|v| usize::try_from(v).unwrap());
    [(a, a + b), (c, c + d)]
}

/// `count` copies of `pdf`, each with one byte inside `byte_range`'s signed bytes changed to a
/// different value (fixed `seed`). Returns (offset, new file) pairs.
pub fn tamper_cases(pdf: &[u8], byte_range: [u64; 4], count: usize, seed: u64) -> Vec<(usize, Vec<u8>)> {
    let [(s1, e1), (s2, e2)] = signed_ranges(byte_range);
    let total = (e1 - s1) + (e2 - s2);
    let mut rng = XorShift(seed);
    (0..count)
        .map(|_| {
            let k = usize::try_from(rng.below(total as u64)).unwrap();
            let offset = if k < e1 - s1 { s1 + k } else { s2 + (k - (e1 - s1)) };
            let mut copy = pdf.to_vec();
            let delta = u8::try_from(1 + rng.below(255)).unwrap();
            copy[offset] = copy[offset].wrapping_add(delta);
            assert_ne!(copy[offset], pdf[offset]);
            (offset, copy)
        })
        .collect()
}
