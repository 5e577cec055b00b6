// The transport of recorded answers: the UI tests talk to the real back end's answers, not to rules written again
// in TypeScript.
//
// `@tauri-apps/api/core`'s `invoke` is replaced (tests/support/setup.ts) by `invoke` below, so a
// test drives the production TauriBackend and generated bindings. Each test starts a session
// with `recorded()`:
//
// - In record mode (`RECORD_ANSWERS=1`, what `cargo xtask fixtures` runs) every call goes to the
//   host server (planner-app's `planner-host-server`: the real use cases on a test host with
//   a fixed clock) and the calls with their answers are written to
//   `tests/recorded/<file>/<test>.json` when the test ends; long answers (a catalog, charts) are
//   kept once, gzipped, in `tests/recorded/answers/<digest>.json.gz`, which the recordings name.
// - Otherwise the answers come back from that file. Each call must match a recorded one (same
//   command, same arguments); the first that does not is named with its nearest recorded
//   neighbour and fails the test, as does a recorded call the test no longer makes.
//
// The Rust test `recorded_answers` replays every file on a fresh host and fails when an answer
// changed, so a recording cannot go stale unnoticed.
//
// Paths in a test start with `@tmp/` (the host's scratch folder) or `@repo/` (the repository);
// the file dialog is the user's, so its answers come from the test (`dialog`) and are recorded
// as the user's.

import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { createHash } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import type { FilePurpose } from "../../src/lib/workspace-types";

type Answer = { ok: unknown } | { error: unknown };
/** An answer as a recording file holds it: long ones are kept once in `answers/<name>.json.gz`. */
type Kept = Answer | { stored: string };
type Control =
  | { control: "advance"; ms: number }
  | { control: "launch"; path: string; read_only: boolean }
  | { control: "write"; path: string; text: string }
  | { control: "append"; path: string; text: string }
  | { control: "copy"; from: string; to: string }
  | { control: "catalog"; dir: string }
  | { control: "workspace"; from: string; to: string; title: string | null };
type Call = { command: string; args: Record<string, unknown> };
type Request = Call | Control;
type Entry = Request & { answer: Answer; by_user?: true };
type Recording = { test: string; entries: (Request & { answer: Kept; by_user?: true })[] };

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, "../../..");
export const RECORDED = resolve(HERE, "../recorded");
const ANSWERS = join(RECORDED, "answers");
/** Answers longer than this (compact JSON) are kept in the answer store (planner-app `STORED_ABOVE`). */
const STORED_ABOVE = 2048;
export const RECORDING = process.env.RECORD_ANSWERS === "1";

/**
 * Timer-driven polls of a running job's progress (the risk analysis, a pack download). How many
 * happen depends on how long the job takes where the test runs, so they are neither recorded nor
 * required: a recording sends them to the host and keeps no entry, a replay answers "nothing
 * running" (null). What the job answered is recorded as usual.
 */
const POLLS = new Set(["risk_progress", "download_progress"]);

const storedAnswers = new Map<string, Answer>();

/** The answer itself, read from the answer store when the recording names it. */
function resolveAnswer(kept: Kept, file: string): Answer {
  if (!("stored" in kept)) return kept;
  let answer = storedAnswers.get(kept.stored);
  if (!answer) {
    const path = join(ANSWERS, `${kept.stored}.json.gz`);
    if (!existsSync(path)) throw new Error(`${file} names the stored answer ${path}, which is missing: run \`cargo xtask fixtures\`.`);
    answer = JSON.parse(gunzipSync(readFileSync(path)).toString("utf8")) as Answer;
    storedAnswers.set(kept.stored, answer);
  }
  return answer;
}

/** `answer` as a recording keeps it: a long one in the answer store, named by its digest. */
function keep(answer: Answer): Kept {
  const text = JSON.stringify(answer);
  if (text.length <= STORED_ABOVE) return answer;
  const name = createHash("sha256").update(text).digest("hex").slice(0, 16);
  mkdirSync(ANSWERS, { recursive: true });
  const path = join(ANSWERS, `${name}.json.gz`);
  if (!existsSync(path)) writeFileSync(path, gzipSync(text, { level: 9 }));
  return { stored: name };
}

/** JSON with every object's keys sorted (as serde_json writes a value), for comparing and writing. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = canonical(v);
    }
    return out;
  }
  return value;
}

const same = (a: unknown, b: unknown) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/** What a request is, for messages. */
function describe(r: Request): string {
  return "command" in r ? `${r.command} ${JSON.stringify(canonical(r.args))}` : JSON.stringify(r);
}

export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 120)
    .replace(/-+$/, "");
}

