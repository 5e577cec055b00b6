//! A signed catalog pack against the open workspace: whether it may be applied, applying it as
//! one undo step, and whether the catalog in use still
//! matches the pack it came from (issue #18).

use planner_core::catalog::pack::check_not_older;
use planner_core::error::{ErrorCode, PlannerError};
use serde::Serialize;

use super::history::{Change, Snapshot, read_snapshot};
use super::{Applied, Workspace, snapshot_files};
use crate::pack::{OpenedPack, PackOrigin, recheck_origin};

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

impl Workspace {
    /// Why `pack` cannot be applied here (the catalog is locked with the baseline, or the pack
    /// is older than the catalog in use, or the same version with other files); `Ok` when it can.
    pub fn pack_refusal(&self, pack: &OpenedPack) -> Result<(), PlannerError> {
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
    /// scenarios, so they are untouched. Stamped `at_ms`.
    pub fn apply_pack(&mut self, pack: &OpenedPack, at_ms: i64) -> Result<Applied, PlannerError> {
        self.check_writable("apply a catalog pack to it")?;
        self.pack_refusal(pack)?;
        let before = read_snapshot(&self.conn).map_err(|e| self.err(&e))?;
        let after = Snapshot {
            version: pack.origin.version.clone(),
            taken_ms: at_ms,
            files: snapshot_files(&pack.files),
            origin: Some(pack.origin.clone()),
        };
        let label = format!(
            "Apply catalog pack {} from {} (was {})",
            after.version, pack.origin.publisher, before.version
        );
        self.commit(&label, None, vec![Change::Catalog { before, after }], at_ms)
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
