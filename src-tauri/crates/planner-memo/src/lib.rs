//! Compute Planner's decision memo: the PDF a steering committee approves and an auditor reads a
//! year later.
//!
//! [`memo_pdf`] takes the author's [`MemoDraft`], the [`DecisionView`] of the chosen scenarios
//! and the [`Evaluation`] behind it, and returns the PDF bytes: the decision and rationale, the
//! comparison table and charts (the same SVG the compare screen shows, embedded as vectors),
//! the workloads as declared, the vendor scorecard (when the workspace keeps one), each
//! scenario's key figures, sizing, rack plan, delivery and bridge of its owned hardware, spot
//! checkpoint arithmetic, the GPUs its work needs, exit terms and warnings, the assumption ledger
//! with every figure's sources, date and confidence (and the declared demand), and the monthly
//! ledger and the month-by-month dispatch as appendices; page numbers on every page; DejaVu Sans
//! embedded (and WenQuanYi Micro Hei for CJK text, when there is some), so the text can be
//! searched and copied. Text the memo cannot print as written (a script written right to left or
//! needing shaping, a character no embedded font has) is refused with [`MemoError::Unset`],
//! naming the field and the characters.
//! The last page ends with empty signature boxes at [`signature_slots`], which the signer
//! (`planner-sign`) fills with visible PAdES signatures.
//!
//! Like the rest of the reports, this crate does no IO and reads no clock: the date and time
//! printed and written into the document information come in with the input.
//!
//! - [`content`]: what the memo says, as blocks (testable without a PDF);
//! - [`content::operations`]: what each plan does beside its cost (workloads, bridges, spot,
//!   needs, dispatch), as blocks for [`content`];
//! - [`content::scorecard`]: the vendor scorecard section, as blocks for [`content`];
//! - [`layout`]: pagination and drawing with printpdf;
//! - [`fonts`]: the embedded faces, text measuring and wrapping;
//! - [`scripts`]: what the memo cannot print, found before layout.

pub mod blocks;
pub mod content;
pub mod fonts;
pub mod layout;
pub mod scripts;

use planner_core::catalog::Catalog;
use planner_core::catalog::diff::Freshness;
use planner_core::engine::costing::evaluate::Evaluation;
use planner_core::engine::decide::decision::DecisionView;
use planner_core::engine::input::scenario_file::{ScenarioSpec, WorkloadSpec};
use planner_core::engine::risk::run::RiskOutcome;
use planner_core::memo::MemoDraft;
use planner_core::rfp::summary::ScorecardSummary;

pub use layout::{SIGNATURE_ROLES, SlotRect, signature_slots};

/// Why a memo was not produced.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MemoError {
    #[error("the font {0} embedded in the app could not be read; reinstall the app")]
    Font(&'static str),
    #[error("a chart could not be drawn into the memo: {0}")]
    Chart(String),
    #[error("the evaluation does not belong to the decision view: {0}")]
    Mismatch(String),
    #[error("the date `{0}` is not a UTC time; give YYYY-MM-DDTHH:MM:SSZ")]
    Date(String),
    #[error("the memo's date `{0}` is not a day; give YYYY-MM-DD")]
    Day(String),
    #[error("the PDF could not be written: {0}")]
    Write(String),
    /// Text the memo would drop or garble: each text named, with its characters.
    #[error("{}", scripts::describe(.0))]
    Unset(Vec<scripts::UnsetText>),
}

/// Everything a memo is made from.
#[derive(Debug, Clone, Copy)]
pub struct MemoInput<'a> {
    pub draft: &'a MemoDraft,
    pub view: &'a DecisionView,
    /// The evaluation the view was built from (for the ledger, sizing and assumptions).
    pub evaluation: &'a Evaluation,
    /// The scenario files, for the terms they state (exits).
    pub scenarios: &'a [ScenarioSpec],
    /// The workloads the scenarios were evaluated for, as the scenario file (or workspace)
    /// declares them, in file order: the Workloads table and the declared demand in the
    /// assumption ledger.
    pub workloads: &'a [WorkloadSpec],
    /// The workspace as the memo names it (its file name).
    pub workspace: &'a str,
    /// The catalog the numbers were computed with (it tells cloud prices from other figures).
    pub catalog: &'a Catalog,
    /// Its data version.
    pub catalog_version: &'a str,
    /// Where it came from, as the facts table says it.
    pub catalog_source: &'a CatalogSource,
    /// The same in one sentence (version, publisher, whether the signature verifies), as the
    /// assumption ledger opens with it.
    pub catalog_statement: &'a str,
    /// How old a catalog figure may be on the memo's date before the ledger marks it stale.
    pub freshness: Freshness,
    /// The date printed on the memo, `YYYY-MM-DD`; also the day figures are judged stale on, so
    /// that the same inputs give the same memo.
    pub date: &'a str,
    /// When the memo is made, UTC, as Unix seconds (written into the document information).
    pub created_unix: i64,
    /// The D-1 checklist status of the scenarios, from the workspace's log; `None` for a memo
    /// made from a scenario file, which has no checklist record.
    pub compliance: Option<&'a MemoCompliance>,
    /// The risk analysis of the memo's scenarios against the recommended one (the kept analysis's
    /// draws, seed and correlation); `None` when none was run.
    pub risk: Option<&'a RiskOutcome>,
    /// The workspace's vendor scorecard, as the scorecard screen computes it; `None` when the
    /// workspace lists no vendor (or the memo is made from a scenario file): the memo then has no
    /// Vendor scorecard section.
    pub scorecard: Option<&'a ScorecardSummary>,
    /// Each scenario's ways out (leave, scale down, downgrade, leave a lease, sell early) from the
    /// middle of the horizon, priced against staying; shown after its exit terms.
    pub ways_out: &'a [planner_core::engine::exit::kinds::WaysOut],
    /// The workspace's locked baseline (issue #17), stated where the memo lists the compared
    /// scenarios; `None` when nothing is locked (or the memo is made from a scenario file).
    pub lock: Option<&'a MemoLock>,
}

