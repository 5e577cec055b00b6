// The keyboard map of the workspace window, in one place: the frame's key handler asks
// `matchShortcut`, the help dialog lists `SHORTCUTS`.
//
// Undo and redo inside text: while the focus is in a text field (or text area), Ctrl+Z,
// Ctrl+Shift+Z and Ctrl+Y are left to the field, which undoes typing in itself (every change it
// makes is saved like typing). Everywhere else (lists, buttons, selects, checkboxes) they undo and
// redo workspace edits. The Undo and Redo buttons in the header always undo workspace edits.

export type Shortcut =
  | { kind: "undo" }
  | { kind: "redo" }
  | { kind: "new-scenario" }
  | { kind: "tab"; index: number }
  | { kind: "open" }
  | { kind: "save-as" }
  | { kind: "filter" }
  | { kind: "help" }
  | { kind: "present" }
  | { kind: "escape" };

/** True for elements that edit text and have their own undo (inputs of text kinds, text areas). */
export function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.tagName === "TEXTAREA") return true;
  if (target.tagName !== "INPUT") return false;
  const type = (target as HTMLInputElement).type;
  return ["text", "search", "number", "email", "url", "tel", "password", ""].includes(type);
}

/** True for any form control, where single-key shortcuts ("/", "?") must type instead. */
export function isFormControl(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return isTextEntry(target) || ["SELECT", "INPUT", "TEXTAREA"].includes(target.tagName);
}

/** The shortcut a key press means, or null. */
export function matchShortcut(e: KeyboardEvent): Shortcut | null {
  const mod = e.ctrlKey || e.metaKey;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const inText = isTextEntry(e.target);
  if (mod && !e.altKey) {
    if (key === "z" && !e.shiftKey) return inText ? null : { kind: "undo" };
    if ((key === "z" && e.shiftKey) || (key === "y" && !e.shiftKey)) return inText ? null : { kind: "redo" };
    if (key === "n" && !e.shiftKey) return { kind: "new-scenario" };
    if (key === "o" && !e.shiftKey) return { kind: "open" };
    if (key === "s" && e.shiftKey) return { kind: "save-as" };
    if (!e.shiftKey && /^[1-9]$/.test(key)) return { kind: "tab", index: Number(key) - 1 };
    return null;
  }
  if (e.altKey || mod) return null;
  if (key === "Escape") return { kind: "escape" };
  if (key === "F5") return { kind: "present" };
  if (isFormControl(e.target)) return null;
  if (key === "/") return { kind: "filter" };
  if (key === "?") return { kind: "help" };
  return null;
}

/** What the help dialog lists, in order. */
export const SHORTCUTS: readonly { keys: string[][]; action: string }[] = [
  { keys: [["Ctrl", "Z"]], action: "Undo the last workspace edit (in a text field: undo typing in the field)" },
  { keys: [["Ctrl", "Shift", "Z"], ["Ctrl", "Y"]], action: "Redo (in a text field: redo typing in the field)" },
  { keys: [["Ctrl", "N"]], action: "New scenario (choose Buy, Rent or Hybrid)" },
  { keys: [["Ctrl", "1"]], action: "Workloads" },
  { keys: [["Ctrl", "2"]], action: "Scenarios" },
  { keys: [["Ctrl", "3"]], action: "Compare" },
  { keys: [["Ctrl", "4"]], action: "Catalog (the catalog the app ships)" },
  { keys: [["Ctrl", "5"]], action: "Memo (the decision memo: write, export, sign, verify)" },
  { keys: [["Ctrl", "6"]], action: "Compliance (the D-1 checklists: answer, attach evidence, sign off, verify the log)" },
  { keys: [["Ctrl", "7"]], action: "Vendors (RFP quote import and the vendor scorecard)" },
  { keys: [["Alt", "1–5"]], action: "Catalog sections: accelerators, offers, facility, fabrics, regions (on the Catalog tab)" },
  { keys: [["Ctrl", "O"]], action: "Open a workspace" },
  { keys: [["Ctrl", "Shift", "S"]], action: "Save the workspace as a new file" },
  { keys: [["/"]], action: "Filter the list on screen" },
  { keys: [["↑"], ["↓"]], action: "Move in a list (Home, End, Page Up, Page Down too)" },
  { keys: [["Enter"], ["Space"]], action: "Choose the row; in the compare picker, add or remove it" },
  { keys: [["Esc"]], action: "Close a menu, panel or dialog; clear a filter; leave presenting" },
  { keys: [["F5"]], action: "Present the comparison full screen (← → step the views, ↑ ↓ the scenario on its detail)" },
  { keys: [["?"]], action: "This list" },
];
