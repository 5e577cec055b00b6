//! Downloads one catalog pack from a web address the user typed.
//!
//! This is the only network access Compute Planner makes, and it happens only when the user asks
//! for it. [`fetch`] is synchronous: call it from a plain (non-async) thread; it builds its own
//! current-thread tokio runtime for the one request and shuts it down afterwards.
//!
//! - Only `http://` and `https://` addresses are accepted ([`FetchError::BadUrl`] otherwise).
//! - Proxies: the standard environment variables `HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY` and
//!   `NO_PROXY` (or their lower-case forms) are honoured, and on macOS and Windows the system
//!   proxy settings too.
//! - At most [`MAX_REDIRECTS`] redirects are followed.
//! - The body is never returned partially: a body shorter than its `Content-Length` is
//!   [`FetchError::Truncated`], one longer than [`Limits::max_bytes`] is [`FetchError::TooLarge`]
//!   (refused from the `Content-Length` alone when the server announces it).
//! - The cancel flag is polled every [`CANCEL_POLL`] even while the server sends nothing.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use reqwest::Url;
use tokio::time::{Interval, MissedTickBehavior, Sleep};

/// Redirects followed before the download fails.
pub const MAX_REDIRECTS: usize = 5;

/// How often the cancel flag is read while waiting for the server.
pub const CANCEL_POLL: Duration = Duration::from_millis(50);

/// The largest buffer reserved up front from a `Content-Length`; beyond it the buffer grows as
/// bytes actually arrive.
const MAX_PREALLOCATION: u64 = 16 * 1024 * 1024;

/// How much and how long a download may take.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// The largest body accepted, in bytes.
    pub max_bytes: u64,
    /// The longest wait for the TCP (and proxy) connection.
    pub connect_timeout: Duration,
    /// The longest wait with no byte received, for the response headers and between body chunks.
    pub stall_timeout: Duration,
    /// The longest the whole download may take.
    pub total_timeout: Duration,
}

impl Default for Limits {
    /// 64 MiB, connect 15 s, stall 30 s, total 10 min.
    fn default() -> Self {
        Self {
            max_bytes: 64 * 1024 * 1024,
            connect_timeout: Duration::from_secs(15),
            stall_timeout: Duration::from_secs(30),
            total_timeout: Duration::from_secs(10 * 60),
        }
    }
}

/// How far a download has come: reported once when the response headers arrive (`received` 0)
/// and after every chunk of the body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Bytes of the body received so far.
    pub received: u64,
    /// The body's announced length (`Content-Length`), when the server gave one.
    pub total: Option<u64>,
}

/// Why a download failed. Every message is a whole sentence saying what to do next.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    /// The address is not an `http://` or `https://` address.
    #[error(
        "“{url}” is not an address the planner can download from: {reason}. Type the full \
         address of the pack, starting with https:// (or http://), or download the pack and \
         import it from a file."
    )]
    BadUrl { url: String, reason: String },
    /// No connection: name lookup, refused or timed-out connection, TLS failure, proxy failure,
    /// or too many redirects.
    #[error(
        "Could not connect to {url}: {reason}. Check the address and your network (or proxy) \
         settings, or download the pack and import it from a file."
    )]
    Connect { url: String, reason: String },
    /// The server answered with a status other than 2xx.
    #[error(
        "The server at {url} answered with HTTP status {status} instead of the pack. Check the \
         address, or download the pack and import it from a file."
    )]
    Status { url: String, status: u16 },
    /// Nothing arrived for [`Limits::stall_timeout`], or the whole download took longer than
    /// [`Limits::total_timeout`].
    #[error(
        "The download from {url} timed out after {after_secs} s, with {received} bytes received. \
         Check your connection and try again, or download the pack and import it from a file."
    )]
    TimedOut {
        url: String,
        after_secs: u64,
        received: u64,
    },
    /// The cancel flag was set.
    #[error("The download was cancelled after {received} bytes; nothing was imported.")]
    Cancelled { received: u64 },
    /// The connection ended before the announced `Content-Length` arrived.
    #[error(
        "The download from {url} broke off after {received} of {expected} bytes, so nothing was \
         imported. Try again, or download the pack and import it from a file."
    )]
    Truncated { url: String, received: u64, expected: u64 },
    /// The body is (or is announced to be) larger than [`Limits::max_bytes`].
    #[error(
        "The file at {url} is larger than {}, the most a catalog pack may be, so it was not \
         downloaded. Check that the address points at a catalog pack.",
        size(*limit)
    )]
    TooLarge { url: String, limit: u64 },
    /// The body could not be read (connection reset, malformed chunked encoding, ...).
    #[error(
        "Reading the download from {url} failed: {reason}. Try again, or download the pack and \
         import it from a file."
    )]
    Read { url: String, reason: String },
}

