//! The spread of a plan's outcomes against what is known of it: a plan whose total is linear in
//! two drawn rates (closed-form mean, median and spread), every range collapsed to a point (the
//! deterministic total to the cent), common random numbers, reproducibility.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::catalog::Catalog;
use planner_core::catalog::provenance::Figure;
use planner_core::engine::input::scenario_file::{ScenarioFile, parse};
use planner_core::engine::risk::run::{RiskOutcome, Stopped, analyse};
use planner_core::engine::risk::sampling::Sampling;
use rust_decimal::Decimal;
use rust_decimal::dec;
use rust_decimal::prelude::ToPrimitive;

fn sampling(draws: usize, seed: u64) -> Sampling {
    Sampling {
        draws,
        seed,
        group_correlation: 0.8,
        shape: planner_core::engine::risk::sampling::Shape::Triangular,
    }
}

/// The engine test catalog with the on-demand H100 rates of AWS on 6–8 and CoreWeave on 5–7
/// USD per GPU-hour (mode at the middle, the file's price point).
fn ranged_catalog() -> Catalog {
    let mut catalog = common::catalog();
    for (id, low, high) in [
        ("aws-p5-h100", dec!(6), dec!(8)),
        ("coreweave-hgx-h100", dec!(5), dec!(7)),
    ] {
        let offer = catalog.offers.iter_mut().find(|o| o.id == id).unwrap();
        let rate: &mut Figure = offer.on_demand_per_gpu_hour.as_mut().unwrap();
        rate.low = low;
        rate.high = high;
    }
    catalog
}

/// One year (8,760 hours) of two inference workloads of 24 GPU-hours a day each, one served on
/// demand at AWS and the other at CoreWeave: the total is 8,760 × (AWS rate + CoreWeave rate).
fn two_rates() -> ScenarioFile {
    parse(
        r#"{
      "format_version": 1, "title": "two rates", "currency": "USD", "start": "2027-01",
      "horizon_months": 12, "discount_rate": "0.08",
      "workloads": [
        { "id": "a", "name": "a", "kind": "inference", "class": "steady", "gpu_hours_per_day": "24", "gpu_hours_on": "nvidia-h100-sxm" },
        { "id": "b", "name": "b", "kind": "inference", "class": "steady", "gpu_hours_per_day": "24", "gpu_hours_on": "nvidia-h100-sxm" }
      ],
      "scenarios": [
        { "id": "split", "name": "split", "layers": [
          { "id": "aws", "kind": "on-demand", "offer": "aws-p5-h100", "serves": ["a"] },
          { "id": "cw", "kind": "on-demand", "offer": "coreweave-hgx-h100", "serves": ["b"] }
        ] },
        { "id": "aws-only", "name": "aws only", "layers": [
          { "id": "aws", "kind": "on-demand", "offer": "aws-p5-h100" }
        ] }
      ]
    }"#,
    )
    .unwrap()
}

