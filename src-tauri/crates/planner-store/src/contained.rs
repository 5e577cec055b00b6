//! A third-party parser run so that a panic inside it becomes an error, and says nothing.
//!
//! `catch_unwind` alone stops the unwinding, but the panic hook has already printed "thread
//! 'main' panicked at …" on standard error: to a person (or a program watching the command) the
//! app crashed, though it then refused the file. While [`run`] is on the stack, the hook this
//! module installs (once, in front of whatever hook was there) keeps the panic's place for the
//! refusal instead of printing it; every other panic goes to the hook that was there before.
//!
//! A fuzzing build (`--cfg fuzzing`) installs nothing: libFuzzer's own hook then aborts on a
//! panic inside the parser, so the fuzzer reports it as the finding it is (an input the checks
//! before the parser should have refused), rather than seeing a refusal.

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};

thread_local! {
    /// Whether this thread is inside [`run`].
    static INSIDE: Cell<bool> = const { Cell::new(false) };
    /// Where the last contained panic happened ("src/xlsx/mod.rs:3048").
    static PLACE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// A panic caught inside [`run`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caught {
    /// The panic's message.
    pub message: String,
    /// The source file and line of the panic, when known.
    pub place: Option<String>,
}

/// Runs `parse`; a panic inside it is returned as [`Caught`], with nothing printed.
pub fn run<T>(parse: impl FnOnce() -> T) -> Result<T, Caught> {
    install_hook();
    let outer = INSIDE.with(|inside| inside.replace(true));
    let result = panic::catch_unwind(AssertUnwindSafe(parse));
    INSIDE.with(|inside| inside.set(outer));
    result.map_err(|payload| Caught {
        message: payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "an internal error".to_owned()),
        place: PLACE.with(RefCell::take),
    })
}

#[cfg(not(fuzzing))]
fn install_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let before = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if INSIDE.with(Cell::get) {
                let place = info.location().map(|l| format!("{}:{}", l.file(), l.line()));
                PLACE.with(|p| *p.borrow_mut() = place);
            } else {
                before(info);
            }
        }));
    });
}

#[cfg(fuzzing)]
fn install_hook() {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::panic)]
    fn a_panic_inside_becomes_an_error_with_its_place() {
        let caught = run(|| -> u32 { panic!("attempt to subtract with overflow") }).unwrap_err();
        assert_eq!(caught.message, "attempt to subtract with overflow");
        let place = caught.place.unwrap();
        assert!(place.contains("contained.rs:"), "{place}");
        assert_eq!(run(|| 7), Ok(7));
        // Nested runs restore the outer state.
        let outer = run(|| run(|| 1).unwrap() + 1);
        assert_eq!(outer, Ok(2));
        assert!(!INSIDE.with(Cell::get));
    }
}
