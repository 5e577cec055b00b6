//! The vendor side without the disk: the stability sentence, a vendor's scenario made from a base
//! and its quotes, and the SLA terms a vendor is put on the scorecard with.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::catalog::provenance::AsOf;
use planner_core::engine::input::scenario_file::{LayerKind, ScenarioSpec};
use planner_core::engine::workspace::content::WorkspaceSettings;
use planner_core::rfp::quote::{Quote, QuoteKind, QuoteSource};
use planner_core::rfp::scorecard::{Flip, PerAxis};
use planner_core::rfp::vendors::{
    ScorecardDraft, VendorTerms, entry_from_quotes, stability_words, vendor_names, vendor_scenario, vendor_terms,
};
use rust_decimal::Decimal;
use rust_decimal::dec;

fn flip(change: [Decimal; 5], threshold: Decimal) -> Flip {
    Flip {
        challenger: "Vendor B".into(),
        threshold,
        threshold_points: threshold * Decimal::ONE_HUNDRED,
        weights: PerAxis::default(),
        change: PerAxis::from_array(change),
    }
}

#[test]
fn the_stability_sentence_names_the_weight_moved_and_the_axes() {
    let one = flip([dec!(0.075), dec!(0), dec!(-0.075), dec!(0), dec!(0)], dec!(0.075));
    assert_eq!(
        stability_words("Vendor A", &one),
        "Moving 7.5 points of weight from cost to performance would put Vendor B level with Vendor A on top; any more puts Vendor B ahead."
    );
    // Taken from two axes (the one where the top vendor leads most emptied first).
    let two = flip([dec!(-0.2), dec!(-0.05), dec!(0), dec!(0.25), dec!(0)], dec!(0.25));
    assert_eq!(
        stability_words("Vendor A", &two),
        "Moving 25 points of weight from performance (20) and reliability (5) to service would put Vendor B level with Vendor A on top; any more puts Vendor B ahead."
    );
    let tiny = flip([dec!(0.0004), dec!(-0.0004), dec!(0), dec!(0), dec!(0)], dec!(0.0004));
    assert!(
        stability_words("Vendor A", &tiny)
            .starts_with("Moving less than 0.1 points of weight from reliability to performance")
    );
}

fn quote(
    vendor: &str,
    id: &str,
    kind: QuoteKind,
    sla: Option<Decimal>,
    refund: Option<Decimal>,
    response: Option<Decimal>,
) -> Quote {
    Quote {
        vendor: vendor.into(),
        quote_id: id.into(),
        offer_kind: kind,
        accelerator: "nvidia-h100-sxm".into(),
        gpus: Some(16),
        currency: "USD".into(),
        price_per_gpu_hour: Some(dec!(2.95)),
        hardware_price_per_gpu: None,
        installation: None,
        support_rate_per_year: None,
        lead_time_months: Some(2),
        commitment_months: (kind == QuoteKind::Reserved).then_some(36),
        interruptions_per_hour: None,
        egress_per_tb: None,
        exit_notice_months: None,
        exit_fee: None,
        exit_egress_per_tb: None,
        exit_data_tb: None,
        exit_offboarding: None,
        sla_uptime: sla,
        sla_refund_share: refund,
        response_hours: response,
        expert_hours_per_month: None,
        valid_until: "2027-03-31".parse::<AsOf>().unwrap(),
        notes: None,
        source: QuoteSource {
            file: "q.csv".into(),
            row: 2,
        },
    }
}

