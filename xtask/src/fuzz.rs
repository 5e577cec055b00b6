//! `cargo xtask fuzz [TARGET] [--seconds N | --runs N] [--jobs N]`: coverage-guided fuzzing of
//! every importer with libFuzzer, on the stable toolchain (issue #14).
//!
//! The targets are the binaries of `tests/fuzz` (a crate outside the root workspace). They are
//! built in release mode with SanitizerCoverage passes given through `RUSTFLAGS` (what
//! `cargo fuzz build --sanitizer none` passes; no nightly flag), with debug assertions and
//! overflow checks on, into `target/fuzz`. `libfuzzer-sys` builds libFuzzer itself with the C++
//! compiler, so nothing is installed beyond what the app's build needs.
//!
//! Each target starts from seeds made from the repository's own files at every run (samples,
//! catalogs, templates, fixtures; workspaces, signed PDFs and identities made with the `planner`
//! command line; workbooks written with openpyxl from the quote fixtures; identities from
//! OpenSSL) plus the corpus it grew before (`target/fuzz/corpus/TARGET`, kept between local
//! runs, never committed). Every input is held to the limits the issue sets: one second
//! (`-timeout=1`), 200 MB resident (`-rss_limit_mb=200`, which also bounds a single allocation),
//! and at most 1 MiB long (`-max_len=1048576`). A crash, timeout or out-of-memory leaves its
//! input in `target/fuzz/artifacts/TARGET/` and fails the run, naming it and how to replay it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// Every target: its binary's name, and what it fuzzes.
pub const TARGETS: [(&str, &str); 9] = [
    ("scenario_json", "scenario file: parse, validate, evaluate, compare"),
    (
        "catalog_toml",
        "catalog file: parse and assemble with the shipped catalog",
    ),
    ("checklist_template", "checklist template: parse and issues"),
    ("quote_csv", "RFP quotes from CSV"),
    ("quote_xlsx", "RFP quotes from XLSX"),
    ("workspace_file", "workspace file: open, show, export, check, audit"),
    ("pdf_verify", "PDF signature verification"),
    ("pkcs12", "PKCS#12 identity with a passphrase"),
    ("catalog_pack", "signed catalog pack: zip, signature, manifest, files"),
];

/// SanitizerCoverage as cargo-fuzz sets it up with `--sanitizer none`: 8-bit counters per edge,
/// the PC table libFuzzer reports coverage with, and comparison tracing to guide mutations.
/// All are stable `-C` options. `--cfg fuzzing` is what libfuzzer-sys and its users key on.
const COVERAGE_FLAGS: &[&str] = &[
    "-Cpasses=sancov-module",
    "-Cllvm-args=-sanitizer-coverage-level=4",
    "-Cllvm-args=-sanitizer-coverage-inline-8bit-counters",
    "-Cllvm-args=-sanitizer-coverage-pc-table",
    "-Cllvm-args=-sanitizer-coverage-trace-compares",
    "--cfg",
    "fuzzing",
    "-Cdebug-assertions",
    "-Coverflow-checks",
];

/// The limits every input is held to (issue #14): one second, 200 MB, inputs up to 1 MiB.
const LIMITS: &[&str] = &["-timeout=1", "-rss_limit_mb=200", "-max_len=1048576"];

/// The passphrase of the OpenSSL seed identities; the pkcs12 target opens every input with it
/// (`planner_fuzz::PASSPHRASE`).
const PASSPHRASE: &str = "fuzz-passphrase";
/// The passphrase of the identity the `planner` command line makes (and signs the seed PDFs
/// with). It differs on purpose: that file asks for 400,000 PBKDF2 iterations, two thirds of a
/// second in the instrumented build, so the target reads it up to the MAC check (the wrong
/// passphrase path) and the OpenSSL seeds, with 1,000 iterations, take the decryption path.
const CLI_PASSPHRASE: &str = "the planner's own passphrase";

