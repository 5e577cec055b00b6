//! The D-1 checklist: the shipped template, located template errors (an empty family among them),
//! the cleared rule and hints (export control, residency, owned hardware, unpriced exits, energy).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use planner_core::catalog::IssueKind;
use planner_core::compliance::checklist::{
    Answer, AppliesTo, Checklist, ChecklistTemplate, EnergyUse, HintRule, ItemStatus, Subject, SubjectKind, clearance,
    hints, parse_kept_template, parse_template,
};
use planner_core::engine::costing::evaluate::evaluate;
use planner_core::engine::input::scenario_file::parse;
use planner_core::engine::model::scenario::Plan;
use planner_core::engine::resolve::validate::validate;
use planner_core::workload_kind::DataClassification;

fn shipped_text() -> String {
    let path = format!(
        "{}/../../../catalogs/checklists/d1-compliance.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn shipped() -> ChecklistTemplate {
    parse_template("d1-compliance.toml", &shipped_text())
        .unwrap_or_else(|e| panic!("the shipped template does not load: {:#?}", e.issues))
}

#[test]
fn the_shipped_template_loads_with_every_family_and_the_34_sourced_items() {
    let t = shipped();
    let families: Vec<&str> = t.families.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(
        families,
        [
            "export-control",
            "data-classification",
            "registration",
            "cross-border-transfer",
            "disposal",
            "energy-carbon",
            "exit-terms"
        ]
    );
    assert_eq!(t.items.len(), 34, "the shipped D-1 template has 34 items");
    for item in &t.items {
        assert!(!item.guidance.trim().is_empty(), "{} has guidance", item.id);
        assert!(!item.provenance.sources.is_empty(), "{} has a source", item.id);
        assert!(item.provenance.sources.iter().all(|s| !s.title.is_empty()));
        assert!(item.provenance.as_of.year() >= 2004, "{} has a date", item.id);
    }
    // Every family has at least one item (the loader refuses one without), and no gap note is
    // left standing in for items.
    for f in &t.families {
        let n = t.items.iter().filter(|i| i.family == f.id).count();
        assert!(n > 0, "family {} has no item", f.id);
        assert_eq!(f.gap, None, "family {} has items and no gap note", f.id);
    }
    let count = |fam: &str| t.items.iter().filter(|i| i.family == fam).count();
    assert_eq!(count("export-control"), 11);
    assert_eq!(count("registration"), 6);
    assert_eq!(count("data-classification"), 2);
    assert_eq!(count("cross-border-transfer"), 2);
    assert_eq!(count("disposal"), 5);
    assert_eq!(count("energy-carbon"), 4);
    assert_eq!(count("exit-terms"), 4);
    assert!(t.items.iter().any(|i| i.blocking) && t.items.iter().any(|i| !i.blocking));
    assert!(t.items.iter().any(|i| i.applies_to == AppliesTo::Vendor));
    // The new families: what a reviewer needs on day one blocks (a sanitisation method for the
    // drives, the exit terms of a commitment); the rest is reported, not enforced.
    let blocking: Vec<&str> = t
        .items
        .iter()
        .filter(|i| i.blocking && ["disposal", "energy-carbon", "exit-terms"].contains(&i.family.as_str()))
        .map(|i| i.id.as_str())
        .collect();
    assert_eq!(blocking, ["disp-sanitisation-method", "ex-notice-and-fee"]);
    // Each hint rule flags at least one item, and only in its own family.
    for (rule, family) in [
        (HintRule::OwnedHardware, "disposal"),
        (HintRule::UnpricedExit, "exit-terms"),
        (HintRule::EnergyUse, "energy-carbon"),
    ] {
        let flagged: Vec<&str> = t
            .items
            .iter()
            .filter(|i| i.hint == Some(rule))
            .map(|i| i.family.as_str())
            .collect();
        assert!(!flagged.is_empty(), "{rule:?} flags an item");
        assert!(flagged.iter().all(|f| *f == family), "{rule:?}: {flagged:?}");
    }
    // Hint data: sourced, and naming only accelerators the shipped catalog knows.
    assert!(!t.controlled.is_empty() && !t.destinations.is_empty());
    assert!(t.controlled.iter().all(|c| !c.provenance.sources.is_empty()));
    assert!(t.destinations.iter().all(|d| !d.provenance.sources.is_empty()));
    assert_eq!(t.unknown_accelerators(&common::shipped_catalog()), Vec::<String>::new());
}

#[test]
fn every_shipped_source_is_dated_and_every_item_says_how_well_it_rests_on_it() {
    let t = shipped();
    for item in t
        .items
        .iter()
        .filter(|i| ["disposal", "energy-carbon", "exit-terms"].contains(&i.family.as_str()))
    {
        for s in &item.provenance.sources {
            assert!(s.as_of.year() >= 2012, "{}: source {} has a date", item.id, s.id);
            assert!(
                s.url.as_deref().is_some_and(|u| u.starts_with("https://")),
                "{}: {}",
                item.id,
                s.id
            );
        }
        // An item resting on practice rather than law says so.
        if item.provenance.confidence == planner_core::catalog::provenance::Confidence::Estimate {
            assert!(item.provenance.note.is_some(), "{} explains its estimate", item.id);
        }
    }
}

#[test]
fn the_shipped_catalog_still_loads_with_the_checklist_folder_beside_it() {
    let c = common::shipped_catalog();
    assert!(!c.accelerators.is_empty());
}

const MINI: &str = r#"[checklist]
format = 1
version = "t"
title = "t"

[sources.s]
title = "S"
as_of = "2025-05"

[[family]]
id = "export-control"
title = "Export control"

[[item]]
id = "a"
family = "export-control"
title = "A"
guidance = "check A"
blocking = true
applies_to = "both"
src = "s"
conf = "secondary"
"#;

fn issues(text: &str) -> Vec<(u32, String, IssueKind)> {
    match parse_template("t.toml", text) {
        Ok(_) => panic!("expected errors in:\n{text}"),
        Err(e) => e.issues.into_iter().map(|i| (i.line, i.field, i.kind)).collect(),
    }
}

#[test]
fn a_minimal_template_loads() {
    let t = parse_template("t.toml", MINI).unwrap();
    assert_eq!(t.items.len(), 1);
    assert_eq!(t.items[0].provenance.as_of.to_string(), "2025-05");
}

/// 1-based line of the `nth` (0-based) line containing `needle`.
fn line_of(text: &str, needle: &str, nth: usize) -> u32 {
    let (i, _) = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains(needle))
        .nth(nth)
        .unwrap();
    u32::try_from(i + 1).unwrap()
}

