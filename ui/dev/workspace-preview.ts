// DEV ONLY: mounts the app over the TEST FIXTURE workspace with a banner saying so. The fake
// back end computes nothing: the comparison and details are the fixture's canned engine output,
// and the charts are labelled placeholders. `?theme=dark|light` forces a theme; `?start` shows
// the start screen (`&error`: with a launch error); `?tab=workloads|compare|catalog|memo` opens that
// tab; `?slow` makes the comparison take 600 ms. The memo tab has two fixture identities
// (passphrases "author-pass-2026" and "reviewer-pass-2026"); its file dialogs answer fixture
// paths, and "Verify a PDF…" shows a real `planner verify` report of a two-signature memo
// (`?tampered`: of a tampered copy); `?report` (with `&tampered`) shows that report alone.

import { mount } from "svelte";
import "../src/app.css";
import App from "../src/lib/components/App.svelte";
import PdfCheckReport from "../src/lib/components/PdfCheckReport.svelte";
import { FakeBackend } from "../src/lib/ipc/fake-backend";
import { themeState } from "../src/lib/theme-state.svelte";
import { WORKSPACE_CATALOG } from "../tests/fixtures/enterprise-hybrid";
import { PDF_CHECK_INTACT, PDF_CHECK_TAMPERED } from "../tests/fixtures/memo";
import { ehWorkspace, workspaceBackend } from "../tests/support/workspace";
import type { FakeOptions } from "../src/lib/ipc/fake-backend";

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

const identity = (id: string, name: string, origin: string, sha256: string, passphrase: string) => ({
  summary: {
    id,
    common_name: name,
    organisation: "Example Compute Ltd (fixture)",
    email: null,
    issuer: `O=Example Compute Ltd (fixture),CN=${name}`,
    not_before: "2026-11-22T11:32:44Z",
    not_after: "2029-11-21T11:32:44Z",
    sha256,
    self_signed: true,
    origin,
  },
  passphrase,
});
const pdf = "/home/ana/memos/enterprise-decision.pdf";
const memo: FakeOptions = {
  identities: [
    identity("ada-lovelace", "Ada Lovelace", "made here", "fd7d10ae5d4fdf1cdedb7d0e89c022934bd920df7086107e51bb1cf05741c88b", "author-pass-2026"),
    identity("grace-hopper", "Grace Hopper", "imported", "a4240b550fe486db87e940e4c757e4facd83fd6c638fe6732c4883865239614b", "reviewer-pass-2026"),
  ],
  dialog: { "save-memo": pdf, "open-pdf": pdf, "export-certificate": "/home/ana/memos/ada.pem", "import-identity": "/home/ana/keys/org.p12" },
  pdfChecks: { [pdf]: params.has("tampered") ? PDF_CHECK_TAMPERED : PDF_CHECK_INTACT },
};

const backend = params.has("start")
  ? new FakeBackend(
      { catalog: WORKSPACE_CATALOG },
      {
        recent: [
          { path: "/home/ana/plans/lab.cpw", title: "Lab cluster (fixture)", opened: "2026-11-20 09:12", exists: true },
          { path: "/mnt/usb/old.cpw", title: "Old plan (fixture)", opened: "2026-10-02 16:40", exists: false },
        ],
        launchError: params.has("error") ? { code: "workspace-busy", message: "/home/ana/plans/x.cpw is open in another window.", details: [] } : null,
        ...memo,
      },
    )
  : workspaceBackend({
      delays: params.has("slow") ? { compare: 600 } : {},
      workspace: ehWorkspace({
        memoRecords: [
          {
            event: "generated",
            at: "2026-11-20 09:15:02",
            file: "/home/ana/memos/draft-1.pdf",
            sha256: "1f2e3d4c5b6a79881f2e3d4c5b6a79881f2e3d4c5b6a79881f2e3d4c5b6a7988",
            pages: 9,
            scenarios: ["hybrid", "all-cloud"],
            signer: null,
            certificate_sha256: null,
            reason: null,
            signatures: 0,
          },
        ],
        memo: {
          author: "Ada Lovelace (fixture)",
          client: "Example Compute Ltd",
          decision: "Buy two DGX H100 for the base load; burst to AWS spot and on-demand for training.",
          rationale: "TEST FIXTURE TEXT. The base load runs every day of the horizon.\n\nTraining comes in quarterly bursts.",
          scenarios: ["hybrid", "all-cloud"],
          recommended: "hybrid",
        },
      }),
      ...memo,
    });

const target = document.getElementById("app");
const tab = params.get("tab");
const initialTab = tab === "workloads" || tab === "compare" || tab === "catalog" || tab === "memo" ? tab : undefined;
if (target && params.has("report")) {
  target.style.cssText = "padding:16px;max-width:900px;overflow:auto";
  mount(PdfCheckReport, { target, props: { check: params.has("tampered") ? PDF_CHECK_TAMPERED : PDF_CHECK_INTACT, locale: "en-US" } });
} else if (target) mount(App, { target, props: { backend, ...(initialTab ? { initialTab } : {}) } });
