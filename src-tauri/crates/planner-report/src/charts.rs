//! The decision view's charts, drawn with plotters into self-contained SVG strings.
//!
//! - [`cumulative_svg`]: cumulative cash per scenario, one line each, with the break-even points
//!   against the reference marked;
//! - [`monthly_svg`]: one scenario's cash per month, stacked by cost category (income such as the
//!   resale in the last month stacks downward from zero);
//! - [`risk_fan_svg`] and [`risk_tornado_svg`]: a risk analysis's cumulative cash bands and what
//!   drives one scenario's difference from the baseline (see the `risk` module).
//!
//! The same functions will draw the PDF memo's charts, so the SVG is kept plain: one `<svg>` with
//! `width`, `height` and `viewBox`, solid colours only (no opacity below 1: a PDF converter turns
//! each translucent element into a transparency group), and labels as `<text>` with
//! `font-family="DejaVu Sans, sans-serif"`. The text is measured with the DejaVu Sans shipped in
//! `assets/fonts/` (registered with plotters once, from bytes), so a reader that has that font
//! lays the labels out exactly as measured; the webview falls back to its sans-serif otherwise.
//!
//! Money is `Decimal` in the view and becomes `f64` here, only as a coordinate.

use std::sync::OnceLock;

use planner_core::calendar::YearMonth;
use planner_core::engine::decide::decision::{DecisionView, ScenarioFigures};
use planner_core::engine::model::ledger::Category;
use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::prelude::*;
use plotters::style::register_font;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use serde::{Deserialize, Serialize};

mod risk;
pub mod series;
pub use risk::{
    RiskLabels, TORNADO_BARS, risk_fan_svg, risk_tornado_svg, swing_label as risk_swing_label, tornado_height,
};

/// The font family written into every `<text>`: the font the labels were measured with, then
/// the reader's default sans-serif.
pub const FONT_FAMILY: &str = "DejaVu Sans, sans-serif";

/// DejaVu Sans (Bitstream Vera licence, see `assets/fonts/LICENSE-DejaVu.txt`).
static FONT_BYTES: &[u8] = include_bytes!("../../../../assets/fonts/DejaVuSans.ttf");

/// Registers the font with plotters once per process. `false` when the bytes are not a font.
fn font_ready() -> Result<(), ChartError> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| register_font(FONT_FAMILY, FontStyle::Normal, FONT_BYTES).is_ok());
    if ok { Ok(()) } else { Err(ChartError::Font) }
}

/// The colour scheme of a chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum Theme {
    Light,
    Dark,
}

/// A chart's size in pixels (SVG user units; one point each in the memo).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ChartSize {
    pub width: u32,
    pub height: u32,
}

impl ChartSize {
    pub const MIN_WIDTH: u32 = 320;
    pub const MIN_HEIGHT: u32 = 200;
    pub const MAX: u32 = 8192;
}

impl Default for ChartSize {
    fn default() -> Self {
        ChartSize {
            width: 800,
            height: 420,
        }
    }
}

/// Why a chart was not drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChartError {
    #[error("there is no scenario `{0}` in this comparison")]
    UnknownScenario(String),
    #[error(
        "a chart of {width}×{height} pixels cannot be drawn: the width must be {min_width} to {max} and the height {min_height} to {max}",
        min_width = ChartSize::MIN_WIDTH,
        min_height = ChartSize::MIN_HEIGHT,
        max = ChartSize::MAX
    )]
    Size { width: u32, height: u32 },
    #[error("the legend does not fit a {width}×{height} chart: make the chart larger")]
    LegendTooLarge { width: u32, height: u32 },
    #[error("there is nothing to draw: the comparison has no scenarios or no months")]
    Empty,
    #[error("there is no tornado for `{0}`: it is the baseline, or the analysis drew no figure it uses")]
    NoTornado(String),
    #[error("the chart font could not be loaded")]
    Font,
    #[error("drawing the chart failed: {0}")]
    Drawing(String),
}

fn drawing<E: std::fmt::Display>(e: E) -> ChartError {
    ChartError::Drawing(e.to_string())
}

// ---------------------------------------------------------------------------------------------
// Colours

struct Colours {
    background: RGBColor,
    text: RGBColor,
    axis: RGBColor,
    grid: RGBColor,
}

fn colours(theme: Theme) -> Colours {
    match theme {
        Theme::Light => Colours {
            background: RGBColor(0xFF, 0xFF, 0xFF),
            text: RGBColor(0x1F, 0x23, 0x28),
            axis: RGBColor(0x57, 0x60, 0x6A),
            grid: RGBColor(0xE3, 0xE5, 0xE8),
        },
        Theme::Dark => Colours {
            background: RGBColor(0x1E, 0x1F, 0x24),
            text: RGBColor(0xE6, 0xE7, 0xEA),
            axis: RGBColor(0xA0, 0xA4, 0xAD),
            grid: RGBColor(0x36, 0x38, 0x40),
        },
    }
}

