//! Live what-if drivers on the compare selection, and keeping one as a scenario (issue #17).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::time::Instant;

use planner_app::{TestHost, compare, scenarios, session};
use planner_core::edit::{Edit, EditRequest};
use planner_core::engine::editing::what_if::{Driver, DriverKind, WhatIf};
use planner_core::engine::workspace::content::ViewState;
use planner_core::error::ErrorCode;
use planner_report::charts::Theme;
use rust_decimal::Decimal;
use rust_decimal::dec;

/// 2026-11-23T12:00:00Z.
const NOW_MS: i64 = 1_795_435_200_000;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

/// The enterprise hybrid sample (`hybrid`, `all-cloud`), both compared.
fn opened(dir: &Path) -> TestHost {
    let config = dir.join("config");
    std::fs::create_dir_all(&config).unwrap();
    let host = TestHost::new(&repo().join("catalogs"), Some(&config), NOW_MS);
    session::create(&host, &dir.join("plan.cpws"), "What-if").unwrap();
    scenarios::import_file(&host, &repo().join("catalogs/samples/enterprise-hybrid.json")).unwrap();
    select_all(&host);
    host
}

fn select_all(host: &TestHost) {
    let selected = scenarios::export(host, None)
        .unwrap()
        .scenarios
        .iter()
        .map(|s| s.id.clone())
        .collect();
    let view = ViewState {
        selected,
        baseline: None,
        horizon_months: None,
    };
    compare::set_view(host, &view).unwrap();
}

fn view(host: &TestHost) -> ViewState {
    session::session(host).unwrap().workspace.unwrap().view
}

fn drivers(list: &[(DriverKind, Decimal)], scenario: Option<&str>) -> WhatIf {
    WhatIf {
        drivers: list.iter().map(|&(kind, value)| Driver { kind, value }).collect(),
        scenario: scenario.map(str::to_owned),
    }
}

fn total(screen: &compare::WhatIfScreen, id: &str) -> Decimal {
    let view = screen.screen.comparison.view.as_ref().unwrap();
    view.scenarios.iter().find(|s| s.id == id).unwrap().total_cash
}

#[test]
fn no_driver_is_the_plain_comparison_and_a_driver_moves_only_its_scenario() {
    let dir = tempfile::tempdir().unwrap();
    let host = opened(dir.path());
    let plain = compare::screen(&host, Theme::Light).unwrap();
    let empty = compare::what_if(&host, &WhatIf::default(), Theme::Light, None).unwrap();
    // The same comparison, less the scenarios' own month-by-month figures, which a move does not
    // send (the charts carry the months).
    let mut lean = plain.comparison.clone();
    for s in &mut lean.view.as_mut().unwrap().scenarios {
        assert!(!s.cumulative.is_empty() && !s.monthly_total.is_empty() && !s.monthly.is_empty());
        s.cumulative.clear();
        s.monthly_total.clear();
        s.monthly.clear();
    }
    assert_eq!(empty.screen.comparison, lean);
    assert_eq!(empty.screen.cumulative, plain.cumulative);
    // One monthly chart rides along: the one asked for, else the first compared scenario's.
    assert_eq!(empty.screen.monthly, plain.monthly[..1]);
    let second = plain.monthly[1].clone();
    let asked = compare::what_if(&host, &WhatIf::default(), Theme::Light, Some(&second.scenario)).unwrap();
    assert_eq!(asked.screen.monthly, [second]);
    let unknown = compare::what_if(&host, &WhatIf::default(), Theme::Light, Some("no-such")).unwrap();
    assert_eq!(unknown.screen.monthly, plain.monthly[..1]);
    assert_eq!(empty.bases.len(), 12);

    let moved = drivers(
        &[(DriverKind::GpuPrice, dec!(0.5)), (DriverKind::Demand, dec!(1.2))],
        Some("hybrid"),
    );
    let screen = compare::what_if(&host, &moved, Theme::Light, None).unwrap();
    assert_eq!(total(&screen, "all-cloud"), total(&empty, "all-cloud"));
    assert_ne!(total(&screen, "hybrid"), total(&empty, "hybrid"));
    // Nothing is saved.
    assert_eq!(
        compare::screen(&host, Theme::Light).unwrap().comparison,
        plain.comparison
    );

    let horizon = drivers(&[(DriverKind::Horizon, dec!(24))], None);
    let screen = compare::what_if(&host, &horizon, Theme::Light, None).unwrap();
    assert_eq!(screen.screen.comparison.view.as_ref().unwrap().horizon_months, 24);

    let bad = drivers(&[(DriverKind::Pue, dec!(4))], None);
    let err = compare::what_if(&host, &bad, Theme::Light, None).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert_eq!(err.details[0].field.as_deref(), Some("drivers[0].value"));
}

