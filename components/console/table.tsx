'use client';

// The console's one table. On a narrow screen it scrolls sideways inside its own box instead of squeezing its
// columns or widening the page, and a row's actions (ActionsTh/ActionsTd, the last column) stay pinned to the
// right edge while the other columns scroll under them, so Edit/Revoke/Delete are always on screen.
import { useEffect, useRef, useState, type ComponentProps } from 'react';
import { cx } from '@/components/ui/cx';

export function Table({ className, label, ...props }: ComponentProps<'table'> & { label: string }) {
  const box = useRef<HTMLDivElement>(null);
  // Whether the table is wider than its box right now: only then does the pinned column draw its edge.
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return (
    // `relative`: visually hidden (absolutely positioned) cell text stays inside the scroll box instead of
    // widening the page on a phone.
    <div
      ref={box}
      data-scrolls={scrolls ? '' : undefined}
      className="group/table relative -mx-5 overflow-x-auto sm:-mx-6"
      role="region"
      aria-label={label}
      tabIndex={0}
    >
      {/* border-separate: a pinned cell carries its own border (collapsed borders stay behind when a cell sticks). */}
      <table className={cx('w-full min-w-max border-separate border-spacing-0 text-left text-sm', className)} {...props} />
    </div>
  );
}

export function Th({ className, ...props }: ComponentProps<'th'>) {
  return <th scope="col" className={cx('border-b border-border px-3 py-2.5 text-xs font-medium tracking-wide whitespace-nowrap text-muted uppercase first:pl-5 last:pr-5 sm:first:pl-6 sm:last:pr-6', className)} {...props} />;
}

export function Td({ className, ...props }: ComponentProps<'td'>) {
  return <td className={cx('border-b border-border px-3 py-3 align-middle text-foreground first:pl-5 last:pr-5 sm:first:pl-6 sm:last:pr-6 [tr:last-child_&]:border-b-0', className)} {...props} />;
}

// Pinned to the right edge of the scroll box, on the card's own background so scrolled cells pass under it;
// a soft edge on its left shows that more of the row lies beneath while the table scrolls.
const pinned = 'sticky right-0 z-10 bg-surface-raised text-right whitespace-nowrap group-data-scrolls/table:shadow-[-10px_0_10px_-10px_rgb(0_0_0/0.35)]';

/** The header of a row-actions column (last in the row); visually hidden "Actions" unless given a label. */
export function ActionsTh({ className, children, ...props }: ComponentProps<'th'>) {
  return (
    <Th className={cx(pinned, className)} {...props}>
      {children ?? <span className="sr-only">Actions</span>}
    </Th>
  );
}

/** A row's actions (buttons, menus, links): the last cell of the row, always on screen. */
export function ActionsTd({ className, ...props }: ComponentProps<'td'>) {
  return <Td className={cx(pinned, className)} {...props} />;
}