/// Okabe–Ito, the colour-blind-safe palette of eight, in the order scenarios take it. Its black
/// becomes a light grey on the dark theme, and its yellow a darker yellow on the light theme
/// (pure #F0E442 on white is nearly invisible as a line).
fn scenario_colour(index: usize, theme: Theme) -> RGBColor {
    match (index % 8, theme) {
        (0, _) => RGBColor(0x00, 0x72, 0xB2), // blue
        (1, _) => RGBColor(0xE6, 0x9F, 0x00), // orange
        (2, _) => RGBColor(0x00, 0x9E, 0x73), // bluish green
        (3, _) => RGBColor(0xD5, 0x5E, 0x00), // vermillion
        (4, _) => RGBColor(0x56, 0xB4, 0xE9), // sky blue
        (5, _) => RGBColor(0xCC, 0x79, 0xA7), // reddish purple
        (6, Theme::Light) => RGBColor(0xA0, 0x8C, 0x00),
        (6, Theme::Dark) => RGBColor(0xF0, 0xE4, 0x42), // yellow
        (_, Theme::Light) => RGBColor(0x00, 0x00, 0x00),
        (_, Theme::Dark) => RGBColor(0xD0, 0xD0, 0xD0),
    }
}

/// The colour of the scenario at `index` (its place in the comparison), as RGB: the same
/// scenario has the same colour in every chart.
pub fn scenario_rgb(index: usize, theme: Theme) -> (u8, u8, u8) {
    let RGBColor(r, g, b) = scenario_colour(index, theme);
    (r, g, b)
}

/// One fixed colour per cost category, so a category looks the same in every scenario's chart:
/// Okabe–Ito first for the categories most scenarios have, then Paul Tol's muted and bright
/// schemes. Readable as filled bars on both themes.
pub fn category_colour(c: Category) -> (u8, u8, u8) {
    match c {
        Category::Hardware => (0x00, 0x72, 0xB2),
        Category::Installation => (0xCC, 0x79, 0xA7),
        Category::Network => (0x00, 0x9E, 0x73),
        Category::PowerDistribution => (0xE6, 0x9F, 0x00),
        Category::Cooling => (0x56, 0xB4, 0xE9),
        Category::Electricity => (0xF0, 0xE4, 0x42),
        Category::Colocation => (0x99, 0x99, 0x33),
        Category::Staff => (0xAA, 0x44, 0x99),
        Category::Support => (0x44, 0xAA, 0x99),
        Category::Operations => (0x33, 0x22, 0x88),
        Category::Software => (0xDD, 0xCC, 0x77),
        Category::CloudCompute => (0xD5, 0x5E, 0x00),
        Category::Commitments => (0xCC, 0x66, 0x77),
        Category::StorageEgress => (0x88, 0xCC, 0xEE),
        Category::Financing => (0xAA, 0x33, 0x77),
        Category::TerminationFees => (0xBB, 0xBB, 0xBB),
        Category::Adaptation => (0x11, 0x77, 0x33),
        Category::UnservedWork => (0x88, 0x44, 0x00),
        Category::Depreciation => (0x44, 0x77, 0xAA),
        Category::Residual => (0x75, 0x70, 0xB3),
    }
}

