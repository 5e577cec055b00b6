//! The workspace's content as the engine sees it ([`content`]): settings, workloads and
//! scenarios kept apart, put together into a scenario file, and a selection of them evaluated
//! with each problem placed on the item it belongs to.
//!
//! May import: every other room.

pub mod content;
