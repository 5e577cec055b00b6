//! Every use case of the app run on a `TestHost`, without a window: the same functions the
//! shell's commands and the CLI call, on the bundled catalog and sample plan.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use planner_app::identities::SignWith;
use planner_app::{Host, TestHost, catalog, compare, compliance, identities, memo, scenarios, session, vendors};
use planner_core::compliance::checklist::AnswerInput;
use planner_core::compliance::checklist::{ItemStatus, Subject};
use planner_core::edit::{Edit, EditRequest};
use planner_core::engine::editing::draft::TemplateKind;
use planner_core::engine::input::scenario_file::LayerKind;
use planner_core::engine::risk::sampling::Shape;
use planner_core::engine::workspace::content::ViewState;
use planner_core::error::ErrorCode;
use planner_core::workload_kind::WorkloadKind;
use planner_report::charts::Theme;

/// 2026-11-23T12:00:00Z.
const NOW_MS: i64 = 1_795_435_200_000;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

/// A host on the shipped catalog with a fresh configuration folder, and a workspace holding
/// the enterprise hybrid sample, open.
fn opened(dir: &Path) -> TestHost {
    let config = dir.join("config");
    std::fs::create_dir_all(&config).unwrap();
    let host = TestHost::new(&repo().join("catalogs"), Some(&config), NOW_MS);
    session::create(&host, &dir.join("plan.cpws"), "Use cases").unwrap();
    scenarios::import_file(&host, &repo().join("catalogs/samples/enterprise-hybrid.json")).unwrap();
    let selected = scenarios::export(&host, None)
        .unwrap()
        .scenarios
        .iter()
        .map(|s| s.id.clone())
        .collect();
    compare::set_view(
        &host,
        &ViewState {
            selected,
            baseline: None,
            horizon_months: None,
        },
    )
    .unwrap();
    host
}

#[test]
fn without_a_workspace_every_workspace_use_case_says_to_open_one() {
    let dir = tempfile::tempdir().unwrap();
    let host = TestHost::new(&repo().join("catalogs"), None, NOW_MS);
    let s = session::session(&host).unwrap();
    assert!(s.workspace.is_none());
    assert!(s.recent.is_empty());
    for code in [
        scenarios::undo(&host).err().map(|e| e.code),
        compare::screen(&host, Theme::Light).err().map(|e| e.code),
        memo::draft(&host).err().map(|e| e.code),
        compliance::statuses(&host).err().map(|e| e.code),
        vendors::scorecard(&host).err().map(|e| e.code),
        catalog::snapshot(&host).err().map(|e| e.code),
        scenarios::draft(
            &host,
            &scenarios::DraftFrom::Template {
                template: TemplateKind::Buy,
            },
        )
        .err()
        .map(|e| e.code),
    ] {
        assert_eq!(code, Some(ErrorCode::NoWorkspace));
    }
    // Identities need a configuration folder; this host has none.
    assert_eq!(identities::list(&host).unwrap_err().code, ErrorCode::Io);
    drop(dir);
}

