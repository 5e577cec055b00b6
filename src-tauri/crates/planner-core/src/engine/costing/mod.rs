//! Costing: a resolved plan in, its ledger and figures out; it cannot fail. [`operations`]
//! works out what each layer serves and runs on, [`evaluate`] books the money, [`tax_view`] the
//! after-tax view of it when the plan has a tax profile.
//!
//! May import: [`super::input`], [`super::blocks`], [`super::model`].

pub mod evaluate;
pub mod operations;
pub mod tax_view;
