//! Every IPC command by name: the arguments as the UI's bindings send them (a JSON object with
//! camelCase keys), the answer as the shell would return it (JSON).
//!
//! The shell registers typed commands (they generate the bindings); this table maps the same
//! names to the same use cases for what runs without a window: the host server that records the
//! UI tests' answers and the test that replays them (see the `recorded` module). A test checks that
//! it knows every command of the bindings.

use std::path::PathBuf;

use planner_core::error::{ErrorCode, PlannerError};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::{Host, catalog, compare, compliance, identities, memo, packs, scenarios, session, vendors};

/// Commands that need the window and so are answered by the caller, never by [`dispatch`]:
/// the system file dialog is the user's input.
pub const WINDOW_COMMANDS: &[&str] = &["choose_file"];

/// The arguments of one call, read by name.
struct Args<'a> {
    command: &'a str,
    values: &'a Value,
}

impl Args<'_> {
    /// The argument `name` (camelCase, as the bindings send it); an absent one reads as null,
    /// which an `Option` accepts.
    fn get<T: DeserializeOwned>(&self, name: &str) -> Result<T, PlannerError> {
        let value = self.values.get(name).cloned().unwrap_or(Value::Null);
        serde_json::from_value(value).map_err(|e| {
            PlannerError::invalid(
                name,
                format!("The argument {name} of {} does not read: {e}.", self.command),
            )
        })
    }

    fn path(&self, name: &str) -> Result<PathBuf, PlannerError> {
        self.get::<String>(name).map(PathBuf::from)
    }
}

fn answer<T: Serialize>(result: Result<T, PlannerError>) -> Result<Value, PlannerError> {
    let value = result?;
    serde_json::to_value(value)
        .map_err(|e| PlannerError::new(ErrorCode::Io, format!("The answer could not be written as JSON: {e}.")))
}

/// Runs the command `command` with `args` on `host` and returns its answer as JSON, or the
/// refusal the command gives. An unknown command, or one in [`WINDOW_COMMANDS`], is refused
/// with `invalid-input` naming it.
pub fn dispatch<H: Host>(host: &H, command: &str, args: &Value) -> Result<Value, PlannerError> {
    let a = Args { command, values: args };
    match command {
        "get_catalog" | "workspace_catalog" | "update_catalog" => catalog_command(host, &a),
        "session" | "create_workspace" | "open_workspace" | "save_workspace_as" | "close_workspace"
        | "list_samples" | "open_sample" => session_command(host, &a),
        "get_scenario" | "apply_edit" | "undo" | "redo" | "scenario_detail" | "exit_costs" | "exit_variant"
        | "exit_request" | "size_workload" | "import_scenarios" | "export_scenarios" => scenario_command(host, &a),
        "layer_forms" => answer(Ok(scenarios::layer_forms(host))),
        "draft_scenario" => answer(scenarios::draft(host, &a.get("from")?)),
        "draft_workload" => answer(scenarios::draft_workload(
            host,
            &a.get::<String>("name")?,
            a.get("kind")?,
        )),
        "reshape_scenario" => answer(scenarios::reshape(host, &a.get("scenario")?, &a.get("change")?)),
        "set_view" | "compare" | "export_comparison" | "export_ledger" | "lock_baseline" | "unlock_baseline" => {
            compare_command(host, &a)
        }
        "run_risk" => answer(compare::run_risk(host, &a.get("request")?, a.get("theme")?)),
        "risk" => answer(compare::risk(host, a.get("theme")?)),
        "risk_progress" => answer(Ok(compare::risk_progress(host))),
        "cancel_risk" => answer(Ok(compare::cancel_risk(host))),
        "compare_what_if" => answer(compare::what_if(
            host,
            &a.get("whatIf")?,
            a.get("theme")?,
            a.get::<Option<String>>("monthly")?.as_deref(),
        )),
        "keep_what_if" => answer(scenarios::keep_what_if(
            host,
            &a.get("whatIf")?,
            &a.get::<String>("scenario")?,
        )),
        "memo_draft" | "memo_records" | "export_memo" | "sign_pdf" | "verify_pdf" | "list_identities"
        | "create_identity" | "import_identity" | "export_certificate" => memo_command(host, &a),
        "checklist_statuses"
        | "checklist"
        | "answer_checklist_item"
        | "sign_off_checklist"
        | "revoke_sign_off"
        | "verify_checklist_log"
        | "export_evidence" => compliance_command(host, &a),
        "scorecard_draft" | "scorecard_view" | "preview_quotes" | "import_quotes" | "quote_template" => {
            vendor_command(host, &a)
        }
        "catalog_freshness" | "pack_keys" | "add_pack_key" | "remove_pack_key" | "open_pack" | "download_pack"
        | "download_progress" | "cancel_download" | "apply_pack" | "discard_pack" => pack_command(host, &a),
        _ => Err(unknown(command)),
    }
}

