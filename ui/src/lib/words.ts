// Words for the engine's enum values, as the screens show them.

import type {
  Category,
  DataClassification,
  Parallelism,
  Precision,
  TuningMethod,
  WorkloadClass,
  WorkloadKind,
} from "./workspace-types";

export const PARALLELISM_WORDS: Record<Parallelism, string> = {
  "data-parallel": "fits one GPU: replicate it for throughput (data parallelism)",
  "tensor-within-server": "needs several GPUs of one server: tensor parallelism over the scale-up link",
  "tensor-and-pipeline-across-servers":
    "needs more than one server: tensor parallelism inside each server, pipeline parallelism or sharding (ZeRO-3/FSDP) across servers over the fabric",
};

export const WORKLOAD_KIND_LABELS: Record<WorkloadKind, string> = {
  "pre-training": "Pre-training",
  "fine-tuning": "Fine-tuning",
  inference: "Inference",
  experimentation: "Experimentation",
};

export const TUNING_METHOD_LABELS: Record<TuningMethod, string> = {
  full: "Full fine-tuning",
  lora: "LoRA",
  qlora: "QLoRA",
};

export const WORKLOAD_CLASS_LABELS: Record<WorkloadClass, string> = {
  steady: "Steady: production inference, RAG; no interruption",
  variable: "Variable: seasonal training, event spikes",
  exploratory: "Exploratory: trials, data preparation; spot welcome",
};

export const PRECISION_LABELS: Record<Precision, string> = {
  fp32: "FP32",
  bf16: "BF16",
  fp16: "FP16",
  fp8: "FP8",
  int8: "INT8",
  int4: "INT4",
};

export const CLASSIFICATION_LABELS: Record<DataClassification, string> = {
  public: "Public",
  internal: "Internal",
  confidential: "Confidential",
  restricted: "Restricted",
};

export const CATEGORY_LABELS: Record<Category, string> = {
  hardware: "Hardware",
  installation: "Installation",
  network: "Network",
  power_distribution: "Power distribution",
  cooling: "Cooling",
  electricity: "Electricity",
  colocation: "Colocation",
  staff: "Staff",
  support: "Support",
  operations: "Operations and maintenance",
  software: "Software",
  cloud_compute: "Cloud compute",
  commitments: "Commitments",
  storage_egress: "Storage and egress",
  financing: "Financing",
  termination_fees: "Termination fees",
  adaptation: "Adaptation",
  unserved_work: "Unserved work (shadow price)",
  depreciation: "Depreciation",
  residual: "Residual value",
};

/** The label of an enum value, or the value itself when this build does not know it. */
export function label<K extends string>(labels: Record<K, string>, value: string): string {
  return (labels as Record<string, string>)[value] ?? value;
}
