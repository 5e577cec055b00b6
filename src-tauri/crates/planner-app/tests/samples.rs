//! The start screen's samples: listed from the samples folder with their title and story, opened
//! as a copy in the documents folder (never over an earlier copy), and the refusals when the
//! samples or the documents folder are missing.
// Test code: a failed unwrap is a failed test, with the value in the message.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use planner_app::session;
use planner_app::{Host, TestHost};
use planner_core::error::ErrorCode;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

/// A samples folder with one sample made from the startup scenario file, and a broken one.
fn samples_dir(dir: &Path) -> PathBuf {
    let samples = dir.join("samples");
    std::fs::create_dir_all(&samples).unwrap();
    let maker = TestHost::new(&repo().join("catalogs"), None, 1_800_000_000_000);
    session::create_described(
        &maker,
        &samples.join("startup.cpw"),
        Some("Sample: startup"),
        Some("A start-up weighs an API against a fleet."),
        &repo().join("catalogs/samples/startup-inference-saas.json"),
    )
    .unwrap();
    std::fs::write(samples.join("broken.cpw"), b"not a workspace").unwrap();
    std::fs::write(samples.join("notes.txt"), b"not a sample").unwrap();
    samples
}

#[test]
fn samples_are_listed_and_open_as_numbered_copies_in_the_documents_folder() {
    let dir = tempfile::tempdir().unwrap();
    let samples = samples_dir(dir.path());
    let docs = dir.path().join("docs");
    let config = dir.path().join("config");
    let host = TestHost::new(&repo().join("catalogs"), Some(&config), 1_800_000_000_000)
        .with_samples_dir(&samples)
        .with_documents_dir(&docs);

    let listed = session::samples(&host).unwrap();
    let ids: Vec<&str> = listed.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["broken", "startup"]);
    assert!(!listed[0].available);
    assert!(listed[0].problem.is_some());
    assert!(listed[1].available);
    assert_eq!(listed[1].title, "Sample: startup");
    assert_eq!(listed[1].description, "A start-up weighs an API against a fleet.");

    let first = session::open_sample(&host, "startup").unwrap();
    let folder = docs.join("Compute Planner");
    assert_eq!(Path::new(&first.path), folder.join("startup.cpw"));
    assert_eq!(first.settings.title, "Sample: startup");
    assert!(first.read_only.is_none());
    assert_eq!(first.scenarios.len(), 2);
    // An edit lands in the copy, not in the shipped sample.
    let mut settings = first.settings.clone();
    settings.title = "My copy".to_owned();
    planner_app::scenarios::apply_edit(
        &host,
        &planner_core::edit::EditRequest {
            edit: planner_core::edit::Edit::Settings { settings },
            label: "Rename".to_owned(),
            coalesce: None,
        },
    )
    .unwrap();
    let second = session::open_sample(&host, "startup").unwrap();
    assert_eq!(Path::new(&second.path), folder.join("startup (2).cpw"));
    assert_eq!(second.settings.title, "Sample: startup");
    let third = session::open_sample(&host, "startup").unwrap();
    assert_eq!(Path::new(&third.path), folder.join("startup (3).cpw"));
    session::close(&host);
    let kept = planner_store::Workspace::open(&folder.join("startup.cpw")).unwrap();
    assert_eq!(kept.settings().title, "My copy");
    drop(kept);
    assert_eq!(session::samples(&host).unwrap()[1].title, "Sample: startup");
    // The copies are on the recent list, newest first.
    let recent = session::session(&host).unwrap().recent;
    assert_eq!(Path::new(&recent[0].path), folder.join("startup (3).cpw"));
    assert_eq!(recent.len(), 3);
}

#[test]
fn missing_folders_and_unknown_samples_are_refused_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let samples = samples_dir(dir.path());
    let catalog = repo().join("catalogs");

    let none = TestHost::new(&catalog, None, 0);
    let err = session::samples(&none).unwrap_err();
    assert_eq!(err.code, ErrorCode::NotFound);
    assert!(
        err.message.contains("reinstall") && err.message.contains("cargo xtask samples"),
        "{}",
        err.message
    );
    let gone = TestHost::new(&catalog, None, 0).with_samples_dir(&dir.path().join("gone"));
    let err = session::open_sample(&gone, "startup").unwrap_err();
    assert_eq!(err.code, ErrorCode::NotFound);
    assert!(err.message.contains("gone"), "{}", err.message);

    let docs_is_a_file = dir.path().join("docs-file");
    std::fs::write(&docs_is_a_file, b"x").unwrap();
    let host = TestHost::new(&catalog, None, 0)
        .with_samples_dir(&samples)
        .with_documents_dir(&docs_is_a_file);
    let err = session::open_sample(&host, "nope").unwrap_err();
    assert_eq!(err.code, ErrorCode::NotFound);
    assert!(
        err.message.contains("`nope`") && err.message.contains("startup"),
        "{}",
        err.message
    );
    let err = session::open_sample(&host, "startup").unwrap_err();
    assert_eq!(err.code, ErrorCode::Io);
    assert!(err.message.contains("PLANNER_DOCUMENTS_DIR"), "{}", err.message);
    assert!(host.slots().workspace().is_none());

    let no_docs = TestHost::new(&catalog, None, 0).with_samples_dir(&samples);
    let err = session::open_sample(&no_docs, "startup").unwrap_err();
    assert_eq!(err.code, ErrorCode::Io);
    assert!(err.message.contains("No documents folder"), "{}", err.message);
    // A path is not an id.
    let err = session::open_sample(&host, "../samples/startup").unwrap_err();
    assert_eq!(err.code, ErrorCode::NotFound);
}
