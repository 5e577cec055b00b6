//! Text the memo cannot print as written, found before anything is laid out, so the memo is
//! refused with the field, the characters and what to do, instead of showing empty boxes or
//! garbled letters (issue #14).
//!
//! printpdf sets text one character after another, left to right, each with its default glyph:
//! it does no bidirectional reordering and no shaping. Latin, Greek, Cyrillic and CJK text (the
//! scripts the embedded typefaces cover, see [`crate::fonts`]) come out right that way. Scripts
//! written right to left (Arabic, Hebrew, ...) or whose letters join, stack or reorder (the Indic
//! scripts, Thai, Khmer, Tibetan, ...) do not, even where DejaVu Sans has glyphs for their
//! letters; they are refused by name ([`refused_script`]), as is any character no embedded
//! typeface has a glyph for.
//!
//! The author's own fields (draft, plan title, workspace name, scenario names, override reasons,
//! ...) are checked by name ([`check`]); anything else that reaches the memo is checked in the
//! blocks, named by the section it is in.

use std::fmt::Write as _;

use crate::MemoInput;
use crate::blocks::Block;
pub use crate::fonts::refused_script;
use crate::fonts::{Fonts, Unsettable};

/// The most different characters quoted for one text.
const QUOTED_CHARS: usize = 12;
/// The most texts named in one refusal; the rest are counted.
const NAMED_TEXTS: usize = 4;
/// The most scripts named for one text.
const NAMED_SCRIPTS: usize = 4;
/// The most characters of an id or name quoted in a label.
const LABEL_CHARS: usize = 40;

/// One text the memo cannot print as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsetText {
    /// The memo draft's field it is in (`decision`, `rationale`, `author`, `client`), for a form
    /// to show the problem under the field; `None` for text from elsewhere.
    pub field: Option<String>,
    /// Which text, in words: "the decision text", "the name of scenario `x`".
    pub label: String,
    /// The characters that cannot be set, each once, in order of appearance (at most
    /// [`QUOTED_CHARS`] of them, then "…"), separated by spaces; invisible ones as U+XXXX.
    pub chars: String,
    /// Why, in words: the scripts refused ("Arabic, right to left"), "no glyph in the memo's
    /// fonts", or both.
    pub why: String,
}

/// What to do, the end of every refusal.
pub const ADVICE: &str = "write it in Latin, Greek, Cyrillic or CJK script, or attach it as a separate document";

impl UnsetText {
    /// The problem as a form shows it under the field.
    pub fn message(&self) -> String {
        format!("the memo cannot print “{}” ({}): {ADVICE}", self.chars, self.why)
    }
}

/// The refusal as one message: each text with its characters, why, and what to do.
pub fn describe(texts: &[UnsetText]) -> String {
    let mut out = String::from("some text cannot be printed as written: ");
    for (i, t) in texts.iter().take(NAMED_TEXTS).enumerate() {
        if i > 0 {
            out.push_str("; ");
        }
        let _ = write!(out, "{} has “{}” ({})", t.label, t.chars, t.why);
    }
    if texts.len() > NAMED_TEXTS {
        let _ = write!(out, "; and {} more", texts.len() - NAMED_TEXTS);
    }
    out.push_str(
        ". The memo sets text left to right, one character after another, in DejaVu Sans or \
         WenQuanYi Micro Hei: a script written right to left or whose letters join or reorder \
         would come out garbled, and a character neither has would come out as an empty box. ",
    );
    let mut advice = ADVICE.chars();
    if let Some(first) = advice.next() {
        out.extend(first.to_uppercase());
        out.push_str(advice.as_str());
    }
    out
}

/// Invisible characters are quoted by code point.
fn quoted(c: char) -> String {
    let cp = u32::from(c);
    let invisible = c.is_control()
        || c.is_whitespace()
        || matches!(
            cp,
            0x0300..=0x036F
                | 0x200B..=0x200F
                | 0x202A..=0x202E
                | 0x2060..=0x206F
                | 0xFE00..=0xFE0F
                | 0xFEFF
                | 0xE0000..=0xE0FFF
        );
    if invisible {
        format!("U+{cp:04X}")
    } else {
        c.to_string()
    }
}

/// What in `text` cannot be set, or `None` when all of it can.
pub fn unset(fonts: &Fonts, field: Option<&str>, label: String, text: &str) -> Option<UnsetText> {
    let mut chars: Vec<char> = Vec::new();
    let mut scripts: Vec<&'static str> = Vec::new();
    let mut no_glyph = false;
    for c in text.chars() {
        let Some(why) = fonts.unsettable(c) else {
            continue;
        };
        if !chars.contains(&c) {
            chars.push(c);
        }
        match why {
            Unsettable::Script(s) if !scripts.contains(&s) => scripts.push(s),
            Unsettable::Script(_) => {}
            Unsettable::NoGlyph => no_glyph = true,
        }
    }
    if chars.is_empty() {
        return None;
    }
    let mut quoted_chars: Vec<String> = chars.iter().take(QUOTED_CHARS).map(|c| quoted(*c)).collect();
    if chars.len() > QUOTED_CHARS {
        quoted_chars.push("…".to_owned());
    }
    let mut why: Vec<String> = scripts.iter().take(NAMED_SCRIPTS).map(|s| (*s).to_owned()).collect();
    if scripts.len() > NAMED_SCRIPTS {
        why.push("…".to_owned());
    }
    if no_glyph {
        why.push("no glyph in the memo fonts".to_owned());
    }
    Some(UnsetText {
        field: field.map(str::to_owned),
        label,
        chars: quoted_chars.join(" "),
        why: why.join(", "),
    })
}

