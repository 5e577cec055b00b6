// One way to put a failure into words for a message on screen. The screens differ only in how
// much of a refusal they show (its message alone, or with its details) and in what they say when
// the failure is not a refusal from the back end; `ErrorTextOptions` names those choices.

import { BackendError, describeUnknown } from "./backend";

export type ErrorTextOptions = {
  /**
   * What follows a BackendError's message, joined with " · ":
   * - "none" (the default): nothing, the message alone;
   * - "messages": each detail's message, except those the message already ends with;
   * - "located": each detail as "field: message" (the message alone when it names no field),
   *   except one that reads exactly as the message.
   */
  details?: "none" | "messages" | "located";
  /** The text for anything that is not a BackendError (default: the thrown value described). */
  fallback?: string;
};

/** The text of a failure: a BackendError's message (and details, if asked), else the fallback. */
export function errorText(error: unknown, options: ErrorTextOptions = {}): string {
  if (!(error instanceof BackendError)) return options.fallback ?? describeUnknown(error);
  const message = error.message;
  const details = error.error.details;
  switch (options.details ?? "none") {
    case "none":
      return message;
    case "messages":
      return [message, ...details.map((d) => d.message).filter((m) => !message.endsWith(m))].join(" · ");
    case "located":
      return [message, ...details.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message)).filter((d) => d !== message)].join(" · ");
  }
}
