//! Deciding: the figures between scenarios ([`compare`]) and what the screen, the exports and
//! the memo show of them ([`decision`]).
//!
//! May import: [`super::input`], [`super::blocks`], [`super::model`], [`super::costing`].

pub mod compare;
pub mod decision;
