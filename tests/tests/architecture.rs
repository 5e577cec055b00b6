//! Architecture invariants, checked on the source tree (issue #15, "no import cycles"):
//!
//! - the workspace's packages depend on one another in one stated, one-way order
//!   ([`LAYERS`]), as `cargo metadata` reports their path dependencies;
//! - inside every crate under `src-tauri` (and the app crate itself), at every level of folders,
//!   no module imports one that imports it back: the graph of `crate::a::b` / `crate::{..}` /
//!   `super::x` references between the children of each module has no cycle;
//! - the planning engine's rooms (`planner-core/src/engine/<room>/`) import only the rooms a
//!   table here allows ([`ENGINE_ROOMS`]), the same table each room's `mod.rs` states;
//! - the command line reaches the store, signing, publishing and charts only through the
//!   application layer ([`FRONT_END_REACHES`]);
//! - the store is a repository: it reads no clock and computes no figure ([`STORE_MAY_NOT`]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace's packages from the bottom up. A package may depend only on packages in a layer
/// below its own (never on one in its layer or above), so the order is one-way and a change at the
/// bottom is the only kind that reaches everything. Dev-dependencies follow the same rule.
const LAYERS: &[&[&str]] = &[
    // The domain: no IO, no clock, no Tauri; depends on no other package.
    &["planner-core"],
    // Signatures (PDF and detached CMS): pure, and needs nothing of the domain. The catalog pack
    // download (the only network access): needs nothing of the domain either.
    &["planner-sign", "planner-fetch"],
    // Building blocks on the domain: figures and charts; the workspace file, which verifies
    // signed sign-offs with planner-sign.
    &["planner-report", "planner-store"],
    // The memo PDF uses the report's figures and charts.
    &["planner-memo"],
    // Publishing: the IO around memo and signature, recorded in the workspace.
    &["planner-publish"],
    // The application layer: every use case over a Host; no Tauri.
    &["planner-app"],
    // The two front ends.
    &["planner-cli", "compute-planner"],
    // Tests and build tooling on top.
    &["planner-tests", "xtask"],
];

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn layer_of(name: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&name))
}

#[test]
fn packages_depend_only_on_packages_below_them() {
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(workspace_root())
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON");
    let packages = meta["packages"].as_array().expect("packages");
    let names: BTreeSet<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    let mut wrong = Vec::new();
    for p in packages {
        let name = p["name"].as_str().expect("package name");
        let Some(own) = layer_of(name) else {
            wrong.push(format!(
                "{name} is in no layer of LAYERS; add it where its dependencies put it"
            ));
            continue;
        };
        for d in p["dependencies"].as_array().expect("dependencies") {
            let dep = d["name"].as_str().expect("dependency name");
            if d["path"].is_null() || !names.contains(dep) {
                continue;
            }
            match layer_of(dep) {
                Some(l) if l < own => {}
                _ => wrong.push(format!(
                    "{name} (layer {own}) depends on {dep} (layer {}): a package may depend only on packages below it",
                    layer_of(dep).map_or("none".to_owned(), |l| l.to_string())
                )),
            }
        }
    }
    assert!(wrong.is_empty(), "package order broken:\n{}", wrong.join("\n"));
}

/// The workspace packages the command line may depend on (its own code, not its tests): the
/// application layer and the domain. The store, signing, publishing and charts are reached
/// through the use cases, so the CLI and the window run the same code (issue #43).
const FRONT_END_REACHES: &[&str] = &["planner-app", "planner-core"];

/// The workspace packages among `deps` (name, kind as `cargo metadata` gives it: `None` for a
/// normal dependency) that a front end may not depend on.
fn front_end_breaches<'a>(deps: &[(&'a str, Option<&str>)], workspace: &BTreeSet<&str>) -> Vec<&'a str> {
    deps.iter()
        .filter(|(name, kind)| kind.is_none() && workspace.contains(name) && !FRONT_END_REACHES.contains(name))
        .map(|(name, _)| *name)
        .collect()
}

#[test]
fn the_command_line_depends_on_the_application_layer_and_the_core_alone() {
    let packages = packages();
    let workspace: BTreeSet<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    let cli = packages
        .iter()
        .find(|p| p["name"] == "planner-cli")
        .expect("planner-cli");
    let deps: Vec<(&str, Option<&str>)> = cli["dependencies"]
        .as_array()
        .expect("dependencies")
        .iter()
        .map(|d| (d["name"].as_str().expect("name"), d["kind"].as_str()))
        .collect();
    assert!(
        deps.iter().any(|(n, k)| *n == "planner-app" && k.is_none()),
        "the scan read the CLI's dependencies: {deps:?}"
    );
    let wrong = front_end_breaches(&deps, &workspace);
    assert!(
        wrong.is_empty(),
        "planner-cli depends on {wrong:?}: it may reach only {FRONT_END_REACHES:?}; add the use case to planner-app instead"
    );
}

