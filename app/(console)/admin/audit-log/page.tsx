import type { Metadata } from 'next';
import { AdminAuditLogPage } from '@/components/admin/admin-audit-log-page';

export const metadata: Metadata = { title: 'Audit log · Operator' };

export default function Page() {
  return <AdminAuditLogPage />;
}
