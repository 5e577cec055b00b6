//! Sizing: does the model fit, how many GPUs the work needs, and how to split it.
//!
//! Memory per parameter follows the usual rules (EleutherAI's Transformer Math, ZeRO, LoRA,
//! QLoRA): inference needs the weights at their precision plus the KV cache; full fine-tuning or
//! training with mixed-precision Adam needs about 16 bytes per parameter (fp16 weights and
//! gradients, fp32 master weights, momentum and variance); LoRA keeps the frozen base at its
//! precision and trains adapters of about 1% of the parameters at 16 bytes each; QLoRA stores the
//! base in 4 bits. Activations are not counted: the figures are the floor ("three 80 GB GPUs at
//! least"), which is how sizing is quoted before a job is profiled.

use rust_decimal::Decimal;
use rust_decimal::dec;
use serde::Serialize;

use crate::workload_kind::ModelShape;
use crate::workload_kind::{TuningMethod, WorkloadKind};

/// Bytes per parameter for full training with mixed-precision Adam.
pub const FULL_TRAINING_BYTES_PER_PARAM: Decimal = dec!(16);
/// Share of the parameters a LoRA adapter trains (rank-dependent; 1% is a generous typical value).
pub const LORA_TRAINABLE_SHARE: Decimal = dec!(0.01);
/// Bytes per parameter of a 4-bit QLoRA base including quantisation constants (~0.127 bit/param).
pub const QLORA_BASE_BYTES_PER_PARAM: Decimal = dec!(0.516);

/// Memory a task needs, in GB (10^9 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct MemoryNeed {
    pub weights_gb: Decimal,
    /// Gradients, optimiser states and master weights (training), adapters (LoRA).
    pub training_state_gb: Decimal,
    pub kv_cache_gb: Decimal,
    pub total_gb: Decimal,
}

const GB: Decimal = dec!(1000000000);

/// KV-cache bytes: `2 × layers × kv_heads × head_dim × context × batch × bytes per element`.
pub fn kv_cache_bytes(shape: &ModelShape) -> Decimal {
    match (shape.layers, shape.kv_heads, shape.head_dim, shape.context_tokens) {
        (Some(l), Some(h), Some(d), Some(ctx)) => {
            let batch = Decimal::from(shape.batch.unwrap_or(1));
            Decimal::TWO
                * Decimal::from(l)
                * Decimal::from(h)
                * Decimal::from(d)
                * Decimal::from(ctx)
                * batch
                * shape.precision.bytes()
        }
        _ => Decimal::ZERO,
    }
}

/// The memory a workload of `kind` (and fine-tuning `method`) needs for `shape`.
pub fn memory_need(shape: &ModelShape, kind: WorkloadKind, method: Option<TuningMethod>) -> MemoryNeed {
    let n = shape.parameters;
    let (weights, state, kv) = match (kind, method) {
        (WorkloadKind::Inference, _) => (n * shape.precision.bytes(), Decimal::ZERO, kv_cache_bytes(shape)),
        (WorkloadKind::FineTuning, Some(TuningMethod::Lora)) => (
            n * shape.precision.bytes(),
            n * LORA_TRAINABLE_SHARE * FULL_TRAINING_BYTES_PER_PARAM,
            Decimal::ZERO,
        ),
        (WorkloadKind::FineTuning, Some(TuningMethod::Qlora)) => (
            n * QLORA_BASE_BYTES_PER_PARAM,
            n * LORA_TRAINABLE_SHARE * FULL_TRAINING_BYTES_PER_PARAM,
            Decimal::ZERO,
        ),
        // Full fine-tuning, pre-training and experiments: 2 bytes of weights + 14 of training state.
        _ => (
            n * dec!(2),
            n * (FULL_TRAINING_BYTES_PER_PARAM - dec!(2)),
            Decimal::ZERO,
        ),
    };
    MemoryNeed {
        weights_gb: weights / GB,
        training_state_gb: state / GB,
        kv_cache_gb: kv / GB,
        total_gb: (weights + state + kv) / GB,
    }
}

/// The fewest GPUs of `gpu_memory_gb` whose memory holds `need_gb` (at least one).
pub fn gpus_for_memory(need_gb: Decimal, gpu_memory_gb: Decimal) -> u32 {
    if gpu_memory_gb <= Decimal::ZERO {
        return 0;
    }
    ceil_u32(need_gb / gpu_memory_gb).max(1)
}

/// The fewest GPUs that deliver `useful_pflop_hours` in a month of `hours` at `useful_per_gpu_hour`
/// and `availability`.
pub fn gpus_for_throughput(
    useful_pflop_hours: Decimal,
    hours: Decimal,
    useful_per_gpu_hour: Decimal,
    availability: Decimal,
) -> u32 {
    let per_gpu = hours * useful_per_gpu_hour * availability;
    if per_gpu <= Decimal::ZERO {
        return 0;
    }
    ceil_u32(useful_pflop_hours / per_gpu)
}

