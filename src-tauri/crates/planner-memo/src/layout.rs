//! Lays a list of [`Block`]s out on pages and writes them with printpdf.
//!
//! The layout is a single pass down the page: each block measures itself with the embedded
//! fonts' advance widths, moves to a new page when it does not fit (a table repeats its header
//! row there; a paragraph breaks between lines; a chart moves whole), and emits printpdf
//! operations. When every block is placed, the page count is known and each page gets its
//! footer ("Page 3 of 9"). The last page ends with the signature section at a fixed place
//! ([`signature_slots`]), so a signer can put a visible signature in the next free box without
//! reading the layout back.
//!
//! Text is drawn with DejaVu Sans (regular and bold, embedded as subsets), so it can be searched
//! and copied. A line is drawn as runs of one typeface each ([`Fonts::runs`]): characters DejaVu
//! has no glyph for (CJK text) are set in WenQuanYi Micro Hei, which is added to the document,
//! and embedded as a subset, only when a line first needs it; it has no bold, so a bold CJK run
//! is drawn filled and outlined with a thin stroke of its colour. Charts are the SVG the screen
//! shows, converted to vector form XObjects.

use planner_core::memo::Paper;
use printpdf::{
    FontId, Line, LinePoint, Op, PaintMode, ParsedFont, PdfDocument, PdfFontHandle, PdfPage, PdfSaveOptions,
    PdfWarnMsg, Point, Pt, Rect, Svg, TextItem, TextRenderingMode, XObjectTransform,
};

use crate::MemoError;
pub use crate::blocks::{Align, Block, Column, Ink, Row, Style, Table};
pub use crate::fonts::svg_font_map;
use crate::fonts::{Face, Fonts, Typeface};

/// Page margins, in points.
pub const MARGIN_X: f32 = 50.0;
pub const MARGIN_TOP: f32 = 56.0;
pub const MARGIN_BOTTOM: f32 = 56.0;
/// The outline that makes a run of WenQuanYi Micro Hei (which has no bold) bold, as a share of
/// the font size.
const CJK_BOLD_STROKE: f32 = 0.035;
/// The signature section's height at the foot of the last page (heading and two rows of boxes).
const SIGNATURE_SECTION: f32 = 206.0;
const SLOT_HEIGHT: f32 = 66.0;
const SLOT_GAP: f32 = 16.0;
/// The roles printed above the signature boxes, in signing order.
pub const SIGNATURE_ROLES: [&str; 4] = ["Author", "Reviewer", "Approver", "Further signature"];

/// A box on the last page for a visible signature: `[x1, y1, x2, y2]` in points from the page's
/// lower-left corner.
pub type SlotRect = [f32; 4];

/// The signature boxes of a memo on `paper`, in signing order (author first). They sit on the
/// memo's last page, in two rows of two.
pub fn signature_slots(paper: Paper) -> [SlotRect; 4] {
    let (w, _) = paper.size_pt();
    let width = (w - 2.0 * MARGIN_X - SLOT_GAP) / 2.0;
    let upper = MARGIN_BOTTOM + SLOT_HEIGHT + 22.0;
    let lower = MARGIN_BOTTOM;
    let left = MARGIN_X;
    let right = MARGIN_X + width + SLOT_GAP;
    [
        [left, upper, left + width, upper + SLOT_HEIGHT],
        [right, upper, right + width, upper + SLOT_HEIGHT],
        [left, lower, left + width, lower + SLOT_HEIGHT],
        [right, lower, right + width, lower + SLOT_HEIGHT],
    ]
}

/// A laid-out memo: the PDF and its page count (its signature boxes are at [`signature_slots`]).
#[derive(Debug)]
pub struct Rendered {
    pub bytes: Vec<u8>,
    pub pages: u32,
}

/// Document information written into the PDF.
#[derive(Debug, Clone)]
pub struct DocInfo {
    pub title: String,
    pub author: String,
    pub subject: String,
    pub keywords: Vec<String>,
    /// The footer's left part, e.g. "Decision memo · Client · 2026-11-22".
    pub footer: String,
    pub created: printpdf::DateTime,
}