// ---- The host server (record mode) ----

class HostServer {
  private child: ChildProcessWithoutNullStreams;
  private waiting: ((answer: Answer) => void)[] = [];

  constructor() {
    const bin = process.env.PLANNER_HOST_SERVER ?? join(REPO, "target/debug/planner-host-server");
    if (!existsSync(bin)) throw new Error(`${bin} does not exist: build it with \`cargo build -p planner-app --bin planner-host-server\`, or run \`cargo xtask fixtures\``);
    this.child = spawn(bin, [REPO], { stdio: ["pipe", "pipe", "pipe"] });
    this.child.stderr.on("data", (d: Buffer) => process.stderr.write(d));
    createInterface({ input: this.child.stdout }).on("line", (line) => this.waiting.shift()?.(JSON.parse(line) as Answer));
  }

  send(request: Request): Promise<Answer> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.child.stdin.write(JSON.stringify(request) + "\n");
    });
  }

  stop() {
    this.child.stdin.end();
    this.child.kill();
  }
}

let server: HostServer | null = null;

// ---- One test's session ----

export type Dialog = Partial<Record<FilePurpose, string | null>>;

export class RecordedSession {
  readonly test: string;
  readonly file: string;
  /** Every call the test made, in order, with its arguments (as the bindings sent them). */
  readonly calls: Call[] = [];
  private entries: Entry[] = [];
  private used: boolean[] = [];
  private problems: string[] = [];
  /** Calls sent to the host server and not yet answered (record mode). */
  private inFlight = new Set<Promise<Answer>>();

  constructor(
    test: string,
    file: string,
    private dialog: Dialog,
  ) {
    this.test = test;
    this.file = file;
    if (!RECORDING) {
      if (!existsSync(file)) throw new Error(`No recording for “${test}” (${file}): run \`cargo xtask fixtures\`.`);
      this.entries = (JSON.parse(readFileSync(file, "utf8")) as Recording).entries.map((e) => ({ ...e, answer: resolveAnswer(e.answer, file) }) as Entry);
      this.used = this.entries.map(() => false);
    }
  }

  /** The arguments of every call of `command` so far, in order. */
  sent(command: string): Record<string, unknown>[] {
    return this.calls.filter((c) => c.command === command).map((c) => c.args);
  }

  /** What `invoke` resolves to, or rejects with (a PlannerError, as the shell rejects). */
  async call(command: string, args: Record<string, unknown>): Promise<unknown> {
    const call: Call = { command, args: JSON.parse(JSON.stringify(args)) as Record<string, unknown> };
    this.calls.push(call);
    const answer = await this.answer(call);
    if ("error" in answer) throw answer.error;
    return answer.ok;
  }

  /** Moves the host's clock forward (edits more than 2 s apart are separate undo steps). */
  advance(ms: number): Promise<void> {
    return this.step({ control: "advance", ms });
  }

  /** Opens `path` as the app does for `--workspace` at launch (`readOnly`: `--read-only`). */
  launch(path: string, readOnly = false): Promise<void> {
    return this.step({ control: "launch", path, read_only: readOnly });
  }

  /** Puts a file where the user will pick it. */
  write(path: string, text: string): Promise<void> {
    return this.step({ control: "write", path, text });
  }

  /** Appends to a file behind the app's back (e.g. a change to a signed PDF). */
  append(path: string, text: string): Promise<void> {
    return this.step({ control: "append", path, text });
  }

  /** Copies a file or a folder. */
  copy(from: string, to: string): Promise<void> {
    return this.step({ control: "copy", from, to });
  }

  /** From now on the shipped catalog is the folder `dir`, as with `--catalog` (nothing stays open). */
  catalog(dir: string): Promise<void> {
    return this.step({ control: "catalog", dir });
  }

  /** Makes a workspace file from a scenario file, as the bundled sample is made (not opened). */
  workspace(from: string, to: string, title: string | null = null): Promise<void> {
    return this.step({ control: "workspace", from, to, title });
  }

  private async step(control: Control): Promise<void> {
    const answer = await this.answer(control);
    if ("error" in answer) throw new Error(`${describe(control)} failed: ${JSON.stringify(answer.error)}`);
  }

