// The decision table's figure cells, written straight into the DOM (issue #17). A what-if drag
// rewrites every figure on every move; as Svelte markup each of the ~150 cells carried its own
// reactions (text, tone, reference, title, the "was" line), which cost the page about 4 ms a
// move before any layout. Here one pass per row works the cells out and touches only what
// changed: a cell whose text alone changed has one text node's data set.

import { wordPieces, type Row, type RowContext } from "../compare-view";
import type { ScenarioFigures } from "../workspace-types";

/** What a figure cell shows. */
export interface CellView {
  text: string;
  note: string | null;
  tone: "good" | "bad" | null;
  title: string | null;
  /** The saved figure's text while a what-if is shown, when it differs. */
  before: string | null;
  reference: boolean;
}

interface Written {
  td: HTMLTableCellElement;
  /** What decides the cell's elements: rebuilt when it changes. */
  shape: string;
  view: CellView | null;
  /** The text node of a plain figure (no code pieces), set in place. */
  main: Text | null;
  note: Text | null;
  was: Text | null;
}

const rowsWritten = new WeakMap<HTMLTableRowElement, Map<string, Written>>();

function words(parent: Node, text: string): Text | null {
  if (!text.includes("`")) {
    const t = document.createTextNode(text);
    parent.appendChild(t);
    return t;
  }
  for (const piece of wordPieces(text)) {
    if (piece.code) {
      const code = document.createElement("code");
      code.textContent = piece.text;
      parent.appendChild(code);
    } else parent.appendChild(document.createTextNode(piece.text));
  }
  return null;
}

function shapeOf(v: CellView, wrap: boolean): string {
  return [v.text.includes("`") ? `c${v.text}` : "p", v.note === null ? "-" : v.note.includes("`") ? `c${v.note}` : "n", v.before === null ? "-" : "w", v.tone ?? "", v.reference ? "r" : "", wrap ? "x" : ""].join("\u0000");
}

function build(w: Written, v: CellView, row: Row, id: string): void {
  const td = w.td;
  td.textContent = "";
  td.className = ["num", row.wrap ? "wrap" : "", v.tone ?? "", v.reference ? "ref" : ""].filter(Boolean).join(" ");
  td.dataset.testid = `figure-${id}-${row.key}`;
  w.main = words(td, v.text);
  w.note = null;
  if (v.note !== null) {
    const span = document.createElement("span");
    span.className = "cell-note";
    w.note = words(span, v.note);
    td.appendChild(span);
  }
  w.was = null;
  if (v.before !== null) {
    const span = document.createElement("span");
    span.className = "was";
    span.dataset.testid = `was-${id}-${row.key}`;
    w.was = document.createTextNode(`was ${v.before}`);
    span.appendChild(w.was);
    td.appendChild(span);
  }
}

/** Writes row `row`'s figure cells of `scenarios` (in that order) after the row's heading,
 *  changing only what differs from what was written before; cells of scenarios no longer
 *  shown are removed. */
export function writeCells(
  tr: HTMLTableRowElement,
  row: Row,
  scenarios: readonly ScenarioFigures[],
  ctx: RowContext,
  reference: string | null,
  was: (s: ScenarioFigures, text: string) => string | null,
): void {
  let written = rowsWritten.get(tr);
  if (!written) {
    written = new Map();
    rowsWritten.set(tr, written);
  }
  const shown = new Set<string>();
  let previous: Element | null = tr.firstElementChild;
  for (const s of scenarios) {
    shown.add(s.id);
    const cell = row.cell(s, ctx);
    const v: CellView = {
      text: cell.text,
      note: cell.note ?? null,
      tone: cell.tone,
      title: cell.title ?? null,
      before: was(s, cell.text),
      reference: s.id === reference,
    };
    let w = written.get(s.id);
    if (!w) {
      w = { td: document.createElement("td"), shape: "", view: null, main: null, note: null, was: null };
      written.set(s.id, w);
    }
    if (previous ? previous.nextElementSibling !== w.td : tr.firstElementChild !== w.td) {
      if (previous) previous.after(w.td);
      else tr.prepend(w.td);
    }
    previous = w.td;
    const shape = shapeOf(v, row.wrap === true);
    if (shape !== w.shape) {
      build(w, v, row, s.id);
      w.shape = shape;
    } else if (w.view) {
      if (w.main && w.view.text !== v.text) w.main.data = v.text;
      if (w.note && v.note !== null && w.view.note !== v.note) w.note.data = v.note;
      if (w.was && v.before !== null && w.view.before !== v.before) w.was.data = `was ${v.before}`;
    }
    if (w.view?.title !== v.title) {
      if (v.title === null) w.td.removeAttribute("title");
      else w.td.title = v.title;
    }
    w.view = v;
  }
  for (const [id, w] of written) {
    if (!shown.has(id)) {
      w.td.remove();
      written.delete(id);
    }
  }
}
