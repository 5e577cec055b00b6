//! The risk analysis's charts (issue #16), from the same frame, helpers and scenario colours as
//! the cumulative chart:
//!
//! - [`risk_fan_svg`]: each scenario's cumulative cash from P10 to P90 of the draws as a band (a
//!   solid lighter tint of the scenario's colour: no opacity) with its P50 as a line, the
//!   baseline's thicker; the widest band is drawn first so the narrower ones stay visible.
//! - [`risk_tornado_svg`]: one horizontal bar per tornado bar (largest swing on top, at most ten),
//!   from the scenario's difference from the baseline with the figure at its P10 to the
//!   difference with it at its P90, around the vertical line of the difference at every figure's
//!   point; each bar labelled with the figure (catalog entry and field) on the left and its swing
//!   on the right; under it, when the analysis found that the figures interact, the joint spread
//!   against the combined swings.
//!
//! The outcome holds no month or currency: [`RiskLabels`] gives them.

use planner_core::calendar::YearMonth;
use planner_core::engine::risk::run::{RiskOutcome, Tornado, TornadoBar};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use rust_decimal::Decimal;

use super::{
    Area, ChartError, ChartSize, LegendItem, MARGIN, MonthsFrame, Swatch, TEXT_PX, Theme, TickedAxis, axis_over,
    check_size, colours, compact, drawing, fit_text, font, font_ready, months_svg, scenario_colour, text_width, to_f64,
    zero_line,
};
use crate::grouped;

/// The most bars a tornado shows.
pub const TORNADO_BARS: usize = 10;

/// What a risk chart needs besides the outcome: the plan's currency and first month.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RiskLabels {
    pub currency: String,
    pub start: YearMonth,
}

/// The height that gives a tornado of `bars` bars (at most [`TORNADO_BARS`]) rows of about 34
/// pixels, with room for the axis and, when `note`, the interaction note under it.
pub fn tornado_height(bars: usize, note: bool) -> u32 {
    let rows = u32::try_from(bars.min(TORNADO_BARS)).unwrap_or(10);
    (100 + 34 * rows + if note { 44 } else { 0 }).max(ChartSize::MIN_HEIGHT)
}

/// `c` mixed with the background `bg`, `share` of it `c`: the band's solid tint.
fn tint(c: RGBColor, bg: RGBColor, share: f64) -> RGBColor {
    let mix = |a: u8, b: u8| {
        let v = f64::from(a) * share + f64::from(b) * (1.0 - share);
        // 0..=255 by construction.
        v.round().clamp(0.0, 255.0) as u8
    };
    RGBColor(mix(c.0, bg.0), mix(c.1, bg.1), mix(c.2, bg.2))
}

/// The share of the scenario colour in a band's tint, by theme.
fn band_share(theme: Theme) -> f64 {
    match theme {
        Theme::Light => 0.28,
        Theme::Dark => 0.4,
    }
}

