// The decision table's figure cells, written straight into the DOM (issue #17). A what-if drag
// rewrites every figure on every move; as Svelte markup each of the ~150 cells carried its own
// reactions (text, tone, reference, title, the "was" line), which cost the page about 4 ms a
// move before any layout. Here one pass per row works the cells out and touches only what
// changed: a cell whose words alone changed has its text nodes' data set, code quotes included
// (a `<code>` piece keeps its element while the words keep their form), and a change of tone
// sets its class. While a what-if is shown every cell keeps its "was" line (hidden while the
// figure equals the saved one): before, a drag across the saved value removed and rebuilt the
// lines of most cells in the move that reached it and in the move that left it.

import { wordPieces, type Row, type RowContext, type Tone } from "../compare-view";
import type { ScenarioFigures } from "../workspace-types";

/** What a figure cell shows. */
export interface CellView {
  text: string;
  note: string | null;
  tone: Tone;
  title: string | null;
  /** While a what-if is shown, the saved figure's text (null otherwise): the cell's "was" line,
   *  kept but hidden while the figure equals it, so that a drag across the saved value neither
   *  moves the rows nor rebuilds the cells. */
  saved: string | null;
  reference: boolean;
}

interface Written {
  td: HTMLTableCellElement;
  /** What decides the cell's elements (the form of its words, a note, a "was" line): rebuilt
   *  when it changes. */
  shape: string;
  /** The cell's classes (tone, reference, wrapping): set in place. */
  className: string;
  /** The "was" line, while a what-if is shown. */
  wasLine: HTMLSpanElement | null;
  view: CellView | null;
  /** The text nodes of the figure, its note and its "was" line, one per piece of words (a
   *  code quote's node is inside its `<code>`), set in place while the pieces keep their form. */
  main: Text[];
  note: Text[];
  was: Text[];
}

const rowsWritten = new WeakMap<HTMLTableRowElement, Map<string, Written>>();

/** The pieces of the engine's words: plain text and code quotes (`hybrid`). */
function pieces(text: string): { text: string; code: boolean }[] {
  return text.includes("`") ? wordPieces(text) : [{ text, code: false }];
}

/** The form of `text`'s pieces (which are code, in order): text of the same form is written by
 *  setting the pieces' nodes. */
function form(text: string): string {
  return pieces(text)
    .map((p) => (p.code ? "c" : "p"))
    .join("");
}

/** Writes `text` into `parent`, its code quotes as `<code>`; returns the pieces' text nodes. */
function words(parent: Node, text: string): Text[] {
  return pieces(text).map((piece) => {
    const t = document.createTextNode(piece.text);
    if (piece.code) {
      const code = document.createElement("code");
      code.appendChild(t);
      parent.appendChild(code);
    } else parent.appendChild(t);
    return t;
  });
}

/** Sets the nodes written by `words` to `text`, which has the same form. */
function rewrite(nodes: readonly Text[], text: string): void {
  pieces(text).forEach((piece, i) => {
    const node = nodes[i];
    if (node && node.data !== piece.text) node.data = piece.text;
  });
}

function wasText(before: string): string {
  return `was ${before}`;
}

function shapeOf(v: CellView): string {
  return [form(v.text), v.note === null ? "-" : form(v.note), v.saved === null ? "-" : form(wasText(v.saved))].join("|");
}

function classOf(v: CellView, wrap: boolean): string {
  return ["num", wrap ? "wrap" : "", v.tone ?? "", v.reference ? "ref" : ""].filter(Boolean).join(" ");
}

/** The "was" line is shown when the figure differs from the saved one, else kept hidden. */
function wasClass(v: CellView): string {
  return v.saved !== null && v.saved === v.text ? "was same" : "was";
}

function build(w: Written, v: CellView, id: string, rowKey: string): void {
  const td = w.td;
  td.textContent = "";
  td.dataset.testid = `figure-${id}-${rowKey}`;
  w.main = words(td, v.text);
  w.note = [];
  if (v.note !== null) {
    const span = document.createElement("span");
    span.className = "cell-note";
    w.note = words(span, v.note);
    td.appendChild(span);
  }
  w.was = [];
  w.wasLine = null;
  if (v.saved !== null) {
    const span = document.createElement("span");
    span.className = wasClass(v);
    span.dataset.testid = `was-${id}-${rowKey}`;
    w.was = words(span, wasText(v.saved));
    td.appendChild(span);
    w.wasLine = span;
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
  saved: (s: ScenarioFigures) => string | null,
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
      saved: saved(s),
      reference: s.id === reference,
    };
    let w = written.get(s.id);
    if (!w) {
      w = { td: document.createElement("td"), shape: "", className: "", wasLine: null, view: null, main: [], note: [], was: [] };
      written.set(s.id, w);
    }
    if (previous ? previous.nextElementSibling !== w.td : tr.firstElementChild !== w.td) {
      if (previous) previous.after(w.td);
      else tr.prepend(w.td);
    }
    previous = w.td;
    const shape = shapeOf(v);
    if (shape !== w.shape) {
      build(w, v, s.id, row.key);
      w.shape = shape;
    } else if (w.view) {
      if (w.view.text !== v.text) rewrite(w.main, v.text);
      if (v.note !== null && w.view.note !== v.note) rewrite(w.note, v.note);
      if (v.saved !== null && w.view.saved !== v.saved) rewrite(w.was, wasText(v.saved));
    }
    const className = classOf(v, row.wrap === true);
    if (className !== w.className) {
      w.td.className = className;
      w.className = className;
    }
    if (w.wasLine && w.wasLine.className !== wasClass(v)) w.wasLine.className = wasClass(v);
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
