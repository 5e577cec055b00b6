//! Building blocks: plain numbers in, plain numbers out. Finance (discounting, annuities,
//! depreciation), tax (depreciation schedules by method and convention, and the present value of
//! their tax shield, for the after-tax view), sizing (memory and GPUs for a model), rack power and
//! cooling, the network fabric, spot interruptions, the allocation of demand to supply layers
//! month by month, resale derived from newer generations' price-performance (a card's value at
//! an age, capped by its remaining rental margin; 0 without a resale market), and price paths (how
//! a rental price, a purchase price, a tariff or a salary moves month by month: flat, a yearly
//! rate, a rate per period or dated points). Each can be called on
//! its own. An input a block refuses is a [`refused::Refused`], naming its field.
//!
//! May import: nothing else in the engine.

pub mod allocation;
pub mod finance;
pub mod network;
pub mod price_path;
pub mod rack;
pub mod refused;
pub mod resale;
pub mod sizing;
pub mod spot;
pub mod tax;
