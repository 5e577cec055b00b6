// "Give notice in month m" for each layer with an exit clause: the month picked per layer and
// that exit priced as a variant of the scenario against staying (newest answer wins per layer).
// When the curves change (the clause or the scenario was edited) the months on show are priced
// again.

import { untrack } from "svelte";
import { LatestOnly } from "../queue";
import type { ExitVariantOutcome } from "../workspace-types";

export type PricedExit = ExitVariantOutcome | { error: string };

export class ExitPricingManager {
  /** The month picked per layer. */
  picked: Record<string, number> = $state({});
  /** The priced variant (or why not) per layer. */
  priced: Record<string, PricedExit> = $state({});
  busy: Record<string, boolean> = $state({});

  private readonly price: (layer: string, month: number) => Promise<ExitVariantOutcome>;
  private readonly runners = new Map<string, LatestOnly<ExitVariantOutcome>>();

  /** `price`: prices notice to leave `layer` in `month` for the scenario as it stands. */
  constructor(price: (layer: string, month: number) => Promise<ExitVariantOutcome>) {
    this.price = price;
  }

  private runner(layer: string): LatestOnly<ExitVariantOutcome> {
    let r = this.runners.get(layer);
    if (!r) {
      r = new LatestOnly<ExitVariantOutcome>(
        (o) => (this.priced[layer] = o.ok ? o.value : { error: o.error instanceof Error ? o.error.message : String(o.error) }),
        (b) => (this.busy[layer] = b),
      );
      this.runners.set(layer, r);
    }
    return r;
  }

  /** Picks `month` for `layer` and prices that exit. */
  pick(layer: string, month: number): void {
    this.picked[layer] = month;
    this.runner(layer).request(() => this.price(layer, month));
  }

  /** New curves for `layers`: prices the months on show again, and forgets layers that are gone. */
  follow(layers: readonly string[]): void {
    untrack(() => {
      for (const layer of Object.keys(this.priced)) {
        const month = this.picked[layer];
        if (layers.includes(layer) && month !== undefined) this.runner(layer).request(() => this.price(layer, month));
        else delete this.priced[layer];
      }
    });
  }
}
