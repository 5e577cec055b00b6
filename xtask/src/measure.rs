//! `cargo xtask measure`: time to first paint and memory at idle of the built app.
//!
//! Run it on a display (`xvfb-run -a -s "-screen 0 1280x800x24" cargo xtask measure`). It starts
//! the app, screenshots the screen every ~100 ms until the window shows rendered content (many
//! distinct colours rather than an empty window), then waits for the app to settle and sums the
//! memory of the app and its WebKit child processes. Figures are for the notes; nothing asserts
//! on them.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// Distinct colours above which the screen counts as painted: an empty window has a handful,
/// the catalog browser (text, badges, borders) has hundreds.
const PAINTED_COLOURS: u32 = 150;

pub fn measure(root: &Path, app_args: &[String]) -> Result<(), String> {
    crate::ensure_apt(&["imagemagick"])?;
    if std::env::var_os("DISPLAY").is_none() {
        return Err(
            "measure needs a display: run it under `xvfb-run -a -s \"-screen 0 1280x800x24\" cargo xtask measure`"
                .to_owned(),
        );
    }
    // PLANNER_APP_BINARY measures another build (a release build, say).
    let binary = std::env::var_os("PLANNER_APP_BINARY").map_or_else(
        || crate::target_dir(root).join("debug/compute-planner"),
        std::path::PathBuf::from,
    );
    let mut app = Command::new(&binary);
    // The recent list goes to a throwaway folder, not the user's configuration.
    let config = std::env::temp_dir().join(format!("planner-measure-{}", std::process::id()));
    app.env("PLANNER_CONFIG_DIR", &config);
    if app_args.is_empty() {
        app.arg("--catalog").arg(root.join("catalogs"));
    } else {
        app.args(app_args);
    }
    let start = Instant::now();
    let mut child = app
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
    let mut first_paint = None;
    while start.elapsed() < Duration::from_secs(30) {
        if colours_on_screen()? >= PAINTED_COLOURS {
            first_paint = Some(start.elapsed());
            break;
        }
        sleep(Duration::from_millis(50));
    }
    sleep(Duration::from_secs(5));
    let (rss, pss, processes) = tree_memory(child.id());
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&config);
    match first_paint {
        Some(t) => println!(
            "first paint: {} ms after launch (screenshot polling, ~100 ms resolution)",
            t.as_millis()
        ),
        None => println!("first paint: not seen within 30 s"),
    }
    println!(
        "memory at idle (5 s after first paint), {processes} processes: RSS {} MiB, PSS {} MiB",
        rss / 1024,
        pss / 1024
    );
    Ok(())
}

fn colours_on_screen() -> Result<u32, String> {
    let out = Command::new("import")
        .args(["-window", "root", "-format", "%k", "info:"])
        .output()
        .map_err(|e| format!("cannot run ImageMagick `import`: {e}"))?;
    Ok(String::from_utf8_lossy(&out.stdout).trim().parse().unwrap_or(0))
}

/// RSS and PSS in KiB summed over `pid` and all its descendants, and how many there are.
fn tree_memory(pid: u32) -> (u64, u64, usize) {
    let mut pids = vec![pid];
    let mut i = 0;
    while i < pids.len() {
        let parent = pids[i];
        pids.extend(children(parent));
        i += 1;
    }
    let (mut rss, mut pss) = (0, 0);
    for p in &pids {
        let text = fs::read_to_string(format!("/proc/{p}/smaps_rollup")).unwrap_or_default();
        rss += field_kib(&text, "Rss:");
        pss += field_kib(&text, "Pss:");
    }
    (rss, pss, pids.len())
}

fn children(parent: u32) -> Vec<u32> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            // The parent pid is the second field after the parenthesised command name.
            stat.rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok())
                == Some(parent)
        })
        .collect()
}

fn field_kib(text: &str, name: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}
