import type { ReactNode } from 'react';

/** The top of every console page: an h1, a line of context and the page's main actions. */
export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold tracking-tight text-foreground">{title}</h1>
        {description ? <div className="mt-1 max-w-2xl text-sm leading-6 text-muted">{description}</div> : null}
      </div>
      {actions ? <div className="flex shrink-0 flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}

/** A titled panel inside a page. */
export function Section({ id, title, description, actions, children, className }: { id?: string; title: string; description?: ReactNode; actions?: ReactNode; children: ReactNode; className?: string }) {
  const headingId = id ? `${id}-heading` : undefined;
  return (
    <section id={id} aria-labelledby={headingId} className={`scroll-mt-24 rounded-2xl border border-border bg-surface-raised shadow-xs ${className ?? ''}`}>
      <div className="flex flex-col gap-3 border-b border-border px-5 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <div className="min-w-0">
          <h2 id={headingId} className="text-base font-semibold tracking-tight text-foreground">
            {title}
          </h2>
          {description ? <div className="mt-0.5 text-sm leading-6 text-muted">{description}</div> : null}
        </div>
        {actions ? <div className="flex shrink-0 flex-wrap gap-2">{actions}</div> : null}
      </div>
      <div className="px-5 py-5 sm:px-6">{children}</div>
    </section>
  );
}