#[test]
fn the_front_end_check_sees_a_breach_and_lets_tests_use_anything() {
    let workspace: BTreeSet<&str> = ["planner-app", "planner-core", "planner-store", "planner-sign"].into();
    let deps = [
        ("planner-app", None),
        ("planner-core", None),
        ("planner-store", None),
        ("planner-sign", Some("dev")),
        ("serde", None),
    ];
    assert_eq!(front_end_breaches(&deps, &workspace), ["planner-store"]);
}

/// What the store's code may not name: the clock (the host's clock reaches it as an argument)
/// and the engine's computations (the use cases that evaluate live in `planner-app`).
const STORE_MAY_NOT: &[(&str, &str)] = &[
    ("SystemTime", "reads the clock"),
    ("Instant::now", "reads the clock"),
    ("UNIX_EPOCH", "reads the clock"),
    ("engine::costing", "evaluates scenarios"),
    ("engine::decide", "compares scenarios"),
    ("engine::risk", "runs risk analyses"),
    ("engine::exit", "prices exits"),
    ("engine::editing", "edits plans"),
    ("compare_selection", "compares scenarios"),
    ("scenario_detail", "evaluates scenarios"),
    ("scorecard_view", "prices the scorecard"),
    ("evaluate(", "evaluates scenarios"),
];

/// Where `text` (a store source file, comments dropped) breaks [`STORE_MAY_NOT`].
fn store_breaches(text: &str) -> Vec<(&'static str, &'static str)> {
    tokens_in(text, STORE_MAY_NOT)
}

/// The entries of `table` (token, what it means) whose token `text` holds outside comments.
fn tokens_in(text: &str, table: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static str)> {
    let code: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    table
        .iter()
        .copied()
        .filter(|(token, _)| code.contains(token))
        .collect()
}

/// Every hit of `breaches` in the sources of the crate `name` (without their unit tests), as
/// "file: `token` what it means"; the scan must read more than `at_least` files.
fn scan_crate(name: &str, at_least: usize, breaches: fn(&str) -> Vec<(&'static str, &'static str)>) -> Vec<String> {
    let src = workspace_root().join("src-tauri/crates").join(name).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(
        files.len() > at_least,
        "the scan found {name}'s sources ({} files)",
        files.len()
    );
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a Rust source file");
        for (token, what) in breaches(without_tests(&text)) {
            found.push(format!("{}: `{token}` ({what})", f.display()));
        }
    }
    found
}

#[test]
fn the_store_reads_no_clock_and_computes_no_figure() {
    let found = scan_crate("planner-store", 10, store_breaches);
    assert!(
        found.is_empty(),
        "the store keeps and reads the workspace; the host's clock comes as an argument and the use cases live in planner-app:\n{}",
        found.join("\n")
    );
}

/// Where the wall clock may be read: the desktop host's `now_ms` and nowhere else, so every
/// time a use case stamps comes from the [`Host`] (a test host's clock stands still).
const CLOCK_READERS: &[&str] = &["src-tauri/crates/planner-app/src/host.rs"];

/// The files under `dirs` (relative to the workspace root, tests and benches left out) that read
/// the wall clock, other than [`CLOCK_READERS`].
fn clock_readers(root: &Path, dirs: &[&str]) -> Vec<String> {
    let mut files = Vec::new();
    for d in dirs {
        rust_files(&root.join(d), &mut files);
    }
    files
        .iter()
        .filter(|f| {
            let rel = f.strip_prefix(root).unwrap_or(f).to_string_lossy().replace('\\', "/");
            !CLOCK_READERS.contains(&rel.as_str()) && !rel.contains("/tests/") && !rel.contains("/benches/")
        })
        .filter(|f| {
            let text = std::fs::read_to_string(f).expect("a Rust source file");
            let code = without_tests(&text);
            code.lines()
                .map(|l| l.split("//").next().unwrap_or(""))
                .any(|l| l.contains("SystemTime") || l.contains("UNIX_EPOCH"))
        })
        .map(|f| f.display().to_string())
        .collect()
}

#[test]
fn only_the_host_reads_the_clock() {
    let root = workspace_root();
    let found = clock_readers(&root, &["src-tauri/crates", "src-tauri/src"]);
    assert!(
        found.is_empty(),
        "these read the wall clock; take the time from the Host (`host.now_ms()`) instead:\n{}",
        found.join("\n")
    );
    // The scan sees the one reader it allows.
    let host = std::fs::read_to_string(root.join(CLOCK_READERS[0])).expect("host.rs");
    assert!(host.contains("SystemTime::now()"), "the desktop host reads the clock");
}

