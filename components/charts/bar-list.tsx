// Horizontal bars per item (spend per model): a ranked list that reads well on a phone.
import type { ReactNode } from 'react';

export function BarList({ label, items, format }: { label: string; items: { key: string; label: ReactNode; value: number; detail?: ReactNode }[]; format: (v: number) => string }) {
  const max = Math.max(0, ...items.map((i) => i.value)) || 1;
  return (
    <ul aria-label={label} className="space-y-3">
      {items.map((item) => (
        <li key={item.key}>
          <div className="flex items-baseline justify-between gap-3 text-sm">
            <span className="min-w-0 truncate font-medium text-foreground">{item.label}</span>
            <span className="shrink-0 text-muted tabular-nums">
              {format(item.value)}
              {item.detail ? <span className="ml-2 text-xs">{item.detail}</span> : null}
            </span>
          </div>
          <div aria-hidden="true" className="mt-1.5 h-2 overflow-hidden rounded-full bg-border/60">
            <div className="h-full rounded-full bg-accent" style={{ width: `${Math.max(1.5, (item.value / max) * 100)}%` }} />
          </div>
        </li>
      ))}
    </ul>
  );
}
