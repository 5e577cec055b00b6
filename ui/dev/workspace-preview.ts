// DEV ONLY: mounts the app over the TEST FIXTURE workspace with a banner saying so. The fake
// back end computes nothing: the comparison and details are the fixture's canned engine output,
// and the charts are labelled placeholders. `?theme=dark|light` forces a theme; `?start` shows
// the start screen (`&error`: with a launch error); `?tab=workloads|compare|catalog` opens that
// tab; `?slow` makes the comparison take 600 ms.

import { mount } from "svelte";
import "../src/app.css";
import App from "../src/lib/components/App.svelte";
import { FakeBackend } from "../src/lib/ipc/fake-backend";
import { themeState } from "../src/lib/theme-state.svelte";
import { WORKSPACE_CATALOG } from "../tests/fixtures/enterprise-hybrid";
import { workspaceBackend } from "../tests/support/workspace";

const params = new URLSearchParams(location.search);
const theme = params.get("theme");
if (theme === "dark" || theme === "light") themeState.set(theme);

const banner = document.createElement("div");
banner.textContent = "TEST FIXTURE PREVIEW: canned engine output in a fake back end; no figure here may be used for planning.";
banner.setAttribute("role", "note");
banner.style.cssText =
  "position:fixed;left:50%;bottom:4px;transform:translateX(-50%);z-index:100;padding:2px 10px;" +
  "font:600 11px system-ui,sans-serif;background:#b00020;color:#fff;border-radius:3px;pointer-events:none";
document.body.append(banner);

const backend = params.has("start")
  ? new FakeBackend(
      { catalog: WORKSPACE_CATALOG },
      {
        recent: [
          { path: "/home/ana/plans/lab.cpw", title: "Lab cluster (fixture)", opened: "2026-11-20 09:12", exists: true },
          { path: "/mnt/usb/old.cpw", title: "Old plan (fixture)", opened: "2026-10-02 16:40", exists: false },
        ],
        launchError: params.has("error") ? { code: "workspace-busy", message: "/home/ana/plans/x.cpw is open in another window.", details: [] } : null,
      },
    )
  : workspaceBackend({ delays: params.has("slow") ? { compare: 600 } : {} });

const target = document.getElementById("app");
const tab = params.get("tab");
const initialTab = tab === "workloads" || tab === "compare" || tab === "catalog" || tab === "memo" ? tab : undefined;
if (target) mount(App, { target, props: { backend, ...(initialTab ? { initialTab } : {}) } });