#[test]
fn the_clock_scan_sees_a_reader() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let src = dir.path().join("crate/src");
    std::fs::create_dir_all(&src).expect("a folder");
    std::fs::write(src.join("stamp.rs"), "pub fn now() -> u64 { std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs()) }\n").expect("a file");
    std::fs::write(src.join("quiet.rs"), "// SystemTime is the host's\npub fn f() {}\n").expect("a file");
    let found = clock_readers(dir.path(), &["crate"]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].ends_with("stamp.rs"), "{found:?}");
}

#[test]
fn the_store_check_sees_a_clock_and_a_comparison() {
    let clock = "pub fn now() -> i64 { std::time::SystemTime::now().elapsed().map_or(0, |d| d.as_millis() as i64) }";
    assert_eq!(store_breaches(clock), [("SystemTime", "reads the clock")]);
    let compare = "use planner_core::engine::workspace::content::compare_selection;\nfn f() { compare_selection(a, b, c, d, e); }";
    assert_eq!(store_breaches(compare), [("compare_selection", "compares scenarios")]);
    assert!(store_breaches("// SystemTime is the host's\nfn f() {}").is_empty());
}

/// The workspace's packages as `cargo metadata --no-deps` lists them.
fn packages() -> Vec<serde_json::Value> {
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(workspace_root())
        .output()
        .expect("cargo metadata runs");
    assert!(out.status.success(), "cargo metadata failed");
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON");
    meta["packages"].as_array().expect("packages").clone()
}

/// Architecture invariant: only the desktop shell (`compute-planner`) depends on Tauri; the use
/// cases in `planner-app` and everything below them run without a window.
#[test]
fn only_the_shell_depends_on_tauri() {
    let mut wrong = Vec::new();
    for p in packages() {
        let name = p["name"].as_str().expect("package name").to_owned();
        for d in p["dependencies"].as_array().expect("dependencies") {
            let dep = d["name"].as_str().expect("dependency name");
            if dep.starts_with("tauri") && name != "compute-planner" {
                wrong.push(format!("{name} depends on {dep}"));
            }
        }
    }
    assert!(wrong.is_empty(), "Tauri outside the shell:\n{}", wrong.join("\n"));
}

/// The text of a source file without its unit tests: everything from `#[cfg(test)]` followed by
/// `mod tests` to the end of the file (the convention here is one such module, at the end).
fn without_tests(text: &str) -> &str {
    let mut from = 0;
    while let Some(i) = text[from..].find("#[cfg(test)]") {
        let at = from + i;
        let rest = text[at + "#[cfg(test)]".len()..].trim_start();
        if let Some(after) = rest.strip_prefix("mod tests")
            && after.trim_start().starts_with('{')
        {
            return &text[..at];
        }
        from = at + 1;
    }
    text
}

fn ident_at(s: &str) -> &str {
    let end = s.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(s.len());
    &s[..end]
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a source file under `src`: `engine/risk/run.rs` is `engine::risk::run`,
/// `engine/mod.rs` is `engine`, `lib.rs` and `main.rs` the crate root.
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.strip_suffix(".rs").unwrap_or(&last);
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_owned());
    }
    parts
}

/// The paths of one use tree at the start of `s`: `a::{b, c::{d, e as f}}` is `a::b`, `a::c::d`
/// and `a::c::e`; `self` in a group is the group's own path.
fn use_tree(s: &str) -> Vec<Vec<String>> {
    fn skip(s: &[u8], i: &mut usize) {
        while *i < s.len() && (s[*i] as char).is_whitespace() {
            *i += 1;
        }
    }
    fn tree(s: &[u8], i: &mut usize) -> Vec<Vec<String>> {
        let mut prefix: Vec<String> = Vec::new();
        loop {
            skip(s, i);
            if *i < s.len() && s[*i] == b'{' {
                *i += 1;
                let mut out = Vec::new();
                while *i < s.len() {
                    skip(s, i);
                    match s.get(*i) {
                        Some(b'}') => {
                            *i += 1;
                            break;
                        }
                        Some(b',') => *i += 1,
                        _ => {
                            let before = *i;
                            for sub in tree(s, i) {
                                let mut p = prefix.clone();
                                p.extend(sub.into_iter().filter(|x| x != "self"));
                                out.push(p);
                            }
                            skip(s, i);
                            if s[*i..].starts_with(b"as ") {
                                *i += 3;
                                skip(s, i);
                                while *i < s.len() && (s[*i].is_ascii_alphanumeric() || s[*i] == b'_') {
                                    *i += 1;
                                }
                            }
                            if *i == before {
                                *i += 1;
                            }
                        }
                    }
                }
                return out;
            }
            let start = *i;
            while *i < s.len() && (s[*i].is_ascii_alphanumeric() || s[*i] == b'_') {
                *i += 1;
            }
            if *i == start {
                return vec![prefix];
            }
            prefix.push(String::from_utf8_lossy(&s[start..*i]).into_owned());
            if s[*i..].starts_with(b"::") {
                *i += 2;
            } else {
                return vec![prefix];
            }
        }
    }
    let mut i = 0;
    tree(s.as_bytes(), &mut i)
}

