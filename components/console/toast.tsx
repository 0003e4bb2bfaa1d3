'use client';

// Short confirmations ("Key deleted") in a polite live region, placed where they cover no form:
// - wide screens: a column in the bottom-right corner, newest on top, at most three; dialogs are centred and
//   page forms sit in the content column, so the corner stays clear of their fields and buttons.
// - phones: a deck in the band of the top bar (which holds no form), newest in front with the two before it
//   peeking out beneath; dialogs on a phone leave that band free (see dialog.tsx).
// Toasts hold nothing to click and let clicks through (pointer-events: none), so one over the top bar never
// blocks its buttons. The region is a manual popover, so it is in the top layer and shows above an open modal
// dialog's backdrop (a plain z-index cannot). While a modal is open, everything outside it is inert (hidden
// from screen readers), so the region then moves into that dialog (useToastHost), still positioned as above:
// shown after the dialog, it is drawn above it.
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { cx } from '@/components/ui/cx';

type Toast = { id: number; message: string; tone: 'success' | 'error' };
const ToastContext = createContext<(message: string, tone?: Toast['tone']) => void>(() => {});
const HostContext = createContext<(host: HTMLElement, open: boolean) => void>(() => {});

/** How many toasts are on screen at once; a newer one pushes the oldest out. */
export const VISIBLE_TOASTS = 3;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  // The open modal dialogs, the last on top: the region lives in the topmost.
  const [hosts, setHosts] = useState<HTMLElement[]>([]);
  const setHost = useCallback((host: HTMLElement, open: boolean) => setHosts((list) => [...list.filter((h) => h !== host), ...(open ? [host] : [])]), []);
  const host = hosts.at(-1) ?? null;
  const push = useCallback((message: string, tone: Toast['tone'] = 'success') => {
    setToasts((list) => [{ id: Date.now() + Math.random(), message, tone }, ...list].slice(0, VISIBLE_TOASTS));
  }, []);
  // Shown as it mounts (again when it moves into or out of a dialog): the top layer, above what opened before.
  const show = useCallback((element: HTMLDivElement | null) => {
    if (element && typeof element.showPopover === 'function' && !element.matches(':popover-open')) element.showPopover();
  }, []);
  const region = (
    <div
      ref={show}
      popover="manual"
      aria-live="polite"
      role="status"
      aria-label="Notifications"
      className={cx(
        'pointer-events-none fixed m-0 overflow-visible border-0 bg-transparent p-0 text-inherit',
        // Phone: the top bar's band (4rem), full width less a margin.
        'inset-x-2 top-2 bottom-auto h-14 w-auto',
        // Wider: the bottom-right corner, a column growing upwards.
        'sm:inset-x-auto sm:top-auto sm:right-4 sm:bottom-4 sm:flex sm:h-auto sm:w-80 sm:flex-col sm:gap-2',
      )}
    >
      {toasts.map((t, index) => (
        <ToastItem key={t.id} toast={t} depth={index} onDone={() => setToasts((list) => list.filter((x) => x.id !== t.id))} />
      ))}
    </div>
  );
  return (
    <ToastContext.Provider value={push}>
      <HostContext.Provider value={setHost}>
        {children}
        {host ? createPortal(region, host) : region}
      </HostContext.Provider>
    </ToastContext.Provider>
  );
}

// On a phone the deck's cards sit on top of each other, each older one 6px lower and a little narrower.
const DECK = ['z-30', 'z-20 max-sm:translate-y-1.5 max-sm:scale-x-95', 'z-10 max-sm:translate-y-3 max-sm:scale-x-90'];

function ToastItem({ toast, depth, onDone }: { toast: Toast; depth: number; onDone: () => void }) {
  useEffect(() => {
    const timer = setTimeout(onDone, 4000);
    return () => clearTimeout(timer);
  }, [onDone]);
  return (
    <div
      data-toast=""
      className={cx(
        'flex items-center gap-2 rounded-xl px-4 text-sm font-medium shadow-lg ring-1',
        'max-sm:absolute max-sm:inset-x-0 max-sm:top-0 max-sm:h-11 sm:py-2.5',
        DECK[depth],
        toast.tone === 'error' ? 'bg-red-700 text-white ring-red-800' : 'bg-zinc-900 text-white ring-white/10 dark:bg-zinc-100 dark:text-zinc-900',
      )}
    >
      <span aria-hidden="true">{toast.tone === 'error' ? '!' : '✓'}</span>
      {/* Under the newest, a phone shows only the edges of older cards; their words were announced when they came. */}
      <span className={cx('min-w-0 max-sm:line-clamp-2 max-sm:text-xs max-sm:leading-4', depth > 0 && 'max-sm:invisible')}>{toast.message}</span>
    </div>
  );
}

export const useToast = () => useContext(ToastContext);

/** For modal dialogs: `(dialog, true)` once shown, `(dialog, false)` when closed; toasts live in the topmost one. */
export const useToastHost = () => useContext(HostContext);
