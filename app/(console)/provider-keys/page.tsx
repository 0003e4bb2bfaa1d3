import type { Metadata } from 'next';
import { ProviderKeysPage } from '@/components/provider-keys/provider-keys-page';

export const metadata: Metadata = { title: 'Provider keys' };

export default function Page() {
  return <ProviderKeysPage />;
}