/// Every module path `text` names, resolved from the module `at`: `crate::a::b`, and `super::x`
/// or `self::x` relative to `at`, each expanded through its use groups.
fn named_paths(text: &str, at: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("crate::") {
        if text[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        out.extend(use_tree(&text[i + "crate::".len()..]));
    }
    for (i, _) in text.match_indices("super::") {
        let before = &text[..i];
        if before.ends_with("super::") || before.ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let mut rest = &text[i..];
        let mut base = at.to_vec();
        while let Some(r) = rest.strip_prefix("super::") {
            base.pop();
            rest = r;
        }
        for p in use_tree(rest) {
            let mut full = base.clone();
            full.extend(p);
            out.push(full);
        }
    }
    out
}

/// For every module of a crate that has child modules (the crate root, `engine`,
/// `engine::risk`, ...), the graph between its children: child `a` → child `b` when a file in
/// `a` names a path through `b`. A module's own `mod.rs` declares its children and is not an edge.
fn module_graphs(krate: &Path) -> BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> {
    let src = krate.join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let paths: Vec<Vec<String>> = files.iter().map(|f| module_path(&src, f)).collect();
    let mut levels: BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for m in &paths {
        for depth in 0..m.len() {
            levels
                .entry(m[..depth].to_vec())
                .or_default()
                .entry(m[depth].clone())
                .or_default();
        }
    }
    for (f, m) in files.iter().zip(&paths) {
        let text = std::fs::read_to_string(f).expect("readable source");
        let text = without_tests(&text);
        for named in named_paths(text, m) {
            for (level, graph) in levels.iter_mut() {
                let d = level.len();
                if m.len() <= d || !m.starts_with(level) || named.len() <= d || !named.starts_with(level) {
                    continue;
                }
                let (from, to) = (&m[d], &named[d]);
                if from != to && graph.contains_key(to) {
                    graph.get_mut(from).expect("a child").insert(to.clone());
                }
            }
        }
    }
    levels
}

/// The strongly connected components with more than one module (Tarjan).
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    struct State<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        found: Vec<BTreeSet<String>>,
    }
    fn visit<'g>(s: &mut State<'g>, v: &'g str) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in &s.graph[v] {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(lw);
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).expect("visited");
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut comp = BTreeSet::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                comp.insert(w.to_owned());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                s.found.push(comp);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.found
}

/// Every cycle among the children of any module of a crate, as lines of a report.
fn cycle_report(name: &str, levels: &BTreeMap<Vec<String>, BTreeMap<String, BTreeSet<String>>>) -> Vec<String> {
    let mut report = Vec::new();
    for (level, graph) in levels {
        let inside = if level.is_empty() {
            String::new()
        } else {
            format!(" in {}", level.join("::"))
        };
        for comp in cycles(graph) {
            let mut lines = vec![format!(
                "{name}{inside}: import cycle between {}",
                comp.iter().cloned().collect::<Vec<_>>().join(", ")
            )];
            for m in &comp {
                let to: Vec<&str> = graph[m]
                    .iter()
                    .filter(|t| comp.contains(*t))
                    .map(String::as_str)
                    .collect();
                lines.push(format!("    {m} -> {}", to.join(", ")));
            }
            report.push(lines.join("\n"));
        }
    }
    report
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let root = workspace_root().join("src-tauri");
    let mut crates = vec![root.clone()];
    let mut members: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .expect("src-tauri/crates")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("src").is_dir())
        .collect();
    members.sort();
    crates.extend(members);
    let mut report = Vec::new();
    let mut levels_seen = 0;
    for krate in &crates {
        let levels = module_graphs(krate);
        levels_seen += levels.len();
        let name = krate
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        report.extend(cycle_report(&name, &levels));
    }
    assert!(
        levels_seen > 20,
        "the scan went into the folders ({levels_seen} modules with children)"
    );
    assert!(
        report.is_empty(),
        "modules import each other (move what they share into a module below both):\n{}",
        report.join("\n")
    );
}