/// An id or name as a label quotes it: at most [`LABEL_CHARS`] characters, then "…".
fn short(s: &str) -> String {
    match s.char_indices().nth(LABEL_CHARS) {
        None => s.to_owned(),
        Some((cut, _)) => format!("{}…", &s[..cut]),
    }
}

/// Every text of the memo's input that it cannot print, named: the draft's fields, the plan's
/// title, the workspace's name, where the catalog came from (a pack's publisher), each
/// workload's name and id, and each scenario's name, warnings, workloads, layers and override
/// reasons, the checklist record, and the scorecard's vendors, their scenarios and layers.
pub fn check(input: &MemoInput<'_>, fonts: &Fonts) -> Vec<UnsetText> {
    let mut out = Vec::new();
    let mut check = |field: Option<&str>, label: String, text: &str| {
        if let Some(u) = unset(fonts, field, label, text) {
            out.push(u);
        }
    };
    let d = input.draft;
    check(Some("decision"), "the decision text".to_owned(), &d.decision);
    check(Some("rationale"), "the rationale".to_owned(), &d.rationale);
    check(Some("author"), "the author name".to_owned(), &d.author);
    check(Some("client"), "the client".to_owned(), &d.client);
    check(None, "the plan title".to_owned(), &input.view.title);
    check(None, "the workspace name".to_owned(), input.workspace);
    check(None, "where the catalog came from".to_owned(), input.catalog_statement);
    check(
        None,
        "where the catalog came from".to_owned(),
        &input.catalog_source.describe(),
    );
    for s in &input.view.scenarios {
        check(None, format!("the name of scenario `{}`", short(&s.id)), &s.name);
        check(None, format!("the id of scenario `{}`", short(&s.name)), &s.id);
        for w in &s.warnings {
            check(None, format!("a warning of scenario `{}`", short(&s.id)), w);
        }
    }
    for r in &input.evaluation.scenarios {
        for n in &r.sizing {
            check(None, format!("a workload of scenario `{}`", short(&r.id)), &n.workload);
            check(None, format!("a layer of scenario `{}`", short(&r.id)), &n.layer);
        }
        for p in &r.layer_plans {
            check(None, format!("a layer of scenario `{}`", short(&r.id)), &p.layer);
        }
        for a in &r.assumptions {
            check(None, format!("an assumption of scenario `{}`", short(&r.id)), &a.path);
            if let planner_core::engine::model::assumption::Origin::Override { reason } = &a.origin {
                check(
                    None,
                    format!(
                        "the override reason of `{}` in scenario `{}`",
                        short(&a.path),
                        short(&r.id)
                    ),
                    reason,
                );
            }
        }
    }
    for w in input.workloads {
        check(None, format!("the name of workload `{}`", short(&w.id)), &w.name);
        check(None, format!("the id of workload `{}`", short(&w.name)), &w.id);
        if let Some(a) = &w.gpu_hours_on {
            check(None, format!("the accelerator of workload `{}`", short(&w.id)), a);
        }
    }
    for spec in input.scenarios {
        for l in &spec.layers {
            check(None, format!("a layer of scenario `{}`", short(&spec.id)), &l.id);
        }
    }
    if let Some(c) = input.compliance {
        for (id, _, status) in &c.scenarios {
            check(
                None,
                format!("the checklist status of scenario `{}`", short(id)),
                status,
            );
        }
        if let Some(t) = &c.template {
            check(None, "the checklist template".to_owned(), t);
        }
        check(None, "the checklist log".to_owned(), &c.log);
    }
    if let Some(card) = input.scorecard {
        for e in &card.exits {
            check(None, "a vendor name on the scorecard".to_owned(), &e.vendor);
            for c in &e.commitments {
                check(None, format!("a layer of vendor `{}`", short(&e.vendor)), &c.layer);
            }
        }
        for v in &card.ranked {
            if let Some(name) = &v.scenario_name {
                check(
                    None,
                    format!("the scenario vendor `{}` is priced on", short(&v.name)),
                    name,
                );
            }
        }
        for p in &card.partial {
            if let Some(name) = &p.scenario_name {
                check(
                    None,
                    format!("the scenario vendor `{}` is priced on", short(&p.name)),
                    name,
                );
            }
        }
    }
    dedup(out)
}

/// The same text named twice (a layer id in two tables) is reported once.
fn dedup(texts: Vec<UnsetText>) -> Vec<UnsetText> {
    let mut out: Vec<UnsetText> = Vec::with_capacity(texts.len());
    for t in texts {
        if !out.iter().any(|o| o.label == t.label && o.chars == t.chars) {
            out.push(t);
        }
    }
    out
}

