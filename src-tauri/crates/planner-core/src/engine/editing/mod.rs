//! Editing: what the editor starts from and changes: templates ([`draft`]), the form of each
//! layer kind ([`layer_form`]), the live what-if ([`what_if`]) and what a catalog pack changes
//! in a plan ([`pack_effect`]).
//!
//! May import: [`super::input`], [`super::blocks`], [`super::model`], [`super::resolve`],
//! [`super::decide`].

pub mod draft;
pub mod layer_form;
pub mod pack_effect;
pub mod what_if;
