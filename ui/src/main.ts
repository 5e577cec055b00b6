// Entry point. Inside the desktop shell (Tauri injects window.__TAURI_INTERNALS__) the app
// talks to the Rust back end; anywhere else it says so and shows no data.

import { mount } from "svelte";
import "./app.css";
import App from "./lib/components/App.svelte";
import ShellRequired from "./lib/components/ShellRequired.svelte";
import { TauriBackend } from "./lib/ipc/tauri-backend";
import { applyTheme, loadTheme } from "./lib/theme";

declare global {
  interface Window {
    __TAURI_INTERNALS__?: unknown;
  }
}

// The bundled face is fetched now, while the session is asked for, so the first layout has it.
void document.fonts.load('13px "Planner Sans"');
void document.fonts.load('bold 13px "Planner Sans"');
applyTheme(loadTheme());

const target = document.getElementById("app");
if (!target) throw new Error("index.html has no #app element");

const app =
  window.__TAURI_INTERNALS__ !== undefined
    ? mount(App, { target, props: { backend: new TauriBackend() } })
    : mount(ShellRequired, { target });

export default app;
