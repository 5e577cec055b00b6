//! A signed catalog pack against the open workspace: what it would change (every figure, every
//! scenario's total and NPV), applying it as one undo step, and whether the catalog in use still
//! matches the pack it came from (issue #18).

use planner_core::catalog::Catalog;
use planner_core::catalog::diff::{CatalogDiff, diff};
use planner_core::catalog::pack::check_not_older;
use planner_core::engine::editing::pack_effect::mark_kept;
use planner_core::engine::workspace::content::scenario_detail;
use planner_core::error::{ErrorCode, PlannerError};
use rust_decimal::Decimal;
use serde::Serialize;

use super::history::{Change, Snapshot, read_snapshot};
use super::{Applied, Workspace, snapshot_files};
use crate::pack::{OpenedPack, PackOrigin, recheck_origin};

/// One scenario's decision total and NPV on a catalog, or why it does not evaluate there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ScenarioOn {
    #[cfg_attr(feature = "specta", specta(type = Option<String>))]
    pub total: Option<Decimal>,
    #[cfg_attr(feature = "specta", specta(type = Option<String>))]
    pub npv: Option<Decimal>,
    /// The first problem, when the scenario does not evaluate on this catalog.
    pub problem: Option<String>,
}

/// A scenario's figures before and after a catalog change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ScenarioImpact {
    pub id: String,
    pub name: String,
    pub old: ScenarioOn,
    pub new: ScenarioOn,
}

/// What applying a pack would do to the open workspace, shown before it is applied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PackPreview {
    pub publisher: String,
    pub version: String,
    pub date: String,
    pub key_id: String,
    pub note: Option<String>,
    pub diff: CatalogDiff,
    pub scenarios: Vec<ScenarioImpact>,
    /// Why it cannot be applied (older than the catalog in use, or the same version with other
    /// files); `None` when it can.
    pub refusal: Option<String>,
}

/// Where the workspace's catalog came from, checked again now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CatalogOrigin {
    pub version: String,
    /// The publisher, or "Compute Planner (shipped with the app)".
    pub publisher: String,
    /// The pack was signed and still verifies: signature, key and every file's digest.
    pub verified: bool,
    /// The pack's signing key, when it came from a pack.
    pub key_id: Option<String>,
    /// One sentence for the memo and the screen.
    pub statement: String,
}

fn on(
    catalog: &Catalog,
    ws: &Workspace,
    scenario: &planner_core::engine::input::scenario_file::ScenarioSpec,
) -> ScenarioOn {
    let detail = scenario_detail(catalog, &ws.settings, &ws.workloads, scenario);
    match detail.figures {
        Some(f) if detail.problems.is_empty() => ScenarioOn {
            total: Some(f.decision_total),
            npv: Some(f.npv),
            problem: None,
        },
        _ => ScenarioOn {
            total: None,
            npv: None,
            problem: Some(
                detail
                    .problems
                    .first()
                    .map_or_else(|| "it does not evaluate".to_owned(), |p| p.message.clone()),
            ),
        },
    }
}

impl Workspace {
    /// What `pack` would change here: the catalog diff (with the figures this workspace keeps
    /// its own value for), and each scenario's decision total and NPV old → new.
    pub fn pack_preview(&self, pack: &OpenedPack) -> Result<PackPreview, PlannerError> {
        let scenarios = self.all_scenarios()?;
        let mut d = diff(&self.catalog, &pack.catalog);
        mark_kept(&mut d, &scenarios);
        let impacts = scenarios
            .iter()
            .map(|s| ScenarioImpact {
                id: s.id.clone(),
                name: s.name.clone(),
                old: on(&self.catalog, self, s),
                new: on(&pack.catalog, self, s),
            })
            .collect();
        Ok(PackPreview {
            publisher: pack.origin.publisher.clone(),
            version: pack.origin.version.clone(),
            date: pack.origin.date.clone(),
            key_id: pack.origin.key_id.clone(),
            note: pack.manifest.pack.note.clone(),
            diff: d,
            scenarios: impacts,
            refusal: self.refusal(pack).err().map(|e| e.message),
        })
    }

    fn refusal(&self, pack: &OpenedPack) -> Result<(), PlannerError> {
        self.check_catalog_lock()?;
        let current = read_snapshot(&self.conn).map_err(|e| self.err(&e))?;
        let same = snapshot_files(&pack.files) == current.files;
        check_not_older(&pack.origin.version, &self.snapshot_version, same).map_err(|e| {
            PlannerError::new(
                ErrorCode::PackRefused,
                format!("The catalog pack was refused and nothing was changed: {}.", e.0),
            )
        })
    }

    /// Replaces the catalog snapshot with the pack's files, as one undo step. A pack older than
    /// the catalog in use is refused and nothing changes. Overrides and quoted prices live in the
    /// scenarios, so they are untouched.
    pub fn apply_pack(&mut self, pack: &OpenedPack) -> Result<Applied, PlannerError> {
        self.check_writable("apply a catalog pack to it")?;
        self.refusal(pack)?;
        let before = read_snapshot(&self.conn).map_err(|e| self.err(&e))?;
        let after = Snapshot {
            version: pack.origin.version.clone(),
            taken_ms: self.now(),
            files: snapshot_files(&pack.files),
            origin: Some(pack.origin.clone()),
        };
        let label = format!(
            "Apply catalog pack {} from {} (was {})",
            after.version, pack.origin.publisher, before.version
        );
        self.commit(&label, None, vec![Change::Catalog { before, after }], self.now())
    }

    /// Where the catalog in use came from, its signature checked again against the files the
    /// workspace holds now.
    pub fn catalog_origin(&self) -> Result<CatalogOrigin, PlannerError> {
        let snapshot = read_snapshot(&self.conn).map_err(|e| self.err(&e))?;
        Ok(origin_of(&snapshot.version, snapshot.origin.as_ref(), &snapshot.files))
    }
}

/// The origin statement for a snapshot.
pub fn origin_of(version: &str, origin: Option<&PackOrigin>, files: &[(String, String)]) -> CatalogOrigin {
    match origin {
        None => CatalogOrigin {
            version: version.to_owned(),
            publisher: "Compute Planner (shipped with the app)".to_owned(),
            verified: false,
            key_id: None,
            statement: format!(
                "Catalog {version}, shipped with the app: it is part of the installed program, not a signed pack, so there is no pack signature to verify."
            ),
        },
        Some(o) => match recheck_origin(o, files) {
            Ok(key_id) => CatalogOrigin {
                version: version.to_owned(),
                publisher: o.publisher.clone(),
                verified: true,
                statement: format!(
                    "Catalog {version} from a pack published by {} on {}; its signature (minisign key {key_id}) and every file's SHA-256 verify.",
                    o.publisher, o.date
                ),
                key_id: Some(key_id),
            },
            Err(why) => CatalogOrigin {
                version: version.to_owned(),
                publisher: o.publisher.clone(),
                verified: false,
                statement: format!(
                    "Catalog {version} from a pack said to be published by {} (key {}); its signature does NOT verify: {why}.",
                    o.publisher, o.key_id
                ),
                key_id: Some(o.key_id.clone()),
            },
        },
    }
}
