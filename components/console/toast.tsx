'use client';

// Short confirmations ("Key deleted") in a polite live region. They stack (at most three, newest last) in
// the bottom-right corner on wide screens, away from the forms in the content column and dialogs; on a
// phone they sit at the top, under the header, where no form's submit button is.
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { cx } from '@/components/ui/cx';

type Toast = { id: number; message: string; tone: 'success' | 'error' };
const ToastContext = createContext<(message: string, tone?: Toast['tone']) => void>(() => {});

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const push = useCallback((message: string, tone: Toast['tone'] = 'success') => {
    setToasts((list) => [...list.slice(-2), { id: Date.now() + Math.random(), message, tone }]);
  }, []);
  return (
    <ToastContext.Provider value={push}>
      {children}
      <div aria-live="polite" role="status" className="pointer-events-none fixed inset-x-0 top-16 z-50 flex flex-col items-center gap-2 px-4 sm:top-auto sm:bottom-4 sm:left-auto sm:items-end">
        {toasts.map((t) => (
          <ToastItem key={t.id} toast={t} onDone={() => setToasts((list) => list.filter((x) => x.id !== t.id))} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

function ToastItem({ toast, onDone }: { toast: Toast; onDone: () => void }) {
  useEffect(() => {
    const timer = setTimeout(onDone, 4000);
    return () => clearTimeout(timer);
  }, [onDone]);
  return (
    <div
      className={cx(
        'pointer-events-auto flex max-w-md items-center gap-2 rounded-xl px-4 py-2.5 text-sm font-medium shadow-lg ring-1',
        toast.tone === 'error' ? 'bg-red-700 text-white ring-red-800' : 'bg-zinc-900 text-white ring-white/10 dark:bg-zinc-100 dark:text-zinc-900',
      )}
    >
      <span aria-hidden="true">{toast.tone === 'error' ? '!' : '✓'}</span>
      {toast.message}
    </div>
  );
}

export const useToast = () => useContext(ToastContext);