#[test]
fn the_checker_sees_a_cycle_and_skips_unit_tests() {
    let text = "use crate::a;\nfn f() { crate::{b, c::d}; }\n#[cfg(test)]\nmod tests {\n    use crate::e;\n}\n";
    let refs: BTreeSet<String> = named_paths(without_tests(text), &["x".to_owned()])
        .into_iter()
        .map(|p| p[0].clone())
        .collect();
    assert_eq!(refs, BTreeSet::from(["a", "b", "c"].map(str::to_owned)));
    let graph: BTreeMap<String, BTreeSet<String>> =
        [("a", vec!["b"]), ("b", vec!["c"]), ("c", vec!["a"]), ("d", vec!["a"])]
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v.into_iter().map(str::to_owned).collect()))
            .collect();
    let found = cycles(&graph);
    assert_eq!(
        found,
        vec![BTreeSet::from(["a".to_owned(), "b".to_owned(), "c".to_owned()])]
    );
    // Inside a folder: two files of one room naming each other is a cycle at that room's level.
    let levels = BTreeMap::from([(
        vec!["engine".to_owned(), "exit".to_owned()],
        BTreeMap::from([
            ("clauses".to_owned(), BTreeSet::from(["kinds".to_owned()])),
            ("kinds".to_owned(), BTreeSet::from(["clauses".to_owned()])),
        ]),
    )]);
    assert_eq!(
        cycle_report("planner-core", &levels),
        [
            "planner-core in engine::exit: import cycle between clauses, kinds\n    clauses -> kinds\n    kinds -> clauses"
        ]
    );
}

#[test]
fn paths_are_read_through_groups_super_and_renames() {
    let at = ["engine".to_owned(), "risk".to_owned(), "run".to_owned()];
    let named = named_paths(
        "use crate::engine::{input::{fx, limits as bounds}, model::scenario::Plan};\nuse super::sampling::{self, Input};\n/// [`super::super::decide`]\n",
        &at,
    );
    let shown: Vec<String> = named.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        shown,
        [
            "engine::input::fx",
            "engine::input::limits",
            "engine::model::scenario::Plan",
            "engine::risk::sampling",
            "engine::risk::sampling::Input",
            "engine::decide",
        ]
    );
}

/// The engine's rooms and the rooms each may import (besides the crate's shared modules, the
/// catalog and the error). The same table is written, room by room, in each room's `mod.rs`.
const ENGINE_ROOMS: &[(&str, &[&str])] = &[
    ("input", &["blocks"]),
    ("blocks", &[]),
    ("model", &["input", "blocks"]),
    ("resolve", &["input", "blocks", "model"]),
    ("costing", &["input", "blocks", "model"]),
    ("decide", &["input", "blocks", "model", "costing"]),
    ("exit", &["input", "blocks", "model", "resolve", "costing"]),
    ("risk", &["input", "blocks", "model", "resolve", "costing", "decide"]),
    ("editing", &["input", "blocks", "model", "resolve", "decide"]),
    (
        "workspace",
        &["input", "blocks", "model", "resolve", "costing", "decide", "exit"],
    ),
];

/// Every edge between the engine's rooms that [`ENGINE_ROOMS`] does not allow, and every room the
/// table and the folders disagree on.
fn room_breaches(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let table: BTreeMap<&str, &[&str]> = ENGINE_ROOMS.iter().copied().collect();
    let mut out = Vec::new();
    for (room, imports) in graph {
        let Some(allowed) = table.get(room.as_str()) else {
            out.push(format!("engine::{room} is not in the table of rooms"));
            continue;
        };
        for to in imports {
            if !allowed.contains(&to.as_str()) {
                out.push(format!(
                    "engine::{room} imports engine::{to}, which the table does not allow"
                ));
            }
        }
    }
    for room in table.keys() {
        if !graph.contains_key(*room) {
            out.push(format!("the table names engine::{room}, which has no folder"));
        }
    }
    out
}

