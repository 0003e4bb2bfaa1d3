import type { Metadata } from 'next';
import { AccountSettingsPage } from '@/components/account/account-settings-page';

export const metadata: Metadata = { title: 'Account settings' };

export default function Page() {
  return <AccountSettingsPage />;
}
