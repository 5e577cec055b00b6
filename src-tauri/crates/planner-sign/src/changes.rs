//! What was changed after a signature: the modification analysis of the revisions appended
//! after a signed revision.
//!
//! A signed revision may be followed only by later signatures. The rule, checked object by
//! object between the signed revision (the file cut at the end of the signature's byte range)
//! and the file as a reader shows it (the last revision):
//!
//! - new signature widgets (`/Subtype /Widget` with `/FT /Sig`, on the widget or its parent
//!   field), their signature dictionaries (`/V`, with a `/ByteRange`), and new objects reached
//!   from their appearance (`/AP`), e.g. the appearance stream and its fonts;
//! - a page re-written with only `/Annots` changed, and only by adding signature widgets;
//! - the catalog re-written with only `/AcroForm` and `/Extensions` changed; the form only by
//!   adding signature fields to `/Fields` and setting `/SigFlags`;
//! - the document information (`/Info`) with only `/ModDate` and `/Producer` changed: signing
//!   tools update them; a changed title, author, subject or keywords is reported (a reader shows
//!   the title in its window), which is stricter than pyHanko.
//!
//! Anything else is a modification after signing, named with its object, what kind of change it
//! is and the page involved: a new or changed content stream, a page's `/Contents` or
//! resources, fonts, annotations that are not signature widgets, pages added or removed, a
//! different catalog, encryption added, XMP metadata changed (pyHanko accepts metadata updates;
//! we do not), objects written after signing that the cross-reference does not use (hidden
//! objects some readers recover), and bytes after the last `%%EOF`.

use lopdf::{Dictionary, Document, Object, ObjectId};
use std::collections::{BTreeMap, BTreeSet};

/// Objects reachable from one page (its own dictionary excluded): how far to walk.
const PAGE_DEPTH: usize = 6;
/// The most changes listed one by one; the rest are counted.
const LISTED: usize = 12;

fn deref<'a>(doc: &'a Document, obj: &'a Object) -> &'a Object {
    doc.dereference(obj).map_or(obj, |(_, o)| o)
}

fn dict_of<'a>(doc: &'a Document, obj: &'a Object) -> Option<&'a Dictionary> {
    match deref(doc, obj) {
        Object::Dictionary(d) => Some(d),
        Object::Stream(s) => Some(&s.dict),
        _ => None,
    }
}

fn name_of(doc: &Document, dict: &Dictionary, key: &[u8]) -> Option<String> {
    dict.get(key)
        .ok()
        .map(|o| deref(doc, o))
        .and_then(|o| o.as_name().ok())
        .map(|n| String::from_utf8_lossy(n).into_owned())
}

fn id_text(id: ObjectId) -> String {
    format!("{} {}", id.0, id.1)
}

/// The array under `key` (resolved), as a list of its entries.
fn array_of(doc: &Document, dict: &Dictionary, key: &[u8]) -> Vec<Object> {
    dict.get(key)
        .ok()
        .map(|o| deref(doc, o))
        .and_then(|o| o.as_array().ok())
        .cloned()
        .unwrap_or_default()
}

/// The object id behind `key` when it is a reference.
fn reference_of(dict: &Dictionary, key: &[u8]) -> Option<ObjectId> {
    dict.get(key).ok().and_then(|o| o.as_reference().ok())
}

/// The keys whose values differ between two dictionaries, except those in `skip`.
fn differing_keys(old: &Dictionary, new: &Dictionary, skip: &[&[u8]]) -> Vec<String> {
    let mut keys: BTreeSet<Vec<u8>> = old.iter().map(|(k, _)| k.clone()).collect();
    keys.extend(new.iter().map(|(k, _)| k.clone()));
    keys.into_iter()
        .filter(|k| !skip.contains(&k.as_slice()))
        .filter(|k| old.get(k).ok() != new.get(k).ok())
        .map(|k| format!("/{}", String::from_utf8_lossy(&k)))
        .collect()
}

