//! What can be wrong with a catalog file, said so that a person can find and fix it.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The kinds of catalog error. Each has a fixture file in `tests/fixtures/catalog-errors/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum IssueKind {
    /// The file is not valid TOML.
    Syntax,
    /// The `[catalog]` header is missing or names a different kind of file.
    BadHeader,
    /// The file was written for a newer catalog format than this app reads.
    UnsupportedFormat,
    /// A required field is absent.
    MissingField,
    /// A field the format does not define (often a misspelling).
    UnknownField,
    /// A value of the wrong TOML type (text where a number belongs, say).
    WrongType,
    /// A number that does not parse, e.g. `3,35` or `12k`.
    MalformedNumber,
    /// A value outside the allowed set, e.g. an unknown accelerator family.
    UnknownValue,
    /// A date that is not a date.
    InvalidDate,
    /// A range whose low end exceeds its high end.
    InvalidRange,
    /// A negative quantity where only zero or more makes sense.
    NegativeValue,
    /// A figure with no source or no confidence level, given neither on it nor on its entry.
    MissingProvenance,
    /// A source id that the file's `[sources]` table does not define.
    UnknownSource,
    /// Two entries with the same id.
    DuplicateId,
    /// A reference to an entry of another catalog file that does not exist.
    UnknownReference,
}

impl IssueKind {
    pub fn as_str(self) -> &'static str {
        match self {
            IssueKind::Syntax => "syntax",
            IssueKind::BadHeader => "bad-header",
            IssueKind::UnsupportedFormat => "unsupported-format",
            IssueKind::MissingField => "missing-field",
            IssueKind::UnknownField => "unknown-field",
            IssueKind::WrongType => "wrong-type",
            IssueKind::MalformedNumber => "malformed-number",
            IssueKind::UnknownValue => "unknown-value",
            IssueKind::InvalidDate => "invalid-date",
            IssueKind::InvalidRange => "invalid-range",
            IssueKind::NegativeValue => "negative-value",
            IssueKind::MissingProvenance => "missing-provenance",
            IssueKind::UnknownSource => "unknown-source",
            IssueKind::DuplicateId => "duplicate-id",
            IssueKind::UnknownReference => "unknown-reference",
        }
    }

    pub const ALL: [IssueKind; 15] = [
        IssueKind::Syntax,
        IssueKind::BadHeader,
        IssueKind::UnsupportedFormat,
        IssueKind::MissingField,
        IssueKind::UnknownField,
        IssueKind::WrongType,
        IssueKind::MalformedNumber,
        IssueKind::UnknownValue,
        IssueKind::InvalidDate,
        IssueKind::InvalidRange,
        IssueKind::NegativeValue,
        IssueKind::MissingProvenance,
        IssueKind::UnknownSource,
        IssueKind::DuplicateId,
        IssueKind::UnknownReference,
    ];

    fn from_tag(tag: &str) -> Option<IssueKind> {
        IssueKind::ALL.into_iter().find(|k| k.as_str() == tag)
    }
}

/// One problem in one catalog file, located to the line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CatalogIssue {
    pub file: String,
    /// 1-based line of the offending value.
    pub line: u32,
    /// 1-based column (in characters) of the offending value.
    pub column: u32,
    /// Path of the field, e.g. `accelerator[3].price_usd.low`.
    pub field: String,
    pub kind: IssueKind,
    /// What is wrong and what to do about it.
    pub message: String,
}

impl fmt::Display for CatalogIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {} [{}]: {}",
            self.file,
            self.line,
            self.column,
            if self.field.is_empty() { "(file)" } else { &self.field },
            self.kind.as_str(),
            self.message
        )
    }
}

/// Every problem found in a catalog; the catalog is refused as a whole when there is any.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} catalog error(s); first: {}", .issues.len(), .issues.first().map(ToString::to_string).unwrap_or_default())]
pub struct CatalogError {
    pub issues: Vec<CatalogIssue>,
}

/// Prefixes a message with its kind so that a custom `Deserialize` error, which serde can only
/// carry as text, still arrives at the loader classified.
pub(crate) fn tagged(kind: IssueKind, message: &str) -> String {
    format!("\u{1}{}\u{1}{message}", kind.as_str())
}

/// Splits a message made by [`tagged`]; an untagged message comes back as it was.
pub(crate) fn untag(message: &str) -> (Option<IssueKind>, &str) {
    let Some(rest) = message.strip_prefix('\u{1}') else {
        return (None, message);
    };
    match rest.split_once('\u{1}') {
        Some((tag, text)) => (IssueKind::from_tag(tag), text),
        None => (None, message),
    }
}

/// 1-based line and column of a byte offset, counting characters rather than bytes.
#[cfg(test)]
pub(crate) fn line_col(text: &str, offset: usize) -> (u32, u32) {
    LineIndex::new(text).line_col(text, offset)
}

/// Where each line of a text starts, found once, so that locating an offset is a binary search
/// rather than a count from the start of the file (which made loading quadratic: issue #14).
#[derive(Debug, Clone, Default)]
pub(crate) struct LineIndex {
    /// Byte offset of the first character of every line; the first is 0.
    starts: Vec<usize>,
}

impl LineIndex {
    pub(crate) fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { starts }
    }

    /// 1-based line and column of a byte offset of `text` (the text the index was made from),
    /// counting characters rather than bytes.
    pub(crate) fn line_col(&self, text: &str, offset: usize) -> (u32, u32) {
        let offset = offset.min(text.len());
        // The last line start at or before the offset (there is always one: 0).
        let line = self.starts.partition_point(|s| *s <= offset).max(1);
        let start = self.starts.get(line - 1).copied().unwrap_or(0);
        let column = text.get(start..offset).map_or(0, |s| s.chars().count()) + 1;
        (
            u32::try_from(line).unwrap_or(u32::MAX),
            u32::try_from(column).unwrap_or(u32::MAX),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_round_trip_and_plain_text_passes_through() {
        let t = tagged(IssueKind::InvalidDate, "bad");
        assert_eq!(untag(&t), (Some(IssueKind::InvalidDate), "bad"));
        assert_eq!(untag("plain"), (None, "plain"));
    }

    #[test]
    fn line_and_column_count_characters() {
        let text = "a = 1\nbé = 2\n";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 6), (2, 1));
        // 'é' is two bytes but one column.
        assert_eq!(line_col(text, 10), (2, 4));
    }
}
