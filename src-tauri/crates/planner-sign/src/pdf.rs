//! Signing by incremental update, and verification of every signature in a PDF.

use crate::cms;
use crate::error::SignError;
use crate::identity::{CertificateInfo, Identity, describe};
use crate::time::{Timestamp, pdf_date_to_iso};
use lopdf::{Dictionary, Document, Object, ObjectId, StringFormat};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// Bytes reserved for the CMS signature (written as twice as many hex digits): enough for an
/// RSA-4096 signature with a chain of a few RSA-4096 certificates.
const CONTENTS_RESERVE: usize = 16 * 1024;
/// The /ByteRange placeholder; patched in place with the same width.
const BYTE_RANGE_PLACEHOLDER: &str = "[0 0000000000 0000000000 0000000000]";

/// Which page carries a visible signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageChoice {
    /// The last page.
    Last,
    /// A page by index, 0 for the first.
    Index(usize),
}

/// A visible signature block.
#[derive(Debug, Clone, PartialEq)]
pub struct Appearance {
    /// The page to draw it on.
    pub page: PageChoice,
    /// Its rectangle in points: x1 y1 x2 y2 (PDF user space, origin bottom left).
    pub rect: [f32; 4],
    /// Text lines drawn in the box (Helvetica; characters outside WinAnsi become `?`).
    pub lines: Vec<String>,
}

/// What to write in the signature.
#[derive(Debug, Clone)]
pub struct SignRequest<'a> {
    /// The signer's name (/Name).
    pub signer_name: &'a str,
    /// Why (/Reason), e.g. "Author: approves the decision".
    pub reason: Option<&'a str>,
    /// Where (/Location).
    pub location: Option<&'a str>,
    /// When (/M): PAdES takes the signing time from here.
    pub time: Timestamp,
    /// A visible block, or `None` for an invisible signature.
    pub appearance: Option<Appearance>,
}

/// One signature found in a PDF, and what checking it found.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SignatureReport {
    /// The form field's full name (/T).
    pub field: String,
    /// /Name.
    pub signer_name: Option<String>,
    /// /Reason.
    pub reason: Option<String>,
    /// /Location.
    pub location: Option<String>,
    /// /M as ISO 8601 UTC.
    pub signing_time: Option<String>,
    /// The signer's certificate, when the signature carries it.
    pub certificate: Option<CertificateInfo>,
    /// /ByteRange (zeros when missing or malformed).
    #[cfg_attr(feature = "specta", specta(type = Vec<f64>))]
    pub byte_range: [u64; 4],
    /// SHA-256 of the byte range equals the signed message-digest attribute.
    pub digest_ok: bool,
    /// The CMS signature over the signed attributes verifies with the certificate's key.
    pub signature_ok: bool,
    /// The byte range is `[0 a b c]`, skips only the /Contents value and ends at the end of a
    /// revision (`%%EOF`).
    pub covers_revision: bool,
    /// Bytes appended after this signature's revision (0 when it covers the whole file); what
    /// they change other than later signatures is listed in `problems`.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub later_bytes: u64,
    /// Every reason the signature is not intact, in words.
    pub problems: Vec<String>,
}

impl SignatureReport {
    /// The signed revision is exactly as signed, by the key of the included certificate, which
    /// was valid at the signing time (/M); and nothing but later signatures was added after it.
    pub fn intact(&self) -> bool {
        self.digest_ok && self.signature_ok && self.covers_revision && self.problems.is_empty()
    }
}

/// Every signature of a PDF.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Verification {
    /// In the order they were added (by the end of their byte range).
    pub signatures: Vec<SignatureReport>,
    /// Length of the file checked.
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub file_len: u64,
}

impl Verification {
    /// At least one signature, and every one intact.
    ///
    /// Intact includes what follows each signed revision: only later signatures may be added
    /// after it (see the `changes` module); any other change (an incremental update that draws
    /// on a page, a new annotation, bytes after the last `%%EOF`) is a problem of every
    /// signature before it, "modified after signing", with the object and page named.
    pub fn all_intact(&self) -> bool {
        !self.signatures.is_empty() && self.signatures.iter().all(SignatureReport::intact)
    }

    /// Bytes after the end of the last signed revision (0 when the last signature covers the
    /// whole file, or when there is no signature).
    pub fn unsigned_tail(&self) -> u64 {
        self.signatures.last().map_or(0, |s| s.later_bytes)
    }
}

// ---------------------------------------------------------------------------------------------
// Reading

fn load(pdf: &[u8]) -> Result<Document, SignError> {
    let head = &pdf[..pdf.len().min(1024)];
    if !head.windows(5).any(|w| w == b"%PDF-") {
        return Err(SignError::NotPdf("it does not start with a %PDF- header".to_owned()));
    }
    // lopdf is a parser of untrusted input; a panic inside it must not take the app down.
    let loaded = std::panic::catch_unwind(|| Document::load_mem(pdf));
    let what = match loaded {
        Ok(Ok(doc)) => return Ok(doc),
        Ok(Err(e)) => unreadable_part(&e),
        Err(_) => "its structure cannot be read".to_owned(),
    };
    Err(damaged(pdf, &what))
}

/// What a lopdf error says could not be read, in words.
fn unreadable_part(e: &lopdf::Error) -> String {
    use lopdf::Error as E;
    // lopdf does not export its parse and xref error types: their text tells them apart.
    let inner = match e {
        E::Xref(x) => x.to_string(),
        E::Parse(p) => p.to_string(),
        _ => String::new(),
    };
    let part = match e {
        E::Xref(_) if inner.contains("Prev") => {
            "an earlier revision's cross-reference table (its /Prev offset) cannot be read".to_owned()
        }
        E::Xref(_) | E::MissingXrefEntry => {
            "its cross-reference table (the index of its objects) cannot be read".to_owned()
        }
        E::Parse(_) if inner.contains("cross reference") => {
            "its cross-reference table (the index of its objects) cannot be read".to_owned()
        }
        E::Parse(_) if inner.contains("trailer") => "its trailer cannot be read".to_owned(),
        E::Parse(_) if inner.contains("header") => "its %PDF header cannot be read".to_owned(),
        E::Parse(_) if inner.contains("end of input") => "it ends too early (truncated)".to_owned(),
        E::IndirectObject { offset } => format!("the object at byte {offset} cannot be read"),
        E::InvalidOffset(offset) => format!("an object offset ({offset}) points outside the file"),
        E::ObjectNotFound((n, g)) => format!("object {n} {g} is missing"),
        E::ObjectIdMismatch => "an object is not where the cross-reference table says".to_owned(),
        _ => "its structure cannot be read".to_owned(),
    };
    format!("{part} ({})", crate::error::shorten(&e.to_string()))
}

