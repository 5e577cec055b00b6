//! The resolved model: a [`scenario::Plan`] with its workloads, scenarios and layers, where each
//! figure comes from ([`assumption`]), the monthly [`ledger`], the payment schedules of a
//! plan's commitments ([`commitment`]), the price paths a plan carries ([`market`]) and the
//! plan's tax profile ([`tax_profile`]).
//!
//! May import: [`super::input`], [`super::blocks`].

pub mod assumption;
pub mod commitment;
pub mod ledger;
pub mod market;
pub mod scenario;
pub mod tax_profile;
pub mod workload;
