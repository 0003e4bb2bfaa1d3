import type { Metadata } from 'next';
import { WebhooksPage } from '@/components/webhooks/webhooks-page';

export const metadata: Metadata = { title: 'Webhooks & alerts' };

export default function Page() {
  return <WebhooksPage />;
}