/// The error for bytes that start as a PDF but cannot be read.
fn damaged(pdf: &[u8], what: &str) -> SignError {
    if raw_byte_ranges(pdf).is_empty() {
        SignError::Damaged(format!("the PDF is damaged and cannot be read: {what}"))
    } else {
        SignError::Damaged(format!(
            "the signed PDF is damaged or was altered after signing, and cannot be read: {what}"
        ))
    }
}

/// The offset after the last `startxref` keyword.
fn last_startxref(pdf: &[u8]) -> Option<u64> {
    let key = b"startxref";
    let pos = pdf.windows(key.len()).rposition(|w| w == key)?;
    let rest = pdf.get(pos + key.len()..)?;
    let digits: String = rest
        .iter()
        .skip_while(|b| b.is_ascii_whitespace())
        .take_while(|b| b.is_ascii_digit())
        .map(|b| char::from(*b))
        .collect();
    digits.parse().ok()
}

fn deref<'a>(doc: &'a Document, obj: &'a Object) -> &'a Object {
    doc.dereference(obj).map_or(obj, |(_, o)| o)
}

fn dict_of<'a>(doc: &'a Document, obj: &'a Object) -> Option<&'a Dictionary> {
    deref(doc, obj).as_dict().ok()
}

fn get<'a>(doc: &'a Document, dict: &'a Dictionary, key: &[u8]) -> Option<&'a Object> {
    dict.get(key).ok().map(|o| deref(doc, o))
}

/// A PDF text string as Rust text (UTF-16BE with BOM, or PDFDocEncoding read as Latin-1).
fn text(bytes: &[u8]) -> String {
    if let Some(rest) = bytes.strip_prefix(&[0xfe, 0xff]) {
        let units: Vec<u16> = rest.chunks_exact(2).map(|c| u16::from_be_bytes([c[0], c[1]])).collect();
        return String::from_utf16_lossy(&units);
    }
    if let Some(rest) = bytes.strip_prefix(&[0xef, 0xbb, 0xbf]) {
        return String::from_utf8_lossy(rest).into_owned();
    }
    bytes.iter().map(|b| char::from(*b)).collect()
}

fn string_entry(doc: &Document, dict: &Dictionary, key: &[u8]) -> Option<String> {
    get(doc, dict, key).and_then(|o| o.as_str().ok()).map(text)
}

// ---------------------------------------------------------------------------------------------
// Writing

fn write_name(out: &mut Vec<u8>, name: &[u8]) {
    out.push(b'/');
    for &b in name {
        let regular = (0x21..=0x7e).contains(&b) && !b"()<>[]{}/%#".contains(&b);
        if regular {
            out.push(b);
        } else {
            let _ = write!(Hex(out), "#{b:02X}");
        }
    }
}

/// `fmt::Write` onto a byte vector.
struct Hex<'a>(&'a mut Vec<u8>);

impl std::fmt::Write for Hex<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

fn write_literal(out: &mut Vec<u8>, bytes: &[u8]) {
    out.push(b'(');
    for &b in bytes {
        match b {
            b'(' | b')' | b'\\' => {
                out.push(b'\\');
                out.push(b);
            }
            0x20..=0x7e => out.push(b),
            _ => {
                let _ = write!(Hex(out), "\\{b:03o}");
            }
        }
    }
    out.push(b')');
}

/// A real number in the shortest text that reads back as the same `f32` (Rust's `Display`
/// never uses an exponent). Rewritten dictionaries (the page, the catalog) must keep their
/// numbers exactly: validators compare the old and new versions key by key.
fn write_real(out: &mut Vec<u8>, v: f32) {
    let v = if v.is_finite() { v } else { 0.0 };
    let s = if v == 0.0 { "0".to_owned() } else { v.to_string() };
    out.extend_from_slice(s.as_bytes());
}

fn write_object(out: &mut Vec<u8>, obj: &Object) -> Result<(), SignError> {
    match obj {
        Object::Null => out.extend_from_slice(b"null"),
        Object::Boolean(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        Object::Integer(i) => out.extend_from_slice(i.to_string().as_bytes()),
        Object::Real(r) => write_real(out, *r),
        Object::Name(n) => write_name(out, n),
        Object::String(bytes, StringFormat::Literal) => write_literal(out, bytes),
        Object::String(bytes, StringFormat::Hexadecimal) => {
            out.push(b'<');
            out.extend_from_slice(crate::identity::hex(bytes).as_bytes());
            out.push(b'>');
        }
        Object::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b' ');
                }
                write_object(out, item)?;
            }
            out.push(b']');
        }
        Object::Dictionary(d) => write_dict(out, d)?,
        Object::Stream(_) => {
            return Err(SignError::UnsupportedPdf(
                "a stream appears where only a direct object may".to_owned(),
            ));
        }
        Object::Reference((id, generation)) => {
            let _ = write!(Hex(out), "{id} {generation} R");
        }
    }
    Ok(())
}

fn write_dict(out: &mut Vec<u8>, dict: &Dictionary) -> Result<(), SignError> {
    out.extend_from_slice(b"<<");
    for (key, value) in dict.iter() {
        write_name(out, key);
        out.push(b' ');
        write_object(out, value)?;
    }
    out.extend_from_slice(b">>");
    Ok(())
}

/// A text string: literal when printable ASCII, else UTF-16BE with a byte order mark.
fn text_string(s: &str) -> Object {
    if s.chars().all(|c| (' '..='~').contains(&c)) {
        Object::String(s.as_bytes().to_vec(), StringFormat::Literal)
    } else {
        let mut bytes = vec![0xfe, 0xff];
        bytes.extend(s.encode_utf16().flat_map(u16::to_be_bytes));
        Object::String(bytes, StringFormat::Hexadecimal)
    }
}