/// Each scenario's cumulative cash band over the draws: the P10–P90 band in a lighter tint of the
/// scenario's colour, its P50 as a line (the baseline's thicker), months across as in
/// [`super::cumulative_svg`], and a legend of scenario names.
pub fn risk_fan_svg(
    outcome: &RiskOutcome,
    labels: &RiskLabels,
    theme: Theme,
    size: ChartSize,
) -> Result<String, ChartError> {
    check_size(size)?;
    // Each fan with its scenario's place (its colour) and its three series.
    let bands: Vec<(usize, [Vec<f64>; 3])> = outcome
        .fans
        .iter()
        .filter_map(|f| {
            let i = outcome.scenarios.iter().position(|s| s.id == f.scenario)?;
            let series = |v: &[Decimal]| v.iter().map(to_f64).collect::<Vec<f64>>();
            Some((i, [series(&f.p10), series(&f.p50), series(&f.p90)]))
        })
        .collect();
    let n = bands.iter().map(|(_, b)| b[1].len()).max().unwrap_or(0);
    if n == 0 {
        return Err(ChartError::Empty);
    }
    font_ready()?;
    let col = colours(theme);
    let (lo, hi) = bands
        .iter()
        .flat_map(|(_, b)| b.iter().flatten())
        .fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(*v), hi.max(*v)));
    let is_base = |i: usize| outcome.scenarios[i].id == outcome.baseline;
    let mut items: Vec<LegendItem> = outcome
        .scenarios
        .iter()
        .enumerate()
        .map(|(i, s)| LegendItem {
            label: if is_base(i) {
                format!("{} (baseline)", s.name)
            } else {
                s.name.clone()
            },
            colour: scenario_colour(i, theme),
            swatch: Swatch::Line(if is_base(i) { 4 } else { 2 }),
        })
        .collect();
    items.push(LegendItem {
        label: "P10 to P90 of the draws (band); P50 (line)".to_owned(),
        colour: tint(col.axis, col.background, band_share(theme)),
        swatch: Swatch::Block,
    });
    let months: Vec<YearMonth> = (0..n)
        .map(|m| labels.start.plus(u32::try_from(m).unwrap_or(u32::MAX)))
        .collect();
    let frame = MonthsFrame {
        months: &months,
        x: (0.0, (n.max(2) - 1) as f64),
        range: (lo, hi),
        what: "Cumulative cash",
        currency: &labels.currency,
    };
    // The widest band first, so a narrower one drawn over it stays visible.
    let width_of = |b: &[Vec<f64>; 3]| b[2].iter().zip(&b[0]).map(|(h, l)| (h - l).abs()).sum::<f64>();
    let mut order: Vec<&(usize, [Vec<f64>; 3])> = bands.iter().collect();
    order.sort_by(|a, b| width_of(&b.1).total_cmp(&width_of(&a.1)));
    months_svg(&frame, &mut items, theme, size, |chart, _, _, axis| {
        zero_line(chart, frame.x, axis, &col)?;
        let at = |v: &[f64]| v.iter().enumerate().map(|(k, y)| (k as f64, *y)).collect::<Vec<_>>();
        for (i, [p10, _, p90]) in order.iter().map(|b| (b.0, &b.1)) {
            let colour = scenario_colour(i, theme);
            let mut outline = at(p90);
            outline.extend(at(p10).into_iter().rev());
            chart
                .draw_series(std::iter::once(Polygon::new(
                    outline,
                    tint(colour, col.background, band_share(theme)).filled(),
                )))
                .map_err(drawing)?;
            for edge in [p10, p90] {
                chart
                    .draw_series(LineSeries::new(at(edge), colour.stroke_width(1)))
                    .map_err(drawing)?;
            }
        }
        // The P50 lines over every band, the baseline's first and thicker.
        let mut lines: Vec<&(usize, [Vec<f64>; 3])> = bands.iter().collect();
        lines.sort_by_key(|b| !is_base(b.0));
        for (i, b) in lines.iter().map(|b| (b.0, &b.1)) {
            let width = if is_base(i) { 4 } else { 2 };
            chart
                .draw_series(LineSeries::new(
                    at(&b[1]),
                    scenario_colour(i, theme).stroke_width(width),
                ))
                .map_err(drawing)?;
        }
        Ok(())
    })
}

/// The name of scenario `id` in `outcome` (its id when it has none there).
fn name_of_scenario<'o>(outcome: &'o RiskOutcome, id: &'o str) -> &'o str {
    outcome
        .scenarios
        .iter()
        .find(|s| s.id == id)
        .map_or(id, |s| s.name.as_str())
}

/// How a tornado bar's figure reads: `entry: field` with the field's words spaced.
fn figure_label(outcome: &RiskOutcome, figure: u32) -> String {
    usize::try_from(figure)
        .ok()
        .and_then(|k| outcome.figures.get(k))
        .map_or_else(
            || format!("figure {figure}"),
            |f| format!("{}: {}", f.entry, f.field.replace('_', " ")),
        )
}

/// A tornado bar's swing as printed beside it: whole currency units, grouped.
pub fn swing_label(swing: Decimal) -> String {
    format!("swing {}", grouped(swing, 0))
}