#[test]
fn a_session_creates_edits_compares_exports_and_reopens() {
    let dir = tempfile::tempdir().unwrap();
    let host = opened(dir.path());
    let s = session::session(&host).unwrap();
    let info = s.workspace.expect("a workspace is open");
    assert_eq!(info.settings.title, "Use cases");
    assert_eq!(s.recent.len(), 1, "creating puts the file in the recent list");
    assert_eq!(s.recent[0].title, "Use cases");
    let ids: Vec<String> = info.scenarios.iter().map(|s| s.id.clone()).collect();
    assert!(ids.len() >= 2, "the sample holds several scenarios: {ids:?}");

    // An edit, its undo and its redo.
    let mut spec = scenarios::get(&host, &ids[0]).unwrap();
    let old_name = spec.name.clone();
    spec.name = "Renamed by the test".to_owned();
    let applied = scenarios::apply_edit(
        &host,
        &EditRequest {
            edit: Edit::PutScenario { scenario: spec.clone() },
            label: "Rename".to_owned(),
            coalesce: None,
        },
    )
    .unwrap();
    assert_eq!(applied.label, "Rename");
    assert_eq!(scenarios::get(&host, &ids[0]).unwrap().name, "Renamed by the test");
    assert_eq!(scenarios::undo(&host).unwrap().unwrap().label, "Rename");
    assert_eq!(scenarios::get(&host, &ids[0]).unwrap().name, old_name);
    scenarios::redo(&host).unwrap().unwrap();

    // The compare screen shows the selected scenarios; one scenario's own figures evaluate.
    let screen = compare::screen(&host, Theme::Light).unwrap();
    let shown = screen.comparison.view.as_ref().expect("the selection evaluates");
    assert_eq!(shown.scenarios.len(), info.view.selected.len());
    let detail = scenarios::detail(&host, &spec).unwrap();
    assert!(detail.problems.is_empty(), "{:?}", detail.problems);
    assert!(detail.figures.expect("figures").total_cash > rust_decimal::Decimal::ZERO);

    // Exports land on disk.
    let csv = dir.path().join("compare.csv");
    compare::export(&host, &csv, compare::ExportFormat::Csv).unwrap();
    assert!(std::fs::read_to_string(&csv).unwrap().lines().count() > 1);
    let json = dir.path().join("plan.json");
    scenarios::export_file(&host, &json, None).unwrap();
    let exported = planner_store::files::read_scenario_file(&json).unwrap();
    assert_eq!(exported.scenarios.len(), ids.len());

    // Save as continues in the copy; closing and reopening keeps the edit.
    let copy = dir.path().join("copy.cpws");
    let copied = session::save_as(&host, &copy).unwrap();
    assert_eq!(copied.scenarios.len(), ids.len());
    session::close(&host);
    assert!(session::session(&host).unwrap().workspace.is_none());
    session::open(&host, &copy).unwrap();
    assert_eq!(scenarios::get(&host, &ids[0]).unwrap().name, "Renamed by the test");
}

#[test]
fn a_reviewer_clears_a_scenario_with_a_signed_sign_off_and_the_log_verifies_it() {
    let dir = tempfile::tempdir().unwrap();
    let host = opened(dir.path());
    let id = identities::create(&host, "Rita Reviewer", "Example Org", None, "pass phrase 1").unwrap();
    assert_eq!(identities::list(&host).unwrap().len(), 1);
    let first = session::session(&host).unwrap().workspace.unwrap().scenarios[0]
        .id
        .clone();
    let subject = Subject::Scenario(first.clone());

    let before = compliance::statuses(&host).unwrap();
    let status = before.iter().find(|s| s.subject == subject).unwrap();
    assert!(!status.cleared);
    assert!(status.summary.contains("no sign-off"), "{}", status.summary);

    let view = compliance::checklist(&host, &subject).unwrap();
    for item in &view.items {
        let answer = AnswerInput {
            item: item.id.clone(),
            status: ItemStatus::Pass,
            note: "checked".to_owned(),
            reviewer: "Rita Reviewer".to_owned(),
        };
        compliance::answer(&host, &subject, &answer, &[]).unwrap();
    }
    let sign = SignWith {
        identity: id.id.clone(),
        passphrase: "pass phrase 1".to_owned(),
        reason: String::new(),
    };
    let answered = compliance::checklist(&host, &subject).unwrap();
    assert!(
        answered
            .items
            .iter()
            .all(|i| i.answer.as_ref().is_some_and(|a| a.at == "2026-11-23T12:00:00Z")),
        "answers are stamped with the host's clock"
    );
    let signed = compliance::sign_off(&host, &subject, "Rita Reviewer", "all pass", Some(&sign)).unwrap();
    assert!(signed.clearance.cleared);
    let after = compliance::statuses(&host).unwrap();
    let status = after.iter().find(|s| s.subject == subject).unwrap();
    assert!(status.cleared);
    assert_eq!(
        status.signed_at.as_deref(),
        Some("2026-11-23T12:00:00Z"),
        "stamped with the host's clock"
    );
    let log = compliance::verify_log(&host).unwrap();
    assert!(log.problem.is_none());
    assert_eq!(log.signed_signoffs, 1);

    host.advance(60_000);
    let revoked = compliance::revoke(&host, &subject, "Rita Reviewer", "re-check").unwrap();
    assert!(!revoked.clearance.cleared);
}

