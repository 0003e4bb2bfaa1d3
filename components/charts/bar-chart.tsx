// Vertical bars per period, optionally stacked (prompt + completion tokens). Each bar has a native tooltip.
import { ChartFrame, PLOT_H, PLOT_W, type SeriesStyle } from './chart-frame';
import { niceTicks, type AxisUnit } from './nice-ticks';

export function BarChart({
  label,
  labels,
  series,
  formatY,
  unit,
}: {
  label: string;
  labels: string[];
  series: (SeriesStyle & { values: number[] })[];
  formatY: (v: number) => string;
  unit: AxisUnit;
}) {
  const totals = labels.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const ticks = niceTicks(Math.max(0, ...totals), undefined, unit);
  const max = ticks.max;
  const slot = PLOT_W / Math.max(1, labels.length);
  const width = Math.max(1, Math.min(slot * 0.7, 28));
  return (
    <ChartFrame label={label} labels={labels} ticks={ticks} unit={unit} formatY={formatY} series={series} rows={series.map((s) => s.values)}>
      {labels.map((l, i) => {
        let y = PLOT_H;
        return (
          <g key={i}>
            <title>{`${l}: ${series.map((s) => `${series.length > 1 ? `${s.name} ` : ''}${formatY(s.values[i] ?? 0)}`).join(', ')}`}</title>
            {/* A full-height transparent target, so even an empty day shows its tooltip. */}
            <rect x={i * slot} y={0} width={slot} height={PLOT_H} className="fill-transparent" />
            {series.map((s) => {
              const h = ((s.values[i] ?? 0) / max) * PLOT_H;
              y -= h;
              return h > 0 ? <rect key={s.name} x={i * slot + (slot - width) / 2} y={y} width={width} height={h} rx={Math.min(2, width / 4)} className={s.swatch} /> : null;
            })}
          </g>
        );
      })}
    </ChartFrame>
  );
}
