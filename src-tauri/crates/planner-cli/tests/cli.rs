//! The `planner` binary as a user runs it: exit codes, JSON with provenance, located errors.

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rust_decimal::Decimal;
use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn planner(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_planner"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run planner")
}

/// Every figure object (one with `low`, `high` and `provenance`) found anywhere in `v`.
fn figures<'a>(v: &'a Value, path: String, out: &mut Vec<(String, &'a Value)>) {
    match v {
        Value::Object(map) => {
            if map.contains_key("low") && map.contains_key("high") {
                out.push((path.clone(), v));
            }
            for (k, child) in map {
                figures(child, format!("{path}.{k}"), out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                figures(child, format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn accelerators_json_lists_the_quadrant_with_provenance_on_every_figure() {
    let out = planner(&["catalog", "list", "--kind", "accelerators", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let accelerators = json["accelerators"].as_array().expect("an accelerators array");
    assert!(accelerators.len() >= 24, "{} accelerators", accelerators.len());
    for family in ["training", "inference", "edge", "domestic"] {
        let n = accelerators.iter().filter(|a| a["family"] == family).count();
        assert!(n >= 2, "family {family} has {n} entries");
    }
    let mut figs = Vec::new();
    figures(&json, String::new(), &mut figs);
    // As many figures as the library loads: nothing dropped on the way to JSON.
    let catalog = planner_store::load_catalog_dir(&root().join("catalogs")).expect("catalog");
    let expected: usize = catalog
        .accelerators
        .iter()
        .map(|a| {
            1 + [
                &a.bandwidth_tbps,
                &a.bf16_tflops,
                &a.fp8_tflops,
                &a.tdp_w,
                &a.price_usd,
                &a.adaptation_months,
            ]
            .iter()
            .filter(|f| f.is_some())
            .count()
        })
        .sum();
    assert_eq!(figs.len(), expected);
    for (path, f) in figs {
        let p = &f["provenance"];
        let sources = p["sources"].as_array().expect("sources");
        assert!(!sources.is_empty(), "{path} has no source");
        for s in sources {
            assert!(
                s["title"].as_str().is_some_and(|t| t.len() > 3),
                "{path}: source without title"
            );
            assert!(
                s["as_of"].as_str().is_some_and(|d| d.len() >= 4),
                "{path}: source without date"
            );
        }
        assert!(
            p["as_of"].as_str().is_some_and(|d| d.len() >= 4),
            "{path} has no as-of date"
        );
        assert!(
            ["primary", "secondary", "estimate"].contains(&p["confidence"].as_str().unwrap_or("")),
            "{path}"
        );
        // Decimals cross JSON as strings, never as binary floats.
        assert!(
            f["low"].is_string() && f["high"].is_string(),
            "{path}: figures are strings"
        );
    }
    // Every domestic alternative carries its adaptation effort.
    for a in accelerators.iter().filter(|a| a["family"] == "domestic") {
        assert!(
            a["adaptation_months"].is_object(),
            "{} lacks adaptation_months",
            a["id"]
        );
    }
}

#[test]
fn the_whole_catalog_lists_as_tables() {
    let out = planner(&["catalog", "list"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for title in [
        "Accelerators (",
        "Cloud offers (per GPU-hour) (",
        "Facility (",
        "Network fabrics (",
        "Regions (",
    ] {
        assert!(text.contains(title), "missing section {title}");
    }
    assert!(text.contains("nvidia-h100-sxm"));
}

#[test]
fn check_passes_on_the_shipped_catalog() {
    let out = planner(&["catalog", "check", "catalogs"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("catalog OK"));
    // The checklist template is checked with the catalog.
    assert!(
        stdout
            .contains("checklists/d1-compliance.toml (checklist, format 1, version 2026.11.1): 34 items in 7 families"),
        "{stdout}"
    );
}

#[test]
fn check_refuses_a_checklist_template_with_an_empty_family_naming_it() {
    // A copy of the shipped catalogs/ whose checklist moved every exit-terms item elsewhere.
    let work = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(root().join("catalogs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            std::fs::copy(&path, work.path().join(path.file_name().unwrap())).unwrap();
        }
    }
    let text = std::fs::read_to_string(root().join("catalogs/checklists/d1-compliance.toml")).unwrap();
    let emptied = text.replace("family = \"exit-terms\"", "family = \"export-control\"");
    assert_ne!(emptied, text);
    std::fs::create_dir(work.path().join("checklists")).unwrap();
    let file = work.path().join("checklists/d1-compliance.toml");
    std::fs::write(&file, &emptied).unwrap();
    let line = emptied.lines().position(|l| l == "id = \"exit-terms\"").unwrap() + 1;

    let out = planner(&["catalog", "check", work.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("The checklist template"), "{err}");
    assert!(
        err.contains(&format!("{}:{line}:", file.display())),
        "names the file and the family's line: {err}"
    );
    assert!(err.contains("family[6].id [missing-field]"), "{err}");
    assert!(
        err.contains("family `exit-terms` has no items; add at least one item to family `exit-terms`"),
        "{err}"
    );
    assert!(err.contains("or remove the family"), "{err}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("catalog OK"));
}

#[test]
fn check_exits_1_and_lists_every_error_with_file_line_and_field() {
    let work = tempfile::tempdir().unwrap();
    let min = root().join("tests/fixtures/catalog-min");
    for entry in std::fs::read_dir(&min).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, work.path().join(path.file_name().unwrap())).unwrap();
    }
    let errors = root().join("tests/fixtures/catalog-errors");
    std::fs::copy(
        errors.join("malformed-number.accelerators.toml"),
        work.path().join("accelerators.toml"),
    )
    .unwrap();
    std::fs::copy(
        errors.join("unknown-reference.offers.toml"),
        work.path().join("offers.toml"),
    )
    .unwrap();
    let out = planner(&["catalog", "check", work.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("accelerators.toml:24:13: accelerator[0].memory_gb [malformed-number]"),
        "{err}"
    );
    // The offers file is fine on its own; its broken reference shows once the accelerators parse.
    assert!(!String::from_utf8_lossy(&out.stdout).contains("catalog OK"));
}

#[test]
fn a_missing_catalog_folder_is_a_clear_error() {
    let out = planner(&["--catalog", "/nonexistent/catalogs", "catalog", "list"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/catalogs"));
}

#[test]
fn a_workspace_made_from_a_sample_exports_the_same_scenarios_back() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("client.cpw");
    let ws_arg = ws.to_str().unwrap();
    let sample = "catalogs/samples/enterprise-hybrid.json";
    let made = planner(&["workspace", "new", ws_arg, "--from", sample, "--title", "Client A"]);
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let shown = planner(&["workspace", "show", ws_arg]);
    let text = String::from_utf8_lossy(&shown.stdout);
    assert!(text.starts_with("Client A\n"), "{text}");
    assert!(
        text.contains("2 scenario(s):") && text.contains("compared: hybrid, all-cloud"),
        "{text}"
    );
    let out = dir.path().join("back.json");
    let exported = planner(&["workspace", "export", ws_arg, "--out", out.to_str().unwrap()]);
    assert!(exported.status.success());
    // Read both with the engine's parser: the export writes defaults out, the sample omits them.
    let parse =
        |p: &Path| planner_core::engine::input::scenario_file::parse(&std::fs::read_to_string(p).unwrap()).unwrap();
    let back = parse(&out);
    let original = parse(&root().join(sample));
    assert_eq!(back.scenarios, original.scenarios);
    assert_eq!(back.workloads, original.workloads);
    assert_eq!(back.title, "Client A");
    let check = planner(&["workspace", "check", ws_arg]);
    assert_eq!(String::from_utf8_lossy(&check.stdout), format!("{ws_arg}: ok\n"));
    // Creating over an existing file is refused.
    let again = planner(&["workspace", "new", ws_arg]);
    assert_eq!(again.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
}

#[test]
fn a_workspace_new_that_fails_leaves_no_file_and_a_retry_works() {
    // Issue #14: a bad workload id exited 1 but left an empty workspace, and the retry said it
    // already existed.
    let dir = tempfile::tempdir().unwrap();
    let mut sample: Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("catalogs/samples/enterprise-hybrid.json")).unwrap())
            .unwrap();
    sample["workloads"][0]["id"] = Value::String("not an id!".to_owned());
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, sample.to_string()).unwrap();
    let ws = dir.path().join("client.cpw");
    let ws_arg = ws.to_str().unwrap();
    let out = planner(&["workspace", "new", ws_arg, "--from", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!ws.exists(), "no workspace is left behind");
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec!["bad.json".to_owned()], "no temporary file is left behind");
    let again = planner(&[
        "workspace",
        "new",
        ws_arg,
        "--from",
        "catalogs/samples/enterprise-hybrid.json",
    ]);
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    assert!(String::from_utf8_lossy(&planner(&["workspace", "show", ws_arg]).stdout).contains("2 scenario(s):"));
}

#[test]
fn a_file_that_is_not_a_workspace_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.cpw");
    std::fs::write(&path, "meeting notes\n".repeat(20)).unwrap();
    let out = planner(&["workspace", "show", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("notes.cpw is not a Compute Planner workspace"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "meeting notes\n".repeat(20));
}

fn quotes_fixture(name: &str) -> String {
    root()
        .join(format!(
            "src-tauri/crates/planner-store/tests/fixtures/quotes/{name}.csv"
        ))
        .display()
        .to_string()
}

#[test]
fn quotes_check_shows_each_quote_as_the_layer_it_becomes() {
    let out = planner(&["quotes", "check", &quotes_fixture("good"), "--json"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // The good fixture has a quote in EUR, which a USD workspace without a rate refuses by row and
    // column; the template's own examples are all in USD.
    let template = root().join("catalogs/templates/rfp-quotes.csv").display().to_string();
    let t = planner(&["quotes", "check", &template, "--json"]);
    assert!(t.status.success(), "{}", String::from_utf8_lossy(&t.stderr));
    let json: Value = serde_json::from_slice(&t.stdout).unwrap();
    let rows = json.as_array().unwrap();
    assert_eq!(rows.len(), 3, "the template's three example rows");
    for r in rows {
        let reason = format!(
            "RFP quote {} {}",
            r["quote"]["vendor"].as_str().unwrap(),
            r["quote"]["quote_id"].as_str().unwrap()
        );
        assert!(
            r["layer"].to_string().contains(&reason),
            "the layer cites its quote: {r}"
        );
        // As a scenario file writes it: absent options left out, though the wire form is total.
        let layer = r["layer"].as_object().unwrap();
        assert!(layer.values().all(|v| !v.is_null()), "no null keys: {r}");
    }
    assert_eq!(out.status.code(), Some(1), "EUR without a rate: {stderr}");
    assert!(stderr.contains("currency"), "{stderr}");
}

/// The quote workbooks whose references lie outside Excel's grid (made by
/// `planner-store/tests/fixtures/quotes/xlsx-refs/make.py`); `at-the-limits` is not one of them.
fn workbooks_outside_excel() -> Vec<std::path::PathBuf> {
    let dir = root().join("src-tauri/crates/planner-store/tests/fixtures/quotes/xlsx-refs");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "xlsx") && !p.ends_with("at-the-limits.xlsx"))
        .collect();
    files.sort();
    files
}

#[test]
fn quotes_check_refuses_a_forged_workbook_without_panicking() {
    // Issue 41: on 8e35c85 this debug build printed "thread 'main' panicked at
    // .../calamine-0.38.0/src/xlsx/mod.rs:3048:24: attempt to subtract with overflow" (3112 for
    // the row past 32 bits) before refusing the file as unreadable, with no sheet or reference.
    let files = workbooks_outside_excel();
    assert_eq!(files.len(), 16);
    for path in files {
        let out = planner(&["quotes", "check", &path.display().to_string()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{}: {stderr}", path.display());
        assert!(!stderr.contains("panicked"), "{}: {stderr}", path.display());
        assert!(
            stderr.contains("the sheet \"Quotes\" has "),
            "{}: {stderr}",
            path.display()
        );
        assert!(stderr.contains("Nothing was imported."), "{}: {stderr}", path.display());
        assert!(out.stdout.is_empty(), "{}", path.display());
    }
    let limits = root().join("src-tauri/crates/planner-store/tests/fixtures/quotes/xlsx-refs/at-the-limits.xlsx");
    let out = planner(&["quotes", "check", &limits.display().to_string()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("3 quote(s)"));
}

#[test]
fn the_app_refuses_a_forged_workbook_in_preview_and_import_and_keeps_the_workspace() {
    // The app's quote preview and import read through the same path: refused with the sheet
    // and the reference, nothing imported, the workspace as it was.
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("forged.cpw");
    let made = planner(&[
        "workspace",
        "new",
        ws.to_str().unwrap(),
        "--from",
        "catalogs/samples/enterprise-hybrid.json",
    ]);
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let show = || planner(&["workspace", "show", ws.to_str().unwrap()]).stdout;
    let before = show();
    let host = planner_app::DesktopHost::new(root().join("catalogs"), None, None, None);
    planner_app::session::open(&host, &ws).unwrap();
    for path in workbooks_outside_excel() {
        let e = planner_app::vendors::preview_quotes(&host, &path).unwrap_err();
        assert_eq!(e.details[0].kind.as_deref(), Some("outside-excel-limits"), "{e:?}");
        let e = planner_app::vendors::import_quotes(&host, &path, "hybrid").unwrap_err();
        assert!(e.message.contains("the sheet \"Quotes\" has "), "{e:?}");
    }
    planner_app::session::close(&host);
    assert_eq!(show(), before, "nothing was imported");
    assert!(String::from_utf8_lossy(&before).contains("scenario(s):"));
}

#[test]
fn quotes_check_names_the_row_and_column_of_every_error() {
    let out = planner(&["quotes", "check", &quotes_fixture("wrong-types")]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    for located in ["wrong-types.csv:2:5: gpus", "wrong-types.csv:3:7: price_per_gpu_hour"] {
        assert!(stderr.contains(located), "expected {located} in:\n{stderr}");
    }
    assert!(out.stdout.is_empty(), "nothing is listed when any row is wrong");
}

#[test]
fn quotes_check_reads_a_utf16_csv_and_prints_no_nul_bytes() {
    // Issue 14: a UTF-16 CSV without a byte-order mark gave 25 bogus column errors full of NULs.
    let text = std::fs::read_to_string(root().join("catalogs/templates/rfp-quotes.csv")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("utf16.csv");
    std::fs::write(
        &path,
        text.encode_utf16().flat_map(u16::to_le_bytes).collect::<Vec<u8>>(),
    )
    .unwrap();
    let out = planner(&["quotes", "check", &path.display().to_string()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("3 quote(s)"));
    assert!(!out.stdout.contains(&0) && !out.stderr.contains(&0));
}

#[test]
fn exit_prints_the_engines_cost_of_leaving_at_every_month() {
    let file = root()
        .join("catalogs/samples/enterprise-hybrid.json")
        .display()
        .to_string();
    let args = [
        "exit",
        &file,
        "--scenario",
        "all-cloud",
        "--layer",
        "reserved",
        "--notice",
        "3",
        "--fee",
        "25%",
    ];
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let out = planner(&with_json);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    // The same curve, computed by the library from the same file.
    let catalog = planner_store::load_catalog_dir(&root().join("catalogs")).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let plan = planner_core::engine::resolve::validate::validate(
        &catalog,
        &planner_core::engine::input::scenario_file::parse(&text).unwrap(),
        None,
    )
    .unwrap();
    let clause = planner_core::exit_clause::ExitClause {
        notice_months: 3,
        fee: planner_core::exit_clause::TerminationFee::ShareOfRemaining("0.25".parse().unwrap()),
        egress_per_tb: Decimal::ZERO,
        data_tb: Decimal::ZERO,
        offboarding: Decimal::ZERO,
    };
    let expected =
        planner_core::engine::model::commitment::layer_exit_curve(&plan, "all-cloud", "reserved", &clause).unwrap();
    assert_eq!(json, serde_json::to_value(&expected).unwrap());
    assert!(expected.len() >= 36, "a 3-year term: {} months", expected.len());
    // Month 18: the fee is a quarter of what stays due after the three months' notice.
    let m18 = &expected[18];
    assert_eq!(m18.effective_month, 21);
    assert_eq!(m18.termination_fee, m18.avoided * Decimal::new(25, 2));
    let table = String::from_utf8_lossy(&planner(&args).stdout).into_owned();
    assert!(table.contains("net saving"), "{table}");
    // Without clause flags the layer's own exit_clause from the file is priced.
    let own = planner(&[
        "exit",
        &file,
        "--scenario",
        "all-cloud",
        "--layer",
        "reserved",
        "--json",
    ]);
    assert!(own.status.success(), "{}", String::from_utf8_lossy(&own.stderr));
    let file_clause = plan
        .scenarios
        .iter()
        .find(|s| s.id == "all-cloud")
        .and_then(|s| s.layers.iter().find(|l| l.id == "reserved"))
        .and_then(|l| l.exit_clause.clone())
        .unwrap();
    let expected_own =
        planner_core::engine::model::commitment::layer_exit_curve(&plan, "all-cloud", "reserved", &file_clause)
            .unwrap();
    assert_eq!(
        serde_json::from_slice::<Value>(&own.stdout).unwrap(),
        serde_json::to_value(&expected_own).unwrap()
    );
    // A layer that commits to nothing is refused, naming why.
    let out = planner(&[
        "exit",
        &file,
        "--scenario",
        "all-cloud",
        "--layer",
        "on-demand",
        "--fee",
        "25%",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let out = planner(&[
        "exit",
        &file,
        "--scenario",
        "all-cloud",
        "--layer",
        "reserved",
        "--fee",
        "a lot",
    ]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--fee"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn audit_verify_names_the_first_checklist_entry_changed_in_the_file() {
    use planner_core::compliance::checklist::AnswerInput;
    use planner_core::compliance::checklist::{ItemStatus, Subject};
    use planner_store::workspace::EvidenceFile;

    let dir = tempfile::tempdir().unwrap();
    let ws_path = dir.path().join("client.cpw");
    let ws_arg = ws_path.to_str().unwrap();
    let made = planner(&[
        "workspace",
        "new",
        ws_arg,
        "--from",
        "catalogs/samples/enterprise-hybrid.json",
    ]);
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let empty = planner(&["audit", "verify", ws_arg]);
    assert!(empty.status.success());
    assert!(String::from_utf8_lossy(&empty.stdout).contains("intact: 0 entries"));

    let name = "d1-compliance.toml".to_owned();
    let text = std::fs::read_to_string(root().join("catalogs/checklists").join(&name)).unwrap();
    let template = planner_core::compliance::checklist::parse_template(&name, &text).unwrap();
    let subject = Subject::Scenario("hybrid".into());
    {
        let mut ws = planner_store::Workspace::open(&ws_path).unwrap();
        for (i, (item, status)) in [
            ("ec-classify", ItemStatus::Pass),
            ("ec-2023-parameters", ItemStatus::Fail),
        ]
        .into_iter()
        .enumerate()
        {
            let input = AnswerInput {
                item: item.into(),
                status,
                note: "reviewed".into(),
                reviewer: "Dana Reviewer".into(),
            };
            let files = vec![EvidenceFile {
                name: format!("evidence-{i}.txt"),
                bytes: format!("evidence {i}").into_bytes(),
            }];
            ws.answer_item(
                &template,
                &(name.clone(), text.clone()),
                &subject,
                &input,
                &files,
                1_795_000_000_000,
            )
            .unwrap();
        }
    }
    let ok = planner(&["audit", "verify", ws_arg]);
    let out = String::from_utf8_lossy(&ok.stdout);
    assert!(ok.status.success(), "{out}");
    assert!(out.contains("intact: 2 entries, 2 evidence file(s)"), "{out}");
    let log = String::from_utf8_lossy(&planner(&["audit", "log", ws_arg]).stdout).into_owned();
    assert_eq!(log.lines().count(), 2, "{log}");
    assert!(
        log.lines().nth(1).unwrap().contains("ec-2023-parameters = fail"),
        "{log}"
    );

    // The failed item turned into a pass behind the app's back.
    let conn = rusqlite::Connection::open(&ws_path).unwrap();
    let changed = conn
        .execute(
            "UPDATE checklist_log SET payload = replace(payload, '\"fail\"', '\"pass\"') WHERE seq = 2",
            [],
        )
        .unwrap();
    assert_eq!(changed, 1);
    drop(conn);
    let broken = planner(&["audit", "verify", ws_arg]);
    let out = String::from_utf8_lossy(&broken.stdout);
    assert_eq!(broken.status.code(), Some(1), "{out}");
    assert!(
        out.contains("BROKEN") && out.contains("entry 2 (seq 2: answer on scenario:hybrid by Dana Reviewer"),
        "{out}"
    );
    assert!(out.contains("first broken entry: position 2, seq 2"), "{out}");
    let json = planner(&["audit", "verify", ws_arg, "--json"]);
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["problem"]["seq"], 2);
    assert_eq!(v["entries"], 2);
    // Not a workspace: a clear error, exit 1.
    let not = planner(&["audit", "verify", "README.md"]);
    assert_eq!(not.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&not.stderr).contains("not a Compute Planner workspace"));
}

/// Edits the scorecard of the workspace at `ws` the way the Vendors tab does.
fn edit_scorecard(
    host: &planner_app::DesktopHost,
    ws: &Path,
    edit: impl FnOnce(&mut planner_core::rfp::vendors::ScorecardDraft),
) {
    planner_app::session::open(host, ws).unwrap();
    let mut draft = planner_app::vendors::scorecard_draft(host).unwrap();
    edit(&mut draft);
    planner_app::scenarios::apply_edit(
        host,
        &planner_core::edit::EditRequest {
            edit: planner_core::edit::Edit::Scorecard { scorecard: draft },
            label: "Vendor figures".to_owned(),
            coalesce: None,
        },
    )
    .unwrap();
    planner_app::session::close(host);
}

/// A workspace at `ws` from the enterprise sample with the template's two example vendors
/// imported and every figure of theirs typed in; the host the app would use on it.
fn rfp_workspace(ws: &Path) -> planner_app::DesktopHost {
    let ws_arg = ws.to_str().unwrap();
    let made = planner(&[
        "workspace",
        "new",
        ws_arg,
        "--from",
        "catalogs/samples/enterprise-hybrid.json",
    ]);
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    // Import the template's example quotes the way the app does (there is no CLI import).
    let host = planner_app::DesktopHost::new(root().join("catalogs"), None, None, None);
    planner_app::session::open(&host, ws).unwrap();
    let quotes = root().join("catalogs/templates/rfp-quotes.csv");
    planner_app::vendors::import_quotes(&host, &quotes, "hybrid").unwrap();
    planner_app::session::close(&host);
    // The figures a quote file does not carry, as the buyer types them on the Vendors tab.
    edit_scorecard(&host, ws, |draft| {
        for (i, v) in draft.vendors.iter_mut().enumerate() {
            let d = |t: &str| Some(t.parse::<Decimal>().unwrap());
            v.mfu = if i == 0 { d("0.42") } else { d("0.38") };
            v.annual_failure_rate = d("0.05");
            v.sla = v.sla.or(d("0.995"));
            v.sla_refund_share = v.sla_refund_share.or(d("0.1"));
            v.expert_hours_per_month = if i == 0 { d("4") } else { d("10") };
        }
    });
    host
}

#[test]
fn scorecard_ranks_the_imported_vendors_with_their_costs_and_stability() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("rfp.cpw");
    let ws_arg = ws.to_str().unwrap();
    let host = rfp_workspace(&ws);

    let out = planner(&["scorecard", ws_arg, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let vendors = v["vendors"].as_array().unwrap();
    assert_eq!(vendors.len(), 2);
    let dec = |x: &Value| x.as_str().unwrap().parse::<Decimal>().unwrap();
    // Each vendor's cost is its scenario's decision total (total cash plus the commitments due
    // after the horizon), to the cent, as the engine gives it.
    planner_app::session::open(&host, &ws).unwrap();
    for vendor in vendors {
        let id = vendor["scenario"].as_str().unwrap();
        let spec = planner_app::scenarios::get(&host, id).unwrap();
        let detail = planner_app::scenarios::detail(&host, &spec).unwrap();
        let total = detail.figures.unwrap().decision_total.round_dp(2);
        assert_eq!(dec(&vendor["tco"]), total, "{}", vendor["name"]);
    }
    planner_app::session::close(&host);
    // Every score is the weighted sum of its axis scores, with the weights shown.
    let card = &v["scorecard"];
    let w = &card["weights"];
    let axes = ["performance", "reliability", "cost", "service", "compliance"];
    let ranking = card["ranking"]
        .as_array()
        .unwrap_or_else(|| panic!("no ranking: {v:#}"));
    assert_eq!(ranking.len(), 2);
    for s in ranking {
        let sum: Decimal = axes.iter().map(|a| dec(&w[a]) * dec(&s["axes"][a])).sum();
        assert!((sum - dec(&s["score"])).abs() < Decimal::new(1, 9), "{s}");
    }
    assert_eq!(ranking[0]["rank"], 1);

    let shown = planner(&["scorecard", ws_arg]);
    assert!(shown.status.success(), "{}", String::from_utf8_lossy(&shown.stderr));
    let text = String::from_utf8_lossy(&shown.stdout);
    let top = ranking[0]["name"].as_str().unwrap();
    assert!(text.contains(&format!("  1. {top} score")), "{text}");
    assert!(text.contains("compliance not reviewed"), "{text}");
}

#[test]
fn scorecard_and_memo_state_the_stability_and_the_vendors_not_reviewed_or_not_ranked() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("rfp.cpw");
    let ws_arg = ws.to_str().unwrap();
    let host = rfp_workspace(&ws);
    let json = planner(&["scorecard", ws_arg, "--json"]);
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    let shown = planner(&["scorecard", ws_arg]);
    assert!(shown.status.success(), "{}", String::from_utf8_lossy(&shown.stderr));
    let text = String::from_utf8_lossy(&shown.stdout);
    // The stability sentence as the engine words it, and the vendors no one has reviewed.
    let stability = v["stability"].as_str().unwrap();
    assert!(text.contains(&format!("stability: {stability}\n")), "{text}");
    assert!(
        text.contains(
            "not reviewed (no D-1 checklist record, compliance counted as 0): Example Cloud, Example Hardware"
        ),
        "{text}"
    );
    assert!(
        !text.contains("partial (not ranked)"),
        "every vendor has every figure: {text}"
    );

    // `planner memo` on the workspace carries the scorecard: the ranking and the same sentence.
    let pdf = dir.path().join("memo.pdf");
    let memo = planner(&[
        "memo",
        ws_arg,
        "--out",
        pdf.to_str().unwrap(),
        "--author",
        "Ann Author",
        "--decision",
        "Adopt the hybrid plan.",
        "--recommended",
        "hybrid",
    ]);
    assert!(memo.status.success(), "{}", String::from_utf8_lossy(&memo.stderr));
    let read = Command::new("pdftotext")
        .arg(&pdf)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) is needed by this test");
    let words = String::from_utf8_lossy(&read.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(words.contains("Vendor scorecard"), "{words}");
    assert!(words.contains(stability), "{words}");
    assert!(
        words.contains("Not reviewed: Example Cloud, Example Hardware have no D-1 checklist record"),
        "{words}"
    );

    // A vendor without its MFU is listed as partial, with what it lacks.
    edit_scorecard(&host, &ws, |draft| draft.vendors[1].mfu = None);
    let shown = planner(&["scorecard", ws_arg]);
    let text = String::from_utf8_lossy(&shown.stdout);
    assert!(
        text.contains("partial (not ranked): Example Hardware: the measured MFU is missing"),
        "{text}"
    );
}

#[test]
fn risk_takes_a_shape_a_correlation_and_figures_of_the_file_to_vary() {
    let args = [
        "risk",
        "catalogs/samples/enterprise-hybrid.json",
        "--draws",
        "100",
        "--shape",
        "pert",
        "--correlation",
        "0.5",
        "--vary",
        "workloads/quarterly-training/gpu_hours_per_day=80..200",
        "--json",
    ];
    let out = planner(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        (json["shape"].as_str(), json["group_correlation"].as_str()),
        (Some("pert"), Some("0.5"))
    );
    assert_eq!(
        json["uncertain"][0]["path"],
        "workloads/quarterly-training/gpu_hours_per_day"
    );
    assert!(
        json["method"]
            .as_str()
            .unwrap()
            .starts_with("Every one of the 100 draws")
    );
    // A range without the file's value (120), and a malformed one, are refused with the reason.
    let outside = planner(&[
        "risk",
        "catalogs/samples/enterprise-hybrid.json",
        "--vary",
        "workloads/quarterly-training/gpu_hours_per_day=150..200",
    ]);
    assert_eq!(outside.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&outside.stderr).contains("must hold the value the plan uses, 120"));
    let malformed = planner(&["risk", "catalogs/samples/enterprise-hybrid.json", "--vary", "mfu=high"]);
    assert!(!malformed.status.success());
    assert!(String::from_utf8_lossy(&malformed.stderr).contains("is not PATH=LOW..HIGH"));
    let bad = planner(&[
        "risk",
        "catalogs/samples/enterprise-hybrid.json",
        "--correlation",
        "1.5",
    ]);
    assert!(String::from_utf8_lossy(&bad.stderr).contains("give a number from 0 to 1"));
}

#[test]
fn risk_draws_the_sample_reproducibly_and_refuses_zero_draws() {
    let args = [
        "risk",
        "catalogs/samples/enterprise-hybrid.json",
        "--draws",
        "200",
        "--seed",
        "7",
        "--baseline",
        "hybrid",
        "--json",
    ];
    let first = planner(&args);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    assert_eq!(
        first.stdout,
        planner(&args).stdout,
        "the same seed gives the same outcome"
    );
    let json: Value = serde_json::from_slice(&first.stdout).expect("JSON");
    assert_eq!(
        (json["draws"].as_u64(), json["seed"].as_str(), json["baseline"].as_str()),
        (Some(200), Some("7"), Some("hybrid"))
    );
    let hybrid = &json["scenarios"][0];
    let dec = |v: &Value| v.as_str().unwrap().parse::<Decimal>().unwrap();
    let (p10, p50, p90) = (
        dec(&hybrid["total"]["p10"]),
        dec(&hybrid["total"]["p50"]),
        dec(&hybrid["total"]["p90"]),
    );
    assert!(p10 < p50 && p50 < p90, "{p10} {p50} {p90}");
    assert_eq!(json["scenarios"][1]["id"], "all-cloud");
    assert!(json["scenarios"][0]["cheaper_than_baseline"].is_null());

    // A workspace made from the same file: its compare selection on its own catalog snapshot (the
    // shipped one), opened read-only; the same draws give the same outcome.
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("plan.cpw");
    let made = planner(&[
        "workspace",
        "new",
        ws.to_str().unwrap(),
        "--from",
        "catalogs/samples/enterprise-hybrid.json",
    ]);
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let of_ws = planner(&[
        "risk",
        ws.to_str().unwrap(),
        "--draws",
        "200",
        "--seed",
        "7",
        "--baseline",
        "hybrid",
        "--json",
    ]);
    assert!(of_ws.status.success(), "{}", String::from_utf8_lossy(&of_ws.stderr));
    let ws_json: Value = serde_json::from_slice(&of_ws.stdout).expect("JSON");
    assert_eq!(ws_json["scenarios"], json["scenarios"]);
    assert_eq!(ws_json["tornados"], json["tornados"]);
    let files: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(files, ["plan.cpw"], "read-only: no journal left beside the workspace");

    let none = planner(&["risk", "catalogs/samples/enterprise-hybrid.json", "--draws", "0"]);
    assert!(!none.status.success());
    assert!(
        String::from_utf8_lossy(&none.stderr).contains("draws"),
        "{}",
        String::from_utf8_lossy(&none.stderr)
    );
}

/// `planner plan` prints delivery, the bridge and its cost, the spot arithmetic and the monthly
/// dispatch, each figure the engine's own (read back through `--json`).
#[test]
fn plan_prints_delivery_the_bridge_spot_and_dispatch() {
    let sample = root().join("catalogs/samples/enterprise-hybrid.json");
    let sample = sample.to_str().unwrap();
    let out = planner(&["plan", sample, "--scenario", "hybrid", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ops = &v["hybrid"];
    let bridge = &ops["bridges"][0];
    assert_eq!(bridge["layer"], "dgx");
    assert_eq!(bridge["lead_time_months"], 3);
    let line = &bridge["lines"][0];
    let cost: rust_decimal::Decimal = line["cost"].as_str().unwrap().parse().unwrap();
    assert!(cost > rust_decimal::Decimal::ZERO);
    assert_eq!(ops["months"].as_array().unwrap().len(), 36);

    let text = planner(&["plan", sample, "--scenario", "hybrid"]);
    assert!(text.status.success());
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains(
            "delivery  dgx: ordered 2027-01, delivered 2027-04 (lead time 3 months; typed: Sample assumption"
        ),
        "{text}"
    );
    let months = line["months"].as_u64().unwrap();
    let expected = format!("bridge    {months} months of {}", line["layer"].as_str().unwrap());
    assert!(text.contains(&expected), "{text}");
    assert!(
        text.contains(&planner_core::engine::blocks::finance::present(cost).to_string()),
        "{text}"
    );
    assert!(
        text.contains("spot      spot:") && text.contains("120 s notice"),
        "{text}"
    );
    // One dispatch row per month.
    let rows = text
        .lines()
        .filter(|l| l.len() > 9 && l.starts_with("  20") && l.as_bytes()[6] == b'-')
        .count();
    assert_eq!(rows, 36, "{text}");

    let wrong = planner(&["plan", sample, "--scenario", "nope"]);
    assert!(!wrong.status.success());
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("hybrid, all-cloud"));
}

/// `planner exit --variant` prices the clause typed with the flags, not the file's, and a
/// downgrade to a reserved term commits to the GPUs given with `--to-gpus`.
#[test]
fn exit_variant_prices_the_clause_typed_with_the_flags_and_a_downgrade_s_gpus() {
    // Issue 42, point 10: on 8e35c85 `--variant` accepted --notice and --fee and priced the
    // file's clause (notice 3, 25 % of the remainder) instead, and no flag carried a reserved
    // replacement's GPU count.
    let sample = root().join("catalogs/samples/enterprise-hybrid.json");
    let sample = sample.to_str().unwrap();
    // Leaving the all-cloud reservation at month 6, with `extra` flags.
    let leave_out = |extra: &[&str]| {
        let mut args = vec![
            "exit",
            sample,
            "--scenario",
            "all-cloud",
            "--layer",
            "reserved",
            "--variant",
            "leave-reservation",
            "--month",
            "6",
        ];
        args.extend_from_slice(extra);
        planner(&args)
    };
    let leave = |extra: &[&str]| {
        let out = leave_out(&[extra, &["--json"]].concat());
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let d = |v: &Value| v.as_str().unwrap().parse::<rust_decimal::Decimal>().unwrap();
    let file = leave(&[]);
    assert_eq!(
        file["booking"]["effective_month"].as_u64(),
        Some(9),
        "the file's 3-month notice"
    );
    let typed = leave(&["--notice", "0", "--fee", "20000"]);
    let clause = &typed["booking"]["clause"];
    assert_eq!(
        typed["booking"]["effective_month"].as_u64(),
        Some(6),
        "the typed notice of 0"
    );
    assert_eq!(d(&clause["termination_fee"]), rust_decimal::Decimal::from(20_000));
    assert_eq!(
        d(&clause["egress"]) + d(&clause["offboarding"]),
        rust_decimal::Decimal::ZERO
    );
    assert_ne!(typed["variant_total"], file["variant_total"]);
    let text = leave_out(&["--notice", "0", "--fee", "20000"]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("exit clause         as typed"));

    // A downgrade to a shorter reserved term: the replacement commits to the GPUs typed (the one
    // 1-year rate the catalog has is the L40S's); without --to-gpus it is refused by name.
    let downgrade = |gpus: &[&str]| {
        let mut args = vec![
            "exit",
            sample,
            "--scenario",
            "all-cloud",
            "--layer",
            "reserved",
            "--variant",
            "downgrade",
            "--month",
            "12",
            "--to-offer",
            "aws-g6e-l40s",
            "--to-kind",
            "reserved",
            "--to-term",
            "1y",
            "--json",
        ];
        args.extend_from_slice(gpus);
        planner(&args)
    };
    let json = |out: Output| {
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let eight = json(downgrade(&["--to-gpus", "8"]));
    let sixteen = json(downgrade(&["--to-gpus", "16"]));
    assert_eq!(
        eight["booking"]["replacement"].as_str(),
        Some("reserved-reserved"),
        "{eight}"
    );
    assert_eq!(sixteen["base_total"], eight["base_total"]);
    // Eight fewer GPUs committed for the year from month 12 (the rest of the work moves).
    assert_ne!(d(&eight["variant_total"]), d(&sixteen["variant_total"]));
    let missing = downgrade(&[]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("--to-gpus"),
        "{}",
        String::from_utf8_lossy(&missing.stderr)
    );
}

/// `planner exit --variant` prices one way out against staying, as the engine does: the text
/// shows the JSON's own figures, and a request the engine refuses is a clear error.
#[test]
fn exit_variants_are_priced_against_staying() {
    let sample = root().join("catalogs/samples/enterprise-hybrid.json");
    let sample = sample.to_str().unwrap();
    let json = planner(&[
        "exit",
        sample,
        "--scenario",
        "all-cloud",
        "--layer",
        "reserved",
        "--variant",
        "scale-down",
        "--month",
        "6",
        "--gpus",
        "8",
        "--json",
    ]);
    assert!(json.status.success(), "{}", String::from_utf8_lossy(&json.stderr));
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    let d = |k: &str| v[k].as_str().unwrap().parse::<rust_decimal::Decimal>().unwrap();
    assert_eq!(d("difference"), d("variant_total") - d("base_total"));
    assert_eq!(
        (
            v["booking"]["gpus_before"].as_u64(),
            v["booking"]["gpus_after"].as_u64()
        ),
        (Some(16), Some(8))
    );
    let text = planner(&[
        "exit",
        sample,
        "--scenario",
        "all-cloud",
        "--layer",
        "reserved",
        "--variant",
        "scale-down",
        "--month",
        "6",
        "--gpus",
        "8",
    ]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains(&format!(
            "{:.2}",
            planner_core::engine::blocks::finance::present(d("difference"))
        )),
        "{text}"
    );
    assert!(text.contains("GPUs                16 → 8"), "{text}");

    let sold = planner(&[
        "exit",
        sample,
        "--scenario",
        "hybrid",
        "--layer",
        "dgx",
        "--variant",
        "sell-early",
        "--month",
        "24",
        "--json",
    ]);
    assert!(sold.status.success(), "{}", String::from_utf8_lossy(&sold.stderr));
    let v: Value = serde_json::from_slice(&sold.stdout).unwrap();
    assert_eq!(v["booking"]["resale"]["gpus"].as_u64(), Some(16));

    let refused = planner(&[
        "exit",
        sample,
        "--scenario",
        "hybrid",
        "--layer",
        "dgx",
        "--variant",
        "scale-down",
        "--month",
        "6",
        "--gpus",
        "0",
    ]);
    assert!(!refused.status.success());
    let wrong = planner(&[
        "exit",
        sample,
        "--scenario",
        "hybrid",
        "--layer",
        "dgx",
        "--variant",
        "teleport",
        "--month",
        "6",
    ]);
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("scale-down"));
}