/// A signature widget: `/Subtype /Widget` and `/FT /Sig` on it or on its parent field.
fn is_sig_widget(doc: &Document, dict: &Dictionary) -> bool {
    let widget = name_of(doc, dict, b"Subtype").as_deref() == Some("Widget");
    let ft = name_of(doc, dict, b"FT").or_else(|| {
        dict.get(b"Parent")
            .ok()
            .and_then(|p| dict_of(doc, p))
            .and_then(|p| name_of(doc, p, b"FT"))
    });
    widget && ft.as_deref() == Some("Sig")
}

/// A short description of an object: "content stream", "font", "annotation (Text)", …
fn kind(doc: &Document, obj: &Object, content_streams: &BTreeSet<ObjectId>, id: ObjectId) -> String {
    if content_streams.contains(&id) {
        return "content stream".to_owned();
    }
    let (dict, stream) = match obj {
        Object::Stream(s) => (Some(&s.dict), true),
        Object::Dictionary(d) => (Some(d), false),
        _ => (None, false),
    };
    let Some(dict) = dict else {
        return match obj {
            Object::Array(_) => "array".to_owned(),
            _ => "value".to_owned(),
        };
    };
    let ty = name_of(doc, dict, b"Type");
    let sub = name_of(doc, dict, b"Subtype");
    match (ty.as_deref(), sub.as_deref()) {
        (Some("Annot") | None, Some(s)) if dict.get(b"Rect").is_ok() => format!("annotation ({s})"),
        (Some("Font"), _) => "font".to_owned(),
        (Some("XObject"), Some(s)) | (None, Some(s @ ("Form" | "Image"))) => format!("{s} XObject"),
        (Some("Page"), _) => "page".to_owned(),
        (Some("Pages"), _) => "page tree".to_owned(),
        (Some("Catalog"), _) => "document catalog".to_owned(),
        (Some("Metadata"), _) => "XMP metadata".to_owned(),
        (Some("Sig"), _) => "signature dictionary".to_owned(),
        (Some(t), _) => format!("{t} {}", if stream { "stream" } else { "dictionary" }),
        (None, _) if stream => "stream".to_owned(),
        (None, _) => "dictionary".to_owned(),
    }
}

/// Page numbers (from 1) that use each object: its content streams, resources and annotations.
fn page_users(doc: &Document) -> (BTreeMap<ObjectId, BTreeSet<u32>>, BTreeSet<ObjectId>) {
    let mut users: BTreeMap<ObjectId, BTreeSet<u32>> = BTreeMap::new();
    let mut contents = BTreeSet::new();
    for (number, page_id) in doc.get_pages() {
        users.entry(page_id).or_default().insert(number);
        let Some(page) = doc.objects.get(&page_id).and_then(|o| o.as_dict().ok()) else {
            continue;
        };
        match page.get(b"Contents") {
            Ok(Object::Reference(id)) => {
                contents.insert(*id);
                if let Ok(Object::Array(items)) = doc.get_object(*id) {
                    contents.extend(items.iter().filter_map(|i| i.as_reference().ok()));
                }
            }
            Ok(Object::Array(items)) => contents.extend(items.iter().filter_map(|i| i.as_reference().ok())),
            _ => {}
        }
        let mut seen = BTreeSet::new();
        let mut stack: Vec<(&Object, usize)> = page
            .iter()
            .filter(|(k, _)| k.as_slice() != b"Parent")
            .map(|(_, v)| (v, 0))
            .collect();
        while let Some((obj, depth)) = stack.pop() {
            if depth > PAGE_DEPTH {
                continue;
            }
            match obj {
                Object::Reference(id) => {
                    if *id == page_id || !seen.insert(*id) {
                        continue;
                    }
                    users.entry(*id).or_default().insert(number);
                    if let Some(o) = doc.objects.get(id) {
                        stack.push((o, depth + 1));
                    }
                }
                Object::Array(items) => stack.extend(items.iter().map(|i| (i, depth))),
                Object::Dictionary(d) => stack.extend(
                    d.iter()
                        .filter(|(k, _)| !matches!(k.as_slice(), b"Parent" | b"P"))
                        .map(|(_, v)| (v, depth)),
                ),
                Object::Stream(s) => stack.extend(s.dict.iter().map(|(_, v)| (v, depth))),
                _ => {}
            }
        }
    }
    (users, contents)
}

