//! A tamper-evident audit log: an append-only chain of entries, each holding the hash of the one
//! before it, so that changing, removing or reordering any entry breaks the chain at a place
//! [`verify`] names.
//!
//! # The canonical form (what is hashed)
//!
//! `hash = lowercase hex of SHA-256(canonical_json(E))`, where `E` is the JSON object of every
//! field of the entry except `hash`:
//!
//! ```text
//! {"action":…,"actor":…,"at":…,"payload":…,"prev_hash":…,"seq":…,"subject":…}
//! ```
//!
//! and [`canonical_json`] writes a JSON value with no whitespace, object keys sorted by their
//! UTF-8 bytes at every depth, strings escaped as JSON requires (`"` and `\` and control
//! characters; `\n`, `\t` etc. in their short forms, other controls as `\u00XX`; everything else,
//! including non-ASCII, as raw UTF-8), integers in decimal without exponent, `true`, `false`,
//! `null`. This is RFC 8785 (JCS) for everything but non-integer numbers; payloads should carry
//! money and other decimals as strings (as `rust_decimal` serialises them) so that the form stays
//! exact. `seq` starts at 1; the first entry's `prev_hash` is [`GENESIS`] (64 zeros).
//!
//! # What verify reports
//!
//! [`verify`] walks the chain from the start and stops at the first entry that fails, checking in
//! this order: its `seq` is the one after the previous entry's (1 for the first); its
//! `prev_hash` is the previous entry's `hash` ([`GENESIS`] for the first); its `hash` is the
//! hash of its own content. So:
//! - an edited field (payload, actor, time...) → that entry (`HashMismatch`);
//! - a forged `hash` field → that entry (`HashMismatch`);
//! - an edited entry whose hash was recomputed → the *next* entry (`PrevHashMismatch`): the edited
//!   entry is consistent in itself, the link to it is what breaks;
//! - a deleted entry → the entry now standing in its place, i.e. the one after the gap
//!   (`SeqGap`, naming the missing seq);
//! - two entries swapped → the first of the two in chain order (`SeqGap`).
//!
//! Removing entries from the *end* leaves a valid shorter chain; only a head hash kept elsewhere
//! detects that: [`verify_head`].

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The `prev_hash` of the first entry.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// One entry of the log.
// No specta derive: `payload` is any JSON (specta has no type for `serde_json::Value` in this
// build); the shell that exposes the log chooses how to type it (e.g. as `ChecklistChange`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditEntry {
    pub seq: u64,
    /// When it happened, as stamped by the caller (RFC 3339 UTC by convention).
    pub at: String,
    pub actor: String,
    pub action: String,
    /// What it is about, e.g. `scenario:s1` (the checklist's `Subject::key`).
    pub subject: String,
    pub payload: Value,
    pub prev_hash: String,
    pub hash: String,
}

/// What the caller gives to [`append`]; the chain supplies `seq`, `prev_hash` and `hash`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewEntry {
    pub at: String,
    pub actor: String,
    pub action: String,
    pub subject: String,
    pub payload: Value,
}

/// Lowercase hex of `bytes`.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The SHA-256 digest of `bytes` in lowercase hex: how the chain, evidence files and memo
/// records name content.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Writes `value` in the canonical form described in the module doc.
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => write_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            // Sorted here, whatever order the map keeps (serde_json's `preserve_order` feature
            // may be on somewhere in the build and would otherwise change the hash).
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(key, out);
                out.push(':');
                if let Some(v) = map.get(key) {
                    write_canonical(v, out);
                }
            }
            out.push('}');
        }
    }
}

fn write_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The canonical text of an entry's content: every field but `hash`.
pub fn canonical_entry(
    seq: u64,
    at: &str,
    actor: &str,
    action: &str,
    subject: &str,
    payload: &Value,
    prev_hash: &str,
) -> String {
    let content = serde_json::json!({
        "seq": seq,
        "at": at,
        "actor": actor,
        "action": action,
        "subject": subject,
        "payload": payload,
        "prev_hash": prev_hash,
    });
    canonical_json(&content)
}