/// The small catalog of the engine's tests, which the samples validate against.
const ENGINE_CATALOG: &str = "src-tauri/crates/planner-core/tests/fixtures/engine-catalog";

/// How long each target runs when nothing is said.
const DEFAULT_SECONDS: u64 = 60;

#[derive(Debug, Clone, Copy)]
enum Budget {
    Seconds(u64),
    Runs(u64),
}

struct Options {
    targets: Vec<&'static str>,
    budget: Budget,
    jobs: usize,
}

fn usage() -> String {
    let names: Vec<&str> = TARGETS.iter().map(|t| t.0).collect();
    format!(
        "usage: cargo xtask fuzz [TARGET] [--seconds N | --runs N] [--jobs N]\n  targets: {}\n  default: every target for {DEFAULT_SECONDS} s each, two at a time",
        names.join(", ")
    )
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut targets = Vec::new();
    let mut budget = Budget::Seconds(DEFAULT_SECONDS);
    let mut jobs = 2;
    let mut it = args.iter();
    let number = |flag: &str, v: Option<&String>| -> Result<u64, String> {
        v.and_then(|v| v.parse::<u64>().ok())
            .filter(|n| *n > 0)
            .ok_or_else(|| format!("{flag} takes a positive whole number\n{}", usage()))
    };
    while let Some(a) = it.next() {
        match a.as_str() {
            "--seconds" => budget = Budget::Seconds(number(a, it.next())?),
            "--runs" => budget = Budget::Runs(number(a, it.next())?),
            "--jobs" => jobs = usize::try_from(number(a, it.next())?).unwrap_or(1),
            "-h" | "--help" => return Err(usage()),
            name => match TARGETS.iter().find(|t| t.0 == name) {
                Some(t) => targets.push(t.0),
                None => return Err(format!("unknown fuzz target `{name}`\n{}", usage())),
            },
        }
    }
    if targets.is_empty() {
        targets = TARGETS.iter().map(|t| t.0).collect();
    }
    Ok(Options { targets, budget, jobs })
}

/// `cargo xtask fuzz ...`.
pub fn fuzz(root: &Path, args: &[String]) -> Result<(), String> {
    let options = parse(args)?;
    let dir = crate::target_dir(root).join("fuzz");
    let triple = host_triple()?;
    build(root, &dir, &triple)?;
    let bin_dir = dir.join(&triple).join("release");
    let seeds = dir.join("seeds");
    make_seeds(root, &seeds)?;
    run_all(&bin_dir, &dir, &seeds, &options)
}

fn host_triple() -> Result<String, String> {
    let out = Command::new("rustc")
        .arg("-vV")
        .output()
        .map_err(|e| format!("cannot run rustc -vV: {e}"))?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_owned))
        .ok_or_else(|| "rustc -vV names no host".to_owned())
}

/// Builds every target. `--target` keeps the coverage flags off build scripts and procedural
/// macros, which run on the build machine and are not fuzzed.
fn build(root: &Path, dir: &Path, triple: &str) -> Result<(), String> {
    let mut flags = std::env::var("RUSTFLAGS").unwrap_or_default();
    for f in COVERAGE_FLAGS {
        if !flags.is_empty() {
            flags.push(' ');
        }
        flags.push_str(f);
    }
    crate::sh(
        Command::new("cargo")
            .args([
                "build",
                "--release",
                "--locked",
                "--bins",
                "--target",
                triple,
                "--manifest-path",
            ])
            .arg(root.join("tests/fuzz/Cargo.toml"))
            .env("CARGO_TARGET_DIR", dir)
            .env("RUSTFLAGS", flags)
            .current_dir(root),
    )
}

fn copy_matching(from: &Path, ext: &str, to: &Path) -> Result<usize, String> {
    let entries = fs::read_dir(from).map_err(|e| format!("cannot list {}: {e}", from.display()))?;
    let mut n = 0;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_file() && path.extension().is_some_and(|e| e == ext) {
            let name = path.file_name().unwrap_or_default();
            fs::copy(&path, to.join(name)).map_err(|e| format!("cannot copy {}: {e}", path.display()))?;
            n += 1;
        }
    }
    Ok(n)
}

