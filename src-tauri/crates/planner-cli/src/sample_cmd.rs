//! `planner workspace sample RECIPE --out FILE.cpw`: builds a sample workspace from its recipe
//! (`catalogs/samples/recipes/*.toml`, described in `catalogs/samples/README.md`) with the same
//! use cases the app calls: create from the scenario file, import vendor quotes, score them, set
//! the compare view, answer and sign off D-1 checklists, write the memo draft.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use planner_app::DesktopHost;
use planner_app::{compare, compliance, scenarios, session, vendors};
use planner_core::compliance::checklist::AnswerInput;
use planner_core::compliance::checklist::{ItemStatus, Subject};
use planner_core::edit::{Edit, EditRequest};
use planner_core::engine::workspace::content::ViewState;
use planner_core::error::{ErrorCode, PlannerError};
use planner_core::memo::MemoDraft;
use planner_core::rfp::scorecard::PerAxis;
use rust_decimal::Decimal;
use serde::Deserialize;

/// A sample's recipe: where its plan comes from and what is done to it. Paths are relative to
/// the recipe file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recipe {
    /// The scenario file (JSON) the workspace is created from.
    pub scenarios: PathBuf,
    pub title: String,
    /// The story, in a paragraph: the workspace's description, shown on the start screen.
    pub description: String,
    /// The compare screen: the competing scenarios, the pinned baseline, the horizon.
    pub compare: ViewState,
    #[serde(default)]
    pub quotes: Vec<QuoteImport>,
    pub scorecard: Option<ScorecardRecipe>,
    #[serde(default)]
    pub checklists: Vec<ChecklistRecipe>,
    pub memo: Option<MemoDraft>,
}

/// A quote file imported onto the scenario `base`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuoteImport {
    pub file: PathBuf,
    pub base: String,
}

/// The scorecard's weights and the figures measured per vendor (the quotes give the rest).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScorecardRecipe {
    pub weights: Option<PerAxis>,
    #[serde(default)]
    pub vendors: Vec<VendorFigures>,
}

/// A vendor's measured figures, by the name its quotes give.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VendorFigures {
    pub name: String,
    pub mfu: Option<Decimal>,
    pub annual_failure_rate: Option<Decimal>,
    pub response_hours: Option<Decimal>,
}

/// One subject's D-1 checklist: answers (with evidence files) and, when `sign_off` is given,
/// the sign-off with that note.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChecklistRecipe {
    pub scenario: Option<String>,
    pub vendor: Option<String>,
    pub reviewer: String,
    pub sign_off: Option<String>,
    #[serde(default)]
    pub answers: Vec<AnswerRecipe>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnswerRecipe {
    pub item: String,
    pub status: ItemStatus,
    #[serde(default)]
    pub note: String,
    #[serde(default)]
    pub evidence: Vec<PathBuf>,
}

impl ChecklistRecipe {
    fn subject(&self) -> Result<Subject, PlannerError> {
        match (&self.scenario, &self.vendor) {
            (Some(s), None) => Ok(Subject::Scenario(s.clone())),
            (None, Some(v)) => Ok(Subject::Vendor(v.clone())),
            _ => Err(PlannerError::invalid(
                "checklists.scenario",
                "each [[checklists]] names exactly one subject: `scenario = \"id\"` or `vendor = \"name\"`",
            )),
        }
    }
}

/// Reads a recipe file.
pub fn read_recipe(path: &Path) -> Result<Recipe, PlannerError> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        PlannerError::new(
            ErrorCode::Io,
            format!("The recipe {} cannot be read: {e}.", path.display()),
        )
    })?;
    toml::from_str(&text).map_err(|e| {
        PlannerError::new(
            ErrorCode::InvalidInput,
            format!(
                "The recipe {} does not read (see catalogs/samples/README.md): {e}",
                path.display()
            ),
        )
    })
}

/// Builds the sample of `recipe_path` into `out` (which must not exist). A recipe that fails at
/// any step, or whose comparison keeps a scenario out, leaves no file behind.
pub fn sample(catalog_dir: &Path, recipe_path: &Path, out: &Path) -> Result<String, PlannerError> {
    let recipe = read_recipe(recipe_path)?;
    let dir = recipe_path.parent().unwrap_or_else(|| Path::new("."));
    if out.exists() {
        return Err(PlannerError::new(
            ErrorCode::Io,
            format!(
                "{} already exists: delete it first (a sample is built whole).",
                out.display()
            ),
        ));
    }
    let host = crate::host::host(catalog_dir);
    let built = build(&host, &recipe, dir, out);
    session::close(&host);
    match built {
        Ok(text) => Ok(text),
        Err(e) => {
            // Only a file this command created gets here (it refused an existing one above).
            let _ = std::fs::remove_file(out);
            let _ = std::fs::remove_file(format!("{}-wal", out.display()));
            let _ = std::fs::remove_file(format!("{}-shm", out.display()));
            Err(PlannerError::new(
                e.code,
                format!("The sample {} was not built: {}", recipe_path.display(), e.message),
            ))
        }
    }
}