/// A lead time of `weeks` in whole plan months: weeks × 7 days over months of 365.25 ÷ 12 days,
/// rounded up (26 weeks → 6 months). The one rule `validate` and the Buy draft both use.
pub fn lead_time_months(weeks: Decimal) -> u32 {
    ceil_u32(weeks * Decimal::from(7 * 12) / rust_decimal::dec!(365.25))
}

pub(crate) fn ceil_u32(x: Decimal) -> u32 {
    if x <= Decimal::ZERO {
        return 0;
    }
    let c = x.ceil();
    u32::try_from(c.mantissa() / 10i128.pow(c.scale())).unwrap_or(u32::MAX)
}

/// How to split a model across GPUs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "kebab-case")]
pub enum Parallelism {
    /// The model fits one GPU: replicate it (data parallelism) for throughput.
    DataParallel,
    /// The model needs several GPUs of one server: tensor parallelism over the scale-up link.
    TensorWithinServer,
    /// The model needs more than one server: tensor parallelism inside each server, pipeline
    /// parallelism or ZeRO-3/FSDP sharding across servers over the fabric.
    TensorAndPipelineAcrossServers,
}

/// The recommendation and its warnings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SplitAdvice {
    pub gpus_for_memory: u32,
    pub parallelism: Parallelism,
    pub warnings: Vec<String>,
}

/// The fabric between servers, as the split advice needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FabricSpeed {
    pub port_gbps: u32,
    /// RDMA fabrics (InfiniBand, RoCE) carry tensor and pipeline traffic; plain Ethernet does not.
    pub rdma: bool,
}

/// GPUs in one server of rented capacity (a cloud layer, a catalog offer), as sizing assumes:
/// the catalog's instances hold 8 or fewer.
pub const RENTED_GPUS_PER_SERVER: u32 = 8;

/// How well cards of `gpu_memory_gb` hold work that needs `need_gb`, by [`split_advice`] over a
/// server of [`RENTED_GPUS_PER_SERVER`]: 0 when one server holds it without a warning (one GPU,
/// or GPUs joined by a scale-up link); 1 when it needs more than one server of a card with a
/// scale-up link (tensor parallelism inside each, pipeline across, as the advice recommends);
/// 2 when it does not fit on GPUs a scale-up link joins, or the card has no memory.
pub fn memory_fit(need_gb: Decimal, gpu_memory_gb: Decimal, has_scale_up_link: bool) -> u8 {
    if gpu_memory_gb <= Decimal::ZERO {
        return 2;
    }
    let advice = split_advice(
        need_gb,
        gpu_memory_gb,
        RENTED_GPUS_PER_SERVER,
        has_scale_up_link,
        None,
        false,
    );
    match advice.parallelism {
        Parallelism::DataParallel => 0,
        Parallelism::TensorWithinServer if advice.warnings.is_empty() => 0,
        Parallelism::TensorAndPipelineAcrossServers if has_scale_up_link => 1,
        _ => 2,
    }
}

/// The slowest fabric fit for splitting a training job across servers: 400G
/// InfiniBand or RoCEv2 (rail-optimised fat tree). 200G RDMA is accepted with a warning.
pub const TRAINING_FABRIC_GBPS: u32 = 400;

