// Loads uPlot (the compare charts' canvas library) from its own distribution file, emitted as an
// asset (`?url`) and imported once, on first use: the window's first paint does not wait for it.
//
// uPlot formats numbers with `new Intl.NumberFormat(navigator.language)` when it loads, which
// throws where the system's language is not a language tag (LANG=C gives "C", as in CI and many
// containers): the whole module then fails. Such a language is replaced, for this window, by the
// tag the app itself formats with (`safeLocale`).

import type uPlot from "uplot";
import { safeLocale } from "../format";
import url from "uplot/dist/uPlot.esm.js?url";

type UPlot = typeof uPlot;

let loading: Promise<UPlot> | null = null;

/** uPlot, once loaded; a global `uPlot` already there (the tests') is used as is. */
export function loadUPlot(): Promise<UPlot> {
  const existing = (globalThis as { uPlot?: UPlot }).uPlot;
  if (existing) return Promise.resolve(existing);
  loading ??= (async () => {
    settleLanguage();
    const m = (await import(/* @vite-ignore */ url)) as { default: UPlot };
    return m.default;
  })();
  return loading;
}

/** Makes `navigator.language` a tag `Intl` accepts, when the system's is not one. */
export function settleLanguage(): void {
  const language = navigator.language;
  try {
    new Intl.NumberFormat(language);
  } catch {
    Object.defineProperty(navigator, "language", { value: safeLocale(language), configurable: true });
  }
}
