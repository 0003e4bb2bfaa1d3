import type { Metadata } from 'next';
import { SsoPage } from '@/components/sso/sso-page';

export const metadata: Metadata = { title: 'Single sign-on' };

export default function Page() {
  return <SsoPage />;
}
