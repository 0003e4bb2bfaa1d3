import type { Metadata } from 'next';
import { OrganizationPage } from '@/components/organization/organization-page';

export const metadata: Metadata = { title: 'Organization' };

export default function Page() {
  return <OrganizationPage />;
}
