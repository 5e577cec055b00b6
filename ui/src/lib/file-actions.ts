// The workspace file flows shared by the start screen and the workspace menu: each asks for a
// path with the system dialog, then calls the command. A cancelled dialog resolves to null;
// a refusal throws (BackendError / IpcError) for the caller to show.

import type { Backend } from "./backend";
import type { WorkspaceInfo } from "./workspace-types";

export async function openWorkspaceFlow(backend: Backend): Promise<WorkspaceInfo | null> {
  const path = await backend.chooseFile("open-workspace");
  return path === null ? null : backend.openWorkspace(path);
}

export async function createWorkspaceFlow(backend: Backend, title: string): Promise<WorkspaceInfo | null> {
  const path = await backend.chooseFile("new-workspace");
  return path === null ? null : backend.createWorkspace(path, title.trim());
}

export async function saveAsFlow(backend: Backend): Promise<WorkspaceInfo | null> {
  const path = await backend.chooseFile("save-workspace-as");
  return path === null ? null : backend.saveWorkspaceAs(path);
}