/// `#RRGGBB` (as [`series`] writes it) as a colour; black when malformed.
fn hex_colour(hex: &str) -> RGBColor {
    let byte = |i: usize| {
        hex.get(i..i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .unwrap_or(0)
    };
    RGBColor(byte(1), byte(3), byte(5))
}

// ---------------------------------------------------------------------------------------------
// Layout helpers

/// Text size of axis labels, legends and notes, in SVG pixels.
const TEXT_PX: f64 = 12.0;
const MARGIN: i32 = 12;
const LEGEND_ROW: i32 = 20;
const LEGEND_SWATCH: i32 = 18;
const LEGEND_GAP: i32 = 20;

/// A text style of `px` pixels. plotters writes `font-size` as the given size divided by 1.24.
fn font(px: f64, colour: RGBColor) -> TextStyle<'static> {
    (FONT_FAMILY, px * 1.24).into_font().color(&colour)
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

fn text_width(area: &Area<'_>, text: &str, style: &TextStyle<'_>) -> Result<i32, ChartError> {
    let (w, _) = area.estimate_text_size(text, style).map_err(drawing)?;
    Ok(i32::try_from(w).unwrap_or(i32::MAX))
}

fn to_f64(d: &Decimal) -> f64 {
    // A Decimal is always within f64's range; the fallback is unreachable.
    d.to_f64().unwrap_or(0.0)
}

fn check_size(size: ChartSize) -> Result<(), ChartError> {
    let ok = (ChartSize::MIN_WIDTH..=ChartSize::MAX).contains(&size.width)
        && (ChartSize::MIN_HEIGHT..=ChartSize::MAX).contains(&size.height);
    if ok {
        Ok(())
    } else {
        Err(ChartError::Size {
            width: size.width,
            height: size.height,
        })
    }
}

/// A value axis that always includes zero, with a little room beyond the data, and ticks at
/// round steps (1, 2, 2.5 or 5 times a power of ten) inside it.
#[derive(Debug, Clone, PartialEq)]
struct ValueAxis {
    lo: f64,
    hi: f64,
    step: f64,
    ticks: Vec<f64>,
}

fn value_axis(lo: f64, hi: f64, target: usize) -> ValueAxis {
    axis_over(lo.min(0.0), hi.max(0.0), target)
}

/// A value axis over `lo..hi` as it is (zero only when inside), with a little room beyond each
/// end that is not zero, and round ticks inside it.
fn axis_over(lo: f64, hi: f64, target: usize) -> ValueAxis {
    let (mut lo, mut hi) = (lo, hi);
    if !lo.is_finite() || !hi.is_finite() {
        (lo, hi) = (0.0, 1.0);
    }
    if hi - lo < 1e-9 {
        hi = lo + 1.0;
    }
    let span = hi - lo;
    let raw = span / target.max(1) as f64;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .min_by(|a, b| (a / raw).ln().abs().total_cmp(&(b / raw).ln().abs()))
        .unwrap_or(magnitude);
    let lo = if lo == 0.0 { lo } else { lo - 0.04 * span };
    let hi = if hi == 0.0 { hi } else { hi + 0.04 * span };
    let first = (lo / step - 1e-9).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    let ticks = (first..=last)
        .map(|k| if k == 0 { 0.0 } else { k as f64 * step })
        .collect();
    ValueAxis { lo, hi, step, ticks }
}

/// A compact money label: `350k`, `1.25M`, `-80k`, `2B`, with as many decimals as the tick
/// step needs at that unit (at most three).
fn compact(v: f64, step: f64) -> String {
    let a = v.abs();
    let (unit, suffix) = if a >= 1e9 - 0.5 {
        (1e9, "B")
    } else if a >= 1e6 - 0.5 {
        (1e6, "M")
    } else if a >= 1e3 - 0.5 {
        (1e3, "k")
    } else {
        (1.0, "")
    };
    let s = step.abs() / unit;
    let mut decimals = 0usize;
    while decimals < 3 {
        let scaled = s * 10f64.powi(i32::try_from(decimals).unwrap_or(0));
        if (scaled.round() - scaled).abs() < 1e-6 {
            break;
        }
        decimals += 1;
    }
    let mut text = format!("{:.*}", decimals, v / unit);
    if text.contains('.') {
        text = text.trim_end_matches('0').trim_end_matches('.').to_owned();
    }
    if text == "-0" {
        text = "0".to_owned();
    }
    format!("{text}{suffix}")
}

/// Every how many months an x label goes, so that at most `max_labels` labels fit.
fn month_step(months: usize, max_labels: usize) -> usize {
    [1, 2, 3, 6, 12, 24, 60, 120]
        .into_iter()
        .find(|s| months.div_ceil(*s) <= max_labels.max(2))
        .unwrap_or(120)
}

fn month_ticks(months: usize, plot_width: i32) -> Vec<f64> {
    let max_labels = usize::try_from(plot_width / 72).unwrap_or(2);
    let step = month_step(months, max_labels);
    (0..months).step_by(step).map(|k| k as f64).collect()
}

fn month_label(months: &[YearMonth], v: f64) -> String {
    let k = v.round();
    if k < 0.0 {
        return String::new();
    }
    months.get(k as usize).map(ToString::to_string).unwrap_or_default()
}

enum Swatch {
    Line(u32),
    Block,
}

struct LegendItem {
    label: String,
    colour: RGBColor,
    swatch: Swatch,
}

/// `text`, or as much of it as fits `room` pixels followed by an ellipsis.
fn fit_text(area: &Area<'_>, text: &str, style: &TextStyle<'_>, room: i32) -> Result<String, ChartError> {
    if text_width(area, text, style)? <= room {
        return Ok(text.to_owned());
    }
    let mut chars: Vec<char> = text.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let cut = format!("{}…", chars.iter().collect::<String>().trim_end());
        if text_width(area, &cut, style)? <= room {
            return Ok(cut);
        }
    }
    Ok("…".to_owned())
}

/// Where each legend item goes, (x, row), and the legend's height.
struct LegendLayout {
    places: Vec<(i32, i32)>,
    height: i32,
}

