//! The vendor side of a workspace: the scorecard item (saved, coalesced, undone, reopened), the
//! scorecard screen computed from the engine's totals and the checklist's shares, and RFP quote
//! import (one scenario per vendor and the vendor on the scorecard, in one undo step; nothing
//! written when a quote cannot become a layer).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use planner_core::edit::{Edit, EditRequest};
use planner_core::engine::input::scenario_file::{self, FxRate, LayerKind, ScenarioFile};
use planner_core::engine::workspace::content::ViewState;
use planner_core::rfp::scorecard::PerAxis;
use planner_core::rfp::vendors::{ScorecardDraft, VendorEntry};
use planner_store::workspace::{Changed, Workspace};
use rust_decimal::Decimal;
use rust_decimal::dec;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn sample() -> ScenarioFile {
    let text = std::fs::read_to_string(repo().join("catalogs/samples/enterprise-hybrid.json")).unwrap();
    scenario_file::parse(&text).unwrap()
}

/// The enterprise-hybrid sample (USD) with a EUR rate, so the EUR quote of `good.csv` converts.
fn new_workspace(dir: &Path) -> Workspace {
    let (mut settings, _, _) = planner_core::engine::workspace::content::from_scenario_file(sample());
    settings.fx.push(FxRate::market(
        "EUR",
        "USD",
        dec!(1.08),
        "ECB reference rate 2026-11-20",
    ));
    let files = planner_store::read_catalog_dir(&repo().join("catalogs")).unwrap();
    let mut ws = Workspace::create(&dir.join("rfp.cpw"), &settings, &files, NOW).unwrap();
    ws.import(&sample(), "enterprise-hybrid.json", NOW).unwrap();
    ws
}

fn edit(ws: &mut Workspace, card: &ScorecardDraft, field: &str, at: i64) -> planner_store::workspace::Applied {
    ws.apply(
        &EditRequest {
            edit: Edit::Scorecard {
                scorecard: card.clone(),
            },
            label: format!("Edit scorecard: {field}"),
            coalesce: Some(format!("scorecard:{field}")),
        },
        at,
    )
    .unwrap()
}

fn good_quotes(ws: &Workspace) -> Vec<planner_core::rfp::quote::Quote> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../planner-store/tests/fixtures/quotes/good.csv");
    planner_store::read_quotes(&path, ws.catalog(), ws.settings()).unwrap()
}

#[test]
fn the_scorecard_is_saved_as_typed_undone_and_reopened() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rfp.cpw");
    {
        let mut ws = new_workspace(dir.path());
        let fresh = ws.scorecard().unwrap();
        assert_eq!(
            fresh.weights,
            PerAxis::from_array([dec!(20); 5]),
            "equal weights to start"
        );
        assert!(fresh.vendors.is_empty());
        let mut card = fresh.clone();
        card.vendors.push(VendorEntry {
            name: "Nimbus GPU".into(),
            ..VendorEntry::default()
        });
        edit(&mut ws, &card, "vendors", 1_000);
        // Typing 0.4 then 0.45 in the MFU field within two seconds is one undo step.
        for (i, mfu) in [dec!(0.4), dec!(0.45)].into_iter().enumerate() {
            card.vendors[0].mfu = Some(mfu);
            edit(&mut ws, &card, "vendors[0].mfu", 5_000 + i as i64 * 500);
        }
        card.weights.cost = dec!(40);
        let applied = edit(&mut ws, &card, "weights.cost", 9_000);
        assert_eq!(
            applied.history.undo_label.as_deref(),
            Some("Edit scorecard: weights.cost")
        );
        assert_eq!(ws.scorecard().unwrap(), card);

        let undone = ws.undo().unwrap().unwrap();
        assert_eq!(ws.scorecard().unwrap().weights.cost, dec!(20));
        match &undone.changed[..] {
            [Changed::Scorecard { scorecard }] => assert_eq!(scorecard.weights.cost, dec!(20)),
            other => panic!("undo reported {other:?}"),
        }
        let undone = ws.undo().unwrap().unwrap();
        assert_eq!(undone.label, "Edit scorecard: vendors[0].mfu");
        assert_eq!(
            ws.scorecard().unwrap().vendors[0].mfu,
            None,
            "both keystrokes undone at once"
        );
        ws.redo().unwrap().unwrap();
        ws.redo().unwrap().unwrap();
        assert_eq!(ws.scorecard().unwrap(), card);
    }
    let ws = Workspace::open(&path).unwrap();
    let card = ws.scorecard().unwrap();
    assert_eq!(card.vendors[0].mfu, Some(dec!(0.45)));
    assert_eq!(card.weights.cost, dec!(40));
}

