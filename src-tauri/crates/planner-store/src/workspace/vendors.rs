//! The vendor side of a workspace: the scorecard item, its screen, and importing RFP quotes.
//!
//! The scorecard is one row (`scorecard`, `id = 1`) edited through the journal like the memo
//! draft (`Edit::Scorecard`). Importing a quote file adds, in one undo step, one scenario per
//! vendor (a base scenario the buyer picks, with the vendor's quotes as its supply layers) and
//! the vendor on the scorecard with its SLA terms and that scenario as its cost; nothing is
//! written unless every quote becomes a layer. A vendor's compliance is its checklist's share
//! (`checklists.rs`), asked for here by the vendor's name on the scorecard.

use std::collections::BTreeMap;

use planner_core::compliance::checklist::{ChecklistTemplate, Subject};
use planner_core::engine::input::scenario_file::ScenarioSpec;
use planner_core::error::PlannerError;
use planner_core::rfp::quote::Quote;
use planner_core::rfp::summary::{self, ScorecardSummary};
use planner_core::rfp::vendors::{self, ScorecardDraft, ScorecardView};
use rust_decimal::Decimal;

use super::history::{self, Change, Positioned, Table};
use super::{QuotesImported, Workspace};
use planner_core::engine::input::ids::free_id;

/// A scenario id made from a base id and a vendor name: letters, digits and dashes.
fn scenario_id(base: &str, vendor: &str) -> String {
    let mut id = String::new();
    for c in format!("{base} {vendor}").chars() {
        if c.is_ascii_alphanumeric() || c == '_' || c == '.' {
            id.extend(c.to_lowercase());
        } else if !id.ends_with('-') && !id.is_empty() {
            id.push('-');
        }
    }
    let id = id.trim_end_matches('-');
    // Ids are at most 80 characters; room is left for a `-N` suffix.
    id.chars().take(72).collect::<String>().trim_end_matches('-').to_owned()
}

impl Workspace {
    /// The vendor scorecard as entered (equal weights and no vendors until someone edits it).
    pub fn scorecard(&self) -> Result<ScorecardDraft, PlannerError> {
        history::read_scorecard(&self.conn).map_err(|e| self.err(&e))
    }

    /// The compliance axis of each vendor on the scorecard that has a checklist record (an
    /// answer, a sign-off or a withdrawal in the log), by name: the checklist's share passed
    /// when the vendor is cleared, else 0 ([`Workspace::compliance_share`]). A vendor without a
    /// record is left out: it has not been reviewed, and the scorecard says so.
    pub fn vendor_compliance(&self, template: &ChecklistTemplate) -> Result<BTreeMap<String, Decimal>, PlannerError> {
        // Read from the log itself, not from every subject's status: a workspace may hold
        // thousands of scenarios, and only the vendors' records matter here.
        let reviewed: std::collections::BTreeSet<String> =
            self.checklist_log()?.into_iter().map(|e| e.subject).collect();
        let mut out = BTreeMap::new();
        for v in self.scorecard()?.vendors {
            let subject = Subject::Vendor(v.name.clone());
            if reviewed.contains(&subject.key()) {
                let share = self.compliance_share(template, &subject)?;
                out.insert(v.name, share);
            }
        }
        Ok(out)
    }

    /// The scenarios the vendors of `draft` are priced on, each once, in the vendors' order
    /// (a scenario that is gone is left out: the scorecard says so).
    fn vendor_scenarios(&self, draft: &ScorecardDraft) -> Result<Vec<ScenarioSpec>, PlannerError> {
        let mut scenarios: Vec<ScenarioSpec> = Vec::new();
        for v in &draft.vendors {
            if let Some(id) = &v.scenario
                && !scenarios.iter().any(|s| &s.id == id)
                && let Some(p) = history::read_scenario(&self.conn, id).map_err(|e| self.err(&e))?
            {
                scenarios.push(p.item);
            }
        }
        Ok(scenarios)
    }

    fn view_of(
        &self,
        draft: &ScorecardDraft,
        scenarios: &[ScenarioSpec],
        compliance: &BTreeMap<String, Decimal>,
    ) -> Result<ScorecardView, PlannerError> {
        let view = self.view()?;
        Ok(vendors::scorecard_view(
            draft,
            &self.catalog,
            &self.settings,
            &self.workloads,
            scenarios,
            view.horizon_months,
            compliance,
        ))
    }

