import type { Metadata } from 'next';
import { PlaygroundPage } from '@/components/playground/playground-page';

export const metadata: Metadata = { title: 'Playground' };

export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const model = (await searchParams).model;
  return <PlaygroundPage initialModel={typeof model === 'string' && model ? model : undefined} />;
}