fn layout_legend(
    area: &Area<'_>,
    items: &mut [LegendItem],
    style: &TextStyle<'_>,
    width: i32,
) -> Result<LegendLayout, ChartError> {
    let mut widths = Vec::with_capacity(items.len());
    for item in items.iter_mut() {
        // A label longer than a whole row is cut, with an ellipsis.
        item.label = fit_text(area, &item.label, style, width - 2 * MARGIN - LEGEND_SWATCH - 6)?;
        widths.push(LEGEND_SWATCH + 6 + text_width(area, &item.label, style)?);
    }
    // Flowed left to right, or in aligned columns when that takes no more rows.
    let mut flow = Vec::with_capacity(items.len());
    let (mut x, mut row) = (MARGIN, 0);
    for &w in &widths {
        if x > MARGIN && x + w > width - MARGIN {
            row += 1;
            x = MARGIN;
        }
        flow.push((x, row));
        x += w + LEGEND_GAP;
    }
    let column = widths.iter().copied().max().unwrap_or(0) + LEGEND_GAP;
    let columns = ((width - 2 * MARGIN + LEGEND_GAP) / column.max(1)).max(1);
    let count = i32::try_from(items.len()).unwrap_or(i32::MAX);
    let places = if (count + columns - 1) / columns <= row + 1 {
        (0..count)
            .map(|i| (MARGIN + (i % columns) * column, i / columns))
            .collect()
    } else {
        flow
    };
    let rows = places.iter().map(|p| p.1 + 1).max().unwrap_or(0);
    Ok(LegendLayout {
        places,
        height: rows * LEGEND_ROW + 2 * 6,
    })
}

fn draw_legend(
    area: &Area<'_>,
    items: &[LegendItem],
    layout: &LegendLayout,
    style: &TextStyle<'_>,
) -> Result<(), ChartError> {
    let label_style = style.pos(Pos::new(HPos::Left, VPos::Center));
    for (item, &(x, row)) in items.iter().zip(&layout.places) {
        let y = 6 + row * LEGEND_ROW + LEGEND_ROW / 2;
        match item.swatch {
            Swatch::Line(width) => area
                .draw(&PathElement::new(
                    vec![(x, y), (x + LEGEND_SWATCH, y)],
                    item.colour.stroke_width(width),
                ))
                .map_err(drawing)?,
            Swatch::Block => area
                .draw(&Rectangle::new(
                    [(x + 3, y - 6), (x + LEGEND_SWATCH - 3, y + 6)],
                    item.colour.filled(),
                ))
                .map_err(drawing)?,
        }
        area.draw(&Text::new(
            item.label.clone(),
            (x + LEGEND_SWATCH + 6, y),
            label_style.clone(),
        ))
        .map_err(drawing)?;
    }
    Ok(())
}

/// Width of the y label area: the widest tick label, the tick, and the rotated description.
fn y_label_area(area: &Area<'_>, axis: &ValueAxis, style: &TextStyle<'_>) -> Result<i32, ChartError> {
    let mut widest = 0;
    for t in &axis.ticks {
        widest = widest.max(text_width(area, &compact(*t, axis.step), style)?);
    }
    Ok(widest + 14 + 22)
}

/// A linear axis over `lo..hi` whose ticks (grid lines and labels) are exactly `ticks`. (plotters'
/// own `with_key_points` on an `f64` range has no label formatter, so no mesh can be drawn.)
struct TickedAxis {
    lo: f64,
    hi: f64,
    ticks: Vec<f64>,
}

impl Ranged for TickedAxis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let span = self.hi - self.lo;
        if span <= 0.0 {
            return (limit.0 + limit.1) / 2;
        }
        let share = (v - self.lo) / span;
        limit.0 + (f64::from(limit.1 - limit.0) * share + 1e-3).floor() as i32
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.lo..self.hi
    }
}

/// A pixel rectangle: left, top, right, bottom.
type Rect = (i32, i32, i32, i32);

fn overlaps(a: Rect, b: Rect) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// Whether the segment from `a` to `b` touches the rectangle (Liang–Barsky clipping).
fn segment_hits_rect(a: (i32, i32), b: (i32, i32), r: Rect) -> bool {
    let (x0, y0) = (f64::from(a.0), f64::from(a.1));
    let (dx, dy) = (f64::from(b.0) - x0, f64::from(b.1) - y0);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, x0 - f64::from(r.0)),
        (dx, f64::from(r.2) - x0),
        (-dy, y0 - f64::from(r.1)),
        (dy, f64::from(r.3) - y0),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return false;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

type MonthMoneyChart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<TickedAxis, TickedAxis>>;

