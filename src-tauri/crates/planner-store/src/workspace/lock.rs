//! The locked baseline (issue #17): in a workshop, the compared set is locked so that nobody
//! changes it by accident. While the lock exists, every change that would move a locked
//! scenario's figures is refused here, before anything is written: editing, renaming or deleting
//! a locked scenario, any workload or settings edit, a catalog update or pack, the undo or redo
//! of a step that does one of those, and a compare view that drops a locked scenario or another
//! baseline. New scenarios, other scenarios, the memo draft, the scorecard and the checklists
//! stay free. Locking and unlocking are not undo steps (like the view).

use planner_core::engine::input::scenario_file::ScenarioSpec;
use planner_core::engine::workspace::content::{BaselineLock, ViewState};
use planner_core::error::{ErrorCode, PlannerError};
use rusqlite::{OptionalExtension, TransactionBehavior, params};

use super::history::{Change, Positioned};
use super::{Workspace, bad_body, db_error};

/// How to lift the lock, as every refusal says it.
const UNLOCK: &str = "unlock it on the Compare tab (Unlock baseline)";

const CATALOG_FEEDS: &str = "The catalog snapshot feeds";
const CATALOG_TO_DO: &str = "apply a catalog pack or update the catalog";

/// What a refused change was: an edit, or the undo or redo of the journal step so labelled.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Attempt<'a> {
    Edit,
    Undo(&'a str),
    Redo(&'a str),
}

impl Attempt<'_> {
    /// The end of a refusal: what unlocking would let the user do.
    fn to_do(self, edit: &str) -> String {
        match self {
            Attempt::Edit => edit.to_owned(),
            Attempt::Undo(label) => format!("undo “{label}”"),
            Attempt::Redo(label) => format!("redo “{label}”"),
        }
    }
}

fn locked(message: String) -> PlannerError {
    PlannerError::new(ErrorCode::Locked, format!("{message} Nothing was changed."))
}

/// The name of a scenario on the side of a change that exists (`id` when neither does).
fn name_of(id: &str, before: Option<&Positioned<ScenarioSpec>>, after: Option<&Positioned<ScenarioSpec>>) -> String {
    before.or(after).map_or_else(|| id.to_owned(), |p| p.item.name.clone())
}

impl Workspace {
    /// The locked baseline; `None` when nothing is locked.
    pub fn lock(&self) -> Result<Option<BaselineLock>, PlannerError> {
        let body: Option<String> = self
            .conn
            .query_row("SELECT body FROM baseline_lock WHERE id = 1", [], |r| r.get(0))
            .optional()
            .map_err(|e| self.err(&e))?;
        body.map(|b| serde_json::from_str(&b).map_err(|e| bad_body(&self.path, "the baseline lock", &e)))
            .transpose()
    }

    /// Locks `lock` and pins its baseline in the compare view, in one transaction (not an undo
    /// step). The caller checks that the set may be locked (`planner_app::compare`).
    pub fn set_lock(&mut self, lock: &BaselineLock) -> Result<(), PlannerError> {
        self.check_writable("lock its baseline")?;
        let mut view = self.view()?;
        view.baseline = Some(lock.baseline.clone());
        let lock_body = serde_json::to_string(lock).map_err(|e| bad_body(&self.path, "the baseline lock", &e))?;
        let view_body = serde_json::to_string(&view).map_err(|e| bad_body(&self.path, "the view", &e))?;
        let path = self.path.clone();
        let e = |e: rusqlite::Error| db_error(&path, &e);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(e)?;
        tx.execute(
            "INSERT INTO baseline_lock (id, body) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET body = excluded.body",
            params![lock_body],
        )
        .map_err(e)?;
        tx.execute(
            "INSERT INTO view_state (id, body) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET body = excluded.body",
            params![view_body],
        )
        .map_err(e)?;
        tx.commit().map_err(e)
    }

    /// Lifts the lock (not an undo step); `false` when nothing was locked. The view keeps its
    /// pinned baseline.
    pub fn clear_lock(&mut self) -> Result<bool, PlannerError> {
        self.check_writable("unlock its baseline")?;
        let removed = self
            .conn
            .execute("DELETE FROM baseline_lock", [])
            .map_err(|e| self.err(&e))?;
        Ok(removed > 0)
    }