#[test]
fn broken_templates_give_located_errors() {
    // Unknown family, on the line of the `family` field.
    let text = MINI.replace(
        "family = \"export-control\"\ntitle = \"A\"",
        "family = \"exports\"\ntitle = \"A\"",
    );
    // The family it was meant for is then left without items, and that is reported too.
    assert_eq!(
        issues(&text),
        [
            (
                line_of(&text, "id = \"export-control\"", 0),
                "family[0].id".to_owned(),
                IssueKind::MissingField
            ),
            (
                line_of(&text, "family = \"exports\"", 0),
                "item[0].family".to_owned(),
                IssueKind::UnknownValue
            )
        ]
    );

    // Duplicate id: the second one is reported, on its own line.
    let dup = format!("{MINI}{}", &MINI[MINI.find("[[item]]").unwrap()..]);
    let found = issues(&dup);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].1, "item[1].id");
    assert_eq!(found[0].2, IssueKind::DuplicateId);
    assert_eq!(found[0].0, line_of(&dup, "id = \"a\"", 1));

    // Missing guidance: absent, then empty.
    let text = MINI.replace("guidance = \"check A\"\n", "");
    let found = issues(&text);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].2, IssueKind::MissingField);
    assert!(found[0].1.starts_with("item[0]"), "{found:?}");
    let text = MINI.replace("guidance = \"check A\"", "guidance = \"  \"");
    assert_eq!(
        issues(&text),
        [(
            line_of(&text, "guidance", 0),
            "item[0].guidance".to_owned(),
            IssueKind::MissingField
        )]
    );

    // Missing source, unknown source, missing confidence.
    let text = MINI.replace("src = \"s\"\n", "");
    assert_eq!(
        issues(&text),
        [(
            line_of(&text, "id = \"a\"", 0),
            "item[0].src".to_owned(),
            IssueKind::MissingProvenance
        )]
    );
    let text = MINI.replace("src = \"s\"", "src = \"nope\"");
    assert_eq!(
        issues(&text),
        [(
            line_of(&text, "src = \"nope\"", 0),
            "item[0].src".to_owned(),
            IssueKind::UnknownSource
        )]
    );
    let text = MINI.replace("conf = \"secondary\"\n", "");
    assert_eq!(
        issues(&text),
        [(
            line_of(&text, "id = \"a\"", 0),
            "item[0].conf".to_owned(),
            IssueKind::MissingProvenance
        )]
    );

    // A misspelt field, a bad `applies_to`, an unknown table, a missing header.
    let text = MINI.replace("blocking = true", "blocks = true");
    assert!(
        issues(&text)
            .iter()
            .any(|i| i.2 == IssueKind::UnknownField && i.1.starts_with("item[0]"))
    );
    let text = MINI.replace("applies_to = \"both\"", "applies_to = \"everyone\"");
    let found = issues(&text);
    assert_eq!(found[0].1, "item[0].applies_to");
    assert_eq!(found[0].0, line_of(&text, "everyone", 0));
    let text = format!("{MINI}\n[[itme]]\nid = \"x\"\n");
    assert!(issues(&text).contains(&(
        line_of(&text, "[[itme]]", 0),
        "itme".to_owned(),
        IssueKind::UnknownField
    )));
    let text = MINI.replace("[checklist]", "[catalog]");
    assert!(issues(&text).iter().any(|i| i.2 == IssueKind::BadHeader));

    // A controlled group naming an item that does not exist.
    let text = format!(
        "{MINI}\n[[controlled_accelerator]]\naccelerators = [\"x\"]\neccn = \"3A090.a\"\nitem = \"zz\"\nsrc = \"s\"\nconf = \"estimate\"\n"
    );
    assert_eq!(
        issues(&text),
        [(
            line_of(&text, "item = \"zz\"", 0),
            "controlled_accelerator[0].item".to_owned(),
            IssueKind::UnknownReference
        )]
    );

    // Several problems are all reported at once.
    let text = MINI
        .replace(
            "family = \"export-control\"\ntitle = \"A\"",
            "family = \"exports\"\ntitle = \"A\"",
        )
        .replace("src = \"s\"", "src = \"nope\"");
    assert_eq!(
        issues(&text).len(),
        3,
        "the empty family, the unknown family and the unknown source"
    );
}

