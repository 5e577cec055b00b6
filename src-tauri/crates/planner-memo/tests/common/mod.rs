//! Shared by the memo's tests and bench: real memos of the sample scenario files, evaluated by
//! the engine against the catalog the app ships, and the poppler/qpdf tools that read them.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use planner_core::decision::DecisionView;
use planner_core::evaluate::Evaluation;
use planner_core::memo::{MemoDraft, Paper};
use planner_core::scenario_file::ScenarioFile;
use planner_memo::{Memo, MemoInput, memo_pdf};

#[path = "../../../planner-report/tests/common/mod.rs"]
pub mod report;

/// A scenario file's text evaluated, with its parsed scenarios.
pub struct Case {
    pub eval: Evaluation,
    pub view: DecisionView,
    pub file: ScenarioFile,
}

pub fn case(text: &str, baseline: Option<&str>) -> Case {
    let (eval, view) = report::evaluate_text(text, baseline);
    let file: ScenarioFile = serde_json::from_str(text).unwrap_or_else(|e| panic!("scenario file: {e}"));
    Case { eval, view, file }
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

pub fn memo(case: &Case, draft: &MemoDraft) -> Memo {
    memo_pdf(&MemoInput {
        draft,
        view: &case.view,
        evaluation: &case.eval,
        scenarios: &case.file.scenarios,
        workspace: "example.cpw",
        catalog_version: "2026.11.0",
        date: "2026-11-22",
        created_unix: CREATED,
        compliance: None,
        risk: None,
    })
    .unwrap_or_else(|e| panic!("memo: {e}"))
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