/// The frame both charts share: months across (`x` = first, last, ticks), money up (`axis`),
/// horizontal grid lines only, month and compact money labels, the money axis described.
fn month_money_chart<'a, 'b>(
    plot_area: &'a Area<'b>,
    months: &[YearMonth],
    x: (f64, f64, Vec<f64>),
    axis: &ValueAxis,
    (col, label, y_desc): (&Colours, &TextStyle<'_>, &str),
    (x_label_h, y_label_w): (i32, i32),
) -> Result<MonthMoneyChart<'a, 'b>, ChartError> {
    let (lo, hi, ticks) = x;
    let mut chart = ChartBuilder::on(plot_area)
        .margin_top(MARGIN + 4)
        .margin_right(2 * MARGIN)
        .margin_left(MARGIN / 2)
        .x_label_area_size(x_label_h)
        .y_label_area_size(y_label_w)
        .build_cartesian_2d(
            TickedAxis { lo, hi, ticks },
            TickedAxis {
                lo: axis.lo,
                hi: axis.hi,
                ticks: axis.ticks.clone(),
            },
        )
        .map_err(drawing)?;
    let x_fmt = |v: &f64| month_label(months, *v);
    let y_fmt = |v: &f64| compact(*v, axis.step);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .max_light_lines(0)
        .bold_line_style(col.grid.stroke_width(1))
        .axis_style(col.axis.stroke_width(1))
        .set_all_tick_mark_size(4)
        .label_style(label.clone())
        .axis_desc_style(label.clone())
        .y_desc(y_desc)
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .draw()
        .map_err(drawing)?;
    Ok(chart)
}

/// "What (USD)", or just the currency when that is taller than the plot.
fn axis_description(
    area: &Area<'_>,
    what: &str,
    currency: &str,
    style: &TextStyle<'_>,
    plot_height: i32,
) -> Result<String, ChartError> {
    let full = format!("{what} ({currency})");
    if text_width(area, &full, style)? <= plot_height {
        Ok(full)
    } else {
        Ok(currency.to_owned())
    }
}

fn value_target(plot_height: i32) -> usize {
    usize::try_from(plot_height / 55).unwrap_or(3).clamp(3, 8)
}

/// What a chart of money over the months shows besides its data: the months, the x range, the
/// money range to fit and what the money axis measures.
struct MonthsFrame<'m> {
    months: &'m [YearMonth],
    x: (f64, f64),
    range: (f64, f64),
    what: &'m str,
    currency: &'m str,
}

/// Draws a chart of money over the months: the background, the legend `items` under the plot
/// (refused when it takes more than half the height), the shared frame, and then the data with
/// `draw` (given the chart, the whole drawing area, the label style and the money axis).
fn months_svg(
    frame: &MonthsFrame<'_>,
    items: &mut [LegendItem],
    theme: Theme,
    size: ChartSize,
    draw: impl FnOnce(&mut MonthMoneyChart<'_, '_>, &Area<'_>, &TextStyle<'_>, &ValueAxis) -> Result<(), ChartError>,
) -> Result<String, ChartError> {
    let col = colours(theme);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (size.width, size.height)).into_drawing_area();
        root.fill(&col.background).map_err(drawing)?;
        let label = font(TEXT_PX, col.text);
        let legend = legend_or_refuse(&root, items, &label, size)?;
        let height = i32::try_from(size.height).unwrap_or(i32::MAX);
        let width = i32::try_from(size.width).unwrap_or(i32::MAX);
        let (plot_area, legend_area) = root.split_vertically(height - legend.height);

        let x_label_h = 30;
        let plot_h = height - legend.height - x_label_h - 2 * MARGIN;
        let axis = value_axis(frame.range.0, frame.range.1, value_target(plot_h));
        let y_desc = axis_description(&root, frame.what, frame.currency, &label, plot_h)?;
        let y_label_w = y_label_area(&root, &axis, &label)?;
        let x_ticks = month_ticks(frame.months.len(), width - y_label_w - 3 * MARGIN);
        let mut chart = month_money_chart(
            &plot_area,
            frame.months,
            (frame.x.0, frame.x.1, x_ticks),
            &axis,
            (&col, &label, &y_desc),
            (x_label_h, y_label_w),
        )?;
        draw(&mut chart, &root, &label, &axis)?;
        draw_legend(&legend_area, items, &legend, &label)?;
        root.present().map_err(drawing)?;
    }
    Ok(svg)
}

/// The zero line across `x`, when the money axis goes below zero.
fn zero_line(
    chart: &mut MonthMoneyChart<'_, '_>,
    (x0, x1): (f64, f64),
    axis: &ValueAxis,
    col: &Colours,
) -> Result<(), ChartError> {
    if axis.lo < 0.0 {
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(x0, 0.0), (x1, 0.0)],
                col.axis.stroke_width(1),
            )))
            .map_err(drawing)?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Charts

