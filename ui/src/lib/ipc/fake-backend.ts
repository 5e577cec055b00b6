// An in-memory Backend for tests and the dev-only fixture preview (dev/). It holds whatever
// catalog or error the caller gives it; it has no data of its own. Production code must not
// import it (tests/architecture.test.ts enforces this).

import type { Catalog, PlannerError } from "../catalog-types";
import { BackendError, type Backend } from "../backend";

export type FakeAnswer =
  | { catalog: Catalog }
  | { error: PlannerError }
  | { throws: unknown };

export class FakeBackend implements Backend {
  /** How many times getCatalog was called. */
  calls = 0;
  private readonly answer: FakeAnswer;
  private readonly delayMs: number;

  constructor(answer: FakeAnswer, options: { delayMs?: number } = {}) {
    this.answer = answer;
    this.delayMs = options.delayMs ?? 0;
  }

  async getCatalog(): Promise<Catalog> {
    this.calls += 1;
    if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
    const a = this.answer;
    if ("catalog" in a) return structuredClone(a.catalog);
    if ("error" in a) throw new BackendError(structuredClone(a.error));
    throw a.throws;
  }
}
