//! Signed catalog packs through the app's use cases on a `TestHost` (issue #18): publisher keys
//! trusted and removed, a pack opened from a file and from a local HTTP server on 127.0.0.1,
//! previewed, applied and undone; a server that stalls (timeout, cancel) and one that sends a
//! truncated body are refused and nothing changes. Keys are made here, at test time.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::time::Duration;

use planner_app::{TestHost, compare, packs, scenarios, session};
use planner_core::catalog::provenance::AsOf;
use planner_core::error::ErrorCode;

/// 2026-11-23T12:00:00Z.
const NOW_MS: i64 = 1_795_435_200_000;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

fn opened(dir: &Path) -> TestHost {
    let config = dir.join("config");
    std::fs::create_dir_all(&config).unwrap();
    let host = TestHost::new(&repo().join("catalogs"), Some(&config), NOW_MS);
    session::create(&host, &dir.join("plan.cpw"), "Packs").unwrap();
    scenarios::import_file(&host, &repo().join("catalogs/samples/enterprise-hybrid.json")).unwrap();
    host
}

/// A key pair and the fixture catalog (2026.12.0) packed with it: (public key text, pack bytes).
fn pack() -> (String, Vec<u8>) {
    let (public, secret) = planner_sign::generate_pack_key(None).unwrap();
    let date: AsOf = "2026-12-01".parse().unwrap();
    let parts = planner_store::pack::build_pack(
        &repo().join("tests/fixtures/catalog-next"),
        &secret,
        None,
        "Test Publisher",
        date,
        None,
    )
    .unwrap();
    (public, planner_store::pack::pack_bytes(&parts).unwrap())
}

/// Serves one request on 127.0.0.1 with `respond` and returns the address of the pack.
fn serve(respond: impl FnOnce(&mut std::net::TcpStream) + Send + 'static) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        if let Ok((mut stream, _)) = listener.accept() {
            let mut buf = [0u8; 4096];
            let _ = stream.read(&mut buf);
            respond(&mut stream);
        }
    });
    format!("http://127.0.0.1:{port}/december.cpack")
}

fn header(len: usize) -> String {
    format!("HTTP/1.1 200 OK\r\nContent-Type: application/zip\r\nContent-Length: {len}\r\nConnection: close\r\n\r\n")
}

/// A workspace whose host trusts the pack's key, and the pack served on 127.0.0.1 with its full
/// Content-Length but only its first `sent` bytes (all of them when `sent` is `None`).
fn served(dir: &Path, sent: Option<usize>) -> (TestHost, String) {
    let host = opened(dir);
    let (public, body) = pack();
    packs::add_key(&host, &public, "Test Publisher").unwrap();
    let url = serve(move |s| {
        s.write_all(header(body.len()).as_bytes()).unwrap();
        s.write_all(&body[..sent.unwrap_or(body.len())]).unwrap();
        // Then the connection closes.
    });
    (host, url)
}

fn version(host: &TestHost) -> String {
    packs::freshness(host).unwrap().origin.version
}

#[test]
fn keys_are_trusted_listed_and_removed_but_the_shipped_one_stays() {
    let dir = tempfile::tempdir().unwrap();
    let host = opened(dir.path());
    let shipped = packs::keys(&host).unwrap();
    assert_eq!(shipped.len(), 1);
    assert!(shipped[0].shipped);
    let (public, _) = pack();
    let added = packs::add_key(&host, &public, "Test Publisher").unwrap();
    assert_eq!(added.len(), 2);
    assert_eq!(added[1].label, "Test Publisher");
    assert_eq!(added[1].added, "2026-11-23 12:00");
    let again = packs::add_key(&host, &public, "Again").unwrap_err();
    assert!(again.message.contains("already trusted"), "{}", again.message);
    assert!(packs::add_key(&host, "not a key", "X").is_err());
    assert!(packs::add_key(&host, &public, "  ").is_err());
    assert!(
        packs::remove_key(&host, &shipped[0].id)
            .unwrap_err()
            .message
            .contains("cannot be removed")
    );
    let left = packs::remove_key(&host, &added[1].id).unwrap();
    assert_eq!(left.len(), 1);
}

#[test]
fn a_pack_from_a_file_is_refused_untrusted_then_previewed_applied_and_undone() {
    let dir = tempfile::tempdir().unwrap();
    let host = opened(dir.path());
    let (public, bytes) = pack();
    let path = dir.path().join("december.cpack");
    std::fs::write(&path, &bytes).unwrap();
    let refused = packs::open_file(&host, &path).unwrap_err();
    assert_eq!(refused.code, ErrorCode::PackRefused);
    assert!(packs::apply(&host).unwrap_err().message.contains("none is waiting"));
    packs::add_key(&host, &public, "Test Publisher").unwrap();
    let preview = packs::open_file(&host, &path).unwrap();
    assert_eq!(
        (preview.version.as_str(), preview.diff.old_version.as_str()),
        ("2026.12.0", "2026.11.0")
    );
    assert_eq!(preview.refusal, None);
    let applied = packs::apply(&host).unwrap();
    assert_eq!(
        applied.label,
        "Apply catalog pack 2026.12.0 from Test Publisher (was 2026.11.0)"
    );
    let origin = packs::freshness(&host).unwrap().origin;
    assert!(origin.verified && origin.version == "2026.12.0", "{}", origin.statement);
    scenarios::undo(&host).unwrap().unwrap();
    assert_eq!(version(&host), "2026.11.0");
    // A key removed after the preview: Apply checks again and refuses.
    let preview = packs::open_file(&host, &path).unwrap();
    assert_eq!(preview.version, "2026.12.0");
    let id = packs::keys(&host).unwrap()[1].id.clone();
    packs::remove_key(&host, &id).unwrap();
    assert_eq!(packs::apply(&host).unwrap_err().code, ErrorCode::PackRefused);
    assert_eq!(version(&host), "2026.11.0");
}