#[test]
fn a_memo_is_written_signed_recorded_and_verified() {
    let dir = tempfile::tempdir().unwrap();
    let host = opened(dir.path());
    let id = identities::create(&host, "Ann Author", "Example Org", None, "pass phrase 2").unwrap();
    let mut draft = memo::draft(&host).unwrap();
    draft.author = "Ann Author".to_owned();
    draft.decision = "Adopt the hybrid plan.".to_owned();
    scenarios::apply_edit(
        &host,
        &EditRequest {
            edit: Edit::Memo { memo: draft },
            label: "Memo".to_owned(),
            coalesce: None,
        },
    )
    .unwrap();
    let pdf = dir.path().join("memo.pdf");
    let sign = SignWith {
        identity: id.id,
        passphrase: "pass phrase 2".to_owned(),
        reason: "Author".to_owned(),
    };
    memo::export(&host, &pdf, Some(&sign)).unwrap();
    let check = memo::verify_pdf(&pdf).unwrap();
    assert!(check.all_intact);
    assert_eq!(check.unsigned_tail, 0);
    let records = memo::records(&host).unwrap();
    assert!(
        records
            .iter()
            .any(|r| r.signer.as_deref().is_some_and(|s| s.contains("Ann Author")))
    );

    // One byte changed after signing is caught.
    let mut bytes = std::fs::read(&pdf).unwrap();
    let at = bytes.len() / 3;
    bytes[at] ^= 0x01;
    std::fs::write(&pdf, &bytes).unwrap();
    assert!(!memo::verify_pdf(&pdf).map(|c| c.all_intact).unwrap_or(false));
}

#[test]
fn a_scenario_is_drafted_from_a_template_or_a_copy_and_reshaped_by_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    let host = opened(dir.path());
    // A copy is named "<name> (copy)" and takes the slug of that name, cut at 60 characters.
    let copy = scenarios::draft(
        &host,
        &scenarios::DraftFrom::Copy {
            scenario: "hybrid".into(),
        },
    )
    .unwrap();
    assert_eq!(
        copy.scenario.id,
        "two-dgx-h100-for-the-base-aws-spot-and-on-demand-for-bursts"
    );
    assert_eq!(
        copy.scenario.name,
        "Two DGX H100 for the base, AWS spot and on-demand for bursts (copy)"
    );
    let missing = scenarios::draft(
        &host,
        &scenarios::DraftFrom::Copy {
            scenario: "nope".into(),
        },
    )
    .unwrap_err();
    assert_eq!(missing.code, ErrorCode::NotFound);

    let hybrid = scenarios::draft(
        &host,
        &scenarios::DraftFrom::Template {
            template: TemplateKind::Hybrid,
        },
    )
    .unwrap();
    assert_eq!(hybrid.notes, Vec::<String>::new());
    let kinds: Vec<LayerKind> = hybrid.scenario.layers.iter().map(|l| l.kind).collect();
    assert_eq!(kinds, [LayerKind::Owned, LayerKind::OnDemand]);

    let change = scenarios::Reshape::LayerKind {
        index: 1,
        layer_kind: LayerKind::Reserved,
    };
    let reserved = scenarios::reshape(&host, &hybrid.scenario, &change).unwrap();
    assert_eq!(reserved.layers[1].kind, LayerKind::Reserved);
    assert_eq!(reserved.layers[1].offer, hybrid.scenario.layers[1].offer);
    let wrong = scenarios::Reshape::LayerKind {
        index: 7,
        layer_kind: LayerKind::Spot,
    };
    let refused = scenarios::reshape(&host, &hybrid.scenario, &wrong).unwrap_err();
    assert_eq!(
        (refused.code, refused.details[0].field.as_deref()),
        (ErrorCode::InvalidInput, Some("index"))
    );
    assert_eq!(
        refused.message,
        "index: the scenario has 2 layers; there is no layer 7 to change"
    );

    let mut bare = hybrid.scenario.clone();
    bare.facility = None;
    let with_room = scenarios::reshape(&host, &bare, &scenarios::Reshape::AddFacility).unwrap();
    assert_eq!(with_room.facility, hybrid.scenario.facility);
    assert_eq!(scenarios::layer_forms(&host).len(), 6);

    // The sample has a workload `batch-inference`: a new one of that name takes the next id.
    let w = scenarios::draft_workload(&host, "Batch inference", WorkloadKind::Inference).unwrap();
    assert_eq!(
        (w.id.as_str(), w.name.as_str()),
        ("batch-inference-2", "Batch inference")
    );
}

