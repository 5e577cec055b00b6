// "Ways out" of a scenario (issue #19): leave a reservation, scale down, downgrade to another
// offer, leave a lease or sell owned hardware early, from a chosen month, each priced by the
// engine as a variant of the scenario against staying (newest answer wins).

import { LatestOnly } from "../queue";
import type { ExitRequest, ExitRequestOutcome, LayerForm, LayerKind, LayerSpec } from "../workspace-types";

export type WayOut = ExitRequest["kind"];

export type PricedWayOut = ExitRequestOutcome | { error: string };

/** The words for each way out. */
export const WAY_OUT_LABELS: Record<WayOut, string> = {
  "leave-reservation": "Leave the reservation",
  "scale-down": "Scale down",
  downgrade: "Downgrade to another offer",
  "leave-lease": "Leave the lease",
  "sell-early": "Sell the hardware early",
};

/** The ways out a layer has, by its kind and financing. */
export function waysOutOf(layer: LayerSpec): WayOut[] {
  switch (layer.kind) {
    case "reserved":
      return ["leave-reservation", "scale-down", "downgrade"];
    case "owned":
      return layer.financing?.method === "lease" ? ["leave-lease"] : ["sell-early", "scale-down"];
    case "on-demand":
    case "spot":
    case "pooled":
      return ["downgrade"];
    default:
      return [];
  }
}

export class WaysOutManager {
  layer: string | null = $state(null);
  kind: WayOut | null = $state(null);
  month = $state(0);
  /** Scale down: the GPUs kept. */
  gpus = $state(1);
  /** Downgrade: the offer and kind that take over. */
  toOffer: string | null = $state(null);
  toKind: LayerKind = $state("on-demand");
  priced: PricedWayOut | null = $state(null);
  busy = $state(false);

  private readonly price: (request: ExitRequest) => Promise<ExitRequestOutcome>;
  private readonly runner: LatestOnly<ExitRequestOutcome>;

  /** `price`: prices one request for the scenario as it stands. */
  constructor(price: (request: ExitRequest) => Promise<ExitRequestOutcome>) {
    this.price = price;
    this.runner = new LatestOnly<ExitRequestOutcome>(
      (o) => (this.priced = o.ok ? o.value : { error: o.error instanceof Error ? o.error.message : String(o.error) }),
      (b) => (this.busy = b),
    );
  }

  /** Chooses a layer and its first way out; a scale-down starts at half its GPUs. */
  choose(layer: LayerSpec | undefined, month: number): void {
    this.layer = layer?.id ?? null;
    this.kind = layer ? (waysOutOf(layer)[0] ?? null) : null;
    this.month = month;
    this.gpus = Math.max(1, Math.floor((layer?.gpus ?? 2) / 2));
    this.toOffer = layer?.offer ?? null;
    this.priced = null;
  }

  /** The request the form describes, or null while it is incomplete. */
  request(forms: readonly LayerForm[] | null): ExitRequest | null {
    const { layer, kind, month } = this;
    if (layer === null || kind === null) return null;
    switch (kind) {
      case "leave-reservation":
      case "leave-lease":
        return { kind, layer, month };
      case "sell-early":
        return { kind, layer, month, residual_share: null };
      case "scale-down":
        return { kind, layer, month, gpus: this.gpus };
      case "downgrade": {
        const empty = forms?.find((f) => f.kind === this.toKind)?.empty;
        if (!empty || this.toOffer === null) return null;
        const to: LayerSpec = { ...empty, id: `${layer}-${this.toKind}`, offer: this.toOffer, accelerator: null };
        if (this.toKind === "reserved") to.term = "1y";
        return { kind, layer, month, to };
      }
    }
  }

  /** Prices the request the form describes. */
  run(forms: readonly LayerForm[] | null): void {
    const request = this.request(forms);
    if (request) this.runner.request(() => this.price(request));
  }
}
