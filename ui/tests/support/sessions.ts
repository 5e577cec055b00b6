// Sessions the UI tests start from, over recorded answers (see recorded.ts): the real use cases
// on a test host, recorded once, replayed in every run.

import { recorded, type Dialog } from "./recorded";

/** The bundled sample (catalogs/samples/enterprise-hybrid.json) as a workspace file. */
export const ENTERPRISE = "@tmp/enterprise.cpw";

/**
 * A session with the enterprise-hybrid sample open, as `cargo xtask run` opens it: the workspace
 * is made from the sample's scenario file and named at launch.
 */
export async function enterpriseSession(options: { dialog?: Dialog; readOnly?: boolean } = {}) {
  const session = recorded({ dialog: options.dialog });
  await session.host.workspace("@repo/catalogs/samples/enterprise-hybrid.json", ENTERPRISE);
  await session.host.launch(ENTERPRISE, options.readOnly ?? false);
  return session;
}