fn legend_or_refuse(
    root: &Area<'_>,
    items: &mut [LegendItem],
    style: &TextStyle<'_>,
    size: ChartSize,
) -> Result<LegendLayout, ChartError> {
    let width = i32::try_from(size.width).unwrap_or(i32::MAX);
    let height = i32::try_from(size.height).unwrap_or(i32::MAX);
    let layout = layout_legend(root, items, style, width)?;
    if layout.height > height / 2 {
        return Err(ChartError::LegendTooLarge {
            width: size.width,
            height: size.height,
        });
    }
    Ok(layout)
}

/// Cumulative cash per scenario, month by month: one line per scenario in view order (the
/// reference thicker), the break-even point of each scenario against the reference marked on the
/// line of the scenario that is cheaper from then on, and a legend of scenario names.
pub fn cumulative_svg(view: &DecisionView, theme: Theme, size: ChartSize) -> Result<String, ChartError> {
    check_size(size)?;
    let n = view.months.len();
    if n == 0 || view.scenarios.is_empty() {
        return Err(ChartError::Empty);
    }
    font_ready()?;
    let col = colours(theme);
    // The points come from the same structure the screen's canvas chart plots.
    let plotted = series::cumulative_series(view, theme);
    let series: Vec<Vec<f64>> = plotted.lines.iter().map(|l| l.values.clone()).collect();
    let (lo, hi) = series
        .iter()
        .flatten()
        .fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(*v), hi.max(*v)));
    let is_reference = |s: &ScenarioFigures| view.reference.as_deref() == Some(s.id.as_str());
    let mut items = cumulative_legend(view, theme);

    let frame = MonthsFrame {
        months: &view.months,
        x: (0.0, (n.max(2) - 1) as f64),
        range: (lo, hi),
        what: "Cumulative cash",
        currency: &view.currency,
    };
    months_svg(&frame, &mut items, theme, size, |chart, root, label, axis| {
        zero_line(chart, frame.x, axis, &col)?;

        // The reference first, so the thinner lines stay visible where they run together.
        let mut order: Vec<usize> = (0..view.scenarios.len()).collect();
        order.sort_by_key(|&i| !is_reference(&view.scenarios[i]));
        for i in order {
            let s = &view.scenarios[i];
            let width = if is_reference(s) { 4 } else { 2 };
            let points = series[i].iter().enumerate().map(|(k, v)| (k as f64, *v));
            chart
                .draw_series(LineSeries::new(points, scenario_colour(i, theme).stroke_width(width)))
                .map_err(drawing)?;
        }

        // Break-even points: one marker per line and month, however many scenarios break even
        // there against the reference.
        let points: Vec<(usize, u32, usize)> = plotted
            .break_evens
            .iter()
            .map(|m| (m.line as usize, m.month, m.count as usize))
            .collect();
        let at = |line: usize, month: u32| {
            let k = usize::try_from(month).unwrap_or(1).max(1) - 1;
            ((k as f64), series[line].get(k).copied().unwrap_or(0.0))
        };
        for &(line, month, _) in &points {
            let p = at(line, month);
            chart
                .draw_series([
                    Circle::new(p, 6, scenario_colour(line, theme).filled()),
                    Circle::new(p, 6, col.text.stroke_width(2)),
                ])
                .map_err(drawing)?;
        }

        // Their labels, each where it crosses no line, marker or other label if there is room.
        let (plot_x, plot_y) = chart.plotting_area().get_pixel_range();
        let lines: Vec<Vec<(i32, i32)>> = series
            .iter()
            .map(|s| {
                s.iter()
                    .enumerate()
                    .map(|(k, v)| chart.backend_coord(&(k as f64, *v)))
                    .collect()
            })
            .collect();
        let markers: Vec<(i32, i32)> = points
            .iter()
            .map(|&(line, month, _)| chart.backend_coord(&at(line, month)))
            .collect();
        let mut placed: Vec<Rect> = markers.iter().map(|&(x, y)| (x - 8, y - 8, x + 8, y + 8)).collect();
        let note = label.pos(Pos::new(HPos::Left, VPos::Center));
        for (&(_, month, count), &(px, py)) in points.iter().zip(&markers) {
            let text = if count == 1 {
                format!("break-even m{month}")
            } else {
                format!("break-even m{month} ({count} scenarios)")
            };
            let tw = text_width(root, &text, label)?;
            let rect = |(x, y): (i32, i32)| (x - 3, y - 9, x + tw + 3, y + 9);
            let (x, y) = label_spot((px, py), tw, (&plot_x, &plot_y), &placed, &lines);
            let r = rect((x, y));
            placed.push(r);
            if (y - py).abs() > 20 {
                let edge_x = if x > px { r.0 } else { r.2 };
                let edge_y = if y < py { r.3 } else { r.1 };
                root.draw(&PathElement::new(
                    vec![(px, py), (edge_x, edge_y)],
                    col.axis.stroke_width(1),
                ))
                .map_err(drawing)?;
            }
            root.draw(&Rectangle::new([(r.0, r.1), (r.2, r.3)], col.background.filled()))
                .map_err(drawing)?;
            root.draw(&Text::new(text, (x, y), note.clone())).map_err(drawing)?;
        }

        Ok(())
    })
}

