//! What a reviewer waits for with a long compliance record: a workspace whose checklist log holds
//! 2,000 entries (answers on 20 scenarios, each with a note, one in ten with a 200 KB evidence
//! file): verifying the whole log (every hash, link and evidence file), reading one checklist,
//! the statuses for the badges, and recording one more answer (which verifies the chain first).
//!
//! Run: `cargo bench -p planner-app --bench checklists`.

use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
use planner_core::compliance::checklist::AnswerInput;
use planner_core::compliance::checklist::{ChecklistTemplate, ItemStatus, Subject, SubjectKind};
use planner_core::engine::input::scenario_file::{self};
use planner_core::engine::workspace::content::from_scenario_file;
use planner_store::Workspace;
use planner_store::workspace::EvidenceFile;

const ENTRIES: usize = 2_000;
const SCENARIOS: usize = 20;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn template_file() -> Option<(String, String)> {
    let name = "d1-compliance.toml".to_owned();
    let text = std::fs::read_to_string(repo().join("catalogs/checklists").join(&name)).ok()?;
    Some((name, text))
}

fn build(path: &Path) -> Option<(Workspace, ChecklistTemplate, (String, String))> {
    let text = std::fs::read_to_string(repo().join("catalogs/samples/enterprise-hybrid.json")).ok()?;
    let mut file = scenario_file::parse(&text).ok()?;
    let base = file.scenarios.first()?.clone();
    file.scenarios = (0..SCENARIOS)
        .map(|i| {
            let mut s = base.clone();
            s.id = format!("s{i}");
            s
        })
        .collect();
    let files = planner_store::read_catalog_dir(&repo().join("catalogs")).ok()?;
    let (settings, _, _) = from_scenario_file(file.clone());
    let mut ws = Workspace::create(path, &settings, &files, NOW).ok()?;
    ws.import(&file, "bench", NOW).ok()?;
    let tf = template_file()?;
    let template = planner_core::compliance::checklist::parse_template(&tf.0, &tf.1).ok()?;
    let items: Vec<String> = template
        .items_for(SubjectKind::Scenario)
        .map(|i| i.id.clone())
        .collect();
    for n in 0..ENTRIES {
        let subject = Subject::Scenario(format!("s{}", n % SCENARIOS));
        let item = items.get(n % items.len())?.clone();
        let files = if n % 10 == 0 {
            vec![EvidenceFile {
                name: format!("evidence-{n}.pdf"),
                bytes: vec![u8::try_from(n % 251).ok()?; 200 * 1024],
            }]
        } else {
            Vec::new()
        };
        let answer = AnswerInput {
            item,
            status: ItemStatus::Pass,
            note: format!("checked in review round {n}"),
            reviewer: "Dana Reviewer".into(),
        };
        ws.answer_item(&template, &tf, &subject, &answer, &files, 1_795_000_000_000 + n as i64)
            .ok()?;
    }
    Some((ws, template, tf))
}

fn benches(c: &mut Criterion) {
    let Ok(dir) = tempfile::tempdir() else { return };
    let Some((mut ws, template, tf)) = build(&dir.path().join("record.cpw")) else {
        eprintln!("could not build the benchmark workspace");
        return;
    };
    let subject = Subject::Scenario("s0".into());
    c.bench_function("verify a 2,000-entry checklist log with 200 evidence files", |b| {
        b.iter(|| ws.verify_checklist_log().map(|c| c.entries))
    });
    c.bench_function("one scenario's checklist view (2,000-entry log)", |b| {
        b.iter(|| planner_app::compliance::views::checklist_view(&ws, &template, &subject).map(|v| v.items.len()))
    });
    c.bench_function("the statuses of 20 scenarios (2,000-entry log)", |b| {
        b.iter(|| planner_app::compliance::views::statuses(&ws, &template).map(|s| s.len()))
    });
    let answer = AnswerInput {
        item: "ec-classify".into(),
        status: ItemStatus::Pass,
        note: "re-checked".into(),
        reviewer: "Dana Reviewer".into(),
    };
    let mut at = 1_800_000_000_000_i64;
    c.bench_function("record one answer on a 2,000-entry log (chain verified first)", |b| {
        b.iter(|| {
            at += 1;
            ws.answer_item(&template, &tf, &subject, &answer, &[], at)
                .map(|e| e.seq)
        })
    });
}

criterion_group! {
    name = checklists;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(checklists);

/// The clock the workspace stamps its changes with in these tests (2026-11-01 00:00 UTC): the
/// store reads no clock of its own.
const NOW: i64 = 1_793_491_200_000;