// ----- an empty family ------------------------------------------------------------------------

const EMPTY_FAMILY: &str = "\n[[family]]\nid = \"disposal\"\ntitle = \"Asset disposal\"\n";

#[test]
fn a_template_with_an_empty_family_is_refused_naming_the_file_the_family_and_its_line() {
    let text = format!("{MINI}{EMPTY_FAMILY}");
    let err = parse_template("t.toml", &text).unwrap_err();
    assert_eq!(err.issues.len(), 1, "{:#?}", err.issues);
    let issue = &err.issues[0];
    assert_eq!(issue.file, "t.toml");
    assert_eq!(issue.line, line_of(&text, "id = \"disposal\"", 0));
    assert_eq!(issue.field, "family[1].id");
    assert_eq!(issue.kind, IssueKind::MissingField);
    assert!(
        issue.message.contains(
            "add at least one item to family `disposal` (an [[item]] with `family = \"disposal\"`) or remove the family"
        ),
        "{}",
        issue.message
    );
    let shown = issue.to_string();
    assert!(shown.starts_with(&format!("t.toml:{}:", issue.line)), "{shown}");
    assert!(shown.contains("family `disposal` has no items"), "{shown}");

    // A `gap` note does not stand in for items, and the message says so.
    let text = format!("{MINI}{EMPTY_FAMILY}gap = \"nothing sourced yet\"\n");
    let err = parse_template("t.toml", &text).unwrap_err();
    assert!(
        err.issues[0]
            .message
            .contains("a `gap` note does not stand in for items"),
        "{:?}",
        err.issues
    );

    // Giving the family an item, or removing the family, is what the message asks: both load.
    let item = "\n[[item]]\nid = \"d\"\nfamily = \"disposal\"\ntitle = \"D\"\nguidance = \"check D\"\nblocking = false\napplies_to = \"scenario\"\nsrc = \"s\"\nconf = \"estimate\"\n";
    assert_eq!(
        parse_template("t.toml", &format!("{MINI}{EMPTY_FAMILY}{item}"))
            .unwrap()
            .items
            .len(),
        2
    );
    assert!(parse_template("t.toml", MINI).is_ok());
}

#[test]
fn an_item_refused_for_its_own_problem_still_counts_for_its_family() {
    // The family's only item cites an unknown source: that is the one problem reported.
    let item = "\n[[item]]\nid = \"d\"\nfamily = \"disposal\"\ntitle = \"D\"\nguidance = \"check D\"\nblocking = false\napplies_to = \"scenario\"\nsrc = \"nope\"\nconf = \"estimate\"\n";
    let text = format!("{MINI}{EMPTY_FAMILY}{item}");
    assert_eq!(
        issues(&text),
        [(
            line_of(&text, "src = \"nope\"", 0),
            "item[1].src".to_owned(),
            IssueKind::UnknownSource
        )]
    );
}