fn pages_text(pages: Option<&BTreeSet<u32>>) -> String {
    match pages.map(|p| p.iter().collect::<Vec<_>>()) {
        Some(p) if p.len() == 1 => format!(" on page {}", p[0]),
        Some(p) if !p.is_empty() => format!(
            " on pages {}",
            p.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
        ),
        _ => String::new(),
    }
}

/// Every object (by number) written in `tail` at the start of a line, with its offset in the
/// whole file (`base` is where the tail starts).
fn raw_objects(tail: &[u8], base: usize) -> Vec<(u32, usize)> {
    let mut found = Vec::new();
    for (i, _) in tail.iter().enumerate() {
        let line_start = i == 0 || matches!(tail.get(i - 1), Some(b'\n' | b'\r'));
        if !line_start || !tail.get(i).is_some_and(u8::is_ascii_digit) {
            continue;
        }
        let rest = tail.get(i..).unwrap_or_default();
        let num_len = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        let after_num = rest.get(num_len..).unwrap_or_default();
        let sp1 = after_num.iter().take_while(|b| **b == b' ').count();
        let after_sp = after_num.get(sp1..).unwrap_or_default();
        let gen_len = after_sp.iter().take_while(|b| b.is_ascii_digit()).count();
        let after_gen = after_sp.get(gen_len..).unwrap_or_default();
        let sp2 = after_gen.iter().take_while(|b| b.is_ascii_whitespace()).count();
        let is_obj = sp1 > 0 && gen_len > 0 && sp2 > 0 && after_gen.get(sp2..).is_some_and(|r| r.starts_with(b"obj"));
        let number = std::str::from_utf8(rest.get(..num_len).unwrap_or_default())
            .ok()
            .and_then(|s| s.parse::<u32>().ok());
        if let (true, Some(n)) = (is_obj, number) {
            found.push((n, base + i));
        }
    }
    found
}

/// The changes after the revision that ends at `signed_end` that are not later signatures, in
/// words. `old` is that revision read on its own, `new` the whole file.
pub(crate) fn modifications(pdf: &[u8], signed_end: usize, old: &Document, new: &Document) -> Vec<String> {
    let tail = pdf.get(signed_end..).unwrap_or_default();
    if tail.iter().all(u8::is_ascii_whitespace) {
        return Vec::new();
    }
    let mut c = Changes {
        old,
        new,
        found: Vec::new(),
        allowed: BTreeSet::new(),
        widgets: BTreeSet::new(),
    };
    c.incomplete_revision(pdf, tail);
    let (root_old, root_new) = c.trailer();
    c.page_list();
    let page_numbers: BTreeMap<ObjectId, u32> = new.get_pages().into_iter().map(|(n, id)| (id, n)).collect();
    for (&page_id, &number) in &page_numbers {
        c.page(page_id, number);
    }
    c.allow_signature_widgets();
    if let (Some(rid), true) = (root_new, root_old == root_new) {
        c.catalog(rid);
    }
    c.info();
    let mut others = c.other_objects();
    others.extend(hidden_objects(tail, signed_end, new));
    let mut found = c.found;
    found.extend(others);
    if found.len() > LISTED {
        let more = found.len() - LISTED;
        found.truncate(LISTED);
        found.push(format!("and {more} more change(s)"));
    }
    found
}

/// The comparison of a signed revision (`old`) with the whole file (`new`): what changed, in
/// words, and the objects that later signatures may add or re-write.
struct Changes<'d> {
    old: &'d Document,
    new: &'d Document,
    found: Vec<String>,
    allowed: BTreeSet<ObjectId>,
    /// Signature widgets added to the pages.
    widgets: BTreeSet<ObjectId>,
}

