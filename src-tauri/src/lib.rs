//! The desktop shell: one window, its host, and the IPC commands.
//!
//! Every use case lives in `planner_app`; the commands in [`commands`] are one-line adapters
//! over it, grouped like the app's rooms, so everything the UI can do a test can do without a
//! window (`planner_app::TestHost`). The TypeScript bindings in `ui/src/lib/ipc/bindings.ts` are
//! generated from the commands' signatures by tauri-specta (see `bindings_are_current` below).
//!
//! Commands that touch the workspace are `async`, so Tauri runs them on its worker threads and
//! the window's event loop never waits for SQLite or the engine: typing stays responsive while a
//! comparison is re-evaluated.

use std::path::{Path, PathBuf};

use planner_app::DesktopHost;
use tauri::Manager;

mod commands;
mod dialogs;
mod launch;

pub use dialogs::FilePurpose;
pub use launch::LaunchOptions;
#[cfg(target_os = "linux")]
pub use launch::disable_dmabuf_renderer_without_gpu;

/// The command set and type exports, shared by the running app and the bindings test. The order
/// is the order of the generated bindings.
pub fn specta_builder() -> tauri_specta::Builder<tauri::Wry> {
    tauri_specta::Builder::<tauri::Wry>::new().commands(tauri_specta::collect_commands![
        commands::catalog::get_catalog,
        commands::session::session,
        commands::session::create_workspace,
        commands::session::open_workspace,
        commands::session::save_workspace_as,
        commands::session::close_workspace,
        commands::session::list_samples,
        commands::session::open_sample,
        commands::session::choose_file,
        commands::catalog::workspace_catalog,
        commands::scenarios::get_scenario,
        commands::scenarios::apply_edit,
        commands::scenarios::undo,
        commands::scenarios::redo,
        commands::compare::set_view,
        commands::compare::lock_baseline,
        commands::compare::unlock_baseline,
        commands::compare::compare,
        commands::compare::compare_what_if,
        commands::scenarios::keep_what_if,
        commands::compare::run_risk,
        commands::compare::risk,
        commands::compare::risk_progress,
        commands::compare::cancel_risk,
        commands::scenarios::scenario_detail,
        commands::scenarios::exit_costs,
        commands::scenarios::exit_variant,
        commands::scenarios::exit_request,
        commands::scenarios::layer_forms,
        commands::scenarios::draft_scenario,
        commands::scenarios::draft_workload,
        commands::scenarios::reshape_scenario,
        commands::scenarios::size_workload,
        commands::catalog::update_catalog,
        commands::scenarios::import_scenarios,
        commands::scenarios::export_scenarios,
        commands::compare::export_comparison,
        commands::compare::export_ledger,
        commands::memo::memo_draft,
        commands::memo::memo_records,
        commands::memo::export_memo,
        commands::memo::sign_pdf,
        commands::memo::verify_pdf,
        commands::identities::list_identities,
        commands::identities::create_identity,
        commands::identities::import_identity,
        commands::identities::export_certificate,
        commands::compliance::checklist_statuses,
        commands::compliance::checklist,
        commands::compliance::answer_checklist_item,
        commands::compliance::sign_off_checklist,
        commands::compliance::revoke_sign_off,
        commands::compliance::verify_checklist_log,
        commands::compliance::export_evidence,
        commands::vendors::scorecard_draft,
        commands::vendors::scorecard_view,
        commands::vendors::preview_quotes,
        commands::vendors::import_quotes,
        commands::vendors::quote_template,
        commands::catalog::catalog_freshness,
        commands::catalog::pack_keys,
        commands::catalog::add_pack_key,
        commands::catalog::remove_pack_key,
        commands::catalog::open_pack,
        commands::catalog::download_pack,
        commands::catalog::download_progress,
        commands::catalog::cancel_download,
        commands::catalog::apply_pack,
        commands::catalog::discard_pack,
    ])
}

/// Where the generated TypeScript bindings are committed.
pub fn bindings_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../ui/src/lib/ipc/bindings.ts")
}

/// Starts the app. Launch failures are reported on stderr with what to do, never a panic.
pub fn run() {
    let options = match LaunchOptions::from_env_and_args(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(message) => {
            eprintln!("compute-planner: {message}");
            std::process::exit(2);
        }
    };
    let builder = specta_builder();
    let launch_workspace = options.workspace.clone();
    let launch_read_only = options.read_only;
    let result = tauri::Builder::default()
        .plugin(tauri_plugin_dialog::init())
        .invoke_handler(builder.invoke_handler())
        .setup(move |app| {
            builder.mount_events(app);
            // Without a GPU, WebKit paints sooner and in less memory without hardware
            // acceleration (see `launch::has_gpu_render_node`).
            #[cfg(target_os = "linux")]
            if !launch::has_gpu_render_node(Path::new("/dev/dri"))
                && let Some(window) = app.get_webview_window("main")
            {
                let set = window.with_webview(|webview| {
                    use webkit2gtk::{HardwareAccelerationPolicy, SettingsExt, WebViewExt};
                    if let Some(settings) = webview.inner().settings() {
                        settings.set_hardware_acceleration_policy(HardwareAccelerationPolicy::Never);
                    }
                });
                if let Err(e) = set {
                    eprintln!("compute-planner: WebKit's hardware acceleration stays on ({e})");
                }
            }
            let config_dir = options.config_dir.clone().or_else(|| app.path().app_config_dir().ok());
            let samples_dir = options
                .samples_dir
                .clone()
                .or_else(|| {
                    let installed = app.path().resource_dir().ok()?.join("samples");
                    installed.is_dir().then_some(installed)
                })
                .or_else(launch::dev_samples_dir);
            let documents_dir = options
                .documents_dir
                .clone()
                .or_else(|| app.path().document_dir().ok())
                .or_else(|| app.path().home_dir().ok());
            let host = DesktopHost::new(options.catalog_dir.clone(), config_dir, samples_dir, documents_dir);
            if let Some(path) = &launch_workspace {
                planner_app::session::launch(&host, path, launch_read_only);
            }
            app.manage(host);
            Ok(())
        })
        .run(tauri::generate_context!());
    if let Err(e) = result {
        eprintln!("compute-planner: the window could not start: {e}");
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use specta_typescript::Typescript;

    fn typescript() -> Typescript {
        Typescript::default()
            .header("// Generated by tauri-specta from src-tauri/src/lib.rs. Do not edit: run\n// `UPDATE_BINDINGS=1 cargo test -p compute-planner bindings` to regenerate.\n")
    }

    /// Fails when the committed bindings differ from what the Rust signatures generate.
    #[test]
    fn bindings_are_current() {
        let dir = tempfile::tempdir().unwrap();
        let fresh = dir.path().join("bindings.ts");
        specta_builder().export(typescript(), &fresh).unwrap();
        let fresh_text = std::fs::read_to_string(&fresh).unwrap();
        let committed = bindings_path();
        if std::env::var_os("UPDATE_BINDINGS").is_some() {
            std::fs::write(&committed, &fresh_text).unwrap();
        }
        let committed_text = std::fs::read_to_string(&committed).unwrap_or_default();
        assert!(
            committed_text == fresh_text,
            "ui/src/lib/ipc/bindings.ts is stale: run `UPDATE_BINDINGS=1 cargo test -p compute-planner bindings` and commit it"
        );
    }
}
