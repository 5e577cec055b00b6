// DEV ONLY: mounts the catalog browser over the TEST FIXTURE catalog, with a banner saying so.
// `?error` shows the catalog-invalid screen instead; `?theme=dark|light` forces a theme.

import { mount } from "svelte";
import "../src/app.css";
import { CatalogManager } from "../src/lib/catalog/catalog-manager.svelte";
import Browser from "../src/lib/components/Browser.svelte";
import { FakeBackend } from "../src/lib/ipc/fake-backend";
import { applyTheme } from "../src/lib/theme";
import { FIXTURE_CATALOG, FIXTURE_CATALOG_INVALID } from "../tests/fixtures/catalog";

const params = new URLSearchParams(location.search);
const theme = params.get("theme");
if (theme === "dark" || theme === "light") applyTheme(theme);

const banner = document.createElement("div");
banner.textContent = "TEST FIXTURE PREVIEW: not the app's catalog; no figure here may be used for planning.";
banner.setAttribute("role", "note");
banner.style.cssText =
  "position:fixed;left:50%;bottom:22px;transform:translateX(-50%);z-index:100;padding:2px 10px;" +
  "font:600 11px system-ui,sans-serif;background:#b00020;color:#fff;border-radius:3px;pointer-events:none";
document.body.append(banner);

const backend = params.has("error")
  ? new FakeBackend({ error: FIXTURE_CATALOG_INVALID })
  : new FakeBackend({ catalog: FIXTURE_CATALOG });

const target = document.getElementById("app");
if (target) mount(Browser, { target, props: { manager: new CatalogManager(backend) } });
