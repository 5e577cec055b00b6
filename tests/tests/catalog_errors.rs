//! Every catalog validation error kind has a fixture file that triggers it, and the loader
//! reports it with the file, line and field declared in the fixture's first line, and refuses
//! the whole catalog.
//!
//! A fixture `KIND.NAME.toml` in `tests/fixtures/catalog-errors/` is copied as `NAME.toml` into
//! a copy of the valid minimal catalog (`tests/fixtures/catalog-min/`), replacing the file of
//! that name if there is one. Its first line reads `# expect: kind=K line=N field=F`.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use planner_core::catalog::IssueKind;
use planner_core::error::ErrorCode;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

struct Expect {
    kind: String,
    line: u32,
    field: Option<String>,
}

fn parse_expect(text: &str) -> Expect {
    let first = text.lines().next().unwrap_or_default();
    let body = first.strip_prefix("# expect:").expect("first line must be `# expect: ...`");
    let mut kind = String::new();
    let mut line = 0;
    let mut field = None;
    for part in body.split_whitespace() {
        match part.split_once('=') {
            Some(("kind", v)) => kind = v.to_owned(),
            Some(("line", v)) => line = v.parse().expect("line is a number"),
            Some(("field", v)) => field = Some(v.to_owned()),
            _ => panic!("unexpected expectation `{part}`"),
        }
    }
    Expect { kind, line, field }
}

#[test]
fn the_minimal_catalog_is_valid() {
    let catalog = planner_store::load_catalog_dir(&fixtures().join("catalog-min")).expect("valid");
    assert_eq!(catalog.accelerators.len(), 2);
    assert_eq!(catalog.files.len(), 5);
}

#[test]
fn every_error_kind_is_reported_at_its_line_and_field_and_refuses_the_catalog() {
    let mut covered = BTreeSet::new();
    let dir = fixtures().join("catalog-errors");
    let mut names: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    names.sort();
    for fixture in names {
        let file_name = fixture.file_name().unwrap().to_string_lossy().into_owned();
        let (kind_part, target) = file_name.split_once('.').unwrap();
        let text = fs::read_to_string(&fixture).unwrap();
        let expect = parse_expect(&text);
        assert_eq!(kind_part, expect.kind, "{file_name}: file name and expectation disagree");

        let work = tempfile::tempdir().unwrap();
        for entry in fs::read_dir(fixtures().join("catalog-min")).unwrap() {
            let path = entry.unwrap().path();
            fs::copy(&path, work.path().join(path.file_name().unwrap())).unwrap();
        }
        let target_path = work.path().join(target);
        fs::write(&target_path, &text).unwrap();

        let err = planner_store::load_catalog_dir(work.path()).expect_err(&file_name);
        assert_eq!(err.code, ErrorCode::CatalogInvalid, "{file_name}");
        let shown = err.details.iter().map(|d| format!("{d:?}")).collect::<Vec<_>>().join("\n");
        let hit = err.details.iter().find(|d| {
            d.kind.as_deref() == Some(expect.kind.as_str())
                && d.file.as_deref() == Some(target_path.display().to_string().as_str())
                && d.line == Some(expect.line)
                && expect.field.as_ref().is_none_or(|f| d.field.as_deref() == Some(f.as_str()))
        });
        assert!(hit.is_some(), "{file_name}: expected {} at line {} field {:?}; got:\n{shown}", expect.kind, expect.line, expect.field);
        let message = &hit.unwrap().message;
        assert!(message.len() > 20, "{file_name}: the message must say what to do: {message}");
        covered.insert(expect.kind);
    }
    let all: BTreeSet<String> = IssueKind::ALL.iter().map(|k| k.as_str().to_owned()).collect();
    let missing: Vec<_> = all.difference(&covered).collect();
    assert!(missing.is_empty(), "error kinds without a fixture: {missing:?}");
}

#[test]
fn a_source_that_fails_is_not_reported_again_where_it_is_cited() {
    let text = fs::read_to_string(fixtures().join("catalog-errors/invalid-date.accelerators.toml")).unwrap();
    let err = planner_core::catalog::parse_file("a.toml", &text).unwrap_err();
    assert_eq!(err.issues.len(), 1, "{:?}", err.issues);
}
