// Axis ticks: round steps (1, 2, 2.5 or 5 × 10ⁿ) from 0 up to the first step at or above the data's maximum,
// and labels with exactly the decimals the step needs, so a label always reads as the value of its
// gridline ($0.015 above $0.010 and $0.005, never "$0.02" above "$0.0075").
export type AxisUnit = 'usd' | 'count' | 'ms' | 'ratio';

export interface Ticks {
  /** Top of the axis (the last tick). */
  max: number;
  step: number;
  /** From the top down to 0, as the frame lays them out. */
  values: number[];
}

const STEPS = [1, 2, 2.5, 5, 10];

/**
 * Ticks from 0 to at least `dataMax`, about `target` intervals (3–5 for the default 4). `unit: 'count'` (tokens,
 * requests) steps by whole numbers only: no "0.25 tokens" on an empty chart, no 7.5 between 5 and 10.
 */
export function niceTicks(dataMax: number, target = 4, unit?: AxisUnit): Ticks {
  const whole = unit === 'count';
  // A count's axis reaches 1 at least, so a whole step (1 at the smallest) is always among STEPS × 10ⁿ.
  const top = Number.isFinite(dataMax) && dataMax > 0 ? (whole ? Math.max(1, dataMax) : dataMax) : 1;
  const raw = top / target;
  const exp = 10 ** Math.floor(Math.log10(raw));
  const step = STEPS.map((s) => s * exp).find((s) => s >= raw * (1 - 1e-9) && (!whole || (s >= 1 && Number.isInteger(s))))!;
  const count = Math.max(1, Math.ceil(top / step - 1e-9));
  const values: number[] = [];
  for (let i = count; i >= 0; i--) values.push(roundTo(i * step, decimalsOf(step)));
  return { max: values[0]!, step, values };
}

/** Decimals needed to write `step` exactly (0.005 → 3, 2.5 → 1, 0.25 → 2, 500 → 0). */
export function decimalsOf(step: number): number {
  for (let d = 0; d <= 12; d++) {
    const scaled = step * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-9 * Math.max(1, scaled)) return d;
  }
  return 12;
}

const roundTo = (v: number, d: number) => Number(v.toFixed(d));

/** "1.5K" with the decimals `step` needs in that unit (never rounding a tick to another value). */
function scaled(v: number, step: number): string {
  for (const [size, suffix] of [
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'K'],
  ] as const) {
    if (step >= size) return `${(v / size).toFixed(decimalsOf(step / size))}${suffix}`;
  }
  return v.toFixed(decimalsOf(step));
}

/** A tick's label in `unit` (ratio: 0–1 shown as a percentage; ms: seconds from 1 s steps). */
export function formatTick(v: number, step: number, unit: AxisUnit): string {
  switch (unit) {
    case 'usd': {
      if (v === 0) return '$0';
      if (step >= 1000) return `$${scaled(v, step)}`;
      const d = decimalsOf(step);
      // Cents when there are any decimals at all ($0.50, not $0.5); more when the step needs them.
      return `$${v.toFixed(d === 0 ? 0 : Math.max(2, d))}`;
    }
    case 'count':
      return scaled(v, step);
    case 'ms':
      return step >= 1000 ? `${(v / 1000).toFixed(decimalsOf(step / 1000))} s` : `${v.toFixed(decimalsOf(step))} ms`;
    case 'ratio':
      return `${(v * 100).toFixed(decimalsOf(step * 100))}%`;
  }
}