/// A risk analysis of `draws` draws from `seed`, triangular, rates correlated 0.8, nothing marked.
fn request(draws: u32, seed: u32) -> compare::RiskRequest {
    compare::RiskRequest {
        draws,
        seed,
        shape: Shape::Triangular,
        correlation: "0.8".to_owned(),
        uncertain: Vec::new(),
    }
}

#[test]
fn a_risk_analysis_of_the_compare_selection_is_kept_and_goes_stale_when_the_plan_changes() {
    let dir = tempfile::tempdir().unwrap();
    let host = opened(dir.path());
    assert_eq!(compare::risk(&host, Theme::Light).unwrap(), None);
    let zero = compare::run_risk(&host, &request(0, 1), Theme::Light).unwrap_err();
    assert_eq!(zero.details[0].field.as_deref(), Some("draws"));

    let run = compare::run_risk(&host, &request(200, 7), Theme::Light).unwrap();
    assert_eq!((run.outcome.draws, run.outcome.seed.as_str()), (200, "7"));
    let current = |host: &TestHost| compare::screen(host, Theme::Light).unwrap().plan_digest;
    assert_eq!(run.digest, current(&host));
    assert_eq!(run.ran_at, "2026-11-23 12:00");
    let ids: Vec<&str> = run.outcome.scenarios.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["hybrid", "all-cloud"]);
    // Its charts, drawn for the theme: the fan, and the tornado of the one alternative.
    assert!(run.charts.errors.is_empty(), "{:?}", run.charts.errors);
    assert!(run.charts.fan.as_deref().is_some_and(|s| s.starts_with("<svg")));
    let tornados: Vec<&str> = run.charts.tornados.iter().map(|c| c.scenario.as_str()).collect();
    assert_eq!(tornados, ["all-cloud"]);
    // Kept: read back as it ran; the same seed reproduces it to the cent.
    let kept = compare::risk(&host, Theme::Light).unwrap().unwrap();
    assert_eq!(kept.outcome, run.outcome);
    assert_eq!(
        compare::run_risk(&host, &request(200, 7), Theme::Light)
            .unwrap()
            .outcome,
        run.outcome
    );

    // A change to a compared scenario makes it stale; undoing the change makes it current again.
    let mut hybrid = scenarios::get(&host, "hybrid").unwrap();
    hybrid.staff_fte += rust_decimal::Decimal::ONE;
    let edit = EditRequest {
        edit: Edit::PutScenario { scenario: hybrid },
        label: "staff".into(),
        coalesce: None,
    };
    scenarios::apply_edit(&host, &edit).unwrap();
    assert_ne!(
        compare::risk(&host, Theme::Light).unwrap().unwrap().digest,
        current(&host)
    );
    scenarios::undo(&host).unwrap();
    assert_eq!(
        compare::risk(&host, Theme::Light).unwrap().unwrap().digest,
        current(&host)
    );
}

#[test]
fn a_memo_after_a_risk_analysis_prints_its_percentiles_and_seed() {
    let dir = tempfile::tempdir().unwrap();
    let host = opened(dir.path());
    let mut draft = memo::draft(&host).unwrap();
    draft.author = "Ann Author".to_owned();
    draft.decision = "Adopt the hybrid plan.".to_owned();
    draft.recommended = Some("hybrid".to_owned());
    let edit = EditRequest {
        edit: Edit::Memo { memo: draft },
        label: "Memo".to_owned(),
        coalesce: None,
    };
    scenarios::apply_edit(&host, &edit).unwrap();
    let pdf = dir.path().join("before.pdf");
    memo::export(&host, &pdf, None).unwrap();
    let text = pdftotext(&pdf);
    assert!(text.contains("No risk analysis was run on this plan"), "{text}");

    let run = compare::run_risk(&host, &request(200, 7), Theme::Light).unwrap();
    let pdf = dir.path().join("memo.pdf");
    memo::export(&host, &pdf, None).unwrap();
    let text = pdftotext(&pdf);
    // The memo reran the kept draws over its own scenarios (here the compare selection, against
    // the recommended hybrid, the compare baseline too): the same P50, to the cent.
    let hybrid = &run.outcome.scenarios[0];
    assert_eq!(hybrid.id, "hybrid");
    let p50 = planner_memo::content::money(hybrid.total.p50);
    assert!(text.contains(&p50), "P50 {p50} not in the memo:\n{text}");
    assert!(text.contains("seed 7, 200 draws"), "{text}");
    assert!(
        text.contains("--draws 200 --seed 7 --shape triangular --correlation 0.8 --baseline hybrid"),
        "{text}"
    );
    // The page with the Risk section, rendered for a look (RISK_MEMO_PNG names where).
    if let Ok(out) = std::env::var("RISK_MEMO_PNG") {
        let page = text
            .split('\u{c}')
            .position(|p| p.contains("Reproduce: seed 7"))
            .unwrap()
            + 1;
        let status = std::process::Command::new("pdftoppm")
            .args([
                "-png",
                "-r",
                "60",
                "-f",
                &(page - 1).to_string(),
                "-l",
                &page.to_string(),
            ])
            .arg(&pdf)
            .arg(&out)
            .status()
            .unwrap();
        assert!(status.success());
    }
}