#[test]
fn a_vendor_scenario_is_the_base_with_the_vendors_quotes_as_layers() {
    let quotes = vec![
        quote(
            "Nimbus",
            "A-1",
            QuoteKind::Reserved,
            Some(dec!(0.999)),
            Some(dec!(0.10)),
            Some(dec!(4)),
        ),
        quote("Other", "X", QuoteKind::OnDemand, None, None, None),
        // Slugs collide ("a-1" twice): the second layer gets a suffix.
        quote(
            "Nimbus",
            "A 1",
            QuoteKind::OnDemand,
            Some(dec!(0.995)),
            Some(dec!(0.05)),
            Some(dec!(8)),
        ),
    ];
    let base: ScenarioSpec = serde_json::from_value(serde_json::json!({
        "id": "base", "name": "Base", "layers": [], "staff_fte": "1.5"
    }))
    .unwrap();
    let settings = WorkspaceSettings::new("RFP", "2027-01".parse().unwrap());
    let s = vendor_scenario(&base, "base-nimbus", "Nimbus", &quotes, &settings).unwrap();
    assert_eq!((s.id.as_str(), s.name.as_str()), ("base-nimbus", "Base — Nimbus"));
    assert_eq!(s.staff_fte, dec!(1.5));
    let ids: Vec<&str> = s.layers.iter().map(|l| l.id.as_str()).collect();
    assert_eq!(ids, ["nimbus-a-1", "nimbus-a-1-2"]);
    assert_eq!(s.layers[0].kind, LayerKind::Reserved);
    // A rental starts after its lead time.
    assert_eq!(s.layers[1].start_month, 2);
    assert_eq!(vendor_names(&quotes), ["Nimbus", "Other"]);

    // The weakest terms of the vendor's quotes; its one reservation states no exit terms.
    assert_eq!(
        vendor_terms("Nimbus", &quotes),
        VendorTerms {
            sla: Some(dec!(0.995)),
            sla_refund_share: Some(dec!(0.05)),
            response_hours: Some(dec!(8)),
            expert_hours_per_month: None,
            exit_terms_stated: dec!(0),
        }
    );
    // Nothing stated; no commitment, so nothing to exit.
    assert_eq!(
        vendor_terms("Other", &quotes),
        VendorTerms {
            sla: None,
            sla_refund_share: None,
            response_hours: None,
            expert_hours_per_month: None,
            exit_terms_stated: dec!(1),
        }
    );
    let e = entry_from_quotes(None, "Nimbus", "base-nimbus", &quotes);
    assert_eq!(
        (e.name.as_str(), e.scenario.as_deref(), e.sla),
        ("Nimbus", Some("base-nimbus"), Some(dec!(0.995)))
    );
    // Figures the quotes do not state are kept.
    let mut kept = e.clone();
    kept.mfu = Some(dec!(0.4));
    kept.sla = Some(dec!(0.99));
    let again = entry_from_quotes(Some(&kept), "Other", "base-other", &quotes);
    assert_eq!(
        (again.mfu, again.sla, again.scenario.as_deref()),
        (Some(dec!(0.4)), Some(dec!(0.99)), Some("base-other"))
    );
    assert_eq!(ScorecardDraft::default().weights, PerAxis::from_array([dec!(20); 5]));
}

/// The enterprise sample's scenarios, the hybrid's owned DGX leased instead of bought on a loan,
/// with a reserved layer stating no exit terms added to it.
fn leased_hybrid() -> (
    WorkspaceSettings,
    Vec<planner_core::engine::input::scenario_file::WorkloadSpec>,
    Vec<ScenarioSpec>,
) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../catalogs/samples/enterprise-hybrid.json"
    );
    let file = planner_core::engine::input::scenario_file::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let (settings, workloads, mut scenarios) = planner_core::engine::workspace::content::from_scenario_file(file);
    let hybrid = scenarios.iter_mut().find(|s| s.id == "hybrid").unwrap();
    let owned = hybrid.layers.iter_mut().find(|l| l.kind == LayerKind::Owned).unwrap();
    let financing = owned.financing.as_mut().unwrap();
    financing.method = planner_core::engine::input::scenario_file::FinancingMethod::Lease;
    // A lease takes no down payment.
    financing.down_payment = Decimal::ZERO;
    let cloud = scenarios.iter().find(|s| s.id == "all-cloud").unwrap();
    let mut reserved = cloud
        .layers
        .iter()
        .find(|l| l.kind == LayerKind::Reserved)
        .unwrap()
        .clone();
    reserved.id = "reserved-plain".into();
    reserved.exit_clause = None;
    scenarios
        .iter_mut()
        .find(|s| s.id == "hybrid")
        .unwrap()
        .layers
        .push(reserved);
    (settings, workloads, scenarios)
}

