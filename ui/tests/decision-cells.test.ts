// The decision table's figure cells written in place (issue #17): a what-if move changes a
// figure's text node, not its cell; cells follow the column order; a scenario taken out loses
// its cell; code quotes, notes, tones, the reference column and the "was" line are written as
// the markup wrote them; the "was" line stays (hidden) while a drag crosses the saved value.

import { describe, expect, it } from "vitest";
import { writeCells } from "../src/lib/compare/decision-cells";
import type { Row, RowContext } from "../src/lib/compare-view";
import type { ScenarioFigures } from "../src/lib/workspace-types";

type Fig = { id: string; total: string; note?: string };
const fig = (id: string, total: string, note?: string) => ({ id, total, note }) as unknown as ScenarioFigures;
const row: Row = {
  key: "total_cash",
  label: "Total cash",
  cell: (f) => {
    const x = f as unknown as Fig;
    return { text: x.total, tone: x.total.startsWith("-") ? "good" : null, note: x.note };
  },
};
const ctx = {} as RowContext;

function table(): HTMLTableRowElement {
  const tr = document.createElement("tr");
  tr.appendChild(document.createElement("th"));
  return tr;
}

const texts = (tr: HTMLTableRowElement) => [...tr.querySelectorAll("td")].map((td) => `${td.dataset.testid}=${td.textContent}`);