#[test]
fn every_empty_family_of_the_shipped_template_is_named() {
    // The shipped template with its disposal and exit items taken out is refused twice, by name.
    let text = shipped_text()
        .replace("family = \"disposal\"", "family = \"export-control\"")
        .replace("family = \"exit-terms\"", "family = \"export-control\"");
    let err = parse_template("d1-compliance.toml", &text).unwrap_err();
    let named: Vec<(&str, u32)> = err
        .issues
        .iter()
        .map(|i| (i.message.split('`').nth(1).unwrap(), i.line))
        .collect();
    assert_eq!(
        named,
        [
            ("disposal", line_of(&text, "id = \"disposal\"", 0)),
            ("exit-terms", line_of(&text, "id = \"exit-terms\"", 0))
        ]
    );
    assert!(
        err.issues
            .iter()
            .all(|i| i.file == "d1-compliance.toml" && i.kind == IssueKind::MissingField)
    );
}

#[test]
fn a_template_kept_in_a_workspace_before_the_rule_still_reads() {
    // Workspaces keep the template their answers were given against; one kept from a template
    // with an empty family (and its gap note) still reads, and still checks everything else.
    let text = format!("{MINI}{EMPTY_FAMILY}gap = \"nothing sourced yet\"\n");
    let kept = parse_kept_template("t.toml", &text).unwrap();
    assert_eq!(kept.families.len(), 2);
    assert_eq!(kept.families[1].gap.as_deref(), Some("nothing sourced yet"));
    assert_eq!(kept.items.len(), 1);
    let broken = text.replace("src = \"s\"", "src = \"nope\"");
    assert!(parse_kept_template("t.toml", &broken).is_err());
    // The shipped template reads the same either way.
    assert_eq!(
        parse_kept_template("d1-compliance.toml", &shipped_text()).unwrap(),
        shipped()
    );
}

// ----- the cleared rule ------------------------------------------------------------------------

fn answer(item: &str, status: ItemStatus) -> Answer {
    Answer {
        item: item.to_owned(),
        status,
        note: String::new(),
        evidence: Vec::new(),
        reviewer: "rev".to_owned(),
        at: "2026-11-22T12:00:00Z".to_owned(),
    }
}

/// A checklist answering every blocking scenario item `pass`, then the given overrides.
fn scenario_checklist(t: &ChecklistTemplate, overrides: &[(&str, ItemStatus)]) -> Checklist {
    let mut c = Checklist::new(Subject::Scenario("s1".to_owned()));
    for item in t.items_for(SubjectKind::Scenario).filter(|i| i.blocking) {
        c.answers.push(answer(&item.id, ItemStatus::Pass));
    }
    for (id, status) in overrides {
        c.answers.push(answer(id, *status));
    }
    c
}

#[test]
fn all_blocking_items_passed_and_signed_off_is_cleared() {
    let t = shipped();
    let mut c = scenario_checklist(&t, &[]);
    let unsigned = c.clearance(&t);
    assert!(
        !unsigned.cleared && !unsigned.signed_off,
        "not signed off -> not cleared"
    );
    assert!(unsigned.blocking_open.is_empty() && unsigned.blocking_failed.is_empty());
    c.sign("lead", "2026-11-22T13:00:00Z", "ok");
    let cl = c.clearance(&t);
    assert!(cl.cleared && cl.signed_off);
}

#[test]
fn an_open_or_unanswered_blocking_item_keeps_the_scenario_from_being_cleared() {
    let t = shipped();
    let mut c = scenario_checklist(&t, &[("ec-classify", ItemStatus::Open)]);
    c.sign("lead", "t", "");
    let cl = c.clearance(&t);
    assert!(!cl.cleared && cl.signed_off);
    assert_eq!(cl.blocking_open, ["ec-classify"]);

    // Unanswered counts as open.
    let mut c = scenario_checklist(&t, &[]);
    c.answers.retain(|a| a.item != "dc-china-dsl");
    c.sign("lead", "t", "");
    assert_eq!(c.clearance(&t).blocking_open, ["dc-china-dsl"]);
    assert!(!c.clearance(&t).cleared);
}

#[test]
fn a_failed_blocking_item_keeps_the_scenario_from_being_cleared() {
    let t = shipped();
    let mut c = scenario_checklist(&t, &[("ec-prc-chips", ItemStatus::Fail)]);
    c.sign("lead", "t", "");
    let cl = c.clearance(&t);
    assert!(!cl.cleared);
    assert_eq!(cl.blocking_failed, ["ec-prc-chips"]);
    assert!(cl.blocking_open.is_empty());
}

