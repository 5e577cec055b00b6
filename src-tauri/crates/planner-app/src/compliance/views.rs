//! What the compliance screens show of a checklist record: every item that applies with its
//! answers and the plan's hints, the clearance, and each subject's status in words.

use std::collections::BTreeMap;

use planner_core::compliance::checklist::{
    self, Answer, Checklist, ChecklistTemplate, Clearance, EnergyUse, Hint, ItemStatus, SignOff, Subject,
};
use planner_core::engine::costing::evaluate::evaluate;
use planner_core::engine::resolve::validate::validate;
use planner_core::engine::workspace::content::to_scenario_file;
use planner_core::error::PlannerError;
use planner_store::Workspace;
use planner_store::workspace::LogProblem;
use serde::Serialize;

/// One item of a subject's checklist as a screen shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ItemView {
    pub id: String,
    pub family: String,
    pub title: String,
    pub guidance: String,
    pub blocking: bool,
    /// "title (date)" of each source.
    pub sources: Vec<String>,
    /// The answer in force (the last given), if any.
    pub answer: Option<Answer>,
    /// Every earlier answer on this item, oldest first.
    pub history: Vec<Answer>,
    /// What the plan's data flags on this item.
    pub hints: Vec<Hint>,
}

/// A family of items, with what the template says it does not cover.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct FamilyView {
    pub id: String,
    pub title: String,
    pub gap: Option<String>,
}

/// A subject's checklist, with its clearance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ChecklistView {
    pub subject: Subject,
    /// The scenario's name or the vendor's, for headings.
    pub name: String,
    pub template_title: String,
    pub template_version: String,
    pub families: Vec<FamilyView>,
    pub items: Vec<ItemView>,
    pub signoff: Option<SignOff>,
    /// A sign-off that an answer changed after it no longer covers.
    pub signoff_void: bool,
    pub clearance: Clearance,
    /// Why hints could not be derived (the scenario does not evaluate), if so.
    pub hints_note: Option<String>,
    /// The log is broken: nothing in it can be trusted and nothing is cleared.
    pub log_problem: Option<LogProblem>,
}

/// A subject's clearance, for the badges shown wherever the subject appears.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SubjectStatus {
    pub subject: Subject,
    pub cleared: bool,
    /// Applicable items with an answer in force other than open.
    pub answered: u32,
    /// Items that apply to the subject's kind.
    pub applicable: u32,
    pub blocking_open: u32,
    pub blocking_failed: u32,
    pub signed_off: bool,
    /// Who signed, and when, if the sign-off is in force.
    pub signed_by: Option<String>,
    pub signed_at: Option<String>,
    /// The status in words, as the badge's tooltip and the memo state it: who signed off and
    /// when, or what keeps the subject from being cleared.
    pub summary: String,
}