fn fresh_dir(dir: &Path) -> Result<(), String> {
    if dir.exists() {
        fs::remove_dir_all(dir).map_err(|e| format!("cannot clear {}: {e}", dir.display()))?;
    }
    fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))
}

/// Makes every target's seeds from the repository's files, afresh.
fn make_seeds(root: &Path, seeds: &Path) -> Result<(), String> {
    for (name, _) in TARGETS {
        fresh_dir(&seeds.join(name))?;
    }
    let at = |t: &str| seeds.join(t);
    let repo = |p: &str| root.join(p);

    copy_matching(&repo("catalogs/samples"), "json", &at("scenario_json"))?;
    for dir in [
        "catalogs",
        "tests/fixtures/catalog-min",
        "tests/fixtures/catalog-errors",
        ENGINE_CATALOG,
    ] {
        let target = at("catalog_toml");
        // Same file names in different folders: keep each.
        let tmp = seeds.join("tmp");
        fresh_dir(&tmp)?;
        copy_matching(&repo(dir), "toml", &tmp)?;
        for entry in fs::read_dir(&tmp).map_err(|e| e.to_string())?.flatten() {
            let prefix = dir.replace('/', "_");
            let name = format!("{prefix}_{}", entry.file_name().to_string_lossy());
            fs::rename(entry.path(), target.join(name)).map_err(|e| e.to_string())?;
        }
        fs::remove_dir_all(&tmp).map_err(|e| e.to_string())?;
    }
    copy_matching(&repo("catalogs/checklists"), "toml", &at("checklist_template"))?;
    copy_matching(&repo("catalogs/templates"), "csv", &at("quote_csv"))?;
    copy_matching(
        &repo("src-tauri/crates/planner-store/tests/fixtures/quotes"),
        "csv",
        &at("quote_csv"),
    )?;
    xlsx_seeds(&at("quote_csv"), &at("quote_xlsx"))?;
    // Workbooks whose dimension and references lie at Excel's limits and just beyond them
    // (issue #41), so the fuzzer starts next to the references the reader must refuse.
    copy_matching(
        &repo("src-tauri/crates/planner-store/tests/fixtures/quotes/xlsx-refs"),
        "xlsx",
        &at("quote_xlsx"),
    )?;
    fs::copy(
        repo("src-tauri/crates/planner-sign/tests/fixtures/printpdf-0.12.8-3pages.pdf"),
        at("pdf_verify").join("unsigned.pdf"),
    )
    .map_err(|e| format!("cannot copy the PDF fixture: {e}"))?;
    cli_seeds(root, seeds)?;
    openssl_seeds(&at("pkcs12"))?;
    for (name, _) in TARGETS {
        let n = fs::read_dir(at(name)).map(|d| d.count()).unwrap_or(0);
        if n == 0 {
            return Err(format!("no seed was made for the fuzz target {name}"));
        }
    }
    Ok(())
}

/// Workbooks made from the CSV quote fixtures with openpyxl (an independent writer): numbers as
/// numbers, dates as dates, and one workbook whose quotes are on its second sheet.
fn xlsx_seeds(csv_dir: &Path, out: &Path) -> Result<(), String> {
    crate::ensure_python_module("openpyxl", "openpyxl")?;
    const SCRIPT: &str = r#"
import csv, datetime, pathlib, sys
from openpyxl import Workbook
src, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
def cell(v):
    try:
        return datetime.date.fromisoformat(v)
    except ValueError:
        pass
    try:
        return int(v) if v.strip().isdigit() else float(v)
    except ValueError:
        return v
for f in sorted(src.glob("*.csv")):
    rows = list(csv.reader(f.read_text(encoding="utf-8-sig").splitlines()))
    if not rows:
        continue
    wb = Workbook()
    ws = wb.active
    ws.title = "Quotes"
    for r in rows:
        ws.append([cell(v) for v in r])
    wb.save(out / (f.stem + ".xlsx"))
    if f.stem == "good":
        wb2 = Workbook()
        notes = wb2.active
        notes.title = "Notes"
        notes.append(["Quotes received for the RFP"])
        q = wb2.create_sheet("Quotes")
        for r in rows:
            q.append([cell(v) for v in r])
        wb2.save(out / "good-second-sheet.xlsx")
"#;
    crate::sh(Command::new("python3").args(["-c", SCRIPT]).arg(csv_dir).arg(out))
}

