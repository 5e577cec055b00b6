// errorText: the one way a failure becomes a message, with the choices the screens make.

import { describe, expect, it } from "vitest";
import { BackendError, IpcError } from "../src/lib/backend";
import type { ErrorDetail } from "../src/lib/catalog-types";
import { errorText } from "../src/lib/errors";

const detail = (message: string, field: string | null = null): ErrorDetail => ({ file: null, line: null, column: null, field, kind: null, message });

const refusal = new BackendError({
  code: "invalid-input",
  message: "The memo cannot be made: memo.author is empty",
  details: [detail("memo.author is empty"), detail("choose at least two scenarios", "memo.scenarios"), detail("the decision is empty", "memo.decision")],
});

describe("errorText", () => {
  it("gives a refusal's message alone by default (the memo screen, the vendors' quote refusal)", () => {
    expect(errorText(refusal)).toBe("The memo cannot be made: memo.author is empty");
    expect(errorText(refusal, { details: "none" })).toBe(errorText(refusal));
  });

  it("describes anything else by default: an Error's message, a string, other values as JSON", () => {
    expect(errorText(new IpcError("The back end did not answer", null))).toBe("The back end did not answer");
    expect(errorText(new Error("boom"))).toBe("boom");
    expect(errorText("plain words")).toBe("plain words");
    expect(errorText({ code: 7 })).toBe('{"code":7}');
  });

  it("adds the details' messages the message does not already end with (the compliance screen)", () => {
    expect(errorText(refusal, { details: "messages" })).toBe(
      "The memo cannot be made: memo.author is empty · choose at least two scenarios · the decision is empty",
    );
    const alone = new BackendError({ code: "not-found", message: "No such item", details: [] });
    expect(errorText(alone, { details: "messages" })).toBe("No such item");
    expect(errorText(new Error("boom"), { details: "messages" })).toBe("boom");
  });

  it("adds the details with their fields, leaving out one that repeats the message (the notice bar)", () => {
    expect(errorText(refusal, { details: "located" })).toBe(
      "The memo cannot be made: memo.author is empty · memo.author is empty · memo.scenarios: choose at least two scenarios · memo.decision: the decision is empty",
    );
    const repeated = new BackendError({ code: "io", message: "Disk full", details: [detail("Disk full"), detail("Disk full", "path")] });
    expect(errorText(repeated, { details: "located" })).toBe("Disk full · path: Disk full");
  });

  it("says the fallback sentence for what is not a refusal, and only then (the identities dialogs)", () => {
    const fallback = "The identity could not be made.";
    expect(errorText(new IpcError("channel closed", null), { fallback })).toBe(fallback);
    expect(errorText(null, { fallback })).toBe(fallback);
    expect(errorText(refusal, { fallback })).toBe("The memo cannot be made: memo.author is empty");
  });
});