fn not_cleared(c: &Clearance) -> Clearance {
    Clearance {
        cleared: false,
        ..c.clone()
    }
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A checklist's status; `trusted`: the log verified.
pub fn status_of(template: &ChecklistTemplate, list: &Checklist, trusted: bool) -> SubjectStatus {
    let kind = list.subject.kind();
    let c = list.clearance(template);
    let in_force = checklist::answers_in_force(&list.answers);
    let applicable: Vec<&str> = template.items_for(kind).map(|i| i.id.as_str()).collect();
    let answered = applicable
        .iter()
        .filter(|id| in_force.get(*id).is_some_and(|a| a.status != ItemStatus::Open))
        .count();
    let signoff = list.signoff.as_ref().filter(|_| c.signed_off);
    let counted = format!("{answered} of {} items answered", applicable.len());
    let summary = match signoff {
        Some(so) if c.cleared && trusted => format!("signed off by {} at {}; {counted}", so.reviewer, so.at),
        _ => {
            let mut why = Vec::new();
            if !c.blocking_failed.is_empty() {
                why.push(format!("{} blocking item(s) failed", c.blocking_failed.len()));
            }
            if !c.blocking_open.is_empty() {
                why.push(format!("{} blocking item(s) open", c.blocking_open.len()));
            }
            if !c.signed_off {
                why.push("no sign-off covering the answers".to_owned());
            }
            if !trusted {
                why.push("the checklist log is broken".to_owned());
            }
            format!("{}; {counted}", why.join(", "))
        }
    };
    SubjectStatus {
        summary,
        subject: list.subject.clone(),
        cleared: c.cleared && trusted,
        answered: count(answered),
        applicable: count(applicable.len()),
        blocking_open: count(c.blocking_open.len()),
        blocking_failed: count(c.blocking_failed.len()),
        signed_off: c.signed_off,
        signed_by: signoff.map(|s| s.reviewer.clone()),
        signed_at: signoff.map(|s| s.at.clone()),
    }
}

/// What the plan's data flags on the items of a scenario's checklist, or why it cannot say
/// (the scenario does not evaluate). The scenario is evaluated over the workspace's horizon for
/// the energy hint's figures (its totals, as the compare screen shows them). Vendors have no plan
/// data.
fn hints(
    ws: &Workspace,
    template: &ChecklistTemplate,
    subject: &Subject,
) -> Result<(Vec<Hint>, Option<String>), PlannerError> {
    let Subject::Scenario(id) = subject else {
        return Ok((Vec::new(), None));
    };
    let spec = ws.scenario(id)?;
    let file = to_scenario_file(ws.settings(), ws.workloads(), std::slice::from_ref(&spec));
    Ok(match validate(ws.catalog(), &file, None) {
        Ok(plan) => match plan.scenarios.first() {
            Some(s) => {
                let evaluation = evaluate(&plan);
                let energy = evaluation.scenarios.first().map(|r| EnergyUse::of(&r.totals));
                (checklist::hints(template, &plan.workloads, s, energy.as_ref()), None)
            }
            None => (Vec::new(), None),
        },
        Err(problems) => (
            Vec::new(),
            Some(format!(
                "The scenario has {} problem(s), so the plan's data gives no hints; fix it in the scenario editor.",
                problems.len()
            )),
        ),
    })
}

/// Every item of the template that applies to the subject, with its answers and hints.
fn items(template: &ChecklistTemplate, list: &Checklist, hints: &[Hint]) -> Vec<ItemView> {
    let mut by_item: BTreeMap<&str, Vec<&Answer>> = BTreeMap::new();
    for a in &list.answers {
        by_item.entry(a.item.as_str()).or_default().push(a);
    }
    template
        .items_for(list.subject.kind())
        .map(|t| {
            let mut answers: Vec<Answer> = by_item
                .get(t.id.as_str())
                .map(|v| v.iter().map(|a| (*a).clone()).collect())
                .unwrap_or_default();
            let answer = answers.pop();
            ItemView {
                id: t.id.clone(),
                family: t.family.clone(),
                title: t.title.clone(),
                guidance: t.guidance.clone(),
                blocking: t.blocking,
                sources: t
                    .provenance
                    .sources
                    .iter()
                    .map(|s| format!("{} ({})", s.title, s.as_of))
                    .collect(),
                answer,
                history: answers,
                hints: hints.iter().filter(|h| h.item == t.id).cloned().collect(),
            }
        })
        .collect()
}

/// The checklist of `subject` with every item of the template that applies, its answers, the
/// plan's hints and the clearance.
pub fn checklist_view(
    ws: &Workspace,
    template: &ChecklistTemplate,
    subject: &Subject,
) -> Result<ChecklistView, PlannerError> {
    let record = ws.checklist_record(subject)?;
    let list = record.list;
    let (hints, hints_note) = hints(ws, template, subject)?;
    let clearance = list.clearance(template);
    let trusted = record.log_problem.is_none();
    Ok(ChecklistView {
        name: ws.subject_name(subject)?,
        subject: subject.clone(),
        template_title: template.title.clone(),
        template_version: template.version.clone(),
        families: template
            .families
            .iter()
            .map(|f| FamilyView {
                id: f.id.clone(),
                title: f.title.clone(),
                gap: f.gap.clone(),
            })
            .collect(),
        items: items(template, &list, &hints),
        signoff_void: list.signoff.is_some() && !clearance.signed_off,
        signoff: list.signoff.clone(),
        clearance: if trusted { clearance } else { not_cleared(&clearance) },
        hints_note,
        log_problem: record.log_problem,
    })
}

/// The status of every scenario (in list order) and of every vendor with a record (by name).
/// A broken log clears nothing.
pub fn statuses(ws: &Workspace, template: &ChecklistTemplate) -> Result<Vec<SubjectStatus>, PlannerError> {
    let (lists, problem) = ws.checklist_records()?;
    let trusted = problem.is_none();
    Ok(lists.iter().map(|l| status_of(template, l, trusted)).collect())
}
