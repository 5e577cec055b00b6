//! Launching the real app under tauri-driver and talking WebDriver to it.
//!
//! The tests need a display (Xvfb in CI), `tauri-driver` and Debian's `WebKitWebDriver`, and the
//! built app (`PLANNER_APP_BINARY`, or `target/debug/compute-planner`). They are `#[ignore]`d so a
//! plain `cargo test` works anywhere; `cargo xtask test` runs them with `--include-ignored`, and a
//! missing piece then fails the test with what to install, never a silent skip.

// Each end-to-end test file includes this module and uses a part of it.
#![allow(dead_code)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};

/// How long an element may take to appear.
const WAIT: Duration = Duration::from_secs(20);

pub fn workspace_root() -> PathBuf {
    planner_tests::repo_root()
}

pub fn artifacts_dir() -> PathBuf {
    let dir = workspace_root().join("artifacts/e2e");
    std::fs::create_dir_all(&dir).expect("create artifacts/e2e");
    dir
}

fn app_binary() -> PathBuf {
    let path = std::env::var_os("PLANNER_APP_BINARY")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target/debug/compute-planner"));
    assert!(
        path.is_file(),
        "the app is not built at {}: run `cargo build -p compute-planner` (or `cargo xtask test`)",
        path.display()
    );
    path
}

fn tauri_driver() -> PathBuf {
    let in_cargo = std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo/bin/tauri-driver"));
    match in_cargo {
        Some(p) if p.is_file() => p,
        _ => PathBuf::from("tauri-driver"),
    }
}

/// The folders a launched app (and its WebKit) keeps configuration, data, cache and state in:
/// one set per test, under the system's temporary folder, never the user's own. WebKit keeps
/// local storage (what a test typed) in the data folder, so without this a test's reviewer name
/// would greet the user in the real app. Tests run one at a time, each on a thread named after
/// it; a test that launches the app twice finds its own folders again.
pub fn test_home() -> PathBuf {
    let name: String = std::thread::current()
        .name()
        .unwrap_or("main")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let dir = std::env::temp_dir()
        .join(format!("planner-e2e-{}", std::process::id()))
        .join(name);
    for sub in ["config", "data", "cache", "state"] {
        std::fs::create_dir_all(dir.join(sub)).expect("create the test's own home folders");
    }
    dir
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free local port")
}

/// A running app with a WebDriver session; dropping it ends both.
pub struct App {
    pub client: Client,
    /// Taken by `close`; a test that panics before closing still stops it in `drop`.
    driver: Option<Child>,
}

/// SIGTERM lets tauri-driver stop WebKitWebDriver (and the app) too; SIGKILL would leave them
/// running.
fn stop_driver(driver: &mut Child) {
    let _ = Command::new("kill").args(["-TERM", &driver.id().to_string()]).status();
    let _ = driver.wait();
}

impl Drop for App {
    fn drop(&mut self) {
        if let Some(mut driver) = self.driver.take() {
            stop_driver(&mut driver);
        }
    }
}

/// Makes a workspace at `path` holding the sample plan, both its scenarios chosen for comparison.
pub fn sample_workspace(path: &Path) {
    let sample = planner_tests::sample_file().unwrap();
    let mut ws = planner_tests::create_workspace_from(path, &sample).unwrap();
    ws.set_view(&planner_core::engine::workspace::content::ViewState {
        selected: vec!["hybrid".into(), "all-cloud".into()],
        baseline: None,
        horizon_months: None,
    })
    .unwrap();
}

impl App {
    /// Opens the app on the shipped catalog with the workspace `workspace` open at launch and
    /// `config` as its configuration folder.
    pub async fn launch_on(workspace: &Path, config: &Path) -> App {
        let args = vec![
            "--catalog".to_owned(),
            workspace_root().join("catalogs").display().to_string(),
            "--workspace".to_owned(),
            workspace.display().to_string(),
        ];
        App::launch_with_env(&args, &[("PLANNER_CONFIG_DIR", config)]).await
    }

    /// Starts tauri-driver and opens the app with `args`.
    pub async fn launch(args: &[String]) -> App {
        App::launch_with_env(args, &[]).await
    }

