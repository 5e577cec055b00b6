//! The memo's faces, their advance widths for measuring, and line wrapping.
//!
//! Three typefaces are embedded in the app, all from `assets/fonts/` with their licences beside
//! them: DejaVu Sans regular and bold (Latin, Greek, Cyrillic and most symbols), and WenQuanYi
//! Micro Hei (face 0 of `wqy-microhei.ttc`) for what DejaVu has no glyph for: Chinese, Japanese
//! kana, Korean Hangul and CJK punctuation. Each character is set in the first typeface that has
//! a glyph for it ([`Fonts::typeface`]): DejaVu in the style asked for, then DejaVu regular, then
//! WenQuanYi, which has no bold. A memo embeds WenQuanYi only when its text uses it.
//!
//! Widths are the typefaces' own advances without kerning, as printpdf writes the text, and are
//! taken character by character from the typeface [`Fonts::typeface`] picks, so a line measured
//! here is the line drawn.
//!
//! What no typeface can set, and scripts that need shaping printpdf does not do (right to left,
//! joining or reordering letters), is found by [`Fonts::unsettable`] so the memo can refuse it
//! by name instead of printing empty boxes or garbled text (see the `scripts` module).

use std::collections::BTreeMap;

use ab_glyph::{Font, FontRef, GlyphId};

use crate::MemoError;

static REGULAR: &[u8] = include_bytes!("../../../../assets/fonts/DejaVuSans.ttf");
static BOLD: &[u8] = include_bytes!("../../../../assets/fonts/DejaVuSans-Bold.ttf");
/// WenQuanYi Micro Hei 0.2.0-beta, a TrueType collection; face [`CJK_INDEX`] is "WenQuanYi
/// Micro Hei" (Apache-2.0, see `assets/fonts/LICENSE-WenQuanYi.txt`).
static CJK: &[u8] = include_bytes!("../../../../assets/fonts/wqy-microhei.ttc");
/// The face of [`CJK`] the memo uses (face 1 is the monospaced variant).
pub const CJK_INDEX: u32 = 0;

/// The style a run of text asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Face {
    Regular,
    Bold,
}

/// The typeface a character is actually set in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Typeface {
    DejaVu,
    DejaVuBold,
    /// WenQuanYi Micro Hei, for CJK text; it has no bold, so bold CJK text is this typeface
    /// drawn with a thin outline (see the layout).
    WenQuanYi,
}

impl Typeface {
    pub fn name(self) -> &'static str {
        match self {
            Typeface::DejaVu => "DejaVu Sans",
            Typeface::DejaVuBold => "DejaVu Sans Bold",
            Typeface::WenQuanYi => "WenQuanYi Micro Hei",
        }
    }

    /// The font file's bytes and the face's index in it.
    pub fn bytes(self) -> (&'static [u8], u32) {
        match self {
            Typeface::DejaVu => (REGULAR, 0),
            Typeface::DejaVuBold => (BOLD, 0),
            Typeface::WenQuanYi => (CJK, CJK_INDEX),
        }
    }
}

/// Why a character cannot go into the memo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unsettable {
    /// A script the memo would garble: written right to left, or with letters that join, stack
    /// or reorder (the name of the script).
    Script(&'static str),
    /// No embedded typeface has a glyph for it.
    NoGlyph,
}

/// The faces, parsed once per memo.
pub struct Fonts {
    regular: FontRef<'static>,
    bold: FontRef<'static>,
    cjk: FontRef<'static>,
    svg: BTreeMap<String, Vec<u8>>,
}

impl std::fmt::Debug for Fonts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Fonts(DejaVu Sans, DejaVu Sans Bold, WenQuanYi Micro Hei)")
    }
}

impl Fonts {
    pub fn load() -> Result<Fonts, MemoError> {
        Ok(Fonts {
            regular: FontRef::try_from_slice(REGULAR).map_err(|_| MemoError::Font("DejaVu Sans"))?,
            bold: FontRef::try_from_slice(BOLD).map_err(|_| MemoError::Font("DejaVu Sans Bold"))?,
            cjk: FontRef::try_from_slice_and_index(CJK, CJK_INDEX)
                .map_err(|_| MemoError::Font("WenQuanYi Micro Hei"))?,
            svg: svg_font_map(REGULAR, BOLD),
        })
    }