/// Workspaces, a signing identity and signed PDFs made with the `planner` command line, the
/// way a person makes them.
fn cli_seeds(root: &Path, seeds: &Path) -> Result<(), String> {
    // The same build as `cargo xtask test` and `run` (a no-op after them): building the CLI
    // alone would unify features differently and compile much of the tree again.
    crate::sh(crate::linted_cargo()?.args(crate::BUILD_ARGS).current_dir(root))?;
    let planner = crate::target_dir(root).join("debug/planner");
    let work = seeds.join("made");
    fresh_dir(&work)?;
    let cli = |catalog: &str| {
        let mut c = Command::new(&planner);
        c.arg("--catalog")
            .arg(root.join(catalog))
            .env("PLANNER_FUZZ_PASSPHRASE", CLI_PASSPHRASE)
            .stdout(Stdio::null())
            .current_dir(root);
        c
    };
    let ws = seeds.join("workspace_file");
    crate::sh(
        cli("tests/fixtures/catalog-min")
            .args(["workspace", "new"])
            .arg(ws.join("small.cpw"))
            .args(["--title", "Fuzz seed"]),
    )?;
    // Workspaces with scenarios, on the engine tests' small catalog: a workspace holds its
    // catalog snapshot, and every open loads it, so the shipped catalog (100 KB of TOML) would
    // slow each run tenfold and leave the fuzzer mutating the snapshot's text.
    for sample in ["student-lora-rtx4090", "enterprise-hybrid"] {
        crate::sh(
            cli(ENGINE_CATALOG)
                .args(["workspace", "new"])
                .arg(ws.join(format!("{sample}.cpw")))
                .arg("--from")
                .arg(root.join(format!("catalogs/samples/{sample}.json"))),
        )?;
    }
    // A pack of the shipped catalog (a pack's version must be dotted numbers, which the test
    // catalogs' are not), signed by a key made for the seed; the target checks the manifest and
    // files whatever the signature says.
    crate::sh(
        cli("catalogs")
            .args(["catalog", "keygen", "--out"])
            .arg(work.join("seed")),
    )?;
    crate::sh(
        cli("catalogs")
            .args(["catalog", "pack"])
            .arg(root.join("catalogs"))
            .arg("--sign-with")
            .arg(work.join("seed.key"))
            .args(["--publisher", "Fuzz Seed", "--date", "2026-12-01", "--out"])
            .arg(seeds.join("catalog_pack/shipped-catalog.cpack")),
    )?;
    let identity = seeds.join("pkcs12/planner-identity.p12");
    crate::sh(
        cli("catalogs")
            .args([
                "identity",
                "new",
                "--name",
                "Fuzz Seed",
                "--org",
                "Compute Planner",
                "--out",
            ])
            .arg(&identity)
            .args(["--passphrase-env", "PLANNER_FUZZ_PASSPHRASE"]),
    )?;
    let pdfs = seeds.join("pdf_verify");
    let one = pdfs.join("signed-once.pdf");
    fs::copy(pdfs.join("unsigned.pdf"), &one).map_err(|e| format!("cannot copy: {e}"))?;
    crate::sh(
        cli("catalogs")
            .arg("sign")
            .arg(&one)
            .arg("--with")
            .arg(&identity)
            .args(["--passphrase-env", "PLANNER_FUZZ_PASSPHRASE", "--reason", "Author"]),
    )?;
    let two = pdfs.join("signed-twice.pdf");
    fs::copy(&one, &two).map_err(|e| format!("cannot copy: {e}"))?;
    crate::sh(
        cli("catalogs")
            .arg("sign")
            .arg(&two)
            .arg("--with")
            .arg(&identity)
            .args(["--passphrase-env", "PLANNER_FUZZ_PASSPHRASE"]),
    )?;
    fs::remove_dir_all(&work).map_err(|e| e.to_string())
}

