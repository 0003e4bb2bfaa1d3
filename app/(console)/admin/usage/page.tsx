import type { Metadata } from 'next';
import { AdminUsagePage } from '@/components/admin/admin-usage-page';

export const metadata: Metadata = { title: 'Usage & margin' };

export default function Page() {
  return <AdminUsagePage />;
}