#[test]
fn importing_quotes_adds_a_scenario_per_vendor_and_the_vendors_in_one_step() {
    let dir = tempfile::tempdir().unwrap();
    let mut ws = new_workspace(dir.path());
    let quotes = good_quotes(&ws);
    let before = ws.scenario_summaries().unwrap().len();
    let done = ws.import_quotes(&quotes, "hybrid", "good.csv", NOW).unwrap();
    assert_eq!(done.quotes, 4);
    assert_eq!(done.vendors, ["Nimbus GPU", "Spotty Compute", "Rackwell Systems"]);
    assert_eq!(
        done.scenarios,
        ["hybrid-nimbus-gpu", "hybrid-spotty-compute", "hybrid-rackwell-systems"]
    );
    assert_eq!(done.applied.label, "Import quotes good.csv (4 quotes, 3 vendors)");
    assert_eq!(ws.scenario_summaries().unwrap().len(), before + 3);

    // Nimbus: the base scenario's facility and costs, with its two quotes as the only layers.
    let base = ws.scenario("hybrid").unwrap();
    let nimbus = ws.scenario("hybrid-nimbus-gpu").unwrap();
    assert_eq!(nimbus.name, format!("{} — Nimbus GPU", base.name));
    assert_eq!(nimbus.facility, base.facility);
    assert_eq!(nimbus.staff_fte, base.staff_fte);
    let kinds: Vec<LayerKind> = nimbus.layers.iter().map(|l| l.kind).collect();
    assert_eq!(kinds, [LayerKind::Reserved, LayerKind::OnDemand]);
    assert_eq!(nimbus.layers[0].id, "nimbus-gpu-ng-2027-014");
    assert_eq!(nimbus.layers[0].price_per_gpu_hour.as_ref().unwrap().value, dec!(2.95));
    // The EUR spot quote in dollars at the workspace's rate: 1.80 × 1.08.
    let spotty = ws.scenario("hybrid-spotty-compute").unwrap();
    assert_eq!(
        spotty.layers[0].price_per_gpu_hour.as_ref().unwrap().value,
        dec!(1.9440)
    );

    // The vendors on the scorecard, with the weakest SLA terms of their quotes.
    let card = ws.scorecard().unwrap();
    let names: Vec<&str> = card.vendors.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["Nimbus GPU", "Spotty Compute", "Rackwell Systems"]);
    let n = &card.vendors[0];
    assert_eq!(n.scenario.as_deref(), Some("hybrid-nimbus-gpu"));
    assert_eq!(
        (n.sla, n.sla_refund_share, n.response_hours),
        (Some(dec!(0.995)), Some(dec!(0.05)), Some(dec!(4)))
    );
    // Rackwell's hardware quote promises no uptime, refund or expert hours: none promised (0);
    // it states its response time. It reserves nothing, so it has no exit terms to state.
    let r = &card.vendors[2];
    assert_eq!(
        (r.sla, r.sla_refund_share, r.expert_hours_per_month, r.response_hours),
        (Some(dec!(0)), Some(dec!(0)), Some(dec!(0)), Some(dec!(24)))
    );
    assert_eq!(r.exit_terms_stated, Some(dec!(1)));
    // Nimbus reserves without stating exit terms.
    assert_eq!(n.exit_terms_stated, Some(dec!(0)));
    // Nimbus quotes egress at 0 per TB: its scenario's egress price, on the base's volume.
    assert_eq!(nimbus.egress_per_tb, dec!(0));
    assert_eq!(nimbus.egress_tb_per_month, base.egress_tb_per_month);
    assert!(
        nimbus
            .description
            .as_deref()
            .unwrap()
            .contains("Egress at 0 USD per TB, from quote NG-2027-014")
    );
    assert_eq!(
        spotty.egress_per_tb, base.egress_per_tb,
        "Spotty states no egress price"
    );

    // One undo step takes everything back; redo brings it again.
    let undone = ws.undo().unwrap().unwrap();
    assert_eq!(undone.changed.len(), 4, "three scenarios and the scorecard");
    assert_eq!(ws.scenario_summaries().unwrap().len(), before);
    assert!(ws.scorecard().unwrap().vendors.is_empty());
    ws.redo().unwrap().unwrap();
    assert_eq!(ws.scorecard().unwrap(), card);

    // A second import of the same vendors makes new scenarios and updates the vendors in place.
    let again = ws.import_quotes(&quotes, "hybrid", "good.csv", NOW).unwrap();
    assert_eq!(again.scenarios[0], "hybrid-nimbus-gpu-2");
    let card = ws.scorecard().unwrap();
    assert_eq!(card.vendors.len(), 3);
    assert_eq!(card.vendors[0].scenario.as_deref(), Some("hybrid-nimbus-gpu-2"));
}

