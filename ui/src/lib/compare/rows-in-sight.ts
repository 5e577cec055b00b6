// The decision table's figure rows, written only when someone can see them (issue #17). While a
// what-if is dragged and the charts are watched, the table sits scrolled away or under the pinned
// driver panel; laying it out again for rows nobody could see cost each move about 4 ms. A row
// out of sight keeps its newest writing waiting until it comes into sight or the drag rests
// (`settleMs` without a move), so the page's text is never stale for longer than that rest.
// Rows written above what is watched would push it down as their heights change, and WebKit has
// no scroll anchoring: the scroll area then moves by what those rows grew or shrank.

export class RowsInSight {
  private readonly settleMs: number;
  /** Rows whose newest writing waits, with the writing. */
  private readonly waiting = new Map<HTMLTableRowElement, () => void>();
  private readonly written = new WeakSet<HTMLTableRowElement>();
  /** The rows followed, and those the observer last saw out of sight. */
  private readonly rows = new Set<HTMLTableRowElement>();
  private readonly unseen = new WeakSet<HTMLTableRowElement>();
  private observer: IntersectionObserver | null = null;
  private root: HTMLElement | null = null;
  private cover = 0;
  private settle: ReturnType<typeof setTimeout> | undefined;

  constructor(settleMs = 200) {
    this.settleMs = settleMs;
  }

  /** Runs `write` for row `tr` now; or, when `defer` and the row is out of sight (and was
   *  written before), once it comes into sight or the drag rests. */
  write(tr: HTMLTableRowElement, write: () => void, defer: boolean): void {
    if (defer && this.unseen.has(tr) && this.written.has(tr)) {
      this.waiting.set(tr, write);
      clearTimeout(this.settle);
      this.settle = setTimeout(() => this.flush(), this.settleMs);
      return;
    }
    this.waiting.delete(tr);
    write();
    this.written.add(tr);
  }

  /** Follows row `tr` while it is on the page (an attachment: returns what ends it). */
  readonly watch = (tr: HTMLTableRowElement): (() => void) => {
    this.rows.add(tr);
    this.observer?.observe(tr);
    return () => {
      this.rows.delete(tr);
      this.observer?.unobserve(tr);
      this.waiting.delete(tr);
    };
  };

  /** Watches the rows within scroll area `root`, less the `cover` pixels at its top that a
   *  pinned panel hides; returns what stops it. Without an IntersectionObserver (the unit
   *  tests' DOM) every row counts as seen. */
  observe(root: HTMLElement, cover: number): () => void {
    if (typeof IntersectionObserver === "undefined") return () => {};
    this.root = root;
    this.cover = cover;
    const observer = new IntersectionObserver((entries) => this.seen(entries), { root, rootMargin: `-${cover}px 0px 0px 0px` });
    this.observer = observer;
    for (const tr of this.rows) observer.observe(tr);
    return () => {
      observer.disconnect();
      if (this.observer === observer) this.observer = null;
      for (const tr of this.rows) this.unseen.delete(tr);
    };
  }

  private seen(entries: IntersectionObserverEntry[]): void {
    for (const e of entries) {
      const tr = e.target as HTMLTableRowElement;
      if (!e.isIntersecting) {
        this.unseen.add(tr);
        continue;
      }
      this.unseen.delete(tr);
      const write = this.waiting.get(tr);
      if (write) {
        this.waiting.delete(tr);
        write();
      }
    }
  }

  /** Writes every waiting row, keeping what is watched in place when rows above it change
   *  height (their sizes are read before and after, two layouts in all). */
  flush(): void {
    clearTimeout(this.settle);
    if (this.waiting.size === 0) return;
    const rows = [...this.waiting];
    this.waiting.clear();
    const root = this.root;
    const top = root ? root.getBoundingClientRect().top + this.cover : 0;
    const above = rows.map(([tr]) => {
      const r = tr.getBoundingClientRect();
      return root && r.bottom <= top ? r.height : null;
    });
    for (const [, write] of rows) write();
    let moved = 0;
    rows.forEach(([tr], i) => {
      const before = above[i];
      if (before !== null && before !== undefined) moved += tr.getBoundingClientRect().height - before;
    });
    if (root && moved !== 0) root.scrollTop += moved;
  }

  /** Stops the rest timer (the screen is going away). */
  dispose(): void {
    clearTimeout(this.settle);
    this.waiting.clear();
  }
}