#[test]
fn a_kept_what_if_is_one_new_scenario_in_one_undo_step() {
    let dir = tempfile::tempdir().unwrap();
    let host = opened(dir.path());
    let what_if = drivers(
        &[(DriverKind::GpuPrice, dec!(0.8)), (DriverKind::Horizon, dec!(24))],
        None,
    );
    let live = compare::what_if(
        &host,
        &drivers(&[(DriverKind::GpuPrice, dec!(0.8))], Some("hybrid")),
        Theme::Light,
        None,
    )
    .unwrap();
    let kept = scenarios::keep_what_if(&host, &what_if, "hybrid").unwrap();
    let original = scenarios::get(&host, "hybrid").unwrap();
    assert_eq!(kept.name, format!("{} (what-if)", original.name));
    let spec = scenarios::get(&host, &kept.id).unwrap();
    let price = spec.layers[0].price_per_gpu.as_ref().unwrap();
    assert_eq!(price.reason, "workshop what-if, 2026-11-23");
    assert!(original.layers[0].price_per_gpu.is_none());
    let shown = view(&host);
    assert_eq!(shown.selected.last(), Some(&kept.id));
    assert_eq!(shown.horizon_months, Some(24));
    // Over the workspace's horizon, the kept scenario costs what the live what-if showed.
    compare::set_view(
        &host,
        &ViewState {
            horizon_months: None,
            ..shown
        },
    )
    .unwrap();
    let screen = compare::screen(&host, Theme::Light).unwrap();
    let figures = screen.comparison.view.unwrap();
    let kept_total = figures.scenarios.iter().find(|s| s.id == kept.id).unwrap().total_cash;
    assert_eq!(kept_total, total(&live, "hybrid"));

    let again = scenarios::keep_what_if(&host, &what_if, "hybrid").unwrap();
    assert_ne!(again.id, kept.id);
    assert_ne!(again.name, kept.name);
    scenarios::undo(&host).unwrap();
    assert_eq!(scenarios::get(&host, &again.id).unwrap_err().code, ErrorCode::NotFound);
    assert!(scenarios::get(&host, &kept.id).is_ok());
    assert!(!view(&host).selected.contains(&again.id));
}

