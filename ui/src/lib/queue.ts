// Ordering of back-end calls.
//
// SerialQueue: edits, undo and redo run one at a time, in the order they were made (the shell
// runs commands on worker threads, so two calls in flight could arrive in either order). A task
// submitted with the same coalesce key as the task waiting last in line replaces it: when
// someone types faster than the back end saves, only the newest text is sent, and every caller
// of the replaced task gets the answer of the one that replaced it.
//
// LatestOnly: for reads that follow edits (scenario detail, comparison): at most one request in
// flight and one waiting; a request replaces the waiting one, and only the answer to the newest
// request is delivered. An older answer is dropped, so the screen never goes back in time.

type Waiter<T> = { resolve: (v: T) => void; reject: (e: unknown) => void };
type Item<T> = { key: string | null; run: () => Promise<T>; waiters: Waiter<T>[] };

export class SerialQueue {
  private readonly items: Item<unknown>[] = [];
  private running = false;
  private readonly onBusy: (pending: number) => void;

  /** `onBusy` hears the number of tasks waiting or running, after every change. */
  constructor(onBusy: (pending: number) => void = () => {}) {
    this.onBusy = onBusy;
  }

  /** Tasks waiting or running. */
  get pending(): number {
    return this.items.length + (this.running ? 1 : 0);
  }

  submit<T>(key: string | null, run: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const last = this.items[this.items.length - 1] as Item<T> | undefined;
      if (key !== null && last && last.key === key) {
        last.run = run;
        last.waiters.push({ resolve, reject });
      } else {
        this.items.push({ key, run, waiters: [{ resolve, reject }] } as Item<unknown>);
      }
      this.onBusy(this.pending);
      if (!this.running) void this.pump();
    });
  }

  private async pump(): Promise<void> {
    this.running = true;
    for (let item = this.items.shift(); item; item = this.items.shift()) {
      this.onBusy(this.pending);
      try {
        const value = await item.run();
        for (const w of item.waiters) w.resolve(value);
      } catch (e) {
        for (const w of item.waiters) w.reject(e);
      }
    }
    this.running = false;
    this.onBusy(this.pending);
  }
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

export class LatestOnly<T> {
  private running = false;
  private next: (() => Promise<T>) | null = null;
  private generation = 0;
  private readonly deliver: (outcome: Outcome<T>) => void;
  private readonly onBusy: (busy: boolean) => void;

  constructor(deliver: (outcome: Outcome<T>) => void, onBusy: (busy: boolean) => void = () => {}) {
    this.deliver = deliver;
    this.onBusy = onBusy;
  }

  /** Whether a request is in flight or waiting. */
  get busy(): boolean {
    return this.running || this.next !== null;
  }

  request(run: () => Promise<T>): void {
    this.next = run;
    if (!this.running) void this.pump();
  }

  /** Forgets the waiting request and drops the answer of the one in flight. */
  cancel(): void {
    this.next = null;
    this.generation += 1;
  }

  private async pump(): Promise<void> {
    this.running = true;
    this.onBusy(true);
    while (this.next) {
      const run = this.next;
      this.next = null;
      const generation = this.generation;
      let outcome: Outcome<T>;
      try {
        outcome = { ok: true, value: await run() };
      } catch (error) {
        outcome = { ok: false, error };
      }
      // A newer request is waiting, or the caller cancelled: this answer is stale.
      if (this.next === null && generation === this.generation) this.deliver(outcome);
    }
    this.running = false;
    this.onBusy(false);
  }
}