/// The cumulative chart's legend: each scenario's name and line, the reference's thicker and
/// labelled as the baseline when it is pinned.
fn cumulative_legend(view: &DecisionView, theme: Theme) -> Vec<LegendItem> {
    let is_reference = |s: &ScenarioFigures| view.reference.as_deref() == Some(s.id.as_str());
    view.scenarios
        .iter()
        .enumerate()
        .map(|(i, s)| LegendItem {
            label: if is_reference(s) {
                let role = if view.baseline_pinned { "baseline" } else { "reference" };
                format!("{} ({role})", s.name)
            } else {
                s.name.clone()
            },
            colour: scenario_colour(i, theme),
            swatch: Swatch::Line(if is_reference(s) { 4 } else { 2 }),
        })
        .collect()
}

/// Where a break-even label `tw` pixels wide goes beside its marker at (`px`, `py`): the first
/// place, nearest first, inside the plot area that overlaps no label or marker `placed` and
/// crosses no line, else the one crossing the fewest lines, else above right.
fn label_spot(
    (px, py): (i32, i32),
    tw: i32,
    (plot_x, plot_y): (&std::ops::Range<i32>, &std::ops::Range<i32>),
    placed: &[Rect],
    lines: &[Vec<(i32, i32)>],
) -> (i32, i32) {
    let rect = |(x, y): (i32, i32)| (x - 3, y - 9, x + tw + 3, y + 9);
    let mut best: Option<((i32, i32), usize)> = None;
    for dy in [-16, 16, -34, 34, -52, 52, -70, 70, -90, 90, -110, 110] {
        for spot in [(px + 12, py + dy), (px - 12 - tw, py + dy)] {
            let r = rect(spot);
            let inside = r.0 >= plot_x.start && r.2 <= plot_x.end && r.1 >= plot_y.start && r.3 <= plot_y.end;
            if !inside || placed.iter().any(|p| overlaps(*p, r)) {
                continue;
            }
            let crossings = lines
                .iter()
                .flat_map(|l| l.windows(2))
                .filter(|w| segment_hits_rect(w[0], w[1], r))
                .count();
            if best.is_none_or(|(_, c)| crossings < c) {
                best = Some((spot, crossings));
            }
        }
        if best.is_some_and(|(_, c)| c == 0) {
            break;
        }
    }
    best.map_or((px + 12, py - 16), |(spot, _)| spot)
}