fn pdftotext(pdf: &Path) -> String {
    let out = std::process::Command::new("pdftotext")
        .arg("-layout")
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) is needed by this test");
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn figures_marked_uncertain_are_offered_from_the_compared_scenarios_drawn_and_kept() {
    use planner_core::engine::risk::drivers::Uncertain;
    let dir = tempfile::tempdir().unwrap();
    let host = opened(dir.path());
    let offered = compare::screen(&host, Theme::Light).unwrap().risk_candidates;
    let demand = offered
        .iter()
        .find(|c| c.path.ends_with("/gpu_hours_per_day") || c.path.ends_with("/tokens_per_month"))
        .expect("the sample's workloads have a demand");
    assert!(!demand.price, "demand moves the dispatch, not only money");
    let mut asked = request(100, 5);
    asked.uncertain = vec![Uncertain {
        path: demand.path.clone(),
        low: demand.value * rust_decimal::Decimal::new(8, 1),
        high: demand.value * rust_decimal::Decimal::new(125, 2),
    }];
    let run = compare::run_risk(&host, &asked, Theme::Light).unwrap();
    assert_eq!(run.outcome.uncertain, asked.uncertain);
    assert!(run.outcome.figures.iter().any(|f| f.entry == demand.path));
    assert!(
        run.outcome.method.starts_with("Every one of the 100 draws"),
        "{}",
        run.outcome.method
    );
    let kept = compare::risk(&host, Theme::Light).unwrap().unwrap();
    assert_eq!(kept.outcome.uncertain, asked.uncertain);
    // A range that leaves out the plan's own value is refused, naming the driver.
    asked.uncertain[0].low = demand.value * rust_decimal::Decimal::TWO;
    asked.uncertain[0].high = demand.value * rust_decimal::Decimal::new(3, 0);
    let refused = compare::run_risk(&host, &asked, Theme::Light).unwrap_err();
    assert_eq!(refused.details[0].field.as_deref(), Some("uncertain[0]"), "{refused:?}");
}

#[test]
fn a_running_risk_analysis_reports_its_progress_and_a_cancel_keeps_the_last_one() {
    let dir = tempfile::tempdir().unwrap();
    let host = opened(dir.path());
    assert_eq!(compare::risk_progress(&host), None);
    assert!(!compare::cancel_risk(&host));
    let first = compare::run_risk(&host, &request(100, 1), Theme::Light).unwrap();
    assert_eq!(
        compare::risk_progress(&host),
        None,
        "a finished run is no longer running"
    );

    // A long run, cancelled from another thread once it has made progress.
    let cancelled = std::thread::scope(|scope| {
        let run = scope.spawn(|| compare::run_risk(&host, &request(compare::MAX_APP_DRAWS, 2), Theme::Light));
        let seen = loop {
            match compare::risk_progress(&host) {
                Some(p) if p.done > 0 => break p,
                _ if run.is_finished() => panic!("the run ended before it could be cancelled"),
                _ => std::thread::yield_now(),
            }
        };
        assert!(seen.done <= seen.total, "{seen:?}");
        // A second run is refused while one runs.
        let twice = compare::run_risk(&host, &request(100, 3), Theme::Light).unwrap_err();
        assert!(twice.message.contains("running already"), "{}", twice.message);
        assert!(compare::cancel_risk(&host));
        run.join().unwrap()
    });
    let error = cancelled.unwrap_err();
    assert_eq!(error.code, ErrorCode::Cancelled);
    assert_eq!(compare::risk_progress(&host), None);
    // Nothing was kept from the cancelled run; the one before stands, and a new run may start.
    assert_eq!(
        compare::risk(&host, Theme::Light).unwrap().unwrap().outcome,
        first.outcome
    );
    assert_eq!(
        compare::run_risk(&host, &request(100, 1), Theme::Light)
            .unwrap()
            .outcome,
        first.outcome
    );
}