  private async answer(request: Request): Promise<Answer> {
    const byUser = "command" in request && request.command === "choose_file";
    const poll = "command" in request && POLLS.has(request.command);
    if (poll && !RECORDING) return { ok: null };
    if (RECORDING) {
      let answer: Answer;
      if (byUser) {
        answer = { ok: this.dialog[(request as Call).args.purpose as FilePurpose] ?? null };
      } else {
        server ??= new HostServer();
        const asked = server.send(request);
        this.inFlight.add(asked);
        answer = await asked;
        this.inFlight.delete(asked);
      }
      if (!poll) this.entries.push({ ...request, answer, ...(byUser ? { by_user: true as const } : {}) });
      return answer;
    }
    const i = this.entries.findIndex((e, k) => !this.used[k] && sameRequest(e, request));
    if (i < 0) {
      const next = this.entries.find((_, k) => !this.used[k]);
      // The nearest recorded call of the same command, and where its arguments differ.
      const sameCommand = "command" in request ? this.entries.find((e, k) => !this.used[k] && "command" in e && e.command === request.command) : undefined;
      const diff = sameCommand && "command" in sameCommand && "command" in request ? ` (against the recorded ${request.command} still unanswered: ${firstDifference(canonical(sameCommand.args), canonical(request.args), "")})` : "";
      const problem = `“${this.test}” made a call that was not recorded: ${describe(request).slice(0, 300)}${diff}; the next recorded is ${next ? describe(next).slice(0, 300) : "nothing"}. If the UI's calls changed on purpose, run \`cargo xtask fixtures\`.`;
      this.problems.push(problem);
      return { error: { code: "io", message: problem, details: [] } };
    }
    this.used[i] = true;
    return this.entries[i]!.answer;
  }

  /** Waits for the answers of calls still in flight, so that they are recorded too. */
  async drain() {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Ends the session: writes the recording, or checks that every recorded call was made. */
  finish() {
    if (RECORDING) {
      mkdirSync(dirname(this.file), { recursive: true });
      const recording: Recording = { test: this.test, entries: this.entries.map(written) };
      writeFileSync(this.file, JSON.stringify(recording, null, 2) + "\n");
      return;
    }
    const left = this.entries.filter((_, k) => !this.used[k]);
    if (left.length > 0) this.problems.push(`“${this.test}” did not make ${left.length} recorded call(s); the first: ${describe(left[0]!)}.`);
    if (this.problems.length > 0) throw new Error(this.problems.join("\n"));
  }
}

/** Where two JSON values first differ, as a path with both values. */
function firstDifference(recorded: unknown, now: unknown, path: string): string {
  if (recorded && now && typeof recorded === "object" && typeof now === "object") {
    const keys = new Set([...Object.keys(recorded), ...Object.keys(now)]);
    for (const k of keys) {
      const d = firstDifference((recorded as Record<string, unknown>)[k], (now as Record<string, unknown>)[k], `${path}/${k}`);
      if (d) return d;
    }
    return "";
  }
  return JSON.stringify(recorded) === JSON.stringify(now) ? "" : `${path || "/"}: recorded ${JSON.stringify(recorded)}, now ${JSON.stringify(now)}`;
}

function sameRequest(e: Entry, r: Request): boolean {
  if ("command" in r) return "command" in e && e.command === r.command && same(e.args, r.args);
  const { answer: _a, by_user: _b, ...control } = e as Control & { answer: Answer; by_user?: true };
  return !("command" in e) && same(control, r);
}

/** An entry as the Rust side writes it: the request's fields in order, values with sorted keys. */
function written(e: Entry): Recording["entries"][number] {
  const answer = keep(("error" in e.answer ? { error: canonical(e.answer.error) } : { ok: canonical(e.answer.ok) }) as Answer);
  if ("command" in e) {
    const out: Recording["entries"][number] = { command: e.command, args: canonical(e.args) as Record<string, unknown>, answer };
    if (e.by_user) out.by_user = true;
    return out;
  }
  const { answer: _a, ...control } = e;
  return { ...control, answer };
}

let current: RecordedSession | null = null;

/** Makes `session` the one `invoke` answers from. */
export function begin(session: RecordedSession) {
  current = session;
}

/** Stands in for `@tauri-apps/api/core`'s `invoke`. */
export async function invoke(command: string, args?: Record<string, unknown>): Promise<unknown> {
  if (!current) throw new Error(`${command} was invoked outside a recorded session: start one with recorded().`);
  return current.call(command, args ?? {});
}

/** Ends the test's session (setup.ts runs it after each test). */
export async function finishSession() {
  const session = current;
  current = null;
  if (!session) return;
  // Each recording is made by a host server of its own (see planner-host-server: a memo's bytes
  // depend on what the process made before), as the Rust test replays it; calls still in
  // flight are answered and recorded first.
  await session.drain();
  stopHostServer();
  session.finish();
}

/** Stops the host server (after each test, and setup.ts after each test file). */
export function stopHostServer() {
  server?.stop();
  server = null;
}