#[test]
fn a_quote_that_cannot_become_a_layer_imports_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut ws = new_workspace(dir.path());
    let mut quotes = good_quotes(&ws);
    // The last vendor's quote in a currency the workspace has no rate for.
    quotes[3].currency = "JPY".into();
    let scenarios = ws.scenario_summaries().unwrap();
    let label = ws.history().unwrap().undo_label;
    let err = ws.import_quotes(&quotes, "hybrid", "good.csv", NOW).unwrap_err();
    assert!(err.message.contains("JPY"), "{}", err.message);
    assert_eq!(ws.scenario_summaries().unwrap(), scenarios);
    assert!(ws.scorecard().unwrap().vendors.is_empty());
    assert_eq!(ws.history().unwrap().undo_label, label);
    // An unknown base scenario is refused too.
    let err = ws
        .import_quotes(&good_quotes(&ws), "nope", "good.csv", NOW)
        .unwrap_err();
    assert_eq!(err.code, planner_core::error::ErrorCode::NotFound);
}

fn entry(name: &str, scenario: &str, mfu: Decimal, response: Decimal, expert: Decimal) -> VendorEntry {
    VendorEntry {
        name: name.into(),
        scenario: Some(scenario.into()),
        mfu: Some(mfu),
        annual_failure_rate: Some(dec!(0.02)),
        sla: Some(dec!(0.999)),
        sla_refund_share: Some(dec!(0.1)),
        response_hours: Some(response),
        expert_hours_per_month: Some(expert),
        // Typed by hand, as before issue 19: not known, the same (0) for every vendor.
        exit_terms_stated: None,
    }
}