/// One character in WinAnsiEncoding, `?` when it has none; `None` for control characters.
fn win_ansi(c: char) -> Option<u8> {
    let special = [
        ('€', 0x80),
        ('‚', 0x82),
        ('ƒ', 0x83),
        ('„', 0x84),
        ('…', 0x85),
        ('†', 0x86),
        ('‡', 0x87),
        ('ˆ', 0x88),
        ('‰', 0x89),
        ('Š', 0x8a),
        ('‹', 0x8b),
        ('Œ', 0x8c),
        ('Ž', 0x8e),
        ('‘', 0x91),
        ('’', 0x92),
        ('“', 0x93),
        ('”', 0x94),
        ('•', 0x95),
        ('–', 0x96),
        ('—', 0x97),
        ('˜', 0x98),
        ('™', 0x99),
        ('š', 0x9a),
        ('›', 0x9b),
        ('œ', 0x9c),
        ('ž', 0x9e),
        ('Ÿ', 0x9f),
    ];
    match c {
        ' '..='~' | '\u{a0}'..='\u{ff}' => u8::try_from(u32::from(c)).ok(),
        '\t' => Some(b' '),
        c if c.is_control() => None,
        c => Some(special.iter().find(|(s, _)| *s == c).map_or(b'?', |(_, b)| *b)),
    }
}

/// Approximate Helvetica advance widths in ems, enough to fit a line in the box.
fn em_width(b: u8) -> f32 {
    match b {
        b'i' | b'j' | b'l' | b'\'' | b'.' | b',' | b':' | b';' | b'!' | b'|' => 0.25,
        b' ' | b'f' | b't' | b'I' | b'r' | b'(' | b')' | b'[' | b']' | b'/' | b'-' => 0.33,
        b'm' | b'M' | b'w' | b'W' | b'@' => 0.85,
        b'A'..=b'Z' | b'#'..=b'&' | 0xc0..=0xde => 0.68,
        _ => 0.56,
    }
}

/// The appearance stream's content and box size for `appearance`.
fn appearance_content(appearance: &Appearance, w: f32, h: f32) -> Vec<u8> {
    let lines: Vec<Vec<u8>> = appearance
        .lines
        .iter()
        .map(|l| l.chars().filter_map(win_ansi).collect())
        .collect();
    let pad = 4.0_f32.min(w / 8.0).min(h / 8.0);
    let count = lines.len().max(1) as f32;
    let widest = lines
        .iter()
        .map(|l| l.iter().map(|b| em_width(*b)).sum::<f32>())
        .fold(0.0_f32, f32::max);
    let mut size = ((h - 2.0 * pad) / (count * 1.2)).min(10.0);
    if widest > 0.0 {
        size = size.min((w - 2.0 * pad) / widest);
    }
    let size = size.max(1.0);
    let leading = size * 1.2;
    let mut c = Vec::new();
    let _ = write!(Hex(&mut c), "q 0.5 w 0.2 0.2 0.2 RG ");
    write_real(&mut c, 0.25);
    c.push(b' ');
    write_real(&mut c, 0.25);
    c.push(b' ');
    write_real(&mut c, (w - 0.5).max(0.0));
    c.push(b' ');
    write_real(&mut c, (h - 0.5).max(0.0));
    c.extend_from_slice(b" re S Q\nBT /Helv ");
    write_real(&mut c, size);
    c.extend_from_slice(b" Tf 0 g ");
    write_real(&mut c, leading);
    c.extend_from_slice(b" TL ");
    write_real(&mut c, pad);
    c.push(b' ');
    write_real(&mut c, h - pad - size * 0.9);
    c.extend_from_slice(b" Td\n");
    for (i, line) in lines.iter().enumerate() {
        if i > 0 {
            c.extend_from_slice(b"T* ");
        }
        write_literal(&mut c, line);
        c.extend_from_slice(b" Tj\n");
    }
    c.extend_from_slice(b"ET\n");
    c
}

/// Builds the incremental update as it is written: objects in order with their offsets.
struct Update {
    out: Vec<u8>,
    offsets: BTreeMap<u32, (u16, usize)>,
}

impl Update {
    fn begin(&mut self, id: ObjectId) {
        self.offsets.insert(id.0, (id.1, self.out.len()));
        let _ = writeln!(Hex(&mut self.out), "{} {} obj", id.0, id.1);
    }

    fn end(&mut self) {
        self.out.extend_from_slice(b"\nendobj\n");
    }

    fn object(&mut self, id: ObjectId, obj: &Object) -> Result<(), SignError> {
        self.begin(id);
        write_object(&mut self.out, obj)?;
        self.end();
        Ok(())
    }

    fn xref(&mut self) -> usize {
        let start = self.out.len();
        self.out.extend_from_slice(b"xref\n");
        let entries: Vec<(u32, (u16, usize))> = self.offsets.iter().map(|(k, v)| (*k, *v)).collect();
        let mut i = 0;
        while i < entries.len() {
            let mut j = i;
            while j + 1 < entries.len() && entries[j + 1].0 == entries[j].0 + 1 {
                j += 1;
            }
            let _ = writeln!(Hex(&mut self.out), "{} {}", entries[i].0, j - i + 1);
            for (_, (generation, offset)) in &entries[i..=j] {
                let _ = writeln!(Hex(&mut self.out), "{offset:010} {generation:05} n ");
            }
            i = j + 1;
        }
        start
    }
}

fn field_names(doc: &Document, fields: &[Object], prefix: &str, names: &mut BTreeSet<String>, depth: usize) {
    if depth > 32 {
        return;
    }
    for f in fields {
        let Some(d) = dict_of(doc, f) else { continue };
        let own = string_entry(doc, d, b"T").unwrap_or_default();
        let full = if prefix.is_empty() {
            own
        } else {
            format!("{prefix}.{own}")
        };
        names.insert(full.clone());
        if let Some(kids) = get(doc, d, b"Kids").and_then(|k| k.as_array().ok()) {
            field_names(doc, kids, &full, names, depth + 1);
        }
    }
}