struct Pager<'f> {
    fonts: &'f Fonts,
    doc: PdfDocument,
    regular: FontId,
    bold: FontId,
    /// WenQuanYi Micro Hei, once a line has needed it.
    cjk: Option<FontId>,
    /// Characters no typeface could set (none when the text was checked first).
    missing: Vec<char>,
    /// A typeface that could not be added.
    failure: Option<MemoError>,
    width: f32,
    height: f32,
    pages: Vec<Vec<Op>>,
    ops: Vec<Op>,
    /// The top of the free space on the current page.
    y: f32,
    section: u32,
}

impl Pager<'_> {
    fn content_width(&self) -> f32 {
        self.width - 2.0 * MARGIN_X
    }

    fn top(&self) -> f32 {
        self.height - MARGIN_TOP
    }

    fn new_page(&mut self) {
        let ops = std::mem::take(&mut self.ops);
        self.pages.push(ops);
        self.y = self.top();
    }

    /// Moves to a new page unless `height` fits above the bottom margin (a page that is still
    /// empty is kept: what does not fit an empty page is drawn anyway rather than looping).
    fn room(&mut self, height: f32) {
        if self.y - height < MARGIN_BOTTOM && self.y < self.top() {
            self.new_page();
        }
    }

    /// The document's font for `typeface`; WenQuanYi Micro Hei is added the first time it is
    /// asked for, so a memo without CJK text does not carry it.
    fn font(&mut self, typeface: Typeface) -> Option<FontId> {
        match typeface {
            Typeface::DejaVu => Some(self.regular.clone()),
            Typeface::DejaVuBold => Some(self.bold.clone()),
            Typeface::WenQuanYi => {
                if self.cjk.is_none() {
                    let (bytes, index) = typeface.bytes();
                    let mut warnings = Vec::new();
                    match ParsedFont::from_bytes(bytes, index as usize, &mut warnings) {
                        Some(parsed) => self.cjk = Some(self.doc.add_font(&parsed)),
                        None => self.failure = Some(MemoError::Font(typeface.name())),
                    }
                }
                self.cjk.clone()
            }
        }
    }

    /// Draws one line of text with its baseline at `y`, in runs of one typeface each. A
    /// character no typeface has is not drawn but kept in `missing`, which fails the memo.
    fn text(&mut self, x: f32, y: f32, text: &str, style: Style) {
        let mut runs = match self.fonts.runs(text, style.face) {
            Ok(runs) => runs,
            Err(c) => {
                if !self.missing.contains(&c) {
                    self.missing.push(c);
                }
                return;
            }
        };
        if runs.is_empty() {
            let typeface = match style.face {
                Face::Regular => Typeface::DejaVu,
                Face::Bold => Typeface::DejaVuBold,
            };
            runs.push((typeface, String::new()));
        }
        let mut ops = vec![Op::StartTextSection];
        for (i, (typeface, run)) in runs.into_iter().enumerate() {
            let Some(font) = self.font(typeface) else {
                return;
            };
            ops.push(Op::SetFont {
                font: PdfFontHandle::External(font),
                size: Pt(style.size),
            });
            if i == 0 {
                ops.extend([
                    Op::SetFillColor {
                        col: style.ink.colour(),
                    },
                    Op::SetTextCursor {
                        pos: Point { x: Pt(x), y: Pt(y) },
                    },
                ]);
            }
            // Each run continues where the last ended: the text cursor advances by the embedded
            // widths, which are the advances the line was measured with.
            let outlined = typeface == Typeface::WenQuanYi && style.face == Face::Bold;
            if outlined {
                ops.extend([
                    Op::SetTextRenderingMode {
                        mode: TextRenderingMode::FillStroke,
                    },
                    Op::SetOutlineColor {
                        col: style.ink.colour(),
                    },
                    Op::SetOutlineThickness {
                        pt: Pt(style.size * CJK_BOLD_STROKE),
                    },
                ]);
            }
            ops.push(Op::ShowText {
                items: vec![TextItem::Text(run)],
            });
            if outlined {
                ops.push(Op::SetTextRenderingMode {
                    mode: TextRenderingMode::Fill,
                });
            }
        }
        ops.push(Op::EndTextSection);
        self.ops.extend(ops);
    }

    fn rule(&mut self, x1: f32, y: f32, x2: f32, ink: Ink, thickness: f32) {
        self.ops.extend([
            Op::SetOutlineColor { col: ink.colour() },
            Op::SetOutlineThickness { pt: Pt(thickness) },
            Op::DrawLine {
                line: Line {
                    points: vec![
                        LinePoint {
                            p: Point { x: Pt(x1), y: Pt(y) },
                            bezier: false,
                        },
                        LinePoint {
                            p: Point { x: Pt(x2), y: Pt(y) },
                            bezier: false,
                        },
                    ],
                    is_closed: false,
                },
            },
        ]);
    }

    fn band(&mut self, x: f32, y: f32, w: f32, h: f32, ink: Ink) {
        self.ops.extend([
            Op::SetFillColor { col: ink.colour() },
            Op::DrawRectangle {
                rectangle: Rect {
                    mode: Some(PaintMode::Fill),
                    ..Rect::from_xywh(Pt(x), Pt(y), Pt(w), Pt(h))
                },
            },
        ]);
    }

    fn frame(&mut self, r: SlotRect, ink: Ink) {
        self.ops.extend([
            Op::SetOutlineColor { col: ink.colour() },
            Op::SetOutlineThickness { pt: Pt(0.6) },
            Op::DrawRectangle {
                rectangle: Rect {
                    mode: Some(PaintMode::Stroke),
                    ..Rect::from_xywh(Pt(r[0]), Pt(r[1]), Pt(r[2] - r[0]), Pt(r[3] - r[1]))
                },
            },
        ]);
    }

    /// Flows wrapped lines of `text` at `x` within `width`, breaking pages between lines.
    fn lines(&mut self, x: f32, width: f32, text: &str, style: Style) {
        for line in self.fonts.wrap(text, style.face, style.size, width) {
            self.room(style.leading());
            let baseline = self.y - style.size;
            self.text(x, baseline, &line, style);
            self.y -= style.leading();
        }
    }

    fn title(&mut self, title: &str, subtitle: &str) {
        let width = self.content_width();
        let kicker = Style {
            size: 9.0,
            face: Face::Bold,
            ink: Ink::Accent,
        };
        self.text(MARGIN_X, self.y - 9.0, "DECISION MEMO", kicker);
        self.y -= 18.0;
        let big = Style {
            size: 20.0,
            face: Face::Bold,
            ink: Ink::Text,
        };
        self.lines(MARGIN_X, width, title, big);
        self.y -= 2.0;
        self.lines(MARGIN_X, width, subtitle, Style::SMALL);
        self.y -= 6.0;
        let y = self.y;
        self.rule(MARGIN_X, y, self.width - MARGIN_X, Ink::Accent, 1.2);
        self.y -= 12.0;
    }

    fn heading(&mut self, text: &str, new_page: bool) {
        if new_page && self.y < self.top() {
            self.new_page();
        }
        self.section += 1;
        let style = Style {
            size: 13.0,
            face: Face::Bold,
            ink: Ink::Accent,
        };
        // Keep a heading with at least a few lines of what follows it.
        self.room(style.leading() + 60.0);
        if self.y < self.top() {
            self.y -= 8.0;
        }
        let numbered = format!("{}. {text}", self.section);
        self.lines(MARGIN_X, self.content_width(), &numbered, style);
        let y = self.y + 2.0;
        self.rule(MARGIN_X, y, self.width - MARGIN_X, Ink::Rule, 0.5);
        self.y -= 6.0;
    }

    fn subheading(&mut self, text: &str) {
        let style = Style {
            size: 10.5,
            face: Face::Bold,
            ink: Ink::Text,
        };
        self.room(style.leading() + 40.0);
        self.y -= 4.0;
        self.lines(MARGIN_X, self.content_width(), text, style);
        self.y -= 2.0;
    }

    fn paragraph(&mut self, text: &str, style: Style) {
        for (i, para) in text.split("\n\n").enumerate() {
            if i > 0 {
                self.y -= style.size * 0.5;
            }
            self.lines(MARGIN_X, self.content_width(), para.trim(), style);
        }
        self.y -= style.size * 0.6;
    }

    fn facts(&mut self, facts: &[(String, String)]) {
        let label_w = self.content_width() * 0.32;
        let value_x = MARGIN_X + label_w + 8.0;
        let value_w = self.content_width() - label_w - 8.0;
        for (label, value) in facts {
            let label_lines = self.fonts.wrap(label, Face::Regular, Style::SMALL.size, label_w);
            let value_lines = self.fonts.wrap(value, Face::Regular, Style::BODY.size, value_w);
            let rows = label_lines.len().max(value_lines.len()).max(1);
            let h = rows as f32 * Style::BODY.leading();
            self.room(h);
            let top = self.y;
            for (i, l) in label_lines.iter().enumerate() {
                self.text(
                    MARGIN_X,
                    top - Style::BODY.size - i as f32 * Style::BODY.leading(),
                    l,
                    Style::SMALL,
                );
            }
            for (i, l) in value_lines.iter().enumerate() {
                self.text(
                    value_x,
                    top - Style::BODY.size - i as f32 * Style::BODY.leading(),
                    l,
                    Style::BODY,
                );
            }
            self.y -= h;
        }
        self.y -= 6.0;
    }

    fn table(&mut self, t: &Table) {
        let total: f32 = t.columns.iter().map(|c| c.weight).sum::<f32>().max(f32::EPSILON);
        let pad = 3.0;
        let widths: Vec<f32> = t
            .columns
            .iter()
            .map(|c| self.content_width() * c.weight / total)
            .collect();
        let style = Style {
            size: t.size,
            face: Face::Regular,
            ink: Ink::Text,
        };
        let head_style = Style {
            size: t.size,
            face: Face::Bold,
            ink: Ink::Muted,
        };
        let header: Vec<String> = t.columns.iter().map(|c| c.title.clone()).collect();
        let head_styles = vec![head_style; header.len()];
        let header_h = self.row_height(&header, &widths, &head_styles, pad);
        let first_h = t
            .rows
            .first()
            .map_or(0.0, |r| self.row_height(&r.cells, &widths, &row_styles(r, style), pad));
        self.room(header_h + first_h);
        self.draw_row(&t.columns, &header, &widths, &head_styles, pad, None);
        let y = self.y;
        self.rule(MARGIN_X, y, self.width - MARGIN_X, Ink::Muted, 0.6);
        for (i, row) in t.rows.iter().enumerate() {
            let styles = row_styles(row, style);
            let h = self.row_height(&row.cells, &widths, &styles, pad);
            if self.y - h < MARGIN_BOTTOM && self.y < self.top() {
                self.new_page();
                self.draw_row(&t.columns, &header, &widths, &head_styles, pad, None);
                let y = self.y;
                self.rule(MARGIN_X, y, self.width - MARGIN_X, Ink::Muted, 0.6);
            }
            // Totals and every other row sit on a shaded band.
            let shade = (row.strong || i % 2 == 1).then_some(Ink::Shade);
            self.draw_row(&t.columns, &row.cells, &widths, &styles, pad, shade);
        }
        let y = self.y;
        self.rule(MARGIN_X, y, self.width - MARGIN_X, Ink::Rule, 0.5);
        self.y -= 10.0;
    }

    /// A row's height: its tallest cell, each cell wrapped in its own style.
    fn row_height(&self, cells: &[String], widths: &[f32], styles: &[Style], pad: f32) -> f32 {
        cells
            .iter()
            .zip(widths)
            .zip(styles)
            .map(|((c, w), s)| self.fonts.wrap(c, s.face, s.size, w - 2.0 * pad).len().max(1) as f32 * s.leading())
            .fold(0.0, f32::max)
            .max(styles.first().map_or(0.0, |s| s.leading()))
            + 2.0 * pad
    }

    fn draw_row(
        &mut self,
        columns: &[Column],
        cells: &[String],
        widths: &[f32],
        styles: &[Style],
        pad: f32,
        shade: Option<Ink>,
    ) {
        let h = self.row_height(cells, widths, styles, pad);
        if let Some(ink) = shade {
            let y = self.y - h;
            self.band(MARGIN_X, y, self.content_width(), h, ink);
        }
        let mut x = MARGIN_X;
        for (((cell, w), col), &style) in cells.iter().zip(widths).zip(columns).zip(styles) {
            let lines = self.fonts.wrap(cell, style.face, style.size, w - 2.0 * pad);
            for (i, line) in lines.iter().enumerate() {
                let lx = match col.align {
                    Align::Left => x + pad,
                    Align::Right => x + w - pad - self.fonts.width(line, style.face, style.size),
                };
                let baseline = self.y - pad - style.size - i as f32 * style.leading();
                self.text(lx, baseline, line, style);
            }
            x += w;
        }
        self.y -= h;
    }

    fn chart(&mut self, svg: &str, width: f32, height: f32, caption: &str) -> Result<(), MemoError> {
        let caption_h = Style::SMALL.leading() * 2.0;
        self.room(height + caption_h + 6.0);
        let mut warnings = Vec::new();
        // A chart whose labels (scenario names) hold CJK text resolves it against WenQuanYi.
        let cjk = svg
            .chars()
            .any(|c| self.fonts.typeface(c, Face::Regular) == Some(Typeface::WenQuanYi));
        let mut xobject =
            Svg::parse_with_fonts(svg, &self.fonts.svg_fonts(cjk), &mut warnings).map_err(MemoError::Chart)?;
        // printpdf leaves a converted SVG uncompressed (a chart is then 50 to 180 KB).
        xobject.stream.compress = true;
        if let Some(w) = warnings.iter().find(|w| is_dropped_text(w)) {
            return Err(MemoError::Chart(w.msg.clone()));
        }
        let natural_w = xobject.width.map_or(width, |p| p.0 as f32);
        let natural_h = xobject.height.map_or(height, |p| p.0 as f32);
        let id = self.doc.add_xobject(&xobject);
        let bottom = self.y - height;
        self.ops.push(Op::UseXobject {
            id,
            transform: XObjectTransform {
                translate_x: Some(Pt(MARGIN_X)),
                translate_y: Some(Pt(bottom)),
                scale_x: Some(width / natural_w.max(1.0)),
                scale_y: Some(height / natural_h.max(1.0)),
                dpi: Some(72.0),
                ..XObjectTransform::default()
            },
        });
        self.y = bottom - 4.0;
        self.lines(MARGIN_X, self.content_width(), caption, Style::SMALL);
        self.y -= 8.0;
        Ok(())
    }

    /// The signature section at the foot of the last page, with empty boxes in signing order.
    fn signatures(&mut self, paper: Paper) {
        if self.y - SIGNATURE_SECTION < MARGIN_BOTTOM {
            self.new_page();
        }
        let slots = signature_slots(paper);
        let heading_y = slots[0][3] + 44.0;
        self.section += 1;
        let style = Style {
            size: 13.0,
            face: Face::Bold,
            ink: Ink::Accent,
        };
        let heading = format!("{}. Signatures", self.section);
        self.text(MARGIN_X, heading_y, &heading, style);
        self.rule(MARGIN_X, heading_y - 5.0, self.width - MARGIN_X, Ink::Rule, 0.5);
        let note = "Each signature is a PAdES digital signature over the document as it then stood; open the file in a PDF reader or run `planner verify` to check it.";
        let note_lines = self
            .fonts
            .wrap(note, Face::Regular, Style::SMALL.size, self.content_width());
        for (i, l) in note_lines.iter().enumerate() {
            self.text(
                MARGIN_X,
                heading_y - 17.0 - i as f32 * Style::SMALL.leading(),
                l,
                Style::SMALL,
            );
        }
        for (slot, role) in slots.iter().zip(SIGNATURE_ROLES) {
            self.text(slot[0], slot[3] + 4.0, role, Style::SMALL);
            self.frame(*slot, Ink::Rule);
        }
        self.y = MARGIN_BOTTOM;
    }
}