/// Downloads the body at `url`.
///
/// `on_progress` is called when the response headers arrive and after every chunk; `cancel` is
/// polled at least every [`CANCEL_POLL`], and once it is set the download stops with
/// [`FetchError::Cancelled`]. Must not be called from inside an async runtime.
///
/// # Errors
///
/// See [`FetchError`]; no partial body is ever returned.
pub fn fetch(
    url: &str,
    limits: &Limits,
    cancel: &AtomicBool,
    on_progress: &mut dyn FnMut(Progress),
) -> Result<Vec<u8>, FetchError> {
    let target = check_url(url)?;
    if cancel.load(Ordering::Relaxed) {
        return Err(FetchError::Cancelled { received: 0 });
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .build()
        .map_err(|e| FetchError::Connect {
            url: url.to_owned(),
            reason: format!("the network runtime could not start ({e})"),
        })?;
    let result = runtime.block_on(download(url, target, limits, cancel, on_progress));
    // A name lookup runs on a blocking thread that cannot be interrupted: leave it to finish on
    // its own rather than wait for it after a cancel or timeout.
    runtime.shutdown_background();
    result
}

/// Parses the typed address and accepts only `http` and `https`.
fn check_url(url: &str) -> Result<Url, FetchError> {
    let bad = |reason: String| FetchError::BadUrl {
        url: url.to_owned(),
        reason,
    };
    let typed = url.trim();
    if typed.is_empty() {
        return Err(bad("the address is empty".to_owned()));
    }
    let parsed = Url::parse(typed).map_err(|e| {
        bad(match e {
            url::ParseError::RelativeUrlWithoutBase => "it does not start with https:// or http://".to_owned(),
            url::ParseError::EmptyHost => "it names no server".to_owned(),
            url::ParseError::InvalidPort => "its port number is not valid".to_owned(),
            other => format!("it is not a valid web address ({other})"),
        })
    })?;
    match parsed.scheme() {
        "http" | "https" => Ok(parsed),
        "file" => Err(bad("it names a file on this computer, not a web address".to_owned())),
        other => Err(bad(format!(
            "it starts with “{other}:”, and only https:// and http:// addresses can be downloaded"
        ))),
    }
}

/// The request and the body, under the limits.
async fn download(
    url: &str,
    target: Url,
    limits: &Limits,
    cancel: &AtomicBool,
    on_progress: &mut dyn FnMut(Progress),
) -> Result<Vec<u8>, FetchError> {
    let client = reqwest::Client::builder()
        .connect_timeout(limits.connect_timeout)
        .redirect(reqwest::redirect::Policy::limited(MAX_REDIRECTS))
        .user_agent(concat!("ComputePlanner/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| FetchError::Connect {
            url: url.to_owned(),
            reason: format!("the HTTP client could not start ({})", root_cause(&e)),
        })?;
    let mut watch = Watch::new(limits, cancel);

    let mut response = match watch.run(client.get(target).send()).await {
        Ok(Ok(response)) => response,
        Ok(Err(e)) => return Err(send_error(url, limits, &e)),
        Err(stop) => return Err(stop.into_error(url, limits, 0)),
    };
    let status = response.status();
    if !status.is_success() {
        return Err(FetchError::Status {
            url: url.to_owned(),
            status: status.as_u16(),
        });
    }
    let total = response.content_length();
    let too_large = || FetchError::TooLarge {
        url: url.to_owned(),
        limit: limits.max_bytes,
    };
    if total.is_some_and(|t| t > limits.max_bytes) {
        return Err(too_large());
    }
    on_progress(Progress { received: 0, total });

    let reserve = total.unwrap_or(0).min(MAX_PREALLOCATION);
    let mut body = Vec::with_capacity(usize::try_from(reserve).unwrap_or(0));
    let mut received: u64 = 0;
    loop {
        let next = watch
            .run(response.chunk())
            .await
            .map_err(|stop| stop.into_error(url, limits, received))?;
        match next {
            Ok(Some(chunk)) => {
                let len = u64::try_from(chunk.len()).unwrap_or(u64::MAX);
                let now = received.saturating_add(len);
                if now > limits.max_bytes {
                    return Err(too_large());
                }
                body.extend_from_slice(&chunk);
                received = now;
                on_progress(Progress { received, total });
            }
            Ok(None) => break,
            Err(e) => {
                return Err(match total {
                    Some(expected) if received < expected => FetchError::Truncated {
                        url: url.to_owned(),
                        received,
                        expected,
                    },
                    _ => FetchError::Read {
                        url: url.to_owned(),
                        reason: root_cause(&e),
                    },
                });
            }
        }
    }
    match total {
        Some(expected) if received < expected => Err(FetchError::Truncated {
            url: url.to_owned(),
            received,
            expected,
        }),
        _ => Ok(body),
    }
}

/// Why [`Watch::run`] gave up waiting.
enum Stop {
    Stalled,
    Overall,
    Cancelled,
}

impl Stop {
    fn into_error(self, url: &str, limits: &Limits, received: u64) -> FetchError {
        let timed_out = |after: Duration| FetchError::TimedOut {
            url: url.to_owned(),
            after_secs: whole_seconds(after),
            received,
        };
        match self {
            Self::Stalled => timed_out(limits.stall_timeout),
            Self::Overall => timed_out(limits.total_timeout),
            Self::Cancelled => FetchError::Cancelled { received },
        }
    }
}

/// Runs each network step against the stall timeout, the total timeout and the cancel flag.
struct Watch<'a> {
    stall: Duration,
    total: Pin<Box<Sleep>>,
    ticker: Interval,
    cancel: &'a AtomicBool,
}

