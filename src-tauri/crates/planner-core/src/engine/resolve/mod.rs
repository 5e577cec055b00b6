//! Resolving: a scenario file and a catalog in, a [`crate::engine::model::scenario::Plan`] out, or
//! every problem at its JSON path.
//!
//! May import: [`super::input`], [`super::blocks`], [`super::model`].

pub mod validate;
