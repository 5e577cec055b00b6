//! The UI tests' recorded answers are the product's: every recording under `ui/tests/recorded/`
//! is replayed on a fresh test host and each answer must come back as recorded.
//! `UPDATE_FIXTURES=1` rewrites the answers of the calls as recorded (when a call itself
//! changed, record again with `cargo xtask fixtures`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use planner_app::TestHost;
use planner_app::recorded::{Answer, Recording, Request, STORED_ABOVE, first_difference};
use planner_app::router::{WINDOW_COMMANDS, route};
use sha2::{Digest, Sha256};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../..")
        .canonicalize()
        .unwrap()
}

fn recordings(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            // `answers/` is the store of long answers the recordings name, not recordings.
            if entry.file_name() != "answers" {
                recordings(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

fn answer_value(a: &Answer) -> serde_json::Value {
    serde_json::to_value(a).unwrap()
}

/// `answer` as a recording keeps it: a long one gzipped in the answer store `answers`, named by
/// the digest of its JSON.
fn stored(answers: &Path, answer: Answer) -> Answer {
    let text = serde_json::to_string(&answer).unwrap();
    if text.len() <= STORED_ABOVE {
        return answer;
    }
    let digest = Sha256::digest(text.as_bytes());
    let name: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    std::fs::create_dir_all(answers).unwrap();
    let path = answers.join(format!("{name}.json.gz"));
    if !path.exists() {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(text.as_bytes()).unwrap();
        std::fs::write(&path, gz.finish().unwrap()).unwrap();
    }
    Answer::Stored(name)
}

/// The answer itself, read from the answer store `answers` when the recording names it there.
fn resolved(answers: &Path, answer: Answer) -> Result<Answer, String> {
    let Answer::Stored(name) = &answer else {
        return Ok(answer);
    };
    let path = answers.join(format!("{name}.json.gz"));
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut text = String::new();
    flate2::read::GzDecoder::new(bytes.as_slice())
        .read_to_string(&mut text)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The answers the host server gives now to the recording's requests (the user's left out), in
/// a process of its own as when it was recorded (see `planner-host-server`).
fn replay(root: &Path, recording: &Recording) -> Vec<Answer> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_planner-host-server"))
        .arg(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let requests: Vec<String> = recording
        .entries
        .iter()
        .filter(|e| !e.by_user)
        .map(|e| serde_json::to_string(&e.request).unwrap())
        .collect();
    let mut stdin = child.stdin.take().unwrap();
    // Written from a thread while the answers are read, so neither pipe fills up.
    let writer = std::thread::spawn(move || {
        for line in requests {
            writeln!(stdin, "{line}").unwrap();
        }
    });
    let answers: Vec<Answer> = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(|line| serde_json::from_str(&line.unwrap()).unwrap())
        .collect();
    writer.join().unwrap();
    child.wait().unwrap();
    answers
}

#[test]
fn every_recorded_answer_is_what_the_use_cases_answer_now() {
    let root = repo();
    let dir = root.join("ui/tests/recorded");
    let answers = dir.join("answers");
    let mut files = Vec::new();
    recordings(&dir, &mut files);
    let mut referenced = std::collections::BTreeSet::new();
    files.sort();
    // `RECORDED_ONLY=text` replays only the recordings whose path contains `text` (to look into one).
    let only = std::env::var("RECORDED_ONLY").ok();
    if let Some(only) = &only {
        files.retain(|f| f.to_string_lossy().contains(only.as_str()));
    }
    let update = std::env::var_os("UPDATE_FIXTURES").is_some();
    let mut stale = Vec::new();
    let mut calls = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let mut recording: Recording =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: does not read: {e}", file.display()));
        let mut replies = replay(&root, &recording).into_iter();
        for (i, entry) in recording.entries.iter_mut().enumerate() {
            if entry.by_user {
                continue;
            }
            calls += 1;
            let now = replies
                .next()
                .unwrap_or_else(|| panic!("{}: the host server stopped at entry {i}", file.display()));
            let recorded = resolved(&answers, entry.answer.clone())
                .unwrap_or_else(|e| panic!("{}: entry {i}: {e}", file.display()));
            if let Some(diff) = first_difference(&answer_value(&recorded), &answer_value(&now)) {
                let what = match &entry.request {
                    Request::Call { command, .. } => command.clone(),
                    Request::Control(c) => format!("{c:?}"),
                };
                stale.push(format!(
                    "{} entry {i} ({what}): {diff}",
                    file.strip_prefix(&root).unwrap().display()
                ));
                entry.answer = stored(&answers, now);
            }
            referenced.extend(entry.answer.stored_name().map(str::to_owned));
        }
        if update {
            let mut text = serde_json::to_string_pretty(&recording).unwrap();
            text.push('\n');
            std::fs::write(file, text).unwrap();
        }
    }
    assert!(
        !files.is_empty(),
        "no recordings under ui/tests/recorded: run `cargo xtask fixtures`"
    );
    assert!(calls > 0);
    // A stored answer no recording refers to is dead weight in the repository: re-recording
    // removes it, and a replay refuses it.
    if only.is_none() {
        let orphans: Vec<std::path::PathBuf> = std::fs::read_dir(&answers)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .and_then(|n| n.strip_suffix(".json.gz"))
                    .is_some_and(|name| !referenced.contains(name))
            })
            .collect();
        if update {
            for p in &orphans {
                std::fs::remove_file(p).unwrap();
            }
        } else {
            assert!(
                orphans.is_empty(),
                "{} stored answers are referred to by no recording (first: {}); run \
                 `UPDATE_FIXTURES=1 cargo test -p planner-app --test recorded_answers` to remove them",
                orphans.len(),
                orphans[0].display()
            );
        }
    }
    assert!(
        update || stale.is_empty(),
        "{} recorded answers changed:\n{}\nRun `UPDATE_FIXTURES=1 cargo test -p planner-app --test recorded_answers` \
         (or `cargo xtask fixtures` when the UI's calls changed), look at the diff, and commit it.",
        stale.len(),
        stale.iter().take(20).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// The commands the generated bindings invoke, in order.
fn binding_commands() -> Vec<String> {
    let text = std::fs::read_to_string(repo().join("ui/src/lib/ipc/bindings.ts")).unwrap();
    text.split("__TAURI_INVOKE(\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap().to_owned())
        .collect()
}

#[test]
fn the_command_table_knows_every_command_of_the_bindings() {
    let commands = binding_commands();
    assert_eq!(commands.len(), 69, "{commands:?}");
    let dir = tempfile::tempdir().unwrap();
    let host = TestHost::new(&repo().join("catalogs"), Some(dir.path()), 0);
    for command in &commands {
        let answer = route(&host, command, &serde_json::json!({}));
        let unknown = answer
            .as_ref()
            .is_err_and(|e| e.message.contains("is not a command of the app"));
        assert!(!unknown, "{command} is not in planner_app::router");
        if WINDOW_COMMANDS.contains(&command.as_str()) {
            assert!(answer.is_err(), "{command} needs the window");
        }
    }
    let unknown = route(&host, "no_such_command", &serde_json::json!({})).unwrap_err();
    assert_eq!(unknown.message, "no_such_command is not a command of the app.");
    // Arguments are read by their camelCase names, as the bindings send them.
    let refused = route(&host, "size_workload", &serde_json::json!({ "gpus_per_server": 8 })).unwrap_err();
    assert!(refused.message.contains("workload"), "{}", refused.message);
}