/// The recipe's steps, in order, on the workspace `out`; returns what was done.
fn build(host: &DesktopHost, recipe: &Recipe, dir: &Path, out: &Path) -> Result<String, PlannerError> {
    let from = dir.join(&recipe.scenarios);
    let imported = session::create_described(host, out, Some(&recipe.title), Some(&recipe.description), &from)?;
    session::open(host, out)?;
    let mut text = format!(
        "created {}: {} workload(s), {} scenario(s) from {}\n",
        out.display(),
        imported.workloads,
        imported.scenarios,
        from.display()
    );
    for q in &recipe.quotes {
        let done = vendors::import_quotes(host, &dir.join(&q.file), &q.base)?;
        let _ = writeln!(
            text,
            "imported {} on {}: {:?}",
            q.file.display(),
            q.base,
            done.scenarios
        );
    }
    if let Some(card) = &recipe.scorecard {
        score(host, card)?;
        let _ = writeln!(text, "scored {} vendor(s)", card.vendors.len());
    }
    compare::set_view(host, &recipe.compare)?;
    for c in &recipe.checklists {
        let cleared = checklist(host, c, dir)?;
        let _ = writeln!(
            text,
            "checklist {}: {} answer(s){}",
            c.subject()?.key(),
            c.answers.len(),
            if cleared { ", signed off, cleared" } else { "" }
        );
    }
    if let Some(memo) = &recipe.memo {
        edit(host, Edit::Memo { memo: memo.clone() }, "Sample: memo draft")?;
        let _ = writeln!(text, "memo draft: {}", memo.decision);
    }
    let compared = check_comparison(host)?;
    let _ = writeln!(text, "compared: {compared}");
    Ok(text)
}

fn edit(host: &DesktopHost, edit: Edit, label: &str) -> Result<(), PlannerError> {
    let request = EditRequest {
        edit,
        label: label.to_owned(),
        coalesce: None,
    };
    scenarios::apply_edit(host, &request).map(|_| ())
}

/// Sets the scorecard's weights and each named vendor's measured figures.
fn score(host: &DesktopHost, recipe: &ScorecardRecipe) -> Result<(), PlannerError> {
    let mut card = vendors::scorecard_draft(host)?;
    if let Some(w) = recipe.weights {
        card.weights = w;
    }
    for figures in &recipe.vendors {
        let Some(entry) = card.vendors.iter_mut().find(|v| v.name == figures.name) else {
            let known: Vec<&str> = card.vendors.iter().map(|v| v.name.as_str()).collect();
            return Err(PlannerError::invalid(
                "scorecard.vendors.name",
                format!(
                    "no vendor `{}` is on the scorecard (the quotes name: {})",
                    figures.name,
                    known.join(", ")
                ),
            ));
        };
        entry.mfu = figures.mfu.or(entry.mfu);
        entry.annual_failure_rate = figures.annual_failure_rate.or(entry.annual_failure_rate);
        entry.response_hours = figures.response_hours.or(entry.response_hours);
    }
    edit(host, Edit::Scorecard { scorecard: card }, "Sample: scorecard")
}

/// Answers the subject's items (evidence attached) and signs off when asked; returns whether
/// the subject is cleared.
fn checklist(host: &DesktopHost, recipe: &ChecklistRecipe, dir: &Path) -> Result<bool, PlannerError> {
    let subject = recipe.subject()?;
    for a in &recipe.answers {
        let input = AnswerInput {
            item: a.item.clone(),
            status: a.status,
            note: a.note.clone(),
            reviewer: recipe.reviewer.clone(),
        };
        let evidence: Vec<String> = a.evidence.iter().map(|p| dir.join(p).display().to_string()).collect();
        compliance::answer(host, &subject, &input, &evidence)?;
    }
    let Some(note) = &recipe.sign_off else {
        return Ok(false);
    };
    let view = compliance::sign_off(host, &subject, &recipe.reviewer, note, None)?;
    if !view.clearance.cleared {
        return Err(PlannerError::invalid(
            "checklists.sign_off",
            format!(
                "{} is signed off but not cleared: answer these blocking items (pass or not applicable): {}",
                subject.key(),
                view.clearance.blocking_open.join(", ")
            ),
        ));
    }
    Ok(true)
}

/// The comparison as the compare screen computes it: at least two scenarios with figures and
/// none kept out by a problem; returns the ids compared.
fn check_comparison(host: &DesktopHost) -> Result<String, PlannerError> {
    let comparison = compare::comparison(host)?;
    let problems: Vec<String> = comparison
        .problems
        .iter()
        .map(|p| format!("{:?} {}: {}", p.subject, p.field, p.message))
        .collect();
    if !problems.is_empty() {
        return Err(PlannerError::invalid(
            "compare",
            format!("the comparison keeps scenarios out: {}", problems.join("; ")),
        ));
    }
    let ids: Vec<String> = comparison
        .view
        .map(|v| v.scenarios.into_iter().map(|s| s.id).collect())
        .unwrap_or_default();
    if ids.len() < 2 {
        return Err(PlannerError::invalid(
            "compare.selected",
            format!("a sample compares at least two scenarios; it compares {}", ids.len()),
        ));
    }
    Ok(ids.join(", "))
}