/// The lines printed under a tornado: the joint spread against the combined swings, when the
/// analysis says the figures interact.
fn tornado_note(t: &Tornado, currency: &str) -> Vec<String> {
    if t.interaction_note.is_none() {
        return Vec::new();
    }
    vec![
        format!(
            "The joint draws spread {} {currency} (P10 to P90); the one-at-a-time swings combine to {} {currency}:",
            grouped(t.joint_spread, 0),
            grouped(t.swings_combined, 0)
        ),
        "the figures interact or move together, so the bars do not explain the whole spread.".to_owned(),
    ]
}

/// What drives scenario `scenario_id`'s difference from the baseline: one bar per figure of its
/// tornado (largest swing on top, at most [`TORNADO_BARS`]) from the difference with the figure at
/// its P10 to the difference with it at its P90, every other figure at its point; the vertical
/// line is the difference with every figure at its point. Money across, in `labels.currency`.
pub fn risk_tornado_svg(
    outcome: &RiskOutcome,
    labels: &RiskLabels,
    scenario_id: &str,
    theme: Theme,
    size: ChartSize,
) -> Result<String, ChartError> {
    check_size(size)?;
    let index = outcome
        .scenarios
        .iter()
        .position(|s| s.id == scenario_id)
        .ok_or_else(|| ChartError::UnknownScenario(scenario_id.to_owned()))?;
    let tornado = outcome
        .tornados
        .iter()
        .find(|t| t.scenario == scenario_id)
        .filter(|t| !t.bars.is_empty())
        .ok_or_else(|| ChartError::NoTornado(scenario_id.to_owned()))?;
    font_ready()?;
    let col = colours(theme);
    let bars = &tornado.bars[..tornado.bars.len().min(TORNADO_BARS)];
    let rows = bars.len();
    let (lo, hi) = bars
        .iter()
        .flat_map(|b| [b.at_p10, b.at_p90])
        .chain([tornado.at_point])
        .map(|d| to_f64(&d))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let baseline = name_of_scenario(outcome, &outcome.baseline);
    let note = tornado_note(tornado, &labels.currency);

    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (size.width, size.height)).into_drawing_area();
        root.fill(&col.background).map_err(drawing)?;
        let label = font(TEXT_PX, col.text);
        let width = i32::try_from(size.width).unwrap_or(i32::MAX);
        let height = i32::try_from(size.height).unwrap_or(i32::MAX);
        let (names, swings, names_w, swings_w) = row_labels(&root, outcome, bars, &label, width)?;
        let note_h = i32::try_from(note.len()).unwrap_or(0) * 18 + if note.is_empty() { 0 } else { 8 };
        let (chart_area, note_area) = root.split_vertically(height - note_h);

        let plot_w = width - names_w - swings_w - 4 * MARGIN;
        let axis = axis_over(lo, hi, usize::try_from(plot_w / 110).unwrap_or(3).clamp(3, 8));
        let row_of = |k: usize| (rows - 1 - k) as f64;
        let name_of = |v: &f64| {
            let k = v.round();
            if k < 0.0 {
                return String::new();
            }
            let k = rows.saturating_sub(1).saturating_sub(k as usize);
            names.get(k).cloned().unwrap_or_default()
        };
        let money = |v: &f64| compact(*v, axis.step);
        let x_desc = format!("Difference from {baseline} ({})", labels.currency);
        let mut chart = ChartBuilder::on(&chart_area)
            .margin_top(MARGIN)
            .margin_right(swings_w + 2 * MARGIN)
            .margin_left(MARGIN / 2)
            .x_label_area_size(48)
            .y_label_area_size(names_w + 12)
            .build_cartesian_2d(
                TickedAxis {
                    lo: axis.lo,
                    hi: axis.hi,
                    ticks: axis.ticks.clone(),
                },
                TickedAxis {
                    lo: -0.5,
                    hi: rows as f64 - 0.5,
                    ticks: (0..rows).map(|k| k as f64).collect(),
                },
            )
            .map_err(drawing)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .max_light_lines(0)
            .bold_line_style(col.grid.stroke_width(1))
            .axis_style(col.axis.stroke_width(1))
            .set_all_tick_mark_size(4)
            .label_style(label.clone())
            .axis_desc_style(label.clone())
            .x_desc(x_desc)
            .x_label_formatter(&money)
            .y_label_formatter(&name_of)
            .draw()
            .map_err(drawing)?;
        let colour = scenario_colour(index, theme);
        chart
            .draw_series(bars.iter().enumerate().map(|(k, b)| {
                let y = row_of(k);
                Rectangle::new(
                    [(to_f64(&b.at_p10), y - 0.32), (to_f64(&b.at_p90), y + 0.32)],
                    colour.filled(),
                )
            }))
            .map_err(drawing)?;
        let (top, bottom) = (-0.5, rows as f64 - 0.5);
        if axis.lo < 0.0 && axis.hi > 0.0 && !tornado.at_point.is_zero() {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(0.0, top), (0.0, bottom)],
                    col.axis.stroke_width(1),
                )))
                .map_err(drawing)?;
        }
        let point = to_f64(&tornado.at_point);
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(point, top), (point, bottom)],
                col.text.stroke_width(2),
            )))
            .map_err(drawing)?;
        // The swings in a column right of the plot.
        let (plot_x, _) = chart.plotting_area().get_pixel_range();
        let right = label.pos(Pos::new(HPos::Left, VPos::Center));
        for (k, swing) in swings.into_iter().enumerate() {
            let (_, y) = chart.backend_coord(&(axis.lo, row_of(k)));
            root.draw(&Text::new(swing, (plot_x.end + MARGIN, y), right.clone()))
                .map_err(drawing)?;
        }
        draw_note(&note_area, &note, &label)?;
        root.present().map_err(drawing)?;
    }
    Ok(svg)
}

