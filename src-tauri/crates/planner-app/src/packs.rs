//! Signed catalog packs in the app (issue #18): the publishers this computer trusts, a pack
//! opened from a file or downloaded from a URL the user typed, what it would change, and applying
//! it as one undo step.
//!
//! The download is the only network access the app makes, and only when the user asks: one
//! request to the address typed, through the system's proxy settings, with a progress bar, a
//! cancel switch and timeouts (see `planner-fetch`). A pack is held in memory between its preview
//! and the user's Apply; it is checked again against the trusted keys when applied.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use planner_core::catalog::Catalog;
use planner_core::catalog::diff::{CatalogDiff, StaleFigure, diff};
use planner_core::catalog::provenance::AsOf;
use planner_core::engine::editing::pack_effect::mark_kept;
use planner_core::engine::input::scenario_file::ScenarioSpec;
use planner_core::engine::workspace::content::scenario_detail;
use planner_core::error::{ErrorCode, PlannerError};
use planner_sign::{PackKey, read_pack_key};
use planner_store::Workspace;
use planner_store::pack::{OpenedPack, check_pack, read_pack, read_pack_bytes, shipped_key};
use planner_store::workspace::{Applied, CatalogOrigin, format_utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::host::{Download, Host, with_workspace};

/// A publisher key as Settings lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct TrustedKey {
    pub id: String,
    pub public_key: String,
    /// Who the user says it belongs to.
    pub label: String,
    /// When it was added (UTC), or "shipped with the app".
    pub added: String,
    /// The key shipped with the app: always trusted, cannot be removed.
    pub shipped: bool,
}

/// How far the download has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct DownloadProgress {
    #[cfg_attr(feature = "specta", specta(type = f64))]
    pub received: u64,
    #[cfg_attr(feature = "specta", specta(type = Option<f64>))]
    pub total: Option<u64>,
}

const KEYS_FILE: &str = "catalog-publishers.json";

fn keys_path(host: &impl Host) -> Result<std::path::PathBuf, PlannerError> {
    host.config_dir().map(|d| d.join(KEYS_FILE)).ok_or_else(|| {
        PlannerError::new(
            ErrorCode::Io,
            "The app has no configuration folder to keep trusted catalog publishers in.",
        )
    })
}

fn added_keys(host: &impl Host) -> Result<Vec<TrustedKey>, PlannerError> {
    let path = keys_path(host)?;
    match std::fs::read_to_string(&path) {
        Ok(text) => serde_json::from_str(&text).map_err(|e| {
            PlannerError::new(
                ErrorCode::Io,
                format!(
                    "{}: the list of trusted catalog publishers does not read ({e}); remove the file to start the list again (the shipped publisher stays trusted)",
                    path.display()
                ),
            )
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(PlannerError::new(
            ErrorCode::Io,
            format!("{}: cannot read the trusted publishers: {e}", path.display()),
        )),
    }
}

/// Every publisher key this computer trusts: the shipped one first, then the user's.
pub fn keys(host: &impl Host) -> Result<Vec<TrustedKey>, PlannerError> {
    let mut out: Vec<TrustedKey> = shipped_key()
        .map(|k| TrustedKey {
            id: k.id,
            public_key: k.public_key,
            label: "Compute Planner catalog publisher".to_owned(),
            added: "shipped with the app".to_owned(),
            shipped: true,
        })
        .into_iter()
        .collect();
    out.extend(added_keys(host)?);
    Ok(out)
}

fn pack_keys(host: &impl Host) -> Result<Vec<PackKey>, PlannerError> {
    Ok(keys(host)?
        .into_iter()
        .map(|k| PackKey {
            id: k.id,
            public_key: k.public_key,
        })
        .collect())
}

fn save_keys(host: &impl Host, keys: &[TrustedKey]) -> Result<(), PlannerError> {
    let path = keys_path(host)?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| {
            PlannerError::new(
                ErrorCode::Io,
                format!("{}: cannot create the configuration folder: {e}", dir.display()),
            )
        })?;
    }
    let text = serde_json::to_string_pretty(keys)
        .map_err(|e| PlannerError::new(ErrorCode::Io, format!("cannot write the trusted publishers: {e}")))?;
    planner_store::files::write_atomic(&path, text.as_bytes())
}

