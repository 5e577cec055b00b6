//! The one list of the app's IPC commands. Each entry is a command's name, its doc (which the
//! UI's bindings carry), its arguments, its answer and the call of the use case that answers it.
//! [`with_commands!`](crate::with_commands) hands the list to a macro that expands it: the shell
//! makes a typed Tauri command of each entry (and the bindings from them), the `router` module
//! the table that answers a command by name without a window (the host server of the UI's
//! recorded answers and the test that replays them). A command is added here, once.
//!
//! An entry reads `name(host, arg: Type, ..) -> Answer = { call };`: `host` is the
//! [`crate::Host`] the call runs on, each argument arrives as the bindings send it (camelCase in
//! JSON), and the call returns `Result<Answer, PlannerError>`. Paths are absolute (`$crate::` for
//! this crate), since the list expands in other crates. Commands that need the window (the
//! system file dialog) are not here: they are the router's `WINDOW_COMMANDS`.

/// Calls `$then!` with every command of the app, in the order of the bindings.
#[macro_export]
macro_rules! with_commands {
    ($then:ident) => {
        $then! {
            /// The catalog the app ships, freshly read and checked; on any error, every issue with file,
            /// line and field.
            get_catalog(host) -> ::planner_core::catalog::Catalog = {
                $crate::catalog::shipped(host)
            };
            /// The open workspace (if any), why the launch workspace failed (if it did), and the recent list.
            session(host) -> $crate::session::Session = {
                $crate::session::session(host)
            };
            /// Creates a workspace at `path` titled `title`, starting next month, with a snapshot of the
            /// shipped catalog, and opens it.
            create_workspace(host, path: String, title: String) -> ::planner_store::workspace::WorkspaceInfo = {
                $crate::session::create(host, ::std::path::Path::new(&path), &title)
            };
            /// Opens the workspace at `path` (closing the one open).
            open_workspace(host, path: String) -> ::planner_store::workspace::WorkspaceInfo = {
                $crate::session::open(host, ::std::path::Path::new(&path))
            };
            /// Copies the open workspace to `path` and continues in the copy.
            save_workspace_as(host, path: String) -> ::planner_store::workspace::WorkspaceInfo = {
                $crate::session::save_as(host, ::std::path::Path::new(&path))
            };
            /// Closes the open workspace (every edit is already saved).
            close_workspace(host) -> () = {
                $crate::session::close(host);
                Ok(())
            };
            /// The sample workspaces shipped with the app, for the start screen.
            list_samples(host) -> Vec<$crate::session::SampleInfo> = {
                $crate::session::samples(host)
            };
            /// Copies the sample `id` into the user's documents folder and opens the copy.
            open_sample(host, id: String) -> ::planner_store::workspace::WorkspaceInfo = {
                $crate::session::open_sample(host, &id)
            };
            /// The catalog snapshot the open workspace computes with.
            workspace_catalog(host) -> ::planner_core::catalog::Catalog = {
                $crate::catalog::snapshot(host)
            };
            /// One scenario, whole, for the editor.
            get_scenario(host, id: String) -> ::planner_core::engine::input::scenario_file::ScenarioSpec = {
                $crate::scenarios::get(host, &id)
            };
            /// Applies and saves one edit.
            apply_edit(host, request: ::planner_core::edit::EditRequest) -> ::planner_store::workspace::Applied = {
                $crate::scenarios::apply_edit(host, &request)
            };
            /// Takes back the last edit; `None` when there is nothing to undo.
            undo(host) -> Option<::planner_store::workspace::Applied> = {
                $crate::scenarios::undo(host)
            };
            /// Applies again the last edit undone; `None` when there is nothing to redo.
            redo(host) -> Option<::planner_store::workspace::Applied> = {
                $crate::scenarios::redo(host)
            };
            /// Saves what the compare screen shows (not an undo step).
            set_view(host, view: ::planner_core::engine::workspace::content::ViewState) -> ::planner_core::engine::workspace::content::ViewState = {
                $crate::compare::set_view(host, &view)
            };
            /// Locks the compared set and its baseline (issue #17): changes that would move their figures
            /// are refused until it is unlocked.
            lock_baseline(host) -> ::planner_core::engine::workspace::content::BaselineLock = {
                $crate::compare::lock_baseline(host)
            };
            /// Lifts the baseline lock.
            unlock_baseline(host) -> () = {
                $crate::compare::unlock_baseline(host)
            };
            /// The comparison of the selected scenarios with its charts, drawn for `theme`.
            compare(host, theme: ::planner_report::charts::Theme) -> ::planner_report::screen::CompareScreen = {
                $crate::compare::screen(host, theme)
            };
            /// The comparison with live what-if drivers applied (nothing saved), drawn for `theme`, with
            /// the monthly chart of scenario `monthly` only (the first compared one when `None`).
            compare_what_if(host, what_if: ::planner_core::engine::editing::what_if::WhatIf, theme: ::planner_report::charts::Theme, monthly: Option<String>) -> $crate::compare::WhatIfScreen = {
                $crate::compare::what_if(host, &what_if, theme, monthly.as_deref())
            };
            /// Keeps the what-if drivers on `scenario` as a new scenario (one undo step), added to the
            /// compare selection when it has room.
            keep_what_if(host, what_if: ::planner_core::engine::editing::what_if::WhatIf, scenario: String) -> $crate::scenarios::KeptWhatIf = {
                $crate::scenarios::keep_what_if(host, &what_if, &scenario)
            };
            /// Runs the risk analysis of the compare selection as `request` asks (draws, seed, shape,
            /// correlation, the figures marked uncertain) and keeps it in the workspace; its charts are drawn
            /// for `theme`.
            run_risk(host, request: $crate::compare::RiskRequest, theme: ::planner_report::charts::Theme) -> $crate::compare::RiskView = {
                $crate::compare::run_risk(host, &request, theme)
            };
            /// The last risk analysis kept in the workspace, and whether the plan changed since; `None`
            /// before the first.
            risk(host, theme: ::planner_report::charts::Theme) -> Option<$crate::compare::RiskView> = {
                $crate::compare::risk(host, theme)
            };
            /// How far the running risk analysis has come; `None` when none is running.
            risk_progress(host) -> Option<$crate::compare::RiskProgress> = {
                Ok($crate::compare::risk_progress(host))
            };
            /// Cancels the running risk analysis; `false` when none is running.
            cancel_risk(host) -> bool = {
                Ok($crate::compare::cancel_risk(host))
            };
            /// One scenario evaluated on its own, for the editor's figures, plans and assumptions.
            scenario_detail(host, scenario: ::planner_core::engine::input::scenario_file::ScenarioSpec) -> ::planner_core::engine::workspace::content::ScenarioDetail = {
                $crate::scenarios::detail(host, &scenario)
            };
            /// The cost of leaving each layer of a scenario that carries an exit clause, at every month of
            /// the horizon (the scenario as the editor holds it, like `scenario_detail`).
            exit_costs(host, scenario: ::planner_core::engine::input::scenario_file::ScenarioSpec) -> ::planner_core::engine::workspace::content::ScenarioExits = {
                $crate::scenarios::exit_costs(host, &scenario)
            };
            /// Notice to leave `layer` of a scenario given in `month`, priced as a variant against staying.
            exit_variant(host, scenario: ::planner_core::engine::input::scenario_file::ScenarioSpec, layer: String, month: u32) -> ::planner_core::engine::workspace::content::ExitVariantOutcome = {
                $crate::scenarios::exit_variant(host, &scenario, &layer, month)
            };
            /// One way out of a scenario (leave a reservation, scale down, downgrade, leave a lease, sell
            /// early), priced as a variant against staying.
            exit_request(host, scenario: ::planner_core::engine::input::scenario_file::ScenarioSpec, request: ::planner_core::engine::exit::kinds::ExitRequest) -> ::planner_core::engine::workspace::content::ExitRequestOutcome = {
                $crate::scenarios::exit_request(host, &scenario, &request)
            };
            /// What the editor shows for each kind of layer: the fields it takes and an empty layer of it.
            layer_forms(host) -> Vec<::planner_core::engine::editing::layer_form::LayerForm> = {
                Ok($crate::scenarios::layer_forms(host))
            };
            /// A new scenario, not saved, from a template on the workspace's catalog and currency or as a
            /// copy of a saved scenario, with an id unique in the workspace; what it could not choose is in
            /// its notes.
            draft_scenario(host, from: $crate::scenarios::DraftFrom) -> ::planner_core::engine::editing::draft::Draft = {
                $crate::scenarios::draft(host, &from)
            };
            /// A new workload, not saved, named `name` of `kind`, with an id unique in the workspace and the
            /// engine's defaults.
            draft_workload(host, name: String, kind: ::planner_core::workload_kind::WorkloadKind) -> ::planner_core::engine::input::scenario_file::WorkloadSpec = {
                $crate::scenarios::draft_workload(host, &name, kind)
            };
            /// The scenario as the editor holds it with one change of shape (a layer added, a layer's kind,
            /// a facility added) made by the engine's rules; nothing is saved.
            reshape_scenario(host, scenario: ::planner_core::engine::input::scenario_file::ScenarioSpec, change: $crate::scenarios::Reshape) -> ::planner_core::engine::input::scenario_file::ScenarioSpec = {
                $crate::scenarios::reshape(host, &scenario, &change)
            };
            /// A workload's memory fit on an accelerator of the workspace's catalog.
            size_workload(host, workload: ::planner_core::engine::input::scenario_file::WorkloadSpec, accelerator: String, gpus_per_server: u32) -> Option<::planner_core::engine::workspace::content::SizingPreview> = {
                $crate::scenarios::size_workload(host, &workload, &accelerator, gpus_per_server)
            };
            /// Replaces the workspace's catalog snapshot with the catalog the app ships (an undo step).
            update_catalog(host) -> ::planner_store::workspace::Applied = {
                $crate::catalog::update(host)
            };
            /// Adds the workloads and scenarios of a scenario JSON file (one undo step).
            import_scenarios(host, path: String) -> ::planner_store::workspace::Imported = {
                $crate::scenarios::import_file(host, ::std::path::Path::new(&path))
            };
            /// Writes the workspace (or the scenarios `ids`) as a scenario JSON file.
            export_scenarios(host, path: String, ids: Option<Vec<String>>) -> () = {
                $crate::scenarios::export_file(host, ::std::path::Path::new(&path), ids.as_deref())
            };
            /// Exports the comparison on screen (XLSX with every ledger, or CSV).
            export_comparison(host, path: String, format: $crate::compare::ExportFormat) -> () = {
                $crate::compare::export(host, ::std::path::Path::new(&path), format)
            };
            /// Exports one scenario's monthly ledger as CSV.
            export_ledger(host, path: String, scenario: String) -> () = {
                $crate::compare::export_ledger(host, ::std::path::Path::new(&path), &scenario)
            };
            /// The open workspace's memo draft (edits go through `apply_edit` with `Edit::Memo`).
            memo_draft(host) -> ::planner_core::memo::MemoDraft = {
                $crate::memo::draft(host)
            };
            /// Every memo written or signed from the open workspace, oldest first.
            memo_records(host) -> Vec<::planner_core::memo::MemoRecord> = {
                $crate::memo::records(host)
            };
            /// Writes the memo of the open workspace's draft to `path`, signed when `sign` is given, and
            /// records it in the workspace.
            export_memo(host, path: String, sign: Option<$crate::identities::SignWith>) -> ::planner_publish::Published = {
                $crate::memo::export(host, ::std::path::Path::new(&path), sign.as_ref())
            };
            /// Adds a signature to the PDF at `path` (recorded in the open workspace, if any).
            sign_pdf(host, path: String, sign: $crate::identities::SignWith) -> ::planner_core::memo::MemoRecord = {
                $crate::memo::sign_pdf(host, ::std::path::Path::new(&path), &sign)
            };
            /// Every signature of the PDF at `path`: who, when, with which certificate, and whether the
            /// document is intact since.
            verify_pdf(host, path: String) -> ::planner_publish::PdfCheck = {
                $crate::memo::verify_pdf(::std::path::Path::new(&path))
            };
            /// The signing identities kept by the app.
            list_identities(host) -> Vec<::planner_publish::identities::IdentitySummary> = {
                $crate::identities::list(host)
            };
            /// Makes a P-256 key with a self-signed certificate and keeps it encrypted with `passphrase`.
            create_identity(host, name: String, organisation: String, email: Option<String>, passphrase: String) -> ::planner_publish::identities::IdentitySummary = {
                $crate::identities::create(host, &name, &organisation, email.as_deref(), &passphrase)
            };
            /// Imports an organisation's PKCS#12 identity (checked with its passphrase).
            import_identity(host, path: String, passphrase: String) -> ::planner_publish::identities::IdentitySummary = {
                $crate::identities::import(host, ::std::path::Path::new(&path), &passphrase)
            };
            /// Writes an identity's certificate (PEM) to `path`, for a validator to trust.
            export_certificate(host, identity: String, passphrase: String, path: String) -> () = {
                $crate::identities::export_certificate(host, &identity, &passphrase, ::std::path::Path::new(&path))
            };
            /// The clearance of every scenario and of every vendor with a record, for the badges.
            checklist_statuses(host) -> Vec<$crate::compliance::SubjectStatus> = {
                $crate::compliance::statuses(host)
            };
            /// One subject's checklist: items, answers with their history, hints, sign-off, clearance.
            checklist(host, subject: ::planner_core::compliance::checklist::Subject) -> $crate::compliance::ChecklistView = {
                $crate::compliance::checklist(host, &subject)
            };
            /// Records an answer with the files at `evidence` (paths) attached; returns the checklist.
            answer_checklist_item(host, subject: ::planner_core::compliance::checklist::Subject, answer: ::planner_core::compliance::checklist::AnswerInput, evidence: Vec<String>) -> $crate::compliance::ChecklistView = {
                $crate::compliance::answer(host, &subject, &answer, &evidence)
            };
            /// Signs off the subject's checklist as its answers stand, with the reviewer's signing identity
            /// when `sign` names one (its `reason` is not used); returns the checklist.
            sign_off_checklist(host, subject: ::planner_core::compliance::checklist::Subject, reviewer: String, note: String, sign: Option<$crate::identities::SignWith>) -> $crate::compliance::ChecklistView = {
                $crate::compliance::sign_off(host, &subject, &reviewer, &note, sign.as_ref())
            };
            /// Withdraws the subject's sign-off with a reason; returns the checklist.
            revoke_sign_off(host, subject: ::planner_core::compliance::checklist::Subject, reviewer: String, reason: String) -> $crate::compliance::ChecklistView = {
                $crate::compliance::revoke(host, &subject, &reviewer, &reason)
            };
            /// Verifies the checklist log and names the first broken entry.
            verify_checklist_log(host) -> ::planner_store::workspace::LogCheck = {
                $crate::compliance::verify_log(host)
            };
            /// Writes a stored evidence file (checked against its SHA-256) to `path`.
            export_evidence(host, sha256: String, path: String) -> () = {
                $crate::compliance::export_evidence(host, &sha256, ::std::path::Path::new(&path))
            };
            /// The open workspace's vendor scorecard as entered (edits go through `apply_edit` with
            /// `Edit::Scorecard`).
            scorecard_draft(host) -> ::planner_core::rfp::vendors::ScorecardDraft = {
                $crate::vendors::scorecard_draft(host)
            };
            /// The scorecard screen: each vendor's cost from the engine over the compare horizon, its
            /// compliance from its D-1 checklist (absent for a vendor never reviewed), the ranking and its
            /// stability.
            scorecard_view(host) -> ::planner_core::rfp::vendors::ScorecardView = {
                $crate::vendors::scorecard(host)
            };
            /// Reads an RFP quote file (CSV or XLSX) and shows each quote on the workspace's footing;
            /// nothing is written. A file with any problem is refused with every problem located (file,
            /// row, column, template column).
            preview_quotes(host, path: String) -> ::planner_core::rfp::vendors::QuotePreview = {
                $crate::vendors::preview_quotes(host, ::std::path::Path::new(&path))
            };
            /// Imports an RFP quote file: one scenario per vendor made from the scenario `base` with the
            /// vendor's quotes as its layers, and the vendors on the scorecard, in one undo step. A file
            /// with any problem imports nothing.
            import_quotes(host, path: String, base: String) -> ::planner_store::workspace::QuotesImported = {
                $crate::vendors::import_quotes(host, ::std::path::Path::new(&path), &base)
            };
            /// The RFP quote template shipped with the app (beside the catalog it reads).
            quote_template(host) -> ::planner_store::files::QuoteTemplate = {
                $crate::vendors::quote_template(host)
            };
            /// The workspace catalog's origin (its pack signature checked again) and its stale figures today.
            catalog_freshness(host) -> $crate::packs::CatalogFreshness = {
                $crate::packs::freshness(host)
            };
            /// The catalog publishers this computer trusts.
            pack_keys(host) -> Vec<$crate::packs::TrustedKey> = {
                $crate::packs::keys(host)
            };
            /// Trusts a catalog publisher's public key (minisign format) under `label`.
            add_pack_key(host, public_key: String, label: String) -> Vec<$crate::packs::TrustedKey> = {
                $crate::packs::add_key(host, &public_key, &label)
            };
            /// Stops trusting a publisher key the user added.
            remove_pack_key(host, id: String) -> Vec<$crate::packs::TrustedKey> = {
                $crate::packs::remove_key(host, &id)
            };
            /// Opens and checks a catalog pack file and shows what it would change; nothing changes yet.
            open_pack(host, path: String) -> $crate::packs::PackPreview = {
                $crate::packs::open_file(host, std::path::Path::new(&path))
            };
            /// Downloads a catalog pack from the address the user typed (the app's only network access),
            /// checks it and shows what it would change; nothing changes yet.
            download_pack(host, url: String) -> $crate::packs::PackPreview = {
                $crate::packs::download(host, &url)
            };
            /// How far the running download has come; null when none runs.
            download_progress(host) -> Option<$crate::packs::DownloadProgress> = {
                Ok($crate::packs::download_progress(host))
            };
            /// Stops the running download; false when none runs.
            cancel_download(host) -> bool = {
                Ok($crate::packs::cancel_download(host))
            };
            /// Applies the previewed pack to the workspace's catalog (one undo step).
            apply_pack(host) -> ::planner_store::workspace::Applied = {
                $crate::packs::apply(host)
            };
            /// Drops the previewed pack.
            discard_pack(host) -> () = {
                $crate::packs::discard(host);
                Ok(())
            };
        }
    };
}
