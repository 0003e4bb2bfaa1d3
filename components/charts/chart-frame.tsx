// The frame the hand-rolled SVG charts share: y gridlines with labels, the plot (an SVG stretched to the
// frame's width; strokes keep their width), sparse x labels, a legend, and the figures as a visually
// hidden table so screen readers get the numbers rather than a picture.
import type { ReactNode } from 'react';
import { cx } from '@/components/ui/cx';
import { formatTick, type AxisUnit, type Ticks } from './nice-ticks';

export const PLOT_W = 600;
export const PLOT_H = 160;

export interface SeriesStyle {
  name: string;
  /** Tailwind fill/stroke colour utilities for the series, e.g. 'fill-accent' / 'stroke-accent'. */
  swatch: string;
}

export function ChartFrame({
  label,
  labels,
  ticks: axisTicks,
  unit,
  formatY,
  series,
  rows,
  children,
  className,
}: {
  /** What the chart shows, e.g. "Spend per day"; also names the data table. */
  label: string;
  labels: string[];
  /** The y axis (nice-ticks.ts): gridlines from the top down to 0. */
  ticks: Ticks;
  /** How the axis labels are written (each label exactly its gridline's value). */
  unit: AxisUnit;
  /** Exact values, for the accessible table. */
  formatY: (v: number) => string;
  series: SeriesStyle[];
  /** Values per series, for the accessible table (null = no data). */
  rows: (number | null)[][];
  children: ReactNode;
  className?: string;
}) {
  const ticks = axisTicks.values.map((v) => formatTick(v, axisTicks.step, unit));
  // At most six x labels, placed under their period and never truncated, so they fit a phone too.
  const every = Math.max(1, Math.ceil(labels.length / 6));
  // The y axis is as wide as its longest label; the x labels and legend start after it.
  const axis = { width: `${Math.max(...ticks.map((t) => t.length)) + 1}ch` };
  return (
    <figure className={cx('relative min-w-0 text-[11px]', className)}>
      <div className="flex gap-2">
        <div aria-hidden="true" style={axis} className="flex h-40 shrink-0 flex-col justify-between text-right text-muted tabular-nums">
          {ticks.map((t, i) => (
            <span key={i} className="leading-none">
              {t}
            </span>
          ))}
        </div>
        <div className="relative h-40 min-w-0 flex-1">
          <div aria-hidden="true" className="absolute inset-0 flex flex-col justify-between">
            {ticks.map((_, i) => (
              <div key={i} className="border-t border-dashed border-border" />
            ))}
          </div>
          <svg viewBox={`0 0 ${PLOT_W} ${PLOT_H}`} preserveAspectRatio="none" aria-hidden="true" className="absolute inset-0 size-full overflow-visible">
            {children}
          </svg>
        </div>
      </div>
      <div aria-hidden="true" className="mt-2 flex gap-2 text-muted">
        <span style={axis} className="shrink-0" />
        <div className="relative h-4 min-w-0 flex-1">
          {labels.map((l, i) =>
            i % every === 0 ? (
              <span key={i} style={{ left: `${((i + 0.5) / labels.length) * 100}%` }} className="absolute top-0 -translate-x-1/2 whitespace-nowrap">
                {l}
              </span>
            ) : null,
          )}
        </div>
      </div>
      {series.length > 1 ? (
        <figcaption style={{ paddingLeft: `calc(${axis.width} + 0.5rem)` }} className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-muted">
          {series.map((s) => (
            <span key={s.name} className="inline-flex items-center gap-1.5">
              <svg viewBox="0 0 10 10" aria-hidden="true" className="size-2.5">
                <rect width="10" height="10" rx="2" className={s.swatch} />
              </svg>
              {s.name}
            </span>
          ))}
        </figcaption>
      ) : null}
      {/* sr-only on a wrapper: a table grows to fit its rows whatever its own size, so it would stretch the page. */}
      <div className="sr-only">
        <table>
          <caption>{label}</caption>
          <thead>
            <tr>
              <th scope="col">Period</th>
              {series.map((s) => (
                <th key={s.name} scope="col">
                  {s.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {labels.map((l, i) => (
              <tr key={i}>
                <th scope="row">{l}</th>
                {rows.map((r, j) => (
                  <td key={j}>{r[i] === null || r[i] === undefined ? 'no data' : formatY(r[i] as number)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
