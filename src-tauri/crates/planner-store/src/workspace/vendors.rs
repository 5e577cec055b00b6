//! The vendor side of a workspace: the scorecard item and importing RFP quotes (the scorecard's
//! screen, which prices each vendor, is the application layer's).
//!
//! The scorecard is one row (`scorecard`, `id = 1`) edited through the journal like the memo
//! draft (`Edit::Scorecard`). Importing a quote file adds, in one undo step, one scenario per
//! vendor (a base scenario the buyer picks, with the vendor's quotes as its supply layers) and
//! the vendor on the scorecard with its SLA terms and that scenario as its cost; nothing is
//! written unless every quote becomes a layer.

use planner_core::error::PlannerError;
use planner_core::rfp::quote::Quote;
use planner_core::rfp::vendors::{self, ScorecardDraft};

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

    /// Imports `quotes` (read from `source`) as one undo step: for each vendor, a scenario made
    /// from the scenario `base` with the vendor's quotes as its layers, and the vendor on the
    /// scorecard (added, or updated when it is there by name) with its SLA terms and that
    /// scenario as its cost. Nothing is written when a quote cannot become a layer. Stamped `at_ms`.
    pub fn import_quotes(
        &mut self,
        quotes: &[Quote],
        base: &str,
        source: &str,
        at_ms: i64,
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
            planner_core::engine::input::ids::check_id("scenario.id", &id)?;
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
        let applied = self.commit(&label, None, changes, at_ms)?;
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