#[test]
fn a_locked_baseline_refuses_a_pack_in_its_preview_and_on_apply() {
    let dir = tempfile::tempdir().unwrap();
    let host = opened(dir.path());
    let view = planner_core::engine::workspace::content::ViewState {
        selected: vec!["hybrid".to_owned(), "all-cloud".to_owned()],
        baseline: None,
        horizon_months: None,
    };
    compare::set_view(&host, &view).unwrap();
    compare::lock_baseline(&host).unwrap();
    let (public, bytes) = pack();
    let path = dir.path().join("december.cpack");
    std::fs::write(&path, &bytes).unwrap();
    packs::add_key(&host, &public, "Test Publisher").unwrap();
    let refusal = "The catalog snapshot feeds the figures of the locked baseline (locked 2026-11-23 12:00 UTC: “Two DGX H100 for the base, AWS spot and on-demand for bursts”, “Reserved H100 for the base, on-demand for bursts”): unlock it on the Compare tab (Unlock baseline) to apply a catalog pack or update the catalog. Nothing was changed.";
    let preview = packs::open_file(&host, &path).unwrap();
    assert_eq!(preview.refusal.as_deref(), Some(refusal));
    let err = packs::apply(&host).unwrap_err();
    assert_eq!((err.code, err.message.as_str()), (ErrorCode::Locked, refusal));
    assert_eq!(version(&host), "2026.11.0");
    compare::unlock_baseline(&host).unwrap();
    let preview = packs::open_file(&host, &path).unwrap();
    assert_eq!(preview.refusal, None);
    packs::apply(&host).unwrap();
    assert_eq!(version(&host), "2026.12.0");
}

#[test]
fn a_pack_downloaded_from_127_0_0_1_is_previewed_and_applied() {
    let dir = tempfile::tempdir().unwrap();
    let (host, url) = served(dir.path(), None);
    let preview = packs::download(&host, &url).unwrap();
    assert_eq!(preview.diff.changed, 1);
    assert!(
        packs::download_progress(&host).is_none(),
        "no download runs after it ended"
    );
    packs::apply(&host).unwrap();
    assert_eq!(version(&host), "2026.12.0");
}

#[test]
fn a_truncated_download_is_refused_and_nothing_changes() {
    let dir = tempfile::tempdir().unwrap();
    let (host, url) = served(dir.path(), Some(1000));
    let err = packs::download(&host, &url).unwrap_err();
    assert_eq!(err.code, ErrorCode::Io);
    assert!(err.message.contains("Nothing was changed"), "{}", err.message);
    assert!(packs::apply(&host).is_err(), "nothing waits to be applied");
    assert_eq!(version(&host), "2026.11.0");
}

#[test]
fn a_stalled_download_times_out_or_is_cancelled_and_nothing_changes() {
    let dir = tempfile::tempdir().unwrap();
    let host = opened(dir.path());
    let (public, bytes) = pack();
    packs::add_key(&host, &public, "Test Publisher").unwrap();
    let stall = |len: usize| {
        move |s: &mut std::net::TcpStream| {
            s.write_all(header(len).as_bytes()).unwrap();
            s.write_all(b"PK").unwrap();
            std::thread::sleep(Duration::from_secs(5));
        }
    };
    let limits = planner_fetch::Limits {
        stall_timeout: Duration::from_secs(1),
        ..planner_fetch::Limits::default()
    };
    let timed_out = packs::download_with(&host, &serve(stall(bytes.len())), &limits).unwrap_err();
    assert_eq!(timed_out.code, ErrorCode::Io);
    assert!(
        timed_out.message.contains("Nothing was changed"),
        "{}",
        timed_out.message
    );

    // Cancelled from another thread while the server sends nothing.
    let url = serve(stall(bytes.len()));
    let cancelled = std::thread::scope(|scope| {
        let run = scope.spawn(|| packs::download(&host, &url));
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while packs::download_progress(&host).is_none() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(200));
        assert!(packs::cancel_download(&host));
        run.join().unwrap()
    });
    assert_eq!(cancelled.unwrap_err().code, ErrorCode::Cancelled);
    assert!(!packs::cancel_download(&host), "no download left running");
    assert_eq!(version(&host), "2026.11.0");
}
