import type { ReactNode } from 'react';

/** The centred card every auth step sits in: a heading, a line of context, then the step itself. */
export function AuthCard({ title, description, children, footer }: { title: string; description?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="w-full max-w-md">
      <div className="rounded-2xl border border-border bg-surface-raised p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-semibold tracking-tight text-balance text-foreground">{title}</h1>
        {description ? <div className="mt-2 text-sm leading-6 text-muted">{description}</div> : null}
        <div className="mt-6">{children}</div>
      </div>
      {footer ? <div className="mt-6 text-center text-sm text-muted">{footer}</div> : null}
    </div>
  );
}
