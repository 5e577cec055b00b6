// Ordering of back-end calls: edits one at a time and in order, typing coalesced into the
// newest waiting edit; reads that follow edits deliver only the newest answer.

import { describe, expect, it } from "vitest";
import { LatestOnly, SerialQueue, type Outcome } from "../src/lib/queue";

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("SerialQueue", () => {
  it("runs tasks one at a time in order, and merges a task into the waiting one with its key", async () => {
    const ran: string[] = [];
    const busy: number[] = [];
    const q = new SerialQueue((n) => busy.push(n));
    const first = deferred<string>();
    const a = q.submit("name", () => {
      ran.push("a");
      return first.promise;
    });
    const b = q.submit("name", async () => {
      ran.push("ab");
      return "ab";
    });
    const c = q.submit("name", async () => {
      ran.push("abc");
      return "abc";
    });
    const d = q.submit("gpus", async () => {
      ran.push("gpus");
      return "16";
    });
    expect(q.pending).toBe(3); // "a" running, "abc" (merged with "ab") and "gpus" waiting
    first.resolve("a");
    expect(await a).toBe("a");
    // The replaced task's caller gets the answer of the task that replaced it.
    expect(await b).toBe("abc");
    expect(await c).toBe("abc");
    expect(await d).toBe("16");
    expect(ran).toEqual(["a", "abc", "gpus"]);
    expect(busy[busy.length - 1]).toBe(0);
  });

  it("never merges keyless tasks and passes failures to their callers only", async () => {
    const q = new SerialQueue();
    const ran: number[] = [];
    const x = q.submit(null, async () => {
      ran.push(1);
      throw new Error("refused");
    });
    const y = q.submit(null, async () => {
      ran.push(2);
      return 2;
    });
    await expect(x).rejects.toThrow("refused");
    await expect(y).resolves.toBe(2);
    expect(ran).toEqual([1, 2]);
  });
});

describe("LatestOnly", () => {
  it("keeps one request in flight, replaces the waiting one and delivers only the newest answer", async () => {
    const delivered: Outcome<string>[] = [];
    const runner = new LatestOnly<string>((o) => delivered.push(o));
    const slow = deferred<string>();
    const calls: string[] = [];
    runner.request(() => {
      calls.push("r1");
      return slow.promise;
    });
    runner.request(async () => {
      calls.push("r2");
      return "r2";
    });
    runner.request(async () => {
      calls.push("r3");
      return "r3";
    });
    expect(runner.busy).toBe(true);
    slow.resolve("r1");
    await new Promise((r) => setTimeout(r, 0));
    await new Promise((r) => setTimeout(r, 0));
    // r1 was answered after newer requests were made: dropped. r2 never ran.
    expect(calls).toEqual(["r1", "r3"]);
    expect(delivered).toEqual([{ ok: true, value: "r3" }]);
    expect(runner.busy).toBe(false);
  });

  it("drops the answer in flight after cancel", async () => {
    const delivered: unknown[] = [];
    const runner = new LatestOnly<number>((o) => delivered.push(o));
    const slow = deferred<number>();
    runner.request(() => slow.promise);
    runner.cancel();
    slow.resolve(1);
    await new Promise((r) => setTimeout(r, 0));
    expect(delivered).toEqual([]);
  });
});