#[test]
fn the_scorecard_ranks_on_the_engine_total_and_states_its_stability() {
    let dir = tempfile::tempdir().unwrap();
    let mut ws = new_workspace(dir.path());
    // Three vendors priced on one scenario: equal cost, so performance, service and compliance
    // decide. Performance 60, service 20, compliance 20 points.
    let card = ScorecardDraft {
        weights: PerAxis {
            performance: dec!(60),
            reliability: dec!(0),
            cost: dec!(0),
            service: dec!(20),
            compliance: dec!(20),
        },
        vendors: vec![
            entry("Alpha", "hybrid", dec!(0.5), dec!(4), dec!(0)),
            entry("Beta", "hybrid", dec!(0.4), dec!(1), dec!(20)),
            entry("Gamma", "hybrid", dec!(0.3), dec!(4), dec!(0)),
        ],
    };
    edit(&mut ws, &card, "vendors", 1_000);
    let compliance = BTreeMap::from([("Alpha".to_owned(), dec!(1)), ("Beta".to_owned(), dec!(1))]);
    let view = planner_app::vendors::scorecard_view(&ws, &compliance).unwrap();

    // The cost is the total the compare screen shows for the scenario over its horizon.
    ws.set_view(&ViewState {
        selected: vec!["hybrid".into(), "all-cloud".into()],
        baseline: None,
        horizon_months: Some(24),
    })
    .unwrap();
    let view24 = planner_app::vendors::scorecard_view(&ws, &compliance).unwrap();
    let (cmp, _, _) = planner_app::compare::evaluate_selection(&ws).unwrap();
    let compare_total = cmp.view.unwrap().scenarios[0].total_cash;
    assert_eq!(view24.horizon_months, 24);
    assert_eq!(view24.vendors[0].tco, Some(compare_total));
    assert_ne!(view.vendors[0].tco, view24.vendors[0].tco, "36 and 24 months differ");
    assert_eq!(view.vendors[2].compliance, None, "Gamma is not reviewed");

    // Scores: Alpha 0.6×1 + 0.2×0 + 0.2×1 = 0.8; Beta 0.6×0.5 + 0.2×1 + 0.2×1 = 0.7; Gamma 0.
    let sc = view.scorecard.unwrap();
    let ranking: Vec<(&str, Decimal)> = sc.ranking.iter().map(|v| (v.name.as_str(), v.score)).collect();
    assert_eq!(ranking, [("Alpha", dec!(0.8)), ("Beta", dec!(0.7)), ("Gamma", dec!(0))]);
    assert_eq!(sc.ranking[1].axes.cost, dec!(1), "equal costs score 1 each");
    // Beta catches Alpha when 1/15 of the weight moves from performance to service:
    // lead 0.6×0.5 − 0.2×1 = 0.1, closed at 1.5 per unit moved.
    let flip = sc.flip.unwrap();
    assert_eq!(flip.challenger, "Beta");
    assert_eq!(flip.threshold.round_dp(6), dec!(0.066667));
    assert_eq!(
        view.stability.as_deref(),
        Some(
            "Moving 6.7 points of weight from performance to service would put Beta level with Alpha on top; any more puts Beta ahead."
        )
    );
}

#[test]
fn a_vendor_with_missing_figures_is_listed_with_them_and_not_ranked() {
    let dir = tempfile::tempdir().unwrap();
    let mut ws = new_workspace(dir.path());
    let quotes = good_quotes(&ws);
    ws.import_quotes(&quotes, "hybrid", "good.csv", NOW).unwrap();
    let view = planner_app::vendors::scorecard_view(&ws, &BTreeMap::new()).unwrap();
    assert!(view.scorecard.is_none(), "no vendor has a measured MFU yet");
    let fields: Vec<&str> = view.vendors[0].problems.iter().map(|p| p.field.as_str()).collect();
    // Expert hours are a quote column since issue 19: quotes that state none promise none (0),
    // so only the figures measured outside the quotes are left to fill in.
    assert_eq!(fields, ["vendors[0].mfu", "vendors[0].annual_failure_rate"]);
    assert_eq!(ws.scorecard().unwrap().vendors[0].expert_hours_per_month, Some(dec!(0)));
    assert!(
        view.vendors[0].tco.is_some(),
        "the cost is known once the scenario evaluates"
    );
    // Filling in Nimbus's figures ranks it alone.
    let mut card = ws.scorecard().unwrap();
    card.vendors[0].mfu = Some(dec!(0.42));
    card.vendors[0].annual_failure_rate = Some(dec!(0.03));
    card.vendors[0].expert_hours_per_month = Some(dec!(10));
    edit(&mut ws, &card, "vendors[0]", 1_000);
    let view = planner_app::vendors::scorecard_view(&ws, &BTreeMap::new()).unwrap();
    let sc = view.scorecard.unwrap();
    assert_eq!(sc.ranking.len(), 1);
    assert_eq!(sc.ranking[0].name, "Nimbus GPU");
    assert_eq!(
        view.stability.as_deref(),
        Some("Only Nimbus GPU is ranked: the ranking cannot change until another vendor has every figure.")
    );
}