/// Every text in `blocks` the memo cannot print, named by the section it is in: the net under
/// [`check`], for text that reaches the memo from elsewhere (a catalog's sources, say).
pub fn check_blocks(blocks: &[Block], fonts: &Fonts) -> Vec<UnsetText> {
    let mut out = Vec::new();
    let mut section = "the title".to_owned();
    let mut check = |section: &str, text: &str| {
        if let Some(u) = unset(fonts, None, format!("text in {section}"), text) {
            out.push(u);
        }
    };
    for b in blocks {
        match b {
            Block::Title { title, subtitle } => {
                check(&section, title);
                check(&section, subtitle);
            }
            Block::Heading { text, .. } => {
                check(&section, text);
                section = format!("the section “{}”", short(text));
            }
            Block::Subheading(text) => check(&section, text),
            Block::Paragraph { text, .. } => check(&section, text),
            Block::Facts(facts) => {
                for (label, value) in facts {
                    check(&section, label);
                    check(&section, value);
                }
            }
            Block::Table(t) => {
                for c in &t.columns {
                    check(&section, &c.title);
                }
                for r in &t.rows {
                    for cell in &r.cells {
                        check(&section, cell);
                    }
                }
            }
            Block::Chart { caption, .. } => check(&section, caption),
            Block::Gap(_) => {}
        }
    }
    dedup(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fonts::REFUSED;

    #[test]
    fn the_refused_blocks_are_sorted_and_found() {
        assert!(REFUSED.windows(2).all(|w| w[0].1 < w[1].0), "sorted, not overlapping");
        assert!(REFUSED.iter().all(|(s, e, _)| s <= e));
        assert_eq!(refused_script('ا'), Some("Arabic"));
        assert_eq!(refused_script('\u{0590}'), Some("Hebrew"));
        assert_eq!(refused_script('\u{06FF}'), Some("Arabic"));
        assert_eq!(refused_script('क'), Some("Devanagari"));
        assert_eq!(refused_script('\u{200F}'), Some("right-to-left mark"));
        assert_eq!(refused_script('\u{1EFFF}'), Some("a right-to-left script"));
        for c in ['a', 'Ω', 'Я', '采', 'あ', '한', '\u{058F}', '\u{1E7FF}'] {
            assert_eq!(refused_script(c), None, "{c:?}");
        }
    }

    #[test]
    fn a_refusal_names_the_text_the_characters_why_and_what_to_do() {
        let f = Fonts::load().unwrap();
        let arabic = unset(&f, Some("decision"), "the decision text".to_owned(), "القرار: cloud").unwrap();
        assert_eq!(arabic.field.as_deref(), Some("decision"));
        assert_eq!(arabic.chars, "ا ل ق ر");
        assert_eq!(arabic.why, "Arabic");
        let many: String = ('ก'..='ฮ').collect();
        let thai = unset(&f, None, "the name of scenario `x`".to_owned(), &many).unwrap();
        assert_eq!(thai.chars.split(' ').count(), QUOTED_CHARS + 1);
        assert!(thai.chars.ends_with(" …"));
        let hidden = unset(&f, None, "the client".to_owned(), "Acme\u{200F}\u{E000}").unwrap();
        assert_eq!(hidden.chars, "U+200F \u{E000}");
        assert_eq!(hidden.why, "right-to-left mark, no glyph in the memo fonts");
        assert!(unset(&f, None, "x".to_owned(), "采购决定：租用云端GPU，三十六个月").is_none());
        // However much is wrong, the message stays short enough to arrive whole.
        let worst: String = REFUSED
            .iter()
            .flat_map(|(s, e, _)| [*s, *e])
            .filter_map(char::from_u32)
            .chain(('\u{E000}'..'\u{E100}').collect::<Vec<_>>())
            .collect();
        let long_id = "x".repeat(5_000);
        let texts: Vec<UnsetText> = (0..50)
            .filter_map(|_| unset(&f, None, format!("the name of scenario `{}`", short(&long_id)), &worst))
            .collect();
        let message = describe(&texts);
        assert!(
            message.chars().count() < 1_900,
            "{} characters: {message}",
            message.chars().count()
        );
        assert!(message.contains("; and 46 more. The memo sets text"), "{message}");
        assert!(message.ends_with("attach it as a separate document"));
        let text = describe(&[arabic, thai]);
        assert_eq!(
            text,
            "some text cannot be printed as written: the decision text has “ا ل ق ر” (Arabic); \
             the name of scenario `x` has “ก ข ฃ ค ฅ ฆ ง จ ฉ ช ซ ฌ …” (Thai). The memo sets text left \
             to right, one character after another, in DejaVu Sans or WenQuanYi Micro Hei: a script \
             written right to left or whose letters join or reorder would come out garbled, and a \
             character neither has would come out as an empty box. Write it in Latin, Greek, \
             Cyrillic or CJK script, or attach it as a separate document"
        );
    }
}
