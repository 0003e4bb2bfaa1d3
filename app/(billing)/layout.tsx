import type { ReactNode } from 'react';
import { CenteredFrame } from '@/components/ui/centered-frame';

/** Checkout pages (the sandbox's) and the page a checkout returns to: one quiet, centred frame. */
export default function BillingLayout({ children }: { children: ReactNode }) {
  return <CenteredFrame>{children}</CenteredFrame>;
}