/// The enterprise-hybrid sample plan, as shipped.
fn sample_text() -> String {
    std::fs::read_to_string(format!(
        "{}/../../../catalogs/samples/enterprise-hybrid.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn f(d: Decimal) -> f64 {
    d.to_f64().unwrap()
}

#[test]
fn a_total_linear_in_two_drawn_rates_has_their_closed_form_mean_median_and_spread() {
    let catalog = ranged_catalog();
    let file = two_rates();
    let out = analyse(&catalog, &file, Some("split"), &sampling(2_000, 2026)).unwrap();
    let keys: Vec<(&str, &str)> = out
        .figures
        .iter()
        .map(|x| (x.entry.as_str(), x.field.as_str()))
        .collect();
    assert_eq!(
        keys,
        [
            ("aws-p5-h100", "on_demand_per_gpu_hour"),
            ("coreweave-hgx-h100", "on_demand_per_gpu_hour")
        ]
    );
    let split = &out.scenarios[0];
    // At the middle of each range: 8,760 × (7 + 6) = 113,880.
    assert_eq!(split.point_total, dec!(113880));
    // Each rate is triangular and symmetric: the total's mean and median are the point total.
    // LHS keeps each rate's mean within (high − low)/(2n) of its own: 8,760 × 2 × 2/4,000 = 8.76.
    assert!(
        (split.total.mean - dec!(113880)).abs() < dec!(9),
        "mean {}",
        split.total.mean
    );
    // The two rates are independent (two providers): variance 8,760² × 2 × (2²/24) = 25,579,200,
    // so σ = 5,057.6. The P90 − P10 of the sum, close to normal, is 2 × 1.2816 σ = 12,963.
    let width = f(split.total.p90 - split.total.p10);
    assert!((width - 12_963.0).abs() < 12_963.0 * 0.03, "P90 − P10 {width}");
    // The median's sampling error is σ × 1.2533/√n = 142; three of them.
    assert!(
        (f(split.total.p50) - 113_880.0).abs() < 430.0,
        "P50 {}",
        split.total.p50
    );
}

#[test]
fn one_draw_of_a_rate_is_shared_by_every_scenario_that_uses_it() {
    let out = analyse(&ranged_catalog(), &two_rates(), Some("split"), &sampling(1_000, 9)).unwrap();
    // aws-only pays the AWS rate for both workloads (8,760 × 2 × AWS), split pays AWS + CoreWeave:
    // aws-only is cheaper exactly in the draws where AWS < CoreWeave. With AWS ~ Tri(6, 7, 8) and
    // CoreWeave ~ Tri(5, 6, 7) independent, AWS − CoreWeave is 1 plus the sum of four uniforms on
    // −½..½, below 0 with the Irwin–Hall probability P(IH₄ < 1) = 1/24 = 0.0417. Its sampling
    // error with 1,000 paired draws is √(p(1 − p)/n) = 0.0063; 0.02 is three of them.
    let p = out.scenarios[1].cheaper_than_baseline.unwrap();
    assert!((f(p) - 1.0 / 24.0).abs() < 0.02, "P(aws-only cheaper) {p}");
    assert_eq!(out.scenarios[0].cheaper_than_baseline, None);
}

fn collapsed(catalog: &Catalog, out: &RiskOutcome) -> Catalog {
    let mut c = catalog.clone();
    for fig in &out.figures {
        for o in c.offers.iter_mut().filter(|o| o.id == fig.entry) {
            let rate = o.on_demand_per_gpu_hour.as_mut().unwrap();
            let mid = rate.mid();
            rate.low = mid;
            rate.high = mid;
        }
    }
    c
}

#[test]
fn every_range_collapsed_to_a_point_gives_the_deterministic_total_to_the_cent() {
    let catalog = ranged_catalog();
    let file = two_rates();
    let out = analyse(&catalog, &file, None, &sampling(50, 1)).unwrap();
    let point = collapsed(&catalog, &out);
    let flat = analyse(&point, &file, None, &sampling(50, 1)).unwrap();
    assert!(flat.figures.is_empty());
    for s in &flat.scenarios {
        for v in [s.total.p10, s.total.p50, s.total.p90, s.total.mean] {
            assert_eq!(v, s.point_total, "{}", s.id);
        }
        assert_eq!(s.npv.p50, s.point_npv);
    }
    assert_eq!(flat.scenarios[0].point_total, out.scenarios[0].point_total);
}

#[test]
fn the_same_seed_gives_the_same_outcome_to_the_cent_and_another_seed_a_close_one() {
    let (catalog, file) = (ranged_catalog(), two_rates());
    let a = analyse(&catalog, &file, None, &sampling(1_000, 77)).unwrap();
    assert_eq!(a, analyse(&catalog, &file, None, &sampling(1_000, 77)).unwrap());
    let b = analyse(&catalog, &file, None, &sampling(1_000, 78)).unwrap();
    assert_ne!(a.scenarios[0].total, b.scenarios[0].total);
    // Two medians of 1,000 draws each differ by σ × 1.2533 × √(2/1,000) = 283 typically; 4 of them.
    let gap = f(a.scenarios[0].total.p50 - b.scenarios[0].total.p50).abs();
    assert!(
        gap < 1_140.0,
        "P50s {} and {}",
        a.scenarios[0].total.p50,
        b.scenarios[0].total.p50
    );
}

#[test]
fn the_shipped_sample_draws_its_ranged_money_figures_only() {
    let catalog = common::shipped_catalog();
    let text = sample_text();
    let file = parse(&text).unwrap();
    let out = analyse(&catalog, &file, Some("hybrid"), &sampling(200, 5)).unwrap();
    let mut drawn: Vec<String> = out.figures.iter().map(|x| format!("{}/{}", x.entry, x.field)).collect();
    drawn.sort();
    // The PUE of contained air, AWS's spot rate, the resale curve, the RoCE fabric's switches
    // and optics, which price it part by part (its per-port range is then not used), and the
    // on-demand rate of the offer that prices unserved work (TensorWave's MI300X, the cheapest
    // whose card holds the 70B models); not the grid intensity (emissions only), nor the cloud
    // energy estimate's fleet PUE.
    assert_eq!(
        drawn,
        [
            "aws-p5-h100/spot_per_gpu_hour",
            "contained-air/pue",
            "nvidia-datacenter-secondary/resale share (position in each point's range)",
            "roce-400/optic_cost",
            "roce-400/switch_cost",
            "tensorwave-mi300x/on_demand_per_gpu_hour",
        ]
    );
    for s in &out.scenarios {
        assert!(s.total.p10 <= s.total.p50 && s.total.p50 <= s.total.p90, "{}", s.id);
    }
    // all-cloud uses none of the drawn figures but its spot-free rates: it does not move.
    let cloud = out.scenarios.iter().find(|s| s.id == "all-cloud").unwrap();
    assert_eq!(
        (cloud.total.p10, cloud.total.p90),
        (cloud.point_total, cloud.point_total)
    );
}

#[test]
fn the_tornado_ranks_what_moves_the_difference_as_a_one_at_a_time_recomputation_does() {
    // CoreWeave on 4–8 (mode 6): its swing is twice AWS's (6–8).
    let mut catalog = ranged_catalog();
    let cw = catalog
        .offers
        .iter_mut()
        .find(|o| o.id == "coreweave-hgx-h100")
        .unwrap();
    let rate = cw.on_demand_per_gpu_hour.as_mut().unwrap();
    rate.low = dec!(4);
    rate.high = dec!(8);
    let file = two_rates();
    let out = analyse(&catalog, &file, Some("split"), &sampling(1_000, 3)).unwrap();
    let t = &out.tornados[0];
    assert_eq!(t.scenario, "aws-only");

    // The test's own recomputation: each rate at its P10 and P90 (closed form for a triangle), the
    // other at its mode, the plan evaluated in full, the difference aws-only − split.
    let tri = |a: f64, c: f64, b: f64, p: f64| {
        let at_mode = (c - a) / (b - a);
        if p < at_mode {
            a + (p * (b - a) * (c - a)).sqrt()
        } else {
            b - ((1.0 - p) * (b - a) * (b - c)).sqrt()
        }
    };
    let text = serde_json::to_string(&file).unwrap();
    let difference = |aws: f64, cw: f64| {
        let mut c = catalog.clone();
        for (id, v) in [("aws-p5-h100", aws), ("coreweave-hgx-h100", cw)] {
            let r = c
                .offers
                .iter_mut()
                .find(|o| o.id == id)
                .unwrap()
                .on_demand_per_gpu_hour
                .as_mut()
                .unwrap();
            let v = Decimal::try_from(v).unwrap().round_dp(10);
            r.low = v;
            r.high = v;
        }
        let e = common::run_with(&c, &text);
        (e.scenarios[1].totals.decision_total - e.scenarios[0].totals.decision_total).round_dp(2)
    };
    let aws = (
        difference(tri(6.0, 7.0, 8.0, 0.1), 6.0),
        difference(tri(6.0, 7.0, 8.0, 0.9), 6.0),
    );
    let cw = (
        difference(7.0, tri(4.0, 6.0, 8.0, 0.1)),
        difference(7.0, tri(4.0, 6.0, 8.0, 0.9)),
    );
    let mut want = vec![("aws-p5-h100", aws), ("coreweave-hgx-h100", cw)];
    want.sort_by_key(|w| std::cmp::Reverse((w.1.1 - w.1.0).abs()));
    let got: Vec<(&str, (Decimal, Decimal))> = t
        .bars
        .iter()
        .map(|b| {
            (
                out.figures[b.figure as usize].entry.as_str(),
                (b.at_p10.round_dp(2), b.at_p90.round_dp(2)),
            )
        })
        .collect();
    assert_eq!(got, want);
    assert_eq!(got[0].0, "coreweave-hgx-h100");
    assert_eq!(t.at_point, difference(7.0, 6.0));
    // Linear and independent: the swings combine (√Σ swing²) to about the joint P10–P90 spread.
    let ratio = f(t.swings_combined) / f(t.joint_spread);
    assert!(
        (ratio - 1.0).abs() < 0.1,
        "combined {} against joint {}",
        t.swings_combined,
        t.joint_spread
    );
    assert_eq!(t.interaction_note, None);
}

#[test]
fn the_fan_bands_cumulative_cash_month_by_month() {
    let catalog = ranged_catalog();
    let file = two_rates();
    let out = analyse(&catalog, &file, Some("split"), &sampling(500, 4)).unwrap();
    let fan = &out.fans[0];
    assert_eq!((fan.scenario.as_str(), fan.p50.len()), ("split", 12));
    for m in 0..12 {
        assert!(fan.p10[m] <= fan.p50[m] && fan.p50[m] <= fan.p90[m], "month {m}");
        if m > 0 {
            assert!(fan.p50[m] > fan.p50[m - 1]);
        }
    }
    // On demand only, the last month's cumulative cash is the decision total.
    assert_eq!(fan.p50[11], out.scenarios[0].total.p50);
    // Every range collapsed: the band is the deterministic curve.
    let flat = analyse(&collapsed(&catalog, &out), &file, Some("split"), &sampling(20, 4)).unwrap();
    let text = serde_json::to_string(&file).unwrap();
    let curve: Vec<Decimal> = common::run_with(&collapsed(&catalog, &out), &text).scenarios[0]
        .ledger
        .months
        .iter()
        .map(|m| m.cumulative_cash)
        .collect();
    assert_eq!((&flat.fans[0].p10, &flat.fans[0].p90), (&curve, &curve));
}

/// The shipped catalog with the figures the sample's analysis draws collapsed to their middles.
fn collapsed_sample(catalog: &Catalog) -> Catalog {
    let mut c = catalog.clone();
    let mid = |f: &mut Figure| {
        let m = f.mid();
        f.low = m;
        f.high = m;
    };
    mid(c
        .offers
        .iter_mut()
        .find(|o| o.id == "aws-p5-h100")
        .unwrap()
        .spot_per_gpu_hour
        .as_mut()
        .unwrap());
    mid(&mut c
        .facility
        .cooling
        .iter_mut()
        .find(|x| x.id == "contained-air")
        .unwrap()
        .pue);
    mid(c
        .offers
        .iter_mut()
        .find(|o| o.id == "tensorwave-mi300x")
        .unwrap()
        .on_demand_per_gpu_hour
        .as_mut()
        .unwrap());
    let roce = c.fabrics.iter_mut().find(|x| x.id == "roce-400").unwrap();
    mid(roce.switch_cost.as_mut().unwrap());
    mid(roce.optic_cost.as_mut().unwrap());
    for p in &mut c
        .resale
        .iter_mut()
        .find(|r| r.id == "nvidia-datacenter-secondary")
        .unwrap()
        .points
    {
        mid(&mut p.share);
    }
    c
}

#[test]
fn the_break_even_over_the_draws_is_the_compare_screens_when_nothing_is_uncertain() {
    let catalog = common::shipped_catalog();
    let text = sample_text();
    let file = parse(&text).unwrap();
    let flat = collapsed_sample(&catalog);
    let out = analyse(&flat, &file, Some("hybrid"), &sampling(20, 5)).unwrap();
    assert!(out.figures.is_empty(), "{:?}", out.figures);
    // The compare screen: hybrid and all-cloud cross at 18.6 months (month 19).
    let e = common::run_with(&flat, &text);
    let deterministic = planner_core::engine::decide::compare::compare_all(&e)[0]
        .break_even
        .clone()
        .unwrap()
        .at_month;
    let b = &out.break_evens[0];
    assert_eq!((b.scenario.as_str(), b.crossing_share), ("all-cloud", dec!(1)));
    let at = b.at_month.unwrap();
    assert_eq!((at.p10, at.p50, at.p90), (deterministic, deterministic, deterministic));
    assert_eq!(deterministic.round_dp(1), dec!(18.6));

    // Drawn: the crossing moves with the draws, and every draw still crosses.
    let drawn = analyse(&catalog, &file, Some("hybrid"), &sampling(300, 5)).unwrap();
    let at = drawn.break_evens[0].at_month.unwrap();
    assert!(at.p10 < at.p90, "{at:?}");
    assert_eq!(drawn.break_evens[0].crossing_share, dec!(1));

    // Curves that never cross: two on-demand plans whose order never changes.
    let never = analyse(&ranged_catalog(), &two_rates(), Some("split"), &sampling(50, 1)).unwrap();
    assert_eq!(
        (never.break_evens[0].crossing_share, never.break_evens[0].at_month),
        (dec!(0), None)
    );
}

/// Every figure an outcome reports, presented to the cent (months to four places).
fn presented(out: &RiskOutcome) -> Vec<String> {
    let cent = |d: Decimal| d.round_dp(2).to_string();
    let spread = |s: &planner_core::engine::risk::sampling::Spread| [s.p10, s.p50, s.p90, s.mean].map(cent).join(" ");
    let mut lines = Vec::new();
    for s in &out.scenarios {
        lines.push(format!(
            "{} total {} npv {} cheaper {:?}",
            s.id,
            spread(&s.total),
            spread(&s.npv),
            s.cheaper_than_baseline
        ));
    }
    for fan in &out.fans {
        for m in 0..fan.p50.len() {
            lines.push(format!(
                "{} month {m}: {} {} {}",
                fan.scenario,
                cent(fan.p10[m]),
                cent(fan.p50[m]),
                cent(fan.p90[m])
            ));
        }
    }
    for t in &out.tornados {
        lines.push(format!(
            "{} tornado {} joint {}",
            t.scenario,
            cent(t.at_point),
            cent(t.joint_spread)
        ));
    }
    for b in &out.break_evens {
        let at = b
            .at_month
            .map(|s| [s.p10, s.p50, s.p90].map(|d| d.round_dp(4).to_string()).join(" "));
        lines.push(format!("{} crosses {} at {at:?}", b.scenario, b.crossing_share));
    }
    lines
}

#[test]
fn the_draws_re_priced_on_the_plans_surface_report_what_evaluating_each_in_full_reports() {
    use planner_core::engine::risk::run::{Control, analyse_with};
    let catalog = common::shipped_catalog();
    let file = parse(&sample_text()).unwrap();
    let run =
        |control: &Control| analyse_with(&catalog, &file, Some("hybrid"), &sampling(400, 11), &[], control).unwrap();
    let fast = run(&Control::new());
    let full = run(&Control::full());
    assert!(
        fast.method.contains("re-priced on the plan's surface (6 figures"),
        "{}",
        fast.method
    );
    assert!(full.method.starts_with("Every one of the 400 draws"), "{}", full.method);
    assert_eq!(presented(&fast), presented(&full));
    // The tornado's bars are full evaluations in both.
    for (a, b) in fast.tornados.iter().zip(&full.tornados) {
        assert_eq!(a.bars, b.bars);
    }
    // A plan linear in its two rates: the surface has no product terms and agrees to the cent.
    let linear = |control: &Control| {
        analyse_with(
            &ranged_catalog(),
            &two_rates(),
            Some("split"),
            &sampling(1_000, 3),
            &[],
            control,
        )
        .unwrap()
    };
    let (a, b) = (linear(&Control::new()), linear(&Control::full()));
    assert!(a.method.contains("(2 figures, 0 products of two)"), "{}", a.method);
    assert_eq!(presented(&a), presented(&b));
}

#[test]
fn a_cancelled_analysis_stops_and_says_so() {
    use planner_core::engine::risk::run::{Control, Stopped, analyse_with};
    let run =
        |control: &Control| analyse_with(&ranged_catalog(), &two_rates(), None, &sampling(1_000, 3), &[], control);
    let control = Control::new();
    control.cancel();
    assert_eq!(run(&control), Err(Stopped::Cancelled));
    let control = Control::new();
    run(&control).unwrap();
    let (done, total) = control.progress();
    assert_eq!(done, total);
    // The point, two tails of each of the two rates, the pair of them (the scenario `split`
    // uses both), eight checked draws and the 1,000 draws re-priced.
    assert_eq!(total, 1 + 4 + 1 + 8 + 1_000);
}

/// The same linear plan with each rate uniform over its range: the total is
/// 8,760 × (11 + 2 (U₁ + U₂)) with U₁, U₂ independent on 0..1, whose sum is triangular on 0..2, so
/// its P10 is 11 + 2√0.2 and its P90 11 + 2 (2 − √0.2), exactly. PERT with the mode in the middle
/// is symmetric too: its median is the point, and it is narrower than the triangle.
#[test]
fn uniform_and_pert_draws_give_the_spread_of_their_closed_form() {
    use planner_core::engine::risk::sampling::Shape;
    let run = |shape: Shape| {
        let mut s = sampling(4_000, 7);
        s.shape = shape;
        analyse(&ranged_catalog(), &two_rates(), Some("split"), &s).unwrap()
    };
    let uniform = run(Shape::Uniform);
    assert_eq!(uniform.shape, Shape::Uniform);
    let split = &uniform.scenarios[0];
    let root = 0.2_f64.sqrt();
    let (p10, p90) = (8_760.0 * (11.0 + 2.0 * root), 8_760.0 * (11.0 + 2.0 * (2.0 - root)));
    // Each P10 and P90 within 0.3 % (the density of the sum there is 0.447 per unit: 4,000 draws
    // put the sample quantile within about 0.03 of a rate-unit, 260 of the total).
    assert!(
        (f(split.total.p10) - p10).abs() < p10 * 0.003,
        "P10 {} against {p10}",
        split.total.p10
    );
    assert!(
        (f(split.total.p90) - p90).abs() < p90 * 0.003,
        "P90 {} against {p90}",
        split.total.p90
    );
    let pert = run(Shape::Pert);
    let (t, p) = (&run(Shape::Triangular).scenarios[0].total, &pert.scenarios[0].total);
    assert!((f(p.p50) - 113_880.0).abs() < 300.0, "PERT P50 {}", p.p50);
    assert!(p.p90 - p.p10 < t.p90 - t.p10, "PERT narrower than the triangle");
}

/// A driver the user marks uncertain: the demand of workload `a` on 12–36 GPU-hours a day (mode
/// 24, the file's). The plan's total is linear in it, 365 × (h × AWS rate + 24 × CoreWeave rate),
/// so its P10 is the total at the triangle's P10, 12 + √(0.1 × 24 × 12) = 17.367 GPU-hours a day.
/// Demand moves who serves what, so every draw is evaluated in full.
#[test]
fn a_demand_the_user_marks_uncertain_is_drawn_over_its_range_and_evaluated_in_full() {
    use planner_core::engine::risk::drivers::{Uncertain, candidates};
    use planner_core::engine::risk::run::{Control, analyse_with};
    let catalog = common::catalog();
    let file = two_rates();
    let paths: Vec<String> = candidates(&file).into_iter().map(|c| c.path).collect();
    assert!(paths.contains(&"workloads/a/gpu_hours_per_day".to_owned()), "{paths:?}");
    let demand = |low, high| Uncertain {
        path: "workloads/a/gpu_hours_per_day".to_owned(),
        low,
        high,
    };
    let run = |driver: Uncertain| {
        analyse_with(
            &catalog,
            &file,
            Some("split"),
            &sampling(2_000, 8),
            &[driver],
            &Control::new(),
        )
    };
    let out = run(demand(dec!(12), dec!(36))).unwrap();
    assert!(out.method.starts_with("Every one of the 2000 draws"), "{}", out.method);
    assert_eq!(out.figures.len(), 1);
    assert_eq!(
        (out.figures[0].low, out.figures[0].mode, out.figures[0].high),
        (dec!(12), dec!(24), dec!(36))
    );
    let (split, aws) = (&out.scenarios[0], &out.scenarios[1]);
    // Both workloads on AWS all year: 365 × 48 × r_a.
    let r_a = f(aws.point_total) / (365.0 * 48.0);
    let r_c = f(split.point_total) / (365.0 * 24.0) - r_a;
    let p10 = 365.0 * ((12.0 + (0.1_f64 * 24.0 * 12.0).sqrt()) * r_a + 24.0 * r_c);
    // LHS puts the sample P10 within one stratum's width of the triangle's: 2,000 draws.
    assert!(
        (f(split.total.p10) - p10).abs() < p10 * 0.002,
        "P10 {} against {p10}",
        split.total.p10
    );
    assert!((f(split.total.mean) - f(split.point_total)).abs() < f(split.point_total) * 0.001);
    // The range must hold the value the plan uses; the figure must be one the file has.
    let outside = run(demand(dec!(30), dec!(40))).unwrap_err();
    let Stopped::Problems(p) = outside else {
        panic!("{outside:?}")
    };
    assert_eq!(p[0].path, "uncertain[0]");
    assert!(
        p[0].message.contains("must hold the value the plan uses, 24"),
        "{}",
        p[0].message
    );
    let unknown = run(Uncertain {
        path: "workloads/zz/mfu".to_owned(),
        low: dec!(0.3),
        high: dec!(0.5),
    })
    .unwrap_err();
    assert!(matches!(unknown, Stopped::Problems(ref p) if p[0].message.contains("is not a figure of these scenarios")));
}

/// A lead time in whole months: every draw is a whole number of months within the range, each
/// month of the range drawn.
#[test]
fn a_lead_time_marked_uncertain_is_drawn_in_whole_months() {
    use planner_core::engine::risk::drivers::{Uncertain, candidates};
    use planner_core::engine::risk::run::{Control, analyse_with};
    let catalog = common::shipped_catalog();
    let file = parse(&sample_text()).unwrap();
    let lead = candidates(&file)
        .into_iter()
        .find(|c| c.whole)
        .expect("the sample's owned layer has a lead time");
    let m = lead.value;
    let driver = Uncertain {
        path: lead.path.clone(),
        low: m,
        high: m + dec!(3),
    };
    let out = analyse_with(
        &catalog,
        &file,
        Some("hybrid"),
        &sampling(200, 4),
        &[driver],
        &Control::new(),
    )
    .unwrap();
    assert!(out.method.starts_with("Every one of the 200 draws"), "{}", out.method);
    let hybrid = &out.scenarios[0];
    // A later delivery moves the owned scenario's cash; its spread is no longer a point.
    assert!(hybrid.total.p90 != hybrid.total.p10);
    let figure = out.figures.iter().find(|x| x.entry == lead.path).unwrap();
    assert_eq!((figure.low, figure.high), (m, m + dec!(3)));
}

/// A quoted price (an override) marked uncertain moves money only: the draws keep the surface,
/// and it reports what evaluating each draw in full reports.
#[test]
fn a_quoted_price_marked_uncertain_is_re_priced_on_the_surface() {
    use planner_core::engine::risk::drivers::{Uncertain, candidates};
    use planner_core::engine::risk::run::{Control, analyse_with};
    let mut file = two_rates();
    file.scenarios[0].layers[0].price_per_gpu_hour = Some(planner_core::engine::input::scenario_file::Override {
        value: dec!(7),
        currency: None,
        reason: "quote Q-1".to_owned(),
    });
    let path = "scenarios/split/layers/aws/price_per_gpu_hour/value";
    let offered = candidates(&file);
    assert!(offered.iter().any(|c| c.path == path && c.price), "{offered:?}");
    let quote = [Uncertain {
        path: path.to_owned(),
        low: dec!(6.5),
        high: dec!(8),
    }];
    let run = |control: &Control| {
        analyse_with(
            &common::catalog(),
            &file,
            Some("split"),
            &sampling(1_000, 2),
            &quote,
            control,
        )
        .unwrap()
    };
    let (fast, full) = (run(&Control::new()), run(&Control::full()));
    assert!(
        fast.method.contains("re-priced on the plan's surface (1 figure,"),
        "{}",
        fast.method
    );
    assert_eq!(presented(&fast), presented(&full));
    // The quote moves the split scenario only (its AWS layer); aws-only pays the catalog rate.
    let split = &fast.scenarios[0];
    assert!(split.total.p10 < split.point_total && split.point_total < split.total.p90);
    assert_eq!(fast.scenarios[1].total.p10, fast.scenarios[1].total.p90);
}

/// `two_rates` with the file at "mid" and its second scenario, aws-only, at "low" (issue #42).
fn aws_only_at_low() -> ScenarioFile {
    let mut file = two_rates();
    file.price_point = planner_core::engine::input::scenario_file::PricePoint::Mid;
    file.scenarios[1].price_point = Some(planner_core::engine::input::scenario_file::PricePoint::Low);
    file
}

#[test]
fn a_scenario_at_its_own_price_point_draws_around_its_own_point() {
    let catalog = ranged_catalog();
    let file = aws_only_at_low();
    let out = analyse(&catalog, &file, Some("split"), &sampling(2_000, 2026)).unwrap();
    let (split, low) = (&out.scenarios[0], &out.scenarios[1]);
    // Its point is at its own price point: every figure at the mode of its draws (the low end of
    // the AWS range) gives its point total, so the tornado's difference "at the point" is the
    // difference of the two point totals.
    let aws = catalog
        .offers
        .iter()
        .find(|o| o.id == "aws-p5-h100")
        .unwrap()
        .on_demand_per_gpu_hour
        .clone()
        .unwrap();
    let hours = Decimal::from(8_760 * 2);
    assert_eq!(low.point_total, hours * aws.low);
    let tornado = out.tornados.iter().find(|t| t.scenario == "aws-only").unwrap();
    assert_eq!(tornado.at_point, low.point_total - split.point_total);
    // The screen says which scenario prices at which point, and how its draws are made.
    assert!(
        out.method.contains("(aws only at low; the others at the file's mid)")
            && out.method.contains("drawn around its own price point"),
        "{}",
        out.method
    );
    // Its draws are Triangular(low, low, high) × 17,520 hours: the mode is the low end, so no draw
    // is below its point, and the percentiles are high − √((1 − p)(high − low)²).
    let width = f(aws.high - aws.low);
    let quantile = |p: f64| f(hours) * (f(aws.high) - ((1.0 - p) * width * width).sqrt());
    assert!(
        low.total.p10 >= low.point_total,
        "P10 {} point {}",
        low.total.p10,
        low.point_total
    );
    for (p, got) in [(0.1, low.total.p10), (0.5, low.total.p50), (0.9, low.total.p90)] {
        let want = quantile(p);
        assert!((f(got) - want).abs() < want * 0.005, "P{p}: {got} against {want}");
    }
    let mean = f(hours) * f(aws.low + aws.low + aws.high) / 3.0;
    assert!(
        (f(low.total.mean) - mean).abs() < 10.0,
        "mean {} against {mean}",
        low.total.mean
    );
    // The scenario at the file's point keeps its draws (evaluated in full, as these are).
    let all_mid = planner_core::engine::risk::run::analyse_with(
        &catalog,
        &two_rates(),
        Some("split"),
        &sampling(2_000, 2026),
        &[],
        &planner_core::engine::risk::run::Control::full(),
    )
    .unwrap();
    assert_eq!(split, &all_mid.scenarios[0]);
    assert_eq!(out.fans[0], all_mid.fans[0]);
    let p10 = |mode: Decimal| {
        planner_core::engine::risk::sampling::Distribution::triangular(aws.low, mode, aws.high).quantile(0.1)
    };
    // One AWS position drives both scenarios (paired draws): the AWS bar at its P10 is aws-only
    // at its own P10 (the low-mode triangle's) less split with AWS at the P10 of the mid-mode
    // triangle (8,760 hours of AWS in split).
    let bar = tornado.bars.iter().find(|b| b.figure == 0).unwrap();
    let split_at_p10 = split.point_total + Decimal::from(8_760) * (p10(aws.mid()) - aws.mid());
    let want = hours * p10(aws.low) - split_at_p10;
    assert!(
        (bar.at_p10 - want).abs() < dec!(0.01),
        "bar at P10 {} against {want}",
        bar.at_p10
    );
}