#[test]
fn a_what_if_of_eight_scenarios_over_36_months_is_timed() {
    let dir = tempfile::tempdir().unwrap();
    let host = opened(dir.path());
    let file = scenarios::export(&host, None).unwrap();
    for i in 0..6 {
        let mut s = file.scenarios[i % 2].clone();
        s.id = format!("copy-{i}");
        s.name = format!("Copy {i}");
        let request = EditRequest {
            edit: Edit::PutScenario { scenario: s },
            label: "copy".into(),
            coalesce: None,
        };
        scenarios::apply_edit(&host, &request).unwrap();
    }
    select_all(&host);
    let what_if = drivers(
        &[
            (DriverKind::Demand, dec!(1.3)),
            (DriverKind::GpuPrice, dec!(0.9)),
            (DriverKind::OnDemandRate, dec!(1.1)),
            (DriverKind::Tariff, dec!(0.12)),
            (DriverKind::DiscountRate, dec!(0.1)),
        ],
        None,
    );
    let mut times = Vec::new();
    for _ in 0..15 {
        let started = Instant::now();
        let screen = compare::what_if(&host, &what_if, Theme::Light, None).unwrap();
        let json = serde_json::to_string(&screen).unwrap();
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(screen.screen.comparison.view.as_ref().unwrap().scenarios.len(), 8);
        assert!(!json.is_empty());
    }
    times.sort_by(f64::total_cmp);
    println!(
        "what-if, 8 scenarios x 36 months, engine + charts + JSON: median {:.1} ms, best {:.1} ms",
        times[times.len() / 2],
        times[0]
    );
}

/// A drag resolves the saved plan once and keeps it (`WhatIfBase`); what it kept must follow
/// every change of the saved plan: an edit, its undo, another horizon.
#[test]
fn the_saved_plan_a_drag_moves_from_follows_edits_and_undo() {
    let dir = tempfile::tempdir().unwrap();
    let host = opened(dir.path());
    let half = drivers(&[(DriverKind::GpuPrice, dec!(0.5))], Some("hybrid"));
    let gpu = |screen: &compare::WhatIfScreen| {
        let b = screen.bases.iter().find(|b| b.kind == DriverKind::GpuPrice).unwrap();
        (b.low, b.high)
    };
    let plain_saved = compare::what_if(&host, &WhatIf::default(), Theme::Light, None).unwrap();
    let before = compare::what_if(&host, &half, Theme::Light, None).unwrap();
    let catalog_price = gpu(&before).0;
    assert!(catalog_price > Decimal::ZERO);
    // The same move again is answered from the kept resolution, with the same figures.
    let again = compare::what_if(&host, &half, Theme::Light, None).unwrap();
    assert_eq!(again.screen.comparison, before.screen.comparison);
    assert_eq!(again.bases, before.bases);

    let mut spec = scenarios::get(&host, "hybrid").unwrap();
    let quoted = catalog_price * dec!(2);
    spec.layers[0].price_per_gpu = Some(planner_core::engine::input::scenario_file::Override {
        value: quoted,
        currency: None,
        reason: "vendor quote".into(),
    });
    let request = EditRequest {
        edit: Edit::PutScenario { scenario: spec },
        label: "quote".into(),
        coalesce: None,
    };
    scenarios::apply_edit(&host, &request).unwrap();
    let after = compare::what_if(&host, &half, Theme::Light, None).unwrap();
    assert_eq!(gpu(&after), (quoted, quoted));
    // Half the quoted price is the catalog price: the what-if costs what the plan cost before
    // the edit (a kept resolution of the old plan would halve the catalog price instead).
    assert_eq!(total(&after, "hybrid"), total(&plain_saved, "hybrid"));
    assert_ne!(total(&after, "hybrid"), total(&before, "hybrid"));
    let plain_edited = compare::what_if(&host, &WhatIf::default(), Theme::Light, None).unwrap();
    assert_ne!(total(&plain_edited, "hybrid"), total(&after, "hybrid"));

    scenarios::undo(&host).unwrap();
    let undone = compare::what_if(&host, &half, Theme::Light, None).unwrap();
    assert_eq!(gpu(&undone), gpu(&before));
    assert_eq!(total(&undone, "hybrid"), total(&before, "hybrid"));

    let mut shorter = view(&host);
    shorter.horizon_months = Some(24);
    compare::set_view(&host, &shorter).unwrap();
    let short = compare::what_if(&host, &half, Theme::Light, None).unwrap();
    assert_eq!(short.screen.comparison.view.as_ref().unwrap().horizon_months, 24);
    assert_ne!(total(&short, "hybrid"), total(&before, "hybrid"));
}
