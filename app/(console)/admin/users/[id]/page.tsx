import type { Metadata } from 'next';
import { AdminUserPage } from '@/components/admin/admin-user-page';

export const metadata: Metadata = { title: 'User' };

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <AdminUserPage id={id} />;
}