#[test]
fn not_applicable_counts_as_cleared_and_non_blocking_items_do_not_count() {
    let t = shipped();
    let non_blocking: Vec<&str> = t
        .items_for(SubjectKind::Scenario)
        .filter(|i| !i.blocking)
        .map(|i| i.id.as_str())
        .collect();
    assert!(!non_blocking.is_empty());
    // Non-blocking items left open or failed, one blocking item not applicable: cleared once signed.
    let mut overrides: Vec<(&str, ItemStatus)> = vec![("reg-cn-algorithm-filing", ItemStatus::NotApplicable)];
    overrides.push((non_blocking[0], ItemStatus::Fail));
    let mut c = scenario_checklist(&t, &overrides);
    assert!(!c.clearance(&t).cleared);
    c.sign("lead", "t", "");
    assert!(c.clearance(&t).cleared);
}

#[test]
fn vendor_only_items_do_not_block_a_scenario_and_the_last_answer_is_in_force() {
    let t = shipped();
    // ec-entity-screening applies to vendors only.
    assert_eq!(t.item("ec-entity-screening").unwrap().applies_to, AppliesTo::Vendor);
    let mut c = scenario_checklist(&t, &[("ec-entity-screening", ItemStatus::Fail)]);
    c.sign("lead", "t", "");
    assert!(c.clearance(&t).cleared);
    // A vendor checklist needs it.
    let v = clearance(&t, SubjectKind::Vendor, &c.answers, c.signoff.as_ref());
    assert_eq!(v.blocking_failed, ["ec-entity-screening"]);

    // Fail then pass: the pass is in force.
    let mut c = scenario_checklist(
        &t,
        &[("ec-classify", ItemStatus::Fail), ("ec-classify", ItemStatus::Pass)],
    );
    c.sign("lead", "t", "");
    assert!(c.clearance(&t).cleared);
}

#[test]
fn a_change_after_sign_off_or_a_blank_reviewer_voids_the_sign_off() {
    let t = shipped();
    let mut c = scenario_checklist(&t, &[]);
    c.sign("lead", "t", "");
    assert!(c.clearance(&t).cleared);
    c.answers.push(answer("ec-classify", ItemStatus::Pass));
    c.answers.last_mut().unwrap().note = "re-checked".to_owned();
    let cl = c.clearance(&t);
    assert!(
        !cl.signed_off && !cl.cleared,
        "an answer changed after signing voids it"
    );
    c.sign("  ", "t", "");
    assert!(!c.clearance(&t).signed_off, "a sign-off needs a reviewer");
    c.sign("lead", "t2", "");
    assert!(c.clearance(&t).cleared);
}

#[test]
fn answers_to_unknown_items_are_listed_not_counted() {
    let t = shipped();
    let mut c = scenario_checklist(&t, &[("no-such-item", ItemStatus::Fail)]);
    c.sign("lead", "t", "");
    let cl = c.clearance(&t);
    assert!(cl.cleared);
    assert_eq!(cl.unknown_items, ["no-such-item"]);
}

// ----- hints -----------------------------------------------------------------------------------

fn plan() -> Plan {
    let text = r#"{
      "format_version": 1, "title": "hints", "currency": "USD", "start": "2027-01",
      "horizon_months": 12, "discount_rate": "0.08",
      "workloads": [{ "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
        "gpu_hours_per_day": "150", "gpu_hours_on": "nvidia-h100-sxm" }],
      "scenarios": [{ "id": "base", "name": "base", "layers": [
        { "id": "od", "kind": "on-demand", "offer": "aws-p5-h100" } ] }]
    }"#;
    let file = parse(text).unwrap_or_else(|p| panic!("parse: {} {}", p.path, p.message));
    validate(&common::catalog(), &file, None).unwrap_or_else(|p| panic!("validate: {p:#?}"))
}

#[test]
fn a_controlled_accelerator_in_a_restricted_destination_flags_the_export_item() {
    let t = shipped();
    let mut p = plan();
    let layer = &mut p.scenarios[0].layers[0];
    layer.accelerator = Some("nvidia-h100-sxm".to_owned());
    for region in ["cn-north-1", "China East 2", "Hong Kong"] {
        p.scenarios[0].layers[0].region = Some(region.to_owned());
        let h = hints(&t, &p.workloads, &p.scenarios[0], None);
        assert_eq!(h.len(), 1, "{region}: {h:?}");
        assert_eq!(h[0].item, "ec-classify");
        assert_eq!(h[0].layer, "od");
        assert!(
            h[0].message.contains("nvidia-h100-sxm") && h[0].message.contains(region),
            "{}",
            h[0].message
        );
        assert!(h[0].message.contains("China"), "{}", h[0].message);
    }
}

