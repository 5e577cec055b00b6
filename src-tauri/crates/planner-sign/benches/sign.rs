//! Placeholder, replaced by the signing benchmark.
fn main() {}