#[test]
fn the_engine_rooms_import_only_what_the_table_allows() {
    let levels = module_graphs(&workspace_root().join("src-tauri/crates/planner-core"));
    let engine = &levels[&vec!["engine".to_owned()]];
    let edges: usize = engine.values().map(BTreeSet::len).sum();
    assert!(edges >= 20, "the scan saw the rooms' imports ({edges} edges)");
    let breaches = room_breaches(engine);
    assert!(
        breaches.is_empty(),
        "the engine's rooms (move the code to the room it belongs to, or change the table and the room's mod.rs deliberately):\n{}",
        breaches.join("\n")
    );
    // The table is itself one-way.
    let table: BTreeMap<String, BTreeSet<String>> = ENGINE_ROOMS
        .iter()
        .map(|(r, to)| ((*r).to_owned(), to.iter().map(|t| (*t).to_owned()).collect()))
        .collect();
    assert!(cycles(&table).is_empty(), "the table of rooms has a cycle");
    // Each room's mod.rs states the same rooms as the table.
    let engine_dir = workspace_root().join("src-tauri/crates/planner-core/src/engine");
    for (room, allowed) in ENGINE_ROOMS {
        let text = std::fs::read_to_string(engine_dir.join(room).join("mod.rs")).expect("the room's mod.rs");
        let stated: BTreeSet<String> = named_paths(&text, &["engine".to_owned(), (*room).to_owned()])
            .into_iter()
            .filter(|p| p.len() == 2 && p[0] == "engine")
            .map(|p| p[1].clone())
            .collect();
        let allowed: BTreeSet<String> = allowed.iter().map(|a| (*a).to_owned()).collect();
        if *room != "workspace" {
            assert_eq!(
                stated, allowed,
                "engine/{room}/mod.rs states the rooms it may import as the table does"
            );
        }
    }
}

#[test]
fn the_room_check_sees_a_breach() {
    let mut levels = module_graphs(&workspace_root().join("src-tauri/crates/planner-core"));
    let engine = levels.get_mut(&vec!["engine".to_owned()]).expect("the engine");
    assert!(room_breaches(engine).is_empty());
    // The input reaching up to the workspace's content, and a room with no row in the table.
    engine.get_mut("input").expect("input").insert("workspace".to_owned());
    engine.insert("tax".to_owned(), BTreeSet::new());
    assert_eq!(
        room_breaches(engine),
        [
            "engine::input imports engine::workspace, which the table does not allow",
            "engine::tax is not in the table of rooms",
        ]
    );
}

/// The body length (lines between the opening and the closing brace) of every function marked
/// `#[tauri::command]` in `text`, by name.
fn command_bodies(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() != "#[tauri::command]" {
            i += 1;
            continue;
        }
        // The signature runs to the first line that ends with `{`.
        let Some(open) = (i..lines.len()).find(|&k| lines[k].trim_end().ends_with('{')) else {
            break;
        };
        let name = (i..=open)
            .find_map(|k| lines[k].split("fn ").nth(1))
            .map_or("?", |rest| ident_at(rest))
            .to_owned();
        let mut depth = 0i64;
        let mut close = open;
        for (k, line) in lines.iter().enumerate().skip(open) {
            depth += line.matches('{').count() as i64 - line.matches('}').count() as i64;
            if depth == 0 {
                close = k;
                break;
            }
        }
        out.push((name, close.saturating_sub(open + 1)));
        i = close + 1;
    }
    out
}

/// The entries of the app's one command list (`planner-app/src/commands.rs`): each entry's name
/// and the lines of its call, between `name(host, ..) -> Answer = {` and `};`.
fn list_entries(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim();
        if line.contains("(host") && line.ends_with("= {") && !line.starts_with("///") {
            let name = ident_at(line).to_owned();
            let close = (i + 1..lines.len())
                .find(|&k| lines[k].trim() == "};")
                .unwrap_or(lines.len());
            out.push((name, close.saturating_sub(i + 1)));
            i = close;
        }
        i += 1;
    }
    out
}

/// Architecture invariant: a command is written once, in `planner_app`'s command list, and the
/// shell's commands and the app's by-name router are expanded from it. Every call in the list,
/// and every command the shell writes by hand (only those that need the window), is at most 10
/// lines (as `cargo fmt` lays it out): it unpacks the arguments, calls the use case, and returns;
/// rules live below the shell.
#[test]
fn every_command_body_is_at_most_ten_lines() {
    let list = std::fs::read_to_string(workspace_root().join("src-tauri/crates/planner-app/src/commands.rs"))
        .expect("the command list");
    let entries = list_entries(&list);
    assert!(
        entries.len() >= 60,
        "found only {} commands in the list: the scan is broken",
        entries.len()
    );
    let mut long: Vec<String> = entries
        .iter()
        .filter(|(_, lines)| *lines > 10)
        .map(|(name, lines)| format!("{name} ({lines} lines) in the command list"))
        .collect();
    let mut files = Vec::new();
    rust_files(&workspace_root().join("src-tauri/src"), &mut files);
    let mut by_hand = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("read source");
        for (name, lines) in command_bodies(&text) {
            if lines > 10 {
                long.push(format!("{name} ({lines} lines) in {}", f.display()));
            }
            // The macro that expands the list names its commands `$name`, which reads as empty.
            if !name.is_empty() {
                by_hand.push(name);
            }
        }
    }
    assert!(long.is_empty(), "commands longer than 10 lines:\n{}", long.join("\n"));
    assert_eq!(
        by_hand,
        planner_app::router::WINDOW_COMMANDS,
        "the shell writes by hand only the commands that need the window; add any other to planner_app's command list"
    );
    let listed: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        listed,
        planner_app::router::COMMANDS,
        "the scan reads the list the router expands"
    );
}