/// Each cell's style in a row set in `style`: bold for a strong row (totals), and a marked cell
/// (a stale figure's date) in bold in the warning colour.
fn row_styles(row: &Row, style: Style) -> Vec<Style> {
    let base = if row.strong {
        Style {
            face: Face::Bold,
            ..style
        }
    } else {
        style
    };
    (0..row.cells.len())
        .map(|i| {
            if row.marked == Some(i) {
                Style {
                    face: Face::Bold,
                    ink: Ink::Warning,
                    ..style
                }
            } else {
                base
            }
        })
        .collect()
}

fn is_dropped_text(w: &PdfWarnMsg) -> bool {
    w.msg.contains("were dropped")
}

/// Lays `blocks` out on `paper` and writes the PDF.
pub fn render(blocks: &[Block], paper: Paper, fonts: &Fonts, info: &DocInfo) -> Result<Rendered, MemoError> {
    let mut doc = PdfDocument::new(&info.title);
    let mut warnings = Vec::new();
    let regular = ParsedFont::from_bytes(Typeface::DejaVu.bytes().0, 0, &mut warnings)
        .ok_or(MemoError::Font(Typeface::DejaVu.name()))?;
    let bold = ParsedFont::from_bytes(Typeface::DejaVuBold.bytes().0, 0, &mut warnings)
        .ok_or(MemoError::Font(Typeface::DejaVuBold.name()))?;
    let (width, height) = paper.size_pt();
    let regular = doc.add_font(&regular);
    let bold = doc.add_font(&bold);
    let mut pager = Pager {
        fonts,
        doc,
        regular,
        bold,
        cjk: None,
        missing: Vec::new(),
        failure: None,
        width,
        height,
        pages: Vec::new(),
        ops: Vec::new(),
        y: height - MARGIN_TOP,
        section: 0,
    };
    for block in blocks {
        match block {
            Block::Title { title, subtitle } => pager.title(title, subtitle),
            Block::Heading { text, new_page } => pager.heading(text, *new_page),
            Block::Subheading(text) => pager.subheading(text),
            Block::Paragraph { text, style } => pager.paragraph(text, *style),
            Block::Facts(facts) => pager.facts(facts),
            Block::Table(t) => pager.table(t),
            Block::Chart {
                svg,
                width,
                height,
                caption,
            } => pager.chart(svg, *width, *height, caption)?,
            Block::Gap(h) => pager.y -= h,
        }
    }
    pager.signatures(paper);
    pager.new_page();
    let count = pager.pages.len();
    let pages: Vec<Vec<Op>> = std::mem::take(&mut pager.pages);
    let mut out = Vec::with_capacity(count);
    for (i, mut ops) in pages.into_iter().enumerate() {
        pager.ops = std::mem::take(&mut ops);
        let footer_y = 30.0;
        pager.rule(MARGIN_X, footer_y + 10.0, width - MARGIN_X, Ink::Rule, 0.4);
        pager.text(MARGIN_X, footer_y, &info.footer, Style::SMALL);
        let number = format!("Page {} of {count}", i + 1);
        let w = fonts.width(&number, Face::Regular, Style::SMALL.size);
        pager.text(width - MARGIN_X - w, footer_y, &number, Style::SMALL);
        out.push(PdfPage::new(
            printpdf::Mm::from(Pt(width)),
            printpdf::Mm::from(Pt(height)),
            std::mem::take(&mut pager.ops),
        ));
    }
    if let Some(e) = pager.failure.take() {
        return Err(e);
    }
    if !pager.missing.is_empty() {
        let chars: String = pager.missing.iter().collect();
        return Err(MemoError::Unset(
            crate::scripts::unset(fonts, None, "text of the memo".to_owned(), &chars)
                .into_iter()
                .collect(),
        ));
    }
    let mut doc = pager.doc;
    doc.metadata.info.document_title = info.title.clone();
    doc.metadata.info.author = info.author.clone();
    doc.metadata.info.subject = info.subject.clone();
    doc.metadata.info.keywords = info.keywords.clone();
    doc.metadata.info.creator = "Compute Planner".to_owned();
    doc.metadata.info.producer = format!("Compute Planner {} (printpdf)", env!("CARGO_PKG_VERSION"));
    doc.metadata.info.creation_date = info.created;
    doc.metadata.info.modification_date = info.created;
    doc.metadata.info.metadata_date = info.created;
    let mut save_warnings = Vec::new();
    let mut lo = doc
        .with_pages(out)
        .to_lopdf_document(&PdfSaveOptions::default(), &mut save_warnings);
    // printpdf always writes a GTS_PDFXVersion key (empty for a custom conformance), which readers
    // take for a PDF/X claim this memo does not make.
    if let Ok(info) = lo
        .trailer
        .get(b"Info")
        .and_then(lopdf::Object::as_reference)
        .and_then(|id| lo.get_dictionary_mut(id))
    {
        info.remove(b"GTS_PDFXVersion");
    }
    lo.compress();
    let mut bytes = Vec::new();
    lo.save_to(&mut bytes).map_err(|e| MemoError::Write(e.to_string()))?;
    Ok(Rendered {
        bytes,
        pages: u32::try_from(count).unwrap_or(u32::MAX),
    })
}
