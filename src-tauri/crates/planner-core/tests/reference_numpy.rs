//! NPV (with the monthly rate from an annual one), annuity payments and straight-line
//! depreciation against numpy-financial, on 240 random cases from a fixed seed, to the cent.
//!
//! The test fails (never skips) when python3 or numpy-financial is missing: install it with
//! `pip install numpy-financial` (the CI script does).

// Test code: a failed expectation here is a test failure, so unwrap, expect and panic are the point.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Command;

use planner_core::engine::blocks::finance::{annuity_payment, monthly_rate, npv, present, straight_line_monthly};
use rust_decimal::Decimal;
use rust_decimal::prelude::FromStr;
use serde_json::{Value, json};

/// SplitMix64: a tiny deterministic generator, so the cases are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A decimal in [lo, hi) with `dp` decimal places.
    fn dec(&mut self, lo: i64, hi: i64, dp: u32) -> Decimal {
        let scale = 10i64.pow(dp);
        let span = u64::try_from((hi - lo) * scale).unwrap_or(1).max(1);
        let n = i64::try_from(self.next() % span).unwrap_or(0) + lo * scale;
        Decimal::new(n, dp)
    }

    fn int(&mut self, lo: u32, hi: u32) -> u32 {
        lo + u32::try_from(self.next() % u64::from(hi - lo)).unwrap_or(0)
    }
}

#[test]
fn finance_matches_numpy_financial_to_the_cent() {
    let mut rng = Rng(20261121);
    let mut cases = Vec::new();
    let mut ours = Vec::new();
    for id in 0..80 {
        let annual = rng.dec(0, 25, 4);
        let months = rng.int(1, 121) as usize;
        let flows: Vec<Decimal> = (0..months).map(|_| rng.dec(-50_000, 500_000, 2)).collect();
        let r = monthly_rate(annual).unwrap_or_default();
        ours.push((format!("npv-{id}"), npv(r, &flows)));
        cases.push(
            json!({"id": format!("npv-{id}"), "kind": "npv", "annual": annual.to_string(),
            "flows": flows.iter().map(ToString::to_string).collect::<Vec<_>>()}),
        );
    }
    for id in 0..80 {
        let principal = rng.dec(1_000, 5_000_000, 2);
        let rate = rng.dec(0, 2, 5) / Decimal::from(100); // 0 to 2% a month
        let periods = rng.int(1, 121);
        ours.push((format!("pmt-{id}"), annuity_payment(principal, rate, periods)));
        cases.push(
            json!({"id": format!("pmt-{id}"), "kind": "pmt", "rate": rate.to_string(),
            "periods": periods, "principal": principal.to_string()}),
        );
    }
    for id in 0..80 {
        let cost = rng.dec(500, 10_000_000, 2);
        let salvage = cost * rng.dec(0, 1, 3);
        let life = rng.int(12, 121);
        ours.push((format!("sln-{id}"), straight_line_monthly(cost, salvage, life)));
        cases.push(
            json!({"id": format!("sln-{id}"), "kind": "sln", "cost": cost.to_string(),
            "salvage": salvage.to_string(), "life": life}),
        );
    }

    let dir = std::env::temp_dir().join(format!("planner-numpy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("temp dir: {e}"));
    let path = dir.join("cases.json");
    std::fs::write(&path, serde_json::to_string(&cases).unwrap_or_default())
        .unwrap_or_else(|e| panic!("write cases: {e}"));
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/reference/numpy_financial_check.py");
    let output = Command::new("python3")
        .arg(script)
        .arg(&path)
        .output()
        .unwrap_or_else(|e| {
            panic!("python3 could not be run ({e}); install Python 3 and then `pip install numpy-financial`")
        });
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        output.status.success(),
        "the numpy-financial reference failed; run `pip install numpy-financial`.\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let reference: Vec<Value> =
        serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("reference output: {e}"));
    assert_eq!(reference.len(), ours.len());
    let mut worst = Decimal::ZERO;
    for ((id, mine), theirs) in ours.iter().zip(&reference) {
        assert_eq!(theirs["id"].as_str(), Some(id.as_str()));
        let text = theirs["value"].as_str().unwrap_or_default();
        let value = Decimal::from_str(text)
            .or_else(|_| Decimal::from_scientific(text))
            .unwrap_or_else(|e| panic!("{id}: {text}: {e}"));
        let diff = (present(*mine) - present(value)).abs();
        worst = worst.max((*mine - value).abs());
        assert!(diff <= Decimal::new(1, 2), "{id}: ours {mine}, numpy-financial {value}");
    }
    println!("240 cases agree with numpy-financial to the cent; largest raw difference {worst}");
}