    fn font(&self, t: Typeface) -> &FontRef<'static> {
        match t {
            Typeface::DejaVu => &self.regular,
            Typeface::DejaVuBold => &self.bold,
            Typeface::WenQuanYi => &self.cjk,
        }
    }

    /// The fonts an SVG chart's text resolves against; with `cjk`, WenQuanYi Micro Hei too (for
    /// a chart whose labels hold CJK text).
    pub fn svg_fonts(&self, cjk: bool) -> std::borrow::Cow<'_, BTreeMap<String, Vec<u8>>> {
        if !cjk {
            return std::borrow::Cow::Borrowed(&self.svg);
        }
        let mut map = self.svg.clone();
        map.insert(Typeface::WenQuanYi.name().to_owned(), CJK.to_vec());
        std::borrow::Cow::Owned(map)
    }

    /// The typeface `c` is set in for a run in `face`: the first of DejaVu in that style,
    /// DejaVu regular and WenQuanYi Micro Hei that has a glyph for it; `None` when none has.
    pub fn typeface(&self, c: char, face: Face) -> Option<Typeface> {
        let order: &[Typeface] = match face {
            Face::Regular => &[Typeface::DejaVu, Typeface::WenQuanYi],
            Face::Bold => &[Typeface::DejaVuBold, Typeface::DejaVu, Typeface::WenQuanYi],
        };
        order.iter().copied().find(|t| self.font(*t).glyph_id(c) != GlyphId(0))
    }

    /// Why `c` cannot be set in the memo, or `None` when it can. White space can always be: the
    /// wrapping turns it into line breaks and spaces.
    pub fn unsettable(&self, c: char) -> Option<Unsettable> {
        if let Some(script) = refused_script(c) {
            return Some(Unsettable::Script(script));
        }
        if c.is_whitespace() || self.typeface(c, Face::Regular).is_some() {
            return None;
        }
        Some(Unsettable::NoGlyph)
    }

    /// `text` cut into runs of one typeface each, in order, for a run in `face`. White space
    /// that no typeface has a glyph for (a tab) is set as a space; a character no typeface has
    /// is returned as the error.
    pub fn runs(&self, text: &str, face: Face) -> Result<Vec<(Typeface, String)>, char> {
        let mut runs: Vec<(Typeface, String)> = Vec::new();
        for c in text.chars() {
            let (t, c) = match self.typeface(c, face) {
                Some(t) => (t, c),
                None if c.is_whitespace() => (self.typeface(' ', face).ok_or(c)?, ' '),
                None => return Err(c),
            };
            match runs.last_mut() {
                Some((last, run)) if *last == t => run.push(c),
                _ => runs.push((t, c.to_string())),
            }
        }
        Ok(runs)
    }

    /// The width of `text` in points at `size`: each character's advance in the typeface it is
    /// set in (a character none has counts as DejaVu's missing glyph). The advances are added up
    /// in font units per typeface and scaled once, so a line set in DejaVu alone measures
    /// exactly as it did before CJK text was supported.
    pub fn width(&self, text: &str, face: Face, size: f32) -> f32 {
        let fallback = match face {
            Face::Regular => Typeface::DejaVu,
            Face::Bold => Typeface::DejaVuBold,
        };
        let mut units = [0.0f32; 3];
        for c in text.chars() {
            let t = self.typeface(c, face).unwrap_or(fallback);
            let font = self.font(t);
            units[t as usize] += font.h_advance_unscaled(font.glyph_id(c));
        }
        [Typeface::DejaVu, Typeface::DejaVuBold, Typeface::WenQuanYi]
            .into_iter()
            .filter(|t| units[*t as usize] != 0.0)
            .map(|t| units[t as usize] * size / self.font(t).units_per_em().unwrap_or(2048.0))
            .sum()
    }

    /// `text` broken into lines no wider than `width`: at spaces where it can, and between CJK
    /// characters (which have no spaces between words; not before closing punctuation such as
    /// "，" or "」", nor after opening punctuation); inside a word only when the word alone is
    /// wider than the line. Line breaks in the text are kept; an empty text is one empty line.
    pub fn wrap(&self, text: &str, face: Face, size: f32, width: f32) -> Vec<String> {
        let mut lines = Vec::new();
        for para in text.split('\n') {
            let mut line = String::new();
            for word in para.split_whitespace() {
                for (i, piece) in pieces(word).into_iter().enumerate() {
                    let candidate = if line.is_empty() {
                        piece.to_owned()
                    } else if i == 0 {
                        format!("{line} {piece}")
                    } else {
                        format!("{line}{piece}")
                    };
                    if self.width(&candidate, face, size) <= width {
                        line = candidate;
                        continue;
                    }
                    if !line.is_empty() {
                        lines.push(std::mem::take(&mut line));
                    }
                    // The piece alone: break it by characters if it is wider than the line.
                    for c in piece.chars() {
                        line.push(c);
                        if self.width(&line, face, size) > width && line.chars().count() > 1 {
                            line.pop();
                            lines.push(std::mem::take(&mut line));
                            line.push(c);
                        }
                    }
                }
            }
            lines.push(line);
        }
        lines
    }
}

