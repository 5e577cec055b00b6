//! The decision memo as the author writes it, and the record of each memo made or signed.
//!
//! The memo itself (a PDF) is laid out by `planner-memo` from a [`DecisionView`], the
//! evaluation behind it and a [`MemoDraft`]; this module holds what needs no layout: the draft
//! kept in the workspace (the decision and its rationale are the author's words, not the
//! engine's), the check that a draft can become a memo, and the record a workspace keeps of every
//! memo written or signed, with its SHA-256, so an auditor can tie a PDF back to the file that
//! produced it.
//!
//! [`DecisionView`]: crate::engine::decide::decision::DecisionView

use serde::{Deserialize, Serialize};

use crate::engine::decide::decision::MAX_COMPARED;

/// The paper a memo is laid out on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum Paper {
    /// 210 × 297 mm.
    #[default]
    A4,
    /// 8.5 × 11 in.
    Letter,
}

impl Paper {
    /// Width and height in PDF points (1/72 in).
    pub fn size_pt(self) -> (f32, f32) {
        match self {
            Paper::A4 => (595.276, 841.89),
            Paper::Letter => (612.0, 792.0),
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Paper::A4 => "A4",
            Paper::Letter => "Letter",
        }
    }
}

/// What the author writes for the memo. Kept in the workspace and edited like any other item
/// (saved as typed, undoable).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields, default)]
pub struct MemoDraft {
    /// Who wrote the memo, as it is printed under the title.
    pub author: String,
    /// The client or organisation the decision is for.
    pub client: String,
    /// The decision, in one or two sentences ("Buy 64 H100 for the base load; burst to cloud").
    pub decision: String,
    /// Why: the reasoning the committee should weigh. Paragraphs are separated by blank lines.
    pub rationale: String,
    /// The scenario the decision adopts (one of `scenarios`), if any.
    pub recommended: Option<String>,
    /// The scenarios the memo compares, in order; empty: those on the compare screen.
    pub scenarios: Vec<String>,
    pub paper: Paper,
}

/// A field of a draft that keeps it from becoming a memo, and what to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct DraftProblem {
    pub field: String,
    pub message: String,
}

impl MemoDraft {
    /// Every reason this draft cannot be made into a memo of `scenarios` (the ids it would
    /// compare, in order): the memo needs an author, a decision and 1 to 8 scenarios, and the
    /// recommended scenario must be one of them.
    pub fn problems(&self, scenarios: &[String]) -> Vec<DraftProblem> {
        let mut out = Vec::new();
        let mut push = |field: &str, message: &str| {
            out.push(DraftProblem {
                field: field.to_owned(),
                message: message.to_owned(),
            });
        };
        if self.author.trim().is_empty() {
            push("author", "the memo needs an author: write your name");
        }
        if self.decision.trim().is_empty() {
            push(
                "decision",
                "the memo needs the decision: write what was decided in a sentence or two",
            );
        }
        if scenarios.is_empty() {
            push("scenarios", "choose at least one scenario for the memo to compare");
        } else if scenarios.len() > MAX_COMPARED {
            push("scenarios", "a memo compares at most 8 scenarios: leave some out");
        }
        if let Some(r) = &self.recommended
            && !scenarios.contains(r)
        {
            push(
                "recommended",
                "the recommended scenario is not among the memo's scenarios: add it, or choose another",
            );
        }
        out
    }
}

/// What happened to a memo: written, or signed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum MemoEvent {
    Generated,
    Signed,
}

/// One memo written or signed from a workspace: which file, when, by whom, and its SHA-256.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct MemoRecord {
    pub event: MemoEvent,
    /// UTC, "YYYY-MM-DD HH:MM:SS".
    pub at: String,
    /// Where the PDF was written.
    pub file: String,
    /// SHA-256 of the whole file as written, lowercase hex.
    pub sha256: String,
    pub pages: u32,
    /// The scenarios compared, by id.
    pub scenarios: Vec<String>,
    /// For a signature: the signer as the certificate names them ("Ada Lovelace, Example Ltd").
    #[serde(default)]
    pub signer: Option<String>,
    /// For a signature: SHA-256 fingerprint of the signer's certificate, lowercase hex.
    #[serde(default)]
    pub certificate_sha256: Option<String>,
    /// For a signature: the reason given ("Author", "Reviewer: approved").
    #[serde(default)]
    pub reason: Option<String>,
    /// How many signatures the file holds after this event.
    #[serde(default)]
    pub signatures: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn an_empty_draft_names_every_missing_field() {
        let fields: Vec<String> = MemoDraft::default()
            .problems(&[])
            .into_iter()
            .map(|p| p.field)
            .collect();
        assert_eq!(fields, ["author", "decision", "scenarios"]);
    }

    #[test]
    fn the_recommended_scenario_must_be_compared() {
        let draft = MemoDraft {
            author: "A. Author".into(),
            decision: "Buy".into(),
            recommended: Some("rent".into()),
            ..MemoDraft::default()
        };
        let problems = draft.problems(&ids(&["buy", "hybrid"]));
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].field, "recommended");
        assert!(draft.problems(&ids(&["buy", "rent"])).is_empty());
        let nine: Vec<String> = (0..9).map(|i| format!("s{i}")).collect();
        assert_eq!(
            MemoDraft {
                recommended: None,
                ..draft
            }
            .problems(&nine)[0]
                .field,
            "scenarios"
        );
    }

    #[test]
    fn paper_sizes_are_the_iso_and_us_sizes_in_points() {
        let (w, h) = Paper::A4.size_pt();
        // 210 mm and 297 mm at 72 points per 25.4 mm.
        assert!((w - 210.0 * 72.0 / 25.4).abs() < 0.01 && (h - 297.0 * 72.0 / 25.4).abs() < 0.01);
        assert_eq!(Paper::Letter.size_pt(), (8.5 * 72.0, 11.0 * 72.0));
    }
}