    /// `view` as the lock keeps it: every locked scenario compared (put first if it was
    /// missing) and the locked baseline pinned.
    pub(crate) fn locked_view(&self, mut view: ViewState) -> Result<ViewState, PlannerError> {
        if let Some(lock) = self.lock()? {
            let missing: Vec<String> = lock
                .scenarios
                .iter()
                .filter(|id| !view.selected.contains(id))
                .cloned()
                .collect();
            view.selected.splice(0..0, missing);
            view.baseline = Some(lock.baseline);
        }
        Ok(view)
    }

    /// The locked scenarios by name, quoted and joined: `“A”, “B”`.
    fn locked_names(&self, lock: &BaselineLock) -> String {
        lock.scenarios
            .iter()
            .map(|id| format!("“{}”", self.scenario(id).map_or_else(|_| id.clone(), |s| s.name)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The refusal of a change to `what` ("The workloads feed"), which feeds every figure.
    fn feeds(&self, lock: &BaselineLock, what: &str, to_do: &str) -> PlannerError {
        locked(format!(
            "{what} the figures of the locked baseline (locked {}: {}): {UNLOCK} to {to_do}.",
            lock.locked_when(),
            self.locked_names(lock),
        ))
    }

    /// Refuses a catalog pack while the baseline is locked (what a pack's preview says too).
    pub(crate) fn check_catalog_lock(&self) -> Result<(), PlannerError> {
        match self.lock()? {
            Some(lock) => Err(self.feeds(&lock, CATALOG_FEEDS, CATALOG_TO_DO)),
            None => Ok(()),
        }
    }

    /// Refuses `changes` when one would move a figure of the locked baseline.
    pub(crate) fn check_lock(&self, changes: &[Change], attempt: Attempt<'_>) -> Result<(), PlannerError> {
        let Some(lock) = self.lock()? else { return Ok(()) };
        let when = lock.locked_when();
        for c in changes {
            let feeds = |what: &str, edit: &str| self.feeds(&lock, what, &attempt.to_do(edit));
            match c {
                Change::Settings { .. } => return Err(feeds("The workspace settings feed", "change them")),
                Change::Workload { .. } => return Err(feeds("The workloads feed", "change a workload")),
                Change::Catalog { .. } => return Err(feeds(CATALOG_FEEDS, CATALOG_TO_DO)),
                Change::Scenario { id, before, after } if lock.scenarios.contains(id) => {
                    let name = name_of(id, before.as_ref(), after.as_ref());
                    let renamed = matches!((before, after), (Some(b), Some(a)) if b.item.name != a.item.name);
                    let (verb, copy) = match (after, attempt) {
                        (None, Attempt::Edit) => ("delete it", ""),
                        (Some(_), Attempt::Edit) if renamed => ("rename it", ", or duplicate it and edit the copy"),
                        (_, Attempt::Edit) => ("edit it", ", or duplicate it and edit the copy"),
                        _ => ("", ""),
                    };
                    return Err(locked(format!(
                        "“{name}” is in the locked baseline (locked {when}): {UNLOCK} to {}{copy}.",
                        attempt.to_do(verb)
                    )));
                }
                Change::Scenario { .. } | Change::Memo { .. } | Change::Scorecard { .. } => {}
            }
        }
        Ok(())
    }

    /// Refuses a compare view that drops a locked scenario or takes another baseline (it may
    /// add scenarios and change the horizon).
    pub(crate) fn check_view_lock(&self, view: &ViewState) -> Result<(), PlannerError> {
        let Some(lock) = self.lock()? else { return Ok(()) };
        let when = lock.locked_when();
        let name = |id: &str| self.scenario(id).map_or_else(|_| id.to_owned(), |s| s.name);
        if let Some(id) = lock.scenarios.iter().find(|id| !view.selected.contains(id)) {
            return Err(locked(format!(
                "“{}” is in the locked baseline (locked {when}): it stays compared until you {UNLOCK}. You may add other scenarios and change the horizon.",
                name(id)
            )));
        }
        if view.baseline.as_deref() != Some(lock.baseline.as_str()) {
            return Err(locked(format!(
                "The baseline “{}” is locked (locked {when}): {UNLOCK} to take the differences against another scenario.",
                name(&lock.baseline)
            )));
        }
        Ok(())
    }
}