    /// Starts tauri-driver (and so the app, which inherits its environment) with `env` set, and
    /// the XDG folders pointed at the test's own ([`test_home`]). The local ports are picked free
    /// but may be taken again before WebKitWebDriver binds them (it then exits with "Unable to
    /// listen"): such a start is retried on new ports, three times at most.
    pub async fn launch_with_env(args: &[String], env: &[(&str, &Path)]) -> App {
        assert!(
            std::env::var_os("DISPLAY").is_some(),
            "no DISPLAY: run under Xvfb (`cargo xtask test` does)"
        );
        let mut failures = Vec::new();
        for _ in 0..3 {
            match App::start(args, env).await {
                Ok(app) => return app,
                Err(e) => failures.push(e),
            }
        }
        panic!("WebDriver session with the app, three starts: {failures:?}");
    }

    /// One start of tauri-driver and the app on fresh ports.
    async fn start(args: &[String], env: &[(&str, &Path)]) -> Result<App, String> {
        let port = free_port();
        let native_port = free_port();
        let home = test_home();
        let mut driver = Command::new(tauri_driver())
            .args(["--port", &port.to_string(), "--native-port", &native_port.to_string()])
            .env("XDG_CONFIG_HOME", home.join("config"))
            .env("XDG_DATA_HOME", home.join("data"))
            .env("XDG_CACHE_HOME", home.join("cache"))
            .env("XDG_STATE_HOME", home.join("state"))
            .envs(env.iter().map(|(k, v)| (*k, *v)))
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("tauri-driver could not start: `cargo install tauri-driver --version 2.1.0 --locked` and `apt-get install webkit2gtk-driver`");
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if Instant::now() >= deadline {
                stop_driver(&mut driver);
                return Err(format!("tauri-driver did not listen on port {port} within 20 s"));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let mut caps = serde_json::Map::new();
        caps.insert(
            "tauri:options".to_owned(),
            serde_json::json!({ "application": app_binary(), "args": args }),
        );
        match ClientBuilder::native()
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
        {
            Ok(client) => Ok(App {
                client,
                driver: Some(driver),
            }),
            Err(e) => {
                stop_driver(&mut driver);
                Err(e.to_string())
            }
        }
    }

    /// Polls for an element by CSS selector, each request bounded, until `WAIT` has passed.
    async fn element(&self, css: &str) -> fantoccini::elements::Element {
        let deadline = Instant::now() + WAIT;
        let mut last = String::from("no attempt");
        while Instant::now() < deadline {
            match tokio::time::timeout(Duration::from_secs(5), self.client.find(Locator::Css(css))).await {
                Ok(Ok(el)) => return el,
                Ok(Err(e)) => last = e.to_string(),
                Err(_) => last = "the WebDriver request took over 5 s".to_owned(),
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        panic!("element `{css}` did not appear within {WAIT:?}: {last}");
    }

    /// Waits for an element and returns its rendered text (`innerText`).
    ///
    /// Read through a script rather than WebDriver's element-text command, which hung here on
    /// WebKitWebDriver 2.50 for some elements; every request is bounded so a hang fails the test.
    pub async fn text_of(&self, css: &str) -> String {
        let el = self.element(css).await;
        let args = vec![serde_json::to_value(&el).expect("element reference")];
        let read = self.client.execute("return arguments[0].innerText;", args);
        match tokio::time::timeout(Duration::from_secs(10), read).await {
            Ok(Ok(serde_json::Value::String(text))) => text,
            Ok(Ok(other)) => panic!("text of `{css}` is not a string: {other}"),
            Ok(Err(e)) => panic!("text of `{css}`: {e}"),
            Err(_) => panic!("reading the text of `{css}` took over 10 s"),
        }
    }

    /// Runs a script in the page (bounded to 20 s) and returns its value.
    pub async fn exec(&self, script: &str, args: Vec<serde_json::Value>) -> serde_json::Value {
        match tokio::time::timeout(Duration::from_secs(20), self.client.execute(script, args)).await {
            Ok(Ok(v)) => v,
            Ok(Err(e)) => panic!("script failed: {e}\n{script}"),
            Err(_) => panic!("script took over 20 s:\n{script}"),
        }
    }

    /// Calls an app command through Tauri's IPC, as the UI's bindings do, and returns its
    /// answer; a rejection fails the test with the back end's error.
    pub async fn invoke(&self, command: &str, args: serde_json::Value) -> serde_json::Value {
        let script = "const [cmd, args, done] = arguments; window.__TAURI_INTERNALS__.invoke(cmd, args).then((v) => done({ ok: v }), (e) => done({ err: e }));";
        let call = self
            .client
            .execute_async(script, vec![serde_json::json!(command), args]);
        let answer = match tokio::time::timeout(Duration::from_secs(20), call).await {
            Ok(Ok(v)) => v,
            Ok(Err(e)) => panic!("invoke {command}: {e}"),
            Err(_) => panic!("invoke {command} took over 20 s"),
        };
        if let Some(err) = answer.get("err") {
            panic!("{command} was refused: {err}");
        }
        answer.get("ok").cloned().unwrap_or(serde_json::Value::Null)
    }

    /// Sets the value of an input or select as typing would, firing `input` and `change`.
    pub async fn fill(&self, css: &str, value: &str) {
        let el = self.element(css).await;
        let args = vec![
            serde_json::to_value(&el).expect("element reference"),
            serde_json::json!(value),
        ];
        self.exec(
            "const [el, v] = arguments; el.focus(); \
             const proto = el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype; \
             Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, v); \
             el.dispatchEvent(new Event('input', { bubbles: true })); \
             el.dispatchEvent(new Event('change', { bubbles: true }));",
            args,
        )
        .await;
    }

    /// Drags the slider at `css` (an ARIA slider: `aria-valuemin`, `aria-valuemax`) to `value` as
    /// a pointer does: down where its value lies now, moves to where `value` lies, up. The events
    /// are dispatched in the page at the track's laid-out coordinates.
    pub async fn slide(&self, css: &str, value: f64) {
        let el = self.element(css).await;
        let args = vec![
            serde_json::to_value(&el).expect("element reference"),
            serde_json::json!(value),
        ];
        self.exec(
            "const [el, v] = arguments; \
             const r = el.getBoundingClientRect(); \
             const min = Number(el.getAttribute('aria-valuemin')), max = Number(el.getAttribute('aria-valuemax')); \
             const x = (w) => r.left + ((w - min) / (max - min)) * r.width; \
             const y = r.top + r.height / 2; \
             const at = (type, w) => el.dispatchEvent(new PointerEvent(type, { bubbles: true, cancelable: true, pointerId: 1, button: 0, clientX: x(w), clientY: y })); \
             at('pointerdown', Number(el.getAttribute('aria-valuenow'))); \
             at('pointermove', v); \
             at('pointerup', v);",
            args,
        )
        .await;
    }

    /// Presses a key with modifiers on the focused element (or the page), as a keydown event.
    pub async fn press(&self, key: &str, ctrl: bool, shift: bool) {
        self.exec(
            "const [key, ctrl, shift] = arguments; \
             const target = document.activeElement || document.body; \
             target.dispatchEvent(new KeyboardEvent('keydown', { key, ctrlKey: ctrl, shiftKey: shift, bubbles: true, cancelable: true }));",
            vec![serde_json::json!(key), serde_json::json!(ctrl), serde_json::json!(shift)],
        )
        .await;
    }

    /// Waits until the element's text contains `needle`, returning the text.
    pub async fn wait_text(&self, css: &str, needle: &str) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            // Read by selector in the page each time: the element may be re-rendered (a new node)
            // between two polls, and a node reference from an earlier poll would then be stale.
            let now = self
                .exec(
                    "const el = document.querySelector(arguments[0]); return el ? el.innerText : null;",
                    vec![serde_json::json!(css)],
                )
                .await;
            let text = now.as_str().unwrap_or("(not on the page)").to_owned();
            if text.contains(needle) {
                return text;
            }
            if Instant::now() >= deadline {
                let page = self
                    .exec(
                        "return document.body ? document.body.innerText.slice(0, 600) : '';",
                        vec![],
                    )
                    .await;
                let shot = self.screenshot("failed-wait").await;
                panic!(
                    "`{css}` did not come to contain `{needle}` within {WAIT:?}; it reads: {text}\nthe page reads: {}\nscreenshot: {}",
                    page.as_str().unwrap_or(""),
                    shot.display()
                );
            }
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
    }

    /// Whether an element matching `css` exists now (no waiting).
    pub async fn exists(&self, css: &str) -> bool {
        self.exec(
            "return document.querySelector(arguments[0]) !== null;",
            vec![serde_json::json!(css)],
        )
        .await
            == serde_json::Value::Bool(true)
    }

    /// The process id of the app started for this session (the newest process running the app
    /// binary).
    pub fn app_pid(&self) -> u32 {
        let out = Command::new("pgrep")
            .arg("-n")
            .arg("-f")
            .arg(app_binary())
            .output()
            .expect("pgrep (procps)");
        String::from_utf8_lossy(&out.stdout)
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("no running app process found for {}", app_binary().display()))
    }

    /// Clicks the element `css` names. The screen may re-render between finding the element and
    /// clicking it (the node found is then gone): the element is found again and clicked, until
    /// `WAIT` has passed.
    pub async fn click(&self, css: &str) {
        let deadline = Instant::now() + WAIT;
        loop {
            match self.element(css).await.click().await {
                Ok(()) => return,
                Err(e) if Instant::now() < deadline && e.to_string().contains("was not found") => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(e) => panic!("click `{css}`: {e}"),
            }
        }
    }

    /// Saves a PNG of the screen (the app's window under Xvfb) as a test artefact.
    ///
    /// Taken from the X server with ImageMagick rather than WebDriver's screenshot command,
    /// which hung on WebKitWebDriver 2.50 for some pages; this also shows what a person sees.
    pub async fn screenshot(&self, name: &str) -> PathBuf {
        // Let the last interaction paint.
        tokio::time::sleep(Duration::from_millis(300)).await;
        let path = artifacts_dir().join(format!("{name}.png"));
        let status = Command::new("timeout")
            .args(["15", "import", "-window", "root"])
            .arg(&path)
            .status()
            .expect("ImageMagick `import` (apt-get install imagemagick)");
        assert!(status.success(), "screenshot with `import` failed: {status}");
        path
    }

    /// Ends the session and waits (up to 10 s, then kills it) until the app's process has exited,
    /// so a test may open the workspace file next: the app holds it in SQLite's exclusive
    /// locking mode.
    pub async fn close(mut self) {
        let pid = Command::new("pgrep")
            .arg("-n")
            .arg("-f")
            .arg(app_binary())
            .output()
            .ok()
            .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse::<u32>().ok());
        let _ = self.client.clone().close().await;
        if let Some(mut driver) = self.driver.take() {
            stop_driver(&mut driver);
        }
        if let Some(pid) = pid {
            let deadline = Instant::now() + Duration::from_secs(10);
            // Gone, or a zombie (exited, not yet reaped): either way its file locks are released.
            let running = |pid: u32| {
                std::fs::read_to_string(format!("/proc/{pid}/stat"))
                    .ok()
                    .and_then(|stat| {
                        stat.rsplit(')')
                            .next()
                            .map(|rest| rest.trim_start().starts_with(|c| c != 'Z'))
                    })
                    .unwrap_or(false)
            };
            while running(pid) && Instant::now() < deadline {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            // Now and then (about one close in ten here) the app is still running 30 s after its
            // WebDriver session ended, holding the workspace. Every edit the tests wait for is
            // already committed (each is its own transaction), so it is stopped: what a test
            // checks next is the file, not the app's shutdown.
            if running(pid) {
                eprintln!(
                    "e2e driver: the app (pid {pid}) did not exit within 10 s of closing its session; killing it"
                );
                let _ = Command::new("kill").args(["-KILL", &pid.to_string()]).status();
                let deadline = Instant::now() + Duration::from_secs(5);
                while running(pid) && Instant::now() < deadline {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        }
    }
}