#[test]
fn the_list_scan_reads_entries() {
    let text = "        $then! {\n            /// Saves the view.\n            set_view(host, view: ::a::ViewState) -> ::a::ViewState = {\n                $crate::compare::set_view(host, &view)\n            };\n            close(host) -> () = {\n                $crate::session::close(host);\n                Ok(())\n            };\n";
    assert_eq!(
        list_entries(text),
        [("set_view".to_owned(), 1), ("close".to_owned(), 2)]
    );
}

#[test]
fn the_command_scan_measures_bodies() {
    let text = "#[tauri::command]\n#[specta::specta]\nasync fn short(a: u8) -> u8 {\n    a\n}\n\n#[tauri::command]\nfn long(\n    a: u8,\n) -> Result<(), ()> {\n    if a > 1 {\n        return Err(());\n    }\n    Ok(())\n}\n";
    assert_eq!(
        command_bodies(text),
        vec![("short".to_owned(), 1), ("long".to_owned(), 4)]
    );
}

/// ARCHITECTURE.md stays a map a newcomer reads in ten minutes: under 2,500 words (details live
/// in each crate's README and in planner-core's ENGINE_RULES.md).
#[test]
fn the_architecture_map_stays_short() {
    let text = std::fs::read_to_string(workspace_root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let words = text.split_whitespace().count();
    assert!(words < 2_500, "ARCHITECTURE.md has {words} words; keep it under 2,500");
    assert!(
        text.matches("Architecture invariant:").count() >= 5,
        "the map states its invariants"
    );
}

/// `unsafe` appears in one place only: `main` setting WebKit's renderer variable before any
/// thread exists (`launch::disable_dmabuf_renderer_without_gpu`). The workspace lint denies it
/// everywhere else; this keeps the one exception from spreading under a new `allow`.
#[test]
fn unsafe_is_only_the_renderer_variable_in_main() {
    let root = workspace_root();
    let mut files = Vec::new();
    for dir in ["src-tauri", "tests", "xtask"] {
        rust_files(&root.join(dir), &mut files);
    }
    let allowed = [root.join("src-tauri/src/main.rs"), root.join("src-tauri/src/launch.rs")];
    let mut found = Vec::new();
    for f in &files {
        if f.components().any(|c| c.as_os_str() == "target") || f.ends_with("tests/tests/architecture.rs") {
            continue;
        }
        let text = std::fs::read_to_string(f).expect("a Rust source file");
        // Any attribute that loosens the lint: allow, expect or warn (unsafe_code).
        let uses = text.matches("unsafe {").count()
            + text.matches("unsafe fn").count()
            + text.matches("unsafe impl").count()
            + text.matches("unsafe extern").count()
            + text.matches("(unsafe_code)").count();
        if uses > 0 {
            found.push((f.clone(), uses));
        }
    }
    assert!(files.len() > 50, "the scan found the sources ({} files)", files.len());
    let outside: Vec<_> = found.iter().filter(|(f, _)| !allowed.contains(f)).collect();
    assert!(
        outside.is_empty(),
        "`unsafe` outside main's renderer variable: {outside:?}"
    );
    // main: the allow and the block; launch.rs: the allow, the function and the block.
    let total: usize = found.iter().map(|(_, n)| n).sum();
    assert_eq!(total, 5, "the renderer variable's `unsafe` changed: {found:?}");
    // Nor may a package loosen the lint in its manifest: each takes the workspace's lints.
    for package in packages() {
        let manifest = package["manifest_path"].as_str().expect("a manifest path");
        let text = std::fs::read_to_string(manifest).expect("a package manifest");
        assert!(
            text.contains("[lints]\nworkspace = true") && !text.contains("unsafe_code"),
            "{manifest} must take the workspace's lints (`[lints] workspace = true`) and not set `unsafe_code`"
        );
    }
}

/// What the domain crate may not reach for: the file system, the network, the process's
/// environment and arguments, other processes, the clock and the operating system's randomness.
/// The core takes everything as arguments (times, files' contents, seeds), so the same inputs
/// give the same outputs on every machine (issue #43).
const WORLD: &[(&str, &str)] = &[
    ("std::fs", "the file system"),
    ("File::open", "the file system"),
    ("File::create", "the file system"),
    ("std::net", "the network"),
    ("TcpStream", "the network"),
    ("std::env", "the environment"),
    ("env!(", "the build environment"),
    ("option_env!(", "the build environment"),
    ("include_str!(", "a file read at build time"),
    ("include_bytes!(", "a file read at build time"),
    ("std::process", "other processes"),
    ("std::io::stdin", "standard input"),
    ("SystemTime", "the clock"),
    ("Instant", "the clock"),
    ("UNIX_EPOCH", "the clock"),
    ("from_entropy", "the operating system's randomness"),
    ("from_os_rng", "the operating system's randomness"),
    ("thread_rng", "the operating system's randomness"),
    ("OsRng", "the operating system's randomness"),
];

/// The crates the core may depend on: parsing, decimals, hashing, a seeded generator. A crate
/// that does IO (a database, HTTP, an async runtime, a clock library) is refused.
const CORE_DEPENDENCIES: &[&str] = &[
    "serde",
    "toml",
    "serde_path_to_error",
    "rust_decimal",
    "thiserror",
    "specta",
    "schemars",
    "serde_json",
    "sha2",
    "unicode-normalization",
    "rand_chacha",
    "puruspe",
];

/// Where `text` (a source file without its unit tests and comments) reaches the world.
fn reaches_the_world(text: &str) -> Vec<(&'static str, &'static str)> {
    tokens_in(text, WORLD)
}

#[test]
fn the_core_reads_no_file_network_environment_or_clock() {
    let found = scan_crate("planner-core", 40, reaches_the_world);
    assert!(
        found.is_empty(),
        "the core must take the world as arguments, not reach for it:\n{}",
        found.join("\n")
    );
    let core = packages()
        .into_iter()
        .find(|p| p["name"] == "planner-core")
        .expect("planner-core");
    let deps: Vec<String> = core["dependencies"]
        .as_array()
        .expect("dependencies")
        .iter()
        .filter(|d| d["kind"].is_null())
        .filter_map(|d| d["name"].as_str().map(str::to_owned))
        .collect();
    assert!(deps.len() >= 8, "the scan read the core's dependencies: {deps:?}");
    let extra: Vec<&String> = deps
        .iter()
        .filter(|d| !CORE_DEPENDENCIES.contains(&d.as_str()))
        .collect();
    assert!(
        extra.is_empty(),
        "planner-core depends on {extra:?}: the core depends only on {CORE_DEPENDENCIES:?}; IO belongs in the store, the app or the shell"
    );
}

#[test]
fn the_purity_scan_sees_a_breach_and_skips_comments_and_unit_tests() {
    let breach = "fn today() -> u64 {\n    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs()\n}\n";
    assert_eq!(
        reaches_the_world(breach).iter().map(|t| t.1).collect::<Vec<_>>(),
        ["the clock", "the clock"]
    );
    let read = "pub fn load() -> String { std::fs::read_to_string(\"catalog.toml\").unwrap_or_default() }";
    assert_eq!(reaches_the_world(read), [("std::fs", "the file system")]);
    let env = "let home = std::env::var(\"HOME\");";
    assert_eq!(reaches_the_world(env), [("std::env", "the environment")]);
    let quiet = "// std::fs is not used here\nfn f() {}\n#[cfg(test)]\nmod tests {\n    fn g() { let _ = std::fs::read(\"x\"); }\n}\n";
    assert!(reaches_the_world(without_tests(quiet)).is_empty());
}

/// The `pub use` lines of a source file (outside its unit tests): each re-exports an item under a
/// second path.
fn re_exports(text: &str) -> Vec<&str> {
    without_tests(text)
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with("pub use ") || l.starts_with("pub(crate) use "))
        .collect()
}

/// One path per item in the core: no module re-exports what another module owns, so a caller
/// names the owner and a room's imports show where it really reaches. The catalog's `mod.rs` is the
/// one facade (its loader and model are private parts of one room).
#[test]
fn the_core_names_each_item_by_one_path() {
    let src = workspace_root().join("src-tauri/crates/planner-core/src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let facade = src.join("catalog/mod.rs");
    let mut found = Vec::new();
    for f in files.iter().filter(|f| **f != facade) {
        let text = std::fs::read_to_string(f).expect("a Rust source file");
        for line in re_exports(&text) {
            found.push(format!("{}: {line}", f.display()));
        }
    }
    assert!(
        files.len() > 60,
        "the scan found the core's sources ({} files)",
        files.len()
    );
    assert!(
        found.is_empty(),
        "re-exports give an item a second path; import it from its owner instead:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_re_export_scan_sees_one() {
    let text = "use crate::problem::Problem;\npub use crate::problem::MAX_HORIZON_MONTHS;\n#[cfg(test)]\nmod tests {\n    pub use super::*;\n}\n";
    assert_eq!(re_exports(text), ["pub use crate::problem::MAX_HORIZON_MONTHS;"]);
}
