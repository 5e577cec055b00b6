//! Downloads from tiny HTTP servers on 127.0.0.1, one per test, each written to misbehave in
//! one way. (Behind a proxy, run with NO_PROXY=127.0.0.1 so these requests stay local.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::thread;
use std::time::Duration;

use planner_fetch::{FetchError, Limits, Progress, fetch};

/// Serves `connections` connections on a fresh 127.0.0.1 port: reads each request's headers,
/// then hands the stream to `respond`. Returns the address of `/pack.toml` on it.
fn serve(connections: usize, respond: impl Fn(&mut TcpStream, u16) + Send + 'static) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    thread::spawn(move || {
        for _ in 0..connections {
            let Ok((mut stream, _)) = listener.accept() else {
                return;
            };
            read_request(&mut stream);
            respond(&mut stream, port);
        }
    });
    format!("http://127.0.0.1:{port}/pack.toml")
}

/// Reads up to the blank line that ends the request headers.
fn read_request(stream: &mut TcpStream) {
    let mut seen = Vec::new();
    let mut byte = [0u8; 1];
    while !seen.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(1) => seen.push(byte[0]),
            _ => return,
        }
    }
}

/// Holds the connection open, sending nothing, until the client goes away.
fn wait_for_client_to_leave(stream: &mut TcpStream) {
    let mut sink = [0u8; 64];
    while matches!(stream.read(&mut sink), Ok(n) if n > 0) {}
}

/// Small limits so that the timeout tests finish in about a second.
fn quick() -> Limits {
    Limits {
        max_bytes: 1024 * 1024,
        connect_timeout: Duration::from_secs(1),
        stall_timeout: Duration::from_secs(1),
        total_timeout: Duration::from_secs(20),
    }
}

fn get(url: &str, limits: &Limits) -> Result<Vec<u8>, FetchError> {
    fetch(url, limits, &AtomicBool::new(false), &mut |_| {})
}

fn pattern(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 31 % 251) as u8).collect()
}

