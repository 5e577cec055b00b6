//! Costing: a resolved plan in, its ledger and figures out; it cannot fail. [`operations`]
//! works out what each layer serves and runs on, [`evaluate`] books the money.
//!
//! May import: [`super::input`], [`super::blocks`], [`super::model`].

pub mod evaluate;
pub mod operations;
