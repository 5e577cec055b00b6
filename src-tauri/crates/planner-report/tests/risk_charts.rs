//! The risk analysis's charts, drawn from a real analysis (the enterprise-hybrid sample drawn on
//! the shipped catalog) and read back as XML: the fan's bands map the P10 and P90 through the
//! chart's money axis, the tornado has one bar per tornado bar in the engine's order, each as long
//! as its swing, and the errors name what is missing.

// Test code: a failed expectation is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::calendar::YearMonth;
use planner_core::engine::risk::run::RiskOutcome;
use planner_report::charts::{ChartError, ChartSize, RiskLabels, Theme, risk_fan_svg, risk_tornado_svg, scenario_rgb};
use roxmltree::{Document, Node};
use rust_decimal::prelude::ToPrimitive;

const SIZE: ChartSize = ChartSize {
    width: 800,
    height: 420,
};

fn labels() -> RiskLabels {
    RiskLabels {
        currency: "USD".into(),
        start: YearMonth { year: 2027, month: 1 },
    }
}

fn outcome() -> RiskOutcome {
    common::sample_risk("enterprise-hybrid", 200, 7)
}

fn elements<'a>(doc: &'a Document<'a>, tag: &str) -> Vec<Node<'a, 'a>> {
    doc.descendants().filter(|n| n.has_tag_name(tag)).collect()
}

fn num(n: &Node<'_, '_>, name: &str) -> f64 {
    n.attribute(name)
        .unwrap_or_else(|| panic!("no {name}"))
        .parse()
        .unwrap()
}

fn hex((r, g, b): (u8, u8, u8)) -> String {
    format!("#{r:02X}{g:02X}{b:02X}")
}

