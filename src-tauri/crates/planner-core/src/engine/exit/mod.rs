//! Ways out: what leaving a contract costs at any month ([`clauses`]) and every kind of exit as
//! a plan variant priced against staying ([`kinds`]).
//!
//! May import: [`super::input`], [`super::blocks`], [`super::model`], [`super::resolve`],
//! [`super::costing`].

pub mod clauses;
pub mod kinds;
