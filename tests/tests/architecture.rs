//! Architecture invariants, checked on the source tree (issue #15, "no import cycles"):
//!
//! - the workspace's packages depend on one another in one stated, one-way order
//!   ([`LAYERS`]), as `cargo metadata` reports their path dependencies;
//! - inside every crate under `src-tauri` (and the app crate itself), no top-level module imports
//!   one that imports it back: the graph of `crate::x` / `crate::{x, ..}` / `super::x` references
//!   between top-level modules has no cycle.
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

/// The names referenced as `prefix` + name (and, for `crate::{a, b::c}`, each name in the group).
fn referenced<'t>(text: &'t str, prefix: &str, groups: bool, out: &mut BTreeSet<&'t str>) {
    for (i, _) in text.match_indices(prefix) {
        let rest = &text[i + prefix.len()..];
        if groups && let Some(group) = rest.strip_prefix('{') {
            let inner = &group[..group.find('}').unwrap_or(group.len())];
            // The first name of each item: `a`, `b` in `{a, b::c}`.
            for item in inner.split(',') {
                out.insert(ident_at(item.trim()));
            }
        } else {
            out.insert(ident_at(rest));
        }
    }
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

/// The graph of a crate's top-level modules: for each, the top-level modules it references.
fn module_graph(krate: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let src = krate.join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let top_of = |p: &Path| -> (String, bool) {
        let rel = p.strip_prefix(&src).expect("under src");
        let first = rel
            .components()
            .next()
            .expect("a component")
            .as_os_str()
            .to_string_lossy()
            .into_owned();
        let top = first.strip_suffix(".rs").map_or(first.clone(), str::to_owned);
        (top, rel.components().count() == 1)
    };
    let names: BTreeSet<String> = files
        .iter()
        .map(|p| top_of(p).0)
        .filter(|t| t != "lib" && t != "main")
        .collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = names.iter().map(|n| (n.clone(), BTreeSet::new())).collect();
    for p in &files {
        let (top, at_top) = top_of(p);
        if !names.contains(&top) {
            continue;
        }
        let text = std::fs::read_to_string(p).expect("readable source");
        let text = without_tests(&text);
        let mut refs = BTreeSet::new();
        referenced(text, "crate::", true, &mut refs);
        if at_top {
            // In `src/x.rs`, `super::y` is the crate root's `y`.
            referenced(text, "super::", false, &mut refs);
        }
        for r in refs {
            if r != top && names.contains(r) {
                graph.get_mut(&top).expect("known module").insert(r.to_owned());
            }
        }
    }
    graph
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
    for krate in &crates {
        let graph = module_graph(krate);
        for comp in cycles(&graph) {
            let mut lines = vec![format!(
                "{}: import cycle between {}",
                krate
                    .file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
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
    assert!(
        report.is_empty(),
        "modules import each other (move what they share into a module below both):\n{}",
        report.join("\n")
    );
}

#[test]
fn the_checker_sees_a_cycle_and_skips_unit_tests() {
    let text = "use crate::a;\nfn f() { crate::{b, c::d}; }\n#[cfg(test)]\nmod tests {\n    use crate::e;\n}\n";
    let mut refs = BTreeSet::new();
    referenced(without_tests(text), "crate::", true, &mut refs);
    assert_eq!(refs, BTreeSet::from(["a", "b", "c"]));
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

/// Architecture invariant: the shell's commands are adapters. Every `#[tauri::command]` body is
/// at most 10 lines (as `cargo fmt` lays it out): it unpacks the arguments, calls the use case of
/// `planner_app` with the same name, and returns; rules live below the shell.
#[test]
fn every_command_body_is_at_most_ten_lines() {
    let mut files = Vec::new();
    rust_files(&workspace_root().join("src-tauri/src"), &mut files);
    let mut commands = 0;
    let mut long = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("read source");
        for (name, lines) in command_bodies(&text) {
            commands += 1;
            if lines > 10 {
                long.push(format!("{name} ({lines} lines) in {}", f.display()));
            }
        }
    }
    assert!(commands >= 40, "found only {commands} commands: the scan is broken");
    assert!(long.is_empty(), "commands longer than 10 lines:\n{}", long.join("\n"));
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
    let code: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    WORLD
        .iter()
        .copied()
        .filter(|(token, _)| code.contains(token))
        .collect()
}

#[test]
fn the_core_reads_no_file_network_environment_or_clock() {
    let src = workspace_root().join("src-tauri/crates/planner-core/src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(
        files.len() > 40,
        "the scan found the core's sources ({} files)",
        files.len()
    );
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a Rust source file");
        for (token, what) in reaches_the_world(without_tests(&text)) {
            found.push(format!("{}: `{token}` reaches {what}", f.display()));
        }
    }
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
