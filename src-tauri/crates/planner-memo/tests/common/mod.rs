//! Shared by the memo's tests and bench: real memos of the sample scenario files, evaluated by
//! the engine against the catalog the app ships, and the poppler/qpdf tools that read them.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use planner_core::catalog::Catalog;
use planner_core::catalog::diff::Freshness;
use planner_core::engine::costing::evaluate::Evaluation;
use planner_core::engine::decide::decision::DecisionView;
use planner_core::engine::input::scenario_file::ScenarioFile;
use planner_core::memo::{MemoDraft, Paper};
use planner_memo::{CatalogSource, Memo, MemoInput, memo_pdf};

#[path = "../../../planner-report/tests/common/mod.rs"]
pub mod report;

/// A scenario file's text evaluated, with its parsed scenarios.
pub struct Case {
    pub eval: Evaluation,
    pub view: DecisionView,
    pub file: ScenarioFile,
    /// The shipped catalog it was evaluated against.
    pub catalog: Catalog,
}

/// The catalog the app ships (`catalogs/*.toml`), the one `report::evaluate_text` evaluates
/// against: the memo tells cloud prices from other figures by it.
pub fn shipped_catalog() -> Catalog {
    let dir = root().join("catalogs");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p.display().to_string(), text)
        })
        .collect();
    files.sort();
    planner_core::catalog::load(&files).unwrap_or_else(|e| panic!("shipped catalog: {:#?}", e.issues))
}

pub fn case(text: &str, baseline: Option<&str>) -> Case {
    let (eval, view) = report::evaluate_text(text, baseline);
    let file: ScenarioFile = serde_json::from_str(text).unwrap_or_else(|e| panic!("scenario file: {e}"));
    Case {
        eval,
        view,
        file,
        catalog: shipped_catalog(),
    }
}

pub fn draft(case: &Case, paper: Paper) -> MemoDraft {
    MemoDraft {
        author: "Ada Example".to_owned(),
        client: "Example Research Ltd".to_owned(),
        decision: format!("Adopt {}.", case.view.scenarios[0].name),
        rationale: "It costs least over the horizon once power and staff are counted.\n\nThe cloud layer covers the months before delivery."
            .to_owned(),
        recommended: Some(case.view.scenarios[0].id.clone()),
        scenarios: case.view.scenarios.iter().map(|s| s.id.clone()).collect(),
        paper,
    }
}

/// 2026-11-22 10:00:00 UTC.
pub const CREATED: i64 = 1_795_341_600;

/// The memo's date, the day its figures are judged stale on.
pub const DATE: &str = "2026-11-22";

/// The catalog the app ships, as a workspace made on it states its origin.
pub static SHIPPED: CatalogSource = CatalogSource::Shipped;
pub const SHIPPED_STATEMENT: &str = "Catalog 2026.11.0, shipped with the app: it is part of the installed program, not a signed pack, so there is no pack signature to verify.";

/// The memo's input for `case` and `draft`: the shipped catalog, the default freshness
/// thresholds, dated [`DATE`].
pub fn input<'a>(case: &'a Case, draft: &'a MemoDraft) -> MemoInput<'a> {
    MemoInput {
        draft,
        view: &case.view,
        evaluation: &case.eval,
        scenarios: &case.file.scenarios,
        workloads: &case.file.workloads,
        workspace: "example.cpw",
        catalog: &case.catalog,
        catalog_version: "2026.11.0",
        catalog_source: &SHIPPED,
        catalog_statement: SHIPPED_STATEMENT,
        freshness: Freshness::default(),
        date: DATE,
        created_unix: CREATED,
        compliance: None,
        risk: None,
        scorecard: None,
        ways_out: &[],
        lock: None,
    }
}

pub fn memo(case: &Case, draft: &MemoDraft) -> Memo {
    memo_pdf(&input(case, draft)).unwrap_or_else(|e| panic!("memo: {e}"))
}

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

/// Runs a command-line tool; a missing tool fails the test with what to install.
pub fn tool(program: &str, args: &[&str]) -> std::process::Output {
    Command::new(program).args(args).output().unwrap_or_else(|e| {
        panic!("`{program}` could not be started ({e}): install poppler-utils and qpdf (apt-get install poppler-utils qpdf), or run `cargo xtask test`, which does")
    })
}

pub fn pdftotext(path: &Path) -> String {
    let out = tool("pdftotext", &["-layout", &path.to_string_lossy(), "-"]);
    assert!(
        out.status.success(),
        "pdftotext failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Renders page `page` of the PDF at `pdf` to `<prefix>.png` at 80 dpi with pdftoppm (for a
/// person to look at) and returns the PNG's path; a failed render fails the test.
pub fn render_page(pdf: &Path, page: &str, prefix: &Path) -> PathBuf {
    let p = pdf.to_string_lossy();
    let out = tool(
        "pdftoppm",
        &[
            "-png",
            "-r",
            "80",
            "-singlefile",
            "-f",
            page,
            "-l",
            page,
            &p,
            &prefix.to_string_lossy(),
        ],
    );
    assert!(
        out.status.success(),
        "pdftoppm: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    prefix.with_extension("png")
}
