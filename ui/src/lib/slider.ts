// The what-if sliders' arithmetic (issue #17): a value snapped to the slider's step, the value
// under a pointer, and the value a key moves to. The slider is drawn with plain elements rather
// than `<input type="range">`: in the app under WebKitGTK here, a new value in a native input
// (range, number or text) made the next rendering update take 16–19 ms, against 2–3 ms for a
// moved element (ARCHITECTURE.md).

/** Decimal places of `step` ("0.005" → 3), so a snapped value carries no float noise. */
function places(step: number): number {
  const text = String(step);
  const e = text.indexOf("e-");
  if (e >= 0) return Number(text.slice(e + 2));
  return text.split(".")[1]?.length ?? 0;
}

/** `value` on the slider: within [min, max], on a whole number of steps from `min`. */
export function snap(value: number, min: number, max: number, step: number): number {
  if (!Number.isFinite(value)) return min;
  const clamped = Math.min(max, Math.max(min, value));
  if (!(step > 0)) return clamped;
  const n = Math.round((clamped - min) / step);
  const snapped = Number((min + n * step).toFixed(Math.max(places(step), places(min))));
  return snapped > max ? Number((snapped - step).toFixed(places(step))) : snapped;
}

/** Where `value` sits on the track, from 0 (min) to 1 (max). */
export function fractionOf(value: number, min: number, max: number): number {
  if (!(max > min) || !Number.isFinite(value)) return 0;
  return Math.min(1, Math.max(0, (value - min) / (max - min)));
}

/** The value under a pointer at `x` on a track from `left` that is `width` wide. */
export function valueAt(x: number, left: number, width: number, min: number, max: number, step: number): number {
  if (!(width > 0)) return snap(min, min, max, step);
  return snap(min + ((x - left) / width) * (max - min), min, max, step);
}

/** The value key `key` moves `value` to (null: the key is not the slider's): the arrows by one
 *  step, Page Up and Page Down by a tenth of the range (at least a step), Home and End to the
 *  ends, as the ARIA slider pattern has it. */
export function valueForKey(key: string, value: number, min: number, max: number, step: number): number | null {
  const big = Math.max(step, Math.round((max - min) / 10 / step) * step);
  switch (key) {
    case "ArrowRight":
    case "ArrowUp":
      return snap(value + step, min, max, step);
    case "ArrowLeft":
    case "ArrowDown":
      return snap(value - step, min, max, step);
    case "PageUp":
      return snap(value + big, min, max, step);
    case "PageDown":
      return snap(value - big, min, max, step);
    case "Home":
      return snap(min, min, max, step);
    case "End":
      return snap(max, min, max, step);
    default:
      return null;
  }
}