/// Signs `pdf`: appends an incremental update holding a new signature field and its PAdES
/// B-B signature. Earlier signatures stay valid.
///
/// Refused when the signer's certificate is not valid at the signing time (`request.time`):
/// such a signature would never verify, so it is better not made.
pub fn sign(pdf: &[u8], identity: &Identity, request: &SignRequest) -> Result<Vec<u8>, SignError> {
    // The fields of a Timestamp are public: check the calendar before writing /M.
    request.time.unix_seconds()?;
    let cert = identity.certificate();
    if let Some(why) = validity_problem(&cert, &request.time.iso8601()) {
        return Err(SignError::CertificateNotValid(format!(
            "{why}; a signature made now would not be valid. Make or import an identity whose certificate is valid today, or check the computer's clock"
        )));
    }
    sign_unchecked(pdf, identity, request)
}

/// Why `cert` is not valid at `at` (ISO 8601 UTC, as [`Timestamp::iso8601`] writes it), or
/// `None` when it is. The ISO forms compare as the times they stand for.
fn validity_problem(cert: &CertificateInfo, at: &str) -> Option<String> {
    let name = crate::error::shorten(cert.common_name.as_deref().unwrap_or(&cert.subject));
    if at > cert.not_after.as_str() {
        Some(format!(
            "the certificate of {name} expired on {} (signed {at})",
            cert.not_after
        ))
    } else if at < cert.not_before.as_str() {
        Some(format!(
            "the certificate of {name} was not yet valid until {} (signed {at})",
            cert.not_before
        ))
    } else {
        None
    }
}

/// [`sign`] without the certificate's validity check (tests make signatures by expired
/// certificates with it, as another program could).
///
/// The signature is an incremental update: the file as it is, then a signature dictionary, a
/// widget on the chosen page (with its appearance when visible), the page, form and catalog
/// re-written to point at it, a cross-reference and a trailer; then the byte range is patched in
/// and the CMS signature over those bytes written into the space reserved for it.
fn sign_unchecked(pdf: &[u8], identity: &Identity, request: &SignRequest) -> Result<Vec<u8>, SignError> {
    let doc = load(pdf)?;
    if doc.is_encrypted() || doc.trailer.get(b"Encrypt").is_ok() {
        return Err(SignError::UnsupportedPdf(
            "it is encrypted; remove the password protection first".to_owned(),
        ));
    }
    let prev = last_startxref(pdf)
        .ok_or_else(|| SignError::UnsupportedPdf("it has no startxref (cross-reference) at its end".to_owned()))?;
    let root_id = doc
        .trailer
        .get(b"Root")
        .and_then(Object::as_reference)
        .map_err(|_| SignError::UnsupportedPdf("its trailer names no catalog (/Root)".to_owned()))?;
    let mut catalog = doc
        .get_object(root_id)
        .and_then(Object::as_dict)
        .map_err(|_| SignError::UnsupportedPdf("its catalog (/Root) is not a dictionary".to_owned()))?
        .clone();
    let page_id = signed_page(&doc, request)?;
    let mut page = doc
        .get_object(page_id)
        .and_then(Object::as_dict)
        .map_err(|_| SignError::UnsupportedPdf("a page is not a dictionary".to_owned()))?
        .clone();

    // The form: existing fields stay, the new one is added.
    let Form {
        id: acro_id,
        dict: mut acro,
        mut fields,
        field_name,
    } = open_form(&doc, &catalog);

    let size = doc
        .trailer
        .get(b"Size")
        .and_then(Object::as_i64)
        .ok()
        .and_then(|s| u32::try_from(s).ok())
        .unwrap_or(0)
        .max(doc.max_id + 1);
    let ids = NewIds {
        sig: (size, 0),
        widget: (size + 1, 0),
        appearance: (size + 2, 0),
        page: page_id,
    };

    fields.push(Object::Reference(ids.widget));
    acro.set("Fields", Object::Array(fields));
    acro.set("SigFlags", Object::Integer(3));
    if acro_id.is_none() {
        catalog.set("AcroForm", Object::Dictionary(acro.clone()));
    }
    declare_pades_extension(&doc, &mut catalog);

    let mut annots: Vec<Object> = page
        .get(b"Annots")
        .ok()
        .map(|a| deref(&doc, a))
        .and_then(|a| a.as_array().ok())
        .cloned()
        .unwrap_or_default();
    annots.push(Object::Reference(ids.widget));
    page.set("Annots", Object::Array(annots));

    let (widget, appearance_stream) = signature_widget(request, &field_name, &ids)?;
    let new_size = if appearance_stream.is_some() {
        size + 3
    } else {
        size + 2
    };

    // The update, appended after the file as it is.
    let mut up = Update {
        out: Vec::with_capacity(pdf.len() + CONTENTS_RESERVE * 2 + 4096),
        offsets: BTreeMap::new(),
    };
    up.out.extend_from_slice(pdf);
    if !matches!(pdf.last(), Some(b'\n' | b'\r')) {
        up.out.push(b'\n');
    }
    let slots = up.signature_dictionary(ids.sig, request)?;
    up.object(ids.widget, &Object::Dictionary(widget))?;
    if let Some((content, w, h)) = appearance_stream {
        up.appearance(ids.appearance, &content, w, h)?;
    }
    up.object(page_id, &Object::Dictionary(page))?;
    if let Some(id) = acro_id {
        up.object(id, &Object::Dictionary(acro))?;
    }
    up.object(root_id, &Object::Dictionary(catalog))?;

    up.trailer(&doc, root_id, new_size, prev)?;
    seal(up.out, identity, &slots)
}

/// The objects a signature adds, and the page it goes on.
struct NewIds {
    sig: ObjectId,
    widget: ObjectId,
    appearance: ObjectId,
    page: ObjectId,
}

/// Where the signature dictionary's byte range and /Contents hex string were written.
struct Slots {
    byte_range_at: usize,
    contents_at: usize,
    contents_end: usize,
}

/// The document's form, as the signature re-writes it.
struct Form {
    /// The form's object, when the catalog refers to one (else it is written in the catalog).
    id: Option<ObjectId>,
    dict: Dictionary,
    fields: Vec<Object>,
    /// A field name no field of the form has yet: `Signature1`, `Signature2`…
    field_name: String,
}

