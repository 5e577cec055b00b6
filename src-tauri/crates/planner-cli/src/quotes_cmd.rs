//! `planner quotes check FILE`: an RFP quote file (CSV or XLSX, the column template in
//! `catalogs/templates/`) read and checked as the app will import it, and each quote shown as the
//! supply layer it becomes, on the engine's footing. Nothing is written.

use std::fmt::Write as _;
use std::path::Path;

use planner_core::engine::input::scenario_file::LayerSpec;
use planner_core::error::{ErrorCode, PlannerError};
use serde::Serialize;

/// One quote and the layer it becomes.
#[derive(Debug, Serialize)]
struct Checked {
    quote: planner_core::rfp::quote::Quote,
    /// As a scenario file writes it: absent options left out.
    #[serde(serialize_with = "planner_core::engine::input::scenario_file::serialize_layer_as_in_file")]
    layer: LayerSpec,
}

/// Checks `file` against a workspace's catalog snapshot, currency and exchange rates, or else
/// against the catalog folder with the settings of a new workspace (USD, no rates).
pub fn check(catalog_dir: &Path, file: &Path, workspace: Option<&Path>, json: bool) -> Result<String, PlannerError> {
    let against = match workspace {
        Some(w) => format!("the workspace {}", w.display()),
        None => format!(
            "the catalog in {} and a USD workspace without exchange rates",
            catalog_dir.display()
        ),
    };
    let (read, settings) = planner_app::vendors::read_quotes_against(&crate::host::host(catalog_dir), file, workspace)?;
    let (quotes, sheet) = (read.quotes, read.sheet);
    let checked = quotes
        .into_iter()
        .map(|q| {
            let layer = q.to_layer_spec(&q.layer_id(), &settings)?;
            Ok(Checked { quote: q, layer })
        })
        .collect::<Result<Vec<_>, PlannerError>>()?;
    if json {
        return serde_json::to_string_pretty(&checked)
            .map(|s| s + "\n")
            .map_err(|e| PlannerError::new(ErrorCode::Io, format!("could not write JSON: {e}")));
    }
    let mut out = format!(
        "{}: {} quote(s), checked against {against}; nothing was imported\n\n",
        file.display(),
        checked.len()
    );
    if let Some(sheet) = &sheet {
        let _ = writeln!(out, "Read from {}.\n", sheet.describe());
    }
    let _ = writeln!(
        out,
        "{:<4} {:<18} {:<14} {:<10} {:<20} {:>5} {:>14}  {:<10}  layer",
        "row", "vendor", "quote", "kind", "accelerator", "gpus", "price", "valid to"
    );
    for c in &checked {
        let q = &c.quote;
        let price = match (q.price_per_gpu_hour, q.hardware_price_per_gpu) {
            (Some(p), _) => format!("{p} {}/h", q.currency),
            (None, Some(p)) => format!("{p} {}", q.currency),
            (None, None) => "-".to_owned(),
        };
        let _ = writeln!(
            out,
            "{:<4} {:<18} {:<14} {:<10} {:<20} {:>5} {:>14}  {:<10}  {} ({})",
            q.source.row,
            q.vendor,
            q.quote_id,
            q.offer_kind.as_str(),
            q.accelerator,
            q.gpus.map_or_else(|| "-".to_owned(), |g| g.to_string()),
            price,
            q.valid_until.to_string(),
            c.layer.id,
            serde_json::to_value(c.layer.kind)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default(),
        );
    }
    Ok(out)
}