#[test]
fn a_good_body_arrives_byte_exact_and_progress_reaches_total() {
    let body = pattern(300_000);
    let served = body.clone();
    let url = serve(1, move |stream, _| {
        let head = format!(
            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            served.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        // In pieces, so that the client sees several chunks.
        for piece in served.chunks(64 * 1024) {
            stream.write_all(piece).unwrap();
            stream.flush().unwrap();
        }
    });
    let mut seen: Vec<Progress> = Vec::new();
    let got = fetch(&url, &quick(), &AtomicBool::new(false), &mut |p| seen.push(p)).unwrap();
    assert_eq!(got, body);
    let total = Some(body.len() as u64);
    assert_eq!(seen.first(), Some(&Progress { received: 0, total }));
    assert_eq!(
        seen.last(),
        Some(&Progress {
            received: body.len() as u64,
            total
        })
    );
    assert!(seen.windows(2).all(|w| w[0].received <= w[1].received));
}

/// Sends the headers of a 100-byte body, then nothing.
fn stalled_server() -> String {
    serve(1, |stream, _| {
        stream
            .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n")
            .unwrap();
        wait_for_client_to_leave(stream);
    })
}

#[test]
fn a_stalled_body_times_out() {
    let err = get(&stalled_server(), &quick()).unwrap_err();
    assert!(
        matches!(
            err,
            FetchError::TimedOut {
                after_secs: 1,
                received: 0,
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn a_stalled_request_times_out_before_the_headers() {
    let url = serve(1, |stream, _| wait_for_client_to_leave(stream));
    let err = get(&url, &quick()).unwrap_err();
    assert!(matches!(err, FetchError::TimedOut { .. }), "{err:?}");
}

#[test]
fn cancel_stops_a_stalled_download() {
    let url = stalled_server();
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&cancel);
    let canceller = thread::spawn(move || {
        thread::sleep(Duration::from_millis(300));
        flag.store(true, Ordering::Relaxed);
    });
    // A stall timeout far beyond the test's patience: only the cancel can end this download.
    let limits = Limits {
        stall_timeout: Duration::from_secs(600),
        ..quick()
    };
    let err = fetch(&url, &limits, &cancel, &mut |_| {}).unwrap_err();
    canceller.join().unwrap();
    assert_eq!(err, FetchError::Cancelled { received: 0 });
}

#[test]
fn a_body_shorter_than_its_content_length_is_truncated() {
    let url = serve(1, |stream, _| {
        stream
            .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n")
            .unwrap();
        stream.write_all(&[b'x'; 400]).unwrap();
        // Dropping the stream closes the connection.
    });
    let err = get(&url, &quick()).unwrap_err();
    assert!(
        matches!(
            err,
            FetchError::Truncated {
                received: 400,
                expected: 1000,
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn not_found_is_a_status_error() {
    let url = serve(1, |stream, _| {
        stream
            .write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found")
            .unwrap();
    });
    let err = get(&url, &quick()).unwrap_err();
    assert!(matches!(err, FetchError::Status { status: 404, .. }), "{err:?}");
    assert!(err.to_string().contains(&url), "{err}");
}

#[test]
fn an_announced_length_above_the_limit_is_refused_before_reading() {
    let url = serve(1, |stream, _| {
        stream
            .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n")
            .unwrap();
        // Not a byte of the body: the refusal must come from the header alone.
        wait_for_client_to_leave(stream);
    });
    let limits = Limits {
        max_bytes: 1000,
        ..quick()
    };
    let err = get(&url, &limits).unwrap_err();
    assert!(matches!(err, FetchError::TooLarge { limit: 1000, .. }), "{err:?}");
}

#[test]
fn a_chunked_body_above_the_limit_is_refused() {
    let url = serve(1, |stream, _| {
        let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
        for _ in 0..4 {
            let _ = stream.write_all(b"1f4\r\n");
            let _ = stream.write_all(&[b'y'; 500]);
            let _ = stream.write_all(b"\r\n");
            let _ = stream.flush();
        }
        let _ = stream.write_all(b"0\r\n\r\n");
    });
    let limits = Limits {
        max_bytes: 1000,
        ..quick()
    };
    let err = get(&url, &limits).unwrap_err();
    assert!(matches!(err, FetchError::TooLarge { limit: 1000, .. }), "{err:?}");
}

#[test]
fn a_chunked_body_within_the_limit_arrives() {
    let url = serve(1, |stream, _| {
        stream
            .write_all(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
            .unwrap();
    });
    let mut seen = Vec::new();
    let got = fetch(&url, &quick(), &AtomicBool::new(false), &mut |p| seen.push(p)).unwrap();
    assert_eq!(got, b"hello");
    assert_eq!(
        seen.first(),
        Some(&Progress {
            received: 0,
            total: None
        })
    );
}

#[test]
fn only_http_and_https_addresses_are_accepted() {
    for bad in [
        "ftp://x",
        "not a url",
        "file:///etc/passwd",
        "",
        "example.com/pack.toml",
    ] {
        let err = get(bad, &quick()).unwrap_err();
        assert!(matches!(err, FetchError::BadUrl { .. }), "{bad}: {err:?}");
        let text = err.to_string();
        assert!(text.contains(bad), "{text}");
        assert!(text.contains("https://"), "{text}");
    }
}

#[test]
fn a_refused_connection_is_a_connect_error() {
    let port = {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let url = format!("http://127.0.0.1:{port}/pack.toml");
    let err = get(&url, &quick()).unwrap_err();
    assert!(matches!(err, FetchError::Connect { .. }), "{err:?}");
}

#[test]
fn redirects_are_followed_up_to_five() {
    // Connections 1 to 5 redirect to the next hop; the sixth serves the pack.
    let hop = AtomicU32::new(0);
    let url = serve(6, move |stream, port| {
        let n = hop.fetch_add(1, Ordering::Relaxed) + 1;
        let reply = if n <= 5 {
            format!(
                "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:{port}/hop{n}\r\n\
                 Content-Length: 0\r\nConnection: close\r\n\r\n"
            )
        } else {
            "HTTP/1.1 200 OK\r\nContent-Length: 4\r\nConnection: close\r\n\r\npack".to_owned()
        };
        stream.write_all(reply.as_bytes()).unwrap();
    });
    assert_eq!(get(&url, &quick()).unwrap(), b"pack");
}

#[test]
fn a_sixth_redirect_is_refused() {
    let url = serve(7, |stream, port| {
        let reply = format!(
            "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:{port}/again\r\n\
             Content-Length: 0\r\nConnection: close\r\n\r\n"
        );
        let _ = stream.write_all(reply.as_bytes());
    });
    let err = get(&url, &quick()).unwrap_err();
    assert!(matches!(err, FetchError::Connect { .. }), "{err:?}");
    assert!(err.to_string().contains("redirected more than 5"), "{err}");
}

#[test]
fn a_redirect_away_from_http_is_not_followed() {
    let url = serve(1, |stream, _| {
        let _ = stream.write_all(
            b"HTTP/1.1 302 Found\r\nLocation: file:///etc/passwd\r\n\
              Content-Length: 0\r\nConnection: close\r\n\r\n",
        );
    });
    let err = get(&url, &quick()).unwrap_err();
    assert!(matches!(err, FetchError::Status { status: 302, .. }), "{err:?}");
}
