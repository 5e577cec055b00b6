//! The system's file dialogs (GTK on Linux, through tauri-plugin-dialog), called from Rust so the
//! UI keeps to the app's own commands and needs no plugin permission.

use serde::{Deserialize, Serialize};
use tauri_plugin_dialog::DialogExt;

/// What a file is being chosen for; it sets the dialog's title, filter and open-or-save mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "kebab-case")]
pub enum FilePurpose {
    OpenWorkspace,
    NewWorkspace,
    SaveWorkspaceAs,
    ImportScenarios,
    ExportScenarios,
    ExportXlsx,
    ExportCsv,
    /// Where to write a decision memo.
    SaveMemo,
    /// A PDF to verify or to sign.
    OpenPdf,
    /// A PKCS#12 signing identity to import.
    ImportIdentity,
    /// Where to write a certificate (PEM) for others to trust.
    ExportCertificate,
    AttachEvidence,
    SaveEvidence,
    /// An RFP quote file (CSV or Excel) to preview and import.
    ImportQuotes,
    /// A signed catalog pack to check and preview.
    ImportPack,
}

impl FilePurpose {
    fn title(self) -> &'static str {
        match self {
            FilePurpose::OpenWorkspace => "Open workspace",
            FilePurpose::NewWorkspace => "New workspace",
            FilePurpose::SaveWorkspaceAs => "Save workspace as",
            FilePurpose::ImportScenarios => "Import scenarios (JSON)",
            FilePurpose::ExportScenarios => "Export scenarios (JSON)",
            FilePurpose::ExportXlsx => "Export comparison (Excel workbook)",
            FilePurpose::ExportCsv => "Export CSV",
            FilePurpose::SaveMemo => "Save the decision memo (PDF)",
            FilePurpose::OpenPdf => "Open a PDF",
            FilePurpose::ImportIdentity => "Import a signing identity (PKCS#12)",
            FilePurpose::ExportCertificate => "Export the certificate (PEM)",
            FilePurpose::AttachEvidence => "Attach evidence (any file)",
            FilePurpose::SaveEvidence => "Save the evidence file",
            FilePurpose::ImportQuotes => "Import RFP quotes (CSV or Excel)",
            FilePurpose::ImportPack => "Open a catalog pack",
        }
    }

    /// The file type offered; `None`: any file.
    fn filter(self) -> Option<(&'static str, &'static [&'static str])> {
        Some(match self {
            FilePurpose::OpenWorkspace | FilePurpose::NewWorkspace | FilePurpose::SaveWorkspaceAs => {
                ("Compute Planner workspace", &["cpw"])
            }
            FilePurpose::ImportScenarios | FilePurpose::ExportScenarios => ("Scenario file", &["json"]),
            FilePurpose::ExportXlsx => ("Excel workbook", &["xlsx"]),
            FilePurpose::ExportCsv => ("CSV", &["csv"]),
            FilePurpose::SaveMemo | FilePurpose::OpenPdf => ("PDF", &["pdf"]),
            FilePurpose::ImportIdentity => ("PKCS#12 identity", &["p12", "pfx"]),
            FilePurpose::ExportCertificate => ("Certificate (PEM)", &["pem", "crt"]),
            FilePurpose::ImportQuotes => ("RFP quotes (CSV or Excel)", &["csv", "xlsx"]),
            FilePurpose::ImportPack => ("Catalog pack", &["cpack"]),
            FilePurpose::AttachEvidence | FilePurpose::SaveEvidence => return None,
        })
    }

    fn saves(self) -> bool {
        !matches!(
            self,
            FilePurpose::OpenWorkspace
                | FilePurpose::ImportScenarios
                | FilePurpose::OpenPdf
                | FilePurpose::ImportIdentity
                | FilePurpose::AttachEvidence
                | FilePurpose::ImportQuotes
                | FilePurpose::ImportPack
        )
    }
}

/// Shows the dialog and waits for it (on a worker thread: commands are async); `None` when
/// the user cancels or the choice is not a local path.
pub fn choose(app: &tauri::AppHandle, purpose: FilePurpose) -> Option<String> {
    let filter = purpose.filter();
    let mut dialog = app.dialog().file().set_title(purpose.title());
    if let Some((name, extensions)) = filter {
        dialog = dialog.add_filter(name, extensions);
    }
    let chosen = if purpose.saves() {
        dialog.blocking_save_file()
    } else {
        dialog.blocking_pick_file()
    }?;
    let mut path = chosen.into_path().ok()?;
    // A typed name without the extension gets it, so the file opens with the app later.
    if purpose.saves()
        && path.extension().is_none()
        && let Some(ext) = filter.and_then(|(_, e)| e.first())
    {
        path.set_extension(ext);
    }
    Some(path.display().to_string())
}