fn points(n: &Node<'_, '_>) -> Vec<(f64, f64)> {
    n.attribute("points")
        .unwrap()
        .split_whitespace()
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

/// The `<text>` elements as (text, y).
fn texts(doc: &Document<'_>) -> Vec<(String, f64)> {
    elements(doc, "text")
        .iter()
        .map(|n| (n.text().unwrap_or("").trim().to_owned(), num(n, "y")))
        .collect()
}

#[test]
fn the_fan_draws_each_band_from_p10_to_p90_through_the_money_axis() {
    let outcome = outcome();
    let svg = risk_fan_svg(&outcome, &labels(), Theme::Light, SIZE).unwrap();
    let doc = Document::parse(&svg).unwrap();
    let months = outcome.fans[0].p50.len();
    assert_eq!(months, 36);

    // One band per scenario: 36 points along the P90, then 36 back along the P10.
    let bands = elements(&doc, "polygon");
    assert_eq!(bands.len(), outcome.fans.len());
    // The money → pixel map, from the axis's zero and the first tick above it.
    let tick = |label: &str| {
        texts(&doc)
            .into_iter()
            .find(|(t, _)| t == label)
            .unwrap_or_else(|| panic!("no tick {label}"))
            .1
    };
    let zero = tick("0");
    let (step_label, step) = ["500k", "1M", "2M", "2.5M", "5M"]
        .iter()
        .zip([500_000.0, 1e6, 2e6, 2.5e6, 5e6])
        .find(|(l, _)| texts(&doc).iter().any(|(t, _)| t == *l))
        .unwrap();
    let per_unit = (tick(step_label) - zero) / step;
    let mut matched = 0;
    for band in &bands {
        let p = points(band);
        assert_eq!(p.len(), 2 * months);
        let fan = outcome
            .fans
            .iter()
            .find(|f| {
                f.p90
                    .iter()
                    .zip(&p[..months])
                    .all(|(v, (_, y))| (zero + per_unit * v.to_f64().unwrap() - y).abs() <= 2.0)
            })
            .expect("every band's upper edge is some scenario's P90");
        for (k, (x, y)) in p[months..].iter().enumerate() {
            let v = fan.p10[months - 1 - k].to_f64().unwrap();
            assert!((zero + per_unit * v - y).abs() <= 2.0, "P10 of month {k}: {v} at y {y}");
            assert!(*x <= p[months - 1 - k].0 + 0.5 && *x >= p[months - 1 - k].0 - 0.5);
        }
        matched += 1;
    }
    assert_eq!(matched, outcome.fans.len());
    // The hybrid's drawn hardware spreads its band; the P50 line of each scenario in its colour.
    let hybrid = &outcome.fans[0];
    assert!(hybrid.p90[35] > hybrid.p10[35]);
    for i in 0..outcome.scenarios.len() {
        let colour = hex(scenario_rgb(i, Theme::Light));
        let lines = elements(&doc, "polyline")
            .into_iter()
            .filter(|l| l.attribute("stroke") == Some(colour.as_str()) && points(l).len() == months)
            .count();
        // P10 and P90 edges and the P50 line.
        assert_eq!(lines, 3, "scenario {i}");
    }
    // No translucency: the memo's PDF converter would make a transparency group of it.
    assert!(!svg.contains("opacity=\"0."), "no opacity below 1");
    assert!(
        texts(&doc)
            .iter()
            .any(|(t, _)| t.starts_with("Two DGX H100 for the base") && t.ends_with("(baseline)"))
    );
    if let Ok(dir) = std::env::var("RISK_SVG_DIR") {
        std::fs::write(format!("{dir}/fan.svg"), &svg).unwrap();
    }
    assert!(texts(&doc).iter().any(|(t, _)| t == "2027-01"));
}

#[test]
fn the_tornado_has_one_bar_per_figure_in_the_engines_order_each_as_long_as_its_swing() {
    let outcome = outcome();
    let tornado = &outcome.tornados[0];
    assert_eq!(tornado.scenario, "all-cloud");
    let index = outcome.scenarios.iter().position(|s| s.id == "all-cloud").unwrap();
    let svg = risk_tornado_svg(&outcome, &labels(), "all-cloud", Theme::Dark, SIZE).unwrap();
    let doc = Document::parse(&svg).unwrap();
    let colour = hex(scenario_rgb(index, Theme::Dark));
    let mut bars: Vec<Node<'_, '_>> = elements(&doc, "rect")
        .into_iter()
        .filter(|r| r.attribute("fill") == Some(colour.as_str()))
        .collect();
    assert_eq!(bars.len(), tornado.bars.len().min(10));
    assert!(!bars.is_empty());
    bars.sort_by(|a, b| num(a, "y").total_cmp(&num(b, "y")));
    // Top to bottom: the engine's order, each bar's width its swing at one scale.
    let widest = tornado.bars[0].swing.abs().to_f64().unwrap();
    let scale = num(&bars[0], "width") / widest;
    for (bar, b) in bars.iter().zip(&tornado.bars) {
        let expected = b.swing.abs().to_f64().unwrap() * scale;
        assert!(
            (num(bar, "width") - expected).abs() <= 2.0,
            "{} vs {expected}",
            num(bar, "width")
        );
    }
    // Each bar's figure on its left and its swing on its right, on its row.
    let all = texts(&doc);
    for (bar, b) in bars.iter().zip(&tornado.bars) {
        let row = num(bar, "y") + num(bar, "height") / 2.0;
        let figure = &outcome.figures[b.figure as usize];
        let near = |t: &str| all.iter().any(|(text, y)| text == t && (y - row).abs() <= 8.0);
        let swing = planner_report::charts::risk_swing_label(b.swing);
        assert!(near(&swing), "{swing} beside its bar");
        assert!(
            all.iter()
                .any(|(text, y)| text.starts_with(&figure.entry) && (y - row).abs() <= 8.0),
            "{} beside its bar",
            figure.entry
        );
    }
    assert!(
        all.iter()
            .any(|(t, _)| t.starts_with("Difference from Two DGX H100 for the base") && t.ends_with("(USD)"))
    );
    if let Ok(dir) = std::env::var("RISK_SVG_DIR") {
        std::fs::write(format!("{dir}/tornado.svg"), &svg).unwrap();
    }
}

#[test]
fn unknown_scenarios_the_baseline_and_an_empty_outcome_are_errors() {
    let outcome = outcome();
    assert_eq!(
        risk_tornado_svg(&outcome, &labels(), "nope", Theme::Light, SIZE),
        Err(ChartError::UnknownScenario("nope".into()))
    );
    assert_eq!(
        risk_tornado_svg(&outcome, &labels(), &outcome.baseline, Theme::Light, SIZE),
        Err(ChartError::NoTornado(outcome.baseline.clone()))
    );
    let empty = RiskOutcome {
        scenarios: vec![],
        fans: vec![],
        tornados: vec![],
        ..outcome.clone()
    };
    assert_eq!(
        risk_fan_svg(&empty, &labels(), Theme::Light, SIZE),
        Err(ChartError::Empty)
    );
    assert_eq!(
        risk_fan_svg(&outcome, &labels(), Theme::Light, ChartSize { width: 10, height: 10 }),
        Err(ChartError::Size { width: 10, height: 10 })
    );
}
