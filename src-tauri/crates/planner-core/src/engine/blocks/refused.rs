//! The one error the blocks give for an input they refuse: the field at fault, as the caller or a
//! file spells it (`recovery_years`, `periods[1].from_month`), and what is wrong with it.

use std::fmt;

/// An input a block refuses, naming its field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    /// The field or argument at fault (`per_year`, `periods[1].from_month`, `price`, ...).
    pub field: String,
    /// What is wrong with it, with the value given, and what is accepted.
    pub message: String,
}

impl Refused {
    pub(crate) fn new(field: impl Into<String>, message: String) -> Self {
        Self {
            field: field.into(),
            message,
        }
    }
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for Refused {}