#[test]
fn no_export_hint_outside_restricted_destinations_or_for_uncontrolled_accelerators() {
    let t = shipped();
    let mut p = plan();
    p.scenarios[0].layers[0].accelerator = Some("nvidia-h100-sxm".to_owned());
    for region in ["us-east-1", "East US", "eu-central-1", "francecentral"] {
        p.scenarios[0].layers[0].region = Some(region.to_owned());
        assert!(hints(&t, &p.workloads, &p.scenarios[0], None).is_empty(), "{region}");
    }
    // No region known: nothing derived.
    p.scenarios[0].layers[0].region = None;
    assert!(hints(&t, &p.workloads, &p.scenarios[0], None).is_empty());
    // An uncontrolled accelerator in China.
    p.scenarios[0].layers[0].accelerator = Some("nvidia-t4".to_owned());
    p.scenarios[0].layers[0].region = Some("cn-north-1".to_owned());
    assert!(hints(&t, &p.workloads, &p.scenarios[0], None).is_empty());
    // The H20 flags its own China-licence item there.
    p.scenarios[0].layers[0].accelerator = Some("nvidia-h20".to_owned());
    let h = hints(&t, &p.workloads, &p.scenarios[0], None);
    assert_eq!(h.iter().map(|h| h.item.as_str()).collect::<Vec<_>>(), ["ec-china-h20"]);
}

#[test]
fn a_prc_accelerator_is_flagged_wherever_it_runs() {
    let t = shipped();
    let mut p = plan();
    p.scenarios[0].layers[0].accelerator = Some("huawei-ascend-910b".to_owned());
    p.scenarios[0].layers[0].region = Some("eu-central-1".to_owned());
    let h = hints(&t, &p.workloads, &p.scenarios[0], None);
    assert_eq!(h.len(), 1);
    assert_eq!(h[0].item, "ec-prc-chips");
}

#[test]
fn sensitive_data_served_outside_its_region_flags_the_residency_items() {
    let t = shipped();
    let mut p = plan();
    p.scenarios[0].layers[0].region = Some("us-east-1".to_owned());
    p.workloads[0].region = Some("eu27".to_owned());
    p.workloads[0].data_classification = DataClassification::Internal;
    assert!(
        hints(&t, &p.workloads, &p.scenarios[0], None).is_empty(),
        "internal data: no hint"
    );
    p.workloads[0].data_classification = DataClassification::Restricted;
    let h = hints(&t, &p.workloads, &p.scenarios[0], None);
    let items: Vec<&str> = h.iter().map(|h| h.item.as_str()).collect();
    assert_eq!(items, ["dc-security-level", "xb-gdpr-sccs"]);
    assert!(h[0].message.contains("serve") && h[0].message.contains("eu27"));
    // In its region: no hint.
    p.scenarios[0].layers[0].region = Some("eu27-band-ie".to_owned());
    assert!(hints(&t, &p.workloads, &p.scenarios[0], None).is_empty());
}

// ----- hints from owned hardware, commitments and energy ---------------------------------------

/// A plan of one scenario with the given layers, on the fixture catalog, in a US room.
fn plan_with(layers: &str) -> Plan {
    plan_on(&common::catalog(), layers)
}

/// The same on `catalog`.
fn plan_on(catalog: &planner_core::catalog::Catalog, layers: &str) -> Plan {
    let text = format!(
        r#"{{
      "format_version": 1, "title": "hints", "currency": "USD", "start": "2027-01",
      "horizon_months": 24, "discount_rate": "0.08",
      "workloads": [{{ "id": "serve", "name": "serve", "kind": "inference", "class": "steady",
        "gpu_hours_per_day": "150", "gpu_hours_on": "nvidia-h100-sxm" }}],
      "scenarios": [{{ "id": "base", "name": "base", "layers": [{layers}],
        "facility": {{ "region": "us", "cooling": "direct-to-chip", "kw_per_rack_limit": "40" }} }}]
    }}"#
    );
    let file = parse(&text).unwrap_or_else(|p| panic!("parse: {} {}", p.path, p.message));
    validate(catalog, &file, None).unwrap_or_else(|p| panic!("validate: {p:#?}"))
}

const OWNED_CASH: &str = r#"{ "id": "own", "kind": "owned", "accelerator": "nvidia-h100-sxm", "gpus": 8,
    "price_per_gpu": { "value": "30000", "reason": "quote" } }"#;
const OWNED_LEASE: &str = r#"{ "id": "lease", "kind": "owned", "accelerator": "nvidia-h100-sxm", "gpus": 8,
    "price_per_gpu": { "value": "30000", "reason": "quote" },
    "financing": { "method": "lease", "annual_rate": "0.09", "term_months": 24 } }"#;
