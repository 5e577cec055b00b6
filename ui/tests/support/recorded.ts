// The entry point of recorded answers for a test: `recorded()` (see transport.ts for how calls
// are recorded and replayed).

import { expect } from "vitest";
import { basename, join } from "node:path";
import { TauriBackend } from "../../src/lib/ipc/tauri-backend";
import { RECORDED, RecordedSession, begin, slug, type Dialog } from "./transport";

export { RecordedSession, type Dialog } from "./transport";

/**
 * Starts this test's session (recording or replaying, see above) and returns the production
 * backend over it with the session (`host`) for steps on the host and the calls made.
 */
export function recorded(options: { dialog?: Dialog } = {}): { backend: TauriBackend; host: RecordedSession } {
  const state = expect.getState();
  const test = state.currentTestName ?? "unnamed test";
  const fileName = basename(state.testPath ?? "unknown.test.ts").replace(/\.test\.ts$/, "");
  const session = new RecordedSession(`${fileName} > ${test}`, join(RECORDED, fileName, `${slug(test)}.json`), options.dialog ?? {});
  begin(session);
  return { backend: new TauriBackend(), host: session };
}

