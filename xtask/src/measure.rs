//! `cargo xtask measure`: time to first paint and memory at idle of the built app.
//!
//! Run it on a display (`xvfb-run -a -s "-screen 0 1280x800x24" cargo xtask measure`). It starts
//! the app and grabs the whole screen over the X protocol every ~20 ms: first paint is the first
//! grab that shows rendered content (many distinct colours rather than an empty window), and the
//! screen has settled at the last grab that changed more than scrollbars from the one before,
//! within 5 s of first paint (the scenario filled in, say). It then sums the memory of the app and its WebKit child
//! processes. Figures are for the notes; nothing asserts on them.
//!
//! Each time is taken as the grab is asked for, and a grab costs a few milliseconds of one
//! process. The tool used to run ImageMagick's `import` for each grab: about 100 ms of CPU each,
//! on a machine with two cores, with the time taken after `import` had finished; it read first
//! paint 150–350 ms later than this does.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use x11rb::connection::Connection;
use x11rb::protocol::xproto::{ConnectionExt, ImageFormat};
use x11rb::rust_connection::RustConnection;

/// Distinct colours from which the screen counts as painted: an empty window has a handful, the
/// app's "Starting…" screen 133, a workspace or the catalog browser (text, badges, borders)
/// thousands.
const PAINTED_COLOURS: usize = 150;
/// The pause between two grabs.
const POLL: Duration = Duration::from_millis(15);
/// Changes of at most this many pixels do not unsettle the screen: WebKit's overlay scrollbars
/// fade in and out for seconds after a page is drawn (a few hundred pixels at a time), while a
/// pane filling in changes tens of thousands.
const SMALL_CHANGE: usize = 2_000;
/// How long the screen is followed after first paint before memory is read.
const SETTLE: Duration = Duration::from_secs(5);

pub fn measure(root: &Path, app_args: &[String]) -> Result<(), String> {
    if std::env::var_os("DISPLAY").is_none() {
        return Err(
            "measure needs a display: run it under `xvfb-run -a -s \"-screen 0 1280x800x24\" cargo xtask measure`"
                .to_owned(),
        );
    }
    let screen = Screen::open()?;
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
    let timeline = follow(&screen, start);
    let (rss, pss, processes) = tree_memory(child.id());
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&config);
    let timeline = timeline?;
    match timeline.first_paint {
        Some(t) => {
            println!(
                "first paint: {} ms after launch ({PAINTED_COLOURS} or more colours on screen; {} grabs, one every {:.0} ms, each taking {:.1} ms, on average)",
                t.as_millis(),
                timeline.grabs,
                timeline.period.as_secs_f64() * 1000.0,
                timeline.cost.as_secs_f64() * 1000.0
            );
            println!(
                "screen settled: {} ms after launch (the last change of more than {SMALL_CHANGE} pixels within {} s of first paint)",
                timeline.settled.unwrap_or(t).as_millis(),
                SETTLE.as_secs()
            );
        }
        None => println!("first paint: not seen within 30 s"),
    }
    println!(
        "memory at idle ({} s after first paint), {processes} processes: RSS {} MiB, PSS {} MiB",
        SETTLE.as_secs(),
        rss / 1024,
        pss / 1024
    );
    Ok(())
}

/// The X screen, grabbed whole.
struct Screen {
    conn: RustConnection,
    root: u32,
    width: u16,
    height: u16,
}

impl Screen {
    fn open() -> Result<Self, String> {
        let (conn, number) = x11rb::connect(None).map_err(|e| format!("cannot connect to the X display: {e}"))?;
        let (root, width, height) = conn
            .setup()
            .roots
            .get(number)
            .map(|s| (s.root, s.width_in_pixels, s.height_in_pixels))
            .ok_or_else(|| format!("the X display has no screen {number}"))?;
        Ok(Self {
            conn,
            root,
            width,
            height,
        })
    }

    /// The screen's pixels as the server holds them (4 bytes each at depth 24).
    fn grab(&self) -> Result<Vec<u8>, String> {
        let image = self
            .conn
            .get_image(ImageFormat::Z_PIXMAP, self.root, 0, 0, self.width, self.height, !0)
            .map_err(|e| format!("screen grab failed: {e}"))?
            .reply()
            .map_err(|e| format!("screen grab failed: {e}"))?;
        Ok(image.data)
    }
}

/// What the screen did after launch.
struct Timeline {
    first_paint: Option<Duration>,
    settled: Option<Duration>,
    grabs: u32,
    /// The average time from one grab to the next.
    period: Duration,
    /// The average time one grab and its check took (the rest is sleep).
    cost: Duration,
}

/// Grabs the screen until first paint (at most 30 s), then for `SETTLE` more.
fn follow(screen: &Screen, start: Instant) -> Result<Timeline, String> {
    let mut timeline = Timeline {
        first_paint: None,
        settled: None,
        grabs: 0,
        period: Duration::ZERO,
        cost: Duration::ZERO,
    };
    let mut busy = Duration::ZERO;
    let mut previous: Vec<u8> = Vec::new();
    loop {
        let asked = start.elapsed();
        let pixels = screen.grab()?;
        timeline.grabs += 1;
        match timeline.first_paint {
            None if colours_at_least(&pixels, PAINTED_COLOURS) => timeline.first_paint = Some(asked),
            None if asked > Duration::from_secs(30) => break,
            Some(first) if asked > first + SETTLE => break,
            Some(_) if changed_pixels(&pixels, &previous, screen.width) > SMALL_CHANGE => {
                timeline.settled = Some(asked);
            }
            _ => {}
        }
        previous = pixels;
        busy += start.elapsed() - asked;
        sleep(POLL);
    }
    timeline.period = start.elapsed() / timeline.grabs.max(1);
    timeline.cost = busy / timeline.grabs.max(1);
    Ok(timeline)
}

/// How many pixels differ between two grabs of a screen `width` pixels wide (4 bytes each);
/// rows that are equal are compared at once.
fn changed_pixels(a: &[u8], b: &[u8], width: u16) -> usize {
    if a.len() != b.len() {
        return a.len().max(b.len()) / 4;
    }
    let row = usize::from(width).max(1) * 4;
    a.chunks(row)
        .zip(b.chunks(row))
        .filter(|(x, y)| x != y)
        .map(|(x, y)| x.chunks_exact(4).zip(y.chunks_exact(4)).filter(|(p, q)| p != q).count())
        .sum()
}

/// Whether `pixels` (4 bytes each) hold at least `wanted` distinct colours. Runs of one colour
/// are skipped, and the count stops at `wanted`, so a grab costs little either way.
fn colours_at_least(pixels: &[u8], wanted: usize) -> bool {
    let mut seen = std::collections::HashSet::with_capacity(wanted);
    let mut last = None;
    for pixel in pixels.chunks_exact(4) {
        let colour = [pixel[0], pixel[1], pixel[2]];
        if last == Some(colour) {
            continue;
        }
        last = Some(colour);
        seen.insert(colour);
        if seen.len() >= wanted {
            return true;
        }
    }
    false
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