const RESERVED: &str = r#"{ "id": "res", "kind": "reserved", "offer": "aws-p5-h100", "term": "1y", "gpus": 8,
    "price_per_gpu_hour": { "value": "2.10", "reason": "negotiated 1-year rate" } }"#;
const ON_DEMAND: &str = r#"{ "id": "od", "kind": "on-demand", "offer": "aws-p5-h100" }"#;
const CLAUSE: &str = r#", "exit_clause": { "notice_months": 2, "fee": { "kind": "fixed", "value": "5000" } } }"#;

/// `layer` with the exit clause above.
fn with_clause(layer: &str) -> String {
    format!("{}{CLAUSE}", layer.trim_end().trim_end_matches('}'))
}

fn items_of(t: &ChecklistTemplate, rule: HintRule) -> Vec<String> {
    t.items
        .iter()
        .filter(|i| i.hint == Some(rule))
        .map(|i| i.id.clone())
        .collect()
}

fn flagged(h: &[planner_core::compliance::checklist::Hint], prefix: &str) -> Vec<(String, String)> {
    h.iter()
        .filter(|h| h.item.starts_with(prefix))
        .map(|h| (h.item.clone(), h.layer.clone()))
        .collect()
}

#[test]
fn owned_hardware_not_on_a_lease_flags_the_disposal_items() {
    let t = shipped();
    let disposal = items_of(&t, HintRule::OwnedHardware);
    assert_eq!(disposal.len(), 5, "every disposal item carries the hint: {disposal:?}");

    let p = plan_with(&format!("{OWNED_CASH}, {ON_DEMAND}"));
    let h = hints(&t, &p.workloads, &p.scenarios[0], None);
    let got = flagged(&h, "disp-");
    let want: Vec<(String, String)> = disposal.iter().map(|i| (i.clone(), "own".to_owned())).collect();
    assert_eq!(got, want);
    let message = &h.iter().find(|h| h.item.starts_with("disp-")).unwrap().message;
    assert!(
        message.contains(
            "this scenario owns 8 GPUs of `nvidia-h100-sxm` (layer `own`, bought for cash): disposal applies"
        ),
        "{message}"
    );
    // Bought for cash, owned to the end: no other hint than disposal from this plan.
    assert!(h.iter().all(|h| h.item.starts_with("disp-")), "{h:?}");

    // Sold at the horizon: the message says the resale duties apply too.
    let mut p = p;
    p.scenarios[0].layers[0].owned.as_mut().unwrap().residual_share = rust_decimal::dec!(0.35);
    let h = hints(&t, &p.workloads, &p.scenarios[0], None);
    assert!(
        h[0].message
            .contains("sells them at the horizon for 35.0% of their price"),
        "{}",
        h[0].message
    );
}

#[test]
fn no_disposal_hint_for_leased_hardware_or_a_scenario_that_owns_none() {
    let t = shipped();
    for layers in [
        ON_DEMAND.to_owned(),
        format!("{}, {ON_DEMAND}", with_clause(OWNED_LEASE)),
    ] {
        let p = plan_with(&layers);
        let h = hints(&t, &p.workloads, &p.scenarios[0], None);
        assert_eq!(flagged(&h, "disp-"), Vec::<(String, String)>::new(), "{layers}");
    }
}

#[test]
fn a_commitment_without_an_exit_clause_flags_the_exit_items_with_its_layer() {
    let t = shipped();
    let exit_items = items_of(&t, HintRule::UnpricedExit);
    assert_eq!(exit_items, ["ex-notice-and-fee", "ex-data-return"]);

    // A reserved layer and a lease, neither with a clause: both flagged, each by its id.
    let p = plan_with(&format!("{RESERVED}, {OWNED_LEASE}, {ON_DEMAND}"));
    let h = hints(&t, &p.workloads, &p.scenarios[0], None);
    let got = flagged(&h, "ex-");
    let mut want = Vec::new();
    for layer in ["res", "lease"] {
        want.extend(exit_items.iter().map(|i| (i.clone(), layer.to_owned())));
    }
    assert_eq!(got, want);
    let res = &h.iter().find(|h| h.layer == "res").unwrap().message;
    assert!(
        res.contains(
            "layer `res` commits to 8 reserved GPUs of `nvidia-h100-sxm` for 12 months with no exit clause priced"
        ),
        "{res}"
    );
    let lease = &h
        .iter()
        .find(|h| h.layer == "lease" && h.item.starts_with("ex-"))
        .unwrap()
        .message;
    assert!(
        lease.contains(
            "layer `lease` commits to a 24-month lease of 8 GPUs of `nvidia-h100-sxm` with no exit clause priced"
        ),
        "{lease}"
    );
    // A leased layer is not the buyer's to dispose of: no disposal hint.
    assert!(flagged(&h, "disp-").is_empty());
}

