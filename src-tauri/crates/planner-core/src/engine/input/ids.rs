//! Ids for what the editor adds (scenarios, layers): slugs of their names, unique in their list.
//! The scenario file accepts letters, digits, `-`, `_` and `.`, 1 to 80 characters.

use unicode_normalization::UnicodeNormalization;

/// The longest id made here.
const MAX_SLUG: usize = 60;

/// "Buy 8 × NVIDIA H100 (SXM5)" → "buy-8-nvidia-h100-sxm5": accents dropped, lower case, every
/// run of other characters one dash, at most 60 characters; "" when nothing usable is left.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.nfkd().filter(|c| !('\u{300}'..='\u{36f}').contains(c)) {
        for c in c.to_lowercase() {
            if c.is_ascii_lowercase() || c.is_ascii_digit() {
                out.push(c);
            } else if !out.is_empty() && !out.ends_with('-') {
                out.push('-');
            }
        }
    }
    let mut out: String = out.trim_end_matches('-').chars().take(MAX_SLUG).collect();
    while out.ends_with('-') {
        out.pop();
    }
    out
}

/// A slug of `name` not in `taken`: the slug itself, else with "-2", "-3", ... appended;
/// `fallback` stands in for a name without letters or digits.
pub fn unique_id(name: &str, taken: &[String], fallback: &str) -> String {
    let base = match slug(name) {
        s if s.is_empty() => fallback.to_owned(),
        s => s,
    };
    let free = |id: &str| !taken.iter().any(|t| t == id);
    if free(&base) {
        return base;
    }
    (2u64..)
        .map(|n| format!("{base}-{n}"))
        .find(|c| free(c))
        .unwrap_or(base)
}

/// The longest id a file may carry.
pub const MAX_ID: usize = 80;

/// Why `id` cannot name an item in a file or an error path, or `None` when it can: letters,
/// digits, `-`, `_` and `.`, 1 to [`MAX_ID`] of them.
pub fn id_problem(id: &str) -> Option<String> {
    if id.is_empty() || id.len() > MAX_ID {
        return Some(format!("an id needs 1 to {MAX_ID} characters"));
    }
    id.chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
        .map(|c| format!("`{c}` cannot be part of an id; use letters, digits, `-`, `_` or `.`"))
}

/// [`id_problem`] as an error naming `field`, for a store or a use case that refuses the id.
pub fn check_id(field: &str, id: &str) -> Result<(), crate::error::PlannerError> {
    match id_problem(id) {
        Some(message) => Err(crate::error::PlannerError::invalid(field, message)),
        None => Ok(()),
    }
}

/// `id` itself when it is not taken, else `id-2`, `id-3`, ... whichever is free first.
pub fn free_id(id: &str, mut taken: impl FnMut(&str) -> bool) -> String {
    if !taken(id) {
        return id.to_owned();
    }
    (2u32..)
        .map(|n| format!("{id}-{n}"))
        .find(|c| !taken(c))
        .unwrap_or_else(|| id.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_drop_accents_and_runs_of_other_characters() {
        assert_eq!(slug("Buy 8 × NVIDIA H100 (SXM5)"), "buy-8-nvidia-h100-sxm5");
        assert_eq!(slug("  Entraînement été  "), "entrainement-ete");
        assert_eq!(slug("Équipe données — été"), "equipe-donnees-ete");
        assert_eq!(slug("   "), "");
        assert_eq!(slug(&"x".repeat(100)).len(), 60);
        assert_eq!(slug("×××"), "");
        assert_eq!(slug(&"a-".repeat(40)).len(), 59);
        let taken = vec!["x".to_owned(), "x-2".to_owned()];
        assert_eq!(unique_id("X", &taken, "scenario"), "x-3");
        let batch = vec!["batch-inference".to_owned()];
        assert_eq!(unique_id("Batch inference", &batch, "workload"), "batch-inference-2");
        assert_eq!(unique_id("!!", &[], "scenario"), "scenario");
    }

    #[test]
    fn ids_are_letters_digits_and_three_marks_up_to_eighty() {
        assert_eq!(id_problem("buy-h100_v1.2"), None);
        assert_eq!(id_problem(""), Some("an id needs 1 to 80 characters".to_owned()));
        assert_eq!(id_problem(&"x".repeat(80)), None);
        assert!(id_problem(&"x".repeat(81)).is_some());
        assert_eq!(
            id_problem("a b"),
            Some("` ` cannot be part of an id; use letters, digits, `-`, `_` or `.`".to_owned())
        );
        let taken = ["q", "q-2"];
        assert_eq!(free_id("q", |c| taken.contains(&c)), "q-3");
        assert_eq!(free_id("r", |c| taken.contains(&c)), "r");
    }
}