/// The document's form (/AcroForm) with its fields, and the name for a new signature field.
fn open_form(doc: &Document, catalog: &Dictionary) -> Form {
    let (id, dict) = match catalog.get(b"AcroForm") {
        Ok(Object::Reference(id)) => (
            Some(*id),
            doc.get_object(*id)
                .and_then(Object::as_dict)
                .cloned()
                .unwrap_or_default(),
        ),
        Ok(Object::Dictionary(d)) => (None, d.clone()),
        _ => (None, Dictionary::new()),
    };
    let fields: Vec<Object> = dict
        .get(b"Fields")
        .ok()
        .map(|f| deref(doc, f))
        .and_then(|f| f.as_array().ok())
        .cloned()
        .unwrap_or_default();
    let mut names = BTreeSet::new();
    field_names(doc, &fields, "", &mut names, 0);
    let field_name = (1..)
        .map(|n| format!("Signature{n}"))
        .find(|n| !names.contains(n))
        .unwrap_or_else(|| "Signature".to_owned());
    Form {
        id,
        dict,
        fields,
        field_name,
    }
}

/// The page the signature's widget goes on: the first unless the appearance names one.
fn signed_page(doc: &Document, request: &SignRequest) -> Result<ObjectId, SignError> {
    let pages = doc.get_pages();
    match request.appearance.as_ref().map(|a| a.page) {
        None => pages.values().next().copied(),
        Some(PageChoice::Last) => pages.values().next_back().copied(),
        Some(PageChoice::Index(i)) => {
            let page = u32::try_from(i).ok().and_then(|i| pages.get(&(i + 1))).copied();
            if page.is_none() {
                return Err(SignError::BadRequest(format!(
                    "page index {i} does not exist; the PDF has {} page(s), indexed from 0",
                    pages.len()
                )));
            }
            page
        }
    }
    .ok_or_else(|| SignError::UnsupportedPdf("it has no pages".to_owned()))
}

/// PAdES: declares the ETSI developer extension in the catalog, unless it is there already.
fn declare_pades_extension(doc: &Document, catalog: &mut Dictionary) {
    let mut extensions = catalog
        .get(b"Extensions")
        .ok()
        .and_then(|e| dict_of(doc, e))
        .cloned()
        .unwrap_or_default();
    if extensions.get(b"ESIC").is_err() {
        let mut esic = Dictionary::new();
        esic.set("BaseVersion", Object::Name(b"1.7".to_vec()));
        esic.set("ExtensionLevel", Object::Integer(2));
        extensions.set("ESIC", Object::Dictionary(esic));
        catalog.set("Extensions", Object::Dictionary(extensions));
    }
}

/// A visible signature's appearance stream: its content and its width and height in points.
type AppearanceStream = (Vec<u8>, f32, f32);

/// The signature field's widget (printed and locked): invisible, or in the appearance's box
/// with the content of its appearance stream and the stream's width and height.
fn signature_widget(
    request: &SignRequest,
    field_name: &str,
    ids: &NewIds,
) -> Result<(Dictionary, Option<AppearanceStream>), SignError> {
    let mut widget = Dictionary::new();
    widget.set("Type", Object::Name(b"Annot".to_vec()));
    widget.set("Subtype", Object::Name(b"Widget".to_vec()));
    widget.set("FT", Object::Name(b"Sig".to_vec()));
    widget.set("T", text_string(field_name));
    widget.set("V", Object::Reference(ids.sig));
    widget.set("P", Object::Reference(ids.page));
    let Some(a) = &request.appearance else {
        widget.set("Rect", Object::Array(vec![0.into(), 0.into(), 0.into(), 0.into()]));
        // Print + Locked.
        widget.set("F", Object::Integer(132));
        return Ok((widget, None));
    };
    let [x1, y1, x2, y2] = a.rect;
    let (lx, hx) = (x1.min(x2), x1.max(x2));
    let (ly, hy) = (y1.min(y2), y1.max(y2));
    let (w, h) = (hx - lx, hy - ly);
    if !(w.is_finite() && h.is_finite()) || w < 1.0 || h < 1.0 {
        return Err(SignError::BadRequest(format!(
            "the signature box {:?} is empty; give x1 y1 x2 y2 in points with some width and height",
            a.rect
        )));
    }
    widget.set(
        "Rect",
        Object::Array(vec![
            Object::Real(lx),
            Object::Real(ly),
            Object::Real(hx),
            Object::Real(hy),
        ]),
    );
    widget.set("F", Object::Integer(132));
    let mut ap = Dictionary::new();
    ap.set("N", Object::Reference(ids.appearance));
    widget.set("AP", Object::Dictionary(ap));
    Ok((widget, Some((appearance_content(a, w, h), w, h))))
}

/// Patches the byte range (everything but the /Contents hex string, at the placeholder's
/// width) into the finished update, signs those bytes and writes the signature into /Contents.
fn seal(mut out: Vec<u8>, identity: &Identity, slots: &Slots) -> Result<Vec<u8>, SignError> {
    let Slots {
        byte_range_at,
        contents_at,
        contents_end,
    } = *slots;
    let total = out.len();
    let range = format!("[0 {contents_at} {contents_end} {}]", total - contents_end);
    if range.len() > BYTE_RANGE_PLACEHOLDER.len() {
        return Err(SignError::UnsupportedPdf(
            "it is too large to sign (over 9 GB)".to_owned(),
        ));
    }
    let padded = format!("{range:<width$}", width = BYTE_RANGE_PLACEHOLDER.len());
    out[byte_range_at..byte_range_at + padded.len()].copy_from_slice(padded.as_bytes());

    let digest = Sha256::new()
        .chain_update(&out[..contents_at])
        .chain_update(&out[contents_end..])
        .finalize();
    let cms_der = cms::sign_digest(identity, &digest)?;
    if cms_der.len() > CONTENTS_RESERVE {
        return Err(SignError::SignatureTooLarge {
            needed: cms_der.len(),
            reserved: CONTENTS_RESERVE,
        });
    }
    let hex = crate::identity::hex(&cms_der);
    out[contents_at + 1..contents_at + 1 + hex.len()].copy_from_slice(hex.as_bytes());
    Ok(out)
}

