//! The README's two commands.
//!
//! - `cargo xtask run`: installs what is missing, builds the UI and the app, and opens the window.
//! - `cargo xtask test`: installs what is missing and runs every test: formatting, lints, UI type
//!   checks and unit tests, Rust unit and integration tests, and the end-to-end tests of the real
//!   app under Xvfb through WebDriver. CI then fuzzes every importer for a bounded time
//!   (`.ci/run` calls `cargo xtask fuzz --seconds 40`).
//! - `cargo xtask samples`: builds the five sample workspaces from their recipes
//!   (`catalogs/samples/recipes/`) into `<target>/samples/` with the `planner` command line.
//! - `cargo xtask deb`: the samples, then a .deb bundled from the debug build already made (as
//!   `test` does before its tests).
//! - `cargo xtask fixtures`: records the UI tests' answers again from the real use cases (see
//!   `record_fixtures`).
//! - `cargo xtask fuzz [TARGET] [--seconds N | --runs N] [--jobs N]`: fuzzes the importers
//!   (see `fuzz.rs`).
//!
//! "What is missing" means Debian packages (with sudo when not root), the UI's npm packages,
//! `tauri-driver`, and the Python reference libraries the tests compare against. Every step's
//! failure stops the run with a non-zero exit; nothing is skipped silently.

use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

mod fuzz;
mod measure;

/// Packages to build the desktop shell (WebKitGTK and friends).
const APT_BUILD: &[&str] = &["libwebkit2gtk-4.1-dev", "build-essential", "pkg-config", "libssl-dev"];
/// Packages for headless end-to-end tests and the independent PDF and font checks: poppler-utils
/// (pdfsig, pdftotext, pdftoppm) and qpdf check the signed PDFs of planner-sign; openssl makes
/// and reads PKCS#12 files there; minisign (the reference implementation) checks that catalog
/// packs are signed in its format, both ways.
const APT_TEST: &[&str] = &[
    "xvfb",
    "xauth",
    "webkit2gtk-driver",
    "imagemagick",
    "fonts-dejavu-core",
    "poppler-utils",
    "qpdf",
    "openssl",
    "minisign",
];
/// tauri-driver bridges WebDriver clients to WebKitWebDriver; this version worked here.
const TAURI_DRIVER_VERSION: &str = "2.1.0";

type Step = Result<(), String>;