/// Each bar's figure name (cut to two fifths of `width`) and swing as printed, and the widest of
/// each.
fn row_labels(
    root: &Area<'_>,
    outcome: &RiskOutcome,
    bars: &[TornadoBar],
    label: &TextStyle<'_>,
    width: i32,
) -> Result<(Vec<String>, Vec<String>, i32, i32), ChartError> {
    let names: Vec<String> = bars
        .iter()
        .map(|b| fit_text(root, &figure_label(outcome, b.figure), label, width * 2 / 5))
        .collect::<Result<_, _>>()?;
    let swings: Vec<String> = bars.iter().map(|b| swing_label(b.swing)).collect();
    let mut names_w = 0;
    let mut swings_w = 0;
    for (name, swing) in names.iter().zip(&swings) {
        names_w = names_w.max(text_width(root, name, label)?);
        swings_w = swings_w.max(text_width(root, swing, label)?);
    }
    Ok((names, swings, names_w, swings_w))
}

/// `lines` under a chart, one to a row.
fn draw_note(area: &Area<'_>, lines: &[String], style: &TextStyle<'_>) -> Result<(), ChartError> {
    let left = style.pos(Pos::new(HPos::Left, VPos::Top));
    for (row, line) in (0i32..).zip(lines) {
        area.draw(&Text::new(line.clone(), (MARGIN, 4 + row * 18), left.clone()))
            .map_err(drawing)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tint_is_the_colour_mixed_with_the_background() {
        let white = RGBColor(0xFF, 0xFF, 0xFF);
        assert_eq!(tint(RGBColor(0x00, 0x72, 0xB2), white, 1.0), RGBColor(0x00, 0x72, 0xB2));
        assert_eq!(tint(RGBColor(0x00, 0x72, 0xB2), white, 0.0), white);
        // 0.28 × 0x72 + 0.72 × 0xFF = 31.92 + 183.6 = 215.52.
        assert_eq!(tint(RGBColor(0x00, 0x72, 0xB2), white, 0.28).1, 216);
    }

    #[test]
    fn swings_print_in_whole_units() {
        assert_eq!(swing_label(Decimal::new(-123_456_789, 2)), "swing -1,234,568");
        assert_eq!(swing_label(Decimal::new(405, 1)), "swing 40");
    }
}