impl Update {
    /// The signature dictionary, written by hand to know where /ByteRange and /Contents are:
    /// both are placeholders until the update is complete.
    fn signature_dictionary(&mut self, id: ObjectId, request: &SignRequest) -> Result<Slots, SignError> {
        self.begin(id);
        self.out
            .extend_from_slice(b"<</Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /ByteRange ");
        let byte_range_at = self.out.len();
        self.out.extend_from_slice(BYTE_RANGE_PLACEHOLDER.as_bytes());
        self.out.extend_from_slice(b" /Contents ");
        let contents_at = self.out.len();
        self.out.push(b'<');
        self.out.resize(self.out.len() + CONTENTS_RESERVE * 2, b'0');
        self.out.push(b'>');
        let contents_end = self.out.len();
        self.out.extend_from_slice(b" /M ");
        write_object(&mut self.out, &text_string(&request.time.pdf_date()))?;
        self.out.extend_from_slice(b" /Name ");
        write_object(&mut self.out, &text_string(request.signer_name))?;
        if let Some(reason) = request.reason {
            self.out.extend_from_slice(b" /Reason ");
            write_object(&mut self.out, &text_string(reason))?;
        }
        if let Some(location) = request.location {
            self.out.extend_from_slice(b" /Location ");
            write_object(&mut self.out, &text_string(location))?;
        }
        self.out.extend_from_slice(b">>");
        self.end();
        Ok(Slots {
            byte_range_at,
            contents_at,
            contents_end,
        })
    }

    /// The cross-reference of the update and its trailer (size, catalog, the document's info
    /// and ID, the previous cross-reference), ending the revision.
    fn trailer(&mut self, doc: &Document, root_id: ObjectId, new_size: u32, prev: u64) -> Result<(), SignError> {
        let xref_at = self.xref();
        let mut trailer = Dictionary::new();
        trailer.set("Size", Object::Integer(i64::from(new_size)));
        trailer.set("Root", Object::Reference(root_id));
        if let Ok(info) = doc.trailer.get(b"Info") {
            trailer.set("Info", info.clone());
        }
        if let Ok(id) = doc.trailer.get(b"ID") {
            trailer.set("ID", id.clone());
        }
        trailer.set("Prev", Object::Integer(i64::try_from(prev).unwrap_or(0)));
        self.out.extend_from_slice(b"trailer\n");
        write_dict(&mut self.out, &trailer)?;
        let _ = write!(Hex(&mut self.out), "\nstartxref\n{xref_at}\n%%EOF\n");
        Ok(())
    }