describe("decision cells", () => {
  it("writes one cell per scenario after the row's heading, in column order", () => {
    const tr = table();
    writeCells(tr, row, [fig("a", "$1.00"), fig("b", "-$2.00")], ctx, "a", () => null);
    expect(tr.firstElementChild?.tagName).toBe("TH");
    expect(texts(tr)).toEqual(["figure-a-total_cash=$1.00", "figure-b-total_cash=-$2.00"]);
    const [a, b] = [...tr.querySelectorAll("td")];
    expect(a?.className).toBe("num ref");
    expect(b?.className).toBe("num good");
  });

  it("changes only the text node's data when only a figure moves", () => {
    const tr = table();
    writeCells(tr, row, [fig("a", "$1.00"), fig("b", "$2.00")], ctx, null, () => null);
    const td = tr.querySelector("td");
    const node = td?.firstChild;
    writeCells(tr, row, [fig("a", "$1.50"), fig("b", "$2.00")], ctx, null, () => null);
    expect(tr.querySelector("td")).toBe(td);
    expect(td?.firstChild).toBe(node);
    expect(node?.textContent).toBe("$1.50");
    expect(texts(tr)).toEqual(["figure-a-total_cash=$1.50", "figure-b-total_cash=$2.00"]);
  });

  it("keeps a 'was' line while a what-if is shown, hidden while the figure equals the saved one", () => {
    const tr = table();
    const saved = (s: ScenarioFigures) => (s.id === "a" ? "$1.00" : null);
    writeCells(tr, row, [fig("a", "$1.00")], ctx, null, () => null);
    expect(tr.querySelector(".was")).toBeNull();
    // A what-if is shown, its figure still the saved one: the line is there, hidden.
    writeCells(tr, row, [fig("a", "$1.00")], ctx, null, saved);
    const td = tr.querySelector("td");
    const node = td?.firstChild;
    const line = tr.querySelector("[data-testid='was-a-total_cash']");
    expect(line?.className).toBe("was same");
    expect(line?.textContent).toBe("was $1.00");
    writeCells(tr, row, [fig("a", "$1.20")], ctx, null, saved);
    expect(line?.className).toBe("was");
    writeCells(tr, row, [fig("a", "$1.40")], ctx, null, saved);
    expect(texts(tr)).toEqual(["figure-a-total_cash=$1.40was $1.00"]);
    // Back across the saved value: the same cell, text node and line, the line hidden again.
    writeCells(tr, row, [fig("a", "$1.00")], ctx, null, saved);
    expect(tr.querySelector("td")).toBe(td);
    expect(td?.firstChild).toBe(node);
    expect(tr.querySelector("[data-testid='was-a-total_cash']")).toBe(line);
    expect(line?.className).toBe("was same");
    // The what-if is over: no line.
    writeCells(tr, row, [fig("a", "$1.00")], ctx, null, () => null);
    expect(tr.querySelector(".was")).toBeNull();
  });

  it("sets a new tone on the cell in place", () => {
    const tr = table();
    writeCells(tr, row, [fig("a", "$2.00")], ctx, null, () => null);
    const td = tr.querySelector("td");
    const node = td?.firstChild;
    expect(td?.className).toBe("num");
    writeCells(tr, row, [fig("a", "-$2.00")], ctx, "a", () => null);
    expect(tr.querySelector("td")).toBe(td);
    expect(td?.firstChild).toBe(node);
    expect(td?.className).toBe("num good ref");
    expect(texts(tr)).toEqual(["figure-a-total_cash=-$2.00"]);
  });

  it("shows the engine's ids as code and a note under the figure", () => {
    const tr = table();
    writeCells(tr, row, [fig("a", "`hybrid` is cheaper", "by `x`")], ctx, null, () => null);
    const td = tr.querySelector("td");
    expect([...(td?.querySelectorAll("code") ?? [])].map((c) => c.textContent)).toEqual(["hybrid", "x"]);
    expect(td?.querySelector(".cell-note")?.textContent).toBe("by x");
    expect(td?.textContent).toBe("hybrid is cheaperby x");
  });

  it("sets code-quoted words in place and writes the 'was' line's code quotes as code", () => {
    const tr = table();
    const saved = new Map([["a", "`hybrid` is cheaper by $1.00"]]);
    const was = (s: ScenarioFigures) => saved.get(s.id) ?? null;
    writeCells(tr, row, [fig("a", "`hybrid` is cheaper by $1.20")], ctx, null, was);
    const td = tr.querySelector("td");
    const code = td?.querySelector("code");
    const wasCode = td?.querySelector(".was code");
    writeCells(tr, row, [fig("a", "`hybrid` is cheaper by $1.50")], ctx, null, was);
    // Same form (a code quote, then plain words): the same cell and <code>, the words set.
    expect(tr.querySelector("td")).toBe(td);
    expect(td?.querySelector("code")).toBe(code);
    expect(td?.querySelector(".was code")).toBe(wasCode);
    expect(td?.firstChild?.textContent).toBe("hybrid");
    const line = tr.querySelector("[data-testid='was-a-total_cash']");
    expect(line?.textContent).toBe("was hybrid is cheaper by $1.00");
    expect([...(line?.querySelectorAll("code") ?? [])].map((c) => c.textContent)).toEqual(["hybrid"]);
    expect(td?.textContent).toBe("hybrid is cheaper by $1.50was hybrid is cheaper by $1.00");
    // Another form (no code quote): rebuilt, no <code> left in the figure.
    writeCells(tr, row, [fig("a", "$3.00")], ctx, null, was);
    expect(tr.querySelector("td")?.firstChild?.textContent).toBe("$3.00");
    expect(texts(tr)).toEqual(["figure-a-total_cash=$3.00was hybrid is cheaper by $1.00"]);
  });

  it("follows a new column order and drops the cells of scenarios taken out", () => {
    const tr = table();
    writeCells(tr, row, [fig("a", "1"), fig("b", "2"), fig("c", "3")], ctx, null, () => null);
    const c = tr.querySelectorAll("td")[2];
    writeCells(tr, row, [fig("c", "3"), fig("a", "1")], ctx, null, () => null);
    expect(texts(tr)).toEqual(["figure-c-total_cash=3", "figure-a-total_cash=1"]);
    expect(tr.querySelector("td")).toBe(c);
    expect(tr.querySelectorAll("td")).toHaveLength(2);
  });
});
