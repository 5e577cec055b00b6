//! Compute Planner's application layer: every use case, one module per room, each a plain
//! function over a [`Host`] (the catalog folder, the configuration folder, the clock and the open
//! workspace).
//!
//! The desktop shell's commands and the `planner` command line call these functions and nothing
//! else; a [`TestHost`] runs every one of them without a window. The rooms:
//!
//! - [`session`]: create, open, save as and close the workspace; the start screen's session.
//! - [`catalog`]: the shipped catalog and the workspace's snapshot of it.
//! - [`scenarios`]: workloads and scenarios: edits, undo and redo, one scenario's figures, its
//!   exits and sizing, scenario files in and out.
//! - [`compare`]: the comparison screen and its exports.
//! - [`memo`]: the decision memo: draft, PDF, signatures, verification.
//! - [`compliance`]: D-1 checklists: answers with evidence, sign-offs, the log.
//! - [`vendors`]: RFP quotes and the vendor scorecard.
//! - [`identities`]: the signing identities kept in the configuration folder.
//! - [`packs`]: signed catalog packs: trusted publishers, a pack from a file or a URL, its
//!   preview and applying it; the workspace catalog's origin and stale figures.
//! - [`publishing`]: a catalog publisher's keys and packs, as the command line offers them.
//!
//! Beside the rooms, [`commands`] is the one list of IPC commands (name, arguments, answer, the
//! use case's call), expanded by the shell into its typed Tauri commands and here into
//! [`route`], which answers a command by name (JSON in, JSON out); [`recorded`] replays the UI
//! tests' recorded calls on a [`TestHost`].
//!
//! Architecture invariant: this crate depends on no GUI toolkit; what needs the window (file
//! dialogs) stays in the shell.

pub mod catalog;
pub mod commands;
pub mod compare;
pub mod compliance;
pub mod host;
pub mod identities;
pub mod memo;
pub mod packs;
pub mod publishing;
pub mod recorded;
pub mod router;
pub mod scenarios;
pub mod session;
pub mod vendors;

pub use host::{DesktopHost, Host, Slots, TestHost};
pub use router::route;
