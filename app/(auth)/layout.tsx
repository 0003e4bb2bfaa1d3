import Link from 'next/link';
import type { ReactNode } from 'react';
import { CenteredFrame } from '@/components/ui/centered-frame';

/** Sign-in, sign-up, terms, device approval, editor authorization and invites: one quiet, centred frame. */
export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <CenteredFrame
      footer={
        <>
          <Link href="/terms" className="underline-offset-4 hover:underline">
            Terms of service
          </Link>
          <span aria-hidden="true"> · </span>
          <a href="/docs" className="underline-offset-4 hover:underline">
            API reference
          </a>
        </>
      }
    >
      {children}
    </CenteredFrame>
  );
}
