import type { Metadata } from 'next';
import { AdminCatalogPage } from '@/components/admin/admin-catalog-page';

export const metadata: Metadata = { title: 'Catalog & providers' };

export default function Page() {
  return <AdminCatalogPage />;
}