/// Identities as OpenSSL 3 exports them (P-256 and RSA-2048), with few PBKDF2 iterations so
/// that an input which keeps the right passphrase still runs quickly.
fn openssl_seeds(out: &Path) -> Result<(), String> {
    crate::ensure_apt(&["openssl"])?;
    let tmp = out.join("tmp");
    fresh_dir(&tmp)?;
    for (name, key) in [
        ("ec", &["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"][..]),
        ("rsa", &["-newkey", "rsa:2048"][..]),
    ] {
        let key_pem = tmp.join(format!("{name}.key"));
        let cert_pem = tmp.join(format!("{name}.crt"));
        crate::sh(
            Command::new("openssl")
                .args([
                    "req",
                    "-x509",
                    "-nodes",
                    "-days",
                    "365",
                    "-subj",
                    "/CN=Fuzz Seed/O=Compute Planner",
                ])
                .args(key)
                .arg("-keyout")
                .arg(&key_pem)
                .arg("-out")
                .arg(&cert_pem)
                .stderr(Stdio::null()),
        )?;
        crate::sh(
            Command::new("openssl")
                .args(["pkcs12", "-export", "-iter", "1000", "-passout"])
                .arg(format!("pass:{PASSPHRASE}"))
                .arg("-inkey")
                .arg(&key_pem)
                .arg("-in")
                .arg(&cert_pem)
                .arg("-out")
                .arg(out.join(format!("openssl-{name}.p12"))),
        )?;
    }
    fs::remove_dir_all(&tmp).map_err(|e| e.to_string())
}

/// What one target's run came to.
struct Outcome {
    target: &'static str,
    ok: bool,
    seconds: f64,
    line: String,
    log: PathBuf,
    artifacts: Vec<PathBuf>,
}