#[test]
fn quotes_preview_then_import_as_vendor_scenarios_on_the_scorecard() {
    let dir = tempfile::tempdir().unwrap();
    let host = opened(dir.path());
    let file = repo().join("catalogs/templates/rfp-quotes.csv");
    let preview = vendors::preview_quotes(&host, &file).unwrap();
    assert_eq!(preview.quotes.len(), 3);
    // A quote is expired from the day after its last valid day, on the host's clock (UTC).
    let expired = |host: &TestHost| -> Vec<(String, bool)> {
        let p = vendors::preview_quotes(host, &file).unwrap();
        p.quotes.into_iter().map(|q| (q.quote_id, q.expired)).collect()
    };
    let none = [("EX-RES-1", false), ("EX-OD-1", false), ("EX-HW-1", false)].map(|(q, e)| (q.to_owned(), e));
    assert_eq!(expired(&host), none);
    // From 2026-11-23 12:00 to the last millisecond of 2027-02-28, EX-HW-1's last valid day.
    host.advance((98 * 24 - 12) * 3_600_000 - 1);
    assert_eq!(expired(&host), none);
    host.advance(1);
    let hw = [("EX-RES-1", false), ("EX-OD-1", false), ("EX-HW-1", true)].map(|(q, e)| (q.to_owned(), e));
    assert_eq!(expired(&host), hw);
    let base = session::session(&host).unwrap().workspace.unwrap().scenarios[0]
        .id
        .clone();
    let imported = vendors::import_quotes(&host, &file, &base).unwrap();
    assert_eq!(imported.quotes, 3);
    assert_eq!(
        imported.vendors,
        vec!["Example Cloud".to_owned(), "Example Hardware".to_owned()]
    );
    let card = vendors::scorecard(&host).unwrap();
    assert_eq!(card.vendors.len(), 2);
    assert!(vendors::quote_template(&host).unwrap().header.starts_with("vendor,"));
    assert_eq!(host.catalog_dir(), repo().join("catalogs"));
}

/// Copies the shipped catalog folder to `to` (files only; the templates beside it too).
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            copy_dir(&path, &to.join(entry.file_name()));
        } else {
            std::fs::copy(&path, to.join(entry.file_name())).unwrap();
        }
    }
}

#[test]
fn every_answer_with_a_catalog_change_says_whether_a_newer_catalog_ships() {
    let dir = tempfile::tempdir().unwrap();
    let shipped = dir.path().join("catalogs");
    copy_dir(&repo().join("catalogs"), &shipped);
    let host = TestHost::new(&shipped, Some(&dir.path().join("config")), NOW_MS);
    session::create(&host, &dir.path().join("plan.cpw"), "Catalog").unwrap();
    // The app is updated: the catalog it ships is newer than the workspace's snapshot.
    let path = shipped.join("accelerators.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replacen("version = \"2026.11.0\"", "version = \"2026.12.0\"", 1),
    )
    .unwrap();
    let status = |a: &planner_store::workspace::Applied| {
        a.changed
            .iter()
            .find_map(|c| match c {
                planner_store::workspace::Changed::Catalog { status } => Some(status.clone()),
                _ => None,
            })
            .unwrap()
    };
    let updated = catalog::update(&host).unwrap();
    assert_eq!(status(&updated).version, "2026.12.0");
    assert_eq!(status(&updated).shipped_version.as_deref(), Some("2026.12.0"));
    assert!(!status(&updated).newer_available);
    // Undone, the snapshot is older than what ships again, and the answer says so.
    let undone = scenarios::undo(&host).unwrap().unwrap();
    assert_eq!(status(&undone).version, "2026.11.0");
    assert_eq!(status(&undone).shipped_version.as_deref(), Some("2026.12.0"));
    assert!(status(&undone).newer_available);
    let redone = scenarios::redo(&host).unwrap().unwrap();
    assert!(!status(&redone).newer_available);
}