/// A locked baseline as the memo states it, by names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoLock {
    /// When it was locked, e.g. `2026-11-26 10:41 UTC`.
    pub locked_at: String,
    /// The locked baseline's name.
    pub baseline: String,
    /// The locked scenarios' names, in the locked order.
    pub scenarios: Vec<String>,
}

/// Where the catalog behind a memo came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CatalogSource {
    /// The catalog shipped with the app (not a signed pack).
    Shipped,
    /// A signed catalog pack: its publisher, its signing key, and whether the signature and every
    /// file's digest verify when the memo is made.
    Pack {
        publisher: String,
        key_id: Option<String>,
        verified: bool,
    },
    /// A catalog folder given on the command line (its name), not a signed pack.
    Folder(String),
}

impl CatalogSource {
    /// The facts table's words after "data version X".
    pub fn describe(&self) -> String {
        match self {
            CatalogSource::Shipped => ", shipped with the app (not a signed pack)".to_owned(),
            CatalogSource::Pack {
                publisher,
                key_id,
                verified,
            } => format!(
                " from {publisher}; pack signature {}{}",
                if *verified { "verified" } else { "does NOT verify" },
                key_id.as_deref().map_or_else(String::new, |k| format!(" (key {k})"))
            ),
            CatalogSource::Folder(dir) => format!(", read from the folder {dir} (not a signed pack)"),
        }
    }
}

/// What the memo states about the D-1 checklists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoCompliance {
    /// The template the answers were given against ("title, version v"); `None` when nothing
    /// has been answered in the workspace.
    pub template: Option<String>,
    /// One row per scenario of the memo: scenario id, whether it is cleared, and the status in
    /// words (who signed off and when, or what is missing).
    pub scenarios: Vec<(String, bool, String)>,
    /// The log as verified when the memo was made: entries and head hash, or where it is broken.
    pub log: String,
    /// The log failed verification: nothing in it is cleared.
    pub broken: bool,
}

/// A memo as written.
#[derive(Debug, Clone)]
pub struct Memo {
    pub bytes: Vec<u8>,
    pub pages: u32,
    /// How many charts it embeds.
    pub charts: u32,
}

/// Lays out and writes the memo.
pub fn memo_pdf(input: &MemoInput<'_>) -> Result<Memo, MemoError> {
    let ids_view: Vec<&str> = input.view.scenarios.iter().map(|s| s.id.as_str()).collect();
    let ids_eval: Vec<&str> = input.evaluation.scenarios.iter().map(|s| s.id.as_str()).collect();
    if ids_view != ids_eval {
        return Err(MemoError::Mismatch(format!(
            "the view shows {ids_view:?}, the evaluation holds {ids_eval:?}"
        )));
    }
    let fonts = fonts::Fonts::load()?;
    let unset = scripts::check(input, &fonts);
    if !unset.is_empty() {
        return Err(MemoError::Unset(unset));
    }
    let blocks = content::blocks(input)?;
    let unset = scripts::check_blocks(&blocks, &fonts);
    if !unset.is_empty() {
        return Err(MemoError::Unset(unset));
    }
    let charts = blocks
        .iter()
        .filter(|b| matches!(b, layout::Block::Chart { .. }))
        .count();
    let created = printpdf::DateTime::from_unix_timestamp(input.created_unix)
        .map_err(|_| MemoError::Date(input.created_unix.to_string()))?;
    let client = input.draft.client.trim();
    let info = layout::DocInfo {
        title: format!("Decision memo: {}", input.view.title),
        author: input.draft.author.trim().to_owned(),
        subject: input.draft.decision.trim().to_owned(),
        keywords: input.view.scenarios.iter().map(|s| s.name.clone()).collect(),
        footer: if client.is_empty() {
            format!("Decision memo · {} · {}", input.view.title, input.date)
        } else {
            format!("Decision memo · {client} · {}", input.date)
        },
        created,
    };
    let rendered = layout::render(&blocks, input.draft.paper, &fonts, &info)?;
    Ok(Memo {
        bytes: rendered.bytes,
        pages: rendered.pages,
        charts: u32::try_from(charts).unwrap_or(u32::MAX),
    })
}