#[test]
fn the_summary_sorts_the_screen_for_a_document_with_each_vendors_commitments() {
    use planner_core::rfp::summary::summary;
    use planner_core::rfp::vendors::{VendorEntry, scorecard_view};
    let (settings, workloads, scenarios) = leased_hybrid();
    let catalog = common::shipped_catalog();
    let full = stated_vendor;
    let draft = ScorecardDraft {
        weights: PerAxis::from_array([dec!(30), dec!(20), dec!(30), dec!(10), dec!(10)]),
        vendors: vec![
            full("Cloud Co", "all-cloud", dec!(0.4)),
            full("Metal Co", "hybrid", dec!(0.45)),
            VendorEntry {
                mfu: None,
                ..full("Late Co", "hybrid", dec!(0))
            },
            VendorEntry {
                scenario: None,
                ..full("Nowhere Co", "hybrid", dec!(0.3))
            },
        ],
    };
    let compliance = [("Cloud Co".to_owned(), dec!(0.9))].into_iter().collect();
    let view = scorecard_view(&draft, &catalog, &settings, &workloads, &scenarios, None, &compliance);
    let s = summary(&draft, &view, &scenarios).unwrap();
    // The ranking and the sentence are the view's, unchanged.
    let card = view.scorecard.as_ref().unwrap();
    let ranked: Vec<&str> = s.ranked.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(ranked, card.ranking.iter().map(|v| v.name.as_str()).collect::<Vec<_>>());
    assert_eq!(s.stability, view.stability);
    assert_eq!(s.weights, Some(card.weights));
    assert_eq!(s.entered_weights, draft.weights);
    // Left out: what each lacks, in the scorecard's words; not reviewed: no checklist record.
    let partial: Vec<(&str, &[String])> = s.partial.iter().map(|p| (p.name.as_str(), &p.missing[..])).collect();
    assert_eq!(partial.len(), 2, "{:#?}", s.partial);
    assert_eq!(partial[0].0, "Late Co");
    assert_eq!(partial[0].1, ["the measured MFU is missing".to_owned()]);
    assert_eq!(partial[1].0, "Nowhere Co");
    assert!(partial[1].1[0].starts_with("choose the scenario"), "{:?}", partial[1].1);
    assert_eq!(s.not_reviewed, ["Metal Co", "Late Co", "Nowhere Co"]);
    // Commitments: the cloud's reserved layer with its clause; the hybrid's lease (no clause) and
    // its reserved layer without exit terms; none for a vendor with no scenario.
    let exits = |name: &str| s.exits.iter().find(|e| e.vendor == name).unwrap();
    let cloud = &exits("Cloud Co").commitments;
    assert_eq!(cloud.len(), 1);
    assert_eq!(cloud[0].kind, LayerKind::Reserved);
    assert_eq!(cloud[0].exit_clause.as_ref().unwrap().notice_months, 3);
    let metal: Vec<(&str, LayerKind, bool)> = exits("Metal Co")
        .commitments
        .iter()
        .map(|c| (c.layer.as_str(), c.kind, c.exit_clause.is_some()))
        .collect();
    assert_eq!(
        metal,
        [
            ("dgx", LayerKind::Owned, false),
            ("reserved-plain", LayerKind::Reserved, false)
        ]
    );
    assert!(exits("Nowhere Co").commitments.is_empty() && exits("Nowhere Co").scenario.is_none());

    // A scorecard without vendors has no summary: the documents leave it out.
    let empty = ScorecardDraft::default();
    let view = scorecard_view(&empty, &catalog, &settings, &workloads, &scenarios, None, &compliance);
    assert!(summary(&empty, &view, &scenarios).is_none());
}

