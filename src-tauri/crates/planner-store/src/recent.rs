//! The recent-workspaces list: a small JSON file in the user's configuration folder (the shell
//! passes the folder; tests pass a temporary one). It is only a convenience: a list that cannot
//! be read is treated as empty, never as an error that stops the app.

use std::fs;
use std::path::{Path, PathBuf};

use planner_core::error::{ErrorCode, PlannerError};
use serde::{Deserialize, Serialize};

/// How many workspaces the list keeps.
pub const RECENT_LIMIT: usize = 10;

/// One recently opened workspace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RecentFile {
    pub path: String,
    pub title: String,
    /// When it was last opened, UTC, "YYYY-MM-DD HH:MM".
    pub opened: String,
    /// Whether the file is still there.
    #[serde(default)]
    pub exists: bool,
}

/// The list file inside `config_dir`.
pub fn recent_path(config_dir: &Path) -> PathBuf {
    config_dir.join("recent-workspaces.json")
}

/// The list, newest first, each marked with whether its file still exists.
pub fn read_recent(config_dir: &Path) -> Vec<RecentFile> {
    let list: Vec<RecentFile> = fs::read_to_string(recent_path(config_dir))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    list.into_iter()
        .map(|mut r| {
            r.exists = Path::new(&r.path).is_file();
            r
        })
        .collect()
}

/// Puts `path` first in the list (written atomically: a temporary file renamed over it).
pub fn note_recent(config_dir: &Path, path: &Path, title: &str, opened: &str) -> Result<Vec<RecentFile>, PlannerError> {
    let shown = path.display().to_string();
    let mut list = read_recent(config_dir);
    list.retain(|r| r.path != shown);
    list.insert(
        0,
        RecentFile {
            path: shown,
            title: title.to_owned(),
            opened: opened.to_owned(),
            exists: true,
        },
    );
    list.truncate(RECENT_LIMIT);
    let io = |e: std::io::Error| {
        PlannerError::new(
            ErrorCode::Io,
            format!("{}: cannot save the recent-workspaces list: {e}", config_dir.display()),
        )
    };
    fs::create_dir_all(config_dir).map_err(io)?;
    let text = serde_json::to_string_pretty(&list).unwrap_or_default();
    let target = recent_path(config_dir);
    let temp = target.with_extension("json.tmp");
    fs::write(&temp, text).map_err(io)?;
    fs::rename(&temp, &target).map_err(io)?;
    Ok(list)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newest_first_without_duplicates_and_capped() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..12 {
            note_recent(
                dir.path(),
                Path::new(&format!("/w/{i}.cpw")),
                &format!("W{i}"),
                "2026-11-21 10:00",
            )
            .unwrap();
        }
        note_recent(dir.path(), Path::new("/w/5.cpw"), "W5", "2026-11-21 11:00").unwrap();
        let list = read_recent(dir.path());
        assert_eq!(list.len(), RECENT_LIMIT);
        assert_eq!(list[0].path, "/w/5.cpw");
        assert_eq!(list[1].path, "/w/11.cpw");
        assert_eq!(list.iter().filter(|r| r.path == "/w/5.cpw").count(), 1);
        assert!(!list[0].exists, "no such file on disk");
    }

    #[test]
    fn an_unreadable_list_is_empty() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(recent_path(dir.path()), "{not json").unwrap();
        assert!(read_recent(dir.path()).is_empty());
    }
}