impl<'a> Watch<'a> {
    fn new(limits: &Limits, cancel: &'a AtomicBool) -> Self {
        let mut ticker = tokio::time::interval(CANCEL_POLL);
        ticker.set_missed_tick_behavior(MissedTickBehavior::Delay);
        Self {
            stall: limits.stall_timeout,
            // `sleep` saturates a deadline too far away instead of overflowing.
            total: Box::pin(tokio::time::sleep(limits.total_timeout)),
            ticker,
            cancel,
        }
    }

    /// Awaits `step`, which must produce something (headers or a chunk) within the stall
    /// timeout; the cancel flag is read before the step and on every tick while it waits.
    async fn run<F: Future>(&mut self, step: F) -> Result<F::Output, Stop> {
        let mut step = std::pin::pin!(step);
        let mut stall = std::pin::pin!(tokio::time::sleep(self.stall));
        loop {
            if self.cancel.load(Ordering::Relaxed) {
                return Err(Stop::Cancelled);
            }
            tokio::select! {
                biased;
                out = step.as_mut() => return Ok(out),
                () = stall.as_mut() => return Err(Stop::Stalled),
                () = self.total.as_mut() => return Err(Stop::Overall),
                _ = self.ticker.tick() => {}
            }
        }
    }
}

/// The error of a request that got no usable response headers.
fn send_error(url: &str, limits: &Limits, e: &reqwest::Error) -> FetchError {
    let connect = |reason: String| FetchError::Connect {
        url: url.to_owned(),
        reason,
    };
    if e.is_redirect() {
        connect(format!("the server redirected more than {MAX_REDIRECTS} times"))
    } else if e.is_timeout() {
        connect(format!(
            "no connection within {} s",
            whole_seconds(limits.connect_timeout)
        ))
    } else if e.is_connect() {
        connect(root_cause(e))
    } else if e.is_builder() {
        FetchError::BadUrl {
            url: url.to_owned(),
            reason: root_cause(e),
        }
    } else {
        FetchError::Read {
            url: url.to_owned(),
            reason: root_cause(e),
        }
    }
}

/// The innermost error's message ("Connection refused (os error 111)"), which says more to a
/// user than reqwest's "error sending request for url".
fn root_cause(e: &reqwest::Error) -> String {
    let mut inner: &dyn std::error::Error = e;
    while let Some(source) = inner.source() {
        inner = source;
    }
    inner.to_string()
}

/// A duration in seconds, rounded up so that a sub-second timeout does not read "0 s".
fn whole_seconds(d: Duration) -> u64 {
    d.as_secs().saturating_add(u64::from(d.subsec_nanos() > 0))
}

/// A byte count as a user reads it: "64 MiB", "1.5 KiB", "1000 bytes".
fn size(bytes: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    for (unit, name) in UNITS {
        if bytes >= unit {
            let whole = bytes / unit;
            let tenths = (bytes % unit) * 10 / unit;
            return if tenths == 0 {
                format!("{whole} {name}")
            } else {
                format!("{whole}.{tenths} {name}")
            };
        }
    }
    format!("{bytes} bytes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_naturally() {
        assert_eq!(size(64 * 1024 * 1024), "64 MiB");
        assert_eq!(size(1536), "1.5 KiB");
        assert_eq!(size(1000), "1000 bytes");
    }

    #[test]
    fn sub_second_timeouts_round_up() {
        assert_eq!(whole_seconds(Duration::from_millis(300)), 1);
        assert_eq!(whole_seconds(Duration::from_secs(30)), 30);
    }

    #[test]
    fn default_limits() {
        let limits = Limits::default();
        assert_eq!(limits.max_bytes, 64 * 1024 * 1024);
        assert_eq!(limits.connect_timeout, Duration::from_secs(15));
        assert_eq!(limits.stall_timeout, Duration::from_secs(30));
        assert_eq!(limits.total_timeout, Duration::from_secs(600));
    }

    #[test]
    fn messages_name_the_url_and_what_to_do() {
        let e = check_url("example.com/pack.toml").unwrap_err();
        let text = e.to_string();
        assert!(text.contains("example.com/pack.toml"), "{text}");
        assert!(text.contains("starting with https://"), "{text}");
        let e = FetchError::TooLarge {
            url: "https://x/p".into(),
            limit: 64 * 1024 * 1024,
        };
        assert!(e.to_string().contains("64 MiB"), "{e}");
    }
}
