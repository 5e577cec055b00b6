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

/// Writes a direct PDF object (no streams) as PDF syntax: enough for the hand-made updates of
/// the tests below.
pub fn pdf_syntax(obj: &Object) -> String {
    match obj {
        Object::Null => "null".to_owned(),
        Object::Boolean(b) => b.to_string(),
        Object::Integer(i) => i.to_string(),
        Object::Real(r) => format!("{r}"),
        Object::Name(n) => {
            let mut s = "/".to_owned();
            for &b in n {
                if (0x21..=0x7e).contains(&b) && !b"()<>[]{}/%#".contains(&b) {
                    s.push(char::from(b));
                } else {
                    s.push_str(&format!("#{b:02X}"));
                }
            }
            s
        }
        Object::String(bytes, _) => format!("<{}>", bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()),
        Object::Array(items) => format!("[{}]", items.iter().map(pdf_syntax).collect::<Vec<_>>().join(" ")),
        Object::Dictionary(d) => format!(
            "<<{}>>",
            d.iter()
                .map(|(k, v)| format!("{} {}", pdf_syntax(&Object::Name(k.clone())), pdf_syntax(v)))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        Object::Stream(_) => panic!("a stream cannot be written as a direct object"),
        Object::Reference((n, g)) => format!("{n} {g} R"),
    }
}

/// Appends an incremental update made of `objects` (number, body text) to `pdf`, with a classic
/// xref section and a trailer that keeps /Root, /Info and /ID and points /Prev at the last one.
pub fn append_update(pdf: &[u8], objects: &[(u32, Vec<u8>)]) -> Vec<u8> {
    let doc = Document::load_mem(pdf).unwrap();
    let key = b"startxref";
    let pos = pdf.windows(key.len()).rposition(|w| w == key).unwrap();
    let prev: u64 = String::from_utf8_lossy(&pdf[pos + key.len()..])
        .split_ascii_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let mut out = pdf.to_vec();
    if !out.ends_with(b"\n") {
        out.push(b'\n');
    }
    let mut offsets = Vec::new();
    for (n, body) in objects {
        offsets.push((*n, out.len()));
        out.extend_from_slice(format!("{n} 0 obj\n").as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref_at = out.len();
    out.extend_from_slice(b"xref\n");
    offsets.sort_unstable();
    for (n, at) in &offsets {
        out.extend_from_slice(format!("{n} 1\n{at:010} 00000 n \n").as_bytes());
    }
    let size = doc.trailer.get(b"Size").unwrap().as_i64().unwrap();
    let size = offsets.iter().map(|(n, _)| i64::from(*n) + 1).fold(size, i64::max);
    let mut trailer = format!("<</Size {size} /Prev {prev}");
    for k in ["Root", "Info", "ID"] {
        if let Ok(v) = doc.trailer.get(k.as_bytes()) {
            trailer.push_str(&format!(" /{k} {}", pdf_syntax(v)));
        }
    }
    trailer.push_str(">>");
    out.extend_from_slice(format!("trailer\n{trailer}\nstartxref\n{xref_at}\n%%EOF\n").as_bytes());
    out
}

/// The reproducer of issue 14: an incremental update appended after signing that paints `text`
/// in large red letters on page `page` (from 1): a new font and a new content stream, and the
/// page re-written with its /Contents as an array and the font added to its resources. Every
/// PDF reader shows it.
pub fn append_drawing(pdf: &[u8], page: u32, text: &str) -> Vec<u8> {
    let doc = Document::load_mem(pdf).unwrap();
    let page_id = doc.get_pages()[&page];
    let mut page_dict = doc.get_dictionary(page_id).unwrap().clone();
    let size = u32::try_from(doc.trailer.get(b"Size").unwrap().as_i64().unwrap()).unwrap();
    let (font_id, content_id) = (size, size + 1);
    let mut contents = match page_dict.get(b"Contents").unwrap() {
        Object::Array(items) => items.clone(),
        other => vec![other.clone()],
    };
    contents.push(Object::Reference((content_id, 0)));
    page_dict.set("Contents", Object::Array(contents));
    let mut resources = match page_dict.get(b"Resources").unwrap() {
        Object::Reference(id) => doc.get_dictionary(*id).unwrap().clone(),
        other => other.as_dict().unwrap().clone(),
    };
    let mut fonts = match resources.get(b"Font") {
        Ok(Object::Reference(id)) => doc.get_dictionary(*id).unwrap().clone(),
        Ok(other) => other.as_dict().unwrap().clone(),
        Err(_) => lopdf::Dictionary::new(),
    };
    fonts.set("FAtk", Object::Reference((font_id, 0)));
    resources.set("Font", Object::Dictionary(fonts));
    page_dict.set("Resources", Object::Dictionary(resources));
    let drawing = format!("q 1 0 0 rg BT /FAtk 28 Tf 40 420 Td ({text}) Tj ET Q");
    let stream = format!("<</Length {}>>\nstream\n{drawing}\nendstream", drawing.len());
    append_update(
        pdf,
        &[
            (page_id.0, pdf_syntax(&Object::Dictionary(page_dict)).into_bytes()),
            (
                font_id,
                b"<</Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding>>".to_vec(),
            ),
            (content_id, stream.into_bytes()),
        ],
    )
}

/// The first second of `id`'s certificate: a signing time it is valid at (certificates made by
/// OpenSSL start at the moment they are made, which no fixed test time can know).
pub fn valid_from(id: &planner_sign::Identity) -> Timestamp {
    let nb = id.certificate().not_before;
    let n = |from: usize, len: usize| nb[from..from + len].parse::<u16>().unwrap();
    Timestamp::new(
        n(0, 4),
        u8::try_from(n(5, 2)).unwrap(),
        u8::try_from(n(8, 2)).unwrap(),
        u8::try_from(n(11, 2)).unwrap(),
        u8::try_from(n(14, 2)).unwrap(),
        u8::try_from(n(17, 2)).unwrap(),
    )
    .unwrap()
}
