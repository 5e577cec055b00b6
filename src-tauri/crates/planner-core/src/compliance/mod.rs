//! Compliance: the D-1 checklist and the tamper-evident log of its changes.
//!
//! [`checklist`] holds the checklist without the IO (the template loader, answers, sign-offs,
//! the cleared rule, hints from a plan); [`audit`] the hash-chained, append-only log that records
//! every change and names where a tampered chain breaks.
//!
//! May import: [`crate::engine`] (hints read a scenario and its workloads), [`crate::catalog`] (the template
//! is read with the catalog loader's checks) and the shared modules at the crate root. Never
//! `rfp`.

pub mod audit;
pub mod checklist;