fn unknown(command: &str) -> PlannerError {
    let why = if WINDOW_COMMANDS.contains(&command) {
        "needs the window; its answer is the user's"
    } else {
        "is not a command of the app"
    };
    PlannerError::new(ErrorCode::InvalidInput, format!("{command} {why}."))
}

fn catalog_command<H: Host>(host: &H, a: &Args) -> Result<Value, PlannerError> {
    match a.command {
        "get_catalog" => answer(catalog::shipped(host)),
        "workspace_catalog" => answer(catalog::snapshot(host)),
        _ => answer(catalog::update(host)),
    }
}

fn pack_command<H: Host>(host: &H, a: &Args) -> Result<Value, PlannerError> {
    match a.command {
        "catalog_freshness" => answer(packs::freshness(host)),
        "pack_keys" => answer(packs::keys(host)),
        "add_pack_key" => answer(packs::add_key(
            host,
            &a.get::<String>("publicKey")?,
            &a.get::<String>("label")?,
        )),
        "remove_pack_key" => answer(packs::remove_key(host, &a.get::<String>("id")?)),
        "open_pack" => answer(packs::open_file(host, &a.path("path")?)),
        "download_pack" => answer(packs::download(host, &a.get::<String>("url")?)),
        "download_progress" => answer(Ok(packs::download_progress(host))),
        "cancel_download" => answer(Ok(packs::cancel_download(host))),
        "apply_pack" => answer(packs::apply(host)),
        _ => {
            packs::discard(host);
            answer(Ok(()))
        }
    }
}

fn session_command<H: Host>(host: &H, a: &Args) -> Result<Value, PlannerError> {
    match a.command {
        "session" => answer(session::session(host)),
        "create_workspace" => answer(session::create(host, &a.path("path")?, &a.get::<String>("title")?)),
        "open_workspace" => answer(session::open(host, &a.path("path")?)),
        "save_workspace_as" => answer(session::save_as(host, &a.path("path")?)),
        "list_samples" => answer(session::samples(host)),
        "open_sample" => answer(session::open_sample(host, &a.get::<String>("id")?)),
        _ => {
            session::close(host);
            answer(Ok(()))
        }
    }
}

fn scenario_command<H: Host>(host: &H, a: &Args) -> Result<Value, PlannerError> {
    match a.command {
        "get_scenario" => answer(scenarios::get(host, &a.get::<String>("id")?)),
        "apply_edit" => answer(scenarios::apply_edit(host, &a.get("request")?)),
        "undo" => answer(scenarios::undo(host)),
        "redo" => answer(scenarios::redo(host)),
        "scenario_detail" => answer(scenarios::detail(host, &a.get("scenario")?)),
        "exit_costs" => answer(scenarios::exit_costs(host, &a.get("scenario")?)),
        "exit_request" => answer(scenarios::exit_request(host, &a.get("scenario")?, &a.get("request")?)),
        "exit_variant" => answer(scenarios::exit_variant(
            host,
            &a.get("scenario")?,
            &a.get::<String>("layer")?,
            a.get("month")?,
        )),
        "size_workload" => answer(scenarios::size_workload(
            host,
            &a.get("workload")?,
            &a.get::<String>("accelerator")?,
            a.get("gpusPerServer")?,
        )),
        "import_scenarios" => answer(scenarios::import_file(host, &a.path("path")?)),
        _ => {
            let ids: Option<Vec<String>> = a.get("ids")?;
            answer(scenarios::export_file(host, &a.path("path")?, ids.as_deref()))
        }
    }
}