fn main() -> ExitCode {
    let mut args: Vec<String> = env::args().skip(1).collect();
    // `cargo xtask run -- --workspace F` hands the `--` on: it separates, it is not an app argument.
    if args.get(1).is_some_and(|a| a == "--") {
        args.remove(1);
    }
    let result = match args.first().map(String::as_str) {
        Some("run") => run(&args[1..]),
        Some("test") => test(),
        Some("measure") => measure::measure(&root(), &args[1..]),
        Some("fuzz") => fuzz::fuzz(&root(), &args[1..]),
        Some("soak") => soak(&args[1..]),
        Some("fixtures") => record_fixtures(&root()),
        // What `test` does after the build: the samples, then the .deb (the debug build must exist).
        Some("deb") => {
            let root = root();
            build_samples(&root)
                .and_then(|samples| bundle_deb(&root, &samples))
                .map(|deb| println!("xtask: {}", deb.display()))
        }
        Some("samples") => {
            let root = root();
            sh(Command::new("cargo")
                .args(["build", "--locked", "-p", "planner-cli", "--bin", "planner"])
                .current_dir(&root))
            .and_then(|()| build_samples(&root).map(|_| ()))
        }
        _ => Err(
            "usage: cargo xtask run [-- APP ARGS] | cargo xtask test | cargo xtask samples | cargo xtask deb | cargo xtask fixtures | cargo xtask measure [-- APP ARGS] | cargo xtask fuzz [TARGET] [--seconds N | --runs N] [--jobs N] | cargo xtask soak [--kills N]".to_owned(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The one build every command makes (`run`, `test`, `measure`, `soak`, and `fuzz`'s seeds), so
/// that one after the other compiles nothing again: every target `cargo clippy --all-targets`
/// checks (libraries, binaries, tests, benches, examples), linted as it compiles. See
/// [`linted_cargo`].
pub(crate) const BUILD_ARGS: &[&str] = &["build", "--workspace", "--all-targets", "--locked"];

/// `cargo` with the workspace's own crates compiled by clippy-driver, warnings denied: the lint
/// run and the build are one compilation instead of two (issue #43: a fresh `cargo clippy` pass
/// checked every dependency again, about 8 of a fresh test run's minutes). This is how `cargo
/// clippy` itself runs clippy (`RUSTC_WORKSPACE_WRAPPER`; its `-- -D warnings` reach the driver as
/// `CLIPPY_ARGS`), except that the compilation goes on to code generation; clippy-driver is rustc
/// with more lint passes, so the binaries are rustc's. Dependencies are compiled by plain rustc,
/// as under `cargo clippy`. Every build and test command of the xtask passes the same two
/// variables, since cargo compiles a crate again when either changes.
pub(crate) fn linted_cargo() -> Result<Command, String> {
    let mut c = Command::new("cargo");
    lint_as_compiled(&mut c)?;
    Ok(c)
}

/// Sets the two variables of [`linted_cargo`] on a command that runs cargo (directly or under
/// `xvfb-run`).
fn lint_as_compiled(c: &mut Command) -> Result<(), String> {
    let sysroot = Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()
        .map_err(|e| format!("could not run `rustc --print sysroot`: {e}"))?;
    let sysroot = String::from_utf8_lossy(&sysroot.stdout).trim().to_owned();
    let driver = Path::new(&sysroot).join("bin/clippy-driver");
    if !driver.is_file() {
        return Err(format!(
            "{} is missing: install clippy for the pinned toolchain (`rustup component add clippy`; rust-toolchain.toml lists it)",
            driver.display()
        ));
    }
    c.env("RUSTC_WORKSPACE_WRAPPER", driver)
        .env("CLIPPY_ARGS", "-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__");
    Ok(())
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

fn run(app_args: &[String]) -> Step {
    let root = root();
    ensure_apt(APT_BUILD)?;
    ensure_ui_packages(&root)?;
    sh(Command::new("npm").args(["run", "build"]).current_dir(root.join("ui")))?;
    // The same build as `cargo xtask test` (every package and target, so the same features
    // unify): running the app after the tests, or the tests after the app, compiles nothing again.
    sh(linted_cargo()?.args(BUILD_ARGS).current_dir(&root))?;
    let samples = build_samples(&root)?;
    if env::var_os("DISPLAY").is_none() && env::var_os("WAYLAND_DISPLAY").is_none() {
        return Err("no display found (DISPLAY and WAYLAND_DISPLAY are unset): run it in a desktop session, or headless as `xvfb-run -a cargo xtask run`".to_owned());
    }
    let mut app = Command::new(target_dir(&root).join("debug/compute-planner"));
    // The start screen lists the samples just built.
    app.env("PLANNER_SAMPLES_DIR", &samples);
    if app_args.is_empty() {
        let sample = sample_workspace(&root, &samples)?;
        app.arg("--catalog").arg(root.join("catalogs"));
        app.arg("--workspace").arg(sample);
    } else {
        app.args(app_args);
    }
    sh(app.current_dir(&root))
}

/// The workspace `cargo xtask run` opens: the enterprise hybrid sample, copied once from
/// `samples` and kept (with the edits made in it) in `<target>/sample/`; delete the file to start
/// again from the sample.
fn sample_workspace(root: &Path, samples: &Path) -> Result<PathBuf, String> {
    let path = target_dir(root).join("sample/enterprise-hybrid.cpw");
    if path.is_file() {
        return Ok(path);
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let built = samples.join("enterprise-hybrid.cpw");
    std::fs::copy(&built, &path).map_err(|e| format!("cannot copy {} to {}: {e}", built.display(), path.display()))?;
    Ok(path)
}

/// Builds every sample workspace from its recipe (`catalogs/samples/recipes/<name>.toml`) into
/// `<target>/samples/<name>.cpw` with the `planner` command line already built, from scratch
/// every time (the old folder is deleted), so a change of format or recipe shows at once.
/// Returns the folder.
fn build_samples(root: &Path) -> Result<PathBuf, String> {
    let out = target_dir(root).join("samples");
    if out.exists() {
        std::fs::remove_dir_all(&out).map_err(|e| format!("cannot delete {}: {e}", out.display()))?;
    }
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let recipes = root.join("catalogs/samples/recipes");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&recipes)
        .map_err(|e| format!("cannot read {}: {e}", recipes.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    names.sort();
    if names.is_empty() {
        return Err(format!("{} holds no recipe (*.toml)", recipes.display()));
    }
    for recipe in &names {
        let name = recipe
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        sh(Command::new(target_dir(root).join("debug/planner"))
            .arg("--catalog")
            .arg(root.join("catalogs"))
            .args(["workspace", "sample"])
            .arg(recipe)
            .arg("--out")
            .arg(out.join(format!("{name}.cpw")))
            .current_dir(root))?;
        // A workspace is written readable by its owner only; an installed sample must be
        // readable by every user (the app copies it into their documents folder).
        let built = out.join(format!("{name}.cpw"));
        std::fs::set_permissions(&built, std::os::unix::fs::PermissionsExt::from_mode(0o644))
            .map_err(|e| format!("cannot make {} readable: {e}", built.display()))?;
    }
    println!("xtask: {} sample workspaces in {}", names.len(), out.display());
    Ok(out)
}

/// Bundles a .deb from the debug build already made (`tauri bundle` with the UI's pinned
/// `@tauri-apps/cli`), with the sample workspaces in `samples` added to the resources by an
/// extra configuration (not in `tauri.conf.json`: tauri-build checks resource paths when it
/// compiles, and a clean clone has no samples yet). Returns the .deb.
fn bundle_deb(root: &Path, samples: &Path) -> Result<PathBuf, String> {
    let bundle_dir = target_dir(root).join("debug/bundle/deb");
    if bundle_dir.exists() {
        std::fs::remove_dir_all(&bundle_dir).map_err(|e| format!("cannot delete {}: {e}", bundle_dir.display()))?;
    }
    let glob = format!("{}/*.cpw", samples.display());
    let config = format!(
        "{{\"bundle\":{{\"resources\":{{{}:\"samples/\"}}}}}}",
        json_string(&glob)
    );
    let started = std::time::Instant::now();
    sh(Command::new("npx")
        .args([
            "--no-install",
            "tauri",
            "bundle",
            "--debug",
            "--bundles",
            "deb",
            "--config",
        ])
        .arg(&config)
        .env("TAURI_APP_PATH", root.join("src-tauri"))
        .env("TAURI_FRONTEND_PATH", root.join("ui"))
        .env("CARGO_TARGET_DIR", target_dir(root))
        .current_dir(root.join("ui")))?;
    println!("xtask: the .deb bundle took {:.1} s", started.elapsed().as_secs_f64());
    let deb = std::fs::read_dir(&bundle_dir)
        .map_err(|e| format!("cannot read {}: {e}", bundle_dir.display()))?
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "deb"))
        .ok_or_else(|| format!("tauri bundle made no .deb in {}", bundle_dir.display()))?;
    Ok(deb)
}

/// `text` as a JSON string literal.
fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// What the end-to-end tests need: the build and test packages, the UI's npm packages and
/// tauri-driver.
fn ensure_end_to_end_tools(root: &Path) -> Step {
    let mut apt: Vec<&str> = APT_BUILD.to_vec();
    apt.extend_from_slice(APT_TEST);
    ensure_apt(&apt)?;
    ensure_ui_packages(root)?;
    ensure_tauri_driver()
}

/// The crash soak CI runs after the tests: the real app killed with SIGKILL mid-burst `--kills`
/// times (default 100; `cargo xtask test` runs 40 of them), each time the file checked whole.
fn soak(args: &[String]) -> Step {
    let kills = match args {
        [] => 100,
        [flag, n] if flag == "--kills" => match n.parse::<u32>() {
            Ok(k) if (1..=10_000).contains(&k) => k,
            _ => return Err(format!("--kills `{n}`: give a whole number of rounds from 1 to 10000")),
        },
        _ => return Err("usage: cargo xtask soak [--kills N]".to_owned()),
    };
    let root = root();
    ensure_end_to_end_tools(&root)?;
    sh(Command::new("npm").args(["run", "build"]).current_dir(root.join("ui")))?;
    sh(linted_cargo()?.args(BUILD_ARGS).current_dir(&root))?;
    let app = target_dir(&root).join("debug/compute-planner");
    // `--workspace`, not `-p planner-tests`: the features unify as in the build, so nothing is
    // compiled again.
    let args = [
        "--workspace",
        "--test",
        "e2e_workspace_crash",
        "--",
        "--include-ignored",
        "--test-threads=1",
        "--nocapture",
    ];
    sh(xvfb_cargo_test(&args, &app)?
        .env("PLANNER_KILL_ROUNDS", kills.to_string())
        .current_dir(&root))
}

/// `cargo test --locked ARGS` under a virtual X server at 1280x800, with the built app named for
/// the end-to-end tests.
fn xvfb_cargo_test(args: &[&str], app: &Path) -> Result<Command, String> {
    let mut c = Command::new("xvfb-run");
    c.args(["-a", "-s", "-screen 0 1280x800x24", "cargo", "test", "--locked"])
        .args(args)
        .env("PLANNER_APP_BINARY", app)
        .env("WEBKIT_DISABLE_DMABUF_RENDERER", "1");
    // The build's own variables, or cargo would compile the workspace's crates again.
    lint_as_compiled(&mut c)?;
    Ok(c)
}

fn test() -> Step {
    let root = root();
    ensure_end_to_end_tools(&root)?;
    // The engine's finance functions are checked against numpy-financial, an independent reference.
    ensure_python_module("numpy_financial", "numpy-financial")?;
    // Exported workbooks are read back with openpyxl, a reader no one here wrote.
    ensure_python_module("openpyxl", "openpyxl")?;
    // Signed PDFs are validated with pyHanko (library, certificate validator and command line).
    ensure_python_module("pyhanko.cli", "pyhanko pyhanko-certvalidator pyhanko-cli")?;

    let ui = root.join("ui");
    sh(Command::new("npm").args(["run", "check"]).current_dir(&ui))?;
    sh(Command::new("npm").args(["test"]).current_dir(&ui))?;
    sh(Command::new("npm").args(["run", "build"]).current_dir(&ui))?;

    sh(Command::new("cargo")
        .args(["fmt", "--all", "--", "--check"])
        .current_dir(&root))?;
    sh(linted_cargo()?.args(BUILD_ARGS).current_dir(&root))?;
    let samples = build_samples(&root)?;
    let deb = bundle_deb(&root, &samples)?;

    // Everything, including the end-to-end tests (marked #[ignore] so that a plain `cargo test`
    // without a display stays usable), under a virtual X server.
    let app = target_dir(&root).join("debug/compute-planner");
    // A test must never write into the user's own folders (WebKit's local storage once kept
    // what a test typed there): fingerprint them before and compare after.
    let before = user_folders_fingerprint();
    // The unit and integration tests run as a plain `cargo test` runs them, on every core; the
    // end-to-end tests (`#[ignore]`d, see above) then one at a time, since WebDriver sessions
    // share one display.
    sh(xvfb_cargo_test(&["--workspace"], &app)?
        .env("PLANNER_DEB", &deb)
        .current_dir(&root))?;
    let args = ["--workspace", "--", "--ignored", "--test-threads=1"];
    sh(xvfb_cargo_test(&args, &app)?
        .env("PLANNER_DEB", &deb)
        .current_dir(&root))?;
    let after = user_folders_fingerprint();
    if before != after {
        let changed: Vec<String> = after
            .iter()
            .filter(|e| !before.contains(e))
            .chain(before.iter().filter(|e| !after.contains(e)))
            .map(|(p, size, _)| format!("{} ({size} bytes)", p.display()))
            .collect();
        return Err(format!(
            "the test run changed the user's own app folders (tests must use their own): {}",
            changed.join(", ")
        ));
    }
    println!("xtask: the user's app folders are as they were before the tests");
    // Coverage-guided fuzzing (issue #14) is not here: its instrumented release build takes
    // about 12 minutes of a fresh run. CI runs `cargo xtask fuzz --seconds 40` after this
    // command (`.ci/run`), and a developer runs it with `cargo xtask fuzz` (issue #43).
    println!("xtask: every test passed");
    Ok(())
}

/// Records the UI tests' answers again: builds the host server (planner-app's binary, the real
/// use cases on a test host), runs the UI tests in record mode so each writes the calls it made
/// with their answers to `ui/tests/recorded/`, then runs them again in replay mode and the Rust
/// test that replays every recording. Recordings of tests that are gone are removed first.
fn record_fixtures(root: &Path) -> Step {
    ensure_ui_packages(root)?;
    sh(Command::new("cargo")
        .args(["build", "--locked", "-p", "planner-app", "--bin", "planner-host-server"])
        .current_dir(root))?;
    let recorded = root.join("ui/tests/recorded");
    if recorded.exists() {
        std::fs::remove_dir_all(&recorded).map_err(|e| format!("{}: {e}", recorded.display()))?;
    }
    let server = target_dir(root).join("debug/planner-host-server");
    let ui = root.join("ui");
    // One test file at a time: the host answers as promptly as it can, as a replay does. The
    // architecture rules (which check that the recordings exist) run in the replay below.
    sh(Command::new("npm")
        .args([
            "test",
            "--",
            "--no-file-parallelism",
            "--exclude",
            "tests/architecture.test.ts",
        ])
        .env("RECORD_ANSWERS", "1")
        .env("PLANNER_HOST_SERVER", &server)
        .current_dir(&ui))?;
    sh(Command::new("npm").args(["test"]).current_dir(&ui))?;
    sh(Command::new("cargo")
        .args(["test", "--locked", "-p", "planner-app", "--test", "recorded_answers"])
        .current_dir(root))?;
    println!("xtask: the UI tests' answers are recorded in {}", recorded.display());
    Ok(())
}

/// The app's folders in the user's home, as the platform's XDG rules place them (the bundle
/// identifier's folder under data, config, cache and state), every file with its size and
/// modification time.
fn user_folders_fingerprint() -> Vec<(PathBuf, u64, Option<std::time::SystemTime>)> {
    const ID: &str = "dev.computeplanner.desktop";
    let home = env::var_os("HOME").map(PathBuf::from).unwrap_or_default();
    let base = |var: &str, default: &str| {
        env::var_os(var)
            .map(PathBuf::from)
            .unwrap_or_else(|| home.join(default))
    };
    let mut out = Vec::new();
    let mut stack: Vec<PathBuf> = [
        base("XDG_DATA_HOME", ".local/share"),
        base("XDG_CONFIG_HOME", ".config"),
        base("XDG_CACHE_HOME", ".cache"),
        base("XDG_STATE_HOME", ".local/state"),
    ]
    .iter()
    .flat_map(|b| [b.join(ID), b.join("compute-planner")])
    .collect();
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            match entry.metadata() {
                Ok(m) if m.is_dir() => stack.push(path),
                Ok(m) => out.push((path, m.len(), m.modified().ok())),
                Err(_) => {}
            }
        }
    }
    out.sort();
    out
}

pub(crate) fn target_dir(root: &Path) -> PathBuf {
    env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from)
}

/// Runs a command with inherited output; a non-zero exit is an error naming the command.
pub(crate) fn sh(cmd: &mut Command) -> Step {
    let shown = format!("{:?}", cmd).replace('"', "");
    println!("xtask: $ {shown}");
    let started = std::time::Instant::now();
    let status = cmd.status().map_err(|e| format!("cannot start `{shown}`: {e}"))?;
    println!("xtask: {:.1} s for `{shown}`", started.elapsed().as_secs_f64());
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{shown}` failed ({status})"))
    }
}

fn succeeds(cmd: &mut Command) -> bool {
    cmd.output().is_ok_and(|o| o.status.success())
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Installs the Debian packages that are not installed yet.
pub(crate) fn ensure_apt(packages: &[&str]) -> Step {
    let missing: Vec<&str> = packages
        .iter()
        .copied()
        .filter(|p| {
            !Command::new("dpkg-query")
                .args(["-W", "-f=${Status}", p])
                .output()
                .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("install ok installed"))
        })
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    println!("xtask: installing Debian packages: {}", missing.join(" "));
    let prefix: Vec<&str> = if is_root() { vec![] } else { vec!["sudo"] };
    let apt = |args: &[&str]| -> Step {
        let mut all: Vec<&str> = prefix.clone();
        all.extend_from_slice(args);
        sh(Command::new(all[0])
            .args(&all[1..])
            .env("DEBIAN_FRONTEND", "noninteractive"))
    };
    apt(&["apt-get", "update", "-qq"])?;
    let mut install = vec!["apt-get", "install", "-y", "-qq", "--no-install-recommends"];
    install.extend(missing);
    apt(&install)
}

/// `npm ci` when the installed packages are missing or older than the lock file.
fn ensure_ui_packages(root: &Path) -> Step {
    let ui = root.join("ui");
    let stamp = ui.join("node_modules/.package-lock.json");
    let lock = ui.join("package-lock.json");
    let modified = |p: &Path| p.metadata().and_then(|m| m.modified()).ok();
    let fresh = matches!((modified(&stamp), modified(&lock)), (Some(s), Some(l)) if s >= l);
    if fresh {
        return Ok(());
    }
    sh(Command::new("npm")
        .args(["ci", "--no-audit", "--no-fund"])
        .current_dir(&ui))
}

/// Installs PyPI packages (`packages` is one name or several separated by spaces) when
/// `python3 -c "import MODULE"` fails.
pub(crate) fn ensure_python_module(module: &str, packages: &str) -> Step {
    if succeeds(Command::new("python3").args(["-c", &format!("import {module}")])) {
        return Ok(());
    }
    let pip = |extra: &[&str]| {
        let mut cmd = Command::new("python3");
        cmd.args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check"])
            .args(extra)
            .args(packages.split_whitespace());
        sh(&mut cmd)
    };
    // A Debian system Python refuses installs outside a virtual environment (PEP 668); a user
    // install is then the least intrusive way for tests that only read the module.
    pip(&[]).or_else(|_| pip(&["--user", "--break-system-packages"]))
}

fn ensure_tauri_driver() -> Step {
    let has = |cmd: &str| succeeds(Command::new(cmd).arg("--help"));
    if has("tauri-driver") || cargo_bin("tauri-driver").is_file() {
        return Ok(());
    }
    sh(Command::new("cargo").args(["install", "tauri-driver", "--version", TAURI_DRIVER_VERSION, "--locked"]))
}

fn cargo_bin(name: &str) -> PathBuf {
    let home = env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .unwrap_or_default();
    home.join("bin").join(name)
}