/// Whether `c` is written without spaces between words, so a line may break before or after
/// it: CJK ideographs, kana, Hangul syllables, bopomofo, CJK punctuation and full-width forms.
pub fn is_cjk(c: char) -> bool {
    matches!(
        u32::from(c),
        0x2E80..=0x2FDF
            | 0x3000..=0x30FF
            | 0x3100..=0x31FF
            | 0x3200..=0x9FFF
            | 0xAC00..=0xD7A3
            | 0xF900..=0xFAFF
            | 0xFE30..=0xFE4F
            | 0xFF00..=0xFFEF
            | 0x20000..=0x3FFFF
    )
}

/// Punctuation a line must not start with (it closes what precedes it).
fn closes(c: char) -> bool {
    "、。，．：；？！）」』】〕〉》〗〙〛｝］〞’”…‥・ーぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々％,.:;?!)]}"
        .contains(c)
}

/// Punctuation a line must not end with (it opens what follows it).
fn opens(c: char) -> bool {
    "（「『【〔〈《〖〘〚｛［〝‘“([{".contains(c)
}

/// A word (no white space in it) cut where a line may break inside it: between two characters
/// either of which is CJK, unless the second closes or the first opens. A word without CJK text
/// is one piece.
fn pieces(word: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut prev: Option<char> = None;
    for (i, c) in word.char_indices() {
        if let Some(p) = prev
            && (is_cjk(p) || is_cjk(c))
            && !closes(c)
            && !opens(p)
        {
            out.push(&word[start..i]);
            start = i;
        }
        prev = Some(c);
    }
    out.push(&word[start..]);
    out
}

/// The fonts a chart's SVG text may name, by family, for the SVG converter.
pub fn svg_font_map(regular: &[u8], bold: &[u8]) -> BTreeMap<String, Vec<u8>> {
    BTreeMap::from([
        ("DejaVu Sans".to_owned(), regular.to_vec()),
        ("DejaVu Sans Bold".to_owned(), bold.to_vec()),
    ])
}

/// Blocks of code points the memo refuses, with the script's name: scripts written right to left
/// and scripts that need shaping (joining, stacking or reordering letters), which printpdf does
/// not do, and the invisible controls of bidirectional text. Sorted, not overlapping.
pub(crate) const REFUSED: &[(u32, u32, &str)] = &[
    (0x0590, 0x05FF, "Hebrew"),
    (0x0600, 0x06FF, "Arabic"),
    (0x0700, 0x074F, "Syriac"),
    (0x0750, 0x077F, "Arabic"),
    (0x0780, 0x07BF, "Thaana"),
    (0x07C0, 0x07FF, "NKo"),
    (0x0800, 0x083F, "Samaritan"),
    (0x0840, 0x085F, "Mandaic"),
    (0x0860, 0x086F, "Syriac"),
    (0x0870, 0x08FF, "Arabic"),
    (0x0900, 0x097F, "Devanagari"),
    (0x0980, 0x09FF, "Bengali"),
    (0x0A00, 0x0A7F, "Gurmukhi"),
    (0x0A80, 0x0AFF, "Gujarati"),
    (0x0B00, 0x0B7F, "Oriya"),
    (0x0B80, 0x0BFF, "Tamil"),
    (0x0C00, 0x0C7F, "Telugu"),
    (0x0C80, 0x0CFF, "Kannada"),
    (0x0D00, 0x0D7F, "Malayalam"),
    (0x0D80, 0x0DFF, "Sinhala"),
    (0x0E00, 0x0E7F, "Thai"),
    (0x0E80, 0x0EFF, "Lao"),
    (0x0F00, 0x0FFF, "Tibetan"),
    (0x1000, 0x109F, "Myanmar"),
    (0x1100, 0x11FF, "Hangul Jamo"),
    (0x1700, 0x177F, "Philippine scripts"),
    (0x1780, 0x17FF, "Khmer"),
    (0x1800, 0x18AF, "Mongolian"),
    (0x1900, 0x194F, "Limbu"),
    (0x1950, 0x197F, "Tai Le"),
    (0x1980, 0x19DF, "New Tai Lue"),
    (0x19E0, 0x19FF, "Khmer"),
    (0x1A00, 0x1A1F, "Buginese"),
    (0x1A20, 0x1AAF, "Tai Tham"),
    (0x1B00, 0x1B7F, "Balinese"),
    (0x1B80, 0x1BBF, "Sundanese"),
    (0x1BC0, 0x1BFF, "Batak"),
    (0x1C00, 0x1C4F, "Lepcha"),
    (0x1CD0, 0x1CFF, "Vedic"),
    (0x200E, 0x200F, "right-to-left mark"),
    (0x202A, 0x202E, "bidirectional control"),
    (0x2066, 0x2069, "bidirectional control"),
    (0xA800, 0xA82F, "Syloti Nagri"),
    (0xA840, 0xA87F, "Phags-pa"),
    (0xA880, 0xA8DF, "Saurashtra"),
    (0xA8E0, 0xA8FF, "Devanagari"),
    (0xA900, 0xA92F, "Kayah Li"),
    (0xA930, 0xA95F, "Rejang"),
    (0xA960, 0xA97F, "Hangul Jamo"),
    (0xA980, 0xA9DF, "Javanese"),
    (0xA9E0, 0xA9FF, "Myanmar"),
    (0xAA00, 0xAA5F, "Cham"),
    (0xAA60, 0xAA7F, "Myanmar"),
    (0xAA80, 0xAADF, "Tai Viet"),
    (0xAAE0, 0xAAFF, "Meetei Mayek"),
    (0xABC0, 0xABFF, "Meetei Mayek"),
    (0xD7B0, 0xD7FF, "Hangul Jamo"),
    (0xFB1D, 0xFB4F, "Hebrew"),
    (0xFB50, 0xFDFF, "Arabic"),
    (0xFE70, 0xFEFE, "Arabic"),
    (0x10800, 0x10FFF, "a right-to-left historic script"),
    (0x11000, 0x11FFF, "a historic Indic script"),
    (0x1E800, 0x1EFFF, "a right-to-left script"),
];

