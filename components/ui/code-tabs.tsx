'use client';

import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { codeFrameClasses } from './code-frame';
import { CopyButton } from './copy-button';
import { cx } from './cx';

export type CodeTab = {
  id: string;
  label: string;
  /** The raw text, for the copy button. */
  code: string;
  /** The rendered panel, usually `<HighlightedCode>` rendered on the server. */
  content: ReactNode;
};

/**
 * Snippets in several languages behind WAI-ARIA tabs (arrow keys, Home/End, roving tabindex). The first
 * panel is server-rendered visible, so the page reads fine before and without hydration.
 */
export function CodeTabs({ tabs, label, className }: { tabs: CodeTab[]; label: string; className?: string }) {
  const [active, setActive] = useState(0);
  const baseId = useId();
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);
  const current = tabs[active] ?? tabs[0];

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const last = tabs.length - 1;
    const next =
      event.key === 'ArrowRight' ? (active === last ? 0 : active + 1)
      : event.key === 'ArrowLeft' ? (active === 0 ? last : active - 1)
      : event.key === 'Home' ? 0
      : event.key === 'End' ? last
      : undefined;
    if (next === undefined) return;
    event.preventDefault();
    setActive(next);
    tabRefs.current[next]?.focus();
  }

  return (
    <div className={cx(codeFrameClasses, className)}>
      <div className="flex items-center justify-between gap-4 border-b border-zinc-800 pr-3 pl-2">
        <div role="tablist" aria-label={label} onKeyDown={onKeyDown} className="flex">
          {tabs.map((tab, index) => {
            const selected = index === active;
            return (
              <button
                key={tab.id}
                ref={(el) => {
                  tabRefs.current[index] = el;
                }}
                id={`${baseId}-tab-${tab.id}`}
                type="button"
                role="tab"
                aria-selected={selected}
                aria-controls={`${baseId}-panel-${tab.id}`}
                tabIndex={selected ? 0 : -1}
                onClick={() => setActive(index)}
                className={cx(
                  '-mb-px border-b-2 px-3 py-2.5 text-xs font-medium transition-colors focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-400',
                  selected ? 'border-indigo-400 text-white' : 'border-transparent text-zinc-400 hover:text-zinc-200',
                )}
              >
                {tab.label}
              </button>
            );
          })}
        </div>
        {current ? <CopyButton text={current.code} label={`Copy ${current.label} snippet`} /> : null}
      </div>
      {tabs.map((tab, index) => (
        <div
          key={tab.id}
          id={`${baseId}-panel-${tab.id}`}
          role="tabpanel"
          aria-labelledby={`${baseId}-tab-${tab.id}`}
          hidden={index !== active}
        >
          {tab.content}
        </div>
      ))}
    </div>
  );
}