#[test]
fn compliance_comes_from_the_vendors_checklist_and_an_unreviewed_vendor_has_none() {
    use planner_core::compliance::checklist::AnswerInput;
    use planner_core::compliance::checklist::{ItemStatus, Subject, SubjectKind};
    let dir = tempfile::tempdir().unwrap();
    let mut ws = new_workspace(dir.path());
    let file = (
        "d1-compliance.toml".to_owned(),
        std::fs::read_to_string(repo().join("catalogs/checklists/d1-compliance.toml")).unwrap(),
    );
    let t = planner_core::compliance::checklist::parse_template(&file.0, &file.1).unwrap();
    let card = ScorecardDraft {
        weights: ScorecardDraft::default().weights,
        vendors: vec![
            entry("Alpha", "hybrid", dec!(0.5), dec!(4), dec!(0)),
            entry("Beta", "hybrid", dec!(0.4), dec!(1), dec!(20)),
            entry("Gamma", "hybrid", dec!(0.3), dec!(4), dec!(0)),
        ],
    };
    edit(&mut ws, &card, "vendors", 1_000);
    assert!(
        planner_app::vendors::vendor_compliance(&ws, &t).unwrap().is_empty(),
        "nobody reviewed yet"
    );

    // Alpha: every blocking item passed, one other item failed, signed off: cleared.
    let answer = |item: &str, status| AnswerInput {
        item: item.to_owned(),
        status,
        note: "checked".to_owned(),
        reviewer: "Dana Reviewer".to_owned(),
    };
    let t0 = 1_795_000_000_000_i64;
    let alpha = Subject::Vendor("Alpha".to_owned());
    let blocking: Vec<String> = t
        .items_for(SubjectKind::Vendor)
        .filter(|i| i.blocking)
        .map(|i| i.id.clone())
        .collect();
    for (i, item) in blocking.iter().enumerate() {
        ws.answer_item(
            &t,
            &file,
            &alpha,
            &answer(item, ItemStatus::Pass),
            &[],
            t0 + i as i64 * 1000,
        )
        .unwrap();
    }
    let optional = t
        .items_for(SubjectKind::Vendor)
        .find(|i| !i.blocking)
        .unwrap()
        .id
        .clone();
    ws.answer_item(
        &t,
        &file,
        &alpha,
        &answer(&optional, ItemStatus::Fail),
        &[],
        t0 + 50_000,
    )
    .unwrap();
    ws.sign_off_checklist(&t, &file, &alpha, "Dana Reviewer", "", t0 + 60_000)
        .unwrap();
    // Beta: one answer, not signed off: reviewed, not cleared.
    let beta = Subject::Vendor("Beta".to_owned());
    ws.answer_item(
        &t,
        &file,
        &beta,
        &answer(&blocking[0], ItemStatus::Pass),
        &[],
        t0 + 70_000,
    )
    .unwrap();

    let applicable = Decimal::from(t.items_for(SubjectKind::Vendor).count());
    let compliance = planner_app::vendors::vendor_compliance(&ws, &t).unwrap();
    assert_eq!(
        compliance,
        BTreeMap::from([
            ("Alpha".to_owned(), Decimal::from(blocking.len()) / applicable),
            ("Beta".to_owned(), Decimal::ZERO),
        ])
    );
    let view = planner_app::vendors::scorecard_view(&ws, &compliance).unwrap();
    let shown: Vec<Option<Decimal>> = view.vendors.iter().map(|v| v.compliance).collect();
    assert_eq!(shown, [compliance.get("Alpha").copied(), Some(Decimal::ZERO), None]);
    // On the compliance axis Alpha is best (1), Beta and Gamma (not reviewed, 0) worst.
    let sc = view.scorecard.unwrap();
    let axis: Vec<(&str, Decimal)> = sc
        .ranking
        .iter()
        .map(|v| (v.name.as_str(), v.axes.compliance))
        .collect();
    assert!(
        axis.contains(&("Alpha", dec!(1))) && axis.contains(&("Beta", dec!(0))) && axis.contains(&("Gamma", dec!(0)))
    );
}

/// The clock the workspace stamps its changes with in these tests (2026-11-01 00:00 UTC): the
/// store reads no clock of its own.
const NOW: i64 = 1_793_491_200_000;