fn run_all(bin_dir: &Path, dir: &Path, seeds: &Path, options: &Options) -> Result<(), String> {
    let scratch = Path::new("/dev/shm");
    let mut outcomes = Vec::new();
    for group in options.targets.chunks(options.jobs.max(1)) {
        let mut running = Vec::new();
        for &target in group {
            let corpus = dir.join("corpus").join(target);
            let artifacts = dir.join("artifacts").join(target);
            fs::create_dir_all(&corpus).map_err(|e| format!("cannot create {}: {e}", corpus.display()))?;
            fresh_dir(&artifacts)?;
            let log = dir.join("logs").join(format!("{target}.log"));
            if let Some(p) = log.parent() {
                fs::create_dir_all(p).map_err(|e| e.to_string())?;
            }
            let log_file = fs::File::create(&log).map_err(|e| format!("cannot create {}: {e}", log.display()))?;
            let mut cmd = Command::new(bin_dir.join(target));
            cmd.arg(&corpus)
                .arg(seeds.join(target))
                .args(LIMITS)
                .arg(format!("-artifact_prefix={}/", artifacts.display()))
                .arg("-print_final_stats=1")
                .stdout(Stdio::null())
                .stderr(log_file);
            match options.budget {
                Budget::Seconds(s) => cmd.arg(format!("-max_total_time={s}")),
                Budget::Runs(n) => cmd.arg(format!("-runs={n}")),
            };
            if scratch.is_dir() {
                cmd.env("PLANNER_FUZZ_SCRATCH", scratch);
            }
            println!(
                "xtask: fuzzing {target} ({:?}), log in {}",
                options.budget,
                log.display()
            );
            let child = cmd
                .spawn()
                .map_err(|e| format!("cannot start the fuzz target {target}: {e}"))?;
            running.push((target, child, Instant::now(), log, artifacts));
        }
        for (target, mut child, started, log, artifacts) in running {
            let status = child.wait().map_err(|e| format!("{target}: {e}"))?;
            let seconds = started.elapsed().as_secs_f64();
            let text = fs::read_to_string(&log).unwrap_or_default();
            let found: Vec<PathBuf> = fs::read_dir(&artifacts)
                .map(|d| d.flatten().map(|e| e.path()).collect())
                .unwrap_or_default();
            let line = summary(&text, seconds);
            println!("xtask: {target}: {line}");
            outcomes.push(Outcome {
                target,
                ok: status.success() && found.is_empty(),
                seconds,
                line,
                log,
                artifacts: found,
            });
        }
    }
    let failed: Vec<&Outcome> = outcomes.iter().filter(|o| !o.ok).collect();
    if failed.is_empty() {
        let total: f64 = outcomes.iter().map(|o| o.seconds).sum();
        println!(
            "xtask: fuzzing found nothing in {} target(s) ({total:.0} s of fuzzing): no panic, abort, timeout over 1 s or memory over 200 MB",
            outcomes.len()
        );
        return Ok(());
    }
    let mut message = String::from("fuzzing found a problem:");
    for o in failed {
        let kind = o
            .artifacts
            .iter()
            .filter_map(|a| a.file_name().map(|n| n.to_string_lossy().into_owned()))
            .collect::<Vec<_>>()
            .join(", ");
        message.push_str(&format!(
            "\n  {}: {} — artifacts: {}; log: {}\n    replay: {} {}",
            o.target,
            o.line,
            if kind.is_empty() {
                "none (see the log)".to_owned()
            } else {
                kind
            },
            o.log.display(),
            bin_dir.join(o.target).display(),
            o.artifacts
                .first()
                .map_or_else(|| "FILE".to_owned(), |a| a.display().to_string()),
        ));
        if let Ok(text) = fs::read_to_string(&o.log) {
            let lines: Vec<&str> = text.lines().collect();
            let from = lines.len().saturating_sub(30);
            eprintln!(
                "--- last lines of {} ---\n{}",
                o.log.display(),
                lines[from..].join("\n")
            );
        }
    }
    Err(message)
}

/// "N runs in S s (R/s), cov C ft F, corpus K, peak RSS M MB" from libFuzzer's log.
fn summary(log: &str, seconds: f64) -> String {
    let stat = |name: &str| {
        log.lines()
            .find_map(|l| l.strip_prefix(&format!("stat::{name}:")).map(|v| v.trim().to_owned()))
            .unwrap_or_else(|| "?".to_owned())
    };
    // The last status line ("#123 DONE cov: 456 ft: 789 corp: 10/2Kb ...") has the coverage.
    let last = log
        .lines()
        .rev()
        .find(|l| l.starts_with('#') && l.contains("cov:"))
        .unwrap_or("");
    let field = |key: &str| {
        last.split_whitespace()
            .skip_while(|w| *w != key)
            .nth(1)
            .unwrap_or("?")
            .to_owned()
    };
    let runs = stat("number_of_executed_units");
    let rate = runs
        .parse::<f64>()
        .ok()
        .filter(|_| seconds > 0.0)
        .map_or_else(|| "?".to_owned(), |r| format!("{:.0}", r / seconds));
    format!(
        "{runs} runs in {seconds:.0} s ({rate}/s), cov {} ft {}, corpus {}, peak RSS {} MB",
        field("cov:"),
        field("ft:"),
        field("corp:"),
        stat("peak_rss_mb")
    )
}
