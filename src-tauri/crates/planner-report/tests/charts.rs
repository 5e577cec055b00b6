//! The charts drawn from real decision views (sample scenario files evaluated on the shipped
//! catalog), read back as XML with roxmltree: the SVG parses, shows every scenario, marks the
//! break-even point where the engine found one (and only then), and stacks one bar per non-zero
//! month and category.

// Test code: a failed expectation is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::engine::decide::decision::DecisionView;
use planner_core::engine::model::ledger::Category;
use planner_report::category_label;
use planner_report::charts::{ChartError, ChartSize, FONT_FAMILY, Theme, category_colour, cumulative_svg, monthly_svg};
use roxmltree::{Document, Node};

const SIZE: ChartSize = ChartSize {
    width: 800,
    height: 420,
};

fn elements<'a>(doc: &'a Document<'a>, tag: &str) -> Vec<Node<'a, 'a>> {
    doc.descendants().filter(|n| n.has_tag_name(tag)).collect()
}

fn texts(doc: &Document<'_>) -> Vec<String> {
    elements(doc, "text")
        .iter()
        .map(|n| n.text().unwrap_or("").trim().to_owned())
        .collect()
}

fn attr(n: &Node<'_, '_>, name: &str) -> String {
    n.attribute(name)
        .unwrap_or_else(|| panic!("<{}> has no {name}", n.tag_name().name()))
        .to_owned()
}

fn num(n: &Node<'_, '_>, name: &str) -> i64 {
    attr(n, name).parse().unwrap()
}

fn points(n: &Node<'_, '_>) -> Vec<(i64, i64)> {
    attr(n, "points")
        .split_whitespace()
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

fn hex((r, g, b): (u8, u8, u8)) -> String {
    format!("#{r:02X}{g:02X}{b:02X}")
}

/// The stroke colour of the data line of each scenario, in view order: the polyline with one
/// point per month, of the reference's width 4 or the others' 2.
fn data_lines<'a>(doc: &'a Document<'a>, view: &DecisionView) -> Vec<Node<'a, 'a>> {
    elements(doc, "polyline")
        .into_iter()
        .filter(|p| points(p).len() == view.months.len())
        .collect()
}

fn check_svg_frame(doc: &Document<'_>, size: ChartSize) {
    let root = doc.root_element();
    assert!(root.has_tag_name(("http://www.w3.org/2000/svg", "svg")));
    assert_eq!(attr(&root, "width"), size.width.to_string());
    assert_eq!(attr(&root, "height"), size.height.to_string());
    assert_eq!(attr(&root, "viewBox"), format!("0 0 {} {}", size.width, size.height));
    for n in doc.descendants().filter(|n| n.is_element()) {
        if let Some(o) = n.attribute("opacity") {
            assert_eq!(
                o,
                "1",
                "translucent <{}>: a PDF would need a transparency group",
                n.tag_name().name()
            );
        }
    }
    for t in elements(doc, "text") {
        assert_eq!(attr(&t, "font-family"), FONT_FAMILY);
        let (x, y) = (num(&t, "x"), num(&t, "y"));
        let rotated = t.attribute("transform").is_some();
        assert!(
            (0..=i64::from(size.width)).contains(&x) && (0..=i64::from(size.height)).contains(&y),
            "text {:?} at ({x}, {y}) is outside the chart",
            t.text()
        );
        if !rotated && attr(&t, "text-anchor") == "start" {
            // DejaVu Sans at 12 px is at most ~8 px per character of these labels.
            let len = i64::try_from(t.text().unwrap_or("").trim().chars().count()).unwrap();
            assert!(
                x + len * 5 <= i64::from(size.width),
                "text {:?} runs off the right edge",
                t.text()
            );
        }
    }
}

