//! The time to make and sign a decision memo of four scenarios over 36 months (five vector
//! charts, ten pages or more) and write it: the path the app and `planner memo --sign-with` take.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../../planner-report/tests/common/mod.rs"]
mod report;

use criterion::{Criterion, criterion_group, criterion_main};
use planner_core::engine::input::scenario_file::ScenarioFile;
use planner_core::memo::{MemoDraft, Paper};
use planner_publish::{FolderCatalog, Signer, publish_from_file};
use planner_sign::{Identity, Timestamp};

fn bench(c: &mut Criterion) {
    let text = report::copies_text(2);
    let file: ScenarioFile = serde_json::from_str(&text).unwrap();
    let catalog_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../catalogs");
    let catalog = planner_store::load_catalog_dir(&catalog_dir).unwrap();
    let catalog = FolderCatalog {
        catalog: &catalog,
        dir: "catalogs",
    };
    let draft = MemoDraft {
        author: "Ada Example".into(),
        decision: "Adopt the first scenario.".into(),
        paper: Paper::A4,
        ..MemoDraft::default()
    };
    let identity = Identity::create(
        "Ada Example",
        "Example Ltd",
        None,
        Timestamp::new(2026, 11, 22, 10, 0, 0).unwrap(),
        365,
    )
    .unwrap();
    let signer = Signer {
        identity: &identity,
        reason: "Author",
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("memo.pdf");
    let now = 1_795_341_600_000;
    let p = publish_from_file(&catalog, &file, "bench.json", &draft, &out, now, Some(&signer)).unwrap();
    eprintln!(
        "signed memo: {} pages, {} charts, {} bytes",
        p.record.pages, p.charts, p.size
    );
    c.bench_function("memo_4_scenarios_generate_sign_write", |b| {
        b.iter(|| publish_from_file(&catalog, &file, "bench.json", &draft, &out, now, Some(&signer)).unwrap())
    });
    c.bench_function("memo_4_scenarios_generate_write_unsigned", |b| {
        b.iter(|| publish_from_file(&catalog, &file, "bench.json", &draft, &out, now, None).unwrap())
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