#[test]
fn a_wrong_passphrase_is_refused_on_the_passphrase_field() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config");
    let host = TestHost::new(&repo().join("catalogs"), Some(&config), NOW_MS);
    let ada = identities::create(&host, "Ada Lovelace", "Example Compute Ltd", None, "author-pass-2026").unwrap();
    let out = dir.path().join("ada.pem");
    let refused = identities::export_certificate(&host, &ada.id, "not-the-passphrase", &out).unwrap_err();
    assert_eq!(refused.code, ErrorCode::InvalidInput);
    assert_eq!(refused.details.len(), 1);
    assert_eq!(refused.details[0].field.as_deref(), Some("passphrase"));
    assert!(
        refused.message.contains("the passphrase does not open"),
        "{}",
        refused.message
    );
    assert!(!out.exists());
    // The same on import: the file's passphrase is the one typed.
    let p12 = config.join(format!("identities/{}.p12", ada.id));
    let refused = identities::import(&host, &p12, "wrong-passphrase").unwrap_err();
    assert_eq!(refused.details[0].field.as_deref(), Some("passphrase"));
}

/// The template's quotes and two vendors more: `Stratus GPU` reserves capacity without exit
/// terms; `Late Partial` rents on demand and its MFU is not measured yet.
const FOUR_VENDORS: &str = "Stratus GPU,ST-RES-1,reserved,nvidia-h100-sxm,16,USD,2.70,,,,1,36,,80,,,,,,0.999,0.1,2,12,2027-03-31,no exit terms quoted\nLate Partial,LP-OD-1,on-demand,nvidia-h100-sxm,,USD,3.90,,,,,,,,,,,,,0.99,0.05,6,2,2027-03-31,MFU not measured yet\n";

/// A workspace with four vendors on its scorecard: three with every figure, `Late Partial`
/// without its MFU, and `Example Hardware` with one checklist answer (reviewed, not cleared).
fn four_vendors(dir: &Path) -> TestHost {
    let host = opened(dir);
    let template = std::fs::read_to_string(repo().join("catalogs/templates/rfp-quotes.csv")).unwrap();
    let file = dir.join("quotes.csv");
    std::fs::write(&file, format!("{template}{FOUR_VENDORS}")).unwrap();
    vendors::import_quotes(&host, &file, "hybrid").unwrap();
    let mut card = vendors::scorecard_draft(&host).unwrap();
    let d = |t: &str| Some(t.parse::<rust_decimal::Decimal>().unwrap());
    for v in &mut card.vendors {
        v.annual_failure_rate = d("0.04");
        v.mfu = match v.name.as_str() {
            "Example Cloud" => d("0.42"),
            "Example Hardware" => d("0.46"),
            "Stratus GPU" => d("0.38"),
            _ => None,
        };
    }
    let edit = |edit: Edit, label: &str| EditRequest {
        edit,
        label: label.to_owned(),
        coalesce: None,
    };
    scenarios::apply_edit(&host, &edit(Edit::Scorecard { scorecard: card }, "Vendor figures")).unwrap();
    let name = "d1-compliance.toml";
    let text = std::fs::read_to_string(repo().join("catalogs/checklists").join(name)).unwrap();
    let checklist = planner_core::compliance::checklist::parse_template(name, &text).unwrap();
    let item = checklist
        .items_for(planner_core::compliance::checklist::SubjectKind::Vendor)
        .next()
        .unwrap();
    let answer = AnswerInput {
        item: item.id.clone(),
        status: ItemStatus::Pass,
        note: "contract read".to_owned(),
        reviewer: "Dana Reviewer".to_owned(),
    };
    compliance::answer(&host, &Subject::Vendor("Example Hardware".into()), &answer, &[]).unwrap();
    let mut draft = memo::draft(&host).unwrap();
    draft.author = "Ann Author".to_owned();
    draft.decision = "Adopt the hybrid plan.".to_owned();
    draft.recommended = Some("hybrid".to_owned());
    scenarios::apply_edit(&host, &edit(Edit::Memo { memo: draft }, "Memo")).unwrap();
    host
}

