// Lines per period (latency p50/p95, cached share); gaps where a period has no data.
import { ChartFrame, PLOT_H, PLOT_W, type SeriesStyle } from './chart-frame';
import { niceTicks, type AxisUnit } from './nice-ticks';

export function LineChart({
  label,
  labels,
  series,
  formatY,
  unit,
  max: fixedMax,
}: {
  label: string;
  labels: string[];
  series: (SeriesStyle & { stroke: string; values: (number | null)[] })[];
  formatY: (v: number) => string;
  unit: AxisUnit;
  /** The axis covers at least this (a ratio chart: 1). */
  max?: number;
}) {
  const all = series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const ticks = niceTicks(fixedMax ?? Math.max(0, ...all), undefined, unit);
  const max = ticks.max;
  const step = PLOT_W / Math.max(1, labels.length);
  const x = (i: number) => i * step + step / 2;
  const y = (v: number) => PLOT_H - (v / max) * PLOT_H;
  return (
    <ChartFrame label={label} labels={labels} ticks={ticks} unit={unit} formatY={formatY} series={series} rows={series.map((s) => s.values)}>
      {series.map((s) => {
        // Break the path at nulls: "M" starts a new segment.
        let d = '';
        let pen = false;
        s.values.forEach((v, i) => {
          if (v === null) {
            pen = false;
            return;
          }
          d += `${pen ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
          pen = true;
        });
        return (
          <g key={s.name}>
            <path d={d} fill="none" strokeWidth={2} vectorEffect="non-scaling-stroke" strokeLinejoin="round" className={s.stroke} />
            {s.values.map((v, i) =>
              v === null ? null : (
                <g key={i}>
                  <title>{`${labels[i]}: ${s.name} ${formatY(v)}`}</title>
                  <line x1={x(i)} x2={x(i)} y1={y(v)} y2={y(v) + 0.01} strokeWidth={6} strokeLinecap="round" vectorEffect="non-scaling-stroke" className={s.stroke} />
                </g>
              ),
            )}
          </g>
        );
      })}
    </ChartFrame>
  );
}
