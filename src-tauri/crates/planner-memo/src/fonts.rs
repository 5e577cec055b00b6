//! The memo's two faces (DejaVu Sans regular and bold, from `assets/fonts/`, licence beside
//! them), their advance widths for measuring, and line wrapping.
//!
//! Widths are the fonts' own advances without kerning, as printpdf writes the text, so a line
//! measured here is the line drawn.

use std::collections::BTreeMap;

use ab_glyph::{Font, FontRef};

use crate::MemoError;

static REGULAR: &[u8] = include_bytes!("../../../../assets/fonts/DejaVuSans.ttf");
static BOLD: &[u8] = include_bytes!("../../../../assets/fonts/DejaVuSans-Bold.ttf");

/// Which face a run of text is set in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Face {
    Regular,
    Bold,
}

/// The faces, parsed once per memo.
pub struct Fonts {
    regular: FontRef<'static>,
    bold: FontRef<'static>,
    svg: BTreeMap<String, Vec<u8>>,
}

impl std::fmt::Debug for Fonts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Fonts(DejaVu Sans, DejaVu Sans Bold)")
    }
}

impl Fonts {
    pub fn load() -> Result<Fonts, MemoError> {
        Ok(Fonts {
            regular: FontRef::try_from_slice(REGULAR).map_err(|_| MemoError::Font("DejaVu Sans"))?,
            bold: FontRef::try_from_slice(BOLD).map_err(|_| MemoError::Font("DejaVu Sans Bold"))?,
            svg: crate::layout::svg_font_map(REGULAR, BOLD),
        })
    }

    pub fn bytes(&self, face: Face) -> &'static [u8] {
        match face {
            Face::Regular => REGULAR,
            Face::Bold => BOLD,
        }
    }

    /// The fonts an SVG chart's text resolves against.
    pub fn svg_fonts(&self) -> &BTreeMap<String, Vec<u8>> {
        &self.svg
    }

    /// The width of `text` in points at `size`.
    pub fn width(&self, text: &str, face: Face, size: f32) -> f32 {
        let font = match face {
            Face::Regular => &self.regular,
            Face::Bold => &self.bold,
        };
        let units = font.units_per_em().unwrap_or(2048.0);
        let advance: f32 = text.chars().map(|c| font.h_advance_unscaled(font.glyph_id(c))).sum();
        advance * size / units
    }

    /// `text` broken into lines no wider than `width`: at spaces where it can, inside a word
    /// only when the word alone is wider than the line. Line breaks in the text are kept; an
    /// empty text is one empty line.
    pub fn wrap(&self, text: &str, face: Face, size: f32, width: f32) -> Vec<String> {
        let mut lines = Vec::new();
        for para in text.split('\n') {
            let mut line = String::new();
            for word in para.split_whitespace() {
                let candidate = if line.is_empty() {
                    word.to_owned()
                } else {
                    format!("{line} {word}")
                };
                if self.width(&candidate, face, size) <= width {
                    line = candidate;
                    continue;
                }
                if !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                }
                // The word alone: break it by characters if it is wider than the line.
                for c in word.chars() {
                    line.push(c);
                    if self.width(&line, face, size) > width && line.chars().count() > 1 {
                        line.pop();
                        lines.push(std::mem::take(&mut line));
                        line.push(c);
                    }
                }
            }
            lines.push(line);
        }
        lines
    }
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
}