#[test]
fn the_scorecard_prices_a_vendor_on_its_decision_total_and_reads_compliance_0_when_none_is_cleared() {
    // Issue 42, points 3 and 8: on 8e35c85 the cost axis took `total_cash` (leaving out the
    // commitments due after a 12-month horizon, which the comparison ranks on), and three vendors
    // none of which has a checklist record all read "compliance 100 %" though each counts 0.
    use planner_core::rfp::vendors::scorecard_view;
    let (settings, workloads, scenarios) = leased_hybrid();
    let catalog = common::shipped_catalog();
    let entry = |name: &str, scenario: &str| stated_vendor(name, scenario, dec!(0.4));
    let draft = ScorecardDraft {
        weights: PerAxis::from_array([dec!(20); 5]),
        vendors: vec![entry("Cloud Co", "all-cloud"), entry("Metal Co", "hybrid")],
    };
    let none_reviewed = std::collections::BTreeMap::new();
    let view = scorecard_view(
        &draft,
        &catalog,
        &settings,
        &workloads,
        &scenarios,
        Some(12),
        &none_reviewed,
    );
    // The same scenarios as the comparison evaluates them over 12 months.
    let selection: Vec<ScenarioSpec> = scenarios
        .iter()
        .filter(|s| s.id == "all-cloud" || s.id == "hybrid")
        .cloned()
        .collect();
    let evaluated = planner_core::engine::workspace::content::evaluate_selection(
        &catalog,
        &settings,
        &workloads,
        &selection,
        Some(12),
    );
    let decision = planner_core::engine::decide::decision::decision_view(evaluated.evaluation.as_ref().unwrap(), None);
    for v in &view.vendors {
        let figures = decision
            .scenarios
            .iter()
            .find(|f| Some(&f.id) == v.scenario.as_ref())
            .unwrap();
        assert!(
            figures.commitments_after_horizon > Decimal::ZERO,
            "{}: commitments run past 12 months",
            v.name
        );
        assert_eq!(v.tco, Some(figures.decision_total), "{}", v.name);
        assert_ne!(v.tco, Some(figures.total_cash), "{}", v.name);
    }
    let card = view.scorecard.as_ref().unwrap();
    for r in &card.ranking {
        assert_eq!(r.axes.compliance, Decimal::ZERO, "{}: not reviewed counts 0", r.name);
    }
    // Equal measures on any other axis still separate nobody: each reads 1.
    for r in &card.ranking {
        assert_eq!(
            (r.axes.performance, r.axes.reliability, r.axes.service),
            (Decimal::ONE, Decimal::ONE, Decimal::ONE)
        );
    }
    // Both cleared with the same share: each keeps it (0.9 × (1 + 1) ÷ 2).
    let both = [("Cloud Co".to_owned(), dec!(0.9)), ("Metal Co".to_owned(), dec!(0.9))]
        .into_iter()
        .collect();
    let view = scorecard_view(&draft, &catalog, &settings, &workloads, &scenarios, Some(12), &both);
    for r in &view.scorecard.as_ref().unwrap().ranking {
        assert_eq!(r.axes.compliance, dec!(0.9), "{}", r.name);
    }
}

/// A vendor that states every figure the scorecard reads (AFR 3 %, SLA 99.9 % with a 10 %
/// refund, 4-hour response, 8 expert hours a month, exit terms stated), at `mfu`.
fn stated_vendor(name: &str, scenario: &str, mfu: Decimal) -> planner_core::rfp::vendors::VendorEntry {
    planner_core::rfp::vendors::VendorEntry {
        name: name.into(),
        scenario: Some(scenario.into()),
        mfu: Some(mfu),
        annual_failure_rate: Some(dec!(0.03)),
        sla: Some(dec!(0.999)),
        sla_refund_share: Some(dec!(0.1)),
        response_hours: Some(dec!(4)),
        expert_hours_per_month: Some(dec!(8)),
        exit_terms_stated: Some(dec!(1)),
    }
}
