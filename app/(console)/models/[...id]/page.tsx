import type { Metadata } from 'next';
import { ModelProvidersPage } from '@/components/models/model-providers-page';

export const metadata: Metadata = { title: 'Model providers' };

/** /models/<author>/<slug>: one model's providers, prices and health. */
export default async function Page({ params }: { params: Promise<{ id: string[] }> }) {
  const { id } = await params;
  return <ModelProvidersPage id={id.map(decodeURIComponent).join('/')} />;
}