/// One scenario's cash per month as stacked bars, one colour per cost category: costs stack
/// upward from zero, income (a negative cost, such as the resale in the last month) downward.
pub fn monthly_svg(
    view: &DecisionView,
    scenario_id: &str,
    theme: Theme,
    size: ChartSize,
) -> Result<String, ChartError> {
    check_size(size)?;
    if !view.scenarios.iter().any(|s| s.id == scenario_id) {
        return Err(ChartError::UnknownScenario(scenario_id.to_owned()));
    }
    let n = view.months.len();
    if n == 0 {
        return Err(ChartError::Empty);
    }
    font_ready()?;
    let col = colours(theme);

    // The bars come from the same structure the screen's canvas chart plots.
    let plotted =
        series::monthly_series(view, scenario_id).ok_or_else(|| ChartError::UnknownScenario(scenario_id.to_owned()))?;
    let colour_of = |c: u32| {
        plotted
            .categories
            .get(c as usize)
            .map_or(col.axis, |c| hex_colour(&c.colour))
    };
    let lo = plotted.segments.iter().map(|b| b.from.min(b.to)).fold(0.0, f64::min);
    let hi = plotted.segments.iter().map(|b| b.from.max(b.to)).fold(0.0, f64::max);
    let mut items: Vec<LegendItem> = plotted
        .categories
        .iter()
        .map(|c| LegendItem {
            label: c.label.clone(),
            colour: hex_colour(&c.colour),
            swatch: Swatch::Block,
        })
        .collect();

    let frame = MonthsFrame {
        months: &view.months,
        x: (-0.5, n as f64 - 0.5),
        range: (lo, hi),
        what: "Cash per month",
        currency: &view.currency,
    };
    months_svg(&frame, &mut items, theme, size, |chart, _, _, axis| {
        chart
            .draw_series(plotted.segments.iter().map(|b| {
                let x = f64::from(b.month);
                Rectangle::new([(x - 0.4, b.from), (x + 0.4, b.to)], colour_of(b.category).filled())
            }))
            .map_err(drawing)?;
        zero_line(chart, frame.x, axis, &col)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_labels_use_units_and_the_decimals_the_step_needs() {
        assert_eq!(compact(0.0, 250_000.0), "0");
        assert_eq!(compact(250_000.0, 250_000.0), "250k");
        assert_eq!(compact(1_250_000.0, 250_000.0), "1.25M");
        assert_eq!(compact(1_500_000.0, 250_000.0), "1.5M");
        assert_eq!(compact(-500_000.0, 500_000.0), "-500k");
        assert_eq!(compact(3_000_000_000.0, 1_000_000_000.0), "3B");
        assert_eq!(compact(1_500.0, 500.0), "1.5k");
        assert_eq!(compact(400.0, 200.0), "400");
        assert_eq!(compact(0.5, 0.25), "0.5");
    }

    #[test]
    fn value_axis_has_round_ticks_zero_and_room_for_the_data() {
        let a = value_axis(120_000.0, 3_347_463.43, 6);
        assert_eq!(a.step, 500_000.0);
        assert_eq!(a.lo, 0.0);
        assert!(a.hi > 3_347_463.43 && a.hi < 3_500_000.0, "{}", a.hi);
        assert_eq!(a.ticks, [0.0, 0.5e6, 1e6, 1.5e6, 2e6, 2.5e6, 3e6]);
        let b = value_axis(-410_000.0, 1_900_000.0, 6);
        assert_eq!(b.step, 500_000.0);
        assert!(b.lo < -410_000.0 && b.hi > 1_900_000.0);
        assert_eq!(b.ticks, [-0.5e6, 0.0, 0.5e6, 1e6, 1.5e6]);
        let c = value_axis(0.0, 2_513.9, 5);
        assert_eq!(c.ticks, [0.0, 500.0, 1000.0, 1500.0, 2000.0, 2500.0]);
        // All zero: still a drawable range.
        let z = value_axis(0.0, 0.0, 5);
        assert!(z.hi > z.lo);
    }

    #[test]
    fn segments_and_rectangles() {
        let r = (10, 10, 20, 20);
        assert!(segment_hits_rect((0, 15), (30, 15), r), "straight through");
        assert!(segment_hits_rect((12, 12), (14, 14), r), "inside");
        assert!(segment_hits_rect((0, 0), (30, 30), r), "diagonal through");
        assert!(!segment_hits_rect((0, 0), (30, 0), r), "above");
        assert!(!segment_hits_rect((0, 15), (9, 15), r), "stops short");
        assert!(!segment_hits_rect((0, 12), (12, 0), r), "cuts the corner outside");
        assert!(overlaps((0, 0, 10, 10), (5, 5, 15, 15)));
        assert!(!overlaps((0, 0, 10, 10), (10, 0, 20, 10)));
    }

    #[test]
    fn month_labels_thin_out_to_fit() {
        assert_eq!(month_step(36, 10), 6);
        assert_eq!(month_step(12, 12), 1);
        assert_eq!(month_step(12, 10), 2);
        assert_eq!(month_step(60, 8), 12);
        assert_eq!(month_step(240, 3), 120);
    }

    #[test]
    fn palettes_are_distinct() {
        for theme in [Theme::Light, Theme::Dark] {
            let bg = colours(theme).background;
            let cs: Vec<RGBColor> = (0..8).map(|i| scenario_colour(i, theme)).collect();
            for (i, a) in cs.iter().enumerate() {
                assert_ne!(*a, bg);
                assert!(
                    cs[i + 1..].iter().all(|b| b != a),
                    "{theme:?} scenario colour {i} repeats"
                );
            }
        }
        let cats: Vec<(u8, u8, u8)> = Category::ALL.iter().map(|&c| category_colour(c)).collect();
        for (i, a) in cats.iter().enumerate() {
            assert!(cats[i + 1..].iter().all(|b| b != a), "category colour {i} repeats");
        }
    }

    #[test]
    fn sizes_outside_the_limits_are_refused() {
        let view = DecisionView {
            title: "t".into(),
            currency: "USD".into(),
            start: planner_core::calendar::YearMonth { year: 2027, month: 1 },
            horizon_months: 0,
            months: vec![],
            reference: None,
            baseline_pinned: false,
            scenarios: vec![],
            ranked_on: None,
        };
        let small = ChartSize {
            width: 100,
            height: 300,
        };
        assert_eq!(
            cumulative_svg(&view, Theme::Light, small),
            Err(ChartError::Size {
                width: 100,
                height: 300
            })
        );
        assert_eq!(
            cumulative_svg(&view, Theme::Light, ChartSize::default()),
            Err(ChartError::Empty)
        );
        assert_eq!(
            monthly_svg(&view, "x", Theme::Dark, ChartSize::default()),
            Err(ChartError::UnknownScenario("x".into()))
        );
    }
}