#[test]
fn cumulative_chart_shows_every_scenario_and_marks_the_break_even_on_the_cheaper_line() {
    let (_, view) = common::sample("embodied-ai-team");
    // The premise: the engine finds a break-even at month 17, edge-domestic cheaper from then on.
    let be = view.scenarios[1]
        .difference
        .as_ref()
        .and_then(|d| d.break_even.clone())
        .expect("embodied-ai-team has a break-even");
    assert_eq!((be.month, be.cheaper_after.as_str()), (17, "edge-domestic"));

    let svg = cumulative_svg(&view, Theme::Light, SIZE).unwrap();
    let doc = Document::parse(&svg).expect("the SVG is well-formed XML");
    check_svg_frame(&doc, SIZE);
    let texts = texts(&doc);
    for s in &view.scenarios {
        assert!(
            texts.iter().any(|t| t.starts_with(&s.name)),
            "no legend entry for {}: {texts:?}",
            s.name
        );
    }
    assert!(texts.contains(&"Cumulative cash (USD)".to_owned()), "{texts:?}");
    assert!(texts.contains(&view.months[0].to_string()), "first month label");
    assert!(texts.contains(&"break-even m17".to_owned()), "{texts:?}");

    // One line per scenario, one point per month; the reference thicker.
    let lines = data_lines(&doc, &view);
    assert_eq!(lines.len(), view.scenarios.len());
    assert_eq!(
        attr(&lines[0], "stroke-width"),
        "4",
        "the reference is drawn first and thicker"
    );
    assert_eq!(attr(&lines[1], "stroke-width"), "2");
    assert_ne!(attr(&lines[0], "stroke"), attr(&lines[1], "stroke"));

    // The marker: on the cheaper-after line, at month 17 exactly (the line's 17th point).
    let circles = elements(&doc, "circle");
    assert_eq!(circles.len(), 2, "a filled dot and its ring");
    // Lines are drawn reference first, then in view order; here the reference is the first.
    assert_eq!(view.reference.as_deref(), Some(view.scenarios[0].id.as_str()));
    let cheaper = view.scenarios.iter().position(|s| s.id == be.cheaper_after).unwrap();
    let line = &lines[cheaper];
    let p17 = points(line)[16];
    for c in &circles {
        assert_eq!((num(c, "cx"), num(c, "cy")), p17);
    }
    assert_eq!(attr(&circles[0], "fill"), attr(line, "stroke"));

    // The marker sits where the two lines meet: the other line passes within a few pixels.
    let other = &lines[1 - cheaper];
    let q17 = points(other)[16];
    assert!((q17.1 - p17.1).abs() <= 12, "{q17:?} vs {p17:?}");
}

#[test]
fn no_break_even_no_marker() {
    let (_, view) = common::sample("student-lora-rtx4090");
    assert!(
        view.scenarios
            .iter()
            .all(|s| s.difference.as_ref().is_none_or(|d| d.break_even.is_none()))
    );
    let svg = cumulative_svg(&view, Theme::Dark, SIZE).unwrap();
    let doc = Document::parse(&svg).unwrap();
    check_svg_frame(&doc, SIZE);
    assert!(elements(&doc, "circle").is_empty());
    assert!(!texts(&doc).iter().any(|t| t.contains("break-even")));
}

#[test]
fn dark_and_light_differ_in_background_and_text() {
    let (_, view) = common::sample("enterprise-hybrid");
    let light = cumulative_svg(&view, Theme::Light, SIZE).unwrap();
    let dark = cumulative_svg(&view, Theme::Dark, SIZE).unwrap();
    let (l, d) = (Document::parse(&light).unwrap(), Document::parse(&dark).unwrap());
    let background = |doc: &Document<'_>| attr(&elements(doc, "rect")[0], "fill");
    assert_eq!(background(&l), "#FFFFFF");
    assert_eq!(background(&d), "#1E1F24");
    let text_fill = |doc: &Document<'_>| attr(&elements(doc, "text")[0], "fill");
    assert_ne!(text_fill(&l), text_fill(&d));
    assert_eq!(texts(&l), texts(&d), "the same labels in both themes");
    // The monthly chart follows the theme too.
    let id = &view.scenarios[0].id;
    let ml = Document::parse(&monthly_svg(&view, id, Theme::Light, SIZE).unwrap())
        .unwrap()
        .root_element()
        .first_element_child()
        .map(|n| attr(&n, "fill"));
    let md = Document::parse(&monthly_svg(&view, id, Theme::Dark, SIZE).unwrap())
        .unwrap()
        .root_element()
        .first_element_child()
        .map(|n| attr(&n, "fill"));
    assert_eq!((ml.as_deref(), md.as_deref()), (Some("#FFFFFF"), Some("#1E1F24")));
}