fn compare_command<H: Host>(host: &H, a: &Args) -> Result<Value, PlannerError> {
    match a.command {
        "set_view" => answer(compare::set_view(host, &a.get("view")?)),
        "compare" => answer(compare::screen(host, a.get("theme")?)),
        "lock_baseline" => answer(compare::lock_baseline(host)),
        "unlock_baseline" => answer(compare::unlock_baseline(host)),
        "export_comparison" => answer(compare::export(host, &a.path("path")?, a.get("format")?)),
        _ => answer(compare::export_ledger(
            host,
            &a.path("path")?,
            &a.get::<String>("scenario")?,
        )),
    }
}

fn memo_command<H: Host>(host: &H, a: &Args) -> Result<Value, PlannerError> {
    match a.command {
        "memo_draft" => answer(memo::draft(host)),
        "memo_records" => answer(memo::records(host)),
        "export_memo" => {
            let sign: Option<identities::SignWith> = a.get("sign")?;
            answer(memo::export(host, &a.path("path")?, sign.as_ref()))
        }
        "sign_pdf" => answer(memo::sign_pdf(host, &a.path("path")?, &a.get("sign")?)),
        "verify_pdf" => answer(memo::verify_pdf(&a.path("path")?)),
        "list_identities" => answer(identities::list(host)),
        "create_identity" => {
            let email: Option<String> = a.get("email")?;
            answer(identities::create(
                host,
                &a.get::<String>("name")?,
                &a.get::<String>("organisation")?,
                email.as_deref(),
                &a.get::<String>("passphrase")?,
            ))
        }
        "import_identity" => answer(identities::import(
            host,
            &a.path("path")?,
            &a.get::<String>("passphrase")?,
        )),
        _ => answer(identities::export_certificate(
            host,
            &a.get::<String>("identity")?,
            &a.get::<String>("passphrase")?,
            &a.path("path")?,
        )),
    }
}

fn compliance_command<H: Host>(host: &H, a: &Args) -> Result<Value, PlannerError> {
    match a.command {
        "checklist_statuses" => answer(compliance::statuses(host)),
        "checklist" => answer(compliance::checklist(host, &a.get("subject")?)),
        "answer_checklist_item" => answer(compliance::answer(
            host,
            &a.get("subject")?,
            &a.get("answer")?,
            &a.get::<Vec<String>>("evidence")?,
        )),
        "sign_off_checklist" => {
            let sign: Option<identities::SignWith> = a.get("sign")?;
            answer(compliance::sign_off(
                host,
                &a.get("subject")?,
                &a.get::<String>("reviewer")?,
                &a.get::<String>("note")?,
                sign.as_ref(),
            ))
        }
        "revoke_sign_off" => answer(compliance::revoke(
            host,
            &a.get("subject")?,
            &a.get::<String>("reviewer")?,
            &a.get::<String>("reason")?,
        )),
        "verify_checklist_log" => answer(compliance::verify_log(host)),
        _ => answer(compliance::export_evidence(
            host,
            &a.get::<String>("sha256")?,
            &a.path("path")?,
        )),
    }
}

fn vendor_command<H: Host>(host: &H, a: &Args) -> Result<Value, PlannerError> {
    match a.command {
        "scorecard_draft" => answer(vendors::scorecard_draft(host)),
        "scorecard_view" => answer(vendors::scorecard(host)),
        "preview_quotes" => answer(vendors::preview_quotes(host, &a.path("path")?)),
        "import_quotes" => answer(vendors::import_quotes(
            host,
            &a.path("path")?,
            &a.get::<String>("base")?,
        )),
        _ => answer(vendors::quote_template(host)),
    }
}
