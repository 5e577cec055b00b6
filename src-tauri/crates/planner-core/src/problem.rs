//! What every stage of the engine reports and shares, at the bottom of the module order: a
//! [`Problem`] (one thing wrong with the input, at its JSON path), the longest horizon the engine
//! evaluates, and how a message quotes the input ([`clip`], [`clip_message`]). `error`,
//! `scenario_file`, `limits`, `fx`, `exit` and `validate` build on it; it imports none of them.

use std::borrow::Cow;

use serde::Serialize;

/// The longest horizon the engine evaluates, in months.
pub const MAX_HORIZON_MONTHS: u32 = 120;

/// One thing wrong with the input: the JSON path of the field and what to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Problem {
    pub path: String,
    pub message: String,
}

/// The most characters of a value a message quotes; longer values are cut with "…" (issue #14:
/// a 1.5 MB value quoted whole made 3 MB of error output).
pub const QUOTE_LIMIT: usize = 200;

/// The longest message kept whole; a longer one keeps its start and its end (where the advice is).
pub const MESSAGE_LIMIT: usize = 2_000;

/// A value as a message quotes it: at most [`QUOTE_LIMIT`] characters, then "…".
pub fn clip(value: &str) -> Cow<'_, str> {
    match value.char_indices().nth(QUOTE_LIMIT) {
        None => Cow::Borrowed(value),
        Some((cut, _)) => Cow::Owned(format!("{}…", &value[..cut])),
    }
}

/// A message with every quoted value (between backticks, double or single quotes) cut to
/// [`QUOTE_LIMIT`] characters, and the whole kept under about [`MESSAGE_LIMIT`] characters.
/// For messages that carry text from elsewhere (serde, SQLite) whose values cannot be clipped
/// where they are written.
pub fn clip_message(message: &str) -> Cow<'_, str> {
    if message.chars().count() <= QUOTE_LIMIT {
        return Cow::Borrowed(message);
    }
    let mut out = String::with_capacity(message.len().min(4 * MESSAGE_LIMIT));
    let mut rest = message;
    while let Some(open) = rest.find(['`', '"', '\'']) {
        let quote = rest[open..].chars().next().unwrap_or('"');
        let after = open + quote.len_utf8();
        out.push_str(&rest[..after]);
        rest = &rest[after..];
        let Some(close) = rest.find(quote) else {
            break;
        };
        out.push_str(&clip(&rest[..close]));
        out.push(quote);
        rest = &rest[close + quote.len_utf8()..];
    }
    out.push_str(&clip_long(rest));
    if out.chars().count() > MESSAGE_LIMIT {
        let head: String = out.chars().take(MESSAGE_LIMIT / 2).collect();
        let tail: String = {
            let mut t: Vec<char> = out.chars().rev().take(MESSAGE_LIMIT / 4).collect();
            t.reverse();
            t.into_iter().collect()
        };
        out = format!("{head} … {tail}");
    }
    Cow::Owned(out)
}

/// Text left after the last quote: an unclosed quote may run to the end, so cut it like a value
/// when it is long.
fn clip_long(rest: &str) -> Cow<'_, str> {
    if rest.chars().count() > MESSAGE_LIMIT {
        clip(rest)
    } else {
        Cow::Borrowed(rest)
    }
}