#[test]
fn no_exit_hint_when_the_clause_is_priced_or_nothing_is_committed() {
    let t = shipped();
    let layers = format!("{}, {}, {ON_DEMAND}", with_clause(RESERVED), with_clause(OWNED_LEASE));
    let p = plan_with(&layers);
    assert!(p.scenarios[0].layers[..2].iter().all(|l| l.exit_clause.is_some()));
    let h = hints(&t, &p.workloads, &p.scenarios[0], None);
    assert_eq!(flagged(&h, "ex-"), Vec::<(String, String)>::new());
    // Owned for cash and on demand commit to no contract a clause could end.
    let p = plan_with(&format!("{OWNED_CASH}, {ON_DEMAND}"));
    assert!(flagged(&hints(&t, &p.workloads, &p.scenarios[0], None), "ex-").is_empty());
}

/// Every number in `text` (`822,693`, `302.8`), in order; words with digits (`CO2e`) are not.
fn numbers(text: &str) -> Vec<rust_decimal::Decimal> {
    text.split_whitespace()
        .map(|w| w.trim_matches(|c: char| matches!(c, '(' | ')' | ':' | ';' | ',')))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_digit()))
        .filter(|w| w.chars().all(|c| c.is_ascii_digit() || c == ',' || c == '.'))
        .map(|w| w.replace(',', "").parse().unwrap())
        .collect()
}

#[test]
fn the_energy_hint_states_the_evaluation_totals_on_every_energy_item() {
    let t = shipped();
    let energy_items = items_of(&t, HintRule::EnergyUse);
    assert_eq!(energy_items.len(), 4);
    // The shipped catalog has the providers' PUE, so rented layers have an estimate.
    let p = plan_on(
        &common::shipped_catalog(),
        &format!("{OWNED_CASH}, {RESERVED}, {ON_DEMAND}"),
    );
    let eval = evaluate(&p);
    let totals = &eval.scenarios[0].totals;
    assert!(
        totals.energy_kwh > totals.cloud_energy_kwh && totals.cloud_energy_kwh > rust_decimal::Decimal::ZERO,
        "owned and rented energy: {totals:?}"
    );
    let energy = EnergyUse::of(totals);
    let h = hints(&t, &p.workloads, &p.scenarios[0], Some(&energy));
    let on_energy: Vec<&planner_core::compliance::checklist::Hint> =
        h.iter().filter(|h| h.item.starts_with("en-")).collect();
    assert_eq!(
        on_energy.iter().map(|h| h.item.clone()).collect::<Vec<_>>(),
        energy_items
    );
    for hint in &on_energy {
        assert_eq!(hint.layer, "", "the energy hint is about the whole scenario");
        assert!(hint.message.starts_with("this scenario uses "), "{}", hint.message);
        assert!(
            hint.message.contains("of which rented, an estimate"),
            "{}",
            hint.message
        );
        // The figures are the totals: kWh to the unit, tonnes to a tenth.
        let tonnes = |kg: rust_decimal::Decimal| (kg / rust_decimal::dec!(1000)).round_dp(1);
        assert_eq!(
            numbers(&hint.message),
            [
                totals.energy_kwh.round_dp(0),
                tonnes(totals.emissions_kg),
                totals.cloud_energy_kwh.round_dp(0),
                tonnes(totals.cloud_emissions_kg)
            ],
            "{}",
            hint.message
        );
    }
    // Without the figures (the caller could not evaluate), no energy hint: silence, not clearance.
    assert!(flagged(&hints(&t, &p.workloads, &p.scenarios[0], None), "en-").is_empty());
}

#[test]
fn the_energy_hint_names_rented_layers_it_could_not_count() {
    let t = shipped();
    let mut p = plan_with(&format!("{OWNED_CASH}, {ON_DEMAND}"));
    p.scenarios[0].layers[1].cloud_energy = None;
    let energy = EnergyUse::of(&evaluate(&p).scenarios[0].totals);
    let h = hints(&t, &p.workloads, &p.scenarios[0], Some(&energy));
    let message = &h.iter().find(|h| h.item.starts_with("en-")).unwrap().message;
    assert!(
        message.contains("not counted: rented layer(s) `od` with no energy estimate"),
        "{message}"
    );
    assert!(
        !message.contains("of which rented"),
        "nothing rented was counted: {message}"
    );
}
