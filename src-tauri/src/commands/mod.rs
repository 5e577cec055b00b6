//! The IPC commands, grouped like the app's rooms. Each is a one-line adapter: it turns its
//! arguments into a call of the `planner_app` use case of the same name and returns the answer;
//! no rule lives here (a test holds every body to ten lines).

pub mod catalog;
pub mod compare;
pub mod compliance;
pub mod identities;
pub mod memo;
pub mod scenarios;
pub mod session;
pub mod vendors;

/// The host every command runs on, as Tauri hands it over.
type Host<'a> = tauri::State<'a, planner_app::DesktopHost>;