/// Trusts the publisher key `text` (a minisign `.pub` file's text or its key line) as `label`.
pub fn add_key(host: &impl Host, text: &str, label: &str) -> Result<Vec<TrustedKey>, PlannerError> {
    let key = read_pack_key(text).map_err(|e| PlannerError::invalid("public_key", e.to_string()))?;
    let label = label.trim();
    if label.is_empty() || label.chars().count() > 120 {
        return Err(PlannerError::invalid(
            "label",
            "name the publisher this key belongs to (1 to 120 characters)",
        ));
    }
    if keys(host)?.iter().any(|k| k.id == key.id) {
        return Err(PlannerError::invalid(
            "public_key",
            format!("key {} is already trusted", key.id),
        ));
    }
    let mut added = added_keys(host)?;
    added.push(TrustedKey {
        id: key.id,
        public_key: key.public_key,
        label: label.to_owned(),
        added: format_utc(host.now_ms()),
        shipped: false,
    });
    save_keys(host, &added)?;
    keys(host)
}

/// Stops trusting key `id` (the shipped key cannot be removed).
pub fn remove_key(host: &impl Host, id: &str) -> Result<Vec<TrustedKey>, PlannerError> {
    if shipped_key().is_some_and(|k| k.id == id) {
        return Err(PlannerError::invalid(
            "id",
            "the publisher key shipped with the app cannot be removed",
        ));
    }
    let mut added = added_keys(host)?;
    let before = added.len();
    added.retain(|k| k.id != id);
    if added.len() == before {
        return Err(PlannerError::new(
            ErrorCode::NotFound,
            format!("key {id} is not in the list"),
        ));
    }
    save_keys(host, &added)?;
    keys(host)
}

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

