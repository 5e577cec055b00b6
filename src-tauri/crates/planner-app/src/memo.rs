//! The decision memo: its draft, the PDF with its signatures, and checking a signed PDF.

use std::path::Path;

use planner_core::error::PlannerError;
use planner_core::memo::{MemoDraft, MemoRecord};
use planner_publish::{PdfCheck, Published, Signer};

use crate::host::{Host, with_workspace};
use crate::identities::{self, SignWith};

/// The open workspace's memo draft (edits go through the scenarios' `apply_edit`).
pub fn draft(host: &impl Host) -> Result<MemoDraft, PlannerError> {
    with_workspace(host, |ws| ws.memo_draft())
}

/// Every memo written or signed from the open workspace, oldest first.
pub fn records(host: &impl Host) -> Result<Vec<MemoRecord>, PlannerError> {
    with_workspace(host, |ws| ws.memos())
}

/// Writes the memo of the open workspace's draft to `path`, signed when `sign` is given, and
/// records it in the workspace.
pub fn export(host: &impl Host, path: &Path, sign: Option<&SignWith>) -> Result<Published, PlannerError> {
    let identity = identities::open(host, sign)?;
    let signer = identity.as_ref().zip(sign).map(|(identity, s)| Signer {
        identity,
        reason: &s.reason,
    });
    let now = host.now_ms();
    with_workspace(host, |ws| {
        let draft = ws.memo_draft()?;
        planner_publish::publish_from_workspace(ws, &draft, path, now, signer.as_ref())
    })
}

/// Adds a signature to the PDF at `path` (recorded in the open workspace, if any).
pub fn sign_pdf(host: &impl Host, path: &Path, sign: &SignWith) -> Result<MemoRecord, PlannerError> {
    let identity = identities::open_one(host, sign)?;
    let signer = Signer {
        identity: &identity,
        reason: &sign.reason,
    };
    let mut slot = host.slots().workspace();
    planner_publish::sign_file(path, &signer, host.now_ms(), slot.as_mut())
}

/// Every signature of the PDF at `path`: who, when, with which certificate, and whether the
/// document is intact since.
pub fn verify_pdf(path: &Path) -> Result<PdfCheck, PlannerError> {
    planner_publish::verify_file(path)
}
