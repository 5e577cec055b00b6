//! Every IPC command by name: the arguments as the UI's bindings send them (a JSON object with
//! camelCase keys), the answer as the shell would return it (JSON).
//!
//! The shell registers a typed command for each entry of the one command list
//! ([`crate::commands`]), which generate the bindings; this table is expanded from the same list
//! for what runs without a window: the host server that records the
//! UI tests' answers and the test that replays them (see the `recorded` module). A test checks that
//! it knows every command of the bindings.

use planner_core::error::{ErrorCode, PlannerError};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::Host;

/// Commands that need the window and so are answered by the caller, never by [`route`]:
/// the system file dialog is the user's input.
pub const WINDOW_COMMANDS: &[&str] = &["choose_file"];

/// The arguments of one call, read by name.
struct Args<'a> {
    command: &'a str,
    values: &'a Value,
}

impl Args<'_> {
    /// The argument `name` (camelCase, as the bindings send it); an absent one reads as null,
    /// which an `Option` accepts.
    fn get<T: DeserializeOwned>(&self, name: &str) -> Result<T, PlannerError> {
        let value = self.values.get(name).cloned().unwrap_or(Value::Null);
        serde_json::from_value(value).map_err(|e| {
            PlannerError::invalid(
                name,
                format!("The argument {name} of {} does not read: {e}.", self.command),
            )
        })
    }
}

fn answer<T: Serialize>(result: Result<T, PlannerError>) -> Result<Value, PlannerError> {
    let value = result?;
    serde_json::to_value(value)
        .map_err(|e| PlannerError::new(ErrorCode::Io, format!("The answer could not be written as JSON: {e}.")))
}

/// The argument name the bindings send for a Rust parameter: `what_if` → `whatIf`.
fn camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Expands the command list ([`crate::commands`]) into [`route`].
macro_rules! router_table {
    ($( $(#[$meta:meta])* $name:ident ($host:ident $(, $arg:ident : $ty:ty)*) -> $ans:ty = $body:block; )*) => {
        /// Runs the command `command` with `args` on `host` and returns its answer as JSON, or the
        /// refusal the command gives. An unknown command, or one in [`WINDOW_COMMANDS`], is refused
        /// with `invalid-input` naming it.
        pub fn route<H: Host>(host: &H, command: &str, args: &Value) -> Result<Value, PlannerError> {
            let a = Args { command, values: args };
            $(
                if command == stringify!($name) {
                    #[allow(unused_variables)]
                    let $host = host;
                    $( let $arg: $ty = a.get(&camel(stringify!($arg)))?; )*
                    let answered: Result<$ans, PlannerError> = $body;
                    return answer(answered);
                }
            )*
            Err(unknown(command))
        }

        /// Every command of the list, by name, in the order of the bindings.
        pub const COMMANDS: &[&str] = &[$(stringify!($name)),*];
    };
}

crate::with_commands!(router_table);

fn unknown(command: &str) -> PlannerError {
    let why = if WINDOW_COMMANDS.contains(&command) {
        "needs the window; its answer is the user's"
    } else {
        "is not a command of the app"
    };
    PlannerError::new(ErrorCode::InvalidInput, format!("{command} {why}."))
}