impl Changes<'_> {
    /// Bytes after the last `%%EOF`: an unfinished revision.
    fn incomplete_revision(&mut self, pdf: &[u8], tail: &[u8]) {
        let trimmed = tail
            .iter()
            .rposition(|b| !b.is_ascii_whitespace())
            .map_or(&[][..], |p| &tail[..=p]);
        if !trimmed.ends_with(b"%%EOF") {
            self.found.push(format!(
                "the file does not end with a complete revision: bytes after the last %%EOF were added (the file ends at byte {})",
                pdf.len()
            ));
        }
    }

    /// The trailer: the same catalog, no encryption added. Returns the catalog before and after.
    fn trailer(&mut self) -> (Option<ObjectId>, Option<ObjectId>) {
        let (old, new) = (self.old, self.new);
        let root_old = reference_of(&old.trailer, b"Root");
        let root_new = reference_of(&new.trailer, b"Root");
        if root_old != root_new {
            self.found.push(format!(
                "the document catalog was replaced (the trailer names object {} instead of {})",
                root_new.map_or_else(|| "none".to_owned(), id_text),
                root_old.map_or_else(|| "none".to_owned(), id_text)
            ));
        }
        if new.trailer.get(b"Encrypt").is_ok() && old.trailer.get(b"Encrypt").is_err() {
            self.found.push("encryption was added".to_owned());
        }
        (root_old, root_new)
    }

    /// The same pages, in the same order.
    fn page_list(&mut self) {
        let old_pages: Vec<ObjectId> = self.old.get_pages().into_values().collect();
        let new_pages: Vec<ObjectId> = self.new.get_pages().into_values().collect();
        if old_pages != new_pages {
            self.found.push(format!(
                "the pages changed: {} page(s) were signed, the file now has {}{}",
                old_pages.len(),
                new_pages.len(),
                if old_pages.len() == new_pages.len() {
                    " (pages were replaced or reordered)"
                } else {
                    ""
                }
            ));
        }
    }

    /// One page: its annotations (only signature widgets may be added) and its other keys.
    fn page(&mut self, page_id: ObjectId, number: u32) {
        let (old, new) = (self.old, self.new);
        let (Some(Object::Dictionary(page_old)), Some(Object::Dictionary(page_new))) =
            (old.objects.get(&page_id), new.objects.get(&page_id))
        else {
            return;
        };
        let page_ok = self.annotations(number, page_old, page_new);
        if page_ok && let Ok(Object::Reference(aid)) = page_new.get(b"Annots") {
            self.allowed.insert(*aid);
        }
        let keys = differing_keys(page_old, page_new, &[b"Annots"]);
        if keys.is_empty() {
            if page_ok {
                self.allowed.insert(page_id);
            }
        } else {
            self.allowed.insert(page_id);
            let what = if keys.iter().any(|k| k == "/Contents") {
                " (what the page draws)"
            } else {
                ""
            };
            self.found.push(format!(
                "page {number} (object {}): its {} changed{what}",
                id_text(page_id),
                keys.join(", ")
            ));
        }
    }

    /// A page's annotations: none removed, and every one added a signature widget (remembered
    /// in `widgets`). Whether the page's annotations changed only that way.
    fn annotations(&mut self, number: u32, page_old: &Dictionary, page_new: &Dictionary) -> bool {
        let (old, new) = (self.old, self.new);
        let annots_old = array_of(old, page_old, b"Annots");
        let annots_new = array_of(new, page_new, b"Annots");
        let mut page_ok = true;
        for a in &annots_old {
            if !annots_new.contains(a) {
                page_ok = false;
                self.found.push(format!(
                    "page {number}: annotation {} was removed",
                    a.as_reference().map_or_else(|_| "(direct)".to_owned(), id_text)
                ));
            }
        }
        for a in annots_new.iter().filter(|a| !annots_old.contains(a)) {
            let Ok(wid) = a.as_reference() else {
                page_ok = false;
                self.found.push(format!(
                    "page {number}: an annotation written in the page itself was added"
                ));
                continue;
            };
            match new.objects.get(&wid).and_then(|o| o.as_dict().ok()) {
                Some(w) if is_sig_widget(new, w) => {
                    self.widgets.insert(wid);
                }
                Some(w) => {
                    page_ok = false;
                    let sub =
                        crate::error::shorten(&name_of(new, w, b"Subtype").unwrap_or_else(|| "no subtype".to_owned()));
                    self.found.push(format!(
                        "page {number}: annotation {} ({sub}) was added, and it is not a signature field",
                        id_text(wid)
                    ));
                }
                None => {
                    page_ok = false;
                    self.found.push(format!(
                        "page {number}: annotation {} was added but cannot be read",
                        id_text(wid)
                    ));
                }
            }
        }
        page_ok
    }

    /// A signature widget's signature dictionary and its appearance (new objects only).
    fn allow_signature_widgets(&mut self) {
        let (old, new) = (self.old, self.new);
        for wid in &self.widgets {
            let Some(w) = new.objects.get(wid).and_then(|o| o.as_dict().ok()) else {
                continue;
            };
            if !old.objects.contains_key(wid) || old.objects.get(wid) == new.objects.get(wid) {
                self.allowed.insert(*wid);
            }
            if let Some(pid) = reference_of(w, b"Parent")
                && !old.objects.contains_key(&pid)
                && new
                    .objects
                    .get(&pid)
                    .and_then(|o| o.as_dict().ok())
                    .is_some_and(|p| name_of(new, p, b"FT").as_deref() == Some("Sig"))
            {
                self.allowed.insert(pid);
            }
            if let Some(vid) = reference_of(w, b"V")
                && !old.objects.contains_key(&vid)
                && new
                    .objects
                    .get(&vid)
                    .and_then(|o| o.as_dict().ok())
                    .is_some_and(|v| v.get(b"ByteRange").is_ok())
            {
                self.allowed.insert(vid);
            }
            let mut stack: Vec<&Object> = w.get(b"AP").ok().into_iter().collect();
            let mut seen = BTreeSet::new();
            while let Some(obj) = stack.pop() {
                match obj {
                    Object::Reference(id) => {
                        if old.objects.contains_key(id) || !seen.insert(*id) {
                            continue;
                        }
                        self.allowed.insert(*id);
                        if let Some(o) = new.objects.get(id) {
                            stack.push(o);
                        }
                    }
                    Object::Array(items) => stack.extend(items.iter()),
                    Object::Dictionary(d) => stack.extend(d.iter().map(|(_, v)| v)),
                    Object::Stream(s) => stack.extend(s.dict.iter().map(|(_, v)| v)),
                    _ => {}
                }
            }
        }
    }

    /// The catalog `rid` (the same object before and after): only its form and extensions may
    /// change.
    fn catalog(&mut self, rid: ObjectId) {
        let (old, new) = (self.old, self.new);
        let (Some(cat_old), Some(cat_new)) = (
            old.objects.get(&rid).and_then(|o| o.as_dict().ok()),
            new.objects.get(&rid).and_then(|o| o.as_dict().ok()),
        ) else {
            return;
        };
        let keys = differing_keys(cat_old, cat_new, &[b"AcroForm", b"Extensions"]);
        self.allowed.insert(rid);
        if !keys.is_empty() {
            self.found.push(format!(
                "the document catalog (object {}): its {} changed",
                id_text(rid),
                keys.join(", ")
            ));
        }
        if let Ok(Object::Reference(eid)) = cat_new.get(b"Extensions") {
            self.allowed.insert(*eid);
        }
        let empty = Dictionary::new();
        let form_old = cat_old
            .get(b"AcroForm")
            .ok()
            .and_then(|f| dict_of(old, f))
            .unwrap_or(&empty);
        if let Some(form_new) = cat_new.get(b"AcroForm").ok().and_then(|f| dict_of(new, f)) {
            self.form(form_old, form_new);
            if let Ok(Object::Reference(fid)) = cat_new.get(b"AcroForm") {
                self.allowed.insert(*fid);
            }
        }
    }

    /// The form: only its fields and signature flags may change, and only signature fields be
    /// added.
    fn form(&mut self, form_old: &Dictionary, form_new: &Dictionary) {
        let (old, new) = (self.old, self.new);
        let keys = differing_keys(form_old, form_new, &[b"Fields", b"SigFlags"]);
        if !keys.is_empty() {
            self.found
                .push(format!("the form (/AcroForm): its {} changed", keys.join(", ")));
        }
        let fields_old = array_of(old, form_old, b"Fields");
        let fields_new = array_of(new, form_new, b"Fields");
        let mut fields_ok = true;
        for f in &fields_old {
            if !fields_new.contains(f) {
                fields_ok = false;
                self.found.push(format!(
                    "the form (/AcroForm): field {} was removed",
                    f.as_reference().map_or_else(|_| "(direct)".to_owned(), id_text)
                ));
            }
        }
        for f in fields_new.iter().filter(|f| !fields_old.contains(f)) {
            let sig_field = f.as_reference().is_ok_and(|id| {
                self.widgets.contains(&id) || self.allowed.contains(&id) && !old.objects.contains_key(&id)
            });
            if !sig_field {
                fields_ok = false;
                self.found.push(format!(
                    "the form (/AcroForm): field {} was added, and it is not a signature field",
                    f.as_reference().map_or_else(|_| "(direct)".to_owned(), id_text)
                ));
            }
        }
        if fields_ok && let Ok(Object::Reference(fid)) = form_new.get(b"Fields") {
            self.allowed.insert(*fid);
        }
    }

    /// The document information: only the dates and producer signing tools update.
    fn info(&mut self) {
        let (old, new) = (self.old, self.new);
        let info_old = reference_of(&old.trailer, b"Info");
        let Some(iid) = reference_of(&new.trailer, b"Info") else {
            return;
        };
        let empty = Dictionary::new();
        let d_old = info_old
            .and_then(|i| old.objects.get(&i))
            .and_then(|o| o.as_dict().ok())
            .unwrap_or(&empty);
        let d_new = new.objects.get(&iid).and_then(|o| o.as_dict().ok()).unwrap_or(&empty);
        let keys = differing_keys(d_old, d_new, &[b"ModDate", b"Producer"]);
        self.allowed.insert(iid);
        if !keys.is_empty() {
            self.found.push(format!(
                "the document information (object {}): its {} changed",
                id_text(iid),
                keys.join(", ")
            ));
        }
    }

    /// Every other object that differs, with the pages that use it.
    fn other_objects(&self) -> Vec<String> {
        let (old, new) = (self.old, self.new);
        let (users, content_streams) = page_users(new);
        let ids: BTreeSet<ObjectId> = old.objects.keys().chain(new.objects.keys()).copied().collect();
        let mut others = Vec::new();
        for id in ids {
            let (o, n) = (old.objects.get(&id), new.objects.get(&id));
            if o == n || self.allowed.contains(&id) {
                continue;
            }
            let pages = users.get(&id);
            let line = match (o, n) {
                (None, Some(n)) => format!(
                    "object {} ({}) was added{}",
                    id_text(id),
                    kind(new, n, &content_streams, id),
                    pages_text(pages)
                ),
                (Some(o), None) => format!(
                    "object {} ({}) was removed",
                    id_text(id),
                    kind(old, o, &content_streams, id)
                ),
                (Some(_), Some(n)) => format!(
                    "object {} ({}) was changed{}",
                    id_text(id),
                    kind(new, n, &content_streams, id),
                    pages_text(pages)
                ),
                (None, None) => continue,
            };
            others.push(line);
        }
        others
    }
}

/// Objects written after signing that the cross-reference does not use, and that no later
/// revision writes again: hidden from the comparison, but a reader that rebuilds a damaged
/// cross-reference would show them.
fn hidden_objects(tail: &[u8], signed_end: usize, new: &Document) -> Vec<String> {
    let raw = raw_objects(tail, signed_end);
    let mut out = Vec::new();
    for (i, (number, at)) in raw.iter().enumerate() {
        let used = matches!(
            new.reference_table.get(*number),
            Some(lopdf::xref::XrefEntry::Normal { offset, .. }) if usize::try_from(*offset).ok() == Some(*at)
        );
        let rewritten = raw.get(i + 1..).is_some_and(|r| r.iter().any(|(n, _)| n == number));
        if !used && !rewritten {
            out.push(format!(
                "object {number} written at byte {at} is not in the cross-reference (a hidden object)"
            ));
        }
    }
    out
}
