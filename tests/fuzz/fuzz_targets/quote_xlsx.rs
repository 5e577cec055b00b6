//! An RFP quote file (.xlsx) as `planner quotes check` and the app's import read it (from a path,
//! as the reader takes one): see `planner_fuzz::read_quote_file`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| planner_fuzz::read_quote_file("quotes.xlsx", data));