#[test]
fn eight_scenarios_get_eight_colours_and_a_legend_that_fits() {
    let (_, view) = common::evaluate_text(&common::eight_scenarios_text(), None);
    assert_eq!(view.scenarios.len(), 8);
    assert_eq!(view.months.len(), 36);
    let svg = cumulative_svg(&view, Theme::Dark, SIZE).unwrap();
    let doc = Document::parse(&svg).unwrap();
    check_svg_frame(&doc, SIZE);
    let lines = data_lines(&doc, &view);
    assert_eq!(lines.len(), 8);
    let mut colours: Vec<String> = lines.iter().map(|l| attr(l, "stroke")).collect();
    colours.sort();
    colours.dedup();
    assert_eq!(colours.len(), 8, "{colours:?}");
    let texts = texts(&doc);
    for s in &view.scenarios {
        assert!(texts.iter().any(|t| t.starts_with(&s.name)), "{}", s.name);
    }
    // The four all-cloud copies break even with the reference at the same point: one marker,
    // one label that says so.
    assert!(texts.contains(&"break-even m17 (4 scenarios)".to_owned()), "{texts:?}");
    assert_eq!(elements(&doc, "circle").len(), 2);
}

#[test]
fn monthly_chart_stacks_one_bar_per_non_zero_month_and_category() {
    let (_, view) = common::sample("enterprise-hybrid");
    let s = view.scenarios.iter().find(|s| s.id == "hybrid").unwrap();
    let residual = s
        .monthly
        .iter()
        .find(|c| c.category == Category::Residual)
        .expect("owned hardware is sold at the horizon");
    assert!(residual.values.last().unwrap().is_sign_negative());

    let svg = monthly_svg(&view, "hybrid", Theme::Light, SIZE).unwrap();
    let doc = Document::parse(&svg).unwrap();
    check_svg_frame(&doc, SIZE);
    let rects = elements(&doc, "rect");
    let texts = texts(&doc);
    assert!(texts.contains(&"Cash per month (USD)".to_owned()), "{texts:?}");
    let mut bars = 0;
    for series in &s.monthly {
        let non_zero = series.values.iter().filter(|v| !v.is_zero()).count();
        let fill = hex(category_colour(series.category));
        let drawn = rects.iter().filter(|r| attr(r, "fill") == fill).count();
        // Bars, plus the legend's swatch.
        assert_eq!(drawn, non_zero + 1, "{:?}", series.category);
        assert!(texts.contains(&category_label(series.category).to_owned()));
        bars += non_zero;
    }
    assert!(bars > view.months.len(), "{bars} bars");

    // Costs stack upward and the resale downward, from one zero line.
    let fill = hex(category_colour(Category::Residual));
    let resale = rects.iter().find(|r| attr(r, "fill") == fill).unwrap();
    let zero = num(resale, "y");
    assert!(num(resale, "height") > 20, "the resale is a visible bar");
    let positive_bottoms: Vec<i64> = s
        .monthly
        .iter()
        .filter(|c| c.category != Category::Residual)
        .flat_map(|c| {
            let fill = hex(category_colour(c.category));
            let mut of_colour: Vec<&Node<'_, '_>> = rects.iter().filter(|r| attr(r, "fill") == fill).collect();
            of_colour.pop(); // the legend swatch, drawn last
            of_colour
                .into_iter()
                .map(|r| num(r, "y") + num(r, "height"))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(
        positive_bottoms.iter().all(|&b| b <= zero + 1),
        "a cost bar reaches below zero"
    );
    assert!(positive_bottoms.contains(&zero) || positive_bottoms.contains(&(zero + 1)));
}

#[test]
fn categories_that_are_never_used_are_left_out_of_the_legend() {
    let (_, view) = common::sample("startup-inference-saas");
    let api = view.scenarios.iter().find(|s| s.id == "api").unwrap();
    let svg = monthly_svg(&view, "api", Theme::Dark, SIZE).unwrap();
    let doc = Document::parse(&svg).unwrap();
    let texts = texts(&doc);
    for c in Category::ALL {
        let used = api.monthly.iter().any(|s| s.category == c);
        assert_eq!(texts.contains(&category_label(c).to_owned()), used, "{c:?}");
    }
}

#[test]
fn an_unknown_scenario_or_an_unusable_size_is_an_error() {
    let (_, view) = common::sample("university-lab-pool");
    assert_eq!(
        monthly_svg(&view, "no-such-scenario", Theme::Light, SIZE),
        Err(ChartError::UnknownScenario("no-such-scenario".to_owned()))
    );
    let tiny = ChartSize { width: 40, height: 30 };
    assert_eq!(
        cumulative_svg(&view, Theme::Light, tiny),
        Err(ChartError::Size { width: 40, height: 30 })
    );
    // Eighteen-category legends need room: a small chart says so instead of clipping it.
    let (_, eight) = common::evaluate_text(&common::eight_scenarios_text(), None);
    let small = ChartSize {
        width: ChartSize::MIN_WIDTH,
        height: ChartSize::MIN_HEIGHT,
    };
    assert_eq!(
        cumulative_svg(&eight, Theme::Light, small),
        Err(ChartError::LegendTooLarge {
            width: small.width,
            height: small.height
        })
    );
    // The smallest size still draws a two-scenario comparison, with long names cut short.
    let svg = cumulative_svg(&view, Theme::Light, small).unwrap();
    let doc = Document::parse(&svg).unwrap();
    check_svg_frame(&doc, small);
}

/// A pixel coordinate is `a + b·value` on both axes: the fit through the two extreme points of
/// `pairs`, and the largest distance of any point from it, in pixels.
fn worst_miss(pairs: &[(f64, f64)]) -> f64 {
    let lo = pairs
        .iter()
        .copied()
        .fold((f64::MAX, 0.0), |m, p| if p.0 < m.0 { p } else { m });
    let hi = pairs
        .iter()
        .copied()
        .fold((f64::MIN, 0.0), |m, p| if p.0 > m.0 { p } else { m });
    if hi.0 <= lo.0 {
        return pairs.iter().map(|p| (p.1 - lo.1).abs()).fold(0.0, f64::max);
    }
    let b = (hi.1 - lo.1) / (hi.0 - lo.0);
    pairs
        .iter()
        .map(|(v, px)| (px - (lo.1 + b * (v - lo.0))).abs())
        .fold(0.0, f64::max)
}

#[test]
fn the_memo_chart_plots_the_points_of_the_series_the_screen_draws() {
    use planner_report::charts::series::{cumulative_series, monthly_series};
    for sample in ["embodied-ai-team", "enterprise-hybrid", "student-lora-rtx4090"] {
        let (_, view) = common::sample(sample);
        let series = cumulative_series(&view, Theme::Light);
        let svg = cumulative_svg(&view, Theme::Light, SIZE).unwrap();
        let doc = Document::parse(&svg).unwrap();
        let lines = data_lines(&doc, &view);
        assert_eq!(lines.len(), series.lines.len(), "{sample}");
        // Each series line is drawn in its colour and width, with one point per value.
        let mut ys = Vec::new();
        let mut xs = Vec::new();
        for line in &series.lines {
            let drawn = lines
                .iter()
                .find(|l| attr(l, "stroke").eq_ignore_ascii_case(&line.colour))
                .unwrap_or_else(|| panic!("{sample}: no line in {}", line.colour));
            assert_eq!(attr(drawn, "stroke-width"), line.width.to_string());
            let pts = points(drawn);
            assert_eq!(pts.len(), line.values.len());
            for (k, ((px, py), v)) in pts.iter().zip(&line.values).enumerate() {
                ys.push((*v, *py as f64));
                xs.push((k as f64, *px as f64));
            }
        }
        // Pixels are whole numbers: every point lies within a pixel of one linear map.
        assert!(worst_miss(&ys) <= 1.0, "{sample}: y off by {}", worst_miss(&ys));
        assert!(worst_miss(&xs) <= 1.0, "{sample}: x off by {}", worst_miss(&xs));

        // The monthly bars: one rectangle per segment, in the category's colour.
        let id = &view.scenarios[0].id;
        let bars = monthly_series(&view, id).unwrap();
        let svg = monthly_svg(&view, id, Theme::Light, SIZE).unwrap();
        let doc = Document::parse(&svg).unwrap();
        for c in &bars.categories {
            let want = bars
                .segments
                .iter()
                .filter(|s| bars.categories[s.category as usize] == *c)
                .count();
            let drawn = elements(&doc, "rect")
                .iter()
                .filter(|r| r.attribute("fill").is_some_and(|f| f.eq_ignore_ascii_case(&c.colour)))
                .count();
            // The legend's swatch is one more rectangle of the colour.
            assert_eq!(drawn, want + 1, "{sample}: {} bars", c.label);
        }
    }
}