    /// The scorecard screen: each vendor's cost is its scenario's total over the compare
    /// screen's horizon; `compliance` maps vendor names to the checklist's share (absent: not
    /// reviewed, counted as 0).
    pub fn scorecard_view(&self, compliance: &BTreeMap<String, Decimal>) -> Result<ScorecardView, PlannerError> {
        let draft = self.scorecard()?;
        let scenarios = self.vendor_scenarios(&draft)?;
        self.view_of(&draft, &scenarios, compliance)
    }

    /// The scorecard as the memo and the workbook state it (the screen's view sorted, with each
    /// vendor's commitments and their exit terms); `None` when the scorecard lists no vendor.
    pub fn scorecard_summary(
        &self,
        compliance: &BTreeMap<String, Decimal>,
    ) -> Result<Option<ScorecardSummary>, PlannerError> {
        let draft = self.scorecard()?;
        if draft.vendors.is_empty() {
            return Ok(None);
        }
        let scenarios = self.vendor_scenarios(&draft)?;
        let view = self.view_of(&draft, &scenarios, compliance)?;
        Ok(summary::summary(&draft, &view, &scenarios))
    }

    /// Imports `quotes` (read from `source`) as one undo step: for each vendor, a scenario made
    /// from the scenario `base` with the vendor's quotes as its layers, and the vendor on the
    /// scorecard (added, or updated when it is there by name) with its SLA terms and that
    /// scenario as its cost. Nothing is written when a quote cannot become a layer.
    pub fn import_quotes(
        &mut self,
        quotes: &[Quote],
        base: &str,
        source: &str,
    ) -> Result<QuotesImported, PlannerError> {
        if quotes.is_empty() {
            return Err(PlannerError::invalid(
                "quotes",
                format!("{source} holds no quotes: write one row per quote under the header"),
            ));
        }
        let base_spec = self.scenario(base)?;
        let e = |e: rusqlite::Error| self.err(&e);
        let names = vendors::vendor_names(quotes);
        let first = history::next_position(&self.conn, Table::Scenarios).map_err(e)?;
        let mut exists = self.conn.prepare("SELECT 1 FROM scenarios WHERE id = ?1").map_err(e)?;
        let mut new_ids: Vec<String> = Vec::new();
        let mut changes = Vec::new();
        let before = history::read_scorecard(&self.conn).map_err(e)?;
        let mut after = before.clone();
        for (position, vendor) in (first..).zip(&names) {
            let stem = scenario_id(base, vendor);
            let id = free_id(&stem, |c| {
                new_ids.iter().any(|t| t == c) || exists.exists([c]).unwrap_or(true)
            });
            super::check_id("scenario.id", &id)?;
            let item = vendors::vendor_scenario(&base_spec, &id, vendor, quotes, &self.settings)?;
            new_ids.push(id.clone());
            changes.push(Change::Scenario {
                id: id.clone(),
                before: None,
                after: Some(Positioned { position, item }),
            });
            let at = after.vendors.iter().position(|v| &v.name == vendor);
            let entry = vendors::entry_from_quotes(at.map(|i| &after.vendors[i]), vendor, &id, quotes);
            match at {
                Some(i) => after.vendors[i] = entry,
                None => after.vendors.push(entry),
            }
        }
        drop(exists);
        changes.push(Change::Scorecard { before, after });
        let n = names.len();
        let label = format!(
            "Import quotes {source} ({} quote{}, {n} vendor{})",
            quotes.len(),
            if quotes.len() == 1 { "" } else { "s" },
            if n == 1 { "" } else { "s" }
        );
        let applied = self.commit(&label, None, changes, self.now())?;
        Ok(QuotesImported {
            applied,
            quotes: u32::try_from(quotes.len()).unwrap_or(u32::MAX),
            vendors: names,
            scenarios: new_ids,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::scenario_id;

    #[test]
    fn scenario_ids_are_slugs_of_base_and_vendor() {
        assert_eq!(scenario_id("hybrid", "Nimbus GPU"), "hybrid-nimbus-gpu");
        assert_eq!(scenario_id("base_1", "Ünïcode & Co."), "base_1-n-code-co.");
    }
}