/// The hash an entry should carry, computed from its content.
pub fn entry_hash(e: &AuditEntry) -> String {
    let text = canonical_entry(e.seq, &e.at, &e.actor, &e.action, &e.subject, &e.payload, &e.prev_hash);
    hex(&Sha256::digest(text.as_bytes()))
}

/// The entry that follows `chain` (which is taken as it is; verify it first if it came from
/// disk). The caller stores it.
pub fn append(chain: &[AuditEntry], new: NewEntry) -> AuditEntry {
    let (seq, prev_hash) = match chain.last() {
        Some(last) => (last.seq.saturating_add(1), last.hash.clone()),
        None => (1, GENESIS.to_owned()),
    };
    let mut entry = AuditEntry {
        seq,
        at: new.at,
        actor: new.actor,
        action: new.action,
        subject: new.subject,
        payload: new.payload,
        prev_hash,
        hash: String::new(),
    };
    entry.hash = entry_hash(&entry);
    entry
}

/// Why an entry fails.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum BreakReason {
    /// The entry's seq is not the one after the previous entry's: an entry before it was
    /// deleted, or entries were reordered.
    SeqGap { expected: u64, found: u64 },
    /// The entry does not link to the previous one: the previous entry was rewritten (with its
    /// hash recomputed) or this link was edited.
    PrevHashMismatch { expected: String, found: String },
    /// The entry's content does not hash to its `hash`: the entry was edited or its hash forged.
    HashMismatch { computed: String, stored: String },
    /// The chain's last hash is not the head kept elsewhere ([`verify_head`]).
    HeadMismatch { expected: String, found: String },
}

/// The first entry that breaks the chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[error("audit log broken at entry {position} (seq {seq}): {reason:?}")]
pub struct BrokenEntry {
    /// 1-based position in the chain as given.
    pub position: u64,
    /// The seq the entry carries.
    pub seq: u64,
    pub reason: BreakReason,
}

/// Checks the chain from its first entry and names the first broken one (see the module doc).
pub fn verify(chain: &[AuditEntry]) -> Result<(), BrokenEntry> {
    let mut expected_seq = 1u64;
    let mut expected_prev = GENESIS;
    for (i, e) in chain.iter().enumerate() {
        let position = u64::try_from(i).unwrap_or(u64::MAX).saturating_add(1);
        let broken = |reason| BrokenEntry {
            position,
            seq: e.seq,
            reason,
        };
        if e.seq != expected_seq {
            return Err(broken(BreakReason::SeqGap {
                expected: expected_seq,
                found: e.seq,
            }));
        }
        if e.prev_hash != expected_prev {
            return Err(broken(BreakReason::PrevHashMismatch {
                expected: expected_prev.to_owned(),
                found: e.prev_hash.clone(),
            }));
        }
        let computed = entry_hash(e);
        if computed != e.hash {
            return Err(broken(BreakReason::HashMismatch {
                computed,
                stored: e.hash.clone(),
            }));
        }
        expected_seq = expected_seq.saturating_add(1);
        expected_prev = &e.hash;
    }
    Ok(())
}

/// [`verify`], then checks that the last entry's hash is `head` (a hash kept outside the log,
/// e.g. in a signed memo), which also catches entries cut from the end. An empty chain has head
/// [`GENESIS`].
pub fn verify_head(chain: &[AuditEntry], head: &str) -> Result<(), BrokenEntry> {
    verify(chain)?;
    let (position, seq, found) = match chain.last() {
        Some(last) => (
            u64::try_from(chain.len()).unwrap_or(u64::MAX),
            last.seq,
            last.hash.as_str(),
        ),
        None => (0, 0, GENESIS),
    };
    if found == head {
        Ok(())
    } else {
        Err(BrokenEntry {
            position,
            seq,
            reason: BreakReason::HeadMismatch {
                expected: head.to_owned(),
                found: found.to_owned(),
            },
        })
    }
}