/// The rows of the memo's ranking table as pdftotext lays them out, each row's words joined.
fn ranking_rows(text: &str) -> Vec<String> {
    let start = text.find("Rank Vendor").unwrap();
    let end = start + text[start..].find("Stability of the ranking").unwrap();
    let mut rows: Vec<String> = Vec::new();
    for line in text[start..end].lines().skip(2) {
        let starts_row = line.split_whitespace().next().is_some_and(|w| w.parse::<u32>().is_ok());
        match rows.last_mut() {
            Some(row) if !starts_row => {
                row.push(' ');
                row.push_str(line.trim());
            }
            _ if starts_row => rows.push(line.trim().to_owned()),
            _ => {}
        }
    }
    rows
}

#[test]
fn the_memo_and_the_workbook_carry_the_scorecard_the_vendors_tab_shows() {
    let dir = tempfile::tempdir().unwrap();
    let host = four_vendors(dir.path());
    let screen = vendors::scorecard(&host).unwrap();
    let card = screen.scorecard.as_ref().unwrap();
    assert_eq!(card.ranking.len(), 3, "{:#?}", screen.vendors);
    let reviewed = screen.vendors.iter().find(|v| v.name == "Example Hardware").unwrap();
    assert_eq!(
        reviewed.compliance,
        Some(rust_decimal::Decimal::ZERO),
        "reviewed, not cleared"
    );

    let pdf = dir.path().join("memo.pdf");
    memo::export(&host, &pdf, None).unwrap();
    let text = pdftotext(&pdf);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    // The ranking, row by row in the screen's order: rank, then every word of the vendor's name.
    let rows = ranking_rows(&text);
    assert_eq!(rows.len(), card.ranking.len(), "{rows:#?}");
    for (row, s) in rows.iter().zip(&card.ranking) {
        let words: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(words[0], s.rank.to_string(), "{row}");
        assert!(
            s.name.split_whitespace().all(|w| words.contains(&w)),
            "{} not in {row}",
            s.name
        );
    }
    let stability = screen.stability.as_deref().unwrap();
    assert!(flat.contains(stability), "no {stability:?} in the memo");
    assert!(
        flat.contains("Late Partial, priced on ")
            && flat.contains("is partial and not ranked: the measured MFU is missing."),
        "{flat}"
    );
    assert!(
        flat.contains("Not reviewed: Example Cloud, Stratus GPU, Late Partial have no D-1 checklist record"),
        "{flat}"
    );
    assert!(flat.contains("Example Cloud — reserved layer"), "{flat}");
    assert!(
        flat.contains("3 months notice, a fee of 25.00% of the commitment remaining"),
        "{flat}"
    );
    assert!(
        flat.contains("Its scenario is not among this memo's scenarios"),
        "{flat}"
    );
    assert!(
        flat.contains("the quote states no exit terms"),
        "Stratus GPU's reservation: {flat}"
    );

    // The workbook: the Scorecard sheet, the same ranks and weighted totals as numbers.
    let xlsx = dir.path().join("comparison.xlsx");
    compare::export(&host, &xlsx, compare::ExportFormat::Xlsx).unwrap();
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg("import json,sys,openpyxl\nws=openpyxl.load_workbook(sys.argv[1])['Scorecard']\nprint(json.dumps([[c.value for c in r] for r in ws.iter_rows(max_row=5)]))")
        .arg(&xlsx)
        .output()
        .expect("python3 with openpyxl (pip install openpyxl) is needed by this test");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let sheet: Vec<Vec<serde_json::Value>> = serde_json::from_slice(&out.stdout).unwrap();
    for (row, s) in sheet[1..].iter().zip(&card.ranking) {
        assert_eq!(row[0].as_f64(), Some(f64::from(s.rank)));
        assert_eq!(row[1].as_str(), Some(s.name.as_str()));
        let total: f64 = s.score.to_string().parse().unwrap();
        assert_eq!(row[10].as_f64(), Some(total), "{}", s.name);
    }
    assert_eq!(sheet[4][1].as_str(), Some("Late Partial"));
    assert!(sheet[4][0].is_null());
}
