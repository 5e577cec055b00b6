//! The IPC commands: a typed Tauri command for each entry of the app's one command list
//! (`planner_app::commands`), made by [`tauri_commands`], and the one command that needs the
//! window, [`choose_file`] (the system file dialog). Each command hands its arguments to the
//! use case the list names and returns its answer; no rule lives here.

use planner_core::error::PlannerError;

use crate::dialogs::{self, FilePurpose};

/// The host every command runs on, as Tauri hands it over.
type Host<'a> = tauri::State<'a, planner_app::DesktopHost>;

/// Expands the command list into Tauri commands (their signatures make the bindings) and
/// [`builder`], which registers them with `choose_file`.
macro_rules! tauri_commands {
    ($( $(#[$meta:meta])* $name:ident ($host:ident $(, $arg:ident : $ty:ty)*) -> $ans:ty = $body:block; )*) => {
        $(
            $(#[$meta])*
            #[tauri::command]
            #[specta::specta]
            #[allow(unused_variables)]
            pub async fn $name($host: Host<'_>, $($arg: $ty),*) -> Result<$ans, PlannerError> {
                let $host = &*$host;
                $body
            }
        )*

        /// Every command of the list, then the window's own, for tauri-specta.
        pub fn builder() -> tauri_specta::Builder<tauri::Wry> {
            tauri_specta::Builder::<tauri::Wry>::new()
                .commands(tauri_specta::collect_commands![$($name,)* choose_file])
        }
    };
}

planner_app::with_commands!(tauri_commands);

/// Asks the user for a file with the system dialog; `None` when they cancel.
#[tauri::command]
#[specta::specta]
pub async fn choose_file(app: tauri::AppHandle, purpose: FilePurpose) -> Result<Option<String>, PlannerError> {
    Ok(dialogs::choose(&app, purpose))
}
