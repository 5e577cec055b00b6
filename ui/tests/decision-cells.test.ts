// The decision table's figure cells written in place (issue #17): a what-if move changes a
// figure's text node, not its cell; cells follow the column order; a scenario taken out loses
// its cell; code quotes, notes, tones, the reference column and the "was" line are written as
// the markup wrote them.

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

  it("adds and updates the saved figure as a 'was' line while a what-if is shown", () => {
    const tr = table();
    const saved = new Map([["a", "$1.00"]]);
    const was = (s: ScenarioFigures, text: string) => (saved.get(s.id) !== text ? (saved.get(s.id) ?? null) : null);
    writeCells(tr, row, [fig("a", "$1.00")], ctx, null, was);
    expect(tr.querySelector(".was")).toBeNull();
    writeCells(tr, row, [fig("a", "$1.20")], ctx, null, was);
    expect(tr.querySelector("[data-testid='was-a-total_cash']")?.textContent).toBe("was $1.00");
    writeCells(tr, row, [fig("a", "$1.40")], ctx, null, was);
    expect(texts(tr)).toEqual(["figure-a-total_cash=$1.40was $1.00"]);
    writeCells(tr, row, [fig("a", "$1.00")], ctx, null, was);
    expect(tr.querySelector(".was")).toBeNull();
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
    const was = (s: ScenarioFigures, text: string) => (saved.get(s.id) !== text ? (saved.get(s.id) ?? null) : null);
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
