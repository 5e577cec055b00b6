//! Resolving: a scenario file and a catalog in, a [`crate::engine::model::scenario::Plan`] out, or
//! every problem at its JSON path. [`validate`] holds the entry points, the resolver and the
//! checks every concern shares (signs, fractions, currencies, overrides, catalog figures); one file
//! per concern under `validate/` adds to the resolver: `workloads`, `scenarios`, `facility`,
//! `layers`, `rented` (what rented capacity pays), `owned` (owned hardware and its resale) and
//! `tax` (the file's tax profile).
//!
//! May import: [`super::input`], [`super::blocks`], [`super::model`].

pub mod validate;