/// Recommends a parallelism and warns when the model must cross a fabric too slow for it.
pub fn split_advice(
    need_gb: Decimal,
    gpu_memory_gb: Decimal,
    gpus_per_server: u32,
    has_scale_up_link: bool,
    fabric: Option<FabricSpeed>,
    training: bool,
) -> SplitAdvice {
    let n = gpus_for_memory(need_gb, gpu_memory_gb);
    let mut warnings = Vec::new();
    let parallelism = if n <= 1 {
        Parallelism::DataParallel
    } else if n <= gpus_per_server.max(1) {
        if !has_scale_up_link {
            warnings.push(format!(
                "the model needs {n} GPUs but this accelerator has no scale-up link (NVLink or similar): tensor parallelism over PCIe will be slow"
            ));
        }
        Parallelism::TensorWithinServer
    } else {
        match fabric {
            None => warnings.push(format!(
                "the model needs {n} GPUs, more than one server holds, and no fabric is chosen to join the servers"
            )),
            Some(f) if !f.rdma || f.port_gbps < TRAINING_FABRIC_GBPS / 2 => warnings.push(format!(
                "the model needs {n} GPUs across servers, but the fabric ({} Gb/s{}) is too slow for tensor or pipeline traffic: use 400G InfiniBand or RoCEv2",
                f.port_gbps,
                if f.rdma { "" } else { ", no RDMA" }
            )),
            Some(f) if training && f.port_gbps < TRAINING_FABRIC_GBPS => warnings.push(format!(
                "training across servers on a {} Gb/s fabric will lose throughput (AllReduce can take ~30% of wall time); 400G is the norm",
                f.port_gbps
            )),
            Some(_) => {}
        }
        Parallelism::TensorAndPipelineAcrossServers
    };
    SplitAdvice {
        gpus_for_memory: n,
        parallelism,
        warnings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload_kind::Precision;

    /// A worked example: 13B parameters at 16 bytes is about 208 GB for full
    /// fine-tuning: three 80 GB GPUs at least.
    #[test]
    fn worked_figure_4_memory_for_full_fine_tuning() {
        let shape = ModelShape {
            parameters: dec!(13000000000),
            precision: Precision::Bf16,
            layers: None,
            kv_heads: None,
            head_dim: None,
            context_tokens: None,
            batch: None,
        };
        let need = memory_need(&shape, WorkloadKind::FineTuning, Some(TuningMethod::Full));
        assert_eq!(need.total_gb, dec!(208));
        assert_eq!(gpus_for_memory(need.total_gb, dec!(80)), 3);
        let advice = split_advice(need.total_gb, dec!(80), 8, true, None, true);
        assert_eq!(advice.parallelism, Parallelism::TensorWithinServer);
        // 70B at 16 bytes is ~1.1 TB: beyond one 8×80 GB server, so the fabric matters.
        let big = memory_need(
            &ModelShape {
                parameters: dec!(70000000000),
                ..shape
            },
            WorkloadKind::FineTuning,
            Some(TuningMethod::Full),
        );
        assert_eq!(big.total_gb, dec!(1120));
        let slow = split_advice(
            big.total_gb,
            dec!(80),
            8,
            true,
            Some(FabricSpeed {
                port_gbps: 100,
                rdma: false,
            }),
            true,
        );
        assert_eq!(slow.parallelism, Parallelism::TensorAndPipelineAcrossServers);
        assert!(
            slow.warnings.iter().any(|w| w.contains("too slow")),
            "{:?}",
            slow.warnings
        );
        let fast = split_advice(
            big.total_gb,
            dec!(80),
            8,
            true,
            Some(FabricSpeed {
                port_gbps: 400,
                rdma: true,
            }),
            true,
        );
        assert!(fast.warnings.is_empty());
    }

    #[test]
    fn inference_memory_counts_the_kv_cache() {
        // Llama-3.1-70B: 80 layers, 8 KV heads, d = 128, FP16: 327,680 bytes per token.
        let shape = ModelShape {
            parameters: dec!(70000000000),
            precision: Precision::Fp16,
            layers: Some(80),
            kv_heads: Some(8),
            head_dim: Some(128),
            context_tokens: Some(4096),
            batch: Some(1),
        };
        assert_eq!(kv_cache_bytes(&shape), dec!(327680) * dec!(4096));
        let need = memory_need(&shape, WorkloadKind::Inference, None);
        assert_eq!(need.weights_gb, dec!(140));
        assert_eq!(gpus_for_memory(need.total_gb, dec!(80)), 2);
        let q = memory_need(
            &ModelShape {
                parameters: dec!(65000000000),
                ..shape
            },
            WorkloadKind::FineTuning,
            Some(TuningMethod::Qlora),
        );
        assert!(q.total_gb < dec!(48), "QLoRA 65B fits one 48 GB GPU: {}", q.total_gb);
    }

    /// 80.74 GB (a 70B model at fp8 with its KV cache): one 192 GB card holds it, four 24 GB
    /// cards without a scale-up link do not, two 80 GB cards with NVLink do; 1,120 GB (70B full
    /// fine-tuning) is 14 × 80 GB, beyond a server of 8, so across servers.
    #[test]
    fn memory_fit_follows_the_split_advice() {
        assert_eq!(memory_fit(dec!(80.74), dec!(192), true), 0);
        assert_eq!(memory_fit(dec!(80.74), dec!(24), false), 2);
        assert_eq!(memory_fit(dec!(80.74), dec!(80), true), 0);
        assert_eq!(memory_fit(dec!(20), dec!(24), false), 0);
        assert_eq!(memory_fit(dec!(1120), dec!(80), true), 1);
        assert_eq!(memory_fit(dec!(1120), dec!(141), true), 0);
        assert_eq!(memory_fit(dec!(10), Decimal::ZERO, true), 2);
    }

    #[test]
    fn throughput_rounds_up() {
        assert_eq!(gpus_for_throughput(dec!(1000), dec!(720), dec!(0.4), dec!(1)), 4);
        assert_eq!(ceil_u32(dec!(3.0)), 3);
        assert_eq!(ceil_u32(dec!(3.0001)), 4);
    }
}
