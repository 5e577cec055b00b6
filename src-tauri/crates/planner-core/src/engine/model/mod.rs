//! The resolved model: a [`scenario::Plan`] with its workloads, scenarios and layers, where each
//! figure comes from ([`assumption`]), the monthly [`ledger`] and the payment schedules of a
//! plan's commitments ([`commitment`]), and the price paths a plan carries ([`market`]).
//!
//! May import: [`super::input`], [`super::blocks`].

pub mod assumption;
pub mod commitment;
pub mod ledger;
pub mod market;
pub mod scenario;
pub mod workload;