    /// The visible signature's appearance: a form XObject `w` × `h` points drawing `content` in
    /// Helvetica.
    fn appearance(&mut self, id: ObjectId, content: &[u8], w: f32, h: f32) -> Result<(), SignError> {
        let mut font = Dictionary::new();
        font.set("Type", Object::Name(b"Font".to_vec()));
        font.set("Subtype", Object::Name(b"Type1".to_vec()));
        font.set("BaseFont", Object::Name(b"Helvetica".to_vec()));
        font.set("Encoding", Object::Name(b"WinAnsiEncoding".to_vec()));
        let mut fonts = Dictionary::new();
        fonts.set("Helv", Object::Dictionary(font));
        let mut resources = Dictionary::new();
        resources.set("Font", Object::Dictionary(fonts));
        let mut xobject = Dictionary::new();
        xobject.set("Type", Object::Name(b"XObject".to_vec()));
        xobject.set("Subtype", Object::Name(b"Form".to_vec()));
        xobject.set(
            "BBox",
            Object::Array(vec![0.into(), 0.into(), Object::Real(w), Object::Real(h)]),
        );
        xobject.set("Resources", Object::Dictionary(resources));
        xobject.set("Length", Object::Integer(i64::try_from(content.len()).unwrap_or(0)));
        self.begin(id);
        write_dict(&mut self.out, &xobject)?;
        self.out.extend_from_slice(b"\nstream\n");
        self.out.extend_from_slice(content);
        self.out.extend_from_slice(b"\nendstream");
        self.end();
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Verifying

struct FoundSig {
    field: String,
    dict: Dictionary,
}

fn collect_fields(
    doc: &Document,
    fields: &[Object],
    prefix: &str,
    out: &mut Vec<FoundSig>,
    seen: &mut BTreeSet<ObjectId>,
    depth: usize,
) {
    if depth > 32 {
        return;
    }
    for f in fields {
        if let Object::Reference(id) = f
            && !seen.insert(*id)
        {
            continue;
        }
        let Some(d) = dict_of(doc, f) else { continue };
        let own = string_entry(doc, d, b"T");
        let full = match (prefix.is_empty(), own) {
            (true, Some(o)) => o,
            (true, None) => String::new(),
            (false, Some(o)) => format!("{prefix}.{o}"),
            (false, None) => prefix.to_owned(),
        };
        let is_sig = get(doc, d, b"FT").and_then(|o| o.as_name().ok()) == Some(b"Sig".as_slice());
        if is_sig && let Some(v) = get(doc, d, b"V").and_then(|o| o.as_dict().ok()) {
            out.push(FoundSig {
                field: full.clone(),
                dict: v.clone(),
            });
        }
        if let Some(kids) = get(doc, d, b"Kids").and_then(|k| k.as_array().ok()) {
            collect_fields(doc, kids, &full, out, seen, depth + 1);
        }
    }
}

fn is_hex_or_space(b: u8) -> bool {
    b.is_ascii_hexdigit() || b.is_ascii_whitespace()
}

fn decode_hex(bytes: &[u8]) -> Vec<u8> {
    let digits: Vec<u8> = bytes
        .iter()
        .filter(|b| b.is_ascii_hexdigit())
        .map(|b| match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            _ => b - b'A' + 10,
        })
        .collect();
    digits
        .chunks(2)
        .map(|c| (c[0] << 4) | c.get(1).copied().unwrap_or(0))
        .collect()
}

fn check_signature(doc: &Document, pdf: &[u8], found: &FoundSig) -> SignatureReport {
    let d = &found.dict;
    let mut report = SignatureReport {
        field: found.field.clone(),
        signer_name: string_entry(doc, d, b"Name"),
        reason: string_entry(doc, d, b"Reason"),
        location: string_entry(doc, d, b"Location"),
        signing_time: string_entry(doc, d, b"M").and_then(|m| pdf_date_to_iso(&m)),
        certificate: None,
        byte_range: [0; 4],
        digest_ok: false,
        signature_ok: false,
        covers_revision: false,
        later_bytes: 0,
        problems: Vec::new(),
    };
    let pades = signature_format(doc, d, &mut report);
    let Some(ByteRange { start, a, b, end_us }) = byte_range(doc, d, pdf, &mut report) else {
        return report;
    };

    // What the byte range leaves out must be exactly the /Contents hex string.
    let gap = pdf.get(a..b).unwrap_or_default();
    let gap_is_contents = gap.len() >= 2
        && gap.first() == Some(&b'<')
        && gap.last() == Some(&b'>')
        && gap[1..gap.len() - 1].iter().all(|x| is_hex_or_space(*x));
    let signed_end = pdf.get(..end_us).unwrap_or_default();
    let trimmed_len = signed_end
        .iter()
        .rposition(|x| !x.is_ascii_whitespace())
        .map_or(0, |p| p + 1);
    let ends_at_eof = signed_end[..trimmed_len].ends_with(b"%%EOF");
    if start != 0 {
        report
            .problems
            .push("the /ByteRange does not start at the beginning of the file".to_owned());
    }
    if !gap_is_contents {
        report.problems.push(
            "the bytes left out of the /ByteRange are not just the signature value: other content is unsigned"
                .to_owned(),
        );
    }
    if !ends_at_eof {
        report
            .problems
            .push("the /ByteRange does not end at the end of a revision (%%EOF)".to_owned());
    }
    report.covers_revision = start == 0 && gap_is_contents && ends_at_eof;

    let contents = if gap_is_contents {
        decode_hex(&gap[1..gap.len() - 1])
    } else {
        get(doc, d, b"Contents")
            .and_then(|o| o.as_str().ok())
            .map(<[u8]>::to_vec)
            .unwrap_or_default()
    };
    if let Some(dict_contents) = get(doc, d, b"Contents").and_then(|o| o.as_str().ok())
        && gap_is_contents
        && dict_contents != contents.as_slice()
    {
        report.problems.push(
            "the signature value left out of the /ByteRange is not the one in the signature dictionary".to_owned(),
        );
    }
    let digest = Sha256::new()
        .chain_update(pdf.get(start..a).unwrap_or_default())
        .chain_update(pdf.get(b..end_us).unwrap_or_default())
        .finalize();
    let checked = cms::check(&contents, &digest, pades);
    report.digest_ok = checked.digest_ok;
    report.signature_ok = checked.signature_ok;
    report.problems.extend(checked.problems);
    report.certificate = checked
        .certificate
        .as_ref()
        .map(|(cert, der_bytes)| describe(cert, der_bytes));
    if let Some(cert) = &report.certificate {
        match &report.signing_time {
            Some(at) => report.problems.extend(validity_problem(cert, at)),
            None => report.problems.push(
                "the signature has no readable signing time (/M), so the certificate's validity when signing cannot be checked"
                    .to_owned(),
            ),
        }
    }
    report
}

/// Whether the signature is PAdES (`ETSI.CAdES.detached`) rather than PKCS#7; any other format
/// is reported.
fn signature_format(doc: &Document, d: &Dictionary, report: &mut SignatureReport) -> bool {
    let sub_filter = get(doc, d, b"SubFilter")
        .and_then(|o| o.as_name().ok())
        .map(|n| String::from_utf8_lossy(n).into_owned());
    match sub_filter.as_deref() {
        Some("ETSI.CAdES.detached") => true,
        Some("adbe.pkcs7.detached") => false,
        other => {
            report.problems.push(format!(
                "signature format {} is not supported (only ETSI.CAdES.detached and adbe.pkcs7.detached)",
                crate::error::shorten(other.unwrap_or("(none)"))
            ));
            false
        }
    }
}

/// The signed ranges of the file, as offsets: `start..a` and `b..end_us`.
struct ByteRange {
    start: usize,
    a: usize,
    b: usize,
    end_us: usize,
}

/// The signature's /ByteRange, checked against the file (four numbers, in order, inside the
/// file); records it and the bytes after it in `report`. `None`, reported, when unusable.
fn byte_range(doc: &Document, d: &Dictionary, pdf: &[u8], report: &mut SignatureReport) -> Option<ByteRange> {
    let range: Option<Vec<u64>> = get(doc, d, b"ByteRange").and_then(|o| o.as_array().ok()).and_then(|a| {
        a.iter()
            .map(|x| x.as_i64().ok().and_then(|v| u64::try_from(v).ok()))
            .collect()
    });
    let Some([r0, r1, r2, r3]) = range.as_deref().and_then(|r| <[u64; 4]>::try_from(r).ok()) else {
        report
            .problems
            .push("the /ByteRange is missing or is not four non-negative numbers".to_owned());
        return None;
    };
    report.byte_range = [r0, r1, r2, r3];
    let len = pdf.len() as u64;
    let end = r2.checked_add(r3);
    let (Some(end), true) = (end, r0.checked_add(r1).is_some_and(|e| e <= r2)) else {
        report
            .problems
            .push("the /ByteRange overlaps itself or overflows".to_owned());
        return None;
    };
    if end > len {
        report.problems.push(format!(
            "the /ByteRange runs to byte {end}, past the end of the file ({len} bytes): the file was truncated"
        ));
        return None;
    }
    let (Ok(a), Ok(b), Ok(start), Ok(end_us)) = (
        usize::try_from(r1),
        usize::try_from(r2),
        usize::try_from(r0),
        usize::try_from(end),
    ) else {
        report.problems.push("the /ByteRange is too large".to_owned());
        return None;
    };
    report.later_bytes = len - end;
    Some(ByteRange { start, a, b, end_us })
}

/// Every `/ByteRange` key in the raw bytes, with its four numbers when they can be read.
fn raw_byte_ranges(pdf: &[u8]) -> Vec<(usize, Option<[u64; 4]>)> {
    let key = b"/ByteRange";
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(pos) = pdf
        .get(from..)
        .and_then(|rest| rest.windows(key.len()).position(|w| w == key))
    {
        let at = from + pos;
        from = at + key.len();
        let rest = pdf.get(from..).unwrap_or_default();
        let range = (|| {
            let end = rest.iter().take(128).position(|b| *b == b']')?;
            let text = std::str::from_utf8(rest.get(..end)?).ok()?;
            let numbers: Vec<u64> = text
                .trim_start()
                .strip_prefix('[')?
                .split_ascii_whitespace()
                .map(str::parse)
                .collect::<Result<_, _>>()
                .ok()?;
            <[u64; 4]>::try_from(numbers).ok()
        })();
        found.push((at, range));
    }
    found
}

/// Finds every signature field in `pdf` (all revisions) and checks each signature.
///
/// Fails only when the bytes are not a readable PDF; a PDF without signatures gives an empty
/// list (and [`Verification::all_intact`] false).
pub fn verify(pdf: &[u8]) -> Result<Verification, SignError> {
    let doc = load(pdf)?;
    let mut found = Vec::new();
    let mut seen = BTreeSet::new();
    let acro_fields = doc
        .trailer
        .get(b"Root")
        .ok()
        .and_then(|r| dict_of(&doc, r))
        .and_then(|c| get(&doc, c, b"AcroForm"))
        .and_then(|a| a.as_dict().ok())
        .and_then(|a| get(&doc, a, b"Fields"))
        .and_then(|f| f.as_array().ok())
        .cloned()
        .unwrap_or_default();
    collect_fields(&doc, &acro_fields, "", &mut found, &mut seen, 0);
    let mut signatures: Vec<SignatureReport> = found.iter().map(|f| check_signature(&doc, pdf, f)).collect();
    // Signature dictionaries no form field points at (left behind, or hidden).
    let referenced: BTreeSet<Vec<u8>> = found
        .iter()
        .filter_map(|f| {
            f.dict
                .get(b"Contents")
                .ok()
                .and_then(|c| c.as_str().ok())
                .map(<[u8]>::to_vec)
        })
        .collect();
    for obj in doc.objects.values() {
        let Ok(d) = obj.as_dict() else { continue };
        let has_range = d.get(b"ByteRange").is_ok() && d.get(b"Contents").is_ok();
        let contents = d.get(b"Contents").ok().and_then(|c| c.as_str().ok());
        if has_range && contents.is_some_and(|c| !referenced.contains(c)) {
            let mut report = check_signature(
                &doc,
                pdf,
                &FoundSig {
                    field: String::new(),
                    dict: d.clone(),
                },
            );
            report
                .problems
                .push("this signature is not attached to any form field".to_owned());
            signatures.push(report);
        }
    }
    // Every /ByteRange in the raw bytes must belong to a signature checked above: a signature
    // dictionary the parser could not read (a damaged or altered file) is reported, not ignored.
    for (at, range) in raw_byte_ranges(pdf) {
        if range.is_some_and(|r| signatures.iter().any(|s| s.byte_range == r)) {
            continue;
        }
        signatures.push(SignatureReport {
            field: String::new(),
            signer_name: None,
            reason: None,
            location: None,
            signing_time: None,
            certificate: None,
            byte_range: range.unwrap_or([0; 4]),
            digest_ok: false,
            signature_ok: false,
            covers_revision: false,
            later_bytes: 0,
            problems: vec![format!(
                "a signature dictionary at byte {at} cannot be read: the file is damaged or was changed"
            )],
        });
    }
    // What was appended after each signed revision may only be later signatures.
    let mut changes: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    for s in &mut signatures {
        let Some(end) = s.byte_range[2]
            .checked_add(s.byte_range[3])
            .and_then(|e| usize::try_from(e).ok())
        else {
            continue;
        };
        if !s.covers_revision || s.later_bytes == 0 || end > pdf.len() {
            continue;
        }
        let found = changes.entry(end).or_insert_with(|| match load(&pdf[..end]) {
            Ok(old) => crate::changes::modifications(pdf, end, &old, &doc),
            Err(e) => vec![format!(
                "the signed revision cannot be read on its own ({e}), so what was added after it cannot be checked"
            )],
        });
        s.problems
            .extend(found.iter().map(|c| format!("modified after signing: {c}")));
    }
    signatures.sort_by_key(|s| (s.byte_range[2] + s.byte_range[3], s.field.clone()));
    Ok(Verification {
        signatures,
        file_len: pdf.len() as u64,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn written(obj: &Object) -> String {
        let mut out = Vec::new();
        write_object(&mut out, obj).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn reals_keep_their_value_without_exponents() {
        for (v, text) in [
            (595.27563_f32, "595.27563"),
            (841.88983, "841.88983"),
            (0.1, "0.1"),
            (72.0, "72"),
            (-0.0, "0"),
            (0.0000001, "0.0000001"),
            (f32::NAN, "0"),
        ] {
            assert_eq!(written(&Object::Real(v)), text);
        }
        // What lopdf reads back is the same f32.
        let v = 595.27563_f32;
        assert_eq!(written(&Object::Real(v)).parse::<f32>().unwrap(), v);
    }

    #[test]
    fn names_and_strings_are_escaped() {
        assert_eq!(written(&Object::Name(b"A B/C#".to_vec())), "/A#20B#2FC#23");
        assert_eq!(
            written(&Object::String(b"a(b)c\\d\n".to_vec(), StringFormat::Literal)),
            "(a\\(b\\)c\\\\d\\012)"
        );
        assert_eq!(written(&text_string("Plain (ASCII)")), "(Plain \\(ASCII\\))");
        assert_eq!(written(&text_string("Zoë")), "<feff005a006f00eb>");
        assert_eq!(text(&[0xfe, 0xff, 0x00, 0x5a, 0x00, 0xeb]), "Zë");
    }

    #[test]
    fn appearance_text_is_win_ansi() {
        assert_eq!(win_ansi('€'), Some(0x80));
        assert_eq!(win_ansi('—'), Some(0x97));
        assert_eq!(win_ansi('é'), Some(0xe9));
        assert_eq!(win_ansi('漢'), Some(b'?'));
        assert_eq!(win_ansi('\u{7}'), None);
        let a = Appearance {
            page: PageChoice::Last,
            rect: [0.0, 0.0, 200.0, 40.0],
            lines: vec!["Tom's (draft) \\ €5".to_owned()],
        };
        let content = appearance_content(&a, 200.0, 40.0);
        let s = String::from_utf8_lossy(&content);
        assert!(s.contains("(Tom's \\(draft\\) \\\\ \\2005) Tj"), "{s}");
        assert!(s.contains(" re S Q"), "{s}");
    }

    #[test]
    fn byte_ranges_are_found_in_raw_bytes() {
        let raw = b"1 0 obj <</ByteRange [0 10 20 30] /Contents <00>>> endobj /ByteRange[1 2]";
        assert_eq!(raw_byte_ranges(raw), vec![(10, Some([0, 10, 20, 30])), (58, None)]);
    }
}
