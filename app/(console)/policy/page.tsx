import type { Metadata } from 'next';
import { PolicyPage } from '@/components/policy/policy-page';

export const metadata: Metadata = { title: 'Policy & limits' };

export default function Page() {
  return <PolicyPage />;
}
