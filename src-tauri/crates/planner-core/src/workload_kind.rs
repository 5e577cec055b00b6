//! What a workload is, in the scenario file's words: its kind, tuning method, class, precision
//! and data classification, and the shape of its model. `scenario_file` reads them, `sizing`
//! sizes with them and `workload` builds on them.

use rust_decimal::Decimal;
use rust_decimal::dec;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What the compute is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum WorkloadKind {
    PreTraining,
    FineTuning,
    Inference,
    Experimentation,
}

/// How fine-tuning updates the model; it sets the memory per parameter and FLOPs per token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum TuningMethod {
    Full,
    Lora,
    Qlora,
}

/// How the workload tolerates cost unpredictability, SLA misses and interruption.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum WorkloadClass {
    /// Production inference, RAG: predictable, no interruption.
    Steady,
    /// Seasonal training, event spikes.
    Variable,
    /// Trials, data preparation: spot welcome.
    Exploratory,
}

/// Numeric precision of weights and arithmetic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum Precision {
    Fp32,
    Bf16,
    Fp16,
    Fp8,
    Int8,
    Int4,
}

impl Precision {
    /// Bytes per weight.
    pub fn bytes(self) -> Decimal {
        match self {
            Precision::Fp32 => dec!(4),
            Precision::Bf16 | Precision::Fp16 => dec!(2),
            Precision::Fp8 | Precision::Int8 => dec!(1),
            Precision::Int4 => dec!(0.5),
        }
    }

    /// Whether the accelerator's 8-bit tensor throughput applies (else its BF16/FP16 figure).
    pub fn uses_8bit_peak(self) -> bool {
        matches!(self, Precision::Fp8 | Precision::Int8 | Precision::Int4)
    }
}

/// How sensitive the workload's data is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum DataClassification {
    Public,
    Internal,
    Confidential,
    Restricted,
}

/// The shape of a model, for memory sizing. The KV-cache fields are needed for inference only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ModelShape {
    pub parameters: Decimal,
    pub precision: Precision,
    pub layers: Option<u32>,
    pub kv_heads: Option<u32>,
    pub head_dim: Option<u32>,
    pub context_tokens: Option<u32>,
    pub batch: Option<u32>,
}