fn on(catalog: &Catalog, ws: &Workspace, scenario: &ScenarioSpec) -> ScenarioOn {
    let detail = scenario_detail(catalog, ws.settings(), ws.workloads(), scenario);
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

/// What `pack` would change in `ws`: the catalog diff (with the figures this workspace keeps its
/// own value for), each scenario's decision total and NPV old → new, and why it cannot be applied
/// if it cannot.
pub fn preview(ws: &Workspace, pack: &OpenedPack) -> Result<PackPreview, PlannerError> {
    let scenarios = ws.all_scenarios()?;
    let mut d = diff(ws.catalog(), &pack.catalog);
    mark_kept(&mut d, &scenarios);
    let impacts = scenarios
        .iter()
        .map(|s| ScenarioImpact {
            id: s.id.clone(),
            name: s.name.clone(),
            old: on(ws.catalog(), ws, s),
            new: on(&pack.catalog, ws, s),
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
        refusal: ws.pack_refusal(pack).err().map(|e| e.message),
    })
}

fn preview_and_keep(host: &impl Host, pack: OpenedPack) -> Result<PackPreview, PlannerError> {
    let preview = with_workspace(host, |ws| preview(ws, &pack))?;
    host.slots().set_pack(Some(pack));
    Ok(preview)
}

/// Opens the pack file at `path`, checks it whole against the trusted keys, and shows what it
/// would change in the open workspace. Nothing changes until [`apply`].
pub fn open_file(host: &impl Host, path: &Path) -> Result<PackPreview, PlannerError> {
    host.slots().set_pack(None);
    let shown = path.display().to_string();
    let pack = check_pack(&read_pack(path)?, &pack_keys(host)?, &shown)?;
    preview_and_keep(host, pack)
}

/// Downloads the pack at `url` (the only network access the app makes), checks it whole and
/// shows what it would change. One download at a time; [`cancel_download`] stops it.
pub fn download(host: &impl Host, url: &str) -> Result<PackPreview, PlannerError> {
    download_with(host, url, &planner_fetch::Limits::default())
}

/// [`download`] with the given size and time limits (tests shorten the timeouts).
pub fn download_with(host: &impl Host, url: &str, limits: &planner_fetch::Limits) -> Result<PackPreview, PlannerError> {
    host.slots().set_pack(None);
    let control = Arc::new(Download::default());
    if !host.slots().start_download(Arc::clone(&control)) {
        return Err(PlannerError::invalid(
            "url",
            "a download is already running; wait for it or cancel it",
        ));
    }
    let worker = Arc::clone(&control);
    let address = url.trim().to_owned();
    let limits = limits.clone();
    // The fetch runs its own runtime, on its own thread: a command may itself run on one.
    let joined = std::thread::Builder::new()
        .name("pack-download".into())
        .spawn(move || {
            planner_fetch::fetch(&address, &limits, &worker.cancel, &mut |p| {
                worker.received.store(p.received, Ordering::Relaxed);
                worker
                    .total
                    .store(p.total.map_or(0, |t| t.saturating_add(1)), Ordering::Relaxed);
            })
        })
        .map_err(|e| PlannerError::new(ErrorCode::Io, format!("cannot start the download: {e}")))
        .and_then(|handle| {
            handle
                .join()
                .map_err(|_| PlannerError::new(ErrorCode::Io, "the download stopped unexpectedly; try again"))
        });
    host.slots().end_download();
    let bytes = joined?.map_err(|e| match e {
        planner_fetch::FetchError::Cancelled { .. } => {
            PlannerError::new(ErrorCode::Cancelled, "The download was cancelled; nothing was changed.")
        }
        other => PlannerError::new(ErrorCode::Io, format!("{other} Nothing was changed.")),
    })?;
    let pack = check_pack(&read_pack_bytes(&bytes, url)?, &pack_keys(host)?, url)?;
    preview_and_keep(host, pack)
}

/// The running download's progress, if one runs.
pub fn download_progress(host: &impl Host) -> Option<DownloadProgress> {
    host.slots().running_download().map(|d| DownloadProgress {
        received: d.received.load(Ordering::Relaxed),
        total: match d.total.load(Ordering::Relaxed) {
            0 => None,
            t => Some(t - 1),
        },
    })
}

/// Asks the running download to stop; `false` when none runs.
pub fn cancel_download(host: &impl Host) -> bool {
    host.slots().running_download().is_some_and(|d| {
        d.cancel.store(true, Ordering::Relaxed);
        true
    })
}

/// Applies the pack last previewed, checked again against the trusted keys, as one undo step.
pub fn apply(host: &impl Host) -> Result<Applied, PlannerError> {
    let Some(pack) = host.slots().take_pack() else {
        return Err(PlannerError::invalid(
            "pack",
            "open or download a catalog pack first; none is waiting to be applied",
        ));
    };
    let keys = pack_keys(host)?;
    if !keys.iter().any(|k| k.id == pack.origin.key_id) {
        return Err(PlannerError::new(
            ErrorCode::PackRefused,
            format!(
                "The catalog pack was refused and nothing was changed: its key {} is no longer trusted.",
                pack.origin.key_id
            ),
        ));
    }
    with_workspace(host, |ws| {
        let applied = ws.apply_pack(&pack, host.now_ms())?;
        Ok(crate::catalog::weighed(host, ws, applied))
    })
}

/// Drops the pack waiting to be applied.
pub fn discard(host: &impl Host) {
    host.slots().set_pack(None);
}

/// Today (UTC) on the host's clock, as a date.
pub fn today(host: &impl Host) -> AsOf {
    let stamp = format_utc(host.now_ms());
    stamp.get(..10).and_then(|d| d.parse().ok()).unwrap_or(AsOf::EPOCH)
}

/// The workspace's catalog: where it came from (signature checked again) and every figure older
/// than the workspace's thresholds today.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CatalogFreshness {
    pub origin: CatalogOrigin,
    pub today: String,
    pub cloud_months: u32,
    pub other_months: u32,
    pub stale: Vec<StaleFigure>,
}

/// The open workspace's catalog origin and its stale figures today.
pub fn freshness(host: &impl Host) -> Result<CatalogFreshness, PlannerError> {
    let today = today(host);
    with_workspace(host, |ws| {
        let f = ws.settings().freshness;
        Ok(CatalogFreshness {
            origin: ws.catalog_origin()?,
            today: today.to_string(),
            cloud_months: f.cloud_months,
            other_months: f.other_months,
            stale: f.stale_figures(ws.catalog(), today),
        })
    })
}