/// The script `c` belongs to when the memo refuses that script, else `None`.
pub fn refused_script(c: char) -> Option<&'static str> {
    let cp = u32::from(c);
    let i = REFUSED.partition_point(|(_, end, _)| *end < cp);
    REFUSED
        .get(i)
        .filter(|(start, end, _)| (*start..=*end).contains(&cp))
        .map(|(_, _, name)| *name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_scale_with_size_and_bold_is_wider() {
        let f = Fonts::load().unwrap();
        let w10 = f.width("Total cost of ownership", Face::Regular, 10.0);
        let w20 = f.width("Total cost of ownership", Face::Regular, 20.0);
        assert!((w20 - 2.0 * w10).abs() < 1e-3);
        assert!(f.width("Total", Face::Bold, 10.0) > f.width("Total", Face::Regular, 10.0));
        // DejaVu Sans' space is 651 of 2048 units.
        assert!((f.width(" ", Face::Regular, 2048.0) - 651.0).abs() < 0.5);
    }

    #[test]
    fn wrapping_keeps_every_word_within_the_width() {
        let f = Fonts::load().unwrap();
        let text = "The owned fleet serves the base load from month four; the cloud takes the peaks \
                    and the first three months.\nA second paragraph.";
        let lines = f.wrap(text, Face::Regular, 9.5, 150.0);
        assert!(lines.len() > 3);
        for l in &lines {
            assert!(f.width(l, Face::Regular, 9.5) <= 150.0, "{l}");
        }
        let rejoined: Vec<&str> = lines.iter().flat_map(|l| l.split_whitespace()).collect();
        let original: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(rejoined, original);
        assert_eq!(lines.last().map(String::as_str), Some("A second paragraph."));
    }

    #[test]
    fn a_word_wider_than_the_line_is_broken_by_characters() {
        let f = Fonts::load().unwrap();
        let path = "scenarios[0].layers[12].price_per_gpu_hour_reserved_three_years";
        let lines = f.wrap(path, Face::Regular, 8.0, 60.0);
        assert!(lines.len() > 2);
        assert_eq!(lines.concat(), path);
        assert!(lines.iter().all(|l| f.width(l, Face::Regular, 8.0) <= 60.0));
        assert_eq!(f.wrap("", Face::Regular, 8.0, 60.0), vec![String::new()]);
    }

    #[test]
    fn each_character_is_set_in_the_first_typeface_that_has_it() {
        let f = Fonts::load().unwrap();
        assert_eq!(f.typeface('G', Face::Regular), Some(Typeface::DejaVu));
        assert_eq!(f.typeface('G', Face::Bold), Some(Typeface::DejaVuBold));
        assert_eq!(f.typeface('Ж', Face::Regular), Some(Typeface::DejaVu));
        for c in ['采', '购', '：', '，', 'か', 'カ', '한', '국'] {
            assert_eq!(f.typeface(c, Face::Regular), Some(Typeface::WenQuanYi), "{c}");
            assert_eq!(f.typeface(c, Face::Bold), Some(Typeface::WenQuanYi), "{c}");
        }
        let runs = f.runs("采购决定：租用云端GPU，三十六个月", Face::Regular).unwrap();
        let runs: Vec<(Typeface, &str)> = runs.iter().map(|(t, s)| (*t, s.as_str())).collect();
        assert_eq!(
            runs,
            [
                (Typeface::WenQuanYi, "采购决定：租用云端"),
                (Typeface::DejaVu, "GPU"),
                (Typeface::WenQuanYi, "，三十六个月"),
            ]
        );
        // A tab has no glyph: it is set as a space.
        assert_eq!(
            f.runs("a\tb", Face::Regular).unwrap(),
            [(Typeface::DejaVu, "a b".to_owned())]
        );
        assert_eq!(f.runs("a\u{E000}b", Face::Regular), Err('\u{E000}'));
    }

    #[test]
    fn cjk_widths_are_the_cjk_typeface_advances() {
        let f = Fonts::load().unwrap();
        // WenQuanYi Micro Hei's ideographs are a full em (2048 of 2048 units) wide.
        assert!((f.width("采购决定", Face::Regular, 10.0) - 40.0).abs() < 0.01);
        assert!((f.width("采购决定", Face::Bold, 10.0) - 40.0).abs() < 0.01);
        let mixed = f.width("云端GPU", Face::Regular, 10.0);
        let parts = f.width("云端", Face::Regular, 10.0) + f.width("GPU", Face::Regular, 10.0);
        assert!((mixed - parts).abs() < 1e-4);
    }

    #[test]
    fn cjk_text_wraps_between_characters_and_keeps_punctuation_with_what_it_closes() {
        let f = Fonts::load().unwrap();
        let text = "采购决定：租用云端GPU，三十六个月。自有机房的电力不足以支撑新的集群，因此先租用，再评估。";
        let lines = f.wrap(text, Face::Regular, 10.0, 95.0);
        assert!(lines.len() >= 4, "{lines:?}");
        assert_eq!(lines.concat(), text, "nothing added or lost");
        for l in &lines {
            assert!(f.width(l, Face::Regular, 10.0) <= 95.0, "{l}");
            let first = l.chars().next().unwrap();
            assert!(!closes(first), "a line starts with closing punctuation: {l}");
            assert!(
                !opens(l.chars().last().unwrap()),
                "a line ends with opening punctuation: {l}"
            );
        }
        // The first line is filled: a CJK sentence is not pushed whole onto a line of its own.
        let lines = f.wrap("Decision: 采购决定租用云端三十六个月", Face::Regular, 10.0, 95.0);
        assert!(lines[0].starts_with("Decision: 采"), "{lines:?}");
        assert_eq!(
            lines.concat().replace("Decision: ", "Decision:"),
            "Decision:采购决定租用云端三十六个月"
        );
        // Latin words still break only at spaces.
        assert_eq!(pieces("GPU-hours"), ["GPU-hours"]);
        assert_eq!(pieces("云端GPU，三"), ["云", "端", "GPU，", "三"]);
        assert_eq!(pieces("「租用」"), ["「租", "用」"]);
    }

    #[test]
    fn scripts_the_memo_would_garble_and_characters_without_a_glyph_are_unsettable() {
        let f = Fonts::load().unwrap();
        for c in ['a', 'é', 'Ω', 'Ж', '采', 'か', '한', '€', '—', ' ', '\t', '\u{3000}'] {
            assert_eq!(f.unsettable(c), None, "{c:?}");
        }
        // DejaVu Sans has Arabic and Hebrew letters, but the memo cannot lay them out.
        assert!(f.typeface('م', Face::Regular).is_some());
        assert_eq!(f.unsettable('م'), Some(Unsettable::Script("Arabic")));
        assert_eq!(f.unsettable('ש'), Some(Unsettable::Script("Hebrew")));
        assert_eq!(f.unsettable('न'), Some(Unsettable::Script("Devanagari")));
        assert_eq!(f.unsettable('ก'), Some(Unsettable::Script("Thai")));
        assert_eq!(f.unsettable('\u{E000}'), Some(Unsettable::NoGlyph));
        assert_eq!(f.unsettable('𠀀'), Some(Unsettable::NoGlyph));
    }
}
