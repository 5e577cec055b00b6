//! Risk: the figures a user or the catalog marks uncertain ([`drivers`]), their seeded draws
//! ([`sampling`]), the runs over every draw ([`run`]) and the fast exact surface that re-prices a
//! resolved plan per draw ([`surface`]).
//!
//! May import: [`super::input`], [`super::blocks`], [`super::model`], [`super::resolve`],
//! [`super::costing`], [`super::decide`].

pub mod drivers;
pub mod run;
pub mod sampling;
pub mod surface;
